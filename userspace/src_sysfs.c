// SPDX-License-Identifier: GPL-2.0-only
/*
 * src_sysfs.c - the recorder's source for device identity: which disk sits
 * behind which USB device, port, driver and host controller, as sysfs says
 * (usbdisk.c), when recording starts and whenever a kernel uevent says
 * USB or block devices came or went.
 *
 * Each change is an EV_DEVICE event; devmap.c keeps the table.  The list
 * is read again as a whole on every burst of uevents and compared with the
 * last one, so a missed or reordered uevent cannot leave it wrong.
 * Uevents come from the kernel's netlink socket (NETLINK_KOBJECT_UEVENT,
 * group 1), which needs no udev.
 */
#include <errno.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "record.h"
#include "sysfs_usb.h"
#include "usbdisk.h"

#define SRC_SYSFS_MAX	DEVMAP_MAX

struct src_sysfs_disk {
	struct ev_ident ident;
	struct ev_device dev;
};

struct src_sysfs {
	struct src_sysfs_disk disks[SRC_SYSFS_MAX];
	unsigned int n;
	bool first;
};

/* One USB storage interface with a disk: its identity now. */
static int src_sysfs_read_one(const char *iface, struct src_sysfs_disk *d)
{
	struct usbdisk u;
	int ret;

	ret = usbdisk_read_iface(iface, &u);
	if (ret)
		return ret;
	d->ident = u.ident;
	d->dev = u.dev;
	return 0;
}

static void src_sysfs_emit(struct rec_source *s, struct rec *r,
			   const struct src_sysfs_disk *d,
			   enum ev_device_action action)
{
	struct ev *ev = ev_new(EV_DEVICE, EV_SRC_SYSFS, ev_clock_now());

	if (!ev) {
		rec_emit(r, NULL);
		return;
	}
	ev->ident = d->ident;
	ev->u.device = d->dev;
	ev->u.device.action = action;
	s->events++;
	rec_emit(r, ev);
}

static bool src_sysfs_same(const struct src_sysfs_disk *a,
			   const struct src_sysfs_disk *b)
{
	return !strcmp(a->ident.usb, b->ident.usb) &&
	       !strcmp(a->ident.disk, b->ident.disk);
}

/* Read the list again and report what changed since the last one. */
static int src_sysfs_scan(struct rec_source *s, struct rec *r)
{
	static char names[SRC_SYSFS_MAX][SYSFS_USB_NAME_MAX];
	struct src_sysfs *st = s->priv;
	struct src_sysfs_disk now[SRC_SYSFS_MAX];
	unsigned int n = 0, cnt = 0, i, j;
	int ret;

	ret = sysfs_usb_iface_list(names, SRC_SYSFS_MAX, &cnt);
	if (ret && ret != -ENOENT)
		return ret;
	for (i = 0; i < cnt; i++)
		if (!src_sysfs_read_one(names[i], &now[n]))
			n++;
	for (i = 0; i < st->n; i++) {
		for (j = 0; j < n && !src_sysfs_same(&st->disks[i], &now[j]);
		     j++)
			;
		if (j == n)
			src_sysfs_emit(s, r, &st->disks[i], EV_DEVICE_REMOVE);
	}
	for (j = 0; j < n; j++) {
		for (i = 0; i < st->n && !src_sysfs_same(&st->disks[i], &now[j]);
		     i++)
			;
		if (i == st->n)
			src_sysfs_emit(s, r, &now[j], st->first ?
				       EV_DEVICE_PRESENT : EV_DEVICE_ADD);
		else if (st->disks[i].ident.devnum != now[j].ident.devnum ||
			 strcmp(st->disks[i].ident.scsi, now[j].ident.scsi))
			src_sysfs_emit(s, r, &now[j], EV_DEVICE_CHANGE);
	}
	memcpy(st->disks, now, n * sizeof(now[0]));
	st->n = n;
	st->first = false;
	return 0;
}

static bool src_sysfs_relevant(const char *msg, size_t len)
{
	size_t off;

	/* "ACTION@DEVPATH\0KEY=VALUE\0..." */
	for (off = 0; off < len; off += strnlen(msg + off, len - off) + 1)
		if (!strncmp(msg + off, "SUBSYSTEM=", 10)) {
			const char *v = msg + off + 10;

			return !strcmp(v, "block") || !strcmp(v, "usb") ||
			       !strcmp(v, "scsi");
		}
	return false;
}

static int src_sysfs_read(struct rec_source *s, struct rec *r)
{
	char buf[8192];
	bool rescan = false;
	ssize_t n;

	for (;;) {
		n = recv(s->fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				break;
			if (errno == ENOBUFS) {	/* we fell behind: rescan */
				rescan = true;
				continue;
			}
			return -errno;
		}
		buf[n] = '\0';
		if (src_sysfs_relevant(buf, (size_t)n))
			rescan = true;
	}
	return rescan ? src_sysfs_scan(s, r) : 0;
}

int src_sysfs_open(struct rec_source *s, struct rec *r)
{
	struct sockaddr_nl sa = {
		.nl_family = AF_NETLINK,
		.nl_groups = 1,		/* kernel uevents */
	};
	struct src_sysfs *st;
	int fd, ret;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
		    NETLINK_KOBJECT_UEVENT);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		ret = -errno;
		close(fd);
		return ret;
	}
	st = calloc(1, sizeof(*st));
	if (!st) {
		close(fd);
		return -ENOMEM;
	}
	st->first = true;
	memset(s, 0, sizeof(*s));
	s->name = "sysfs";
	s->id = EV_SRC_SYSFS;
	s->fd = fd;
	s->priv = st;
	s->read = src_sysfs_read;
	s->close = rec_source_close_fd;
	ret = src_sysfs_scan(s, r);
	if (ret) {
		rec_source_close_fd(s, r);
		return ret;
	}
	return 0;
}
