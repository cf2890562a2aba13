/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * recpkt.h - a trace record (EV_TRACE: a usbtrail.ko record, or one of
 * tracefs made into the same struct) as the packet capture.pcapng carries
 * on its usbtrail interfaces (LINKTYPE_USER0, dissected by
 * tools/wireshark/usbtrail.lua), and back.  docs/formats.md describes it;
 * the layout, in the byte order of the file's section (the magic says
 * which):
 *
 *   0  u32 magic    RECPKT_MAGIC ("UTR1" in a little-endian file)
 *   4  u16 hdr_len  bytes before the record (a multiple of 8)
 *   6  u8  source   enum ev_source: 1 usbtrail.ko, 2 tracefs
 *   7  u8  version  RECPKT_VERSION
 *   8  u64 id       the event's id (an incident's evidence names it)
 *  16  u64 t_ns     CLOCK_BOOTTIME, as events.jsonl's "t"
 *  24  s16 bus      USB bus and device number, -1 unknown
 *  26  s16 devnum
 *  28  u8  disk_len, usb_len, scsi_len, 0
 *  32  the disk ("sdc"), USB path ("2-1") and SCSI address ("0:0:0:0"),
 *      not NUL-ended, zero-padded to hdr_len
 *  hdr_len: struct usbtrail_record (module/uapi/linux/usbtrail.h), 64 bytes
 *
 * Writing one is copies, no formatting: the recorder's hot path.
 */
#ifndef USBTRAIL_RECPKT_H
#define USBTRAIL_RECPKT_H

#include <stddef.h>
#include <stdint.h>

#include "event.h"

#define RECPKT_MAGIC		0x31525455u	/* "UTR1" little-endian */
#define RECPKT_VERSION		1
#define RECPKT_FIXED		32
/* the largest packet: the three names at their limits */
#define RECPKT_MAX		(RECPKT_FIXED + 32 + 48 + 24 + 8 + \
				 USBTRAIL_RECORD_SIZE)

/*
 * EV_TRACE event @ev as a packet into buf (at least RECPKT_MAX bytes).
 * Returns its length.
 */
size_t recpkt_pack(const struct ev *ev, uint8_t *buf);

/*
 * A packet of @len bytes back into *ev (a whole EV_TRACE event, the ident
 * as stored).  Returns 0; -EINVAL if it is not a packet of this format
 * (bad magic, lengths that overrun, an unknown record type);
 * -EPROTONOSUPPORT for a later version, or one written in the other byte
 * order (the record's fields are the writer's: callers say so rather than
 * guess).  *ev is written only on success.
 */
int recpkt_parse(const uint8_t *buf, size_t len, struct ev *ev);

#endif /* USBTRAIL_RECPKT_H */
