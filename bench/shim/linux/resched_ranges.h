/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User space shim: the kernel's preemptible instruction ranges mean
 * nothing here, so RESCHED_RANGE registers nothing.
 */
#ifndef _SHIM_LINUX_RESCHED_RANGES_H
#define _SHIM_LINUX_RESCHED_RANGES_H
.macro RESCHED_RANGE from, to
.endm
#endif
