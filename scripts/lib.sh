# Shared helpers for the harness scripts. Sourced, not run.
# shellcheck shell=bash

TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
BUILD=${BUILD:-$TOP/build}
LOGS=${LOGS:-$BUILD/logs}
RESULTS=${RESULTS:-$TOP/results}
SRC=$BUILD/src			# unpacked tree, git repo, tag "base"
SRC_PATCHED=$BUILD/src-patched	# worktree: product, then patched (see build_guest)
mkdir -p "$LOGS" "$RESULTS"

die() {
	echo "error: $*" >&2
	exit 1
}

# cpu_dir: the results folder of figures that depend on this host's CPU,
# named after it (amd-zen5, amd-zen4, intel-xeon-6-207, ...), so that the
# figures of one CPU never overwrite another's.
cpu_dir() {
	awk -F': *' '
		/^vendor_id/ && !v { v = $2 }
		/^cpu family/ && f == "" { f = $2 }
		/^model[ \t]*:/ && m == "" { m = $2 }
		/^model name/ && !n { n = $2 }
		END {
			if (v == "AuthenticAMD") {
				if (f == 26) z = "zen5"
				else if (f == 25 && (m >= 16 && m < 32 || m >= 96 && m < 128 || m >= 160 && m < 176)) z = "zen4"
				else if (f == 25) z = "zen3"
				else z = f "-" m
				print "amd-" z
			} else if (v == "GenuineIntel")
				print "intel-" (n ~ /Xeon/ ? "xeon-" : "") f "-" m
			else
				print "cpu-" f "-" m
		}' /proc/cpuinfo
}

# cpu_about: one line naming this host's CPU for the result files: model
# name, vendor family/model, the features the policy reads, cache sizes.
cpu_about() {
	local l3
	l3=$(cat /sys/devices/system/cpu/cpu0/cache/index3/size 2>/dev/null || echo "not in sysfs")
	awk -F': *' -v l3="$l3" '
		/^model name/ && !n { n = $2 }
		/^cpu family/ && f == "" { f = $2 }
		/^model[ \t]*:/ && m == "" { m = $2 }
		/^flags/ && !fl { fl = " " $2 " " }
		END {
			split("erms fsrm avx512f clzero movdir64b", want, " ")
			for (i = 1; i <= 5; i++) feats = feats (i > 1 ? " " : "") want[i] (index(fl, " " want[i] " ") ? "+" : "-")
			printf "%s (family %d, model %d; %s; L3 %s)\n", n, f, m, feats, l3
		}' /proc/cpuinfo
}

# provenance: the first line of a result file: what wrote it (the make
# target, from the script's name), when, from which commit, on which CPU.
# A checkout whose tracked files (results/ aside) differ from the commit
# says so: "<commit>+uncommitted".
provenance() {
	local c
	c=$(git -C "$TOP" rev-parse --short HEAD 2>/dev/null || echo unknown)
	git -C "$TOP" diff --quiet HEAD -- . ':!results' 2>/dev/null || c="$c+uncommitted"
	echo "# make $(basename "$0" .sh), $(date -u '+%Y-%m-%d %H:%M UTC'), commit $c;" \
		"host CPU: $(cpu_about)"
}

# step NAME KERNEL LOGFILE CMD...: run CMD with all output in LOGFILE and
# print one progress line: what, for which kernel, how long, where the log is.
step() {
	local name=$1 kernel=$2 log=$3 t0 rc
	shift 3
	t0=$(date +%s)
	printf '%-10s %-16s ... ' "$name" "$kernel"
	"$@" >"$log" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		printf 'ok     %4ss  log: %s\n' "$(($(date +%s) - t0))" "$log"
	else
		printf 'FAILED %4ss  log: %s\n' "$(($(date +%s) - t0))" "$log"
		tail -n 15 "$log" | sed 's/^/    | /'
	fi
	return $rc
}

# prepare_tree: what every target starts with: the Debian packages and
# the unpacked tree.
prepare_tree() {
	[ -n "${_tree_ready:-}" ] && return 0
	step deps host "$LOGS/deps.log" "$TOP/scripts/deps.sh" &&
		step unpack tree "$LOGS/unpack.log" "$TOP/scripts/unpack.sh" &&
		_tree_ready=1
}

# apply_patched NAME SERIES...: move $SRC_PATCHED to the base tree with the
# SERIES files applied (see apply.sh), unless this run of the calling
# script put it there already.
apply_patched() {
	[ "${_applied:-}" = "$1" ] && return 0
	_applied=""
	step apply "$1" "$LOGS/apply-$1.log" env SERIES="${*:2}" "$TOP/scripts/apply.sh" ||
		return 1
	_applied=$1
}

# build_guest NAME: apply what NAME needs and build its guest kernel:
#  baseline  the tree as shipped, in $BUILD/obj-baseline;
#  product   patches/series, what a distribution applies; built in
#            $BUILD/obj-patched, its image then kept in $BUILD/obj-product
#            (arch/x86/boot/bzImage and .config, nothing else);
#  patched   the product plus the evaluation series patches/eval/series
#            (config/eval.config: the debugfs knobs that make bench,
#            latency, mutants and strategies.sh switch), in
#            $BUILD/obj-patched;
#  seed      patches/seed/series, the reference, in $BUILD/obj-seed;
#  debug     patched with lockdep, KASAN and friends, in $BUILD/obj-debug.
# Product and patched share one worktree and one object directory, so that
# building one after the other rebuilds only what the evaluation patch
# touches, not the whole kernel: name product first, so that obj-patched
# ends up patched for the targets that use it.
build_guest() {
	local cfg=$TOP/config s=$TOP/patches/series e=$TOP/patches/eval/series
	local pimg=$BUILD/obj-product/arch/x86/boot/bzImage
	case $1 in
	baseline)
		step build baseline "$LOGS/build-baseline.log" "$TOP/scripts/build-kernel.sh" \
			"$SRC" "$BUILD/obj-baseline" "$cfg/guest.config" ;;
	product)
		rm -f "$pimg"
		apply_patched product "$s" &&
			step build product "$LOGS/build-product.log" "$TOP/scripts/build-kernel.sh" \
				"$SRC_PATCHED" "$BUILD/obj-patched" "$cfg/guest.config" "$cfg/patched.config" &&
			mkdir -p "${pimg%/*}" &&
			cp "$BUILD/obj-patched/.config" "$BUILD/obj-product/.config" &&
			cp "$BUILD/obj-patched/arch/x86/boot/bzImage" "$pimg" ;;
	patched)
		apply_patched patched "$s" "$e" &&
			step build patched "$LOGS/build-patched.log" "$TOP/scripts/build-kernel.sh" \
				"$SRC_PATCHED" "$BUILD/obj-patched" "$cfg/guest.config" \
				"$cfg/patched.config" "$cfg/eval.config" ;;
	debug)
		apply_patched patched "$s" "$e" &&
			step build debug "$LOGS/build-debug.log" "$TOP/scripts/build-kernel.sh" \
				"$SRC_PATCHED" "$BUILD/obj-debug" "$cfg/guest.config" \
				"$cfg/patched.config" "$cfg/eval.config" "$cfg/debug.config" ;;
	seed)
		step apply seed "$LOGS/apply-seed.log" env SERIES="$TOP/patches/seed/series" \
			APPLY_DEST="$BUILD/src-seed" APPLY_SCRATCH="$BUILD/src-seed-apply" \
			"$TOP/scripts/apply.sh" &&
			step build seed "$LOGS/build-seed.log" "$TOP/scripts/build-kernel.sh" \
				"$BUILD/src-seed" "$BUILD/obj-seed" "$cfg/guest.config" "$cfg/seed.config" ;;
	*)
		echo "error: unknown kernel '$1' (baseline, product, patched, seed or debug)" >&2
		return 1 ;;
	esac
}

# prepare KERNEL...: the one set-up chain of every target: packages, tree,
# the named guest kernels and the initramfs ($INITRD, default
# $BUILD/initramfs.cpio.gz). Builds all it can; $built lists the kernels
# that built. Returns 1 if any step failed.
prepare() {
	local k rc=0 ird=${INITRD:-$BUILD/initramfs.cpio.gz}
	built=""
	prepare_tree || return 1
	for k; do
		if build_guest "$k"; then built="$built $k"; else rc=1; fi
	done
	step initramfs guest "$LOGS/$(basename "$(dirname "$ird")")-initramfs.log" \
		"$TOP/scripts/initramfs.sh" "$ird" || rc=1
	return $rc
}

# judge LOG LABEL [KUNIT_SUITE...]: the PASS/FAIL/SKIP lines of one boot
# whose console is LOG: its KTAP results and its console's splats.
judge() {
	local log=$1 label=$2
	shift 2
	"$TOP/scripts/results.sh" "${log%.console.log}.ktap" "$log" "$label" "$@"
	"$TOP/scripts/scan-console.sh" "$log" "$label"
}

# test_boot DIR KERNEL PREEMPT PROGS [KUNIT_SUITE...]: one test boot of
# make check: boot $BUILD/obj-KERNEL's image under preempt=PREEMPT with the
# guest programs PROGS (comma separated) and write its PASS/FAIL lines to
# DIR/KERNEL-PREEMPT.txt: the results, the splats, the preemption model.
test_boot() {
	local dir=$1 k=$2 p=$3 progs=$4 res=$1/$2-$3.txt
	shift 4
	if [[ " $built " != *" $k "* ]] || [ ! -f "${INITRD:-$BUILD/initramfs.cpio.gz}" ]; then
		echo "FAIL $k/$p: not booted, kernel or initramfs missing" >"$res"
		return
	fi
	step boot "$k/$p" "$dir/$k-$p.boot.log" "$TOP/scripts/boot.sh" \
		"$BUILD/obj-$k/arch/x86/boot/bzImage" "$p" "$progs" "$dir/$k-$p.console.log" \
		"${BOOT_TIMEOUT:-600}" ||
		echo "FAIL $k/$p: boot: $(tail -n 1 "$dir/$k-$p.boot.log")" >"$res"
	judge "$dir/$k-$p.console.log" "$k/$p" "$@" >>"$res"
	grep -q "preempt: .*($p)" "$dir/$k-$p.console.log" ||
		echo "FAIL $k/$p: the guest did not run under preempt=$p" >>"$res"
}

# tally DIR: the one tally of every target. DIR/*.txt hold PASS/FAIL/SKIP
# lines; print a table of them, the failures and "N passed, N failed, N
# skipped", and gather them in DIR/all.txt. Returns 1 on any FAIL, and
# when nothing passed or failed at all (nothing ran is not a pass).
tally() {
	local dir=$1 f pass fail skip
	rm -f "$dir/all.txt"
	printf '%-24s %7s %7s %7s\n' result passed failed skipped
	for f in "$dir"/*.txt; do
		printf '%-24s %7s %7s %7s\n' "$(basename "$f" .txt)" \
			"$(grep -c '^PASS' "$f")" "$(grep -c '^FAIL' "$f")" "$(grep -c '^SKIP' "$f")"
	done
	{ provenance; cat "$dir"/*.txt; } >"$dir/all.tmp"
	mv "$dir/all.tmp" "$dir/all.txt"
	if grep -q '^FAIL' "$dir/all.txt"; then
		echo
		echo "failures:"
		grep '^FAIL' "$dir/all.txt" | sed 's/^/  /'
	fi
	pass=$(grep -c '^PASS' "$dir/all.txt")
	fail=$(grep -c '^FAIL' "$dir/all.txt")
	skip=$(grep -c '^SKIP' "$dir/all.txt")
	echo "results: ${dir#"$TOP"/}/all.txt"
	# A subset says so (TALLY_PREFIX), never the full run's line alone.
	echo "${TALLY_PREFIX:-}$pass passed, $fail failed, $skip skipped"
	if [ $((pass + fail)) -eq 0 ]; then
		echo "FAIL: no result at all in $dir: nothing ran"
		return 1
	fi
	[ "$fail" -eq 0 ]
}

# measurements KTAP PROGRAM: the measurements of one guest program, read
# from the results document: each "# key: value" line of the program's
# subtest belongs to the result line that follows it. Prints one line
# "result<TAB>key<TAB>value" per measurement of a passed result.
measurements() {
	tr -d '\r' <"$1" | awk -v prog="$2" '
		$0 == "  # Subtest: " prog { in_prog = 1; next }
		!in_prog { next }
		/^[^ ]/ { exit }	# the program'"'"'s own result: its subtest ended
		/^  # [A-Za-z0-9_]+: / {
			k = $2; sub(/:$/, "", k)
			v = $0; sub(/^  # [A-Za-z0-9_]+: /, "", v)
			key[++n] = k; val[n] = v
			next
		}
		/^  (not )?ok [0-9]+ / {
			name = $0; sub(/^  (not )?ok [0-9]+ /, "", name); sub(/ # .*/, "", name)
			if ($1 == "ok")
				for (i = 1; i <= n; i++) print name "\t" key[i] "\t" val[i]
			n = 0
		}'
}

# The series' KUnit suites: a boot of the patched kernel must run them.
PATCHED_SUITES="x86_clear_pages x86_copy_pages folio_zero_user resched_ranges hugetlb_zeroed"

# latency_boot LABEL IMG PREEMPT VARIANTS LOG: one step that boots IMG
# under PREEMPT and runs guest/latency.sh with the comma separated
# VARIANTS, $dur s each (default 20), with a bounded time limit.
latency_boot() {
	local n
	n=$(echo "$4" | tr ',' '\n' | grep -c .)
	step latency "$1" "${5%.console.log}.boot.log" "$TOP/scripts/boot.sh" "$2" "$3" \
		latency.sh "$5" $((n * (${dur:-20} * 2 + 40) + 180)) \
		"latency_dur=${dur:-20} latency_variants=$4"
}

# latency_rows KTAP KERNEL PREEMPT: the CSV rows
# (kernel,preempt,variant,max_us,p99_us) of one boot of guest/latency.sh.
latency_rows() {
	measurements "$1" latency.sh | awk -F'\t' -v k="$2" -v p="$3" '
		$2 == "max_us" { max[$1] = $3; order[++n] = $1 }
		$2 == "p99_us" { p99[$1] = $3 }
		END { for (i = 1; i <= n; i++) print k "," p "," order[i] "," max[order[i]] "," p99[order[i]] }'
}

# latency_goal CSV PREEMPT REF VARIANT RATIO [CONSOLE...]: VARIANT's
# maximum within RATIO x REF's, in the rows of PREEMPT. Prints the verdict;
# returns 1 if it is missed or either row is missing (nothing to compare is
# a failure). A missing row is explained by the guest's "not ok" line for
# that variant in the CONSOLE logs (no latency samples: the CPU never came
# back to cyclictest), or by "no result line" if there is none.
latency_goal() {
	local csv=$1 p=$2 rv=$3 gv=$4 k=$5 why= v
	shift 5
	for v in $rv $gv; do
		awk -F, -v p="$p" -v v="$v" '$2 == p && $3 == v && $4 > 0 { f = 1 } END { exit !f }' \
			"$csv" && continue
		why="$why; $v: $(grep -a -h "^not ok [0-9]* $v #" "$@" /dev/null | head -1 |
			tr -d '\r' | sed 's/^not ok [0-9]* [^ ]* # //' | grep . || echo "no result line in $*")"
	done
	if [ -n "$why" ]; then
		echo "goal: $p: $gv <= ${k}x $rv: NOT measured (${why#; })"
		return 1
	fi
	awk -F, -v p="$p" -v rv="$rv" -v gv="$gv" -v k="$k" '
		$2 == p && $3 == rv { m = $4 } $2 == p && $3 == gv { g = $4 }
		END {
			r = g / m
			printf "goal: %s: %s <= %gx %s: %s (%d us vs %d us, %.2fx)\n", p, gv, k, rv, \
				r <= k ? "met" : "NOT met", g, m, r
			exit r > k
		}' "$csv"
}

# gnuplot_bars PNG PANELS TITLE: the start of a gnuplot script for bar
# charts with min-max error bars, PANELS side by side, into PNG.
gnuplot_bars() {
	cat <<GP
set terminal pngcairo noenhanced size $((600 * $2 + 200)),560 font "sans,10"
set output "$1"
set multiplot layout 1,$2 title "$3\\nerror bars: min to max over the rounds"
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set ylabel "GB/s"
set grid ytics
set xtics rotate by -30
set key top left
GP
}

# The goals of bench, latency and mutants: one file.
. "$TOP/scripts/goals.sh"
