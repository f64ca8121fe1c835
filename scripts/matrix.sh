#!/bin/bash
# matrix.sh: make matrix. Build the patched kernel without PREEMPT_DYNAMIC
# as PREEMPT_NONE, PREEMPT_VOLUNTARY and PREEMPT (full), boot each and run
# the test suite (KUnit, hugezero, faults, console scan). The dynamic
# kernel is covered by make check.
set -u
. "$(dirname "$0")/lib.sh"

out=$RESULTS/matrix
rm -rf "$out"
mkdir -p "$out"
step deps host "$LOGS/deps.log" "$TOP/scripts/deps.sh" || exit 1
step unpack tree "$LOGS/unpack.log" "$TOP/scripts/unpack.sh" || exit 1
step apply patched "$LOGS/apply.log" "$TOP/scripts/apply.sh" || exit 1
step initramfs guest "$LOGS/initramfs.log" "$TOP/scripts/initramfs.sh" \
	"$BUILD/initramfs.cpio.gz" || exit 1
for m in none voluntary full; do
	obj=$BUILD/obj-matrix-$m
	res=$out/$m.txt
	if ! step build "matrix-$m" "$LOGS/build-matrix-$m.log" "$TOP/scripts/build-kernel.sh" \
		"$SRC_PATCHED" "$obj" "$TOP/config/guest.config" "$TOP/config/patched.config" \
		"$TOP/config/preempt-$m.config"; then
		echo "FAIL matrix-$m: build" >"$res"
		continue
	fi
	# preempt= is ignored without PREEMPT_DYNAMIC; the model is built in.
	step boot "matrix-$m" "$out/$m.boot.log" "$TOP/scripts/boot.sh" \
		"$obj/arch/x86/boot/bzImage" "$m" hugezero,faults "$out/$m.console.log" \
		"${BOOT_TIMEOUT:-600}" || echo "FAIL matrix-$m: boot" >"$res"
	"$TOP/scripts/scan-console.sh" "$out/$m.console.log" "matrix-$m" \
		x86_clear_pages x86_clear_huge_page >>"$res"
done
cat "$out"/*.txt >"$out/all.txt"
grep '^FAIL' "$out/all.txt"
for m in none voluntary full; do
	printf '%-16s %3s passed %3s failed\n' "matrix-$m" \
		"$(grep -c '^PASS' "$out/$m.txt")" "$(grep -c '^FAIL' "$out/$m.txt")"
done
echo "$(grep -c '^PASS' "$out/all.txt") passed, $(grep -c '^FAIL' "$out/all.txt") failed, $(grep -c '^SKIP' "$out/all.txt") skipped"
! grep -q '^FAIL' "$out/all.txt"
