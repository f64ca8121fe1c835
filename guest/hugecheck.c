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
#include <sys/mman.h>
#include <linux/mman.h>
#include <unistd.h>

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
