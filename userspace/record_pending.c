// SPDX-License-Identifier: GPL-2.0-only
/*
 * record_pending.c - TEMPORARY, while the sources and sinks below are
 * written on their own branches: each answers -ENOSYS so "usbtrail record"
 * runs without them and says so.  Whoever lands one deletes its function
 * here; the file goes when it is empty.  Nothing here is a feature.
 */
#include <errno.h>

#include "record.h"

int src_usbmon_open(struct rec_source *s, struct rec *r, uint32_t payload)
{
	(void)s;
	(void)r;
	(void)payload;
	return -ENOSYS;
}

int sink_pcapng_open(struct rec_sink *s, const char *path,
		     const struct ev_clock *clock)
{
	(void)s;
	(void)path;
	(void)clock;
	return -ENOSYS;
}
