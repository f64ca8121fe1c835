/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for <asm/cpufeatures.h>, for the tree's
 * arch/x86/lib/copy_page_64.S. A feature is not a bit number here but a
 * byte that clearbench sets (copy.c, from the host's /proc/cpuinfo)
 * before it calls anything, which the ALTERNATIVE of shim/asm/alternative.h
 * tests at run time. Only the features the .S files use are defined, so
 * that a new one fails to link rather than being taken as absent.
 */
#ifndef CLEARBENCH_SHIM_ASM_CPUFEATURES_H
#define CLEARBENCH_SHIM_ASM_CPUFEATURES_H

#define X86_FEATURE_REP_GOOD	clearbench_x86_rep_good
#define X86_FEATURE_ERMS	clearbench_x86_erms

#endif
