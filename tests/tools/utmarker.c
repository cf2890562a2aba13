// SPDX-License-Identifier: GPL-2.0-only
/*
 * utmarker: a test tool that runs the recorder's engine (record.c) with
 * only the evdev marker source and prints every marker and lost event it
 * hands to its sinks, one line each: what "usbtrail record --marker-key"
 * feeds its sinks, without the other sources.
 *
 *   utmarker [--device PATH] KEY SECONDS
 *
 * Lines: "marker T_NS TEXT" and "lost COUNT WHY"; at the end
 * "events N lost N".  Exit status: 0; 2 the source could not open (its
 * -errno printed); 1 other errors.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libevdev/libevdev.h>

#include "derive.h"
#include "record.h"

static int utmarker_event(struct rec_sink *s, const struct ev *ev)
{
	(void)s;
	if (ev->type == EV_MARKER)
		printf("marker %llu %s\n", (unsigned long long)ev->t_ns,
		       ev->u.marker.text);
	else if (ev->type == EV_LOST)
		printf("lost %llu %s\n", (unsigned long long)ev->u.lost.count,
		       ev->u.lost.why);
	fflush(stdout);
	return 0;
}

static int utmarker_close(struct rec_sink *s)
{
	(void)s;
	return 0;
}

int main(int argc, char **argv)
{
	const struct derive_opts dopts = DERIVE_OPTS_DEFAULT;
	struct rec_run_opts ro = { .marker_fd = -1 };
	struct rec_sink sink = {
		.name = "utmarker",
		.event = utmarker_event,
		.close = utmarker_close,
	};
	struct rec_source src;
	const char *device = NULL;
	char name[64];
	struct rec *r;
	int code, ret, argi = 1;

	if (argc >= 3 && !strcmp(argv[1], "--device")) {
		device = argv[2];
		argi = 3;
	}
	if (argc - argi != 2) {
		fprintf(stderr, "usage: utmarker [--device PATH] KEY SECONDS\n");
		return 1;
	}
	snprintf(name, sizeof(name), "%s%s",
		 strncmp(argv[argi], "KEY_", 4) &&
		 strncmp(argv[argi], "BTN_", 4) ? "KEY_" : "", argv[argi]);
	code = libevdev_event_code_from_name(EV_KEY, name);
	ro.duration_s = strtoull(argv[argi + 1], NULL, 10);
	r = rec_new(&dopts);
	if (!r || code < 0)
		return 1;
	ret = src_evdev_open(&src, r, code, device);
	if (ret) {
		printf("open %d %s\n", ret, strerror(-ret));
		rec_free(r);
		return 2;
	}
	printf("open 0\n");
	fflush(stdout);
	if (rec_add_source(r, &src) || rec_add_sink(r, &sink))
		return 1;
	ret = rec_run(r, &ro);
	printf("events %llu lost %llu\n", (unsigned long long)src.events,
	       (unsigned long long)src.lost);
	rec_free(r);
	return ret ? 1 : 0;
}
