/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every part of clearbench shares, the lowest layer: sizes, the page
 * sizes and their names, the options, note(), tap() and medians. It uses
 * no other file of clearbench; every other file may use it.
 */
#ifndef CLEARBENCH_COMMON_H
#define CLEARBENCH_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define SZ_4K	(4096UL)
#define SZ_2M	(2UL << 20)
#define SZ_32M	(32UL << 20)
#define SZ_1G	(1UL << 30)

#define MAX_ROUNDS	1000

#define NR_PAGES	2
extern const size_t page_sizes[NR_PAGES];	/* 2M, 1G */

static inline const char *page_name(size_t page)
{
	return page == SZ_1G ? "1G" : "2M";
}

/* -B: what backs the buffer (see hugemem.c). */
enum backing_mode {
	BACKING_AUTO,		/* hugetlb, else THP */
	BACKING_HUGETLB,	/* hugetlb or fail */
	BACKING_THP,		/* THP only, never touch the hugetlb pool */
};

/* The strategies' indices; strategies.c has the table they index. */
enum {
	/* What the options and CSVs can name. */
	S_MAINLINE, S_MULTI, S_CHUNKED, S_NT, S_DEFAULT, S_LIMIT, S_REP, S_ORIG,
	S_CLZERO, S_MOVDIR64B, S_HOST_FAULT, S_UNITS,
	NR_NAMED,
	/* Candidates for limit, which stand in for it in the runs. */
	S_AVX512_NT = NR_NAMED, S_AVX2_NT, S_MOVNTI, S_AVX512, S_AVX2,
	NR_STRATEGIES
};

/* The copy strategies' indices (-C); copy.c has the table they index. */
enum {
	C_MAINLINE, C_COPY_PAGE, C_DEFAULT, C_UNITS, C_MOVSB, C_MOVSB_CALLS, C_MOVSQ, C_REGS,
	C_MC_FRAGILE, C_MC_NT, C_MOVNTI, C_AVX512_NT, C_MOVDIR64B, C_HOST_COW, C_LIMIT,
	NR_COPY
};

struct opts {
	size_t size;
	int rounds;
	int cpu;
	size_t nt_thresh;	/* default: runs longer than this bypass */
	char nt_src[64];	/* "-t SIZE" or "the policy's" */
	const char *csv;
	const char *raw;
	const char *ratios;
	bool want_page[NR_PAGES];
	bool want[NR_STRATEGIES];
	bool want_copy[NR_COPY];
	enum backing_mode backing;
	bool verify;
	bool copy;		/* -C: the copy strategies, not the clear ones */
	bool writers;		/* -W: one writer against two */
	size_t copy_unit;	/* -u: units' call length (clears and copies),
				   0: the tree's (copies), 32 MiB (clears) */
};

/* Informational lines; prefixed with "# " in -V mode to stay out of TAP. */
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void note_prefix(const char *prefix);

/* -V: one TAP test line, "ok N ..." or "not ok N ...", numbered in order. */
void tap(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * -V: the plan "1..N" after the last test line; 1 (with a line on stderr)
 * if any test failed, else 0.
 */
int tap_plan(void);

/* Per-round paired ratios of one method to another, summed up. */
struct ratio_stats {
	double median, min, max;
	int won;	/* rounds in which it was the fastest of all methods */
	int rounds;	/* rounds with both figures */
};

/* Median of the @n values at @v (which it sorts); NAN if @n is 0. */
double median_of(double *v, int n);

/*
 * Fill @st's rounds, min, max and median from the @n per-round ratios at
 * @ratio (which it sorts); false if @n is 0.
 */
bool ratio_summary(double *ratio, int n, struct ratio_stats *st);

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t now_ns(void);

/*
 * Room for one more element in @arr of @nr used of *@cap, each @size
 * bytes: doubles the array when full; exits on failure.
 */
void *grow_array(void *arr, size_t *cap, size_t nr, size_t size);

#endif
