/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * quirks_patch.h - the kernel patch that adds a device's quirk to
 * drivers/usb/storage/unusual_uas.h or unusual_devs.h: the UNUSUAL_DEV
 * entry in the tables' own layout, and the unified diff that puts it where
 * the file's order (VID, then PID) wants it, against the text of the file
 * in a kernel tree.  Pure: text in, text out.
 */
#ifndef USBTRAIL_QUIRKS_PATCH_H
#define USBTRAIL_QUIRKS_PATCH_H

#include <stddef.h>
#include <stdint.h>

#include "quirks.h"
#include "util.h"

struct quirks_entry {
	uint16_t vid, pid;
	uint16_t bcd_min, bcd_max;	/* 0x0000, 0x9999: every release */
	const char *vendor;		/* the device's strings; "" if none */
	const char *product;
	unsigned long flags;		/* QUIRKS_FL_*: what to set */
	const char *comment;		/* the line above it, or NULL */
};

/*
 * The table file of the driver a device runs on: "unusual_uas.h" for uas
 * (usb-storage reads it too, through unusual_devs.h), else "unusual_devs.h"
 */
const char *quirks_patch_file(enum quirks_table table);

/*
 * The entry as the tables write it ("UNUSUAL_DEV(0x..." to "),\n"),
 * after its comment, onto b.  -EINVAL for flags with no US_FL_ name.
 */
int quirks_entry_format(struct util_str *b, const struct quirks_entry *e);

struct quirks_patch_stat {
	unsigned int added, removed;	/* lines, for the diffstat */
	unsigned int line;		/* where in the file (1-based) */
	int changed_entry;		/* 1: e's flags added to its entry */
};

/*
 * The diff (git's form: "diff --git a/PATH b/PATH", three lines of
 * context) that adds e to text (len bytes, the file at PATH in a kernel
 * tree, e.g. "drivers/usb/storage/unusual_uas.h") onto b.  The entry
 * goes after the one with the greatest VID:PID below e's (and past an
 * #endif that closes it), or before the first entry and its comment.  If
 * an entry of the same VID:PID covers e's bcd_min, e's flags are added to
 * it instead.  -ENOENT: text has no UNUSUAL_DEV entry (not a table);
 * -EEXIST: that entry has e's flags already; -EINVAL: unusable flags, a
 * text not ending in a newline, or one holding a NUL.
 */
int quirks_patch_diff(struct util_str *b, const char *text, size_t len,
		      const char *path, const struct quirks_entry *e,
		      struct quirks_patch_stat *st);

#endif /* USBTRAIL_QUIRKS_PATCH_H */
