// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_scrub.c - libFuzzer target for the bug bundle's cleaner
 * (userspace/lib/scrub.c): any bytes are learned from and scrubbed as
 * text, as a journal entry and, if they parse, as JSON.  What goes in as
 * a journal entry comes out as one (fields re-read whole), what goes in as
 * JSON comes out as JSON, and the input as one journal message makes an
 * entry that does.  The corpus is the kernel log fixtures'.
 *
 *   make -C userspace fuzz
 *   userspace/build-fuzz/fuzz_scrub -max_total_time=60 \
 *           userspace/build-fuzz/corpus-scrub
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "pcapng.h"
#include "scrub.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* an entry's fields, every one, then the empty line at its end */
static int fuzz_scrub_entry_ok(const uint8_t *e, size_t len)
{
	struct pcapng_journal_item it;
	size_t pos = 0;
	int r;

	for (;;) {
		if (pos >= len)
			return 0;
		r = pcapng_journal_next(e, len, &pos, &it);
		if (r <= 0)
			return !r && pos == len;
	}
}

static void fuzz_scrub_json(struct scrub *s, const uint8_t *data, size_t size)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *in, *out;
	const char *str;

	if (!tok)
		return;
	in = json_tokener_parse_ex(tok, (const char *)data, (int)size);
	if (in && !scrub_json(s, in, &out, NULL)) {
		str = json_object_to_json_string(out);
		json_object_put(json_tokener_parse(str));
		if (!str)
			__builtin_trap();
		json_object_put(out);
	}
	json_object_put(in);
	json_tokener_free(tok);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scrub *s = scrub_new(SCRUB_ALL);
	struct pcapng_buf e = { 0 }, out = { 0 };
	struct util_str text = { 0 };
	struct ev_field f = { "MESSAGE", NULL };
	const uint8_t *nl;
	char *msg = NULL;

	if (!s || size > (1u << 20))
		goto out;
	/* the first line as a known name and serial */
	nl = memchr(data, '\n', size);
	if (nl) {
		scrub_add(s, SCRUB_HOST, (const char *)data,
			  (size_t)(nl - data));
		scrub_add(s, SCRUB_SERIAL, (const char *)data,
			  (size_t)(nl - data));
	}
	if (scrub_learn(s, data, size))
		goto out;
	scrub_text(s, (const char *)data, size, &text, NULL);
	if (!scrub_journal(s, data, size, &out, NULL) &&
	    fuzz_scrub_entry_ok(data, size) &&
	    !fuzz_scrub_entry_ok(out.data, out.len))
		__builtin_trap();
	fuzz_scrub_json(s, data, size);

	msg = malloc(size + 1);
	if (!msg)
		goto out;
	memcpy(msg, data, size);
	msg[size] = '\0';
	f.value = msg;
	out.len = 0;
	if (!pcapng_journal_entry(&e, 1, 2, "0123456789abcdef0123456789abcdef",
				  &f, 1) &&
	    !scrub_journal(s, e.data, e.len, &out, NULL) &&
	    !fuzz_scrub_entry_ok(out.data, out.len))
		__builtin_trap();
out:
	free(msg);
	free(text.s);
	pcapng_buf_free(&e);
	pcapng_buf_free(&out);
	scrub_free(s);
	return 0;
}
