// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_record.c - unit tests of userspace/record.c's engine as "usbtrail
 * watch" runs it: a source whose read() fails is closed and marked down,
 * the recording goes on, the tick opens it again and it is read again;
 * without keep_going the same failure ends the recording.
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

#include "record.h"

struct fake {
	unsigned int reads;		/* read() calls */
	unsigned int reads_after;	/* ... after it was opened again */
	unsigned int closes;
	unsigned int ticks_down;	/* ticks that saw it down */
	bool reopened;
	int down_err;			/* s->down as the tick saw it */
};

static struct fake fk;

static int fake_read(struct rec_source *s, struct rec *r)
{
	(void)s;
	(void)r;
	fk.reads++;
	if (fk.reopened)
		fk.reads_after++;
	return fk.reads == 3 ? -EIO : 0;	/* the third read fails */
}

static void fake_close(struct rec_source *s, struct rec *r)
{
	(void)s;
	(void)r;
	fk.closes++;
}

static void fake_open(struct rec_source *s)
{
	memset(s, 0, sizeof(*s));
	s->name = "fake";
	s->id = EV_SRC_RECORDER;
	s->fd = -1;		/* read on every tick */
	s->read = fake_read;
	s->close = fake_close;
}

static void tick(void *arg, struct rec *r, uint64_t now)
{
	struct rec_source *s = arg;

	(void)now;
	if (!s->down)
		return;
	fk.ticks_down++;
	fk.down_err = s->down;
	fake_open(s);
	fk.reopened = true;
	assert_int_equal(rec_source_resume(r, s), 0);
	assert_int_equal(s->down, 0);
}

static void test_keep_going(void **state)
{
	struct derive_opts d = DERIVE_OPTS_DEFAULT;
	struct rec *r = rec_new(&d);
	struct rec_source s;
	struct rec_run_opts ro = {
		.duration_s = 1, .marker_fd = -1, .keep_going = true,
		.tick = tick,
	};

	(void)state;
	memset(&fk, 0, sizeof(fk));
	assert_non_null(r);
	fake_open(&s);
	ro.arg = &s;
	assert_int_equal(rec_add_source(r, &s), 0);
	assert_int_equal(rec_run(r, &ro), 0);
	/* failed once, closed once then, opened again, read on to the end */
	assert_int_equal(fk.ticks_down, 1);
	assert_int_equal(fk.down_err, -EIO);
	assert_true(fk.reads_after >= 3);
	assert_int_equal(fk.closes, 2);		/* the failure, the end */
	assert_true(rec_stats(r)->secs >= 0.9);
	rec_free(r);
}

static void test_stop_on_failure(void **state)
{
	struct derive_opts d = DERIVE_OPTS_DEFAULT;
	struct rec *r = rec_new(&d);
	struct rec_source s;
	struct rec_run_opts ro = { .duration_s = 5, .marker_fd = -1 };

	(void)state;
	memset(&fk, 0, sizeof(fk));
	assert_non_null(r);
	fake_open(&s);
	assert_int_equal(rec_add_source(r, &s), 0);
	assert_int_equal(rec_run(r, &ro), -EIO);
	assert_true(rec_stats(r)->secs < 2);
	assert_int_equal(fk.closes, 1);
	rec_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keep_going),
		cmocka_unit_test(test_stop_on_failure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
