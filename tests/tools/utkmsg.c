// SPDX-License-Identifier: GPL-2.0-only
/*
 * utkmsg: the kernel messages analyze's front end reads in a log, one a
 * line, for tests/corpus/stamps.py to write again in other forms:
 *
 *   utkmsg FILE
 *
 * Each output line is "BOOT<TAB>CLOCK<TAB>T<TAB>MESSAGE": BOOT 1 for the
 * first message of a boot after another, CLOCK none, mono, wall, boot or
 * real (the clock of T, seconds), MESSAGE as read (wrappers, stamps and
 * prefixes gone, broken lines joined).  Exit 1 on a file it cannot read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmsg.h"

static const char *const clocks[] = {
	[KMSG_CLOCK_NONE] = "none", [KMSG_CLOCK_MONO] = "mono",
	[KMSG_CLOCK_WALL] = "wall", [KMSG_CLOCK_BOOT] = "boot",
	[KMSG_CLOCK_REAL] = "real",
};

static void drain(struct kmsg_stream *s)
{
	struct kmsg_record r;

	while (kmsg_stream_next(s, &r) == 1)
		printf("%d\t%s\t%.6f\t%.*s\n", r.new_boot, clocks[r.clock], r.t,
		       (int)r.msg_len, r.msg);
}

int main(int argc, char **argv)
{
	struct kmsg_stream *s;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: utkmsg FILE\n");
		return 2;
	}
	f = fopen(argv[1], "r");
	if (!f) {
		fprintf(stderr, "utkmsg: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	s = kmsg_stream_new();
	if (!s) {
		fprintf(stderr, "utkmsg: out of memory\n");
		return 1;
	}
	while ((n = getline(&line, &cap, f)) >= 0) {
		kmsg_stream_feed(s, line, (size_t)n > KMSG_LINE_MAX ?
				 KMSG_LINE_MAX + 1 : (size_t)n);
		drain(s);
	}
	kmsg_stream_end(s);
	drain(s);
	free(line);
	fclose(f);
	kmsg_stream_free(s);
	return 0;
}
