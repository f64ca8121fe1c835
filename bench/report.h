/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What clearbench prints and writes: notes, the header, the table of
 * medians, the summary and raw CSVs.
 */
#ifndef CLEARBENCH_REPORT_H
#define CLEARBENCH_REPORT_H

#include "clearbench.h"
#include "measure.h"

/* Informational lines; prefixed with "# " in -V mode to stay out of TAP. */
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void note_prefix(const char *prefix);

/* The host, the tree and the settings of this run. */
void print_header(const struct opts *o);

/* Medians, and their ratios to mainline, of every strategy measured. */
void print_table(const struct results *res);

/* strategy,page,gbps,e2e_gbps (medians) to o->csv; 0 or -1. */
int write_csv(const struct opts *o, const struct results *res);

/* round,strategy,page,gbps,e2e_gbps (every run) to o->raw; 0 or -1. */
int write_raw(const struct opts *o, const struct results *res);

#endif
