/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * classify.h - the one incident classifier: kernel log messages in, USB
 * storage incidents out.
 *
 * "usbtrail analyze" feeds it the messages kmsg.c parsed from a text log;
 * "usbtrail record" is meant to feed it the live ones.  Messages must come
 * in log order: some incidents take two lines (Sense Key + Add. Sense) and
 * chains (timeout -> abort -> reset -> recovered or offline) follow one
 * another.  A pure library: no printing, no files, no allocation.
 */
#ifndef USBTRAIL_CLASSIFY_H
#define USBTRAIL_CLASSIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kmsg.h"

enum classify_kind {
	CLASSIFY_SENSE,
	CLASSIFY_TIMEOUT,
	CLASSIFY_ABORT,
	CLASSIFY_RESET,
	CLASSIFY_RECOVERED,
	CLASSIFY_DISCONNECT,
	CLASSIFY_IO_ERROR,
	CLASSIFY_OFFLINE,
	CLASSIFY_HC_DIED,
	CLASSIFY_ENUM_FAILURE,
	CLASSIFY_UAS_IGNORED,
	CLASSIFY_OVER_CURRENT,
	CLASSIFY_XHCI_ERROR,
	CLASSIFY_FS_ERROR,
	CLASSIFY_SUPPRESSED,
	CLASSIFY_DIP,		/* recordings only: throughput fell */
	CLASSIFY_KIND_COUNT
};

#define CLASSIFY_DEV_MAX	48
#define CLASSIFY_TEXT_MAX	96
#define CLASSIFY_LINE_MAX	1024	/* longer messages are cut */

struct classify_incident {
	enum classify_kind kind;
	char dev[CLASSIFY_DEV_MAX];	/* sdc, 2-1, host0, 0000:00:14.0 */
	char disk[CLASSIFY_DEV_MAX];	/* the disk it concerns, if known */
	double t;
	enum kmsg_clock clock;
	unsigned int chain;		/* 0: in no chain */
	bool inferred;			/* implied by the next line, not logged */
	/* per kind; -1 where the log does not say */
	int key, asc, ascq;		/* sense */
	const char *key_text;		/* sense, static */
	char asc_text[CLASSIFY_TEXT_MAX]; /* sense */
	int64_t sector;			/* io-error */
	char speed[CLASSIFY_TEXT_MAX];	/* reset: "SuperSpeed", "high-speed" */
	int devnum;			/* reset, disconnect, enum-failure */
	int err;			/* enum-failure: positive errno */
	int code;			/* xhci-error: completion code */
	long count;			/* suppressed */
	char line[CLASSIFY_LINE_MAX];	/* the kernel message, NUL-ended */
};

/* At most this many incidents come out of one classify_feed() call. */
#define CLASSIFY_MAX_OUT	3

#define CLASSIFY_MAP_MAX	32
#define CLASSIFY_CHAIN_WINDOW	120.0	/* s between the parts of a chain */

/* State between messages; set up with classify_init(), owns no memory. */
struct classify {
	bool sense_pending;
	struct classify_incident sense;
	/* SCSI address (H:C:T:L) -> disk, learnt from "sd H:C:T:L: [sdX]" */
	struct {
		char addr[CLASSIFY_DEV_MAX];
		char disk[CLASSIFY_DEV_MAX];
	} map[CLASSIFY_MAP_MAX];
	unsigned int nmap;
	unsigned int next_chain;
	unsigned int chain;		/* open chain, 0 if none */
	char chain_disk[CLASSIFY_DEV_MAX];
	double chain_t;
	bool chain_timeout;		/* the open chain has a timeout */
};

void classify_init(struct classify *c);
int classify_feed(struct classify *c, const struct kmsg_record *rec,
		  struct classify_incident out[CLASSIFY_MAX_OUT]);
int classify_flush(struct classify *c,
		   struct classify_incident out[CLASSIFY_MAX_OUT]);

const char *classify_kind_name(enum classify_kind kind);
/* The kind's details as text: "key=2 (Not Ready) asc=0x3a ..." */
void classify_details(const struct classify_incident *inc, char *buf,
		      size_t len);
const char *classify_sense_key_text(int key);
int classify_asc_lookup(const char *text, int *asc, int *ascq);
const char *classify_asc_text(int asc, int ascq);

#endif /* USBTRAIL_CLASSIFY_H */
