#!/bin/sh
# faultbench.sh: run faultbench for 2 MiB and 1 GiB pages under every
# clearing strategy the kernel offers (the evaluation knob of the patched
# kernel; "mainline" on the baseline). Prints TAP; faultbench's
# measurements come as "# key: value" lines before each result.
knobs=/sys/kernel/debug/clear_huge_page
if [ -d "$knobs" ]; then
	# The kernel's own list ("[default] units cached nt"): written once.
	strategies=$(tr -d '[]' <$knobs/strategy)
else
	strategies="mainline"
fi
set -- $strategies
echo "TAP version 13"
echo "1..$(($# * 2))"
i=0
for s in $strategies; do
	if [ -d "$knobs" ]; then
		echo "$s" >$knobs/strategy || { echo "not ok $((i += 1)) $s # cannot select"; continue; }
	fi
	for page in 2M 1G; do
		i=$((i + 1))
		[ $page = 2M ] && mib=64 || mib=1024
		if faultbench -s $page -b $mib -r "${faultbench_rounds:-3}"; then
			echo "ok $i $s $page"
		else
			echo "not ok $i $s $page"
		fi
	done
done
[ -d "$knobs" ] && echo default >$knobs/strategy
exit 0
