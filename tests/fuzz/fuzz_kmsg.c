// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_kmsg.c - libFuzzer target for the front of "usbtrail analyze":
 * struct kmsg_stream (userspace/lib/kmsg.c: every line form, the wrappers
 * people paste around lines, export and json entries, joins, ordering)
 * and the classifier behind it (classify.c and the message table of
 * kmsgtab.c).  The input of analyze is any text anybody pastes.
 *
 *   make -C userspace fuzz
 *   userspace/build-fuzz/fuzz_kmsg -max_total_time=60 \
 *           userspace/build-fuzz/corpus-kmsg
 *
 * The corpus starts from tests/fixtures/kmsg/ and tests/fixtures/logs/.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "classify.h"
#include "kmsg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_kmsg_drain(struct kmsg_stream *s, struct classify *c)
{
	struct classify_incident inc;
	struct kmsg_record r;

	while (kmsg_stream_next(s, &r)) {
		classify_feed(c, &r, r.lineno);
		while (classify_next(c, &inc))
			;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kmsg_stream *s = kmsg_stream_new();
	struct classify *c = classify_new();
	const char *p = (const char *)data, *end = p + size;
	struct classify_incident inc;

	if (!s || !c)
		goto out;
	/* lines as cmd_analyze.c cuts them; a '\f' starts another "file" */
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (len == 1 && *p == '\f')
			kmsg_stream_file(s, 1);
		else
			kmsg_stream_feed(s, p, len);
		fuzz_kmsg_drain(s, c);
		p += len + 1;
	}
	kmsg_stream_end(s);
	fuzz_kmsg_drain(s, c);
	classify_end(c);
	while (classify_next(c, &inc))
		;
out:
	classify_free(c);
	kmsg_stream_free(s);
	return 0;
}
