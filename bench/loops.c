// SPDX-License-Identifier: GPL-2.0
/*
 * Store loops of clearbench's own, to see how fast this CPU can zero
 * memory at all: the "limit" strategy runs each one the CPU has and keeps
 * the fastest of them and of everything else measured. movnti_clear() and
 * clzero_clear() also stand in for clear_pages_nt() and
 * clear_pages_clzero() when the tree has none. The MOVDIR64B clear and
 * copy, references the tree has no routine for. Then the copy side's own
 * candidate, an AVX-512 non-temporal copy, and at the end, the user's
 * passes over the cleared buffer.
 */
#include <immintrin.h>

#include "loops.h"
#include "probe.h"

/* MOVNTI, 64 bytes an iteration: clear_pages_nt() when the tree has none. */
void movnti_clear(void *addr, unsigned long len)
{
	long long *p = addr, *end = (long long *)((char *)addr + len);

	for (; p < end; p += 8) {
		_mm_stream_si64(p + 0, 0);
		_mm_stream_si64(p + 1, 0);
		_mm_stream_si64(p + 2, 0);
		_mm_stream_si64(p + 3, 0);
		_mm_stream_si64(p + 4, 0);
		_mm_stream_si64(p + 5, 0);
		_mm_stream_si64(p + 6, 0);
		_mm_stream_si64(p + 7, 0);
	}
	_mm_sfence();
}

__attribute__((target("avx2")))
void avx2_nt_clear(void *addr, unsigned long len)
{
	__m256i z = _mm256_setzero_si256(), *p = addr;
	__m256i *end = (__m256i *)((char *)addr + len);

	for (; p < end; p += 4) {
		_mm256_stream_si256(p + 0, z);
		_mm256_stream_si256(p + 1, z);
		_mm256_stream_si256(p + 2, z);
		_mm256_stream_si256(p + 3, z);
	}
	_mm_sfence();
}

__attribute__((target("avx512f")))
void avx512_nt_clear(void *addr, unsigned long len)
{
	__m512i z = _mm512_setzero_si512(), *p = addr;
	__m512i *end = (__m512i *)((char *)addr + len);

	for (; p < end; p += 4) {
		_mm512_stream_si512(p + 0, z);
		_mm512_stream_si512(p + 1, z);
		_mm512_stream_si512(p + 2, z);
		_mm512_stream_si512(p + 3, z);
	}
	_mm_sfence();
}

/* Plain (temporal) vector stores, in case they beat streaming here. */
__attribute__((target("avx2")))
void avx2_clear(void *addr, unsigned long len)
{
	__m256i z = _mm256_setzero_si256(), *p = addr;
	__m256i *end = (__m256i *)((char *)addr + len);

	for (; p < end; p += 4) {
		_mm256_store_si256(p + 0, z);
		_mm256_store_si256(p + 1, z);
		_mm256_store_si256(p + 2, z);
		_mm256_store_si256(p + 3, z);
	}
}

__attribute__((target("avx512f")))
void avx512_clear(void *addr, unsigned long len)
{
	__m512i z = _mm512_setzero_si512(), *p = addr;
	__m512i *end = (__m512i *)((char *)addr + len);

	for (; p < end; p += 4) {
		_mm512_store_si512(p + 0, z);
		_mm512_store_si512(p + 1, z);
		_mm512_store_si512(p + 2, z);
		_mm512_store_si512(p + 3, z);
	}
}

/*
 * CLZERO zeroes the cache line that rAX points into, 64 bytes an
 * instruction, unrolled eight times. Its stores are weakly ordered, as
 * MOVNTI's: SFENCE at the end. Spelt as bytes for older assemblers.
 */
#define CLZERO_INSN	".byte 0x0f, 0x01, 0xfc\n\t"
#define CLZERO_NEXT	CLZERO_INSN "addq $64, %%rax\n\t"

void clzero_clear(void *addr, unsigned long len)
{
	unsigned long n = len / 512;

	if (!n)
		return;
	asm volatile("1:\n\t"
		     CLZERO_NEXT CLZERO_NEXT CLZERO_NEXT CLZERO_NEXT
		     CLZERO_NEXT CLZERO_NEXT CLZERO_NEXT CLZERO_NEXT
		     "decq %1\n\t"
		     "jnz 1b\n\t"
		     "sfence"
		     : "+a" (addr), "+r" (n)
		     :
		     : "memory", "cc");
}

/*
 * MOVDIR64B: a 64-byte direct store of the 64 bytes at the source operand
 * (any alignment) to the 64-byte aligned destination, written as one
 * 64-byte write with write-combining semantics: a write-back destination
 * line is written back and invalidated from the caches first, so it is
 * non-temporal, as MOVNTI and CLZERO are. The source is a memory operand,
 * not a vector register: a kernel loop of it needs no kernel_fpu_begin()
 * and may be preempted. The stores are weakly ordered: SFENCE at the end.
 * Spelt as bytes, as the kernel's movdir64b() does: 66 0f 38 f8 02 is
 * movdir64b (%rdx), %rax. Eight lines an iteration (as CLZERO's loop),
 * then the odd lines one at a time.
 */
#define MOVDIR64B_INSN	".byte 0x66, 0x0f, 0x38, 0xf8, 0x02\n\t"
/* The clear: the destination steps, the source stays on the zero line. */
#define MOVDIR64B_CLEAR	MOVDIR64B_INSN "addq $64, %%rax\n\t"
/* The copy: both step. */
#define MOVDIR64B_COPY	MOVDIR64B_INSN "addq $64, %%rax\n\taddq $64, %%rdx\n\t"

static const unsigned char zero_line[64] __attribute__((aligned(64)));

void movdir64b_clear(void *addr, unsigned long len)
{
	unsigned long n8 = len / 512, n1 = len / 64 % 8;

	asm volatile("testq %1, %1\n\t"
		     "jz 2f\n\t"
		     "1:\n\t"
		     MOVDIR64B_CLEAR MOVDIR64B_CLEAR MOVDIR64B_CLEAR MOVDIR64B_CLEAR
		     MOVDIR64B_CLEAR MOVDIR64B_CLEAR MOVDIR64B_CLEAR MOVDIR64B_CLEAR
		     "decq %1\n\t"
		     "jnz 1b\n\t"
		     "2:\n\t"
		     "testq %2, %2\n\t"
		     "jz 4f\n\t"
		     "3:\n\t"
		     MOVDIR64B_CLEAR
		     "decq %2\n\t"
		     "jnz 3b\n\t"
		     "4:\n\t"
		     "sfence"
		     : "+a" (addr), "+r" (n8), "+r" (n1)
		     : "d" (zero_line), "m" (zero_line)
		     : "memory", "cc");
}

void movdir64b_copy(void *to, const void *from, unsigned long len)
{
	unsigned long n8 = len / 512, n1 = len / 64 % 8;

	asm volatile("testq %2, %2\n\t"
		     "jz 2f\n\t"
		     "1:\n\t"
		     MOVDIR64B_COPY MOVDIR64B_COPY MOVDIR64B_COPY MOVDIR64B_COPY
		     MOVDIR64B_COPY MOVDIR64B_COPY MOVDIR64B_COPY MOVDIR64B_COPY
		     "decq %2\n\t"
		     "jnz 1b\n\t"
		     "2:\n\t"
		     "testq %3, %3\n\t"
		     "jz 4f\n\t"
		     "3:\n\t"
		     MOVDIR64B_COPY
		     "decq %3\n\t"
		     "jnz 3b\n\t"
		     "4:\n\t"
		     "sfence"
		     : "+a" (to), "+d" (from), "+r" (n8), "+r" (n1)
		     :
		     : "memory", "cc");
}

/*
 * The shape a kernel non-temporal copy could take without FPU state:
 * 64 bytes an iteration through eight general registers, plain loads (an
 * exception table can cover each, as copy_mc_fragile()'s, so the shape
 * can be made machine-check safe), MOVNTI stores, then SFENCE.
 */
void movnti_copy(void *to, const void *from, unsigned long len)
{
	const long long *s = from;
	long long *d = to, *end = (long long *)((char *)to + len);

	for (; d < end; d += 8, s += 8) {
		long long a = s[0], b = s[1], c = s[2], e = s[3];
		long long f = s[4], g = s[5], h = s[6], i = s[7];

		_mm_stream_si64(d + 0, a);
		_mm_stream_si64(d + 1, b);
		_mm_stream_si64(d + 2, c);
		_mm_stream_si64(d + 3, e);
		_mm_stream_si64(d + 4, f);
		_mm_stream_si64(d + 5, g);
		_mm_stream_si64(d + 6, h);
		_mm_stream_si64(d + 7, i);
	}
	_mm_sfence();
}

/*
 * The copy side's limit candidate: 256 bytes an iteration, plain loads
 * (the hardware prefetchers see one stream), non-temporal stores, as the
 * destination of a copied huge page is not about to be read back whole.
 */
__attribute__((target("avx512f")))
void avx512_nt_copy(void *to, const void *from, unsigned long len)
{
	const __m512i *s = from;
	__m512i *d = to, *end = (__m512i *)((char *)to + len);
	__m512i a, b, c, e;

	for (; d < end; d += 4, s += 4) {
		a = _mm512_load_si512(s + 0);
		b = _mm512_load_si512(s + 1);
		c = _mm512_load_si512(s + 2);
		e = _mm512_load_si512(s + 3);
		_mm512_stream_si512(d + 0, a);
		_mm512_stream_si512(d + 1, b);
		_mm512_stream_si512(d + 2, c);
		_mm512_stream_si512(d + 3, e);
	}
	_mm_sfence();
}

/* ---- the user's passes ---- */

/*
 * The stores go through volatile pointers, so that the compiler can
 * neither turn the loops into a memset() call (which may bypass the
 * cache) nor drop them.
 */
__attribute__((target("avx512f")))
static void user_write_avx512(void *addr, unsigned long len)
{
	__m512i v = _mm512_set1_epi8(USER_PATTERN);
	volatile __m512i *p = addr, *end = (__m512i *)((char *)addr + len);

	for (; p < end; p += 4) {
		p[0] = v;
		p[1] = v;
		p[2] = v;
		p[3] = v;
	}
}

__attribute__((target("avx2")))
static void user_write_avx2(void *addr, unsigned long len)
{
	__m256i v = _mm256_set1_epi8(USER_PATTERN);
	volatile __m256i *p = addr, *end = (__m256i *)((char *)addr + len);

	for (; p < end; p += 4) {
		p[0] = v;
		p[1] = v;
		p[2] = v;
		p[3] = v;
	}
}

static void user_write_sse2(void *addr, unsigned long len)
{
	__m128i v = _mm_set1_epi8(USER_PATTERN);
	volatile __m128i *p = addr, *end = (__m128i *)((char *)addr + len);

	for (; p < end; p += 4) {
		p[0] = v;
		p[1] = v;
		p[2] = v;
		p[3] = v;
	}
}

/* Four independent sums, so that the loads are not serialised on one. */
__attribute__((target("avx512f")))
static uint64_t user_read_avx512(const void *addr, unsigned long len)
{
	const __m512i *p = addr, *end = (const __m512i *)((const char *)addr + len);
	__m512i a = _mm512_setzero_si512(), b = a, c = a, d = a;

	for (; p < end; p += 4) {
		a = _mm512_add_epi64(a, _mm512_load_si512(p + 0));
		b = _mm512_add_epi64(b, _mm512_load_si512(p + 1));
		c = _mm512_add_epi64(c, _mm512_load_si512(p + 2));
		d = _mm512_add_epi64(d, _mm512_load_si512(p + 3));
	}
	a = _mm512_add_epi64(_mm512_add_epi64(a, b), _mm512_add_epi64(c, d));
	return _mm512_reduce_add_epi64(a);
}

__attribute__((target("avx2")))
static uint64_t user_read_avx2(const void *addr, unsigned long len)
{
	const __m256i *p = addr, *end = (const __m256i *)((const char *)addr + len);
	__m256i a = _mm256_setzero_si256(), b = a, c = a, d = a;
	__m128i s;

	for (; p < end; p += 4) {
		a = _mm256_add_epi64(a, _mm256_load_si256(p + 0));
		b = _mm256_add_epi64(b, _mm256_load_si256(p + 1));
		c = _mm256_add_epi64(c, _mm256_load_si256(p + 2));
		d = _mm256_add_epi64(d, _mm256_load_si256(p + 3));
	}
	a = _mm256_add_epi64(_mm256_add_epi64(a, b), _mm256_add_epi64(c, d));
	s = _mm_add_epi64(_mm256_castsi256_si128(a),
			  _mm256_extracti128_si256(a, 1));
	return _mm_cvtsi128_si64(s) + _mm_extract_epi64(s, 1);
}

static uint64_t user_read_sse2(const void *addr, unsigned long len)
{
	const __m128i *p = addr, *end = (const __m128i *)((const char *)addr + len);
	__m128i a = _mm_setzero_si128(), b = a, c = a, d = a;

	for (; p < end; p += 4) {
		a = _mm_add_epi64(a, _mm_load_si128(p + 0));
		b = _mm_add_epi64(b, _mm_load_si128(p + 1));
		c = _mm_add_epi64(c, _mm_load_si128(p + 2));
		d = _mm_add_epi64(d, _mm_load_si128(p + 3));
	}
	a = _mm_add_epi64(_mm_add_epi64(a, b), _mm_add_epi64(c, d));
	return _mm_cvtsi128_si64(a) + _mm_cvtsi128_si64(_mm_unpackhi_epi64(a, a));
}

struct user_pass {
	const char *isa;
	void (*write)(void *addr, unsigned long len);
	uint64_t (*read)(const void *addr, unsigned long len);
};

static const struct user_pass *user_pass(void)
{
	static const struct user_pass passes[] = {
		{ "avx512f", user_write_avx512, user_read_avx512 },
		{ "avx2", user_write_avx2, user_read_avx2 },
		{ "sse2", user_write_sse2, user_read_sse2 },
	};
	static const struct user_pass *up;
	unsigned int i = 0;

	/* The widest the CPU has; every x86-64 CPU has the last, SSE2. */
	if (!up) {
		while (!cpu_has(passes[i].isa))
			i++;
		up = &passes[i];
	}
	return up;
}

void user_write(void *addr, unsigned long len)
{
	user_pass()->write(addr, len);
}

uint64_t user_read(const void *addr, unsigned long len)
{
	return user_pass()->read(addr, len);
}

const char *user_pass_isa(void)
{
	return user_pass()->isa;
}
