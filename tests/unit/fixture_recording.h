/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The project's recording fixture as a cmocka group state, for the unit
 * tests of the report writers (test_report.c, test_timeline.c).
 * Include after <cmocka.h> and "recording.h".
 */
#ifndef USBTRAIL_FIXTURE_RECORDING_H
#define USBTRAIL_FIXTURE_RECORDING_H

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

static int free_fixture(void **state)
{
	recording_free(*state);
	free(*state);
	return 0;
}

#endif /* USBTRAIL_FIXTURE_RECORDING_H */
