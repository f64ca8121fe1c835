#!/bin/bash
# plot-bench.sh CSV PNG [RAW]: bar chart of clearing alone (gbps), clear then
# the user's write pass (e2e_gbps) and, where the raw CSV has it, clear then
# the user's read pass (e2e_read_gbps), per strategy, one panel per page
# size. Bars are the medians of CSV (strategy,page,gbps,e2e_gbps); error
# bars span min to max over the rounds, from the raw CSV (round,strategy,
# page,gbps,e2e_gbps[,e2e_read_gbps]): RAW, else CSV's name with -raw
# before .csv (results/bench.csv -> results/bench-raw.csv). Without a
# raw CSV the bars have no error bars.
#
# plot-bench.sh COPY_CSV PNG: the copy figure, when CSV is clearbench -C's
# raw CSV (results/bench-copy.csv: strategy,page,gbps[,round], one row per
# run): per strategy the median GB/s over the rounds with min-max error
# bars, one panel per page size, and in each panel's title default's
# per-round paired ratios to mainline and to limit (with a round column).
set -eu
. "$(dirname "$0")/lib.sh"
csv=$1 png=$2 raw=${3:-}
command -v gnuplot >/dev/null || die "gnuplot missing (apt-get install gnuplot-nox)"

# COPY_CSV PNG: the copy figure.
plot_copy() {
	local csv=$1 png=$2 tmp page pages=() title
	tmp=$(mktemp -d /tmp/plot-copy.XXXXXX)
	# The path itself, not a variable that could change under the trap.
	trap "rm -rf -- '$tmp'" EXIT
	for page in 2M 1G; do
		grep -q "^[^,]*,$page," "$csv" || continue
		pages+=("$page")
		# strategy median min max, in the CSV's order; then the title.
		awk -F, -v p=$page -v dat="$tmp/$page.dat" -v ttl="$tmp/$page.title" '
			function sort(x, n,    i, j, t) {
				for (i = 2; i <= n; i++)
					for (j = i; j > 1 && x[j - 1] > x[j]; j--) {
						t = x[j]; x[j] = x[j - 1]; x[j - 1] = t
					}
			}
			function med(x, n) {
				return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
			}
			# "1.65x [1.52-2.02]": per-round ratios of a to b.
			function paired(a, b,    r, n, x) {
				n = 0
				for (r in rounds)
					if ((a, r) in v && ((b, r) in v) && v[b, r] > 0)
						x[++n] = v[a, r] / v[b, r]
				if (!n)
					return "n/a"
				sort(x, n)
				return sprintf("%.2fx [%.2f-%.2f]", med(x, n), x[1], x[n])
			}
			FNR == 1 { rc = 0; for (i = 1; i <= NF; i++) if ($i == "round") rc = i; next }
			$2 == p && $3 != "" {
				if (!($1 in cnt))
					order[++ns] = $1
				val[$1, ++cnt[$1]] = $3 + 0
				if (rc) {
					v[$1, $rc] = $3 + 0
					rounds[$rc] = 1
				}
			}
			END {
				for (i = 1; i <= ns; i++) {
					s = order[i]
					for (j = 1; j <= cnt[s]; j++)
						x[j] = val[s, j]
					sort(x, cnt[s])
					print s, med(x, cnt[s]), x[1], x[cnt[s]] > dat
				}
				if (rc)
					printf "default/mainline %s, default/limit %s (per round)\n",
					       paired("default", "mainline"), paired("default", "limit") > ttl
				else
					print "" > ttl
			}' "$csv"
	done
	[ ${#pages[@]} -gt 0 ] || die "no 2M or 1G rows in $csv"
	{
		cat <<GP
set terminal pngcairo noenhanced size $((600 * ${#pages[@]} + 200)),560 font "sans,10"
set output "$png"
set multiplot layout 1,${#pages[@]} title "Huge page copying on this host's CPU, user space, the tree's copy_page_64.S (GB/s, medians)\\nerror bars: min to max over the rounds"
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set ylabel "GB/s"
set grid ytics
set xtics rotate by -30
set key top left
GP
		for page in "${pages[@]}"; do
			[ "$page" = 2M ] && title="2 MiB pages" || title="1 GiB pages"
			echo "set title \"$title\\n$(cat "$tmp/$page.title")\""
			echo "set yrange [0:$(awk '{ if ($4 > m) m = $4 } END { print m * 1.15 + 1 }' "$tmp/$page.dat")]"
			echo "plot \"$tmp/$page.dat\" using 2:3:4:xtic(1) title \"copy\""
		done
		echo "unset multiplot"
	} | gnuplot
	echo "$png"
}

if head -1 "$csv" | tr -d '\r' | grep -Eq '^strategy,page,gbps(,round)?$'; then
	plot_copy "$csv" "$png"
	exit 0
fi
[ -n "$raw" ] || [ ! -f "${csv%.csv}-raw.csv" ] || raw=${csv%.csv}-raw.csv
if [ -n "$raw" ] && [ ! -f "$raw" ]; then
	die "no raw CSV $raw"
fi
[ -n "$raw" ] || echo "plot-bench.sh: no raw CSV next to $csv: no error bars" >&2
tmp=$(mktemp -d)
declare -A top
trap 'rm -rf "$tmp"' EXIT
# Does the raw CSV have the read pass?
reads=0
if [ -n "$raw" ] && head -1 "$raw" | tr -d '\r' | grep -q ',e2e_read_gbps$'; then
	reads=1
fi
pages=()
for page in 2M 1G; do
	grep -q "^[^,]*,$page," "$csv" || continue
	pages+=("$page")
	# strategy, then median, min and max of gbps, e2e_gbps and e2e_read_gbps;
	# the medians of the first two from CSV, the rest from the raw runs.
	awk -F, -v p=$page '
		function num(x) { return x == "" ? "NaN" : x }
		function med(k,    n, i, j, t, v) {
			n = cnt[k]
			if (!n)
				return "NaN"
			for (i = 1; i <= n; i++)
				v[i] = val[k, i]
			for (i = 2; i <= n; i++)
				for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
					t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
				}
			return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
		}
		function lo(k) { return cnt[k] ? min[k] : "NaN" }
		function hi(k) { return cnt[k] ? max[k] : "NaN" }
		FNR == 1 { next }
		FILENAME == ARGV[1] && $3 == p {
			for (c = 4; c <= 6; c++) {
				if ($c == "")
					continue
				k = $2 SUBSEP c
				x = $c + 0
				val[k, ++cnt[k]] = x
				if (cnt[k] == 1 || x < min[k]) min[k] = x
				if (cnt[k] == 1 || x > max[k]) max[k] = x
			}
		}
		FILENAME == ARGV[2] && $2 == p {
			g = num($3); e = num($4)
			r = med($1 SUBSEP 6)
			glo = lo($1 SUBSEP 4); ghi = hi($1 SUBSEP 4)
			elo = lo($1 SUBSEP 5); ehi = hi($1 SUBSEP 5)
			if (glo == "NaN") { glo = g; ghi = g }
			if (elo == "NaN") { elo = e; ehi = e }
			print $1, g, glo, ghi, e, elo, ehi, r, lo($1 SUBSEP 6), hi($1 SUBSEP 6)
		}' ${raw:-/dev/null} "$csv" >"$tmp/$page.dat"
	# 10% headroom over the highest bar or error bar
	top[$page]=$(awk '{ for (i = 2; i <= NF; i++) if ($i != "NaN" && $i > m) m = $i } END { print m * 1.1 + 1 }' "$tmp/$page.dat")
done
[ ${#pages[@]} -gt 0 ] || die "no 2M or 1G rows in $csv"
{
	cat <<GP
set terminal pngcairo noenhanced size $((600 * ${#pages[@]} + 200)),560 font "sans,10"
set output "$png"
set multiplot layout 1,${#pages[@]} title "Huge page zeroing on this host's CPU, user space, the series' clear_page_64.S (GB/s, medians)\\nerror bars: min to max over the rounds"
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set ylabel "GB/s"
set grid ytics
set xtics rotate by -30
set key top left
GP
	for page in "${pages[@]}"; do
		[ "$page" = 2M ] && title="2 MiB pages" || title="1 GiB pages"
		echo "set title \"$title\""
		echo "set yrange [0:${top[$page]}]"
		plot="plot \"$tmp/$page.dat\" using 2:3:4:xtic(1) title \"clear\", \"\" using 5:6:7 title \"clear + write pass\""
		if [ $reads = 1 ]; then
			plot="$plot, \"\" using 8:9:10 title \"clear + read pass\""
		fi
		echo "$plot"
	done
	echo "unset multiplot"
} | gnuplot
echo "$png"
