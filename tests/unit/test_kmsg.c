// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_kmsg.c - unit tests of userspace/kmsg.c: every line form the parser
 * knows, journal export entries, and damaged lines.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "kmsg.h"

static struct kmsg_record parse_ok(const char *line)
{
	struct kmsg_record r;

	assert_int_equal(kmsg_parse_line(line, strlen(line), &r), 0);
	return r;
}

static void assert_msg(const struct kmsg_record *r, const char *want)
{
	assert_int_equal(r->msg_len, strlen(want));
	assert_memory_equal(r->msg, want, strlen(want));
}

static void test_dmesg(void **state)
{
	struct kmsg_record r;

	(void)state;
	r = parse_ok("[ 1234.567890] usb 2-1: USB disconnect, device number 2\n");
	assert_int_equal(r.format, KMSG_FMT_DMESG);
	assert_int_equal(r.clock, KMSG_CLOCK_MONO);
	assert_true(r.t > 1234.56788 && r.t < 1234.56790);
	assert_int_equal(r.seq, -1);
	assert_int_equal(r.level, -1);
	assert_msg(&r, "usb 2-1: USB disconnect, device number 2");
}

static void test_dmesg_t(void **state)
{
	struct kmsg_record r;

	(void)state;
	r = parse_ok("[Sun Nov 29 23:10:27 2026] usb 2-1: reset");
	assert_int_equal(r.format, KMSG_FMT_DMESG_T);
	assert_int_equal(r.clock, KMSG_CLOCK_WALL);
	/* 333 days before 29 Nov in a non-leap year, then 23:10:27 */
	assert_true(r.t == (304 + 28) * 86400.0 + 23 * 3600 + 10 * 60 + 27);
	assert_msg(&r, "usb 2-1: reset");
}

static void test_syslog(void **state)
{
	struct kmsg_record r;

	(void)state;
	r = parse_ok("Nov 29 23:10:27 host kernel: [   12.300000] sd 0:0:0:0: x");
	assert_int_equal(r.format, KMSG_FMT_SYSLOG);
	assert_int_equal(r.clock, KMSG_CLOCK_MONO);
	assert_true(r.t > 12.29 && r.t < 12.31);
	assert_msg(&r, "sd 0:0:0:0: x");

	/* journalctl -k short: wall clock only */
	r = parse_ok("Nov  9 23:10:27 host kernel: usb 1-1: msg");
	assert_int_equal(r.clock, KMSG_CLOCK_WALL);
	assert_msg(&r, "usb 1-1: msg");

	/* busybox syslogd: no host */
	r = parse_ok("Nov 18 10:34:27 kernel: sd 0:0:0:0: msg");
	assert_msg(&r, "sd 0:0:0:0: msg");

	/* rsyslog's RFC 3339 stamps */
	r = parse_ok("2026-11-29T23:10:27.123456+01:00 host kernel: hi");
	assert_int_equal(r.clock, KMSG_CLOCK_WALL);
	assert_msg(&r, "hi");
}

static void test_short_monotonic(void **state)
{
	struct kmsg_record r;

	(void)state;
	r = parse_ok("[  170.483679] kernel: sd 3:0:0:0: rejecting I/O");
	assert_msg(&r, "sd 3:0:0:0: rejecting I/O");
	r = parse_ok("[  170.483679] myhost kernel: sd 3:0:0:0: x");
	assert_msg(&r, "sd 3:0:0:0: x");
}

static void test_devkmsg(void **state)
{
	struct kmsg_record r;

	(void)state;
	r = parse_ok("6,1234,5678901,-;usb 2-1: new device");
	assert_int_equal(r.format, KMSG_FMT_KMSG);
	assert_int_equal(r.level, 6);
	assert_int_equal(r.facility, 0);
	assert_int_equal(r.seq, 1234);
	assert_true(r.t > 5.6789 && r.t < 5.67891);
	assert_msg(&r, "usb 2-1: new device");

	/* facility 1 (user), level 4; extra fields before ';' */
	r = parse_ok("12,7,0,c,caller=T1;x");
	assert_int_equal(r.facility, 1);
	assert_int_equal(r.level, 4);
	assert_msg(&r, "x");
}

static void test_not_kernel(void **state)
{
	struct kmsg_record r;
	static const char *const lines[] = {
		"Nov 29 23:10:27 host systemd[1]: Started x.",
		" SUBSYSTEM=usb",
		"# a comment",
		"",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		assert_int_equal(kmsg_parse_line(lines[i], strlen(lines[i]),
						 &r), KMSG_NOT_KERNEL);
}

static void test_malformed(void **state)
{
	struct kmsg_record r = { .seq = 42 };
	static const char *const lines[] = {
		"[ 12.3 no bracket end",
		"[]",
		"[Sun Xyz 29 23:10:27 2026] x",
		"6,12;no usec",
		"6,12,34",
		"Nov 99 23:10:27 host kernel: x",
		"Nov 29 25:10:27 host kernel: x",
		"2026-13-29T23:10:27 host kernel: x",
	};
	static const char nul[] = "[ 1.0] a\0b";
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		assert_int_equal(kmsg_parse_line(lines[i], strlen(lines[i]),
						 &r), -EINVAL);
	assert_int_equal(kmsg_parse_line(nul, sizeof(nul) - 1, &r), -EINVAL);
	assert_int_equal(kmsg_parse_line("x", KMSG_LINE_MAX + 1, &r), -EINVAL);
	/* written only on success */
	assert_int_equal(r.seq, 42);
}

static int feed(struct kmsg_export *ex, const char *line,
		struct kmsg_record *r)
{
	return kmsg_export_feed(ex, line, strlen(line), r);
}

static void test_export(void **state)
{
	static struct kmsg_export ex;
	struct kmsg_record r;

	(void)state;
	kmsg_export_init(&ex);
	assert_true(kmsg_export_is_field("__CURSOR=s=1", 12));
	assert_false(kmsg_export_is_field("MESSAGE", 7));
	assert_false(kmsg_export_is_field("[ 1.0] A=b", 10));

	assert_int_equal(feed(&ex, "__MONOTONIC_TIMESTAMP=9612500", &r), 0);
	assert_int_equal(feed(&ex, "_TRANSPORT=kernel", &r), 0);
	assert_int_equal(feed(&ex, "PRIORITY=3", &r), 0);
	assert_int_equal(feed(&ex, "_SOURCE_MONOTONIC_TIMESTAMP=9612406", &r),
			 0);
	assert_int_equal(feed(&ex, "MESSAGE=usb 2-1: hi", &r), 0);
	assert_int_equal(feed(&ex, "", &r), KMSG_RECORD);
	assert_int_equal(r.format, KMSG_FMT_EXPORT);
	assert_int_equal(r.level, 3);
	assert_true(r.t > 9.612405 && r.t < 9.612407);
	assert_msg(&r, "usb 2-1: hi");

	/* another program's entry */
	assert_int_equal(feed(&ex, "_TRANSPORT=stdout", &r), 0);
	assert_int_equal(feed(&ex, "MESSAGE=x", &r), 0);
	assert_int_equal(feed(&ex, "", &r), KMSG_NOT_KERNEL);

	/* binary MESSAGE form: counted as malformed */
	assert_int_equal(feed(&ex, "MESSAGE", &r), 0);
	assert_int_equal(feed(&ex, "", &r), -EINVAL);

	/* no MESSAGE */
	assert_int_equal(feed(&ex, "PRIORITY=3", &r), 0);
	assert_int_equal(feed(&ex, "", &r), -EINVAL);

	/* blank lines between entries are nothing */
	assert_int_equal(feed(&ex, "", &r), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dmesg),
		cmocka_unit_test(test_dmesg_t),
		cmocka_unit_test(test_syslog),
		cmocka_unit_test(test_short_monotonic),
		cmocka_unit_test(test_devkmsg),
		cmocka_unit_test(test_not_kernel),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_export),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
