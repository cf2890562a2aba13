/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * evjson.h - events and incidents as JSON, the form of events.jsonl
 * (docs/formats.md) and of "usbtrail analyze --json": written as a
 * stream (evjson_writer_line(), evjson_incident_line(): evjson.c's own
 * generator, which does the escaping), read back with json-c
 * (evjson_parse_event()), the one JSON library of the tree.
 */
#ifndef USBTRAIL_EVJSON_H
#define USBTRAIL_EVJSON_H

#include <json-c/json.h>

#include "classify.h"
#include "event.h"

/* json-c's output flags, for what the commands build as json-c trees */
#define EVJSON_FLAGS	(JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

/* "monotonic", "wall", "boot", "none" */
const char *evjson_clock_name(enum kmsg_clock clock);

/*
 * Events as events.jsonl lines (docs/formats.md), streamed: "usbtrail
 * export" writes tens of thousands a second, and building a json-c tree
 * for each cost several microseconds.  evjson_writer_line() points *line
 * at the JSON text (no newline; NUL-terminated), valid until the next
 * call.
 */
struct evjson_writer;

struct evjson_writer *evjson_writer_new(void);
void evjson_writer_free(struct evjson_writer *w);
int evjson_writer_line(struct evjson_writer *w, const struct ev *ev,
		       const char **line, size_t *len);
/*
 * Lines from now on begin with "hostname" and "machine_id" (analyze of
 * several machines' journals); NULL or "" for both: no more.
 */
void evjson_writer_set_machine(struct evjson_writer *w, const char *hostname,
			       const char *machine_id);
/*
 * One incident as "usbtrail analyze --json" prints it (docs/analyze.md):
 * kind, dev, t, clock, wall, disk, usb, scsi, chain, the kind's details,
 * line.  *line as evjson_writer_line()'s.
 */
int evjson_incident_line(struct evjson_writer *w,
			 const struct classify_incident *inc,
			 const char **line, size_t *len);

/*
 * One events.jsonl line back into *ev (zeroed first) for "analyze" over a
 * recording: the types the classifier and the throughput tracker need
 * (trace, klog, device, marker, sample, lost; incident as recorded).
 * Returns 0, -EINVAL for a malformed line, -ENOTSUP for a type it does not
 * read back (usbmon).  ev owns nothing afterwards (no usbmon data).
 */
int evjson_parse_event(const char *line, size_t len, struct ev *ev);

#endif /* USBTRAIL_EVJSON_H */
