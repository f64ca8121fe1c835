/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Store loops of clearbench's own: the candidates for the "limit"
 * strategy, and the MOVNTI loop that stands in for clear_pages_nt() when
 * the tree has none. Same contract as the kernel's clear_pages_*(): zero
 * @len bytes at @addr, @len a multiple of 4096, @addr 64-byte aligned.
 * The AVX ones must only be called if the CPU has the feature.
 */
#ifndef CLEARBENCH_LOOPS_H
#define CLEARBENCH_LOOPS_H

/* Non-temporal (streaming) stores, then SFENCE. */
void movnti_clear(void *addr, unsigned long len);
void avx2_nt_clear(void *addr, unsigned long len);
void avx512_nt_clear(void *addr, unsigned long len);

/* Plain (temporal) vector stores. */
void avx2_clear(void *addr, unsigned long len);
void avx512_clear(void *addr, unsigned long len);

#endif
