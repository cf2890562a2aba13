// SPDX-License-Identifier: GPL-2.0-only
/*
 * uttrace: a test tool that runs the recorder (record.c) with the tracefs
 * source alone (src_tracefs.c) and prints each trace record in the
 * module's text form, so the test bed can compare it with what usbtrail.ko
 * records of the same fault (tests/testbed/45-tracefs-source.sh).
 *
 *   uttrace [--duration SECONDS] [-- COMMAND [ARGS...]]
 *
 * Lines: "SEQ SECONDS TYPE key=value..." (modrec_format()) for records,
 * "lost count=N total=N why=..." for losses, and at the end
 * "# tracefs events=N lost=N malformed=N".  Exit status: 0, or 1 when
 * the source could not open (the reason on stderr).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modrec.h"
#include "record.h"

static int uttrace_event(struct rec_sink *s, const struct ev *ev)
{
	FILE *out = s->priv;
	char line[512];

	if (ev->type == EV_TRACE && ev->source == EV_SRC_TRACEFS) {
		modrec_format(&ev->u.rec, line, sizeof(line));
		fprintf(out, "%s\n", line);
	} else if (ev->type == EV_LOST && ev->source == EV_SRC_TRACEFS) {
		fprintf(out, "lost count=%llu total=%llu why=%s\n",
			(unsigned long long)ev->u.lost.count,
			(unsigned long long)ev->u.lost.total, ev->u.lost.why);
	}
	s->written++;
	return ferror(out) ? -EIO : 0;
}

static int uttrace_close(struct rec_sink *s)
{
	return fflush(s->priv) ? -errno : 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "duration", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	struct derive_opts dopts = DERIVE_OPTS_DEFAULT;
	struct rec_run_opts o = { .marker_fd = -1 };
	struct rec_source src;
	struct rec_sink sink = {
		.name = "uttrace",
		.event = uttrace_event,
		.close = uttrace_close,
		.priv = stdout,
	};
	struct rec *r;
	int c, ret;

	while ((c = getopt_long(argc, argv, "+d:", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			o.duration_s = strtoull(optarg, NULL, 10);
			break;
		default:
			fprintf(stderr, "usage: uttrace [--duration S] "
				"[-- COMMAND...]\n");
			return 2;
		}
	}
	if (optind < argc)
		o.command = argv + optind;
	r = rec_new(&dopts);
	if (!r) {
		perror("uttrace: rec_new");
		return 1;
	}
	ret = src_tracefs_open(&src, r);
	if (ret) {
		fprintf(stderr, "uttrace: tracefs: %s\n", strerror(-ret));
		rec_free(r);
		return 1;
	}
	rec_add_source(r, &src);
	rec_add_sink(r, &sink);
	ret = rec_run(r, &o);
	printf("# tracefs events=%llu lost=%llu malformed=%llu\n",
	       (unsigned long long)src.events, (unsigned long long)src.lost,
	       (unsigned long long)src.malformed);
	rec_free(r);
	if (ret) {
		fprintf(stderr, "uttrace: %s\n", strerror(-ret));
		return 1;
	}
	return 0;
}
