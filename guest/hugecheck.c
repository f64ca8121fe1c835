// SPDX-License-Identifier: GPL-2.0
/*
 * hugecheck: the fill, free, re-fault and check round of hugezero and
 * torture, and small sysfs helpers; see hugecheck.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <linux/mman.h>
#include <unistd.h>

#include "mm/vm_util.h"
#include "mm/thp_settings.h"
#include "hugecheck.h"

/*
 * hugetlb: one mapping, reserved at mmap() time, so a short pool shows up
 * here as ENOMEM and never as SIGBUS at fault time.
 * THP: a PROT_NONE reservation; each region becomes its own read-write
 * VMA of exactly the kind's size, aligned to it, with a PROT_NONE gap
 * after it so that neighbours do not merge: the kernel then picks exactly
 * that folio order when all mTHP sizes are enabled.
 * Returns 0 or -errno.
 */
int hc_map(const struct hc_kind *k, struct hc_map *m)
{
	int flags = MAP_PRIVATE | MAP_ANONYMOUS, err;
	unsigned int i;

	if (k->hugetlb) {
		flags |= MAP_HUGETLB | (__builtin_ctzl(k->size) << MAP_HUGE_SHIFT);
		m->raw_len = k->size * k->npages;
		m->raw = mmap(NULL, m->raw_len, PROT_READ | PROT_WRITE, flags,
			      -1, 0);
		m->base = m->raw;
		m->stride = k->size;
		return m->raw == MAP_FAILED ? -errno : 0;
	}
	m->stride = 2 * k->size;
	m->raw_len = m->stride * k->npages + k->size;
	m->raw = mmap(NULL, m->raw_len, PROT_NONE, flags, -1, 0);
	if (m->raw == MAP_FAILED)
		return -errno;
	m->base = (char *)(((uintptr_t)m->raw + k->size - 1) & ~(k->size - 1));
	if (madvise(m->raw, m->raw_len, MADV_HUGEPAGE))
		goto fail;
	for (i = 0; i < k->npages; i++)
		if (mprotect(m->base + i * m->stride, k->size,
			     PROT_READ | PROT_WRITE))
			goto fail;
	return 0;
fail:
	err = errno;
	munmap(m->raw, m->raw_len);
	return -err;
}

void hc_unmap(struct hc_map *m)
{
	munmap(m->raw, m->raw_len);
}

/*
 * Count the non-zero bytes of [p, p + len), len a multiple of 4 KiB; the
 * offset of the first goes to *first, if first is not NULL. Each 4 KiB
 * block is OR-ed first, which the compiler vectorises.
 */
size_t count_nonzero(const char *p, size_t len, size_t *first)
{
	const uint64_t *w = (const uint64_t *)p;
	size_t i, j, bad = 0;

	for (i = 0; i < len / 8; i += SZ_4K / 8) {
		uint64_t acc = 0;

		for (j = 0; j < SZ_4K / 8; j++)
			acc |= w[i + j];
		if (!acc)
			continue;
		for (j = i * 8; j < i * 8 + SZ_4K; j++)
			if (p[j] && !bad++ && first)
				*first = j;
	}
	return bad;
}

/*
 * The copy pattern of [p, p + len), len a multiple of 4 KiB: word j of
 * subpage s is s for j == 0, else base(seed, s) + j * HC_STEP, where the
 * multiplication of base() spreads a change of seed or s over all bytes.
 */
#define HC_MUL	0x9e3779b97f4a7c15ULL
#define HC_STEP	0x0123456789abcdefULL
#define HC_WORDS (SZ_4K / 8)

static inline uint64_t hc_base(uint64_t seed, size_t s)
{
	return (seed ^ (s + 1) * HC_MUL) * HC_MUL;
}

void hc_pattern_fill(char *p, size_t len, uint64_t seed)
{
	uint64_t *w = (uint64_t *)p, base;
	size_t s, j;

	for (s = 0; s < len / SZ_4K; s++, w += HC_WORDS) {
		base = hc_base(seed, s);
		w[0] = s;
		for (j = 1; j < HC_WORDS; j++)
			w[j] = base + j * HC_STEP;
	}
}

/*
 * The byte that hc_pattern_check() expects at offset off of a range in
 * which the byte at offset wrote (HC_NONE: none) was written with
 * hc_pattern_write(): the pattern's (x86: little endian), or its
 * complement at wrote.
 */
unsigned char hc_pattern_byte(uint64_t seed, size_t off, size_t wrote)
{
	size_t s = off / SZ_4K, j = off % SZ_4K / 8;
	uint64_t w = j ? hc_base(seed, s) + j * HC_STEP : s;

	return (w >> (off % 8 * 8)) ^ (off == wrote ? 0xff : 0);
}

void hc_pattern_write(char *p, uint64_t seed, size_t off)
{
	*(volatile char *)(p + off) = hc_pattern_byte(seed, off, off);
}

/*
 * The bytes of [p, p + len) that differ from what hc_pattern_byte()
 * expects; the offset of the first goes to *first, if first is not NULL.
 * A subpage's words are compared first (vectorised), its bytes only if
 * one differs.
 */
size_t hc_pattern_check(const char *p, size_t len, uint64_t seed, size_t wrote,
			size_t *first)
{
	const uint64_t *w = (const uint64_t *)p;
	size_t s, j, bad = 0;
	uint64_t base, diff;

	for (s = 0; s < len / SZ_4K; s++, w += HC_WORDS) {
		base = hc_base(seed, s);
		diff = w[0] ^ s;
		for (j = 1; j < HC_WORDS; j++)
			diff |= w[j] ^ (base + j * HC_STEP);
		if (!diff && wrote / SZ_4K != s)
			continue;
		for (j = s * SZ_4K; j < (s + 1) * SZ_4K; j++)
			if ((unsigned char)p[j] != hc_pattern_byte(seed, j, wrote) &&
			    !bad++ && first)
				*first = j;
	}
	return bad;
}

void hc_check_copy(struct hc_verdict *v, const char *p, size_t len,
		   uint64_t seed, size_t wrote)
{
	v->first = 0;
	v->bad = hc_pattern_check(p, len, seed, wrote, &v->first);
	v->got = p[v->first];
	v->want = hc_pattern_byte(seed, v->first, wrote);
}

/*
 * One copy-on-write of the huge page [p, p + size), MAP_PRIVATE and
 * filled with the copy pattern of seed: fork(); the child (or the parent,
 * if parent_writes) writes the byte at off, which makes the kernel copy
 * the page for it, and checks its copy; the other side checks, after that
 * write, that its page is untouched. The child's verdict goes to v[0],
 * the parent's to v[1]. Returns 0, -errno of a failed mmap(), pipe() or
 * fork(), or the child's wait status if it did not exit with 0.
 */
int hc_cow(char *p, size_t size, uint64_t seed, size_t off, bool parent_writes,
	   struct hc_verdict v[2])
{
	struct hc_verdict *child = mmap(NULL, sizeof(*child),
					PROT_READ | PROT_WRITE,
					MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int fds[2], ret = 0;
	pid_t pid;
	char c;

	if (child == MAP_FAILED)
		return -errno;
	memset(v, 0, 2 * sizeof(*v));
	if (pipe(fds)) {
		ret = -errno;
		goto out;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(fds[1]);
		if (parent_writes)	/* EOF: the parent has written */
			while (read(fds[0], &c, 1) < 0 && errno == EINTR)
				;
		else
			hc_pattern_write(p, seed, off);
		hc_check_copy(child, p, size, seed, parent_writes ? HC_NONE : off);
		_exit(0);
	}
	if (pid < 0)
		ret = -errno;
	close(fds[0]);
	if (pid > 0 && parent_writes) {
		hc_pattern_write(p, seed, off);
		hc_check_copy(&v[1], p, size, seed, off);
	}
	close(fds[1]);
	if (pid > 0 && waitpid(pid, &ret, 0) != pid)
		ret = -errno;
	if (pid > 0 && !parent_writes)
		hc_check_copy(&v[1], p, size, seed, HC_NONE);
	v[0] = *child;
out:
	munmap(child, sizeof(*child));
	return ret;
}

/*
 * Is [p, p + size) one folio of that size? 1 if all its pages are present
 * and their PFNs contiguous from a size-aligned PFN (a fallback maps small
 * pages, or the shared zero page), 0 if not, -1 if we cannot see PFNs
 * (pagemap < 0, more than 2 MiB, no CAP_SYS_ADMIN); then for 2 MiB the
 * AnonHugePages of the VMA that starts at p decide.
 */
int hc_is_folio(int pagemap, char *p, size_t size)
{
	uint64_t ent[SZ_2M / SZ_4K], pfn;
	size_t i, n = size / SZ_4K;
	ssize_t len = n * sizeof(ent[0]);
	int huge = -1;

	if (pagemap >= 0 && size <= SZ_2M &&
	    pread(pagemap, ent, len, (uintptr_t)p / SZ_4K * sizeof(ent[0])) == len)
		for (i = 0, huge = 1; i < n && huge > 0; i++) {
			pfn = PAGEMAP_PFN(ent[i]);
			if (!PAGEMAP_PRESENT(ent[i]))
				huge = 0;
			else if (!pfn)
				huge = -1;
			else if ((!i && pfn % n) || pfn != PAGEMAP_PFN(ent[0]) + i)
				huge = 0;
		}
	if (huge < 0 && size == SZ_2M)
		huge = check_huge_anon(p, 1, SZ_2M);
	return huge;
}

/*
 * One round of k->npages huge pages; touch[i] is the offset of the first
 * touch of page i. check() is called for each page, after all of them
 * were touched and while they are still mapped. Returns 0, or -errno of
 * a failed mmap() with *what saying which one.
 */
int hc_round(const struct hc_kind *k, int pattern, const size_t *touch,
	     hc_check_fn check, void *arg, const char **what)
{
	struct hc_page pg;
	struct hc_map m;
	unsigned int i;
	int err;

	/* Dirty the pages, then give them back. */
	*what = "mmap for the fill";
	err = hc_map(k, &m);
	if (err)
		return err;
	for (i = 0; i < k->npages; i++)
		memset(m.base + i * m.stride, pattern, k->size);
	hc_unmap(&m);

	/* Take them again; the first touch is a write in the middle. */
	*what = "mmap";
	err = hc_map(k, &m);
	if (err)
		return err;
	for (i = 0; i < k->npages; i++)
		*(volatile char *)(m.base + i * m.stride + touch[i]) = HC_MARKER;
	for (i = 0; i < k->npages; i++) {
		pg.addr = m.base + i * m.stride;
		pg.touch = touch[i];
		pg.marker = pg.addr[pg.touch];
		pg.addr[pg.touch] = 0;	/* the one byte that is not checked */
		pg.first = 0;
		pg.nonzero = count_nonzero(pg.addr, k->size, &pg.first);
		check(&pg, i, arg);
	}
	hc_unmap(&m);
	return 0;
}

/* A number from a sysfs file, or -1 (thp_settings.c's read_num() exits). */
long read_long(const char *path)
{
	char buf[64];

	return read_file(path, buf, sizeof(buf)) ? strtol(buf, NULL, 10) : -1;
}

/*
 * Write val to path; 0 or the errno of the failed open() or write()
 * (thp_settings.c's write_file() exits instead).
 */
int write_str(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, val, strlen(val)) < 0)
		err = errno;
	close(fd);
	return err;
}

/* A counter of the hugetlb pool of this page size, e.g. "free_hugepages". */
long hugetlb_count(size_t size, const char *file)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path),
		 "/sys/kernel/mm/hugepages/hugepages-%zukB/%s", size >> 10, file);
	return read_long(path);
}

/* A /proc/vmstat event, or -1 if the kernel has none of that name. */
long read_vmstat(const char *name)
{
	char key[64];
	long val = -1, v;
	FILE *f = fopen("/proc/vmstat", "r");

	while (f && fscanf(f, "%63s %ld", key, &v) == 2)
		if (!strcmp(key, name))
			val = v;
	if (f)
		fclose(f);
	return val;
}

/* n hugetlb pages of this size, private, not yet faulted; NULL on error. */
char *hugetlb_map(size_t size, long n)
{
	int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB |
		    (__builtin_ctzl(size) << MAP_HUGE_SHIFT);
	char *p = mmap(NULL, size * n, PROT_READ | PROT_WRITE, flags, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/*
 * Fault every free page of the pool, fill it, and give it back: after
 * this, no free page is known to be zero. 0 or an errno.
 */
int hugetlb_dirty_pool(size_t size)
{
	long n = hugetlb_count(size, "free_hugepages");
	char *p;

	if (n <= 0)
		return n < 0 ? EIO : 0;
	p = hugetlb_map(size, n);
	if (!p)
		return errno;
	memset(p, 0x5a, size * n);
	munmap(p, size * n);
	return 0;
}
