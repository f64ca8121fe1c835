#!/bin/sh
# latency.sh: scheduling latency on a CPU that is zeroing 1 GiB pages.
# cyclictest (SCHED_FIFO 99) and faulter (1 GiB hugetlb faults in a loop)
# share CPU 0, for $latency_dur seconds per variant. The host names the
# variants in latency_variants= (default: guarded unguarded units where the
# evaluation knobs exist, else mainline): guarded, unguarded and units are
# set with the knobs, any other name (mainline, tif, default) runs the
# kernel as it boots. A name ending in "+switch" also switches the
# preemption model between none and full every 200 ms from CPU 1 while it
# runs (a clear that reads the model once would then run unpreemptible).
# A name with "+cow" runs faulter -w: 1 GiB copy-on-write faults, each a
# copy of the whole page, instead of first faults that clear it.
# A name with "+prezeroed" keeps the 1 GiB pool cleared beforehand from
# CPU 1 (zero_free_hugepages, over and over), so that faults take zeroed
# pages; "+request" runs no faulter: CPU 0 dirties the 1 GiB pool and asks
# for it to be cleared (zerobench -l), and cyclictest measures beside the
# request's clearing. A name with "+busy" keeps CPU 1 busy in user space
# while the faulter runs: the reference for "+prezeroed", whose clearing
# on CPU 1 would otherwise be compared with an idle CPU 1 (under TCG each
# busy vCPU is a busy host thread).
# cyclictest starts after the first fault (for +cow, after the source page
# is cleared), so that the rows measure the faults they name.
# Prints TAP; each variant's measurements (max_us, p99_us, samples) come
# as "# key: value" lines right before its result.
dur=${latency_dur:-60}
knobs=/sys/kernel/debug/clear_huge_page
if [ -n "${latency_variants:-}" ]; then
	variants=$(echo "$latency_variants" | tr ',' ' ')
elif [ -d "$knobs" ]; then
	variants="guarded unguarded units"
else
	variants="mainline"
fi
set -- $variants
echo "TAP version 13"
echo "1..$#"
i=0
for v in $variants; do
	i=$((i + 1))
	base=${v%%+*}
	case $base in
	guarded)   echo default >$knobs/strategy && echo 1 >$knobs/guard ;;
	unguarded) echo default >$knobs/strategy && echo 0 >$knobs/guard ;;
	units)     echo units >$knobs/strategy && echo 1 >$knobs/guard ;;
	esac || { echo "not ok $i $v # cannot set the knobs"; continue; }
	spid=""
	cow=""
	case $v in *+cow*) cow=-w ;; esac
	if [ "${v#*+switch}" != "$v" ]; then
		model=$(sed -n 's/.*(\(.*\)).*/\1/p' /sys/kernel/debug/sched/preempt)
		taskset -c 1 sh -c 'while :; do
			echo none >/sys/kernel/debug/sched/preempt; usleep 200000
			echo full >/sys/kernel/debug/sched/preempt; usleep 200000
		done' &
		spid=$!
	fi
	# cyclictest starts once the first fault is done (with -w: the
	# source page, whose clear is not a copy), or after 120 s.
	zpid=""
	if [ "${v#*+prezeroed}" != "$v" ]; then
		taskset -c 1 sh -c 'while :; do
			echo 2 >/sys/kernel/mm/hugepages/hugepages-1048576kB/zero_free_hugepages
			usleep 10000
		done' &
		zpid=$!
	elif [ "${v#*+busy}" != "$v" ]; then
		taskset -c 1 sh -c 'while :; do :; done' &
		zpid=$!		# not a zeroer, but stopped the same way
	fi
	rm -f /tmp/faulter.ready
	if [ "${v#*+request}" != "$v" ]; then
		touch /tmp/faulter.ready
		taskset -c 0 zerobench -l $((dur + 150)) >/tmp/faulter.out 2>&1 &
	else
		faulter -c 0 -s 1G -t $((dur + 150)) $cow -r /tmp/faulter.ready >/tmp/faulter.out 2>&1 &
	fi
	fpid=$!
	w=0
	while [ ! -e /tmp/faulter.ready ] && [ $w -lt 1200 ] && kill -0 "$fpid" 2>/dev/null; do
		usleep 100000
		w=$((w + 1))
	done
	cyclictest -q -v -m -p 99 -a 0 -t 1 -i 1000 -D "$dur" >/tmp/cyc.txt 2>/tmp/cyc.err
	crc=$?
	kill "$fpid" 2>/dev/null
	wait "$fpid"
	frc=$?
	if [ -n "$zpid" ]; then
		kill "$zpid"
		wait "$zpid" 2>/dev/null
	fi
	if [ -n "$spid" ]; then
		kill "$spid"
		wait "$spid" 2>/dev/null
		echo "$model" >/sys/kernel/debug/sched/preempt
	fi
	cat /tmp/faulter.out
	latstat </tmp/cyc.txt >/tmp/lat.txt
	lrc=$?
	cat /tmp/lat.txt
	if [ $crc -ne 0 ]; then
		echo "not ok $i $v # cyclictest failed: $(head -c 300 /tmp/cyc.err | tr '\n' ' ')"
	elif [ $frc -ne 0 ] || grep -qE '^# (faulter: 0 faults|zeroer: 0 pages)' /tmp/faulter.out; then
		echo "not ok $i $v # no huge page was faulted or cleared"
	elif [ $lrc -ne 0 ]; then
		echo "not ok $i $v # no latency samples"
	else
		echo "ok $i $v"
	fi
done
[ -d "$knobs" ] && echo default >$knobs/strategy && echo 1 >$knobs/guard
exit 0
