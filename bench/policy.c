// SPDX-License-Identifier: GPL-2.0
/*
 * The policy of the "default" strategy (see policy.h): with the tree's
 * <asm/clear_pages_policy.h>, its clear_pages_nocache_threshold() and
 * clear_pages_nocache_insn() on a struct clear_pages_cpu filled in as
 * clear_nt_threshold_init() in arch/x86/mm/clear_pages.c fills it (its
 * line_size, where the header has one, HAVE_POLICY_LINE_SIZE, too: left 0,
 * the header would never choose CLZERO), and its clear_pages_nocache_all()
 * where it has one (HAVE_POLICY_ALL);
 * without it, clearbench's own copy of the older trees' rule.
 */
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "policy.h"
#include "probe.h"

#ifdef HAVE_CLEAR_PAGES_POLICY

const char policy_source[] = CLEAR_PAGES_POLICY_H " (the tree's)";

/* What arch/x86/mm/clear_pages.c tells the policy of the CPU. */
static struct clear_pages_cpu tree_cpu(void)
{
	struct clear_pages_cpu cpu = {
		.intel = cpu_is_intel(),
		.amd = cpu_is_amd(),
		.clzero = cpu_info()->clzero,
#ifdef HAVE_POLICY_LINE_SIZE
		.line_size = cpu_info()->clflush_size,
#endif
	};

	return cpu;
}

static void tree_policy(struct host_policy *p)
{
	struct clear_pages_cpu cpu = tree_cpu();
	char line[40] = "";

	p->threshold = clear_pages_nocache_threshold(&cpu);
	p->clzero = clear_pages_nocache_insn(&cpu) == CLEAR_PAGES_CLZERO;
#ifdef HAVE_POLICY_ALL
	p->all = clear_pages_nocache_all(&cpu);
#endif
#ifdef HAVE_POLICY_LINE_SIZE
	snprintf(line, sizeof(line), "line_size %u", cpu.line_size);
#endif
	snprintf(p->why, sizeof(p->why), "intel %d, amd %d, clzero %d%s%s",
		 cpu.intel, cpu.amd, cpu.clzero, *line ? ", " : "", line);
}

#else

const char policy_source[] =
	"clearbench's own copy (the tree has no arch/x86/include/asm/clear_pages_policy.h)";

/*
 * The older trees' rule: on Intel, the LLC share of @cpu and never less
 * than 2 MiB, with MOVNTI; elsewhere off, as AMD and Hygon stop allocating
 * lines for long REP STOS runs by themselves, and nothing was measured on
 * the others.
 */
static void own_policy(struct host_policy *p, int cpu)
{
	p->clzero = false;
	if (!cpu_is_intel()) {
		p->threshold = POLICY_NEVER;
		snprintf(p->why, sizeof(p->why), "off: not an Intel CPU");
		return;
	}
	p->threshold = llc_share(cpu, p->why, sizeof(p->why));
	if (p->threshold < SZ_2M) {
		p->threshold = SZ_2M;
		strncat(p->why, ", raised to the 2M minimum",
			sizeof(p->why) - strlen(p->why) - 1);
	}
}

#endif

bool copy_policy_nocache(unsigned long run, unsigned long call)
{
#ifdef HAVE_POLICY_COPY
	struct clear_pages_cpu cpu = tree_cpu();

	return copy_pages_nocache_pays(&cpu, run, call);
#else
	return false;
#endif
}

const struct host_policy *host_policy(int cpu)
{
	static struct host_policy p;
	static bool done;

	if (!done) {
#ifdef HAVE_CLEAR_PAGES_POLICY
		tree_policy(&p);
#else
		own_policy(&p, cpu);
#endif
		done = true;
	}
	return &p;
}
