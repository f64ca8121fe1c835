// SPDX-License-Identifier: GPL-2.0
/*
 * What clearbench tells: a header of what it runs on, the table of
 * medians, the table of per-round paired ratios, and the CSVs that
 * scripts/bench.sh, scripts/plot-bench.sh and scripts/bench-goals.sh
 * read (the notes as it goes are note(), in common.c):
 *
 *   -o  strategy,page,gbps,e2e_gbps                     medians
 *   -R  round,strategy,page,gbps,e2e_gbps,e2e_read_gbps every run
 *   -P  strategy,page,metric,vs,median,min,max,rounds_won,rounds
 *
 * e2e_gbps is the clear then the user's write pass. -o has the named
 * strategies only; -R and -P also have limit's own candidates, under
 * their names. limit's rows are copies of the method it was.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "measure.h"
#include "policy.h"
#include "probe.h"
#include "report.h"
#include "strategies.h"

/* A /proc/cpuinfo flag: "yes", "no", or "?" if it could not be read. */
static const char *cpuinfo_flag(const struct cpu_info *ci, bool flag)
{
	return !ci->cpuinfo ? "?" : flag ? "yes" : "no";
}

void print_header(const struct opts *o)
{
	const struct host_policy *pol = host_policy(o->cpu);
	const struct cpu_info *ci = cpu_info();
	const char *large;

	note("clearbench: CPU %s (erms %s, fsrm %s, avx512f %s), pinned to CPU %d\n",
	     ci->model, cpuinfo_flag(ci, ci->erms), cpuinfo_flag(ci, ci->fsrm),
	     cpu_has("avx512f") ? "yes" : "no", o->cpu);
	note("clear_page_64.S: %s (%s)\n", CLEAR_PAGE_S, clear_pages_source);
	note("split: %s\n", split_source);
	note("nt uses: %s\n", nt_source);
	note("clzero uses: %s; CLZERO (CPUID 0x80000008 EBX bit 0): %s\n",
	     clzero_source, cpu_has("clzero") ? "yes" :
	     "no, clzero is skipped");
	note("movdir64b uses: clearbench's own MOVDIR64B loop (the tree has none), a reference; MOVDIR64B (CPUID 7.0 ECX bit 28): %s\n",
	     cpu_has("movdir64b") ? "yes" : "no, movdir64b is skipped");
	note("policy: %s\n", policy_source);
	nocache_method(pol->clzero, &large);
	if (pol->threshold == POLICY_NEVER)
		note("policy on this CPU: never around the caches (%s)\n",
		     pol->why);
	else
		note("policy on this CPU: runs over %lu bytes with %s (%s)\n",
		     pol->threshold, pol->clzero ? "CLZERO" : "MOVNTI", pol->why);
	if (o->nt_thresh == POLICY_NEVER)
		note("default: clear_pages_erms throughout (threshold: never, %s)\n",
		     o->nt_src);
	else if (pol->all)
		note("default: pages over %zu bytes (%s) whole, fault +-2 included, with %s; the rest with clear_pages_erms\n",
		     o->nt_thresh, o->nt_src, large);
	else
		note("default: runs over %zu bytes (%s) with %s; fault +-2 and the rest with clear_pages_erms\n",
		     o->nt_thresh, o->nt_src, large);
	if (o->want[S_UNITS])
		note("units: as default, runs in calls of %zu KiB (%s)\n",
		     (o->copy_unit ? o->copy_unit : SZ_32M) >> 10,
		     o->copy_unit ? "-u" : "PROCESS_PAGES_NON_PREEMPT_BATCH");
	if (o->verify)
		note("buffer %zu MiB, verify mode, pages:%s%s\n", o->size >> 20,
		     o->want_page[0] ? " 2M" : "", o->want_page[1] ? " 1G" : "");
	else
		note("buffer %zu MiB, %d rounds after 1 warm-up, pages:%s%s\n",
		     o->size >> 20, o->rounds, o->want_page[0] ? " 2M" : "",
		     o->want_page[1] ? " 1G" : "");
}

static void fmt_num(char *buf, size_t len, double x)
{
	if (isnan(x))
		buf[0] = '\0';
	else
		snprintf(buf, len, "%.2f", x);
}

static void print_medians(const struct results *res, int pi, int s)
{
	char v[NR_METRICS][16];
	int m;

	for (m = 0; m < NR_METRICS; m++)
		fmt_num(v[m], sizeof(v[m]), median(res, pi, s, m));
	printf("%-4s %-12s %8s %10s %10s\n", page_name(page_sizes[pi]),
	       strategies[s].name, v[M_GBPS], v[M_E2E_WRITE], v[M_E2E_READ]);
}

/* "1.02x [0.98-1.05]", or "" if there is no paired round. */
static void fmt_ratio(char *buf, size_t len, const struct results *res,
		      int pi, int s, enum metric m, int vs, int *won,
		      int *rounds)
{
	struct ratio_stats st;

	buf[0] = '\0';
	if (!paired_ratio(res, pi, s, m, vs, &st))
		return;
	snprintf(buf, len, "%.2fx [%.2f-%.2f]", st.median, st.min, st.max);
	*won = st.won;
	*rounds = st.rounds;
}

static void print_ratios(const struct results *res, int pi, int s)
{
	char ml[40], best[40], won[16];
	int m, w, n;

	for (m = 0; m < NR_METRICS; m++) {
		w = n = 0;
		fmt_ratio(ml, sizeof(ml), res, pi, s, m, S_MAINLINE, &w, &n);
		fmt_ratio(best, sizeof(best), res, pi, s, m, VS_BEST, &w, &n);
		if (n)
			snprintf(won, sizeof(won), "%d/%d", w, n);
		else
			snprintf(won, sizeof(won), "%s", "unpaired");
		printf("%-4s %-12s %-10s %-22s %-22s %s\n",
		       page_name(page_sizes[pi]), strategies[s].name,
		       metric_name[m], ml, best, won);
	}
}

void print_table(const struct results *res)
{
	int pi, s, m;

	printf("\nmedians, GB/s\npage strategy         clear  e2e_write   e2e_read\n");
	for (pi = 0; pi < NR_PAGES; pi++)
		for (s = 0; s < NR_NAMED; s++)
			if (res->measured[pi][s])
				print_medians(res, pi, s);

	printf("\nper-round paired ratios: median [min-max] over the rounds; won: rounds\n"
	       "it was the fastest of all methods measured (limit's candidates too)\n");
	printf("page strategy     metric     %-22s %-22s %s\n",
	       "/mainline", "/best of round", "won");
	for (pi = 0; pi < NR_PAGES; pi++)
		for (s = 0; s < NR_NAMED; s++)
			if (res->measured[pi][s])
				print_ratios(res, pi, s);
	printf("\n");
	for (pi = 0; pi < NR_PAGES; pi++) {
		const char *pn = page_name(page_sizes[pi]);

		if (res->backing[pi][0])
			printf("%s backing: %s\n", pn, res->backing[pi]);
		for (m = 0; m < NR_METRICS; m++)
			if (res->limit_of[pi][m] >= 0)
				printf("%s limit %s: %s (medians of all methods: %s)\n",
				       pn, metric_name[m],
				       strategies[res->limit_of[pi][m]].name,
				       res->limit_note[pi][m]);
		if (res->unavailable[pi][0])
			printf("%s not available on this CPU, skipped: %s\n", pn,
			       res->unavailable[pi]);
		if (res->host_fault_note[pi][0])
			printf("%s host-fault: %s\n", pn, res->host_fault_note[pi]);
	}
}

static FILE *open_out(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		fprintf(stderr, "clearbench: %s: %s\n", path, strerror(errno));
	return f;
}

static void csv_row(FILE *f, const struct results *res, const char *name,
		    int pi, int s)
{
	char gs[16], es[16];

	fmt_num(gs, sizeof(gs), median(res, pi, s, M_GBPS));
	fmt_num(es, sizeof(es), median(res, pi, s, M_E2E_WRITE));
	fprintf(f, "%s,%s,%s,%s\n", name, page_name(page_sizes[pi]), gs, es);
}

int write_csv(const struct opts *o, const struct results *res)
{
	FILE *f = open_out(o->csv);
	int pi, s;

	if (!f)
		return -1;
	fprintf(f, "strategy,page,gbps,e2e_gbps\n");
	for (pi = 0; pi < NR_PAGES; pi++) {
		for (s = 0; s < NR_NAMED; s++)
			if (res->measured[pi][s])
				csv_row(f, res, strategies[s].name, pi, s);
	}
	return fclose(f) ? -1 : 0;
}

int write_raw(const struct opts *o, const struct results *res)
{
	FILE *f = open_out(o->raw);
	char v[16];
	size_t i;
	int m;

	if (!f)
		return -1;
	fprintf(f, "round,strategy,page,gbps,e2e_gbps,e2e_read_gbps\n");
	for (i = 0; i < res->nr; i++) {
		const struct raw_run *r = &res->runs[i];

		fprintf(f, "%d,%s,%s", r->round, strategies[r->strat].name,
			page_name(page_sizes[r->page]));
		for (m = 0; m < NR_METRICS; m++) {
			fmt_num(v, sizeof(v), r->v[m]);
			fprintf(f, ",%s", v);
		}
		fprintf(f, "\n");
	}
	return fclose(f) ? -1 : 0;
}

static void ratio_row(FILE *f, const struct results *res, int pi, int s,
		      enum metric m, int vs)
{
	struct ratio_stats st;

	if (!paired_ratio(res, pi, s, m, vs, &st))
		return;
	fprintf(f, "%s,%s,%s,%s,%.4f,%.4f,%.4f,%d,%d\n", strategies[s].name,
		page_name(page_sizes[pi]), metric_col[m],
		vs == VS_BEST ? "best" : strategies[vs].name, st.median,
		st.min, st.max, st.won, st.rounds);
}

int write_ratios(const struct opts *o, const struct results *res)
{
	FILE *f = open_out(o->ratios);
	int pi, s, m;

	if (!f)
		return -1;
	fprintf(f, "strategy,page,metric,vs,median,min,max,rounds_won,rounds\n");
	for (pi = 0; pi < NR_PAGES; pi++)
		for (s = 0; s < NR_STRATEGIES; s++)
			for (m = 0; m < NR_METRICS && res->measured[pi][s]; m++) {
				ratio_row(f, res, pi, s, m, S_MAINLINE);
				ratio_row(f, res, pi, s, m, VS_BEST);
			}
	return fclose(f) ? -1 : 0;
}
