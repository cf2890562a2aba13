// SPDX-License-Identifier: GPL-2.0-only
/*
 * loginput.c - read a log, decompressing gzip (zlib), xz (liblzma), zstd
 * (libzstd) and bzip2 (libbz2) by their magic numbers (loginput.h).
 * Concatenated members and streams are read to their end, as zcat, xzcat,
 * zstdcat and bzcat do: rotated logs are often joined that way.
 */
#include <bzlib.h>
#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "loginput.h"

enum loginput_kind {
	LOGINPUT_PLAIN,
	LOGINPUT_GZIP,
	LOGINPUT_XZ,
	LOGINPUT_ZSTD,
	LOGINPUT_BZIP2,
};

#define LOGINPUT_BUF	(128 * 1024)

struct loginput {
	int fd;
	bool own_fd;
	enum loginput_kind kind;
	unsigned char in[LOGINPUT_BUF];
	size_t in_pos, in_len;
	bool eof;			/* of the file */
	bool done;			/* of the decompressed data */
	union {
		z_stream z;
		lzma_stream x;
		bz_stream b;
	} s;
	ZSTD_DStream *zs;
	size_t zret;			/* ZSTD: 0 at a frame's end */
	bool inited;
};

const char *loginput_kind(const struct loginput *in)
{
	static const char *const names[] = {
		"plain", "gzip", "xz", "zstd", "bzip2",
	};

	return names[in->kind];
}

/* Fill in[] from the file when it is empty; 0, or a negative errno. */
static int loginput_fill(struct loginput *in)
{
	ssize_t n;

	if (in->in_pos < in->in_len || in->eof)
		return 0;
	do {
		n = read(in->fd, in->in, sizeof(in->in));
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	in->in_pos = 0;
	in->in_len = (size_t)n;
	if (!n)
		in->eof = true;
	return 0;
}

static int loginput_init(struct loginput *in)
{
	switch (in->kind) {
	case LOGINPUT_GZIP:
		memset(&in->s.z, 0, sizeof(in->s.z));
		/* 15 + 32: gzip or zlib header, told by inflate itself */
		if (inflateInit2(&in->s.z, 15 + 32) != Z_OK)
			return -ENOMEM;
		break;
	case LOGINPUT_XZ:
		in->s.x = (lzma_stream)LZMA_STREAM_INIT;
		if (lzma_stream_decoder(&in->s.x, UINT64_MAX,
					LZMA_CONCATENATED) != LZMA_OK)
			return -ENOMEM;
		break;
	case LOGINPUT_ZSTD:
		in->zs = ZSTD_createDStream();
		if (!in->zs)
			return -ENOMEM;
		ZSTD_initDStream(in->zs);
		break;
	case LOGINPUT_BZIP2:
		memset(&in->s.b, 0, sizeof(in->s.b));
		if (BZ2_bzDecompressInit(&in->s.b, 0, 0) != BZ_OK)
			return -ENOMEM;
		break;
	case LOGINPUT_PLAIN:
		break;
	}
	in->inited = true;
	return 0;
}

static void loginput_fini(struct loginput *in)
{
	if (!in->inited)
		return;
	switch (in->kind) {
	case LOGINPUT_GZIP:
		inflateEnd(&in->s.z);
		break;
	case LOGINPUT_XZ:
		lzma_end(&in->s.x);
		break;
	case LOGINPUT_ZSTD:
		ZSTD_freeDStream(in->zs);
		in->zs = NULL;
		break;
	case LOGINPUT_BZIP2:
		BZ2_bzDecompressEnd(&in->s.b);
		break;
	case LOGINPUT_PLAIN:
		break;
	}
	in->inited = false;
}

/* The magic numbers of RFC 1952, xz-file-format, RFC 8878 and bzip2 */
static enum loginput_kind loginput_sniff(const unsigned char *p, size_t n)
{
	if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
		return LOGINPUT_GZIP;
	if (n >= 6 && !memcmp(p, "\xfd" "7zXZ\0", 6))
		return LOGINPUT_XZ;
	if (n >= 4 && !memcmp(p, "\x28\xb5\x2f\xfd", 4))
		return LOGINPUT_ZSTD;
	if (n >= 4 && p[0] == 'B' && p[1] == 'Z' && p[2] == 'h' &&
	    p[3] >= '1' && p[3] <= '9')
		return LOGINPUT_BZIP2;
	return LOGINPUT_PLAIN;
}

int loginput_open(const char *path, struct loginput **out)
{
	struct loginput *in = calloc(1, sizeof(*in));
	int ret;

	if (!in)
		return -ENOMEM;
	if (!strcmp(path, "-")) {
		in->fd = STDIN_FILENO;
	} else {
		in->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (in->fd < 0) {
			ret = -errno;
			free(in);
			return ret;
		}
		in->own_fd = true;
	}
	/* enough bytes for the magic, however the first reads come */
	while (in->in_len < 6 && !in->eof) {
		ssize_t n = read(in->fd, in->in + in->in_len,
				 sizeof(in->in) - in->in_len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			loginput_close(in);
			return ret;
		}
		if (!n)
			in->eof = true;
		in->in_len += (size_t)n;
	}
	in->kind = loginput_sniff(in->in, in->in_len);
	ret = loginput_init(in);
	if (ret) {
		loginput_close(in);
		return ret;
	}
	*out = in;
	return 0;
}

void loginput_close(struct loginput *in)
{
	if (!in)
		return;
	loginput_fini(in);
	if (in->own_fd)
		close(in->fd);
	free(in);
}

static ssize_t loginput_plain(struct loginput *in, char *buf, size_t len)
{
	size_t n;
	int ret = loginput_fill(in);

	if (ret)
		return ret;
	n = in->in_len - in->in_pos;
	if (n > len)
		n = len;
	memcpy(buf, in->in + in->in_pos, n);
	in->in_pos += n;
	return (ssize_t)n;
}

static ssize_t loginput_gzip(struct loginput *in, char *buf, size_t len)
{
	z_stream *z = &in->s.z;
	int ret;

	for (;;) {
		ret = loginput_fill(in);
		if (ret)
			return ret;
		z->next_in = in->in + in->in_pos;
		z->avail_in = (uInt)(in->in_len - in->in_pos);
		z->next_out = (Bytef *)buf;
		z->avail_out = (uInt)len;
		ret = inflate(z, Z_NO_FLUSH);
		in->in_pos = in->in_len - z->avail_in;
		if (ret == Z_STREAM_END) {
			/* another member may follow, as in "cat a.gz b.gz" */
			if (loginput_fill(in) || (in->eof && in->in_pos ==
						  in->in_len))
				in->done = true;
			else
				inflateReset(z);
		} else if (ret != Z_OK && ret != Z_BUF_ERROR) {
			return -EBADMSG;
		} else if (ret == Z_BUF_ERROR && in->eof &&
			   in->in_pos == in->in_len && z->avail_out == len) {
			return -EBADMSG;	/* cut short */
		}
		if (z->avail_out != len || in->done)
			return (ssize_t)(len - z->avail_out);
	}
}

static ssize_t loginput_xz(struct loginput *in, char *buf, size_t len)
{
	lzma_stream *x = &in->s.x;
	lzma_ret ret;
	int r;

	for (;;) {
		r = loginput_fill(in);
		if (r)
			return r;
		x->next_in = in->in + in->in_pos;
		x->avail_in = in->in_len - in->in_pos;
		x->next_out = (uint8_t *)buf;
		x->avail_out = len;
		ret = lzma_code(x, in->eof ? LZMA_FINISH : LZMA_RUN);
		in->in_pos = in->in_len - x->avail_in;
		if (ret == LZMA_STREAM_END)
			in->done = true;
		else if (ret != LZMA_OK && ret != LZMA_BUF_ERROR)
			return -EBADMSG;
		else if (ret == LZMA_BUF_ERROR && in->eof)
			return -EBADMSG;
		if (x->avail_out != len || in->done)
			return (ssize_t)(len - x->avail_out);
	}
}

static ssize_t loginput_zstd(struct loginput *in, char *buf, size_t len)
{
	ZSTD_outBuffer o = { buf, len, 0 };
	int r;

	for (;;) {
		ZSTD_inBuffer i;

		r = loginput_fill(in);
		if (r)
			return r;
		if (in->eof && in->in_pos == in->in_len) {
			/* a frame left unfinished: damaged or cut short */
			if (in->zret)
				return -EBADMSG;
			in->done = true;
			return (ssize_t)o.pos;
		}
		i.src = in->in + in->in_pos;
		i.size = in->in_len - in->in_pos;
		i.pos = 0;
		in->zret = ZSTD_decompressStream(in->zs, &o, &i);
		in->in_pos += i.pos;
		if (ZSTD_isError(in->zret))
			return -EBADMSG;
		if (o.pos)
			return (ssize_t)o.pos;
	}
}

static ssize_t loginput_bzip2(struct loginput *in, char *buf, size_t len)
{
	bz_stream *b = &in->s.b;
	int ret;

	for (;;) {
		ret = loginput_fill(in);
		if (ret)
			return ret;
		b->next_in = (char *)in->in + in->in_pos;
		b->avail_in = (unsigned int)(in->in_len - in->in_pos);
		b->next_out = buf;
		b->avail_out = (unsigned int)(len > UINT32_MAX ? UINT32_MAX : len);
		ret = BZ2_bzDecompress(b);
		in->in_pos = in->in_len - b->avail_in;
		if (ret == BZ_STREAM_END) {
			size_t got = len - b->avail_out;

			/* concatenated streams, as bzcat reads them */
			if (loginput_fill(in) || (in->eof &&
						  in->in_pos == in->in_len)) {
				in->done = true;
			} else {
				BZ2_bzDecompressEnd(b);
				memset(b, 0, sizeof(*b));
				if (BZ2_bzDecompressInit(b, 0, 0) != BZ_OK)
					return -ENOMEM;
			}
			if (got || in->done)
				return (ssize_t)got;
			continue;
		}
		if (ret != BZ_OK)
			return -EBADMSG;
		if (b->avail_out != len)
			return (ssize_t)(len - b->avail_out);
		if (in->eof && in->in_pos == in->in_len)
			return -EBADMSG;	/* cut short */
	}
}

ssize_t loginput_read(struct loginput *in, char *buf, size_t len)
{
	if (!len || in->done)
		return 0;
	switch (in->kind) {
	case LOGINPUT_GZIP:
		return loginput_gzip(in, buf, len);
	case LOGINPUT_XZ:
		return loginput_xz(in, buf, len);
	case LOGINPUT_ZSTD:
		return loginput_zstd(in, buf, len);
	case LOGINPUT_BZIP2:
		return loginput_bzip2(in, buf, len);
	case LOGINPUT_PLAIN:
		break;
	}
	return loginput_plain(in, buf, len);
}
