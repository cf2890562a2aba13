// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_kmsg.c - unit tests of userspace/lib/kmsg.c: every line form of the
 * table in docs/analyze.md (lines of util-linux dmesg 2.38 and systemd
 * 252's journalctl as they print them, the others from real logs), the
 * wrappers people paste around lines, journal export and json entries,
 * joins, ordering and boots of struct kmsg_stream, and damaged lines.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "kmsg.h"

#define MSG "usb 2-1: reset SuperSpeed USB device number 2 using xhci_hcd"

/* 2026-11-29 23:10:27 as seconds since the epoch */
#define EPOCH_2026_11_29	1795993827.0

struct form {
	const char *line;
	enum kmsg_format format;
	enum kmsg_clock clock;	/* of t */
	double t;
	enum kmsg_clock wall_clock;
	double wall;
	const char *msg;
	const char *host;	/* NULL: none */
	int level;
};

static const struct form forms[] = {
	/* dmesg */
	{ "[ 1234.567890] " MSG, KMSG_FMT_DMESG, KMSG_CLOCK_MONO, 1234.56789,
	  KMSG_CLOCK_NONE, 0, MSG, NULL, -1 },
	/* dmesg -T and --time-format ctime */
	{ "[Sun Nov 29 23:10:27 2026] " MSG, KMSG_FMT_DMESG_T, KMSG_CLOCK_REAL,
	  EPOCH_2026_11_29, KMSG_CLOCK_REAL, EPOCH_2026_11_29, MSG, NULL, -1 },
	{ "[Tue Dec  1 08:42:34 2026] " MSG, KMSG_FMT_DMESG_T, KMSG_CLOCK_REAL,
	  EPOCH_2026_11_29 + 2 * 86400 - 14 * 3600 - 28 * 60 + 7,
	  KMSG_CLOCK_REAL, EPOCH_2026_11_29 + 2 * 86400 - 14 * 3600 - 28 * 60 + 7,
	  MSG, NULL, -1 },
	/* dmesg -r */
	{ "<6>[    5.280709] " MSG, KMSG_FMT_DMESG_RAW, KMSG_CLOCK_MONO, 5.280709,
	  KMSG_CLOCK_NONE, 0, MSG, NULL, 6 },
	/* dmesg -x */
	{ "kern  :err   : [    9.611430] " MSG, KMSG_FMT_DMESG_X, KMSG_CLOCK_MONO,
	  9.61143, KMSG_CLOCK_NONE, 0, MSG, NULL, 3 },
	{ "kern  :info  : [Tue Dec  1 08:42:34 2026] " MSG, KMSG_FMT_DMESG_X,
	  KMSG_CLOCK_REAL, EPOCH_2026_11_29 + 2 * 86400 - 14 * 3600 - 28 * 60 + 7,
	  KMSG_CLOCK_REAL, EPOCH_2026_11_29 + 2 * 86400 - 14 * 3600 - 28 * 60 + 7,
	  MSG, NULL, 6 },
	/* dmesg -d */
	{ "[    9.611430 <    4.330721>] " MSG, KMSG_FMT_DMESG_DELTA,
	  KMSG_CLOCK_MONO, 9.61143, KMSG_CLOCK_NONE, 0, MSG, NULL, -1 },
	/* dmesg --time-format delta: no time since boot */
	{ "[<    4.330721>] " MSG, KMSG_FMT_DMESG_DELTA, KMSG_CLOCK_NONE, 0,
	  KMSG_CLOCK_NONE, 0, MSG, NULL, -1 },
	/* dmesg -H, --time-format reltime: the minute, then deltas */
	{ "[Dec 1 08:42] " MSG, KMSG_FMT_DMESG_REL, KMSG_CLOCK_WALL,
	  (334 + 0) * 86400.0 + 8 * 3600 + 42 * 60, KMSG_CLOCK_WALL,
	  (334 + 0) * 86400.0 + 8 * 3600 + 42 * 60, MSG, NULL, -1 },
	{ "[Nov29 23:10] " MSG, KMSG_FMT_DMESG_REL, KMSG_CLOCK_WALL,
	  332 * 86400.0 + 23 * 3600 + 10 * 60, KMSG_CLOCK_WALL,
	  332 * 86400.0 + 23 * 3600 + 10 * 60, MSG, NULL, -1 },
	/* dmesg --time-format iso */
	{ "2026-11-29T23:10:27,280709+00:00 " MSG, KMSG_FMT_DMESG_ISO,
	  KMSG_CLOCK_REAL, EPOCH_2026_11_29 + 0.280709, KMSG_CLOCK_REAL,
	  EPOCH_2026_11_29 + 0.280709, MSG, NULL, -1 },
	/* printk caller ids, after the stamp, with or without a space */
	{ "[    5.280709] [  T123] " MSG, KMSG_FMT_DMESG, KMSG_CLOCK_MONO,
	  5.280709, KMSG_CLOCK_NONE, 0, MSG, NULL, -1 },
	{ "[    5.280709][    C1] " MSG, KMSG_FMT_DMESG, KMSG_CLOCK_MONO,
	  5.280709, KMSG_CLOCK_NONE, 0, MSG, NULL, -1 },
	/* Samsung Exynos 3.x kernels (ODROID-XU4): the CPU, "[c0]" */
	{ "[ 1394.012800] [c0] " MSG, KMSG_FMT_DMESG, KMSG_CLOCK_MONO,
	  1394.0128, KMSG_CLOCK_NONE, 0, MSG, NULL, -1 },
	/* a dmesg line copied without its "[" */
	{ "809.987218] " MSG, KMSG_FMT_DMESG, KMSG_CLOCK_MONO, 809.987218,
	  KMSG_CLOCK_NONE, 0, MSG, NULL, -1 },
	{ "5.2] " MSG, KMSG_FMT_PLAIN, KMSG_CLOCK_NONE, 0,
	  KMSG_CLOCK_NONE, 0, "5.2] " MSG, NULL, -1 },
	/* an RFC 3339 stamp and ": " before each line (a script's) */
	{ "2026-11-29T23:10:27+0000: " MSG, KMSG_FMT_ISO_COLON, KMSG_CLOCK_REAL,
	  EPOCH_2026_11_29, KMSG_CLOCK_REAL, EPOCH_2026_11_29, MSG, NULL, -1 },
	/* Android, MediaTek: "(cpu)[pid:comm]" */
	{ "[   12.000001] (3)[1234:kworker/3:1]" MSG, KMSG_FMT_DMESG,
	  KMSG_CLOCK_MONO, 12.000001, KMSG_CLOCK_NONE, 0, MSG, NULL, -1 },
	/* /dev/kmsg */
	{ "6,1234,5678901,-;" MSG, KMSG_FMT_KMSG, KMSG_CLOCK_MONO, 5.678901,
	  KMSG_CLOCK_NONE, 0, MSG, NULL, 6 },
	{ "12,7,0,c,caller=T1;" MSG, KMSG_FMT_KMSG, KMSG_CLOCK_MONO, 0,
	  KMSG_CLOCK_NONE, 0, MSG, NULL, 4 },
	/* journalctl -o short, short-precise: a host, wall clock only */
	{ "Dec 01 09:40:05 nas kernel: " MSG, KMSG_FMT_SYSLOG, KMSG_CLOCK_WALL,
	  334 * 86400.0 + 9 * 3600 + 40 * 60 + 5, KMSG_CLOCK_WALL,
	  334 * 86400.0 + 9 * 3600 + 40 * 60 + 5, MSG, "nas", -1 },
	{ "Dec 01 09:40:05.280709 nas kernel: " MSG, KMSG_FMT_SYSLOG,
	  KMSG_CLOCK_WALL, 334 * 86400.0 + 9 * 3600 + 40 * 60 + 5.280709,
	  KMSG_CLOCK_WALL, 334 * 86400.0 + 9 * 3600 + 40 * 60 + 5.280709, MSG,
	  "nas", -1 },
	/* syslog, kern.log: klogd kept the printk stamp */
	{ "Nov 29 23:10:27 host kernel: [   12.300000] " MSG, KMSG_FMT_SYSLOG,
	  KMSG_CLOCK_MONO, 12.3, KMSG_CLOCK_WALL,
	  332 * 86400.0 + 23 * 3600 + 10 * 60 + 27, MSG, "host", -1 },
	/* the same, RFC 3164 as sent on the wire */
	{ "<4>Nov 29 23:10:27 host kernel: " MSG, KMSG_FMT_SYSLOG,
	  KMSG_CLOCK_WALL, 332 * 86400.0 + 23 * 3600 + 10 * 60 + 27,
	  KMSG_CLOCK_WALL, 332 * 86400.0 + 23 * 3600 + 10 * 60 + 27, MSG,
	  "host", 4 },
	/* journalctl -o short under fr_FR and de_DE: glibc's month names */
	{ "nov. 20 21:24:53 libra kernel: " MSG, KMSG_FMT_SYSLOG,
	  KMSG_CLOCK_WALL, 323 * 86400.0 + 21 * 3600 + 24 * 60 + 53,
	  KMSG_CLOCK_WALL, 323 * 86400.0 + 21 * 3600 + 24 * 60 + 53, MSG,
	  "libra", -1 },
	{ "d\xc3\xa9\x63. 01 09:40:05 nas kernel: " MSG, KMSG_FMT_SYSLOG,
	  KMSG_CLOCK_WALL, 334 * 86400.0 + 9 * 3600 + 40 * 60 + 5,
	  KMSG_CLOCK_WALL, 334 * 86400.0 + 9 * 3600 + 40 * 60 + 5, MSG, "nas",
	  -1 },
	{ "M\xc3\xa4r 01 09:40:05 nas kernel: " MSG, KMSG_FMT_SYSLOG,
	  KMSG_CLOCK_WALL, 59 * 86400.0 + 9 * 3600 + 40 * 60 + 5,
	  KMSG_CLOCK_WALL, 59 * 86400.0 + 9 * 3600 + 40 * 60 + 5, MSG, "nas",
	  -1 },
	/* dmesg -T under nl_NL and fr_FR: the day's and month's names */
	{ "[wo jul 28 05:19:43 2021] " MSG, KMSG_FMT_DMESG_T, KMSG_CLOCK_REAL,
	  1627449583.0, KMSG_CLOCK_REAL, 1627449583.0, MSG, NULL, -1 },
	{ "[mer. nov. 18 10:00:00 2020] " MSG, KMSG_FMT_DMESG_T,
	  KMSG_CLOCK_REAL, 1605693600.0, KMSG_CLOCK_REAL, 1605693600.0, MSG,
	  NULL, -1 },
	/* a decimal comma (dmesg's stamp pasted under such a locale) */
	{ "[ 1234,567890] " MSG, KMSG_FMT_DMESG, KMSG_CLOCK_MONO, 1234.56789,
	  KMSG_CLOCK_NONE, 0, MSG, NULL, -1 },
	/* busybox syslogd: no host; and with facility.level */
	{ "Nov 18 10:34:27 kernel: " MSG, KMSG_FMT_SYSLOG, KMSG_CLOCK_WALL,
	  321 * 86400.0 + 10 * 3600 + 34 * 60 + 27, KMSG_CLOCK_WALL,
	  321 * 86400.0 + 10 * 3600 + 34 * 60 + 27, MSG, NULL, -1 },
	{ "Nov 18 10:34:27 router kern.warn kernel: " MSG, KMSG_FMT_SYSLOG,
	  KMSG_CLOCK_WALL, 321 * 86400.0 + 10 * 3600 + 34 * 60 + 27,
	  KMSG_CLOCK_WALL, 321 * 86400.0 + 10 * 3600 + 34 * 60 + 27, MSG,
	  "router", 4 },
	/* metalog */
	{ "Nov 29 23:10:27 [kernel] " MSG, KMSG_FMT_METALOG, KMSG_CLOCK_WALL,
	  332 * 86400.0 + 23 * 3600 + 10 * 60 + 27, KMSG_CLOCK_WALL,
	  332 * 86400.0 + 23 * 3600 + 10 * 60 + 27, MSG, NULL, -1 },
	/* rsyslog RFC 3339, journalctl -o short-iso(-precise) */
	{ "2026-11-29T23:10:27.123456+01:00 host kernel: " MSG,
	  KMSG_FMT_SYSLOG_ISO, KMSG_CLOCK_REAL,
	  EPOCH_2026_11_29 - 3600 + 0.123456, KMSG_CLOCK_REAL,
	  EPOCH_2026_11_29 - 3600 + 0.123456, MSG, "host", -1 },
	{ "2026-11-29T23:10:27+0100 nas kernel: " MSG, KMSG_FMT_SYSLOG_ISO,
	  KMSG_CLOCK_REAL, EPOCH_2026_11_29 - 3600, KMSG_CLOCK_REAL,
	  EPOCH_2026_11_29 - 3600, MSG, "nas", -1 },
	/* syslog-ng and Home Assistant: a space for the 'T' */
	{ "2026-11-29 23:10:27 homeassistant kernel: " MSG, KMSG_FMT_SYSLOG_ISO,
	  KMSG_CLOCK_REAL, EPOCH_2026_11_29, KMSG_CLOCK_REAL, EPOCH_2026_11_29,
	  MSG, "homeassistant", -1 },
	/* RFC 5424 */
	{ "<4>1 2026-11-29T23:10:27.5Z nas kernel - - - " MSG,
	  KMSG_FMT_RFC5424, KMSG_CLOCK_REAL, EPOCH_2026_11_29 + 0.5,
	  KMSG_CLOCK_REAL, EPOCH_2026_11_29 + 0.5, MSG, "nas", 4 },
	{ "<6>1 2026-11-29T23:10:27Z nas kernel - - [meta sequenceId=\"7\"] [ 12.5] "
	  MSG, KMSG_FMT_RFC5424, KMSG_CLOCK_MONO, 12.5, KMSG_CLOCK_REAL,
	  EPOCH_2026_11_29, MSG, "nas", 6 },
	/* journalctl -o short-full */
	{ "Sun 2026-11-29 23:10:27 CET nas kernel: " MSG, KMSG_FMT_JOURNAL_FULL,
	  KMSG_CLOCK_REAL, EPOCH_2026_11_29, KMSG_CLOCK_REAL, EPOCH_2026_11_29,
	  MSG, "nas", -1 },
	/* journalctl -o short-unix */
	{ "1764578405.280709 nas kernel: " MSG, KMSG_FMT_JOURNAL_UNIX,
	  KMSG_CLOCK_REAL, 1764578405.280709, KMSG_CLOCK_REAL,
	  1764578405.280709, MSG, "nas", -1 },
	/* journalctl -o short-monotonic and short-delta */
	{ "[    5.280709] nas kernel: " MSG, KMSG_FMT_JOURNAL_MONO,
	  KMSG_CLOCK_MONO, 5.280709, KMSG_CLOCK_NONE, 0, MSG, "nas", -1 },
	{ "[  170.483679] kernel: " MSG, KMSG_FMT_JOURNAL_MONO, KMSG_CLOCK_MONO,
	  170.483679, KMSG_CLOCK_NONE, 0, MSG, NULL, -1 },
	{ "[    9.611430 <    4.330721 >] nas kernel: " MSG, KMSG_FMT_JOURNAL_MONO,
	  KMSG_CLOCK_MONO, 9.61143, KMSG_CLOCK_NONE, 0, MSG, "nas", -1 },
	{ "[    5.280709                ] nas kernel: " MSG,
	  KMSG_FMT_JOURNAL_MONO, KMSG_CLOCK_MONO, 5.280709, KMSG_CLOCK_NONE, 0,
	  MSG, "nas", -1 },
	/* OpenWrt logread */
	{ "Mon Nov 18 10:34:27 2019 kern.err kernel: [   12.345678] " MSG,
	  KMSG_FMT_LOGREAD, KMSG_CLOCK_MONO, 12.345678, KMSG_CLOCK_REAL,
	  1574073267.0, MSG, NULL, 3 },
	/* talosctl dmesg */
	{ "10.20.0.163: kern:    info: [2020-03-24T03:34:25.138216603Z]: " MSG,
	  KMSG_FMT_TALOS, KMSG_CLOCK_REAL, 1585020865.138216603,
	  KMSG_CLOCK_REAL, 1585020865.138216603, MSG, "10.20.0.163", 6 },
	/* logcat -b kernel */
	{ "11-29 23:10:27.123     0     0 W kernel  : " MSG, KMSG_FMT_LOGCAT,
	  KMSG_CLOCK_WALL, 332 * 86400.0 + 23 * 3600 + 10 * 60 + 27.123,
	  KMSG_CLOCK_WALL, 332 * 86400.0 + 23 * 3600 + 10 * 60 + 27.123, MSG,
	  NULL, 4 },
	/* journalctl -o cat, dmesg -t, 2.6 without printk times */
	{ MSG, KMSG_FMT_PLAIN, KMSG_CLOCK_NONE, 0, KMSG_CLOCK_NONE, 0, MSG, NULL,
	  -1 },
	/* a journal or syslog line cut to its tag: "kernel: " and the rest */
	{ "kernel: " MSG, KMSG_FMT_PLAIN, KMSG_CLOCK_NONE, 0, KMSG_CLOCK_NONE,
	  0, MSG, NULL, -1 },
	{ "kernel: [   12.300000] " MSG, KMSG_FMT_DMESG, KMSG_CLOCK_MONO, 12.3,
	  KMSG_CLOCK_NONE, 0, MSG, NULL, -1 },
	/* a time of day and no date: a log viewer's, a script's, ts(1)'s */
	{ "21:11:10 kernel: " MSG, KMSG_FMT_CLOCK, KMSG_CLOCK_WALL,
	  21 * 3600 + 11 * 60 + 10, KMSG_CLOCK_WALL, 21 * 3600 + 11 * 60 + 10,
	  MSG, NULL, -1 },
	{ "21:11:10 nas kernel: " MSG, KMSG_FMT_CLOCK, KMSG_CLOCK_WALL,
	  21 * 3600 + 11 * 60 + 10, KMSG_CLOCK_WALL, 21 * 3600 + 11 * 60 + 10,
	  MSG, "nas", -1 },
	{ "21:11:10.250 " MSG, KMSG_FMT_CLOCK, KMSG_CLOCK_WALL,
	  21 * 3600 + 11 * 60 + 10.25, KMSG_CLOCK_WALL,
	  21 * 3600 + 11 * 60 + 10.25, MSG, NULL, -1 },
	{ "21:11:10 kernel: [   12.300000] " MSG, KMSG_FMT_CLOCK,
	  KMSG_CLOCK_MONO, 12.3, KMSG_CLOCK_WALL, 21 * 3600 + 11 * 60 + 10,
	  MSG, NULL, -1 },
	{ "[18:14:04] " MSG, KMSG_FMT_CLOCK, KMSG_CLOCK_WALL,
	  18 * 3600 + 14 * 60 + 4, KMSG_CLOCK_WALL, 18 * 3600 + 14 * 60 + 4,
	  MSG, NULL, -1 },
	{ "[18:14:04.123456] " MSG, KMSG_FMT_CLOCK, KMSG_CLOCK_WALL,
	  18 * 3600 + 14 * 60 + 4.123456, KMSG_CLOCK_WALL,
	  18 * 3600 + 14 * 60 + 4.123456, MSG, NULL, -1 },
	{ "[18:14:04,5] " MSG, KMSG_FMT_CLOCK, KMSG_CLOCK_WALL,
	  18 * 3600 + 14 * 60 + 4.5, KMSG_CLOCK_WALL, 18 * 3600 + 14 * 60 + 4.5,
	  MSG, NULL, -1 },
	/* vendor kernels' fields after the time: a CPU, then the caller */
	{ "[    7.474869][ 0] [    C0] " MSG, KMSG_FMT_DMESG, KMSG_CLOCK_MONO,
	  7.474869, KMSG_CLOCK_NONE, 0, MSG, NULL, -1 },
	{ "[    7.474869][ 3] " MSG, KMSG_FMT_DMESG, KMSG_CLOCK_MONO, 7.474869,
	  KMSG_CLOCK_NONE, 0, MSG, NULL, -1 },
	{ "[    7.474869] [  T1] [ 2] " MSG, KMSG_FMT_DMESG, KMSG_CLOCK_MONO,
	  7.474869, KMSG_CLOCK_NONE, 0, MSG, NULL, -1 },
	/* Samsung: "[CPU:  comm:  pid]" */
	{ "[  123.456789] [0:  swapper/0:    1] " MSG, KMSG_FMT_DMESG,
	  KMSG_CLOCK_MONO, 123.456789, KMSG_CLOCK_NONE, 0, MSG, NULL, -1 },
	{ "[  123.456789]  [2:      kworker/2:1:   45] " MSG, KMSG_FMT_DMESG,
	  KMSG_CLOCK_MONO, 123.456789, KMSG_CLOCK_NONE, 0, MSG, NULL, -1 },
};

static void assert_msg(const struct kmsg_record *r, const char *want)
{
	if (r->msg_len != strlen(want) || memcmp(r->msg, want, r->msg_len))
		fail_msg("msg '%.*s', want '%s'", (int)r->msg_len, r->msg, want);
}

static void assert_close(double got, double want)
{
	if (fabs(got - want) > 1e-5)
		fail_msg("time %.6f, want %.6f", got, want);
}

static void check_form(const struct form *f, const struct kmsg_record *r)
{
	if (r->format != f->format)
		fail_msg("'%s': form %s, want %s", f->line,
			 kmsg_format_name(r->format),
			 kmsg_format_name(f->format));
	assert_int_equal(r->clock, f->clock);
	if (f->clock != KMSG_CLOCK_NONE)
		assert_close(r->t, f->t);
	assert_int_equal(r->wall_clock, f->wall_clock);
	if (f->wall_clock != KMSG_CLOCK_NONE)
		assert_close(r->wall, f->wall);
	assert_msg(r, f->msg);
	assert_int_equal(r->level, f->level);
	if (f->host) {
		assert_non_null(r->host);
		assert_int_equal(r->host_len, strlen(f->host));
		assert_memory_equal(r->host, f->host, r->host_len);
	} else {
		assert_null(r->host);
	}
}

static void test_forms(void **state)
{
	struct kmsg_record r;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		assert_int_equal(kmsg_parse_line(forms[i].line,
						 strlen(forms[i].line), &r), 0);
		check_form(&forms[i], &r);
	}
	assert_int_equal(kmsg_parse_line("[    5.1] [  T42] x", 19, &r), 0);
	assert_string_equal(r.caller, "T42");
	assert_int_equal(kmsg_parse_line("[    5.1][ 0] [    C7] x", 24, &r),
			 0);
	assert_string_equal(r.caller, "C7");
}

static void test_not_kernel(void **state)
{
	struct kmsg_record r;
	static const char *const lines[] = {
		"Nov 29 23:10:27 host systemd[1]: Started x.",
		"Nov 29 23:10:27 systemd[1]: Started x.",
		"2026-11-29T23:10:27+01:00 host sshd[12]: Accepted",
		"Mon Nov 18 10:34:27 2019 daemon.info dnsmasq[1]: x",
		"<30>1 2026-11-29T23:10:27Z nas sshd 1 - - hi",
		"11-29 23:10:27.123  1234  1234 I ActivityManager: x",
		"21:11:10 sshd[12]: Accepted publickey",
		"21:11:10 nas systemd[1]: Started x.",
		" SUBSYSTEM=usb",
		"# a comment",
		"",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		if (kmsg_parse_line(lines[i], strlen(lines[i]), &r) !=
		    KMSG_NOT_KERNEL)
			fail_msg("'%s' taken as a kernel line", lines[i]);
}

static void test_malformed(void **state)
{
	struct kmsg_record r = { .seq = 42 };
	static const char *const lines[] = {
		"[ 12.3 no bracket end",
		"[]",
		"[Sun Xyz 29 23:10:27 2026] x",
		"6,12,34",
		"6,12,34,-",
		"Nov 99 23:10:27 host kernel: x",
		"Nov 29 25:10:27 host kernel: x",
		"2026-13-29T23:10:27 host kernel: x",
		"<4>1 2026-11-29T23:10:27Z",
	};
	static const char nul[] = "[ 1.0] a\0b";
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		if (kmsg_parse_line(lines[i], strlen(lines[i]), &r) != -EINVAL)
			fail_msg("'%s' not malformed", lines[i]);
	assert_int_equal(kmsg_parse_line(nul, sizeof(nul) - 1, &r), -EINVAL);
	assert_int_equal(kmsg_parse_line("x", KMSG_LINE_MAX + 1, &r), -EINVAL);
	/* written only on success */
	assert_int_equal(r.seq, 42);
}

static int feed(struct kmsg_export *ex, const char *line,
		struct kmsg_record *r)
{
	return kmsg_export_feed(ex, line, strlen(line), r);
}

static void test_export(void **state)
{
	static struct kmsg_export ex;
	struct kmsg_record r;

	(void)state;
	kmsg_export_init(&ex);
	assert_true(kmsg_export_is_field("__CURSOR=s=1", 12));
	assert_false(kmsg_export_is_field("MESSAGE", 7));
	assert_false(kmsg_export_is_field("[ 1.0] A=b", 10));

	assert_int_equal(feed(&ex, "__MONOTONIC_TIMESTAMP=9612500", &r), 0);
	assert_int_equal(feed(&ex, "__REALTIME_TIMESTAMP=1764578409612406", &r),
			 0);
	assert_int_equal(feed(&ex, "_TRANSPORT=kernel", &r), 0);
	assert_int_equal(feed(&ex, "PRIORITY=3", &r), 0);
	assert_int_equal(feed(&ex, "_SOURCE_MONOTONIC_TIMESTAMP=9612406", &r),
			 0);
	assert_int_equal(feed(&ex, "MESSAGE=usb 2-1: hi", &r), 0);
	assert_int_equal(feed(&ex, "", &r), KMSG_RECORD);
	assert_int_equal(r.format, KMSG_FMT_EXPORT);
	assert_int_equal(r.level, 3);
	assert_int_equal(r.clock, KMSG_CLOCK_MONO);
	assert_close(r.t, 9.612406);
	assert_int_equal(r.wall_clock, KMSG_CLOCK_REAL);
	assert_close(r.wall, 1764578409.612406);
	assert_msg(&r, "usb 2-1: hi");

	/* another program's entry */
	assert_int_equal(feed(&ex, "_TRANSPORT=stdout", &r), 0);
	assert_int_equal(feed(&ex, "MESSAGE=x", &r), 0);
	assert_int_equal(feed(&ex, "", &r), KMSG_NOT_KERNEL);

	/* binary MESSAGE form: counted as malformed */
	assert_int_equal(feed(&ex, "MESSAGE", &r), 0);
	assert_int_equal(feed(&ex, "", &r), -EINVAL);

	/* no MESSAGE */
	assert_int_equal(feed(&ex, "PRIORITY=3", &r), 0);
	assert_int_equal(feed(&ex, "", &r), -EINVAL);

	/* blank lines between entries are nothing */
	assert_int_equal(feed(&ex, "", &r), 0);
}

/* --- the stream ---------------------------------------------------------- */

#define OUT_MAX	16

struct out {
	struct kmsg_record r[OUT_MAX];
	char msg[OUT_MAX][256];
	int n;
};

static void take(struct kmsg_stream *s, struct out *o)
{
	struct kmsg_record r;

	while (kmsg_stream_next(s, &r)) {
		assert_true(o->n < OUT_MAX);
		snprintf(o->msg[o->n], sizeof(o->msg[0]), "%.*s",
			 (int)r.msg_len, r.msg);
		o->r[o->n++] = r;
	}
}

/* Feed lines (one string, '\n' between them) and take all. */
static void stream(const char *text, struct out *o)
{
	struct kmsg_stream *s = kmsg_stream_new();
	const char *p = text;

	assert_non_null(s);
	memset(o, 0, sizeof(*o));
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		kmsg_stream_feed(s, p, len);
		take(s, o);
		p += len + (nl ? 1 : 0);
	}
	kmsg_stream_end(s);
	take(s, o);
	kmsg_stream_free(s);
}

static void test_wrappers(void **state)
{
	static const char *const pastes[] = {
		/* indented (mail, Markdown code), quoted, fenced */
		"    [   12.500000] " MSG,
		"\t[   12.500000] " MSG,
		"> [   12.500000] " MSG,
		"> > [   12.500000] " MSG,
		">>    [   12.500000] " MSG,
		"```\n[   12.500000] " MSG "\n```",
		"~~~text\n[   12.500000] " MSG "\n~~~",
		/* cat -n, nl, grep -n, grep -H, grep -nH, zgrep -H */
		"     1\t[   12.500000] " MSG,
		"17:[   12.500000] " MSG,
		"kern.log:[   12.500000] " MSG,
		"/var/log/kern.log:1234:[   12.500000] " MSG,
		"/var/log/syslog.2.gz:Nov 29 23:10:27 h kernel: [   12.500000] " MSG,
		/* CRLF, NBSP, other Unicode spaces, zero-width, ANSI colours */
		"[   12.500000] " MSG "\r",
		"[ \xc2\xa0 12.500000] " MSG,
		"[\xe2\x80\x80\xe2\x80\xaf 12.500000] " MSG,
		"\xef\xbb\xbf[   12.500000] \xe2\x80\x8b" MSG,
		"\x1b[32m[   12.500000]\x1b[0m " MSG,
		/* a web page's entities */
		"&gt; [   12.500000] " MSG,
		/* Markdown's bold around the line that matters */
		"**[   12.500000] " MSG "**",
		/* a stray character before the stamp; a damaged logread */
		"d[   12.500000] " MSG,
		".info kernel: [   12.500000] " MSG,
		/* Genode's label of the component running Linux's drivers */
		"[init -> usb_drv -> usb_drv] [   12.500000] " MSG,
		/* a forum's BBCode and a page's HTML around the line */
		"[COLOR=#ff0000][   12.500000] " MSG "[/COLOR]",
		"[b][   12.500000] " MSG "[/b]",
		"[color=red][b][   12.500000] " MSG "[/b][/color]",
		"[code][   12.500000] " MSG,
		"[   12.500000] " MSG "[/code]",
		"[QUOTE][   12.500000] " MSG "[/QUOTE]",
		"<span style=\"color:red\">[   12.500000] " MSG "</span>",
		"<b>[   12.500000] " MSG "</b><br>",
		"[   12.500000] " MSG "<br />",
		"<font color=\"#ff0000\">[   12.500000] " MSG "</font>",
		"&lt;b&gt;[   12.500000] " MSG "&lt;/b&gt;",
		"> [i][   12.500000] " MSG "[/i]",
	};
	struct out o;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(pastes) / sizeof(pastes[0]); i++) {
		stream(pastes[i], &o);
		if (o.n != 1)
			fail_msg("paste %zu: %d messages", i, o.n);
		assert_int_equal(o.r[0].clock, KMSG_CLOCK_MONO);
		assert_close(o.r[0].t, 12.5);
		assert_string_equal(o.msg[0], MSG);
	}
	/* a /dev/kmsg dictionary line and journalctl verbose fields */
	stream("6,1,2,-;" MSG "\n SUBSYSTEM=usb\n DEVICE=+usb:2-1", &o);
	assert_int_equal(o.n, 1);
}

static void test_join(void **state)
{
	struct out o;

	(void)state;
	/* the field log: a browser broke the first line in two */
	stream("Mar 14 10:13:08 Linux kernel: [  218.255774] xhci_hcd "
	       "0000:03:00.0: xHCI xhci_drop_endpoint called with disable\n"
	       "d ep ffff8803ae607540\n"
	       "Mar 14 10:13:08 Linux kernel: [  218.273966] sd 7:0:0:0: "
	       "[sdc] Device not ready", &o);
	assert_int_equal(o.n, 2);
	assert_string_equal(o.msg[0], "xhci_hcd 0000:03:00.0: xHCI "
			    "xhci_drop_endpoint called with disabled ep "
			    "ffff8803ae607540");
	assert_true(o.r[0].joined);
	assert_int_equal(o.r[0].lineno, 1);
	assert_int_equal(o.r[1].lineno, 3);
	/* a mail client broke at a space and dropped it (lkml, 2006) */
	stream("Feb 23 08:44:18 kepler kernel: Buffer I/O error on device sdb1,\n"
	       "logical block 248352\n"
	       "Feb 23 08:44:18 kepler kernel: end_request: I/O error, dev sdb, "
	       "sector 1987065 and on to a line of eighty\n"
	       "-five", &o);
	assert_int_equal(o.n, 2);
	assert_string_equal(o.msg[0], "Buffer I/O error on device sdb1, "
			    "logical block 248352");
	/* but not where the line above ran to a terminal's full width */
	assert_string_equal(o.msg[1], "end_request: I/O error, dev sdb, "
			    "sector 1987065 and on to a line of eighty-five");
	/* a mailer's break, deep in quotes: its width counts them */
	stream(">>>>>>>>>>> [  801.953836] usb usb6-port1: Cannot enable. "
	       "Maybe the USB\n>>>>>>>>>>> cable is bad?", &o);
	assert_int_equal(o.n, 1);
	assert_string_equal(o.msg[0], "usb usb6-port1: Cannot enable. Maybe "
			    "the USB cable is bad?");
	/* a browser's break at 60, mid-word: the fragment would have fitted */
	stream("[    9.611430] sd 0:0:0:0: [sda] tag#1 Add. Sense: Medium no\n"
	       "t present", &o);
	assert_int_equal(o.n, 1);
	assert_string_equal(o.msg[0], "sd 0:0:0:0: [sda] tag#1 Add. Sense: "
			    "Medium not present");
	/* prose between two stamped lines is not a message */
	stream("[    1.000000] " MSG "\nThen it hung.\n[    2.000000] " MSG, &o);
	assert_int_equal(o.n, 2);
	assert_false(o.r[0].joined);
	/* a plain log (no stamps) is all messages */
	stream("end_request: I/O error, dev sdc, sector 172\n"
	       "Buffer I/O error on device sdc1, logical block 21", &o);
	assert_int_equal(o.n, 2);
	assert_int_equal(o.r[1].format, KMSG_FMT_PLAIN);
}

static void test_order_and_boots(void **state)
{
	struct out o;

	(void)state;
	/* a few lines out of order: ordered by their printk stamp */
	stream("[    2.000000] b\n[    1.000000] a\n[    3.000000] c", &o);
	assert_int_equal(o.n, 3);
	assert_string_equal(o.msg[0], "a");
	assert_string_equal(o.msg[1], "b");
	assert_int_equal(o.r[0].lineno, 2);
	/* time going back: a new boot */
	stream("[  900.000000] a\n[  901.000000] b\n[    0.000000] c\n"
	       "[    1.000000] d", &o);
	assert_int_equal(o.n, 4);
	assert_string_equal(o.msg[2], "c");
	assert_true(o.r[2].new_boot);
	assert_false(o.r[3].new_boot);
	/* the banner, and journalctl's "-- Boot ... --" */
	stream("[    5.000000] a\n[    6.000000] Linux version 6.1.0-57-amd64 "
	       "(debian-kernel@lists.debian.org)", &o);
	assert_true(o.r[1].new_boot);
	stream("Nov 29 23:10:27 h kernel: a\n-- Boot 0123456789abcdef0123456789"
	       "abcdef --\nNov 29 23:15:00 h kernel: b", &o);
	assert_int_equal(o.n, 2);
	assert_true(o.r[1].new_boot);
	/* dmesg -H: the deltas move the minute's clock */
	stream("[Nov29 23:10] a\n[  +1.500000] b\n[  +0.500000] c", &o);
	assert_int_equal(o.n, 3);
	assert_close(o.r[2].t, 332 * 86400.0 + 23 * 3600 + 10 * 60 + 2.0);
	/*
	 * A new minute's stamp stands in for its line's delta: within a
	 * minute of the clock, the clock goes on (the line 0 s after the
	 * one before, not 45 s), so the lines around it stay together.
	 */
	stream("[Nov29 23:10] a\n[ +14.667176] b\n[Nov29 23:11] c\n"
	       "[  +0.140994] d", &o);
	assert_int_equal(o.n, 4);
	assert_close(o.r[2].t, o.r[1].t);
	assert_close(o.r[3].t - o.r[1].t, 0.140994);
	/* more than a minute behind: a gap the deltas do not show */
	stream("[Nov29 23:10] a\n[  +1.000000] b\n[Nov29 23:15] c\n"
	       "[  +1.000000] d", &o);
	assert_close(o.r[2].t, 332 * 86400.0 + 23 * 3600 + 15 * 60);
	assert_close(o.r[3].t, 332 * 86400.0 + 23 * 3600 + 15 * 60 + 1.0);
}

static void test_stream_journal(void **state)
{
	struct out o;

	(void)state;
	/* journalctl -o export, an entry of another program in between */
	stream("__CURSOR=s=1\n__REALTIME_TIMESTAMP=1764578405280709\n"
	       "_BOOT_ID=0123456789abcdef0123456789abcdef\n_TRANSPORT=kernel\n"
	       "_HOSTNAME=nas\n_SOURCE_MONOTONIC_TIMESTAMP=5280709\nMESSAGE="
	       MSG "\n\n_TRANSPORT=syslog\nMESSAGE=x\n\n"
	       "_BOOT_ID=fedcba9876543210fedcba9876543210\n_TRANSPORT=kernel\n"
	       "_SOURCE_MONOTONIC_TIMESTAMP=1000000\nMESSAGE=b\n", &o);
	assert_int_equal(o.n, 2);
	assert_string_equal(o.msg[0], MSG);
	assert_close(o.r[0].t, 5.280709);
	assert_int_equal(o.r[0].host_len, 3);
	assert_true(o.r[1].new_boot);
	/* journalctl -o json, json-seq and json-sse */
	stream("{\"_TRANSPORT\":\"kernel\",\"MESSAGE\":\"" MSG "\","
	       "\"_SOURCE_MONOTONIC_TIMESTAMP\":\"5280709\",\"PRIORITY\":\"6\","
	       "\"__REALTIME_TIMESTAMP\":\"1764578405280709\",\"_HOSTNAME\":\"nas\"}\n"
	       "\x1e{\"_TRANSPORT\":\"stdout\",\"MESSAGE\":\"x\"}\n"
	       "data: {\"_TRANSPORT\":\"kernel\",\"MESSAGE\":[104,105]}\n"
	       "{\"broken\":", &o);
	assert_int_equal(o.n, 2);
	assert_int_equal(o.r[0].format, KMSG_FMT_JSON);
	assert_close(o.r[0].t, 5.280709);
	assert_int_equal(o.r[0].level, 6);
	assert_close(o.r[0].wall, 1764578405.280709);
	assert_string_equal(o.msg[1], "hi");

	/* journalctl -o json-pretty: "{", a field a line, "}" */
	stream("{\n\t\"_TRANSPORT\" : \"kernel\",\n\t\"MESSAGE\" : \"" MSG
	       "\",\n\t\"_SOURCE_MONOTONIC_TIMESTAMP\" : \"5280709\"\n}\n"
	       "{\n\t\"_TRANSPORT\" : \"stdout\",\n\t\"MESSAGE\" : [\n"
	       "\t\t104,\n\t\t105\n\t]\n}\n{\n\t\"MESSAGE\" : \"cut\"", &o);
	assert_int_equal(o.n, 1);
	assert_string_equal(o.msg[0], MSG);
	assert_close(o.r[0].t, 5.280709);

	/* journalctl -o verbose: the header's boot, times; the fields */
	stream("Mon 2026-11-09 21:19:43.499939 CET [s=dd;i=2;"
	       "b=0b4a7e1f3c2d4a5b9e8f7a6b5c4d3e2f;m=50a8c5;t=65fddae604340;"
	       "x=51]\n    _TRANSPORT=kernel\n    PRIORITY=3\n"
	       "    MESSAGE=" MSG "\n"
	       "Mon 2026-11-09 21:19:44.000000 CET [s=dd;i=3;b=0b4a;m=50a8c6;"
	       "t=65fddae604341;x=52]\n    _TRANSPORT=syslog\n"
	       "    MESSAGE=Started session\n", &o);
	assert_int_equal(o.n, 1);
	assert_string_equal(o.msg[0], MSG);
	assert_close(o.r[0].t, 5.286085);	/* m=50a8c5 */
	assert_int_equal(o.r[0].level, 3);

	/* short-delta: a delta across a boot is marked "*" */
	stream("[    5.280709 < 3612.280709*>] debian kernel: " MSG, &o);
	assert_int_equal(o.n, 1);
	assert_close(o.r[0].t, 5.280709);
	/* short-monotonic and short-unix: another program's lines */
	stream("[    5.280709] debian kernel: " MSG "\n"
	       "[    9.801770] debian systemd[1]: Started session-3.scope.\n"
	       "[    9.901770] debian kernel: usbcore: registered new "
	       "interface driver uas", &o);
	assert_int_equal(o.n, 2);
	assert_string_equal(o.msg[1],
			    "usbcore: registered new interface driver uas");
	stream("[    5.280709] kernel: " MSG "\n"
	       "[    9.801770] systemd[1]: Started session-3.scope.\n"
	       "[    9.901770] usbcore: registered new interface driver uas",
	       &o);
	assert_int_equal(o.n, 2);
	stream("1794262209.333665 debian kernel: " MSG "\n"
	       "1794262209.521061 debian systemd[1]: Started session-3.\n", &o);
	assert_int_equal(o.n, 1);
	assert_string_equal(o.msg[0], MSG);
	assert_false(o.r[0].joined);
}

static void test_stream_stats(void **state)
{
	struct kmsg_stream *s = kmsg_stream_new();
	const struct kmsg_stream_stats *st;
	struct kmsg_record r;

	(void)state;
	kmsg_stream_feed(s, "[ 1.0] a", 8);
	kmsg_stream_feed(s, "Nov 29 23:10:27 h sshd[1]: x", 28);
	kmsg_stream_feed(s, "[ 1.0 broken", 12);
	kmsg_stream_feed(s, "", 0);
	kmsg_stream_feed(s, "x", KMSG_LINE_MAX + 1);
	kmsg_stream_end(s);
	while (kmsg_stream_next(s, &r))
		;
	st = kmsg_stream_stats(s);
	assert_int_equal(st->lines, 5);
	assert_int_equal(st->kernel, 1);
	assert_int_equal(st->stamped, 1);
	assert_int_equal(st->other, 2);
	assert_int_equal(st->malformed, 2);
	assert_int_equal(st->forms[KMSG_FMT_DMESG], 1);
	kmsg_stream_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_not_kernel),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_export),
		cmocka_unit_test(test_wrappers),
		cmocka_unit_test(test_join),
		cmocka_unit_test(test_order_and_boots),
		cmocka_unit_test(test_stream_journal),
		cmocka_unit_test(test_stream_stats),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
