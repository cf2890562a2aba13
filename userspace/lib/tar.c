// SPDX-License-Identifier: GPL-2.0-only
/*
 * tar.c - ustar archives in memory (POSIX.1-2001 pax "ustar" format):
 * a 512-byte header per file, the data padded to 512, two zero blocks at
 * the end.  Enough for the bundle; no links, no long names.  Headers are
 * also read back (tar_header_parse()), from bytes: the caller streams.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tar.h"

static int tar_reserve(struct tar_buf *t, size_t more)
{
	size_t cap = t->cap ? t->cap : 64 * 1024;
	uint8_t *p;

	if (t->len + more <= t->cap)
		return 0;
	while (cap < t->len + more)
		cap *= 2;
	p = realloc(t->data, cap);
	if (!p)
		return -ENOMEM;
	t->data = p;
	t->cap = cap;
	return 0;
}

/* an octal field of n bytes, NUL-ended */
static void tar_octal(char *field, size_t n, uint64_t v)
{
	snprintf(field, n, "%0*llo", (int)(n - 1), (unsigned long long)v);
}

int tar_add(struct tar_buf *t, const char *name, const void *data,
	    size_t len, uint64_t mtime)
{
	size_t pad = (TAR_BLOCK - len % TAR_BLOCK) % TAR_BLOCK;
	unsigned int sum = 0, i;
	char *h;

	if (strlen(name) > 99)
		return -ENAMETOOLONG;
	if (tar_reserve(t, TAR_BLOCK + len + pad))
		return -ENOMEM;
	h = (char *)t->data + t->len;
	memset(h, 0, TAR_BLOCK);
	memcpy(h, name, strlen(name));		/* name[100] */
	tar_octal(h + 100, 8, 0644);		/* mode */
	tar_octal(h + 108, 8, 0);		/* uid */
	tar_octal(h + 116, 8, 0);		/* gid */
	tar_octal(h + 124, 12, len);		/* size */
	tar_octal(h + 136, 12, mtime);		/* mtime */
	memset(h + 148, ' ', 8);		/* chksum, as spaces for now */
	h[156] = '0';				/* typeflag: regular file */
	memcpy(h + 257, "ustar", 6);		/* magic, NUL-ended */
	memcpy(h + 263, "00", 2);		/* version */
	memcpy(h + 265, "root", 4);		/* uname */
	memcpy(h + 297, "root", 4);		/* gname */
	for (i = 0; i < TAR_BLOCK; i++)
		sum += (unsigned char)h[i];
	snprintf(h + 148, 8, "%06o", sum);	/* six digits, NUL, space */
	h[155] = ' ';
	t->len += TAR_BLOCK;
	if (len)
		memcpy(t->data + t->len, data, len);
	memset(t->data + t->len + len, 0, pad);
	t->len += len + pad;
	return 0;
}

int tar_finish(struct tar_buf *t)
{
	if (tar_reserve(t, 2 * TAR_BLOCK))
		return -ENOMEM;
	memset(t->data + t->len, 0, 2 * TAR_BLOCK);
	t->len += 2 * TAR_BLOCK;
	return 0;
}

void tar_free(struct tar_buf *t)
{
	if (!t)
		return;
	free(t->data);
	memset(t, 0, sizeof(*t));
}

/* an octal number field (NUL- or space-ended, leading spaces allowed) */
static int tar_parse_octal(const uint8_t *f, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;

	while (i < n && f[i] == ' ')
		i++;
	if (i == n || f[i] < '0' || f[i] > '7')
		return -EINVAL;
	for (; i < n && f[i] >= '0' && f[i] <= '7'; i++) {
		if (v >> 60)
			return -EINVAL;
		v = v * 8 + (f[i] - '0');
	}
	if (i < n && f[i] && f[i] != ' ')
		return -EINVAL;
	*out = v;
	return 0;
}

int tar_header_parse(const uint8_t *block, struct tar_entry *e)
{
	uint64_t sum = 0, want, size;
	size_t i, plen, nlen;

	for (i = 0; i < TAR_BLOCK && !block[i]; i++)
		;
	if (i == TAR_BLOCK)
		return 1;
	for (i = 0; i < TAR_BLOCK; i++)
		sum += (i >= 148 && i < 156) ? ' ' : block[i];
	if (tar_parse_octal(block + 148, 8, &want) || want != sum ||
	    tar_parse_octal(block + 124, 12, &size))
		return -EINVAL;
	/* ustar: the name may be split into prefix[155] and name[100] */
	nlen = strnlen((const char *)block, 100);
	plen = memcmp(block + 257, "ustar", 5) ? 0 :
	       strnlen((const char *)block + 345, 155);
	if (plen)
		snprintf(e->name, sizeof(e->name), "%.*s/%.*s", (int)plen,
			 (const char *)block + 345, (int)nlen,
			 (const char *)block);
	else
		snprintf(e->name, sizeof(e->name), "%.*s", (int)nlen,
			 (const char *)block);
	e->type = (char)block[156];
	e->size = size;
	return 0;
}

uint64_t tar_padded(uint64_t size)
{
	return size + (TAR_BLOCK - size % TAR_BLOCK) % TAR_BLOCK;
}
