/* SPDX-License-Identifier: GPL-2.0 */
/*
 * -V: check the orders cover every subpage once, and that every strategy
 * leaves the buffer all zero. TAP on stdout.
 */
#ifndef CLEARBENCH_VERIFY_H
#define CLEARBENCH_VERIFY_H

#include "common.h"

/* 0 if every check passed, 1 otherwise. */
int verify(const struct opts *o);

#endif
