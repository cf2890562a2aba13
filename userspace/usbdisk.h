/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * usbdisk.h - who a USB disk is, as sysfs says now: its port path, bus
 * and device number, SCSI address, USB ids, link speed, driver (uas or
 * usb-storage), host controller, serial and product string (the fields of
 * the recorder's EV_DEVICE events), and the SCSI vendor and model lsblk
 * shows.  The recorder's sysfs source reads disks with it; usbtrail
 * stress reads its target's, or that of the disk holding its file.
 *
 * Paths are read below sysfs_usb's root (sysfs_usb_set_root()).  Nothing
 * is logged.
 */
#ifndef USBTRAIL_USBDISK_H
#define USBTRAIL_USBDISK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "event.h"

struct usbdisk {
	struct ev_ident ident;		/* disk "sdc", usb "2-1", scsi ... */
	struct ev_device dev;		/* vid, pid, speed, driver, ... */
	char vendor[16];		/* SCSI INQUIRY, "" if none */
	char model[32];
};

/*
 * Where a target lives: the block device (@block, "sdc1" or "dm-0"), the
 * whole disk it is part of, and that disk's identity when it is on USB.
 */
struct usbdisk_where {
	char block[32];			/* "" when not on a block device */
	bool usb;			/* @disk is a USB disk */
	struct usbdisk disk;		/* ident.disk: the whole disk */
};

int usbdisk_read_iface(const char *iface, struct usbdisk *out);
int usbdisk_read_block(const char *name, struct usbdisk *out);
int usbdisk_where_dev(dev_t dev, struct usbdisk_where *out);

#endif /* USBTRAIL_USBDISK_H */
