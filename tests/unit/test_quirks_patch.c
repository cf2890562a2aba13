// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_quirks_patch.c - unit tests of userspace/lib/quirks_patch.c: the
 * UNUSUAL_DEV entry in the tables' layout and the diff that puts it in
 * order, past a conditional block, or adds its flag to an entry there.
 * tests/host/36-quirks-patch.sh applies the diffs to the real files of
 * four kernel trees.
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

#include "quirks_patch.h"

/* the shapes of unusual_devs.h: a first comment, #ifdef, "0)," entries */
static const char table[] =
	"/* header */\n"				/* 1 */
	"\n"
	"/* Reported by A <a@example.org> */\n"
	"UNUSUAL_DEV(  0x03eb, 0x2002, 0x0100, 0x0100,\n"
	"\t\t\"ATMEL\",\n"				/* 5 */
	"\t\t\"SND1 Storage\",\n"
	"\t\tUSB_SC_DEVICE, USB_PR_DEVICE, NULL,\n"
	"\t\tUS_FL_IGNORE_RESIDUE),\n"
	"\n"
	"#ifdef NO_SDDR09\n"				/* 10 */
	"UNUSUAL_DEV(  0x04e6, 0x0005, 0x0100, 0x0208,\n"
	"\t\t\"SCM\",\n"
	"\t\t\"eUSB\",\n"
	"\t\tUSB_SC_SCSI, USB_PR_DEVICE, NULL, 0),\n"
	"#endif\n"					/* 15 */
	"\n"
	"UNUSUAL_DEV(  0x0525, 0xa140, 0x0100, 0x0100,\n"
	"\t\t\"Netchip\",\n"
	"\t\t\"USB Clik! 40\",\n"
	"\t\tUSB_SC_8070, USB_PR_DEVICE, NULL,\n"	/* 20 */
	"\t\tUS_FL_FIX_INQUIRY ),\n"
	"\n"
	"/* tail */\n";

static char *diff(const struct quirks_entry *e, struct quirks_patch_stat *st,
		  int *err)
{
	struct util_str b = { 0 };

	*err = quirks_patch_diff(&b, table, strlen(table),
				 "drivers/usb/storage/unusual_devs.h", e, st);
	return b.s;
}

static void test_quirks_patch_entry(void **state)
{
	struct quirks_entry e = { .vid = 0x5e1f, .pid = 0x0c31,
				  .bcd_max = 0x9999, .vendor = "A \"B\"\\",
				  .product = "",
				  .flags = QUIRKS_FL_IGNORE_UAS |
					   QUIRKS_FL_NO_ATA_1X,
				  .comment = "Reported-by: N <n@example.org>" };
	struct util_str b = { 0 };

	(void)state;
	assert_int_equal(quirks_entry_format(&b, &e), 0);
	assert_string_equal(b.s,
		"/* Reported-by: N <n@example.org> */\n"
		"UNUSUAL_DEV(0x5e1f, 0x0c31, 0x0000, 0x9999,\n"
		"\t\t\"A \\\"B\\\"\\\\\",\n"
		"\t\t\"\",\n"
		"\t\tUSB_SC_DEVICE, USB_PR_DEVICE, NULL,\n"
		"\t\tUS_FL_IGNORE_UAS | US_FL_NO_ATA_1X),\n");
	free(b.s);
	memset(&b, 0, sizeof(b));
	e.flags = 0x00000002ul;	/* US_FL_NEED_OVERRIDE: not a quirk */
	assert_int_equal(quirks_entry_format(&b, &e), -EINVAL);
	e.flags = 0;
	assert_int_equal(quirks_entry_format(&b, &e), -EINVAL);
	free(b.s);
	assert_string_equal(quirks_patch_file(QUIRKS_TABLE_UAS), "unusual_uas.h");
	assert_string_equal(quirks_patch_file(QUIRKS_TABLE_DEVS),
			    "unusual_devs.h");
}

/* after the greatest VID:PID below */
static void test_quirks_patch_middle(void **state)
{
	struct quirks_entry e = { .vid = 0x03eb, .pid = 0x3000,
				  .bcd_max = 0x9999, .vendor = "V",
				  .product = "P", .flags = QUIRKS_FL_NO_ATA_1X };
	struct quirks_patch_stat st;
	int err;
	char *d = diff(&e, &st, &err);

	(void)state;
	assert_int_equal(err, 0);
	assert_string_equal(d,
		"diff --git a/drivers/usb/storage/unusual_devs.h "
		"b/drivers/usb/storage/unusual_devs.h\n"
		"--- a/drivers/usb/storage/unusual_devs.h\n"
		"+++ b/drivers/usb/storage/unusual_devs.h\n"
		"@@ -6,6 +6,12 @@\n"
		" \t\t\"SND1 Storage\",\n"
		" \t\tUSB_SC_DEVICE, USB_PR_DEVICE, NULL,\n"
		" \t\tUS_FL_IGNORE_RESIDUE),\n"
		"+\n"
		"+UNUSUAL_DEV(0x03eb, 0x3000, 0x0000, 0x9999,\n"
		"+\t\t\"V\",\n"
		"+\t\t\"P\",\n"
		"+\t\tUSB_SC_DEVICE, USB_PR_DEVICE, NULL,\n"
		"+\t\tUS_FL_NO_ATA_1X),\n"
		"\x20\n"	/* an empty line, as context */
		" #ifdef NO_SDDR09\n"
		" UNUSUAL_DEV(  0x04e6, 0x0005, 0x0100, 0x0208,\n");
	assert_int_equal(st.added, 6);
	assert_int_equal(st.removed, 0);
	assert_int_equal(st.line, 9);
	assert_int_equal(st.changed_entry, 0);
	free(d);
}

/* below it inside #ifdef: after its #endif, not in the block */
static void test_quirks_patch_conditional(void **state)
{
	struct quirks_entry e = { .vid = 0x04e6, .pid = 0x0006,
				  .bcd_max = 0x9999, .vendor = "V",
				  .product = "P", .flags = QUIRKS_FL_NO_ATA_1X };
	struct quirks_patch_stat st;
	int err;
	char *d = diff(&e, &st, &err);

	(void)state;
	assert_int_equal(err, 0);
	assert_non_null(strstr(d, "@@ -13,6 +13,12 @@\n"
		" \t\t\"eUSB\",\n"
		" \t\tUSB_SC_SCSI, USB_PR_DEVICE, NULL, 0),\n"
		" #endif\n"
		"+\n"
		"+UNUSUAL_DEV(0x04e6, 0x0006,"));
	free(d);
}

/* the smallest: before the first entry and its comment */
static void test_quirks_patch_first(void **state)
{
	struct quirks_entry e = { .vid = 0x0001, .pid = 0x0002,
				  .bcd_max = 0x9999, .vendor = "V",
				  .product = "P", .flags = QUIRKS_FL_NO_ATA_1X };
	struct quirks_patch_stat st;
	int err;
	char *d = diff(&e, &st, &err);

	(void)state;
	assert_int_equal(err, 0);
	assert_non_null(strstr(d, "@@ -1,5 +1,11 @@\n"
		" /* header */\n"
		"\x20\n"
		"+UNUSUAL_DEV(0x0001, 0x0002, 0x0000, 0x9999,\n"));
	assert_non_null(strstr(d, "+\t\tUS_FL_NO_ATA_1X),\n"
		"+\n"
		" /* Reported by A <a@example.org> */\n"));
	free(d);
}

/* the device has an entry: the flag joins it; "0)," replaced */
static void test_quirks_patch_existing(void **state)
{
	struct quirks_entry e = { .vid = 0x0525, .pid = 0xa140,
				  .bcd_min = 0x0100, .bcd_max = 0x0100,
				  .vendor = "V", .product = "P",
				  .flags = QUIRKS_FL_IGNORE_UAS };
	struct quirks_patch_stat st;
	int err;
	char *d = diff(&e, &st, &err);

	(void)state;
	assert_int_equal(err, 0);
	assert_non_null(strstr(d, "-\t\tUS_FL_FIX_INQUIRY ),\n"
			       "+\t\tUS_FL_FIX_INQUIRY | US_FL_IGNORE_UAS ),\n"));
	assert_int_equal(st.changed_entry, 1);
	assert_int_equal(st.added, 1);
	assert_int_equal(st.removed, 1);
	free(d);

	e.vid = 0x04e6;
	e.pid = 0x0005;
	d = diff(&e, &st, &err);
	assert_int_equal(err, 0);
	assert_non_null(strstr(d,
		"-\t\tUSB_SC_SCSI, USB_PR_DEVICE, NULL, 0),\n"
		"+\t\tUSB_SC_SCSI, USB_PR_DEVICE, NULL, US_FL_IGNORE_UAS),\n"));
	free(d);

	/* outside its bcdDevice range: an entry of its own */
	e.bcd_min = 0x0300;
	d = diff(&e, &st, &err);
	assert_int_equal(err, 0);
	assert_int_equal(st.changed_entry, 0);
	free(d);

	/* the flag is there already */
	e.vid = 0x03eb;
	e.pid = 0x2002;
	e.bcd_min = 0x0100;
	e.flags = QUIRKS_FL_IGNORE_RESIDUE;
	d = diff(&e, &st, &err);
	assert_int_equal(err, -EEXIST);
	free(d);
}

static void test_quirks_patch_bad(void **state)
{
	struct quirks_entry e = { .vid = 1, .pid = 2, .vendor = "",
				  .product = "", .flags = QUIRKS_FL_NO_ATA_1X };
	struct quirks_patch_stat st;
	struct util_str b = { 0 };

	(void)state;
	assert_int_equal(quirks_patch_diff(&b, "int x;\n", 7, "f", &e, &st),
			 -ENOENT);
	assert_int_equal(quirks_patch_diff(&b, table, strlen(table) - 1, "f",
					   &e, &st), -EINVAL);
	assert_int_equal(quirks_patch_diff(&b, "", 0, "f", &e, &st), -EINVAL);
	assert_int_equal(quirks_patch_diff(&b, "UNUSUAL_DEV(\0\n", 14, "f", &e,
					   &st), -EINVAL);
	/* an entry cut off before its "),": not an entry */
	{
		static const char cut[] = "UNUSUAL_DEV(0x1, 0x2, 0x0, 0x1,\n";

		assert_int_equal(quirks_patch_diff(&b, cut, strlen(cut), "f",
						   &e, &st), -ENOENT);
	}
	free(b.s);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quirks_patch_entry),
		cmocka_unit_test(test_quirks_patch_middle),
		cmocka_unit_test(test_quirks_patch_conditional),
		cmocka_unit_test(test_quirks_patch_first),
		cmocka_unit_test(test_quirks_patch_existing),
		cmocka_unit_test(test_quirks_patch_bad),
	};

	return cmocka_run_group_tests_name("quirks_patch", tests, NULL, NULL);
}
