/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tar.h - a POSIX ustar archive built in memory, for the bug-report
 * bundle (bundle.c), which compresses it.  Regular files only.
 */
#ifndef USBTRAIL_TAR_H
#define USBTRAIL_TAR_H

#include <stddef.h>
#include <stdint.h>

struct tar_buf {
	uint8_t *data;
	size_t len, cap;
};

/*
 * Append one regular file NAME (at most 99 bytes, or -ENAMETOOLONG) of
 * len bytes, mode 0644, modified at mtime.  0 or -ENOMEM.
 */
int tar_add(struct tar_buf *t, const char *name, const void *data,
	    size_t len, uint64_t mtime);
/* The end-of-archive blocks.  0 or -ENOMEM. */
int tar_finish(struct tar_buf *t);
void tar_free(struct tar_buf *t);

#endif /* USBTRAIL_TAR_H */
