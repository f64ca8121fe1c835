/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How the kernel splits a huge folio into the runs it clears and copies:
 * folio_zero_user_ranges() from the tree's mm/memory.c, extracted by the
 * Makefile (kernel_split.awk) into build/kernel_split.c and compiled with
 * shim/kernel_split.h; or, for a tree without it (a baseline tree),
 * clearbench's own copy in own_split.c. split_source says which.
 */
#ifndef CLEARBENCH_SPLIT_H
#define CLEARBENCH_SPLIT_H

/* As mm/internal.h: pages [start, end) of a folio. */
struct folio_zero_range {
	unsigned long start;
	unsigned long end;
};

/*
 * The runs of a folio of @nr_pages pages faulted at @fault_idx, in the
 * order the kernel clears (and copies) them: right of the fault's
 * neighbourhood, left of it, the neighbourhood last. Returns how many.
 */
unsigned int folio_zero_user_ranges(unsigned long nr_pages,
				    unsigned long fault_idx,
				    struct folio_zero_range r[3]);

/*
 * "folio_zero_user_ranges() from <tree>/mm/memory.c", or "clearbench's
 * own copy (...)".
 */
extern const char split_source[];

#endif
