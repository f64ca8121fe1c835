/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The routines clearbench takes from the kernel tree's
 * arch/x86/lib/clear_page_64.S. All of them zero @len bytes at @addr,
 * @len a multiple of 4096, and clobber rax and rcx (caller-saved here).
 * HAVE_CLEAR_PAGES: the tree has clear_pages_orig/rep/erms() (the Makefile
 * looks); without them, see below.
 */
#ifndef CLEARBENCH_CLEAR_PAGES_H
#define CLEARBENCH_CLEAR_PAGES_H

void clear_pages_orig(void *addr, unsigned long len);
void clear_pages_rep(void *addr, unsigned long len);
void clear_pages_erms(void *addr, unsigned long len);
#ifndef HAVE_CLEAR_PAGES
/*
 * A tree before the series has only these, which zero the 4 KiB page at
 * @page; strategies.c then makes the three above loops of them.
 */
void clear_page_orig(void *page);
void clear_page_rep(void *page);
void clear_page_erms(void *page);
#endif
#ifdef HAVE_CLEAR_PAGES_NT
void clear_pages_nt(void *addr, unsigned long len);
#endif
#ifdef HAVE_CLEAR_PAGES_CLZERO
void clear_pages_clzero(void *addr, unsigned long len);
#endif

#endif
