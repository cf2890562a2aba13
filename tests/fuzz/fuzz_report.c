// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: events.jsonl lines of a recording, which a user may
 * attach from anywhere, through the loader, both report writers, the
 * timeline alone (whole and zoomed) and the comparison's rows and
 * writers (report --compare).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "compare.h"
#include "recording.h"
#include "report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct report_opts o = { .dir = "fuzz", .keep_serials = false,
				 .from = -1, .to = -1 };
	struct compare_source src = { .name = "fuzz", .href = "r.html" };
	static FILE *null;
	struct compare_table t;
	struct recording r;

	if (!null)
		null = fopen("/dev/null", "w");
	recording_init(&r);
	if (!recording_parse_events(&r, (const char *)data, size) &&
	    !recording_finish(&r) && null) {
		report_text_write(null, &r, &o);
		report_html_write(null, &r, &o);
		compare_init(&t);
		if (compare_add(&t, &r, &src) >= 0) {
			compare_write_csv(null, &t);
			compare_write_md(null, &t);
			compare_write_html(null, &t);
		}
		compare_free(&t);
		report_timeline_write(null, &r, &o);
		o.from = 1;
		o.to = 2.5;
		report_timeline_write(null, &r, &o);
	}
	recording_free(&r);
	return 0;
}
