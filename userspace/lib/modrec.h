/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * modrec: records of usbtrail.ko (struct usbtrail_record, from
 * module/uapi/linux/usbtrail.h) parsed from bytes and written as text.
 */
#ifndef USBTRAIL_MODREC_H
#define USBTRAIL_MODREC_H

#include <stddef.h>
#include <linux/usbtrail.h>

/*
 * Parse one record from buf (len bytes, any alignment) into *rec.
 * Returns the bytes consumed (USBTRAIL_RECORD_SIZE), -EMSGSIZE if len is
 * short of one record, -EINVAL for an unknown type.  *rec is written only
 * on success.
 */
int modrec_parse(const void *buf, size_t len, struct usbtrail_record *rec);

/* "xhci-transfer" etc.; "?" for an unknown type.  Static string. */
const char *modrec_type_name(unsigned int type);

/*
 * The record as one line of text, in the form the module prints on panic
 * and in debugfs usbtrail/flight (docs/module.md), without a newline.
 * Returns the length written (at most size - 1).
 */
int modrec_format(const struct usbtrail_record *rec, char *buf, size_t size);

#endif /* USBTRAIL_MODREC_H */
