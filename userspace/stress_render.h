/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stress_render.h - the output of "usbtrail stress" (stress_render.c):
 * progress and messages while stress_run() runs, then the summary (text
 * or JSON) and the per-interval log of its struct stress_result.
 */
#ifndef USBTRAIL_STRESS_RENDER_H
#define USBTRAIL_STRESS_RENDER_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "blkdev.h"
#include "stress.h"
#include "usbdisk.h"

/*
 * The ctx of stress_render_progress(), _message() and _interval(): zero,
 * then set tty, and open the log with stress_render_log_open().
 */
struct stress_render_out {
	bool tty;		/* stderr is a terminal: draw a bar */
	double last_line;
	double last_final;	/* soak: when a phase's last line was */
	bool bar_shown;
	FILE *log;		/* --log, or NULL */
	bool log_head;		/* its header is written */
};

/* What the summary says of how the run was asked for. */
struct stress_render_run {
	const char *profile;	/* its --profile name */
	bool cdm;		/* add the CrystalDiskMark table */
	bool soak;		/* add the soak's summary */
	bool sweep;		/* add the ATTO table */
	unsigned int passes;	/* cdm: of each test */
	bool verify_only;
	const struct usbdisk_where *where;	/* the target's disk, or NULL */
	unsigned int cdm_set;	/* cdm: CrystalDiskMark 8's tests or 3's */
	time_t started;		/* when this invocation began */
};

/* @v bytes as "12.3 MiB" (powers of 1024), for the progress lines. */
void stress_render_bytes(char *buf, size_t len, double v);

/* What the run came to; the command's exit status follows from it. */
enum stress_render_result {
	STRESS_RENDER_PASS,
	STRESS_RENDER_FAIL,		/* errors, bad sectors, no --log */
	STRESS_RENDER_INTERRUPTED,	/* a signal, nothing of the above */
};

/* stress_config's callbacks; ctx: stress_render_out */
void stress_render_progress(void *ctx, const struct stress_progress *p);
void stress_render_message(void *ctx, const char *line);
void stress_render_interval(void *ctx, const struct stress_result *res,
			    const struct stress_interval *iv);

/* The summary on stdout, as text or as one JSON document. */
void stress_render_text(const struct stress_render_run *run,
			const struct blkdev_target *t,
			const struct stress_result *res,
			enum stress_render_result result);
void stress_render_json(const struct stress_render_run *run,
			const struct blkdev_target *t,
			const struct stress_result *res,
			enum stress_render_result result);

/*
 * The per-interval log: opened (created or truncated) before the run, a
 * line per interval as it ends, closed after.  Return: 0 or a negative
 * errno (of the open, or of any write at the close).
 */
int stress_render_log_open(struct stress_render_out *o, const char *path);
int stress_render_log_close(struct stress_render_out *o,
			    const struct stress_result *res);

#endif /* USBTRAIL_STRESS_RENDER_H */
