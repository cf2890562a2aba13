// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_record.c - unit tests of userspace/record.c's engine as "usbtrail
 * watch" runs it: a source whose read() fails is closed and marked down,
 * the recording goes on, the tick opens it again and it is read again;
 * without keep_going the same failure ends the recording.  A source with
 * a holdoff is read once per holdoff however often its fd is readable,
 * and loses nothing.
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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

/* A pipe's reader: every byte there, counted, and the read() calls. */
struct pipe_src {
	unsigned int reads;
	size_t bytes;
};

static int pipe_read(struct rec_source *s, struct rec *r)
{
	struct pipe_src *p = s->priv;
	char buf[4096];
	ssize_t n;

	p->reads++;
	while ((n = read(s->fd, buf, sizeof(buf))) > 0)
		p->bytes += (size_t)n;
	if (!n && r)		/* the writer is gone: no more to poll */
		rec_source_done(r, s);
	return 0;
}

/*
 * 300 bytes written one at a time, 2 ms apart, by a child, into a
 * source read with @holdoff_ms: how many read() calls took them all.
 */
static unsigned int pipe_reads(uint32_t holdoff_ms)
{
	struct derive_opts d = DERIVE_OPTS_DEFAULT;
	struct rec_run_opts ro = { .duration_s = 1, .marker_fd = -1 };
	struct timespec gap = { 0, 2000000L };
	struct pipe_src p = { 0 };
	struct rec_source s;
	struct rec *r = rec_new(&d);
	int fds[2], i, status;
	pid_t child;

	assert_non_null(r);
	assert_int_equal(pipe2(fds, O_NONBLOCK), 0);
	child = fork();
	assert_true(child >= 0);
	if (!child) {
		close(fds[0]);
		for (i = 0; i < 300; i++) {
			if (write(fds[1], "x", 1) != 1)
				_exit(1);
			nanosleep(&gap, NULL);
		}
		_exit(0);
	}
	close(fds[1]);
	memset(&s, 0, sizeof(s));
	s.name = "pipe";
	s.id = EV_SRC_RECORDER;
	s.fd = fds[0];
	s.read = pipe_read;
	s.priv = &p;
	s.holdoff_ms = holdoff_ms;
	assert_int_equal(rec_add_source(r, &s), 0);
	assert_int_equal(rec_run(r, &ro), 0);
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	pipe_read(&s, NULL);		/* what the last holdoff kept */
	close(fds[0]);
	rec_free(r);
	assert_int_equal(p.bytes, 300);
	return p.reads;
}

static void test_holdoff(void **state)
{
	unsigned int at_once, held;

	(void)state;
	at_once = pipe_reads(0);
	held = pipe_reads(50);
	/*
	 * The writes take at least 600 ms: one read per 50 ms is 13 or so;
	 * read as they come, the 300 bytes took a read each or nearly.
	 */
	print_message("reads: %u at once, %u with a 50 ms holdoff\n",
		      at_once, held);
	assert_true(held <= 30);
	assert_true(at_once >= 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keep_going),
		cmocka_unit_test(test_stop_on_failure),
		cmocka_unit_test(test_holdoff),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
