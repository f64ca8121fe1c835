// SPDX-License-Identifier: GPL-2.0
/*
 * clearbench -W: how clearing ahead of use scales with the writers.
 *
 * The hugetlb pool clears free pages on request (zero_free_hugepages) in
 * the writing task, around the caches, one huge page a call; more writers
 * at once each take their own pages. This measures that split on the host
 * with the tree's own cache-bypassing loop, the one the policy picks
 * (clear_pages_clzero() or clear_pages_nt()): the buffer's 2 MiB pages
 * cleared by one thread, then by two threads on CPUs c and c+1, each half
 * of them, in the same round. The figure is the per-round ratio of the
 * rates, two writers over one; the raw rates go to -R (round,writers,gbps).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "hugemem.h"
#include "policy.h"
#include "strategies.h"
#include "writers.h"

struct writer {
	pthread_t thread;
	int cpu;
	char *addr;
	size_t len;
	clear_fn fn;
};

/* One writer: its pages, a 2 MiB call each, as the pool clears a folio. */
static void *write_pages(void *arg)
{
	struct writer *w = arg;
	cpu_set_t set;
	size_t off;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	for (off = 0; off < w->len; off += SZ_2M)
		w->fn(w->addr + off, SZ_2M);
	return NULL;
}

/* The buffer cleared by n writers at once (1 or 2); seconds, <0 on error. */
static double clear_with(struct hugebuf *b, int n, int cpu, clear_fn fn)
{
	struct writer w[2];
	size_t share = b->size / n / SZ_2M * SZ_2M;
	uint64_t t0 = now_ns();
	int i;

	for (i = 0; i < n; i++) {
		w[i] = (struct writer){ .cpu = cpu + i, .fn = fn,
					.addr = b->addr + i * share,
					.len = i == n - 1 ? b->size - i * share : share };
		if (pthread_create(&w[i].thread, NULL, write_pages, &w[i]))
			return -1;
	}
	for (i = 0; i < n; i++)
		pthread_join(w[i].thread, NULL);
	return (now_ns() - t0) / 1e9;
}

int writers_run(const struct opts *o)
{
	const struct host_policy *p = host_policy(o->cpu);
	double one[MAX_ROUNDS], two[MAX_ROUNDS], ratio[MAX_ROUNDS];
	const char *src;
	clear_fn fn = nocache_method(p->clzero, &src);
	struct hugebuf b;
	FILE *raw = NULL;
	int r, won = 0;
	double lo, hi;

	if (hugebuf_alloc(&b, o->size, SZ_2M, o->backing))
		return 1;
	if (o->raw) {
		raw = fopen(o->raw, "w");
		if (!raw) {
			fprintf(stderr, "clearbench: %s: %s\n", o->raw, strerror(errno));
			hugebuf_free(&b);
			return 1;
		}
		fprintf(raw, "round,writers,gbps\n");
	}
	printf("writers: %zu MiB of 2M pages (%s), %s a page a call, CPUs %d and %d, %d rounds after a warm-up\n",
	       o->size >> 20, b.desc, src, o->cpu, o->cpu + 1, o->rounds);
	clear_with(&b, 2, o->cpu, fn);
	for (r = 0; r < o->rounds; r++) {
		one[r] = clear_with(&b, 1, o->cpu, fn);
		two[r] = clear_with(&b, 2, o->cpu, fn);
		if (one[r] <= 0 || two[r] <= 0) {
			fprintf(stderr, "clearbench: writers: round %d failed\n", r);
			if (raw)
				fclose(raw);
			hugebuf_free(&b);
			return 1;
		}
		ratio[r] = one[r] / two[r];
		won += ratio[r] > 1;
		if (raw)
			fprintf(raw, "%d,1,%.3f\n%d,2,%.3f\n", r,
				o->size / one[r] / 1e9, r, o->size / two[r] / 1e9);
	}
	if (raw)
		fclose(raw);
	hugebuf_free(&b);
	for (r = 0; r < o->rounds; r++) {
		one[r] = o->size / one[r] / 1e9;
		two[r] = o->size / two[r] / 1e9;
	}
	printf("%-10s %8s\n", "writers", "GB/s");
	printf("%-10s %8.2f\n", "one", median_of(one, o->rounds));
	printf("%-10s %8.2f\n", "two", median_of(two, o->rounds));
	lo = hi = ratio[0];
	for (r = 1; r < o->rounds; r++) {
		lo = ratio[r] < lo ? ratio[r] : lo;
		hi = ratio[r] > hi ? ratio[r] : hi;
	}
	printf("two writers vs one: %.2fx [%.2f-%.2f], faster in %d of %d rounds\n",
	       median_of(ratio, o->rounds), lo, hi, won, o->rounds);
	return 0;
}
