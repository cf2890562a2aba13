/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * classify.h - the one incident classifier: kernel log messages in, USB
 * storage incidents out.
 *
 * "usbtrail analyze" feeds it the messages of a pasted log (kmsg.c),
 * "usbtrail record" the live ones (derive.c).  What each message is comes
 * from the kernel's own vocabulary, data/kmsg-formats.tsv (kmsgtab.c);
 * this file puts the pieces together as a person reads them: the lines
 * of one failed command (Result, sense, CDB, I/O error, lost writes) are
 * one incident, timeout -> abort -> reset -> recovered or offline is a
 * chain, the same message repeated is one incident with a count, and the
 * device a line names is carried to the lines that do not.  Incidents
 * come out once complete, in the order of their first line.  A pure
 * library: no printing, no files.
 */
#ifndef USBTRAIL_CLASSIFY_H
#define USBTRAIL_CLASSIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kmsg.h"

/*
 * The incident kinds, one row each: what every part of usbtrail knows of
 * a kind, so that the classifier, the JSON writer and reader, the text
 * and HTML reports, the journal and the advice cannot disagree.
 *
 *   id         CLASSIFY_<id>
 *   name       the name users see (JSON "kind", USBTRAIL_KIND=)
 *   class      ERROR, STEP (an error handler's step: timeout, abort,
 *              reset), RECOVERY or SLOW (throughput fell): the colour of
 *              its mark and its journal priority
 *   advice     the advice it gets (REPORT_ADV_<advice>; report_advice.c
 *              refines a sense incident's by its key)
 *   carries    what it has beyond the common fields (CLASSIFY_C_*): the
 *              writers write these and only these
 */
#define CLASSIFY_KINDS(X)						\
	X(SENSE, "sense", ERROR, SENSE,					\
	  CLASSIFY_C_CMD | CLASSIFY_C_SENSE | CLASSIFY_C_INFO |		\
	  CLASSIFY_C_COMMANDS)						\
	X(TIMEOUT, "timeout", STEP, RESET_CHAIN,			\
	  CLASSIFY_C_CMD | CLASSIFY_C_SENSE | CLASSIFY_C_COMMANDS)	\
	X(ABORT, "abort", STEP, RESET_CHAIN, CLASSIFY_C_OPCODE)		\
	X(RESET, "reset", STEP, RESET_CHAIN,				\
	  CLASSIFY_C_SPEED | CLASSIFY_C_DEVNUM)				\
	X(RECOVERED, "recovered", RECOVERY, RESET_CHAIN, 0)		\
	X(DISCONNECT, "disconnect", ERROR, DISCONNECT, CLASSIFY_C_DEVNUM) \
	X(IO_ERROR, "io-error", ERROR, IO_ERROR, CLASSIFY_C_CMD)	\
	X(OFFLINE, "offline", ERROR, OFFLINE, CLASSIFY_C_REPEATS)	\
	X(HC_DIED, "hc-died", ERROR, HC_DIED, CLASSIFY_C_REPEATS)	\
	X(ENUM_FAILURE, "enum-failure", ERROR, ENUM,			\
	  CLASSIFY_C_PORT_ERR | CLASSIFY_C_REPEATS)			\
	X(UAS_IGNORED, "uas-ignored", ERROR, UAS_IGNORED,		\
	  CLASSIFY_C_REPEATS)						\
	X(OVER_CURRENT, "over-current", ERROR, OVER_CURRENT,		\
	  CLASSIFY_C_PORT_ERR | CLASSIFY_C_REPEATS)			\
	X(XHCI_ERROR, "xhci-error", ERROR, XHCI,			\
	  CLASSIFY_C_CODE | CLASSIFY_C_REPEATS)				\
	X(FS_ERROR, "fs-error", ERROR, FS, CLASSIFY_C_LOST)		\
	X(SUPPRESSED, "suppressed", ERROR, SUPPRESSED, CLASSIFY_C_TALLY) \
	X(DIP, "dip", SLOW, DIP, CLASSIFY_C_DIP) /* recordings only */	\
	X(RESET_FAILED, "reset-failed", STEP, OFFLINE,			\
	  CLASSIFY_C_PORT_ERR | CLASSIFY_C_REPEATS)			\
	X(LINK_ERROR, "link-error", ERROR, LINK,			\
	  CLASSIFY_C_PORT_ERR | CLASSIFY_C_REPEATS)			\
	X(POWER, "power", ERROR, POWER,				\
	  CLASSIFY_C_PORT_ERR | CLASSIFY_C_REPEATS)

/* What a kind carries (the "carries" column) */
enum {
	CLASSIFY_C_CMD = 1 << 0,	/* a failed command: Result, CDB... */
	CLASSIFY_C_OPCODE = 1 << 1,	/* the command it acts on: opcode */
	CLASSIFY_C_SENSE = 1 << 2,	/* key, ASC, ASCQ */
	CLASSIFY_C_INFO = 1 << 3,	/* sense's information field */
	CLASSIFY_C_COMMANDS = 1 << 4,	/* count: commands failed alike */
	CLASSIFY_C_REPEATS = 1 << 5,	/* count: times the line came */
	CLASSIFY_C_TALLY = 1 << 6,	/* count: lines the kernel dropped */
	CLASSIFY_C_SPEED = 1 << 7,	/* the link speed it reset to */
	CLASSIFY_C_DEVNUM = 1 << 8,	/* the USB device number */
	CLASSIFY_C_ERRNO = 1 << 9,	/* the kernel's errno */
	CLASSIFY_C_PORT = 1 << 10,	/* the hub port */
	CLASSIFY_C_CODE = 1 << 11,	/* an xHCI completion code */
	CLASSIFY_C_LOST = 1 << 12,	/* partition and blocks lost */
	CLASSIFY_C_DIP = 1 << 13,	/* throughput against its median */
	/* a hub port's failure: errno, device number, port */
	CLASSIFY_C_PORT_ERR = CLASSIFY_C_ERRNO | CLASSIFY_C_DEVNUM |
			      CLASSIFY_C_PORT,
};

/* The "class" column */
enum classify_class {
	CLASSIFY_CLASS_ERROR,
	CLASSIFY_CLASS_STEP,
	CLASSIFY_CLASS_RECOVERY,
	CLASSIFY_CLASS_SLOW,
};

enum classify_kind {
#define CLASSIFY_KIND_ENUM(id, name, class, advice, carries) CLASSIFY_##id,
	CLASSIFY_KINDS(CLASSIFY_KIND_ENUM)
#undef CLASSIFY_KIND_ENUM
	CLASSIFY_KIND_COUNT
};

#define CLASSIFY_DEV_MAX	48
#define CLASSIFY_TEXT_MAX	96
#define CLASSIFY_LINE_MAX	1024	/* longer messages are cut */
#define CLASSIFY_REFS_MAX	8

struct classify_incident {
	enum classify_kind kind;
	char dev[CLASSIFY_DEV_MAX];	/* sdc, 2-1, host0, 0000:00:14.0 */
	char disk[CLASSIFY_DEV_MAX];	/* the disk it concerns, if known */
	char usb[CLASSIFY_DEV_MAX];	/* its USB device path, if known */
	char scsi[24];			/* its SCSI address H:C:T:L, if known */
	int host;			/* its SCSI host number, -1 */
	double t;			/* when its first line was printed */
	double t_last;			/* and its last (t's clock), >= t */
	enum kmsg_clock clock;
	double wall;			/* the same on the wall clock, if any */
	enum kmsg_clock wall_clock;	/* KMSG_CLOCK_NONE if none */
	unsigned int file;		/* input and lines it spans */
	unsigned long line_first, line_last;
	unsigned int nlines;		/* kernel lines that make it */
	uint64_t refs[CLASSIFY_REFS_MAX];	/* the callers' refs of them */
	unsigned int nrefs;
	unsigned int chain;		/* 0: in no chain */
	bool inferred;			/* implied by the next line, not logged */
	/* per kind; -1 or "" where the log does not say */
	int key, asc, ascq;		/* sense */
	const char *key_text;		/* sense, static */
	char asc_text[CLASSIFY_TEXT_MAX]; /* sense */
	int64_t info;			/* sense: the information field */
	char hostbyte[32], driverbyte[32];	/* Result: */
	int opcode;			/* the failed command's CDB */
	char opcode_name[40];		/* "Write(10)", as the kernel names it */
	int64_t lba;
	int64_t blocks;
	int64_t sector;			/* io-error: the block layer's sector */
	char op[16];			/* "WRITE", "READ" */
	char blk_status[40];		/* "I/O", "critical medium", ... */
	char part[CLASSIFY_DEV_MAX];	/* data lost on this partition */
	long lost_blocks;		/* Buffer I/O errors / lost writes */
	int64_t lost_first;		/* the first logical block lost */
	long suppressed;		/* callbacks suppressed among its lines */
	char speed[CLASSIFY_TEXT_MAX];	/* reset: "SuperSpeed", "high-speed" */
	int devnum;			/* reset, disconnect, enum-failure */
	int port;			/* over-current, link-error */
	int err;			/* a positive errno */
	int code;			/* xhci-error: completion code */
	long count;			/* suppressed: dropped lines; timeout:
					 * commands; repeats otherwise */
	char row[40];			/* the data/kmsg-formats.tsv row of its
					 * first line */
	char line[CLASSIFY_LINE_MAX];	/* the kernel message, NUL-ended */
};

/* State between messages: classify_new(), classify_free(). */
struct classify;

struct classify_stats {
	unsigned long messages;		/* fed */
	unsigned long recognised;	/* matched a row of the table */
	unsigned long benign;		/* of those: rows that are no incident */
	unsigned long pass_through;	/* ATA PASS-THROUGH replies dropped */
	unsigned long incidents;	/* out */
	unsigned long lost;		/* not taken by the caller in time */
};

struct classify *classify_new(void);
void classify_free(struct classify *c);

/*
 * One message, in log order.  rec->lineno and rec->file say where it
 * was; ref is the caller's own reference (an event id, a line number),
 * kept in the incident's refs.
 */
void classify_feed(struct classify *c, const struct kmsg_record *rec,
		   uint64_t ref);
/*
 * The time is t (of clock), and no message came since: what no later
 * message can join is complete (a live log, between its lines).
 */
void classify_advance(struct classify *c, double t, enum kmsg_clock clock);
/* Is an incident with a line between from and to still held or ready? */
bool classify_pending(const struct classify *c, double from, double to);
/* The end of the input: every incident is complete. */
void classify_end(struct classify *c);
/* The next complete incident, in the order of first lines; false: none */
bool classify_next(struct classify *c, struct classify_incident *out);

const struct classify_stats *classify_stats(const struct classify *c);
/* The id of the data/kmsg-formats.tsv row the last message matched, or
 * NULL ("usbtrail analyze --rows"). */
const char *classify_last_row(const struct classify *c);

/* What the log says of its USB disks (the device summary). */
#define CLASSIFY_DEVICES_MAX	32

struct classify_device {
	char usb[CLASSIFY_DEV_MAX];	/* 2-1.4 */
	char disk[CLASSIFY_DEV_MAX];	/* sdc */
	int host;			/* SCSI host, -1 */
	int devnum;
	int vid, pid;			/* -1 if unknown */
	char bcd[12];
	char speed[CLASSIFY_TEXT_MAX];	/* as the kernel named it */
	double speed_mbps;		/* 0: unknown */
	char hcd_driver[32];		/* xhci_hcd */
	char driver[16];		/* uas, usb-storage */
	char product[64], manufacturer[64], serial[64];
	char vendor[16], model[24];	/* the SCSI inquiry */
	int64_t blocks;
	int block_size;
	char size[32];			/* "1.07 GB/1.00 GiB", as printed */
	bool uas_ignored;
	unsigned long incidents;
	/*
	 * the order of its last "new ... USB device" line (0: none), and
	 * whether a SCSI host took it since
	 */
	unsigned long announced;
	bool bound;
	bool guessed;	/* bound by "scsi hostN: uas", which names none */
};

/* The devices seen so far; *n gets how many. */
const struct classify_device *classify_devices(const struct classify *c,
					       unsigned int *n);

const char *classify_kind_name(enum classify_kind kind);
/* The kind's "carries" column (CLASSIFY_C_*), 0 for no kind */
unsigned int classify_kind_carries(enum classify_kind kind);
/* The kind's "class" column; CLASSIFY_CLASS_ERROR for no kind */
enum classify_class classify_kind_class(enum classify_kind kind);
/* The kind of a name, CLASSIFY_KIND_COUNT if none. */
enum classify_kind classify_kind_of(const char *name);
/* The kind's details as text: "key=2 (Not Ready) asc=0x3a ..." */
void classify_details(const struct classify_incident *inc, char *buf,
		      size_t len);
/* An incident with every field at "unknown". */
void classify_incident_init(struct classify_incident *inc,
			    enum classify_kind kind);

/* --- SCSI facts, from data/scsi-asc.tsv and data/scsi-sense-keys.tsv --- */

/* "Not Ready"; NULL outside 0..15 */
const char *classify_sense_key_text(int key);
/* false for keys that report no failure (No Sense, Recovered, Completed) */
bool classify_sense_key_fails(int key);
/* The kernel's text for ASC/ASCQ (for a family, "Ram failure" without
 * the qualifier the kernel prints after it); NULL when unknown. */
const char *classify_asc_text(int asc, int ascq);
/* The kernel's text back to ASC/ASCQ; ascq -1 when only the family is
 * known.  -ENOENT when the text is no known code. */
int classify_asc_lookup(const char *text, int *asc, int *ascq);

#endif /* USBTRAIL_CLASSIFY_H */
