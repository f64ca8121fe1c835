// SPDX-License-Identifier: GPL-2.0
/*
 * Store loops of clearbench's own, to see how fast this CPU can zero
 * memory at all: the "limit" strategy runs each one the CPU has and keeps
 * the fastest. movnti_clear() also stands in for clear_pages_nt() when
 * the tree has none.
 */
#include <immintrin.h>

#include "loops.h"

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
