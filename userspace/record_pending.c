// SPDX-License-Identifier: GPL-2.0-only
/*
 * record_pending.c - TEMPORARY, while the sources and sinks below are
 * written on their own branches: each answers -ENOSYS so "usbtrail record"
 * runs without them and says so.  Whoever lands one deletes its function
 * here; the file goes when it is empty.  Nothing here is a feature.
 */
#include <errno.h>

#include "record.h"

int src_tracefs_open(struct rec_source *s, struct rec *r)
{
	(void)s;
	(void)r;
	return -ENOSYS;
}
