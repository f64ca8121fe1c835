// SPDX-License-Identifier: GPL-2.0
/*
 * faults: the unhappy paths of huge page faults, and bad input to the
 * evaluation series' debugfs files. kselftest_harness.h: each test runs
 * in a child of its own, with a timeout.
 *
 *  hugetlb_1g.killed_in_fault: a task killed while it faults a 1 GiB page
 *     must die, the page must go back to the pool, and the next 1 GiB
 *     fault must be all zero.
 *  exhausted_pool: touching a MAP_NORESERVE hugetlb page beyond the free
 *     pages of the pool raises SIGBUS, as in mainline.
 *  knob.{strategy,guard}.bad_writes: invalid writes to
 *     /sys/kernel/debug/clear_huge_page/{strategy,guard} fail with EINVAL
 *     and change nothing.
 * A test skips when what it needs is missing: no pool of the page size
 * (none configured or none could be allocated), no debugfs knob (a kernel
 * without the evaluation series: the baseline, the product). A pool with
 * pages but none free fails: it should be all free between the programs
 * of the guest, so something leaked.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "mm/thp_settings.h"
#include "hugecheck.h"

static char *map_huge(size_t len, int flags)
{
	return mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | flags, -1, 0);
}

/* Pages of the hugetlb pool of this size, in all and free. */
static long pool(size_t size, long *nfree)
{
	*nfree = hugetlb_count(size, "free_hugepages");
	return hugetlb_count(size, "nr_hugepages");
}

FIXTURE(hugetlb_1g) {
	long free_before;
};

FIXTURE_SETUP(hugetlb_1g)
{
	long nr = pool(SZ_1G, &self->free_before);

	if (nr < 1)
		SKIP(return, "no 1 GiB hugetlb pages");
	ASSERT_LT(0, self->free_before)
		TH_LOG("none of the %ld 1 GiB pages is free", nr);
}

FIXTURE_TEARDOWN(hugetlb_1g)
{
}

/* Under TCG a 1 GiB clear and the check of every byte take a while. */
TEST_F_TIMEOUT(hugetlb_1g, killed_in_fault, 300)
{
	struct timespec delay = { 0, 50 * 1000 * 1000 };
	long after = -1;
	size_t bad;
	int status, i;
	pid_t pid;
	char *p;

	pid = fork();
	ASSERT_LE(0, pid);
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
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
		TH_LOG("child status %#x", status);

	/* The freed page may take a moment to reach the pool. */
	for (i = 0; i < 100 && after != self->free_before; i++) {
		after = hugetlb_count(SZ_1G, "free_hugepages");
		usleep(10000);
	}
	ASSERT_EQ(self->free_before, after)
		TH_LOG("free 1 GiB pages: %ld before, %ld after",
		       self->free_before, after);

	p = map_huge(SZ_1G, MAP_HUGE_1GB);
	ASSERT_NE(MAP_FAILED, p)
		TH_LOG("refault mmap: %s", strerror(errno));
	p[12345] = 0;
	bad = count_nonzero(p, SZ_1G, NULL);
	munmap(p, SZ_1G);
	EXPECT_EQ(0, bad)
		TH_LOG("%zu non-zero bytes in the next 1 GiB fault", bad);
}

/* Passes if and only if the test dies of SIGBUS. */
TEST_SIGNAL(exhausted_pool, SIGBUS)
{
	long free2m, nr = pool(SZ_2M, &free2m);
	size_t len = (free2m + 1) * SZ_2M, off;
	char *p;

	if (nr < 1)
		SKIP(return, "no 2 MiB hugetlb pages");
	ASSERT_LT(0, free2m)
		TH_LOG("none of the %ld 2 MiB pages is free", nr);
	p = map_huge(len, MAP_HUGE_2MB | MAP_NORESERVE);
	ASSERT_NE(MAP_FAILED, p)
		TH_LOG("mmap of %zu bytes: %s", len, strerror(errno));
	TH_LOG("%ld free 2 MiB pages: touching one more", free2m);
	for (off = 0; off < len; off += SZ_2M)
		p[off] = 1;
	TH_LOG("all %ld pages faulted: the pool was not exhausted", free2m + 1);
}

FIXTURE(knob) {
	char path[128];
	char before[128];
};

FIXTURE_VARIANT(knob) {
	const char *file;
	const char * const *bad;
	int nbad;
};

static const char * const bad_strategy[] = {
	"", "bogus", "defaultx", "nt nt", "units\n\n", "chunked",
	"0123456789abcdef",
};

static const char * const bad_guard[] = {
	"2", "maybe", "-1", "", "yes", "on", "0 1",
};

FIXTURE_VARIANT_ADD(knob, strategy) {
	.file = "strategy",
	.bad = bad_strategy,
	.nbad = ARRAY_SIZE(bad_strategy),
};

FIXTURE_VARIANT_ADD(knob, guard) {
	.file = "guard",
	.bad = bad_guard,
	.nbad = ARRAY_SIZE(bad_guard),
};

/* The knob's contents without the newline; false if unreadable. */
static bool read_knob(const char *path, char *buf, size_t len)
{
	if (!read_file(path, buf, len))
		return false;
	buf[strcspn(buf, "\n")] = '\0';
	return true;
}

FIXTURE_SETUP(knob)
{
	snprintf(self->path, sizeof(self->path), HC_KNOBS "%s", variant->file);
	if (access(self->path, F_OK))
		SKIP(return, "no %s: a kernel without the evaluation series",
		     self->path);
	ASSERT_TRUE(read_knob(self->path, self->before, sizeof(self->before)))
		TH_LOG("cannot read %s", self->path);
}

/*
 * Put back what a bad write may have changed: strategy reads "a [b] c".
 * In the parent, with self shared: it also runs after a failed ASSERT.
 */
FIXTURE_TEARDOWN_PARENT(knob)
{
	char now[128], *a = strchr(self->before, '['), *b;

	if (!self->before[0] || !read_knob(self->path, now, sizeof(now)) ||
	    !strcmp(now, self->before))
		return;
	b = a ? strchr(a, ']') : NULL;
	if (b)
		*b = '\0';
	write_str(self->path, b ? a + 1 : self->before);
}

/* Every invalid value must fail with EINVAL and leave the file as it was. */
TEST_F(knob, bad_writes)
{
	char after[128];
	int i, err;

	for (i = 0; i < variant->nbad; i++) {
		err = write_str(self->path, variant->bad[i]);
		ASSERT_TRUE(read_knob(self->path, after, sizeof(after)));
		ASSERT_STREQ(self->before, after)
			TH_LOG("'%s' changed it", variant->bad[i]);
		ASSERT_EQ(EINVAL, err)
			TH_LOG("'%s' gave %s, not EINVAL", variant->bad[i],
			       err ? strerror(err) : "success");
	}
	TH_LOG("%d values refused with EINVAL", variant->nbad);
}

TEST_HARNESS_MAIN
