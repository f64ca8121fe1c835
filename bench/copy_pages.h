/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The copy routines clearbench takes from the kernel tree: from
 * arch/x86/lib/copy_page_64.S, copy_page() (4 KiB; REP MOVSQ, or its
 * register loop copy_page_regs without REP_GOOD, chosen by the
 * ALTERNATIVE of shim/asm/alternative.h on the feature bytes below) and,
 * where the tree has the series (HAVE_COPY_PAGES), copy_pages_regs(),
 * copy_pages_movsq() and copy_pages_movsb(), which copy @len bytes, a
 * multiple of 4096 (0 copies nothing); from arch/x86/lib/copy_mc_64.S,
 * copy_mc_enhanced_fast_string() (REP MOVSB of @len bytes; returns the
 * bytes not copied after a machine check, 0 here), which 6.12's
 * copy_mc_to_kernel() uses on ERMS CPUs, and where the tree has it
 * (HAVE_COPY_MC_FRAGILE; assembled with CONFIG_X86_MCE),
 * copy_mc_fragile(), the 8-byte register loop copy_mc_to_kernel() uses
 * on the CPUs whose machine check code asks for it (its exception table
 * makes every load machine-check safe); from copy_page_64.S, where the
 * tree has it (HAVE_COPY_MC_PAGES_NT; assembled with
 * CONFIG_ARCH_HAS_COPY_MC), copy_mc_pages_nt(), the MOVNTI loop of
 * copy_mc_pages_nocache(). None of them may overlap.
 */
#ifndef CLEARBENCH_COPY_PAGES_H
#define CLEARBENCH_COPY_PAGES_H

void copy_page(void *to, void *from);
/*
 * The kernel declares @len unsigned; it is unsigned long here so that the
 * upper half of rdx, which the routine reads whole, is defined.
 */
unsigned long copy_mc_enhanced_fast_string(void *to, const void *from,
					   unsigned long len);

#ifdef HAVE_COPY_MC_FRAGILE
unsigned long copy_mc_fragile(void *to, const void *from, unsigned int len);
/*
 * Where copy_mc_fragile() goes after a fault on a store: never here
 * (clearbench's buffers do not fault), so it aborts.
 */
unsigned long copy_mc_fragile_handle_tail(char *to, char *from,
					  unsigned int len);
#endif

#ifdef HAVE_COPY_MC_PAGES_NT
/*
 * The series' copy around the caches (copy_mc_pages_nocache()): MOVNTI,
 * machine-check safe loads; returns the bytes not copied, 0 here.
 */
unsigned long copy_mc_pages_nt(void *to, const void *from, unsigned long len);
#endif

#ifdef HAVE_COPY_PAGES
void copy_pages_regs(void *to, const void *from, unsigned long len);
void copy_pages_movsq(void *to, const void *from, unsigned long len);
void copy_pages_movsb(void *to, const void *from, unsigned long len);
#endif

/* The features the ALTERNATIVEs test: non-zero if the CPU has them. */
extern unsigned char clearbench_x86_rep_good;
extern unsigned char clearbench_x86_erms;

#endif
