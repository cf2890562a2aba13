/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kmsgtab.h - the kernel's own messages as data: data/kmsg-formats.tsv,
 * one row per printk format that matters to a USB-storage user, matched
 * against a message.
 *
 * The classifier (classify.c) asks kmsgtab_match() which row a message
 * is, and gets the row (what kind of incident, part or fact it is) and
 * the values of the format's conversions, named by the row's fields
 * column.  Rows are compiled once, the first time a message is matched;
 * a pass of Aho-Corasick over the message finds the rows whose longest
 * literal it holds, and only those are matched in full.  Pure: no I/O.
 */
#ifndef USBTRAIL_KMSGTAB_H
#define USBTRAIL_KMSGTAB_H

#include <stdbool.h>
#include <stddef.h>

#include "classify.h"

/* What a row says a message is, besides an incident of some kind. */
enum kmsgtab_role {
	KMSGTAB_INCIDENT,	/* row->kind is the incident's kind */
	KMSGTAB_CMD_RESULT,	/* parts of one failed SCSI command */
	KMSGTAB_CMD_SENSE_KEY,
	KMSGTAB_CMD_ADD_SENSE,
	KMSGTAB_CMD_CDB,
	KMSGTAB_CMD_NOT_READY,
	KMSGTAB_CMD_INFO,
	KMSGTAB_CMD_SENSE_HEX,
	KMSGTAB_DEV_NEW,	/* facts for the device summary */
	KMSGTAB_DEV_IDS,
	KMSGTAB_DEV_PRODUCT,
	KMSGTAB_DEV_MANUFACTURER,
	KMSGTAB_DEV_SERIAL,
	KMSGTAB_DEV_UAS,
	KMSGTAB_DEV_USB_STORAGE,
	KMSGTAB_DEV_SCSI,
	KMSGTAB_DISK_CAPACITY,
	KMSGTAB_DISK_ATTACHED,
	KMSGTAB_BOOT,
	KMSGTAB_NONE,		/* looks alarming, is not an incident */
	KMSGTAB_ROLE_COUNT
};

/* Which device prefix a row's message carries. */
enum kmsgtab_who {
	KMSGTAB_WHO_ANY,
	KMSGTAB_WHO_HCD,	/* a host controller: xhci_hcd 0000:00:14.0 */
	KMSGTAB_WHO_USB,	/* a USB device, port or interface */
	KMSGTAB_WHO_SCSI,	/* sd 7:0:0:0, scsi host7 */
	KMSGTAB_WHO_NONE,	/* (a message's) no prefix that says */
};

/* The names a row's fields column may give a conversion. */
#define KMSGTAB_FIELDS(X)						\
	X(DISK, "disk") X(SECTOR, "sector") X(LBA, "lba")		\
	X(BLOCK, "block") X(DEVNUM, "devnum") X(SPEED, "speed")		\
	X(ERR, "err") X(STATUS, "status") X(CODE, "code")		\
	X(SLOT, "slot") X(EP, "ep") X(PORT, "port") X(COUNT, "count")	\
	X(KEY, "key") X(ASC, "asc") X(ASCQ, "ascq")			\
	X(ASC_TEXT, "asc_text") X(HOSTBYTE, "hostbyte")			\
	X(DRIVERBYTE, "driverbyte") X(OPCODE_NAME, "opcode_name")	\
	X(CDB, "cdb") X(TAG, "tag") X(OP, "op")				\
	X(BLK_STATUS, "blk_status") X(FUNC, "func")			\
	X(DRIVER, "driver") X(VID, "vid") X(PID, "pid")			\
	X(PRODUCT, "product") X(MANUFACTURER, "manufacturer")		\
	X(SERIAL, "serial") X(HOST, "host") X(FS, "fs")			\
	X(VERSION, "version") X(MSG, "msg") X(INFO, "info")		\
	X(SENSE, "sense") X(BCD, "bcd") X(RESULT, "result")		\
	X(VENDOR, "vendor") X(MODEL, "model") X(BLOCKS, "blocks")	\
	X(BLOCK_SIZE, "block_size") X(SIZE, "size") X(TYPE, "type")

enum kmsgtab_field {
	KMSGTAB_F_SKIP,		/* "-": not kept */
#define KMSGTAB_F_ENUM(id, name) KMSGTAB_F_##id,
	KMSGTAB_FIELDS(KMSGTAB_F_ENUM)
#undef KMSGTAB_F_ENUM
	KMSGTAB_F_NFIELDS
};

/* Where an enumeration message stands in hub_port_connect()'s attempts */
enum kmsgtab_attempt {
	KMSGTAB_ATTEMPT_WITHIN,	/* a retry inside one attempt */
	KMSGTAB_ATTEMPT_ENDS,	/* hub_port_init() gives up after it */
	KMSGTAB_ATTEMPT_AFTER,	/* between attempts, the last one's */
};

struct kmsgtab_row {
	const char *id;			/* "hub-reset" */
	enum kmsgtab_role role;
	enum kmsgtab_attempt attempt;	/* enum-failure rows */
	enum classify_kind kind;	/* with KMSGTAB_INCIDENT */
	enum kmsgtab_who who;
	const char *format;		/* the printk format */
	const char *where, *versions, *why, *test;
	unsigned int index;		/* its row in the table, from 0 */
};

#define KMSGTAB_VALUES_MAX	12

struct kmsgtab_match {
	const struct kmsgtab_row *row;
	size_t start, end;		/* the span that matched */
	unsigned int nvalues;
	struct {
		enum kmsgtab_field field;
		const char *s;		/* into the message */
		size_t len;
	} v[KMSGTAB_VALUES_MAX];
};

/*
 * The row that msg is, the one with the most literal text if several fit,
 * or NULL (also when the table cannot be compiled: out of memory).  who
 * is the class of the message's device prefix.  m gets the conversions'
 * values (pointers into msg).
 */
const struct kmsgtab_row *kmsgtab_match(const char *msg, size_t len,
					enum kmsgtab_who who,
					struct kmsgtab_match *m);

/* The value of field f in m, or NULL; *len gets its length. */
const char *kmsgtab_value(const struct kmsgtab_match *m,
			  enum kmsgtab_field f, size_t *len);

/* All rows, for the table's own check; NULL if it cannot be compiled. */
const struct kmsgtab_row *kmsgtab_rows(unsigned int *n);
/* Why the table did not compile ("row 12: ..."), or NULL. */
const char *kmsgtab_error(void);

/* The class of a dev_printk driver name: "xhci_hcd" is KMSGTAB_WHO_HCD. */
enum kmsgtab_who kmsgtab_who_of_driver(const char *drv, size_t len);

#endif /* USBTRAIL_KMSGTAB_H */
