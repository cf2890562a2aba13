// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_modrec.c - unit tests of userspace/lib/modrec.c and of the record
 * formatter it shares with the module (module/ut_format.c): the text a
 * record from /dev/usbtrail becomes is the line the panic dump prints.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "modrec.h"

/* The medium-not-present DONE record of tests/testbed/10 (sda, LBA 10240). */
static struct usbtrail_record test_modrec_sense(void)
{
	struct usbtrail_record r;

	memset(&r, 0, sizeof(r));
	r.ts_ns = 11453272992ULL;
	r.seq = 142;
	r.type = USBTRAIL_REC_SCSI_DONE;
	r.flags = USBTRAIL_F_ERROR;
	r.u.scsi.devt = (8 << 8) | 0;	/* new_encode_dev(8:0) */
	r.u.scsi.host = 1;
	r.u.scsi.lba = 10240;
	r.u.scsi.len = 524288;
	r.u.scsi.result = 2;
	r.u.scsi.opcode = 0x2a;
	r.u.scsi.sense_key = 2;
	r.u.scsi.asc = 0x3a;
	memcpy(r.u.scsi.disk, "sda", 3);
	return r;
}

static void test_modrec_format_sense(void **state)
{
	struct usbtrail_record r = test_modrec_sense(), p;
	char line[256];
	int n;

	(void)state;
	assert_int_equal(modrec_parse(&r, sizeof(r), &p), USBTRAIL_RECORD_SIZE);
	n = modrec_format(&p, line, sizeof(line));
	assert_string_equal(line,
		"142 11.453272992 scsi-done disk=sda dev=8:0 scsi=1:0:0:0 tag=0 op=0x2a lba=10240 len=524288 result=0x2 sense=02/3a/00");
	assert_int_equal(n, (int)strlen(line));
}

static void test_modrec_format_truncates(void **state)
{
	struct usbtrail_record r = test_modrec_sense();
	char line[16];

	(void)state;
	assert_int_equal(modrec_format(&r, line, sizeof(line)), 15);
	assert_string_equal(line, "142 11.45327299");
}

static void test_modrec_format_minor_above_255(void **state)
{
	struct usbtrail_record r = test_modrec_sense();
	char line[256];

	(void)state;
	/* new_encode_dev(259:300): minor's high bits above bit 19 */
	r.u.scsi.devt = (300 & 0xff) | (259 << 8) | ((300 & ~0xff) << 12);
	modrec_format(&r, line, sizeof(line));
	assert_non_null(strstr(line, " dev=259:300 "));
}

static void test_modrec_parse_bad(void **state)
{
	struct usbtrail_record r = test_modrec_sense(), p;
	unsigned char buf[USBTRAIL_RECORD_SIZE + 1];

	(void)state;
	assert_int_equal(modrec_parse(&r, sizeof(r) - 1, &p), -EMSGSIZE);
	r.type = USBTRAIL_REC_TYPE_MAX;
	assert_int_equal(modrec_parse(&r, sizeof(r), &p), -EINVAL);
	r.type = 0;
	assert_int_equal(modrec_parse(&r, sizeof(r), &p), -EINVAL);
	/* any alignment */
	r = test_modrec_sense();
	memcpy(buf + 1, &r, sizeof(r));
	assert_int_equal(modrec_parse(buf + 1, sizeof(r), &p), sizeof(r));
	assert_int_equal(p.u.scsi.lba, 10240);
}

static void test_modrec_type_names(void **state)
{
	(void)state;
	assert_string_equal(modrec_type_name(USBTRAIL_REC_EH_START),
			    "eh-start");
	assert_string_equal(modrec_type_name(USBTRAIL_REC_TYPE_MAX), "?");
	assert_string_equal(modrec_type_name(9999), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_modrec_format_sense),
		cmocka_unit_test(test_modrec_format_truncates),
		cmocka_unit_test(test_modrec_format_minor_above_255),
		cmocka_unit_test(test_modrec_parse_bad),
		cmocka_unit_test(test_modrec_type_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
