/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Measurement of the copy strategies (-C): interleaved rounds on THP
 * backed source and destination buffers, every run kept; limit, the
 * fastest of each round; medians and per-round paired ratios.
 */
#ifndef CLEARBENCH_COPY_MEASURE_H
#define CLEARBENCH_COPY_MEASURE_H

#include <stdbool.h>
#include <stddef.h>

#include "common.h"

struct copy_run {
	int round, strat, page;
	double gbps;		/* bytes copied over nanoseconds */
};

struct copy_results {
	struct copy_run *runs;
	size_t nr, cap;
	int rounds;
	bool measured[NR_PAGES][NR_COPY];
	int limit_won[NR_PAGES][NR_COPY];	/* rounds each was the limit */
	char backing[NR_PAGES][256];
	char unavailable[NR_PAGES][256];	/* wanted, but not here */
};

/*
 * Measure every page size @o asks for into @res (which starts zeroed).
 * Returns how many runs were recorded.
 */
size_t copy_measure(const struct opts *o, struct copy_results *res);

/*
 * Median, min and max of strategy @s on page size @pi over its rounds;
 * false (and NANs) if it has none.
 */
bool copy_stats(const struct copy_results *res, int pi, int s, double *med,
		double *min, double *max);

/*
 * The ratio of @s to @vs (C_LIMIT: the fastest of the round) in every
 * round both ran in, paired. False if there is no such round.
 */
bool copy_ratio(const struct copy_results *res, int pi, int s, int vs,
		struct ratio_stats *st);

#endif
