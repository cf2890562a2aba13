/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scrub.h - what names a person or a machine, found in text and replaced
 * by tokens, for the bug-report bundle (bundle.c), as sos report's --clean
 * does: hostnames, user names, IPv4 and IPv6 addresses, MAC addresses,
 * boot ids, machine ids (and other 128-bit ids) and USB serial numbers.
 *
 * One table (struct scrub) maps each value to its token, so a value reads
 * the same in every file of a bundle: host1, user1, 192.0.2.1,
 * 2001:db8::1, 02:00:00:00:00:01, 00000000-0000-0000-0000-000000000001,
 * sha256:<16 hex digits> (docs/formats.md has the rules).  Tokens keep the
 * value's form where a reader may parse it: an address stays an address,
 * an id stays 32 hex digits (dashed if it was), JSON stays JSON (through
 * scrub_json()) and a journal entry stays a journal entry (through
 * scrub_journal()).
 *
 * Values found by their form (addresses, ids) are replaced wherever they
 * stand.  Names are known only from where they stand: a user name from a
 * path (/home/NAME, /run/media/NAME/...) or a mount unit, a hostname from
 * a syslog or journal header, _HOSTNAME= or meta.json, a serial from a
 * kernel line or the recording's devices.  scrub_learn() reads all the
 * text first, so a name found in the last file is replaced in the first
 * too; scrub_text() and the others then replace.
 *
 * Pure: takes bytes, returns bytes; nothing is opened or logged.
 */
#ifndef USBTRAIL_SCRUB_H
#define USBTRAIL_SCRUB_H

#include <stddef.h>
#include <stdint.h>

#include "pcapng.h"
#include "util.h"

struct json_object;

enum scrub_class {
	SCRUB_SERIAL,
	SCRUB_HOST,
	SCRUB_USER,
	SCRUB_IPV4,
	SCRUB_IPV6,
	SCRUB_MAC,
	SCRUB_BOOT_ID,
	SCRUB_ID,		/* machine ids and other 128-bit ids */
	SCRUB_NCLASS
};

#define SCRUB_ALL	((1u << SCRUB_NCLASS) - 1)
/* all but serials: what --keep-ids keeps */
#define SCRUB_IDS	(SCRUB_ALL & ~(1u << SCRUB_SERIAL))

/*
 * Distinct values one table holds; past it, scrubbing fails with -E2BIG
 * rather than let a value through.
 */
#define SCRUB_VALUES_MAX	65536u

/* Replacements made, per class; the caller adds them up. */
struct scrub_counts {
	uint64_t n[SCRUB_NCLASS];
};

struct scrub;

/*
 * A table that replaces the classes in the mask @classes (1u << class,
 * SCRUB_ALL); others are left as they are.  NULL without memory.  The
 * caller frees it with scrub_free() (NULL is fine).
 */
struct scrub *scrub_new(unsigned int classes);
void scrub_free(struct scrub *s);

/*
 * A value known beforehand, len bytes: the recording's hostname or boot
 * id, a user's name, a device's serial.  Serials given here are replaced
 * even inside a word, as the report always did (a serial is often part
 * of a longer id: usb-Vendor_Model_SERIAL-0:0).  0, -EINVAL for a value
 * that cannot be one of its class (an id that is not 32 hex digits, an
 * empty name; "localhost" and "root" are taken and ignored), -E2BIG,
 * -ENOMEM.
 */
int scrub_add(struct scrub *s, enum scrub_class cls, const char *v,
	      size_t len);

/*
 * Read @len bytes of any kind (text, JSON, a pcapng file) for the names
 * and ids they show by where they stand; nothing is replaced.  0,
 * -E2BIG, -ENOMEM.
 */
int scrub_learn(struct scrub *s, const void *buf, size_t len);

/*
 * @in (len bytes) with every value of the table's classes replaced,
 * appended to @out; the replacements added to @n (may be NULL).  0,
 * -E2BIG (the table is full) or -ENOMEM; @out may then hold part.
 */
int scrub_text(struct scrub *s, const char *in, size_t len,
	       struct util_str *out, struct scrub_counts *n);

/*
 * A journal export entry (the body of a pcapng journal block, without its
 * padding) with each field's value scrubbed, _HOSTNAME and _BOOT_ID as a
 * whole, appended to @out: a field of the binary form gets its new length.
 * An entry that does not parse is scrubbed as text.  0, -E2BIG, -ENOMEM.
 */
int scrub_journal(struct scrub *s, const uint8_t *entry, size_t len,
		  struct pcapng_buf *out, struct scrub_counts *n);

/*
 * A copy of @in (*out, to json_object_put()) with every string scrubbed,
 * keys too.  Members "hostname" and "_HOSTNAME" are hostnames as a whole,
 * "boot_id" and "_BOOT_ID" boot ids, "machine_id" and "_MACHINE_ID"
 * machine ids, "serial" a serial; "data", "setup", "raw", "sense_data" and
 * "descriptors" are hex bytes (URB data, trace records, sense, USB
 * descriptors) and are copied as they are.  Numbers and the rest are shared with @in, so they print as they
 * did.  0, -EINVAL (nested deeper than json-c parses), -E2BIG, -ENOMEM.
 */
int scrub_json(struct scrub *s, struct json_object *in,
	       struct json_object **out, struct scrub_counts *n);

/* "hostnames", "IPv4 addresses", ... */
const char *scrub_class_name(enum scrub_class cls);
/* The first token of a class: "host1", "192.0.2.1", ... */
const char *scrub_class_token(enum scrub_class cls);

#endif /* USBTRAIL_SCRUB_H */
