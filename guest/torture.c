// SPDX-License-Identifier: GPL-2.0
/*
 * torture: a huge page handed to user space must be all zeros, also while
 * many processes fault huge pages of every size at the same time, under
 * memory pressure and while the preemption model changes under them.
 *
 * Usage: torture [-t seconds] [-j procs] [-n min_faults] [-s seed]
 *                [-g seconds] [-P] [-M]
 *   -t  time limit (default 600); the run fails if the fault target has
 *       not been reached by then
 *   -j  worker processes (default 4)
 *   -n  fault target (default 100000); the run stops as soon as the target
 *       is reached and at least a tenth of -t has passed
 *   -s  random seed (default: time and pid)
 *   -g  a worker takes a 1 GiB page at most every this many seconds
 *       (default 30): under TCG one 1 GiB round takes several seconds
 *   -P  switch the preemption model (none/voluntary/full) at random every
 *       0.5-2 s through /sys/kernel/debug/sched/preempt; SKIP if missing
 *   -M  do not touch the THP settings in sysfs (for a run on a host)
 * Options are also taken from the environment variable TORTURE_OPTS,
 * separated by spaces or commas (e.g. TORTURE_OPTS=-t,300,-P on the
 * kernel command line, which hands unknown name=value words to /init),
 * before those on the command line.
 *
 * Each worker loops over rounds. A round picks a kind at random: mTHP of
 * 16K..1M, PMD THP, hugetlb 2M, or (rarely, see -g) hugetlb 1G, and runs
 * hugecheck.c's round on a batch of huge pages of that kind with a fill
 * pattern of its own (0x80 | worker): fill, unmap so that they go back to
 * the pool or the buddy allocator dirty, map again, first touch of each
 * huge page a write of HC_MARKER at a random byte, so that the kernel
 * zeroes the folio for a fault address in its middle. The marker byte is
 * checked and cleared, then every byte of the page must be zero.
 *
 * What is counted as a fault: the first touch of one huge page (hugetlb)
 * or of one region of the kind's size (THP and mTHP), in the second
 * mapping; the faults of the fill phase are not counted. A THP/mTHP region
 * may fall back to smaller folios; it is still counted as a fault of its
 * kind, and separately as "huge" if pagemap shows that all its pages are
 * present and physically contiguous from a size-aligned PFN, i.e. one
 * folio of that size (PMD THP without access to PFNs: AnonHugePages).
 *
 * Unless -M is given, every hugepages-<N>kB/enabled in sysfs and the
 * top-level THP "enabled" are set to "always" at the start and restored
 * at exit, also after SIGINT/SIGTERM/SIGHUP (not after SIGKILL), with the
 * tree's thp_settings.c.
 *
 * Memory pressure comes from the harness, not from this program, e.g.
 *   stress-ng --vm 1 --vm-bytes 25% --vm-keep --timeout 700s &
 *   torture -t 600 -P
 *
 * Output is TAP: one test per kind (SKIP if unavailable), "fault target",
 * "workers" (all exited cleanly) and, with -P, "preempt switching"; then
 * the measurements "# faults: N" and "# nonzero_bytes: N" for the
 * harness (KTAP diagnostics), then the totals. Exits non-zero on any failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
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
#define GRACE_S 60		/* for a worker in a 1 GiB round under TCG */
#define PROGRESS_S 30

#define THP_DIR "/sys/kernel/mm/transparent_hugepage"
#define PREEMPT_FILE "/sys/kernel/debug/sched/preempt"

struct kind {
	const char *name;
	struct hc_kind hc;	/* size, huge pages per round, hugetlb */
	bool avail;
	char why[256];		/* why not available */
};

static struct kind kinds[] = {
	{ "mthp_16K",	{ 16UL << 10,	32 } },
	{ "mthp_32K",	{ 32UL << 10,	32 } },
	{ "mthp_64K",	{ 64UL << 10,	32 } },
	{ "mthp_128K",	{ 128UL << 10,	32 } },
	{ "mthp_256K",	{ 256UL << 10,	16 } },
	{ "mthp_512K",	{ 512UL << 10,	 8 } },
	{ "mthp_1M",	{ 1UL << 20,	 4 } },
	{ "thp_2M",	{ SZ_2M,	 4 } },
	{ "hugetlb_2M",	{ SZ_2M,	 4, true } },
	{ "hugetlb_1G",	{ SZ_1G,	 1, true } },
};
#define NKINDS ARRAY_SIZE(kinds)
#define K_1G (NKINDS - 1)

/* Counters of all processes, in a MAP_SHARED page; updated atomically. */
struct kind_stats {
	uint64_t rounds;
	uint64_t faults;	/* see the comment at the top */
	uint64_t huge;		/* faults verified to be one folio */
	uint64_t unverified;	/* faults whose PFNs we could not read */
	uint64_t nonzero;	/* non-zero bytes found */
	uint64_t busy;		/* mmap() said ENOMEM: retried later */
	uint64_t errors;	/* unexpected errors, lost markers */
};

struct shared {
	int stop;
	struct kind_stats k[NKINDS];
	uint64_t switches;	/* preemption model changes */
	uint64_t switch_errors;
};

static struct opts {
	unsigned int secs, procs, g1_interval;
	unsigned long target;
	unsigned int seed;
	bool preempt, no_sysfs;
} opt = { 600, 4, 30, 100000, 0, false, false };

static struct shared *sh;
static double deadline;
static volatile sig_atomic_t got_signal;

static void add(uint64_t *c, uint64_t n)
{
	__atomic_fetch_add(c, n, __ATOMIC_RELAXED);
}

static uint64_t get(const uint64_t *c)
{
	return __atomic_load_n(c, __ATOMIC_RELAXED);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };

	nanosleep(&ts, NULL);
}

/* xorshift64*: cheap, and each worker has its own reproducible stream. */
static uint64_t rnd(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dULL;
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
static int read_preempt(char *out, size_t len)
{
	char buf[128] = "", *a, *b;

	read_file(PREEMPT_FILE, buf, sizeof(buf));
	a = strchr(buf, '(');
	b = a ? strchr(a, ')') : NULL;
	if (!b || (size_t)(b - a) > len)
		return -1;
	snprintf(out, b - a, "%s", a + 1);
	return 0;
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
	char name[64];
	int i;

	if (access(THP_DIR "/shmem_enabled", F_OK)) {
		ksft_print_msg("THP settings left alone: no " THP_DIR "/shmem_enabled\n");
		return;
	}
	thp_save_settings();
	thp_read_settings(&s);
	for (i = -1; i < NR_ORDERS; i++) {
		if (i >= 0 && !(orders & (1UL << i)))
			continue;
		e = i < 0 ? &s.thp_enabled : &s.hugepages[i].enabled;
		if (*e == THP_ALWAYS)
			continue;
		if (i < 0)
			snprintf(name, sizeof(name), "enabled");
		else
			snprintf(name, sizeof(name), "hugepages-%ukB/enabled",
				 (psize() >> 10) << i);
		ksft_print_msg("set " THP_DIR "/%s to always (was %s)\n", name,
			       thp_modes[*e]);
		*e = THP_ALWAYS;
	}
	thp_push_settings(&s);
	thp_changed = true;
}

/* THP/mTHP of this size will be used for a MADV_HUGEPAGE region. */
static void probe_anon(struct kind *k, unsigned long orders)
{
	int mode = THP_INHERIT;
	char name[64];

	snprintf(name, sizeof(name), "hugepages-%zukB/enabled",
		 k->hc.size >> 10);
	if (orders & (1UL << __builtin_ctzl(k->hc.size / psize()))) {
		mode = thp_read_string(name, thp_modes);
	} else if (k->hc.size != SZ_2M || access(THP_DIR "/enabled", F_OK)) {
		/* Before mTHP (6.8) only the top-level file, for PMD THP. */
		snprintf(k->why, sizeof(k->why), "no " THP_DIR "/%s", name);
		return;
	}
	if (mode == THP_INHERIT)
		mode = thp_read_string("enabled", thp_modes);
	if (mode != THP_ALWAYS && mode != THP_MADVISE) {
		snprintf(k->why, sizeof(k->why), THP_DIR "/%s: %s", name,
			 thp_modes[mode]);
		return;
	}
	k->avail = true;
}

static void probe_hugetlb(struct kind *k)
{
	long nr = hugetlb_count(k->hc.size, "nr_hugepages");

	if (nr < 0)
		snprintf(k->why, sizeof(k->why), "no hugetlb pages of %zu kB",
			 k->hc.size >> 10);
	else if (nr < k->hc.npages)
		snprintf(k->why, sizeof(k->why), "hugetlb pool of %zu kB has %ld pages",
			 k->hc.size >> 10, nr);
	else
		k->avail = true;
}

/* ---- one round ---- */

struct worker {
	int id;
	int pattern;
	int pagemap;
	uint64_t rng;
	double next_1g;		/* earliest time for a 1 GiB round */
	unsigned int reports;
};

struct round {
	struct worker *w;
	const struct kind *k;
	struct kind_stats *st;
	unsigned int nhuge, nunknown;
};

/*
 * 1 if the region is one folio of its size: all pages present, PFNs
 * contiguous from a size-aligned PFN (a fallback maps small pages and the
 * shared zero page). 0 if not, -1 if we cannot see PFNs (no CAP_SYS_ADMIN).
 */
static int is_one_folio(struct worker *w, const char *p, size_t len)
{
	uint64_t ent[SZ_2M / SZ_4K], pfn0 = 0;
	size_t i, n = len / psize();
	off_t off = (uintptr_t)p / psize() * sizeof(ent[0]);

	if (w->pagemap < 0 || n > ARRAY_SIZE(ent) ||
	    pread(w->pagemap, ent, n * sizeof(ent[0]), off) !=
	    (ssize_t)(n * sizeof(ent[0])))
		return -1;
	for (i = 0; i < n; i++) {
		uint64_t pfn = PAGEMAP_PFN(ent[i]);

		if (!PAGEMAP_PRESENT(ent[i]))
			return 0;
		if (!pfn)
			return -1;
		if (!i)
			pfn0 = pfn;
		if ((!i && pfn % n) || pfn != pfn0 + i)
			return 0;
	}
	return 1;
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
	struct round *r = arg;
	const struct kind *k = r->k;
	int huge = 1;

	if (pg->marker != HC_MARKER) {
		report(r->w, "%s page %u: marker at +%#zx is %#x\n", k->name, i,
		       pg->touch, pg->marker);
		add(&r->st->errors, 1);
	}
	if (pg->nonzero) {
		report(r->w, "%s page %u at %p: %zu non-zero bytes, first at +%#zx = %#x (fill of worker %d is %#x), first touch at +%#zx\n",
		       k->name, i, pg->addr, pg->nonzero, pg->first,
		       (unsigned char)pg->addr[pg->first], r->w->id,
		       r->w->pattern, pg->touch);
		add(&r->st->nonzero, pg->nonzero);
	}
	if (!k->hc.hugetlb) {
		huge = is_one_folio(r->w, pg->addr, k->hc.size);
		/* PMD THP without PFNs: AnonHugePages of its own VMA */
		if (huge < 0 && k->hc.size == SZ_2M)
			huge = check_huge_anon(pg->addr, 1, SZ_2M);
	}
	r->nhuge += huge > 0;
	r->nunknown += huge < 0;
}

static void run_round(struct worker *w, const struct kind *k)
{
	struct round r = { .w = w, .k = k, .st = &sh->k[k - kinds] };
	size_t touch[MAX_BATCH];
	const char *what;
	unsigned int i;
	int err;

	for (i = 0; i < k->hc.npages; i++)
		touch[i] = rnd(&w->rng) % k->hc.size;
	err = hc_round(&k->hc, w->pattern, touch, check_page, &r, &what);
	if (err == -ENOMEM || err == -EAGAIN) {
		/*
		 * Pool or memory short, e.g. the other workers hold the
		 * 1 GiB pages: not a failure, try again later.
		 */
		add(&r.st->busy, 1);
		if (k == &kinds[K_1G])
			w->next_1g = now() + 5;
		sleep_s(0.01);
		return;
	}
	if (err) {
		report(w, "%s: %s: %s\n", k->name, what, strerror(-err));
		add(&r.st->errors, 1);
		return;
	}
	add(&r.st->rounds, 1);
	add(&r.st->faults, k->hc.npages);
	add(&r.st->huge, r.nhuge);
	add(&r.st->unverified, r.nunknown);
}

/* Mostly the fast kinds; 1 GiB only every -g seconds and if a page is free. */
static const struct kind *pick_kind(struct worker *w)
{
	unsigned int i, n = 0, pick[NKINDS];
	double t = now();

	/* Not when the round would outlast the run: it takes ~10 s in TCG. */
	if (kinds[K_1G].avail && t >= w->next_1g && deadline - t > 15) {
		w->next_1g = t + opt.g1_interval;
		/* Pages not promised to anybody yet. */
		if (hugetlb_count(SZ_1G, "free_hugepages") -
		    hugetlb_count(SZ_1G, "resv_hugepages") > 0)
			return &kinds[K_1G];
		w->next_1g = t + 5;
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
		if (!k) {
			sleep_s(0.1);
			continue;
		}
		run_round(&w, k);
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
		sleep_s(0.5 + (rnd(&rng) % 1500) / 1000.0);
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

/* ---- main process ---- */

static void usage(const char *prog)
{
	ksft_exit_fail_msg("usage: %s [-t seconds] [-j procs] [-n min_faults] [-s seed] [-g seconds] [-P] [-M]\n",
			   prog);
}

static unsigned long num(const char *s, const char *prog)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s || *end)
		usage(prog);
	return v;
}

/* argv[0], the words of $TORTURE_OPTS, argv[1..]. */
static char **merge_env_opts(int *argc, char **argv)
{
	const char *env = getenv("TORTURE_OPTS");
	char **nargv, *copy, *tok, *save;
	int n = 1, i;

	if (!env || !*env)
		return argv;
	copy = strdup(env);
	nargv = calloc(*argc + strlen(env) + 2, sizeof(*nargv));
	if (!copy || !nargv)
		ksft_exit_fail_msg("out of memory\n");
	nargv[0] = argv[0];
	for (tok = strtok_r(copy, " ,\t", &save); tok;
	     tok = strtok_r(NULL, " ,\t", &save))
		nargv[n++] = tok;
	for (i = 1; i < *argc; i++)
		nargv[n++] = argv[i];
	*argc = n;
	return nargv;
}

static void parse_opts(int argc, char **argv)
{
	int c;

	argv = merge_env_opts(&argc, argv);
	while ((c = getopt(argc, argv, "t:j:n:s:g:PM")) != -1) {
		switch (c) {
		case 't':
			opt.secs = num(optarg, argv[0]);
			break;
		case 'j':
			opt.procs = num(optarg, argv[0]);
			break;
		case 'n':
			opt.target = num(optarg, argv[0]);
			break;
		case 's':
			opt.seed = num(optarg, argv[0]);
			break;
		case 'g':
			opt.g1_interval = num(optarg, argv[0]);
			break;
		case 'P':
			opt.preempt = true;
			break;
		case 'M':
			opt.no_sysfs = true;
			break;
		default:
			usage(argv[0]);
		}
	}
	if (optind != argc || !opt.secs || !opt.procs ||
	    opt.procs > MAX_WORKERS)
		usage(argv[0]);
}

static uint64_t total(size_t field)
{
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < NKINDS; i++)
		sum += get((uint64_t *)((char *)&sh->k[i] + field));
	return sum;
}
#define TOTAL(f) total(offsetof(struct kind_stats, f))

/* System-wide mTHP allocation counters (6.9+), to show what happened. */
static void mthp_stats(long *alloc, long *fallback)
{
	char path[128];
	unsigned int i;

	for (i = 0; i < K_1G; i++) {
		if (kinds[i].hc.hugetlb)
			continue;
		snprintf(path, sizeof(path),
			 THP_DIR "/hugepages-%zukB/stats/anon_fault_alloc",
			 kinds[i].hc.size >> 10);
		alloc[i] = read_long(path);
		snprintf(path, sizeof(path),
			 THP_DIR "/hugepages-%zukB/stats/anon_fault_fallback",
			 kinds[i].hc.size >> 10);
		fallback[i] = read_long(path);
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
		sleep_s(0.05);
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
		sleep_s(0.05);
	return reap(c, n);
}

/* Wait for the fault target, the time limit, a signal, or dead workers. */
static const char *monitor(struct child *c, unsigned int n, double start)
{
	double min_time = opt.secs / 10.0, next_progress = PROGRESS_S, t;

	for (;;) {
		sleep_s(0.2);
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
			ksft_print_msg("progress: %.0f s, %llu faults, %llu non-zero bytes\n",
				       t, (unsigned long long)TOTAL(faults),
				       (unsigned long long)TOTAL(nonzero));
			next_progress += PROGRESS_S;
		}
	}
}

static void report_kind(unsigned int i)
{
	const struct kind *k = &kinds[i];
	const struct kind_stats *st = &sh->k[i];
	unsigned long long faults = st->faults, huge = st->huge;

	if (k->avail)
		ksft_print_msg("%-10s faults %llu huge %llu unverified %llu nonzero_bytes %llu busy %llu errors %llu rounds %llu\n",
			       k->name, faults, huge,
			       (unsigned long long)st->unverified,
			       (unsigned long long)st->nonzero,
			       (unsigned long long)st->busy,
			       (unsigned long long)st->errors,
			       (unsigned long long)st->rounds);
	if (!k->avail)
		ksft_test_result_skip("%s: %s\n", k->name, k->why);
	else if (st->nonzero || st->errors)
		ksft_test_result_fail("%s: %llu non-zero bytes, %llu errors in %llu faults\n",
				      k->name, (unsigned long long)st->nonzero,
				      (unsigned long long)st->errors, faults);
	else if (!faults)
		/* e.g. the 1 GiB pool was always taken, or -t was short */
		ksft_test_result_skip("%s: no round completed (%llu times busy)\n",
				      k->name, (unsigned long long)st->busy);
	else if (!k->hc.hugetlb && !huge && !st->unverified)
		ksft_test_result_skip("%s: none of %llu regions became one folio\n",
				      k->name, faults);
	else
		ksft_test_result_pass("%s: %llu faults (%llu verified huge), all zero\n",
				      k->name, faults, huge);
}

static void report_all(struct child *c, unsigned int nworkers, bool preempt_run,
		       const char *why, double secs, unsigned int stuck)
{
	unsigned long long faults = TOTAL(faults);
	unsigned int i, bad = 0;

	for (i = 0; i < NKINDS; i++)
		report_kind(i);

	if (faults >= opt.target)
		ksft_test_result_pass("fault target: %llu >= %lu faults in %.1f s (%.0f/s)\n",
				      faults, opt.target, secs, faults / secs);
	else
		ksft_test_result_fail("fault target: %llu < %lu faults in %.1f s (%s)\n",
				      faults, opt.target, secs, why);

	for (i = 0; i < nworkers + preempt_run; i++) {
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
			 bad, nworkers + preempt_run,
			 stuck ? " (some are stuck)" : "");

	if (opt.preempt && !preempt_run)
		ksft_test_result_skip("preempt switching: no " PREEMPT_FILE "\n");
	else if (opt.preempt)
		ksft_test_result(get(&sh->switches) && !get(&sh->switch_errors),
				 "preempt switching: %llu switches, %llu failed writes\n",
				 (unsigned long long)get(&sh->switches),
				 (unsigned long long)get(&sh->switch_errors));
}

int main(int argc, char **argv)
{
	struct child c[MAX_WORKERS + 1] = {};
	long alloc0[NKINDS], fb0[NKINDS], alloc1[NKINDS], fb1[NKINDS];
	unsigned long orders = thp_supported_orders();
	bool preempt_run = false;
	unsigned int i, n, stuck;
	struct sigaction sa = { .sa_handler = on_signal };
	const char *why;
	double start;

	main_pid = getpid();
	opt.seed = getpid() ^ (unsigned int)time(NULL);
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

	for (i = n = 0; i < NKINDS; i++) {
		if (kinds[i].hc.npages > MAX_BATCH)
			ksft_exit_fail_msg("%s: batch > %d\n", kinds[i].name,
					   MAX_BATCH);
		if (kinds[i].hc.hugetlb)
			probe_hugetlb(&kinds[i]);
		else
			probe_anon(&kinds[i], orders);
		n += kinds[i].avail;
	}
	if (!n)
		ksft_exit_skip("no kind of huge page is available\n");
	if (opt.preempt && !access(PREEMPT_FILE, W_OK) &&
	    !read_preempt(preempt_orig, sizeof(preempt_orig)))
		preempt_run = true;

	ksft_set_plan(NKINDS + 2 + opt.preempt);
	ksft_print_msg("seed %u, %u workers, %u s, target %lu faults, 1G every %u s per worker%s\n",
		       opt.seed, opt.procs, opt.secs, opt.target,
		       opt.g1_interval, preempt_run ? ", preempt switching" : "");
	mthp_stats(alloc0, fb0);

	start = now();
	deadline = start + opt.secs;
	for (i = 0; i < opt.procs; i++)
		c[i].pid = spawn(worker, i);
	if (preempt_run) {
		/* The switcher only writes; we restore. */
		preempt_changed = true;
		c[i].pid = spawn(preempt_switcher, 0);
	}

	why = monitor(c, opt.procs + preempt_run, start);
	stuck = stop_children(c, opt.procs + preempt_run);
	restore_settings();
	ksft_print_msg("stopped after %.1f s: %s\n", now() - start, why);

	mthp_stats(alloc1, fb1);
	for (i = 0; i < K_1G; i++)
		if (kinds[i].avail && !kinds[i].hc.hugetlb && alloc0[i] >= 0 &&
		    fb0[i] >= 0)
			ksft_print_msg("sysfs hugepages-%zukB: anon_fault_alloc +%ld anon_fault_fallback +%ld (whole system)\n",
				       kinds[i].hc.size >> 10, alloc1[i] - alloc0[i],
				       fb1[i] - fb0[i]);

	report_all(c, opt.procs, preempt_run, why, now() - start, stuck);
	ksft_print_msg("faults: %llu\n", (unsigned long long)TOTAL(faults));
	ksft_print_msg("nonzero_bytes: %llu\n", (unsigned long long)TOTAL(nonzero));
	ksft_finished();
}
