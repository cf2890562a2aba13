// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_devspec.c - unit tests of userspace/lib/devspec.c: the device names
 * "usbtrail uas" accepts (sdX, USB port paths, VID:PID).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "devspec.h"

static void test_devspec_disk(void **state)
{
	struct devspec d;

	(void)state;
	assert_int_equal(devspec_parse("sda", &d), 0);
	assert_int_equal(d.kind, DEVSPEC_DISK);
	assert_string_equal(d.disk, "sda");
	assert_int_equal(devspec_parse("/dev/sdab", &d), 0);
	assert_int_equal(d.kind, DEVSPEC_DISK);
	assert_string_equal(d.disk, "sdab");
	/* a partition names its disk: sysfs's link leads through it */
	assert_int_equal(devspec_parse("sdc1", &d), 0);
	assert_string_equal(d.disk, "sdc1");
	assert_int_equal(devspec_parse("/dev/sdab12", &d), 0);
	assert_string_equal(d.disk, "sdab12");
}

static void test_devspec_usb_path(void **state)
{
	struct devspec d;

	(void)state;
	assert_int_equal(devspec_parse("2-1", &d), 0);
	assert_int_equal(d.kind, DEVSPEC_USB_PATH);
	assert_int_equal(d.bus, 2);
	assert_int_equal(d.nports, 1);
	assert_int_equal(d.ports[0], 1);

	assert_int_equal(devspec_parse("10-1.4.12", &d), 0);
	assert_int_equal(d.bus, 10);
	assert_int_equal(d.nports, 3);
	assert_int_equal(d.ports[0], 1);
	assert_int_equal(d.ports[1], 4);
	assert_int_equal(d.ports[2], 12);

	/* Six ports deep is the limit of the USB topology. */
	assert_int_equal(devspec_parse("1-1.2.3.4.5.6", &d), 0);
	assert_int_equal(d.nports, 6);
}

static void test_devspec_vid_pid(void **state)
{
	struct devspec d;

	(void)state;
	assert_int_equal(devspec_parse("174c:55aa", &d), 0);
	assert_int_equal(d.kind, DEVSPEC_VID_PID);
	assert_int_equal(d.vid, 0x174c);
	assert_int_equal(d.pid, 0x55aa);
	assert_int_equal(devspec_parse("BDA:9210", &d), 0);
	assert_int_equal(d.vid, 0x0bda);
	assert_int_equal(d.pid, 0x9210);
}

static void test_devspec_bad(void **state)
{
	static const char *const bad[] = {
		"", "sd", "sd1", "sda0", "sda1b", "sdA", "/dev/sd", "/dev/nvme0n1", "hda",
		"sdabcdefghijklmn", "dev/sda",
		"2", "2-", "-1", "0-1", "2-0", "02-1", "2-1.", "2-1..2",
		"2-1.2.3.4.5.6.7", "2-256", "1000-1", "2-1:1.0", "2-1 ",
		"174c", "174c:", ":55aa", "12345:1", "174c:55aag", "g:1",
		"174c:55aa:1", " sda",
	};
	struct devspec d = { .kind = DEVSPEC_VID_PID, .vid = 0x1234 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (devspec_parse(bad[i], &d) != -EINVAL)
			fail_msg("accepted '%s'", bad[i]);
		/* Output is written only on success. */
		assert_int_equal(d.kind, DEVSPEC_VID_PID);
		assert_int_equal(d.vid, 0x1234);
	}
	assert_int_equal(devspec_parse(NULL, &d), -EINVAL);
	assert_int_equal(devspec_parse("sda", NULL), -EINVAL);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_devspec_disk),
		cmocka_unit_test(test_devspec_usb_path),
		cmocka_unit_test(test_devspec_vid_pid),
		cmocka_unit_test(test_devspec_bad),
	};

	return cmocka_run_group_tests_name("devspec", tests, NULL, NULL);
}
