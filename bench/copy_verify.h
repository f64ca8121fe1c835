/* SPDX-License-Identifier: GPL-2.0 */
/*
 * -V: check that every copy strategy makes an exact copy and writes
 * nothing outside the destination. TAP lines on stdout.
 */
#ifndef CLEARBENCH_COPY_VERIFY_H
#define CLEARBENCH_COPY_VERIFY_H

#include "common.h"

/* The copy side's checks, as TAP lines (tap()). */
void verify_copy(const struct opts *o);

#endif
