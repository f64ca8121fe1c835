/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Measurement: interleaved rounds of the selected strategies on a huge
 * page backed buffer, every run kept, medians on demand.
 */
#ifndef CLEARBENCH_MEASURE_H
#define CLEARBENCH_MEASURE_H

#include <stdbool.h>
#include <stddef.h>

#include "clearbench.h"

struct raw_run {
	int round, strat, page;
	double gbps, e2e;
};

struct results {
	struct raw_run *runs;
	size_t nr, cap;
	bool measured[NR_PAGES][NR_STRATEGIES];
	int limit_of[NR_PAGES];		/* candidate chosen, or -1 */
	char limit_note[NR_PAGES][256];
	char backing[NR_PAGES][256];
	char host_fault_note[NR_PAGES][256];
};

/*
 * Measure every page size @o asks for into @res (which starts empty, with
 * limit_of[] at -1). Returns how many runs were recorded.
 */
size_t measure(const struct opts *o, struct results *res);

/* Median of the figures of (@pi, @s); @e2e picks the column. NAN if none. */
double median(const struct results *res, int pi, int s, bool e2e);

#endif
