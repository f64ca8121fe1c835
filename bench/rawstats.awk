# rawstats.awk: figures from a clearbench raw CSV (-R), clears
# (round,strategy,page,gbps,e2e_gbps,e2e_read_gbps) or copies (-C -R:
# strategy,page,gbps,round), per page size.
#
#   awk -v a=units -v b=default -f rawstats.awk RAW.csv
#	per-round paired ratio a/b: median [min-max] over the rounds both ran,
#	and in how many of them a was ahead of b (ratio above 1)
#   awk -v a=units -v bytes=33554432 -f rawstats.awk RAW.csv
#	a's rate, median [min-max] over its runs, and the time one call of
#	that many bytes takes at it: at the median rate [fastest-slowest]
#
# -v metric=e2e_gbps (or e2e_read_gbps, clears only) for another column
# than gbps. GB/s is bytes per ns, as clearbench writes it.

BEGIN {
	FS = ","
	if (metric == "")
		metric = "gbps"
	if (a == "") {
		print "rawstats.awk: -v a=STRATEGY is needed" > "/dev/stderr"
		exit 2
	}
}

NR == 1 {
	for (i = 1; i <= NF; i++)
		col[$i] = i
	if (!(metric in col) || !("round" in col) || !("strategy" in col)) {
		printf "rawstats.awk: %s: no %s, round or strategy column\n",
		       FILENAME, metric > "/dev/stderr"
		exit 2
	}
	next
}

{
	p = $col["page"]
	v[$col["strategy"], p, $col["round"]] = $col[metric] + 0
	seen[p] = 1
	rounds[$col["round"]] = 1
}

function sort_x(n,	i, j, t) {
	for (i = 2; i <= n; i++) {
		t = x[i]
		for (j = i - 1; j >= 1 && x[j] > t; j--)
			x[j + 1] = x[j]
		x[j + 1] = t
	}
}

# @ns nanoseconds as "1.23 ms" or "4.5 us"
function fmt_t(ns) {
	return ns >= 1e6 ? sprintf("%.3f ms", ns / 1e6) : sprintf("%.2f us", ns / 1e3)
}

function median_x(n) {
	return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
}

END {
	if (a == "")
		exit 2
	split("2M 1G", order, " ")
	for (o = 1; o <= 2; o++) {
		p = order[o]
		if (!(p in seen))
			continue
		n = ahead = 0
		for (r in rounds) {
			if (!((a, p, r) in v))
				continue
			if (b == "")
				x[++n] = v[a, p, r]
			else if (((b, p, r) in v) && v[b, p, r] > 0) {
				x[++n] = v[a, p, r] / v[b, p, r]
				ahead += x[n] > 1
			}
		}
		if (!n)
			continue
		sort_x(n)
		m = median_x(n)
		if (b != "")
			printf "%s %s/%s %s: %.2fx [%.2f-%.2f] over %d rounds, %s ahead in %d\n",
			       p, a, b, metric, m, x[1], x[n], n, a, ahead
		else if (bytes)
			printf "%s %s %s: %.2f GB/s [%.2f-%.2f] over %d runs; %d bytes a call: %s [%s - %s]\n",
			       p, a, metric, m, x[1], x[n], n, bytes,
			       fmt_t(bytes / m), fmt_t(bytes / x[n]),
			       fmt_t(bytes / x[1])
		else
			printf "%s %s %s: %.2f GB/s [%.2f-%.2f] over %d runs\n",
			       p, a, metric, m, x[1], x[n], n
	}
}
