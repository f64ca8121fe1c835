// SPDX-License-Identifier: GPL-2.0
/*
 * hugezero: a huge page handed to user space must be all zeros.
 *
 * For each kind of huge page (hugetlb 2 MiB, hugetlb 1 GiB, THP), one
 * round of hugecheck.c: map some, fill them with a non-zero pattern and
 * unmap them, so that the pages go back to the pool or the buddy allocator
 * dirty. Then map the same amount again, take the first fault on each huge
 * page at a random subpage, so that folio_zero_user() gets a fault address
 * in the middle of the folio, and check every byte. Output is TAP, in
 * kselftest style.
 *
 * With -a, the rounds run once per way of clearing that the kernel's
 * evaluation knobs (/sys/kernel/debug/clear_huge_page/) offer: every
 * "strategy" listed there, and the default with "guard" 0, so that the
 * code that selects and drives each path runs end to end, not only its
 * instruction loop. Results are named "<setting>:<kind>". The knobs are
 * put back to "default" and 1 afterwards. A kernel without the knobs runs
 * the rounds once, as it boots, and says so.
 *
 * Usage: hugezero [-a] [-s seed]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"
#include "mm/vm_util.h"
#include "hugecheck.h"

#define PATTERN 0x5a
#define MAX_PAGES 16
#define MAX_SETTINGS 8

struct kind {
	const char *name;
	struct hc_kind hc;
};

static const struct kind kinds[] = {
	{ "hugetlb_2M", { SZ_2M, 16, true } },
	{ "hugetlb_1G", { SZ_1G, 1, true } },
	{ "thp_2M", { SZ_2M, 16, false } },
};

struct result {
	const struct kind *k;
	size_t nonzero;		/* bytes */
	unsigned int lost;	/* markers that did not read back */
	unsigned int thp;	/* THP: regions that AnonHugePages shows */
};

static void check(const struct hc_page *pg, unsigned int i, void *arg)
{
	struct result *r = arg;

	r->nonzero += pg->nonzero;
	r->lost += pg->marker != HC_MARKER;
	if (!r->k->hc.hugetlb)
		r->thp += check_huge_anon(pg->addr, 1, r->k->hc.size);
}

static void test_kind(const struct kind *k, const char *setting)
{
	char name[64];
	struct result r = { .k = k };
	size_t touch[MAX_PAGES];
	const char *what;
	unsigned int i;
	int err;

	for (i = 0; i < k->hc.npages; i++)
		touch[i] = (size_t)random() % (k->hc.size / SZ_4K) * SZ_4K + 123;
	if (setting)
		snprintf(name, sizeof(name), "%.15s:%.31s", setting, k->name);
	else
		snprintf(name, sizeof(name), "%.31s", k->name);
	err = hc_round(&k->hc, PATTERN, touch, check, &r, &what);
	if (err)
		ksft_test_result_fail("%s: %s of %u huge pages: %s\n", name,
				      what, k->hc.npages, strerror(-err));
	else if (r.nonzero || r.lost)
		ksft_test_result_fail("%s: %zu non-zero bytes, %u lost writes in %u huge pages\n",
				      name, r.nonzero, r.lost, k->hc.npages);
	else if (!k->hc.hugetlb && r.thp < k->hc.npages)
		/* named: kunit.py reads no "ok N # SKIP" without a name */
		ksft_test_result_code(KSFT_SKIP, name, "only %u of %u regions were THP",
				      r.thp, k->hc.npages);
	else
		ksft_test_result_pass("%s: %u huge pages all zero\n", name,
				      k->hc.npages);
}

/*
 * The strategies that the knob lists ("default [units] cached nt"), then
 * "unguarded": the default with guard 0. Returns how many, 0 without knobs.
 */
static unsigned int list_settings(char names[][16])
{
	char buf[128], *tok, *save;
	unsigned int n = 0;
	FILE *f = fopen(HC_KNOBS "strategy", "r");

	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	for (tok = strtok_r(buf, " []\n", &save); tok && n < MAX_SETTINGS - 1;
	     tok = strtok_r(NULL, " []\n", &save))
		snprintf(names[n++], 16, "%s", tok);
	if (n)
		snprintf(names[n++], 16, "unguarded");
	return n;
}

/* Does /proc/cpuinfo list clzero? */
static bool cpu_has_clzero(void)
{
	char line[4096];
	bool has = false;
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && !has && fgets(line, sizeof(line), f))
		has = !strncmp(line, "flags", 5) && strstr(line, " clzero");
	if (f)
		fclose(f);
	return has;
}

/* Set the knobs for one setting; 0 or an errno. */
static int apply_setting(const char *name)
{
	bool unguarded = !strcmp(name, "unguarded");
	int err;

	err = write_str(HC_KNOBS "strategy", unguarded ? "default" : name);
	return err ? err : write_str(HC_KNOBS "guard", unguarded ? "0" : "1");
}

int main(int argc, char **argv)
{
	unsigned int seed = getpid() ^ (unsigned int)time(NULL);
	char settings[MAX_SETTINGS][16];
	unsigned int i, j, nset = 0;
	bool all = false;
	int opt, err;

	while ((opt = getopt(argc, argv, "as:")) != -1) {
		if (opt == 'a')
			all = true;
		else if (opt == 's')
			seed = strtoul(optarg, NULL, 0);
		else
			ksft_exit_fail_msg("usage: %s [-a] [-s seed]\n", argv[0]);
	}
	srandom(seed);
	ksft_print_header();
	ksft_print_msg("seed %u\n", seed);
	if (all) {
		nset = list_settings(settings);
		if (!nset)
			ksft_print_msg("no %s: the kernel's own way only\n", HC_KNOBS);
	}
	ksft_set_plan(ARRAY_SIZE(kinds) * (nset ? nset : 1));
	for (j = 0; j < (nset ? nset : 1); j++) {
		if (nset) {
			err = apply_setting(settings[j]);
			if (err) {
				for (i = 0; i < ARRAY_SIZE(kinds); i++)
					ksft_test_result_fail("%s:%s: cannot set the knobs: %s\n",
							      settings[j], kinds[i].name,
							      strerror(err));
				continue;
			}
		}
		if (nset && !strcmp(settings[j], "nt"))
			ksft_print_msg("nt: clear_pages_nocache() with %s\n",
				       cpu_has_clzero() ? "CLZERO" :
				       "MOVNTI: no CLZERO on this CPU, the same driving code; clearbench -V runs CLZERO's loop on the host");
		for (i = 0; i < ARRAY_SIZE(kinds); i++)
			test_kind(&kinds[i], nset ? settings[j] : NULL);
	}
	if (nset && apply_setting("default"))
		ksft_exit_fail_msg("cannot put the knobs back to default\n");
	ksft_finished();
}
