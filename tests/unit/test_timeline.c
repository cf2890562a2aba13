// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of timeline.c: the SCSI commands of a disk matched start to
 * done over the test bed's recording tests/fixtures/recordings/
 * uas-medium-stall (a timeout, abort and reset chain under usbtrail
 * stress), and the percentile of their latencies.
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "recording.h"
#include "report.h"
#include "timeline.h"

#define FIXTURE "../tests/fixtures/recordings/uas-medium-stall"

static int load_fixture(void **state)
{
	struct recording *r = malloc(sizeof(*r));
	const char *what;

	assert_non_null(r);
	recording_init(r);
	assert_int_equal(recording_load(r, FIXTURE, &what), 0);
	*state = r;
	return 0;
}

static int free_recording(void **state)
{
	recording_free(*state);
	free(*state);
	return 0;
}

static void test_fixture_commands(void **state)
{
	struct recording *r = *state;
	struct timeline_cmds c;
	size_t i, done = 0, timed_out = 0, unknown = 0;

	assert_int_equal(timeline_cmds_load(r, "sda", &c), 0);
	assert_true(c.have_scsi);
	assert_int_equal(c.timeouts, 8);
	for (i = 0; i < c.n; i++) {
		done += c.cmd[i].done;
		timed_out += c.cmd[i].t_timeout_ns != 0;
		unknown += !c.cmd[i].t_start_ns;
		if (c.cmd[i].done)
			assert_true(timeline_cmd_latency(&c.cmd[i]) >= 0);
	}
	assert_int_equal(timed_out, 8);
	/* trimmed: one timed-out command's start is not in the fixture */
	assert_int_equal(unknown, 1);
	assert_true(done >= 10);
	timeline_cmds_free(&c);
	assert_int_equal(timeline_cmds_load(r, "sdz", &c), 0);
	assert_true(c.have_scsi);
	assert_int_equal(c.n, 0);
	timeline_cmds_free(&c);
}

static void test_percentile(void **state)
{
	double v[100];
	int i;

	(void)state;
	for (i = 0; i < 100; i++)
		v[i] = 100 - i;
	assert_true(timeline_percentile(v, 100, 99) == 99);
	assert_true(timeline_percentile(v, 100, 100) == 100);
	assert_true(timeline_percentile(v, 1, 99) == 1);
	assert_true(timeline_percentile(v, 0, 99) == -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fixture_commands,
						load_fixture, free_recording),
		cmocka_unit_test(test_percentile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
