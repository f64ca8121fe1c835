#!/bin/bash
# kernels.sh [baseline] [patched] [seed]: unpack the tree, apply the series
# and build the named guest kernels (default baseline and patched), one
# progress line a step. seed is the seed series alone (patches/seed/).
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
	seed)
		step apply seed "$LOGS/apply-seed.log" env SERIES="$TOP/patches/seed/series" \
			APPLY_DEST="$BUILD/src-seed" APPLY_SCRATCH="$BUILD/src-seed-apply" \
			"$TOP/scripts/apply.sh" || { rc=1; continue; }
		step build seed "$LOGS/build-seed.log" "$TOP/scripts/build-kernel.sh" \
			"$BUILD/src-seed" "$BUILD/obj-seed" \
			"$TOP/config/guest.config" "$TOP/config/seed.config" || rc=1 ;;
	*) die "unknown kernel '$k' (baseline, patched or seed)" ;;
	esac
done
exit $rc
