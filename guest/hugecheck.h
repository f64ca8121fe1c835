/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hugecheck: the check that hugezero and torture share, and small sysfs
 * helpers of the guest programs. Linked into them by scripts/initramfs.sh
 * (a guest/X.c with a guest/X.h is a helper, not a program).
 *
 * A round (hc_round()) maps some huge pages of one kind, fills them with a
 * non-zero pattern and unmaps them, so that they go back to the pool or
 * the buddy allocator dirty. It maps the same amount again and takes the
 * first fault of each huge page with a write of HC_MARKER at a given
 * offset, so that the kernel zeroes the folio for a fault address in its
 * middle; a write, because a read would map THP's huge zero page. Then it
 * checks each huge page: the marker must read back, and with the marker's
 * byte cleared every byte must be zero.
 */
#ifndef GUEST_HUGECHECK_H
#define GUEST_HUGECHECK_H

#include <stdbool.h>
#include <stddef.h>

#define SZ_4K		(4UL << 10)
#define SZ_2M		(2UL << 20)
#define SZ_1G		(1UL << 30)
#define HC_MARKER	0x7e	/* never a fill pattern of torture's (0x80 | n) */

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

long read_long(const char *path);
int write_str(const char *path, const char *val);
long hugetlb_count(size_t size, const char *file);

#endif /* GUEST_HUGECHECK_H */
