/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Huge page backed buffers for clearbench: hugetlb first (reserving pool
 * pages if needed, and restoring the pool size afterwards), THP second.
 */
#ifndef CLEARBENCH_HUGEMEM_H
#define CLEARBENCH_HUGEMEM_H

#include <stddef.h>

#include "common.h"

enum backing {
	BACKED_HUGETLB,
	BACKED_THP,
};

struct hugebuf {
	char *addr;		/* aligned to page */
	size_t size;
	size_t page;		/* huge page size the buffer is made of */
	void *map;		/* what to munmap */
	size_t maplen;
	enum backing backing;
	char desc[192];		/* how it is backed, for the report */
};

/* Map and fault in a huge page backed buffer; 0 or -1 (message printed). */
int hugebuf_alloc(struct hugebuf *b, size_t size, size_t page,
		  enum backing_mode mode);
void hugebuf_free(struct hugebuf *b);

/*
 * A fresh, not yet faulted, MAP_HUGETLB mapping of @size bytes in pages of
 * @page bytes, reserving pool pages if the pool is short. NULL on failure,
 * with the reason in @why.
 */
void *hugetlb_map_fresh(size_t size, size_t page, char *why, size_t whylen);

/* Put the pool size of @page (or of every size) back as it was. */
void hugetlb_restore(size_t page);
void hugetlb_restore_all(void);

#endif
