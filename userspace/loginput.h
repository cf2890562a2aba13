/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * loginput.h - a log file's bytes, decompressed when it is gzip, xz, zstd
 * or bzip2 (told by its first bytes, not its name), for "usbtrail
 * analyze".  Streams: memory is a few buffers whatever the file's size.
 */
#ifndef USBTRAIL_LOGINPUT_H
#define USBTRAIL_LOGINPUT_H

#include <stddef.h>
#include <sys/types.h>

struct loginput;

/*
 * Open path ("-" is standard input).  Returns 0 and *out (the caller
 * frees it with loginput_close()), or a negative errno.
 */
int loginput_open(const char *path, struct loginput **out);

/*
 * Up to len bytes of the (decompressed) content: the number read, 0 at
 * the end, a negative errno (-EBADMSG: the compressed data is damaged).
 */
ssize_t loginput_read(struct loginput *in, char *buf, size_t len);

/* "plain", "gzip", "xz", "zstd", "bzip2" */
const char *loginput_kind(const struct loginput *in);

/* Closes the file (not standard input).  NULL is allowed. */
void loginput_close(struct loginput *in);

#endif /* USBTRAIL_LOGINPUT_H */
