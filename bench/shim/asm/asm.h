/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for <asm/asm.h>. Exception table entries only
 * matter for faults on user addresses inside the kernel; clearbench
 * never calls the routines that carry them (rep_stos_alternative,
 * copy_mc_enhanced_fast_string) on memory that can fault or take a
 * machine check it could recover from, so the entries are dropped; so
 * are the kprobe blacklist entries of _ASM_NOKPROBE().
 */
#ifndef CLEARBENCH_SHIM_ASM_ASM_H
#define CLEARBENCH_SHIM_ASM_ASM_H

#define _ASM_EXTABLE(from, to)
#define _ASM_EXTABLE_UA(from, to)
#define _ASM_EXTABLE_TYPE(from, to, type)

/* No kprobes in user space: nothing to keep them off. */
#define _ASM_NOKPROBE(entry)

#endif
