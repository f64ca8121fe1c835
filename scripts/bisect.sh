#!/bin/bash
# bisect.sh: make bisect. Proves that every prefix of patches/series is
# safe, not only buildable:
#  1. the bound: the whole series with the evaluation series on top
#     (patches/eval/series, whose knobs select the strategy: the patched
#     kernel of make check) boots under preempt=none and measures the
#     scheduling latency while 1 GiB pages fault, cleared in 32 MiB units
#     with cond_resched() (strategy "units"); the bound is twice its
#     maximum. The same boot clears them in one unguarded extent
#     (guard=0), which must exceed the bound: the test can fail;
#  2. then prefix by prefix: it builds (CONFIG_WERROR, no objtool
#     warning, the KUnit suites that exist at that point; every fragment
#     option that the tree defines at that prefix must be set), and if
#     its patch changes how huge pages are cleared (or it is the last),
#     it boots under preempt=none with hugezero and the same latency
#     test, as it comes (no knobs), and its maximum must stay within the
#     bound; then the same with 1 GiB copy-on-write faults
#     (default+cow), as copying follows clearing's rule from patch 16 on.
# Each prefix is proven before the next is built, so a run cut short has
# proven the prefixes it reported. BISECT_FROM=N starts at prefix N
# (default 1), for a series whose first N-1 prefixes were proven by an
# earlier run.
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
prepare patched || exit 1
# Files through which a patch changes how huge pages are cleared.
clearing='mm/memory.c|arch/x86/lib/clear_page_64.S|arch/x86/include/asm/page_64.h|kernel/entry/common.c|arch/x86/mm/clear_pages.c|arch/x86/include/asm/clear_pages_policy.h'

res() { echo "$1 $2" | tee -a "$out/bisect.txt"; }

# latency IMG LABEL TAG VARIANTS RUN: boot IMG under preempt=none; print
# the "variant max_us" pairs it measured (console: $out/TAG-VARIANTS.*).
latency() {
	local img=$1 what=$2 tag=$3 variants=$4 run=$5 log=$out/$3-$4.console.log
	step boot "$what $variants" "$out/$tag-$variants.boot.log" "$TOP/scripts/boot.sh" \
		"$img" none "$run" "$log" $((dur * 4 + 420)) \
		"latency_dur=$dur latency_variants=$variants" >&2 || return 1
	judge "$log" "$what" >>"$out/bisect.txt" || return 1
	measurements "${log%.console.log}.ktap" latency.sh | awk -F'\t' '$2 == "max_us" { print $1, $3 }'
}

# 1. The bound, from the whole series with the evaluation knobs: the
#    patched kernel that prepare built (the same objects as make check's).
bound=""
cp "$BUILD/obj-patched/arch/x86/boot/bzImage" "$BUILD/bisect/eval.bzImage" ||
	die "no patched kernel image"
m=$(latency "$BUILD/bisect/eval.bzImage" "prefix $N/$N+eval" eval units,unguarded latency.sh)
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

# 2. Every prefix: build it, and if its patch changes how huge pages are
#    cleared (or it is the last), boot it as it comes and hold it to the
#    bound, before the next prefix: a run cut short has proven every
#    prefix it reported, and BISECT_FROM goes on from the next.
for n in $(seq "$from" "$N"); do
	p=${series[$n-1]}
	log=$LOGS/bisect-$n.log
	if ! APPLY_SCRATCH=$BUILD/src-bisect-apply APPLY_DEST=$BUILD/src-bisect \
		"$TOP/scripts/apply.sh" "$n" >"$log" 2>&1 ||
		! step build "prefix $n/$N" "$log.build" env CONFIG_CHECK=present \
			"$TOP/scripts/build-kernel.sh" "$BUILD/src-bisect" "$BUILD/obj-bisect" \
			"$TOP/config/guest.config" "$TOP/config/patched.config"; then
		res FAIL "prefix $n/$N does not build: $p (logs: $log $log.build)"
		continue
	fi
	res PASS "prefix $n/$N builds: $p"
	grep -Eq "^diff --git a/($clearing) " "$TOP/patches/$p" || [ "$n" = "$N" ] || continue
	[ -n "$bound" ] || { res FAIL "prefix $n/$N: not booted, no bound"; continue; }
	cp "$BUILD/obj-bisect/arch/x86/boot/bzImage" "$BUILD/bisect/$n.bzImage"
	m=$(latency "$BUILD/bisect/$n.bzImage" "prefix $n/$N" "$n" default,default+cow hugezero,latency.sh)
	for v in default default+cow; do
		max=$(echo "$m" | awk -v v=$v '$1 == v {print $2}')
		if [ -z "$max" ]; then
			res FAIL "prefix $n/$N $v: no latency measured (see $out/$n-default,default+cow.console.log)"
		elif [ "$max" -le "$bound" ]; then
			res PASS "prefix $n/$N $v: max latency $max us <= $bound us under none"
		else
			res FAIL "prefix $n/$N $v: max latency $max us > $bound us under none: $p"
		fi
	done
done

echo "$(($(date +%s) - t0))s"
tally "$out"
