#!/bin/bash
# plot-copy.sh COPY_CSV PNG: the copy figure from clearbench -C's raw CSV
# (results/bench-copy.csv: strategy,page,gbps[,round], one row per run):
# per strategy the median GB/s over the rounds with min-max error bars,
# one panel per page size, and in each panel's title default's per-round
# paired ratios to mainline and to limit (with a round column).
set -eu
. "$(dirname "$0")/lib.sh"
[ $# -eq 2 ] || die "usage: plot-copy.sh COPY_CSV PNG"
csv=$1 png=$2
command -v gnuplot >/dev/null || die "gnuplot missing (apt-get install gnuplot-nox)"
[ -f "$csv" ] || die "no CSV $csv"
head -1 "$csv" | tr -d '\r' | grep -Eq '^strategy,page,gbps(,round)?$' ||
	die "$csv is not clearbench -C's raw CSV (strategy,page,gbps[,round])"
pages=()
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
	gnuplot_bars "$png" ${#pages[@]} "Huge page copying on this host's CPU, user space, the tree's copy_page_64.S (GB/s, medians)"
	for page in "${pages[@]}"; do
		[ "$page" = 2M ] && title="2 MiB pages" || title="1 GiB pages"
		echo "set title \"$title\\n$(cat "$tmp/$page.title")\""
		echo "set yrange [0:$(awk '{ if ($4 > m) m = $4 } END { print m * 1.15 + 1 }' "$tmp/$page.dat")]"
		echo "plot \"$tmp/$page.dat\" using 2:3:4:xtic(1) title \"copy\""
	done
	echo "unset multiplot"
} | gnuplot
echo "$png"
