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
#
# CHECK_ONLY runs a part, as run_vmtests.sh -t runs a category (a comma
# separated list): kunit (the KUnit suites alone: the product and patched
# kernels booted under none with no program), a kernel (baseline,
# product, patched) or a model (none, voluntary, full) for the boots of
# the test programs, series (checkpatch; every mutant applies), mm (the
# tree's mm selftests), extra (the boots with boot parameters). Its
# closing line says it was a subset.
set -u
. "$(dirname "$0")/lib.sh"

only=${CHECK_ONLY:-}
for w in ${only//,/ }; do
	case $w in
	kunit | baseline | product | patched | none | voluntary | full | series | mm | extra) ;;
	*) die "CHECK_ONLY=$only: '$w' is none of kunit, baseline, product, patched, none, voluntary, full, series, mm, extra" ;;
	esac
done
# wants WORD...: the full run, or CHECK_ONLY names one of the WORDs.
wants() {
	local w
	[ -z "$only" ] && return 0
	for w; do
		[[ ",$only," == *",$w,"* ]] && return 0
	done
	return 1
}
[ -z "$only" ] || TALLY_PREFIX="subset CHECK_ONLY=$only, not the full run: "

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
	wants series || break
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
# Every mutant of make mutants applies to the patched tree, so that a
# change to the series cannot leave make mutants unable to run.
if wants series && [[ " $built " == *" patched "* ]]; then
	for m in "$TOP"/mutants/*.patch; do
		if git -C "$SRC_PATCHED" apply --check "$m" 2>"$LOGS/mutant-apply.log"; then
			echo "PASS mutant $(basename "$m" .patch) applies to the patched tree"
		else
			echo "FAIL mutant $(basename "$m" .patch) does not apply to the patched tree: $(head -n 1 "$LOGS/mutant-apply.log")"
		fi
	done >"$out/mutants-apply.txt"
fi

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
		wants $k $p && test_boot "$out" $k $p $progs $suites
	done
done
# CHECK_ONLY=kunit: the suites alone, in a boot that runs no program.
if [ -n "$only" ] && wants kunit; then
	for k in product patched; do
		test_boot "$out" $k none "" $PATCHED_SUITES
	done
fi
# The product must not carry evaluation code: no knobs in debugfs.
res=$out/product-none.txt
if ! wants product none; then
	:
elif grep -aq '^# no /sys/kernel/debug/clear_huge_page/: the kernel.s own way only' \
	"$out/product-none.console.log" 2>/dev/null; then
	echo "PASS product/none: no evaluation knobs (/sys/kernel/debug/clear_huge_page/)" >>"$res"
else
	echo "FAIL product/none: hugezero -a found evaluation knobs, or did not run" >>"$res"
fi

# The tree's own hugetlb and THP selftests: the patched kernel must pass
# everything the baseline passes.
for k in baseline patched; do
	wants mm || break
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
if ! wants mm; then
	:
elif [ "${nbase:-0}" -eq 0 ]; then
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

# The boots with boot parameters (scripts/check-extra.sh).
wants extra && built=$built "$TOP/scripts/check-extra.sh" "$out"

echo
tally "$out"
fail=$?
echo "$(($(date +%s) - t0))s (consoles and KTAP results: ${out#"$TOP"/}/*.console.log, *.ktap)"
[ "$fail" -eq 0 ] && [ $rc -eq 0 ]
