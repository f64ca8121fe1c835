/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Store loops of clearbench's own: the candidates for the "limit"
 * strategy (and one copy loop, the copy side's), the MOVDIR64B clear and
 * copy loops (references: the tree has no such routine), the MOVNTI and
 * CLZERO loops that stand in for clear_pages_nt()
 * and clear_pages_clzero() when the tree has none, and the passes of "the
 * user" after the clear. Same contract as the kernel's clear_pages_*(): zero
 * @len bytes at @addr, @len a multiple of 4096, @addr 64-byte aligned.
 * The AVX, CLZERO and MOVDIR64B ones must only be called if the CPU has
 * the feature.
 */
#ifndef CLEARBENCH_LOOPS_H
#define CLEARBENCH_LOOPS_H

#include <stdint.h>

/* Non-temporal (streaming) stores, then SFENCE. */
void movnti_clear(void *addr, unsigned long len);
void avx2_nt_clear(void *addr, unsigned long len);
void avx512_nt_clear(void *addr, unsigned long len);

/* Plain (temporal) vector stores. */
void avx2_clear(void *addr, unsigned long len);
void avx512_clear(void *addr, unsigned long len);

/* CLZERO, one 64-byte line an instruction, then SFENCE. */
void clzero_clear(void *addr, unsigned long len);

/*
 * MOVDIR64B (CPUID 7.0 ECX bit 28), one 64-byte direct store an
 * instruction, then SFENCE: the clear stores a 64-byte aligned line of
 * zeros to each line of @addr; the copy stores each line of @from, in
 * order, to the line of @to at the same offset. No vector registers: the
 * source is a memory operand. Unlike the others here these take any @len
 * that is a multiple of 64 (the kernel's callers would pass whole pages);
 * @addr and @to must be 64-byte aligned (the instruction faults
 * otherwise), @from need not be.
 */
void movdir64b_clear(void *addr, unsigned long len);
void movdir64b_copy(void *to, const void *from, unsigned long len);

/*
 * A copy of @len bytes, a multiple of 64, with general-register loads and
 * MOVNTI stores, then SFENCE: what the kernel could do in a preemptible
 * section (no FPU state), and make machine-check safe with an exception
 * table entry on each load. Not in any tree: a reference.
 */
void movnti_copy(void *to, const void *from, unsigned long len);

/*
 * The copy strategies' own candidate for the fastest copy: copy @len
 * bytes, a multiple of 4096, from @from to @to (both 64-byte aligned, not
 * overlapping) with AVX-512 loads and non-temporal stores, then SFENCE.
 */
void avx512_nt_copy(void *to, const void *from, unsigned long len);

/*
 * "The user" after the fault, as fast as a real program: the widest
 * vector loads and stores the CPU has (AVX-512, else AVX2, else SSE2).
 * user_write() stores USER_PATTERN to every byte; user_read() loads every
 * byte and returns the sum of the 8-byte words (mod 2^64), so that no
 * compiler can drop the loads. user_pass_isa() says which ISA they use.
 */
#define USER_PATTERN	0x01
void user_write(void *addr, unsigned long len);
uint64_t user_read(const void *addr, unsigned long len);
const char *user_pass_isa(void);

#endif
