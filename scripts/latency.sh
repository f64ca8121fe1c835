#!/bin/bash
# latency.sh: make latency. Boots the baseline and the patched kernel under
# preempt=none, voluntary and full, and in each runs guest/latency.sh:
# cyclictest at SCHED_FIFO 99 on the CPU where a task faults 1 GiB hugetlb
# pages in a loop. Variants: mainline (baseline kernel); guarded,
# unguarded and chunked (patched kernel, switched with its evaluation
# knobs). Writes results/latency.csv and prints a table.
set -u
. "$(dirname "$0")/lib.sh"

dur=${LATENCY_DUR:-20}
out=$RESULTS/latency
csv=$RESULTS/latency.csv
mkdir -p "$out"
"$TOP/scripts/kernels.sh" baseline patched || exit 1
step initramfs guest "$LOGS/initramfs.log" "$TOP/scripts/initramfs.sh" \
	"$BUILD/initramfs.cpio.gz" || exit 1

echo "kernel,preempt,variant,max_us,p99_us" >"$csv.tmp"
fail=0
for k in baseline patched; do
	for p in none voluntary full; do
		log=$out/$k-$p.console.log
		# Three variants of $dur s each, plus boot: generous but bounded.
		if ! step latency "$k/$p" "$out/$k-$p.boot.log" "$TOP/scripts/boot.sh" \
			"$BUILD/obj-$k/arch/x86/boot/bzImage" "$p" latency.sh "$log" \
			$((dur * 6 + 180)) "latency_dur=$dur"; then
			fail=1
			continue
		fi
		if grep -aq '^not ok' "$log"; then
			grep -a '^not ok' "$log" | sed "s|^|  $k/$p: |"
			fail=1
		fi
		sed 's/\r$//' "$log" | awk -v k=$k -v p=$p '
			/^LATENCY / && /max_us=/ {
				for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
				print k "," p "," $2 "," v["max_us"] "," v["p99_us"]
			}' >>"$csv.tmp"
	done
done
mv "$csv.tmp" "$csv"
echo
column -s, -t "$csv"
echo "results: $csv (consoles: $out/*.console.log)"
[ $fail -eq 0 ]
