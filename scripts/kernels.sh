#!/bin/bash
# kernels.sh [KERNEL...]: make kernels. The packages, the tree and the
# named guest kernels (default baseline, product and patched; also seed,
# debug), one progress line a step; see build_guest in lib.sh.
set -u
. "$(dirname "$0")/lib.sh"

prepare_tree || exit 1
rc=0
for k in ${*:-baseline product patched}; do
	build_guest "$k" || rc=1
done
exit $rc
