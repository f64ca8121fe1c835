// SPDX-License-Identifier: GPL-2.0
/*
 * clearbench's own copy of the series' folio_zero_user_ranges(), for a
 * tree that has none (a baseline tree): the Makefile builds this file
 * instead of the function it extracts from the tree's mm/memory.c.
 */
#include "split.h"

#define FOLIO_ZERO_LOCALITY_RADIUS	2UL

const char split_source[] =
	"clearbench's own copy (the tree's mm/memory.c has no folio_zero_user_ranges())";

unsigned int folio_zero_user_ranges(unsigned long nr_pages,
				    unsigned long fault_idx,
				    struct folio_zero_range r[3])
{
	unsigned long nb_start, nb_end;
	unsigned int n = 0;

	if (!nr_pages)
		return 0;
	if (fault_idx > nr_pages - 1)
		fault_idx = nr_pages - 1;
	nb_start = fault_idx > FOLIO_ZERO_LOCALITY_RADIUS ?
		   fault_idx - FOLIO_ZERO_LOCALITY_RADIUS : 0;
	nb_end = fault_idx + FOLIO_ZERO_LOCALITY_RADIUS + 1 < nr_pages ?
		 fault_idx + FOLIO_ZERO_LOCALITY_RADIUS + 1 : nr_pages;
	if (nb_end < nr_pages)
		r[n++] = (struct folio_zero_range){ nb_end, nr_pages };
	if (nb_start > 0)
		r[n++] = (struct folio_zero_range){ 0, nb_start };
	r[n++] = (struct folio_zero_range){ nb_start, nb_end };
	return n;
}
