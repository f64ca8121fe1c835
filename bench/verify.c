// SPDX-License-Identifier: GPL-2.0
/*
 * -V: does 6.12's order cover every subpage exactly once and end at the
 * fault, does the series' split (the tree's own folio_zero_user_ranges(),
 * or our copy for a tree without it) have the properties the series
 * gives it for every fault of every size tried, does the tree's policy
 * header (if it has one) decide as the kernel's KUnit cases say on faked
 * CPUs, and does every strategy leave the buffer all zero? One clear per
 * strategy and page size on a buffer filled with 0xa5, TAP on stdout
 * (notes as "# " comments; the driver prints the plan). A strategy the
 * CPU cannot run (clzero without CLZERO) is a SKIP. The MOVDIR64B clear
 * loop also over odd lengths and across page boundaries. Then the user's
 * passes: does the write pass store every byte, and does the read pass
 * sum every word? The copy strategies' checks are copy_verify.c's.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "common.h"
#include "hugemem.h"
#include "loops.h"
#include "policy.h"
#include "probe.h"
#include "strategies.h"
#include "verify.h"

/* Offset of the first non-zero byte, or -1. */
static long first_nonzero(const char *p, size_t len)
{
	const uint64_t *q = (const uint64_t *)p;
	size_t i, n = len / 8;

	for (i = 0; i < n; i++) {
		if (q[i]) {
			size_t b = i * 8;

			while (!p[b])
				b++;
			return b;
		}
	}
	return -1;
}

static void verify_zero(const char *p, size_t len, const char *what,
			const char *page)
{
	long off = first_nonzero(p, len);

	if (off < 0)
		tap(true, "%s %s", what, page);
	else
		tap(false, "%s %s # byte %ld of %zu is 0x%02x", what, page,
		    off, len, (unsigned char)p[off]);
}

struct order_count {
	unsigned int cnt[512];
	unsigned long last;
};

static void count_subpage(void *arg, unsigned long idx)
{
	struct order_count *oc = arg;

	oc->cnt[idx]++;
	oc->last = idx;
}

/* 6.12's order covers every subpage exactly once and ends at the fault. */
static void verify_mainline_order(void)
{
	static const unsigned long nrs[] = { 512, 7, 8, 1, 2, 3, 16 };
	struct order_count oc;
	unsigned long nr, f, s;
	unsigned int i;
	bool ok = true;

	for (i = 0; i < ARRAY_SIZE(nrs); i++) {
		nr = nrs[i];
		for (f = 0; f < nr; f++) {
			memset(&oc, 0, sizeof(oc));
			mainline_order(nr, f, count_subpage, &oc);
			for (s = 0; s < nr; s++)
				ok &= oc.cnt[s] == 1;
			ok &= oc.last == f;
		}
	}
	tap(ok, "mainline-order covers each subpage once, fault last");
}

#define NR_1G	(SZ_1G / SZ_4K)

/*
 * What the series says of the split of @nr pages faulted at @f into the
 * @n runs at @r; NULL if all holds, else what does not. Every page is in
 * exactly one non-empty run; the last run is the neighbourhood, the
 * fault (clamped to the last page) and NEIGHBOURHOOD pages on either side
 * clamped to the folio, so at most 2 * NEIGHBOURHOOD + 1 pages; before it
 * at most the run right of it, then at most the run left of it.
 */
static const char *split_fault(unsigned long nr, unsigned long f,
			       const struct folio_zero_range *r, unsigned int n)
{
	unsigned long fc, nb_start, nb_end, total = 0;
	unsigned int i, j;

	if (!nr)
		return n ? "runs for an empty folio" : NULL;
	if (n < 1 || n > 3)
		return "not 1 to 3 runs";
	for (i = 0; i < n; i++) {
		if (r[i].start >= r[i].end || r[i].end > nr)
			return "an empty run, or one past the folio";
		total += r[i].end - r[i].start;
		for (j = 0; j < i; j++)
			if (r[i].start < r[j].end && r[j].start < r[i].end)
				return "runs overlap";
	}
	if (total != nr)
		return "not every page in a run";
	fc = f < nr ? f : nr - 1;
	nb_start = fc - (fc < NEIGHBOURHOOD ? fc : NEIGHBOURHOOD);
	nb_end = nr - fc > NEIGHBOURHOOD ? fc + NEIGHBOURHOOD + 1 : nr;
	if (r[n - 1].start > fc || fc >= r[n - 1].end)
		return "the fault not in the last run";
	if (r[n - 1].end - r[n - 1].start > 2 * NEIGHBOURHOOD + 1)
		return "the last run longer than the neighbourhood";
	if (r[n - 1].start != nb_start || r[n - 1].end != nb_end)
		return "the last run not the whole neighbourhood";
	for (i = 0; i + 1 < n; i++) {
		if (r[i].start == nb_end && r[i].end == nr) {
			if (i != 0)
				return "the run right of the neighbourhood not first";
		} else if (r[i].start != 0 || r[i].end != nb_start) {
			return "a run neither right nor left of the neighbourhood";
		}
	}
	return NULL;
}

/*
 * The split, for every fault of folios of 0 to 16 pages, around 2 MiB and
 * 1 GiB, and faults past the end.
 */
static void verify_split(void)
{
	static const unsigned long nrs[] = {
		0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
		511, 512, 513, 1024, NR_1G - 1, NR_1G, NR_1G + 1,
	};
	/* Past the end: just, a little, far, and the largest index. */
	static const unsigned long past[] = { 0, 1, 2, 3, 4096 };
	unsigned long nr, f, cases = 0, failed = 0;
	struct folio_zero_range r[3];
	const char *why;
	unsigned int i, j, n;

	for (i = 0; i < ARRAY_SIZE(nrs); i++) {
		nr = nrs[i];
		for (f = 0; f <= nr + ARRAY_SIZE(past); f++) {
			unsigned long fault = f < nr ? f :
				f - nr < ARRAY_SIZE(past) ? nr + past[f - nr] : ~0UL;

			memset(r, 0xff, sizeof(r));
			n = huge_regions(nr, fault, r);
			why = split_fault(nr, fault, r, n);
			cases++;
			if (!why)
				continue;
			if (failed++ < 5) {
				printf("# split of %lu pages at fault %lu: %s:",
				       nr, fault, why);
				for (j = 0; j < n && j < 3; j++)
					printf(" [%lu, %lu)", r[j].start, r[j].end);
				printf("\n");
			}
		}
	}
	tap(!failed, "split, %s: every page once; right, left, neighbourhood (fault +-%lu) last; %lu folio sizes up to 1G + 1, every fault (%lu cases)",
	    split_source, NEIGHBOURHOOD, (unsigned long)ARRAY_SIZE(nrs), cases);
}

/* What the policy must decide on a faked CPU, as the kernel's KUnit cases. */
struct policy_case {
	const char *name;
	int intel, amd, clzero;
	unsigned int line_size;		/* 0: the case needs no line size */
	unsigned long threshold;	/* POLICY_NEVER: never */
	bool by_clzero;			/* else MOVNTI */
};

/*
 * The cases with a line size other than 64 need a header that has
 * struct clear_pages_cpu's line_size; without one they are SKIPs.
 */
static const struct policy_case policy_cases[] = {
	{ "Intel", 1, 0, 0, 64, (256UL << 10) - 1, false },
	{ "AMD with CLZERO", 0, 1, 1, 64, (256UL << 10) - 1, true },
	{ "AMD with CLZERO, 32-byte lines", 0, 1, 1, 32, POLICY_NEVER, false },
	{ "AMD with CLZERO, 128-byte lines", 0, 1, 1, 128, POLICY_NEVER, false },
	{ "AMD without CLZERO", 0, 1, 0, 64, POLICY_NEVER, false },
	{ "other vendor", 0, 0, 0, 64, POLICY_NEVER, false },
};

#ifdef HAVE_CLEAR_PAGES_POLICY
static void fmt_policy(char *buf, size_t len, unsigned long threshold,
		       bool clzero)
{
	if (threshold == POLICY_NEVER)
		snprintf(buf, len, "never (%s)", clzero ? "CLZERO" : "MOVNTI");
	else
		snprintf(buf, len, "over %lu with %s", threshold,
			 clzero ? "CLZERO" : "MOVNTI");
}

/* The tree's policy header on a faked CPU. */
static void verify_policy_case(const struct policy_case *pc)
{
	struct clear_pages_cpu cpu = {
		.intel = pc->intel,
		.amd = pc->amd,
		.clzero = pc->clzero,
#ifdef HAVE_POLICY_LINE_SIZE
		.line_size = pc->line_size,
#endif
	};
	unsigned long t;
	bool clz;
	char got[64], want[64];

#ifndef HAVE_POLICY_LINE_SIZE
	if (pc->line_size != 64) {
		tap(true, "policy: %s # SKIP the tree's struct clear_pages_cpu has no line_size",
		    pc->name);
		return;
	}
#endif
	t = clear_pages_nocache_threshold(&cpu);
	clz = clear_pages_nocache_insn(&cpu) == CLEAR_PAGES_CLZERO;
	fmt_policy(got, sizeof(got), t, clz);
	fmt_policy(want, sizeof(want), pc->threshold, pc->by_clzero);
	if (t == pc->threshold && clz == pc->by_clzero)
		tap(true, "policy: %s: %s", pc->name, got);
	else
		tap(false, "policy: %s: %s # want %s", pc->name, got, want);
}
#else
static void verify_policy_case(const struct policy_case *pc)
{
	tap(true, "policy: %s # SKIP the tree has no asm/clear_pages_policy.h, default uses clearbench's own copy",
	    pc->name);
}
#endif

/*
 * The policy default runs with on this host: on an AMD CPU with CLZERO
 * and 64-byte lines, every run over 256 KiB - 1 with CLZERO. This is the
 * case a field of struct clear_pages_cpu that clearbench leaves unfilled
 * would silently turn off.
 */
static void verify_host_policy(void)
{
	const struct host_policy *pol = host_policy(0);
#ifdef HAVE_CLEAR_PAGES_POLICY
	const struct cpu_info *ci = cpu_info();

	if (cpu_is_amd() && ci->clzero && ci->clflush_size == 64) {
		bool ok = pol->clzero && pol->threshold == (256UL << 10) - 1;
#ifdef HAVE_POLICY_ALL
		/* ... and huge pages whole, fault +-2 included */
		ok = ok && pol->all;
#endif

		tap(ok, "policy on this host (AMD, CLZERO, 64-byte lines): over %lu with %s%s%s (%s)",
		    pol->threshold, pol->clzero ? "CLZERO" : "MOVNTI",
		    pol->all ? ", pages whole" : "",
		    ok ? "" : ", want over 262143 with CLZERO (pages whole where the policy has the rule)",
		    pol->why);
		return;
	}
	tap(true, "policy on this host # SKIP not an AMD CPU with CLZERO and 64-byte lines (%s)",
	    pol->why);
#else
	tap(true, "policy on this host # SKIP the tree has no asm/clear_pages_policy.h (%s)",
	    pol->why);
#endif
}

static void verify_policy(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(policy_cases); i++)
		verify_policy_case(&policy_cases[i]);
	verify_host_policy();
}

/* The user's write pass stores every byte; the read pass sums every word. */
static void verify_user(char *buf, size_t len, const char *page)
{
	const uint64_t *q = (const uint64_t *)buf;
	uint64_t want = 0;
	size_t i, bad = len;

	memset(buf, 0, len);
	user_write(buf, len);
	for (i = 0; i < len && bad == len; i++)
		if (buf[i] != USER_PATTERN)
			bad = i;
	if (bad == len)
		tap(true, "user write pass (%s) %s", user_pass_isa(), page);
	else
		tap(false, "user write pass (%s) %s # byte %zu of %zu is 0x%02x",
		    user_pass_isa(), page, bad, len, (unsigned char)buf[bad]);

	/* Odd words at both ends, so that a short loop shows. */
	((uint64_t *)buf)[0] = 3;
	((uint64_t *)buf)[len / 8 - 1] = 0x8000000000000007ULL;
	for (i = 0; i < len / 8; i++)
		want += q[i];
	tap(user_read(buf, len) == want, "user read pass (%s) %s",
	    user_pass_isa(), page);
}

/*
 * The MOVDIR64B clear over odd lengths and page boundaries: in a 4 MiB
 * buffer of two 2 MiB pages filled with 0xa5, each case clears @len bytes
 * (a multiple of 64: odd numbers of lines, and of 4 KiB pages) at @off,
 * then the range must be zero and every byte outside it untouched.
 */
struct line_case {
	unsigned long off, len;
	const char *what;
};

static const struct line_case movdir64b_cases[] = {
	{ 0, 64, "one line" },
	{ 64, 3 * 64, "3 lines" },
	{ SZ_4K - 3 * 64, 7 * 64, "7 lines across a 4K boundary" },
	{ 3 * SZ_4K - 5 * 64, 5 * SZ_4K + 9 * 64,
	  "5 pages and 9 lines across 4K boundaries" },
	{ SZ_2M - 3 * SZ_4K - 64, 7 * SZ_4K + 3 * 64,
	  "7 pages and 3 lines across the 2M boundary" },
	{ SZ_2M, SZ_2M, "the second 2M page" },
	{ 64, 2 * SZ_2M - 3 * 64, "65533 lines across the 2M boundary" },
};

static void verify_movdir64b_clear(void)
{
	clear_fn fn = strategies[S_MOVDIR64B].extent;
	size_t len = 2 * SZ_2M, i, k;
	struct hugebuf b;
	long bad;

	if (!strategy_available(S_MOVDIR64B)) {
		tap(true, "movdir64b clear: odd lengths, page boundaries # SKIP this CPU has no movdir64b");
		return;
	}
	if (hugebuf_alloc(&b, len, SZ_2M, BACKING_THP)) {
		tap(false, "movdir64b clear: allocate 4 MiB");
		return;
	}
	for (k = 0; k < ARRAY_SIZE(movdir64b_cases); k++) {
		const struct line_case *lc = &movdir64b_cases[k];

		memset(b.addr, 0xa5, len);
		fn(b.addr + lc->off, lc->len);
		bad = first_nonzero(b.addr + lc->off, lc->len);
		for (i = 0; bad < 0 && i < len; i++)
			if ((i < lc->off || i >= lc->off + lc->len) &&
			    (unsigned char)b.addr[i] != 0xa5)
				break;
		if (bad >= 0)
			tap(false, "movdir64b clear %lu+%lu (%s) # byte %ld of the range is 0x%02x",
			    lc->off, lc->len, lc->what, bad,
			    (unsigned char)b.addr[lc->off + bad]);
		else if (i < len)
			tap(false, "movdir64b clear %lu+%lu (%s) # byte %zu outside the range written",
			    lc->off, lc->len, lc->what, i);
		else
			tap(true, "movdir64b clear %lu+%lu (%s)", lc->off,
			    lc->len, lc->what);
	}
	hugebuf_free(&b);
}

static void verify_page(const struct opts *o, int pi)
{
	const char *pn = page_name(page_sizes[pi]);
	char why[256] = "-B thp leaves hugetlb alone";
	int sel[NR_STRATEGIES], i, n;
	struct hugebuf b;
	struct ctx c;
	char *p;

	if (!ctx_setup(&c, o, pi))
		return;
	if (hugebuf_alloc(&b, c.size, c.page, o->backing)) {
		tap(false, "allocate %zu MiB of %s pages", c.size >> 20, pn);
		free((void *)c.fault);
		return;
	}
	c.buf = b.addr;
	note("%s pages: %zu MiB, %s\n", pn, c.size >> 20, b.desc);

	for (i = 0; i < NR_NAMED; i++)
		if (o->want[i] && !strategy_available(i))
			tap(true, "%s %s # SKIP this CPU has no %s",
			    strategies[i].name, pn, strategies[i].cpu_feature);
	n = select_strategies(o->want, false, sel);
	for (i = 0; i < n; i++) {
		char name[40];

		snprintf(name, sizeof(name), is_candidate(sel[i]) ?
			 "limit(%s)" : "%s", strategies[sel[i]].name);
		memset(c.buf, 0xa5, c.size);
		strategy_clear(sel[i], &c);
		verify_zero(c.buf, c.size, name, pn);
	}
	verify_user(c.buf, c.size, pn);
	hugebuf_free(&b);

	if (o->want[S_HOST_FAULT]) {
		p = o->backing == BACKING_THP ? NULL :
		    hugetlb_map_fresh(c.size, c.page, why, sizeof(why));
		if (p) {
			unsigned long k;

			for (k = 0; k < c.nr_huge; k++)
				p[k * c.page + c.fault[k] * SZ_4K] |= 0;
			verify_zero(p, c.size, "host-fault", pn);
			munmap(p, c.size);
		} else {
			tap(true, "host-fault %s # SKIP %s", pn, why);
		}
	}
	hugetlb_restore(c.page);
	free((void *)c.fault);
}

void verify(const struct opts *o)
{
	int pi;

	verify_mainline_order();
	verify_split();
	verify_policy();
	verify_movdir64b_clear();
	for (pi = 0; pi < NR_PAGES; pi++)
		if (o->want_page[pi])
			verify_page(o, pi);
}
