/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pcapng.h - pcapng blocks written into a memory buffer, and read back
 * from bytes (https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng).
 *
 * sink_pcapng.c builds capture.pcapng from these: a Section Header Block,
 * one Interface Description Block for usbmon (LINKTYPE_USB_LINUX_MMAPPED,
 * nanosecond timestamps), Enhanced Packet Blocks for URB events and
 * Systemd Journal Export Blocks for kernel log lines and incidents.  The
 * reader walks blocks of a file in memory for the tests and for trimming a
 * capture into a bug report.  Blocks are written in the host's byte
 * order, as the pcapng format allows; the reader takes either.
 */
#ifndef USBTRAIL_PCAPNG_H
#define USBTRAIL_PCAPNG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "event.h"

#define PCAPNG_BT_SHB		0x0a0d0d0a
#define PCAPNG_BT_IDB		0x00000001
#define PCAPNG_BT_EPB		0x00000006
#define PCAPNG_BT_SJE		0x00000009	/* Systemd Journal Export */
#define PCAPNG_BYTE_ORDER_MAGIC	0x1a2b3c4d

#define PCAPNG_LINKTYPE_USB_LINUX_MMAPPED	220
/* DLT_USER0: usbtrail's trace records (recpkt.h, tools/wireshark/) */
#define PCAPNG_LINKTYPE_USER0			147

/* Blocks bigger than this are refused, read or written (Wireshark's cap
 * is about the same). */
#define PCAPNG_BLOCK_MAX	(16u << 20)

/*
 * The output buffer: blocks are appended; the owner writes data[0..len)
 * out and resets len.  Starts zeroed; pcapng_buf_free() releases it.
 */
struct pcapng_buf {
	uint8_t *data;
	size_t len;
	size_t cap;
};

void pcapng_buf_free(struct pcapng_buf *b);
/* n bytes as they are, no block: an entry being built.  0 or -ENOMEM. */
int pcapng_buf_append(struct pcapng_buf *b, const void *p, size_t n);

/*
 * Appenders.  Each appends one whole block or nothing, and returns 0,
 * -ENOMEM, or -EINVAL when the block would exceed PCAPNG_BLOCK_MAX.
 */
/* shb_userappl: the application that wrote the file ("usbtrail 0.3"). */
int pcapng_put_shb(struct pcapng_buf *b, const char *userappl);
/* if_tsresol: 10^-tsresol seconds per timestamp unit (9: nanoseconds). */
int pcapng_put_idb(struct pcapng_buf *b, uint16_t linktype, uint32_t snaplen,
		   const char *if_name, const char *if_description,
		   uint8_t tsresol);
int pcapng_put_epb(struct pcapng_buf *b, uint32_t if_id, uint64_t ts,
		   const void *data, uint32_t caplen, uint32_t origlen);
/*
 * The same with the packet in pieces (a header, then data), and an
 * epb_packetid option of @packet_id unless it is 0 (the recorder's event
 * id: "usbtrail export" gives it back).
 */
int pcapng_put_epb_iov(struct pcapng_buf *b, uint32_t if_id, uint64_t ts,
		       const struct iovec *iov, unsigned int niov,
		       uint32_t origlen, uint64_t packet_id);
/* An entry in Journal Export Format, as it is: see pcapng_journal_*. */
int pcapng_put_sje(struct pcapng_buf *b, const void *entry, size_t len);

/*
 * One journal export entry (https://systemd.io/JOURNAL_EXPORT_FORMATS/),
 * the body of a Systemd Journal Export Block: __REALTIME_TIMESTAMP and
 * __MONOTONIC_TIMESTAMP (microseconds), _BOOT_ID (32 hex digits, may be
 * NULL), then the fields, each "NAME=value\n", or in the binary form
 * (NAME\n, 64-bit little-endian length, value, \n) when the value holds a
 * newline or another control character.  An empty line ends the entry.
 * Names that are not valid journal field names (A-Z, 0-9, _; not starting
 * with a digit) are refused with -EINVAL.  Appends to b (not a block: the
 * caller wraps it with pcapng_put_sje()).
 */
int pcapng_journal_entry(struct pcapng_buf *b, uint64_t realtime_us,
			 uint64_t monotonic_us, const char *boot_id,
			 const struct ev_field *fields, unsigned int nfields);

/*
 * One field NAME=value of a journal entry, in the form the value needs:
 * text, or binary (NAME\n, 64-bit little-endian length, value, \n) when
 * it holds a newline or another byte below 32 but tab.  The name is not
 * checked: for copying fields of an entry read back (bundle.c).
 */
int pcapng_journal_put(struct pcapng_buf *b, const char *name, size_t nlen,
		       const void *value, size_t vlen);

/* Reading */
#define PCAPNG_IF_MAX		16	/* interfaces of a section kept */

struct pcapng_reader {
	bool shb_seen;
	bool swapped;		/* section in the other byte order */
	/* the link types of the section's interfaces, by IDB order */
	unsigned int nif;
	uint16_t linktype[PCAPNG_IF_MAX];
};

struct pcapng_block {
	uint32_t type;
	uint32_t total_len;	/* the whole block, both lengths included */
	const uint8_t *body;	/* between the lengths */
	uint32_t body_len;
};

/*
 * The block at *off of buf (len bytes); on success *off moves past it.
 * Returns 1 for a block, 0 at the end (*off == len), -EINVAL if what is
 * there is no whole block: a section not starting with an SHB, a length
 * under 12, not a multiple of 4, past the end or above PCAPNG_BLOCK_MAX,
 * the two lengths differing, an SHB with a bad byte-order magic.  An SHB
 * starts a new section (no interfaces yet); an IDB adds one.
 */
int pcapng_next_block(struct pcapng_reader *rd, const uint8_t *buf,
		      size_t len, size_t *off, struct pcapng_block *blk);

/*
 * The link type of interface @if_id of the current section (as its
 * Interface Description Block said), or -1 if there is none such.
 */
int pcapng_if_linktype(const struct pcapng_reader *rd, uint32_t if_id);

/* 32-bit word of a block body in the section's byte order */
uint32_t pcapng_u32(const struct pcapng_reader *rd, const uint8_t *p);

struct pcapng_epb {
	uint32_t if_id;
	uint64_t ts;
	uint32_t caplen;
	uint32_t origlen;
	const uint8_t *data;
	uint64_t packet_id;	/* its epb_packetid option; 0: none */
};

/* An EPB's fixed fields; -EINVAL if caplen overruns the block. */
int pcapng_epb_parse(const struct pcapng_reader *rd,
		     const struct pcapng_block *blk, struct pcapng_epb *epb);

/*
 * The value of field NAME in a journal export entry (text or binary
 * form), not NUL-ended: *val and *vlen.  0, -ENOENT, or -EINVAL if the
 * entry is malformed before NAME was found.
 */
int pcapng_journal_field(const uint8_t *entry, size_t len, const char *name,
			 const uint8_t **val, size_t *vlen);

/* One field of a journal export entry, pointing into the entry. */
struct pcapng_journal_item {
	const uint8_t *name;
	size_t nlen;
	const uint8_t *val;
	size_t vlen;
	bool binary;		/* the value was in the binary form */
};

/*
 * The field at *pos of a journal export entry (len bytes) into *it, *pos
 * moved past it: 1; 0 at the empty line that ends the entry (*pos moved
 * past it) or at len; -EINVAL if what is there is no whole field.
 */
int pcapng_journal_next(const uint8_t *entry, size_t len, size_t *pos,
			struct pcapng_journal_item *it);

#endif /* USBTRAIL_PCAPNG_H */
