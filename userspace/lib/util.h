/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * util.h - small parsers and formatters shared by every usbtrail command.
 *
 * Everything here takes bytes and returns values: nothing prints, and the
 * one function that touches a file descriptor, util_write_all(), only
 * writes what it is given.  Errors are negative errno values; the command
 * that called turns them into one message.
 */
#ifndef USBTRAIL_UTIL_H
#define USBTRAIL_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* util_parse_number() flags */
#define UTIL_NUM_SIZE	0x1u	/* accept K M G T / KiB MiB GiB TiB */

int util_parse_number(const char *s, unsigned int flags, uint64_t min,
		      uint64_t max, uint64_t *out);
int util_format_size(char *buf, size_t len, uint64_t v);
/*
 * A USB link speed held as sysfs_usb_parse_speed() holds it (Mbit/s, 1 for
 * 1.5, 0 unknown): "5000 Mbit/s", "1.5 Mbit/s", or "unknown".  Returns
 * buf.
 */
const char *util_format_speed(char *buf, size_t len, unsigned int mbps);

/*
 * Write all len bytes to fd, again after EINTR and short writes.  0, or
 * -errno (-ENOSPC for a write that took nothing); *done (may be NULL)
 * gets how many bytes were written either way.
 */
int util_write_all(int fd, const void *buf, size_t len, size_t *done);

/*
 * A growing string, always NUL-terminated once anything was put.  When
 * memory runs out, oom is set and stays set, further puts do nothing, and
 * what was put before is kept: check oom once, at the end.  Start from
 * { 0 }; free(s) when done.
 */
struct util_str {
	char *s;
	size_t len, cap;
	bool oom;
};

void util_str_put(struct util_str *b, const char *s, size_t n);
/* printf onto b, however long the result */
void util_str_printf(struct util_str *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A hex digit's value (either case), or -1 for any other character. */
int util_hexval(char c);

/* len bytes of src into dst[size] (size > 0), cut to fit, NUL-ended. */
void util_copy(char *dst, size_t size, const char *src, size_t len);

/*
 * The path of @to relative to the directory @from, both absolute and
 * canonical (as realpath() gives them): "/a/b", "/a/c/d" -> "../c/d";
 * "." when they are the same.  0, -EINVAL (not absolute) or
 * -ENAMETOOLONG (buf too small; buf then holds "").
 */
int util_relpath(const char *from, const char *to, char *buf, size_t len);

#endif /* USBTRAIL_UTIL_H */
