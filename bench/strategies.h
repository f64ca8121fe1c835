/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The strategies: the orders in which the kernel (Linux 6.12, and the
 * multi-page clearing series) clears the subpages of a huge page, with
 * which routine, and the table that names them for -S, the CSVs and the
 * report.
 */
#ifndef CLEARBENCH_STRATEGIES_H
#define CLEARBENCH_STRATEGIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "common.h"
#include "split.h"

#define MAX_ORDER_NR_PAGES	1024UL	/* 6.12: 1 << MAX_PAGE_ORDER */
#define NEIGHBOURHOOD		2UL	/* FOLIO_ZERO_LOCALITY_RADIUS */

typedef void (*clear_fn)(void *addr, unsigned long len);

/* One page size's worth of work for a strategy. */
struct ctx {
	char *buf;
	size_t size;
	size_t page;			/* huge page size */
	unsigned long nr_huge;		/* huge pages in buf */
	unsigned long nr_sub;		/* 4 KiB subpages per huge page */
	const unsigned long *fault;	/* fault subpage of each huge page */
	size_t nt_thresh;
	clear_fn large;			/* above nt_thresh */
	bool all;			/* pages above nt_thresh whole with large */
	size_t unit;			/* units' call length (-u) */
};

/*
 * Fill @c for page size @pi of @o (all but buf), with the fault subpages
 * drawn from the fixed-seed PRNG. False, with a note, if not one page fits
 * in the buffer. The caller frees c->fault.
 */
bool ctx_setup(struct ctx *c, const struct opts *o, int pi);

/* ---- orders: the kernel's, as pure functions ---- */

typedef void (*subpage_fn)(void *arg, unsigned long idx);

/*
 * Linux 6.12 folio_zero_user(): clear_gigantic_page() for folios above
 * MAX_ORDER_NR_PAGES, else process_huge_page(), which ends at subpage @n
 * after closing in on it from both sides.
 */
static inline __attribute__((always_inline)) void
mainline_order(unsigned long nr, unsigned long n, subpage_fn fn, void *arg)
{
	long i, base, l;

	if (nr > MAX_ORDER_NR_PAGES) {
		for (i = 0; i < (long)nr; i++)
			fn(arg, i);
		return;
	}
	if (2 * n <= nr) {
		base = 0;
		l = n;
		for (i = nr - 1; i >= 2 * (long)n; i--)
			fn(arg, i);
	} else {
		base = nr - 2 * (nr - n);
		l = nr - n;
		for (i = 0; i < base; i++)
			fn(arg, i);
	}
	for (i = 0; i < l; i++) {
		fn(arg, base + i);
		fn(arg, base + 2 * l - 1 - i);
	}
}

/*
 * The series' split, for every folio size, 2 MiB and 1 GiB alike: the
 * kernel's folio_zero_user_ranges() (split.h: the tree's own, compiled
 * from its mm/memory.c, or clearbench's copy for a tree without it). The
 * subpages right of the fault's neighbourhood, then those left of it,
 * then the neighbourhood itself (the fault subpage and up to
 * NEIGHBOURHOOD on either side, clamped to the page) last. Returns how
 * many non-empty runs it wrote (0 if @nr is 0); the last one is the
 * neighbourhood.
 */
static inline unsigned int huge_regions(unsigned long nr, unsigned long f,
					struct folio_zero_range r[3])
{
	return folio_zero_user_ranges(nr, f, r);
}

/* ---- the table ---- */

struct strategy {
	const char *name;
	void (*clear)(const struct ctx *c);	/* an order of runs, or NULL */
	clear_fn extent;			/* else one call per huge page */
	const char *cpu_feature;		/* what the CPU must have, or NULL */
	const char *desc;			/* one line, for -S help */
};

/* Indexed by S_MAINLINE .. NR_STRATEGIES - 1 (common.h). */
extern const struct strategy strategies[NR_STRATEGIES];

static inline bool is_candidate(int s)
{
	return s >= NR_NAMED;
}

/* Index of the named strategy @name, or -1. */
int strategy_index(const char *name);

/* Can this CPU run strategy @s (see cpu_feature)? */
/* Clear the buffer of @c the way strategy @s does (not limit, host-fault). */
void strategy_clear(int s, const struct ctx *c);
bool strategy_available(int s);

/* List the strategies and what each does, as -S help does. */
void strategies_help(FILE *f, const char *indent);

/*
 * The strategies to run, in order, into @sel: those in @want this CPU can
 * run (see strategy_available()), with host-fault only if @with_fault,
 * and limit as the candidates this CPU can run. Returns how many.
 */
int select_strategies(const bool want[NR_STRATEGIES], bool with_fault,
		      int *sel);

/*
 * Where clear_pages_orig/rep/erms() come from: the tree, or loops of its
 * clear_page_*() for a tree before the series.
 */
extern const char clear_pages_source[];

/* Where clear_pages_nt() comes from: the tree, or our own MOVNTI loop. */
extern const char nt_source[];

/* Where clear_pages_clzero() comes from: the tree, or our own loop. */
extern const char clzero_source[];

/*
 * How the kernel's default bypasses the caches above the threshold, as
 * clear_pages_nocache(): with CLZERO if @clzero, else MOVNTI. Where the
 * routine comes from in @name, if not NULL.
 */
clear_fn nocache_method(bool clzero, const char **name);

#endif
