#!/bin/bash
# mutants.sh: make mutants. Do the tests catch a kernel that is wrong?
# Each mutants/*.patch is one deliberate fault (what it breaks and what
# should catch it are at its top). One at a time, it is applied to a
# scratch copy of the patched tree (the product series with the evaluation
# series on top, whose knobs the tests switch), built incrementally, and
# run through
#  1. the fast part of make check: one boot under preempt=none with the
#     series' KUnit suites, hugezero under every clearing strategy
#     (strategies.sh), faults and copies, the console scanned for splats;
#  2. make latency's assertions under none: guarded <= 2x the baseline's
#     mainline maximum, 32 MiB units <= 0.5x one unguarded extent, and
#     64 KiB copy units (units+cow) <= 2x the baseline's 4 KiB copies;
#     missed in two boots in a row, as a 60 s maximum is noisy.
# A mutant is caught at its first failing step. The intact patched kernel
# goes through the same steps first, as a control that must pass (else a
# "catch" would mean nothing). Prints "N of N mutants caught" and exits 1
# if one survived or the control failed. MUTANTS="1 5" runs some only.
set -u
. "$(dirname "$0")/lib.sh"

out=$RESULTS/mutants
# A run of some mutants (MUTANTS=...) keeps the full run's results.
[ -z "${MUTANTS:-}" ] || out=$RESULTS/mutants-subset
# 60 s per variant, as make latency: shorter maxima are one draw from
# TCG's noise (see scripts/latency.sh), and the control must pass.
dur=${MUTANTS_LATENCY_DUR:-60}
rm -rf "$out"
mkdir -p "$out"
t0=$(date +%s)
prepare baseline patched || exit 1
# The scratch tree and its objects sit at the same relative paths as the
# patched ones (build-kernel.sh hashes paths relative to the checkout), so
# that the first build of a mutant hits ccache and later ones are
# incremental: git checkout rewrites only the files a mutant touched.
mdir=$BUILD/mutant
msrc=$mdir/src-patched mobj=$mdir/obj-patched
head=$(git -C "$SRC_PATCHED" rev-parse HEAD)
mkdir -p "$mdir"
[ -d "$msrc" ] || git -C "$SRC" worktree add -q --detach "$msrc" "$head" || die "no scratch tree"

# check NAME IMG: stage 1; its PASS/FAIL lines in $out/NAME-check.txt.
check() {
	local log=$out/$1-check.console.log res=$out/$1-check.txt
	step check "$1" "$out/$1-check.boot.log" "$TOP/scripts/boot.sh" "$2" none \
		hugezero,faults,copies,strategies.sh "$log" "${BOOT_TIMEOUT:-900}" ||
		echo "FAIL $1: boot: $(tail -n 1 "$out/$1-check.boot.log")" >"$res"
	judge "$log" "$1" $PATCHED_SUITES >>"$res"
	! grep -q '^FAIL' "$res"
}
# latency NAME IMG: stage 2, against the baseline's row in $out/mainline.csv.
# A 60 s maximum under TCG is one draw from its noise: the intact kernel's
# guarded row has missed 2x mainline once in a run (19.1 ms against 8.8)
# and met it at 1.16x in the next. So a kernel that misses boots again, and
# only a kernel that misses in both boots fails the stage, the control as
# much as a mutant (the mutants this stage is for miss by 10x and more).
latency() {
	local try log csv res=$out/$1-latency.txt
	for try in 1 2; do
		log=$out/$1-latency$try.console.log csv=$out/$1-latency$try.csv
		cp "$out/mainline.csv" "$csv"
		latency_boot "$1" "$2" none guarded,unguarded,units,units+cow "$log"
		latency_rows "${log%.console.log}.ktap" "$1" none >>"$csv"
		# The goals under none whose variants ran (scripts/goals.sh).
		latency_goals "$csv" none mainline,mainline+cow,guarded,unguarded,units,units+cow \
			"$log" >"$res"
		grep -q 'NOT' "$res" || return 0
		[ $try -eq 2 ] || sed 's/^/           first boot: /' "$res" | grep 'NOT'
	done
	return 1
}
# verdict NAME IMG: "caught by ..." or "passed" in $out/NAME.verdict.
verdict() {
	local first
	if ! check "$1" "$2"; then
		first=$(grep -m1 '^FAIL' "$out/$1-check.txt")
		echo "caught by make check's tests (${first#FAIL })" >"$out/$1.verdict"
	elif ! latency "$1" "$2"; then
		# Not measured: latency_goal quotes the guest's reason.
		first=$(grep -m1 'NOT' "$out/$1-latency.txt")
		echo "caught by make latency's assertions (${first#goal: })" >"$out/$1.verdict"
	else
		echo "passed every test" >"$out/$1.verdict"
	fi
	echo "           -> $1: $(cat "$out/$1.verdict")"
}

# The references of the guarded and copy goals: mainline's maxima under none.
log=$out/baseline-latency.console.log
latency_boot baseline "$BUILD/obj-baseline/arch/x86/boot/bzImage" none mainline,mainline+cow "$log" ||
	die "baseline latency boot failed: $log"
{ echo "kernel,preempt,variant,max_us,p99_us"; latency_rows "${log%.console.log}.ktap" baseline none; } >"$out/mainline.csv"

verdict control "$BUILD/obj-patched/arch/x86/boot/bzImage"
control=$(cat "$out/control.verdict")

caught=0 n=0 table=""
for m in "$TOP"/mutants/*.patch; do
	name=$(basename "$m" .patch)
	[ -z "${MUTANTS:-}" ] || [[ " $MUTANTS " == *" ${name%%-*} "* ]] || continue
	n=$((n + 1))
	git -C "$msrc" checkout -q -f --detach "$head" &&
		git -C "$msrc" apply "$m" || die "$name does not apply to the patched tree"
	if step build "$name" "$LOGS/build-mutant-$name.log" "$TOP/scripts/build-kernel.sh" \
		"$msrc" "$mobj" "$TOP/config/guest.config" "$TOP/config/patched.config" \
		"$TOP/config/eval.config"; then
		verdict "$name" "$mobj/arch/x86/boot/bzImage"
	else
		echo "caught by the build (log: $LOGS/build-mutant-$name.log)" >"$out/$name.verdict"
	fi
	grep -q '^caught' "$out/$name.verdict" && caught=$((caught + 1))
	table="$table$(printf '%-24s %s' "$name" "$(cat "$out/$name.verdict")")"$'\n'
done
git -C "$msrc" checkout -q -f --detach "$head"

{
	provenance
	printf '%-24s %s\n' control "$control" mutant verdict
	printf '%s' "$table"
	echo "$caught of $n mutants caught ($(($(date +%s) - t0))s; logs: ${out#"$TOP"/})"
} | tee "$out/summary.txt"
[ "$control" = "passed every test" ] || { echo "FAIL: the intact kernel failed: the catches mean nothing"; exit 1; }
[ $n -gt 0 ] && [ $caught -eq $n ]
