// SPDX-License-Identifier: GPL-2.0-only
/*
 * utbench: a minimal O_DIRECT write benchmark for the module overhead
 * benchmark in the guest (busybox has no fio).
 *
 *   utbench DEVICE seq|rand BLOCK COUNT [SPAN]
 *
 * Writes COUNT blocks of BLOCK bytes, sequentially from 0 or at random
 * block-aligned offsets below SPAN (default 64 MiB; fixed seed, so every
 * run writes the same offsets), then prints "MB/s IOPS seconds".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned long long block, count, span = 64ULL << 20, i, x = 88172645463325252ULL;
	struct timespec t0, t1;
	double secs;
	void *buf;
	int fd, rnd;

	if (argc < 5 || (strcmp(argv[2], "seq") && strcmp(argv[2], "rand"))) {
		fprintf(stderr, "usage: utbench DEVICE seq|rand BLOCK COUNT [SPAN]\n");
		return 2;
	}
	rnd = !strcmp(argv[2], "rand");
	block = strtoull(argv[3], NULL, 0);
	count = strtoull(argv[4], NULL, 0);
	if (argc > 5)
		span = strtoull(argv[5], NULL, 0);
	if (!block || block % 512 || span < block) {
		fprintf(stderr, "utbench: bad BLOCK or SPAN\n");
		return 2;
	}
	if (posix_memalign(&buf, 4096, block))
		return 1;
	memset(buf, 0x5a, block);
	fd = open(argv[1], O_WRONLY | O_DIRECT);
	if (fd < 0) {
		fprintf(stderr, "utbench: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < count; i++) {
		unsigned long long off;

		if (rnd) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			off = (x % (span / block)) * block;
		} else {
			off = (i * block) % (span - span % block);
		}
		if (pwrite(fd, buf, block, off) != (ssize_t)block) {
			fprintf(stderr, "utbench: write at %llu: %s\n", off,
				strerror(errno));
			return 1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("%.2f %.1f %.3f\n", block * count / secs / 1e6, count / secs,
	       secs);
	close(fd);
	free(buf);
	return 0;
}
