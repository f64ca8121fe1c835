/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What clearbench -C prints and writes: the header of what the copy
 * strategies run here, the table of medians and per-round paired ratios,
 * and the raw CSV.
 */
#ifndef CLEARBENCH_COPY_REPORT_H
#define CLEARBENCH_COPY_REPORT_H

#include "common.h"
#include "copy_measure.h"

/* The tree's copy routines and what mainline and default pick here. */
void copy_print_header(const struct opts *o);

/*
 * Per strategy: median [min-max] GB/s, the per-round paired ratios to
 * mainline and to limit, rounds won; then which copy limit was.
 */
void copy_print_table(const struct copy_results *res);

/* strategy,page,gbps,round (every run, limit's too) to o->raw; 0 or -1. */
int copy_write_raw(const struct opts *o, const struct copy_results *res);

#endif
