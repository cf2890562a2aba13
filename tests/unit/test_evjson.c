// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_evjson.c - unit tests of userspace/lib/evjson.c's writer: the
 * escaping of every byte (as yajl did it, which wrote events.jsonl
 * before: the lines stay the same), nested values, the machine's names
 * first when set, and that json-c reads back what it writes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evjson.h"

static struct ev *test_evjson_klog(const char *text)
{
	struct ev *ev = calloc(1, sizeof(*ev));

	assert_non_null(ev);
	ev->type = EV_KLOG;
	ev->source = EV_SRC_KMSG;
	ev->id = 5;
	ev->t_ns = 123456789012ull;
	ev->ident.busnum = -1;
	ev->ident.devnum = -1;
	snprintf(ev->u.klog.text, sizeof(ev->u.klog.text), "%s", text);
	return ev;
}

static void test_evjson_escaping(void **state)
{
	struct evjson_writer *w = evjson_writer_new();
	struct ev *ev = test_evjson_klog("");
	const char *line;
	char want[2048];
	size_t n;
	int i;

	(void)state;
	for (i = 1; i < 256; i++)
		ev->u.klog.text[i - 1] = (char)i;
	ev->u.klog.text[255] = '\0';
	assert_int_equal(evjson_writer_line(w, ev, &line, &n), 0);
	assert_int_equal(n, strlen(line));
	strcpy(want, "{\"id\":5,\"t\":123.456789012,\"type\":\"klog\","
	       "\"source\":\"kmsg\",\"bus\":null,\"devnum\":null,\"seq\":0,"
	       "\"level\":0,\"facility\":0,\"text\":\""
	       "\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n"
	       "\\u000B\\f\\r\\u000E\\u000F\\u0010\\u0011\\u0012\\u0013"
	       "\\u0014\\u0015\\u0016\\u0017\\u0018\\u0019\\u001A\\u001B"
	       "\\u001C\\u001D\\u001E\\u001F !\\\"#$%&'()*+,-./0123456789:;<=>?@"
	       "ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\\\]^_`abcdefghijklmnopqrstuvwxyz{|}~");
	n = strlen(want);
	for (i = 0x7f; i < 256; i++)	/* as they are */
		want[n++] = (char)i;
	strcpy(want + n, "\"}");
	assert_string_equal(line, want);

	/* json-c reads it back to the same text */
	{
		struct ev back;

		assert_int_equal(evjson_parse_event(line, strlen(line), &back),
				 0);
		assert_int_equal(back.type, EV_KLOG);
		assert_memory_equal(back.u.klog.text, ev->u.klog.text, 255);
	}
	free(ev);
	evjson_writer_free(w);
}

static void test_evjson_long_and_machine(void **state)
{
	struct evjson_writer *w = evjson_writer_new();
	struct ev *ev = test_evjson_klog("");
	const char *line;
	size_t n;

	(void)state;
	/* longer than the verbatim path takes, with one escape at the end */
	memset(ev->u.klog.text, 'a', 600);
	strcpy(ev->u.klog.text + 600, "\t/");
	assert_int_equal(evjson_writer_line(w, ev, &line, &n), 0);
	assert_non_null(strstr(line, "aaaa\\t/\"}"));

	evjson_writer_set_machine(w, "pi-\"a\"", "0123abcd");
	strcpy(ev->u.klog.text, "x");
	assert_int_equal(evjson_writer_line(w, ev, &line, &n), 0);
	assert_true(!strncmp(line, "{\"hostname\":\"pi-\\\"a\\\"\","
			     "\"machine_id\":\"0123abcd\",\"id\":5,", 48));
	evjson_writer_set_machine(w, NULL, NULL);
	assert_int_equal(evjson_writer_line(w, ev, &line, &n), 0);
	assert_true(!strncmp(line, "{\"id\":5,", 8));
	free(ev);
	evjson_writer_free(w);
}

/* nested: an incident's evidence array, a trace record's fields */
static void test_evjson_nested(void **state)
{
	struct evjson_writer *w = evjson_writer_new();
	struct ev *ev = calloc(1, sizeof(*ev));
	struct ev back;
	const char *line;
	size_t n;

	(void)state;
	assert_non_null(ev);
	ev->type = EV_INCIDENT;
	ev->source = EV_SRC_RECORDER;
	ev->id = 9;
	ev->ident.busnum = 2;
	ev->ident.devnum = 3;
	ev->u.incident.inc.kind = CLASSIFY_RESET;
	ev->u.incident.nevidence = 3;
	ev->u.incident.evidence[0] = 1;
	ev->u.incident.evidence[1] = 22;
	ev->u.incident.evidence[2] = 333;
	ev->u.incident.opcode = -1;
	ev->u.incident.lba = -1;
	assert_int_equal(evjson_writer_line(w, ev, &line, &n), 0);
	assert_non_null(strstr(line, "\"evidence\":[1,22,333]"));
	assert_int_equal(line[n - 1], '}');
	assert_int_equal(evjson_parse_event(line, n, &back), 0);
	assert_int_equal(back.u.incident.nevidence, 3);
	assert_int_equal(back.u.incident.evidence[2], 333);
	free(ev);
	evjson_writer_free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_evjson_escaping),
		cmocka_unit_test(test_evjson_long_and_machine),
		cmocka_unit_test(test_evjson_nested),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
