// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcapng.c - pcapng blocks into a memory buffer and back out of bytes:
 * the format of capture.pcapng (docs/formats.md), written by
 * sink_pcapng.c and read by the tests and the bug-report trimmer.
 *
 * The writer never fails half-way through a block: a block is appended
 * whole or not at all, so whoever writes the buffer out can cut a file
 * at any block boundary and leave it valid.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcapng.h"

#define PCAPNG_OPT_END		0
#define PCAPNG_OPT_SHB_USERAPPL	4
#define PCAPNG_OPT_IF_NAME	2
#define PCAPNG_OPT_IF_DESC	3
#define PCAPNG_OPT_IF_TSRESOL	9
#define PCAPNG_OPT_EPB_PACKETID	5

#define PCAPNG_PAD4(n)		(((n) + 3u) & ~(size_t)3u)

void pcapng_buf_free(struct pcapng_buf *b)
{
	if (!b)
		return;
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

/* Room for n more bytes; 0 or -ENOMEM. */
static int pcapng_reserve(struct pcapng_buf *b, size_t n)
{
	size_t cap;
	uint8_t *p;

	if (n <= b->cap - b->len)
		return 0;
	if (n > SIZE_MAX / 2 - b->len)
		return -ENOMEM;
	cap = b->cap ? b->cap : 4096;
	while (cap - b->len < n)
		cap *= 2;
	p = realloc(b->data, cap);
	if (!p)
		return -ENOMEM;
	b->data = p;
	b->cap = cap;
	return 0;
}

int pcapng_buf_append(struct pcapng_buf *b, const void *p, size_t n)
{
	int ret;

	if (!n)
		return 0;
	ret = pcapng_reserve(b, n);
	if (ret)
		return ret;
	memcpy(b->data + b->len, p, n);
	b->len += n;
	return 0;
}

/* Appenders that the caller made room for. */
static void pcapng_put(struct pcapng_buf *b, const void *p, size_t n)
{
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
}

static void pcapng_put32(struct pcapng_buf *b, uint32_t v)
{
	pcapng_put(b, &v, sizeof(v));
}

static void pcapng_put16(struct pcapng_buf *b, uint16_t v)
{
	pcapng_put(b, &v, sizeof(v));
}

static void pcapng_pad(struct pcapng_buf *b)
{
	static const uint8_t zeros[4];

	pcapng_put(b, zeros, PCAPNG_PAD4(b->len) - b->len);
}

/* Bytes an option of vlen takes, header and padding included. */
static size_t pcapng_optlen(size_t vlen)
{
	return 4 + PCAPNG_PAD4(vlen);
}

/* The caller keeps vlen under 64 KiB. */
static void pcapng_put_opt(struct pcapng_buf *b, uint16_t code,
			   const void *v, size_t vlen)
{
	pcapng_put16(b, code);
	pcapng_put16(b, (uint16_t)vlen);
	pcapng_put(b, v, vlen);
	pcapng_pad(b);
}

/* A string option's length, capped so it fits an option. */
static size_t pcapng_strlen(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	return n > 0xfff0 ? 0xfff0 : n;
}

/*
 * Start a block of body_len bytes (padded, options included): header now,
 * the trailing length by pcapng_block_end().
 */
static int pcapng_block_begin(struct pcapng_buf *b, uint32_t type,
			      size_t body_len, uint32_t *total)
{
	size_t t = 12 + PCAPNG_PAD4(body_len);
	int ret;

	if (body_len > PCAPNG_BLOCK_MAX || t > PCAPNG_BLOCK_MAX)
		return -EINVAL;
	ret = pcapng_reserve(b, t);
	if (ret)
		return ret;
	*total = (uint32_t)t;
	pcapng_put32(b, type);
	pcapng_put32(b, *total);
	return 0;
}

static void pcapng_block_end(struct pcapng_buf *b, uint32_t total)
{
	pcapng_pad(b);
	pcapng_put32(b, total);
}

int pcapng_put_shb(struct pcapng_buf *b, const char *userappl)
{
	size_t ulen = pcapng_strlen(userappl);
	size_t body = 16 + (ulen ? pcapng_optlen(ulen) : 0) + 4;
	uint32_t total;
	uint64_t section_len = UINT64_MAX;	/* not given */
	int ret;

	ret = pcapng_block_begin(b, PCAPNG_BT_SHB, body, &total);
	if (ret)
		return ret;
	pcapng_put32(b, PCAPNG_BYTE_ORDER_MAGIC);
	pcapng_put16(b, 1);
	pcapng_put16(b, 0);
	pcapng_put(b, &section_len, sizeof(section_len));
	if (ulen)
		pcapng_put_opt(b, PCAPNG_OPT_SHB_USERAPPL, userappl, ulen);
	pcapng_put_opt(b, PCAPNG_OPT_END, NULL, 0);
	pcapng_block_end(b, total);
	return 0;
}

int pcapng_put_idb(struct pcapng_buf *b, uint16_t linktype, uint32_t snaplen,
		   const char *if_name, const char *if_description,
		   uint8_t tsresol)
{
	size_t nlen = pcapng_strlen(if_name), dlen = pcapng_strlen(if_description);
	size_t body = 8 + (nlen ? pcapng_optlen(nlen) : 0) +
		      (dlen ? pcapng_optlen(dlen) : 0) + pcapng_optlen(1) + 4;
	uint32_t total;
	int ret;

	ret = pcapng_block_begin(b, PCAPNG_BT_IDB, body, &total);
	if (ret)
		return ret;
	pcapng_put16(b, linktype);
	pcapng_put16(b, 0);
	pcapng_put32(b, snaplen);
	if (nlen)
		pcapng_put_opt(b, PCAPNG_OPT_IF_NAME, if_name, nlen);
	if (dlen)
		pcapng_put_opt(b, PCAPNG_OPT_IF_DESC, if_description, dlen);
	pcapng_put_opt(b, PCAPNG_OPT_IF_TSRESOL, &tsresol, 1);
	pcapng_put_opt(b, PCAPNG_OPT_END, NULL, 0);
	pcapng_block_end(b, total);
	return 0;
}

int pcapng_put_epb_iov(struct pcapng_buf *b, uint32_t if_id, uint64_t ts,
		       const struct iovec *iov, unsigned int niov,
		       uint32_t origlen, uint64_t packet_id)
{
	uint64_t caplen = 0;
	uint32_t total;
	unsigned int i;
	int ret;

	for (i = 0; i < niov; i++) {
		if (!iov[i].iov_base && iov[i].iov_len)
			return -EINVAL;
		caplen += iov[i].iov_len;
	}
	if (caplen > PCAPNG_BLOCK_MAX)
		return -EINVAL;
	ret = pcapng_block_begin(b, PCAPNG_BT_EPB, 20 +
				 PCAPNG_PAD4((size_t)caplen) +
				 (packet_id ? 16 : 0), &total);
	if (ret)
		return ret;
	pcapng_put32(b, if_id);
	pcapng_put32(b, (uint32_t)(ts >> 32));
	pcapng_put32(b, (uint32_t)ts);
	pcapng_put32(b, (uint32_t)caplen);
	pcapng_put32(b, origlen < caplen ? (uint32_t)caplen : origlen);
	for (i = 0; i < niov; i++)
		pcapng_put(b, iov[i].iov_base, iov[i].iov_len);
	if (packet_id) {
		pcapng_pad(b);
		pcapng_put_opt(b, PCAPNG_OPT_EPB_PACKETID, &packet_id,
			       sizeof(packet_id));
		pcapng_put_opt(b, PCAPNG_OPT_END, NULL, 0);
	}
	pcapng_block_end(b, total);
	return 0;
}

int pcapng_put_epb(struct pcapng_buf *b, uint32_t if_id, uint64_t ts,
		   const void *data, uint32_t caplen, uint32_t origlen)
{
	struct iovec iov = { (void *)(uintptr_t)data, caplen };

	return pcapng_put_epb_iov(b, if_id, ts, &iov, 1, origlen, 0);
}

int pcapng_put_sje(struct pcapng_buf *b, const void *entry, size_t len)
{
	uint32_t total;
	int ret;

	if (!entry || !len)
		return -EINVAL;
	ret = pcapng_block_begin(b, PCAPNG_BT_SJE, len, &total);
	if (ret)
		return ret;
	pcapng_put(b, entry, len);
	pcapng_block_end(b, total);
	return 0;
}

/* journald's rule (journal_field_valid()), leading underscores allowed */
static bool pcapng_journal_name_ok(const char *name)
{
	const char *p;

	if (!name || !*name || (*name >= '0' && *name <= '9') ||
	    strlen(name) > 64)
		return false;
	for (p = name; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      *p == '_'))
			return false;
	return true;
}

/* The export format's rule: text unless a byte below 32 (but tab). */
static bool pcapng_journal_binary(const void *value, size_t n)
{
	const unsigned char *v = value;
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] < 32 && v[i] != '\t')
			return true;
	return false;
}

int pcapng_journal_put(struct pcapng_buf *b, const char *name, size_t nlen,
		       const void *value, size_t vlen)
{
	uint64_t le;
	int ret, i;

	if (!pcapng_journal_binary(value, vlen)) {
		ret = pcapng_reserve(b, nlen + vlen + 2);
		if (ret)
			return ret;
		pcapng_put(b, name, nlen);
		pcapng_put(b, "=", 1);
		pcapng_put(b, value, vlen);
		pcapng_put(b, "\n", 1);
		return 0;
	}
	ret = pcapng_reserve(b, nlen + 1 + 8 + vlen + 1);
	if (ret)
		return ret;
	pcapng_put(b, name, nlen);
	pcapng_put(b, "\n", 1);
	for (i = 0; i < 8; i++) {
		le = ((uint64_t)vlen >> (8 * i)) & 0xff;
		b->data[b->len++] = (uint8_t)le;
	}
	pcapng_put(b, value, vlen);
	pcapng_put(b, "\n", 1);
	return 0;
}

static int pcapng_journal_text(struct pcapng_buf *b, const char *fmt_name,
			       const char *value)
{
	return pcapng_journal_put(b, fmt_name, strlen(fmt_name), value,
				  strlen(value));
}

int pcapng_journal_entry(struct pcapng_buf *b, uint64_t realtime_us,
			 uint64_t monotonic_us, const char *boot_id,
			 const struct ev_field *fields, unsigned int nfields)
{
	size_t start = b->len;
	char num[32];
	unsigned int i;
	int ret;

	for (i = 0; i < nfields; i++)
		if (!pcapng_journal_name_ok(fields[i].name) || !fields[i].value)
			return -EINVAL;
	snprintf(num, sizeof(num), "%llu", (unsigned long long)realtime_us);
	ret = pcapng_journal_text(b, "__REALTIME_TIMESTAMP", num);
	if (ret)
		goto undo;
	snprintf(num, sizeof(num), "%llu", (unsigned long long)monotonic_us);
	ret = pcapng_journal_text(b, "__MONOTONIC_TIMESTAMP", num);
	if (ret)
		goto undo;
	if (boot_id && *boot_id) {
		ret = pcapng_journal_text(b, "_BOOT_ID", boot_id);
		if (ret)
			goto undo;
	}
	for (i = 0; i < nfields; i++) {
		ret = pcapng_journal_text(b, fields[i].name, fields[i].value);
		if (ret)
			goto undo;
	}
	ret = pcapng_reserve(b, 1);
	if (ret)
		goto undo;
	pcapng_put(b, "\n", 1);
	return 0;
undo:
	b->len = start;
	return ret;
}

/* Reading */

uint32_t pcapng_u32(const struct pcapng_reader *rd, const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return rd->swapped ? __builtin_bswap32(v) : v;
}

int pcapng_next_block(struct pcapng_reader *rd, const uint8_t *buf,
		      size_t len, size_t *off, struct pcapng_block *blk)
{
	const uint8_t *p;
	uint32_t type, total, magic;
	bool swapped = rd->swapped;
	size_t left;

	if (*off == len)
		return 0;
	if (*off > len || len - *off < 12)
		return -EINVAL;
	p = buf + *off;
	left = len - *off;
	memcpy(&type, p, 4);
	if (type == PCAPNG_BT_SHB) {
		if (left < 28)
			return -EINVAL;
		memcpy(&magic, p + 8, 4);
		if (magic == PCAPNG_BYTE_ORDER_MAGIC)
			swapped = false;
		else if (magic == __builtin_bswap32(PCAPNG_BYTE_ORDER_MAGIC))
			swapped = true;
		else
			return -EINVAL;
	} else if (!rd->shb_seen) {
		return -EINVAL;
	} else if (swapped) {
		type = __builtin_bswap32(type);
	}
	memcpy(&total, p + 4, 4);
	if (swapped)
		total = __builtin_bswap32(total);
	if (total < 12 || total % 4 || total > PCAPNG_BLOCK_MAX ||
	    total > left || (type == PCAPNG_BT_SHB && total < 28))
		return -EINVAL;
	{
		uint32_t trail;

		memcpy(&trail, p + total - 4, 4);
		if (swapped)
			trail = __builtin_bswap32(trail);
		if (trail != total)
			return -EINVAL;
	}
	if (type == PCAPNG_BT_SHB) {
		rd->shb_seen = true;
		rd->swapped = swapped;
		rd->nif = 0;
	} else if (type == PCAPNG_BT_IDB && total >= 20) {
		uint16_t lt;

		memcpy(&lt, p + 8, 2);
		if (rd->nif < PCAPNG_IF_MAX)
			rd->linktype[rd->nif] = swapped ?
						__builtin_bswap16(lt) : lt;
		rd->nif++;
	}
	blk->type = type;
	blk->total_len = total;
	blk->body = p + 8;
	blk->body_len = total - 12;
	*off += total;
	return 1;
}

int pcapng_if_linktype(const struct pcapng_reader *rd, uint32_t if_id)
{
	if (if_id >= rd->nif || if_id >= PCAPNG_IF_MAX)
		return -1;
	return rd->linktype[if_id];
}

int pcapng_epb_parse(const struct pcapng_reader *rd,
		     const struct pcapng_block *blk, struct pcapng_epb *epb)
{
	const uint8_t *p = blk->body;
	uint32_t caplen;
	size_t o;

	if (blk->type != PCAPNG_BT_EPB || blk->body_len < 20)
		return -EINVAL;
	caplen = pcapng_u32(rd, p + 12);
	if (caplen > blk->body_len - 20)
		return -EINVAL;
	epb->if_id = pcapng_u32(rd, p);
	epb->ts = (uint64_t)pcapng_u32(rd, p + 4) << 32 | pcapng_u32(rd, p + 8);
	epb->caplen = caplen;
	epb->origlen = pcapng_u32(rd, p + 16);
	epb->data = p + 20;
	epb->packet_id = 0;
	/* the options: only epb_packetid is read */
	for (o = 20 + PCAPNG_PAD4((size_t)caplen); o + 4 <= blk->body_len;) {
		uint16_t code, olen;

		memcpy(&code, p + o, 2);
		memcpy(&olen, p + o + 2, 2);
		if (rd->swapped) {
			code = __builtin_bswap16(code);
			olen = __builtin_bswap16(olen);
		}
		if (code == PCAPNG_OPT_END ||
		    PCAPNG_PAD4((size_t)olen) > blk->body_len - o - 4)
			break;
		if (code == PCAPNG_OPT_EPB_PACKETID && olen == 8) {
			memcpy(&epb->packet_id, p + o + 4, 8);
			if (rd->swapped)
				epb->packet_id =
					__builtin_bswap64(epb->packet_id);
		}
		o += 4 + PCAPNG_PAD4((size_t)olen);
	}
	return 0;
}

int pcapng_journal_next(const uint8_t *entry, size_t len, size_t *pos,
			struct pcapng_journal_item *it)
{
	const uint8_t *line, *eol, *eq;
	size_t p = *pos, ll;
	uint64_t bl = 0;
	int i;

	if (p >= len)
		return 0;
	line = entry + p;
	eol = memchr(line, '\n', len - p);
	if (!eol)
		return -EINVAL;
	ll = (size_t)(eol - line);
	if (!ll) {		/* the empty line ending the entry */
		*pos = p + 1;
		return 0;
	}
	eq = memchr(line, '=', ll);
	if (eq) {
		it->name = line;
		it->nlen = (size_t)(eq - line);
		it->val = eq + 1;
		it->vlen = ll - it->nlen - 1;
		it->binary = false;
		*pos = p + ll + 1;
		return 1;
	}
	/* binary: NAME\n, 64-bit LE length, value, \n */
	p += ll + 1;
	if (len - p < 8)
		return -EINVAL;
	for (i = 7; i >= 0; i--)
		bl = bl << 8 | entry[p + (size_t)i];
	p += 8;
	if (bl > len - p || len - p - bl < 1 || entry[p + bl] != '\n')
		return -EINVAL;
	it->name = line;
	it->nlen = ll;
	it->val = entry + p;
	it->vlen = (size_t)bl;
	it->binary = true;
	*pos = p + (size_t)bl + 1;
	return 1;
}

int pcapng_journal_field(const uint8_t *entry, size_t len, const char *name,
			 const uint8_t **val, size_t *vlen)
{
	struct pcapng_journal_item it;
	size_t nl = strlen(name), pos = 0;
	int ret;

	while ((ret = pcapng_journal_next(entry, len, &pos, &it)) == 1) {
		if (it.nlen == nl && !memcmp(it.name, name, nl)) {
			*val = it.val;
			*vlen = it.vlen;
			return 0;
		}
	}
	return ret < 0 ? ret : -ENOENT;
}
