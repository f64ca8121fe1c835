#!/bin/bash
# check.sh: the test suite (make check). Builds the baseline and patched
# kernels, runs checkpatch on the series, boots each kernel under
# preempt=none, voluntary and full, runs the KUnit suites and the guest
# tests, scans every console for splats, prints a table and ends with
# "N passed, N failed, N skipped". Exits non-zero on any failure.
set -u
. "$(dirname "$0")/lib.sh"

out=$RESULTS/check
rm -rf "$out"
mkdir -p "$out"
t0=$(date +%s)
rc=0

built=""
for k in baseline patched; do
	if "$TOP/scripts/kernels.sh" $k; then
		built="$built $k"
	else
		echo "FAIL $k: kernel build (see the log above)" >"$out/$k-build.txt"
	fi
done
if step checkpatch series "$LOGS/checkpatch.log" "$TOP/scripts/checkpatch.sh"; then
	echo "PASS series: checkpatch --strict" >"$out/series.txt"
else
	sed 's/^/FAIL series: checkpatch: /' "$LOGS/checkpatch.log" >"$out/series.txt"
fi
step initramfs guest "$LOGS/initramfs.log" "$TOP/scripts/initramfs.sh" \
	"$BUILD/initramfs.cpio.gz" || rc=1

# The series' KUnit suites must run on the patched kernel.
suites_patched="x86_clear_pages x86_clear_huge_page resched_ranges"
for k in baseline patched; do
	img=$BUILD/obj-$k/arch/x86/boot/bzImage
	suites=""
	[ $k = patched ] && suites=$suites_patched
	for p in none voluntary full; do
		res=$out/$k-$p.txt
		if [[ " $built " != *" $k "* ]] || [ ! -f "$BUILD/initramfs.cpio.gz" ]; then
			echo "FAIL $k/$p: not booted, kernel or initramfs missing" >"$res"
			continue
		fi
		step boot "$k/$p" "$out/$k-$p.boot.log" "$TOP/scripts/boot.sh" "$img" "$p" \
			hugezero "$out/$k-$p.console.log" "${BOOT_TIMEOUT:-600}" ||
			echo "FAIL $k/$p: boot: $(tail -n 1 "$out/$k-$p.boot.log")" >"$res"
		"$TOP/scripts/scan-console.sh" "$out/$k-$p.console.log" "$k/$p" $suites >>"$res"
		grep -q "preempt: .*($p)" "$out/$k-$p.console.log" ||
			echo "FAIL $k/$p: the guest did not run under preempt=$p" >>"$res"
	done
done

echo
printf '%-20s %7s %7s %7s\n' "kernel/preempt" passed failed skipped
for f in "$out"/*.txt; do
	printf '%-20s %7s %7s %7s\n' "$(basename "$f" .txt)" \
		"$(grep -c '^PASS' "$f")" "$(grep -c '^FAIL' "$f")" "$(grep -c '^SKIP' "$f")"
done
cat "$out"/*.txt >"$out/all.txt"
if grep -q '^FAIL' "$out/all.txt"; then
	echo
	echo "failures:"
	grep '^FAIL' "$out/all.txt" | sed 's/^/  /'
fi
echo "results: $out/all.txt (consoles: $out/*.console.log), $(($(date +%s) - t0))s"
pass=$(grep -c '^PASS' "$out/all.txt")
fail=$(grep -c '^FAIL' "$out/all.txt")
skip=$(grep -c '^SKIP' "$out/all.txt")
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ $rc -eq 0 ]
