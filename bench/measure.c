// SPDX-License-Identifier: GPL-2.0
/*
 * Measurement. For each page size, the selected strategies run in rounds
 * on one huge page backed buffer: one warm-up round, not recorded, then
 * -r rounds, each in an order rotated by one from the round before.
 *
 * gbps is bytes over the time of the clear alone, on a resident buffer.
 * e2e_gbps is bytes over the time of the clear plus one sequential 8-byte
 * store pass by "the user" over the whole buffer, which pays for whatever
 * the clear left out of the cache.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "clearbench.h"
#include "hugemem.h"
#include "measure.h"
#include "report.h"
#include "strategies.h"

static void record(struct results *res, int round, int strat, int page,
		   double gbps, double e2e)
{
	if (res->nr == res->cap) {
		res->cap = res->cap ? 2 * res->cap : 256;
		res->runs = realloc(res->runs, res->cap * sizeof(*res->runs));
		if (!res->runs) {
			perror("clearbench: realloc");
			exit(1);
		}
	}
	res->runs[res->nr++] = (struct raw_run){ round, strat, page, gbps, e2e };
	res->measured[page][strat] = true;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static double gbps_of(size_t bytes, uint64_t ns)
{
	return ns ? (double)bytes / (double)ns : NAN;
}

/*
 * What "the user" does after the fault: one sequential pass of plain
 * 8-byte stores. In asm so that the compiler can neither turn it into a
 * memset() call (which may use non-temporal stores) nor vectorise it.
 */
static void user_write(void *addr, size_t len)
{
	unsigned long v = 0x0101010101010101UL, n = len / 64;

	if (!n)
		return;
	asm volatile("1:\n\t"
		     "movq %2, 0(%0)\n\t"
		     "movq %2, 8(%0)\n\t"
		     "movq %2, 16(%0)\n\t"
		     "movq %2, 24(%0)\n\t"
		     "movq %2, 32(%0)\n\t"
		     "movq %2, 40(%0)\n\t"
		     "movq %2, 48(%0)\n\t"
		     "movq %2, 56(%0)\n\t"
		     "addq $64, %0\n\t"
		     "decq %1\n\t"
		     "jnz 1b"
		     : "+r" (addr), "+r" (n)
		     : "r" (v)
		     : "memory", "cc");
}

/* ---- running one strategy ---- */

static void run_clear(const struct ctx *c, int strat, double *gbps,
		      double *e2e)
{
	uint64_t t0, t1, t2;

	t0 = now_ns();
	strategies[strat].clear(c);
	t1 = now_ns();
	user_write(c->buf, c->size);
	t2 = now_ns();
	*gbps = gbps_of(c->size, t1 - t0);
	*e2e = gbps_of(c->size, t2 - t0);
}

/* First touch of each page of a fresh hugetlb mapping, at its fault subpage. */
static int run_host_fault(const struct ctx *c, double *gbps, double *e2e,
			  char *why, size_t whylen)
{
	uint64_t t0, t1, t2;
	unsigned long k;
	char *p;

	p = hugetlb_map_fresh(c->size, c->page, why, whylen);
	if (!p)
		return -1;
	t0 = now_ns();
	for (k = 0; k < c->nr_huge; k++)
		((volatile char *)p)[k * c->page + c->fault[k] * SZ_4K] = 1;
	t1 = now_ns();
	user_write(p, c->size);
	t2 = now_ns();
	munmap(p, c->size);
	*gbps = gbps_of(c->size, t1 - t0);
	*e2e = gbps_of(c->size, t2 - t0);
	return 0;
}

/* ---- one page size ---- */

/*
 * Can host-fault run alongside the other strategies? Needs a second
 * hugetlb region of the buffer's size while the buffer is mapped.
 */
static bool host_fault_probe(const struct ctx *c, char *why, size_t whylen)
{
	void *p = hugetlb_map_fresh(c->size, c->page, why, whylen);

	if (!p)
		return false;
	munmap(p, c->size);
	return true;
}

static void measure_rounds(const struct ctx *c, const struct opts *o,
			   struct results *res, int pi, const int *sel, int ns)
{
	char why[256];
	double g, e;
	int r, j, s;

	/* Warm-up: every strategy once, not recorded. */
	for (j = 0; j < ns; j++) {
		if (sel[j] == S_HOST_FAULT)
			run_host_fault(c, &g, &e, why, sizeof(why));
		else
			run_clear(c, sel[j], &g, &e);
	}
	for (r = 0; r < o->rounds; r++) {
		for (j = 0; j < ns; j++) {
			s = sel[(j + r) % ns];
			if (s == S_HOST_FAULT) {
				if (run_host_fault(c, &g, &e, why, sizeof(why)))
					continue;
			} else {
				run_clear(c, s, &g, &e);
			}
			record(res, r + 1, s, pi, g, e);
		}
	}
}

/*
 * limit is the candidate with the best median clearing rate: its runs
 * become limit's runs, the others stay out of the CSVs.
 */
static void choose_limit(struct results *res, int pi)
{
	int s, best = -1, n = 0;
	double m, best_m = 0;
	char *note_buf = res->limit_note[pi];
	size_t i;

	for (s = NR_NAMED; s < NR_STRATEGIES; s++) {
		if (!res->measured[pi][s])
			continue;
		m = median(res, pi, s, false);
		n += snprintf(note_buf + n, sizeof(res->limit_note[pi]) - n,
			      "%s%s %.2f", n ? ", " : "", strategies[s].name, m);
		if (best < 0 || m > best_m) {
			best = s;
			best_m = m;
		}
	}
	res->limit_of[pi] = best;
	if (best < 0)
		return;
	for (i = 0; i < res->nr; i++)
		if (res->runs[i].page == pi && res->runs[i].strat == best)
			res->runs[i].strat = S_LIMIT;
	res->measured[pi][S_LIMIT] = true;
}

static void measure_page(const struct opts *o, struct results *res, int pi)
{
	int sel[NR_STRATEGIES], ns;
	bool fault_inline = false, fault_later = false;
	char why[256] = "";
	struct hugebuf b;
	struct ctx c;

	if (!ctx_setup(&c, o, pi))
		return;
	if (hugebuf_alloc(&b, c.size, c.page, o->backing)) {
		free((void *)c.fault);
		return;
	}
	c.buf = b.addr;
	snprintf(res->backing[pi], sizeof(res->backing[pi]), "%s", b.desc);

	if (o->want[S_HOST_FAULT]) {
		if (o->backing == BACKING_THP)
			snprintf(why, sizeof(why), "-B thp leaves hugetlb alone");
		else if (host_fault_probe(&c, why, sizeof(why)))
			fault_inline = true;
		else
			fault_later = b.backing == BACKED_HUGETLB;
	}
	ns = select_strategies(o->want, fault_inline, sel);
	note("%s pages: %zu MiB, %s; %d runs a round x %d rounds...\n",
	     page_name(c.page), c.size >> 20, b.desc, ns, o->rounds);
	fflush(stdout);
	measure_rounds(&c, o, res, pi, sel, ns);
	hugebuf_free(&b);
	if (o->want[S_LIMIT])
		choose_limit(res, pi);

	/* Not enough pool for two buffers: host-fault on its own, after. */
	if (fault_later) {
		if (host_fault_probe(&c, why, sizeof(why))) {
			sel[0] = S_HOST_FAULT;
			measure_rounds(&c, o, res, pi, sel, 1);
			snprintf(res->host_fault_note[pi], sizeof(res->host_fault_note[pi]),
				 "measured after the others (pool too small for both)");
		}
	}
	if (o->want[S_HOST_FAULT] && !res->measured[pi][S_HOST_FAULT]) {
		snprintf(res->host_fault_note[pi], sizeof(res->host_fault_note[pi]),
			 "not measured: %s", why[0] ? why : "no hugetlb pages");
		note("host-fault %s: not measured: %s\n", page_name(c.page),
		     why[0] ? why : "no hugetlb pages");
	}
	hugetlb_restore(c.page);
	free((void *)c.fault);
}

size_t measure(const struct opts *o, struct results *res)
{
	int pi;

	if (o->rounds < 5)
		note("note: %d rounds; use at least 5 for figures to quote\n",
		     o->rounds);
	for (pi = 0; pi < NR_PAGES; pi++)
		if (o->want_page[pi])
			measure_page(o, res, pi);
	return res->nr;
}

/* ---- medians ---- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double median(const struct results *res, int pi, int s, bool e2e)
{
	double v[MAX_ROUNDS];
	size_t i;
	int n = 0;

	for (i = 0; i < res->nr; i++) {
		const struct raw_run *r = &res->runs[i];
		double x = e2e ? r->e2e : r->gbps;

		if (r->page == pi && r->strat == s && !isnan(x) && n < MAX_ROUNDS)
			v[n++] = x;
	}
	if (!n)
		return NAN;
	qsort(v, n, sizeof(v[0]), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
