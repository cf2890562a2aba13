/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tar.h - a POSIX ustar archive built in memory, for the bug-report
 * bundle (bundle.c), which compresses it, and its headers read back, for
 * "usbtrail report --compare" over bundles (recording.c).  Regular files
 * only.
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

#define TAR_BLOCK	512

/* One header read back. */
struct tar_entry {
	char name[256];			/* prefix "/" name, NUL-ended */
	char type;			/* typeflag: '0' (or NUL) a regular file */
	uint64_t size;			/* bytes of data that follow */
};

/*
 * The TAR_BLOCK bytes of a header into *e (written only on success).
 * Returns 0, 1 for a zero block (the end of the archive), or -EINVAL
 * when the checksum or a number field is wrong.  The data follows in
 * e->size bytes, padded to a multiple of TAR_BLOCK (tar_padded()).
 */
int tar_header_parse(const uint8_t *block, struct tar_entry *e);

/* size rounded up to whole blocks */
uint64_t tar_padded(uint64_t size);

#endif /* USBTRAIL_TAR_H */
