#!/bin/bash
# torture.sh: make torture. Huge page faults of every kind (hugetlb 2 MiB
# and 1 GiB, THP, mTHP) from several processes at once, on memory filled
# with a pattern and freed first, and copy-on-write copies of hugetlb
# pages (and THP, which splits), under stress-ng memory pressure, while
# the preemption model is switched at run time; every byte checked.
# On the way, guest/torture.c asks the pool to clear free hugetlb pages
# (zero_free_hugepages) now and then, so that faults take zeroed and
# unzeroed pages at random: some must take zeroed ones (prezeroed_faults).
#  1. the patched kernel: at least TORTURE_FAULTS (100000) faults, within
#     TORTURE_SECS (1500 s: with copy-on-write rounds it takes ~1080 s);
#  2. the patched debug kernel (lockdep, DEBUG_ATOMIC_SLEEP, DEBUG_PREEMPT,
#     DEBUG_VM, KASAN): the test programs (clears, faults, copies: CoW,
#     migration, collapse), then a shorter torture.
# Any splat on either console counts. Writes results/torture.txt.
#
# Switching the preemption model rewrites static calls with text_poke_bp();
# multi-threaded TCG (QEMU 7.2) then oopses on int3 even on the unpatched
# kernel, so these boots use single-threaded TCG (-accel tcg,thread=single).
set -u
. "$(dirname "$0")/lib.sh"

faults=${TORTURE_FAULTS:-100000}
secs=${TORTURE_SECS:-1500}
out=$RESULTS/torture
mkdir -p "$out"
rm -f "$out"/*.txt
prepare patched debug || exit 1

export QEMU_ACCEL=tcg,thread=single
boot() {	# boot NAME OBJ RUN TORTURE_OPTS TIMEOUT
	step torture "$1" "$out/$1.boot.log" "$TOP/scripts/boot.sh" \
		"$BUILD/$2/arch/x86/boot/bzImage" none "$3" "$out/$1.console.log" "$5" \
		"TORTURE_OPTS=$4"
	judge "$out/$1.console.log" "$1" $PATCHED_SUITES >"$out/$1.txt"
}
# The margins: a worker in a 1 GiB CoW round may take minutes to stop.
boot patched obj-patched torture.sh "-t,$secs,-n,$faults,-j,4,-P" $((secs + 600))
boot patched-debug obj-debug hugezero,faults,copies,torture.sh \
	"-t,${TORTURE_DEBUG_SECS:-300},-n,${TORTURE_DEBUG_FAULTS:-5000},-j,4,-P" \
	$((${TORTURE_DEBUG_SECS:-300} + 1500))

# Measurements are KTAP diagnostics ("# faults: N") in the results:
# get KEY FILE...: their sum over FILEs, empty if none has one.
get() {
	local k=$1
	shift
	cat "$@" | tr -d '\r' | awk -v k="$k" '$1 == "#" && $2 == k ":" { n += $3; got = 1 }
		END { if (got) print n }'
}
sum() { get "$1" "$out"/*.ktap | grep . || echo 0; }
splats=$(cat "$out"/*.txt | grep -c '^FAIL .*: splat:')
# copied_pages: hugetlb pages (2 MiB or 1 GiB) copied on a write after
# fork() and checked on both sides, counted in huge pages.
keys="faults nonzero_bytes prezeroed_faults copied_pages copy_wrong_bytes"
{
	provenance
	for k in $keys; do echo "$k: $(sum "$k")"; done
	echo "splats: $splats"
	for k in patched patched-debug; do
		line="# $k:"
		for m in $keys; do line="$line $m $(get "$m" "$out/$k.ktap" | grep . || echo none)"; done
		echo "$line, $(grep -c '^PASS' "$out/$k.txt") passed, $(grep -c '^FAIL' "$out/$k.txt") failed"
	done
} >"$RESULTS/torture.txt"
cat "$RESULTS/torture.txt"
echo
tally "$out" || exit 1
[ "$(sum faults)" -ge "$faults" ] || { echo "fewer than $faults faults"; exit 1; }
[ "$(sum copy_wrong_bytes)" -eq 0 ] || { echo "wrong bytes in copied huge pages"; exit 1; }
[ "$(sum copied_pages)" -gt 0 ] || { echo "no huge page was copied"; exit 1; }
[ "$(sum nonzero_bytes)" -eq 0 ] || { echo "non-zero bytes in faulted huge pages"; exit 1; }
# The zero requests of guest/torture.c's zeroer: some faults took a page
# the pool had cleared beforehand, and read it as zero like the others.
[ "$(sum prezeroed_faults)" -gt 0 ] || { echo "no fault took a pre-zeroed page"; exit 1; }
