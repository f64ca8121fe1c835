// SPDX-License-Identifier: GPL-2.0
/*
 * zerobench: hugetlb faults from a pool cleared beforehand against faults
 * that clear, and one writer of zero_free_hugepages against two.
 *
 * For 2 MiB pages (32 a round) and 1 GiB pages (every free one, two in the
 * guest): each round first dirties every free page of the pool (maps them,
 * fills them, unmaps them), then times the faults of the round's pages,
 * either as they are (the fault clears) or after asking the pool to clear
 * them (zero_free_hugepages, timed on its own). Faults are taken two ways:
 * "demand", a write to each page at a random byte, and "populate",
 * MADV_POPULATE_WRITE over the mapping, as QEMU and cloud-hypervisor
 * prefault guest memory. The two kinds of round alternate, and each
 * round's speedup is the cleared round's time over the zeroed round's.
 *
 * Writers: the dirty 1 GiB pool (2 MiB if it has fewer than two pages)
 * cleared by one task asking for all of it, then by two tasks at once,
 * one per CPU, each asking for half; the speedup is one writer's time
 * over the two writers' wall time. 1 GiB pages, so that the clearing,
 * not the cost of a request, is what is timed.
 *
 * Prints TAP; before each result, measurements as "# key: value": for
 * faults PAGE_MODE_{cleared_s,zeroed_s,request_s} (medians) and
 * PAGE_MODE_speedup{,_min,_max}; for writers writers_{one_s,two_s} and
 * writers_speedup{,_min,_max}. A kernel without zero_free_hugepages skips
 * everything. Under QEMU TCG the times show structure only.
 *
 * With -l SECONDS, only a load for the latency test instead: for that
 * long, dirty every free 1 GiB page and ask the pool to clear them all,
 * in a loop; prints "# zeroer: N pages cleared in T s" and exits 1 if it
 * cleared none. SIGTERM ends the loop early, after the request under way
 * (a caught signal is not fatal, so it does not cut the request short).
 *
 * Usage: zerobench [-r rounds] | -l seconds
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/mman.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"
#include "hugecheck.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#define MAX_ROUNDS	15
#define ZERO_FILE	"/sys/kernel/mm/hugepages/hugepages-%zukB/zero_free_hugepages"

enum mode { DEMAND, POPULATE, NR_MODES };
static const char *const mode_names[] = { "demand", "populate" };

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *size_name(size_t size)
{
	return size == SZ_1G ? "1G" : "2M";
}

static int zero_request(size_t size, long n)
{
	char path[128], val[32];

	snprintf(path, sizeof(path), ZERO_FILE, size >> 10);
	snprintf(val, sizeof(val), "%ld", n);
	return write_str(path, val);
}

/* The faults of n pages, timed; -1 on failure. */
static double faults(size_t size, long n, enum mode m)
{
	char *p = hugetlb_map(size, n);
	double t0, t;
	long k;

	if (!p)
		return -1;
	t0 = now();
	if (m == POPULATE) {
		if (madvise(p, size * n, MADV_POPULATE_WRITE)) {
			munmap(p, size * n);
			return -1;
		}
	} else {
		for (k = 0; k < n; k++)
			((volatile char *)p)[k * size + (size_t)random() % size] = 1;
	}
	t = now() - t0;
	munmap(p, size * n);
	return t;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of v[0..n) (sorted in place), and its extremes. */
static double stats(double *v, int n, double *min, double *max)
{
	qsort(v, n, sizeof(*v), cmp_double);
	*min = v[0];
	*max = v[n - 1];
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void bench_faults(size_t size, long n, enum mode m, int rounds)
{
	double cl[MAX_ROUNDS], ze[MAX_ROUNDS], rq[MAX_ROUNDS], sp[MAX_ROUNDS];
	double lo, hi, med;
	const char *pg = size_name(size), *mn = mode_names[m];
	int r;

	for (r = 0; r < rounds; r++) {
		double t0;

		if (hugetlb_dirty_pool(size))
			goto fail;
		cl[r] = faults(size, n, m);
		if (hugetlb_dirty_pool(size))
			goto fail;
		t0 = now();
		if (zero_request(size, n))
			goto fail;
		rq[r] = now() - t0;
		if (hugetlb_count(size, "zeroed_free_hugepages") < n) {
			ksft_print_msg("%s %s: asked for %ld zeroed pages, got %ld\n",
				       pg, mn, n,
				       hugetlb_count(size, "zeroed_free_hugepages"));
			goto fail;
		}
		ze[r] = faults(size, n, m);
		if (cl[r] <= 0 || ze[r] <= 0)
			goto fail;
		sp[r] = cl[r] / ze[r];
	}
	ksft_print_msg("%s_%s_cleared_s: %.6f\n", pg, mn, stats(cl, rounds, &lo, &hi));
	ksft_print_msg("%s_%s_zeroed_s: %.6f\n", pg, mn, stats(ze, rounds, &lo, &hi));
	ksft_print_msg("%s_%s_request_s: %.6f\n", pg, mn, stats(rq, rounds, &lo, &hi));
	med = stats(sp, rounds, &lo, &hi);
	ksft_print_msg("%s_%s_speedup: %.1f\n", pg, mn, med);
	ksft_print_msg("%s_%s_speedup_min: %.1f\n", pg, mn, lo);
	ksft_print_msg("%s_%s_speedup_max: %.1f\n", pg, mn, hi);
	ksft_test_result_pass("%s %s: %ld faults %.1fx faster from a zeroed pool (%d rounds, %.1f-%.1f)\n",
			      pg, mn, n, med, rounds, lo, hi);
	return;
fail:
	ksft_test_result_fail("%s %s: round %d failed: %s\n", pg, mn, r,
			      strerror(errno));
}

/* n pages cleared by `writers` tasks at once, one per CPU; wall time. */
static double clear_with(size_t size, int writers, long n)
{
	pid_t pid[2];
	int i, status, bad = 0;
	double t0 = now();

	for (i = 0; i < writers; i++) {
		pid[i] = fork();
		if (pid[i] == 0) {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET(i, &set);
			sched_setaffinity(0, sizeof(set), &set);
			_exit(zero_request(size, n / writers) ? 1 : 0);
		}
	}
	for (i = 0; i < writers; i++) {
		waitpid(pid[i], &status, 0);
		bad |= !WIFEXITED(status) || WEXITSTATUS(status);
	}
	return bad ? -1 : now() - t0;
}

static void bench_writers(int rounds)
{
	double one[MAX_ROUNDS], two[MAX_ROUNDS], sp[MAX_ROUNDS], lo, hi, med;
	size_t size = hugetlb_count(SZ_1G, "free_hugepages") >= 2 ? SZ_1G : SZ_2M;
	long n = hugetlb_count(size, "free_hugepages") & ~1L;
	int r;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		/* named: kunit.py reads no "ok N # SKIP" without a name */
		ksft_test_result_code(KSFT_SKIP, "writers", "one CPU");
		return;
	}
	for (r = 0; r < rounds; r++) {
		if (hugetlb_dirty_pool(size))
			goto fail;
		one[r] = clear_with(size, 1, n);
		if (hugetlb_dirty_pool(size))
			goto fail;
		two[r] = clear_with(size, 2, n);
		if (one[r] <= 0 || two[r] <= 0 ||
		    hugetlb_count(size, "zeroed_free_hugepages") < n)
			goto fail;
		sp[r] = one[r] / two[r];
	}
	ksft_print_msg("writers_one_s: %.6f\n", stats(one, rounds, &lo, &hi));
	ksft_print_msg("writers_two_s: %.6f\n", stats(two, rounds, &lo, &hi));
	med = stats(sp, rounds, &lo, &hi);
	ksft_print_msg("writers_speedup: %.2f\n", med);
	ksft_print_msg("writers_speedup_min: %.2f\n", lo);
	ksft_print_msg("writers_speedup_max: %.2f\n", hi);
	ksft_test_result_pass("writers: two clear %ld %s pages %.2fx as fast as one (%d rounds, %.2f-%.2f)\n",
			      n, size_name(size), med, rounds, lo, hi);
	return;
fail:
	ksft_test_result_fail("writers: round %d failed\n", r);
}

static volatile sig_atomic_t load_stop;

static void load_term(int sig)
{
	load_stop = 1;
}

/* -l: clear the dirtied 1 GiB pool on request, over and over. */
static int load(double secs)
{
	struct sigaction sa = { .sa_handler = load_term };
	double t0 = now(), end = t0 + secs;
	long cleared = 0, n;

	if (sigaction(SIGTERM, &sa, NULL))
		ksft_exit_fail_msg("sigaction: %s\n", strerror(errno));
	while (!load_stop && now() < end) {
		if (hugetlb_dirty_pool(SZ_1G))
			break;
		n = hugetlb_count(SZ_1G, "free_hugepages");
		if (zero_request(SZ_1G, n))
			break;
		cleared += hugetlb_count(SZ_1G, "zeroed_free_hugepages");
	}
	printf("# zeroer: %ld pages cleared in %.1f s\n", cleared, now() - t0);
	return cleared ? 0 : 1;
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = { SZ_2M, SZ_1G };
	int rounds = 3, opt, m;
	double loop = 0;
	unsigned int i;
	char path[128];

	while ((opt = getopt(argc, argv, "r:l:")) != -1) {
		if (opt == 'r')
			rounds = atoi(optarg);
		else if (opt == 'l')
			loop = atof(optarg);
		else
			ksft_exit_fail_msg("usage: %s [-r rounds] | -l seconds\n", argv[0]);
	}
	if (loop > 0)
		return load(loop);
	if (rounds < 1 || rounds > MAX_ROUNDS)
		ksft_exit_fail_msg("-r takes 1..%d\n", MAX_ROUNDS);
	srandom(0x2e70);
	ksft_print_header();
	snprintf(path, sizeof(path), ZERO_FILE, SZ_2M >> 10);
	if (access(path, W_OK)) {
		ksft_set_plan(1);
		ksft_test_result_code(KSFT_SKIP, "zerobench", "no zero_free_hugepages");
		ksft_finished();
	}
	ksft_set_plan(ARRAY_SIZE(sizes) * NR_MODES + 1);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		long free = hugetlb_count(sizes[i], "free_hugepages");
		long n = sizes[i] == SZ_1G ? free : (free < 32 ? free : 32);

		for (m = 0; m < NR_MODES; m++) {
			if (n < 1)
				ksft_test_result_code(KSFT_SKIP, mode_names[m],
						      "%s: no free page", size_name(sizes[i]));
			else
				bench_faults(sizes[i], n, m, rounds);
		}
	}
	bench_writers(rounds);
	ksft_finished();
}
