// SPDX-License-Identifier: GPL-2.0
/*
 * What every part of clearbench shares (see common.h): the page sizes,
 * note(), the informational lines, with their prefix, tap(), the -V
 * test lines, and median_of().
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "common.h"

const size_t page_sizes[NR_PAGES] = { SZ_2M, SZ_1G };

static const char *prefix = "";

void note_prefix(const char *p)
{
	prefix = p;
}

void note(const char *fmt, ...)
{
	va_list ap;

	fputs(prefix, stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
}

static int tap_nr, tap_failed;

void tap(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d ", ok ? "" : "not ", ++tap_nr);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!ok)
		tap_failed++;
}

int tap_plan(void)
{
	printf("1..%d\n", tap_nr);
	fflush(stdout);
	if (tap_failed)
		fprintf(stderr, "clearbench: %d of %d checks FAILED\n",
			tap_failed, tap_nr);
	return tap_failed ? 1 : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double median_of(double *v, int n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(v[0]), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

void *grow_array(void *arr, size_t *cap, size_t nr, size_t size)
{
	if (nr < *cap)
		return arr;
	*cap = *cap ? 2 * *cap : 256;
	arr = realloc(arr, *cap * size);
	if (!arr) {
		perror("clearbench: realloc");
		exit(1);
	}
	return arr;
}

bool ratio_summary(double *ratio, int n, struct ratio_stats *st)
{
	int k;

	st->rounds = n;
	if (!n)
		return false;
	st->min = st->max = ratio[0];
	for (k = 1; k < n; k++) {
		if (ratio[k] < st->min)
			st->min = ratio[k];
		if (ratio[k] > st->max)
			st->max = ratio[k];
	}
	st->median = median_of(ratio, n);
	return true;
}
