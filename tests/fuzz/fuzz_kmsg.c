// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_kmsg.c - libFuzzer target for userspace/kmsg.c (kernel log lines in
 * every form, journal export entries) and classify.c behind it: the input
 * of "usbtrail analyze" is any text anybody pastes.
 *
 *   make -C userspace fuzz
 *   userspace/build-fuzz/fuzz_kmsg -max_total_time=60 \
 *           userspace/build-fuzz/corpus-kmsg
 *
 * The corpus starts from tests/fixtures/kmsg/.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "classify.h"
#include "kmsg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct kmsg_export ex;
	static struct classify c;
	struct classify_incident inc[CLASSIFY_MAX_OUT];
	const char *p = (const char *)data, *end = p + size;
	struct kmsg_record r;

	kmsg_export_init(&ex);
	classify_init(&c);
	/* lines as cmd_analyze.c cuts them, routed the same way */
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		int ret;

		if (kmsg_export_is_field(p, len) || (ex.any && !len))
			ret = kmsg_export_feed(&ex, p, len, &r) == KMSG_RECORD ?
			      0 : -1;
		else
			ret = kmsg_parse_line(p, len, &r);
		if (!ret)
			classify_feed(&c, &r, inc);
		p += len + 1;
	}
	classify_flush(&c, inc);
	return 0;
}
