// SPDX-License-Identifier: GPL-2.0
/*
 * hugezero: a huge page handed to user space must be all zeros.
 *
 * For each kind of huge page (hugetlb 2 MiB, hugetlb 1 GiB, THP), map some,
 * fill them with a non-zero pattern and unmap them, so that the pages go
 * back to the pool or the buddy allocator dirty. Then map the same amount
 * again, take the first fault on each huge page at a random subpage, so
 * that folio_zero_user() gets a fault address in the middle of the folio,
 * and check every byte. Output is TAP, in kselftest style.
 *
 * Usage: hugezero [-s seed]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kselftest.h"

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif
#define MAP_HUGE_2MB (21 << MAP_HUGE_SHIFT)
#define MAP_HUGE_1GB (30 << MAP_HUGE_SHIFT)

#define SZ_2M (2UL << 20)
#define SZ_1G (1UL << 30)
#define PATTERN 0x5a

struct kind {
	const char *name;
	size_t page_size;	/* huge page size */
	size_t npages;		/* huge pages per round */
	int mmap_flags;		/* 0: THP via madvise() */
};

static const struct kind kinds[] = {
	{ "hugetlb_2M", SZ_2M, 16, MAP_HUGETLB | MAP_HUGE_2MB },
	{ "hugetlb_1G", SZ_1G, 1, MAP_HUGETLB | MAP_HUGE_1GB },
	{ "thp_2M", SZ_2M, 16, 0 },
};

/* Map len bytes aligned to align; THP needs a PMD-aligned range. */
static char *map_aligned(size_t len, size_t align, int flags)
{
	char *p, *a;

	if (flags)
		return mmap(NULL, len, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0);
	p = mmap(NULL, len + align, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return p;
	a = (char *)(((uintptr_t)p + align - 1) & ~(align - 1));
	if (a > p)
		munmap(p, a - p);
	munmap(a + len, p + align - a);
	if (madvise(a, len, MADV_HUGEPAGE)) {
		ksft_print_msg("madvise(MADV_HUGEPAGE): %s\n", strerror(errno));
		munmap(a, len);
		return MAP_FAILED;
	}
	return a;
}

/* AnonHugePages of this process, in kB, or -1. */
static long anon_huge_kb(void)
{
	FILE *f = fopen("/proc/self/smaps_rollup", "r");
	char line[256];
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

static size_t count_nonzero(const char *p, size_t len)
{
	const uint64_t *w = (const uint64_t *)p;
	size_t i, j, bad = 0;

	for (i = 0; i < len / 8; i++) {
		if (!w[i])
			continue;
		for (j = 0; j < 8; j++)
			bad += p[i * 8 + j] != 0;
	}
	return bad;
}

static void test_kind(const struct kind *k)
{
	size_t len = k->page_size * k->npages, bad = 0, i;
	char *p;
	long thp_kb = 0;

	/* Dirty the pages, then give them back. */
	p = map_aligned(len, k->page_size, k->mmap_flags);
	if (p == MAP_FAILED) {
		ksft_test_result_fail("%s: setup mmap of %zu bytes: %s\n",
				      k->name, len, strerror(errno));
		return;
	}
	memset(p, PATTERN, len);
	munmap(p, len);

	/* Fault them again, first touch at a random subpage of each. */
	p = map_aligned(len, k->page_size, k->mmap_flags);
	if (p == MAP_FAILED) {
		ksft_test_result_fail("%s: mmap of %zu bytes: %s\n",
				      k->name, len, strerror(errno));
		return;
	}
	for (i = 0; i < k->npages; i++) {
		size_t sub = (size_t)random() % (k->page_size / 4096);

		/* A write fault: a read would map THP's huge zero page. */
		*(volatile char *)(p + i * k->page_size + sub * 4096 + 123) = 0;
	}
	if (!k->mmap_flags)
		thp_kb = anon_huge_kb();
	bad = count_nonzero(p, len);
	munmap(p, len);

	if (!k->mmap_flags && thp_kb < (long)(len >> 10)) {
		ksft_test_result_skip("%s: only %ld kB of %zu kB were THP\n",
				      k->name, thp_kb, len >> 10);
		return;
	}
	if (bad)
		ksft_test_result_fail("%s: %zu non-zero bytes in %zu huge pages\n",
				      k->name, bad, k->npages);
	else
		ksft_test_result_pass("%s: %zu huge pages all zero\n",
				      k->name, k->npages);
}

int main(int argc, char **argv)
{
	unsigned int seed = getpid() ^ (unsigned int)time(NULL);
	unsigned int i;
	int opt;

	while ((opt = getopt(argc, argv, "s:")) != -1) {
		if (opt != 's')
			ksft_exit_fail_msg("usage: %s [-s seed]\n", argv[0]);
		seed = strtoul(optarg, NULL, 0);
	}
	srandom(seed);
	ksft_print_header();
	ksft_print_msg("seed %u\n", seed);
	ksft_set_plan(ARRAY_SIZE(kinds));
	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		test_kind(&kinds[i]);
	ksft_finished();
}
