// SPDX-License-Identifier: GPL-2.0
/*
 * -V: does each order cover every subpage exactly once and end at the
 * fault, does the tree's policy header (if it has one) decide as the
 * kernel's KUnit cases say on faked CPUs, and does every strategy leave
 * the buffer all zero? One clear per
 * strategy and page size on a buffer filled with 0xa5, TAP on stdout
 * (notes as "# " comments), exit status 1 on any failure. A strategy the
 * CPU cannot run (clzero without CLZERO) is a SKIP. Then the user's
 * passes: does the write pass store every byte, and does the read pass
 * sum every word?
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "common.h"
#include "hugemem.h"
#include "loops.h"
#include "policy.h"
#include "strategies.h"
#include "verify.h"

static int tap_nr, tap_failed;

static void tap(bool ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void tap(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d ", ok ? "" : "not ", ++tap_nr);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!ok)
		tap_failed++;
}

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

/* Each order covers every subpage exactly once and ends at the fault. */
static void verify_orders(void)
{
	static const unsigned long nrs[] = { 512, 7, 8, 1, 2, 3, 16 };
	bool ok_main = true, ok_reg = true;
	struct order_count oc;
	unsigned long nr, f, s;
	struct region r[3];
	unsigned int i, j, n;

	for (i = 0; i < ARRAY_SIZE(nrs); i++) {
		nr = nrs[i];
		for (f = 0; f < nr; f++) {
			memset(&oc, 0, sizeof(oc));
			mainline_order(nr, f, count_subpage, &oc);
			for (s = 0; s < nr; s++)
				ok_main &= oc.cnt[s] == 1;
			ok_main &= oc.last == f;

			memset(&oc, 0, sizeof(oc));
			n = huge_regions(nr, f, r);
			for (j = 0; j < n; j++)
				for (s = r[j].start; s < r[j].end; s++)
					oc.cnt[s]++;
			for (s = 0; s < nr; s++)
				ok_reg &= oc.cnt[s] == 1;
			ok_reg &= r[n - 1].start <= f && f < r[n - 1].end;
			ok_reg &= r[n - 1].end - r[n - 1].start <=
				  2 * NEIGHBOURHOOD + 1;
		}
	}
	tap(ok_main, "mainline-order covers each subpage once, fault last");
	tap(ok_reg, "regions cover each subpage once, neighbourhood last");
}

#define NR_1G	(SZ_1G / SZ_4K)

/*
 * huge_regions() against runs written by hand from the kernel's
 * folio_zero_user_ranges(): right of the neighbourhood, left of it, the
 * neighbourhood (fault +- 2, clamped to the folio) last; empty runs left
 * out, a fault past the end clamped to the last page.
 */
struct regions_case {
	unsigned long nr, f;
	unsigned int n;
	struct region r[3];
};

static const struct regions_case regions_cases[] = {
	/* 2 MiB: middle, both ends, one off the clamp, past the end. */
	{ 512, 100, 3, { { 103, 512 }, { 0, 98 }, { 98, 103 } } },
	{ 512, 0, 2, { { 3, 512 }, { 0, 3 } } },
	{ 512, 1, 2, { { 4, 512 }, { 0, 4 } } },
	{ 512, 2, 2, { { 5, 512 }, { 0, 5 } } },
	{ 512, 3, 3, { { 6, 512 }, { 0, 1 }, { 1, 6 } } },
	{ 512, 508, 3, { { 511, 512 }, { 0, 506 }, { 506, 511 } } },
	{ 512, 509, 2, { { 0, 507 }, { 507, 512 } } },
	{ 512, 511, 2, { { 0, 509 }, { 509, 512 } } },
	{ 512, 512, 2, { { 0, 509 }, { 509, 512 } } },
	/* 1 GiB: split as 2 MiB is, neighbourhood last. */
	{ NR_1G, 131072, 3,
	  { { 131075, NR_1G }, { 0, 131070 }, { 131070, 131075 } } },
	{ NR_1G, 0, 2, { { 3, NR_1G }, { 0, 3 } } },
	{ NR_1G, NR_1G - 1, 2, { { 0, NR_1G - 3 }, { NR_1G - 3, NR_1G } } },
	/* Fewer than 5 pages, and just over. */
	{ 0, 0, 0, { { 0, 0 } } },
	{ 1, 0, 1, { { 0, 1 } } },
	{ 1, 5, 1, { { 0, 1 } } },
	{ 2, 1, 1, { { 0, 2 } } },
	{ 3, 1, 1, { { 0, 3 } } },
	{ 4, 0, 2, { { 3, 4 }, { 0, 3 } } },
	{ 4, 3, 2, { { 0, 1 }, { 1, 4 } } },
	{ 5, 0, 2, { { 3, 5 }, { 0, 3 } } },
	{ 5, 2, 1, { { 0, 5 } } },
	{ 5, 4, 2, { { 0, 2 }, { 2, 5 } } },
	{ 6, 2, 2, { { 5, 6 }, { 0, 5 } } },
	{ 6, 3, 2, { { 0, 1 }, { 1, 6 } } },
	{ 7, 3, 3, { { 6, 7 }, { 0, 1 }, { 1, 6 } } },
};

static void verify_regions(void)
{
	const struct regions_case *c;
	struct region r[3];
	unsigned int i, j, n;
	bool ok = true, same;

	for (i = 0; i < ARRAY_SIZE(regions_cases); i++) {
		c = &regions_cases[i];
		memset(r, 0xff, sizeof(r));
		n = huge_regions(c->nr, c->f, r);
		same = n == c->n;
		for (j = 0; same && j < n; j++)
			same = r[j].start == c->r[j].start &&
			       r[j].end == c->r[j].end;
		if (!same) {
			printf("# huge_regions(%lu, %lu): %u runs", c->nr,
			       c->f, n);
			for (j = 0; j < n && j < 3; j++)
				printf(" [%lu, %lu)", r[j].start, r[j].end);
			printf(", want %u runs", c->n);
			for (j = 0; j < c->n; j++)
				printf(" [%lu, %lu)", c->r[j].start,
				       c->r[j].end);
			printf("\n");
		}
		ok &= same;
	}
	tap(ok, "regions match the kernel's right, left, neighbourhood split (%zu cases)",
	    ARRAY_SIZE(regions_cases));
}

/* What the policy must decide on a faked CPU, as the kernel's KUnit cases. */
struct policy_case {
	const char *name;
	int intel, amd, clzero;
	unsigned long llc_share;
	unsigned long threshold;	/* POLICY_NEVER: never */
	bool by_clzero;			/* else MOVNTI */
};

static const struct policy_case policy_cases[] = {
	{ "Intel, 8 MiB LLC share", 1, 0, 0, 8UL << 20, 8UL << 20, false },
	{ "Intel, 512 KiB LLC share", 1, 0, 0, 512UL << 10, SZ_2M, false },
	{ "Intel, LLC unknown", 1, 0, 0, 0, POLICY_NEVER, false },
	{ "AMD with CLZERO", 0, 1, 1, 1UL << 20, (256UL << 10) - 1, true },
	{ "AMD without CLZERO", 0, 1, 0, 1UL << 20, POLICY_NEVER, false },
	{ "other vendor", 0, 0, 0, 8UL << 20, POLICY_NEVER, false },
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
		.llc_share = pc->llc_share,
	};
	unsigned long t = clear_pages_nocache_threshold(&cpu);
	bool clz = clear_pages_nocache_insn(&cpu) == CLEAR_PAGES_CLZERO;
	char got[64], want[64];

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

static void verify_policy(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(policy_cases); i++)
		verify_policy_case(&policy_cases[i]);
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

int verify(const struct opts *o)
{
	int pi;

	verify_orders();
	verify_regions();
	verify_policy();
	for (pi = 0; pi < NR_PAGES; pi++)
		if (o->want_page[pi])
			verify_page(o, pi);
	printf("1..%d\n", tap_nr);
	if (tap_failed)
		fprintf(stderr, "clearbench: %d of %d checks FAILED\n",
			tap_failed, tap_nr);
	return tap_failed ? 1 : 0;
}
