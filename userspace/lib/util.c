// SPDX-License-Identifier: GPL-2.0-only
/*
 * util.c - the one parser for numbers a user types on the command line
 * (sizes, counts, seconds) and its inverse for messages.
 *
 * Every command option that takes a number goes through
 * util_parse_number(), so "64K" means the same thing everywhere and the
 * overflow and range checks exist once.
 */
#include <errno.h>
#include <unistd.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/*
 * Binary multiples only.  "KB"/"MB" are refused rather than guessed: dd
 * reads them as powers of 1000, most storage tools as 1024, and a stress
 * test that silently writes 2.4% less or more than asked is a bad surprise.
 */
static const struct {
	const char *name;
	unsigned int shift;
} util_size_suffixes[] = {
	{ "K", 10 }, { "k", 10 }, { "KiB", 10 },
	{ "M", 20 }, { "m", 20 }, { "MiB", 20 },
	{ "G", 30 }, { "g", 30 }, { "GiB", 30 },
	{ "T", 40 }, { "t", 40 }, { "TiB", 40 },
};

static int util_size_suffix_shift(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof(util_size_suffixes) /
		    sizeof(util_size_suffixes[0]); i++)
		if (!strcmp(s, util_size_suffixes[i].name))
			return (int)util_size_suffixes[i].shift;
	return -EINVAL;
}

/**
 * util_parse_number() - parse an unsigned decimal number
 * @s:     the text; the whole string must be the number
 * @flags: UTIL_NUM_SIZE to accept a binary size suffix
 * @min:   smallest value accepted
 * @max:   largest value accepted
 * @out:   the value, written only on success
 *
 * Unlike strtoull() this refuses leading white space, signs ("-1" would
 * otherwise wrap to 2^64-1), hex and octal prefixes and trailing garbage.
 * Syntax is checked before range, so "99999999999999999999x" is -EINVAL.
 *
 * Return: 0, -EINVAL if @s is not a number (or @s/@out is NULL), -ERANGE if
 * it does not fit in 64 bits or lies outside [@min, @max].
 */
int util_parse_number(const char *s, unsigned int flags, uint64_t min,
		      uint64_t max, uint64_t *out)
{
	const char *p;
	uint64_t v = 0;
	int overflow = 0;
	int shift = 0;

	if (!s || !out)
		return -EINVAL;
	if (*s < '0' || *s > '9')
		return -EINVAL;

	for (p = s; *p >= '0' && *p <= '9'; p++) {
		unsigned int d = (unsigned int)(*p - '0');

		if (v > (UINT64_MAX - d) / 10)
			overflow = 1;
		else
			v = v * 10 + d;
	}

	if (*p) {
		if (!(flags & UTIL_NUM_SIZE))
			return -EINVAL;
		shift = util_size_suffix_shift(p);
		if (shift < 0)
			return -EINVAL;
	}
	if (overflow || v > (UINT64_MAX >> shift))
		return -ERANGE;
	v <<= shift;
	if (v < min || v > max)
		return -ERANGE;

	*out = v;
	return 0;
}

/**
 * util_format_size() - write @v for a human, in the unit util_parse_number()
 * would read back
 * @buf: destination
 * @len: size of @buf
 * @v:   the number of bytes
 *
 * Uses the largest binary unit that divides @v exactly ("64KiB", "1000"),
 * so the text is never rounded and can be pasted back as an option value.
 *
 * Return: 0, or -ENOSPC if @buf is too small (@buf then holds a truncated
 * string if @len > 0).
 */
int util_format_size(char *buf, size_t len, uint64_t v)
{
	static const char *const units[] = { "", "KiB", "MiB", "GiB",
					     "TiB" };
	unsigned int i = 0;
	int n;

	while (v && !(v & 1023) && i < sizeof(units) / sizeof(units[0]) - 1) {
		v >>= 10;
		i++;
	}
	n = snprintf(buf, len, "%" PRIu64 "%s", v, units[i]);
	if (n < 0 || (size_t)n >= len)
		return -ENOSPC;
	return 0;
}

/* An unknown speed is not 0 Mbit/s: sysfs said nothing we could read. */
const char *util_format_speed(char *buf, size_t len, unsigned int mbps)
{
	if (!mbps)
		snprintf(buf, len, "unknown");
	else if (mbps == 1)
		snprintf(buf, len, "1.5 Mbit/s");
	else
		snprintf(buf, len, "%u Mbit/s", mbps);
	return buf;
}

int util_write_all(int fd, const void *buf, size_t len, size_t *done)
{
	const char *p = buf;
	size_t off = 0;
	ssize_t n;
	int ret = 0;

	while (off < len) {
		n = write(fd, p + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -errno : -ENOSPC;
			break;
		}
		off += (size_t)n;
	}
	if (done)
		*done = off;
	return ret;
}

void util_str_put(struct util_str *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *p;

		while (cap < b->len + n + 1)
			cap *= 2;
		p = realloc(b->s, cap);
		if (!p) {
			b->oom = true;
			return;
		}
		b->s = p;
		b->cap = cap;
	}
	if (n)		/* s may be NULL then: an empty buffer's */
		memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void util_str_printf(struct util_str *b, const char *fmt, ...)
{
	char buf[512], *big;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(buf)) {
		util_str_put(b, buf, (size_t)n);
		return;
	}
	big = malloc((size_t)n + 1);
	if (!big) {
		b->oom = true;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	util_str_put(b, big, (size_t)n);
	free(big);
}

void util_copy(char *dst, size_t size, const char *src, size_t len)
{
	if (len >= size)
		len = size - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

int util_hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* the next component of a path at *p ("" at the end); its length */
static size_t util_path_next(const char **p)
{
	while (**p == '/')
		(*p)++;
	return strcspn(*p, "/");
}

int util_relpath(const char *from, const char *to, char *buf, size_t len)
{
	const char *f = from, *t = to;
	size_t fl, tl, off = 0;
	int n;

	if (from[0] != '/' || to[0] != '/' || !len)
		return -EINVAL;
	buf[0] = '\0';
	/* past the components both share */
	for (;;) {
		const char *f2 = f, *t2 = t;

		fl = util_path_next(&f2);
		tl = util_path_next(&t2);
		if (!fl || fl != tl || memcmp(f2, t2, fl))
			break;
		f = f2 + fl;
		t = t2 + tl;
	}
	/* up from each component of from left, then down to */
	while ((fl = util_path_next(&f))) {
		n = snprintf(buf + off, len - off, "%s..", off ? "/" : "");
		if (n < 0 || (size_t)n >= len - off)
			goto too_long;
		off += (size_t)n;
		f += fl;
	}
	while ((tl = util_path_next(&t))) {
		n = snprintf(buf + off, len - off, "%s%.*s", off ? "/" : "",
			     (int)tl, t);
		if (n < 0 || (size_t)n >= len - off)
			goto too_long;
		off += (size_t)n;
		t += tl;
	}
	if (!off) {
		if (len < 2)
			goto too_long;
		snprintf(buf, len, ".");
	}
	return 0;
too_long:
	buf[0] = '\0';
	return -ENAMETOOLONG;
}
