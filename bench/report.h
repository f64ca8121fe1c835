/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What clearbench prints and writes: the header, the table of medians,
 * the summary and raw CSVs. (note() is in common.h.)
 */
#ifndef CLEARBENCH_REPORT_H
#define CLEARBENCH_REPORT_H

#include "common.h"
#include "measure.h"

/* The host, the tree and the settings of this run. */
void print_header(const struct opts *o);

/*
 * Medians of every strategy measured, then their per-round paired ratios
 * to mainline and to the best method of the round, then which method
 * limit was.
 */
void print_table(const struct results *res);

/* strategy,page,gbps,e2e_gbps (medians) to o->csv; 0 or -1. */
int write_csv(const struct opts *o, const struct results *res);

/* round,strategy,page,gbps,e2e_gbps,e2e_read_gbps (every run) to o->raw. */
int write_raw(const struct opts *o, const struct results *res);

/*
 * strategy,page,metric,vs,median,min,max,rounds_won,rounds to o->ratios:
 * the per-round paired ratios (see paired_ratio()), vs mainline and vs
 * best; 0 or -1.
 */
int write_ratios(const struct opts *o, const struct results *res);

#endif
