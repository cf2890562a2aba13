// SPDX-License-Identifier: GPL-2.0-only
/*
 * usbtrail.ko's probe table (module_probes.c): USBTRAIL_IOC_INFO's
 * entries as meta.json's "module_probes", and the report's sentences for
 * the probes that recorded nothing (failed, or waiting for a module),
 * none for attached ones and aliases of a renamed handler; a name the
 * module did not NUL-terminate is cut at the field's end; a module
 * before the table (info version 1) gives no array.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "module_probes.h"

static void probe(struct usbtrail_info *in, const char *name,
		  unsigned int kind, unsigned int state, int error)
{
	struct usbtrail_probe *p = &in->probes[in->nprobes++];

	size_t n = strlen(name);

	memcpy(p->name, name, n < sizeof(p->name) ? n + 1 : sizeof(p->name));
	p->kind = (uint8_t)kind;
	p->state = (uint8_t)state;
	p->error = error;
	p->source = USBTRAIL_SRC_UAS_EH;
}

static char *missing_text(struct json_object *a, int html)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	module_probes_missing(f, a, "[", "]\n", html);
	fclose(f);
	return buf;
}

static void test_table(void **state)
{
	struct usbtrail_info in;
	struct json_object *a, *meta;
	const char *s;
	char *text;

	(void)state;
	memset(&in, 0, sizeof(in));
	in.abi_version = USBTRAIL_ABI_VERSION;
	in.info_version = USBTRAIL_INFO_VERSION;
	probe(&in, "xhci_hcd:xhci_handle_event", USBTRAIL_PROBE_TRACEPOINT,
	      USBTRAIL_PROBE_ATTACHED, 0);
	probe(&in, "uas:uas_eh_device_reset_handler", USBTRAIL_PROBE_KRETPROBE,
	      USBTRAIL_PROBE_ALIAS, -ENOENT);
	probe(&in, "uas:uas_eh_host_reset_handler", USBTRAIL_PROBE_KRETPROBE,
	      USBTRAIL_PROBE_FAILED, -ENOENT);
	probe(&in, "usb_storage:bus_reset", USBTRAIL_PROBE_KRETPROBE,
	      USBTRAIL_PROBE_WAITING, 0);
	/* 48 bytes, no NUL */
	probe(&in, "scsi_mod:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	      USBTRAIL_PROBE_TRACEPOINT, USBTRAIL_PROBE_FAILED, -EINVAL);

	a = module_probes_json(&in);
	assert_non_null(a);
	assert_int_equal(json_object_array_length(a), 5);
	s = json_object_to_json_string_ext(json_object_array_get_idx(a, 2),
					   JSON_C_TO_STRING_PLAIN);
	assert_string_equal(s, "{\"name\":\"uas:uas_eh_host_reset_handler\","
			    "\"kind\":\"kretprobe\",\"state\":\"failed\","
			    "\"error\":-2,\"source\":8}");
	s = json_object_get_string(json_object_object_get(
		json_object_array_get_idx(a, 4), "name"));
	assert_int_equal(strlen(s), USBTRAIL_PROBE_NAME_LEN);

	/* through meta.json as the report reads it */
	meta = json_object_new_object();
	json_object_object_add(meta, "module_probes", a);
	text = missing_text(module_probes_of_meta(meta), 0);
	assert_non_null(strstr(text, "[module probe uas:uas_eh_host_reset_handler "
			       "(kretprobe) did not attach: error -2 (No such "
			       "file or directory); the recording has none of "
			       "its records]\n"));
	assert_non_null(strstr(text, "[module probe usb_storage:bus_reset "
			       "(kretprobe) was waiting for its module"));
	assert_non_null(strstr(text, "error -22 (Invalid argument)"));
	assert_null(strstr(text, "uas_eh_device_reset_handler"));
	assert_null(strstr(text, "xhci_handle_event"));
	free(text);
	json_object_put(meta);
}

static void test_html_and_absent(void **state)
{
	struct usbtrail_info in;
	struct json_object *a;
	char *text;

	(void)state;
	memset(&in, 0, sizeof(in));
	in.abi_version = USBTRAIL_ABI_VERSION;
	/* a module before the table */
	assert_null(module_probes_json(&in));
	assert_null(module_probes_of_meta(NULL));
	text = missing_text(NULL, 0);
	assert_string_equal(text, "");
	free(text);

	in.info_version = USBTRAIL_INFO_VERSION;
	probe(&in, "x:<b>&'", USBTRAIL_PROBE_TRACEPOINT,
	      USBTRAIL_PROBE_FAILED, -ENOENT);
	a = module_probes_json(&in);
	text = missing_text(a, 1);
	assert_non_null(strstr(text, "x:&lt;b&gt;&amp;&#39;"));
	assert_null(strstr(text, "<b>"));
	free(text);
	json_object_put(a);
	assert_string_equal(module_probes_state_name(9), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_html_and_absent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
