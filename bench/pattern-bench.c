// SPDX-License-Identifier: GPL-2.0-only
/*
 * pattern-bench.c - speed of pattern_fill() and pattern_check() against
 * memcpy() on one core, over the same buffer size (default 1 MiB, the seq
 * profile's block; 64 MiB shows the memory-bound case).
 *
 *   bench/pattern-bench [BYTES] [SECTOR]
 *
 * Prints GB/s of each and the ratios the issue asks for (>= 0.6).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pattern.h"

static double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	size_t len = argc > 1 ? strtoull(argv[1], NULL, 0) : 1 << 20;
	unsigned int ss = argc > 2 ? (unsigned int)strtoul(argv[2], NULL, 0) :
			  512;
	static struct pattern_run run;
	unsigned char *a, *b;
	double t, mc, fill, check;
	size_t iters, i, total = 4ull << 30;
	volatile int ok = 1;

	if (pattern_run_init(&run, 42, 1, ss, len, 0) ||
	    posix_memalign((void **)&a, 4096, len) ||
	    posix_memalign((void **)&b, 4096, len))
		return 1;
	memset(a, 1, len);
	memset(b, 2, len);
	iters = total / len;

	t = bench_now();
	for (i = 0; i < iters; i++) {
		a[0] = (unsigned char)i;
		memcpy(b, a, len);
		__asm__ volatile("" : : "r"(b) : "memory");
	}
	mc = total / (bench_now() - t) / 1e9;

	t = bench_now();
	for (i = 0; i < iters; i++) {
		pattern_fill(&run, b, len, (uint64_t)i * len);
		__asm__ volatile("" : : "r"(b) : "memory");
	}
	fill = total / (bench_now() - t) / 1e9;

	pattern_fill(&run, b, len, 0);
	t = bench_now();
	for (i = 0; i < iters; i++) {
		ok &= pattern_check(&run, b, len, 0);
		__asm__ volatile("" : : "r"(b) : "memory");
	}
	check = total / (bench_now() - t) / 1e9;
	if (!ok)
		return 1;

	printf("buffer %zu B, sector %u B, one core\n", len, ss);
	printf("memcpy        %6.2f GB/s\n", mc);
	printf("pattern_fill  %6.2f GB/s  %.2fx memcpy\n", fill, fill / mc);
	printf("pattern_check %6.2f GB/s  %.2fx memcpy\n", check, check / mc);
	return 0;
}
