/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The copy strategies (-C): the orders in which Linux 6.12 and the series
 * copy the subpages of a huge page (hugetlb copy-on-write, migration),
 * with which of the tree's routines, next to a copy loop of our own, and
 * the table that names them for -S, the CSV and the report.
 */
#ifndef CLEARBENCH_COPY_H
#define CLEARBENCH_COPY_H

#include <stdbool.h>
#include <stdio.h>

#include "common.h"
#include "strategies.h"

typedef void (*copy_fn)(void *to, const void *from, unsigned long len);

/* One page size's worth of work: copy src to c.buf. */
struct copy_ctx {
	struct ctx c;		/* the destination, the geometry, the faults */
	const char *src;	/* as long as c.buf */
	size_t unit;		/* units: bytes a call (-u, else the tree's) */
};

/*
 * Fill @cc for page size @pi of @o (all but the buffers), as ctx_setup();
 * false, with a note, if not one page fits. The caller frees cc->c.fault.
 */
bool copy_ctx_setup(struct copy_ctx *cc, const struct opts *o, int pi);

struct copy_strategy {
	const char *name;
	void (*copy)(const struct copy_ctx *c);	/* an order of runs, or NULL */
	copy_fn extent;			/* else one call per huge page */
	const char *cpu_feature;	/* what the CPU must have, or NULL */
	bool tree;			/* needs the tree's copy_pages_*() */
	const char *desc;		/* one line, for -S help */
};

/* Indexed by C_MAINLINE .. NR_COPY - 1 (common.h). */
extern const struct copy_strategy copy_strategies[NR_COPY];

/*
 * Bytes a call of the units strategy: -u, else the tree's
 * COPY_PAGES_NON_PREEMPT_BATCH (0 if it has none).
 */
size_t copy_unit_bytes(const struct opts *o);

/* Index of the copy strategy @name, or -1. */
int copy_index(const char *name);

/*
 * Can this build on this CPU run copy strategy @s? If not, why in @why
 * ("no avx512f", "the tree has no copy_pages_*()"), if not NULL.
 */
bool copy_available(int s, const char **why);

/* Copy the buffer of @c the way strategy @s does (not limit). */
void copy_run(int s, const struct copy_ctx *c);

/*
 * The copy strategies to run, in order, into @sel: those in @want this
 * build can run, with avx512-nt whenever limit is wanted (limit is the
 * fastest of them in each round, not a run). Returns how many.
 */
int select_copies(const bool want[NR_COPY], int *sel);

/* List the copy strategies and what each does, as -S help does. */
void copy_help(FILE *f, const char *indent);

/*
 * Set the feature bytes the tree's ALTERNATIVEs and our own choices read
 * (copy_pages.h) from the host's /proc/cpuinfo flags: erms, rep_good.
 * Called by copy_ctx_setup(); -V clears them to try the other paths.
 */
void copy_features_init(void);
void copy_features_set(bool erms, bool rep_good);

/*
 * What mainline's copy_mc_to_kernel() and default's copy_pages() pick on
 * the CPU the feature bytes describe, for the report.
 */
const char *copy_mainline_routine(void);
const char *copy_default_routine(void);

#endif
