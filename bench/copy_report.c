// SPDX-License-Identifier: GPL-2.0
/*
 * What clearbench -C tells: a header of the tree's copy routines and what
 * the kernel picks on this CPU, one table of medians with min-max and
 * per-round paired ratios (to mainline, and to limit, the fastest copy of
 * the round), and the raw CSV that scripts/plot-bench.sh and
 * scripts/bench-goals.sh read:
 *
 *   -R  strategy,page,gbps,round   every run; limit's rows are the
 *                                  fastest copy of their round
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "copy.h"
#include "copy_measure.h"
#include "copy_report.h"
#include "probe.h"
#include "split.h"

void copy_print_header(const struct opts *o)
{
	const struct cpu_info *ci = cpu_info();

	copy_features_init();
	note("copy: CPU erms %s, rep_good %s (the host kernel's /proc/cpuinfo flags)\n",
	     ci->erms ? "yes" : "no", ci->rep_good ? "yes" : "no");
	note("copy_page_64.S: %s\n", COPY_PAGE_S);
	note("copy_mc_64.S: %s\n", COPY_MC_S);
	note("copy split: %s\n", split_source);
	note("mainline copies 4K with: %s\n", copy_mainline_routine());
	note("default copies runs with: %s\n", copy_default_routine());
	note("copy movdir64b: clearbench's own MOVDIR64B loop, a reference; MOVDIR64B (CPUID 7.0 ECX bit 28): %s\n",
	     cpu_has("movdir64b") ? "yes" : "no, movdir64b is skipped");
	if (copy_unit_bytes(o))
		note("units copies in calls of %zu KiB (%s)\n",
		     copy_unit_bytes(o) >> 10, o->copy_unit ? "-u" :
		     "the tree's COPY_PAGES_NON_PREEMPT_BATCH");
	if (!o->verify)
		note("copy: buffer %zu MiB (source and destination, THP), %d rounds after 1 warm-up, pages:%s%s\n",
		     o->size >> 20, o->rounds, o->want_page[0] ? " 2M" : "",
		     o->want_page[1] ? " 1G" : "");
}

static void fmt_ratio(char *buf, size_t len, const struct copy_results *res,
		      int pi, int s, int vs, struct ratio_stats *st)
{
	buf[0] = '\0';
	if (s != vs && copy_ratio(res, pi, s, vs, st))
		snprintf(buf, len, "%.2fx [%.2f-%.2f]", st->median, st->min,
			 st->max);
}

static void print_row(const struct copy_results *res, int pi, int s)
{
	char mm[32], ml[32], lim[32], won[16] = "";
	struct ratio_stats st = { 0 };
	double med, lo, hi;

	copy_stats(res, pi, s, &med, &lo, &hi);
	snprintf(mm, sizeof(mm), "[%.2f-%.2f]", lo, hi);
	fmt_ratio(ml, sizeof(ml), res, pi, s, C_MAINLINE, &st);
	fmt_ratio(lim, sizeof(lim), res, pi, s, C_LIMIT, &st);
	if (s != C_LIMIT && st.rounds)
		snprintf(won, sizeof(won), "%d/%d", st.won, st.rounds);
	printf("%-4s %-10s %7.2f %-15s %-20s %-20s %s\n",
	       page_name(page_sizes[pi]), copy_strategies[s].name, med, mm, ml,
	       lim, won);
}

void copy_print_table(const struct copy_results *res)
{
	int pi, s, n;

	printf("\ncopy: GB/s (bytes copied per ns), median [min-max] over the rounds;\n"
	       "per-round paired ratios: median [min-max]; won: rounds it was the fastest\n");
	printf("page strategy      GB/s %-15s %-20s %-20s %s\n", "[min-max]",
	       "/mainline", "/limit", "won");
	for (pi = 0; pi < NR_PAGES; pi++)
		for (s = 0; s < NR_COPY; s++)
			if (res->measured[pi][s])
				print_row(res, pi, s);
	printf("\n");
	for (pi = 0; pi < NR_PAGES; pi++) {
		const char *pn = page_name(page_sizes[pi]);

		if (res->backing[pi][0])
			printf("%s copy backing: %s\n", pn, res->backing[pi]);
		if (res->measured[pi][C_LIMIT]) {
			printf("%s copy limit, the fastest of each round:", pn);
			for (s = 0, n = 0; s < NR_COPY; s++)
				if (res->limit_won[pi][s])
					printf("%s %s %d", n++ ? "," : "",
					       copy_strategies[s].name,
					       res->limit_won[pi][s]);
			printf(" (rounds)\n");
		}
		if (res->unavailable[pi][0])
			printf("%s copy: not available here, skipped: %s\n", pn,
			       res->unavailable[pi]);
	}
}

int copy_write_raw(const struct opts *o, const struct copy_results *res)
{
	FILE *f = fopen(o->raw, "w");
	size_t i;

	if (!f) {
		fprintf(stderr, "clearbench: %s: %s\n", o->raw, strerror(errno));
		return -1;
	}
	fprintf(f, "strategy,page,gbps,round\n");
	for (i = 0; i < res->nr; i++) {
		const struct copy_run *r = &res->runs[i];

		if (isnan(r->gbps))
			continue;
		fprintf(f, "%s,%s,%.3f,%d\n", copy_strategies[r->strat].name,
			page_name(page_sizes[r->page]), r->gbps, r->round);
	}
	return fclose(f) ? -1 : 0;
}
