/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Measurement: interleaved rounds of the selected strategies on a huge
 * page backed buffer, every run kept; medians and per-round paired ratios
 * on demand.
 */
#ifndef CLEARBENCH_MEASURE_H
#define CLEARBENCH_MEASURE_H

#include <stdbool.h>
#include <stddef.h>

#include "common.h"
#include "strategies.h"

/* What each run measures, all in GB/s (bytes over nanoseconds). */
enum metric {
	M_GBPS,		/* the clear alone */
	M_E2E_WRITE,	/* the clear, then the user's write pass */
	M_E2E_READ,	/* the clear, then the user's read pass */
	NR_METRICS
};

/* CSV column names ("gbps", "e2e_gbps", "e2e_read_gbps"). */
extern const char *const metric_col[NR_METRICS];
/* Short names for the table and the ratios CSV. */
extern const char *const metric_name[NR_METRICS];

struct raw_run {
	int round, strat, page;
	bool paired;		/* ran in the interleaved rounds */
	double v[NR_METRICS];
};

struct results {
	struct raw_run *runs;
	size_t nr, cap;
	int rounds;
	bool measured[NR_PAGES][NR_STRATEGIES];
	int limit_of[NR_PAGES][NR_METRICS];	/* method chosen, or -1 */
	char limit_note[NR_PAGES][NR_METRICS][512];
	char backing[NR_PAGES][256];
	char host_fault_note[NR_PAGES][256];
	char unavailable[NR_PAGES][256];	/* wanted, but not on this CPU */
	unsigned long read_nonzero;	/* read passes that found a non-zero */
};

/*
 * Measure every page size @o asks for into @res (which starts zeroed).
 * Returns how many runs were recorded.
 */
size_t measure(const struct opts *o, struct results *res);

/* Median of metric @m of (@pi, @s) over every run of it. NAN if none. */
double median(const struct results *res, int pi, int s, enum metric m);

/* Per-round ratios of one method to another, or to the best of the round. */
#define VS_BEST		(-1)

/*
 * The ratio of metric @m of @s to that of @vs (a strategy, or VS_BEST:
 * the fastest method in the same round, limit aside, as limit is a copy)
 * in every round both ran in, paired. False if there is no such round
 * (e.g. host-fault, measured after the others).
 */
bool paired_ratio(const struct results *res, int pi, int s, enum metric m,
		  int vs, struct ratio_stats *st);

#endif
