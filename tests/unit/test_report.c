// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of "usbtrail report": recording.c over a real recording of
 * the test bed (tests/fixtures/recordings/uas-medium-stall: medium not
 * present, then a UAS timeout/abort/reset chain under usbtrail stress),
 * malformed input, the text and HTML writers (escaping of untrusted
 * kernel lines), serial hashing, and the tar writer.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bundle.h"
#include "lsusb.h"
#include "recording.h"
#include "report.h"
#include "tar.h"
#include "usbdesc.h"

#include "fixture_recording.h"

/* sha256("usbtrail-uas"), first 8 bytes (python3 hashlib) */
#define SERIAL_HASH "sha256:a2abc8c4525a3e09"

static void test_fixture_counts(void **state)
{
	struct recording *r = *state;

	assert_true(r->meta != NULL);
	assert_int_equal(r->malformed, 0);
	assert_int_equal(r->lines, 860);
	assert_int_equal(r->count[EV_INCIDENT], 14);
	assert_int_equal(r->count[EV_KLOG], 25);
	assert_int_equal(r->count[EV_SAMPLE], 228);
	assert_int_equal(r->usbmon, 155);
	assert_int_equal(r->nsamples, 228);
	assert_int_equal(r->ndisks, 1);
	assert_string_equal(r->disks[0].disk, "sda");
	assert_string_equal(r->disks[0].usb, "2-1");
	assert_true(r->disks[0].have_device);
	assert_int_equal(r->disks[0].device.vid, 0x46f4);
	assert_int_equal(r->disks[0].device.pid, 0x0003);
	assert_string_equal(r->disks[0].device.driver, "uas");
	assert_string_equal(r->disks[0].device.serial, "usbtrail-uas");
	assert_int_equal(r->disks[0].nsamples, 228);
	/* --payload at its default, not given on purpose */
	assert_int_equal(r->payload, 64);
	assert_false(r->payload_set);
	assert_string_equal(recording_meta_str(r, "kernel", "release"),
			    "6.1.0-57-amd64");
}

static void test_fixture_stress(void **state)
{
	struct recording *r = *state;
	char label[32];

	assert_int_equal(r->nstress, 2);
	assert_string_equal(r->stress[0].name, "write");
	assert_true(r->stress[0].write);
	assert_true(r->stress[0].ended);
	assert_int_equal(r->stress[0].errors, 1);
	assert_int_equal(r->stress[0].bytes, 226492416);
	assert_float_equal(r->stress[0].secs, 20.510, 1e-9);
	assert_false(r->stress[1].write);
	assert_int_equal(r->stress[1].block, 1048576);
	assert_int_equal(r->stress[1].qd, 4);
	recording_stress_label(&r->stress[1], label, sizeof(label));
	assert_string_equal(label, "SEQ1M Q4T1");
}

static const struct ev *find_incident(const struct recording *r,
				      enum classify_kind k)
{
	size_t i;

	for (i = 0; i < r->nevs; i++)
		if (r->evs[i].type == EV_INCIDENT &&
		    r->evs[i].u.incident.inc.kind == k)
			return &r->evs[i];
	return NULL;
}

static void test_fixture_evidence(void **state)
{
	struct recording *r = *state;
	const struct ev *inc = find_incident(r, CLASSIFY_SENSE);
	char buf[600], sense[128];
	unsigned int i, traces = 0;
	uint64_t t;

	assert_non_null(inc);
	assert_int_equal(inc->u.incident.inc.key, 2);
	assert_int_equal(inc->u.incident.inc.asc, 0x3a);
	assert_int_equal(inc->u.incident.opcode, 0x2a);
	assert_int_equal(inc->u.incident.lba, 20480);
	assert_true(inc->u.incident.nevidence >= 2);
	for (i = 0; i < inc->u.incident.nevidence; i++) {
		assert_true(recording_describe(r, inc->u.incident.evidence[i],
					       buf, sizeof(buf), &t) > 0);
		if (!strncmp(buf, "trace ", 6))
			traces++;
		else
			assert_non_null(strstr(buf, "kernel: sd 0:0:0:0"));
	}
	assert_int_equal(traces, 1);
	assert_int_equal(recording_describe(r, 999999999, buf, sizeof(buf),
					    &t), -ENOENT);
	report_sense_text(inc, sense, sizeof(sense));
	assert_string_equal(sense, "02/3a/00 Not Ready: Medium not present");
	assert_int_equal(report_advice_id(inc),
			 report_advice_id(inc));	/* stable */
	assert_non_null(strstr(report_advice_get(report_advice_id(inc))->title,
			       "Medium not present"));

	inc = find_incident(r, CLASSIFY_DIP);
	assert_non_null(inc);
	assert_true(inc->u.incident.dip_secs > 10);
	assert_true(inc->u.incident.dip_median_mbps > 10);
	inc = find_incident(r, CLASSIFY_TIMEOUT);
	assert_non_null(inc);
	assert_int_equal(inc->u.incident.inc.count, 8);
}

static void test_fixture_endpoints(void **state)
{
	struct recording *r = *state;
	uint64_t total = 0, stopped = 0;
	unsigned int i;

	assert_true(r->neps >= 4);
	for (i = 0; i < r->neps; i++) {
		assert_int_equal(r->eps[i].busnum, 2);
		assert_int_equal(r->eps[i].devnum, 2);
		total += r->eps[i].total;
		stopped += r->eps[i].cc[26];
	}
	assert_int_equal(total, 169);	/* grep -c "\"rec\":\"xhci-transfer\"" */
	/* the aborts cancel transfers: Stopped */
	assert_true(stopped > 0);
}

/* meta.json "descriptors": QEMU's usb-uas as sysfs had it, lsusb -v style */
static void test_fixture_descriptors(void **state)
{
	struct recording *r = *state;
	struct json_object *o, *v;
	struct usbdesc_device *d = malloc(sizeof(*d));
	uint8_t raw[4096];
	char *text = NULL;
	size_t len = 0, n, i;
	const char *hex;
	FILE *f;

	assert_non_null(d);
	assert_true(json_object_object_get_ex(r->meta, "descriptors", &o));
	assert_true(json_object_object_get_ex(o, "2-1", &v));
	hex = json_object_get_string(v);
	n = strlen(hex) / 2;
	assert_true(n > 18 && n <= sizeof(raw));
	for (i = 0; i < n; i++) {
		unsigned int x;

		assert_int_equal(sscanf(hex + 2 * i, "%2x", &x), 1);
		raw[i] = (uint8_t)x;
	}
	assert_true(usbdesc_parse_sysfs(raw, n, d) >= 0);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	lsusb_print(f, d, true);
	fclose(f);
	assert_non_null(strstr(text, "  idVendor           0x46f4\n"));
	assert_non_null(strstr(text, "  idProduct          0x0003\n"));
	assert_non_null(strstr(text, "bInterfaceClass         8 Mass Storage"));
	assert_non_null(strstr(text, "bInterfaceProtocol     98 (UAS)"));
	assert_non_null(strstr(text, "Command pipe (0x01)"));
	assert_non_null(strstr(text, "Status pipe (0x02)"));
	assert_non_null(strstr(text, "Transfer Type            Bulk"));
	assert_non_null(strstr(text, "MaxStreams"));
	free(text);
	free(d);
}

static void test_cc_names(void **state)
{
	(void)state;
	assert_string_equal(recording_cc_name(1), "Success");
	assert_string_equal(recording_cc_name(4), "USB Transaction Error");
	assert_string_equal(recording_cc_name(13), "Short Packet");
	assert_string_equal(recording_cc_name(27), "Stopped - Length Invalid");
	assert_string_equal(recording_cc_name(36), "Split Transaction Error");
	assert_string_equal(recording_cc_name(30), "?");
	assert_string_equal(recording_cc_name(255), "?");
	assert_true(recording_cc_normal(13));
	assert_false(recording_cc_normal(6));
	assert_non_null(strstr(recording_cc_meaning(4), "cable"));
}

static char *write_to_string(int (*w)(FILE *, const struct recording *,
				      const struct report_opts *),
			     const struct recording *r, bool keep)
{
	struct report_opts o = { .dir = "DIR", .keep_serials = keep };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(w(f, r, &o), 0);
	fclose(f);
	return buf;
}

static void test_fixture_text(void **state)
{
	struct recording *r = *state;
	char *s = write_to_string(report_text_write, r, false);

	assert_non_null(strstr(s, "== Incidents (14)"));
	/* meta.json's "seconds": 25.183, not the span of the events */
	assert_non_null(strstr(s, ", 25.2 s recorded, stopped by command exit"));
	assert_non_null(strstr(s, "02/3a/00 Not Ready: Medium not present"));
	assert_non_null(strstr(s, "SEQ1M Q4T1"));
	/* 226492416 bytes read in 2.149 s, written in 20.510 s */
	assert_non_null(strstr(s, "SEQ1M Q4T1              105.4         11.0"));
	/* an older stress names no disk: the one that moved its bytes */
	assert_non_null(strstr(s, "run 61cea629fdb0ef16 on /dev/disk/testbed/"
				  "uas: sda, usb 2-1 46f4:0003 \"USB Attached "
				  "SCSI HBA\", 5000 Mbit/s, driver uas, serial "
				  "sha256:"));
	assert_non_null(strstr(s, "usb-storage.quirks=46f4:0003:u (sda)"));
	assert_non_null(strstr(s, "Short Packet"));
	assert_non_null(strstr(s, "  topology: 0000:00:04.0 QEMU xHCI "
				  "(qemu-xhci) [1b36:000d] > usb2 1d6b:0003 "
				  "xHCI Host Controller 5000M > 2-1 46f4:0003 "
				  "5000M (sda)\n"));
	assert_non_null(strstr(s, "4 events of usbmon (usbmon ring full)"));
	assert_non_null(strstr(s, SERIAL_HASH));
	assert_null(strstr(s, "usbtrail-uas"));
	free(s);
	s = write_to_string(report_text_write, r, true);
	assert_non_null(strstr(s, "serial usbtrail-uas"));
	free(s);
}

static void test_fixture_html(void **state)
{
	struct recording *r = *state;
	char *s = write_to_string(report_html_write, r, false);

	assert_true(!strncmp(s, "<!DOCTYPE html>", 15));
	assert_non_null(strstr(s, "Content-Security-Policy"));
	assert_non_null(strstr(s, "<svg class='plot'"));
	assert_non_null(strstr(s, "class='throughput'"));
	assert_non_null(strstr(s, "class='dip'"));
	assert_non_null(strstr(s, "id='inc-14'"));
	assert_null(strstr(s, "id='inc-15'"));
	assert_non_null(strstr(s, "table class='cdm'"));
	assert_null(strstr(s, "usbtrail-uas"));
	/* nothing to fetch: no src attributes, no http links but xmlns */
	assert_null(strstr(s, "src="));
	assert_null(strstr(s, "<script"));
	assert_null(strstr(s, "href='http"));
	assert_non_null(strstr(s, "</html>"));
	free(s);
}

/* untrusted text: a kernel line and an incident carrying markup */
static const char evil[] =
"{\"id\":1,\"t\":1.5,\"type\":\"klog\",\"source\":\"kmsg\",\"bus\":null,"
"\"devnum\":null,\"seq\":1,\"level\":3,\"facility\":0,\"text\":"
"\"usb 1-1: <script>alert(1)</script> & 'x'\"}\n"
"{\"kind\":\"disconnect\",\"dev\":\"1-1\",\"t\":1.5,\"clock\":\"boot\","
"\"disk\":\"sdb\",\"chain\":null,\"devnum\":3,\"line\":\"<img src=x "
"onerror=alert(2)>\",\"summary\":\"x\",\"evidence\":[1,77],\"opcode\":"
"null,\"lba\":null,\"id\":2,\"type\":\"incident\",\"source\":\"recorder\","
"\"disk\":\"sdb\",\"bus\":1,\"devnum\":3}\n"
"{\"id\":3,\"t\":1.6,\"type\":\"device\",\"source\":\"sysfs\",\"disk\":"
"\"sdb\",\"action\":\"add\",\"id\":\"1234:5678\",\"product\":"
"\"</td><b>\",\"serial\":\"S3R<1>\"}\n";

static void test_html_escapes(void **state)
{
	struct recording r;
	char *s;

	(void)state;
	recording_init(&r);
	assert_int_equal(recording_parse_events(&r, evil, strlen(evil)), 0);
	assert_int_equal(recording_finish(&r), 0);
	assert_int_equal(r.malformed, 0);
	assert_int_equal(r.count[EV_INCIDENT], 1);
	s = write_to_string(report_html_write, &r, true);
	assert_null(strstr(s, "<script"));
	assert_null(strstr(s, "<img"));
	assert_null(strstr(s, "</td><b>"));
	assert_null(strstr(s, "S3R<1>"));
	assert_non_null(strstr(s, "&lt;script&gt;alert(1)&lt;/script&gt; "
				  "&amp; &#39;x&#39;"));
	assert_non_null(strstr(s, "&lt;img src=x onerror=alert(2)&gt;"));
	assert_non_null(strstr(s, "S3R&lt;1&gt;"));
	/* the evidence id that is not there says so */
	assert_non_null(strstr(s, "[77] not in the recording"));
	free(s);
	recording_free(&r);
}

/* A device event without a speed: unknown in the text and HTML, not 0. */
static void test_unknown_speed(void **state)
{
	struct recording r;
	char *s;

	(void)state;
	recording_init(&r);
	assert_int_equal(recording_parse_events(&r, evil, strlen(evil)), 0);
	assert_int_equal(recording_finish(&r), 0);
	assert_int_equal(r.ndisks, 1);
	assert_true(r.disks[0].have_device);
	assert_int_equal(r.disks[0].device.speed_mbps, 0);
	s = write_to_string(report_text_write, &r, true);
	assert_non_null(strstr(s, "\"</td><b>\", speed unknown, driver"));
	assert_null(strstr(s, "0 Mbit/s"));
	free(s);
	s = write_to_string(report_html_write, &r, true);
	assert_non_null(strstr(s, "<td>unknown</td>"));
	assert_null(strstr(s, "0 Mbit/s"));
	free(s);
	recording_free(&r);
}

static void test_malformed(void **state)
{
	static const char in[] =
		"not json\n"
		"{\"id\":5,\"t\":2.0,\"type\":\"klog\",\"text\":\"ok\"}\n"
		"\n"
		"{\"id\":6,\"t\":2.1,\"type\":\"nonsense\"}\n"
		"{\"id\":7,\"t\":-4,\"type\":\"klog\",\"text\":\"bad t\"}\n"
		"[1,2,3]\n"
		"{\"id\":8,\"t\":2.2,\"type\":\"incident\",\"kind\":\"no-such\"}\n"
		"{\"id\":9,\"t\":2.3,\"type\":\"klog\",\"text\":\"cut sh";
	struct recording r;
	char *s;

	(void)state;
	recording_init(&r);
	assert_int_equal(recording_parse_events(&r, in, strlen(in)), 0);
	assert_int_equal(recording_finish(&r), 0);
	assert_int_equal(r.lines, 7);
	assert_int_equal(r.malformed, 6);
	assert_int_equal(r.count[EV_KLOG], 1);
	/* a report of what is left, without meta.json */
	s = write_to_string(report_text_write, &r, false);
	assert_non_null(strstr(s, "6 malformed"));
	assert_non_null(strstr(s, "kernel unknown"));
	free(s);
	/* no samples: no plot, and it says so */
	s = write_to_string(report_html_write, &r, false);
	assert_null(strstr(s, "<svg class='plot'"));
	assert_non_null(strstr(s, "No throughput samples in this recording"));
	free(s);
	recording_free(&r);

	recording_init(&r);
	assert_int_equal(recording_parse_meta(&r, "[]", 2), -EINVAL);
	assert_null(r.meta);
	assert_int_equal(recording_parse_meta(&r, "{\"payload\":64,"
					      "\"payload_set\":true}", 33), 0);
	assert_int_equal(r.payload, 64);
	assert_true(r.payload_set);
	/* no "seconds" (cut short): the events' span, none here */
	assert_true(recording_seconds(&r) == 0);
	assert_int_equal(recording_parse_meta(&r, "{\"seconds\":5.0}", 15), 0);
	assert_true(recording_seconds(&r) == 5.0);
	assert_int_equal(recording_parse_meta(&r, "{\"seconds\":-1}", 14), 0);
	assert_true(recording_seconds(&r) == 0);
	recording_free(&r);
}

static void test_serials(void **state)
{
	const char *serials[] = { "usbtrail-uas", "AB" };
	char buf[80], *out;
	size_t len;

	(void)state;
	report_serial("usbtrail-uas", false, buf, sizeof(buf));
	assert_string_equal(buf, SERIAL_HASH);
	report_serial("usbtrail-uas", true, buf, sizeof(buf));
	assert_string_equal(buf, "usbtrail-uas");
	report_serial("", false, buf, sizeof(buf));
	assert_string_equal(buf, "");

	assert_int_equal(bundle_scrub("SerialNumber: usbtrail-uas, AB.", 31,
				      serials, 2, &out, &len), 0);
	report_serial("AB", false, buf, sizeof(buf));
	assert_int_equal(len, strlen(out));
	assert_non_null(strstr(out, "SerialNumber: " SERIAL_HASH ", "));
	assert_non_null(strstr(out, buf));
	assert_null(strstr(out, "usbtrail-uas"));
	free(out);
}

static void test_tar(void **state)
{
	struct tar_buf t = { 0 };
	unsigned int sum = 0, i;
	char name[120];

	(void)state;
	assert_int_equal(tar_add(&t, "d/a.txt", "hello", 5, 1000), 0);
	assert_int_equal(t.len, 1024);
	assert_memory_equal(t.data + 512, "hello", 5);
	assert_memory_equal(t.data + 257, "ustar", 6);
	for (i = 0; i < 512; i++)
		sum += (i >= 148 && i < 156) ? ' ' : t.data[i];
	assert_int_equal(strtoul((const char *)t.data + 148, NULL, 8), sum);
	assert_int_equal(strtoul((const char *)t.data + 124, NULL, 8), 5);
	memset(name, 'x', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	assert_int_equal(tar_add(&t, name, "", 0, 0), -ENAMETOOLONG);
	assert_int_equal(tar_add(&t, "empty", "", 0, 0), 0);
	assert_int_equal(tar_finish(&t), 0);
	assert_int_equal(t.len, 1024 + 512 + 1024);
	tar_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fixture_counts,
						load_fixture, free_fixture),
		cmocka_unit_test_setup_teardown(test_fixture_stress,
						load_fixture, free_fixture),
		cmocka_unit_test_setup_teardown(test_fixture_evidence,
						load_fixture, free_fixture),
		cmocka_unit_test_setup_teardown(test_fixture_endpoints,
						load_fixture, free_fixture),
		cmocka_unit_test_setup_teardown(test_fixture_text,
						load_fixture, free_fixture),
		cmocka_unit_test_setup_teardown(test_fixture_html,
						load_fixture, free_fixture),
		cmocka_unit_test_setup_teardown(test_fixture_descriptors,
						load_fixture, free_fixture),
		cmocka_unit_test(test_cc_names),
		cmocka_unit_test(test_html_escapes),
		cmocka_unit_test(test_unknown_speed),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_serials),
		cmocka_unit_test(test_tar),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
