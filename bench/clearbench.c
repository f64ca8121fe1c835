// SPDX-License-Identifier: GPL-2.0
/*
 * clearbench - how fast does this CPU zero huge pages with the kernel's own
 * clear_pages_*() routines (arch/x86/lib/clear_page_64.S of a kernel tree,
 * assembled into this program with the headers in shim/), in the orders
 * Linux 6.12 and the multi-page clearing series use them?
 *
 * Each strategy clears a huge page backed buffer, seen as a sequence of
 * 2 MiB or 1 GiB pages, each with its own fault subpage drawn from a
 * fixed-seed PRNG:
 *
 *   mainline    6.12's folio_zero_user(): process_huge_page()'s order, one
 *               clear_pages_erms(addr, 4096) per subpage; 1 GiB pages in
 *               ascending order
 *   multi       the series: left of the fault's neighbourhood, right of
 *               it, the neighbourhood last, one clear_pages_erms() each;
 *               1 GiB pages as one extent
 *   chunked     as multi, each extent cut into 32 MiB calls
 *   nt          as multi, left/right extents (and 1 GiB pages) of at least
 *               -t bytes with clear_pages_nt(), the rest with REP STOSB
 *   limit       the fastest store loop this CPU has: each candidate
 *               (AVX-512, AVX2 and MOVNTI non-temporal, AVX-512 and AVX2
 *               plain stores) runs in every round, the one with the best
 *               median clearing rate is reported as limit
 *   rep, orig   clear_pages_rep() / clear_pages_orig(), one extent a page
 *   host-fault  the host kernel: first touch of fresh MAP_HUGETLB pages
 *
 * gbps is bytes over the time of the clear alone, on a resident buffer.
 * e2e_gbps is bytes over the time of the clear plus one sequential 8-byte
 * store pass by "the user" over the whole buffer, which pays for whatever
 * the clear left out of the cache.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <immintrin.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "clear_pages.h"
#include "hugemem.h"

#define MAX_ORDER_NR_PAGES	1024UL	/* 6.12: 1 << MAX_PAGE_ORDER */
#define NEIGHBOURHOOD		2UL	/* CLEAR_HUGE_NEIGHBOURHOOD */
#define CHUNK			(32UL << 20)
#define SEED			0xc1ea4b16e5eedUL
#define MAX_ROUNDS		1000
#define DEFAULT_NT_THRESH	(1UL << 20)

struct ctx {
	char *buf;
	size_t size;
	size_t page;			/* huge page size */
	unsigned long nr_huge;		/* huge pages in buf */
	unsigned long nr_sub;		/* 4 KiB subpages per huge page */
	const unsigned long *fault;	/* fault subpage of each huge page */
	size_t nt_thresh;
	void (*large)(void *addr, unsigned long len);	/* above nt_thresh */
};

typedef void (*clear_fn)(void *addr, unsigned long len);

/* ---- orders: the kernel's, as pure functions ---- */

typedef void (*subpage_fn)(void *arg, unsigned long idx);

/*
 * Linux 6.12 folio_zero_user(): clear_gigantic_page() for folios above
 * MAX_ORDER_NR_PAGES, else process_huge_page(), which ends at subpage @n
 * after closing in on it from both sides.
 */
static inline __attribute__((always_inline)) void
mainline_order(unsigned long nr, unsigned long n, subpage_fn fn, void *arg)
{
	long i, base, l;

	if (nr > MAX_ORDER_NR_PAGES) {
		for (i = 0; i < (long)nr; i++)
			fn(arg, i);
		return;
	}
	if (2 * n <= nr) {
		base = 0;
		l = n;
		for (i = nr - 1; i >= 2 * (long)n; i--)
			fn(arg, i);
	} else {
		base = nr - 2 * (nr - n);
		l = nr - n;
		for (i = 0; i < base; i++)
			fn(arg, i);
	}
	for (i = 0; i < l; i++) {
		fn(arg, base + i);
		fn(arg, base + 2 * l - 1 - i);
	}
}

struct region {
	unsigned long start, end;	/* subpages [start, end) */
};

/*
 * The series' clear_huge_regions(): left of the neighbourhood, right of
 * it, then the neighbourhood (fault +- NEIGHBOURHOOD) last. Returns how
 * many non-empty regions it wrote; the last one is the neighbourhood.
 */
static unsigned int huge_regions(unsigned long nr, unsigned long f,
				 struct region r[3])
{
	unsigned long nb_start, nb_end;
	unsigned int n = 0;

	if (f > nr - 1)
		f = nr - 1;
	nb_start = f > NEIGHBOURHOOD ? f - NEIGHBOURHOOD : 0;
	nb_end = f + NEIGHBOURHOOD + 1 < nr ? f + NEIGHBOURHOOD + 1 : nr;
	if (nb_start > 0)
		r[n++] = (struct region){ 0, nb_start };
	if (nb_end < nr)
		r[n++] = (struct region){ nb_end, nr };
	r[n++] = (struct region){ nb_start, nb_end };
	return n;
}

/* ---- store loops of our own ---- */

/* MOVNTI, 64 bytes an iteration: clear_pages_nt() when the tree has none. */
static void movnti_clear(void *addr, unsigned long len)
{
	long long *p = addr, *end = (long long *)((char *)addr + len);

	for (; p < end; p += 8) {
		_mm_stream_si64(p + 0, 0);
		_mm_stream_si64(p + 1, 0);
		_mm_stream_si64(p + 2, 0);
		_mm_stream_si64(p + 3, 0);
		_mm_stream_si64(p + 4, 0);
		_mm_stream_si64(p + 5, 0);
		_mm_stream_si64(p + 6, 0);
		_mm_stream_si64(p + 7, 0);
	}
	_mm_sfence();
}

__attribute__((target("avx2")))
static void avx2_nt_clear(void *addr, unsigned long len)
{
	__m256i z = _mm256_setzero_si256(), *p = addr;
	__m256i *end = (__m256i *)((char *)addr + len);

	for (; p < end; p += 4) {
		_mm256_stream_si256(p + 0, z);
		_mm256_stream_si256(p + 1, z);
		_mm256_stream_si256(p + 2, z);
		_mm256_stream_si256(p + 3, z);
	}
	_mm_sfence();
}

__attribute__((target("avx512f")))
static void avx512_nt_clear(void *addr, unsigned long len)
{
	__m512i z = _mm512_setzero_si512(), *p = addr;
	__m512i *end = (__m512i *)((char *)addr + len);

	for (; p < end; p += 4) {
		_mm512_stream_si512(p + 0, z);
		_mm512_stream_si512(p + 1, z);
		_mm512_stream_si512(p + 2, z);
		_mm512_stream_si512(p + 3, z);
	}
	_mm_sfence();
}

/* Plain (temporal) vector stores, in case they beat streaming here. */
__attribute__((target("avx2")))
static void avx2_clear(void *addr, unsigned long len)
{
	__m256i z = _mm256_setzero_si256(), *p = addr;
	__m256i *end = (__m256i *)((char *)addr + len);

	for (; p < end; p += 4) {
		_mm256_store_si256(p + 0, z);
		_mm256_store_si256(p + 1, z);
		_mm256_store_si256(p + 2, z);
		_mm256_store_si256(p + 3, z);
	}
}

__attribute__((target("avx512f")))
static void avx512_clear(void *addr, unsigned long len)
{
	__m512i z = _mm512_setzero_si512(), *p = addr;
	__m512i *end = (__m512i *)((char *)addr + len);

	for (; p < end; p += 4) {
		_mm512_store_si512(p + 0, z);
		_mm512_store_si512(p + 1, z);
		_mm512_store_si512(p + 2, z);
		_mm512_store_si512(p + 3, z);
	}
}

#ifdef HAVE_CLEAR_PAGES_NT
#define nt_clear	clear_pages_nt
#define NT_SOURCE	"clear_pages_nt() from the tree"
#else
#define nt_clear	movnti_clear
#define NT_SOURCE	"clearbench's own MOVNTI loop (the tree has no clear_pages_nt)"
#endif

/* How the kernel's default bypasses the cache above the threshold. */
static clear_fn large_method(const char **name)
{
	if (name)
		*name = "clear_pages_nt (MOVNTI)";
	return nt_clear;
}

/*
 * Does the kernel's default bypass the cache on this CPU at all? Only on
 * Intel (clear_nt_default_threshold() in arch/x86/mm/clear_pages.c): AMD
 * and Hygon stop allocating lines for long REP STOS runs by themselves,
 * and nothing was measured elsewhere.
 */
static bool cpu_is_intel(void)
{
	char line[256], vendor[64] = "";
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "vendor_id : %63s", vendor) == 1)
			break;
	if (f)
		fclose(f);
	return !strcmp(vendor, "GenuineIntel");
}

static bool cpu_has(const char *feature)
{
	__builtin_cpu_init();
	if (!strcmp(feature, "avx512f"))
		return __builtin_cpu_supports("avx512f");
	if (!strcmp(feature, "avx2"))
		return __builtin_cpu_supports("avx2");
	return __builtin_cpu_supports("sse2");
}

/*
 * What "the user" does after the fault: one sequential pass of plain
 * 8-byte stores. In asm so that the compiler can neither turn it into a
 * memset() call (which may use non-temporal stores) nor vectorise it.
 */
static void user_write(void *addr, size_t len)
{
	unsigned long v = 0x0101010101010101UL, n = len / 64;

	if (!n)
		return;
	asm volatile("1:\n\t"
		     "movq %2, 0(%0)\n\t"
		     "movq %2, 8(%0)\n\t"
		     "movq %2, 16(%0)\n\t"
		     "movq %2, 24(%0)\n\t"
		     "movq %2, 32(%0)\n\t"
		     "movq %2, 40(%0)\n\t"
		     "movq %2, 48(%0)\n\t"
		     "movq %2, 56(%0)\n\t"
		     "addq $64, %0\n\t"
		     "decq %1\n\t"
		     "jnz 1b"
		     : "+r" (addr), "+r" (n)
		     : "r" (v)
		     : "memory", "cc");
}

/* ---- the strategies ---- */

static char *huge_page(const struct ctx *c, unsigned long k)
{
	return c->buf + k * c->page;
}

static bool gigantic(const struct ctx *c)
{
	return c->nr_sub > MAX_ORDER_NR_PAGES;
}

static void clear_subpage(void *arg, unsigned long idx)
{
	clear_pages_erms((char *)arg + idx * SZ_4K, SZ_4K);
}

static void clear_mainline(const struct ctx *c)
{
	unsigned long k;

	for (k = 0; k < c->nr_huge; k++)
		mainline_order(c->nr_sub, c->fault[k], clear_subpage,
			       huge_page(c, k));
}

static void clear_extent(clear_fn fn, char *page, struct region r)
{
	fn(page + r.start * SZ_4K, (r.end - r.start) * SZ_4K);
}

static void clear_multi(const struct ctx *c)
{
	struct region r[3];
	unsigned long k;
	unsigned int i, n;

	for (k = 0; k < c->nr_huge; k++) {
		if (gigantic(c)) {
			clear_pages_erms(huge_page(c, k), c->page);
			continue;
		}
		n = huge_regions(c->nr_sub, c->fault[k], r);
		for (i = 0; i < n; i++)
			clear_extent(clear_pages_erms, huge_page(c, k), r[i]);
	}
}

static void clear_in_chunks(char *addr, size_t len)
{
	size_t off, n;

	for (off = 0; off < len; off += n) {
		n = len - off < CHUNK ? len - off : CHUNK;
		clear_pages_erms(addr + off, n);
	}
}

static void clear_chunked(const struct ctx *c)
{
	struct region r[3];
	unsigned long k;
	unsigned int i, n;
	char *page;

	for (k = 0; k < c->nr_huge; k++) {
		page = huge_page(c, k);
		if (gigantic(c)) {
			clear_in_chunks(page, c->page);
			continue;
		}
		n = huge_regions(c->nr_sub, c->fault[k], r);
		for (i = 0; i < n; i++)
			clear_in_chunks(page + r[i].start * SZ_4K,
					(r[i].end - r[i].start) * SZ_4K);
	}
}

/* The kernel's rule: bypass the cache for regions over the threshold. */
static clear_fn nt_or_erms(const struct ctx *c, size_t len)
{
	return len > c->nt_thresh ? c->large : clear_pages_erms;
}

static void clear_nt(const struct ctx *c)
{
	struct region r[3];
	unsigned long k;
	unsigned int i, n;

	for (k = 0; k < c->nr_huge; k++) {
		if (gigantic(c)) {
			nt_or_erms(c, c->page)(huge_page(c, k), c->page);
			continue;
		}
		n = huge_regions(c->nr_sub, c->fault[k], r);
		/* All but the last (the neighbourhood) may go around the cache. */
		for (i = 0; i + 1 < n; i++)
			clear_extent(nt_or_erms(c, (r[i].end - r[i].start) * SZ_4K),
				     huge_page(c, k), r[i]);
		clear_extent(clear_pages_erms, huge_page(c, k), r[n - 1]);
	}
}

/* The kernel's "nt" strategy: every region but the neighbourhood bypasses. */
static void clear_nt_all(const struct ctx *c)
{
	struct ctx all = *c;

	all.nt_thresh = 0;
	all.large = nt_clear;
	clear_nt(&all);
}

static void clear_each_page(const struct ctx *c, clear_fn fn)
{
	unsigned long k;

	for (k = 0; k < c->nr_huge; k++)
		fn(huge_page(c, k), c->page);
}

static void limit_avx512(const struct ctx *c)
{
	clear_each_page(c, avx512_nt_clear);
}

static void limit_avx2(const struct ctx *c)
{
	clear_each_page(c, avx2_nt_clear);
}

static void limit_movnti(const struct ctx *c)
{
	clear_each_page(c, movnti_clear);
}

static void limit_avx512_store(const struct ctx *c)
{
	clear_each_page(c, avx512_clear);
}

static void limit_avx2_store(const struct ctx *c)
{
	clear_each_page(c, avx2_clear);
}

static void clear_rep(const struct ctx *c)
{
	clear_each_page(c, clear_pages_rep);
}

static void clear_orig(const struct ctx *c)
{
	clear_each_page(c, clear_pages_orig);
}

struct strategy {
	const char *name;
	void (*clear)(const struct ctx *c);	/* NULL: not a clear */
	const char *cpu_feature;		/* limit candidates only */
};

enum {
	/* What the options and CSVs can name. */
	S_MAINLINE, S_MULTI, S_CHUNKED, S_NT, S_DEFAULT, S_LIMIT, S_REP, S_ORIG,
	S_HOST_FAULT,
	NR_NAMED,
	/* Candidates for limit, which stand in for it in the runs. */
	S_AVX512_NT = NR_NAMED, S_AVX2_NT, S_MOVNTI, S_AVX512, S_AVX2,
	NR_STRATEGIES
};

static const struct strategy strategies[NR_STRATEGIES] = {
	[S_MAINLINE]	= { "mainline", clear_mainline },
	[S_MULTI]	= { "multi", clear_multi },
	[S_CHUNKED]	= { "chunked", clear_chunked },
	[S_NT]		= { "nt", clear_nt_all },
	[S_DEFAULT]	= { "default", clear_nt },
	[S_LIMIT]	= { "limit", NULL },
	[S_REP]		= { "rep", clear_rep },
	[S_ORIG]	= { "orig", clear_orig },
	[S_HOST_FAULT]	= { "host-fault", NULL },
	[S_AVX512_NT]	= { "avx512-nt", limit_avx512, "avx512f" },
	[S_AVX2_NT]	= { "avx2-nt", limit_avx2, "avx2" },
	[S_MOVNTI]	= { "movnti", limit_movnti, "sse2" },
	[S_AVX512]	= { "avx512-store", limit_avx512_store, "avx512f" },
	[S_AVX2]	= { "avx2-store", limit_avx2_store, "avx2" },
};

static bool is_candidate(int s)
{
	return s >= NR_NAMED;
}

static int strategy_index(const char *name)
{
	unsigned int i;

	for (i = 0; i < NR_NAMED; i++)
		if (!strcmp(strategies[i].name, name))
			return i;
	return -1;
}

/* ---- options and results ---- */

static const size_t page_sizes[] = { SZ_2M, SZ_1G };
#define NR_PAGES	2

static const char *page_name(size_t page)
{
	return page == SZ_1G ? "1G" : "2M";
}

struct opts {
	size_t size;
	int rounds;
	int cpu;
	size_t nt_thresh;
	char nt_src[160];
	const char *csv;
	const char *raw;
	bool want_page[NR_PAGES];
	bool want[NR_STRATEGIES];
	enum backing_mode backing;
	bool verify;
};

struct raw_run {
	int round, strat, page;
	double gbps, e2e;
};

struct results {
	struct raw_run *runs;
	size_t nr, cap;
	bool measured[NR_PAGES][NR_STRATEGIES];
	int limit_of[NR_PAGES];		/* candidate chosen, or -1 */
	char limit_note[NR_PAGES][256];
	char backing[NR_PAGES][256];
	char host_fault_note[NR_PAGES][256];
};

static struct results res;

static void record(int round, int strat, int page, double gbps, double e2e)
{
	if (res.nr == res.cap) {
		res.cap = res.cap ? 2 * res.cap : 256;
		res.runs = realloc(res.runs, res.cap * sizeof(*res.runs));
		if (!res.runs) {
			perror("clearbench: realloc");
			exit(1);
		}
	}
	res.runs[res.nr++] = (struct raw_run){ round, strat, page, gbps, e2e };
	res.measured[page][strat] = true;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static double gbps_of(size_t bytes, uint64_t ns)
{
	return ns ? (double)bytes / (double)ns : NAN;
}

static uint64_t xorshift64(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Informational lines; prefixed with "# " in -V mode to stay out of TAP. */
static const char *note_prefix = "";

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void note(const char *fmt, ...)
{
	va_list ap;

	fputs(note_prefix, stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
}

/* ---- running one strategy ---- */

static void run_clear(const struct ctx *c, int strat, double *gbps,
		      double *e2e)
{
	uint64_t t0, t1, t2;

	t0 = now_ns();
	strategies[strat].clear(c);
	t1 = now_ns();
	user_write(c->buf, c->size);
	t2 = now_ns();
	*gbps = gbps_of(c->size, t1 - t0);
	*e2e = gbps_of(c->size, t2 - t0);
}

/* First touch of each page of a fresh hugetlb mapping, at its fault subpage. */
static int run_host_fault(const struct ctx *c, double *gbps, double *e2e,
			  char *why, size_t whylen)
{
	uint64_t t0, t1, t2;
	unsigned long k;
	char *p;

	p = hugetlb_map_fresh(c->size, c->page, why, whylen);
	if (!p)
		return -1;
	t0 = now_ns();
	for (k = 0; k < c->nr_huge; k++)
		((volatile char *)p)[k * c->page + c->fault[k] * SZ_4K] = 1;
	t1 = now_ns();
	user_write(p, c->size);
	t2 = now_ns();
	munmap(p, c->size);
	*gbps = gbps_of(c->size, t1 - t0);
	*e2e = gbps_of(c->size, t2 - t0);
	return 0;
}

/* ---- one page size: measure ---- */

static unsigned long *fault_indices(unsigned long nr_huge, unsigned long nr_sub)
{
	unsigned long *f = calloc(nr_huge, sizeof(*f));
	uint64_t s = SEED;
	unsigned long k;

	if (!f) {
		perror("clearbench: calloc");
		exit(1);
	}
	for (k = 0; k < nr_huge; k++)
		f[k] = xorshift64(&s) % nr_sub;
	return f;
}

static bool setup_ctx(struct ctx *c, const struct opts *o, int pi)
{
	size_t page = page_sizes[pi];
	size_t size = o->size / page * page;

	if (!size) {
		note("%s pages: skipped, the buffer (-s %zu MiB) is smaller than one page\n",
		     page_name(page), o->size >> 20);
		return false;
	}
	if (size != o->size)
		note("%s pages: using %zu MiB of the %zu MiB buffer (whole pages)\n",
		     page_name(page), size >> 20, o->size >> 20);
	memset(c, 0, sizeof(*c));
	c->size = size;
	c->page = page;
	c->nr_huge = size / page;
	c->nr_sub = page / SZ_4K;
	c->fault = fault_indices(c->nr_huge, c->nr_sub);
	c->nt_thresh = o->nt_thresh;
	c->large = large_method(NULL);
	return true;
}

/*
 * Can host-fault run alongside the other strategies? Needs a second
 * hugetlb region of the buffer's size while the buffer is mapped.
 */
static bool host_fault_probe(const struct ctx *c, char *why, size_t whylen)
{
	void *p = hugetlb_map_fresh(c->size, c->page, why, whylen);

	if (!p)
		return false;
	munmap(p, c->size);
	return true;
}

static void measure_rounds(const struct ctx *c, const struct opts *o, int pi,
			   const int *sel, int ns)
{
	char why[256];
	double g, e;
	int r, j, s;

	/* Warm-up: every strategy once, not recorded. */
	for (j = 0; j < ns; j++) {
		if (sel[j] == S_HOST_FAULT)
			run_host_fault(c, &g, &e, why, sizeof(why));
		else
			run_clear(c, sel[j], &g, &e);
	}
	for (r = 0; r < o->rounds; r++) {
		for (j = 0; j < ns; j++) {
			s = sel[(j + r) % ns];
			if (s == S_HOST_FAULT) {
				if (run_host_fault(c, &g, &e, why, sizeof(why)))
					continue;
			} else {
				run_clear(c, s, &g, &e);
			}
			record(r + 1, s, pi, g, e);
		}
	}
}

/* Strategies to run, in order; "limit" means its candidates. */
static int select_strategies(const struct opts *o, bool with_fault, int *sel)
{
	int s, ns = 0;

	for (s = 0; s < NR_NAMED; s++) {
		if (!o->want[s] || s == S_LIMIT || (s == S_HOST_FAULT && !with_fault))
			continue;
		sel[ns++] = s;
	}
	for (s = NR_NAMED; s < NR_STRATEGIES && o->want[S_LIMIT]; s++)
		if (cpu_has(strategies[s].cpu_feature))
			sel[ns++] = s;
	return ns;
}

static double median(int pi, int s, bool e2e);

/*
 * limit is the candidate with the best median clearing rate: its runs
 * become limit's runs, the others stay out of the CSVs.
 */
static void choose_limit(int pi)
{
	int s, best = -1, n = 0;
	double m, best_m = 0;
	char *note_buf = res.limit_note[pi];
	size_t i;

	for (s = NR_NAMED; s < NR_STRATEGIES; s++) {
		if (!res.measured[pi][s])
			continue;
		m = median(pi, s, false);
		n += snprintf(note_buf + n, sizeof(res.limit_note[pi]) - n,
			      "%s%s %.2f", n ? ", " : "", strategies[s].name, m);
		if (best < 0 || m > best_m) {
			best = s;
			best_m = m;
		}
	}
	res.limit_of[pi] = best;
	if (best < 0)
		return;
	for (i = 0; i < res.nr; i++)
		if (res.runs[i].page == pi && res.runs[i].strat == best)
			res.runs[i].strat = S_LIMIT;
	res.measured[pi][S_LIMIT] = true;
}

static void measure_page(const struct opts *o, int pi)
{
	int sel[NR_STRATEGIES], ns;
	bool fault_inline = false, fault_later = false;
	char why[256] = "";
	struct hugebuf b;
	struct ctx c;

	if (!setup_ctx(&c, o, pi))
		return;
	if (hugebuf_alloc(&b, c.size, c.page, o->backing)) {
		free((void *)c.fault);
		return;
	}
	c.buf = b.addr;
	snprintf(res.backing[pi], sizeof(res.backing[pi]), "%s", b.desc);

	if (o->want[S_HOST_FAULT]) {
		if (o->backing == BACKING_THP)
			snprintf(why, sizeof(why), "-B thp leaves hugetlb alone");
		else if (host_fault_probe(&c, why, sizeof(why)))
			fault_inline = true;
		else
			fault_later = b.backing == BACKED_HUGETLB;
	}
	ns = select_strategies(o, fault_inline, sel);
	note("%s pages: %zu MiB, %s; %d runs a round x %d rounds...\n",
	     page_name(c.page), c.size >> 20, b.desc, ns, o->rounds);
	fflush(stdout);
	measure_rounds(&c, o, pi, sel, ns);
	hugebuf_free(&b);
	if (o->want[S_LIMIT])
		choose_limit(pi);

	/* Not enough pool for two buffers: host-fault on its own, after. */
	if (fault_later) {
		if (host_fault_probe(&c, why, sizeof(why))) {
			sel[0] = S_HOST_FAULT;
			measure_rounds(&c, o, pi, sel, 1);
			snprintf(res.host_fault_note[pi], sizeof(res.host_fault_note[pi]),
				 "measured after the others (pool too small for both)");
		}
	}
	if (o->want[S_HOST_FAULT] && !res.measured[pi][S_HOST_FAULT]) {
		snprintf(res.host_fault_note[pi], sizeof(res.host_fault_note[pi]),
			 "not measured: %s", why[0] ? why : "no hugetlb pages");
		note("host-fault %s: not measured: %s\n", page_name(c.page),
		     why[0] ? why : "no hugetlb pages");
	}
	hugetlb_restore(c.page);
	free((void *)c.fault);
}

/* ---- one page size: verify (-V) ---- */

static int tap_nr, tap_failed;

static void tap(bool ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void tap(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d ", ok ? "" : "not ", ++tap_nr);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!ok)
		tap_failed++;
}

/* Offset of the first non-zero byte, or -1. */
static long first_nonzero(const char *p, size_t len)
{
	const uint64_t *q = (const uint64_t *)p;
	size_t i, n = len / 8;

	for (i = 0; i < n; i++) {
		if (q[i]) {
			size_t b = i * 8;

			while (!p[b])
				b++;
			return b;
		}
	}
	return -1;
}

static void verify_zero(const char *p, size_t len, const char *what,
			const char *page)
{
	long off = first_nonzero(p, len);

	if (off < 0)
		tap(true, "%s %s", what, page);
	else
		tap(false, "%s %s # byte %ld of %zu is 0x%02x", what, page,
		    off, len, (unsigned char)p[off]);
}

struct order_count {
	unsigned int cnt[512];
	unsigned long last;
};

static void count_subpage(void *arg, unsigned long idx)
{
	struct order_count *oc = arg;

	oc->cnt[idx]++;
	oc->last = idx;
}

/* Each order covers every subpage exactly once and ends at the fault. */
static void verify_orders(void)
{
	static const unsigned long nrs[] = { 512, 7, 8, 1, 2, 3, 16 };
	bool ok_main = true, ok_reg = true;
	struct order_count oc;
	unsigned long nr, f, s;
	struct region r[3];
	unsigned int i, j, n;

	for (i = 0; i < ARRAY_SIZE(nrs); i++) {
		nr = nrs[i];
		for (f = 0; f < nr; f++) {
			memset(&oc, 0, sizeof(oc));
			mainline_order(nr, f, count_subpage, &oc);
			for (s = 0; s < nr; s++)
				ok_main &= oc.cnt[s] == 1;
			ok_main &= oc.last == f;

			memset(&oc, 0, sizeof(oc));
			n = huge_regions(nr, f, r);
			for (j = 0; j < n; j++)
				for (s = r[j].start; s < r[j].end; s++)
					oc.cnt[s]++;
			for (s = 0; s < nr; s++)
				ok_reg &= oc.cnt[s] == 1;
			ok_reg &= r[n - 1].start <= f && f < r[n - 1].end;
			ok_reg &= r[n - 1].end - r[n - 1].start <=
				  2 * NEIGHBOURHOOD + 1;
		}
	}
	tap(ok_main, "mainline-order covers each subpage once, fault last");
	tap(ok_reg, "regions cover each subpage once, neighbourhood last");
}

static void verify_page(const struct opts *o, int pi)
{
	const char *pn = page_name(page_sizes[pi]);
	char why[256] = "-B thp leaves hugetlb alone";
	int sel[NR_STRATEGIES], i, n;
	struct hugebuf b;
	struct ctx c;
	char *p;

	if (!setup_ctx(&c, o, pi))
		return;
	if (hugebuf_alloc(&b, c.size, c.page, o->backing)) {
		tap(false, "allocate %zu MiB of %s pages", c.size >> 20, pn);
		free((void *)c.fault);
		return;
	}
	c.buf = b.addr;
	note("%s pages: %zu MiB, %s\n", pn, c.size >> 20, b.desc);

	n = select_strategies(o, false, sel);
	for (i = 0; i < n; i++) {
		char name[40];

		snprintf(name, sizeof(name), is_candidate(sel[i]) ?
			 "limit(%s)" : "%s", strategies[sel[i]].name);
		memset(c.buf, 0xa5, c.size);
		strategies[sel[i]].clear(&c);
		verify_zero(c.buf, c.size, name, pn);
	}
	hugebuf_free(&b);

	if (o->want[S_HOST_FAULT]) {
		p = o->backing == BACKING_THP ? NULL :
		    hugetlb_map_fresh(c.size, c.page, why, sizeof(why));
		if (p) {
			unsigned long k;

			for (k = 0; k < c.nr_huge; k++)
				p[k * c.page + c.fault[k] * SZ_4K] |= 0;
			verify_zero(p, c.size, "host-fault", pn);
			munmap(p, c.size);
		} else {
			tap(true, "host-fault %s # SKIP %s", pn, why);
		}
	}
	hugetlb_restore(c.page);
	free((void *)c.fault);
}

/* ---- reporting ---- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median of the figures of (@pi, @s); @e2e picks the column. NAN if none. */
static double median(int pi, int s, bool e2e)
{
	double v[MAX_ROUNDS];
	size_t i;
	int n = 0;

	for (i = 0; i < res.nr; i++) {
		const struct raw_run *r = &res.runs[i];
		double x = e2e ? r->e2e : r->gbps;

		if (r->page == pi && r->strat == s && !isnan(x) && n < MAX_ROUNDS)
			v[n++] = x;
	}
	if (!n)
		return NAN;
	qsort(v, n, sizeof(v[0]), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void fmt_num(char *buf, size_t len, double x)
{
	if (isnan(x))
		buf[0] = '\0';
	else
		snprintf(buf, len, "%.2f", x);
}

static void fmt_ratio(char *buf, size_t len, double x, double base)
{
	if (isnan(x) || isnan(base) || base <= 0)
		buf[0] = '\0';
	else
		snprintf(buf, len, "%.2fx", x / base);
}

static void print_row(const char *name, int pi, int s)
{
	int ml = S_MAINLINE;
	double g = median(pi, s, false), e = median(pi, s, true);
	char gs[16], es[16], gr[16], er[16], label[40];

	fmt_num(gs, sizeof(gs), g);
	fmt_num(es, sizeof(es), e);
	fmt_ratio(gr, sizeof(gr), g, median(pi, ml, false));
	fmt_ratio(er, sizeof(er), e, median(pi, ml, true));
	snprintf(label, sizeof(label), "%s/mainline", name);
	printf("%-4s %-11s %8s %9s   %-20s %7s %9s\n", page_name(page_sizes[pi]),
	       name, gs, es, label, gr, er);
}

static void print_table(const struct opts *o)
{
	int pi, s;

	printf("\npage strategy       gbps  e2e_gbps   %-20s %7s %9s\n",
	       "ratio", "gbps", "e2e_gbps");
	for (pi = 0; pi < NR_PAGES; pi++) {
		for (s = 0; s < NR_NAMED; s++)
			if (res.measured[pi][s])
				print_row(strategies[s].name, pi, s);
	}
	printf("\n");
	for (pi = 0; pi < NR_PAGES; pi++) {
		if (res.backing[pi][0])
			printf("%s backing: %s\n", page_name(page_sizes[pi]),
			       res.backing[pi]);
		if (res.limit_of[pi] >= 0)
			printf("%s limit: %s (median GB/s of the candidates: %s)\n",
			       page_name(page_sizes[pi]),
			       strategies[res.limit_of[pi]].name,
			       res.limit_note[pi]);
		if (res.host_fault_note[pi][0])
			printf("%s host-fault: %s\n", page_name(page_sizes[pi]),
			       res.host_fault_note[pi]);
	}
}

static FILE *open_out(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		fprintf(stderr, "clearbench: %s: %s\n", path, strerror(errno));
	return f;
}

static void csv_row(FILE *f, const char *name, int pi, int s)
{
	char gs[16], es[16];

	fmt_num(gs, sizeof(gs), median(pi, s, false));
	fmt_num(es, sizeof(es), median(pi, s, true));
	fprintf(f, "%s,%s,%s,%s\n", name, page_name(page_sizes[pi]), gs, es);
}

static int write_csv(const struct opts *o)
{
	FILE *f = open_out(o->csv);
	int pi, s;

	if (!f)
		return -1;
	fprintf(f, "strategy,page,gbps,e2e_gbps\n");
	for (pi = 0; pi < NR_PAGES; pi++) {
		for (s = 0; s < NR_NAMED; s++)
			if (res.measured[pi][s])
				csv_row(f, strategies[s].name, pi, s);
	}
	return fclose(f) ? -1 : 0;
}

static int write_raw(const struct opts *o)
{
	FILE *f = open_out(o->raw);
	char gs[16], es[16];
	size_t i;

	if (!f)
		return -1;
	fprintf(f, "round,strategy,page,gbps,e2e_gbps\n");
	for (i = 0; i < res.nr; i++) {
		const struct raw_run *r = &res.runs[i];

		if (is_candidate(r->strat))
			continue;
		fmt_num(gs, sizeof(gs), r->gbps);
		fmt_num(es, sizeof(es), r->e2e);
		fprintf(f, "%d,%s,%s,%s,%s\n", r->round,
			strategies[r->strat].name, page_name(page_sizes[r->page]),
			gs, es);
	}
	return fclose(f) ? -1 : 0;
}

/* ---- environment ---- */

static void cpu_model(char *buf, size_t len)
{
	char line[256], *v;
	FILE *f = fopen("/proc/cpuinfo", "r");

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10))
			continue;
		v = strchr(line, ':');
		if (!v)
			break;
		v += strspn(v + 1, " \t") + 1;
		v[strcspn(v, "\n")] = '\0';
		snprintf(buf, len, "%s", v);
		break;
	}
	fclose(f);
}

/* "yes" if /proc/cpuinfo lists @flag for the first CPU. */
static const char *cpu_has_flag(const char *flag)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char *line = NULL, *tok, *save;
	const char *ans = "no";
	size_t cap = 0;

	if (!f)
		return "?";
	while (getline(&line, &cap, f) > 0) {
		if (strncmp(line, "flags", 5))
			continue;
		if (!strchr(line, ':'))
			break;
		for (tok = strtok_r(strchr(line, ':'), ": \t\n", &save); tok;
		     tok = strtok_r(NULL, " \t\n", &save))
			if (!strcmp(tok, flag))
				ans = "yes";
		break;
	}
	free(line);
	fclose(f);
	return ans;
}

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fgets(buf, len, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return ok ? 0 : -1;
}

/* Number of CPUs in a list such as "0-7,16-23". */
static int count_cpus(const char *list)
{
	int n = 0, a, b, used;

	while (*list) {
		if (sscanf(list, "%d%n", &a, &used) != 1)
			break;
		list += used;
		b = a;
		if (*list == '-' && sscanf(list + 1, "%d%n", &b, &used) == 1)
			list += used + 1;
		n += b - a + 1;
		if (*list == ',')
			list++;
		else
			break;
	}
	return n;
}

/*
 * Per-core share of the last level cache of @cpu: the highest-level data
 * or unified cache in sysfs, divided by the CPUs that share it.
 */
static size_t llc_share(int cpu, char *src, size_t srclen)
{
	char dir[96], path[128], buf[256], unit;
	int idx, level, best_level = 0, ncpus;
	unsigned long size = 0, best_size = 0;

	for (idx = 0; idx < 16; idx++) {
		snprintf(dir, sizeof(dir),
			 "/sys/devices/system/cpu/cpu%d/cache/index%d", cpu, idx);
		snprintf(path, sizeof(path), "%s/level", dir);
		if (read_line(path, buf, sizeof(buf)))
			continue;
		level = atoi(buf);
		snprintf(path, sizeof(path), "%s/type", dir);
		if (read_line(path, buf, sizeof(buf)) || !strcmp(buf, "Instruction"))
			continue;
		snprintf(path, sizeof(path), "%s/size", dir);
		if (read_line(path, buf, sizeof(buf)) ||
		    sscanf(buf, "%lu%c", &size, &unit) < 1)
			continue;
		size <<= unit == 'K' ? 10 : unit == 'M' ? 20 : 0;
		snprintf(path, sizeof(path), "%s/shared_cpu_list", dir);
		ncpus = read_line(path, buf, sizeof(buf)) ? 1 : count_cpus(buf);
		if (level > best_level && size) {
			best_level = level;
			best_size = size / (ncpus > 0 ? ncpus : 1);
			snprintf(src, srclen,
				 "L%d %lu KiB shared by %d CPUs, from sysfs",
				 level, size >> 10, ncpus);
		}
	}
	if (best_size)
		return best_size;
	snprintf(src, srclen, "default: no cache sizes in sysfs for CPU %d", cpu);
	return DEFAULT_NT_THRESH;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "clearbench: cannot pin to CPU %d: %s\n", cpu,
			strerror(errno));
		return -1;
	}
	return 0;
}

static void print_header(const struct opts *o)
{
	const char *large;
	char model[128];

	cpu_model(model, sizeof(model));
	note("clearbench: CPU %s (erms %s, fsrm %s, avx512f %s), pinned to CPU %d\n",
	     model, cpu_has_flag("erms"), cpu_has_flag("fsrm"),
	     cpu_has("avx512f") ? "yes" : "no", o->cpu);
	note("clear_page_64.S: %s\n", CLEAR_PAGE_S);
	note("nt uses: %s\n", NT_SOURCE);
	note("NT threshold: %zu bytes (%s)\n", o->nt_thresh, o->nt_src);
	large_method(&large);
	note("default: regions over the threshold use %s, the rest clear_pages_erms\n",
	     large);
	if (o->verify)
		note("buffer %zu MiB, verify mode, pages:%s%s\n", o->size >> 20,
		     o->want_page[0] ? " 2M" : "", o->want_page[1] ? " 1G" : "");
	else
		note("buffer %zu MiB, %d rounds after 1 warm-up, pages:%s%s\n",
		     o->size >> 20, o->rounds, o->want_page[0] ? " 2M" : "",
		     o->want_page[1] ? " 1G" : "");
}

/* ---- options ---- */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: clearbench [options]\n"
		"  -s SIZE    buffer size, a multiple of 2M (default 1G; K/M/G suffixes)\n"
		"  -r N       measured rounds (default 7), after one warm-up round\n"
		"  -c CPU     CPU to pin to (default 0)\n"
		"  -t BYTES   default: regions larger than BYTES use clear_pages_nt,\n"
		"             like clear_nt_threshold= (default: the kernel's rule,\n"
		"             the per-core share of the LLC and at least 2M)\n"
		"  -p PAGES   page sizes: 2M, 1G or 2M,1G (default 2M,1G)\n"
		"  -S LIST    strategies, comma separated (default all:\n"
		"             mainline,multi,chunked,nt,default,limit,rep,orig,\n"
		"             host-fault)\n"
		"  -B MODE    backing: auto (hugetlb, else THP), hugetlb, thp\n"
		"  -o FILE    summary CSV: strategy,page,gbps,e2e_gbps (medians)\n"
		"  -R FILE    raw CSV, one row per run: round,strategy,page,gbps,e2e_gbps\n"
		"  -V         verify: clear once per strategy, check the buffer is\n"
		"             all zero, print TAP; exit status 1 on any failure\n"
		"  -h         this help\n");
}

static int bad_opt(const char *fmt, const char *arg)
{
	fprintf(stderr, "clearbench: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	usage(stderr);
	return -1;
}

/* "4096", "64M", "1G" -> bytes; 0 on error. */
static size_t parse_size(const char *s)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *s == '-')
		return 0;
	switch (*end) {
	case 'k': case 'K':
		v <<= 10;
		end++;
		break;
	case 'm': case 'M':
		v <<= 20;
		end++;
		break;
	case 'g': case 'G':
		v <<= 30;
		end++;
		break;
	}
	if (*end == 'i' && end[1] == 'B')
		end += 2;
	else if (*end == 'B')
		end++;
	return *end ? 0 : v;
}

static int parse_pages(struct opts *o, char *list)
{
	char *tok, *save;

	memset(o->want_page, 0, sizeof(o->want_page));
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "2M"))
			o->want_page[0] = true;
		else if (!strcmp(tok, "1G"))
			o->want_page[1] = true;
		else
			return bad_opt("-p: unknown page size '%s' (2M or 1G)", tok);
	}
	if (!o->want_page[0] && !o->want_page[1])
		return bad_opt("-p: no page size given%s", "");
	return 0;
}

static int parse_strategies(struct opts *o, char *list)
{
	char *tok, *save;
	int s;

	memset(o->want, 0, sizeof(o->want));
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		s = strategy_index(tok);
		if (s < 0)
			return bad_opt("-S: unknown strategy '%s'", tok);
		o->want[s] = true;
	}
	return 0;
}

static int parse_opts(struct opts *o, int argc, char **argv)
{
	bool have_t = false;
	char *end;
	long v;
	int c;

	memset(o, 0, sizeof(*o));
	o->size = SZ_1G;
	o->rounds = 7;
	o->want_page[0] = o->want_page[1] = true;
	memset(o->want, 1, sizeof(o->want));
	o->backing = BACKING_AUTO;

	while ((c = getopt(argc, argv, "s:r:c:t:p:S:B:o:R:Vh")) != -1) {
		switch (c) {
		case 's':
			o->size = parse_size(optarg);
			if (!o->size || o->size % SZ_2M)
				return bad_opt("-s '%s': want a non-zero multiple of 2M",
					       optarg);
			break;
		case 'r':
			v = strtol(optarg, &end, 10);
			if (*end || v < 1 || v > MAX_ROUNDS)
				return bad_opt("-r '%s': want 1..1000", optarg);
			o->rounds = v;
			break;
		case 'c':
			v = strtol(optarg, &end, 10);
			if (*end || v < 0 || v >= CPU_SETSIZE)
				return bad_opt("-c '%s': not a CPU number", optarg);
			o->cpu = v;
			break;
		case 't':
			o->nt_thresh = parse_size(optarg);
			if (!o->nt_thresh)
				return bad_opt("-t '%s': want a size in bytes", optarg);
			snprintf(o->nt_src, sizeof(o->nt_src), "-t %s", optarg);
			have_t = true;
			break;
		case 'p':
			if (parse_pages(o, optarg))
				return -1;
			break;
		case 'S':
			if (parse_strategies(o, optarg))
				return -1;
			break;
		case 'B':
			if (!strcmp(optarg, "auto"))
				o->backing = BACKING_AUTO;
			else if (!strcmp(optarg, "hugetlb"))
				o->backing = BACKING_HUGETLB;
			else if (!strcmp(optarg, "thp"))
				o->backing = BACKING_THP;
			else
				return bad_opt("-B '%s': auto, hugetlb or thp", optarg);
			break;
		case 'o':
			o->csv = optarg;
			break;
		case 'R':
			o->raw = optarg;
			break;
		case 'V':
			o->verify = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind < argc)
		return bad_opt("unexpected argument '%s'", argv[optind]);
	if (!have_t && !cpu_is_intel()) {
		/* The kernel's default outside Intel: cached stores only. */
		o->nt_thresh = SIZE_MAX;
		snprintf(o->nt_src, sizeof(o->nt_src), "off: not an Intel CPU");
	} else if (!have_t) {
		/* The kernel's default on Intel: the LLC share, never below a PMD. */
		o->nt_thresh = llc_share(o->cpu, o->nt_src, sizeof(o->nt_src));
		if (o->nt_thresh < SZ_2M) {
			o->nt_thresh = SZ_2M;
			strncat(o->nt_src, ", raised to the 2M minimum",
				sizeof(o->nt_src) - strlen(o->nt_src) - 1);
		}
	}
	return 0;
}

/* ---- main ---- */

static int verify(const struct opts *o)
{
	int pi;

	verify_orders();
	for (pi = 0; pi < NR_PAGES; pi++)
		if (o->want_page[pi])
			verify_page(o, pi);
	printf("1..%d\n", tap_nr);
	if (tap_failed)
		fprintf(stderr, "clearbench: %d of %d checks FAILED\n",
			tap_failed, tap_nr);
	return tap_failed ? 1 : 0;
}

static int measure(const struct opts *o)
{
	int pi, err = 0;

	if (o->rounds < 5)
		note("note: %d rounds; use at least 5 for figures to quote\n",
		     o->rounds);
	for (pi = 0; pi < NR_PAGES; pi++)
		if (o->want_page[pi])
			measure_page(o, pi);
	if (!res.nr) {
		fprintf(stderr, "clearbench: nothing could be measured\n");
		return 1;
	}
	print_table(o);
	if (o->csv && write_csv(o))
		err = 1;
	if (o->raw && write_raw(o))
		err = 1;
	return err;
}

int main(int argc, char **argv)
{
	struct opts o;

	res.limit_of[0] = res.limit_of[1] = -1;
	if (parse_opts(&o, argc, argv))
		return 2;
	if (o.verify)
		note_prefix = "# ";
	if (pin(o.cpu))
		return 1;
	print_header(&o);
	return o.verify ? verify(&o) : measure(&o);
}
