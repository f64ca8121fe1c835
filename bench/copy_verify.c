// SPDX-License-Identifier: GPL-2.0
/*
 * -V for the copy strategies: for each page size, a source filled with a
 * pattern in which every 8-byte word, so every 4 KiB subpage, differs, and
 * a destination filled with 0x5a between guards of 0xa5 bytes; each
 * strategy copies once, then the destination must equal the pattern and
 * the guards be untouched. A strategy this CPU or tree cannot run is a
 * SKIP. Then the paths this CPU does not take (copy_page() without
 * REP_GOOD, copy_mc_to_kernel() and copy_pages() without ERMS), with the
 * feature bytes cleared.
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

void verify_copy(const struct opts *o)
{
	int pi;

	for (pi = 0; pi < NR_PAGES; pi++)
		if (o->want_page[pi])
			verify_copy_page(o, pi);
}
