// SPDX-License-Identifier: GPL-2.0-only
/*
 * recpkt.c - trace records as capture.pcapng packets and back (recpkt.h
 * has the layout).
 */
#include <errno.h>
#include <string.h>

#include "modrec.h"
#include "recpkt.h"
#include "util.h"

static size_t recpkt_name(uint8_t *p, const char *s, size_t max)
{
	size_t n = strnlen(s, max - 1);

	memcpy(p, s, n);
	return n;
}

size_t recpkt_pack(const struct ev *ev, uint8_t *buf)
{
	uint32_t magic = RECPKT_MAGIC;
	uint16_t hdr_len;
	int16_t bus = (int16_t)(ev->ident.busnum < 0 ? -1 : ev->ident.busnum);
	int16_t dev = (int16_t)(ev->ident.devnum < 0 ? -1 : ev->ident.devnum);
	size_t n = RECPKT_FIXED, pad;

	n += buf[28] = (uint8_t)recpkt_name(buf + n, ev->ident.disk,
					    sizeof(ev->ident.disk));
	n += buf[29] = (uint8_t)recpkt_name(buf + n, ev->ident.usb,
					    sizeof(ev->ident.usb));
	n += buf[30] = (uint8_t)recpkt_name(buf + n, ev->ident.scsi,
					    sizeof(ev->ident.scsi));
	buf[31] = 0;
	pad = (8 - n % 8) % 8;
	memset(buf + n, 0, pad);
	n += pad;
	hdr_len = (uint16_t)n;
	memcpy(buf, &magic, 4);
	memcpy(buf + 4, &hdr_len, 2);
	buf[6] = (uint8_t)ev->source;
	buf[7] = RECPKT_VERSION;
	memcpy(buf + 8, &ev->id, 8);
	memcpy(buf + 16, &ev->t_ns, 8);
	memcpy(buf + 24, &bus, 2);
	memcpy(buf + 26, &dev, 2);
	memcpy(buf + n, &ev->u.rec, USBTRAIL_RECORD_SIZE);
	return n + USBTRAIL_RECORD_SIZE;
}

int recpkt_parse(const uint8_t *buf, size_t len, struct ev *ev)
{
	struct usbtrail_record rec;
	uint32_t magic;
	uint16_t hdr_len;
	int16_t bus, dev;
	size_t names;

	if (len < RECPKT_FIXED)
		return -EINVAL;
	memcpy(&magic, buf, 4);
	if (magic == __builtin_bswap32(RECPKT_MAGIC))
		return -EPROTONOSUPPORT;
	if (magic != RECPKT_MAGIC)
		return -EINVAL;
	if (buf[7] != RECPKT_VERSION)
		return buf[7] > RECPKT_VERSION ? -EPROTONOSUPPORT : -EINVAL;
	memcpy(&hdr_len, buf + 4, 2);
	names = (size_t)buf[28] + buf[29] + buf[30];
	if (hdr_len < RECPKT_FIXED + names || hdr_len % 8 ||
	    len < (size_t)hdr_len + USBTRAIL_RECORD_SIZE)
		return -EINVAL;
	if (modrec_parse(buf + hdr_len, len - hdr_len, &rec) < 0)
		return -EINVAL;
	if (buf[6] != EV_SRC_MODULE && buf[6] != EV_SRC_TRACEFS)
		return -EINVAL;

	memset(ev, 0, offsetof(struct ev, u));
	ev->type = EV_TRACE;
	ev->source = (enum ev_source)buf[6];
	memcpy(&ev->id, buf + 8, 8);
	memcpy(&ev->t_ns, buf + 16, 8);
	memcpy(&bus, buf + 24, 2);
	memcpy(&dev, buf + 26, 2);
	ev->ident.busnum = bus < 0 ? -1 : bus;
	ev->ident.devnum = dev < 0 ? -1 : dev;
	util_copy(ev->ident.disk, sizeof(ev->ident.disk),
		  (const char *)buf + RECPKT_FIXED, buf[28]);
	util_copy(ev->ident.usb, sizeof(ev->ident.usb),
		  (const char *)buf + RECPKT_FIXED + buf[28], buf[29]);
	util_copy(ev->ident.scsi, sizeof(ev->ident.scsi),
		  (const char *)buf + RECPKT_FIXED + buf[28] + buf[29], buf[30]);
	ev->u.rec = rec;
	return 0;
}
