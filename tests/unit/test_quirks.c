// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_quirks.c - unit tests of userspace/lib/quirks.c: the usb-storage
 * "quirks" parameter as usb_stor_adjust_quirks() reads it, the kernel
 * command line, and the built-in unusual_uas.h table.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "quirks.h"

static void test_quirks_param(void **state)
{
	unsigned long f = 0;
	char entry[32];

	(void)state;
	assert_int_equal(quirks_param_lookup("46f4:0003:u", 0x46f4, 3, &f,
					     entry, sizeof(entry)), 1);
	assert_int_equal(f, QUIRKS_FL_IGNORE_UAS);
	assert_string_equal(entry, "46f4:0003:u");

	/* second entry, upper case, unknown letters ignored, 0x prefix */
	assert_int_equal(quirks_param_lookup("1234:5678:u,0x174c:55AA:TzU",
					     0x174c, 0x55aa, &f, entry,
					     sizeof(entry)), 1);
	assert_int_equal(f, QUIRKS_FL_NO_ATA_1X | QUIRKS_FL_IGNORE_UAS);
	assert_string_equal(entry, "0x174c:55AA:TzU");

	/* the first match wins */
	assert_int_equal(quirks_param_lookup("174c:55aa:,174c:55aa:u", 0x174c,
					     0x55aa, &f, NULL, 0), 1);
	assert_int_equal(f, 0);

	/* no match; a PID that is only a prefix does not match */
	assert_int_equal(quirks_param_lookup("46f4:00031:u", 0x46f4, 3, &f,
					     NULL, 0), 0);
	assert_int_equal(quirks_param_lookup("", 1, 2, &f, NULL, 0), 0);
	assert_int_equal(quirks_param_lookup("garbage,,:", 1, 2, &f, NULL, 0),
			 0);
	/* the sysfs value ends in a newline */
	assert_int_equal(quirks_param_lookup("04e8:61f5:u\n", 0x04e8, 0x61f5,
					     &f, entry, sizeof(entry)), 1);
	assert_int_equal(f, QUIRKS_FL_IGNORE_UAS);
	assert_string_equal(entry, "04e8:61f5:u");
	/* a short entry buffer truncates */
	assert_int_equal(quirks_param_lookup("04e8:61f5:u", 0x04e8, 0x61f5,
					     &f, entry, 5), 1);
	assert_string_equal(entry, "04e8");
	assert_int_equal(quirks_param_lookup(NULL, 1, 2, &f, NULL, 0),
			 -EINVAL);
}

static void test_quirks_letters(void **state)
{
	static const struct { char c; unsigned long f; } map[] = {
		{ 'f', QUIRKS_FL_NO_REPORT_OPCODES },
		{ 'g', QUIRKS_FL_MAX_SECTORS_240 },
		{ 't', QUIRKS_FL_NO_ATA_1X },
		{ 'u', QUIRKS_FL_IGNORE_UAS },
		{ 'k', QUIRKS_FL_NO_SAME },
	};
	unsigned long f;
	char param[16];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		snprintf(param, sizeof(param), "1:2:%c", map[i].c);
		assert_int_equal(quirks_param_lookup(param, 1, 2, &f, NULL, 0),
				 1);
		assert_int_equal(f, map[i].f);
		assert_true(map[i].f & QUIRKS_PARAM_MASK);
	}
	/* BROKEN_FUA has no letter and is not in the parameter's mask */
	assert_int_equal(quirks_flag_info(QUIRKS_FL_BROKEN_FUA)->letter, 0);
	assert_false(QUIRKS_FL_BROKEN_FUA & QUIRKS_PARAM_MASK);
	assert_null(quirks_flag_info(0x2));
	assert_int_equal(quirks_flag_from_name("NO_ATA_1X"),
			 QUIRKS_FL_NO_ATA_1X);
	assert_int_equal(quirks_flag_from_name("NOPE"), 0);
}

/*
 * Every letter of usb_stor_adjust_quirks() (5.10 to 7.3), and the driver
 * that acts on each flag as uas.c, uas-detect.h, usb.c, scsiglue.c and
 * transport.c show it; the effect text must say so.
 */
static void test_quirks_drivers(void **state)
{
#define BOTH (QUIRKS_BY_UAS | QUIRKS_BY_USB_STORAGE)
#define UAS QUIRKS_BY_UAS
#define BOT QUIRKS_BY_USB_STORAGE
	static const struct {
		char c;
		unsigned long f;
		unsigned int drivers;
	} kernel[] = {
		{ 'a', QUIRKS_FL_SANE_SENSE, BOT },
		{ 'b', QUIRKS_FL_BAD_SENSE, BOT },
		{ 'c', QUIRKS_FL_FIX_CAPACITY, BOTH },
		{ 'd', QUIRKS_FL_NO_READ_DISC_INFO, BOT },
		{ 'e', QUIRKS_FL_NO_READ_CAPACITY_16, BOTH },
		{ 'f', QUIRKS_FL_NO_REPORT_OPCODES, UAS },
		{ 'g', QUIRKS_FL_MAX_SECTORS_240, UAS },
		{ 'h', QUIRKS_FL_CAPACITY_HEURISTICS, BOTH },
		{ 'i', QUIRKS_FL_IGNORE_DEVICE, BOT },
		{ 'j', QUIRKS_FL_NO_REPORT_LUNS, UAS },
		{ 'k', QUIRKS_FL_NO_SAME, UAS },
		{ 'l', QUIRKS_FL_NOT_LOCKABLE, BOT },
		{ 'm', QUIRKS_FL_MAX_SECTORS_64, BOTH },
		{ 'n', QUIRKS_FL_INITIAL_READ10, BOT },
		{ 'o', QUIRKS_FL_CAPACITY_OK, BOT },
		{ 'p', QUIRKS_FL_WRITE_CACHE, BOT },
		{ 'r', QUIRKS_FL_IGNORE_RESIDUE, BOT },
		{ 's', QUIRKS_FL_SINGLE_LUN, BOT },
		{ 't', QUIRKS_FL_NO_ATA_1X, BOTH },
		{ 'u', QUIRKS_FL_IGNORE_UAS, BOTH },
		{ 'w', QUIRKS_FL_NO_WP_DETECT, BOTH },
		{ 'y', QUIRKS_FL_ALWAYS_SYNC, BOTH },
	};
#undef BOTH
#undef UAS
#undef BOT
	const struct quirks_flag_info *qi, *t;
	size_t i, nletters = 0;
	unsigned long f;
	char param[16];

	(void)state;
	for (i = 0; i < sizeof(kernel) / sizeof(kernel[0]); i++) {
		snprintf(param, sizeof(param), "1:2:%c", kernel[i].c);
		assert_int_equal(quirks_param_lookup(param, 1, 2, &f, NULL, 0),
				 1);
		assert_int_equal(f, kernel[i].f);
		qi = quirks_flag_info(kernel[i].f);
		assert_non_null(qi);
		assert_int_equal(qi->letter, kernel[i].c);
		assert_int_equal(qi->drivers, kernel[i].drivers);
	}
	/* letters the kernel does not know are ignored, as it does */
	assert_int_equal(quirks_param_lookup("1:2:qvxz", 1, 2, &f, NULL, 0),
			 1);
	assert_int_equal(f, 0);

	/* every flag the table knows, by its bit */
	for (i = 0; i < sizeof(unsigned long) * 8; i++) {
		bool uas_no, bot_no;

		t = quirks_flag_info(1ul << i);
		if (!t)
			continue;
		uas_no = strstr(t->effect, "uas ignores it") ||
			 strstr(t->effect, "uas does not check it");
		bot_no = strstr(t->effect, "usb-storage ignores it") ||
			 strstr(t->effect, "usb-storage never sends");
		nletters += t->letter != 0;
		assert_true(t->drivers);
		assert_int_equal(uas_no, !(t->drivers & QUIRKS_BY_UAS));
		assert_int_equal(bot_no,
				 !(t->drivers & QUIRKS_BY_USB_STORAGE));
	}
	assert_int_equal(nletters, sizeof(kernel) / sizeof(kernel[0]));

	/* i: uas_probe() never looks at IGNORE_DEVICE */
	qi = quirks_flag_info(QUIRKS_FL_IGNORE_DEVICE);
	assert_non_null(strstr(qi->effect, "still binds to uas"));
	/* y: a write-back cache is assumed, so flushes sync; not per write */
	qi = quirks_flag_info(QUIRKS_FL_ALWAYS_SYNC);
	assert_non_null(strstr(qi->effect, "SYNCHRONIZE CACHE"));
	assert_non_null(strstr(qi->effect, "write-back"));
	assert_null(strstr(qi->effect, "every write"));
}

static void test_quirks_cmdline(void **state)
{
	char v[64];

	(void)state;
	assert_int_equal(quirks_cmdline_value(
		"BOOT_IMAGE=/vmlinuz ro usb-storage.quirks=46f4:0003:u quiet",
		v, sizeof(v)), 1);
	assert_string_equal(v, "46f4:0003:u");
	/* underscore form, quotes, and the last one wins */
	assert_int_equal(quirks_cmdline_value(
		"usb-storage.quirks=1:2:u \"usb_storage.quirks=174c:55aa:\" x",
		v, sizeof(v)), 1);
	assert_string_equal(v, "174c:55aa:");
	assert_int_equal(quirks_cmdline_value("usb-storage.quirks=\"a:b:t\"",
					      v, sizeof(v)), 1);
	assert_string_equal(v, "a:b:t");
	assert_int_equal(quirks_cmdline_value("root=/dev/sda1 uas.foo=1", v,
					      sizeof(v)), 0);
	assert_int_equal(quirks_cmdline_value("xusb-storage.quirks=1:2:u", v,
					      sizeof(v)), 0);
	assert_int_equal(quirks_cmdline_value(
		"usb-storage.quirks=0123456789:0123456789:u", v, 8),
		-ENAMETOOLONG);
	assert_int_equal(quirks_cmdline_value(NULL, v, sizeof(v)), -EINVAL);
}

static void test_quirks_builtin(void **state)
{
	const char *src = NULL;
	unsigned long f = 0;

	(void)state;
	assert_int_equal(quirks_builtin_lookup(QUIRKS_TABLE_UAS, 0x152d, 0x0578, 0x0100, &f,
					       &src), 1);
	assert_int_equal(f, QUIRKS_FL_BROKEN_FUA);
	assert_non_null(strstr(src, "unusual_uas.h"));
	assert_int_equal(quirks_builtin_lookup(QUIRKS_TABLE_UAS, 0x152d, 0x0567, 0x5203, &f,
					       NULL), 1);
	assert_int_equal(f, QUIRKS_FL_BROKEN_FUA | QUIRKS_FL_NO_REPORT_OPCODES);
	assert_int_equal(quirks_builtin_lookup(QUIRKS_TABLE_UAS, 0x0781, 0x55e8, 0x0001, &f,
					       NULL), 1);
	assert_int_equal(f, QUIRKS_FL_IGNORE_UAS);
	/* Apricorn 0984:0301 only for bcdDevice 0x0128 */
	assert_int_equal(quirks_builtin_lookup(QUIRKS_TABLE_UAS, 0x0984, 0x0301, 0x0128, &f,
					       NULL), 1);
	assert_int_equal(quirks_builtin_lookup(QUIRKS_TABLE_UAS, 0x0984, 0x0301, 0x0129, &f,
					       NULL), 0);
	/* Initio up to 0x0309 */
	assert_int_equal(quirks_builtin_lookup(QUIRKS_TABLE_UAS, 0x13fd, 0x3940, 0x0310, &f,
					       NULL), 0);
	assert_int_equal(quirks_builtin_lookup(QUIRKS_TABLE_UAS, 0x46f4, 0x0003, 0, &f, NULL),
			 0);
	assert_int_equal(quirks_builtin_lookup(QUIRKS_TABLE_UAS, 1, 2, 3, NULL,
					       NULL), -EINVAL);

	/*
	 * usb-storage's IGNORE_UAS entries (unusual_devs.h), apart from
	 * uas's: VIA VL817 is in usb-storage's table only
	 */
	assert_int_equal(quirks_builtin_lookup(QUIRKS_TABLE_UAS, 0x2109,
					       0x0715, 0x0100, &f, NULL), 0);
	assert_int_equal(quirks_builtin_lookup(QUIRKS_TABLE_DEVS, 0x2109,
					       0x0715, 0x0100, &f, &src), 1);
	assert_int_equal(f, QUIRKS_FL_IGNORE_UAS);
	assert_non_null(strstr(src, "unusual_devs.h"));
	/* JMicron 357d:7788: in both, with each table's own flags */
	assert_int_equal(quirks_builtin_lookup(QUIRKS_TABLE_DEVS, 0x357d,
					       0x7788, 0x0114, &f, NULL), 1);
	assert_int_equal(f, QUIRKS_FL_BROKEN_FUA | QUIRKS_FL_IGNORE_UAS);
	assert_int_equal(quirks_builtin_lookup(QUIRKS_TABLE_DEVS, 0x357d,
					       0x7788, 0x0115, &f, NULL), 0);
	assert_int_equal(quirks_builtin_lookup(QUIRKS_TABLE_UAS, 0x357d,
					       0x7788, 0x0115, &f, NULL), 1);
	assert_int_equal(f, QUIRKS_FL_NO_REPORT_OPCODES | QUIRKS_FL_IGNORE_UAS);
	/* the usb-storage table holds only what concerns UAS */
	assert_int_equal(quirks_builtin_lookup(QUIRKS_TABLE_DEVS, 0x0781,
					       0x55e8, 0x0001, &f, NULL), 0);
}

static void test_quirks_format(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(quirks_format_flags(QUIRKS_FL_IGNORE_UAS |
					     QUIRKS_FL_NO_ATA_1X, buf,
					     sizeof(buf)), 0);
	assert_string_equal(buf, "NO_ATA_1X|IGNORE_UAS");
	assert_int_equal(quirks_format_flags(0, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	assert_int_equal(quirks_format_flags(QUIRKS_FL_IGNORE_UAS |
					     QUIRKS_FL_NO_ATA_1X, buf, 12),
			 -ENOSPC);
	assert_string_equal(buf, "NO_ATA_1X");
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quirks_param),
		cmocka_unit_test(test_quirks_letters),
		cmocka_unit_test(test_quirks_drivers),
		cmocka_unit_test(test_quirks_cmdline),
		cmocka_unit_test(test_quirks_builtin),
		cmocka_unit_test(test_quirks_format),
	};

	return cmocka_run_group_tests_name("quirks", tests, NULL, NULL);
}
