#!/bin/bash
# bench.sh: make bench, the benchmark report.
#  1. On this host's CPU, in user space: bench/clearbench assembles the
#     patched tree's arch/x86/lib/clear_page_64.S and drives it in the
#     orders the kernel uses (mainline, multi, chunked, nt, default), next
#     to the fastest store loop this CPU has (limit) and the host kernel's
#     own hugetlb fault rate (host-fault). Medians of interleaved runs.
#     -> results/bench.csv, results/bench-raw.csv, results/bench.png
#  2. In the QEMU guest, faultbench under every strategy of the patched
#     kernel and on the baseline: demand, populate and fault-then-write,
#     with user and system time. TCG timing shows structure only.
#     -> results/guest-bench.csv
set -u
. "$(dirname "$0")/lib.sh"

rounds=${BENCH_ROUNDS:-7}
size=${BENCH_SIZE:-1G}
csv=$RESULTS/bench.csv
step deps host "$LOGS/deps.log" "$TOP/scripts/deps.sh" || exit 1
step unpack tree "$LOGS/unpack.log" "$TOP/scripts/unpack.sh" || exit 1
step apply patched "$LOGS/apply.log" "$TOP/scripts/apply.sh" || exit 1
step build clearbench "$LOGS/clearbench-build.log" make -C "$TOP/bench" TREE="$SRC_PATCHED" || exit 1
step verify clearbench "$LOGS/clearbench-verify.log" "$TOP/bench/build/clearbench" -V -s 64M -p 2M,1G || exit 1
# The machine should be otherwise idle for this one.
step run "clearbench ($rounds rounds)" "$RESULTS/bench.txt" "$TOP/bench/build/clearbench" \
	-s "$size" -r "$rounds" -o "$csv" -R "$RESULTS/bench-raw.csv" || exit 1
step plot bench "$LOGS/plot-bench.log" "$TOP/scripts/plot-bench.sh" "$csv" "$RESULTS/bench.png" || exit 1

"$TOP/scripts/kernels.sh" baseline patched || exit 1
step initramfs guest "$LOGS/initramfs.log" "$TOP/scripts/initramfs.sh" \
	"$BUILD/initramfs.cpio.gz" || exit 1
gcsv=$RESULTS/guest-bench.csv
echo "kernel,strategy,page,mode,gbps,user_s,sys_s" >"$gcsv.tmp"
mkdir -p "$RESULTS/guest-bench"
for k in baseline patched; do
	log=$RESULTS/guest-bench/$k.console.log
	step faultbench "$k/none" "$RESULTS/guest-bench/$k.boot.log" "$TOP/scripts/boot.sh" \
		"$BUILD/obj-$k/arch/x86/boot/bzImage" none faultbench.sh "$log" 1500 || exit 1
	if grep -a '^not ok' "$log"; then
		echo "faultbench failed on $k: $log"
		exit 1
	fi
	sed 's/\r$//' "$log" | awk -v k=$k '/^FAULTBENCH / {
		for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		print k "," v["label"] "," v["page"] "," v["mode"] "," v["gbps"] "," v["user_s"] "," v["sys_s"]
	}' >>"$gcsv.tmp"
done
mv "$gcsv.tmp" "$gcsv"

echo
cat "$RESULTS/bench.txt"
echo
"$TOP/scripts/bench-goals.sh" "$csv"
echo
echo "In the QEMU TCG guest (relative structure only; TCG timing says nothing about hardware):"
column -s, -t "$gcsv"
echo
echo "results: $csv $RESULTS/bench-raw.csv $RESULTS/bench.png $gcsv"
