/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kmsg.h - kernel log lines in, in whatever form people paste them, kernel
 * messages out.
 *
 * The front of "usbtrail analyze" and of the recorder's /dev/kmsg source.
 * Two layers, both pure (bytes in, structs out; no files, no printing):
 *
 *  - kmsg_parse_line(): one line in one of the kernel's, dmesg's,
 *    journalctl's or a syslog daemon's own forms, nothing around it.
 *  - struct kmsg_stream: a whole input, line by line.  It takes off what
 *    users wrap around the lines (indentation, Markdown fences, "> "
 *    quotes, cat -n / nl / grep -n -H prefixes, CRLF, NBSP and other
 *    Unicode spaces, ANSI colours, HTML entities), reads journalctl's
 *    export and json entries, joins lines a browser or mail client broke,
 *    keeps both clocks, orders messages by their printk stamp within a
 *    small window, and marks where a new boot begins.
 *
 * docs/analyze.md lists every form with an example.
 */
#ifndef USBTRAIL_KMSG_H
#define USBTRAIL_KMSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longest line taken; longer ones are malformed. */
#define KMSG_LINE_MAX	(64 * 1024)
/* Longest message a stream record keeps (the classifier reads 1 KiB). */
#define KMSG_MSG_MAX	4096

enum kmsg_format {
	KMSG_FMT_PLAIN,		/* no stamp: dmesg -t, journalctl -o cat, 2.6 */
	KMSG_FMT_DMESG,		/* [ 1234.567890] msg */
	KMSG_FMT_DMESG_T,	/* [Sun Nov 29 23:10:27 2026] msg (-T, ctime) */
	KMSG_FMT_DMESG_RAW,	/* <6>[ 1234.567890] msg (dmesg -r) */
	KMSG_FMT_DMESG_X,	/* kern  :err   : [ 1234.567890] msg (-x) */
	KMSG_FMT_DMESG_DELTA,	/* [ 1234.567890 <    0.000123>] msg (-d) */
	KMSG_FMT_DMESG_REL,	/* [Nov29 23:10] / [  +0.000123] (-H, reltime) */
	KMSG_FMT_DMESG_ISO,	/* 2026-11-29T23:10:27,123456+01:00 msg */
	KMSG_FMT_KMSG,		/* 6,1234,5678901,-;msg (/dev/kmsg) */
	KMSG_FMT_SYSLOG,	/* Nov 29 23:10:27 host kernel: [..] msg */
	KMSG_FMT_SYSLOG_ISO,	/* 2026-11-29T23:10:27.1+01:00 host kernel: */
	KMSG_FMT_RFC5424,	/* <4>1 2026-11-29T23:10:27Z host kernel - - - */
	KMSG_FMT_JOURNAL_FULL,	/* Sun 2026-11-29 23:10:27 CET host kernel: */
	KMSG_FMT_JOURNAL_UNIX,	/* 1732918227.123456 host kernel: msg */
	KMSG_FMT_JOURNAL_MONO,	/* [  170.483679] host kernel: msg */
	KMSG_FMT_EXPORT,	/* journalctl -o export entry */
	KMSG_FMT_JSON,		/* journalctl -o json line */
	KMSG_FMT_LOGREAD,	/* Mon Nov 18 10:34:27 2019 kern.err kernel: */
	KMSG_FMT_METALOG,	/* Nov 29 23:10:27 [kernel] msg */
	KMSG_FMT_TALOS,		/* 10.5.0.2: kern: info: [2023-..Z]: msg */
	KMSG_FMT_LOGCAT,	/* 11-29 23:10:27.123 0 0 I kernel : msg */
	KMSG_FMT_ISO_COLON,	/* 2017-10-09T07:30:25+0000: msg */
	KMSG_FMT_CLOCK,		/* 21:11:10 kernel: msg, [18:14:04] msg */
	KMSG_FMT_COUNT
};

/* Which clock t is on. */
enum kmsg_clock {
	KMSG_CLOCK_NONE,	/* no time in the line */
	KMSG_CLOCK_MONO,	/* seconds since boot (printk time) */
	KMSG_CLOCK_WALL,	/* seconds since 1 Jan 00:00 of an unknown year */
	KMSG_CLOCK_BOOT,	/* CLOCK_BOOTTIME seconds: usbtrail recordings */
	KMSG_CLOCK_REAL,	/* seconds since the epoch, local time as written
				 * unless the stamp gave its zone */
};

struct kmsg_record {
	const char *msg;	/* not NUL-terminated; see the owner below */
	size_t msg_len;
	double t;		/* the best clock: the printk stamp if any */
	enum kmsg_clock clock;
	double mono;		/* printk stamp, if has_mono */
	bool has_mono;
	double wall;		/* the wall clock, on wall_clock (WALL/REAL) */
	enum kmsg_clock wall_clock;	/* KMSG_CLOCK_NONE: no wall clock */
	enum kmsg_format format;
	int facility;		/* -1 when the line does not say */
	int level;		/* -1 when the line does not say */
	int64_t seq;		/* /dev/kmsg sequence number, -1 if none */
	const char *host;	/* syslog/journal host name, not NUL-ended */
	size_t host_len;
	char caller[12];	/* printk caller id "T123" / "C1", or "" */
	/* set by struct kmsg_stream only */
	bool new_boot;		/* the first message of a boot after another */
	bool joined;		/* a broken line was joined onto it */
	unsigned int file;	/* which input (kmsg_stream_file()) */
	unsigned long lineno;	/* its first line in that input, from 1 */
};

/* kmsg_parse_line() results besides 0 (a record) */
#define KMSG_RECORD	1	/* kmsg_export_feed(): an entry is complete */
#define KMSG_NOT_KERNEL	2	/* well-formed, but not a kernel message */

/*
 * One line in one form, nothing wrapped around it.  Returns 0 and fills
 * rec (rec->msg and rec->host point into line), KMSG_NOT_KERNEL for a line
 * of another program or one in no kernel form (a /dev/kmsg dictionary
 * line), or -EINVAL for a line that starts like a known form and breaks
 * it.  A line with no stamp at all is KMSG_FMT_PLAIN.  rec is written only
 * on 0.
 */
int kmsg_parse_line(const char *line, size_t len, struct kmsg_record *rec);

const char *kmsg_format_name(enum kmsg_format f);	/* "dmesg", ... */

/*
 * t on clock as a log writes it: "218.273966" (since boot), "Mar 14
 * 10:13:08" (a wall clock without its year), "2026-11-29 23:10:27", "-".
 */
void kmsg_time_text(double t, enum kmsg_clock clock, char *buf, size_t len);
/* t as "%.6f" prints it (seconds and microseconds), faster */
void kmsg_secs_text(double t, char *buf, size_t len);

/*
 * journalctl -o export: feed every line of the stream; a blank line ends an
 * entry.  Returns KMSG_RECORD and fills rec (msg points into ex, valid
 * until the next call) when an entry with a MESSAGE ends, 0 when more lines
 * are needed, KMSG_NOT_KERNEL for an entry from another program, -EINVAL for a
 * malformed entry (counted by the caller and skipped).
 */
struct kmsg_export {
	char msg[KMSG_LINE_MAX];
	size_t msg_len;
	bool have_msg;
	bool bad;		/* binary field or over-long MESSAGE */
	bool not_kernel;	/* _TRANSPORT= other than kernel */
	bool any;		/* at least one field seen */
	double t;
	enum kmsg_clock clock;
	double real;		/* __REALTIME_TIMESTAMP, seconds */
	bool has_real;
	int level;
	int facility;
	int64_t seq;
	char boot_id[40];	/* _BOOT_ID */
	char host[64];		/* _HOSTNAME */
};

void kmsg_export_init(struct kmsg_export *ex);
bool kmsg_export_is_field(const char *line, size_t len);
int kmsg_export_feed(struct kmsg_export *ex, const char *line, size_t len,
		     struct kmsg_record *rec);

/*
 * journalctl -o json (also json-seq and json-sse lines): one object.
 * Returns 0 and fills rec (msg into buf, which must hold KMSG_MSG_MAX
 * bytes; host into hostbuf of 64), KMSG_NOT_KERNEL for another program's
 * entry, -EINVAL for what is not such an object.  boot_id gets _BOOT_ID
 * (40 bytes, "" if none).
 */
int kmsg_parse_json(const char *line, size_t len, struct kmsg_record *rec,
		    char *buf, char *hostbuf, char *boot_id);

/* --- a whole input --------------------------------------------------- */

struct kmsg_stream_stats {
	unsigned long lines;		/* physical lines read */
	unsigned long kernel;		/* kernel messages out */
	unsigned long stamped;		/* of those, with a stamp of any kind */
	unsigned long other;		/* lines of other programs, prose,
					 * fences, blank lines */
	unsigned long malformed;	/* broken forms, over-long lines */
	unsigned long joined;		/* broken lines joined to the one above */
	unsigned long boots;		/* boot boundaries seen */
	unsigned long forms[KMSG_FMT_COUNT];	/* messages by form */
};

/* How many messages the stream holds back to order them by printk time. */
#define KMSG_STREAM_WINDOW	16

struct kmsg_stream;

/* NULL when out of memory.  kmsg_stream_free(NULL) is allowed. */
struct kmsg_stream *kmsg_stream_new(void);
void kmsg_stream_free(struct kmsg_stream *s);

/* The input the next lines come from (0, 1, ...): lines count from 1. */
void kmsg_stream_file(struct kmsg_stream *s, unsigned int file);

/*
 * One physical line (with or without its '\n'; at most KMSG_LINE_MAX
 * bytes, or the caller says it was longer with len = KMSG_LINE_MAX + 1
 * and the line is malformed).  Then take what is ready with
 * kmsg_stream_next() until it returns 0.
 */
void kmsg_stream_feed(struct kmsg_stream *s, const char *line, size_t len);
/* The end of all input: what is held back becomes ready. */
void kmsg_stream_end(struct kmsg_stream *s);
/*
 * 1 and the next message in rec (rec->msg and rec->host owned by the
 * stream, valid until the next call), or 0 when none is ready.
 */
int kmsg_stream_next(struct kmsg_stream *s, struct kmsg_record *rec);

const struct kmsg_stream_stats *kmsg_stream_stats(const struct kmsg_stream *s);

#endif /* USBTRAIL_KMSG_H */
