/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report.h - "usbtrail report": a recording (recording.h) written as
 * report.txt (report_text.c) and a self-contained report.html
 * (report_html.c), with the helpers both share (report.c) and the advice
 * per incident kind (lib/report_advice.h).
 */
#ifndef USBTRAIL_REPORT_H
#define USBTRAIL_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "classify.h"
#include "recording.h"
#include "report_advice.h"

struct report_opts {
	const char *dir;		/* the recording, for the title */
	bool keep_serials;		/* else serials are shown hashed */
	/* the timeline's span, seconds since the start; < 0: the whole */
	double from, to;
};

/*
 * For advice that suggests the 'u' quirk: the kernel parameter for the
 * disks of the incidents under it ("usb-storage.quirks=46f4:0003:u
 * (sda)"), in buf.  Returns false when it does not apply.
 */
bool report_advice_quirk(const struct recording *r, const size_t *idx,
			 size_t n, int id, char *buf, size_t len);

/* Seconds of t_ns since the recording started (meta started_t, or the
 * first event). */
double report_rel(const struct recording *r, uint64_t t_ns);

/* Incident indexes into r->evs in time order; caller frees.  *n set. */
size_t *report_incidents(const struct recording *r, size_t *n);

/*
 * The path from the host controller to the disk, from meta.json's uas
 * verdicts: "0000:00:04.0 QEMU xHCI (qemu-xhci) [1b36:000d] > usb2
 * 1d6b:0003 xHCI Host Controller 5000M > 2-1 46f4:0003 5000M (sda)".
 * Returns false (buf "") when the recording does not say.
 */
bool report_topology(const struct recording *r, const char *disk, char *buf,
		     size_t len);

/* Sense of an incident as "02/3a/00 Not Ready: Medium not present". */
void report_sense_text(const struct ev *inc, char *buf, size_t len);
/* The uas verdict meta.json holds for disk, or NULL. */
struct json_object *report_uas(const struct recording *r, const char *disk);
/*
 * Untrusted text (kernel lines, product strings) into HTML or SVG:
 * markup characters as entities, control characters as U+FFFD.
 */
void report_esc(FILE *f, const char *s);
/* What writes a report of r onto f: report_text_write, report_html_write */
typedef int (*report_writer)(FILE *f, const struct recording *r,
			     const struct report_opts *o);
/*
 * path ("-": standard output) written whole through a temporary file in
 * its directory (savefile.h; tmp, tmplen the caller's, for its signal
 * handler): the writer's output in memory first, serials hashed in all of
 * it (kernel lines quote them too) unless o keeps them.  0 or -errno.
 */
int report_write_file(const char *path, report_writer w,
		      const struct recording *r, const struct report_opts *o,
		      char *tmp, size_t tmplen);
/* Who a stress run's target was, in one line (report.c). */
void report_stress_target(const struct recording *r,
			  const struct recording_stress_run *u, bool keep,
			  char *buf, size_t len);
/* Its fake-capacity verdict, "" when it found none. */
void report_stress_verdict(const struct recording_stress_run *u, char *buf,
			   size_t len);
/*
 * One way of a row of the stress table: "123.4" (stress's own figure, as
 * it printed it), "(cut)" or "-".
 */
/*
 * The completion latency of a phase as stress's table has it, "p50 ...
 * p99 ... p99.9 ... max ..." in microseconds; false (buf untouched) when
 * its markers have none (an older stress, no I/O).
 */
bool report_stress_latency(char *buf, size_t len,
			   const struct recording_stress *s);
void report_stress_rate(char *buf, size_t len,
			const struct recording_stress *s, bool cut);
/* The colour of an incident's kind by its class (classify.h's table). */
const char *report_kind_colour(enum classify_kind k);
/* o[k1] (or o[k1][k2]) when it is a string, else NULL. */
const char *report_json_str(struct json_object *o, const char *k1,
			    const char *k2);

/*
 * The timeline of disk r->disks[disk] (report_timeline.c): its lanes as
 * one inline <svg class="plot"> for report.html, from FROM to TO seconds
 * since the start (< 0: the recording's own start or end); idx, n: the
 * incidents, from report_incidents().  0, -ENOMEM or -EIO.
 */
int report_timeline_svg(FILE *f, const struct recording *r, unsigned int disk,
			const size_t *idx, size_t n, double from, double to);
/*
 * "usbtrail report --timeline": every disk with throughput samples, one
 * below the other, as an SVG document of its own, over o->from..o->to.
 * -ENODATA when no disk has samples.
 */
int report_timeline_write(FILE *f, const struct recording *r,
			  const struct report_opts *o);

/*
 * What the recording holds inside a dip incident's window (its span,
 * the 2 s before and 1 s after it) on the dip's disk.  Times are seconds
 * from the dip's start.  report_dip_explain() puts it in words; the
 * fields are for tests.
 */
struct report_dip_facts {
	/* SCSI error handling: incidents, and the trace records behind */
	unsigned int inc_timeouts;	/* commands of timeout incidents */
	unsigned int scsi_timeouts;	/* scsi-timeout records */
	bool any_timeout;
	double t_timeout;		/* the first */
	unsigned int aborts, resets;	/* the more of incidents, eh-start */
	bool recovered, offline, disconnect, hc_died;
	double t_recovered, t_offline, t_disconnect;
	unsigned int sense, io_errors, other;
	char sense_text[128];		/* the first sense, decoded */
	char other_kind[24];		/* the first other incident's kind */
	/* commands, from scsi-start/scsi-done */
	bool have_scsi;			/* the recording has such records */
	unsigned int held;		/* at the device in it, not done in it */
	unsigned int cmds_done, cmds_failed, slow;
	double lat_max;			/* the slowest done inside; -1 none */
	double p99_normal;		/* outside dips; -1 unknown */
	/* xHCI transfer events of the disk's endpoints */
	bool have_xhci;			/* the recording has such records */
	uint64_t cc_errors, cc_stopped;
	uint64_t cc_count[256];
	unsigned int cc_top;		/* the most frequent error code */
	/* kernel lines; naming the disk, its USB device or SCSI host */
	unsigned int klog, klog_about, klog_err;
	char klog_first[CLASSIFY_LINE_MAX];	/* the first naming it */
	char scsi[24], host[16];	/* "0:0:0:0", "host0" of its records */
	uint64_t lost;			/* events lost in the window */
};

/* The facts of a dip incident.  0, -EINVAL (not a dip) or -ENOMEM. */
int report_dip_facts(const struct recording *r, const struct ev *dip,
		     struct report_dip_facts *f);

/*
 * A dip incident explained: the verdict on the first line ("the device
 * stopped answering: 8 commands timed out, then abort and reset;
 * recovered 18.1 s into the dip", "no error anywhere: the drive itself
 * slowed: ..."), then a line for each thing looked at, '\n' between
 * lines, none at the end; cut to len.  The same text for report.txt,
 * report.html and "usbtrail analyze DIR".  0 or a negative errno.
 */
int report_dip_explain(const struct recording *r, const struct ev *dip,
		       char *buf, size_t len);

/*
 * report_dip_explain() as text lines: INDENT "why: " the verdict, then
 * INDENT "  " each finding.  For report.txt and "usbtrail analyze DIR".
 */
int report_dip_print(FILE *f, const struct recording *r, const struct ev *dip,
		     const char *indent);

int report_text_write(FILE *f, const struct recording *r,
		      const struct report_opts *o);
int report_html_write(FILE *f, const struct recording *r,
		      const struct report_opts *o);

#endif /* USBTRAIL_REPORT_H */
