#!/bin/bash
# check.sh: the test suite (make check). Builds the baseline, product
# (patches/series) and patched (product plus the evaluation series
# patches/eval/series) kernels, the last two from one object directory,
# runs checkpatch on the product, evaluation and seed series, boots each
# kernel under preempt=none, voluntary and full, runs the KUnit suites and
# the guest tests, checks that the product carries no evaluation knobs,
# scans every console for splats, prints a table and ends with "N passed,
# N failed, N skipped". Exits non-zero on any failure. The seed kernel's
# boots are make seed's (scripts/seed.sh).
set -u
. "$(dirname "$0")/lib.sh"

out=$RESULTS/check
rm -rf "$out"
mkdir -p "$out"
t0=$(date +%s)
rc=0

kernels="baseline product patched"
# The tree's mm selftests go into the initramfs, so they are built before
# prepare packs it (on a fresh machine there is no older build to find).
if ! { prepare_tree && step build mm-selftests "$LOGS/mm-selftests.log" \
	"$TOP/scripts/mm-selftests.sh" "$BUILD/mm-selftests/bin"; }; then
	echo "FAIL mm selftests: build" >"$out/mm-selftests-build.txt"
	rm -rf "$BUILD/mm-selftests/bin"
fi
prepare $kernels || rc=1
# The harness's own reading of results, on a fixture with known faults.
step selftest harness "$LOGS/selftest.log" "$TOP/scripts/selftest.sh"
cp "$LOGS/selftest.log" "$out/harness.txt"
for k in $kernels; do
	[[ " $built " == *" $k "* ]] ||
		echo "FAIL $k: kernel build (see the log above)" >"$out/$k-build.txt"
done
# Every series: checkpatch --strict, and every file a series adds has a
# maintainer in the tree it is applied to (the evaluation series is checked
# on its own, in the tree with both applied; the seed adds no file and is
# not built here, so its tree is not needed).
for s in product eval seed; do
	case $s in
	product) sf=$TOP/patches/series tree=$SRC_PATCHED k=product ;;
	eval) sf=$TOP/patches/eval/series tree=$SRC_PATCHED k=patched ;;
	seed) sf=$TOP/patches/seed/series tree="" k="" ;;
	esac
	[[ " $built " == *" $k "* ]] || tree=""
	if step checkpatch "$s" "$LOGS/checkpatch-$s.log" "$TOP/scripts/checkpatch.sh" "$sf" $tree; then
		echo "PASS $s: $(tail -n 1 "$LOGS/checkpatch-$s.log")" >"$out/series-$s.txt"
	else
		sed "s/^/FAIL $s: checkpatch: /" "$LOGS/checkpatch-$s.log" >"$out/series-$s.txt"
	fi
done

# The series' KUnit suites must run on the product and patched kernels.
# Under none, the patched kernel also clears under every strategy of its
# evaluation knobs (hugezero -a); the product runs hugezero -a in place of
# hugezero, the same rounds on a kernel without knobs, which says so. Both
# fault from a pool zeroed beforehand under none (prezero, last: it demotes
# a 1 GiB page).
for k in $kernels; do
	suites=$PATCHED_SUITES
	[ $k = baseline ] && suites=""
	for p in none voluntary full; do
		progs=hugezero,faults,copies
		[ $k = patched ] && [ $p = none ] && progs=$progs,strategies.sh,prezero
		[ $k = product ] && [ $p = none ] && progs=strategies.sh,faults,copies,prezero
		test_boot "$out" $k $p $progs $suites
	done
done
# The product must not carry evaluation code: no knobs in debugfs.
res=$out/product-none.txt
if grep -aq '^# no /sys/kernel/debug/clear_huge_page/: the kernel.s own way only' \
	"$out/product-none.console.log" 2>/dev/null; then
	echo "PASS product/none: no evaluation knobs (/sys/kernel/debug/clear_huge_page/)" >>"$res"
else
	echo "FAIL product/none: hugezero -a found evaluation knobs, or did not run" >>"$res"
fi

# The tree's own hugetlb and THP selftests: the patched kernel must pass
# everything the baseline passes.
for k in baseline patched; do
	res=$out/$k-mm.txt
	log=$out/$k-mm.console.log
	if [[ " $built " != *" $k "* ]] || [ ! -d "$BUILD/mm-selftests/bin" ]; then
		echo "FAIL $k/mm: not run, kernel or mm selftests missing" >"$res"
		continue
	fi
	step boot "$k/mm" "$out/$k-mm.boot.log" "$TOP/scripts/boot.sh" \
		"$BUILD/obj-$k/arch/x86/boot/bzImage" none mm-selftests.sh "$log" \
		"${BOOT_TIMEOUT:-600}" || echo "FAIL $k/mm: boot: $(tail -n 1 "$out/$k-mm.boot.log")" >"$res"
	judge "$log" "$k/mm" >>"$res"
done
# Two empty sets compare equal: the comparison needs baseline passes.
nbase=$(grep -c '^PASS baseline/mm: mm-selftests.sh/' "$out/baseline-mm.txt" 2>/dev/null)
if [ "${nbase:-0}" -eq 0 ]; then
	echo "FAIL mm selftests: no mm selftest passed on baseline, nothing to compare" >"$out/mm-compare.txt"
elif [ -f "$out/patched-mm.txt" ]; then
	lost=$(comm -23 <(sed -n 's/^PASS baseline\/mm: mm-selftests.sh\///p' "$out/baseline-mm.txt" | sort) \
		<(sed -n 's/^PASS patched\/mm: mm-selftests.sh\///p' "$out/patched-mm.txt" | sort))
	if [ -z "$lost" ]; then
		echo "PASS mm selftests: patched passes all $nbase that baseline passes" >"$out/mm-compare.txt"
	else
		echo "$lost" | sed 's/^/FAIL mm selftests: passes on baseline only: /' >"$out/mm-compare.txt"
	fi
fi

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

echo
tally "$out"
fail=$?
echo "$(($(date +%s) - t0))s (consoles and KTAP results: $out/*.console.log, $out/*.ktap)"
[ "$fail" -eq 0 ] && [ $rc -eq 0 ]
