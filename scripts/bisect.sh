#!/bin/bash
# bisect.sh: prove that every prefix of patches/series builds (with
# CONFIG_WERROR, the KUnit suites that exist at that point, and the same
# small config as the test kernels; every fragment option that the tree
# defines at that prefix must be set). One progress line per prefix.
set -u
. "$(dirname "$0")/lib.sh"

step deps host "$LOGS/deps.log" "$TOP/scripts/deps.sh" || exit 1
step unpack tree "$LOGS/unpack.log" "$TOP/scripts/unpack.sh" || exit 1
mapfile -t series < <(grep -v '^\s*#' "$TOP/patches/series" | grep .)
fail=0
for n in $(seq 1 ${#series[@]}); do
	name="$n/${#series[@]}"
	log=$LOGS/bisect-$n.log
	if APPLY_SCRATCH=$BUILD/src-bisect-apply APPLY_DEST=$BUILD/src-bisect \
		"$TOP/scripts/apply.sh" "$n" >"$log" 2>&1 &&
		step build "prefix $name" "$log.build" env CONFIG_CHECK=present \
			"$TOP/scripts/build-kernel.sh" "$BUILD/src-bisect" "$BUILD/obj-bisect" \
			"$TOP/config/guest.config" "$TOP/config/patched.config"; then
		echo "PASS prefix $name: ${series[$n-1]}"
	else
		echo "FAIL prefix $name: ${series[$n-1]} (logs: $log $log.build)"
		fail=$((fail + 1))
	fi
done
echo "$((${#series[@]} - fail)) passed, $fail failed"
[ $fail -eq 0 ]
