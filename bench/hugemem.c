// SPDX-License-Identifier: GPL-2.0
/*
 * Huge page backed buffers for clearbench.
 *
 * hugetlb comes first. If the pool of the wanted size is short, it is
 * grown through sysfs (nr_hugepages) and the original value is written
 * back when the buffer is freed, at exit, and on a fatal signal. If that
 * fails, the buffer is anonymous memory aligned to the page size and
 * madvise(MADV_HUGEPAGE)d, and the report says how much of it THP backs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/mman.h>
#include <unistd.h>

#include "common.h"
#include "hugemem.h"

/*
 * One hugetlb pool. nr_hugepages under /sys/kernel/mm/hugepages is the
 * same counter as /proc/sys/vm/nr_hugepages for the default size, and
 * also exists for the other sizes.
 */
struct pool {
	size_t page;
	char dir[96];
	char orig[32];		/* nr_hugepages as found, to write back */
	size_t origlen;
	volatile sig_atomic_t changed;
};

static struct pool pools[] = {
	{ .page = SZ_2M },
	{ .page = SZ_1G },
};

#define NR_POOLS	ARRAY_SIZE(pools)

static struct pool *pool_of(size_t page)
{
	unsigned int i;

	for (i = 0; i < NR_POOLS; i++) {
		if (pools[i].page != page)
			continue;
		snprintf(pools[i].dir, sizeof(pools[i].dir),
			 "/sys/kernel/mm/hugepages/hugepages-%zukB",
			 page >> 10);
		return &pools[i];
	}
	return NULL;
}

static void why_set(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!why || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
}

static int read_ulong(const char *dir, const char *name, unsigned long *v)
{
	char path[160];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	ok = fscanf(f, "%lu", v) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

/* Async-signal-safe: used from the signal handler too. */
static int write_str(const char *dir, const char *s, size_t len)
{
	char path[160];
	ssize_t n;
	int fd;

	/* snprintf is not async-signal-safe: build the path by hand. */
	n = strlen(dir);
	if (n + sizeof("/nr_hugepages") > sizeof(path))
		return -1;
	memcpy(path, dir, n);
	memcpy(path + n, "/nr_hugepages", sizeof("/nr_hugepages"));
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	n = write(fd, s, len);
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

static void pool_restore(struct pool *p)
{
	if (!p->changed)
		return;
	write_str(p->dir, p->orig, p->origlen);
	p->changed = 0;
}

void hugetlb_restore(size_t page)
{
	struct pool *p = pool_of(page);

	if (p)
		pool_restore(p);
}

void hugetlb_restore_all(void)
{
	unsigned int i;

	for (i = 0; i < NR_POOLS; i++)
		pool_restore(&pools[i]);
}

static void restore_on_signal(int sig)
{
	hugetlb_restore_all();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install_restore(void)
{
	static const int sigs[] = {
		SIGINT, SIGTERM, SIGHUP, SIGQUIT,
		SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL,
	};
	static int done;
	unsigned int i;

	if (done)
		return;
	done = 1;
	atexit(hugetlb_restore_all);
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		signal(sigs[i], restore_on_signal);
}

static unsigned long pool_avail(struct pool *p)
{
	unsigned long nfree = 0, resv = 0;

	if (read_ulong(p->dir, "free_hugepages", &nfree))
		return 0;
	read_ulong(p->dir, "resv_hugepages", &resv);
	return nfree > resv ? nfree - resv : 0;
}

/* Make sure @npages pages of the pool are free and unreserved. */
static int pool_reserve(struct pool *p, unsigned long npages,
			char *why, size_t whylen)
{
	unsigned long nr, avail;
	char buf[32];
	int len;

	if (access(p->dir, F_OK)) {
		why_set(why, whylen, "no %s hugetlb support in the host kernel",
			page_name(p->page));
		return -1;
	}
	avail = pool_avail(p);
	if (avail >= npages)
		return 0;
	if (read_ulong(p->dir, "nr_hugepages", &nr)) {
		why_set(why, whylen, "cannot read %s/nr_hugepages", p->dir);
		return -1;
	}
	if (!p->changed) {
		p->origlen = snprintf(p->orig, sizeof(p->orig), "%lu\n", nr);
		install_restore();
		p->changed = 1;
	}
	len = snprintf(buf, sizeof(buf), "%lu\n", nr + npages - avail);
	if (write_str(p->dir, buf, len)) {
		why_set(why, whylen, "cannot grow %s/nr_hugepages: %s",
			p->dir, strerror(errno));
		pool_restore(p);
		return -1;
	}
	avail = pool_avail(p);
	if (avail < npages) {
		why_set(why, whylen,
			"%s pool: kernel gave %lu of the %lu pages needed",
			page_name(p->page), avail, npages);
		pool_restore(p);
		return -1;
	}
	return 0;
}

static void *hugetlb_mmap(size_t size, size_t page)
{
	int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB;
	void *p;

	flags |= page == SZ_1G ? MAP_HUGE_1GB : MAP_HUGE_2MB;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, flags, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

void *hugetlb_map_fresh(size_t size, size_t page, char *why, size_t whylen)
{
	struct pool *p = pool_of(page);
	void *addr;

	if (!p) {
		why_set(why, whylen, "unsupported page size %zu", page);
		return NULL;
	}
	addr = hugetlb_mmap(size, page);
	if (addr)
		return addr;
	if (pool_reserve(p, size / page, why, whylen))
		return NULL;
	addr = hugetlb_mmap(size, page);
	if (!addr)
		why_set(why, whylen, "mmap(MAP_HUGETLB|MAP_HUGE_%sB): %s",
			page_name(page), strerror(errno));
	return addr;
}

/* Bytes of [addr, addr + size) that THP backs, from /proc/self/smaps. */
static size_t thp_bytes(const char *addr, size_t size)
{
	unsigned long lo = (unsigned long)addr, hi = lo + size, s, e;
	size_t total = 0, kb;
	char line[256];
	int in = 0;
	FILE *f;

	f = fopen("/proc/self/smaps", "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &s, &e) == 2) {
			in = s < hi && e > lo;
			continue;
		}
		if (in && sscanf(line, "AnonHugePages: %zu kB", &kb) == 1)
			total += kb << 10;
	}
	fclose(f);
	return total;
}

static void touch(char *addr, size_t size)
{
	size_t off;

	for (off = 0; off < size; off += SZ_4K)
		((volatile char *)addr)[off] = 1;
}

static int thp_alloc(struct hugebuf *b, size_t size, size_t page,
		     const char *why)
{
	size_t maplen = size + page, head;
	uintptr_t start;
	char *map;

	map = mmap(NULL, maplen, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (map == MAP_FAILED) {
		fprintf(stderr, "clearbench: mmap %zu bytes: %s\n", maplen,
			strerror(errno));
		return -1;
	}
	start = ((uintptr_t)map + page - 1) & ~(page - 1);
	head = start - (uintptr_t)map;
	if (head)
		munmap(map, head);
	if (maplen - head > size)
		munmap((char *)start + size, maplen - head - size);

	b->addr = (char *)start;
	b->map = b->addr;
	b->maplen = size;
	b->backing = BACKED_THP;
	if (madvise(b->addr, size, MADV_HUGEPAGE))
		fprintf(stderr, "clearbench: madvise(MADV_HUGEPAGE): %s\n",
			strerror(errno));
	touch(b->addr, size);
	snprintf(b->desc, sizeof(b->desc),
		 "THP, %zu of %zu MiB in 2M pages (hugetlb %s: %s)",
		 thp_bytes(b->addr, size) >> 20, size >> 20,
		 page_name(page), why);
	return 0;
}

int hugebuf_alloc(struct hugebuf *b, size_t size, size_t page,
		  enum backing_mode mode)
{
	char why[160] = "not tried (-B thp)";
	struct pool *p = pool_of(page);

	memset(b, 0, sizeof(*b));
	b->size = size;
	b->page = page;
	if (mode != BACKING_THP) {
		b->addr = hugetlb_map_fresh(size, page, why, sizeof(why));
		if (b->addr) {
			b->map = b->addr;
			b->maplen = size;
			b->backing = BACKED_HUGETLB;
			touch(b->addr, size);
			snprintf(b->desc, sizeof(b->desc), "hugetlb %s pages%s",
				 page_name(page), p->changed ?
				 " (pool grown for the run, restored after)" : "");
			return 0;
		}
		if (mode == BACKING_HUGETLB) {
			fprintf(stderr, "clearbench: no hugetlb %s buffer: %s\n",
				page_name(page), why);
			return -1;
		}
	}
	return thp_alloc(b, size, page, why);
}

void hugebuf_free(struct hugebuf *b)
{
	if (b->map)
		munmap(b->map, b->maplen);
	b->map = NULL;
	b->addr = NULL;
}
