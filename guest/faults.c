// SPDX-License-Identifier: GPL-2.0
/*
 * faults: the unhappy paths of huge page faults, and bad input to the
 * series' debugfs files. TAP, kselftest style.
 *
 *  1. A task killed while it faults a 1 GiB page: it must die, the page
 *     must go back to the pool, and the next 1 GiB fault must be all zero.
 *  2. An exhausted hugetlb pool: touching a MAP_NORESERVE page beyond it
 *     raises SIGBUS, as in mainline.
 *  3. Invalid writes to /sys/kernel/debug/clear_huge_page/{strategy,
 *     guard} fail with EINVAL and change nothing (skipped where the files
 *     do not exist: the baseline kernel).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"

#define MAP_HUGE_2MB	(21 << 26)
#define MAP_HUGE_1GB	(30 << 26)
#define SZ_2M		(2UL << 20)
#define SZ_1G		(1UL << 30)
#define HP_1G "/sys/kernel/mm/hugepages/hugepages-1048576kB/free_hugepages"
#define HP_2M "/sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages"
#define KNOBS "/sys/kernel/debug/clear_huge_page/"

static long read_long(const char *path)
{
	char buf[64] = "";
	int fd = open(path, O_RDONLY);
	long v = -1;

	if (fd >= 0 && read(fd, buf, sizeof(buf) - 1) > 0)
		v = strtol(buf, NULL, 10);
	if (fd >= 0)
		close(fd);
	return v;
}

static int read_str(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

/* Write @val; return 0 or the errno of the failed write. */
static int write_str(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, val, strlen(val)) < 0)
		err = errno;
	close(fd);
	return err;
}

static char *map_huge(size_t len, int flags)
{
	return mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | flags, -1, 0);
}

static void test_killed_in_1g_fault(void)
{
	long before = read_long(HP_1G), after = -1;
	struct timespec delay = { 0, 50 * 1000 * 1000 };
	int status, i;
	size_t bad = 0;
	pid_t pid;
	char *p;

	if (before < 1) {
		ksft_test_result_skip("killed in a 1G fault: no free 1 GiB page\n");
		return;
	}
	pid = fork();
	if (pid == 0) {
		p = map_huge(SZ_1G, MAP_HUGE_1GB);
		if (p == MAP_FAILED)
			_exit(3);
		for (;;)	/* the first write faults; then keep the page */
			p[SZ_1G / 2] = 1;
	}
	/* Kill it while the 1 GiB clear is most likely running. */
	nanosleep(&delay, NULL);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	/* The freed page may take a moment to reach the pool. */
	for (i = 0; i < 100 && after != before; i++) {
		after = read_long(HP_1G);
		usleep(10000);
	}
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL) {
		ksft_test_result_fail("killed in a 1G fault: child status %#x\n", status);
		return;
	}
	if (after != before) {
		ksft_test_result_fail("killed in a 1G fault: free 1G pages %ld before, %ld after\n",
				      before, after);
		return;
	}
	p = map_huge(SZ_1G, MAP_HUGE_1GB);
	if (p == MAP_FAILED) {
		ksft_test_result_fail("killed in a 1G fault: refault mmap: %s\n", strerror(errno));
		return;
	}
	p[12345] = 0;
	for (i = 0; i < (int)(SZ_1G / 8); i++)
		bad += ((uint64_t *)p)[i] != 0;
	munmap(p, SZ_1G);
	if (bad)
		ksft_test_result_fail("killed in a 1G fault: %zu non-zero words after\n", bad);
	else
		ksft_test_result_pass("killed in a 1G fault: pool intact, next fault all zero\n");
}

static void test_exhausted_pool(void)
{
	long free2m = read_long(HP_2M);
	size_t len;
	int status;
	pid_t pid;

	if (free2m < 1) {
		ksft_test_result_fail("exhausted pool: no free 2 MiB pages to start with\n");
		return;
	}
	len = (free2m + 1) * SZ_2M;
	pid = fork();
	if (pid == 0) {
		char *p = map_huge(len, MAP_HUGE_2MB | MAP_NORESERVE);
		size_t off;

		if (p == MAP_FAILED)
			_exit(3);
		for (off = 0; off < len; off += SZ_2M)
			p[off] = 1;
		_exit(0);	/* every page faulted: the pool was not exhausted */
	}
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS)
		ksft_test_result_pass("exhausted pool: SIGBUS after %ld pages\n", free2m);
	else
		ksft_test_result_fail("exhausted pool: child status %#x, wanted SIGBUS\n", status);
}

/* Every invalid value must fail with EINVAL and leave the file as it was. */
static void test_bad_writes(const char *file, const char * const *bad, int nbad)
{
	char path[128], before[128], after[128];
	int i, err;

	snprintf(path, sizeof(path), KNOBS "%s", file);
	if (read_str(path, before, sizeof(before))) {
		ksft_test_result_skip("bad writes to %s: no such file\n", file);
		return;
	}
	for (i = 0; i < nbad; i++) {
		err = write_str(path, bad[i]);
		if (read_str(path, after, sizeof(after)) || strcmp(before, after)) {
			ksft_test_result_fail("bad writes to %s: '%s' changed it\n", file, bad[i]);
			return;
		}
		if (err != EINVAL) {
			ksft_test_result_fail("bad writes to %s: '%s' gave %s, not EINVAL\n",
					      file, bad[i], err ? strerror(err) : "success");
			return;
		}
	}
	ksft_test_result_pass("bad writes to %s: %d values refused with EINVAL\n", file, nbad);
}

static const char * const bad_strategy[] = {
	"", "bogus", "defaultx", "nt nt", "units\n\n", "chunked", "0123456789abcdef",
};
static const char * const bad_guard[] = { "2", "maybe", "-1", "", "yes", "on", "0 1" };

int main(void)
{
	ksft_print_header();
	ksft_set_plan(4);
	test_killed_in_1g_fault();
	test_exhausted_pool();
	test_bad_writes("strategy", bad_strategy, ARRAY_SIZE(bad_strategy));
	test_bad_writes("guard", bad_guard, ARRAY_SIZE(bad_guard));
	ksft_finished();
}
