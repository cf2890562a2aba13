/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * usbtrail: a record as one line of text.  ut_format.c is compiled into
 * the module (panic dump, debugfs flight) and into the usbtrail command
 * (userspace/kshim/ stands in for the few kernel headers it uses), so
 * both print the same text.
 */
#ifndef UT_FORMAT_H
#define UT_FORMAT_H

#include <linux/types.h>
#include <linux/usbtrail.h>

/* "xhci-transfer" etc.; "?" for an unknown type.  A static string. */
const char *ut_format_type(unsigned int type);

/* One line, no newline; returns the length written (at most size - 1). */
int ut_format(char *buf, size_t size, const struct usbtrail_record *rec);

#endif /* UT_FORMAT_H */
