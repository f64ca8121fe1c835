// SPDX-License-Identifier: GPL-2.0
/*
 * Measurement. For each page size, the selected strategies run in rounds
 * on one huge page backed buffer: one warm-up round, not recorded, then
 * -r rounds, each in an order rotated by one from the round before.
 *
 * A run of a strategy is two clears of the whole buffer, each followed by
 * a pass of "the user" over it, as fast as a real program can make one
 * (loops.c: the widest vector stores and loads the CPU has):
 *
 *   gbps           bytes over the time of the first clear alone
 *   e2e_gbps       bytes over the first clear plus a write pass
 *   e2e_read_gbps  bytes over the second clear plus a read pass
 *
 * The user's passes pay for whatever the clear left out of the cache.
 * Since the host's bandwidth swings between runs, methods are compared
 * within a round (paired_ratio()), not by their medians alone.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "common.h"
#include "hugemem.h"
#include "loops.h"
#include "measure.h"
#include "strategies.h"

const char *const metric_col[NR_METRICS] = {
	"gbps", "e2e_gbps", "e2e_read_gbps"
};
const char *const metric_name[NR_METRICS] = {
	"clear", "e2e_write", "e2e_read"
};

static void record(struct results *res, int round, int strat, int page,
		   bool paired, const double v[NR_METRICS])
{
	struct raw_run *r;

	res->runs = grow_array(res->runs, &res->cap, res->nr, sizeof(*res->runs));
	r = &res->runs[res->nr++];
	r->round = round;
	r->strat = strat;
	r->page = page;
	r->paired = paired;
	memcpy(r->v, v, sizeof(r->v));
	res->measured[page][strat] = true;
}

static double gbps_of(size_t bytes, uint64_t ns)
{
	return ns ? (double)bytes / (double)ns : NAN;
}

/* ---- running one strategy ---- */

static void run_clear(const struct ctx *c, int strat, double v[NR_METRICS],
		      struct results *res)
{
	uint64_t t0, t1, t2;
	uint64_t sum;

	t0 = now_ns();
	strategy_clear(strat, c);
	t1 = now_ns();
	user_write(c->buf, c->size);
	t2 = now_ns();
	v[M_GBPS] = gbps_of(c->size, t1 - t0);
	v[M_E2E_WRITE] = gbps_of(c->size, t2 - t0);

	t0 = now_ns();
	strategy_clear(strat, c);
	sum = user_read(c->buf, c->size);
	t1 = now_ns();
	v[M_E2E_READ] = gbps_of(c->size, t1 - t0);
	/* The sum is the user's; a cleared buffer sums to zero. */
	if (sum && res)
		res->read_nonzero++;
}

/* First touch of each page of a fresh hugetlb mapping, at its fault subpage. */
static void host_fault_touch(const struct ctx *c, char *p)
{
	unsigned long k;

	for (k = 0; k < c->nr_huge; k++)
		((volatile char *)p)[k * c->page + c->fault[k] * SZ_4K] = 1;
}

/*
 * The first touches as the clear, then the user's passes, as run_clear();
 * each on a fresh mapping, whose mmap() is not timed.
 */
static int run_host_fault(const struct ctx *c, double v[NR_METRICS],
			  char *why, size_t whylen)
{
	volatile uint64_t sink;
	uint64_t t0, t1, t2;
	char *p;

	p = hugetlb_map_fresh(c->size, c->page, why, whylen);
	if (!p)
		return -1;
	t0 = now_ns();
	host_fault_touch(c, p);
	t1 = now_ns();
	user_write(p, c->size);
	t2 = now_ns();
	munmap(p, c->size);
	v[M_GBPS] = gbps_of(c->size, t1 - t0);
	v[M_E2E_WRITE] = gbps_of(c->size, t2 - t0);

	p = hugetlb_map_fresh(c->size, c->page, why, whylen);
	if (!p)
		return -1;
	t0 = now_ns();
	host_fault_touch(c, p);
	sink = user_read(p, c->size);
	t1 = now_ns();
	munmap(p, c->size);
	(void)sink;
	v[M_E2E_READ] = gbps_of(c->size, t1 - t0);
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

/*
 * The rounds. @paired: the runs are interleaved with the others', so that
 * they can be compared round by round.
 */
static void measure_rounds(const struct ctx *c, const struct opts *o,
			   struct results *res, int pi, const int *sel, int ns,
			   bool paired)
{
	double v[NR_METRICS];
	char why[256];
	int r, j, s;

	/* Warm-up: every strategy once, not recorded. */
	for (j = 0; j < ns; j++) {
		if (sel[j] == S_HOST_FAULT)
			run_host_fault(c, v, why, sizeof(why));
		else
			run_clear(c, sel[j], v, NULL);
	}
	for (r = 0; r < o->rounds; r++) {
		for (j = 0; j < ns; j++) {
			s = sel[(j + r) % ns];
			if (s == S_HOST_FAULT) {
				if (run_host_fault(c, v, why, sizeof(why)))
					continue;
			} else {
				run_clear(c, s, v, res);
			}
			record(res, r + 1, s, pi, paired, v);
		}
	}
}

static bool has_paired(const struct results *res, int pi, int s)
{
	size_t i;

	for (i = 0; i < res->nr; i++)
		if (res->runs[i].page == pi && res->runs[i].strat == s &&
		    res->runs[i].paired)
			return true;
	return false;
}

/* The run of @s in round @round of page size @pi, or NULL. */
static const struct raw_run *run_in_round(const struct results *res, int pi,
					  int s, int round)
{
	size_t i;

	for (i = 0; i < res->nr; i++) {
		const struct raw_run *r = &res->runs[i];

		if (r->page == pi && r->strat == s && r->round == round &&
		    r->paired)
			return r;
	}
	return NULL;
}

/*
 * limit is, for each metric, the method with the best median of all those
 * measured in the rounds: every strategy (clzero and host-fault included)
 * and every store loop candidate. No method can beat it. Its runs are
 * copies of that method's, round by round, so they pair as the method's.
 */
static void choose_limit(struct results *res, int pi)
{
	double v[NR_METRICS], x, best_x[NR_METRICS];
	const struct raw_run *src;
	int s, m, r, n;

	for (m = 0; m < NR_METRICS; m++) {
		char *buf = res->limit_note[pi][m];
		size_t len = sizeof(res->limit_note[pi][m]);

		res->limit_of[pi][m] = -1;
		for (s = 0, n = 0; s < NR_STRATEGIES; s++) {
			if (s == S_LIMIT || !res->measured[pi][s] ||
			    !has_paired(res, pi, s))
				continue;
			x = median(res, pi, s, m);
			if (isnan(x))
				continue;
			if (n < (int)len)
				n += snprintf(buf + n, len - n, "%s%s %.2f",
					      n ? ", " : "", strategies[s].name, x);
			if (res->limit_of[pi][m] < 0 || x > best_x[m]) {
				res->limit_of[pi][m] = s;
				best_x[m] = x;
			}
		}
		if (res->limit_of[pi][m] < 0) {
			/* Nothing measured: no limit at all. */
			for (m = 0; m < NR_METRICS; m++)
				res->limit_of[pi][m] = -1;
			return;
		}
	}
	for (r = 1; r <= res->rounds; r++) {
		for (m = 0; m < NR_METRICS; m++) {
			src = run_in_round(res, pi, res->limit_of[pi][m], r);
			v[m] = src ? src->v[m] : NAN;
		}
		record(res, r, S_LIMIT, pi, true, v);
	}
}

static void measure_page(const struct opts *o, struct results *res, int pi)
{
	int sel[NR_STRATEGIES], ns, s, n = 0;
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

	/* Skipped, never faked: what this CPU cannot run. */
	for (s = 0; s < NR_NAMED; s++) {
		if (!o->want[s] || strategy_available(s))
			continue;
		n += snprintf(res->unavailable[pi] + n,
			      sizeof(res->unavailable[pi]) - n, "%s%s (no %s)",
			      n ? ", " : "", strategies[s].name,
			      strategies[s].cpu_feature);
	}
	if (n)
		note("%s pages: not available on this CPU, skipped: %s\n",
		     page_name(c.page), res->unavailable[pi]);

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
	measure_rounds(&c, o, res, pi, sel, ns, true);
	hugebuf_free(&b);

	/* Not enough pool for two buffers: host-fault on its own, after. */
	if (fault_later) {
		if (host_fault_probe(&c, why, sizeof(why))) {
			sel[0] = S_HOST_FAULT;
			measure_rounds(&c, o, res, pi, sel, 1, false);
			snprintf(res->host_fault_note[pi], sizeof(res->host_fault_note[pi]),
				 "measured after the others (pool too small for both), not paired");
		}
	}
	if (o->want[S_HOST_FAULT] && !res->measured[pi][S_HOST_FAULT]) {
		snprintf(res->host_fault_note[pi], sizeof(res->host_fault_note[pi]),
			 "not measured: %s", why[0] ? why : "no hugetlb pages");
		note("host-fault %s: not measured: %s\n", page_name(c.page),
		     why[0] ? why : "no hugetlb pages");
	}
	if (o->want[S_LIMIT])
		choose_limit(res, pi);
	hugetlb_restore(c.page);
	free((void *)c.fault);
}

size_t measure(const struct opts *o, struct results *res)
{
	int pi, m;

	res->rounds = o->rounds;
	for (pi = 0; pi < NR_PAGES; pi++)
		for (m = 0; m < NR_METRICS; m++)
			res->limit_of[pi][m] = -1;
	note("user passes: %s vector stores (write), %s loads summed (read)\n",
	     user_pass_isa(), user_pass_isa());
	if (o->rounds < 5)
		note("note: %d rounds; use at least 5 for figures to quote\n",
		     o->rounds);
	for (pi = 0; pi < NR_PAGES; pi++)
		if (o->want_page[pi])
			measure_page(o, res, pi);
	if (res->read_nonzero)
		note("warning: %lu read passes found non-zero bytes after a clear\n",
		     res->read_nonzero);
	return res->nr;
}

/* ---- medians and paired ratios ---- */

double median(const struct results *res, int pi, int s, enum metric m)
{
	double v[MAX_ROUNDS];
	size_t i;
	int n = 0;

	for (i = 0; i < res->nr; i++) {
		const struct raw_run *r = &res->runs[i];

		if (r->page == pi && r->strat == s && !isnan(r->v[m]) &&
		    n < MAX_ROUNDS)
			v[n++] = r->v[m];
	}
	return median_of(v, n);
}

/*
 * Metric @m of every method in every round of page size @pi, paired runs
 * only: tab[s * (rounds + 1) + round], NAN where there is none.
 */
static double *round_table(const struct results *res, int pi, enum metric m)
{
	size_t i, n = (size_t)NR_STRATEGIES * (res->rounds + 1);
	double *tab = malloc(n * sizeof(*tab));

	if (!tab) {
		perror("clearbench: malloc");
		exit(1);
	}
	for (i = 0; i < n; i++)
		tab[i] = NAN;
	for (i = 0; i < res->nr; i++) {
		const struct raw_run *r = &res->runs[i];

		if (r->page == pi && r->paired && r->round >= 1 &&
		    r->round <= res->rounds)
			tab[r->strat * (res->rounds + 1) + r->round] = r->v[m];
	}
	return tab;
}

bool paired_ratio(const struct results *res, int pi, int s, enum metric m,
		  int vs, struct ratio_stats *st)
{
	double *tab = round_table(res, pi, m), ratio[MAX_ROUNDS];
	int stride = res->rounds + 1, r, k, n = 0;
	double x, y, best;

	memset(st, 0, sizeof(*st));
	for (r = 1; r <= res->rounds; r++) {
		x = tab[s * stride + r];
		if (isnan(x))
			continue;
		/* The best of the round; limit is a copy of one of them. */
		best = NAN;
		for (k = 0; k < NR_STRATEGIES; k++) {
			y = tab[k * stride + r];
			if (k != S_LIMIT && !isnan(y) && (isnan(best) || y > best))
				best = y;
		}
		if (isnan(best))
			continue;
		y = vs == VS_BEST ? best : tab[vs * stride + r];
		if (isnan(y) || y <= 0)
			continue;
		if (x >= best)
			st->won++;
		ratio[n++] = x / y;
	}
	free(tab);
	return ratio_summary(ratio, n, st);
}
