// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_recording.c - libFuzzer target for a recording's events.jsonl as
 * "usbtrail analyze DIR" and "report" read it: evjson.c's parser, then
 * the disk table (devmap.c) and the derivation (derive.c) behind it.  A
 * recording may come from anyone's bug report.
 *
 *   make -C userspace fuzz
 *   userspace/build-fuzz/fuzz_recording -max_total_time=60 \
 *           userspace/build-fuzz/corpus-recording
 *
 * The corpus starts from tests/fixtures/recordings/.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "derive.h"
#include "devmap.h"
#include "evjson.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_recording_out(void *arg, struct ev *ev)
{
	const char *line;
	size_t len;

	evjson_writer_line(arg, ev, &line, &len);	/* and back to JSON */
	ev_free(ev);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct devmap map;
	static struct ev ev;
	struct derive_opts opts = DERIVE_OPTS_DEFAULT;
	const char *p = (const char *)data, *end = p + size;
	static struct evjson_writer *w;
	struct derive *d;

	if (!w)
		w = evjson_writer_new();
	d = derive_new(&opts, fuzz_recording_out, w);
	if (!d || !w)
		return 0;
	devmap_init(&map);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (!evjson_parse_event(p, len, &ev)) {
			if (ev.type == EV_DEVICE)
				devmap_update(&map, &ev);
			else
				devmap_resolve(&map, &ev);
			if (ev.type == EV_KLOG || ev.type == EV_TRACE) {
				derive_feed(d, &map, &ev);
				derive_advance(d, ev.t_ns);
			}
		}
		p += len + (nl != NULL);
	}
	derive_flush(d);
	derive_free(d);
	return 0;
}
