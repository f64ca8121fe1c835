#!/bin/bash
# check-extra.sh OUT: make check's boots with boot parameters, each judged
# into OUT/KERNEL-NAME.txt: bad parameters refused with the defaults kept,
# resched_ranges=off, clear_nt_threshold=0, and the product under
# init_on_alloc=1. Needs make check's first boots in OUT (the clean boot
# the bad parameters are compared with) and $built, the kernels that
# built.
set -u
. "$(dirname "$0")/lib.sh"

out=${1:?usage: check-extra.sh OUT}
built=${built:?check-extra.sh runs from check.sh, which says what built}

# boot_with KERNEL NAME PROGS PARAMS [KUNIT_SUITE...]: boot KERNEL's image
# under preempt=none with the boot parameters PARAMS and the guest
# programs PROGS, judge its console into $res (OUT/KERNEL-NAME.txt) and
# leave the console's path in $log for the checks that follow. Returns 1,
# with a FAIL line, if the kernel did not build or the guest did not end.
boot_with() {
	local k=$1 name=$2 progs=$3 params=$4
	shift 4
	res=$out/$k-$name.txt
	log=$out/$k-$name.console.log
	if [[ " $built " != *" $k "* ]] ||
		! step boot "$k/$name" "$out/$k-$name.boot.log" "$TOP/scripts/boot.sh" \
			"$BUILD/obj-$k/arch/x86/boot/bzImage" none "$progs" "$log" \
			"${BOOT_TIMEOUT:-600}" "$params"; then
		echo "FAIL $k/$name: not booted" >"$res"
		return 1
	fi
	judge "$log" "$k/$name" "$@" >"$res"
	return 0
}

# Bad boot parameters are reported and change nothing: the patched kernel
# must print its complaints and then the same choices as a clean boot.
if boot_with patched badparam faults "clear_nt_threshold=12Q resched_ranges=on"; then
	for bad in 'clear_nt_threshold=12Q is not a size' 'resched_ranges=on: only "off" is accepted'; do
		if grep -aqF "$bad" "$log"; then
			echo "PASS patched/badparam: refused with a message: $bad"
		else
			echo "FAIL patched/badparam: no message '$bad'"
		fi
	done >>"$res"
	# The status lines, not the refusals above, which share the prefix.
	# A subset without the clean boot has nothing to compare with.
	[ -f "$out/patched-none.console.log" ] ||
		echo "SKIP patched/badparam: defaults kept: no patched/none boot to compare with" \
			"in this run (CHECK_ONLY=extra,patched has one)" >>"$res"
	[ -f "$out/patched-none.console.log" ] &&
	for choice in '^clear_pages: (cached|non-temporal) stores' '^resched_ranges: [0-9]+ ranges'; do
		want=$(grep -aE -m1 "$choice" "$out/patched-none.console.log" | tr -d '\r')
		got=$(grep -aE -m1 "$choice" "$log" | tr -d '\r')
		if [ -n "$want" ] && [ "$want" = "$got" ]; then
			echo "PASS patched/badparam: default kept ($got)"
		else
			echo "FAIL patched/badparam: default not kept: '$got', clean boot '$want'"
		fi
	done >>"$res"
fi

# resched_ranges=off: the table is not used, huge pages are cleared in
# units, and the KUnit cases that need the table say why they skip.
# shellcheck disable=SC2086 # a list of suites
if boot_with patched ranges-off hugezero,faults,copies "resched_ranges=off" $PATCHED_SUITES; then
	if grep -aq '^resched_ranges: off' "$log" && ! grep -aq '^resched_ranges: [0-9]* ranges' "$log"; then
		echo "PASS patched/ranges-off: the table is not in use"
	else
		echo "FAIL patched/ranges-off: resched_ranges=off did not turn the table off"
	fi >>"$res"
fi

# clear_nt_threshold=0: every run but the fault's neighbourhood is cleared
# with clear_pages_nocache(), the path the default takes only on Intel,
# which TCG does not emulate. The pages must still read back as zero.
if boot_with patched nt hugezero "clear_nt_threshold=0"; then
	if grep -aq '^clear_pages: non-temporal stores for runs over 0 KiB' "$log"; then
		echo "PASS patched/nt: runs cleared around the cache"
	else
		echo "FAIL patched/nt: clear_nt_threshold=0 was not taken: $(grep -a -m1 '^clear_pages: ' "$log")"
	fi >>"$res"
fi

# init_on_alloc=1, as Debian's kernels boot: the pages the pool gets from
# the page allocator are zero, and must be counted so (prezero's grow).
if boot_with product init_on_alloc prezero "init_on_alloc=1"; then
	grep -aq '^# seed .*, init_on_alloc on' "$log" ||
		echo "FAIL product/init_on_alloc: prezero did not see init_on_alloc=1" >>"$res"
fi
