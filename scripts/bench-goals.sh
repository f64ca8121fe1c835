#!/bin/bash
# bench-goals.sh CSV: the project's throughput goals, checked against the
# medians in results/bench.csv (strategy,page,gbps,e2e_gbps). A goal whose
# figures are not in the CSV (a page size or strategy not run) is n/a.
set -eu
awk -F, '
NR > 1 { g[$1 "," $2] = $3; e[$1 "," $2] = $4 }
function ratio(a, b) { missing = missing || a == "" || !(b > 0); return (b > 0) ? a / b : 0 }
function goal(text, value, want, ok) {
	if (missing)
		printf "%-58s %7s  %s\n", text, "n/a", "no figures in the CSV (want " want ")"
	else
		printf "%-58s %6.2fx  %s\n", text, value, ok ? "met" : "NOT met (want " want ")"
	missing = 0
}
END {
	r = ratio(g["default,1G"], g["limit,1G"])
	goal("1G: default clearing vs limit", r, ">= 0.90x", r >= 0.9)
	r = ratio(e["default,1G"], e["mainline,1G"])
	goal("1G: default vs mainline, clear then write", r, ">= 1.30x", r >= 1.3)
	r = ratio(e["default,2M"], e["mainline,2M"])
	goal("2M: default vs mainline, clear then write", r, ">= 1.10x", r >= 1.1)
	best = 0
	split("mainline multi chunked nt default", s, " ")
	for (i in s) if (e[s[i] ",2M"] > best) { best = e[s[i] ",2M"]; who = s[i] }
	r = ratio(e["default,2M"], best)
	goal("2M: default vs the best strategy (" who "), clear then write", r, ">= 0.98x", r >= 0.98)
}' "$1"
