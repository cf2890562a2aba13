/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sysfs_usb.h - read what sysfs says about USB storage interfaces: the
 * chain from a block device through SCSI to the USB interface, its device,
 * the hubs above it and the host controller.
 *
 * Every path is taken relative to a root directory, "/" unless
 * sysfs_usb_set_root() says otherwise (as tracefs_set_tracing_dir() does
 * for libtracefs), so unit tests run against fixture trees.  Functions
 * return 0 or a negative errno; -ENOENT means the object is gone (or never
 * was), -EACCES that it could not be read.  Nothing is logged.
 */
#ifndef USBTRAIL_SYSFS_USB_H
#define USBTRAIL_SYSFS_USB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SYSFS_USB_NAME_MAX	48
#define SYSFS_USB_MAX_HUBS	7	/* root hub + 5 tiers + margin */

struct sysfs_usb_dev {
	char name[SYSFS_USB_NAME_MAX];	/* "2-1.4", or "usb2" for a root hub */
	uint16_t vid, pid, bcd_device;
	char speed[16];			/* as sysfs writes it: "5000", "1.5" */
	unsigned int speed_mbps;	/* 0 if unknown, 1 for 1.5 */
	char driver[32];		/* "usb" normally */
	char manufacturer[64], product[64];
	unsigned int maxchild;		/* ports, for hubs */
};

struct sysfs_usb_hcd {
	unsigned int busnum;
	char name[SYSFS_USB_NAME_MAX];	/* "0000:00:14.0" */
	char driver[32];		/* "xhci_hcd", "ehci-pci", ... */
	bool is_pci;
	uint16_t pci_vendor, pci_device;
};

/* Bits of sysfs_usb_iface.unreadable: what could not be read, and why not */
#define SYSFS_USB_UNREAD_DESCRIPTORS	0x1u
#define SYSFS_USB_UNREAD_HCD		0x2u
#define SYSFS_USB_UNREAD_BLOCK		0x4u

struct sysfs_usb_iface {
	char iface[SYSFS_USB_NAME_MAX];	/* "2-1:1.0" */
	char usb[SYSFS_USB_NAME_MAX];	/* "2-1" */
	unsigned int config, ifnum;
	char driver[32];		/* "" if none is bound */
	char block[32];			/* "sda", "" if none */
	struct sysfs_usb_dev dev;
	unsigned int nhubs;		/* root hub first, device excluded */
	struct sysfs_usb_dev hubs[SYSFS_USB_MAX_HUBS];
	struct sysfs_usb_hcd hcd;
	unsigned int unreadable;	/* SYSFS_USB_UNREAD_* */
	int descriptors_err;		/* why descriptors are missing */
	uint8_t *descriptors;		/* sysfs "descriptors", malloc'd */
	size_t descriptors_len;
};

int sysfs_usb_set_root(const char *dir);
const char *sysfs_usb_get_root(void);
int sysfs_usb_path(const char *rel, char *buf, size_t len);

int sysfs_usb_read_text(const char *rel, char *buf, size_t len);
int sysfs_usb_read_file(const char *rel, size_t max, uint8_t **buf,
			size_t *len);
int sysfs_usb_link_name(const char *rel, char *buf, size_t len);
bool sysfs_usb_exists(const char *rel);

int sysfs_usb_iface_list(char (*names)[SYSFS_USB_NAME_MAX],
			 unsigned int max, unsigned int *n);
int sysfs_usb_iface_from_block(const char *disk, char *iface, size_t len);
int sysfs_usb_iface_block(const char *iface, char *block, size_t len);
unsigned long sysfs_usb_iface_timeouts(const char *iface);
int sysfs_usb_disk_idle(const char *disk);
int sysfs_usb_iface_read(const char *iface, struct sysfs_usb_iface *out);
void sysfs_usb_iface_free(struct sysfs_usb_iface *it);

bool sysfs_usb_is_iface_name(const char *s);
unsigned int sysfs_usb_parse_speed(const char *s);

#endif /* USBTRAIL_SYSFS_USB_H */
