#!/bin/bash
# kernels.sh [baseline] [patched]: unpack the tree, apply the series and
# build the named guest kernels (default both), one progress line a step.
set -u
. "$(dirname "$0")/lib.sh"

want=${*:-baseline patched}
step deps host "$LOGS/deps.log" "$TOP/scripts/deps.sh" || exit 1
step unpack tree "$LOGS/unpack.log" "$TOP/scripts/unpack.sh" || exit 1
rc=0
for k in $want; do
	case $k in
	baseline)
		step build baseline "$LOGS/build-baseline.log" "$TOP/scripts/build-kernel.sh" \
			"$SRC" "$BUILD/obj-baseline" "$TOP/config/guest.config" || rc=1 ;;
	patched)
		step apply patched "$LOGS/apply.log" "$TOP/scripts/apply.sh" || { rc=1; continue; }
		step build patched "$LOGS/build-patched.log" "$TOP/scripts/build-kernel.sh" \
			"$SRC_PATCHED" "$BUILD/obj-patched" \
			"$TOP/config/guest.config" "$TOP/config/patched.config" || rc=1 ;;
	*) die "unknown kernel '$k' (baseline or patched)" ;;
	esac
done
exit $rc
