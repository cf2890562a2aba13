/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * timeline.h - one disk's SCSI commands out of a recording's trace
 * records (recording.h): each scsi-start matched with its scsi-done by
 * SCSI address and tag, with its latency and whether it timed out, for
 * the report's latency and in-flight lanes (report_timeline.c) and the
 * explanation of throughput dips (report_dip.c).
 *
 * A command ends with its scsi-done.  One that has none (it timed out and
 * the error handler took it) ends when the handler is done with it: a
 * successful abort of its tag, a successful device or bus reset, or its
 * tag started again (a retry); one still open when the recording ended
 * has no end.  A scsi-timeout whose scsi-start is not in the recording (a
 * trimmed recording, a start before it began) is a command of unknown
 * start.
 */
#ifndef USBTRAIL_TIMELINE_H
#define USBTRAIL_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "recording.h"

/* Commands open at once per disk; beyond, the oldest is forgotten. */
#define TIMELINE_OPEN_MAX	4096
/* Fewer completions than this outside dips give no normal p99. */
#define TIMELINE_P99_MIN	20

struct timeline_cmd {
	uint64_t t_start_ns;		/* 0: its start is not recorded */
	uint64_t t_end_ns;		/* 0: open when the recording ended */
	uint64_t t_timeout_ns;		/* 0: it did not time out */
	uint32_t result;		/* scsi_cmnd.result of its scsi-done */
	uint32_t tag;
	uint8_t opcode;
	bool done;			/* ended by its scsi-done */
};

struct timeline_cmds {
	struct timeline_cmd *cmd;	/* in the order of their first record */
	size_t n, cap;
	uint64_t timeouts;		/* the disk's scsi-timeout records */
	uint64_t unmatched_done;	/* scsi-done records without a start */
	bool have_scsi;			/* any scsi-start or -done, any disk */
};

/*
 * The commands of DISK (its scsi-* and eh-* records) into *c, which the
 * caller frees with timeline_cmds_free().  Returns 0 or -ENOMEM.
 */
int timeline_cmds_load(const struct recording *r, const char *disk,
		       struct timeline_cmds *c);
void timeline_cmds_free(struct timeline_cmds *c);

/* Seconds from start to scsi-done, or -1 when not both are recorded. */
double timeline_cmd_latency(const struct timeline_cmd *c);

/* Whether a SCSI or eh record names DISK (its disk[8], NUL-padded). */
bool timeline_rec_disk(const struct usbtrail_record *rec, const char *disk);

/*
 * The nearest-rank percentile P (0..100) of the n values in v, which it
 * sorts; -1 if n is 0.
 */
double timeline_percentile(double *v, size_t n, double p);

/*
 * The p99 latency in seconds of DISK's commands completed outside its
 * dips (the dip incidents' spans): what "normal" is for that disk.  -1
 * when fewer than TIMELINE_P99_MIN completed there, or on -ENOMEM.
 */
double timeline_p99_normal(const struct recording *r, const char *disk,
			   const struct timeline_cmds *c);

/* A span of time, CLOCK_BOOTTIME ns. */
struct timeline_span {
	uint64_t t0_ns, t1_ns;
};

/* Where a dip incident ends: its start plus its length, within range. */
uint64_t timeline_dip_end_ns(const struct ev *dip);

/*
 * DISK's dips (its dip incidents, start and length) into *out, which the
 * caller frees; returns how many, 0 also when out of memory (*out NULL).
 */
size_t timeline_dips(const struct recording *r, const char *disk,
		     struct timeline_span **out);
/* Whether t_ns falls inside one of the n spans. */
bool timeline_in_spans(const struct timeline_span *s, size_t n,
		       uint64_t t_ns);

#endif /* USBTRAIL_TIMELINE_H */
