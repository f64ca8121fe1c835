/* SPDX-License-Identifier: GPL-2.0 */
/*
 * -V: check the orders and the split cover every subpage once, and that
 * every strategy leaves the buffer all zero. TAP lines on stdout; the
 * driver prints the plan (tap_plan()).
 */
#ifndef CLEARBENCH_VERIFY_H
#define CLEARBENCH_VERIFY_H

#include "common.h"

/* The clear side's checks, as TAP lines (tap()). */
void verify(const struct opts *o);

#endif
