// SPDX-License-Identifier: GPL-2.0
/*
 * copies: a huge page that the kernel copies must arrive byte for byte.
 * kselftest_harness.h: each test runs in a child of its own, with a
 * timeout. Each huge page is filled with hugecheck.c's copy pattern (it
 * differs per 4 KiB subpage and per offset; the first 8 bytes of a subpage
 * hold its index) and every byte is checked after each copy; a failure
 * reports the number of wrong bytes and the first of them.
 *
 *  cow.hugetlb_{2M,1G}_{child,parent}_writes: copy-on-write of a
 *     MAP_PRIVATE hugetlb page (copy_user_large_folio()), hugecheck.c's
 *     hc_cow(): after fork() one side writes a byte in the middle of the
 *     page, which copies the whole huge page for it; that side checks its
 *     copy (the pattern, and its byte), the other one that its page is
 *     untouched. Needs two pages of the size: the original and the copy.
 *  migrate.{thp_2M,hugetlb_2M,hugetlb_1G}.move: migration of a huge folio
 *     (folio_mc_copy()) to the other NUMA node with move_pages(), then
 *     back with migrate_pages() for the whole process; the node is read
 *     with move_pages(nodes = NULL) before and after each move, then the
 *     contents and, for THP, that it is still one folio (hc_is_folio()).
 *     Needs two nodes, and for hugetlb a free page of the size on the
 *     target node.
 *  collapse.thp_2M: MADV_COLLAPSE of a 2 MiB aligned range of 4 KiB pages
 *     into a THP (khugepaged's copy); skips if MADV_COLLAPSE gives EINVAL.
 * A test skips when what it needs is missing. A hugetlb pool with enough
 * pages but too few free fails, as in faults.c: it should be all free
 * between the programs of the guest, so something leaked.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/mempolicy.h>
#include <linux/mman.h>

#include "kselftest_harness.h"
#include "mm/vm_util.h"
#include "mm/thp_settings.h"
#include "hugecheck.h"

#define NODE_DIR "/sys/devices/system/node"

/* A seed per test: a stale page never passes for a good copy. */
static uint64_t new_seed(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)getpid() << 40 ^ ts.tv_sec << 30 ^ ts.tv_nsec) *
	       0x2545f4914f6cdd1dULL;
}

#define EXPECT_INTACT(v, what)						\
	EXPECT_EQ(0, (v)->bad)						\
		TH_LOG("%s: %zu wrong bytes, the first at +%#zx is %#x, not %#x", \
		       what, (v)->bad, (v)->first, (v)->got, (v)->want)

/* Skip without a pool of n pages of the size; fail if fewer are free. */
#define NEED_HUGETLB(size, n) do {					\
	long nr = hugetlb_count(size, "nr_hugepages");			\
	long nfree = hugetlb_count(size, "free_hugepages");		\
									\
	if (nr < (n))							\
		SKIP(return, "%ld hugetlb pages of %zu kB, %d needed",	\
		     nr < 0 ? 0 : nr, (size_t)(size) >> 10, n);		\
	ASSERT_LE(n, nfree)						\
		TH_LOG("%ld of %ld hugetlb pages of %zu kB free, %d needed", \
		       nfree, nr, (size_t)(size) >> 10, n);		\
} while (0)

/* ---- hugetlb copy-on-write ---- */

FIXTURE(cow) {
	struct hc_map m;
};

FIXTURE_VARIANT(cow) {
	size_t size;
	bool parent_writes;
};

FIXTURE_VARIANT_ADD(cow, hugetlb_2M_child_writes) { .size = SZ_2M };
FIXTURE_VARIANT_ADD(cow, hugetlb_2M_parent_writes) {
	.size = SZ_2M, .parent_writes = true,
};
FIXTURE_VARIANT_ADD(cow, hugetlb_1G_child_writes) { .size = SZ_1G };
FIXTURE_VARIANT_ADD(cow, hugetlb_1G_parent_writes) {
	.size = SZ_1G, .parent_writes = true,
};

FIXTURE_SETUP(cow)
{
	struct hc_kind k = { variant->size, 1, true };
	int err;

	NEED_HUGETLB(variant->size, 2);
	err = hc_map(&k, &self->m);
	ASSERT_EQ(0, err) TH_LOG("mmap: %s", strerror(-err));
}

FIXTURE_TEARDOWN(cow)
{
	hc_unmap(&self->m);
}

/*
 * hc_cow(): the writer's byte is in the middle of the page, not at a
 * subpage's start; the subpage around the fault address is copied last.
 */
TEST_F_TIMEOUT(cow, copy, 900)
{
	size_t size = variant->size, off = size / 2 + 0x765;
	uint64_t seed = new_seed();
	struct hc_verdict v[2];
	int ret;

	hc_pattern_fill(self->m.base, size, seed);
	ret = hc_cow(self->m.base, size, seed, off, variant->parent_writes, v);
	ASSERT_EQ(0, ret) TH_LOG("%s %#x", ret < 0 ? strerror(-ret) :
				 "child's wait status", ret);
	EXPECT_INTACT(&v[0], variant->parent_writes ?
		      "child's page, the original" : "child's copy");
	EXPECT_INTACT(&v[1], variant->parent_writes ?
		      "parent's copy" : "parent's page, the original");
	TH_LOG("%zu kB copied on a write at +%#zx by the %s, seed %#llx",
	       size >> 10, off, variant->parent_writes ? "parent" : "child",
	       (unsigned long long)seed);
}

/* ---- migration between NUMA nodes ---- */

FIXTURE(migrate) {
	struct hc_map m;
	int nodes[2];
	int pagemap;
};

FIXTURE_VARIANT(migrate) {
	size_t size;
	bool hugetlb;
};

FIXTURE_VARIANT_ADD(migrate, thp_2M) { .size = SZ_2M };
FIXTURE_VARIANT_ADD(migrate, hugetlb_2M) { .size = SZ_2M, .hugetlb = true };
FIXTURE_VARIANT_ADD(migrate, hugetlb_1G) { .size = SZ_1G, .hugetlb = true };

FIXTURE_SETUP(migrate)
{
	struct hc_kind k = { variant->size, 1, variant->hugetlb };
	char path[64];
	int n = 0, i, err;

	/* numa_num_configured_nodes(): the nodeN directories. */
	if (access(NODE_DIR, F_OK))
		SKIP(return, "no %s: a kernel without CONFIG_NUMA, one node", NODE_DIR);
	for (i = 0; i < 1024 && n < 2; i++) {
		snprintf(path, sizeof(path), NODE_DIR "/node%d", i);
		if (!access(path, F_OK))
			self->nodes[n++] = i;
	}
	if (n < 2)
		SKIP(return, "one NUMA node in %s: nowhere to migrate to", NODE_DIR);
	if (variant->hugetlb)
		NEED_HUGETLB(variant->size, 1);
	else if (!thp_is_enabled())
		SKIP(return, "THP disabled (transparent_hugepage/enabled)");
	err = hc_map(&k, &self->m);
	ASSERT_EQ(0, err) TH_LOG("mmap: %s", strerror(-err));
	self->pagemap = open("/proc/self/pagemap", O_RDONLY);
}

FIXTURE_TEARDOWN(migrate)
{
	hc_unmap(&self->m);
	close(self->pagemap);
}

/*
 * The node of the huge page at p: of its first, middle and last 4 KiB
 * page, which must agree; -1 (and a log line) if not.
 */
static int node_of(struct __test_metadata *_metadata, char *p, size_t size)
{
	void *pages[3] = { p, p + size / 2, p + size - SZ_4K };
	int st[3] = { -1, -1, -1 };

	if (syscall(SYS_move_pages, 0, 3, pages, NULL, st, 0)) {
		TH_LOG("move_pages(nodes = NULL): %s", strerror(errno));
		return -1;
	}
	if (st[0] < 0 || st[0] != st[1] || st[0] != st[2]) {
		TH_LOG("nodes of the first, middle, last page: %d %d %d",
		       st[0], st[1], st[2]);
		return -1;
	}
	return st[0];
}

/* A counter of the node's hugetlb pool of this size, e.g. "free_hugepages". */
static long node_count(int node, size_t size, const char *file)
{
	char path[128];

	snprintf(path, sizeof(path), NODE_DIR "/node%d/hugepages/hugepages-%zukB/%s",
		 node, size >> 10, file);
	return read_long(path);
}

TEST_F_TIMEOUT(migrate, move, 900)
{
	size_t size = variant->size;
	unsigned long from, to;
	char *p = self->m.base;
	uint64_t seed = new_seed();
	struct hc_verdict v;
	int src, dst, st = -1;
	void *head = p;
	long ret;

	hc_pattern_fill(p, size, seed);
	if (!variant->hugetlb)
		ASSERT_EQ(1, hc_is_folio(self->pagemap, p, size))
			TH_LOG("not a THP after the fill");
	src = node_of(_metadata, p, size);
	ASSERT_LE(0, src);
	dst = self->nodes[src == self->nodes[0]];
	if (variant->hugetlb && node_count(dst, size, "free_hugepages") < 1)
		SKIP(return, "no free hugetlb page of %zu kB on node %d (%ld of %ld free)",
		     size >> 10, dst, node_count(dst, size, "free_hugepages"),
		     node_count(dst, size, "nr_hugepages"));

	/* One address per folio: another of the same folio gives EBUSY. */
	ret = syscall(SYS_move_pages, 0, 1, &head, &dst, &st, MPOL_MF_MOVE);
	ASSERT_EQ(0, ret) TH_LOG("move_pages() to node %d: %ld (%s), status %d",
				 dst, ret, strerror(errno), st);
	ASSERT_EQ(dst, node_of(_metadata, p, size))
		TH_LOG("move_pages() from node %d to %d, status %d", src, dst, st);
	hc_check_copy(&v, p, size, seed, HC_NONE);
	EXPECT_INTACT(&v, "after move_pages()");
	if (!variant->hugetlb)
		EXPECT_EQ(1, hc_is_folio(self->pagemap, p, size))
			TH_LOG("split by move_pages(): no huge copy");

	/* All of this process's pages on dst back to src. */
	from = 1UL << dst;
	to = 1UL << src;
	ret = syscall(SYS_migrate_pages, 0, 8 * sizeof(from), &from, &to);
	ASSERT_LE(0, ret) TH_LOG("migrate_pages(): %s", strerror(errno));
	ASSERT_EQ(src, node_of(_metadata, p, size))
		TH_LOG("migrate_pages() from node %d to %d: %ld not moved",
		       dst, src, ret);
	hc_check_copy(&v, p, size, seed, HC_NONE);
	EXPECT_INTACT(&v, "after migrate_pages()");
	if (!variant->hugetlb)
		EXPECT_EQ(1, hc_is_folio(self->pagemap, p, size))
			TH_LOG("split by migrate_pages(): no huge copy");
	TH_LOG("%zu kB from node %d to %d and back, seed %#llx", size >> 10,
	       src, dst, (unsigned long long)seed);
}

/* ---- khugepaged's collapse ---- */

FIXTURE(collapse) {
	struct hc_map m;
};

FIXTURE_SETUP(collapse)
{
	struct hc_kind k = { SZ_2M, 1, false };
	int err = hc_map(&k, &self->m);

	if (err == -EINVAL)
		SKIP(return, "MADV_HUGEPAGE: EINVAL, a kernel without THP");
	ASSERT_EQ(0, err) TH_LOG("mmap: %s", strerror(-err));
}

FIXTURE_TEARDOWN(collapse)
{
	hc_unmap(&self->m);
}

/* The range is a VMA of its own, 2 MiB aligned (hc_map()). */
TEST_F_TIMEOUT(collapse, thp_2M, 300)
{
	char *p = self->m.base;
	uint64_t seed = new_seed();
	struct hc_verdict v;
	int ret, i, pagemap;

	/* 4 KiB pages first: no THP (or mTHP) while VM_NOHUGEPAGE. */
	ASSERT_EQ(0, madvise(p, SZ_2M, MADV_NOHUGEPAGE));
	hc_pattern_fill(p, SZ_2M, seed);
	ASSERT_TRUE(check_huge_anon(p, 0, SZ_2M))
		TH_LOG("a THP before MADV_COLLAPSE");
	/* MADV_COLLAPSE refuses VM_NOHUGEPAGE; EAGAIN is transient. */
	ASSERT_EQ(0, madvise(p, SZ_2M, MADV_HUGEPAGE));
	for (i = 0; i < 10; i++) {
		ret = madvise(p, SZ_2M, MADV_COLLAPSE);
		if (!ret || errno != EAGAIN)
			break;
		usleep(100000);
	}
	if (ret && errno == EINVAL)
		SKIP(return, "MADV_COLLAPSE: EINVAL (before 6.1, or THP off)");
	ASSERT_EQ(0, ret) TH_LOG("MADV_COLLAPSE: %s", strerror(errno));
	pagemap = open("/proc/self/pagemap", O_RDONLY);
	ASSERT_EQ(1, hc_is_folio(pagemap, p, SZ_2M))
		TH_LOG("no THP after MADV_COLLAPSE");
	close(pagemap);
	hc_check_copy(&v, p, SZ_2M, seed, HC_NONE);
	EXPECT_INTACT(&v, "after MADV_COLLAPSE");
}

TEST_HARNESS_MAIN
