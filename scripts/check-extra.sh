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

# Bad boot parameters are reported and change nothing: the patched kernel
# must print its complaints and then the same choices as a clean boot.
res=$out/patched-badparam.txt
log=$out/patched-badparam.console.log
if [[ " $built " == *" patched "* ]] &&
	step boot patched/badparam "$out/patched-badparam.boot.log" "$TOP/scripts/boot.sh" \
		"$BUILD/obj-patched/arch/x86/boot/bzImage" none faults "$log" \
		"${BOOT_TIMEOUT:-600}" "clear_nt_threshold=12Q resched_ranges=on"; then
	judge "$log" patched/badparam >"$res"
	for bad in 'clear_nt_threshold=12Q is not a size' 'resched_ranges=on: only "off" is accepted'; do
		if grep -aqF "$bad" "$log"; then
			echo "PASS patched/badparam: refused with a message: $bad" >>"$res"
		else
			echo "FAIL patched/badparam: no message '$bad'" >>"$res"
		fi
	done
	# The status lines, not the refusals above, which share the prefix.
	for choice in '^clear_pages: (cached|non-temporal) stores' '^resched_ranges: [0-9]+ ranges'; do
		want=$(grep -aE -m1 "$choice" "$out/patched-none.console.log" | tr -d '\r')
		got=$(grep -aE -m1 "$choice" "$log" | tr -d '\r')
		if [ -n "$want" ] && [ "$want" = "$got" ]; then
			echo "PASS patched/badparam: default kept ($got)" >>"$res"
		else
			echo "FAIL patched/badparam: default not kept: '$got', clean boot '$want'" >>"$res"
		fi
	done
else
	echo "FAIL patched/badparam: not booted" >"$res"
fi

# resched_ranges=off: the table is not used, huge pages are cleared in
# units, and the KUnit cases that need the table say why they skip.
res=$out/patched-ranges-off.txt
log=$out/patched-ranges-off.console.log
if [[ " $built " == *" patched "* ]] &&
	step boot patched/ranges-off "$out/patched-ranges-off.boot.log" "$TOP/scripts/boot.sh" \
		"$BUILD/obj-patched/arch/x86/boot/bzImage" none hugezero,faults,copies "$log" \
		"${BOOT_TIMEOUT:-600}" "resched_ranges=off"; then
	judge "$log" patched/ranges-off $PATCHED_SUITES >"$res"
	if grep -aq '^resched_ranges: off' "$log" && ! grep -aq '^resched_ranges: [0-9]* ranges' "$log"; then
		echo "PASS patched/ranges-off: the table is not in use" >>"$res"
	else
		echo "FAIL patched/ranges-off: resched_ranges=off did not turn the table off" >>"$res"
	fi
else
	echo "FAIL patched/ranges-off: not booted" >"$res"
fi

# clear_nt_threshold=0: every run but the fault's neighbourhood is cleared
# with clear_pages_nocache(), the path the default takes only on Intel,
# which TCG does not emulate. The pages must still read back as zero.
res=$out/patched-nt.txt
log=$out/patched-nt.console.log
if [[ " $built " == *" patched "* ]] &&
	step boot patched/nt "$out/patched-nt.boot.log" "$TOP/scripts/boot.sh" \
		"$BUILD/obj-patched/arch/x86/boot/bzImage" none hugezero "$log" \
		"${BOOT_TIMEOUT:-600}" "clear_nt_threshold=0"; then
	judge "$log" patched/nt >"$res"
	if grep -aq '^clear_pages: non-temporal stores for runs over 0 KiB' "$log"; then
		echo "PASS patched/nt: runs cleared around the cache" >>"$res"
	else
		echo "FAIL patched/nt: clear_nt_threshold=0 was not taken: $(grep -a -m1 '^clear_pages: ' "$log")" >>"$res"
	fi
else
	echo "FAIL patched/nt: not booted" >"$res"
fi

# init_on_alloc=1, as Debian's kernels boot: the pages the pool gets from
# the page allocator are zero, and must be counted so (prezero's grow).
res=$out/product-initonalloc.txt
log=$out/product-initonalloc.console.log
if [[ " $built " == *" product "* ]] &&
	step boot product/init_on_alloc "$out/product-initonalloc.boot.log" "$TOP/scripts/boot.sh" \
		"$BUILD/obj-product/arch/x86/boot/bzImage" none prezero "$log" \
		"${BOOT_TIMEOUT:-600}" "init_on_alloc=1"; then
	judge "$log" product/init_on_alloc >"$res"
	grep -aq '^# seed .*, init_on_alloc on' "$log" ||
		echo "FAIL product/init_on_alloc: prezero did not see init_on_alloc=1" >>"$res"
else
	echo "FAIL product/init_on_alloc: not booted" >"$res"
fi
