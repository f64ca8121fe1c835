// SPDX-License-Identifier: GPL-2.0
/*
 * What every part of clearbench shares (see common.h): the page sizes,
 * and note(), the informational lines, with their prefix.
 */
#include <stdarg.h>
#include <stdio.h>

#include "common.h"

const size_t page_sizes[NR_PAGES] = { SZ_2M, SZ_1G };

static const char *prefix = "";

void note_prefix(const char *p)
{
	prefix = p;
}

void note(const char *fmt, ...)
{
	va_list ap;

	fputs(prefix, stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
}
