// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_repro_dir.c - unit tests of userspace/repro_dir.c: of the run
 * directories of stress in a directory, only those made since the
 * snapshot are removed, and only if all they hold is files and
 * directories; the user's files stay.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "repro_dir.h"

static char top[PATH_MAX];

static void mk(const char *rel, bool dir)
{
	char p[PATH_MAX + 64];
	int fd;

	snprintf(p, sizeof(p), "%s/%s", top, rel);
	if (dir) {
		assert_int_equal(mkdir(p, 0755), 0);
		return;
	}
	fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "x", 1), 1);
	close(fd);
}

static bool there(const char *rel)
{
	char p[PATH_MAX + 64];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", top, rel);
	return !lstat(p, &st);
}

static void test_repro_dir_clean(void **state)
{
	struct repro_dir *d = calloc(1, sizeof(*d));
	char kept[NAME_MAX + 1], p[PATH_MAX + 64];

	(void)state;
	snprintf(top, sizeof(top), "%s/utrd.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(top));
	mk("mine.txt", false);
	mk("usbtrail-stress-old", true);
	mk("usbtrail-stress-old/" STRESS_FS_MANIFEST, false);
	assert_int_equal(repro_dir_snapshot(d, top), 0);
	assert_int_equal(d->nbefore, 1);
	assert_int_equal(repro_dir_clean(d, kept, sizeof(kept)), 0);

	/* a stopped run's tree; one with a symlink; one with no manifest */
	mk("usbtrail-stress-a", true);
	mk("usbtrail-stress-a/" STRESS_FS_MANIFEST, false);
	mk("usbtrail-stress-a/d000", true);
	mk("usbtrail-stress-a/d000/d00", true);
	mk("usbtrail-stress-a/d000/d00/f0000000.dat", false);
	mk("usbtrail-stress-b", true);
	mk("usbtrail-stress-b/" STRESS_FS_MANIFEST, false);
	snprintf(p, sizeof(p), "%s/usbtrail-stress-b/link", top);
	assert_int_equal(symlink("../mine.txt", p), 0);
	mk("usbtrail-stress-c", true);
	mk("usbtrail-stress-c/f", false);
	assert_int_equal(repro_dir_clean(d, kept, sizeof(kept)), 1);
	assert_false(there("usbtrail-stress-a"));
	assert_true(there("usbtrail-stress-b/link"));
	assert_string_equal(kept, "usbtrail-stress-b");
	assert_true(there("usbtrail-stress-c/f"));
	assert_true(there("usbtrail-stress-old/" STRESS_FS_MANIFEST));
	assert_true(there("mine.txt"));

	/* no such directory: an error, nothing else */
	strcat(d->path, "/nothing");
	assert_int_equal(repro_dir_clean(d, kept, sizeof(kept)), -ENOENT);
	assert_int_equal(repro_dir_snapshot(d, d->path), -ENOENT);
	snprintf(p, sizeof(p), "rm -rf '%s'", top);
	assert_int_equal(system(p), 0);
	free(d);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_repro_dir_clean),
	};

	return cmocka_run_group_tests_name("repro_dir", tests, NULL, NULL);
}
