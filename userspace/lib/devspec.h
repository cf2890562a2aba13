/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * devspec.h - how a user names a USB storage device on the command line.
 */
#ifndef USBTRAIL_DEVSPEC_H
#define USBTRAIL_DEVSPEC_H

#include <stdint.h>

/* A USB tree is at most 7 tiers deep: root hub plus 5 hubs, then the device. */
#define DEVSPEC_MAX_PORTS	6
#define DEVSPEC_DISK_MAX	15	/* "sd", letters, partition: no NUL */

enum devspec_kind {
	DEVSPEC_DISK,		/* sda, /dev/sdb, sdc1 (its partition) */
	DEVSPEC_USB_PATH,	/* 2-1, 2-1.4.3: bus-port[.port]... */
	DEVSPEC_VID_PID,	/* 0bda:9210 */
};

struct devspec {
	enum devspec_kind kind;
	char disk[DEVSPEC_DISK_MAX + 1];	/* DEVSPEC_DISK: sdc, sdc1 */
	unsigned int bus;			/* DEVSPEC_USB_PATH */
	unsigned int nports;
	unsigned int ports[DEVSPEC_MAX_PORTS];
	uint16_t vid, pid;			/* DEVSPEC_VID_PID */
};

int devspec_parse(const char *s, struct devspec *out);

#endif /* USBTRAIL_DEVSPEC_H */
