#!/bin/sh
# mm-selftests.sh: run the kernel tree's own hugetlb and THP selftests
# (tools/testing/selftests/mm, built by scripts/mm-selftests.sh and copied
# to /tests/mm/), each with the huge page pool and THP settings it needs
# and under a time limit. Prints TAP, one result per program; the programs'
# own output is printed as "# " diagnostics. Always exits 0.
#
# The boot command line gives 64 default (2 MiB) and 2 1 GiB hugetlb pages;
# the 2 MiB pool is resized per test and restored at the end. The 1 GiB
# pool is never touched: without CONFIG_CONTIG_ALLOC freed gigantic pages
# cannot be allocated again.
dir=/tests/mm
hp=/proc/sys/vm/nr_hugepages
thp=/sys/kernel/mm/transparent_hugepage
esc=$(printf '\033')

# name|timeout_s|nr_hugepages|args (run in this order)
tests="
hugepage-mmap|60|128|
hugepage-shm|60|128|
map_hugetlb|60|128|
hugepage-vmemmap|30|64|
hugetlb-madvise|30|64|
hugetlb_dio|30|64|
hugetlb_fault_after_madv|60|1|
hugetlb_madv_vs_map|60|1|
thuge-gen|60|64|
transhuge-stress|60|64|-d 5 256
khugepaged|120|64|
split_huge_page_test|120|64|
cow|180|64|
"

now() { cut -d' ' -f1 /proc/uptime; }

saved_hp=$(cat $hp)
saved_thp_enabled=$(sed 's/.*\[\(.*\)\].*/\1/' $thp/enabled)
saved_thp_defrag=$(sed 's/.*\[\(.*\)\].*/\1/' $thp/defrag)

n=$(echo "$tests" | grep -c '|')
echo "TAP version 13"
echo "1..$n"
i=0
echo "$tests" | grep '|' >/tmp/mm-tests.list
while IFS='|' read -r name limit pages args; do
	i=$((i + 1))
	bin=$dir/$name
	if [ ! -x "$bin" ]; then
		echo "not ok $i $name # not in the initramfs ($bin)"
		continue
	fi
	echo madvise >$thp/enabled
	echo madvise >$thp/defrag
	echo "$pages" >$hp
	got=$(cat $hp)
	if [ "$got" -lt "$pages" ]; then
		echo "ok $i $name # SKIP only $got of $pages huge pages could be allocated"
		continue
	fi
	t0=$(now)
	# The program's TAP becomes diagnostics, so that only ours counts.
	{
		cd /tmp && timeout -s KILL "$limit" "$bin" $args </dev/null
		echo $? >/tmp/mm-rc
	} 2>&1 | sed "s/$esc\[[0-9;]*m//g; s/^/# /"
	rc=$(cat /tmp/mm-rc)
	t1=$(now)
	el=$(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }')
	echo "# $name: exit status $rc after ${el}s"
	case $rc in
	0) echo "ok $i $name" ;;
	4) echo "ok $i $name # SKIP (exit status 4)" ;;
	137) echo "not ok $i $name # killed after ${limit}s" ;;
	*) echo "not ok $i $name # exit status $rc" ;;
	esac
done </tmp/mm-tests.list

echo "$saved_hp" >$hp
echo "$saved_thp_enabled" >$thp/enabled
echo "$saved_thp_defrag" >$thp/defrag
exit 0
