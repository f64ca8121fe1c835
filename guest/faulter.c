// SPDX-License-Identifier: GPL-2.0
/*
 * faulter: demand-fault huge pages in a loop, as the load for the latency
 * test. Each round maps a hugetlb page, takes its first fault at a random
 * subpage (so the kernel zeroes the whole page in that fault) and unmaps
 * it again. With -w, copy-on-write faults instead: one private hugetlb
 * page is faulted once, then each round forks a child that writes one
 * byte at a random subpage, so that the kernel copies the whole page for
 * the child, and exits. With -r FILE, FILE is created once the first fault
 * is done, so that a measurement can start after it: with -w, after the
 * source page is faulted, whose clear would otherwise count as a copy.
 *
 * Usage: faulter [-c cpu] [-s 2M|1G] [-t seconds] [-w] [-r FILE]
 * Prints "# faulter: N faults in T s" on exit; exits 1 if it could not
 * fault a single page.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <linux/mman.h>
#include <time.h>
#include <unistd.h>


static volatile sig_atomic_t stop;
static const char *ready_file;

/* -r: say once that the first fault is done. */
static void ready(void)
{
	int fd;

	if (!ready_file)
		return;
	fd = open(ready_file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		perror("faulter: -r");
	else
		close(fd);
	ready_file = NULL;
}

static void on_signal(int sig)
{
	stop = 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* -w: copy-on-write faults of one private hugetlb page, in children. */
static unsigned long cow_faults(size_t size, int shift, double secs)
{
	char *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB |
		       (shift << MAP_HUGE_SHIFT), -1, 0);
	unsigned long faults = 0;
	double t0 = now();
	int status;
	pid_t pid;

	if (p == MAP_FAILED) {
		fprintf(stderr, "faulter: mmap: %s\n", strerror(errno));
		return 0;
	}
	p[0] = 1;
	ready();
	while (!stop && now() - t0 < secs) {
		size_t sub = (size_t)random() % (size / 4096);

		pid = fork();
		if (pid < 0) {
			perror("faulter: fork");
			break;
		}
		if (pid == 0) {
			p[sub * 4096] = 2;
			_exit(p[sub * 4096] == 2 ? 0 : 1);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			fprintf(stderr, "faulter: the child's copy-on-write fault failed\n");
			break;
		}
		faults++;
	}
	munmap(p, size);
	return faults;
}

int main(int argc, char **argv)
{
	size_t size = 1UL << 30;
	int cpu = -1, opt, shift = 30, cow = 0;
	double secs = 10, t0;
	unsigned long faults = 0;

	while ((opt = getopt(argc, argv, "c:s:t:wr:")) != -1) {
		switch (opt) {
		case 'c':
			cpu = atoi(optarg);
			break;
		case 's':
			shift = strcmp(optarg, "2M") ? 30 : 21;
			if (strcmp(optarg, "2M") && strcmp(optarg, "1G")) {
				fprintf(stderr, "faulter: -s takes 2M or 1G\n");
				return 2;
			}
			size = 1UL << shift;
			break;
		case 't':
			secs = atof(optarg);
			break;
		case 'w':
			cow = 1;
			break;
		case 'r':
			ready_file = optarg;
			break;
		default:
			fprintf(stderr, "usage: faulter [-c cpu] [-s 2M|1G] [-t seconds] [-w] [-r FILE]\n");
			return 2;
		}
	}
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			perror("faulter: sched_setaffinity");
			return 1;
		}
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	srandom(getpid());

	t0 = now();
	if (cow) {
		faults = cow_faults(size, shift, secs);
		printf("# faulter: %lu faults in %.1f s\n", faults, now() - t0);
		return faults ? 0 : 1;
	}
	while (!stop && now() - t0 < secs) {
		char *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB |
			       (shift << MAP_HUGE_SHIFT), -1, 0);
		size_t sub = (size_t)random() % (size / 4096);

		if (p == MAP_FAILED) {
			fprintf(stderr, "faulter: mmap: %s\n", strerror(errno));
			break;
		}
		p[sub * 4096] = 1;
		munmap(p, size);
		faults++;
		ready();
	}
	printf("# faulter: %lu faults in %.1f s\n", faults, now() - t0);
	return faults ? 0 : 1;
}
