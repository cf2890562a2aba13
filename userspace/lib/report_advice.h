/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report_advice.h - what to try next per kind of incident, shared by
 * analyze, report.txt and report.html; serials as a report shows them.
 */
#ifndef USBTRAIL_REPORT_ADVICE_H
#define USBTRAIL_REPORT_ADVICE_H

#include <stdbool.h>
#include <stddef.h>

#include "classify.h"
#include "event.h"

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
 * The serial number as the report shows it: as is with keep, else
 * "sha256:" and the first 16 hex digits of its SHA-256 ("" stays "").
 */
void report_serial(const char *serial, bool keep, char *buf, size_t len);

#endif /* USBTRAIL_REPORT_ADVICE_H */
