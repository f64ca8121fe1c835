#!/bin/bash
# plot-bench.sh CSV PNG [RAW]: bar chart of clearing alone (gbps), clear then
# the user's write pass (e2e_gbps) and, where the raw CSV has it, clear then
# the user's read pass (e2e_read_gbps), per strategy, one panel per page
# size. Bars are the medians of CSV (strategy,page,gbps,e2e_gbps); error
# bars span min to max over the rounds, from the raw CSV (round,strategy,
# page,gbps,e2e_gbps[,e2e_read_gbps]): RAW, else CSV's name with -raw
# before .csv (results/bench.csv -> results/bench-raw.csv). Without a
# raw CSV the bars have no error bars.
# The copy figure is plot-copy.sh's.
set -eu
. "$(dirname "$0")/lib.sh"
csv=$1 png=$2 raw=${3:-}
command -v gnuplot >/dev/null || die "gnuplot missing (apt-get install gnuplot-nox)"

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
	gnuplot_bars "$png" ${#pages[@]} "Huge page zeroing on this host's CPU, user space, the series' clear_page_64.S (GB/s, medians)"
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
