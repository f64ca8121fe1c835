// SPDX-License-Identifier: GPL-2.0
/*
 * What clearbench tells: notes as it goes, a header of what it runs on,
 * the table of medians with their ratios to mainline, and the CSVs that
 * scripts/bench.sh and scripts/plot-bench.sh read:
 *
 *   -o  strategy,page,gbps,e2e_gbps           medians
 *   -R  round,strategy,page,gbps,e2e_gbps     every run
 *
 * The limit candidates appear only as limit, and in the "limit:" line.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "clearbench.h"
#include "measure.h"
#include "probe.h"
#include "report.h"
#include "strategies.h"

static const char *prefix = "";

void note_prefix(const char *p)
{
	prefix = p;
}

void note(const char *fmt, ...)
{
	va_list ap;

	fputs(prefix, stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
}

/* A /proc/cpuinfo flag: "yes", "no", or "?" if it could not be read. */
static const char *cpuinfo_flag(const struct cpu_info *ci, bool flag)
{
	return !ci->cpuinfo ? "?" : flag ? "yes" : "no";
}

void print_header(const struct opts *o)
{
	const struct cpu_info *ci = cpu_info();
	const char *large;

	note("clearbench: CPU %s (erms %s, fsrm %s, avx512f %s), pinned to CPU %d\n",
	     ci->model, cpuinfo_flag(ci, ci->erms), cpuinfo_flag(ci, ci->fsrm),
	     cpu_has("avx512f") ? "yes" : "no", o->cpu);
	note("clear_page_64.S: %s\n", CLEAR_PAGE_S);
	note("nt uses: %s\n", nt_source);
	note("NT threshold: %zu bytes (%s)\n", o->nt_thresh, o->nt_src);
	large_method(&large);
	note("default: regions over the threshold use %s, the rest clear_pages_erms\n",
	     large);
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

static void fmt_ratio(char *buf, size_t len, double x, double base)
{
	if (isnan(x) || isnan(base) || base <= 0)
		buf[0] = '\0';
	else
		snprintf(buf, len, "%.2fx", x / base);
}

static void print_row(const struct results *res, const char *name, int pi,
		      int s)
{
	int ml = S_MAINLINE;
	double g = median(res, pi, s, false), e = median(res, pi, s, true);
	char gs[16], es[16], gr[16], er[16], label[40];

	fmt_num(gs, sizeof(gs), g);
	fmt_num(es, sizeof(es), e);
	fmt_ratio(gr, sizeof(gr), g, median(res, pi, ml, false));
	fmt_ratio(er, sizeof(er), e, median(res, pi, ml, true));
	snprintf(label, sizeof(label), "%s/mainline", name);
	printf("%-4s %-11s %8s %9s   %-20s %7s %9s\n", page_name(page_sizes[pi]),
	       name, gs, es, label, gr, er);
}

void print_table(const struct results *res)
{
	int pi, s;

	printf("\npage strategy       gbps  e2e_gbps   %-20s %7s %9s\n",
	       "ratio", "gbps", "e2e_gbps");
	for (pi = 0; pi < NR_PAGES; pi++) {
		for (s = 0; s < NR_NAMED; s++)
			if (res->measured[pi][s])
				print_row(res, strategies[s].name, pi, s);
	}
	printf("\n");
	for (pi = 0; pi < NR_PAGES; pi++) {
		if (res->backing[pi][0])
			printf("%s backing: %s\n", page_name(page_sizes[pi]),
			       res->backing[pi]);
		if (res->limit_of[pi] >= 0)
			printf("%s limit: %s (median GB/s of the candidates: %s)\n",
			       page_name(page_sizes[pi]),
			       strategies[res->limit_of[pi]].name,
			       res->limit_note[pi]);
		if (res->host_fault_note[pi][0])
			printf("%s host-fault: %s\n", page_name(page_sizes[pi]),
			       res->host_fault_note[pi]);
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

	fmt_num(gs, sizeof(gs), median(res, pi, s, false));
	fmt_num(es, sizeof(es), median(res, pi, s, true));
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
	char gs[16], es[16];
	size_t i;

	if (!f)
		return -1;
	fprintf(f, "round,strategy,page,gbps,e2e_gbps\n");
	for (i = 0; i < res->nr; i++) {
		const struct raw_run *r = &res->runs[i];

		if (is_candidate(r->strat))
			continue;
		fmt_num(gs, sizeof(gs), r->gbps);
		fmt_num(es, sizeof(es), r->e2e);
		fprintf(f, "%d,%s,%s,%s,%s\n", r->round,
			strategies[r->strat].name, page_name(page_sizes[r->page]),
			gs, es);
	}
	return fclose(f) ? -1 : 0;
}
