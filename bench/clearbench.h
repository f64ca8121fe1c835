/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every part of clearbench shares: the options, the page sizes.
 */
#ifndef CLEARBENCH_H
#define CLEARBENCH_H

#include <stdbool.h>
#include <stddef.h>

#include "hugemem.h"
#include "strategies.h"

#define MAX_ROUNDS	1000

#define NR_PAGES	2
extern const size_t page_sizes[NR_PAGES];	/* 2M, 1G */

static inline const char *page_name(size_t page)
{
	return page == SZ_1G ? "1G" : "2M";
}

struct opts {
	size_t size;
	int rounds;
	int cpu;
	size_t nt_thresh;
	char nt_src[160];
	const char *csv;
	const char *raw;
	const char *ratios;
	bool want_page[NR_PAGES];
	bool want[NR_STRATEGIES];
	enum backing_mode backing;
	bool verify;
};

#endif
