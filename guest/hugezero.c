// SPDX-License-Identifier: GPL-2.0
/*
 * hugezero: a huge page handed to user space must be all zeros.
 *
 * For each kind of huge page (hugetlb 2 MiB, hugetlb 1 GiB, THP), one
 * round of hugecheck.c: map some, fill them with a non-zero pattern and
 * unmap them, so that the pages go back to the pool or the buddy allocator
 * dirty. Then map the same amount again, take the first fault on each huge
 * page at a random subpage, so that folio_zero_user() gets a fault address
 * in the middle of the folio, and check every byte. Output is TAP, in
 * kselftest style.
 *
 * Usage: hugezero [-s seed]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"
#include "mm/vm_util.h"
#include "hugecheck.h"

#define PATTERN 0x5a
#define MAX_PAGES 16

struct kind {
	const char *name;
	struct hc_kind hc;
};

static const struct kind kinds[] = {
	{ "hugetlb_2M", { SZ_2M, 16, true } },
	{ "hugetlb_1G", { SZ_1G, 1, true } },
	{ "thp_2M", { SZ_2M, 16, false } },
};

struct result {
	const struct kind *k;
	size_t nonzero;		/* bytes */
	unsigned int lost;	/* markers that did not read back */
	unsigned int thp;	/* THP: regions that AnonHugePages shows */
};

static void check(const struct hc_page *pg, unsigned int i, void *arg)
{
	struct result *r = arg;

	r->nonzero += pg->nonzero;
	r->lost += pg->marker != HC_MARKER;
	if (!r->k->hc.hugetlb)
		r->thp += check_huge_anon(pg->addr, 1, r->k->hc.size);
}

static void test_kind(const struct kind *k)
{
	struct result r = { .k = k };
	size_t touch[MAX_PAGES];
	const char *what;
	unsigned int i;
	int err;

	for (i = 0; i < k->hc.npages; i++)
		touch[i] = (size_t)random() % (k->hc.size / SZ_4K) * SZ_4K + 123;
	err = hc_round(&k->hc, PATTERN, touch, check, &r, &what);
	if (err)
		ksft_test_result_fail("%s: %s of %u huge pages: %s\n", k->name,
				      what, k->hc.npages, strerror(-err));
	else if (r.nonzero || r.lost)
		ksft_test_result_fail("%s: %zu non-zero bytes, %u lost writes in %u huge pages\n",
				      k->name, r.nonzero, r.lost, k->hc.npages);
	else if (!k->hc.hugetlb && r.thp < k->hc.npages)
		/* named: kunit.py reads no "ok N # SKIP" without a name */
		ksft_test_result_code(KSFT_SKIP, k->name, "only %u of %u regions were THP",
				      r.thp, k->hc.npages);
	else
		ksft_test_result_pass("%s: %u huge pages all zero\n", k->name,
				      k->hc.npages);
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
