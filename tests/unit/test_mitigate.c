// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mitigate.c - unit tests of userspace/mitigate.c (the quirks
 * parameter rewritten for one device, the state file, the system put
 * back after a normal end and after a crash) and of what a run watches
 * (sysfs_usb.c's timeouts and idle disk) against a made-up sysfs tree,
 * and of lib/rate.c (how many runs tell "fixed").
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "mitigate.h"
#include "rate.h"
#include "sysfs_usb.h"

static void test_param_with(void **state)
{
	char out[128];

	(void)state;
	/* added; others kept; replaced; removed */
	assert_int_equal(mitigate_param_with("", 0x1234, 0x5678, "u", out,
					     sizeof(out)), 0);
	assert_string_equal(out, "1234:5678:u");
	assert_int_equal(mitigate_param_with("0bc2:2322:u,152d:0578:f", 0x1234,
					     0x5678, "g", out, sizeof(out)), 0);
	assert_string_equal(out, "0bc2:2322:u,152d:0578:f,1234:5678:g");
	assert_int_equal(mitigate_param_with("0bc2:2322:u,1234:5678:t,152d:0578:f",
					     0x1234, 0x5678, "ut", out,
					     sizeof(out)), 0);
	assert_string_equal(out, "0bc2:2322:u,152d:0578:f,1234:5678:ut");
	/* the kernel reads the numbers as hex, of any case */
	assert_int_equal(mitigate_param_with("1234:ABCD:u,1234:abcd:g", 0x1234,
					     0xabcd, NULL, out, sizeof(out)), 0);
	assert_string_equal(out, "");
	assert_int_equal(mitigate_param_with(",,0bc2:2322:u,", 0x1234, 0x5678,
					     "", out, sizeof(out)), 0);
	assert_string_equal(out, "0bc2:2322:u");
	/* never a cut parameter */
	assert_int_equal(mitigate_param_with("0bc2:2322:u", 0x1234, 0x5678, "u",
					     out, 12), -ENAMETOOLONG);
}

static void test_rate(void **state)
{
	double z90, z95;

	(void)state;
	z90 = rate_z(0.90);
	z95 = rate_z(0.95);
	assert_true(z90 > 1.6448 && z90 < 1.6449);
	assert_true(z95 > 1.9599 && z95 < 1.9600);
	/* 3 of 3 at 95%: 1 / (1 + z^2 / 3) */
	assert_true(rate_wilson_low(3, 3, z95) > 0.438 &&
		    rate_wilson_low(3, 3, z95) < 0.439);
	assert_true(rate_wilson_low(0, 5, z95) == 0);
	assert_true(rate_wilson_low(1, 0, z95) == 0);
	/* 0.438 at 95%: 0.562^6 = 0.032 <= 0.05 < 0.562^5 = 0.056 */
	assert_int_equal(rate_runs_needed(rate_wilson_low(3, 3, z95), 0.95, 64),
			 6);
	/* 3 of 3 at 90%: p = 0.526, 0.474^4 = 0.050 */
	assert_int_equal(rate_runs_needed(rate_wilson_low(3, 3, z90), 0.90, 64),
			 4);
	/* a rare failure needs many runs; none rules out nothing */
	assert_int_equal(rate_runs_needed(0.01, 0.95, 64), 64);
	assert_int_equal(rate_runs_needed(0, 0.95, 64), 64);
	assert_int_equal(rate_runs_needed(1, 0.95, 64), 1);
}

/* A sysfs with a uas disk at 2-1:1.0 and usb-storage's parameter */
struct fake {
	char root[128];
};

static void fake_file(const struct fake *f, const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *fp;

	snprintf(path, sizeof(path), "%s%s", f->root, rel);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static void fake_read(const struct fake *f, const char *rel, char *buf,
		      size_t len)
{
	char path[PATH_MAX];
	FILE *fp;
	size_t n;

	snprintf(path, sizeof(path), "%s%s", f->root, rel);
	fp = fopen(path, "r");
	assert_non_null(fp);
	n = fread(buf, 1, len - 1, fp);
	buf[n] = '\0';
	fclose(fp);
}

static int fake_setup(void **state)
{
	static const char *const dirs[] = {
		"/sys", "/sys/module", "/sys/module/usb_storage",
		"/sys/module/usb_storage/parameters", "/sys/bus", "/sys/bus/usb",
		"/sys/bus/usb/drivers", "/sys/bus/usb/drivers/uas",
		"/sys/bus/usb/drivers/usb-storage", "/sys/bus/usb/devices",
		"/sys/bus/usb/devices/2-1:1.0", "/run",
	};
	struct fake *f = calloc(1, sizeof(*f));
	char path[PATH_MAX];

	assert_non_null(f);
	snprintf(f->root, sizeof(f->root), "/tmp/usbtrail-mitigate-XXXXXX");
	assert_non_null(mkdtemp(f->root));
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", f->root, dirs[i]);
		assert_int_equal(mkdir(path, 0755), 0);
	}
	fake_file(f, "/sys/module/usb_storage/parameters/quirks",
		  "0bc2:2322:u\n");
	fake_file(f, "/sys/bus/usb/drivers_probe", "");
	fake_file(f, "/sys/bus/usb/drivers/uas/unbind", "");
	fake_file(f, "/sys/bus/usb/drivers/usb-storage/unbind", "");
	snprintf(path, sizeof(path), "%s/sys/bus/usb/devices/2-1:1.0/driver",
		 f->root);
	assert_int_equal(symlink("../../drivers/uas", path), 0);
	assert_int_equal(sysfs_usb_set_root(f->root), 0);
	*state = f;
	return 0;
}

static int fake_teardown(void **state)
{
	struct fake *f = *state;
	char cmd[256];

	sysfs_usb_set_root(NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->root);
	assert_int_equal(system(cmd), 0);
	free(f);
	return 0;
}

static void test_quirk_restore(void **state)
{
	struct fake *f = *state;
	struct mitigate_state st, other;
	char path[PATH_MAX], buf[256], why[256];

	snprintf(path, sizeof(path), "%s/run/repro.state", f->root);
	assert_int_equal(mitigate_begin(&st, path, "2-1:1.0", 0x1234, 0x5678),
			 0);
	assert_int_equal(access(path, F_OK), 0);
	/* one run at a time */
	assert_int_equal(mitigate_begin(&other, path, "2-1:1.0", 0x1234,
					0x5678), -EEXIST);
	assert_int_equal(mitigate_quirk(&st, "u", NULL, 0), 0);
	fake_read(f, "/sys/module/usb_storage/parameters/quirks", buf,
		  sizeof(buf));
	assert_string_equal(buf, "0bc2:2322:u,1234:5678:u");
	/* the interface was unbound and probed */
	fake_read(f, "/sys/bus/usb/drivers/uas/unbind", buf, sizeof(buf));
	assert_string_equal(buf, "2-1:1.0");
	fake_read(f, "/sys/bus/usb/drivers_probe", buf, sizeof(buf));
	assert_string_equal(buf, "2-1:1.0");
	/* a second candidate replaces the first */
	assert_int_equal(mitigate_quirk(&st, "g", NULL, 0), 0);
	fake_read(f, "/sys/module/usb_storage/parameters/quirks", buf,
		  sizeof(buf));
	assert_string_equal(buf, "0bc2:2322:u,1234:5678:g");
	assert_int_equal(mitigate_restore(&st, why, sizeof(why)), 0);
	fake_read(f, "/sys/module/usb_storage/parameters/quirks", buf,
		  sizeof(buf));
	assert_string_equal(buf, "0bc2:2322:u");
	assert_int_equal(access(path, F_OK), -1);
}

static void test_user_flags_kept(void **state)
{
	struct fake *f = *state;
	struct mitigate_state st;
	char path[PATH_MAX], buf[256];

	fake_file(f, "/sys/module/usb_storage/parameters/quirks",
		  "1234:5678:t,0bc2:2322:u\n");
	snprintf(path, sizeof(path), "%s/run/repro.state", f->root);
	assert_int_equal(mitigate_begin(&st, path, "2-1:1.0", 0x1234, 0x5678),
			 0);
	assert_int_equal(mitigate_quirk(&st, "u", NULL, 0), 0);
	fake_read(f, "/sys/module/usb_storage/parameters/quirks", buf,
		  sizeof(buf));
	assert_string_equal(buf, "0bc2:2322:u,1234:5678:tu");
	assert_int_equal(mitigate_quirk(&st, "", NULL, 0), 0);
	fake_read(f, "/sys/module/usb_storage/parameters/quirks", buf,
		  sizeof(buf));
	assert_string_equal(buf, "0bc2:2322:u,1234:5678:t");
	assert_int_equal(mitigate_restore(&st, NULL, 0), 0);
	fake_read(f, "/sys/module/usb_storage/parameters/quirks", buf,
		  sizeof(buf));
	assert_string_equal(buf, "1234:5678:t,0bc2:2322:u");
}

/*
 * The probe workload's unbind, and a run killed before it bound again:
 * the restore binds the interface again (its driver differs from before)
 */
static void test_unbind_restored(void **state)
{
	struct fake *f = *state;
	struct mitigate_state st;
	char path[PATH_MAX], buf[256], why[256];

	snprintf(path, sizeof(path), "%s/run/repro.state", f->root);
	assert_int_equal(mitigate_begin(&st, path, "2-1:1.0", 0x1234, 0x5678),
			 0);
	assert_int_equal(mitigate_unbind(&st), 0);
	fake_read(f, "/sys/bus/usb/drivers/uas/unbind", buf, sizeof(buf));
	assert_string_equal(buf, "2-1:1.0");
	fake_read(f, "/sys/bus/usb/drivers_probe", buf, sizeof(buf));
	assert_string_equal(buf, "");
	/* the kernel drops the link; the run is killed here */
	snprintf(buf, sizeof(buf), "%s/sys/bus/usb/devices/2-1:1.0/driver",
		 f->root);
	assert_int_equal(unlink(buf), 0);
	/* unbound already: nothing to unbind, no error */
	fake_file(f, "/sys/bus/usb/drivers/uas/unbind", "");
	assert_int_equal(mitigate_unbind(&st), 0);
	fake_read(f, "/sys/bus/usb/drivers/uas/unbind", buf, sizeof(buf));
	assert_string_equal(buf, "");
	assert_int_equal(mitigate_restore(&st, why, sizeof(why)), 0);
	fake_read(f, "/sys/bus/usb/drivers_probe", buf, sizeof(buf));
	assert_string_equal(buf, "2-1:1.0");
	fake_read(f, "/sys/module/usb_storage/parameters/quirks", buf,
		  sizeof(buf));
	assert_string_equal(buf, "0bc2:2322:u\n");
	assert_int_equal(access(path, F_OK), -1);
}

/* fake_dirs F REL...: the directories REL below the fake root, in order */
static void fake_dirs(const struct fake *f, const char *const *rels, size_t n)
{
	char path[PATH_MAX];

	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s%s", f->root, rels[i]);
		assert_int_equal(mkdir(path, 0755), 0);
	}
}

/*
 * What a run watches: the timeouts of the interface's SCSI devices
 * (summed, read as the kernel writes them), and whether a disk is idle
 */
static void test_timeouts_idle(void **state)
{
	static const char *const dirs[] = {
		"/sys/bus/usb/devices/2-1:1.0/host0",
		"/sys/bus/usb/devices/2-1:1.0/host0/target0:0:0",
		"/sys/bus/usb/devices/2-1:1.0/host0/target0:0:0/0:0:0:0",
		"/sys/bus/usb/devices/2-1:1.0/host0/target0:0:0/0:0:0:1",
		"/sys/block", "/sys/block/sda", "/sys/block/sda/device",
	};
	struct fake *f = *state;

	/* no SCSI device (a probe not begun): none */
	assert_int_equal(sysfs_usb_iface_timeouts("2-1:1.0"), 0);
	fake_dirs(f, dirs, sizeof(dirs) / sizeof(dirs[0]));
	fake_file(f, "/sys/bus/usb/devices/2-1:1.0/host0/target0:0:0/0:0:0:0/"
		  "iotmo_cnt", "0x3\n");
	fake_file(f, "/sys/bus/usb/devices/2-1:1.0/host0/target0:0:0/0:0:0:1/"
		  "iotmo_cnt", "0x2\n");
	assert_int_equal(sysfs_usb_iface_timeouts("2-1:1.0"), 5);
	assert_int_equal(sysfs_usb_iface_timeouts("3-1:1.0"), 0);

	/* neither readable: unknown; then each reason to wait */
	assert_int_equal(sysfs_usb_disk_idle("sda"), -ENOENT);
	fake_file(f, "/sys/block/sda/inflight", "       1        0\n");
	assert_int_equal(sysfs_usb_disk_idle("sda"), 0);
	fake_file(f, "/sys/block/sda/inflight", "       0        0\n");
	assert_int_equal(sysfs_usb_disk_idle("sda"), -ENOENT);
	fake_file(f, "/sys/block/sda/device/state", "blocked\n");
	assert_int_equal(sysfs_usb_disk_idle("sda"), 0);
	fake_file(f, "/sys/block/sda/device/state", "running\n");
	assert_int_equal(sysfs_usb_disk_idle("sda"), 1);
	fake_file(f, "/sys/block/sda/inflight", "garbage\n");
	assert_int_equal(sysfs_usb_disk_idle("sda"), 0);
}

/*
 * A failing run cut short: the disk offline only from running, kept in the
 * state file, running again at the end; killed while offline, the next
 * run's recovery sets it running
 */
static void test_offline_restored(void **state)
{
	static const char *const dirs[] = {
		"/sys/bus/usb/devices/2-1:1.0/host0",
		"/sys/bus/usb/devices/2-1:1.0/host0/target0:0:0",
		"/sys/bus/usb/devices/2-1:1.0/host0/target0:0:0/0:0:0:0",
		"/sys/bus/usb/devices/2-1:1.0/host0/target0:0:0/0:0:0:0/block",
		"/sys/bus/usb/devices/2-1:1.0/host0/target0:0:0/0:0:0:0/block/sda",
		"/sys/block",
	};
	struct fake *f = *state;
	struct mitigate_state st;
	char path[PATH_MAX], dev[PATH_MAX], buf[256], why[256];
	const char *sda = "/sys/bus/usb/devices/2-1:1.0/host0/target0:0:0/"
			  "0:0:0:0";

	fake_dirs(f, dirs, sizeof(dirs) / sizeof(dirs[0]));
	snprintf(path, sizeof(path), "%s/sys/block/sda", f->root);
	snprintf(dev, sizeof(dev), "%s%s/block/sda", f->root, sda);
	assert_int_equal(symlink(dev, path), 0);
	snprintf(path, sizeof(path), "%s/sys/block/sda/device", f->root);
	snprintf(dev, sizeof(dev), "%s%s", f->root, sda);
	assert_int_equal(symlink(dev, path), 0);
	snprintf(buf, sizeof(buf), "%s/state", sda);
	fake_file(f, buf, "running\n");
	snprintf(path, sizeof(path), "%s/run/repro.state", f->root);

	assert_int_equal(mitigate_begin(&st, path, "2-1:1.0", 0x1234, 0x5678),
			 0);
	assert_int_equal(mitigate_disk_offline(&st, "sda", true), 0);
	fake_read(f, "/sys/block/sda/device/state", buf, sizeof(buf));
	assert_string_equal(buf, "offline\n");
	fake_read(f, "/run/repro.state", buf, sizeof(buf));
	assert_non_null(strstr(buf, "\noffline 1\n"));
	/* offline already (as the kernel leaves it): not ours to change */
	assert_int_equal(mitigate_disk_offline(&st, "sda", true), -EBUSY);
	assert_int_equal(mitigate_disk_offline(&st, "sda", false), 0);
	fake_read(f, "/sys/block/sda/device/state", buf, sizeof(buf));
	assert_string_equal(buf, "running\n");
	fake_read(f, "/run/repro.state", buf, sizeof(buf));
	assert_non_null(strstr(buf, "\noffline 0\n"));
	/* a disk the kernel offlined itself is not set running */
	snprintf(buf, sizeof(buf), "%s/state", sda);
	fake_file(f, buf, "offline\n");
	assert_int_equal(mitigate_restore(&st, why, sizeof(why)), 0);
	fake_read(f, "/sys/block/sda/device/state", buf, sizeof(buf));
	assert_string_equal(buf, "offline\n");

	/* killed while the disk was offline: the recovery sets it running */
	snprintf(buf, sizeof(buf), "%s/state", sda);
	fake_file(f, buf, "running\n");
	assert_int_equal(mitigate_begin(&st, path, "2-1:1.0", 0x1234, 0x5678),
			 0);
	assert_int_equal(mitigate_disk_offline(&st, "sda", true), 0);
	assert_int_equal(mitigate_recover(path, why, sizeof(why)), 1);
	fake_read(f, "/sys/block/sda/device/state", buf, sizeof(buf));
	assert_string_equal(buf, "running\n");
	assert_int_equal(access(path, F_OK), -1);
}

/* A run killed after its change: the next one puts it back from the file */
static void test_recover_after_kill(void **state)
{
	struct fake *f = *state;
	char path[PATH_MAX], buf[256], why[256];
	int status;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/run/repro.state", f->root);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct mitigate_state st;

		if (mitigate_begin(&st, path, "2-1:1.0", 0x1234, 0x5678) ||
		    mitigate_quirk(&st, "u", NULL, 0))
			_exit(1);
		_exit(0);	/* as after a SIGKILL: nothing put back */
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && !WEXITSTATUS(status));
	fake_read(f, "/sys/module/usb_storage/parameters/quirks", buf,
		  sizeof(buf));
	assert_string_equal(buf, "0bc2:2322:u,1234:5678:u");
	assert_int_equal(mitigate_recover(path, why, sizeof(why)), 1);
	fake_read(f, "/sys/module/usb_storage/parameters/quirks", buf,
		  sizeof(buf));
	assert_string_equal(buf, "0bc2:2322:u");
	assert_int_equal(access(path, F_OK), -1);
	/* nothing left: nothing to do */
	assert_int_equal(mitigate_recover(path, why, sizeof(why)), 0);
}

static void test_recover_refuses(void **state)
{
	struct fake *f = *state;
	struct mitigate_state st;
	char path[PATH_MAX], why[256];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/run/repro.state", f->root);
	/* a live run's file (our own pid's parent: alive) */
	assert_int_equal(mitigate_begin(&st, path, "2-1:1.0", 0x1234, 0x5678),
			 0);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fprintf(fp, "usbtrail-repro-state 1\npid %ld\niface 2-1:1.0\n",
		(long)getppid());
	fclose(fp);
	assert_int_equal(mitigate_recover(path, why, sizeof(why)), -EBUSY);
	assert_non_null(strstr(why, "is going on"));
	/* not ours: left alone, said */
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("something else\n", fp);
	fclose(fp);
	assert_int_equal(mitigate_recover(path, why, sizeof(why)), -EBADMSG);
	assert_non_null(strstr(why, "not a state file"));
	assert_int_equal(access(path, F_OK), 0);
	assert_int_equal(unlink(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_param_with),
		cmocka_unit_test(test_rate),
		cmocka_unit_test_setup_teardown(test_quirk_restore, fake_setup,
						fake_teardown),
		cmocka_unit_test_setup_teardown(test_user_flags_kept,
						fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_timeouts_idle,
						fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_unbind_restored,
						fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_offline_restored,
						fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_recover_after_kill,
						fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_recover_refuses,
						fake_setup, fake_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
