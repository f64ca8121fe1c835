/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The policy of the "default" strategy: which runs of a huge page are
 * cleared around the caches, and with which instruction. Where the tree
 * has arch/x86/include/asm/clear_pages_policy.h (HAVE_CLEAR_PAGES_POLICY,
 * CLEAR_PAGES_POLICY_H its path), that header's own functions decide, fed
 * what arch/x86/mm/clear_pages.c feeds them, and this header includes it
 * for struct clear_pages_cpu and the functions. Otherwise clearbench's own
 * copy of the rule decides.
 */
#ifndef CLEARBENCH_POLICY_H
#define CLEARBENCH_POLICY_H

#include <stdbool.h>

#ifdef HAVE_CLEAR_PAGES_POLICY
#include CLEAR_PAGES_POLICY_H
#endif

/* ~0UL: never bypass the caches (CLEAR_PAGES_NEVER in the tree's header). */
#define POLICY_NEVER	(~0UL)

struct host_policy {
	unsigned long threshold;	/* runs longer than this bypass */
	bool clzero;			/* with CLZERO, else MOVNTI */
	bool all;			/* huge pages whole, fault +-2 too */
	char why[256];			/* what the policy was given */
};

/*
 * "<path> (the tree's)", or "clearbench's own copy (...)" when the tree has
 * no policy header.
 */
extern const char policy_source[];

/*
 * The policy on this host, worked out on the first call. Our own copy
 * takes the LLC share of @cpu, the one clearbench runs on; the tree's
 * policy is given what the kernel gives it, which is CPU 0's.
 */
const struct host_policy *host_policy(int cpu);

/*
 * Copies: is a run of @run bytes, copied in calls of @call bytes, copied
 * around the caches? The tree's copy_pages_nocache_pays() where its
 * header has one (HAVE_POLICY_COPY), else never.
 */
bool copy_policy_nocache(unsigned long run, unsigned long call);

#endif
