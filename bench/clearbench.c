// SPDX-License-Identifier: GPL-2.0
/*
 * clearbench - how fast does this CPU zero huge pages with the kernel's own
 * clear_pages_*() routines (arch/x86/lib/clear_page_64.S of a kernel tree,
 * assembled into this program with the headers in shim/), in the orders
 * Linux 6.12 and the multi-page clearing series use them? And with -C, how
 * fast does it copy them with the tree's copy_page_64.S and copy_mc_64.S,
 * in the orders of 6.12 and of the series?
 *
 * This file is the driver: options, pinning, and main(). The rest, a job
 * a file, in layers; a file uses only files of lower layers (in brackets):
 *
 *   0 common.c      the options struct, page sizes and names, sizes,
 *                   strategy indices, note() and its prefix, tap(),
 *                   median_of()  [none]
 *   0 split.o       the series' split of a folio into runs: the tree's
 *                   folio_zero_user_ranges() cut out of its mm/memory.c
 *                   (build/kernel_split.c), or own_split.c  [none]
 *   1 probe.c       the host CPU: /proc/cpuinfo (once), CPUID, LLC  [none]
 *   1 hugemem.c     huge page backed buffers (hugetlb, else THP)  [common]
 *   2 policy.c      the default strategies' policy, clears and copies:
 *                   the tree's clear_pages_policy.h, or our own copy
 *                   [common probe]
 *   2 loops.c       loops of our own: the limit candidates, CLZERO, the
 *                   MOVDIR64B clear and copy, the AVX-512 copy, and the
 *                   user's write and read passes after the clear  [probe]
 *   3 strategies.c  the strategy table and the kernel's clear orders
 *                   [common split probe loops policy, clear_pages.h: the
 *                   tree's .S]
 *   4 copy.c        the copy strategy table and the kernel's copy orders
 *                   [common probe loops policy strategies, copy_pages.h:
 *                   the tree's .S]
 *   4 measure.c     timing, interleaved rounds, medians, paired ratios
 *                   [common hugemem loops strategies]
 *   5 copy_measure.c  the same for the copies  [common hugemem copy]
 *   5 report.c      header, table, CSVs
 *                   [common probe policy strategies measure]
 *   5 verify.c      -V: orders, split, policy and all-zero checks
 *                   [common hugemem loops policy strategies]
 *   5 copy_verify.c -V: exact copies, guards untouched  [common hugemem copy]
 *   6 copy_report.c header, table, raw CSV of the copies
 *                   [common probe split copy copy_measure]
 *   7 clearbench.c  this driver  [any]
 *
 * `clearbench -S help` lists the strategies and what each does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "copy.h"
#include "copy_measure.h"
#include "copy_report.h"
#include "copy_verify.h"
#include "measure.h"
#include "policy.h"
#include "report.h"
#include "strategies.h"
#include "verify.h"
#include "writers.h"

/* ---- options ---- */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: clearbench [-C | -W] [options]\n"
		"  -C         copy huge pages instead of clearing them: the copy\n"
		"             strategies below; -S names those, -R writes their\n"
		"             runs (strategy,page,gbps,round); source and destination\n"
		"             are THP; not with -o, -P, -B\n"
		"  -W         writers: the buffer's 2M pages cleared around the\n"
		"             caches (the policy's loop) by one thread, then by\n"
		"             two on CPUs -c and -c + 1, per round; -R writes\n"
		"             round,writers,gbps\n"
		"  -s SIZE    buffer size, a multiple of 2M (default 1G; K/M/G suffixes)\n"
		"  -r N       measured rounds (default 7), after one warm-up round\n"
		"  -c CPU     CPU to pin to (default 0)\n"
		"  -t BYTES   default: runs but the neighbourhood larger than BYTES\n"
		"             bypass the caches, like clear_nt_threshold= (default:\n"
		"             the policy's, the tree's clear_pages_policy.h if it\n"
		"             has one, else clearbench's own copy)\n"
		"  -p PAGES   page sizes: 2M, 1G or 2M,1G (default 2M,1G)\n"
		"  -u BYTES   the units strategy's call length, a multiple of 4K\n"
		"             (default: clears 32 MiB, PROCESS_PAGES_NON_PREEMPT_BATCH;\n"
		"             -C the tree's COPY_PAGES_NON_PREEMPT_BATCH)\n"
		"  -S LIST    strategies, comma separated (default all, listed\n"
		"             below); -S help lists them\n"
		"  -B MODE    backing: auto (hugetlb, else THP), hugetlb, thp\n"
		"  -o FILE    summary CSV: strategy,page,gbps,e2e_gbps (medians)\n"
		"  -R FILE    raw CSV, one row per run: round,strategy,page,gbps,\n"
		"             e2e_gbps,e2e_read_gbps (e2e: the clear, then the user's\n"
		"             write or read pass)\n"
		"  -P FILE    per-round paired ratios CSV: strategy,page,metric,vs,\n"
		"             median,min,max,rounds_won,rounds (vs mainline, best)\n"
		"  -V         verify: clear once per strategy, check the buffer is\n"
		"             all zero, copy once per copy strategy, check the copy\n"
		"             (with -C: only the copies); print TAP; exit status 1\n"
		"             on any failure\n"
		"  -h         this help\n"
		"\n"
		"strategies:\n");
	strategies_help(f, "  ");
	fprintf(f, "copy strategies (-C):\n");
	copy_help(f, "  ");
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

/* -S help: the strategies and what each does, as perf bench's -f help. */
static void list_strategies(void)
{
	printf("Available strategies (-S LIST, comma separated; default all):\n");
	strategies_help(stdout, "  ");
	printf("Copy strategies (-C -S LIST; default all):\n");
	copy_help(stdout, "  ");
}

/* -S, once -C is known: clear strategies, or copy strategies with -C. */
static int parse_strategies(struct opts *o, char *list)
{
	char *tok, *save;
	int s;

	if (o->copy)
		memset(o->want_copy, 0, sizeof(o->want_copy));
	else
		memset(o->want, 0, sizeof(o->want));
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "help")) {
			list_strategies();
			exit(0);
		}
		s = o->copy ? copy_index(tok) : strategy_index(tok);
		if (s < 0)
			return bad_opt(o->copy ? "-S: unknown copy strategy '%s'" :
				       "-S: unknown strategy '%s' (copies: with -C)",
				       tok);
		if (o->copy)
			o->want_copy[s] = true;
		else
			o->want[s] = true;
	}
	return 0;
}

static int parse_opts(struct opts *o, int argc, char **argv)
{
	bool have_t = false, have_b = false;
	char *slist = NULL, *end;
	long v;
	int c;

	memset(o, 0, sizeof(*o));
	o->size = SZ_1G;
	o->rounds = 7;
	o->want_page[0] = o->want_page[1] = true;
	memset(o->want, 1, sizeof(o->want));
	memset(o->want_copy, 1, sizeof(o->want_copy));
	o->backing = BACKING_AUTO;

	while ((c = getopt(argc, argv, "s:r:c:t:p:u:S:B:o:R:P:VCWh")) != -1) {
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
		case 'u':
			o->copy_unit = parse_size(optarg);
			if (!o->copy_unit || o->copy_unit % SZ_4K)
				return bad_opt("-u '%s': want a multiple of 4K", optarg);
			break;
		case 'p':
			if (parse_pages(o, optarg))
				return -1;
			break;
		case 'S':
			slist = optarg;
			break;
		case 'B':
			have_b = true;
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
		case 'P':
			o->ratios = optarg;
			break;
		case 'V':
			o->verify = true;
			break;
		case 'C':
			o->copy = true;
			break;
		case 'W':
			o->writers = true;
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
	if (o->writers && (o->copy || o->verify || o->csv || o->ratios))
		return bad_opt("-W: not with -C, -V, -o or -P%s", "");
	if (o->copy && (o->csv || o->ratios || have_b))
		return bad_opt("-C: -o, -P and -B are for clearing%s", "");
	/* Clear units only where named, or in -V: all is what make bench runs. */
	if (!o->verify)
		o->want[S_UNITS] = false;
	if (slist && parse_strategies(o, slist))
		return -1;
	if (!have_t) {
		/* The kernel with no clear_nt_threshold=: the policy's. */
		o->nt_thresh = host_policy(o->cpu)->threshold;
		snprintf(o->nt_src, sizeof(o->nt_src), "the policy's");
	}
	return 0;
}

/* ---- main ---- */

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

/* Measure, then the table and the CSVs. */
static int bench(const struct opts *o)
{
	static struct results res;
	int err = 0;

	if (!measure(o, &res)) {
		fprintf(stderr, "clearbench: nothing could be measured\n");
		return 1;
	}
	print_table(&res);
	if (o->csv && write_csv(o, &res))
		err = 1;
	if (o->raw && write_raw(o, &res))
		err = 1;
	if (o->ratios && write_ratios(o, &res))
		err = 1;
	return err;
}

/* -C: the copies, then their table and raw CSV. */
static int bench_copy(const struct opts *o)
{
	static struct copy_results res;

	if (!copy_measure(o, &res)) {
		fprintf(stderr, "clearbench: no copy could be measured\n");
		return 1;
	}
	copy_print_table(&res);
	return o->raw && copy_write_raw(o, &res) ? 1 : 0;
}

/* -V: the clear side's checks unless -C, the copy side's, the plan. */
static int verify_all(const struct opts *o)
{
	if (!o->copy)
		verify(o);
	verify_copy(o);
	return tap_plan();
}

int main(int argc, char **argv)
{
	struct opts o;

	if (parse_opts(&o, argc, argv))
		return 2;
	if (o.verify)
		note_prefix("# ");
	if (o.writers)
		return writers_run(&o);
	if (pin(o.cpu))
		return 1;
	if (!o.copy)
		print_header(&o);
	if (o.copy || o.verify)
		copy_print_header(&o);
	if (o.verify)
		return verify_all(&o);
	return o.copy ? bench_copy(&o) : bench(&o);
}
