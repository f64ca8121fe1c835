/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for what folio_zero_user_ranges() in mm/memory.c
 * needs, for compiling the function as the Makefile extracts it from a
 * tree (build/kernel_split.c): VISIBLE_IF_KUNIT makes it visible, min()
 * is the plain one, and struct folio_zero_range and the prototype come
 * from split.h, so that the compiler checks the tree's definition
 * against them.
 */
#ifndef CLEARBENCH_SHIM_KERNEL_SPLIT_H
#define CLEARBENCH_SHIM_KERNEL_SPLIT_H

#include "split.h"

#define VISIBLE_IF_KUNIT
#define min(a, b)	((a) < (b) ? (a) : (b))

#endif
