// SPDX-License-Identifier: GPL-2.0-only
/*
 * src_evdev.c - the marker key of "usbtrail record --marker-key KEY": each
 * press of KEY on a keyboard (an evdev device) becomes an EV_MARKER event,
 * so a user watching a disk misbehave can mark the moment in the timeline.
 *
 * Without --marker-device every /dev/input/event* that has KEY is read,
 * and keyboards that appear later (inotify on /dev/input) are added; with
 * it, only that device.  Devices are never grabbed: the keyboard goes on
 * working for everyone else.  All device fds sit in one epoll fd, which is
 * the source's one pollable fd.
 *
 * Time: each of our fds asks the kernel for CLOCK_BOOTTIME event times
 * (EVIOCSCLOCKID is per open file, other readers keep their clock); if the
 * kernel refuses, CLOCK_REALTIME times are moved by the recorder's offset.
 * A SYN_DROPPED (the kernel's buffer for us overflowed) is counted as lost
 * and libevdev resynchronises the device state.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <libevdev/libevdev.h>
#include <linux/input.h>

#include "record.h"

#define SRC_EVDEV_DIR		"/dev/input"
#define SRC_EVDEV_MAX		32	/* devices watched at once */
#define SRC_EVDEV_READS		256	/* events per device per call */

struct src_evdev_dev {
	struct libevdev *dev;
	int fd;
	bool boottime;			/* EVIOCSCLOCKID took CLOCK_BOOTTIME */
	char path[256];
	char name[128];
};

struct src_evdev {
	int code;			/* the EV_KEY code */
	char key[64];			/* "F12" */
	int ep;				/* epoll: device fds and inotify */
	int ino;			/* inotify on /dev/input, or -1 */
	struct src_evdev_dev *devs[SRC_EVDEV_MAX];
	uint64_t lost_total;
};

/* "F12" for KEY_F12, "BTN_LEFT" as it is, the number if libevdev has none */
static void src_evdev_key_name(int code, char *buf, size_t len)
{
	const char *name = libevdev_event_code_get_name(EV_KEY,
							(unsigned int)code);

	if (!name)
		snprintf(buf, len, "%d", code);
	else if (!strncmp(name, "KEY_", 4))
		snprintf(buf, len, "%s", name + 4);
	else
		snprintf(buf, len, "%s", name);
}

/* An input event's time on CLOCK_BOOTTIME, in ns. */
static uint64_t src_evdev_time(const struct src_evdev_dev *d,
			       const struct input_event *ie,
			       const struct ev_clock *clock)
{
	int64_t ns = (int64_t)ie->input_event_sec * 1000000000 +
		     (int64_t)ie->input_event_usec * 1000;

	if (!d->boottime)
		ns -= clock->boot_to_real_ns;
	return ns < 0 ? 0 : (uint64_t)ns;
}

static void src_evdev_lost(struct rec_source *s, struct rec *r,
			   const struct src_evdev_dev *d)
{
	struct src_evdev *p = s->priv;
	struct ev *ev = ev_new(EV_LOST, EV_SRC_EVDEV, ev_clock_now());

	/* we cannot know how many were dropped: one overflow, one count */
	s->lost++;
	p->lost_total++;
	if (!ev) {
		rec_emit(r, NULL);
		return;
	}
	ev->u.lost.source = EV_SRC_EVDEV;
	ev->u.lost.count = 1;
	ev->u.lost.total = p->lost_total;
	snprintf(ev->u.lost.why, sizeof(ev->u.lost.why),
		 "SYN_DROPPED on %.40s", d->path);
	rec_emit(r, ev);
}

static void src_evdev_marker(struct rec_source *s, struct rec *r,
			     const struct src_evdev_dev *d,
			     const struct input_event *ie)
{
	struct src_evdev *p = s->priv;
	struct ev *ev = ev_new(EV_MARKER, EV_SRC_EVDEV,
			       src_evdev_time(d, ie, rec_clock(r)));

	if (!ev) {
		rec_emit(r, NULL);
		return;
	}
	ev->u.marker.kind = EV_MARKER_KEY;
	snprintf(ev->u.marker.text, sizeof(ev->u.marker.text),
		 "key %.24s on %.120s (%.90s)", p->key, d->path,
		 d->name);
	s->events++;
	rec_emit(r, ev);
}

static void src_evdev_dev_free(struct src_evdev_dev *d)
{
	if (!d)
		return;
	libevdev_free(d->dev);
	if (d->fd >= 0)
		close(d->fd);
	free(d);
}

/*
 * Open PATH and keep it if it has our key.
 *
 * Return: 0 kept, -ENOKEY without the key, -EBUSY already watched or no
 * room, or the -errno of open() or libevdev.
 */
static int src_evdev_add(struct src_evdev *p, const char *path)
{
	struct epoll_event ee = { .events = EPOLLIN };
	struct input_event drain[64];
	struct src_evdev_dev *d;
	int clk = CLOCK_BOOTTIME;
	unsigned int i, slot = SRC_EVDEV_MAX;
	int ret;

	for (i = 0; i < SRC_EVDEV_MAX; i++) {
		if (p->devs[i] && !strcmp(p->devs[i]->path, path))
			return -EBUSY;
		if (!p->devs[i] && slot == SRC_EVDEV_MAX)
			slot = i;
	}
	if (slot == SRC_EVDEV_MAX)
		return -EBUSY;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	snprintf(d->path, sizeof(d->path), "%s", path);
	/* O_RDONLY and never EVIOCGRAB: others keep their keyboard */
	d->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (d->fd < 0) {
		ret = -errno;
		goto err_free;
	}
	/*
	 * Before libevdev reads the device state: changing the clock makes
	 * the kernel flush our queue with a SYN_DROPPED if it was not empty.
	 * What was queued happened before we started; drop it ourselves.
	 */
	d->boottime = !ioctl(d->fd, EVIOCSCLOCKID, &clk);
	while (read(d->fd, drain, sizeof(drain)) > 0)
		;
	ret = libevdev_new_from_fd(d->fd, &d->dev);
	if (ret < 0)
		goto err_free;
	if (!libevdev_has_event_code(d->dev, EV_KEY, (unsigned int)p->code)) {
		ret = -ENOKEY;
		goto err_free;
	}
	snprintf(d->name, sizeof(d->name), "%s",
		 libevdev_get_name(d->dev) ? libevdev_get_name(d->dev) : "?");
	ee.data.ptr = d;
	if (epoll_ctl(p->ep, EPOLL_CTL_ADD, d->fd, &ee)) {
		ret = -errno;
		goto err_free;
	}
	p->devs[slot] = d;
	return 0;

err_free:
	src_evdev_dev_free(d);
	return ret;
}

static void src_evdev_remove(struct src_evdev *p, struct src_evdev_dev *d)
{
	unsigned int i;

	for (i = 0; i < SRC_EVDEV_MAX; i++)
		if (p->devs[i] == d)
			p->devs[i] = NULL;
	epoll_ctl(p->ep, EPOLL_CTL_DEL, d->fd, NULL);
	src_evdev_dev_free(d);
}

/*
 * Every /dev/input/eventN with our key.
 *
 * Return: how many were added, or -errno when none could be and one
 * failed for a reason other than lacking the key (-EACCES as non-root).
 */
static int src_evdev_scan(struct src_evdev *p)
{
	struct dirent **names;
	int n, i, added = 0, err = 0, ret;
	char path[PATH_MAX];

	n = scandir(SRC_EVDEV_DIR, &names, NULL, versionsort);
	if (n < 0)
		return -errno;
	for (i = 0; i < n; i++) {
		if (!strncmp(names[i]->d_name, "event", 5)) {
			snprintf(path, sizeof(path), "%s/%s", SRC_EVDEV_DIR,
				 names[i]->d_name);
			ret = src_evdev_add(p, path);
			if (!ret)
				added++;
			else if (ret != -ENOKEY && ret != -EBUSY && !err)
				err = ret;
		}
		free(names[i]);
	}
	free(names);
	return added ? added : err;
}

/* Keyboards plugged in while we record: try each new eventN node. */
static void src_evdev_hotplug(struct src_evdev *p)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	char path[PATH_MAX];
	ssize_t n;
	size_t off;

	while ((n = read(p->ino, buf, sizeof(buf))) > 0) {
		for (off = 0; off + sizeof(struct inotify_event) <= (size_t)n;) {
			const struct inotify_event *ie =
				(const struct inotify_event *)(buf + off);

			off += sizeof(*ie) + ie->len;
			if (!ie->len || strncmp(ie->name, "event", 5))
				continue;
			snprintf(path, sizeof(path), "%s/%s", SRC_EVDEV_DIR,
				 ie->name);
			/* udev may make it readable only later: IN_ATTRIB */
			src_evdev_add(p, path);
		}
	}
}

/*
 * Drain one device.  Return: 0, or -ENODEV when it went away (unplugged):
 * the caller drops it, the recording goes on.
 */
static int src_evdev_drain(struct rec_source *s, struct rec *r,
			   struct src_evdev_dev *d)
{
	struct src_evdev *p = s->priv;
	unsigned int flag = LIBEVDEV_READ_FLAG_NORMAL;
	struct input_event ie;
	int i, ret;

	for (i = 0; i < SRC_EVDEV_READS; i++) {
		ret = libevdev_next_event(d->dev, flag, &ie);
		if (ret == -EAGAIN) {
			if (flag == LIBEVDEV_READ_FLAG_NORMAL)
				return 0;
			flag = LIBEVDEV_READ_FLAG_NORMAL;  /* synced again */
			continue;
		}
		if (ret < 0)
			return ret == -EINTR ? 0 : ret;
		if (ret == LIBEVDEV_READ_STATUS_SYNC) {
			/*
			 * The first SYN_DROPPED comes as NORMAL status; the
			 * state deltas follow in SYNC mode.  A press among
			 * them happened while events were lost: no marker,
			 * its time is unknown.
			 */
			if (flag == LIBEVDEV_READ_FLAG_NORMAL)
				src_evdev_lost(s, r, d);
			flag = LIBEVDEV_READ_FLAG_SYNC;
			continue;
		}
		if (ie.type == EV_KEY && ie.code == p->code && ie.value == 1)
			src_evdev_marker(s, r, d, &ie);
	}
	return 0;
}

static int src_evdev_read(struct rec_source *s, struct rec *r)
{
	struct src_evdev *p = s->priv;
	struct epoll_event evs[SRC_EVDEV_MAX + 1];
	bool hotplug = false;
	int n, i, ret;

	n = epoll_wait(p->ep, evs, SRC_EVDEV_MAX + 1, 0);
	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	for (i = 0; i < n; i++) {
		struct src_evdev_dev *d = evs[i].data.ptr;

		if (!d) {
			hotplug = true;
			continue;
		}
		ret = src_evdev_drain(s, r, d);
		if (ret || (evs[i].events & (EPOLLHUP | EPOLLERR))) {
			if (ret && ret != -ENODEV)
				rec_warn(s, "%s: %s", d->path, strerror(-ret));
			src_evdev_remove(p, d);
		}
	}
	/* after the removals: a replugged keyboard may reuse its node name */
	if (hotplug)
		src_evdev_hotplug(p);
	return 0;
}

static void src_evdev_free(struct src_evdev *p)
{
	unsigned int i;

	for (i = 0; i < SRC_EVDEV_MAX; i++)
		src_evdev_dev_free(p->devs[i]);
	if (p->ino >= 0)
		close(p->ino);
	if (p->ep >= 0)
		close(p->ep);
	free(p);
}

static void src_evdev_close(struct rec_source *s, struct rec *r)
{
	struct src_evdev *p = s->priv;
	unsigned int i;

	if (!p)
		return;
	/* presses still queued in the kernel count: they were made */
	for (i = 0; i < SRC_EVDEV_MAX; i++)
		if (p->devs[i])
			src_evdev_drain(s, r, p->devs[i]);
	src_evdev_free(p);
	s->priv = NULL;
	s->fd = -1;
}

int src_evdev_open(struct rec_source *s, struct rec *r, int code,
		   const char *device)
{
	struct epoll_event ee = { .events = EPOLLIN, .data.ptr = NULL };
	struct src_evdev *p;
	int ret;

	(void)r;
	if (code < 0 || code > KEY_MAX)
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->code = code;
	p->ino = -1;
	src_evdev_key_name(code, p->key, sizeof(p->key));
	p->ep = epoll_create1(EPOLL_CLOEXEC);
	if (p->ep < 0) {
		ret = -errno;
		goto err;
	}
	if (device) {
		/* -ENOKEY if it has no such key */
		ret = src_evdev_add(p, device);
	} else {
		/*
		 * Watch before the scan, so a keyboard that appears between
		 * the two is seen.  Without inotify we do without hotplug.
		 */
		p->ino = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
		if (p->ino >= 0 &&
		    (inotify_add_watch(p->ino, SRC_EVDEV_DIR,
				       IN_CREATE | IN_ATTRIB) < 0 ||
		     epoll_ctl(p->ep, EPOLL_CTL_ADD, p->ino, &ee))) {
			close(p->ino);
			p->ino = -1;
		}
		ret = src_evdev_scan(p);
		if (ret == 0)
			ret = -ENOENT;	/* no keyboard has the key */
		else if (ret > 0)
			ret = 0;
	}
	if (ret)
		goto err;

	memset(s, 0, sizeof(*s));
	s->name = "evdev";
	s->id = EV_SRC_EVDEV;
	s->fd = p->ep;
	s->read = src_evdev_read;
	s->close = src_evdev_close;
	s->priv = p;
	return 0;

err:
	src_evdev_free(p);
	return ret;
}
