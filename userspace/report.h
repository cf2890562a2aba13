/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report.h - "usbtrail report": a recording (recording.h) written as
 * report.txt (report_text.c) and a self-contained report.html
 * (report_html.c), with the advice per incident kind both share
 * (report_advice.c).
 */
#ifndef USBTRAIL_REPORT_H
#define USBTRAIL_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "classify.h"
#include "recording.h"

struct report_opts {
	const char *dir;		/* the recording, for the title */
	bool keep_serials;		/* else serials are shown hashed */
};

/*
 * What to try next for one kind of incident, in the user's terms.  The
 * writers list, under each, the incidents that call for it.
 */
struct report_advice {
	const char *title;		/* "UAS command timeout and reset chain" */
	const char *why;		/* what the evidence means */
	const char *const *tries;	/* NULL-ended list of things to try */
};

/*
 * The advice for an incident (its kind, and for sense data its key and
 * ASC); ids group incidents under one advice (report_advice_id()).
 */
int report_advice_id(const struct ev *inc);
int report_advice_of(const struct classify_incident *c);
/* Does the advice suggest the 'u' quirk (UAS off) for the disk? */
bool report_advice_wants_quirk(int id);
const struct report_advice *report_advice_get(int id);
#define REPORT_ADVICE_MAX	24

/*
 * For advice that suggests the 'u' quirk: the kernel parameter for the
 * disks of the incidents under it ("usb-storage.quirks=46f4:0003:u
 * (sda)"), in buf.  Returns false when it does not apply.
 */
bool report_advice_quirk(const struct recording *r, const size_t *idx,
			 size_t n, int id, char *buf, size_t len);

/*
 * The serial number as the report shows it: as is with keep, else
 * "sha256:" and the first 16 hex digits of its SHA-256 ("" stays "").
 */
void report_serial(const char *serial, bool keep, char *buf, size_t len);

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
/* o[k1] (or o[k1][k2]) when it is a string, else NULL. */
const char *report_json_str(struct json_object *o, const char *k1,
			    const char *k2);

int report_text_write(FILE *f, const struct recording *r,
		      const struct report_opts *o);
int report_html_write(FILE *f, const struct recording *r,
		      const struct report_opts *o);

#endif /* USBTRAIL_REPORT_H */
