/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * quirks.h - usb-storage/uas quirk flags: what the kernel has built in for a
 * VID:PID (in uas's table and, where they concern UAS, usb-storage's), what
 * the "quirks" module parameter and the kernel command line add, and how
 * the kernel combines them.
 *
 * Flag values are the kernel's US_FL_* (include/linux/usb_usual.h); they
 * are only compared among themselves, never passed to the kernel.
 */
#ifndef USBTRAIL_QUIRKS_H
#define USBTRAIL_QUIRKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define QUIRKS_FL_SINGLE_LUN		0x00000001ul
#define QUIRKS_FL_FIX_CAPACITY		0x00000010ul
#define QUIRKS_FL_IGNORE_RESIDUE	0x00000020ul
#define QUIRKS_FL_NOT_LOCKABLE		0x00000080ul
#define QUIRKS_FL_NO_WP_DETECT		0x00000200ul
#define QUIRKS_FL_MAX_SECTORS_64	0x00000400ul
#define QUIRKS_FL_IGNORE_DEVICE		0x00000800ul
#define QUIRKS_FL_CAPACITY_HEURISTICS	0x00001000ul
#define QUIRKS_FL_SANE_SENSE		0x00008000ul
#define QUIRKS_FL_CAPACITY_OK		0x00010000ul
#define QUIRKS_FL_BAD_SENSE		0x00020000ul
#define QUIRKS_FL_NO_READ_DISC_INFO	0x00040000ul
#define QUIRKS_FL_NO_READ_CAPACITY_16	0x00080000ul
#define QUIRKS_FL_INITIAL_READ10	0x00100000ul
#define QUIRKS_FL_WRITE_CACHE		0x00200000ul
#define QUIRKS_FL_IGNORE_UAS		0x00800000ul
#define QUIRKS_FL_BROKEN_FUA		0x01000000ul
#define QUIRKS_FL_NO_ATA_1X		0x02000000ul
#define QUIRKS_FL_NO_REPORT_OPCODES	0x04000000ul
#define QUIRKS_FL_MAX_SECTORS_240	0x08000000ul
#define QUIRKS_FL_NO_REPORT_LUNS	0x10000000ul
#define QUIRKS_FL_ALWAYS_SYNC		0x20000000ul
#define QUIRKS_FL_NO_SAME		0x40000000ul

/* The flags a "quirks=" entry replaces (mask in usb_stor_adjust_quirks()) */
#define QUIRKS_PARAM_MASK (QUIRKS_FL_SANE_SENSE | QUIRKS_FL_BAD_SENSE | \
	QUIRKS_FL_FIX_CAPACITY | QUIRKS_FL_IGNORE_UAS | \
	QUIRKS_FL_CAPACITY_HEURISTICS | QUIRKS_FL_IGNORE_DEVICE | \
	QUIRKS_FL_NOT_LOCKABLE | QUIRKS_FL_MAX_SECTORS_64 | \
	QUIRKS_FL_CAPACITY_OK | QUIRKS_FL_IGNORE_RESIDUE | \
	QUIRKS_FL_SINGLE_LUN | QUIRKS_FL_NO_WP_DETECT | \
	QUIRKS_FL_NO_READ_DISC_INFO | QUIRKS_FL_NO_READ_CAPACITY_16 | \
	QUIRKS_FL_INITIAL_READ10 | QUIRKS_FL_WRITE_CACHE | \
	QUIRKS_FL_NO_ATA_1X | QUIRKS_FL_NO_REPORT_OPCODES | \
	QUIRKS_FL_MAX_SECTORS_240 | QUIRKS_FL_NO_REPORT_LUNS | \
	QUIRKS_FL_ALWAYS_SYNC | QUIRKS_FL_NO_SAME)

/* Which driver acts on a flag (quirks_flag_info.drivers) */
#define QUIRKS_BY_UAS		0x1u	/* uas.c or uas-detect.h */
#define QUIRKS_BY_USB_STORAGE	0x2u	/* usb.c, scsiglue.c, transport.c */

struct quirks_flag_info {
	unsigned long flag;
	const char *name;	/* "IGNORE_UAS", the US_FL_ name */
	char letter;		/* for "quirks=", 0 if it has none */
	unsigned int drivers;	/* QUIRKS_BY_*: who reads the flag */
	const char *effect;	/* one line for people, naming the drivers */
};

const struct quirks_flag_info *quirks_flag_info(unsigned long flag);
unsigned long quirks_flag_from_name(const char *name);

int quirks_param_lookup(const char *param, uint16_t vid, uint16_t pid,
			unsigned long *flags, char *entry, size_t entry_len);
int quirks_cmdline_value(const char *cmdline, char *out, size_t out_len);
/* The kernel table a built-in entry is in (data/unusual-uas.tsv, "table") */
enum quirks_table {
	QUIRKS_TABLE_UAS,	/* unusual_uas.h: what the uas driver's probe sees */
	QUIRKS_TABLE_DEVS,	/* unusual_devs.h: what usb-storage's probe sees */
};

int quirks_builtin_lookup(enum quirks_table table, uint16_t vid,
			  uint16_t pid, uint16_t bcd_device,
			  unsigned long *flags, const char **source);
int quirks_format_flags(unsigned long flags, char *buf, size_t len);

#endif /* USBTRAIL_QUIRKS_H */
