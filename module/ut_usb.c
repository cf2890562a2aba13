// SPDX-License-Identifier: GPL-2.0-only
/*
 * usbtrail.ko: USB devices coming and going.
 *
 * usbcore's notifier tells of every device added or removed; a record of
 * each lets userspace follow a disk across unplug and replug (new bus and
 * device numbers, the same serial number hash and port path), and lets
 * the counters forget a device's endpoints when it goes.  This is the one
 * place usbtrail.ko calls into usbcore, so usbcore must be loaded first.
 */
#include <linux/notifier.h>
#include <linux/string.h>
#include <linux/usb.h>

#include "ut.h"

/* FNV-1a: the serial number is identity, not something to keep verbatim */
static u32 ut_usb_hash(const char *s)
{
	u32 h = 2166136261u;

	if (!s || !*s)
		return 0;
	while (*s) {
		h ^= (u8)*s++;
		h *= 16777619u;
	}
	return h ?: 1;
}

static int ut_usb_notify(struct notifier_block *nb, unsigned long action,
			 void *data)
{
	struct usbtrail_record rec = { 0 };
	struct usb_device *udev = data;

	switch (action) {
	case USB_DEVICE_ADD:
		rec.type = USBTRAIL_REC_USB_ADD;
		break;
	case USB_DEVICE_REMOVE:
		rec.type = USBTRAIL_REC_USB_REMOVE;
		break;
	default:
		return NOTIFY_DONE;	/* bus add/remove: data is a usb_bus */
	}
	rec.u.usbdev.busnum = udev->bus->busnum;
	rec.u.usbdev.devnum = udev->devnum;
	rec.u.usbdev.vid = le16_to_cpu(udev->descriptor.idVendor);
	rec.u.usbdev.pid = le16_to_cpu(udev->descriptor.idProduct);
	rec.u.usbdev.speed = udev->speed;
	strscpy(rec.u.usbdev.devpath, udev->devpath,
		sizeof(rec.u.usbdev.devpath));
	rec.u.usbdev.serial_hash = ut_usb_hash(udev->serial);
	if (action == USB_DEVICE_REMOVE)
		ut_stats_usb_gone(udev->bus->busnum, udev->devnum);
	ut_emit(&rec);
	return NOTIFY_OK;
}

static struct notifier_block ut_usb_nb = {
	.notifier_call = ut_usb_notify,
};

void ut_usb_init(void)
{
	usb_register_notify(&ut_usb_nb);
}

void ut_usb_exit(void)
{
	usb_unregister_notify(&ut_usb_nb);
}

u32 ut_usb_sources(void)
{
	return USBTRAIL_SRC_USBDEV;	/* registered for the module's life */
}
