// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_src_evdev.c - unit tests of userspace/src_evdev.c with --marker-device
 * through --wrap seams: open() gives a pipe in place of the device,
 * libevdev_* play a script of input events, rec_emit()/rec_clock() stand in
 * for the recorder.  What is checked: presses (value 1) of the key only
 * become markers, with the event's time on CLOCK_BOOTTIME (as given, or
 * moved from CLOCK_REALTIME when EVIOCSCLOCKID is refused); SYN_DROPPED is
 * one lost event and what libevdev resyncs is no marker; a device without
 * the key or that cannot be opened fails open(); nothing grabs.
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
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <libevdev/libevdev.h>
#include <linux/input.h>

#include "record.h"

#define FAKE_DEV	"/dev/input/utfake7"
#define MAX_SCRIPT	32
#define MAX_EMITTED	32

/* one step of libevdev_next_event(): its return and event */
struct step {
	int ret;
	struct input_event ie;
};

static struct step script[MAX_SCRIPT];
static int nscript, pos;
static struct ev *emitted[MAX_EMITTED];
static int nemitted;
static int open_errno;		/* open() of FAKE_DEV fails with it */
static int clockid_ok;		/* EVIOCSCLOCKID accepted */
static int has_key;		/* libevdev_has_event_code() */
static int grabbed;		/* EVIOCGRAB was asked for */
static int fake_fds[2] = { -1, -1 };
static struct ev_clock fake_clock = { .boot_to_real_ns = 1000000000000ll };
static struct libevdev *fake_dev = (struct libevdev *)&fake_clock;

int __real_open(const char *path, int flags, ...);
int __wrap_open(const char *path, int flags, ...);
int __real_ioctl(int fd, unsigned long req, ...);
int __wrap_ioctl(int fd, unsigned long req, ...);
int __wrap_libevdev_new_from_fd(int fd, struct libevdev **dev);
void __wrap_libevdev_free(struct libevdev *dev);
int __wrap_libevdev_has_event_code(const struct libevdev *dev,
				   unsigned int type, unsigned int code);
const char *__wrap_libevdev_get_name(const struct libevdev *dev);
int __wrap_libevdev_next_event(struct libevdev *dev, unsigned int flags,
			       struct input_event *ev);
void __wrap_rec_emit(struct rec *r, struct ev *ev);
const struct ev_clock *__wrap_rec_clock(const struct rec *r);

int __wrap_open(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode = 0;

	if (strcmp(path, FAKE_DEV)) {
		if (flags & (O_CREAT | O_TMPFILE)) {
			va_start(ap, flags);
			mode = va_arg(ap, mode_t);
			va_end(ap);
		}
		return __real_open(path, flags, mode);
	}
	if (open_errno) {
		errno = open_errno;
		return -1;
	}
	/* read-only, as a bystander: never for writing */
	assert_int_equal(flags & O_ACCMODE, O_RDONLY);
	assert_int_equal(pipe2(fake_fds, O_NONBLOCK | O_CLOEXEC), 0);
	return fake_fds[0];
}

int __wrap_ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (fd != fake_fds[0])
		return __real_ioctl(fd, req, arg);
	if (req == EVIOCGRAB)
		grabbed = 1;
	if (req == EVIOCSCLOCKID) {
		assert_int_equal(*(int *)arg, CLOCK_BOOTTIME);
		if (clockid_ok)
			return 0;
	}
	errno = EINVAL;
	return -1;
}

int __wrap_libevdev_new_from_fd(int fd, struct libevdev **dev)
{
	assert_int_equal(fd, fake_fds[0]);
	*dev = fake_dev;
	return 0;
}

void __wrap_libevdev_free(struct libevdev *dev)
{
	assert_true(!dev || dev == fake_dev);
}

int __wrap_libevdev_has_event_code(const struct libevdev *dev,
				   unsigned int type, unsigned int code)
{
	assert_ptr_equal(dev, fake_dev);
	return type == EV_KEY && code == KEY_F12 && has_key;
}

const char *__wrap_libevdev_get_name(const struct libevdev *dev)
{
	assert_ptr_equal(dev, fake_dev);
	return "Fake Keyboard";
}

/* The script, then -EAGAIN; a SYNC step must be read with the SYNC flag. */
int __wrap_libevdev_next_event(struct libevdev *dev, unsigned int flags,
			       struct input_event *ev)
{
	assert_ptr_equal(dev, fake_dev);
	if (pos >= nscript)
		return -EAGAIN;
	if (script[pos].ret == -EAGAIN) {	/* end of a sync */
		assert_int_equal(flags, LIBEVDEV_READ_FLAG_SYNC);
		pos++;
		return -EAGAIN;
	}
	if (pos > 0 && script[pos - 1].ret == LIBEVDEV_READ_STATUS_SYNC)
		assert_int_equal(flags, LIBEVDEV_READ_FLAG_SYNC);
	*ev = script[pos].ie;
	return script[pos++].ret;
}

void __wrap_rec_emit(struct rec *r, struct ev *ev)
{
	(void)r;
	assert_non_null(ev);
	assert_true(nemitted < MAX_EMITTED);
	emitted[nemitted++] = ev;
}

const struct ev_clock *__wrap_rec_clock(const struct rec *r)
{
	(void)r;
	return &fake_clock;
}

static void add(int ret, int type, int code, int value, long sec, long usec)
{
	struct step *s = &script[nscript++];

	assert_true(nscript <= MAX_SCRIPT);
	s->ret = ret;
	s->ie.type = (uint16_t)type;
	s->ie.code = (uint16_t)code;
	s->ie.value = value;
	s->ie.input_event_sec = sec;
	s->ie.input_event_usec = usec;
}

static void key(int code, int value, long sec, long usec)
{
	add(LIBEVDEV_READ_STATUS_SUCCESS, EV_KEY, code, value, sec, usec);
	add(LIBEVDEV_READ_STATUS_SUCCESS, EV_SYN, SYN_REPORT, 0, sec, usec);
}

static int setup(void **state)
{
	(void)state;
	nscript = pos = nemitted = 0;
	open_errno = 0;
	clockid_ok = 1;
	has_key = 1;
	grabbed = 0;
	return 0;
}

static int teardown(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < nemitted; i++)
		ev_free(emitted[i]);
	if (fake_fds[1] >= 0)
		close(fake_fds[1]);
	fake_fds[0] = fake_fds[1] = -1;
	return 0;
}

/* Open FAKE_DEV as the source, read once, close. */
static void run(struct rec_source *s)
{
	struct rec *r = (struct rec *)&fake_clock;	/* never looked into */

	assert_int_equal(src_evdev_open(s, r, KEY_F12, FAKE_DEV), 0);
	/* readable, so epoll reports the device and read() drains it */
	assert_int_equal(write(fake_fds[1], "x", 1), 1);
	assert_string_equal(s->name, "evdev");
	assert_int_equal(s->id, EV_SRC_EVDEV);
	assert_true(s->fd >= 0);
	assert_int_equal(s->read(s, r), 0);
	s->close(s, r);
	assert_int_equal(s->fd, -1);
	assert_false(grabbed);
}

static void test_presses_only(void **state)
{
	struct rec_source s;

	(void)state;
	key(KEY_F12, 1, 100, 250000);		/* press */
	key(KEY_F12, 2, 100, 750000);		/* autorepeat */
	key(KEY_F12, 0, 101, 0);		/* release */
	key(KEY_A, 1, 101, 500000);		/* another key */
	add(LIBEVDEV_READ_STATUS_SUCCESS, EV_MSC, MSC_SCAN, KEY_F12, 102, 0);
	key(KEY_F12, 1, 102, 1);		/* press */
	run(&s);

	assert_int_equal(nemitted, 2);
	assert_int_equal(s.events, 2);
	assert_int_equal(s.lost, 0);
	assert_int_equal(emitted[0]->type, EV_MARKER);
	assert_int_equal(emitted[0]->source, EV_SRC_EVDEV);
	assert_int_equal(emitted[0]->u.marker.kind, EV_MARKER_KEY);
	assert_string_equal(emitted[0]->u.marker.text,
			    "key F12 on " FAKE_DEV " (Fake Keyboard)");
	/* the kernel stamped CLOCK_BOOTTIME: taken as it is */
	assert_int_equal(emitted[0]->t_ns, 100250000000ull);
	assert_int_equal(emitted[1]->t_ns, 102000001000ull);
}

/* EVIOCSCLOCKID refused: the times are CLOCK_REALTIME, moved by the offset */
static void test_realtime_fallback(void **state)
{
	struct rec_source s;

	(void)state;
	clockid_ok = 0;
	key(KEY_F12, 1, 1100, 5);
	run(&s);
	assert_int_equal(nemitted, 1);
	assert_int_equal(emitted[0]->t_ns, 100000005000ull);
}

static void test_syn_dropped(void **state)
{
	struct rec_source s;

	(void)state;
	key(KEY_F12, 1, 10, 0);
	/* SYN_DROPPED comes as SYNC status; the resync deltas follow */
	add(LIBEVDEV_READ_STATUS_SYNC, EV_SYN, SYN_DROPPED, 0, 11, 0);
	add(LIBEVDEV_READ_STATUS_SYNC, EV_KEY, KEY_F12, 1, 12, 0);
	add(LIBEVDEV_READ_STATUS_SYNC, EV_SYN, SYN_REPORT, 0, 12, 0);
	add(-EAGAIN, 0, 0, 0, 0, 0);		/* synced */
	key(KEY_F12, 0, 13, 0);
	key(KEY_F12, 1, 14, 0);
	run(&s);

	assert_int_equal(s.lost, 1);
	assert_int_equal(s.events, 2);
	assert_int_equal(nemitted, 3);
	assert_int_equal(emitted[0]->type, EV_MARKER);
	assert_int_equal(emitted[0]->t_ns, 10000000000ull);
	assert_int_equal(emitted[1]->type, EV_LOST);
	assert_int_equal(emitted[1]->u.lost.source, EV_SRC_EVDEV);
	assert_int_equal(emitted[1]->u.lost.count, 1);
	assert_int_equal(emitted[1]->u.lost.total, 1);
	assert_string_equal(emitted[1]->u.lost.why,
			    "SYN_DROPPED on " FAKE_DEV);
	assert_int_equal(emitted[2]->type, EV_MARKER);
	assert_int_equal(emitted[2]->t_ns, 14000000000ull);
}

static void test_open_errors(void **state)
{
	struct rec_source s;

	(void)state;
	has_key = 0;
	assert_int_equal(src_evdev_open(&s, NULL, KEY_F12, FAKE_DEV),
			 -ENOKEY);
	close(fake_fds[1]);
	fake_fds[1] = -1;
	has_key = 1;
	open_errno = EACCES;
	assert_int_equal(src_evdev_open(&s, NULL, KEY_F12, FAKE_DEV),
			 -EACCES);
	assert_int_equal(src_evdev_open(&s, NULL, -1, FAKE_DEV), -EINVAL);
	assert_int_equal(src_evdev_open(&s, NULL, KEY_MAX + 1, FAKE_DEV),
			 -EINVAL);
}

/* the device went away: dropped, the recording goes on */
static void test_unplugged(void **state)
{
	struct rec_source s;
	struct rec *r = (struct rec *)&fake_clock;

	(void)state;
	key(KEY_F12, 1, 10, 0);
	add(-ENODEV, 0, 0, 0, 0, 0);
	assert_int_equal(src_evdev_open(&s, r, KEY_F12, FAKE_DEV), 0);
	/* make the pipe readable so epoll reports the device */
	assert_int_equal(write(fake_fds[1], "x", 1), 1);
	assert_int_equal(s.read(&s, r), 0);
	assert_int_equal(nemitted, 1);
	assert_int_equal(s.read(&s, r), 0);	/* nothing left to read */
	s.close(&s, r);
	assert_int_equal(nemitted, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_presses_only, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_realtime_fallback, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_syn_dropped, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_open_errors, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_unplugged, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
