// SPDX-License-Identifier: GPL-2.0
/*
 * faultbench: huge page fault throughput in the guest, in the spirit of
 * "perf bench mem mmap" (demand and populate faults), plus a fault then
 * sequential write workload in the spirit of vm-scalability's
 * anon-w-seq-hugetlb, reporting user and system time separately, and
 * copy-on-write faults: a child of the process that faulted the pages in
 * writes a byte to each, and the kernel copies the whole huge page.
 *
 * The first touch of each huge page (demand and write) goes to a random
 * byte within it, as "perf bench mem mmap -r" does, so the fault subpage
 * is anywhere in the page rather than always the first one (the kernel's
 * two-region edge case). The offsets come from a fixed-seed PRNG and are
 * drawn before the timed part.
 *
 * Usage: faultbench [-s 2M|1G] [-b BYTES_MiB] [-r ROUNDS]
 * For each mode M (demand, populate, write, cow) prints the medians over the
 * rounds as KTAP diagnostics, for the result line that follows them, and
 * the slowest and fastest round's rate:
 *   # M_gbps: G
 *   # M_gbps_min: G
 *   # M_gbps_max: G
 *   # M_user_s: U
 *   # M_sys_s: S
 * Under QEMU TCG these figures show the relative structure only: TCG's
 * timing says nothing about hardware. Its copies are bimodal: the same
 * kernel copied 64 MiB of 2 MiB pages in 0.13 s in one round and in
 * 2.1-2.8 s in the others, so a CoW median of three rounds can land on
 * either; the min-max shows which.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_ROUNDS	31
#define SEED		0xfa017be7c4UL

enum mode { DEMAND, POPULATE, WRITE, COW, NR_MODES };
static const char * const mode_names[] = { "demand", "populate", "write", "cow" };

struct sample {
	double secs, user, sys;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double tv(struct timeval t)
{
	return t.tv_sec + t.tv_usec / 1e6;
}

static uint64_t xorshift64(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* A random byte offset within each of the @nr huge pages of @page bytes. */
static size_t *touch_offsets(size_t nr, size_t page)
{
	size_t *off = calloc(nr, sizeof(*off)), k;
	uint64_t s = SEED;

	if (!off) {
		perror("faultbench: calloc");
		exit(1);
	}
	for (k = 0; k < nr; k++)
		off[k] = xorshift64(&s) % page;
	return off;
}

/*
 * The copy-on-write faults of the @len bytes at @p, faulted in by the
 * caller: a child writes a byte at @off within each huge page, so that
 * the kernel copies each whole page for it (hugetlb copies at the fault,
 * the pool must hold a second set of pages), and times them itself.
 */
static int cow_faults(char *p, size_t len, size_t page, const size_t *off,
		      struct sample *out)
{
	struct rusage r0, r1;
	int fd[2], status;
	ssize_t n;
	double t0;
	pid_t pid;
	size_t k;

	if (pipe(fd)) {
		perror("faultbench: pipe");
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		perror("faultbench: fork");
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (!pid) {
		close(fd[0]);
		getrusage(RUSAGE_SELF, &r0);
		t0 = now();
		for (k = 0; k < len / page; k++)
			((volatile char *)p)[k * page + off[k]] = 2;
		out->secs = now() - t0;
		getrusage(RUSAGE_SELF, &r1);
		out->user = tv(r1.ru_utime) - tv(r0.ru_utime);
		out->sys = tv(r1.ru_stime) - tv(r0.ru_stime);
		_exit(write(fd[1], out, sizeof(*out)) == sizeof(*out) ? 0 : 1);
	}
	close(fd[1]);
	n = read(fd[0], out, sizeof(*out));
	close(fd[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) || n != sizeof(*out)) {
		fprintf(stderr, "faultbench: the copy-on-write child failed (status %#x; a pool too small for the copies gives SIGBUS)\n",
			status);
		return -1;
	}
	return 0;
}

/*
 * One round: map, fault (and write), unmap; times of the fault part.
 * @off: where the first touch of each huge page goes.
 */
static int run_once(enum mode m, size_t len, size_t page, int shift,
		    const size_t *off, struct sample *out)
{
	int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB |
		    (shift << MAP_HUGE_SHIFT);
	struct rusage r0, r1;
	double t0;
	char *p;
	size_t i, k;

	getrusage(RUSAGE_SELF, &r0);
	t0 = now();
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 flags | (m == POPULATE || m == COW ? MAP_POPULATE : 0), -1, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, "faultbench: mmap %zu bytes: %s\n", len, strerror(errno));
		return -1;
	}
	if (m == DEMAND) {
		for (k = 0; k < len / page; k++)
			((volatile char *)p)[k * page + off[k]] = 1;
	} else if (m == WRITE) {
		/*
		 * The fault, at a random byte of the page; then the user
		 * writes every byte of it once, in order.
		 */
		for (k = 0; k < len / page; k++) {
			((volatile char *)p)[k * page + off[k]] = 1;
			for (i = k * page; i < (k + 1) * page; i += 8)
				*(volatile uint64_t *)(p + i) = i;
		}
	}
	if (m == COW) {
		if (cow_faults(p, len, page, off, out)) {
			munmap(p, len);
			return -1;
		}
		munmap(p, len);
		return 0;
	}
	out->secs = now() - t0;
	getrusage(RUSAGE_SELF, &r1);
	out->user = tv(r1.ru_utime) - tv(r0.ru_utime);
	out->sys = tv(r1.ru_stime) - tv(r0.ru_stime);
	munmap(p, len);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
	size_t page = 2UL << 20, len = 0;
	int rounds = 5, shift = 21, opt, r, m;
	double secs[MAX_ROUNDS], user[MAX_ROUNDS], sys[MAX_ROUNDS];
	struct sample s;
	size_t *off;

	while ((opt = getopt(argc, argv, "s:b:r:")) != -1) {
		switch (opt) {
		case 's':
			if (!strcmp(optarg, "1G")) {
				page = 1UL << 30;
				shift = 30;
			} else if (strcmp(optarg, "2M")) {
				fprintf(stderr, "faultbench: -s takes 2M or 1G\n");
				return 2;
			}
			break;
		case 'b':
			len = strtoul(optarg, NULL, 0) << 20;
			break;
		case 'r':
			rounds = atoi(optarg);
			break;
		default:
			fprintf(stderr, "usage: faultbench [-s 2M|1G] [-b MiB] [-r rounds]\n");
			return 2;
		}
	}
	if (rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "faultbench: -r takes 1..%d\n", MAX_ROUNDS);
		return 2;
	}
	if (!len)
		len = page;
	if (len % page) {
		fprintf(stderr, "faultbench: -b must be a multiple of the page size\n");
		return 2;
	}
	off = touch_offsets(len / page, page);
	for (m = 0; m < NR_MODES; m++) {
		for (r = 0; r < rounds; r++) {
			if (run_once(m, len, page, shift, off, &s))
				return 1;
			secs[r] = s.secs;
			user[r] = s.user;
			sys[r] = s.sys;
		}
		printf("# %s_gbps: %.3f\n# %s_user_s: %.3f\n# %s_sys_s: %.3f\n",
		       mode_names[m], len / median(secs, rounds) / 1e9,
		       mode_names[m], median(user, rounds),
		       mode_names[m], median(sys, rounds));
		/* median() sorted secs[]: the slowest round is the last. */
		printf("# %s_gbps_min: %.3f\n# %s_gbps_max: %.3f\n",
		       mode_names[m], len / secs[rounds - 1] / 1e9,
		       mode_names[m], len / secs[0] / 1e9);
	}
	free(off);
	return 0;
}
