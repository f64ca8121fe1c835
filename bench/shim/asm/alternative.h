/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for <asm/alternative.h> in assembly. The kernel
 * patches the code at boot to @oldinstr or @newinstr; here the choice is
 * made at run time, on the feature byte of shim/asm/cpufeatures.h: a
 * load, a compare and a predicted branch more than the kernel runs, a
 * cycle or two a call.
 */
#ifndef CLEARBENCH_SHIM_ASM_ALTERNATIVE_H
#define CLEARBENCH_SHIM_ASM_ALTERNATIVE_H

.macro ALTERNATIVE oldinstr, newinstr, ft_flags
	cmpb	$0, \ft_flags(%rip)
	jne	.Lalt_new_\@
	\oldinstr
	jmp	.Lalt_done_\@
.Lalt_new_\@:
	\newinstr
.Lalt_done_\@:
.endm

#endif
