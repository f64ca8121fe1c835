#!/bin/bash
# bisect.sh: make bisect. Proves that every prefix of patches/series is
# safe, not only buildable:
#  1. every prefix builds (CONFIG_WERROR, no objtool warning, the KUnit
#     suites that exist at that point; every fragment option that the
#     tree defines at that prefix must be set);
#  2. the bound: the whole series with the evaluation series on top
#     (patches/eval/series, whose knobs select the strategy; built in the
#     same objects) boots under preempt=none and measures the scheduling
#     latency while 1 GiB pages fault, cleared in 32 MiB units with
#     cond_resched() (strategy "units"); the bound is twice its maximum.
#     The same boot clears them in one unguarded extent (guard=0), which
#     must exceed the bound: the test can fail;
#  3. every prefix whose patch changes how huge pages are cleared boots
#     under preempt=none with hugezero and the same latency test, as it
#     comes (no knobs), and its maximum must stay within the bound; then
#     the same with 1 GiB copy-on-write faults (default+cow), as copying
#     follows clearing's rule from patch 16 on.
# BISECT_FROM=N starts at prefix N (default 1), for a series whose first
# N-1 prefixes were proven by an earlier run.
# One progress line per step; PASS/FAIL lines; exits non-zero on failure.
set -u
. "$(dirname "$0")/lib.sh"

dur=${LATENCY_DUR:-10}
from=${BISECT_FROM:-1}
mapfile -t series < <(grep -v '^\s*#' "$TOP/patches/series" | grep .)
N=${#series[@]}
[[ $from =~ ^[1-9][0-9]*$ ]] && [ "$from" -le "$N" ] ||
	die "BISECT_FROM=$from: want a prefix between 1 and $N"
out=$RESULTS/bisect
# A partial run keeps the full run's results.
[ "$from" -eq 1 ] || out=$RESULTS/bisect-from-$from
rm -rf "$out"
mkdir -p "$out" "$BUILD/bisect"
rm -f "$BUILD"/bisect/*.bzImage	# only this run's images boot
t0=$(date +%s)
# Its own initramfs, so that make check can run beside it.
export INITRD=$BUILD/bisect/initramfs.cpio.gz
prepare || exit 1
# Files through which a patch changes how huge pages are cleared.
clearing='mm/memory.c|arch/x86/lib/clear_page_64.S|arch/x86/include/asm/page_64.h|kernel/entry/common.c|arch/x86/mm/clear_pages.c|arch/x86/include/asm/clear_pages_policy.h'

res() { echo "$1 $2" | tee -a "$out/bisect.txt"; }

# 1. Build every prefix; keep the images of those that will boot.
boot=()
for n in $(seq "$from" "$N"); do
	p=${series[$n-1]}
	log=$LOGS/bisect-$n.log
	if APPLY_SCRATCH=$BUILD/src-bisect-apply APPLY_DEST=$BUILD/src-bisect \
		"$TOP/scripts/apply.sh" "$n" >"$log" 2>&1 &&
		step build "prefix $n/$N" "$log.build" env CONFIG_CHECK=present \
			"$TOP/scripts/build-kernel.sh" "$BUILD/src-bisect" "$BUILD/obj-bisect" \
			"$TOP/config/guest.config" "$TOP/config/patched.config"; then
		res PASS "prefix $n/$N builds: $p"
		if grep -Eq "^diff --git a/($clearing) " "$TOP/patches/$p" || [ "$n" = "$N" ]; then
			cp "$BUILD/obj-bisect/arch/x86/boot/bzImage" "$BUILD/bisect/$n.bzImage"
			boot+=("$n")
		fi
	else
		res FAIL "prefix $n/$N does not build: $p (logs: $log $log.build)"
	fi
done

# The whole series with the evaluation series on top, for the bound.
if [ -f "$BUILD/bisect/$N.bzImage" ]; then
	if APPLY_SCRATCH=$BUILD/src-bisect-apply APPLY_DEST=$BUILD/src-bisect \
		SERIES="$TOP/patches/series $TOP/patches/eval/series" \
		"$TOP/scripts/apply.sh" >"$LOGS/bisect-eval.log" 2>&1 &&
		step build "prefix $N/$N+eval" "$LOGS/bisect-eval.log.build" \
			"$TOP/scripts/build-kernel.sh" "$BUILD/src-bisect" "$BUILD/obj-bisect" \
			"$TOP/config/guest.config" "$TOP/config/patched.config" \
			"$TOP/config/eval.config"; then
		cp "$BUILD/obj-bisect/arch/x86/boot/bzImage" "$BUILD/bisect/eval.bzImage"
	else
		res FAIL "prefix $N/$N with patches/eval/series does not build (logs: $LOGS/bisect-eval.log*)"
	fi
fi

# latency N VARIANTS RUN: boot prefix N (or eval: the whole series with the
# evaluation series) under preempt=none; print the "variant max_us" pairs
# it measured.
latency() {
	local n=$1 variants=$2 run=$3 log=$out/$1-$2.console.log what="prefix $1/$N"
	[ "$n" != eval ] || what="prefix $N/$N+eval"
	step boot "$what $variants" "$out/$n-$variants.boot.log" "$TOP/scripts/boot.sh" \
		"$BUILD/bisect/$n.bzImage" none "$run" "$log" $((dur * 4 + 420)) \
		"latency_dur=$dur latency_variants=$variants" >&2 || return 1
	judge "$log" "$what" >>"$out/bisect.txt" || return 1
	measurements "${log%.console.log}.ktap" latency.sh | awk -F'\t' '$2 == "max_us" { print $1, $3 }'
}

# 2. The bound, from the whole series with the evaluation knobs.
bound=""
if [ -f "$BUILD/bisect/eval.bzImage" ]; then
	m=$(latency eval units,unguarded latency.sh)
	units=$(echo "$m" | awk '$1 == "units" {print $2}')
	unguarded=$(echo "$m" | awk '$1 == "unguarded" {print $2}')
	if [ -n "$units" ] && [ -n "$unguarded" ]; then
		bound=$((2 * units))
		res PASS "bound: 2 x ${units} us (32 MiB units, cond_resched()) = $bound us"
		if [ "$unguarded" -gt "$bound" ]; then
			res PASS "control: one unguarded 1 GiB extent exceeds the bound ($unguarded us)"
		else
			res FAIL "control: one unguarded 1 GiB extent stays within the bound ($unguarded us): the test cannot fail here"
		fi
	else
		res FAIL "bound: not measured (see $out/eval-units,unguarded.console.log)"
	fi
fi

# 3. Every prefix that changes clearing, as it comes.
for n in "${boot[@]}"; do
	[ -n "$bound" ] || break
	m=$(latency "$n" default,default+cow hugezero,latency.sh)
	for v in default default+cow; do
		max=$(echo "$m" | awk -v v=$v '$1 == v {print $2}')
		if [ -z "$max" ]; then
			res FAIL "prefix $n/$N $v: no latency measured (see $out/$n-default,default+cow.console.log)"
		elif [ "$max" -le "$bound" ]; then
			res PASS "prefix $n/$N $v: max latency $max us <= $bound us under none"
		else
			res FAIL "prefix $n/$N $v: max latency $max us > $bound us under none: ${series[$n-1]}"
		fi
	done
done

echo "$(($(date +%s) - t0))s"
tally "$out"
