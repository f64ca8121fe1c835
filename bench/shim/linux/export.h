/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for <linux/export.h>, for assembling the kernel's
 * arch/x86/lib/clear_page_64.S and copy_page_64.S into clearbench. There
 * is no module loader here: exports are plain global symbols already.
 */
#ifndef CLEARBENCH_SHIM_LINUX_EXPORT_H
#define CLEARBENCH_SHIM_LINUX_EXPORT_H

#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)

#endif
