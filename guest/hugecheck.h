/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hugecheck: the checks that hugezero, copies and torture share, and
 * small sysfs helpers of the guest programs. Linked into them by
 * scripts/initramfs.sh (a guest/X.c with a guest/X.h is a helper, not a
 * program).
 *
 * A round (hc_round()) maps some huge pages of one kind, fills them with a
 * non-zero pattern and unmaps them, so that they go back to the pool or
 * the buddy allocator dirty. It maps the same amount again and takes the
 * first fault of each huge page with a write of HC_MARKER at a given
 * offset, so that the kernel zeroes the folio for a fault address in its
 * middle; a write, because a read would map THP's huge zero page. Then it
 * checks each huge page: the marker must read back, and with the marker's
 * byte cleared every byte must be zero.
 *
 * The copy pattern (hc_pattern_*()), of copies and torture's CoW rounds:
 * 4 KiB subpage s of a filled range holds s in its first 8 bytes and then
 * words that differ per seed, per subpage and per offset, so that a
 * subpage copied to the wrong place, a shifted copy, a stale or a zeroed
 * subpage all show up as wrong bytes. hc_pattern_write() writes one
 * byte that differs from the pattern: a write that makes the kernel copy.
 * hc_cow() is one copy-on-write of a huge page, checked on both sides.
 * hc_is_folio() tells from pagemap whether a range is one huge folio.
 */
#ifndef GUEST_HUGECHECK_H
#define GUEST_HUGECHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SZ_4K		(4UL << 10)
#define SZ_2M		(2UL << 20)
#define SZ_1G		(1UL << 30)
#define HC_MARKER	0x7e	/* never a fill pattern of torture's (0x80 | n) */
/* The patched kernel's evaluation knobs (debugfs); the product has none. */
#define HC_KNOBS	"/sys/kernel/debug/clear_huge_page/"

struct hc_kind {
	size_t size;		/* huge page size; THP: the region's size */
	unsigned int npages;	/* huge pages per round */
	bool hugetlb;		/* MAP_HUGETLB, else THP/mTHP (MADV_HUGEPAGE) */
};

/* Huge page i is at base + i * stride. */
struct hc_map {
	char *raw;		/* what to munmap() */
	size_t raw_len;
	char *base;
	size_t stride;
};

/* One huge page of a round, checked, still mapped. */
struct hc_page {
	char *addr;
	size_t touch;		/* offset of the first touch */
	unsigned char marker;	/* read back there: HC_MARKER if all is well */
	size_t nonzero;		/* non-zero bytes, the marker's cleared */
	size_t first;		/* offset of the first of them */
};

typedef void (*hc_check_fn)(const struct hc_page *pg, unsigned int i,
			    void *arg);

int hc_map(const struct hc_kind *k, struct hc_map *m);
void hc_unmap(struct hc_map *m);
int hc_round(const struct hc_kind *k, int pattern, const size_t *touch,
	     hc_check_fn check, void *arg, const char **what);
size_t count_nonzero(const char *p, size_t len, size_t *first);

#define HC_NONE	((size_t)-1)
void hc_pattern_fill(char *p, size_t len, uint64_t seed);
unsigned char hc_pattern_byte(uint64_t seed, size_t off, size_t wrote);
void hc_pattern_write(char *p, uint64_t seed, size_t off);
size_t hc_pattern_check(const char *p, size_t len, uint64_t seed, size_t wrote,
			size_t *first);

/* What a check of a range against the copy pattern found. */
struct hc_verdict {
	size_t bad;		/* wrong bytes */
	size_t first;		/* the offset of the first */
	unsigned char got, want;	/* what it held there, what it should */
};

void hc_check_copy(struct hc_verdict *v, const char *p, size_t len,
		   uint64_t seed, size_t wrote);
int hc_cow(char *p, size_t size, uint64_t seed, size_t off, bool parent_writes,
	   struct hc_verdict v[2]);
int hc_is_folio(int pagemap, char *p, size_t size);

long read_long(const char *path);
int write_str(const char *path, const char *val);
long hugetlb_count(size_t size, const char *file);
long read_vmstat(const char *name);
char *hugetlb_map(size_t size, long n);
int hugetlb_dirty_pool(size_t size);

#endif /* GUEST_HUGECHECK_H */
