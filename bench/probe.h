/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What clearbench needs to know about the host CPU: /proc/cpuinfo (read
 * once, the first CPU's entry), CPUID features, and the LLC in sysfs.
 */
#ifndef CLEARBENCH_PROBE_H
#define CLEARBENCH_PROBE_H

#include <stdbool.h>
#include <stddef.h>

struct cpu_info {
	bool cpuinfo;		/* /proc/cpuinfo could be read */
	char vendor[64];	/* vendor_id, "" if none */
	char model[128];	/* model name, "unknown" if none */
	bool erms, fsrm;	/* in the flags line */
	bool rep_good;		/* the host kernel's X86_FEATURE_REP_GOOD */
	bool avx512f, avx2, sse2;	/* CPUID, as the compiler sees it */
	bool clzero;		/* CPUID 0x80000008 EBX bit 0 */
	bool movdir64b;		/* CPUID 7.0 ECX bit 28 */
	unsigned int clflush_size;	/* the kernel's x86_clflush_size */
};

/* The host CPU, probed on the first call. */
const struct cpu_info *cpu_info(void);

/*
 * Can this CPU run code built for @feature ("avx512f", "avx2", "sse2",
 * "clzero", "movdir64b")? NULL: no feature needed.
 */
bool cpu_has(const char *feature);

/* The vendor_id is GenuineIntel, AuthenticAMD (as the kernel's x86_vendor). */
bool cpu_is_intel(void);
bool cpu_is_amd(void);

/* A data or unified cache of a CPU, from sysfs. */
struct cpu_cache {
	int level;
	unsigned long size;	/* bytes */
	int ncpus;		/* CPUs sharing it */
};

/*
 * The data or unified cache of @cpu at @level, or the highest level one
 * if @level is 0, into @c. False if sysfs has no such cache size.
 */
bool cpu_cache(int cpu, int level, struct cpu_cache *c);

/*
 * Per-core share of the last level cache of @cpu, with where the figure
 * comes from in @src; 1 MiB if sysfs has no cache sizes.
 */
size_t llc_share(int cpu, char *src, size_t srclen);

#endif
