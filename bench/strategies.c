// SPDX-License-Identifier: GPL-2.0
/*
 * The strategies clearbench measures: the kernel's clear orders, Linux
 * 6.12's folio_zero_user() copied by hand, the multi-page clearing
 * series' split the tree's own folio_zero_user_ranges() (split.h), driving
 * the tree's own clear_pages_*().
 * Which runs "default" clears around the caches, and how, is the policy
 * of policy.c: the tree's own <asm/clear_pages_policy.h> where it has one.
 * The table at the bottom names them and says in one line what each does;
 * -S help prints it.
 *
 * Each strategy clears a huge page backed buffer, seen as a sequence of
 * 2 MiB or 1 GiB pages, each with its own fault subpage drawn from a
 * fixed-seed PRNG.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clear_pages.h"
#include "common.h"
#include "loops.h"
#include "policy.h"
#include "probe.h"
#include "strategies.h"

/* The kernel's PROCESS_PAGES_NON_PREEMPT_BATCH with clear_pages(): 32 MiB. */
#define CHUNK			SZ_32M
#define SEED			0xc1ea4b16e5eedUL

#ifdef HAVE_CLEAR_PAGES_NT
#define nt_clear	clear_pages_nt
const char nt_source[] = "clear_pages_nt() from the tree";
#else
#define nt_clear	movnti_clear
const char nt_source[] =
	"clearbench's own MOVNTI loop (the tree has no clear_pages_nt)";
#endif

#ifdef HAVE_CLEAR_PAGES_CLZERO
#define clzero_fn	clear_pages_clzero
const char clzero_source[] = "clear_pages_clzero() from the tree";
#else
#define clzero_fn	clzero_clear
const char clzero_source[] =
	"clearbench's own CLZERO loop (the tree has no clear_pages_clzero)";
#endif

#ifdef HAVE_CLEAR_PAGES
const char clear_pages_source[] = "clear_pages_*() from the tree";
#else
const char clear_pages_source[] =
	"the tree has no clear_pages_*() (a baseline tree): its clear_page_*() a 4K page a call";

/* A tree before the series: its one-page routines, a page at a time. */
#define CLEAR_PAGES_LOOP(name, page_fn)				\
void name(void *addr, unsigned long len)			\
{								\
	unsigned long off;					\
								\
	for (off = 0; off < len; off += SZ_4K)			\
		page_fn((char *)addr + off);			\
}

CLEAR_PAGES_LOOP(clear_pages_orig, clear_page_orig)
CLEAR_PAGES_LOOP(clear_pages_rep, clear_page_rep)
CLEAR_PAGES_LOOP(clear_pages_erms, clear_page_erms)
#endif

/* ---- the context ---- */

static uint64_t xorshift64(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static unsigned long *fault_indices(unsigned long nr_huge, unsigned long nr_sub)
{
	unsigned long *f = calloc(nr_huge, sizeof(*f));
	uint64_t s = SEED;
	unsigned long k;

	if (!f) {
		perror("clearbench: calloc");
		exit(1);
	}
	for (k = 0; k < nr_huge; k++)
		f[k] = xorshift64(&s) % nr_sub;
	return f;
}

bool ctx_setup(struct ctx *c, const struct opts *o, int pi)
{
	size_t page = page_sizes[pi];
	size_t size = o->size / page * page;

	if (!size) {
		note("%s pages: skipped, the buffer (-s %zu MiB) is smaller than one page\n",
		     page_name(page), o->size >> 20);
		return false;
	}
	if (size != o->size)
		note("%s pages: using %zu MiB of the %zu MiB buffer (whole pages)\n",
		     page_name(page), size >> 20, o->size >> 20);
	memset(c, 0, sizeof(*c));
	c->size = size;
	c->page = page;
	c->nr_huge = size / page;
	c->nr_sub = page / SZ_4K;
	c->fault = fault_indices(c->nr_huge, c->nr_sub);
	c->nt_thresh = o->nt_thresh;
	c->large = nocache_method(host_policy(o->cpu)->clzero, NULL);
	c->all = host_policy(o->cpu)->all;
	c->unit = o->copy_unit ? o->copy_unit : CHUNK;
	return true;
}

/* ---- the strategies ---- */

/*
 * As the kernel's clear_pages_nocache(): CLZERO if @clzero (which the
 * policy says only where the CPU has it), else MOVNTI.
 */
clear_fn nocache_method(bool clzero, const char **name)
{
	if (name)
		*name = clzero ? clzero_source : nt_source;
	return clzero ? clzero_fn : nt_clear;
}

static char *huge_page(const struct ctx *c, unsigned long k)
{
	return c->buf + k * c->page;
}

static void clear_subpage(void *arg, unsigned long idx)
{
	clear_pages_erms((char *)arg + idx * SZ_4K, SZ_4K);
}

static void clear_mainline(const struct ctx *c)
{
	unsigned long k;

	for (k = 0; k < c->nr_huge; k++)
		mainline_order(c->nr_sub, c->fault[k], clear_subpage,
			       huge_page(c, k));
}

static void clear_extent(clear_fn fn, char *page, struct folio_zero_range r)
{
	fn(page + r.start * SZ_4K, (r.end - r.start) * SZ_4K);
}

static void clear_multi(const struct ctx *c)
{
	struct folio_zero_range r[3];
	unsigned long k;
	unsigned int i, n;

	for (k = 0; k < c->nr_huge; k++) {
		n = huge_regions(c->nr_sub, c->fault[k], r);
		for (i = 0; i < n; i++)
			clear_extent(clear_pages_erms, huge_page(c, k), r[i]);
	}
}

/* @len bytes at @addr in calls of @fn of at most @unit bytes. */
static void clear_in_units(clear_fn fn, char *addr, size_t len, size_t unit)
{
	size_t off, n;

	for (off = 0; off < len; off += n) {
		n = len - off < unit ? len - off : unit;
		fn(addr + off, n);
	}
}

static void clear_chunked(const struct ctx *c)
{
	struct folio_zero_range r[3];
	unsigned long k;
	unsigned int i, n;
	char *page;

	for (k = 0; k < c->nr_huge; k++) {
		page = huge_page(c, k);
		n = huge_regions(c->nr_sub, c->fault[k], r);
		for (i = 0; i < n; i++)
			clear_in_units(clear_pages_erms,
				       page + r[i].start * SZ_4K,
				       (r[i].end - r[i].start) * SZ_4K, CHUNK);
	}
}

/* The kernel's rule: bypass the caches for runs over the threshold. */
static clear_fn nt_or_erms(const struct ctx *c, size_t len)
{
	return len > c->nt_thresh ? c->large : clear_pages_erms;
}

/*
 * The kernel's clear_pages_want_nocache_all(): where the policy says so,
 * a page over the threshold is cleared whole around the caches, fault +-2
 * included, from its first byte.
 */
static bool whole_page(const struct ctx *c)
{
	return c->all && c->page > c->nt_thresh;
}

static void clear_nt(const struct ctx *c)
{
	struct folio_zero_range r[3];
	unsigned long k;
	unsigned int i, n;

	for (k = 0; k < c->nr_huge; k++) {
		if (whole_page(c)) {
			c->large(huge_page(c, k), c->page);
			continue;
		}
		n = huge_regions(c->nr_sub, c->fault[k], r);
		/* All but the last (the neighbourhood) may go around the cache. */
		for (i = 0; i + 1 < n; i++)
			clear_extent(nt_or_erms(c, (r[i].end - r[i].start) * SZ_4K),
				     huge_page(c, k), r[i]);
		clear_extent(clear_pages_erms, huge_page(c, k), r[n - 1]);
	}
}

/*
 * The kernel's "units" strategy (the debugfs knob; folio_zero_user_range()
 * where irq exit cannot preempt the clear): as default, each run in calls
 * of c->unit bytes (PROCESS_PAGES_NON_PREEMPT_BATCH, 32 MiB, unless -u),
 * the long ones with the policy's instruction.
 */
static void clear_units(const struct ctx *c)
{
	struct folio_zero_range r[3];
	unsigned long k;
	unsigned int i, n;
	size_t len;
	char *page;

	for (k = 0; k < c->nr_huge; k++) {
		page = huge_page(c, k);
		if (whole_page(c)) {
			clear_in_units(c->large, page, c->page, c->unit);
			continue;
		}
		n = huge_regions(c->nr_sub, c->fault[k], r);
		for (i = 0; i < n; i++) {
			len = (r[i].end - r[i].start) * SZ_4K;
			clear_in_units(i + 1 < n ? nt_or_erms(c, len) :
				       clear_pages_erms,
				       page + r[i].start * SZ_4K, len, c->unit);
		}
	}
}

/* The kernel's "nt" strategy: every region but the neighbourhood bypasses. */
static void clear_nt_all(const struct ctx *c)
{
	struct ctx all = *c;

	all.nt_thresh = 0;
	all.large = nt_clear;
	all.all = false;
	clear_nt(&all);
}


/* ---- the table ---- */

const struct strategy strategies[NR_STRATEGIES] = {
	[S_MAINLINE]	= { "mainline", clear_mainline, NULL, NULL,
		"6.12 process_huge_page() order, clear_pages_erms() per 4K subpage" },
	[S_MULTI]	= { "multi", clear_multi, NULL, NULL,
		"the series, 2M and 1G: right of fault +-2, left, fault +-2 last; clear_pages_erms() each" },
	[S_CHUNKED]	= { "chunked", clear_chunked, NULL, NULL,
		"as multi, each extent cut into 32 MiB clear_pages_erms() calls" },
	[S_NT]		= { "nt", clear_nt_all, NULL, NULL,
		"forced nt: as multi, all but fault +-2 with clear_pages_nt()" },
	[S_DEFAULT]	= { "default", clear_nt, NULL, NULL,
		"as multi, all but fault +-2 over the policy's threshold (-t) around the caches; where the policy says so, pages over it whole" },
	[S_LIMIT]	= { "limit", NULL, NULL, NULL,
		"the fastest (best median) of all measured: strategies and the loops below" },
	[S_REP]		= { "rep", NULL, clear_pages_rep, NULL,
		"clear_pages_rep() (REP STOSQ), one call per huge page" },
	[S_ORIG]	= { "orig", NULL, clear_pages_orig, NULL,
		"clear_pages_orig() (unrolled MOVQ loop), one call per huge page" },
	[S_CLZERO]	= { "clzero", NULL, clzero_fn, "clzero",
		"CLZERO, a line an instruction, then SFENCE; one call per huge page (AMD)" },
	[S_MOVDIR64B]	= { "movdir64b", NULL, movdir64b_clear, "movdir64b",
		"clearbench's own: MOVDIR64B of a zero line to each line, then SFENCE; one call per huge page (a reference)" },
	[S_HOST_FAULT]	= { "host-fault", NULL, NULL, NULL,
		"the host kernel: first touch of fresh MAP_HUGETLB pages" },
	[S_UNITS]	= { "units", clear_units, NULL, NULL,
		"as default, each run cut into 32 MiB calls (-u): where irq exit cannot preempt; only if named (and in -V)" },
	[S_AVX512_NT]	= { "avx512-nt", NULL, avx512_nt_clear, "avx512f",
		"AVX-512 non-temporal stores, then SFENCE" },
	[S_AVX2_NT]	= { "avx2-nt", NULL, avx2_nt_clear, "avx2",
		"AVX2 non-temporal stores, then SFENCE" },
	[S_MOVNTI]	= { "movnti", NULL, movnti_clear, "sse2",
		"MOVNTI non-temporal 8-byte stores, then SFENCE" },
	[S_AVX512]	= { "avx512-store", NULL, avx512_clear, "avx512f",
		"AVX-512 plain (cached) stores" },
	[S_AVX2]	= { "avx2-store", NULL, avx2_clear, "avx2",
		"AVX2 plain (cached) stores" },
};

void strategy_clear(int s, const struct ctx *c)
{
	const struct strategy *st = &strategies[s];
	unsigned long k;

	if (st->clear) {
		st->clear(c);
		return;
	}
	for (k = 0; k < c->nr_huge; k++)
		st->extent(huge_page(c, k), c->page);
}

bool strategy_available(int s)
{
	return cpu_has(strategies[s].cpu_feature);
}

int strategy_index(const char *name)
{
	unsigned int i;

	for (i = 0; i < NR_NAMED; i++)
		if (!strcmp(strategies[i].name, name))
			return i;
	return -1;
}

void strategies_help(FILE *f, const char *indent)
{
	int s;

	for (s = 0; s < NR_STRATEGIES; s++) {
		if (s == NR_NAMED)
			fprintf(f, "%slimit's own candidates (not for -S):\n",
				indent);
		fprintf(f, "%s%-12s %s%s\n", indent, strategies[s].name,
			strategies[s].desc,
			strategy_available(s) ? "" : " [not on this CPU]");
	}
}

int select_strategies(const bool want[NR_STRATEGIES], bool with_fault, int *sel)
{
	int s, ns = 0;

	for (s = 0; s < NR_NAMED; s++) {
		if (!want[s] || s == S_LIMIT || (s == S_HOST_FAULT && !with_fault) ||
		    !strategy_available(s))
			continue;
		sel[ns++] = s;
	}
	for (s = NR_NAMED; s < NR_STRATEGIES && want[S_LIMIT]; s++)
		if (strategy_available(s))
			sel[ns++] = s;
	return ns;
}
