// SPDX-License-Identifier: GPL-2.0-only
/*
 * usbmon.c - usbmon's binary events (the mmapped ring of /dev/usbmonN)
 * from bytes to struct usbmon_event, back to the 64-byte header pcap
 * carries, and to the "1u" text maintainers ask for.
 *
 * src_usbmon.c feeds it the ring, sink_pcapng.c packs headers, the bug
 * report writes the text.  The layouts are mon_bin.c's (struct
 * mon_bin_hdr, struct mon_bin_isodesc) and the text is mon_text.c's
 * mon_text_read_u(); both are ABI and have not changed since 2.6.31.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "usbmon.h"

/* Offsets in struct mon_bin_hdr (64 bytes, no padding on any ABI). */
#define USBMON_OFF_ID		0
#define USBMON_OFF_TYPE		8
#define USBMON_OFF_XFER		9
#define USBMON_OFF_EPNUM	10
#define USBMON_OFF_DEVNUM	11
#define USBMON_OFF_BUSNUM	12
#define USBMON_OFF_FSETUP	14
#define USBMON_OFF_FDATA	15
#define USBMON_OFF_TS_SEC	16
#define USBMON_OFF_TS_USEC	24
#define USBMON_OFF_STATUS	28
#define USBMON_OFF_LEN_URB	32
#define USBMON_OFF_LEN_CAP	36
#define USBMON_OFF_SETUP	40
#define USBMON_OFF_INTERVAL	48
#define USBMON_OFF_START	52
#define USBMON_OFF_XFLAGS	56
#define USBMON_OFF_NDESC	60

/* What the text interface shows at most (DATA_MAX, ISODESC_MAX there). */
#define USBMON_TEXT_DATA_MAX	32
#define USBMON_TEXT_ISO_MAX	5

/* Host byte order, any alignment: the kernel wrote these for this host. */
static uint64_t usbmon_get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint32_t usbmon_get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint16_t usbmon_get16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void usbmon_put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, sizeof(v));
}

static void usbmon_put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, sizeof(v));
}

static void usbmon_put16(uint8_t *p, uint16_t v)
{
	memcpy(p, &v, sizeof(v));
}

static void usbmon_hdr_unpack(const uint8_t *b, struct ev_usbmon_hdr *h)
{
	memset(h, 0, sizeof(*h));
	h->id = usbmon_get64(b + USBMON_OFF_ID);
	h->type = b[USBMON_OFF_TYPE];
	h->xfer_type = b[USBMON_OFF_XFER];
	h->epnum = b[USBMON_OFF_EPNUM];
	h->devnum = b[USBMON_OFF_DEVNUM];
	h->busnum = usbmon_get16(b + USBMON_OFF_BUSNUM);
	h->flag_setup = (char)b[USBMON_OFF_FSETUP];
	h->flag_data = (char)b[USBMON_OFF_FDATA];
	h->ts_sec = (int64_t)usbmon_get64(b + USBMON_OFF_TS_SEC);
	h->ts_usec = (int32_t)usbmon_get32(b + USBMON_OFF_TS_USEC);
	h->status = (int32_t)usbmon_get32(b + USBMON_OFF_STATUS);
	h->len_urb = usbmon_get32(b + USBMON_OFF_LEN_URB);
	h->len_cap = usbmon_get32(b + USBMON_OFF_LEN_CAP);
	memcpy(h->setup, b + USBMON_OFF_SETUP, sizeof(h->setup));
	h->interval = (int32_t)usbmon_get32(b + USBMON_OFF_INTERVAL);
	h->start_frame = (int32_t)usbmon_get32(b + USBMON_OFF_START);
	h->xfer_flags = usbmon_get32(b + USBMON_OFF_XFLAGS);
	h->ndesc = usbmon_get32(b + USBMON_OFF_NDESC);
}

void usbmon_hdr_pack(const struct ev_usbmon_hdr *h,
		     uint8_t out[USBMON_HDR_SIZE])
{
	memset(out, 0, USBMON_HDR_SIZE);
	usbmon_put64(out + USBMON_OFF_ID, h->id);
	out[USBMON_OFF_TYPE] = h->type;
	out[USBMON_OFF_XFER] = h->xfer_type;
	out[USBMON_OFF_EPNUM] = h->epnum;
	out[USBMON_OFF_DEVNUM] = h->devnum;
	usbmon_put16(out + USBMON_OFF_BUSNUM, h->busnum);
	out[USBMON_OFF_FSETUP] = (uint8_t)h->flag_setup;
	out[USBMON_OFF_FDATA] = (uint8_t)h->flag_data;
	usbmon_put64(out + USBMON_OFF_TS_SEC, (uint64_t)h->ts_sec);
	usbmon_put32(out + USBMON_OFF_TS_USEC, (uint32_t)h->ts_usec);
	usbmon_put32(out + USBMON_OFF_STATUS, (uint32_t)h->status);
	usbmon_put32(out + USBMON_OFF_LEN_URB, h->len_urb);
	usbmon_put32(out + USBMON_OFF_LEN_CAP, h->len_cap);
	memcpy(out + USBMON_OFF_SETUP, h->setup, sizeof(h->setup));
	usbmon_put32(out + USBMON_OFF_INTERVAL, (uint32_t)h->interval);
	usbmon_put32(out + USBMON_OFF_START, (uint32_t)h->start_frame);
	usbmon_put32(out + USBMON_OFF_XFLAGS, h->xfer_flags);
	usbmon_put32(out + USBMON_OFF_NDESC, h->ndesc);
}

/* Both parsers; cut: what follows the header may be short of len_cap. */
static int usbmon_parse_any(const void *buf, size_t len,
			    struct usbmon_event *ev, bool cut)
{
	const uint8_t *b = buf;
	struct ev_usbmon_hdr h;
	uint32_t desclen, datalen, ndesc_cap, have;

	if (!buf || len < USBMON_HDR_SIZE)
		return -EINVAL;
	usbmon_hdr_unpack(b, &h);
	if (h.len_cap > len - USBMON_HDR_SIZE && !cut)
		return -EINVAL;
	if (h.type == USBMON_TYPE_FILLER) {
		if (cut)	/* ring bookkeeping, never a packet */
			return -EINVAL;
		memset(ev, 0, sizeof(*ev));
		ev->hdr = h;
		return (int)(USBMON_HDR_SIZE + h.len_cap);
	}
	if (h.type != 'S' && h.type != 'C' && h.type != 'E')
		return -EINVAL;
	if (h.xfer_type > USBMON_XFER_BULK)
		return -EINVAL;
	/* mon_bin_event() writes descriptors for ISO endpoints only */
	if (h.ndesc > USBMON_ISODESC_MAX ||
	    (h.ndesc && h.xfer_type != USBMON_XFER_ISO))
		return -EINVAL;
	desclen = h.ndesc * USBMON_ISODESC_SIZE;
	if (h.len_cap < desclen)
		return -EINVAL;
	datalen = h.len_cap - desclen;
	/* a flag in flag_data says why there is no data */
	if (datalen && h.flag_data)
		return -EINVAL;
	/*
	 * Data is the URB's length at most, but an ISO IN completion's
	 * reaches the end of its last frame, past actual_length.
	 */
	if (datalen > h.len_urb && h.xfer_type != USBMON_XFER_ISO)
		return -EINVAL;
	/* an error event ('E') carries nothing */
	if (h.type == 'E' && h.len_cap)
		return -EINVAL;

	/* what is really there, when cut */
	have = len - USBMON_HDR_SIZE > h.len_cap ? h.len_cap :
	       (uint32_t)(len - USBMON_HDR_SIZE);
	ndesc_cap = h.ndesc;
	if (have < desclen) {
		ndesc_cap = have / USBMON_ISODESC_SIZE;
		datalen = 0;
	} else if (have - desclen < datalen) {
		datalen = have - desclen;
	}
	ev->hdr = h;
	ev->ndesc_cap = ndesc_cap;
	ev->desc = ndesc_cap ? b + USBMON_HDR_SIZE : NULL;
	ev->data = datalen ? b + USBMON_HDR_SIZE + desclen : NULL;
	ev->datalen = datalen;
	return cut ? (int)(USBMON_HDR_SIZE + have) :
		     (int)(USBMON_HDR_SIZE + h.len_cap);
}

int usbmon_parse(const void *buf, size_t len, struct usbmon_event *ev)
{
	return usbmon_parse_any(buf, len, ev, false);
}

int usbmon_parse_packet(const void *buf, size_t len, struct usbmon_event *ev)
{
	/* a capture's packet is at most its block: no overflow of int */
	if (len > INT32_MAX)
		return -EINVAL;
	return usbmon_parse_any(buf, len, ev, true);
}

struct usbmon_isodesc usbmon_isodesc(const struct usbmon_event *ev,
				     uint32_t i)
{
	struct usbmon_isodesc d = { 0, 0, 0 };
	const uint8_t *p;

	if (!ev->desc || i >= ev->ndesc_cap)
		return d;
	p = ev->desc + (size_t)i * USBMON_ISODESC_SIZE;
	d.status = (int32_t)usbmon_get32(p);
	d.offset = usbmon_get32(p + 4);
	d.len = usbmon_get32(p + 8);
	return d;
}

uint64_t usbmon_realtime_ns(const struct ev_usbmon_hdr *hdr)
{
	if (hdr->ts_sec < 0 || hdr->ts_usec < 0)
		return 0;
	return (uint64_t)hdr->ts_sec * 1000000000u +
	       (uint64_t)hdr->ts_usec * 1000u;
}

uint32_t usbmon_text_tstamp(uint64_t mono_ns)
{
	uint64_t sec = mono_ns / 1000000000u;

	/* mon_get_timestamp(): seconds modulo 4096, then microseconds */
	return (uint32_t)((sec & 0xfff) * 1000000u +
			  (mono_ns % 1000000000u) / 1000u);
}

/* snprintf that appends at *off and keeps counting past the end. */
static void usbmon_put(char *buf, size_t size, size_t *off,
		       const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void usbmon_put(char *buf, size_t size, size_t *off,
		       const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(*off < size ? buf + *off : NULL,
		      *off < size ? size - *off : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		*off += (size_t)n;
}

/* mon_text_read_statset(): the setup packet, or the status */
static void usbmon_put_statset(char *buf, size_t size, size_t *off,
			       const struct ev_usbmon_hdr *h)
{
	const uint8_t *s = h->setup;

	if (h->flag_setup == 0)
		usbmon_put(buf, size, off, " s %02x %02x %04x %04x %04x",
			   s[0], s[1], s[2] | s[3] << 8, s[4] | s[5] << 8,
			   s[6] | s[7] << 8);
	else if (h->flag_setup != '-')
		usbmon_put(buf, size, off, " %c __ __ ____ ____ ____",
			   h->flag_setup);
	else
		usbmon_put(buf, size, off, " %d", h->status);
}

int usbmon_format_1u(const struct usbmon_event *ev, uint32_t tstamp_us,
		     char *buf, size_t size)
{
	static const char utypes[] = {
		[USBMON_XFER_ISO] = 'Z', [USBMON_XFER_INT] = 'I',
		[USBMON_XFER_CONTROL] = 'C', [USBMON_XFER_BULK] = 'B',
	};
	const struct ev_usbmon_hdr *h = &ev->hdr;
	size_t off = 0;
	uint32_t i, n;

	if (size)
		buf[0] = '\0';
	usbmon_put(buf, size, &off, "%" PRIx64 " %u %c %c%c:%u:%03u:%u",
		   h->id, tstamp_us, h->type,
		   h->xfer_type <= USBMON_XFER_BULK ? utypes[h->xfer_type] : 'B',
		   h->epnum & 0x80 ? 'i' : 'o', h->busnum, h->devnum,
		   h->epnum & 0x7f);

	if (h->type == 'E') {
		usbmon_put_statset(buf, size, &off, h);
	} else if (h->xfer_type == USBMON_XFER_ISO) {
		int32_t error_count, numdesc;

		memcpy(&error_count, h->setup, 4);
		memcpy(&numdesc, h->setup + 4, 4);
		if (h->type == 'S')
			usbmon_put(buf, size, &off, " %d:%d:%d", h->status,
				   h->interval, h->start_frame);
		else
			usbmon_put(buf, size, &off, " %d:%d:%d:%d", h->status,
				   h->interval, h->start_frame, error_count);
		usbmon_put(buf, size, &off, " %d", numdesc);
		n = numdesc < 0 ? 0 : (uint32_t)numdesc;
		if (n > USBMON_TEXT_ISO_MAX)
			n = USBMON_TEXT_ISO_MAX;
		if (n > ev->ndesc_cap)
			n = ev->ndesc_cap;
		for (i = 0; i < n; i++) {
			struct usbmon_isodesc d = usbmon_isodesc(ev, i);

			usbmon_put(buf, size, &off, " %d:%u:%u", d.status,
				   d.offset, d.len);
		}
	} else if (h->xfer_type == USBMON_XFER_INT) {
		usbmon_put(buf, size, &off, " %d:%d", h->status, h->interval);
	} else {
		usbmon_put_statset(buf, size, &off, h);
	}
	usbmon_put(buf, size, &off, " %d", (int)h->len_urb);

	/* mon_text_read_data(): a length of 0 shows nothing more */
	if ((int)h->len_urb > 0 && h->flag_data) {
		usbmon_put(buf, size, &off, " %c", h->flag_data);
	} else if ((int)h->len_urb > 0 && ev->datalen) {
		n = ev->datalen < h->len_urb ? ev->datalen : h->len_urb;
		if (n > USBMON_TEXT_DATA_MAX)
			n = USBMON_TEXT_DATA_MAX;
		usbmon_put(buf, size, &off, " =");
		for (i = 0; i < n; i++)
			usbmon_put(buf, size, &off, "%s%02x",
				   i % 4 ? "" : " ", ev->data[i]);
	}
	usbmon_put(buf, size, &off, "\n");
	return off > INT32_MAX ? INT32_MAX : (int)off;
}
