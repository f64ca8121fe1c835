#!/bin/sh
# mm-selftests.sh: run the kernel tree's own hugetlb and THP selftests
# (tools/testing/selftests/mm, built by scripts/mm-selftests.sh, copied to
# /tests/mm/), each with the hugetlb pool and THP settings it needs and
# under a time limit. Prints TAP, one result per run; a program's own
# output (often kselftest TAP itself) is printed after it as "# " lines,
# so that only this script's results count. Always exits 0.
#
# The command line gives 64 default size (2 MiB) and 2 1 GiB hugetlb
# pages. The 2 MiB pool is resized per test; it, the THP and khugepaged
# sysfs knobs are put back after every test (a test killed at its time
# limit cannot restore what it changed). The 1 GiB pool is never resized:
# without CONFIG_CONTIG_ALLOC a freed gigantic page cannot come back.
#
# Each line of the table below: name|limit|nr_hugepages|mode|program args
#   limit   seconds; then the program and everything it forked (it runs
#           in its own process group, via setsid) get SIGKILL
#   mode    full:  must finish within limit, else "not ok"
#           time:  a stress loop; still running at limit is a pass (it is
#                  killed; failures show as a crash or a message)
#           rerun: as full, but a failed run is run once more, and the
#                  result says what the first run failed on: for a
#                  program measured to fail now and then on the unpatched
#                  kernel as well (see its note)
# Killed programs lose what stdio had buffered (output goes to a file):
# their output may be missing.
#
# Notes on single tests, all on the unpatched 6.12.118 guest kernel:
#  - hugepage-mmap, hugepage-shm, map_hugetlb: 256 MiB of 2 MiB pages;
#    "map_hugetlb 1024 30" maps, fills and checks one 1 GiB page.
#  - hugetlb_fault_after_madv, hugetlb_madv_vs_map need exactly one free
#    default size page. hugetlb_fault_after_madv loops 10000 times, each
#    time racing MADV_DONTNEED against 100 refaults (2 MiB zeroings), far
#    beyond any time budget under TCG: it runs 15 s (mode time).
#  - thuge-gen needs 4 free pages of each size: it tests 2 MiB and reports
#    1 GiB as skipped (2 pages, boot-time only) in its output.
#  - khugepaged: its 4 swap subtests (collapse_swapin_single_pte and
#    collapse_max_ptes_swap, khugepaged and madvise contexts) fail without
#    swap; the guest has none (CONFIG_SWAP needs CONFIG_BLOCK). The program
#    exits with its number of failed subtests (4, which reads as kselftest
#    "skip"), so this script counts them itself and passes the run if the
#    only failures are those "Swapout" steps. "-s 2" is run_vmtests.sh's
#    mTHP (order 2) variant. shmem collapse runs in the madvise context
#    only: in the khugepaged context the test sets MADV_NOHUGEPAGE before
#    refaulting the collapsed range, and since 6.12 do_set_pmd() refuses
#    PMD mappings in such VMAs (vma_thp_disabled()), so its 3 khugepaged
#    shmem collapses fail on 6.12.118 as shipped. File-backed collapse is
#    not run: it needs CONFIG_READ_ONLY_THP_FOR_FS and a block device.
#  - split_huge_page_test: subtests 1-3 split anonymous and tmpfs THPs via
#    debugfs; 4-12 split page cache folios to each order and need a
#    filesystem with large folios (upstream passes an XFS path, the guest
#    has no block layer). On /tmp (tmpfs without huge=) each would skip
#    only after writing 4 MiB one byte per write(), ~11 s apiece under TCG.
#    So it gets a read-only tmpfs as that path: the program bails out at
#    once when creating its file there, after results 1-3, and the run
#    passes if that bail-out is its only failure. Results 1-3 fail now
#    and then on both kernels, under TCG on an AMD EPYC Zen 4 host (family
#    25 model 17): run 600 times in a row, the
#    unpatched kernel failed twice ("No THP is allocated" after result
#    1), the patched one 3 times in 900 (twice that, once "Still
#    AnonHugePages not split"); hence mode rerun.
#  - cow runs its anonymous/THP/mTHP/2 MiB hugetlb cases (655 results,
#    ~3 s; 214 pass, 4 xfail, the rest skip: swap, CONFIG_GUP_TEST,
#    io_uring) but not those with 1 GiB hugetlb pages: ~290 s under TCG. The
#    1 GiB size is hidden by bind-mounting a directory holding only
#    hugepages-2048kB over /sys/kernel/mm/hugepages for its run.
tests="
hugepage-mmap|60|128|full|
hugepage-shm|60|128|full|
map_hugetlb|60|128|full|
map_hugetlb|60|64|full|1024 30
hugepage-vmemmap|30|64|full|
hugetlb-madvise|30|64|full|
hugetlb_dio|30|64|full|
hugetlb_fault_after_madv|15|1|time|
hugetlb_madv_vs_map|60|1|full|
thuge-gen|60|64|full|
transhuge-stress|60|64|full|-d 5 256
khugepaged|120|64|full|
khugepaged|120|64|full|-s 2
khugepaged|120|64|full|madvise:shmem
split_huge_page_test|60|64|rerun|/tmp/mm-ro
cow|120|64|full|
"
dir=/tests/mm
hp=/proc/sys/vm/nr_hugepages
thp=/sys/kernel/mm/transparent_hugepage
out=/tmp/mm-selftest.out
esc=$(printf '\033')

# centiseconds since boot
now() {
	local u
	read -r u _ </proc/uptime
	echo "${u%.*}${u#*.}"
}

# Save every THP knob as "file value" lines, to put back after each test.
saved=/tmp/mm-selftest.saved
: >$saved
for f in $thp/enabled $thp/defrag $thp/shmem_enabled $thp/use_zero_page \
	$thp/khugepaged/* $thp/hugepages-*/enabled $thp/hugepages-*/shmem_enabled; do
	[ -f "$f" ] && [ -w "$f" ] || continue
	case $f in */full_scans|*/pages_collapsed) continue ;; esac
	v=$(cat "$f")
	case $v in *\[*) v=${v#*[}; v=${v%%]*} ;; esac
	echo "$f $v" >>$saved
done
saved_hp=$(cat $hp)
restore() {
	while read -r f v; do
		echo "$v" >"$f" 2>/dev/null
	done <$saved
	echo "$saved_hp" >$hp
}

# run BIN LIMIT ARGS...: run with output in $out; sets rc and how
# ("exited" or "killed" at the limit).
run() {
	local bin=$1 limit=$2 pid deadline
	shift 2
	(cd /tmp && exec setsid "$bin" "$@" </dev/null >$out 2>&1) &
	pid=$!
	deadline=$(($(now) + limit * 100))
	how=exited
	while kill -0 $pid 2>/dev/null; do
		if [ "$(now)" -ge $deadline ]; then
			how=killed
			kill -9 -$pid 2>/dev/null || kill -9 $pid
			break
		fi
		sleep 0.2
	done
	wait $pid
	rc=$?
}

# attempt NAME LIMIT PAGES MODE ARGS...: one run of a program with the
# pool and mounts it needs, its output printed as "# " lines. Sets verdict
# ("ok", "ok # SKIP why" or "not ok # why") for the result line.
attempt() {
	local name=$1 limit=$2 pages=$3 mode=$4 bin got mounted t0 t1 el
	local nested_fail red fails swapfails reason
	shift 4
	bin=$dir/$name
	echo madvise >$thp/enabled
	echo madvise >$thp/defrag
	echo "$pages" >$hp
	got=$(cat $hp)
	if [ "$got" -ne "$pages" ]; then
		verdict="ok # SKIP nr_hugepages is $got, not $pages"
		restore
		return
	fi
	mounted=
	case $name in
	cow)	mkdir -p /tmp/mm-hp/hugepages-2048kB &&
			mount --bind /tmp/mm-hp /sys/kernel/mm/hugepages &&
			mounted=/sys/kernel/mm/hugepages ;;
	split_huge_page_test)
		mkdir -p /tmp/mm-ro &&
			mount -t tmpfs -o ro,size=64k none /tmp/mm-ro &&
			mounted=/tmp/mm-ro ;;
	esac
	echo "# running $what (limit ${limit}s, nr_hugepages $pages)"
	t0=$(now)
	run "$bin" "$limit" "$@"
	t1=$(now)
	[ -n "$mounted" ] && umount $mounted
	restore
	# The program's output as diagnostics: no colours, no carriage returns.
	awk -v esc="$esc" '{ sub(/.*\r/, ""); gsub(esc "\\[[0-9;]*m", ""); print "# " $0 }' $out
	el=$(((t1 - t0) / 100)).$(((t1 - t0) % 100 / 10))
	echo "# $what: $how, status $rc, after ${el}s"
	nested_fail=$(grep -c '^not ok ' $out)
	if [ "$name" = khugepaged ] && [ $rc -gt 0 ] && [ $how = exited ]; then
		# khugepaged.c prints no TAP: its fail() prints the step's
		# verdict in red ("Fail", "Timeout", ...) and counts it into
		# the exit status; colour is its only failure marker.
		red="$esc[31m"
		fails=$(grep -cF "$red" $out)
		swapfails=$(grep '^Swapout' $out | grep -cF "$red")
		if [ "$rc" -eq "$fails" ] && [ "$fails" -eq "$swapfails" ]; then
			echo "# $what: the $fails failed steps are all swap-outs, and the guest has no swap"
			rc=0
		fi
	fi
	if [ "$name" = split_huge_page_test ] && [ $rc -eq 1 ] &&
		grep -q '^Bail out! Failed to create a file at /tmp/mm-ro/' $out &&
		[ "$(grep -c '^ok ' $out)" -eq 3 ]; then
		echo "# $what: results 1-3 passed; the bail-out on the read-only /tmp/mm-ro skips 4-12 (see above)"
		rc=0
	fi
	# kselftest: the last "# SKIP" directive or "Bail out!" says why,
	# else the last line printed.
	reason=$(grep -E '(^ok .*# SKIP|^Bail out!)' $out | tail -n 1 |
		sed -E 's/.*(# SKIP|Bail out!) *//')
	[ -n "$reason" ] || reason=$(sed "s/$esc\[[0-9;]*m//g" $out | grep -v '^ *$' | tail -n 1)
	reason=$(echo "$reason" | tr -d '\r#' | cut -c1-100)
	if [ "$nested_fail" -gt 0 ]; then
		verdict="not ok # $nested_fail failed results"
	elif [ $how = killed ] && [ "$mode" = time ]; then
		verdict="ok # ran ${limit}s without failing, then stopped"
	elif [ $how = killed ]; then
		verdict="not ok # killed after ${limit}s"
	elif [ $rc -eq 0 ]; then
		verdict=ok
	elif [ $rc -eq 4 ]; then
		verdict="ok # SKIP ${reason:-exit status 4}"
	else
		verdict="not ok # exit status $rc${reason:+: $reason}"
	fi
}

n=$(echo "$tests" | grep -c '|')
echo "TAP version 13"
echo "1..$n"
i=0
echo "$tests" | grep '|' >/tmp/mm-selftest.list
while IFS='|' read -r name limit pages mode args; do
	i=$((i + 1))
	what=$name${args:+ $args}
	if [ ! -x "$dir/$name" ]; then
		echo "not ok $i $what # not in the initramfs ($dir/$name)"
		continue
	fi
	# shellcheck disable=SC2086 # args are words
	attempt "$name" "$limit" "$pages" "$mode" $args
	case $mode:$verdict in
	rerun:not\ ok*)
		first=${verdict#not ok # }
		echo "# $what: failed ($first); mode rerun, it fails now and then on either kernel: running it once more"
		# shellcheck disable=SC2086
		attempt "$name" "$limit" "$pages" "$mode" $args
		case $verdict in
		ok) verdict="ok # passed when run again; first run: $first" ;;
		esac ;;
	esac
	case $verdict in
	not\ ok*) echo "not ok $i $what${verdict#not ok}" ;;
	*) echo "ok $i $what${verdict#ok}" ;;
	esac
done </tmp/mm-selftest.list
rm -f $out $saved /tmp/mm-selftest.list
rm -rf /tmp/mm-hp; rmdir /tmp/mm-ro 2>/dev/null
exit 0
