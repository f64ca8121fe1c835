// SPDX-License-Identifier: GPL-2.0
/*
 * The copy strategies clearbench measures with -C: how the kernel copies
 * a huge page, driving the tree's own routines (copy_pages.h).
 *
 * Linux 6.12 copies a hugetlb page on copy-on-write with
 * copy_user_large_folio(): process_huge_page() order for 2 MiB (the order
 * it clears in, mainline_order()), ascending for 1 GiB
 * (copy_user_gigantic_page()), a 4 KiB subpage a call of
 * copy_mc_user_highpage(), which on x86-64 (ARCH_HAS_COPY_MC) is
 * copy_mc_to_kernel(): copy_mc_enhanced_fast_string(), one REP MOVSB of
 * 4 KiB, on ERMS CPUs (copy_mc_fragile() instead on the few CPUs the MCE
 * code asks for it, with X86_MCE, not modelled), else memcpy(). That is
 * "mainline"; "copy-page" is the same order with copy_page() (REP MOVSQ
 * on REP_GOOD CPUs), which 6.12 uses where copy_mc_to_kernel() is not
 * defined.
 *
 * The series copies the runs of folio_zero_user_ranges(), right of the
 * fault's neighbourhood, left of it, the neighbourhood last, each in one
 * call of copy_mc_pages(): copy_mc_pages_movsb(), one REP MOVSB, on ERMS
 * CPUs, else copy_pages(), REP MOVSQ on REP_GOOD CPUs, else the register
 * loop. copy_pages_movsb() stands in for copy_mc_pages_movsb(): the same
 * REP MOVSB, without the exception table entry. That is "default".
 * Without the preemptible ranges, under none or voluntary, the runs are
 * cut into COPY_PAGES_NON_PREEMPT_BATCH calls: "units". Migration copies
 * the whole folio in one run: movsb, movsq and regs.
 *
 * Every huge page copy in 6.12 (copy-on-write, khugepaged, migration's
 * folio_mc_copy()) must survive a machine check in the source: of these,
 * mainline, default, units, movsb and mc-fragile (copy_mc_fragile(), the
 * tree's machine-check safe register loop, one call per huge page) are
 * what such a caller may use on ERMS CPUs, and so is mc-nt
 * (copy_mc_pages_nt(), the MOVNTI loop of copy_mc_pages_nocache(), which
 * default uses for the runs the tree's policy sends around the caches);
 * movsq and regs are not machine-check safe. movnti is clearbench's own
 * MOVNTI loop, without the exception table: a reference for mc-nt.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "copy.h"
#include "copy_pages.h"
#include "loops.h"
#include "policy.h"
#include "probe.h"
#include "strategies.h"

unsigned char clearbench_x86_rep_good;
unsigned char clearbench_x86_erms;

void copy_features_set(bool erms, bool rep_good)
{
	clearbench_x86_erms = erms;
	clearbench_x86_rep_good = rep_good;
}

void copy_features_init(void)
{
	const struct cpu_info *ci = cpu_info();

	copy_features_set(ci->erms, ci->rep_good);
}

bool copy_ctx_setup(struct copy_ctx *cc, const struct opts *o, int pi)
{
	memset(cc, 0, sizeof(*cc));
	copy_features_init();
	cc->unit = copy_unit_bytes(o);
	return ctx_setup(&cc->c, o, pi);
}

size_t copy_unit_bytes(const struct opts *o)
{
#ifdef COPY_UNIT
	return o->copy_unit ? o->copy_unit : COPY_UNIT;
#else
	return o->copy_unit;
#endif
}

/* ---- 6.12: 4 KiB a call ---- */

struct copy_pair {
	char *to;
	const char *from;
};

/* copy_mc_to_kernel(): REP MOVSB on ERMS, else memcpy() (our copy_page). */
static void copy_subpage_mc(void *arg, unsigned long idx)
{
	struct copy_pair *p = arg;
	unsigned long off = idx * SZ_4K;

	if (clearbench_x86_erms)
		copy_mc_enhanced_fast_string(p->to + off, p->from + off, SZ_4K);
	else
		copy_page(p->to + off, (void *)(p->from + off));
}

static void copy_subpage_page(void *arg, unsigned long idx)
{
	struct copy_pair *p = arg;
	unsigned long off = idx * SZ_4K;

	copy_page(p->to + off, (void *)(p->from + off));
}

static struct copy_pair huge_pair(const struct copy_ctx *cc, unsigned long k)
{
	return (struct copy_pair){ cc->c.buf + k * cc->c.page,
				   cc->src + k * cc->c.page };
}

static void copy_mainline(const struct copy_ctx *cc)
{
	struct copy_pair p;
	unsigned long k;

	for (k = 0; k < cc->c.nr_huge; k++) {
		p = huge_pair(cc, k);
		mainline_order(cc->c.nr_sub, cc->c.fault[k], copy_subpage_mc, &p);
	}
}

static void copy_copy_page(const struct copy_ctx *cc)
{
	struct copy_pair p;
	unsigned long k;

	for (k = 0; k < cc->c.nr_huge; k++) {
		p = huge_pair(cc, k);
		mainline_order(cc->c.nr_sub, cc->c.fault[k], copy_subpage_page,
			       &p);
	}
}

const char *copy_mainline_routine(void)
{
	if (clearbench_x86_erms)
		return "copy_mc_enhanced_fast_string() (REP MOVSB), ERMS";
	return clearbench_x86_rep_good ?
	       "memcpy(); clearbench: copy_page() (REP MOVSQ), no ERMS" :
	       "memcpy(); clearbench: copy_page() (copy_page_regs), no ERMS";
}

/* ---- the series: runs ---- */

#ifdef HAVE_COPY_MC_PAGES_NT
/* copy_mc_pages_nocache() on CPUs without the fragile quirk. */
static void mc_nt_copy(void *to, const void *from, unsigned long len)
{
	unsigned long left = copy_mc_pages_nt(to, from, len);

	if (left) {
		fprintf(stderr, "clearbench: copy_mc_pages_nt() left %lu of %lu bytes\n",
			left, len);
		abort();
	}
}
static const copy_fn mc_nt_fn = mc_nt_copy;
#else
static const copy_fn mc_nt_fn;
#endif

#ifdef HAVE_COPY_PAGES
/* copy_mc_pages(), then copy_pages(): ERMS, then REP_GOOD, else registers. */
static copy_fn default_fn(void)
{
	if (clearbench_x86_erms)
		return copy_pages_movsb;
	return clearbench_x86_rep_good ? copy_pages_movsq : copy_pages_regs;
}

/*
 * The routine for run @i of @n, @len bytes copied in calls of @call:
 * copy_mc_pages_nocache()'s loop where the policy sends the run around
 * the caches (never the fault's neighbourhood, the last run), else
 * copy_mc_pages()'s.
 */
static copy_fn run_fn(unsigned int i, unsigned int n, unsigned long len,
		      unsigned long call)
{
	if (mc_nt_fn && i < n - 1 && copy_policy_nocache(len, call))
		return mc_nt_fn;
	return default_fn();
}

static void copy_default(const struct copy_ctx *cc)
{
	struct folio_zero_range r[3];
	struct copy_pair p;
	unsigned long k, len;
	unsigned int i, n;

	for (k = 0; k < cc->c.nr_huge; k++) {
		p = huge_pair(cc, k);
		n = huge_regions(cc->c.nr_sub, cc->c.fault[k], r);
		for (i = 0; i < n; i++) {
			len = (r[i].end - r[i].start) * SZ_4K;
			run_fn(i, n, len, len)(p.to + r[i].start * SZ_4K,
					       p.from + r[i].start * SZ_4K, len);
		}
	}
}

/*
 * The series without the preemptible ranges (resched_ranges=off, or a
 * copy_mc_pages() loop that is not a registered range) under none or
 * voluntary: default's runs in calls of at most the tree's
 * COPY_PAGES_NON_PREEMPT_BATCH (COPY_UNIT bytes, from the Makefile; -u
 * overrides it).
 */
#ifdef COPY_UNIT
static void copy_units(const struct copy_ctx *cc)
{
	struct folio_zero_range r[3];
	unsigned long k, off, len, n;
	struct copy_pair p;
	unsigned int i, nr;
	copy_fn fn;

	for (k = 0; k < cc->c.nr_huge; k++) {
		p = huge_pair(cc, k);
		nr = huge_regions(cc->c.nr_sub, cc->c.fault[k], r);
		for (i = 0; i < nr; i++) {
			len = (r[i].end - r[i].start) * SZ_4K;
			fn = run_fn(i, nr, len, len < cc->unit ? len : cc->unit);
			for (off = 0; off < len; off += n) {
				n = len - off < cc->unit ? len - off : cc->unit;
				fn(p.to + r[i].start * SZ_4K + off,
				   p.from + r[i].start * SZ_4K + off, n);
			}
		}
	}
}
#else
#define copy_units	NULL
#endif

/*
 * copy_pages_movsb() in calls of the unit (-u; default the tree's
 * COPY_PAGES_NON_PREEMPT_BATCH), ascending, whatever the policy: how
 * REP MOVSB's speed depends on the length of one call
 * (scripts/copy-lengths.sh sweeps it).
 */
static void copy_movsb_calls(const struct copy_ctx *cc)
{
	unsigned long k, off, n, unit = cc->unit ? cc->unit : cc->c.page;
	struct copy_pair p;

	for (k = 0; k < cc->c.nr_huge; k++) {
		p = huge_pair(cc, k);
		for (off = 0; off < cc->c.page; off += n) {
			n = cc->c.page - off < unit ? cc->c.page - off : unit;
			copy_pages_movsb(p.to + off, p.from + off, n);
		}
	}
}

#define movsb_fn	copy_pages_movsb
#define movsq_fn	copy_pages_movsq
#define regs_fn		copy_pages_regs
#define TREE_HAS_COPY_PAGES	true
#else
#define copy_default	NULL
#define copy_units	NULL
#define copy_movsb_calls	NULL
#define movsb_fn	NULL
#define movsq_fn	NULL
#define regs_fn		NULL
#define TREE_HAS_COPY_PAGES	false
#endif

#ifdef HAVE_COPY_MC_FRAGILE
unsigned long copy_mc_fragile_handle_tail(char *to, char *from,
					  unsigned int len)
{
	fprintf(stderr, "clearbench: copy_mc_fragile() faulted on a store\n");
	abort();
}

/* One call per huge page; its length is an unsigned int (1 GiB fits). */
static void mc_fragile_copy(void *to, const void *from, unsigned long len)
{
	unsigned long left = copy_mc_fragile(to, from, (unsigned int)len);

	if (left || len > UINT_MAX) {
		fprintf(stderr, "clearbench: copy_mc_fragile() left %lu of %lu bytes\n",
			left, len);
		abort();
	}
}
#define mc_fragile_fn	mc_fragile_copy
#else
#define mc_fragile_fn	NULL
#endif

const char *copy_default_routine(void)
{
	if (!TREE_HAS_COPY_PAGES)
		return "none: the tree has no copy_pages_*()";
	if (mc_nt_fn && copy_policy_nocache(SZ_2M - 5 * SZ_4K, SZ_2M - 5 * SZ_4K))
		return clearbench_x86_erms ?
		       "copy_mc_pages_nt() (MOVNTI) for the runs the policy sends around the caches, else copy_pages_movsb() (REP MOVSB) for copy_mc_pages_movsb(), ERMS" :
		       "copy_mc_pages_nt() (MOVNTI) for the runs the policy sends around the caches, else copy_pages()";
	if (clearbench_x86_erms)
		return "copy_pages_movsb() (REP MOVSB) for copy_mc_pages_movsb(), ERMS";
	return clearbench_x86_rep_good ?
	       "copy_pages_movsq() (REP MOVSQ), REP_GOOD" :
	       "copy_pages_regs(), neither ERMS nor REP_GOOD";
}

/* ---- the table ---- */

const struct copy_strategy copy_strategies[NR_COPY] = {
	[C_MAINLINE]	= { "mainline", copy_mainline, NULL, NULL, false,
		"6.12: process_huge_page() order (1G: ascending), copy_mc_to_kernel() per 4K: REP MOVSB on ERMS" },
	[C_COPY_PAGE]	= { "copy-page", copy_copy_page, NULL, NULL, false,
		"as mainline, copy_page() per 4K subpage (REP MOVSQ on REP_GOOD)" },
	[C_DEFAULT]	= { "default", copy_default, NULL, NULL, true,
		"the series: right of fault +-2, left, fault +-2 last, a call each; mc-nt where the policy bypasses the caches, else MOVSB on ERMS, MOVSQ, regs" },
	[C_UNITS]	= { "units", copy_units, NULL, NULL, true,
		"as default, runs cut into COPY_PAGES_NON_PREEMPT_BATCH calls: the series where irq exit cannot preempt" },
	[C_MOVSB]	= { "movsb", NULL, movsb_fn, NULL, true,
		"copy_pages_movsb() (REP MOVSB), one call per huge page, as migration on ERMS" },
	[C_MOVSB_CALLS]	= { "movsb-calls", copy_movsb_calls, NULL, NULL, true,
		"copy_pages_movsb() in calls of -u bytes (default COPY_PAGES_NON_PREEMPT_BATCH), whatever the policy" },
	[C_MOVSQ]	= { "movsq", NULL, movsq_fn, NULL, true,
		"copy_pages_movsq() (REP MOVSQ), one call per huge page" },
	[C_REGS]	= { "regs", NULL, regs_fn, NULL, true,
		"copy_pages_regs() (64-byte register loop), one call per huge page" },
	[C_MC_FRAGILE]	= { "mc-fragile", NULL, mc_fragile_fn, NULL, false,
		"copy_mc_fragile() (8-byte register loop, machine-check safe loads), one call per huge page" },
	[C_MC_NT]	= { "mc-nt", NULL, mc_nt_fn, NULL, false,
		"copy_mc_pages_nt() (MOVNTI stores, machine-check safe loads; copy_mc_pages_nocache()), one call per huge page" },
	[C_MOVNTI]	= { "movnti", NULL, movnti_copy, NULL, false,
		"clearbench's own: 64 bytes through registers, MOVNTI stores, SFENCE; no FPU state, one call per huge page (a reference)" },
	[C_AVX512_NT]	= { "avx512-nt", NULL, avx512_nt_copy, "avx512f", false,
		"clearbench's own: AVX-512 loads, non-temporal stores, SFENCE; one call per huge page" },
	[C_MOVDIR64B]	= { "movdir64b", NULL, movdir64b_copy, "movdir64b", false,
		"clearbench's own: MOVDIR64B of each source line, in order, then SFENCE; one call per huge page (a reference)" },
	[C_HOST_COW]	= { "host-cow", NULL, NULL, NULL, false,
		"the host kernel's hugetlb copy-on-write: a child writes at each page's fault subpage (not a loop: never limit)" },
	[C_LIMIT]	= { "limit", NULL, NULL, NULL, false,
		"per round, the fastest of all copies measured (runs avx512-nt too)" },
};

int copy_index(const char *name)
{
	int s;

	for (s = 0; s < NR_COPY; s++)
		if (!strcmp(copy_strategies[s].name, name))
			return s;
	return -1;
}

bool copy_available(int s, const char **why)
{
	const struct copy_strategy *st = &copy_strategies[s];
	static char no_feature[64];

	if (st->tree && !TREE_HAS_COPY_PAGES) {
		if (why)
			*why = "the tree has no copy_pages_*()";
		return false;
	}
	if (s == C_MC_FRAGILE && !st->extent) {
		if (why)
			*why = "the tree's copy_mc_64.S has no copy_mc_fragile()";
		return false;
	}
	if (s == C_MC_NT && !st->extent) {
		if (why)
			*why = "the tree's copy_page_64.S has no copy_mc_pages_nt()";
		return false;
	}
	if (s == C_UNITS && !st->copy) {
		if (why)
			*why = "the tree has no COPY_PAGES_NON_PREEMPT_BATCH";
		return false;
	}
	if (!cpu_has(st->cpu_feature)) {
		snprintf(no_feature, sizeof(no_feature), "this CPU has no %s",
			 st->cpu_feature);
		if (why)
			*why = no_feature;
		return false;
	}
	return true;
}

void copy_run(int s, const struct copy_ctx *cc)
{
	const struct copy_strategy *st = &copy_strategies[s];
	struct copy_pair p;
	unsigned long k;

	if (!st->copy && !st->extent)
		return;		/* host-cow and limit: measured, not run */
	if (st->copy) {
		st->copy(cc);
		return;
	}
	for (k = 0; k < cc->c.nr_huge; k++) {
		p = huge_pair(cc, k);
		st->extent(p.to, p.from, cc->c.page);
	}
}

int select_copies(const bool want[NR_COPY], int *sel)
{
	int s, ns = 0;

	for (s = 0; s < NR_COPY; s++) {
		if (s == C_LIMIT || !copy_available(s, NULL))
			continue;
		if (want[s] || (s == C_AVX512_NT && want[C_LIMIT]))
			sel[ns++] = s;
	}
	return ns;
}

void copy_help(FILE *f, const char *indent)
{
	const char *why;
	int s;

	for (s = 0; s < NR_COPY; s++) {
		fprintf(f, "%s%-12s %s", indent, copy_strategies[s].name,
			copy_strategies[s].desc);
		if (!copy_available(s, &why))
			fprintf(f, " [not here: %s]", why);
		fprintf(f, "\n");
	}
}
