// SPDX-License-Identifier: GPL-2.0
/*
 * torture: a huge page handed to user space must be all zeros, and a huge
 * page the kernel copies must arrive byte for byte, also while processes
 * fault and copy huge pages of every size at once, under memory pressure
 * (from the harness: guest/torture.sh runs stress-ng) and while the
 * preemption model changes under them.
 *
 * Usage: torture [-t seconds] [-j procs] [-n min_faults] [-s seed]
 *                [-g seconds] [-P] [-M]
 *   -t  time limit (default 600); the run fails if the fault target has
 *       not been reached by then
 *   -j  worker processes (default 4, at most 64)
 *   -n  fault target (default 100000); the run stops as soon as the target
 *       is reached and at least a tenth of -t has passed
 *   -s  random seed (default: time and pid)
 *   -g  a worker takes 1 GiB pages at most every this many seconds
 *       (default 30): under TCG a 1 GiB round takes half a minute, a
 *       1 GiB CoW round minutes (one is due every 16 -g intervals)
 *   -P  switch the preemption model (none/voluntary/full) at random every
 *       0.5-2 s through /sys/kernel/debug/sched/preempt; SKIP if missing
 *   -M  leave the THP settings alone; else the top-level THP "enabled" and
 *       every hugepages-<N>kB/enabled are set to "always" (thp_settings.c)
 *       and restored at exit, also after SIGINT/SIGTERM/SIGHUP
 * guest/torture.sh passes the words of $TORTURE_OPTS as options (e.g.
 * TORTURE_OPTS=-t,300,-P on the kernel command line).
 *
 * Each worker loops over rounds of a kind picked at random: mTHP 16K..1M,
 * PMD THP, hugetlb 2M, the CoW kinds, or (rarely, see -g) hugetlb 1G or
 * its CoW kind. A zeroing round is hugecheck.c's hc_round() with a fill of
 * the worker's own (0x80 | worker): the first touch of each huge page, a
 * write of HC_MARKER at a random byte, must read back and every other byte
 * be zero. A CoW round (cow_*) fills its huge pages with hugecheck.c's
 * copy pattern; for each, hc_cow() forks, the child or the parent (at
 * random) writes a byte at a random offset and checks every byte of its
 * copy, the other side that its page is untouched. hugetlb copies the
 * whole huge page for the write (copy_user_large_folio()); THP in 6.12
 * splits the PMD and copies 4 KiB, so cow_thp_2M copies no huge page.
 *
 * A fault is the first touch of one huge page (hugetlb) or of one region
 * of the kind's size (THP and mTHP) in the second mapping of a zeroing
 * round. A region that fell back to smaller folios still counts as a
 * fault of its kind; "huge" counts those that hc_is_folio() shows to be
 * one folio. Copied pages are counted in huge pages (2 MiB or 1 GiB): one
 * per hugetlb page written after fork() and checked on both sides.
 *
 * On a kernel whose hugetlb pool clears free pages on request
 * (zero_free_hugepages), one more process asks it to clear a few free
 * 2 MiB pages (now and then a 1 GiB one) every 0.2-1 s, so that the
 * workers' hugetlb faults take zeroed and unzeroed pages at random, and a
 * fault may find every free page being cleared and have to wait for one.
 *
 * Output is TAP: one test per kind (SKIP if unavailable; a non-zero or a
 * wrong byte fails it), "fault target", "workers" (all exited cleanly),
 * "zero requests" (SKIP without the file) and, with -P, "preempt
 * switching"; then the measurements "# faults: N", "# nonzero_bytes: N",
 * "# prezeroed_faults: N" (hugetlb faults that took a zeroed page, from
 * /proc/vmstat), "# copied_pages: N" and "# copy_wrong_bytes: N" for the
 * harness, then the totals. Exits non-zero on any failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"
#include "mm/vm_util.h"
#include "mm/thp_settings.h"
#include "hugecheck.h"

#define MAX_WORKERS 64
#define MAX_BATCH 32		/* huge pages per round, at most */
#define MAX_REPORTS 5		/* diagnostic lines per process */
#define GRACE_S 300		/* for a worker in a 1 GiB CoW round under TCG */
#define COW_1G_EVERY 16		/* -g intervals between 1 GiB CoW rounds */
#define PROGRESS_S 30

#define THP_DIR "/sys/kernel/mm/transparent_hugepage"
#define PREEMPT_FILE "/sys/kernel/debug/sched/preempt"
#define ZERO_FILE "/sys/kernel/mm/hugepages/hugepages-%zukB/zero_free_hugepages"

struct kind {
	const char *name;
	struct hc_kind hc;	/* size, huge pages per round, hugetlb */
	bool cow;		/* a CoW round, else a zeroing round */
	bool avail;
	char why[128];		/* why not available */
	long alloc, fallback;	/* mTHP: sysfs counters at the start */
};

/* The 1 GiB kinds last: kinds[K_1G..] (see pick_kind()). */
static struct kind kinds[] = {
	{ "mthp_16K",		{ 16UL << 10,	32 } },
	{ "mthp_32K",		{ 32UL << 10,	32 } },
	{ "mthp_64K",		{ 64UL << 10,	32 } },
	{ "mthp_128K",		{ 128UL << 10,	32 } },
	{ "mthp_256K",		{ 256UL << 10,	16 } },
	{ "mthp_512K",		{ 512UL << 10,	 8 } },
	{ "mthp_1M",		{ 1UL << 20,	 4 } },
	{ "thp_2M",		{ SZ_2M,	 4 } },
	{ "hugetlb_2M",		{ SZ_2M,	 4, true } },
	{ "cow_thp_2M",		{ SZ_2M,	 2 }, true },
	{ "cow_hugetlb_2M",	{ SZ_2M,	 2, true }, true },
	{ "hugetlb_1G",		{ SZ_1G,	 1, true } },
	{ "cow_hugetlb_1G",	{ SZ_1G,	 1, true }, true },
};
#define NKINDS ARRAY_SIZE(kinds)
#define K_1G (NKINDS - 2)

/* Counters of all processes, in a MAP_SHARED page; updated atomically. */
struct kind_stats {
	unsigned long long rounds;
	unsigned long long faults;	/* zeroing: see the comment at the top */
	unsigned long long huge;	/* faults (CoW: pages) that were one folio */
	unsigned long long unverified;	/* of them, PFNs unreadable */
	unsigned long long nonzero;	/* non-zero bytes found */
	unsigned long long written;	/* CoW: huge pages written after fork() */
	unsigned long long copied;	/* CoW: of them copied whole (hugetlb) */
	unsigned long long wrong;	/* CoW: bytes unlike the pattern */
	unsigned long long busy;	/* pool or memory short: retried later */
	unsigned long long errors;	/* unexpected errors, lost markers */
};

struct shared {
	int stop;
	struct kind_stats k[NKINDS];
	long pool_used[2];	/* hugetlb 2 MiB, 1 GiB pages held by rounds */
	long next_cow_1g;	/* CLOCK_MONOTONIC s: a 1 GiB CoW is due */
	unsigned long long switches;	/* preemption model changes */
	unsigned long long switch_errors;
	unsigned long long zero_requests;	/* writes to zero_free_hugepages */
	unsigned long long zero_errors;
};

static struct opts {
	unsigned long secs, procs, target, seed, g1_interval;	/* -t -j -n -s -g */
	bool preempt, no_sysfs;					/* -P -M */
} opt = { 600, 4, 100000, 0, 30 };

static struct shared *sh;
static long pool_size[2];	/* hugetlb pages free at the start */
static double deadline;
static volatile sig_atomic_t got_signal;

static void add(unsigned long long *c, unsigned long long n)
{
	__atomic_fetch_add(c, n, __ATOMIC_RELAXED);
}

static unsigned long long get(const unsigned long long *c)
{
	return __atomic_load_n(c, __ATOMIC_RELAXED);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* xorshift64*: cheap, and each worker has its own reproducible stream. */
static uint64_t rnd(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545f4914f6cdd1dULL;
}

static void on_signal(int sig)
{
	got_signal = sig;
}

static bool should_stop(void)
{
	return got_signal || __atomic_load_n(&sh->stop, __ATOMIC_RELAXED) ||
	       now() >= deadline;
}

/* ---- settings: THP with thp_settings.c, the preemption model ---- */

static const char * const thp_modes[] = {	/* enum thp_enabled */
	"never", "always", "inherit", "madvise", NULL
};
static pid_t main_pid;
static bool thp_changed, preempt_changed;
static char preempt_orig[32];

/* The current preemption model: "full" of "none voluntary (full)". */
static bool read_preempt(char *out)
{
	char buf[128] = "", *a;

	read_file(PREEMPT_FILE, buf, sizeof(buf));
	a = strchr(buf, '(');
	return a && sscanf(a, "(%31[^)])", out) == 1;
}

/* atexit() handler; children leave with _exit() and never get here. */
static void restore_settings(void)
{
	int err;

	if (getpid() != main_pid)
		return;
	if (thp_changed) {
		thp_changed = false;
		thp_restore_settings();		/* exits if a write fails */
	}
	if (preempt_changed) {
		preempt_changed = false;
		err = write_str(PREEMPT_FILE, preempt_orig);
		if (err)
			ksft_print_msg("cannot restore %s to %s: %s\n",
				       PREEMPT_FILE, preempt_orig, strerror(err));
	}
}

/*
 * Every THP size to "always", so that stress-ng's memory churns too.
 * thp_settings.c saves and writes all THP settings, shmem's too, and
 * exits if one is missing: without CONFIG_SHMEM they are left alone.
 */
static void enable_thp(unsigned long orders)
{
	struct thp_settings s;
	enum thp_enabled *e;
	int i;

	if (access(THP_DIR "/shmem_enabled", F_OK)) {
		ksft_print_msg("THP settings left alone: no " THP_DIR "/shmem_enabled\n");
		return;
	}
	thp_save_settings();
	thp_read_settings(&s);
	for (i = -1; i < NR_ORDERS; i++) {
		e = i < 0 ? &s.thp_enabled : &s.hugepages[i].enabled;
		if ((i >= 0 && !(orders & (1UL << i))) || *e == THP_ALWAYS)
			continue;
		if (i < 0)
			ksft_print_msg("set " THP_DIR "/enabled to always (was %s)\n",
				       thp_modes[*e]);
		else
			ksft_print_msg("set " THP_DIR "/hugepages-%ukB/enabled to always (was %s)\n",
				       (psize() >> 10) << i, thp_modes[*e]);
		*e = THP_ALWAYS;
	}
	thp_push_settings(&s);
	thp_changed = true;
}

/*
 * hugetlb: a round holds its pages (CoW: twice as many, for the copies)
 * of those free at the start, so that a copy never finds the pool empty
 * (SIGBUS) because of the other workers. pool_take() takes n > 0 if that
 * many are left, or gives back n < 0.
 */
static long pool_need(const struct kind *k)
{
	return k->hc.hugetlb ? (long)k->hc.npages * (1 + k->cow) : 0;
}

static long pool_left(const struct kind *k)
{
	return pool_size[k->hc.size == SZ_1G] -
	       __atomic_load_n(&sh->pool_used[k->hc.size == SZ_1G], __ATOMIC_RELAXED);
}

static bool pool_take(const struct kind *k, long n)
{
	long *used = &sh->pool_used[k->hc.size == SZ_1G];

	if (__atomic_add_fetch(used, n, __ATOMIC_RELAXED) <=
	    pool_size[k->hc.size == SZ_1G] || n <= 0)
		return true;
	__atomic_sub_fetch(used, n, __ATOMIC_RELAXED);
	return false;
}

/*
 * Can rounds of this kind run: enough hugetlb pages, or THP/mTHP of its
 * size for a MADV_HUGEPAGE region?
 */
static void probe(struct kind *k, unsigned long orders)
{
	long n = pool_size[k->hc.size == SZ_1G];
	int mode = THP_INHERIT;
	char name[64];

	snprintf(name, sizeof(name), "hugepages-%zukB/enabled", k->hc.size >> 10);
	if (k->hc.hugetlb) {
		k->avail = n >= pool_need(k);
		snprintf(k->why, sizeof(k->why), "%ld free hugetlb pages of %zu kB, a round needs %ld",
			 n < 0 ? 0 : n, k->hc.size >> 10, pool_need(k));
		return;
	}
	if (orders & (1UL << __builtin_ctzl(k->hc.size / psize()))) {
		mode = thp_read_string(name, thp_modes);
	} else if (k->hc.size != SZ_2M || access(THP_DIR "/enabled", F_OK)) {
		/* Before mTHP (6.8) only the top-level file, for PMD THP. */
		snprintf(k->why, sizeof(k->why), "no " THP_DIR "/%s", name);
		return;
	}
	if (mode == THP_INHERIT)
		mode = thp_read_string("enabled", thp_modes);
	k->avail = mode == THP_ALWAYS || mode == THP_MADVISE;
	snprintf(k->why, sizeof(k->why), THP_DIR "/%s: %s", name, thp_modes[mode]);
}

/* ---- one round ---- */

struct worker {
	int id;
	int pattern;
	int pagemap;
	uint64_t rng;
	double next_1g;		/* earliest time for a 1 GiB round */
	unsigned int reports;
	const struct kind *k;	/* of the round */
	struct kind_stats *st;
	unsigned int nhuge, nunknown;	/* the round's folios */
};

static void count_folio(struct worker *w, char *p)
{
	int huge = w->k->hc.hugetlb ? 1 : hc_is_folio(w->pagemap, p, w->k->hc.size);

	w->nhuge += huge > 0;
	w->nunknown += huge < 0;
}

static void report(struct worker *w, const char *fmt, ...)
{
	va_list ap;

	if (w->reports++ >= MAX_REPORTS)
		return;
	va_start(ap, fmt);
	printf("# worker %d: ", w->id);
	vprintf(fmt, ap);
	va_end(ap);
}

/* hc_round()'s check of huge page i: the verdict, and is it one folio? */
static void check_page(const struct hc_page *pg, unsigned int i, void *arg)
{
	struct worker *w = arg;
	const struct kind *k = w->k;

	if (pg->marker != HC_MARKER) {
		report(w, "%s page %u: marker at +%#zx is %#x\n", k->name, i,
		       pg->touch, pg->marker);
		add(&w->st->errors, 1);
	}
	if (pg->nonzero) {
		report(w, "%s page %u at %p: %zu non-zero bytes, first at +%#zx = %#x (fill of worker %d is %#x), first touch at +%#zx\n",
		       k->name, i, pg->addr, pg->nonzero, pg->first,
		       (unsigned char)pg->addr[pg->first], w->id,
		       w->pattern, pg->touch);
		add(&w->st->nonzero, pg->nonzero);
	}
	count_folio(w, pg->addr);
}

/* A CoW round (see the top): 0, or -errno of a failed mmap() or fork(). */
static int cow_round(struct worker *w, const char **what)
{
	size_t size = w->k->hc.size, off;
	uint64_t seed = rnd(&w->rng);
	struct hc_verdict v[2];
	struct hc_map m;
	unsigned int i;
	int err, j;
	char *p;

	*what = "mmap";
	err = hc_map(&w->k->hc, &m);
	if (err)
		return err;
	*what = "fork";
	for (i = 0; !err && i < w->k->hc.npages; i++) {
		p = m.base + i * m.stride;
		off = rnd(&w->rng) % size;
		hc_pattern_fill(p, size, seed + i);
		count_folio(w, p);
		err = hc_cow(p, size, seed + i, off, rnd(&w->rng) & 1, v);
		if (err > 0)
			report(w, "%s: child's wait status %#x\n", w->k->name, err);
		add(&w->st->errors, err > 0);
		for (j = 0; j < 2; j++)
			if (v[j].bad)
				report(w, "%s %s's page at %p: %zu wrong bytes, first at +%#zx = %#x, not %#x; write at +%#zx\n",
				       w->k->name, j ? "parent" : "child", p,
				       v[j].bad, v[j].first, v[j].got, v[j].want, off);
		add(&w->st->wrong, v[0].bad + v[1].bad);
		add(&w->st->written, !err);
		add(&w->st->copied, !err && w->k->hc.hugetlb);
	}
	hc_unmap(&m);
	return err < 0 ? err : 0;
}

static void run_round(struct worker *w, const struct kind *k)
{
	size_t touch[MAX_BATCH];
	const char *what;
	unsigned int i;
	int err = -ENOMEM;

	w->k = k;
	w->st = &sh->k[k - kinds];
	w->nhuge = w->nunknown = 0;
	for (i = 0; i < k->hc.npages; i++)
		touch[i] = rnd(&w->rng) % k->hc.size;
	if (pool_take(k, pool_need(k))) {
		if (k->cow && k >= &kinds[K_1G])	/* see pick_kind() */
			__atomic_store_n(&sh->next_cow_1g, (long)now() +
					 COW_1G_EVERY * opt.g1_interval, __ATOMIC_RELAXED);
		err = k->cow ? cow_round(w, &what) :
		      hc_round(&k->hc, w->pattern, touch, check_page, w, &what);
		pool_take(k, -pool_need(k));
	}
	if (err == -ENOMEM || err == -EAGAIN) {
		/* Pool or memory short: not a failure, try again later. */
		add(&w->st->busy, 1);
		if (k >= &kinds[K_1G])
			w->next_1g = now() + 5;
		usleep(10000);
		return;
	}
	if (err) {
		report(w, "%s: %s: %s\n", k->name, what, strerror(-err));
		add(&w->st->errors, 1);
		return;
	}
	add(&w->st->rounds, 1);
	add(&w->st->faults, k->cow ? 0 : k->hc.npages);
	add(&w->st->huge, w->nhuge);
	add(&w->st->unverified, w->nunknown);
}

/*
 * Mostly the fast kinds; 1 GiB only every -g seconds, when the pages are
 * free, and not when the round would outlast the run. A 1 GiB CoW holds
 * both pages for minutes: it is due every COW_1G_EVERY -g intervals in
 * all, and until it starts no 1 GiB zeroing round does. (Its copy holds
 * a hugetlb fault mutex: hugetlb faults of other workers that hash to it
 * wait in D state until the copy is done, a minute or more under TCG.)
 */
static const struct kind *pick_kind(struct worker *w)
{
	unsigned int i, n = 0, pick[NKINDS];
	const struct kind *k;
	double t = now();

	if (t >= w->next_1g && deadline - t > 15) {
		k = &kinds[K_1G + (kinds[K_1G + 1].avail &&
				   t >= __atomic_load_n(&sh->next_cow_1g, __ATOMIC_RELAXED))];
		w->next_1g = t + 5;
		if (k->avail && pool_left(k) >= pool_need(k)) {
			w->next_1g = t + opt.g1_interval;
			return k;
		}
	}
	for (i = 0; i < K_1G; i++)
		if (kinds[i].avail)
			pick[n++] = i;
	return n ? &kinds[pick[rnd(&w->rng) % n]] : NULL;
}

static __noreturn void worker(int id)
{
	struct worker w = { .id = id, .pattern = 0x80 | (id & 0x7f) };
	const struct kind *k;

	w.rng = ((uint64_t)opt.seed << 16 | (id + 1)) * 0x9e3779b97f4a7c15ULL;
	/* Spread the 1 GiB rounds of the workers over the interval. */
	w.next_1g = now() + (double)opt.g1_interval * id / opt.procs;
	w.pagemap = open("/proc/self/pagemap", O_RDONLY);
	while (!should_stop()) {
		k = pick_kind(&w);
		if (k)
			run_round(&w, k);
		else
			usleep(100000);
	}
	fflush(stdout);
	_exit(0);
}

/* ---- preemption model ---- */

static __noreturn void preempt_switcher(int unused)
{
	static const char *const modes[] = { "none", "voluntary", "full" };
	uint64_t rng = ((uint64_t)opt.seed + 1) * 0x2545f4914f6cdd1dULL;
	unsigned int cur = 0, next, errors = 0;
	int err;

	while (cur < 2 && strcmp(modes[cur], preempt_orig))
		cur++;
	while (!should_stop()) {
		usleep(500000 + rnd(&rng) % 1500 * 1000);
		if (should_stop())
			break;
		/* Always a change: a write of the current mode does little. */
		next = (cur + 1 + rnd(&rng) % 2) % 3;
		err = write_str(PREEMPT_FILE, modes[next]);
		if (err) {
			if (errors++ < MAX_REPORTS)
				ksft_print_msg("preempt: write %s: %s\n",
					       modes[next], strerror(err));
			add(&sh->switch_errors, 1);
			continue;
		}
		cur = next;
		add(&sh->switches, 1);
	}
	fflush(stdout);
	_exit(0);
}

/* ---- zero requests ---- */

static void zero_path(char *buf, size_t len, size_t size)
{
	snprintf(buf, len, ZERO_FILE, size >> 10);
}

static __noreturn void zeroer(int unused)
{
	uint64_t rng = ((uint64_t)opt.seed + 2) * 0x2545f4914f6cdd1dULL;
	unsigned int errors = 0;
	char path[128], val[16];
	size_t size;
	int err;

	while (!should_stop()) {
		usleep(200000 + rnd(&rng) % 800 * 1000);
		if (should_stop())
			break;
		size = rnd(&rng) % 16 ? SZ_2M : SZ_1G;
		zero_path(path, sizeof(path), size);
		snprintf(val, sizeof(val), "%u",
			 size == SZ_1G ? 1 : 1 + (unsigned int)(rnd(&rng) % 8));
		err = write_str(path, val);
		if (err) {
			if (errors++ < MAX_REPORTS)
				ksft_print_msg("zero request: write %s to %s: %s\n",
					       val, path, strerror(err));
			add(&sh->zero_errors, 1);
			continue;
		}
		add(&sh->zero_requests, 1);
	}
	fflush(stdout);
	_exit(0);
}

/* ---- main process ---- */

static void parse_opts(int argc, char **argv)
{
	static const char nums[] = "tjnsg";	/* the options with a number */
	unsigned long *val[] = { &opt.secs, &opt.procs, &opt.target,
				 &opt.seed, &opt.g1_interval };
	const char *o;
	char *end;
	int c;

	while ((c = getopt(argc, argv, "t:j:n:s:g:PM")) != -1) {
		if (c == 'P' || c == 'M') {
			*(c == 'P' ? &opt.preempt : &opt.no_sysfs) = true;
			continue;
		}
		o = strchr(nums, c);
		if (!o)
			break;
		errno = 0;
		*val[o - nums] = strtoul(optarg, &end, 0);
		if (errno || end == optarg || *end)
			break;
	}
	if (c != -1 || optind != argc || !opt.secs || !opt.procs ||
	    opt.procs > MAX_WORKERS)
		ksft_exit_fail_msg("usage: %s [-t seconds] [-j procs] [-n min_faults] [-s seed] [-g seconds] [-P] [-M]\n",
				   argv[0]);
}

static unsigned long long total(size_t field)
{
	unsigned long long sum = 0;
	unsigned int i;

	for (i = 0; i < NKINDS; i++)
		sum += get((unsigned long long *)((char *)&sh->k[i] + field));
	return sum;
}
#define TOTAL(f) total(offsetof(struct kind_stats, f))

/*
 * System-wide mTHP allocation counters (6.9+), to show what happened:
 * read them at the start, print how they changed at the end.
 */
static void mthp_stats(bool print)
{
	struct kind *k;
	char path[128];
	long alloc, fb;

	for (k = kinds; k < &kinds[NKINDS]; k++) {
		if (k->hc.hugetlb || k->cow)
			continue;
		snprintf(path, sizeof(path), THP_DIR "/hugepages-%zukB/stats/anon_fault_alloc",
			 k->hc.size >> 10);
		alloc = read_long(path);
		strcpy(strrchr(path, '/'), "/anon_fault_fallback");
		fb = read_long(path);
		if (!print) {
			k->alloc = alloc;
			k->fallback = fb;
		} else if (k->avail && k->alloc >= 0 && k->fallback >= 0) {
			ksft_print_msg("sysfs hugepages-%zukB: anon_fault_alloc +%ld anon_fault_fallback +%ld (whole system)\n",
				       k->hc.size >> 10, alloc - k->alloc,
				       fb - k->fallback);
		}
	}
}

static pid_t spawn(void (*fn)(int), int arg)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_perror("fork");
	if (pid)
		return pid;
	/* Do not outlive the main process: it restores the settings. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != main_pid)
		_exit(1);
	fn(arg);
	_exit(0);
}

struct child {
	pid_t pid;
	bool done;
	int status;
};

/* Reap what has exited; return how many are still running. */
static unsigned int reap(struct child *c, unsigned int n)
{
	unsigned int i, running = 0;

	for (i = 0; i < n; i++) {
		if (!c[i].done && waitpid(c[i].pid, &c[i].status, WNOHANG) ==
		    c[i].pid)
			c[i].done = true;
		running += !c[i].done;
	}
	return running;
}

/* Ask the children to stop; kill the ones that do not within GRACE_S. */
static unsigned int stop_children(struct child *c, unsigned int n)
{
	double t = now();
	unsigned int i;

	__atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);
	while (reap(c, n) && now() - t < GRACE_S)
		usleep(50000);
	for (i = 0; i < n; i++) {
		if (c[i].done)
			continue;
		ksft_print_msg("pid %d did not stop within %d s: killing it\n",
			       c[i].pid, GRACE_S);
		kill(c[i].pid, SIGKILL);
	}
	/* A task stuck in the kernel does not die: do not hang on it. */
	t = now();
	while (reap(c, n) && now() - t < 5)
		usleep(50000);
	return reap(c, n);
}

/* Wait for the fault target, the time limit, a signal, or dead workers. */
static const char *monitor(struct child *c, unsigned int n, double start)
{
	double min_time = opt.secs / 10.0, next_progress = PROGRESS_S, t;

	for (;;) {
		usleep(200000);
		t = now() - start;
		if (got_signal)
			return "interrupted";
		if (TOTAL(faults) >= opt.target && t >= min_time)
			return "target reached";
		if (t >= opt.secs)
			return "time limit";
		if (!reap(c, n))
			return "all workers exited";
		if (t >= next_progress) {
			ksft_print_msg("progress: %.0f s, %llu faults, %llu non-zero bytes, %llu huge pages copied, %llu wrong bytes\n",
				       t, TOTAL(faults), TOTAL(nonzero),
				       TOTAL(copied), TOTAL(wrong));
			next_progress += PROGRESS_S;
		}
	}
}

/* SKIP with a name (kunit.py reads no "ok N # SKIP" without one). */
static void report_kind(const struct kind *k)
{
	const struct kind_stats *st = &sh->k[k - kinds];
	unsigned long long n = k->cow ? st->written : st->faults;

	if (k->avail)
		ksft_print_msg("%-14s rounds %llu faults %llu written %llu copied %llu huge %llu unverified %llu nonzero_bytes %llu wrong_bytes %llu busy %llu errors %llu\n",
			       k->name, st->rounds, st->faults, st->written,
			       st->copied, st->huge, st->unverified, st->nonzero,
			       st->wrong, st->busy, st->errors);
	if (!k->avail)
		ksft_test_result_code(KSFT_SKIP, k->name, "%s", k->why);
	else if (st->nonzero || st->wrong || st->errors)
		ksft_test_result_fail("%s: %llu non-zero bytes, %llu wrong bytes, %llu errors in %llu %s\n",
				      k->name, st->nonzero, st->wrong, st->errors,
				      n, k->cow ? "pages written" : "faults");
	else if (!st->rounds)
		/* e.g. the 1 GiB pool was always taken, or -t was short */
		ksft_test_result_code(KSFT_SKIP, k->name, "no round completed (%llu times busy)",
				      st->busy);
	else if (!k->hc.hugetlb && !st->huge && !st->unverified)
		ksft_test_result_code(KSFT_SKIP, k->name, "none of %llu regions became one folio",
				      n);
	else if (k->cow)
		ksft_test_result_pass("%s: %llu huge pages written after fork (%llu copied whole), every byte right\n",
				      k->name, n, st->copied);
	else
		ksft_test_result_pass("%s: %llu faults (%llu verified huge), all zero\n",
				      k->name, n, st->huge);
}

static void report_all(struct child *c, unsigned int nworkers, bool preempt_run,
		       bool zero_run,
		       const char *why, double secs, unsigned int stuck)
{
	unsigned long long faults = TOTAL(faults);
	unsigned int i, bad = 0;

	for (i = 0; i < NKINDS; i++)
		report_kind(&kinds[i]);

	ksft_test_result(faults >= opt.target, "fault target: %llu %s %lu faults in %.1f s (%.0f/s, %s)\n",
			 faults, faults >= opt.target ? ">=" : "<", opt.target,
			 secs, faults / secs, why);

	for (i = 0; i < nworkers + preempt_run + zero_run; i++) {
		int s = c[i].status;

		if (!c[i].done)
			ksft_print_msg("pid %d: still running\n", c[i].pid);
		else if (WIFSIGNALED(s))
			ksft_print_msg("pid %d: killed by signal %d%s\n",
				       c[i].pid, WTERMSIG(s),
				       WTERMSIG(s) == SIGKILL ? " (OOM killer or by us?)" : "");
		else if (WEXITSTATUS(s))
			ksft_print_msg("pid %d: exit status %d\n", c[i].pid,
				       WEXITSTATUS(s));
		else
			continue;
		bad++;
	}
	ksft_test_result(!bad, "workers: %u of %u processes ended abnormally%s\n",
			 bad, nworkers + preempt_run + zero_run,
			 stuck ? " (some are stuck)" : "");

	if (!zero_run)
		ksft_test_result_code(KSFT_SKIP, "zero requests",
				      "no zero_free_hugepages");
	else
		ksft_test_result(get(&sh->zero_requests) && !get(&sh->zero_errors),
				 "zero requests: %llu, %llu failed writes\n",
				 get(&sh->zero_requests), get(&sh->zero_errors));

	if (opt.preempt && !preempt_run)
		ksft_test_result_code(KSFT_SKIP, "preempt switching", "no " PREEMPT_FILE);
	else if (opt.preempt)
		ksft_test_result(get(&sh->switches) && !get(&sh->switch_errors),
				 "preempt switching: %llu switches, %llu failed writes\n",
				 get(&sh->switches), get(&sh->switch_errors));
}

int main(int argc, char **argv)
{
	struct child c[MAX_WORKERS + 2] = {};
	unsigned long orders = thp_supported_orders();
	struct sigaction sa = { .sa_handler = on_signal };
	bool preempt_run = false, zero_run;
	unsigned int i, n, stuck;
	long prezeroed0;
	char path[128];
	const char *why;
	double start;

	main_pid = getpid();
	opt.seed = (unsigned int)(getpid() ^ time(NULL));
	ksft_print_header();
	parse_opts(argc, argv);

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		ksft_exit_fail_perror("mmap of the counters");
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	atexit(restore_settings);
	if (!opt.no_sysfs)
		enable_thp(orders);

	for (i = 0; i < 2; i++)		/* pages not promised to anybody */
		pool_size[i] = hugetlb_count(i ? SZ_1G : SZ_2M, "free_hugepages") -
			       hugetlb_count(i ? SZ_1G : SZ_2M, "resv_hugepages");
	for (i = n = 0; i < NKINDS; i++) {
		if (kinds[i].hc.npages > MAX_BATCH)
			ksft_exit_fail_msg("%s: batch > %d\n", kinds[i].name,
					   MAX_BATCH);
		probe(&kinds[i], orders);
		n += kinds[i].avail;
	}
	if (!n)
		ksft_exit_skip("no kind of huge page is available\n");
	if (opt.preempt && !access(PREEMPT_FILE, W_OK) &&
	    read_preempt(preempt_orig))
		preempt_run = true;

	zero_path(path, sizeof(path), SZ_2M);
	zero_run = !access(path, W_OK);
	prezeroed0 = read_vmstat("htlb_fault_prezeroed");

	ksft_set_plan(NKINDS + 3 + opt.preempt);
	ksft_print_msg("seed %lu, %lu workers, %lu s, target %lu faults, 1G every %lu s per worker%s\n",
		       opt.seed, opt.procs, opt.secs, opt.target,
		       opt.g1_interval, preempt_run ? ", preempt switching" : "");
	mthp_stats(false);

	start = now();
	deadline = start + opt.secs;
	for (i = 0; i < opt.procs; i++)
		c[i].pid = spawn(worker, i);
	if (preempt_run) {
		/* The switcher only writes; we restore. */
		preempt_changed = true;
		c[i++].pid = spawn(preempt_switcher, 0);
	}
	if (zero_run)
		c[i++].pid = spawn(zeroer, 0);

	why = monitor(c, i, start);
	stuck = stop_children(c, i);
	restore_settings();
	ksft_print_msg("stopped after %.1f s: %s\n", now() - start, why);
	mthp_stats(true);

	report_all(c, opt.procs, preempt_run, zero_run, why, now() - start, stuck);
	ksft_print_msg("faults: %llu\n", TOTAL(faults));
	ksft_print_msg("nonzero_bytes: %llu\n", TOTAL(nonzero));
	if (prezeroed0 >= 0)
		ksft_print_msg("prezeroed_faults: %ld\n",
			       read_vmstat("htlb_fault_prezeroed") - prezeroed0);
	ksft_print_msg("copied_pages: %llu\n", TOTAL(copied));
	ksft_print_msg("copy_wrong_bytes: %llu\n", TOTAL(wrong));
	ksft_finished();
}
