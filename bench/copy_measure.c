// SPDX-License-Identifier: GPL-2.0
/*
 * Measurement of the copy strategies. For each page size, the source and
 * the destination are THP backed buffers of the same size (as hugetlb
 * copy-on-write copies one huge page into another), the source filled
 * once. The selected strategies run in rounds: one warm-up round, not
 * recorded, then -r rounds, each in an order rotated by one from the round
 * before. A run is one timed copy of the whole buffer; gbps is the bytes
 * copied (each read once and written once) over its time.
 *
 * limit is no run of its own: in each round, the figure of the fastest
 * copy of that round, and the report says which each round's was. Since
 * the host's bandwidth swings between runs, methods are compared within a
 * round (copy_ratio()), not by their medians alone.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "common.h"
#include "copy.h"
#include "copy_measure.h"
#include "hugemem.h"

static void record(struct copy_results *res, int round, int strat, int page,
		   double gbps)
{
	struct copy_run *r;

	res->runs = grow_array(res->runs, &res->cap, res->nr, sizeof(*res->runs));
	r = &res->runs[res->nr++];
	r->round = round;
	r->strat = strat;
	r->page = page;
	r->gbps = gbps;
	res->measured[page][strat] = true;
}

/*
 * host-cow: the host kernel's own copy-on-write of hugetlb pages, the real
 * 4 KiB-a-call baseline where the host runs a kernel without the series.
 * A private mapping is faulted in, then a child writes a byte at each
 * page's fault subpage, so that the kernel copies every page for it; the
 * child times its writes (fork, the first faults and exit are not timed).
 * GB/s, or NAN if the child could not copy (a pool too small: SIGBUS).
 */
static double timed_host_cow(const struct copy_ctx *cc)
{
	const struct ctx *c = &cc->c;
	uint64_t ns = 0, t0;
	int fd[2], status;
	unsigned long k;
	char why[160];
	pid_t pid;
	char *p;

	p = hugetlb_map_fresh(c->size, c->page, why, sizeof(why));
	if (!p)
		return NAN;
	for (k = 0; k < c->nr_huge; k++)
		p[k * c->page] = 1;
	if (pipe(fd)) {
		munmap(p, c->size);
		return NAN;
	}
	pid = fork();
	if (!pid) {
		close(fd[0]);
		t0 = now_ns();
		for (k = 0; k < c->nr_huge; k++)
			((volatile char *)p)[k * c->page + c->fault[k] * SZ_4K] = 2;
		ns = now_ns() - t0;
		_exit(write(fd[1], &ns, sizeof(ns)) == sizeof(ns) ? 0 : 1);
	}
	close(fd[1]);
	if (pid < 0 || read(fd[0], &ns, sizeof(ns)) != sizeof(ns))
		ns = 0;
	close(fd[0]);
	if (pid > 0 && (waitpid(pid, &status, 0) != pid ||
			!WIFEXITED(status) || WEXITSTATUS(status)))
		ns = 0;
	munmap(p, c->size);
	return ns ? (double)c->size / (double)ns : NAN;
}

/*
 * Can host-cow run? Its mapping and the child's copies need twice the
 * buffer in hugetlb pages of this size: grow the pool once for both.
 */
static bool host_cow_probe(const struct copy_ctx *cc, char *why,
			   size_t whylen)
{
	void *p = hugetlb_map_fresh(2 * cc->c.size, cc->c.page, why, whylen);

	if (!p)
		return false;
	munmap(p, 2 * cc->c.size);
	return true;
}

static double timed_copy(const struct copy_ctx *cc, int s)
{
	uint64_t t0, t1;

	if (s == C_HOST_COW)
		return timed_host_cow(cc);

	t0 = now_ns();
	copy_run(s, cc);
	t1 = now_ns();
	return t1 > t0 ? (double)cc->c.size / (double)(t1 - t0) : NAN;
}

/* The figure of @s in round @round of page size @pi, or NAN. */
static double in_round(const struct copy_results *res, int pi, int s,
		       int round)
{
	size_t i;

	for (i = 0; i < res->nr; i++) {
		const struct copy_run *r = &res->runs[i];

		if (r->page == pi && r->strat == s && r->round == round)
			return r->gbps;
	}
	return NAN;
}

/* The fastest copy of each round, as limit's figure for that round. */
static void choose_limit(struct copy_results *res, int pi)
{
	double x, best;
	int r, s, who;

	for (r = 1; r <= res->rounds; r++) {
		best = NAN;
		who = -1;
		for (s = 0; s < NR_COPY; s++) {
			x = s == C_LIMIT || s == C_HOST_COW ? NAN :
				in_round(res, pi, s, r);
			if (!isnan(x) && (isnan(best) || x > best)) {
				best = x;
				who = s;
			}
		}
		if (who < 0)
			continue;
		record(res, r, C_LIMIT, pi, best);
		res->limit_won[pi][who]++;
	}
}

static void copy_page_size(const struct opts *o, struct copy_results *res,
			   int pi)
{
	struct hugebuf src, dst;
	int sel[NR_COPY], ns, r, j, s, n = 0;
	struct copy_ctx cc;
	const char *why;

	if (!copy_ctx_setup(&cc, o, pi))
		return;
	if (hugebuf_alloc(&src, cc.c.size, cc.c.page, BACKING_THP))
		goto out;
	if (hugebuf_alloc(&dst, cc.c.size, cc.c.page, BACKING_THP)) {
		hugebuf_free(&src);
		goto out;
	}
	/*
	 * host-cow forks: keep the buffers out of the child, or every fork
	 * would write-protect them and the next copy would take a fault per
	 * huge page inside its timed run.
	 */
	madvise(src.map, src.maplen, MADV_DONTFORK);
	madvise(dst.map, dst.maplen, MADV_DONTFORK);
	/* Something other than the touch's ones in every word. */
	memset(src.addr, 0x5a, cc.c.size);
	cc.src = src.addr;
	cc.c.buf = dst.addr;
	snprintf(res->backing[pi], sizeof(res->backing[pi]),
		 "source and destination each %s", src.desc);

	/* Skipped, never faked: what this CPU or this tree cannot run. */
	for (s = 0; s < NR_COPY; s++) {
		if (!o->want_copy[s] || copy_available(s, &why))
			continue;
		n += snprintf(res->unavailable[pi] + n,
			      sizeof(res->unavailable[pi]) - n, "%s%s (%s)",
			      n ? ", " : "", copy_strategies[s].name, why);
	}
	if (n)
		note("%s pages: copy: not available here, skipped: %s\n",
		     page_name(cc.c.page), res->unavailable[pi]);

	ns = select_copies(o->want_copy, sel);
	for (j = 0; j < ns; j++) {
		char hwhy[160];

		if (sel[j] != C_HOST_COW || host_cow_probe(&cc, hwhy, sizeof(hwhy)))
			continue;
		n += snprintf(res->unavailable[pi] + n,
			      sizeof(res->unavailable[pi]) - n, "%shost-cow (%s)",
			      n ? ", " : "", hwhy);
		note("%s pages: copy: host-cow not measured: %s\n",
		     page_name(cc.c.page), hwhy);
		memmove(&sel[j], &sel[j + 1], (--ns - j) * sizeof(sel[0]));
		break;
	}
	note("%s pages: copy: %zu MiB to %zu MiB, %d runs a round x %d rounds...\n",
	     page_name(cc.c.page), cc.c.size >> 20, cc.c.size >> 20, ns,
	     o->rounds);
	for (j = 0; j < ns; j++)
		timed_copy(&cc, sel[j]);
	for (r = 0; r < o->rounds; r++) {
		for (j = 0; j < ns; j++) {
			s = sel[(j + r) % ns];
			record(res, r + 1, s, pi, timed_copy(&cc, s));
		}
	}
	if (o->want_copy[C_LIMIT])
		choose_limit(res, pi);
	hugetlb_restore(cc.c.page);
	hugebuf_free(&dst);
	hugebuf_free(&src);
out:
	free((void *)cc.c.fault);
}

size_t copy_measure(const struct opts *o, struct copy_results *res)
{
	int pi;

	res->rounds = o->rounds;
	if (o->rounds < 5)
		note("note: %d rounds; use at least 5 for figures to quote\n",
		     o->rounds);
	for (pi = 0; pi < NR_PAGES; pi++)
		if (o->want_page[pi])
			copy_page_size(o, res, pi);
	return res->nr;
}

bool copy_stats(const struct copy_results *res, int pi, int s, double *med,
		double *min, double *max)
{
	double v[MAX_ROUNDS];
	size_t i;
	int n = 0;

	*med = *min = *max = NAN;
	for (i = 0; i < res->nr; i++) {
		const struct copy_run *r = &res->runs[i];

		if (r->page != pi || r->strat != s || isnan(r->gbps) ||
		    n == MAX_ROUNDS)
			continue;
		if (!n || r->gbps < *min)
			*min = r->gbps;
		if (!n || r->gbps > *max)
			*max = r->gbps;
		v[n++] = r->gbps;
	}
	*med = median_of(v, n);
	return n > 0;
}

bool copy_ratio(const struct copy_results *res, int pi, int s, int vs,
		struct ratio_stats *st)
{
	double ratio[MAX_ROUNDS], x, y, best;
	int r, k, n = 0;

	memset(st, 0, sizeof(*st));
	for (r = 1; r <= res->rounds; r++) {
		x = in_round(res, pi, s, r);
		y = in_round(res, pi, vs, r);
		if (isnan(x) || isnan(y) || y <= 0)
			continue;
		best = NAN;
		for (k = 0; k < NR_COPY; k++) {
			double z = k == C_LIMIT || k == C_HOST_COW ? NAN :
				   in_round(res, pi, k, r);

			if (!isnan(z) && (isnan(best) || z > best))
				best = z;
		}
		if (x >= best)
			st->won++;
		ratio[n++] = x / y;
	}
	return ratio_summary(ratio, n, st);
}
