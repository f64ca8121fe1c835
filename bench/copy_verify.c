// SPDX-License-Identifier: GPL-2.0
/*
 * -V for the copy strategies: for each page size, a source filled with a
 * pattern in which every 8-byte word, so every 4 KiB subpage, differs, and
 * a destination filled with 0x5a between guards of 0xa5 bytes; each
 * strategy copies once, then the destination must equal the pattern and
 * the guards be untouched. A strategy this CPU or tree cannot run is a
 * SKIP. Then the paths this CPU does not take (copy_page() without
 * REP_GOOD, copy_mc_to_kernel() and copy_pages() without ERMS), with the
 * feature bytes cleared. The MOVDIR64B copy loop also over odd lengths
 * and across page boundaries.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "copy.h"
#include "copy_verify.h"
#include "hugemem.h"

#define GUARD		SZ_2M
#define GUARD_BYTE	0xa5
#define FILL_BYTE	0x5a

/* Word @w of the source: an odd multiplier makes every word differ. */
static uint64_t pattern(size_t w)
{
	return (w + 1) * 0x9e3779b97f4a7c15ULL;
}

/* Offset of the first byte of @p not @byte, or -1. */
static long first_not(const char *p, size_t len, unsigned char byte)
{
	size_t i;

	for (i = 0; i < len; i++)
		if ((unsigned char)p[i] != byte)
			return i;
	return -1;
}

/* Is @dst an exact copy, and are the guards around it untouched? */
static void check_copy(const char *dst, size_t size, const char *what,
		       const char *pn)
{
	const uint64_t *q = (const uint64_t *)dst;
	long lo, hi;
	size_t w;

	for (w = 0; w < size / 8; w++)
		if (q[w] != pattern(w))
			break;
	lo = first_not(dst - GUARD, GUARD, GUARD_BYTE);
	hi = first_not(dst + size, GUARD, GUARD_BYTE);
	if (w < size / 8)
		tap(false, "copy %s %s # subpage %zu, byte %zu differs from the source",
		    what, pn, w * 8 / SZ_4K, w * 8 % SZ_4K);
	else if (lo >= 0 || hi >= 0)
		tap(false, "copy %s %s # guard %s the destination written, byte %ld",
		    what, pn, lo >= 0 ? "before" : "after", lo >= 0 ? lo : hi);
	else
		tap(true, "copy %s %s", what, pn);
}

static void copy_once(int s, const struct copy_ctx *cc, char *guarded)
{
	memset(guarded, GUARD_BYTE, GUARD);
	memset(guarded + GUARD, FILL_BYTE, cc->c.size);
	memset(guarded + GUARD + cc->c.size, GUARD_BYTE, GUARD);
	copy_run(s, cc);
}

/* Features this CPU may not have, cleared, and what they change. */
struct fake_cpu {
	const char *name;
	bool erms, rep_good;
	int strats[3];		/* C_LIMIT ends */
};

static const struct fake_cpu fake_cpus[] = {
	{ "without ERMS", false, true, { C_MAINLINE, C_DEFAULT, C_LIMIT } },
	{ "without ERMS and REP_GOOD", false, false,
	  { C_MAINLINE, C_COPY_PAGE, C_DEFAULT } },
};

static void verify_copy_page(const struct opts *o, int pi)
{
	const char *pn = page_name(page_sizes[pi]), *why;
	struct hugebuf src, dst;
	struct copy_ctx cc;
	unsigned int i, j;
	char name[64];
	size_t w;
	int s;

	if (!copy_ctx_setup(&cc, o, pi))
		return;
	if (hugebuf_alloc(&src, cc.c.size, SZ_2M, BACKING_THP))
		goto fail;
	if (hugebuf_alloc(&dst, cc.c.size + 2 * GUARD, SZ_2M, BACKING_THP)) {
		hugebuf_free(&src);
		goto fail;
	}
	for (w = 0; w < cc.c.size / 8; w++)
		((uint64_t *)src.addr)[w] = pattern(w);
	cc.src = src.addr;
	cc.c.buf = dst.addr + GUARD;
	note("%s pages: copy: %zu MiB, source and destination THP\n", pn,
	     cc.c.size >> 20);

	for (s = 0; s < NR_COPY; s++) {
		if (s == C_LIMIT)
			continue;
		if (s == C_HOST_COW) {
			tap(true, "copy %s %s # SKIP the host kernel's copy, not the tree's",
			    copy_strategies[s].name, pn);
			continue;
		}
		if (!copy_available(s, &why)) {
			tap(true, "copy %s %s # SKIP %s", copy_strategies[s].name,
			    pn, why);
			continue;
		}
		copy_once(s, &cc, dst.addr);
		check_copy(cc.c.buf, cc.c.size, copy_strategies[s].name, pn);
	}
	for (i = 0; i < ARRAY_SIZE(fake_cpus); i++) {
		copy_features_set(fake_cpus[i].erms, fake_cpus[i].rep_good);
		for (j = 0; j < ARRAY_SIZE(fake_cpus[i].strats); j++) {
			s = fake_cpus[i].strats[j];
			if (s == C_LIMIT)
				break;
			if (!copy_available(s, NULL))
				continue;
			snprintf(name, sizeof(name), "%s %s",
				 copy_strategies[s].name, fake_cpus[i].name);
			copy_once(s, &cc, dst.addr);
			check_copy(cc.c.buf, cc.c.size, name, pn);
		}
	}
	copy_features_init();
	hugebuf_free(&dst);
	hugebuf_free(&src);
	free((void *)cc.c.fault);
	return;
fail:
	tap(false, "copy: allocate 2 x %zu MiB for %s pages", cc.c.size >> 20,
	    pn);
	free((void *)cc.c.fault);
}

/*
 * The MOVDIR64B copy over odd lengths and page boundaries: from a 4 MiB
 * source of two 2 MiB pages in the word pattern into a 4 MiB destination
 * of 0x5a, each case copies @len bytes (a multiple of 64: odd numbers of
 * lines, and of 4 KiB pages) from @soff to @off; then the range must be
 * the source's, line for line in order, and every byte outside it
 * untouched. One case reads an unaligned source, which the instruction
 * allows (the destination must be 64-byte aligned).
 */
struct line_case {
	unsigned long off, soff, len;
	const char *what;
};

static const struct line_case movdir64b_cases[] = {
	{ 0, 0, 64, "one line" },
	{ 64, 64, 3 * 64, "3 lines" },
	{ SZ_4K - 3 * 64, SZ_4K - 3 * 64, 7 * 64, "7 lines across a 4K boundary" },
	{ 3 * SZ_4K - 5 * 64, 3 * SZ_4K - 5 * 64, 5 * SZ_4K + 9 * 64,
	  "5 pages and 9 lines across 4K boundaries" },
	{ SZ_2M - 3 * SZ_4K - 64, SZ_2M - 3 * SZ_4K - 64, 7 * SZ_4K + 3 * 64,
	  "7 pages and 3 lines across the 2M boundary" },
	{ SZ_2M, 0, SZ_2M, "the first 2M page into the second" },
	{ 64, 64, 2 * SZ_2M - 3 * 64, "65533 lines across the 2M boundary" },
	{ SZ_2M - 5 * 64, SZ_2M - 5 * 64 + 8, 11 * 64,
	  "11 lines across the 2M boundary, source 8 bytes off a line" },
};

static void verify_movdir64b_copy(void)
{
	copy_fn fn = copy_strategies[C_MOVDIR64B].extent;
	size_t len = 2 * SZ_2M, i, w;
	struct hugebuf src, dst;
	const char *why;
	unsigned int k;

	if (!copy_available(C_MOVDIR64B, &why)) {
		tap(true, "copy movdir64b: odd lengths, page boundaries # SKIP %s",
		    why);
		return;
	}
	if (hugebuf_alloc(&src, len, SZ_2M, BACKING_THP)) {
		tap(false, "copy movdir64b: allocate 2 x 4 MiB");
		return;
	}
	if (hugebuf_alloc(&dst, len, SZ_2M, BACKING_THP)) {
		hugebuf_free(&src);
		tap(false, "copy movdir64b: allocate 2 x 4 MiB");
		return;
	}
	for (w = 0; w < len / 8; w++)
		((uint64_t *)src.addr)[w] = pattern(w);
	for (k = 0; k < ARRAY_SIZE(movdir64b_cases); k++) {
		const struct line_case *lc = &movdir64b_cases[k];
		long bad = -1, outside = -1;

		memset(dst.addr, FILL_BYTE, len);
		fn(dst.addr + lc->off, src.addr + lc->soff, lc->len);
		for (i = 0; i < len; i++) {
			bool in = i >= lc->off && i < lc->off + lc->len;
			unsigned char want = in ?
				src.addr[lc->soff + (i - lc->off)] : FILL_BYTE;

			if ((unsigned char)dst.addr[i] == want)
				continue;
			if (in)
				bad = i - lc->off;
			else
				outside = i;
			break;
		}
		if (bad >= 0)
			tap(false, "copy movdir64b %lu+%lu from %lu (%s) # byte %ld of the range differs from the source",
			    lc->off, lc->len, lc->soff, lc->what, bad);
		else if (outside >= 0)
			tap(false, "copy movdir64b %lu+%lu from %lu (%s) # byte %ld outside the range written",
			    lc->off, lc->len, lc->soff, lc->what, outside);
		else
			tap(true, "copy movdir64b %lu+%lu from %lu (%s)", lc->off,
			    lc->len, lc->soff, lc->what);
	}
	hugebuf_free(&dst);
	hugebuf_free(&src);
}

void verify_copy(const struct opts *o)
{
	int pi;

	verify_movdir64b_copy();

	for (pi = 0; pi < NR_PAGES; pi++)
		if (o->want_page[pi])
			verify_copy_page(o, pi);
}
