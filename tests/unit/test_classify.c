// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_classify.c - unit tests of userspace/classify.c over the real kernel
 * log excerpts of tests/fixtures/kmsg/ (each names its source), one test
 * per fixture, together covering every incident kind but dip.
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

#include "classify.h"
#include "kmsg.h"

#ifndef FIXTURES
#define FIXTURES "../tests/fixtures/kmsg"
#endif

#define MAX_INC	64

struct result {
	struct classify_incident inc[MAX_INC];
	int n;
	int malformed;
};

static struct result res;
static struct kmsg_export ex;

static void add(struct classify_incident *inc, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		assert_true(res.n < MAX_INC);
		res.inc[res.n++] = inc[i];
	}
}

/* Classify fixture @name line by line, as "usbtrail analyze" does. */
static void run(const char *name)
{
	struct classify_incident inc[CLASSIFY_MAX_OUT];
	struct kmsg_record r;
	struct classify c;
	char path[512], line[4096];
	FILE *f;
	int ret;

	memset(&res, 0, sizeof(res));
	kmsg_export_init(&ex);
	classify_init(&c);
	snprintf(path, sizeof(path), "%s/%s", FIXTURES, name);
	f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open %s", path);
	while (fgets(line, sizeof(line), f)) {
		size_t len = strcspn(line, "\n");

		if (kmsg_export_is_field(line, len) || (ex.any && !len)) {
			ret = kmsg_export_feed(&ex, line, len, &r);
			if (ret != KMSG_RECORD) {
				res.malformed += ret < 0;
				continue;
			}
		} else {
			ret = kmsg_parse_line(line, len, &r);
			if (ret) {
				res.malformed += ret < 0;
				continue;
			}
		}
		add(inc, classify_feed(&c, &r, inc));
	}
	fclose(f);
	/* an export stream may end without its blank line */
	if (ex.any && kmsg_export_feed(&ex, "", 0, &r) == KMSG_RECORD)
		add(inc, classify_feed(&c, &r, inc));
	add(inc, classify_flush(&c, inc));
}

/* The @nth (from 0) incident of @kind about @dev. */
static const struct classify_incident *find(enum classify_kind kind,
					    const char *dev, int nth)
{
	int i;

	for (i = 0; i < res.n; i++)
		if (res.inc[i].kind == kind && !strcmp(res.inc[i].dev, dev) &&
		    nth-- == 0)
			return &res.inc[i];
	fail_msg("no %s incident #%d on '%s'", classify_kind_name(kind),
		 nth, dev);
	return NULL;
}

static int count(enum classify_kind kind)
{
	int i, n = 0;

	for (i = 0; i < res.n; i++)
		n += res.inc[i].kind == kind;
	return n;
}

static void test_testbed(void **state)
{
	const struct classify_incident *s, *io, *to, *ab, *rs, *ok;

	(void)state;
	run("testbed-uas-medium-stall.dmesg");
	assert_int_equal(res.n, 7);
	s = find(CLASSIFY_SENSE, "sda", 0);
	assert_int_equal(s->key, 2);
	assert_string_equal(s->key_text, "Not Ready");
	assert_int_equal(s->asc, 0x3a);
	assert_int_equal(s->ascq, 0);
	assert_string_equal(s->asc_text, "Medium not present");
	assert_true(s->t > 9.6124 && s->t < 9.6125);
	assert_int_equal(s->chain, 0);
	io = find(CLASSIFY_IO_ERROR, "sda", 0);
	assert_int_equal(io->sector, 10240);

	to = find(CLASSIFY_TIMEOUT, "sda", 0);
	assert_true(to->inferred);
	ab = find(CLASSIFY_ABORT, "sda", 1);
	rs = find(CLASSIFY_RESET, "2-1", 0);
	assert_string_equal(rs->speed, "SuperSpeed");
	assert_int_equal(rs->devnum, 2);
	assert_string_equal(rs->disk, "sda");
	ok = find(CLASSIFY_RECOVERED, "host0", 0);
	assert_string_equal(ok->disk, "sda");
	assert_int_not_equal(to->chain, 0);
	assert_int_equal(ab->chain, to->chain);
	assert_int_equal(rs->chain, to->chain);
	assert_int_equal(ok->chain, to->chain);
	assert_string_equal(ok->line,
			    "scsi host0: uas_eh_device_reset_handler success");
}

static void test_export(void **state)
{
	const struct classify_incident *s;

	(void)state;
	run("testbed-export.journal");
	assert_int_equal(res.n, 2);
	s = find(CLASSIFY_SENSE, "sda", 0);
	assert_int_equal(s->asc, 0x3a);
	assert_true(s->t > 9.6124 && s->t < 9.6125);
	assert_int_equal(find(CLASSIFY_IO_ERROR, "sda", 0)->sector, 10240);
}

static void test_hc_died(void **state)
{
	const struct classify_incident *to, *ab;

	(void)state;
	run("rpi-3404-hc-died.dmesg");
	assert_int_equal(count(CLASSIFY_HC_DIED), 2);
	find(CLASSIFY_HC_DIED, "0000:01:00.0", 1);
	find(CLASSIFY_XHCI_ERROR, "0000:01:00.0", 0);
	to = find(CLASSIFY_TIMEOUT, "sda", 0);
	ab = find(CLASSIFY_ABORT, "sda", 0);
	assert_int_equal(ab->chain, to->chain);
	assert_int_equal(find(CLASSIFY_DISCONNECT, "1-1.3", 0)->devnum, 3);
	find(CLASSIFY_DISCONNECT, "2-1", 0);
}

static void test_offline(void **state)
{
	const struct classify_incident *rs;

	(void)state;
	run("asuswrt-379-offline.syslog");
	rs = find(CLASSIFY_RESET, "2-2", 1);
	assert_string_equal(rs->speed, "SuperSpeed");
	assert_int_equal(rs->clock, KMSG_CLOCK_WALL);
	/* before any "[sdd]" line the disk is known by its SCSI address */
	find(CLASSIFY_OFFLINE, "0:0:0:0", 0);
	find(CLASSIFY_OFFLINE, "sdd", 0);
	assert_int_equal(find(CLASSIFY_IO_ERROR, "sdd", 0)->sector, 17803376);
	find(CLASSIFY_FS_ERROR, "sdd", 0);
}

static void test_fs_error(void **state)
{
	(void)state;
	run("asahi-395-fs-error.journal");
	find(CLASSIFY_OFFLINE, "3:0:0:0", 0);
	find(CLASSIFY_FS_ERROR, "sda", 0);
	find(CLASSIFY_FS_ERROR, "sdc", 1);
	assert_int_equal(count(CLASSIFY_FS_ERROR), 3);
}

static void test_old_sense(void **state)
{
	const struct classify_incident *s;

	(void)state;
	run("plug-2005-old-sense.syslog");
	s = find(CLASSIFY_SENSE, "sda", 0);
	assert_int_equal(s->key, 4);
	assert_int_equal(s->asc, 0x4b);
	assert_int_equal(s->ascq, 0);
	assert_int_equal(find(CLASSIFY_IO_ERROR, "sda", 0)->sector, 62592);
	find(CLASSIFY_FS_ERROR, "sda", 0);
}

static void test_old_plain(void **state)
{
	const struct classify_incident *io;

	(void)state;
	run("rhymingpanda-2006-lost-page.dmesg");
	io = find(CLASSIFY_IO_ERROR, "sdg", 0);
	assert_int_equal(io->sector, 172);
	assert_int_equal(io->clock, KMSG_CLOCK_NONE);
	find(CLASSIFY_FS_ERROR, "sdg", 1);
}

static void test_enum_failure(void **state)
{
	const struct classify_incident *e;

	(void)state;
	run("gamepad-enum-failure.syslog");
	assert_int_equal(res.n, 3);
	e = find(CLASSIFY_ENUM_FAILURE, "5-1", 0);
	assert_int_equal(e->err, 71);
	assert_true(e->t > 97408.23 && e->t < 97408.24);
	e = find(CLASSIFY_ENUM_FAILURE, "5-1", 1);
	assert_int_equal(e->err, 71);
	assert_int_equal(e->devnum, 30);
	e = find(CLASSIFY_ENUM_FAILURE, "usb5", 0);
	assert_int_equal(e->err, -1);
}

static void test_kernel_formats(void **state)
{
	const struct classify_incident *i;

	(void)state;
	run("kernel-formats.kmsg");
	assert_int_equal(res.malformed, 1);
	find(CLASSIFY_OVER_CURRENT, "2-3", 0);
	find(CLASSIFY_UAS_IGNORED, "2-3", 0);
	assert_string_equal(find(CLASSIFY_RESET, "2-3", 0)->speed,
			    "high-speed");
	assert_int_equal(find(CLASSIFY_XHCI_ERROR, "0000:00:14.0", 0)->code,
			 19);
	assert_int_equal(find(CLASSIFY_XHCI_ERROR, "0000:00:14.0", 1)->code,
			 26);
	assert_int_equal(find(CLASSIFY_XHCI_ERROR, "0000:00:14.0", 2)->code,
			 -1);
	assert_int_equal(find(CLASSIFY_SUPPRESSED, "", 0)->count, 7);
	i = find(CLASSIFY_TIMEOUT, "sdc", 0);
	assert_false(i->inferred);
	assert_int_not_equal(i->chain, 0);
	i = find(CLASSIFY_SENSE, "sdc", 0);
	assert_int_equal(i->key, 3);
	assert_int_equal(i->asc, 0x80);
	assert_int_equal(i->ascq, 0x03);
	assert_true(i->t > 55.00009 && i->t < 55.00011);
	find(CLASSIFY_DISCONNECT, "2-3", 0);
	find(CLASSIFY_FS_ERROR, "sdc", 0);
}

static void test_every_kind(void **state)
{
	static const char *const fixtures[] = {
		"testbed-uas-medium-stall.dmesg", "rpi-3404-hc-died.dmesg",
		"asuswrt-379-offline.syslog", "asahi-395-fs-error.journal",
		"plug-2005-old-sense.syslog", "gamepad-enum-failure.syslog",
		"kernel-formats.kmsg", "rhymingpanda-2006-lost-page.dmesg",
	};
	int seen[CLASSIFY_KIND_COUNT] = { 0 };
	size_t f;
	int k;

	(void)state;
	for (f = 0; f < sizeof(fixtures) / sizeof(fixtures[0]); f++) {
		run(fixtures[f]);
		for (k = 0; k < res.n; k++)
			seen[res.inc[k].kind]++;
	}
	/* dips come from block completions in recordings, never a log */
	for (k = 0; k < CLASSIFY_KIND_COUNT; k++)
		if (!seen[k] && k != CLASSIFY_DIP)
			fail_msg("no fixture has a %s incident",
				 classify_kind_name(k));
}

static void test_tables(void **state)
{
	int asc = -1, ascq = -1;

	(void)state;
	assert_int_equal(classify_asc_lookup("medium NOT present", &asc, &ascq),
			 0);
	assert_int_equal(asc, 0x3a);
	assert_int_equal(classify_asc_lookup("Power on, reset, or bus device "
					     "reset occurred", &asc, &ascq), 0);
	assert_int_equal(asc, 0x29);
	assert_int_equal(classify_asc_lookup("nonsense", &asc, &ascq),
			 -ENOENT);
	assert_null(classify_sense_key_text(16));
	assert_string_equal(classify_sense_key_text(6), "Unit Attention");
	assert_string_equal(classify_kind_name(CLASSIFY_KIND_COUNT), "unknown");
}

/* A sense key whose Add. Sense never comes still goes out, at flush. */
static void test_sense_alone(void **state)
{
	static const char line[] =
		"[ 1.0] sd 0:0:0:0: [sdb] tag#0 Sense Key : Unit Attention "
		"[current] ";
	struct classify_incident inc[CLASSIFY_MAX_OUT];
	struct kmsg_record r;
	struct classify c;

	(void)state;
	classify_init(&c);
	assert_int_equal(kmsg_parse_line(line, sizeof(line) - 1, &r), 0);
	assert_int_equal(classify_feed(&c, &r, inc), 0);
	assert_int_equal(classify_flush(&c, inc), 1);
	assert_int_equal(inc[0].key, 6);
	assert_int_equal(inc[0].asc, -1);
	assert_string_equal(inc[0].dev, "sdb");
}

static int feed_line(struct classify *c, const char *line,
		     struct classify_incident *inc)
{
	struct kmsg_record r;

	assert_int_equal(kmsg_parse_line(line, strlen(line), &r), 0);
	return classify_feed(c, &r, inc);
}

/* An abort long after the last chain opens a new one with its timeout. */
static void test_chain_window(void **state)
{
	struct classify_incident inc[CLASSIFY_MAX_OUT];
	struct classify c;
	unsigned int first;

	(void)state;
	classify_init(&c);
	assert_int_equal(feed_line(&c, "[ 10.0] sd 0:0:0:0: [sda] tag#1 "
				   "uas_eh_abort_handler 0 uas-tag 2", inc), 2);
	assert_int_equal(inc[0].kind, CLASSIFY_TIMEOUT);
	first = inc[0].chain;
	assert_int_not_equal(first, 0);
	assert_int_equal(inc[1].chain, first);
	/* 500 s later: a new chain, and both parts in it */
	assert_int_equal(feed_line(&c, "[ 510.0] sd 0:0:0:0: [sda] tag#1 "
				   "uas_eh_abort_handler 0 uas-tag 2", inc), 2);
	assert_int_equal(inc[0].kind, CLASSIFY_TIMEOUT);
	assert_int_not_equal(inc[0].chain, first);
	assert_int_equal(inc[1].chain, inc[0].chain);
	/* a reset long after that joins no chain */
	assert_int_equal(feed_line(&c, "[ 900.0] usb 2-1: reset SuperSpeed USB "
				   "device number 2 using xhci_hcd", inc), 1);
	assert_int_equal(inc[0].chain, 0);
	/* another disk's timeout opens its own chain */
	assert_int_equal(feed_line(&c, "[ 901.0] sd 1:0:0:0: [sdb] tag#1 "
				   "timing out command, waited 180s", inc), 1);
	assert_string_equal(inc[0].dev, "sdb");
	assert_int_not_equal(inc[0].chain, 0);
	/* absurd numbers are not kept */
	assert_int_equal(feed_line(&c, "[ 902.0] usb 2-1: device descriptor "
				   "read/64, error -99999999999999999999", inc),
			 1);
	assert_int_equal(inc[0].err, -1);
	assert_int_equal(feed_line(&c, "[ 903.0] I/O error, dev sdb, sector "
				   "012", inc), 1);
	assert_int_equal(inc[0].sector, 12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_testbed),
		cmocka_unit_test(test_export),
		cmocka_unit_test(test_hc_died),
		cmocka_unit_test(test_offline),
		cmocka_unit_test(test_fs_error),
		cmocka_unit_test(test_old_sense),
		cmocka_unit_test(test_old_plain),
		cmocka_unit_test(test_enum_failure),
		cmocka_unit_test(test_kernel_formats),
		cmocka_unit_test(test_every_kind),
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_sense_alone),
		cmocka_unit_test(test_chain_window),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
