// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_owner.c - unit tests of userspace/owner.c: which SUDO_UID and
 * SUDO_GID are believed, and that owner_open() follows no link and gives
 * what it makes to the owner set.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "owner.h"

static void test_owner_sudo(void **state)
{
	struct owner o = { 1, 2 };

	(void)state;
	assert_int_equal(owner_from_sudo(0, "1000", "1001", &o), 0);
	assert_int_equal(o.uid, 1000);
	assert_int_equal(o.gid, 1001);
	assert_int_equal(owner_from_sudo(0, "65534", "0", &o), 0);
	assert_int_equal(o.uid, 65534);
	assert_int_equal(o.gid, 0);	/* a user whose group is root's */
	/* the largest id; (uid_t)-1 means "leave it" to chown() */
	assert_int_equal(owner_from_sudo(0, "4294967294", "7", &o), 0);
	assert_true(o.uid == (uid_t)4294967294u);
}

static void test_owner_sudo_group_bad(void **state)
{
	static const char *const bad[] = {
		"", "x", "12x", "-1", "+5", " 5", "0x10", "4294967295",
		"99999999999999999999",
	};
	struct owner o;
	size_t i;

	(void)state;
	assert_int_equal(owner_from_sudo(0, "1000", NULL, &o), 0);
	assert_true(o.gid == (gid_t)-1);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		o.gid = 5;
		assert_int_equal(owner_from_sudo(0, "1000", bad[i], &o), 0);
		assert_true(o.gid == (gid_t)-1);
	}
}

static void test_owner_sudo_ignored(void **state)
{
	static const char *const bad[] = {
		"", "0", "00", "x", "12x", "-1", "+5", " 5", "5 ", "0x10",
		"4294967295", "99999999999999999999",
	};
	struct owner o = { 1, 2 };
	size_t i;

	(void)state;
	assert_int_equal(owner_from_sudo(1000, "1000", "1000", &o), -ENOENT);
	assert_int_equal(owner_from_sudo(0, NULL, "1000", &o), -ENOENT);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(owner_from_sudo(0, bad[i], "1000", &o),
				 -ENOENT);
	/* untouched */
	assert_int_equal(o.uid, 1);
	assert_int_equal(o.gid, 2);
}

static void test_owner_open(void **state)
{
	char dir[] = "/tmp/test_owner.XXXXXX";
	char file[64], link[64];
	struct owner self = { getuid(), getgid() };
	/* not oneself, whoever runs the test */
	struct owner other = { getuid() == 65534 ? 65533 : 65534, 65534 };
	struct stat st;
	int fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/f", dir);
	snprintf(link, sizeof(link), "%s/l", dir);

	/* no owner: a plain open() */
	owner_set(NULL);
	fd = owner_open(file, O_WRONLY | O_CREAT | O_EXCL, 0640);
	assert_true(fd >= 0);
	assert_int_equal(fcntl(fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	close(fd);

	/* a link is not followed, whoever the owner */
	assert_int_equal(symlink(file, link), 0);
	assert_int_equal(owner_open(link, O_WRONLY, 0), -ELOOP);
	assert_int_equal(owner_open(link, O_WRONLY | O_CREAT | O_EXCL, 0644),
			 -EEXIST);

	/* to oneself, fchown() always works */
	owner_set(&self);
	fd = owner_open(file, O_WRONLY, 0);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_uid, self.uid);
	close(fd);
	assert_int_equal(owner_error(), 0);
	assert_int_equal(owner_open(link, O_RDONLY, 0), -ELOOP);

	/* to another: done as root, else kept for owner_error() */
	owner_set(&other);
	fd = owner_open(file, O_WRONLY, 0);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	close(fd);
	if (geteuid() == 0) {
		assert_int_equal(st.st_uid, other.uid);
		assert_int_equal(st.st_gid, other.gid);
		assert_int_equal(owner_error(), 0);
	} else {
		assert_int_equal(owner_error(), -EPERM);
	}
	owner_set(NULL);
	assert_int_equal(owner_error(), 0);

	unlink(link);
	unlink(file);
	rmdir(dir);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_owner_sudo),
		cmocka_unit_test(test_owner_sudo_group_bad),
		cmocka_unit_test(test_owner_sudo_ignored),
		cmocka_unit_test(test_owner_open),
	};

	return cmocka_run_group_tests_name("owner", tests, NULL, NULL);
}
