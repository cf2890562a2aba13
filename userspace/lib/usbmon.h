/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * usbmon.h - events of usbmon's binary interface (/dev/usbmonN), parsed
 * from bytes, packed back into the kernel's header form for pcap, and
 * written in usbmon's "1u" text form (Documentation/usb/usbmon.rst).
 *
 * One event in the mmapped ring (drivers/usb/mon/mon_bin.c) is a 64-byte
 * struct mon_bin_hdr, then hdr.ndesc ISO descriptors of 16 bytes, then
 * the data: len_cap counts the descriptors and the data.  Every event
 * starts on a 64-byte boundary of the ring.  Multi-byte fields are in the
 * byte order of the kernel that wrote them (the host's).
 */
#ifndef USBTRAIL_USBMON_H
#define USBTRAIL_USBMON_H

#include <stddef.h>
#include <stdint.h>
#include <linux/ioctl.h>

#include "event.h"

#define USBMON_HDR_SIZE		64	/* PKT_SZ_API1 */
#define USBMON_ISODESC_SIZE	16	/* struct mon_bin_isodesc */
#define USBMON_ISODESC_MAX	128	/* ISODESC_MAX of mon_bin.c */
#define USBMON_ALIGN		64	/* PKT_ALIGN */
/* hdr.type of the filler mon_bin.c puts where an event would wrap */
#define USBMON_TYPE_FILLER	'@'

/*
 * The binary interface's ioctls.  No uapi header carries them: they are
 * mon_bin.c's own, documented in Documentation/usb/usbmon.rst.
 */
struct usbmon_stats {
	uint32_t queued;
	uint32_t dropped;	/* since the last MON_IOCG_STATS */
};

struct usbmon_mfetch {
	uint32_t *offvec;	/* out: ring offsets of the events fetched */
	uint32_t nfetch;	/* in: room in offvec; out: events fetched */
	uint32_t nflush;	/* in: events to release first; out: released */
};

#define USBMON_IOC_MAGIC	0x92
#define USBMON_IOCG_STATS	_IOR(USBMON_IOC_MAGIC, 3, struct usbmon_stats)
#define USBMON_IOCT_RING_SIZE	_IO(USBMON_IOC_MAGIC, 4)
#define USBMON_IOCQ_RING_SIZE	_IO(USBMON_IOC_MAGIC, 5)
#define USBMON_IOCX_MFETCH	_IOWR(USBMON_IOC_MAGIC, 7, struct usbmon_mfetch)
#define USBMON_IOCH_MFLUSH	_IO(USBMON_IOC_MAGIC, 8)
/* BUFF_MIN and BUFF_MAX of mon_bin.c */
#define USBMON_RING_MIN		(8 * 1024)
#define USBMON_RING_MAX		(64 * 1024 * 1024)

/* xfer_type in the binary header: the kernel's PIPE_* numbers */
enum usbmon_xfer {
	USBMON_XFER_ISO = 0,
	USBMON_XFER_INT = 1,
	USBMON_XFER_CONTROL = 2,
	USBMON_XFER_BULK = 3,
};

/* One parsed event; desc and data point into the caller's bytes. */
struct usbmon_event {
	struct ev_usbmon_hdr hdr;
	const uint8_t *desc;	/* hdr.ndesc ISO descriptors, NULL if none */
	const uint8_t *data;	/* the URB's data, NULL if datalen is 0 */
	uint32_t datalen;	/* len_cap less the descriptors, or what is left */
	uint32_t ndesc_cap;	/* descriptors at desc: hdr.ndesc, or fewer */
};

/* One ISO descriptor (struct mon_bin_isodesc). */
struct usbmon_isodesc {
	int32_t status;
	uint32_t offset;
	uint32_t len;
};

/*
 * Parse one event from buf (len bytes from the event's start; any
 * alignment).  Returns the bytes it covers (64 + len_cap; the next event
 * of a ring starts at that rounded up to USBMON_ALIGN), or -EINVAL if buf
 * does not hold a whole, consistent event: short, an unknown type or
 * transfer type, descriptors on a non-ISO event or more than the kernel
 * writes, data flagged absent but present, data longer than the URB.
 * A filler (hdr.type '@') parses; callers skip it.  *ev is written only
 * on success.
 */
int usbmon_parse(const void *buf, size_t len, struct usbmon_event *ev);

/*
 * The same for a packet of a capture (pcap link type 220, capture.pcapng):
 * the header is whole, but what follows may be cut short of len_cap by a
 * snap length or --payload; desc and data then cover what is there
 * (ndesc_cap whole descriptors, datalen bytes).  Returns the bytes it
 * covers (64 + what there is of len_cap), or -EINVAL for what
 * usbmon_parse() refuses other than the cut, and for a filler.
 */
int usbmon_parse_packet(const void *buf, size_t len, struct usbmon_event *ev);

/* The I-th ISO descriptor of an event; i < ev->ndesc_cap. */
struct usbmon_isodesc usbmon_isodesc(const struct usbmon_event *ev,
				     uint32_t i);

/* hdr back into the kernel's 64-byte header, as pcap link type 220 has it. */
void usbmon_hdr_pack(const struct ev_usbmon_hdr *hdr,
		     uint8_t out[USBMON_HDR_SIZE]);

/* hdr.ts_sec/ts_usec (CLOCK_REALTIME) in ns; 0 if negative. */
uint64_t usbmon_realtime_ns(const struct ev_usbmon_hdr *hdr);

/*
 * One event as a line of usbmon's "u" text (what /sys/kernel/debug/usb/
 * usbmon/Nu prints, mon_text.c), newline included, NUL-ended:
 *
 *   URB-TAG TIMESTAMP TYPE ADDRESS STATUS LENGTH [DATA]
 *   ffff8880044a6c00 3575914555 S Bo:2:002:2 -115 31 = 55534243 ...
 *
 * tstamp_us is the kernel's text timestamp: CLOCK_MONOTONIC in
 * microseconds modulo 4096 s; the binary interface does not carry it, so
 * the caller derives it (usbmon_text_tstamp()).  Where the binary event
 * has less than the text would show, the line shows less: at most
 * min(32, datalen) data bytes, ISO descriptors only if desc is there, the
 * length of an ISO completion as the binary header gives it (actual, not
 * the buffer size).  Returns the length the whole line needs (like
 * snprintf); it is cut at size - 1.
 */
int usbmon_format_1u(const struct usbmon_event *ev, uint32_t tstamp_us,
		     char *buf, size_t size);

/* The text interface's timestamp for a CLOCK_MONOTONIC time in ns. */
uint32_t usbmon_text_tstamp(uint64_t mono_ns);

#endif /* USBTRAIL_USBMON_H */
