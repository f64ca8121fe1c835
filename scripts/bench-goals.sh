#!/bin/bash
# bench-goals.sh CSV [COPY_CSV [PREZERO_CSV]]: the project's throughput goals, checked
# against the medians in results/bench.csv (strategy,page,gbps,e2e_gbps)
# and, given COPY_CSV (results/bench-copy.csv, clearbench -C -R:
# strategy,page,gbps,round), the copy goals, on per-round paired ratios:
# the median over the rounds of default's figure over mainline's, or over
# the fastest copy loop's (the strategy with the highest median in the
# run), with their min-max. Not over limit's, the fastest copy of each
# round: the maximum of eight noisy figures sits above every loop's median
# (2M, 2026-12-05: limit 14.85 GB/s, the best loop 14.57): when several
# loops are equally fast, noise alone puts default/limit below 0.95x.
# The limit row stays in the table. A goal whose figures are not in the
# CSV (a page size or strategy not run) is "NOT
# measured" and makes the script exit 1: nothing to compare is a failure.
# A goal measured and missed is reported, not fatal (the host's memory
# bandwidth is shared, see README).
set -eu
rc=0
awk -F, '
NR > 1 { g[$1 "," $2] = $3; e[$1 "," $2] = $4 }
function ratio(a, b) { missing = missing || a == "" || !(b > 0); return (b > 0) ? a / b : 0 }
function goal(text, value, want, ok) {
	if (missing) {
		printf "%-58s %7s  %s\n", text, "-", "NOT measured: no figures in the CSV (want " want ")"
		bad = 1
	} else
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
	exit bad
}' "$1" || rc=1
[ $# -ge 2 ] || exit $rc
awk -F, '
NR == 1 {
	for (i = 1; i <= NF; i++)
		col[$i] = i
	ok = ("strategy" in col) && ("page" in col) && ("gbps" in col) && ("round" in col)
	next
}
ok && $col["gbps"] != "" {
	v[$col["strategy"], $col["page"], $col["round"]] = $col["gbps"]
	names[$col["strategy"]] = 1
	rounds[$col["round"]] = 1
}
# Sort x[1..n] in place (n is small: one entry a round); return the median.
function sortmed(x, n,    i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && x[j - 1] > x[j]; j--) {
			t = x[j]; x[j] = x[j - 1]; x[j - 1] = t
		}
	return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
}
# Per-round ratios of a to b on page p: their median, min and max.
function paired(a, b, p,    r, n, x) {
	n = 0
	for (r in rounds)
		if ((a, p, r) in v && ((b, p, r) in v) && v[b, p, r] > 0)
			x[++n] = v[a, p, r] / v[b, p, r]
	pn = n
	if (!n)
		return
	pmed = sortmed(x, n)
	pmin = x[1]; pmax = x[n]
}
# The copy loop with the highest median on page p, in who: any strategy
# but limit (the maximum over the loops of each round) and host-cow (the host
# kernel, not a loop).
function fastest(p,    s, r, n, x, med, best) {
	who = "none"
	best = 0
	for (s in names) {
		if (s == "limit" || s == "host-cow")
			continue
		n = 0
		for (r in rounds)
			if ((s, p, r) in v)
				x[++n] = v[s, p, r]
		if (!n)
			continue
		med = sortmed(x, n)
		if (med > best) {
			best = med
			who = s
		}
		delete x
	}
}
function goal(text, a, b, p, want) {
	paired(a, b, p)
	if (!pn) {
		printf "%-58s %7s  %s\n", text, "-", "NOT measured: no paired rounds in the copy CSV (want >= " want "x)"
		bad = 1
	} else
		printf "%-58s %6.2fx  %s [%.2f-%.2f over %d rounds]\n", text, pmed,
		       (pmed >= want ? "met" : "NOT met (want >= " want "x)"), pmin, pmax, pn
}
END {
	if (!ok) {
		print "copy goals: NOT measured, no strategy,page,gbps,round columns in the copy CSV"
		exit 1
	}
	goal("2M: default copy vs mainline, per round", "default", "mainline", "2M", 1.2)
	goal("1G: default copy vs mainline, per round", "default", "mainline", "1G", 1.4)
	fastest("2M")
	goal("2M: default copy vs the fastest loop (" who "), per round", "default", who, "2M", 0.95)
	fastest("1G")
	goal("1G: default copy vs the fastest loop (" who "), per round", "default", who, "1G", 0.95)
	exit bad
}' "$2" || rc=1
[ $# -ge 3 ] || exit $rc
# Faults from a pool cleared beforehand (PREZERO_CSV, results/guest-prezero.csv
# from zerobench in the TCG guest: ratios within one boot, TCG's own clear
# being the slow side): page,mode,...,speedup,speedup_min,speedup_max.
awk -F, '
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
{ sp[$1 "," $2] = $col["speedup"]; lo[$1 "," $2] = $col["speedup_min"]; hi[$1 "," $2] = $col["speedup_max"] }
function goal(text, key, want) {
	if (!(key in sp) || sp[key] == "") {
		printf "%-58s %7s  %s\n", text, "-", "NOT measured: no " key " row in the prezero CSV (want >= " want "x)"
		bad = 1
	} else
		printf "%-58s %6.1fx  %s [%.1f-%.1f]\n", text, sp[key],
		       (sp[key] >= want ? "met" : "NOT met (want >= " want "x)"), lo[key], hi[key]
}
END {
	goal("1G fault: zeroed pool vs clearing (guest, demand)", "1G,demand", 1000)
	goal("1G fault: zeroed pool vs clearing (guest, populate)", "1G,populate", 1000)
	goal("2M fault: zeroed pool vs clearing (guest, demand)", "2M,demand", 30)
	goal("2M fault: zeroed pool vs clearing (guest, populate)", "2M,populate", 30)
	goal("zero_free_hugepages: two writers vs one (guest)", "writers,two_vs_one", 1.5)
	exit bad
}' "$3" || rc=1
exit $rc
