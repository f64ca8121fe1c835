#!/bin/bash
# plot-bench.sh CSV PNG: bar chart of clearing alone (gbps) and clear then
# one sequential write (e2e_gbps) per strategy, one panel per page size.
set -eu
. "$(dirname "$0")/lib.sh"
csv=$1 png=$2
command -v gnuplot >/dev/null || die "gnuplot missing (apt-get install gnuplot-nox)"
tmp=$(mktemp -d)
declare -A top
trap 'rm -rf "$tmp"' EXIT
for page in 2M 1G; do
	awk -F, -v p=$page 'NR > 1 && $2 == p { print $1, $3, ($4 == "" ? "NaN" : $4) }' "$csv" >"$tmp/$page.dat"
	# 10% headroom, so that the tallest bar does not touch the frame
	top[$page]=$(awk '{ for (i = 2; i <= 3; i++) if ($i != "NaN" && $i > m) m = $i } END { print m * 1.1 + 1 }' "$tmp/$page.dat")
done
gnuplot <<GP
set terminal pngcairo noenhanced size 1200,520 font "sans,10"
set output "$png"
set multiplot layout 1,2 title "Huge page zeroing on this host's CPU, user space, the series' clear_page_64.S (GB/s, medians)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set ylabel "GB/s"
set grid ytics
set xtics rotate by -30
set key top left
set title "2 MiB pages"
set yrange [0:${top[2M]}]
plot "$tmp/2M.dat" using 2:xtic(1) title "clear", "" using 3 title "clear + write pass"
set title "1 GiB pages"
set yrange [0:${top[1G]}]
plot "$tmp/1G.dat" using 2:xtic(1) title "clear", "" using 3 title "clear + write pass"
unset multiplot
GP
echo "$png"
