/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * evjson.h - events and incidents as JSON (json-c), the form of
 * events.jsonl (docs/formats.md) and of "usbtrail analyze --json".
 */
#ifndef USBTRAIL_EVJSON_H
#define USBTRAIL_EVJSON_H

#include <json-c/json.h>

#include "classify.h"

#define EVJSON_FLAGS	(JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

/* "monotonic", "wall", "boot", "none" */
const char *evjson_clock_name(enum kmsg_clock clock);

/*
 * One incident as an object: kind, dev, t, clock, disk, chain, the kind's
 * details, line.  The caller puts the reference.
 */
struct json_object *evjson_incident(const struct classify_incident *inc);

#endif /* USBTRAIL_EVJSON_H */
