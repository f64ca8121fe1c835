/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The routines clearbench takes from the kernel tree's
 * arch/x86/lib/clear_page_64.S. All of them zero @len bytes at @addr,
 * @len a multiple of 4096, and clobber rax and rcx (caller-saved here).
 */
#ifndef CLEARBENCH_CLEAR_PAGES_H
#define CLEARBENCH_CLEAR_PAGES_H

void clear_pages_orig(void *addr, unsigned long len);
void clear_pages_rep(void *addr, unsigned long len);
void clear_pages_erms(void *addr, unsigned long len);
#ifdef HAVE_CLEAR_PAGES_NT
void clear_pages_nt(void *addr, unsigned long len);
#endif
#ifdef HAVE_CLEAR_PAGES_CLZERO
void clear_pages_clzero(void *addr, unsigned long len);
#endif

#endif
