// SPDX-License-Identifier: GPL-2.0
/*
 * prezero: faults on hugetlb pages the pool cleared beforehand.
 *
 * The product kernel keeps track of the free hugetlb pages it knows to be
 * zero (zeroed_free_hugepages), clears free pages on request
 * (zero_free_hugepages) and hands zeroed pages to faults without clearing
 * them again (vm events htlb_fault_prezeroed, htlb_fault_cleared). For
 * 2 MiB and 1 GiB pages:
 *
 *  - every free page of the pool is made dirty (mapped, filled with a
 *    pattern, unmapped), then either cleared on request or not; faults at
 *    a random subpage must then see only zeros, and the events must count
 *    each fault on the side it took;
 *  - a pool grown by nr_hugepages is zeroed from the start under
 *    init_on_alloc=1 and not otherwise (the program reads /proc/cmdline);
 *  - bad writes (not a number, negative, empty, to the read-only count)
 *    fail with an error and change no count;
 *  - a writer killed during a long request dies within one page's clear,
 *    and the pool is whole afterwards;
 *  - two writers at once on two CPUs clear disjoint pages: the counts add
 *    up to both requests;
 *  - a zeroed 1 GiB page demoted to 2 MiB pages hands them the state.
 *
 * Run it last in a boot: demotion takes a 1 GiB page from the pool (it is
 * put back if the kernel can allocate it). A kernel without the files
 * (baseline) skips everything and says so. Output is TAP, kselftest style.
 *
 * Usage: prezero [-s seed]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
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

#define PATTERN		0x5a
#define HP_DIR		"/sys/kernel/mm/hugepages/hugepages-%zukB/%s"
#define NODE_DIR	"/sys/devices/system/node/node%d/hugepages/hugepages-%zukB/%s"

static const size_t sizes[] = { SZ_2M, SZ_1G };

static const char *size_name(size_t size)
{
	return size == SZ_1G ? "1G" : "2M";
}

static void hp_path(char *buf, size_t len, size_t size, const char *file)
{
	snprintf(buf, len, HP_DIR, size >> 10, file);
}

static long count(size_t size, const char *file)
{
	return hugetlb_count(size, file);
}

/* Ask the pool to clear up to n free pages; 0 or an errno. */
static int zero_request(size_t size, const char *n)
{
	char path[256];

	hp_path(path, sizeof(path), size, "zero_free_hugepages");
	return write_str(path, n);
}

static int zero_request_n(size_t size, long n)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld", n);
	return zero_request(size, buf);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Map n pages, take each one's first fault with a write at a random
 * subpage, and count the bytes that are not zero (the write's own byte
 * cleared). -1 if the mapping failed.
 */
static long fault_and_check(size_t size, long n)
{
	size_t bad = 0, first;
	long i;
	char *p = hugetlb_map(size, n);

	if (!p)
		return -1;
	for (i = 0; i < n; i++) {
		char *page = p + i * size;
		size_t off = (size_t)random() % size;

		page[off] = HC_MARKER;
		if (page[off] != HC_MARKER)
			bad++;
		page[off] = 0;
		bad += count_nonzero(page, size, &first);
	}
	munmap(p, size * n);
	return bad;
}

static bool have_files(void)
{
	char path[256];

	hp_path(path, sizeof(path), SZ_2M, "zero_free_hugepages");
	return access(path, F_OK) == 0;
}

static bool init_on_alloc(void)
{
	char buf[4096] = "";
	FILE *f = fopen("/proc/cmdline", "r");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	return strstr(buf, "init_on_alloc=1") != NULL;
}

/*
 * Faults after the pool was dirtied and then cleared on request (zeroed)
 * or not: all zero, and each fault counted on its side.
 */
static void test_faults(size_t size, bool zeroed)
{
	const char *what = zeroed ? "zeroed pool" : "dirty pool";
	long n, free, pz0, cl0, pz, cl, bad;
	int err;

	err = hugetlb_dirty_pool(size);
	if (err) {
		ksft_test_result_fail("%s %s: cannot dirty the pool: %s\n",
				      size_name(size), what, strerror(err));
		return;
	}
	free = count(size, "free_hugepages");
	if (count(size, "zeroed_free_hugepages") != 0) {
		ksft_test_result_fail("%s %s: %ld zeroed free pages after dirtying them all\n",
				      size_name(size), what,
				      count(size, "zeroed_free_hugepages"));
		return;
	}
	if (zeroed) {
		err = zero_request_n(size, free);
		if (err || count(size, "zeroed_free_hugepages") != free) {
			ksft_test_result_fail("%s %s: request for %ld: %s, %ld zeroed\n",
					      size_name(size), what, free,
					      strerror(err),
					      count(size, "zeroed_free_hugepages"));
			return;
		}
	}
	n = size == SZ_1G ? free : (free < 16 ? free : 16);
	pz0 = read_vmstat("htlb_fault_prezeroed");
	cl0 = read_vmstat("htlb_fault_cleared");
	if (pz0 < 0 || cl0 < 0) {
		ksft_test_result_fail("%s %s: no htlb_fault_prezeroed/htlb_fault_cleared in /proc/vmstat\n",
				      size_name(size), what);
		return;
	}
	bad = fault_and_check(size, n);
	pz = read_vmstat("htlb_fault_prezeroed") - pz0;
	cl = read_vmstat("htlb_fault_cleared") - cl0;
	if (bad)
		ksft_test_result_fail("%s %s: %ld non-zero bytes in %ld faults\n",
				      size_name(size), what, bad, n);
	else if (pz != (zeroed ? n : 0) || cl != (zeroed ? 0 : n))
		ksft_test_result_fail("%s %s: %ld faults counted %ld prezeroed, %ld cleared\n",
				      size_name(size), what, n, pz, cl);
	else
		ksft_test_result_pass("%s %s: %ld faults all zero, %ld prezeroed, %ld cleared\n",
				      size_name(size), what, n, pz, cl);
}

/* Grow the pool by two pages: zeroed from the start only under init_on_alloc. */
static void test_grow(size_t size)
{
	bool ioa = init_on_alloc();
	long nr = count(size, "nr_hugepages"), z0, z, grown;
	char path[256], val[32];

	hugetlb_dirty_pool(size);
	z0 = count(size, "zeroed_free_hugepages");
	hp_path(path, sizeof(path), size, "nr_hugepages");
	snprintf(val, sizeof(val), "%ld", nr + 2);
	write_str(path, val);
	grown = count(size, "nr_hugepages") - nr;
	z = count(size, "zeroed_free_hugepages") - z0;
	snprintf(val, sizeof(val), "%ld", nr);
	write_str(path, val);
	if (grown <= 0)
		/* named: kunit.py reads no "ok N # SKIP" without a name */
		ksft_test_result_code(KSFT_SKIP, size == SZ_1G ? "1G grow" : "2M grow",
				      "the kernel found no page to grow the pool");
	else if (z != (ioa ? grown : 0))
		ksft_test_result_fail("%s grow (init_on_alloc %s): %ld new pages, %ld zeroed\n",
				      size_name(size), ioa ? "on" : "off", grown, z);
	else
		ksft_test_result_pass("%s grow (init_on_alloc %s): %ld new pages, %ld zeroed\n",
				      size_name(size), ioa ? "on" : "off", grown, z);
}

/* Writes that must fail and change nothing. */
static void test_bad_input(void)
{
	static const char *const bad[] = { "abc", "-1", "\n", "1x", "0x" };
	long z0, f0;
	char path[256];
	unsigned int i;
	int err, fails = 0;

	hugetlb_dirty_pool(SZ_2M);
	z0 = count(SZ_2M, "zeroed_free_hugepages");
	f0 = count(SZ_2M, "free_hugepages");
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err = zero_request(SZ_2M, bad[i]);
		if (err != EINVAL) {
			ksft_print_msg("zero_free_hugepages '%s': %s, want EINVAL\n",
				       bad[i], err ? strerror(err) : "accepted");
			fails++;
		}
	}
	hp_path(path, sizeof(path), SZ_2M, "zeroed_free_hugepages");
	err = write_str(path, "1");
	if (!err) {
		ksft_print_msg("a write to zeroed_free_hugepages was accepted\n");
		fails++;
	}
	if (count(SZ_2M, "zeroed_free_hugepages") != z0 ||
	    count(SZ_2M, "free_hugepages") != f0) {
		ksft_print_msg("counts changed: zeroed %ld -> %ld, free %ld -> %ld\n",
			       z0, count(SZ_2M, "zeroed_free_hugepages"), f0,
			       count(SZ_2M, "free_hugepages"));
		fails++;
	}
	ksft_test_result(!fails, "bad writes refused, counts unchanged\n");
}

/*
 * Per node: a request on node N's file clears that node's pages only.
 */
static void test_per_node(void)
{
	char path[256];
	long z[2], f[2];
	int nid, fails = 0, nodes = 0;

	hugetlb_dirty_pool(SZ_2M);
	for (nid = 0; nid < 2; nid++) {
		snprintf(path, sizeof(path), NODE_DIR, nid, SZ_2M >> 10,
			 "zero_free_hugepages");
		if (access(path, W_OK))
			continue;
		nodes++;
		f[nid] = read_long((snprintf(path, sizeof(path), NODE_DIR, nid,
					     SZ_2M >> 10, "free_hugepages"), path));
		snprintf(path, sizeof(path), NODE_DIR, nid, SZ_2M >> 10,
			 "zero_free_hugepages");
		if (write_str(path, "3"))
			fails++;
		snprintf(path, sizeof(path), NODE_DIR, nid, SZ_2M >> 10,
			 "zeroed_free_hugepages");
		z[nid] = read_long(path);
		if (z[nid] != (f[nid] < 3 ? f[nid] : 3)) {
			ksft_print_msg("node %d: %ld free, asked 3, %ld zeroed\n",
				       nid, f[nid], z[nid]);
			fails++;
		}
	}
	if (!nodes)
		ksft_test_result_code(KSFT_SKIP, "per node", "no node files");
	else if (count(SZ_2M, "zeroed_free_hugepages") != (nodes > 1 ? z[0] + z[1] : z[0]))
		ksft_test_result_fail("per node: node counts do not add up to %ld\n",
				      count(SZ_2M, "zeroed_free_hugepages"));
	else
		ksft_test_result(!fails, "per node: %d nodes, each request cleared its own node's pages\n",
				 nodes);
}

/*
 * A writer killed while it clears 1 GiB pages stops after the page it is
 * clearing: with two dirty pages and the kill early in the first page's
 * clear, it dies after about one page's clear, with one page zeroed. The
 * pool is whole afterwards: the same free count, and every page faults
 * in zero.
 */
static void test_killed(void)
{
	long free = count(SZ_1G, "free_hugepages"), bad, z;
	double t0, one, dt;
	int status;
	pid_t pid;

	if (free < 2) {
		ksft_test_result_code(KSFT_SKIP, "killed writer", "needs two free 1 GiB pages");
		return;
	}
	/* How long one page's clear takes here. */
	hugetlb_dirty_pool(SZ_1G);
	t0 = now();
	zero_request(SZ_1G, "1");
	one = now() - t0;
	hugetlb_dirty_pool(SZ_1G);
	pid = fork();
	if (pid == 0) {
		zero_request(SZ_1G, "1000000");
		_exit(0);
	}
	usleep(one > 0.02 ? one / 4 * 1e6 : 5000);
	t0 = now();
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	dt = now() - t0;
	z = count(SZ_1G, "zeroed_free_hugepages");
	bad = fault_and_check(SZ_1G, free);
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL)
		ksft_test_result_fail("killed writer: not killed (status %#x): one page's clear, %.2f s, too short to tell\n",
				      status, one);
	else if (one > 0.1 && (z != 1 || dt > 1.5 * one))
		ksft_test_result_fail("killed writer: died %.2f s after the kill with %ld pages zeroed; one page takes %.2f s\n",
				      dt, z, one);
	else if (count(SZ_1G, "free_hugepages") != free)
		ksft_test_result_fail("killed writer: free %ld -> %ld\n",
				      free, count(SZ_1G, "free_hugepages"));
	else if (bad)
		ksft_test_result_fail("killed writer: %ld non-zero bytes after\n", bad);
	else
		ksft_test_result_pass("killed writer: died %.2f s after the kill (one page: %.2f s), %ld zeroed, pool whole, faults zero\n",
				      dt, one, z);
}

/* Two writers at once, one per CPU, each asking for half the pool. */
static void test_two_writers(void)
{
	long free, half, z;
	pid_t pid[2];
	int i, status, fails = 0;

	hugetlb_dirty_pool(SZ_2M);
	free = count(SZ_2M, "free_hugepages");
	half = free / 2;
	for (i = 0; i < 2; i++) {
		pid[i] = fork();
		if (pid[i] == 0) {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET(i, &set);
			sched_setaffinity(0, sizeof(set), &set);
			_exit(zero_request_n(SZ_2M, half) ? 1 : 0);
		}
	}
	for (i = 0; i < 2; i++) {
		waitpid(pid[i], &status, 0);
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			fails++;
	}
	z = count(SZ_2M, "zeroed_free_hugepages");
	if (fails || z != 2 * half)
		ksft_test_result_fail("two writers: %d failed, %ld zeroed, want %ld\n",
				      fails, z, 2 * half);
	else
		ksft_test_result_pass("two writers: %ld pages zeroed, %ld each\n",
				      z, half);
}

/*
 * A zeroed 1 GiB page demoted to 2 MiB pages: its parts are zeroed, and
 * faults on them clear nothing and see zeros.
 */
static void test_demote(void)
{
	char path[256], val[32];
	long free1g = count(SZ_1G, "free_hugepages"), nr1g, nr2m, z0, z, pz0, bad, nfree;
	long parts = SZ_1G / SZ_2M;

	if (free1g < 1) {
		ksft_test_result_code(KSFT_SKIP, "demote", "no free 1 GiB page");
		return;
	}
	nr1g = count(SZ_1G, "nr_hugepages");
	nr2m = count(SZ_2M, "nr_hugepages");
	hugetlb_dirty_pool(SZ_2M);
	hugetlb_dirty_pool(SZ_1G);
	zero_request_n(SZ_1G, free1g);
	z0 = count(SZ_2M, "zeroed_free_hugepages");
	hp_path(path, sizeof(path), SZ_1G, "demote");
	if (write_str(path, "1")) {
		ksft_test_result_code(KSFT_SKIP, "demote", "the kernel refused to demote");
		return;
	}
	z = count(SZ_2M, "zeroed_free_hugepages") - z0;
	/*
	 * Fault every free 2 MiB page: the zeroed parts are all on the
	 * demoted page's node, and a fault prefers the nearer node to a
	 * zeroed page, so only all of them show every part taken zeroed.
	 */
	nfree = count(SZ_2M, "free_hugepages");
	pz0 = read_vmstat("htlb_fault_prezeroed");
	bad = fault_and_check(SZ_2M, nfree);
	pz0 = read_vmstat("htlb_fault_prezeroed") - pz0;
	/* Put the pools back: 2 MiB as before, 1 GiB if the kernel can. */
	hp_path(path, sizeof(path), SZ_2M, "nr_hugepages");
	snprintf(val, sizeof(val), "%ld", nr2m);
	write_str(path, val);
	hp_path(path, sizeof(path), SZ_1G, "nr_hugepages");
	snprintf(val, sizeof(val), "%ld", nr1g);
	write_str(path, val);
	if (count(SZ_1G, "nr_hugepages") != nr1g)
		ksft_print_msg("demote: the 1 GiB pool is %ld pages, was %ld\n",
			       count(SZ_1G, "nr_hugepages"), nr1g);
	if (z != parts || bad || pz0 != parts)
		ksft_test_result_fail("demote: %ld zeroed parts of %ld, %ld non-zero bytes, %ld of %ld faults prezeroed\n",
				      z, parts, bad, pz0, nfree);
	else
		ksft_test_result_pass("demote: %ld zeroed 2 MiB parts, each taken by a fault without clearing, %ld faults all zero\n",
				      z, nfree);
}

int main(int argc, char **argv)
{
	unsigned int seed = getpid() ^ (unsigned int)time(NULL);
	unsigned int i;
	int opt;

	while ((opt = getopt(argc, argv, "s:")) != -1) {
		if (opt == 's')
			seed = strtoul(optarg, NULL, 0);
		else
			ksft_exit_fail_msg("usage: %s [-s seed]\n", argv[0]);
	}
	srandom(seed);
	ksft_print_header();
	ksft_print_msg("seed %u, init_on_alloc %s\n", seed,
		       init_on_alloc() ? "on" : "off");
	if (!have_files()) {
		ksft_print_msg("no zero_free_hugepages: a kernel without the zeroed pool\n");
		ksft_set_plan(1);
		ksft_test_result_code(KSFT_SKIP, "zeroed pool", "no zero_free_hugepages");
		ksft_finished();
	}
	ksft_set_plan(2 * ARRAY_SIZE(sizes) + ARRAY_SIZE(sizes) + 5);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		test_faults(sizes[i], false);
		test_faults(sizes[i], true);
	}
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		test_grow(sizes[i]);
	test_bad_input();
	test_per_node();
	test_two_writers();
	test_killed();
	test_demote();
	ksft_finished();
}
