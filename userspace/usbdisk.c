// SPDX-License-Identifier: GPL-2.0-only
/*
 * usbdisk.c - who a USB disk is, from sysfs (usbdisk.h): the chain
 * sysfs_usb.c walks from the USB interface to the disk, with the
 * attributes the recorder's device events carry.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "sysfs_usb.h"
#include "usbdisk.h"

static void usbdisk_text(const char *dir, const char *attr, char *buf,
			 size_t len)
{
	char rel[256];

	buf[0] = '\0';
	if (snprintf(rel, sizeof(rel), "%s/%s", dir, attr) >= (int)sizeof(rel) ||
	    sysfs_usb_read_text(rel, buf, len) < 0)
		buf[0] = '\0';
}

static int usbdisk_int(const char *dir, const char *attr)
{
	char buf[32];

	usbdisk_text(dir, attr, buf, sizeof(buf));
	return buf[0] ? atoi(buf) : -1;
}

/**
 * usbdisk_read_iface() - the identity of the disk on a USB interface
 * @iface: "2-1:1.0"
 * @out:   filled on success
 *
 * Return: 0, -ENODEV when no disk is on it (yet), or sysfs_usb's error.
 */
int usbdisk_read_iface(const char *iface, struct usbdisk *out)
{
	struct sysfs_usb_iface it;
	char dir[128], rel[128], buf[32];
	unsigned int maj, min;
	int ret;

	ret = sysfs_usb_iface_read(iface, &it);
	if (ret)
		return ret;
	if (!it.block[0]) {
		sysfs_usb_iface_free(&it);
		return -ENODEV;
	}
	memset(out, 0, sizeof(*out));
	snprintf(out->ident.disk, sizeof(out->ident.disk), "%s", it.block);
	snprintf(out->ident.usb, sizeof(out->ident.usb), "%s", it.usb);
	snprintf(dir, sizeof(dir), "/sys/bus/usb/devices/%s", it.usb);
	out->ident.busnum = usbdisk_int(dir, "busnum");
	out->ident.devnum = usbdisk_int(dir, "devnum");
	snprintf(rel, sizeof(rel), "/sys/class/block/%s/device", it.block);
	if (sysfs_usb_link_name(rel, out->ident.scsi, sizeof(out->ident.scsi)))
		out->ident.scsi[0] = '\0';
	out->dev.vid = it.dev.vid;
	out->dev.pid = it.dev.pid;
	out->dev.speed_mbps = it.dev.speed_mbps;
	snprintf(out->dev.driver, sizeof(out->dev.driver), "%s", it.driver);
	snprintf(out->dev.hcd, sizeof(out->dev.hcd), "%s", it.hcd.name);
	snprintf(out->dev.hcd_driver, sizeof(out->dev.hcd_driver), "%s",
		 it.hcd.driver);
	snprintf(out->dev.product, sizeof(out->dev.product), "%s",
		 it.dev.product);
	usbdisk_text(dir, "serial", out->dev.serial, sizeof(out->dev.serial));
	usbdisk_text(rel, "vendor", out->vendor, sizeof(out->vendor));
	usbdisk_text(rel, "model", out->model, sizeof(out->model));
	snprintf(rel, sizeof(rel), "/sys/class/block/%s", it.block);
	usbdisk_text(rel, "dev", buf, sizeof(buf));
	if (sscanf(buf, "%u:%u", &maj, &min) == 2)
		out->dev.devt = (min & 0xff) | (maj << 8) |
				((min & ~0xffu) << 12);
	sysfs_usb_iface_free(&it);
	return 0;
}

/**
 * usbdisk_read_block() - the identity of a disk, or of a partition's disk
 * @name: "sdc" or "sdc1"
 * @out:  filled on success
 *
 * Return: 0, -ENOENT if there is no such block device, -ENODEV if it is
 * not on USB.
 */
int usbdisk_read_block(const char *name, struct usbdisk *out)
{
	char iface[SYSFS_USB_NAME_MAX];
	int ret;

	ret = sysfs_usb_iface_from_block(name, iface, sizeof(iface));
	return ret ? ret : usbdisk_read_iface(iface, out);
}

/**
 * usbdisk_where_dev() - the block device of a device number, and its disk
 * @dev: a file's st_dev (or a block device's st_rdev)
 * @out: filled on success: @out->usb says whether it is a USB disk's
 *
 * Return: 0, or -ENODEV when @dev is no block device (tmpfs, NFS...).
 */
int usbdisk_where_dev(dev_t dev, struct usbdisk_where *out)
{
	char rel[64];

	memset(out, 0, sizeof(*out));
	snprintf(rel, sizeof(rel), "/sys/dev/block/%u:%u", major(dev),
		 minor(dev));
	if (sysfs_usb_link_name(rel, out->block, sizeof(out->block)))
		return -ENODEV;
	out->usb = !usbdisk_read_block(out->block, &out->disk);
	if (!out->usb)
		snprintf(out->disk.ident.disk, sizeof(out->disk.ident.disk),
			 "%s", out->block);
	return 0;
}
