// SPDX-License-Identifier: GPL-2.0-only
/*
 * evjson.c - events and incidents as JSON objects (docs/formats.md).
 */
#include <stdio.h>
#include <string.h>

#include "evjson.h"

const char *evjson_clock_name(enum kmsg_clock clock)
{
	switch (clock) {
	case KMSG_CLOCK_MONO:
		return "monotonic";
	case KMSG_CLOCK_WALL:
		return "wall";
	case KMSG_CLOCK_BOOT:
		return "boot";
	case KMSG_CLOCK_NONE:
		break;
	}
	return "none";
}

/* null for "not known" (negative) */
static void evjson_int(struct json_object *o, const char *name, long long v)
{
	json_object_object_add(o, name, v < 0 ? NULL : json_object_new_int64(v));
}

struct json_object *evjson_incident(const struct classify_incident *inc)
{
	struct json_object *o = json_object_new_object();
	char tbuf[32];

	json_object_object_add(o, "kind",
		json_object_new_string(classify_kind_name(inc->kind)));
	json_object_object_add(o, "dev", inc->dev[0] ?
			       json_object_new_string(inc->dev) : NULL);
	if (inc->clock == KMSG_CLOCK_NONE) {
		json_object_object_add(o, "t", NULL);
	} else {
		/* as the kernel prints it, not as %.17g would */
		snprintf(tbuf, sizeof(tbuf), "%.6f", inc->t);
		json_object_object_add(o, "t",
				       json_object_new_double_s(inc->t, tbuf));
	}
	json_object_object_add(o, "clock", json_object_new_string(
		evjson_clock_name(inc->clock)));
	if (inc->disk[0])
		json_object_object_add(o, "disk",
				       json_object_new_string(inc->disk));
	evjson_int(o, "chain", inc->chain ? (long long)inc->chain : -1);
	if (inc->inferred)
		json_object_object_add(o, "inferred",
				       json_object_new_boolean(1));
	switch (inc->kind) {
	case CLASSIFY_SENSE:
		evjson_int(o, "key", inc->key);
		json_object_object_add(o, "key_text", inc->key_text ?
			json_object_new_string(inc->key_text) : NULL);
		evjson_int(o, "asc", inc->asc);
		evjson_int(o, "ascq", inc->ascq);
		json_object_object_add(o, "asc_text", inc->asc_text[0] ?
			json_object_new_string(inc->asc_text) : NULL);
		break;
	case CLASSIFY_IO_ERROR:
		evjson_int(o, "sector", inc->sector);
		break;
	case CLASSIFY_RESET:
		json_object_object_add(o, "speed",
				       json_object_new_string(inc->speed));
		evjson_int(o, "devnum", inc->devnum);
		break;
	case CLASSIFY_DISCONNECT:
		evjson_int(o, "devnum", inc->devnum);
		break;
	case CLASSIFY_ENUM_FAILURE:
		evjson_int(o, "errno", inc->err);
		json_object_object_add(o, "errno_name", inc->err > 0 &&
			strerrorname_np(inc->err) ?
			json_object_new_string(strerrorname_np(inc->err)) :
			NULL);
		break;
	case CLASSIFY_XHCI_ERROR:
		evjson_int(o, "code", inc->code);
		break;
	case CLASSIFY_SUPPRESSED:
		evjson_int(o, "count", inc->count);
		break;
	case CLASSIFY_TIMEOUT:
	case CLASSIFY_ABORT:
	case CLASSIFY_RECOVERED:
	case CLASSIFY_OFFLINE:
	case CLASSIFY_HC_DIED:
	case CLASSIFY_UAS_IGNORED:
	case CLASSIFY_OVER_CURRENT:
	case CLASSIFY_FS_ERROR:
	case CLASSIFY_DIP:
	case CLASSIFY_KIND_COUNT:
		break;
	}
	json_object_object_add(o, "line", json_object_new_string(inc->line));
	return o;
}
