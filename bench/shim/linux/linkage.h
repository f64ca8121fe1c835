/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for <linux/linkage.h>: just enough symbol
 * annotations to assemble arch/x86/lib/clear_page_64.S, copy_page_64.S
 * and copy_mc_64.S as ordinary System V functions in .text.
 */
#ifndef CLEARBENCH_SHIM_LINUX_LINKAGE_H
#define CLEARBENCH_SHIM_LINUX_LINKAGE_H

#define SYM_FUNC_START(name)		\
	.text ;				\
	.globl name ;			\
	.p2align 4, 0x90 ;		\
	.type name, @function ;		\
name:

#define SYM_FUNC_START_LOCAL(name)	\
	.text ;				\
	.p2align 4, 0x90 ;		\
	.type name, @function ;		\
name:

#define SYM_FUNC_END(name)		\
	.size name, . - name

/* The kernel's default function alignment (ALIGN before copy_page). */
#define ALIGN	.p2align 4, 0x90

/* No return thunks or straight-line-speculation padding in user space. */
#define RET	ret

/*
 * Every object built with these shims says it does not need an
 * executable stack, as the kernel's own objects never do.
 */
	.pushsection .note.GNU-stack, "", @progbits
	.popsection

#endif
