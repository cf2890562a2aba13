// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: events.jsonl lines of a recording, which a user may
 * attach from anywhere, through the loader, both report writers and the
 * timeline alone, whole and zoomed.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "recording.h"
#include "report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct report_opts o = { .dir = "fuzz", .keep_serials = false,
				 .from = -1, .to = -1 };
	static FILE *null;
	struct recording r;

	if (!null)
		null = fopen("/dev/null", "w");
	recording_init(&r);
	if (!recording_parse_events(&r, (const char *)data, size) &&
	    !recording_finish(&r) && null) {
		report_text_write(null, &r, &o);
		report_html_write(null, &r, &o);
		report_timeline_write(null, &r, &o);
		o.from = 1;
		o.to = 2.5;
		report_timeline_write(null, &r, &o);
	}
	recording_free(&r);
	return 0;
}
