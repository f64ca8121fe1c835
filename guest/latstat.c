// SPDX-License-Identifier: GPL-2.0
/*
 * latstat: summarize cyclictest -v output (lines "thread: loop: latency")
 * read from stdin as KTAP diagnostics, one measurement a line:
 *   # max_us: M
 *   # p99_us: P
 *   # samples: N
 * for the result line that follows them. Exits 1 if there are no samples.
 */
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	size_t n = 0, cap = 1 << 16;
	long *v = malloc(cap * sizeof(*v));
	long thread, loop, lat;
	char line[256];

	if (!v)
		return 1;
	while (fgets(line, sizeof(line), stdin)) {
		if (sscanf(line, " %ld: %ld: %ld", &thread, &loop, &lat) != 3)
			continue;
		if (n == cap) {
			cap *= 2;
			v = realloc(v, cap * sizeof(*v));
			if (!v)
				return 1;
		}
		v[n++] = lat;
	}
	if (!n) {
		printf("# no latency samples\n");
		return 1;
	}
	qsort(v, n, sizeof(*v), cmp);
	printf("# max_us: %ld\n# p99_us: %ld\n# samples: %zu\n",
	       v[n - 1], v[(n * 99) / 100], n);
	return 0;
}
