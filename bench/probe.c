// SPDX-License-Identifier: GPL-2.0
/*
 * The host CPU: /proc/cpuinfo, parsed once into a struct cpu_info; the
 * CPUID features the store loops need; the LLC share from sysfs, which
 * the kernel's default NT threshold is made of.
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"

#define DEFAULT_NT_THRESH	(1UL << 20)

/* The flags we report, from the "flags : ..." line @line (which is cut up). */
static void parse_flags(struct cpu_info *ci, char *line)
{
	char *tok, *save;

	for (tok = strtok_r(strchr(line, ':'), ": \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		if (!strcmp(tok, "erms"))
			ci->erms = true;
		else if (!strcmp(tok, "fsrm"))
			ci->fsrm = true;
		else if (!strcmp(tok, "rep_good"))
			ci->rep_good = true;
	}
}

/*
 * The first vendor_id, model name and flags lines, which are the first
 * CPU's. A model name or flags line without a ':' ends the search for it.
 */
static void parse_cpuinfo(struct cpu_info *ci)
{
	bool model = false, flags = false;
	char *line = NULL, *v;
	size_t cap = 0;
	FILE *f;

	snprintf(ci->model, sizeof(ci->model), "unknown");
	f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return;
	ci->cpuinfo = true;
	while ((!ci->vendor[0] || !model || !flags) &&
	       getline(&line, &cap, f) > 0) {
		if (!ci->vendor[0] &&
		    sscanf(line, "vendor_id : %63s", ci->vendor) == 1)
			continue;
		if (!model && !strncmp(line, "model name", 10)) {
			model = true;
			v = strchr(line, ':');
			if (!v)
				continue;
			v += strspn(v + 1, " \t") + 1;
			v[strcspn(v, "\n")] = '\0';
			snprintf(ci->model, sizeof(ci->model), "%s", v);
			continue;
		}
		if (!flags && !strncmp(line, "flags", 5)) {
			flags = true;
			if (!strchr(line, ':'))
				continue;
			parse_flags(ci, line);
		}
	}
	free(line);
	fclose(f);
}

/* CLZERO: AMD's CPUID Fn8000_0008 EBX bit 0. */
static bool cpuid_clzero(void)
{
	unsigned int eax, ebx, ecx, edx;

	if (!__get_cpuid(0x80000008, &eax, &ebx, &ecx, &edx))
		return false;
	return ebx & 1;
}

/* MOVDIR64B: CPUID leaf 7 subleaf 0, ECX bit 28 (the kernel's X86_FEATURE_MOVDIR64B). */
static bool cpuid_movdir64b(void)
{
	unsigned int eax, ebx, ecx, edx;

	if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx))
		return false;
	return ecx & (1U << 28);
}

/*
 * The CLFLUSH line size in bytes, as the kernel's x86_clflush_size: CPUID
 * leaf 1 EBX bits 15:8 times 8 where EDX says CLFLUSH (bit 19), else the
 * 64 the kernel starts from.
 */
static unsigned int cpuid_clflush_size(void)
{
	unsigned int eax, ebx, ecx, edx;

	if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !(edx & (1U << 19)))
		return 64;
	return ((ebx >> 8) & 0xff) * 8;
}

const struct cpu_info *cpu_info(void)
{
	static struct cpu_info ci;
	static bool probed;

	if (!probed) {
		parse_cpuinfo(&ci);
		__builtin_cpu_init();
		ci.avx512f = __builtin_cpu_supports("avx512f");
		ci.avx2 = __builtin_cpu_supports("avx2");
		ci.sse2 = __builtin_cpu_supports("sse2");
		ci.clzero = cpuid_clzero();
		ci.movdir64b = cpuid_movdir64b();
		ci.clflush_size = cpuid_clflush_size();
		probed = true;
	}
	return &ci;
}

bool cpu_has(const char *feature)
{
	const struct cpu_info *ci = cpu_info();

	if (!feature)
		return true;
	if (!strcmp(feature, "clzero"))
		return ci->clzero;
	if (!strcmp(feature, "movdir64b"))
		return ci->movdir64b;
	if (!strcmp(feature, "avx512f"))
		return ci->avx512f;
	if (!strcmp(feature, "avx2"))
		return ci->avx2;
	return ci->sse2;
}

bool cpu_is_intel(void)
{
	return !strcmp(cpu_info()->vendor, "GenuineIntel");
}

bool cpu_is_amd(void)
{
	return !strcmp(cpu_info()->vendor, "AuthenticAMD");
}

/* ---- the LLC, from sysfs ---- */

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

bool cpu_cache(int cpu, int level, struct cpu_cache *c)
{
	char dir[96], path[128], buf[256], unit;
	unsigned long size;
	int idx, lvl, ncpus;

	memset(c, 0, sizeof(*c));
	for (idx = 0; idx < 16; idx++) {
		snprintf(dir, sizeof(dir),
			 "/sys/devices/system/cpu/cpu%d/cache/index%d", cpu, idx);
		snprintf(path, sizeof(path), "%s/level", dir);
		if (read_line(path, buf, sizeof(buf)))
			continue;
		lvl = atoi(buf);
		if (level ? lvl != level : lvl <= c->level)
			continue;
		snprintf(path, sizeof(path), "%s/type", dir);
		if (read_line(path, buf, sizeof(buf)) || !strcmp(buf, "Instruction"))
			continue;
		snprintf(path, sizeof(path), "%s/size", dir);
		if (read_line(path, buf, sizeof(buf)) ||
		    sscanf(buf, "%lu%c", &size, &unit) < 1)
			continue;
		size <<= unit == 'K' ? 10 : unit == 'M' ? 20 : 0;
		if (!size)
			continue;
		snprintf(path, sizeof(path), "%s/shared_cpu_list", dir);
		ncpus = read_line(path, buf, sizeof(buf)) ? 1 : count_cpus(buf);
		c->level = lvl;
		c->size = size;
		c->ncpus = ncpus > 0 ? ncpus : 1;
	}
	return c->size;
}

/*
 * The highest-level data or unified cache in sysfs, divided by the CPUs
 * that share it.
 */
size_t llc_share(int cpu, char *src, size_t srclen)
{
	struct cpu_cache c;

	if (cpu_cache(cpu, 0, &c)) {
		snprintf(src, srclen, "L%d %lu KiB shared by %d CPUs, from sysfs",
			 c.level, c.size >> 10, c.ncpus);
		return c.size / c.ncpus;
	}
	snprintf(src, srclen, "default: no cache sizes in sysfs for CPU %d", cpu);
	return DEFAULT_NT_THRESH;
}
