/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CLEARBENCH_WRITERS_H
#define CLEARBENCH_WRITERS_H

#include "common.h"

/* -W: one writer against two, with the policy's cache-bypassing loop. */
int writers_run(const struct opts *o);

#endif
