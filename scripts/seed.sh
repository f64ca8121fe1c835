#!/bin/bash
# seed.sh: make seed. The seed kernel (patches/seed/series: the series this
# project started from, kept as the reference that make latency measures)
# boots under preempt=none, voluntary and full with the correctness tests
# (hugezero, faults, copies) and a console scan, as make check's kernels
# do. make check runs the seed series' checkpatch only: a cold build of a
# third tree and its boots would not fit its time budget. Writes
# results/seed/, prints a table and "N passed, N failed, N skipped".
set -u
. "$(dirname "$0")/lib.sh"

out=$RESULTS/seed
rm -rf "$out"
mkdir -p "$out"
t0=$(date +%s)
prepare seed
for p in none voluntary full; do
	test_boot "$out" seed $p hugezero,faults,copies
done
echo
tally "$out"
fail=$?
echo "$(($(date +%s) - t0))s (consoles and KTAP results: $out/*.console.log, $out/*.ktap)"
[ "$fail" -eq 0 ]
