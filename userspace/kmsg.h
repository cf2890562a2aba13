/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kmsg.h - one kernel log line (or journal export entry) in, one struct out.
 *
 * Sits at the front of "usbtrail analyze" (and later "record"): the command
 * cuts its input into lines, kmsg_parse_line() recognises the form of each
 * line (dmesg, dmesg -T, syslog, journalctl -k, /dev/kmsg) and hands the
 * message text to the classifier.  journalctl -o export entries span lines;
 * struct kmsg_export gathers them.  Nothing here opens files or prints.
 */
#ifndef USBTRAIL_KMSG_H
#define USBTRAIL_KMSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longest line (and export MESSAGE) taken; longer ones are malformed. */
#define KMSG_LINE_MAX	(64 * 1024)

enum kmsg_format {
	KMSG_FMT_DMESG,		/* [ 1234.567890] msg */
	KMSG_FMT_DMESG_T,	/* [Sun Nov 29 23:10:27 2026] msg */
	KMSG_FMT_SYSLOG,	/* Nov 29 23:10:27 host kernel: [..] msg */
	KMSG_FMT_KMSG,		/* 6,1234,5678901,-;msg (/dev/kmsg) */
	KMSG_FMT_EXPORT,	/* journalctl -o export entry */
	KMSG_FMT_PLAIN,		/* dmesg without times: msg only */
};

/* Which clock t is on. */
enum kmsg_clock {
	KMSG_CLOCK_NONE,	/* no time in the line */
	KMSG_CLOCK_MONO,	/* seconds since boot (printk time) */
	KMSG_CLOCK_WALL,	/* seconds since 1 Jan 00:00 of the log's year */
	KMSG_CLOCK_BOOT,	/* CLOCK_BOOTTIME seconds: usbtrail recordings */
};

struct kmsg_record {
	const char *msg;	/* not NUL-terminated; points into the input */
	size_t msg_len;
	double t;
	enum kmsg_clock clock;
	enum kmsg_format format;
	int facility;		/* -1 when the line does not say */
	int level;		/* -1 when the line does not say */
	int64_t seq;		/* /dev/kmsg sequence number, -1 if none */
};

/* kmsg_parse_line() results besides 0 (a record) */
#define KMSG_RECORD	1	/* kmsg_export_feed(): an entry is complete */
#define KMSG_NOT_KERNEL	2	/* well-formed, but not a kernel message */

int kmsg_parse_line(const char *line, size_t len, struct kmsg_record *rec);

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
	int level;
	int facility;
	int64_t seq;
};

void kmsg_export_init(struct kmsg_export *ex);
bool kmsg_export_is_field(const char *line, size_t len);
int kmsg_export_feed(struct kmsg_export *ex, const char *line, size_t len,
		     struct kmsg_record *rec);

#endif /* USBTRAIL_KMSG_H */
