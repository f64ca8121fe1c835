#!/bin/bash
# torture.sh: make torture. Huge page faults of every kind (hugetlb 2 MiB
# and 1 GiB, THP, mTHP) from several processes at once, on memory filled
# with a pattern and freed first, under stress-ng memory pressure, while
# the preemption model is switched at run time; every byte checked.
#  1. the patched kernel: at least TORTURE_FAULTS (100000) faults;
#  2. the patched debug kernel (lockdep, DEBUG_ATOMIC_SLEEP, DEBUG_PREEMPT,
#     DEBUG_VM, KASAN): the test programs, then a shorter torture.
# Any splat on either console counts. Writes results/torture.txt.
#
# Switching the preemption model rewrites static calls with text_poke_bp();
# multi-threaded TCG (QEMU 7.2) then oopses on int3 even on the unpatched
# kernel, so these boots use single-threaded TCG (-accel tcg,thread=single).
set -u
. "$(dirname "$0")/lib.sh"

faults=${TORTURE_FAULTS:-100000}
secs=${TORTURE_SECS:-1000}
out=$RESULTS/torture
mkdir -p "$out"
"$TOP/scripts/kernels.sh" patched || exit 1
step build patched-debug "$LOGS/build-debug.log" "$TOP/scripts/build-kernel.sh" \
	"$SRC_PATCHED" "$BUILD/obj-debug" "$TOP/config/guest.config" \
	"$TOP/config/patched.config" "$TOP/config/debug.config" || exit 1
step initramfs guest "$LOGS/initramfs.log" "$TOP/scripts/initramfs.sh" \
	"$BUILD/initramfs.cpio.gz" || exit 1

export QEMU_ACCEL=tcg,thread=single
boot() {	# boot NAME OBJ RUN TORTURE_OPTS TIMEOUT
	step torture "$1" "$out/$1.boot.log" "$TOP/scripts/boot.sh" \
		"$BUILD/$2/arch/x86/boot/bzImage" none "$3" "$out/$1.console.log" "$5" \
		"TORTURE_OPTS=$4"
	"$TOP/scripts/scan-console.sh" "$out/$1.console.log" "$1" \
		x86_clear_pages x86_clear_huge_page resched_ranges >"$out/$1.txt"
}
boot patched obj-patched torture.sh "-t,$secs,-n,$faults,-j,4,-P" $((secs + 300))
boot patched-debug obj-debug hugezero,faults,torture.sh \
	"-t,${TORTURE_DEBUG_SECS:-300},-n,${TORTURE_DEBUG_FAULTS:-5000},-j,4,-P" \
	$((${TORTURE_DEBUG_SECS:-300} + 600))

sum() { sed 's/\r$//' "$out"/*.console.log | awk -v k="$1" '$1 == k ":" { n += $2 } END { print n + 0 }'; }
splats=$(cat "$out"/*.txt | grep -c '^FAIL .*: splat:')
{
	echo "faults: $(sum faults)"
	echo "nonzero_bytes: $(sum nonzero_bytes)"
	echo "splats: $splats"
	for k in patched patched-debug; do
		f=$(sed 's/\r$//' "$out/$k.console.log" | awk '$1 == "faults:" { print $2 }')
		z=$(sed 's/\r$//' "$out/$k.console.log" | awk '$1 == "nonzero_bytes:" { print $2 }')
		echo "# $k: faults ${f:-none} nonzero_bytes ${z:-none}," \
			"$(grep -c '^PASS' "$out/$k.txt") passed, $(grep -c '^FAIL' "$out/$k.txt") failed"
	done
} >"$RESULTS/torture.txt"
cat "$RESULTS/torture.txt"
grep '^FAIL' "$out"/*.txt | sed 's/^/  /'
pass=$(cat "$out"/*.txt | grep -c '^PASS')
fail=$(cat "$out"/*.txt | grep -c '^FAIL')
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$(sum faults)" -ge "$faults" ]
