#!/bin/bash
# bench.sh: make bench, the benchmark report.
#  1. On this host's CPU, in user space: bench/clearbench assembles the
#     patched tree's arch/x86/lib/clear_page_64.S and drives it in the
#     orders the kernel uses (mainline, multi, chunked, nt, default), next
#     to the fastest store loop this CPU has (limit) and the host kernel's
#     own hugetlb fault rate (host-fault). Medians of interleaved runs.
#     -> results/bench.csv, results/bench-raw.csv, results/bench.png
#     Then clearbench -C: huge page copies with the tree's copy_page_64.S,
#     6.12's 4K-a-call order (mainline) against the series' runs (default)
#     and the fastest copy of each round (limit), THP source and destination,
#     and the host kernel's own hugetlb copy-on-write (host-cow).
#     -> results/bench-copy.csv (every run), results/bench-copy.png, the
#     table appended to results/bench.txt
#     Then scripts/copy-lengths.sh: REP MOVSB in calls of 256 KiB to 1 GiB
#     against the MOVNTI copy, where the copy policy's bound comes from.
#     -> results/bench-copy-lengths.csv, bench.txt
#     Then clearbench -W: the buffer's 2 MiB pages cleared around the
#     caches by one thread, then by two, as one or two writers of
#     zero_free_hugepages would. -> results/bench-writers.csv, bench.txt
#  3. In the same boot of the patched kernel, zerobench: faults from a pool
#     cleared beforehand (zero_free_hugepages) against faults that clear,
#     and two writers of zero_free_hugepages against one.
#     -> results/guest-prezero.csv (medians of per-round ratios, min-max)
#  2. In the QEMU guest, faultbench under every strategy of the patched
#     kernel and on the baseline: demand, populate, fault-then-write and
#     copy-on-write (a child writes to each huge page of its parent's
#     private mapping), with user and system time. TCG timing shows
#     structure only (and TCG copies are bimodal: see the min-max).
#     -> results/guest-bench.csv (medians, min-max over the rounds)
# Everything goes to results/CPU/ (see cpu_dir in lib.sh): the figures of
# one CPU never overwrite another's. bench.txt starts with what wrote it,
# when, from which commit and on which CPU; bench-goals.txt holds the
# verdicts of scripts/bench-goals.sh on this run, with the same line.
set -u
. "$(dirname "$0")/lib.sh"
RESULTS=$RESULTS/$(cpu_dir)
mkdir -p "$RESULTS"

# A clear of 1 GiB is one sample of a bandwidth other tenants share: on
# an AMD EPYC Zen 4 host the same loop measured twice in one round
# differed by up to 1.25x, so the medians the goals compare need more
# rounds than that noise (a round took about 6 s there).
rounds=${BENCH_ROUNDS:-21}
# A copy run takes a fraction of a second: more rounds, for under a minute.
copy_rounds=${BENCH_COPY_ROUNDS:-11}
size=${BENCH_SIZE:-1G}
csv=$RESULTS/bench.csv
prepare baseline patched || exit 1
step build clearbench "$LOGS/clearbench-build.log" make -C "$TOP/bench" TREE="$SRC_PATCHED" || exit 1
step verify clearbench "$LOGS/clearbench-verify.log" "$TOP/bench/build/clearbench" -V -s 64M -p 2M,1G || exit 1
# The machine should be otherwise idle for this one.
step run "clearbench ($rounds rounds)" "$RESULTS/bench.txt" "$TOP/bench/build/clearbench" \
	-s "$size" -r "$rounds" -o "$csv" -R "$RESULTS/bench-raw.csv" -P "$RESULTS/bench-ratios.csv" || exit 1
step plot bench "$LOGS/plot-bench.log" "$TOP/scripts/plot-bench.sh" "$csv" "$RESULTS/bench.png" || exit 1
ccsv=$RESULTS/bench-copy.csv
step run "clearbench -C ($copy_rounds rounds)" "$LOGS/clearbench-copy.log" "$TOP/bench/build/clearbench" \
	-C -s "$size" -r "$copy_rounds" -R "$ccsv" || exit 1
{ echo; cat "$LOGS/clearbench-copy.log"; } >>"$RESULTS/bench.txt"
# Where REP MOVSB starts to stream by itself: the copy policy's bound.
step run "copy lengths ($copy_rounds rounds)" "$LOGS/copy-lengths.log" "$TOP/scripts/copy-lengths.sh" \
	"$TOP/bench/build/clearbench" "$RESULTS/bench-copy-lengths.csv" "$copy_rounds" || exit 1
{ echo; cat "$LOGS/copy-lengths.log"; } >>"$RESULTS/bench.txt"
# Clearing ahead of use (zero_free_hugepages) by one writer against two,
# with the tree's cache-bypassing loop.
step run "clearbench -W ($copy_rounds rounds)" "$LOGS/clearbench-writers.log" "$TOP/bench/build/clearbench" \
	-W -s "$size" -r "$copy_rounds" -R "$RESULTS/bench-writers.csv" || exit 1
{ echo; cat "$LOGS/clearbench-writers.log"; } >>"$RESULTS/bench.txt"
# Paths relative to the checkout, and a header that says what this is.
{
	provenance
	echo
	sed "s|$TOP/||g" "$RESULTS/bench.txt"
} >"$RESULTS/bench.txt.tmp" && mv "$RESULTS/bench.txt.tmp" "$RESULTS/bench.txt"
step plot copy "$LOGS/plot-bench-copy.log" "$TOP/scripts/plot-copy.sh" "$ccsv" "$RESULTS/bench-copy.png" || exit 1

gcsv=$RESULTS/guest-bench.csv
echo "kernel,strategy,page,mode,gbps,gbps_min,gbps_max,user_s,sys_s" >"$gcsv.tmp"
mkdir -p "$RESULTS/guest-bench"
for k in baseline patched; do
	log=$RESULTS/guest-bench/$k.console.log
	run=faultbench.sh
	[ $k = patched ] && run=faultbench.sh,zerobench
	step faultbench "$k/none" "$RESULTS/guest-bench/$k.boot.log" "$TOP/scripts/boot.sh" \
		"$BUILD/obj-$k/arch/x86/boot/bzImage" none $run "$log" 2400 || exit 1
	if ! judge "$log" "$k" >"$RESULTS/guest-bench/$k.txt"; then
		grep '^FAIL' "$RESULTS/guest-bench/$k.txt"
		echo "faultbench failed on $k: $log"
		exit 1
	fi
	# Results "STRATEGY PAGE", measurements "MODE_gbps" and so on.
	measurements "${log%.console.log}.ktap" faultbench.sh | awk -F'\t' -v k=$k '
		{
			split($1, sp, " "); m = $2; q = $2
			sub(/_(gbps|gbps_min|gbps_max|user_s|sys_s)$/, "", m); sub(/^[a-z]+_/, "", q)
			row = k "," sp[1] "," sp[2] "," m
			if (!(row in seen)) { seen[row] = 1; order[++n] = row }
			v[row, q] = $3
		}
		END {
			for (i = 1; i <= n; i++) {
				r = order[i]
				print r "," v[r, "gbps"] "," v[r, "gbps_min"] "," v[r, "gbps_max"] "," \
					v[r, "user_s"] "," v[r, "sys_s"]
			}
		}' >>"$gcsv.tmp"
done
mv "$gcsv.tmp" "$gcsv"
for k in baseline patched; do
	grep -q "^$k," "$gcsv" || { echo "no guest fault rates from $k: $RESULTS/guest-bench/$k.console.log"; exit 1; }
done

# zerobench's measurements ("# 1G_demand_speedup: N"): one row a page and
# mode, and the writers' row.
pcsv=$RESULTS/guest-prezero.csv
measurements "$RESULTS/guest-bench/patched.ktap" zerobench | awk -F'\t' '
	{ v[$2] = $3 }
	END {
		print "page,mode,cleared_s,zeroed_s,request_s,speedup,speedup_min,speedup_max"
		split("2M 1G", pg, " "); split("demand populate", md, " ")
		for (i = 1; i <= 2; i++)
			for (j = 1; j <= 2; j++) {
				p = pg[i] "_" md[j] "_"
				print pg[i] "," md[j] "," v[p "cleared_s"] "," v[p "zeroed_s"] "," \
					v[p "request_s"] "," v[p "speedup"] "," v[p "speedup_min"] "," v[p "speedup_max"]
			}
		print "writers,two_vs_one," v["writers_one_s"] "," v["writers_two_s"] ",," \
			v["writers_speedup"] "," v["writers_speedup_min"] "," v["writers_speedup_max"]
	}' >"$pcsv"

echo
cat "$RESULTS/bench.txt"
echo
fail=0
# The goals' verdicts, also kept in bench-goals.txt with what wrote them.
"$TOP/scripts/bench-goals.sh" "$csv" "$ccsv" "$pcsv" >"$RESULTS/bench-goals.tmp" || fail=1
{ provenance; cat "$RESULTS/bench-goals.tmp"; } >"$RESULTS/bench-goals.txt"
rm -f "$RESULTS/bench-goals.tmp"
sed 1d "$RESULTS/bench-goals.txt"
echo
echo "In the QEMU TCG guest (relative structure only; TCG timing says nothing about hardware):"
column -s, -t "$gcsv"
echo
echo "Faults from a pool cleared beforehand (zerobench, patched kernel, TCG: ratios only):"
column -s, -t "$pcsv"
echo
echo "results: $(for f in "$csv" "$RESULTS/bench-raw.csv" "$RESULTS/bench.png" "$ccsv" \
	"$RESULTS/bench-copy.png" "$RESULTS/bench-copy-lengths.csv" "$RESULTS/bench-goals.txt" "$gcsv" "$pcsv"; do printf '%s ' "${f#"$TOP"/}"; done)"
[ $fail -eq 0 ] || { echo "a goal had nothing to compare (NOT measured above)"; exit 1; }
