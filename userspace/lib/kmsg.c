// SPDX-License-Identifier: GPL-2.0-only
/*
 * kmsg.c - kernel log lines, in every form people paste them, into struct
 * kmsg_record (kmsg.h); docs/analyze.md has the table of forms.
 *
 * kmsg_parse_line() knows one line in one form: the kernel's own
 * (/dev/kmsg, Documentation/ABI/testing/dev-kmsg; printk's "[ 1.2]"
 * stamp and its "[T123]" caller id), util-linux dmesg's (-T, -r, -x, -d,
 * -H and --time-format iso|ctime|reltime|delta), journalctl's short
 * forms, RFC 3164 and 5424 syslog as rsyslog, syslog-ng, busybox syslogd
 * and metalog write it, OpenWrt's logread, talosctl dmesg and Android's
 * logcat.  struct kmsg_stream reads a whole input: it takes off what
 * people wrap around lines, reads journalctl's export and json entries,
 * joins lines that a browser or mail client broke, orders messages by
 * printk stamp within a small window and marks new boots.
 *
 * Input is bytes that may be anything: every read is bounded by len, and
 * a line that starts like a known form but breaks it is -EINVAL.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <json-c/json.h>

#include "kmsg.h"
#include "util.h"

static const char *const kmsg_format_names[KMSG_FMT_COUNT] = {
	[KMSG_FMT_PLAIN] = "plain",
	[KMSG_FMT_DMESG] = "dmesg",
	[KMSG_FMT_DMESG_T] = "dmesg -T",
	[KMSG_FMT_DMESG_RAW] = "dmesg -r",
	[KMSG_FMT_DMESG_X] = "dmesg -x",
	[KMSG_FMT_DMESG_DELTA] = "dmesg -d",
	[KMSG_FMT_DMESG_REL] = "dmesg -H",
	[KMSG_FMT_DMESG_ISO] = "dmesg --time-format iso",
	[KMSG_FMT_KMSG] = "/dev/kmsg",
	[KMSG_FMT_SYSLOG] = "syslog",
	[KMSG_FMT_SYSLOG_ISO] = "syslog (RFC 3339 stamp)",
	[KMSG_FMT_RFC5424] = "syslog RFC 5424",
	[KMSG_FMT_JOURNAL_FULL] = "journalctl -o short-full",
	[KMSG_FMT_JOURNAL_UNIX] = "journalctl -o short-unix",
	[KMSG_FMT_JOURNAL_MONO] = "journalctl -o short-monotonic",
	[KMSG_FMT_EXPORT] = "journalctl -o export",
	[KMSG_FMT_JSON] = "journalctl -o json",
	[KMSG_FMT_LOGREAD] = "OpenWrt logread",
	[KMSG_FMT_METALOG] = "metalog",
	[KMSG_FMT_TALOS] = "talosctl dmesg",
	[KMSG_FMT_LOGCAT] = "logcat -b kernel",
	[KMSG_FMT_ISO_COLON] = "RFC 3339 stamp and colon",
	[KMSG_FMT_CLOCK] = "time of day",
};

const char *kmsg_format_name(enum kmsg_format f)
{
	if ((unsigned int)f >= KMSG_FMT_COUNT)
		return "?";
	return kmsg_format_names[f];
}

/* --- small readers: each advances *p only on success ------------------ */

static const char *const kmsg_months[12] = {
	"Jan", "Feb", "Mar", "Apr", "May", "Jun",
	"Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
};

static const char *const kmsg_wdays[7] = {
	"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat",
};

/* days before each month, non-leap: the year is unknown in syslog stamps */
static const int kmsg_month_days[12] = {
	0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334,
};

static bool kmsg_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool kmsg_is_space(char c)
{
	return c == ' ' || c == '\t';
}

/* Read up to max digits at *p; returns -1 if there are none. */
static long kmsg_digits(const char **p, const char *end, int max)
{
	long v = 0;
	int n = 0;

	while (*p < end && kmsg_is_digit(**p) && n < max) {
		v = v * 10 + (**p - '0');
		(*p)++;
		n++;
	}
	return n ? v : -1;
}

static bool kmsg_expect(const char **p, const char *end, char c)
{
	if (*p >= end || **p != c)
		return false;
	(*p)++;
	return true;
}

static bool kmsg_expect_str(const char **p, const char *end, const char *s)
{
	size_t n = strlen(s);

	if ((size_t)(end - *p) < n || memcmp(*p, s, n))
		return false;
	*p += n;
	return true;
}

static void kmsg_skip_spaces(const char **p, const char *end)
{
	while (*p < end && kmsg_is_space(**p))
		(*p)++;
}

static int kmsg_name3(const char *p, const char *end,
		      const char *const *names, int n)
{
	int i;

	if (end - p < 3)
		return -1;
	for (i = 0; i < n; i++)
		if (!memcmp(p, names[i], 3))
			return i;
	return -1;
}

static int kmsg_month(const char *p, const char *end)
{
	return kmsg_name3(p, end, kmsg_months, 12);
}

/*
 * journalctl and syslog daemons print the month with the C library's
 * abbreviation for the user's LC_TIME: glibc's abmon of the locales
 * pasted most (de, fr, es, it, pt, nl, pl, ru), lower or upper case,
 * maybe with a '.'.  Only those that differ from the English names.
 */
static const struct {
	const char *name;
	int month;
} kmsg_local_months[] = {
	{ "janv.", 0 }, { "ene", 0 }, { "gen", 0 }, { "sty", 0 },
	{ "\xd1\x8f\xd0\xbd\xd0\xb2", 0 },		/* "янв" */
	{ "f\xc3\xa9vr.", 1 }, { "fev", 1 }, { "lut", 1 },
	{ "\xd1\x84\xd0\xb5\xd0\xb2", 1 },		/* "фев" */
	{ "M\xc3\xa4r", 2 }, { "mars", 2 }, { "mrt", 2 },
	{ "\xd0\xbc\xd0\xb0\xd1\x80", 2 },		/* "мар" */
	{ "avr.", 3 }, { "abr", 3 }, { "kwi", 3 },
	{ "\xd0\xb0\xd0\xbf\xd1\x80", 3 },		/* "апр" */
	{ "mai", 4 }, { "mag", 4 }, { "mei", 4 }, { "maj", 4 },
	{ "\xd0\xbc\xd0\xb0\xd1\x8f", 4 },		/* "мая" */
	{ "juin", 5 }, { "giu", 5 }, { "cze", 5 },
	{ "\xd0\xb8\xd1\x8e\xd0\xbd", 5 },		/* "июн" */
	{ "juil.", 6 }, { "lug", 6 }, { "lip", 6 },
	{ "\xd0\xb8\xd1\x8e\xd0\xbb", 6 },		/* "июл" */
	{ "ao\xc3\xbbt", 7 }, { "ago", 7 }, { "sie", 7 },
	{ "\xd0\xb0\xd0\xb2\xd0\xb3", 7 },		/* "авг" */
	{ "sept.", 8 }, { "set", 8 }, { "wrz", 8 },
	{ "\xd1\x81\xd0\xb5\xd0\xbd", 8 },		/* "сен" */
	{ "Okt", 9 }, { "ott", 9 }, { "out", 9 }, { "pa\xc5\xba", 9 },
	{ "\xd0\xbe\xd0\xba\xd1\x82", 9 },		/* "окт" */
	{ "lis", 10 },
	{ "\xd0\xbd\xd0\xbe\xd1\x8f", 10 },		/* "ноя" */
	{ "Dez", 11 }, { "d\xc3\xa9\x63.", 11 }, { "dic", 11 },
	{ "gru", 11 },
	{ "\xd0\xb4\xd0\xb5\xd0\xba", 11 },		/* "дек" */
};

/* @name's length if @p starts with it, ASCII letters in either case */
static size_t kmsg_name_ci(const char *p, const char *end, const char *name)
{
	size_t k, len = strlen(name);

	if ((size_t)(end - p) < len)
		return 0;
	for (k = 0; k < len; k++)
		if ((p[k] | 0x20) != (name[k] | 0x20))
			return 0;
	return len;
}

/*
 * The month of a syslog or journal stamp, English or local, in either
 * case; *n gets the bytes it took (a '.' after it included).  -1 if it
 * is none.
 */
static int kmsg_month_word(const char *p, const char *end, size_t *n)
{
	size_t i, w;
	int month = kmsg_month(p, end);

	*n = 3;
	if (month < 0) {
		/* a word of 3 to 7 bytes (with its '.') and a space: else none */
		for (w = 0; p + w < end && w < 8 && !kmsg_is_space(p[w]); w++)
			;
		if (w < 3 || w > 7 || p + w == end)
			return -1;
		/* the local names first: "mars", "janv.", "sept." */
		for (i = 0; month < 0 && i < sizeof(kmsg_local_months) /
					     sizeof(kmsg_local_months[0]); i++) {
			*n = kmsg_name_ci(p, end, kmsg_local_months[i].name);
			if (*n)
				month = kmsg_local_months[i].month;
		}
		/* then "jan", "nov", "dec" of a lower-case locale */
		for (i = 0; month < 0 && i < 12; i++)
			if (kmsg_name_ci(p, end, kmsg_months[i])) {
				month = (int)i;
				*n = 3;
			}
		if (month < 0)
			return -1;
	}
	if (p + *n < end && p[*n] == '.')
		(*n)++;
	return month;
}

static int kmsg_wday(const char *p, const char *end)
{
	return kmsg_name3(p, end, kmsg_wdays, 7);
}

/* digits after a '.' or ',' as a fraction of a second */
static double kmsg_fraction(const char **p, const char *end)
{
	double frac = 0, scale = 0.1;

	while (*p < end && kmsg_is_digit(**p)) {
		frac += (**p - '0') * scale;
		scale /= 10;
		(*p)++;
	}
	return frac;
}

/* "hh:mm:ss" (with an optional fraction) -> seconds of the day */
static int kmsg_clock_time(const char **p, const char *end, double *sec)
{
	const char *q = *p;
	long h, m, s;
	double frac = 0;

	h = kmsg_digits(&q, end, 2);
	if (h < 0 || h > 23 || !kmsg_expect(&q, end, ':'))
		return -EINVAL;
	m = kmsg_digits(&q, end, 2);
	if (m < 0 || m > 59 || !kmsg_expect(&q, end, ':'))
		return -EINVAL;
	s = kmsg_digits(&q, end, 2);
	if (s < 0 || s > 60)
		return -EINVAL;
	if (q < end && (*q == '.' || *q == ',') && q + 1 < end &&
	    kmsg_is_digit(q[1])) {
		q++;
		frac = kmsg_fraction(&q, end);
	}
	*sec = h * 3600.0 + m * 60.0 + s + frac;
	*p = q;
	return 0;
}

/* "HH:MM:SS" at p */
static bool kmsg_looks_clock(const char *p, const char *end)
{
	return end - p >= 8 && kmsg_is_digit(p[0]) && kmsg_is_digit(p[1]) &&
	       p[2] == ':' && kmsg_is_digit(p[3]) && kmsg_is_digit(p[4]) &&
	       p[5] == ':' && kmsg_is_digit(p[6]) && kmsg_is_digit(p[7]);
}

static double kmsg_wall(int month, long day, double sec)
{
	return (kmsg_month_days[month] + day - 1) * 86400.0 + sec;
}

/* Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant). */
static long kmsg_days_from_civil(long y, long m, long d)
{
	long era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static double kmsg_epoch(long year, int month, long day, double sec)
{
	return (double)kmsg_days_from_civil(year, month + 1, day) * 86400.0 +
	       sec;
}

/* "Z", "+01:00", "+0100", "-05": the zone's offset east, in seconds */
static bool kmsg_zone(const char **p, const char *end, double *off)
{
	const char *q = *p;
	long h, m = 0;
	int sign;

	if (q < end && *q == 'Z') {
		*off = 0;
		*p = q + 1;
		return true;
	}
	if (q >= end || (*q != '+' && *q != '-'))
		return false;
	sign = *q++ == '-' ? -1 : 1;
	h = kmsg_digits(&q, end, 2);
	if (h < 0)
		return false;
	kmsg_expect(&q, end, ':');
	if (q < end && kmsg_is_digit(*q))
		m = kmsg_digits(&q, end, 2);
	*off = sign * (h * 3600.0 + m * 60.0);
	*p = q;
	return true;
}

/*
 * RFC 3339 / ISO 8601, "2026-11-29T23:10:27.123456+01:00", the 'T' also a
 * space, the fraction after '.' or ',' (dmesg), the zone optional.
 */
static int kmsg_iso(const char **p, const char *end, double *t,
		    bool *zoned)
{
	const char *q = *p;
	long year, month, day;
	double sec, off = 0;

	year = kmsg_digits(&q, end, 4);
	if (year < 1970 || !kmsg_expect(&q, end, '-'))
		return -EINVAL;
	month = kmsg_digits(&q, end, 2);
	if (month < 1 || month > 12 || !kmsg_expect(&q, end, '-'))
		return -EINVAL;
	day = kmsg_digits(&q, end, 2);
	if (day < 1 || day > 31 || q >= end || (*q != 'T' && *q != ' '))
		return -EINVAL;
	q++;
	if (kmsg_clock_time(&q, end, &sec))
		return -EINVAL;
	*zoned = kmsg_zone(&q, end, &off);
	*t = kmsg_epoch(year, (int)month - 1, day, sec) - off;
	*p = q;
	return 0;
}

/* "Nov 29 23:10:27" (day space-padded or not), the fraction optional */
static int kmsg_mdy_time(const char **p, const char *end, int *month,
			 long *day, double *sec)
{
	const char *q = *p;
	size_t n;

	*month = kmsg_month_word(q, end, &n);
	if (*month < 0)
		return -EINVAL;
	q += n;
	kmsg_skip_spaces(&q, end);
	*day = kmsg_digits(&q, end, 2);
	if (*day < 1 || *day > 31 || !kmsg_expect(&q, end, ' '))
		return -EINVAL;
	kmsg_skip_spaces(&q, end);
	if (kmsg_clock_time(&q, end, sec))
		return -EINVAL;
	*p = q;
	return 0;
}

static void kmsg_set_wall(struct kmsg_record *r, double t, bool year)
{
	r->wall = t;
	r->wall_clock = year ? KMSG_CLOCK_REAL : KMSG_CLOCK_WALL;
}

static void kmsg_set_mono(struct kmsg_record *r, double t)
{
	r->mono = t;
	r->has_mono = true;
}

/* --- the printk stamp and what dmesg makes of it ----------------------- */

/* " 1234.567890" in a bracket, spaces allowed before it */
static int kmsg_mono_number(const char **p, const char *end, double *t)
{
	const char *q = *p;
	double v = 0;
	int n = 0;

	kmsg_skip_spaces(&q, end);
	while (q < end && kmsg_is_digit(*q) && n < 12) {
		v = v * 10 + (*q - '0');
		q++;
		n++;
	}
	if (!n)
		return -EINVAL;
	/* a ',' where the paste was made under a decimal-comma locale */
	if (kmsg_expect(&q, end, '.') || kmsg_expect(&q, end, ','))
		v += kmsg_fraction(&q, end);
	/* "[67.8...]": digits cut by whoever typed the log */
	while (q < end && *q == '.')
		q++;
	*t = v;
	*p = q;
	return 0;
}

/*
 * One field a kernel prints between the time and the message: printk's
 * caller id "[  T123]" or "[    C1]"; the "[c0]" CPU of Samsung's Exynos
 * kernels (3.x, ODROID); a vendor kernel's bare CPU number "[ 0]"; and
 * Samsung's "[0:  swapper/0:    1]" (CPU, command, pid).  @r->caller
 * keeps printk's id.
 */
static bool kmsg_caller_field(const char **p, const char *end,
			      struct kmsg_record *r)
{
	const char *q = *p, *id;
	size_t n;

	kmsg_skip_spaces(&q, end);
	if (!kmsg_expect(&q, end, '['))
		return false;
	kmsg_skip_spaces(&q, end);
	id = q;
	if (q < end && (*q == 'T' || *q == 'C' || *q == 'c')) {
		q++;
		if (kmsg_digits(&q, end, 9) < 0 || !kmsg_expect(&q, end, ']'))
			return false;
		n = (size_t)(q - 1 - id);
		if (!r->caller[0] && n < sizeof(r->caller)) {
			memcpy(r->caller, id, n);
			r->caller[n] = '\0';
		}
		*p = q;
		return true;
	}
	if (kmsg_digits(&q, end, 3) < 0)
		return false;
	if (q < end && *q == ':') {
		/* "[0:  swapper/0:    1]": up to the ']', no wider than 48 */
		while (q < end && *q != ']' && q - id < 48)
			q++;
		if (!kmsg_expect(&q, end, ']'))
			return false;
		*p = q;
		return true;
	}
	kmsg_skip_spaces(&q, end);
	if (!kmsg_expect(&q, end, ']'))
		return false;
	*p = q;
	return true;
}

/* The fields after the time, up to three of them: "[ 0] [    C0]" */
static bool kmsg_caller(const char **p, const char *end,
			struct kmsg_record *r)
{
	int n = 0;

	while (n < 3 && kmsg_caller_field(p, end, r))
		n++;
	return n > 0;
}

/*
 * Android kernels of MediaTek print "(3)[1234:kworker/3:1]" (CPU, then
 * pid and command) after the stamp: not part of the message.
 */
static void kmsg_mtk_caller(const char **p, const char *end)
{
	const char *q = *p;

	kmsg_skip_spaces(&q, end);
	if (!kmsg_expect(&q, end, '(') || kmsg_digits(&q, end, 4) < 0 ||
	    !kmsg_expect(&q, end, ')') || !kmsg_expect(&q, end, '[') ||
	    kmsg_digits(&q, end, 9) < 0 || !kmsg_expect(&q, end, ':'))
		return;
	while (q < end && *q != ']' && *q != ' ')
		q++;
	if (kmsg_expect(&q, end, ']'))
		*p = q;
}

/* what a dmesg -H stamp of a minute leaves open, in seconds */
#define KMSG_REL_STAMP_SPAN	60.0

/* dmesg -H / --time-format reltime: "[Nov29 23:10]", "[Dec 1 08:42]" */
static int kmsg_rel_abs(const char **p, const char *end, double *t)
{
	const char *q = *p;
	int month = kmsg_month(q, end);
	long day, h, m;

	if (month < 0)
		return -EINVAL;
	q += 3;
	kmsg_skip_spaces(&q, end);
	day = kmsg_digits(&q, end, 2);
	if (day < 1 || day > 31 || !kmsg_expect(&q, end, ' '))
		return -EINVAL;
	h = kmsg_digits(&q, end, 2);
	if (h < 0 || h > 23 || !kmsg_expect(&q, end, ':'))
		return -EINVAL;
	m = kmsg_digits(&q, end, 2);
	if (m < 0 || m > 59)
		return -EINVAL;
	/* -H also shows seconds when two lines share the minute */
	if (q < end && *q == ':') {
		const char *s = q + 1;
		long sec = kmsg_digits(&s, end, 2);

		if (sec >= 0 && sec <= 60) {
			*t = kmsg_wall(month, day, h * 3600.0 + m * 60.0 + sec);
			*p = s;
			return 0;
		}
	}
	*t = kmsg_wall(month, day, h * 3600.0 + m * 60.0);
	*p = q;
	return 0;
}

/* ctime(3) after its weekday, "Nov 29 23:10:27 2026": seconds since 1970 */
static int kmsg_ctime(const char **p, const char *end, double *t)
{
	const char *q = *p;
	long day, year;
	double sec;
	int month;

	if (kmsg_mdy_time(&q, end, &month, &day, &sec) ||
	    !kmsg_expect(&q, end, ' '))
		return -EINVAL;
	year = kmsg_digits(&q, end, 4);
	if (year < 1970)
		return -EINVAL;
	*t = kmsg_epoch(year, month, day, sec);
	*p = q;
	return 0;
}

/*
 * After a day's name other than English ("wo", "mer."): 2 to 6 letters
 * (UTF-8 bytes count), maybe a '.', a blank; what follows, or NULL
 */
static const char *kmsg_local_wday(const char *p, const char *end)
{
	const char *w = p;

	while (w < end && w - p < 6 &&
	       (((*w | 0x20) >= 'a' && (*w | 0x20) <= 'z') ||
		(unsigned char)*w >= 0x80))
		w++;
	if (w - p >= 2 && w < end && *w == '.')
		w++;
	return w - p >= 2 && w < end && *w == ' ' ? w + 1 : NULL;
}

/* The ways dmesg fills its bracket; delta gets the "+x"/"<x>" of -H/-d. */
static int kmsg_bracket(const char **p, const char *end,
			struct kmsg_record *r, double *delta, bool cut)
{
	const char *q = *p, *w;
	double t, d;
	int wday;

	if (!cut && !kmsg_expect(&q, end, '['))
		return -EINVAL;
	kmsg_skip_spaces(&q, end);
	/* --time-format delta: "[<    0.000123>]" */
	if (q < end && *q == '<') {
		q++;
		if (kmsg_mono_number(&q, end, &d))
			return -EINVAL;
		kmsg_skip_spaces(&q, end);
		if (!kmsg_expect(&q, end, '>') || !kmsg_expect(&q, end, ']'))
			return -EINVAL;
		*delta = d;
		r->format = KMSG_FMT_DMESG_DELTA;
		*p = q;
		return 0;
	}
	/* -H: "[  +0.000123]" */
	if (q < end && *q == '+') {
		q++;
		if (kmsg_mono_number(&q, end, &d))
			return -EINVAL;
		kmsg_skip_spaces(&q, end);
		if (!kmsg_expect(&q, end, ']'))
			return -EINVAL;
		*delta = d;
		r->format = KMSG_FMT_DMESG_REL;
		*p = q;
		return 0;
	}
	/* "[18:14:04]": a time of day, no date (a terminal's, a script's) */
	if (kmsg_looks_clock(q, end)) {
		if (kmsg_clock_time(&q, end, &t) || !kmsg_expect(&q, end, ']'))
			return -EINVAL;
		kmsg_set_wall(r, t, false);
		r->format = KMSG_FMT_CLOCK;
		*p = q;
		return 0;
	}
	if (q < end && kmsg_is_digit(*q)) {
		if (kmsg_mono_number(&q, end, &t))
			return -EINVAL;
		kmsg_skip_spaces(&q, end);
		r->format = KMSG_FMT_DMESG;
		/* -d: "[ 1234.567890 <    0.000123>]"; journalctl -o
		 * short-delta marks a delta across a boot "<  3612.280709*>" */
		if (q < end && *q == '<') {
			q++;
			if (kmsg_mono_number(&q, end, &d))
				return -EINVAL;
			kmsg_skip_spaces(&q, end);
			if (q < end && *q == '*')
				q++;
			if (!kmsg_expect(&q, end, '>'))
				return -EINVAL;
			r->format = KMSG_FMT_DMESG_DELTA;
		}
		if (!kmsg_expect(&q, end, ']'))
			return -EINVAL;
		kmsg_set_mono(r, t);
		*p = q;
		return 0;
	}
	/*
	 * -T and --time-format ctime: "[Sun Nov 29 23:10:27 2026]"; under
	 * another LC_TIME the day's and month's names are the locale's
	 * ("[wo jul 28 05:19:43 2021]", "[mer. nov. 18 ...]")
	 */
	wday = kmsg_wday(q, end);
	w = wday >= 0 && end - q > 4 && q[3] == ' ' ? q + 4 :
	    kmsg_local_wday(q, end);
	if (w) {
		if (!kmsg_ctime(&w, end, &t) && kmsg_expect(&w, end, ']')) {
			kmsg_set_wall(r, t, true);
			r->format = KMSG_FMT_DMESG_T;
			*p = w;
			return 0;
		}
		if (wday >= 0)
			return -EINVAL;
	}
	if (!kmsg_rel_abs(&q, end, &t) && kmsg_expect(&q, end, ']')) {
		kmsg_set_wall(r, t, false);
		r->format = KMSG_FMT_DMESG_REL;
		*p = q;
		return 0;
	}
	return -EINVAL;
}

static void kmsg_set_msg(struct kmsg_record *rec, const char *p,
			 const char *end)
{
	while (p < end && kmsg_is_space(*p))
		p++;
	rec->msg = p;
	rec->msg_len = (size_t)(end - p);
}

/* --- the syslog family: "[fac.level] [host] kernel: [stamp] msg" ------- */

static const char *const kmsg_facilities[] = {
	"kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news",
	"uucp", "cron", "authpriv", "ftp", "ntp", "security", "console",
	"solaris-cron", "local0", "local1", "local2", "local3", "local4",
	"local5", "local6", "local7",
};

static const char *const kmsg_levels[] = {
	"emerg", "alert", "crit", "err", "warn", "notice", "info", "debug",
};

static int kmsg_find_name(const char *p, size_t n,
			  const char *const *names, size_t count)
{
	size_t i;

	if (!n)
		return -1;
	for (i = 0; i < count; i++)
		if (names[i][0] == p[0] && !strncmp(p, names[i], n) &&
		    !names[i][n])
			return (int)i;
	/* what syslog daemons also write */
	if (names == kmsg_levels) {
		if (n == 7 && !memcmp(p, "warning", 7))
			return 4;
		if (n == 5 && !memcmp(p, "error", 5))
			return 3;
		if (n == 5 && !memcmp(p, "panic", 5))
			return 0;
	}
	return -1;
}

/* "kern.err" (busybox syslogd, logread): sets r->facility and r->level */
static bool kmsg_fac_level(const char **p, const char *end,
			   struct kmsg_record *r)
{
	const char *q = *p, *dot = NULL;
	int fac, lvl;

	while (q < end && !kmsg_is_space(*q)) {
		if (*q == '.' && !dot)
			dot = q;
		q++;
	}
	if (!dot || q == end)
		return false;
	fac = kmsg_find_name(*p, (size_t)(dot - *p), kmsg_facilities,
			     sizeof(kmsg_facilities) / sizeof(kmsg_facilities[0]));
	lvl = kmsg_find_name(dot + 1, (size_t)(q - dot - 1), kmsg_levels, 8);
	if (fac < 0 || lvl < 0)
		return false;
	r->facility = fac < 12 ? fac : (fac >= 16 ? fac : -1);
	r->level = lvl;
	*p = q;
	return true;
}

/* "kernel:" or "kernel[0]:" at p (the syslog tag of the kernel) */
static bool kmsg_kernel_tag(const char **p, const char *end)
{
	const char *q = *p;

	if (!kmsg_expect_str(&q, end, "kernel"))
		return false;
	if (q < end && *q == '[') {
		while (q < end && *q != ']')
			q++;
		if (!kmsg_expect(&q, end, ']'))
			return false;
	}
	if (!kmsg_expect(&q, end, ':'))
		return false;
	*p = q;
	return true;
}

/* "sshd[12]:", "systemd:", "CRON[1]:": a program's syslog tag at p */
static bool kmsg_is_tag(const char *p, const char *end)
{
	const char *q = p;

	while (q < end && !kmsg_is_space(*q) && *q != ':' && *q != '[')
		q++;
	if (q == p || q == end)
		return false;
	if (*q == '[') {
		while (q < end && *q != ']' && !kmsg_is_space(*q))
			q++;
		if (q == end || *q != ']')
			return false;
		q++;
	}
	return q < end && *q == ':' && (q + 1 == end || q[1] == ' ');
}

/* The message after the tag: the printk stamp klogd kept, a caller id. */
static void kmsg_after_tag(const char *p, const char *end,
			   struct kmsg_record *r)
{
	const char *q;
	double mono;

	kmsg_skip_spaces(&p, end);
	if (p < end && *p == '[') {
		q = p + 1;
		if (!kmsg_mono_number(&q, end, &mono)) {
			kmsg_skip_spaces(&q, end);
			if (kmsg_expect(&q, end, ']')) {
				kmsg_set_mono(r, mono);
				p = q;
				kmsg_caller(&p, end, r);
			}
		}
	}
	kmsg_set_msg(r, p, end);
}

/*
 * After a syslog stamp: " [fac.level] host [fac.level] kernel: msg", the
 * host optional (busybox syslogd writes none), metalog's "[kernel]".
 * KMSG_NOT_KERNEL for another program's line.
 */
static int kmsg_syslog_tail(const char *p, const char *end,
			    struct kmsg_record *r, bool host_ok)
{
	const char *host;

	kmsg_skip_spaces(&p, end);
	if (p >= end)
		return -EINVAL;
	if (kmsg_expect_str(&p, end, "[kernel]")) {
		r->format = KMSG_FMT_METALOG;
		kmsg_after_tag(p, end, r);
		return 0;
	}
	if (kmsg_fac_level(&p, end, r))
		kmsg_skip_spaces(&p, end);
	if (kmsg_kernel_tag(&p, end)) {
		kmsg_after_tag(p, end, r);
		return 0;
	}
	if (!host_ok)
		return KMSG_NOT_KERNEL;
	host = p;
	while (p < end && !kmsg_is_space(*p))
		p++;
	if (p == host || p == end || host[p - host - 1] == ':')
		return KMSG_NOT_KERNEL;	/* "systemd[1]: ...": a tag, no host */
	r->host = host;
	r->host_len = (size_t)(p - host);
	kmsg_skip_spaces(&p, end);
	if (kmsg_fac_level(&p, end, r))
		kmsg_skip_spaces(&p, end);
	if (kmsg_expect_str(&p, end, "[kernel]")) {
		kmsg_after_tag(p, end, r);
		return 0;
	}
	if (kmsg_kernel_tag(&p, end)) {
		kmsg_after_tag(p, end, r);
		return 0;
	}
	/*
	 * Another program's tag ends in ':' ("sshd[12]:", "CRON:"); a
	 * syslog-ng template without $PROGRAM writes the kernel's message
	 * right after the host: "puma usb 4-1: new full speed USB device"
	 */
	if (kmsg_is_tag(p, end))
		return KMSG_NOT_KERNEL;
	kmsg_after_tag(p, end, r);
	return 0;
}

/* "Nov 29 23:10:27[.123456] ..." (RFC 3164, journalctl short[-precise]) */
static int kmsg_parse_syslog(const char *p, const char *end,
			     struct kmsg_record *r)
{
	double sec;
	long day;
	int month;

	if (kmsg_mdy_time(&p, end, &month, &day, &sec))
		return -EINVAL;
	kmsg_set_wall(r, kmsg_wall(month, day, sec), false);
	r->format = KMSG_FMT_SYSLOG;
	if (p < end && !kmsg_is_space(*p))
		return -EINVAL;
	return kmsg_syslog_tail(p, end, r, true);
}

/* "nas kernel:" at p: a host, then the kernel's tag */
static bool kmsg_host_kernel(const char *p, const char *end)
{
	while (p < end && !kmsg_is_space(*p) && *p != ':')
		p++;
	if (p == end || *p != ' ')
		return false;
	p++;
	return kmsg_kernel_tag(&p, end);
}

/* After the word at p and the blanks after it */
static const char *kmsg_word_end(const char *p, const char *end)
{
	while (p < end && !kmsg_is_space(*p))
		p++;
	kmsg_skip_spaces(&p, end);
	return p;
}

/* "sshd[123]:": another program's tag, with its pid */
static bool kmsg_pid_tag(const char *p, const char *end)
{
	const char *b = p;

	while (b < end && *b != '[' && !kmsg_is_space(*b) && *b != ':')
		b++;
	return b > p && b < end && *b == '[' && kmsg_is_tag(p, end);
}

/*
 * "21:11:10 kernel: msg", "21:11:10 nas kernel: msg", "18:14:04.1 msg": a
 * time of day and no date, as a log viewer, a script or a terminal's
 * timestamping writes it.  KMSG_NOT_KERNEL for another program's line.
 */
static int kmsg_parse_clock(const char *p, const char *end,
			    struct kmsg_record *r)
{
	const char *q;
	double sec;
	int ret;

	if (kmsg_clock_time(&p, end, &sec) || p >= end || !kmsg_is_space(*p))
		return -EINVAL;
	kmsg_set_wall(r, sec, false);
	kmsg_skip_spaces(&p, end);
	q = p;
	if (kmsg_kernel_tag(&q, end) || kmsg_host_kernel(p, end)) {
		ret = kmsg_syslog_tail(p, end, r, true);
		r->format = KMSG_FMT_CLOCK;
		return ret;
	}
	/* "[host] sshd[12]: ...": another program's */
	if (kmsg_pid_tag(p, end) || kmsg_pid_tag(kmsg_word_end(p, end), end))
		return KMSG_NOT_KERNEL;
	kmsg_after_tag(p, end, r);
	r->format = KMSG_FMT_CLOCK;
	return 0;
}

/* OpenWrt logread: "Mon Nov 18 10:34:27 2019 kern.err kernel: [..] msg" */
static int kmsg_parse_logread(const char *p, const char *end,
			      struct kmsg_record *r)
{
	double t;

	p += 4;
	if (kmsg_ctime(&p, end, &t) || p >= end || !kmsg_is_space(*p))
		return -EINVAL;
	kmsg_set_wall(r, t, true);
	r->format = KMSG_FMT_LOGREAD;
	return kmsg_syslog_tail(p, end, r, true);
}

/* journalctl -o short-full: "Sun 2026-11-29 23:10:27 CET host kernel: " */
static int kmsg_parse_short_full(const char *p, const char *end,
				 struct kmsg_record *r)
{
	bool zoned;
	double t;

	p += 4;
	if (kmsg_iso(&p, end, &t, &zoned) || p >= end || *p != ' ')
		return -EINVAL;
	/* the zone's name ("CET", "UTC"): t stays as written */
	p++;
	while (p < end && ((*p >= 'A' && *p <= 'Z') || *p == '+' ||
			   *p == '-' || kmsg_is_digit(*p)))
		p++;
	kmsg_set_wall(r, t, true);
	r->format = KMSG_FMT_JOURNAL_FULL;
	return kmsg_syslog_tail(p, end, r, true);
}

/*
 * An RFC 3339 stamp: dmesg --time-format iso puts the message right after
 * it (and writes the fraction after a ',', util-linux's own way);
 * rsyslog, syslog-ng and journalctl -o short-iso a host and the tag.
 */
static int kmsg_parse_iso(const char *p, const char *end,
			  struct kmsg_record *r)
{
	const char *comma = p + 19;
	bool zoned;
	double t;

	if (kmsg_iso(&p, end, &t, &zoned))
		return -EINVAL;
	kmsg_set_wall(r, t, true);
	if (comma < end && *comma == ',') {
		r->format = KMSG_FMT_DMESG_ISO;
		kmsg_caller(&p, end, r);
		kmsg_set_msg(r, p, end);
		return 0;
	}
	/* a stamp, ": " and the message, as scripts prefix dmesg's lines */
	if (end - p > 2 && p[0] == ':' && p[1] == ' ') {
		r->format = KMSG_FMT_ISO_COLON;
		p += 2;
		kmsg_caller(&p, end, r);
		kmsg_skip_spaces(&p, end);
		kmsg_set_msg(r, p, end);
		return 0;
	}
	r->format = KMSG_FMT_SYSLOG_ISO;
	return kmsg_syslog_tail(p, end, r, true);
}

/* RFC 5424 after "<PRI>1 ": "STAMP HOST APP PROCID MSGID SD MSG" */
static int kmsg_parse_5424(const char *p, const char *end,
			   struct kmsg_record *r)
{
	const char *app;
	bool zoned;
	double t;
	int field;

	if (p < end && *p == '-') {
		p++;
	} else {
		if (kmsg_iso(&p, end, &t, &zoned))
			return -EINVAL;
		kmsg_set_wall(r, t, true);
	}
	if (!kmsg_expect(&p, end, ' '))
		return -EINVAL;
	r->host = p;
	while (p < end && *p != ' ')
		p++;
	r->host_len = (size_t)(p - r->host);
	if (!kmsg_expect(&p, end, ' '))
		return -EINVAL;
	app = p;
	while (p < end && *p != ' ')
		p++;
	if ((size_t)(p - app) != 6 || memcmp(app, "kernel", 6))
		return KMSG_NOT_KERNEL;
	/* PROCID and MSGID */
	for (field = 0; field < 2; field++) {
		if (!kmsg_expect(&p, end, ' '))
			return -EINVAL;
		while (p < end && *p != ' ')
			p++;
	}
	if (!kmsg_expect(&p, end, ' '))
		return -EINVAL;
	/* structured data: "-" or one or more "[...]" */
	if (p < end && *p == '-') {
		p++;
	} else {
		while (p < end && *p == '[') {
			while (p < end && *p != ']') {
				if (*p == '\\' && p + 1 < end)
					p++;
				p++;
			}
			if (!kmsg_expect(&p, end, ']'))
				return -EINVAL;
		}
	}
	r->format = KMSG_FMT_RFC5424;
	/* a BOM may start the message (RFC 5424 section 6.4) */
	kmsg_skip_spaces(&p, end);
	kmsg_expect_str(&p, end, "\xef\xbb\xbf");
	kmsg_after_tag(p, end, r);
	return 0;
}

/* PRI,SEQ,USEC,FLAGS[,...];msg */
static int kmsg_parse_devkmsg(const char *p, const char *end,
			      struct kmsg_record *r)
{
	unsigned long long seq = 0, usec = 0;
	const char *semi;
	long pri;
	int n = 0;

	pri = kmsg_digits(&p, end, 4);
	if (pri < 0 || !kmsg_expect(&p, end, ','))
		return -EINVAL;
	while (p < end && kmsg_is_digit(*p) && n++ < 18)
		seq = seq * 10 + (unsigned long long)(*p++ - '0');
	if (!n || !kmsg_expect(&p, end, ','))
		return -EINVAL;
	n = 0;
	while (p < end && kmsg_is_digit(*p) && n++ < 18)
		usec = usec * 10 + (unsigned long long)(*p++ - '0');
	if (!n || !kmsg_expect(&p, end, ','))
		return -EINVAL;
	semi = memchr(p, ';', (size_t)(end - p));
	if (!semi)
		return -EINVAL;
	/* "caller=T123" among the fields (CONFIG_PRINTK_CALLER) */
	while (p < semi) {
		const char *f = p;

		while (p < semi && *p != ',')
			p++;
		if (p - f > 7 && !memcmp(f, "caller=", 7) &&
		    (size_t)(p - f - 7) < sizeof(r->caller)) {
			memcpy(r->caller, f + 7, (size_t)(p - f - 7));
			r->caller[p - f - 7] = '\0';
		}
		if (p < semi)
			p++;
	}
	r->msg = semi + 1;
	r->msg_len = (size_t)(end - semi - 1);
	r->level = (int)(pri & 7);
	r->facility = (int)(pri >> 3);
	r->seq = (int64_t)seq;
	kmsg_set_mono(r, (double)usec / 1e6);
	r->format = KMSG_FMT_KMSG;
	return 0;
}

/* a parser's "not my form": the next one tries (never returned) */
#define KMSG_NOT_FORM	(-ENOMSG)

/*
 * journalctl -o short-unix: "1732918227.123456 host kernel: msg"; another
 * program's line of that form is KMSG_NOT_KERNEL, not a plain line
 */
static int kmsg_parse_unix(const char *p, const char *end,
			   struct kmsg_record *r)
{
	const char *q = p;
	double t = 0;
	int n = 0;

	while (q < end && kmsg_is_digit(*q) && n < 12) {
		t = t * 10 + (*q++ - '0');
		n++;
	}
	if (n < 9 || n > 11 || !kmsg_expect(&q, end, '.'))
		return KMSG_NOT_FORM;
	t += kmsg_fraction(&q, end);
	if (q >= end || *q != ' ')
		return KMSG_NOT_FORM;
	kmsg_set_wall(r, t, true);
	r->format = KMSG_FMT_JOURNAL_UNIX;
	return kmsg_syslog_tail(q, end, r, true);
}

/* talosctl dmesg: "10.5.0.2: kern:    info: [2020-03-24T03:34:25.13Z]: " */
static int kmsg_parse_talos(const char *p, const char *end,
			    struct kmsg_record *r)
{
	const char *node = p, *name;
	bool zoned;
	double t;
	int fac, lvl;

	while (p < end && *p != ':' && !kmsg_is_space(*p))
		p++;
	if (p == node || !kmsg_expect(&p, end, ':'))
		return KMSG_NOT_KERNEL;
	kmsg_skip_spaces(&p, end);
	name = p;
	while (p < end && *p != ':')
		p++;
	fac = kmsg_find_name(name, (size_t)(p - name), kmsg_facilities,
			     sizeof(kmsg_facilities) / sizeof(kmsg_facilities[0]));
	if (fac < 0 || !kmsg_expect(&p, end, ':'))
		return KMSG_NOT_KERNEL;
	kmsg_skip_spaces(&p, end);
	name = p;
	while (p < end && *p != ':')
		p++;
	lvl = kmsg_find_name(name, (size_t)(p - name), kmsg_levels, 8);
	if (lvl < 0 || !kmsg_expect(&p, end, ':'))
		return KMSG_NOT_KERNEL;
	kmsg_skip_spaces(&p, end);
	if (!kmsg_expect(&p, end, '[') || kmsg_iso(&p, end, &t, &zoned) ||
	    !kmsg_expect(&p, end, ']') || !kmsg_expect(&p, end, ':'))
		return -EINVAL;
	r->host = node;
	r->host_len = (size_t)(strchr(node, ':') - node);
	r->facility = fac;
	r->level = lvl;
	kmsg_set_wall(r, t, true);
	r->format = KMSG_FMT_TALOS;
	kmsg_set_msg(r, p, end);
	return 0;
}

/*
 * logcat's threadtime form, the kernel's buffer: "11-29 23:10:27.123
 * 0 0 I kernel  : msg"; the kernel's lines have pid 0.
 */
static int kmsg_parse_logcat(const char *p, const char *end,
			     struct kmsg_record *r)
{
	static const char levels[] = "VDIWEF";
	long month, day, pid;
	double sec;
	const char *lv;

	month = kmsg_digits(&p, end, 2);
	if (month < 1 || month > 12 || !kmsg_expect(&p, end, '-'))
		return KMSG_NOT_KERNEL;
	day = kmsg_digits(&p, end, 2);
	if (day < 1 || day > 31 || !kmsg_expect(&p, end, ' ') ||
	    kmsg_clock_time(&p, end, &sec))
		return KMSG_NOT_KERNEL;
	kmsg_skip_spaces(&p, end);
	pid = kmsg_digits(&p, end, 9);
	kmsg_skip_spaces(&p, end);
	if (pid < 0 || kmsg_digits(&p, end, 9) < 0)
		return KMSG_NOT_KERNEL;
	kmsg_skip_spaces(&p, end);
	if (p >= end || !(lv = strchr(levels, *p)) || !*p)
		return KMSG_NOT_KERNEL;
	p++;
	if (pid != 0)
		return KMSG_NOT_KERNEL;
	kmsg_skip_spaces(&p, end);
	/* the tag, "kernel" or empty, then " : " */
	kmsg_expect_str(&p, end, "kernel");
	kmsg_skip_spaces(&p, end);
	if (!kmsg_expect(&p, end, ':'))
		return KMSG_NOT_KERNEL;
	/* V and D are debug, I info, W warn, E err, F crit */
	r->level = "776430"[lv - levels] - '0';
	kmsg_set_wall(r, kmsg_wall((int)month - 1, day, sec), false);
	r->format = KMSG_FMT_LOGCAT;
	kmsg_after_tag(p, end, r);
	return 0;
}

/* "<6>" or "<14>": a syslog priority */
static bool kmsg_pri(const char **p, const char *end, struct kmsg_record *r)
{
	const char *q = *p;
	long pri;

	if (!kmsg_expect(&q, end, '<'))
		return false;
	pri = kmsg_digits(&q, end, 3);
	if (pri < 0 || pri > 191 || !kmsg_expect(&q, end, '>'))
		return false;
	r->level = (int)(pri & 7);
	r->facility = (int)(pri >> 3);
	*p = q;
	return true;
}

/* dmesg -x: "kern  :err   : " */
static bool kmsg_decoded(const char **p, const char *end,
			 struct kmsg_record *r)
{
	const char *q = *p, *name;
	int fac, lvl;

	name = q;
	while (q < end && *q >= 'a' && *q <= 'z')
		q++;
	fac = kmsg_find_name(name, (size_t)(q - name), kmsg_facilities,
			     sizeof(kmsg_facilities) / sizeof(kmsg_facilities[0]));
	kmsg_skip_spaces(&q, end);
	if (fac < 0 || !kmsg_expect(&q, end, ':'))
		return false;
	name = q;
	while (q < end && *q >= 'a' && *q <= 'z')
		q++;
	lvl = kmsg_find_name(name, (size_t)(q - name), kmsg_levels, 8);
	kmsg_skip_spaces(&q, end);
	if (lvl < 0 || !kmsg_expect(&q, end, ':'))
		return false;
	kmsg_skip_spaces(&q, end);
	r->facility = fac;
	r->level = lvl;
	*p = q;
	return true;
}

/*
 * After dmesg's bracket: the message, or journalctl -o short-monotonic's
 * "host kernel: msg" (the host sometimes cut away by whoever pasted it).
 */
static void kmsg_after_bracket(const char *p, const char *end,
			       struct kmsg_record *r)
{
	const char *q, *host;

	kmsg_caller(&p, end, r);
	kmsg_mtk_caller(&p, end);
	kmsg_skip_spaces(&p, end);
	q = p;
	if (kmsg_kernel_tag(&q, end)) {
		r->format = KMSG_FMT_JOURNAL_MONO;
		kmsg_set_msg(r, q, end);
		return;
	}
	host = q;
	while (q < end && !kmsg_is_space(*q) && *q != ':')
		q++;
	if (q > host && q < end && *q == ' ') {
		const char *h_end = q;

		q++;
		if (kmsg_kernel_tag(&q, end)) {
			r->format = KMSG_FMT_JOURNAL_MONO;
			r->host = host;
			r->host_len = (size_t)(h_end - host);
			kmsg_set_msg(r, q, end);
			return;
		}
	}
	kmsg_set_msg(r, p, end);
}

static int kmsg_parse_bracketed(const char *p, const char *end,
				struct kmsg_record *r, double *delta, bool cut)
{
	if (kmsg_bracket(&p, end, r, delta, cut))
		return -EINVAL;
	kmsg_after_bracket(p, end, r);
	return 0;
}

/*
 * "809.987218] " at the start: a printk stamp that lost its "[" when the
 * line was selected for copying (digits, a fraction of 6, "] ")
 */
static bool kmsg_cut_bracket(const char *p, size_t len)
{
	size_t i = 0, n;

	while (i < len && i < 12 && kmsg_is_digit(p[i]))
		i++;
	if (!i || i + 9 > len || p[i] != '.')
		return false;
	for (n = i + 1; n < len && kmsg_is_digit(p[n]); n++)
		;
	return n - i - 1 == 6 && n + 1 < len && p[n] == ']' &&
	       p[n + 1] == ' ';
}

/* " 3 23:10" or "  3 23:10" after a month: a syslog stamp's */
static bool kmsg_looks_day_time(const char *p, const char *end)
{
	const char *q = p;

	kmsg_skip_spaces(&q, end);
	if (q == p || kmsg_digits(&q, end, 2) < 0 || q == end ||
	    !kmsg_is_space(*q))
		return false;
	kmsg_skip_spaces(&q, end);
	return end - q >= 3 && kmsg_is_digit(q[0]) && kmsg_is_digit(q[1]) &&
	       q[2] == ':';
}

static bool kmsg_looks_iso(const char *p, size_t len)
{
	return len > 10 && kmsg_is_digit(p[0]) && kmsg_is_digit(p[3]) &&
	       p[4] == '-' && kmsg_is_digit(p[5]) && p[7] == '-' &&
	       (p[10] == 'T' || p[10] == ' ');
}

/* "6,1234,5678901," : a /dev/kmsg record's prefix */
static bool kmsg_looks_devkmsg(const char *p, size_t len)
{
	size_t i = 0;
	int commas = 0;

	while (i < len && i < 48 && (kmsg_is_digit(p[i]) || p[i] == ',')) {
		if (p[i] == ',' && (!i || p[i - 1] == ','))
			return false;
		commas += p[i] == ',';
		i++;
	}
	/* "PRI,SEQ,USEC," or a record cut short after its time */
	return commas >= 2;
}

/*
 * The core of kmsg_parse_line(); delta gets the relative time of dmesg -H
 * and --time-format delta lines (-1 if none), which need the lines before.
 */
static int kmsg_parse_one(const char *line, size_t len,
			  struct kmsg_record *rec, double *delta)
{
	struct kmsg_record r = {
		.facility = -1, .level = -1, .seq = -1,
		.clock = KMSG_CLOCK_NONE, .wall_clock = KMSG_CLOCK_NONE,
	};
	const char *p = line, *end;
	bool pri = false;
	size_t mlen;
	int ret;

	*delta = -1;
	if (!line || len > KMSG_LINE_MAX)
		return -EINVAL;
	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	if (!len || line[0] == ' ' || line[0] == '\t')
		return KMSG_NOT_KERNEL;
	if (memchr(line, '\0', len))
		return -EINVAL;
	end = line + len;

	if (kmsg_pri(&p, end, &r)) {
		pri = true;
		if (kmsg_expect_str(&p, end, "1 ")) {
			ret = kmsg_parse_5424(p, end, &r);
			goto out;
		}
	}
	if (kmsg_decoded(&p, end, &r)) {
		ret = kmsg_parse_bracketed(p, end, &r, delta, false);
		if (!ret)
			r.format = KMSG_FMT_DMESG_X;
		goto out;
	}
	len = (size_t)(end - p);
	/* Genode's label of the component that runs Linux's drivers */
	if (len > 8 && p[0] == '[') {
		const char *rb = memchr(p, ']', len < 96 ? len : 96);
		const char *arrow = rb ? memmem(p, (size_t)(rb - p), " -> ", 4) :
					 NULL;

		if (arrow && rb + 2 < end && rb[1] == ' ') {
			p = rb + 2;
			len = (size_t)(end - p);
		}
	}
	if (p[0] == '[') {
		ret = kmsg_parse_bracketed(p, end, &r, delta, false);
		if (!ret && pri && r.format == KMSG_FMT_DMESG)
			r.format = KMSG_FMT_DMESG_RAW;
	} else if (len > 4 && p[3] == ' ' && kmsg_wday(p, end) >= 0 &&
		   kmsg_month(p + 4, end) >= 0) {
		ret = kmsg_parse_logread(p, end, &r);
	} else if (len > 4 && p[3] == ' ' && kmsg_wday(p, end) >= 0 &&
		   kmsg_looks_iso(p + 4, len - 4)) {
		ret = kmsg_parse_short_full(p, end, &r);
	} else if (kmsg_month_word(p, end, &mlen) >= 0 &&
		   kmsg_looks_day_time(p + mlen, end)) {
		ret = kmsg_parse_syslog(p, end, &r);
	} else if (kmsg_looks_iso(p, len)) {
		ret = kmsg_parse_iso(p, end, &r);
	} else if (len > 6 && kmsg_is_digit(p[0]) && kmsg_is_digit(p[1]) &&
		   p[2] == '-' && kmsg_is_digit(p[3]) && p[5] == ' ') {
		ret = kmsg_parse_logcat(p, end, &r);
	} else if (kmsg_looks_clock(p, end)) {
		ret = kmsg_parse_clock(p, end, &r);
	} else if (kmsg_cut_bracket(p, len)) {
		/* "809.987218] ...": a stamp whose "[" the copy left out */
		ret = kmsg_parse_bracketed(p, end, &r, delta, true);
	} else if (kmsg_looks_devkmsg(p, len)) {
		ret = kmsg_parse_devkmsg(p, end, &r);
	} else if (len > 10 && kmsg_is_digit(p[0]) &&
		   (ret = kmsg_parse_unix(p, end, &r)) != KMSG_NOT_FORM) {
		/* ret set */
	} else if (memchr(p, ':', len < 64 ? len : 64) &&
		   (ret = kmsg_parse_talos(p, end, &r)) != KMSG_NOT_KERNEL) {
		/* ret set */
	} else {
		/*
		 * No stamp: dmesg -t, journalctl -o cat, kernels without
		 * CONFIG_PRINTK_TIME.  The classifier ignores what it does
		 * not know.  '#' starts a comment: no kernel line does.
		 */
		const char *q = p;

		if (*p == '#')
			return KMSG_NOT_KERNEL;
		r.format = KMSG_FMT_PLAIN;
		/* "kernel: msg": a journal or syslog line cut to its tag */
		if (kmsg_kernel_tag(&q, end) && q < end && *q == ' ') {
			kmsg_after_tag(q, end, &r);
			if (r.has_mono)
				r.format = KMSG_FMT_DMESG;
		} else
			kmsg_set_msg(&r, p, end);
		ret = 0;
	}
out:
	if (ret)
		return ret;
	if (r.has_mono) {
		r.t = r.mono;
		r.clock = KMSG_CLOCK_MONO;
	} else if (r.wall_clock != KMSG_CLOCK_NONE) {
		r.t = r.wall;
		r.clock = r.wall_clock;
	}
	*rec = r;
	return 0;
}

/*
 * Returns 0 and fills rec (rec->msg points into line), KMSG_NOT_KERNEL for
 * a line in no kernel form (another program's syslog line, a shell line in
 * a console log, a /dev/kmsg dictionary line), or -EINVAL for a malformed
 * one.  rec is written only on 0.
 */
int kmsg_parse_line(const char *line, size_t len, struct kmsg_record *rec)
{
	double delta;

	return kmsg_parse_one(line, len, rec, &delta);
}

/* A time as a log writes it: "218.273966", "Mar 14 10:13:08", "-" */
/* n bytes of p into buf, cut to len - 1, NUL-ended */
static void kmsg_put_fixed(char *buf, size_t len, const char *p, size_t n)
{
	if (!len)
		return;
	if (n >= len)
		n = len - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
}

void kmsg_time_text(double t, enum kmsg_clock clock, char *buf, size_t len)
{
	static const char *const months[12] = {
		"Jan", "Feb", "Mar", "Apr", "May", "Jun",
		"Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
	};
	static const int days[12] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
	};
	unsigned int s, day, m = 0;
	time_t secs;
	struct tm tm;

	switch (clock) {
	case KMSG_CLOCK_NONE:
		snprintf(buf, len, "-");
		return;
	case KMSG_CLOCK_WALL:
		if (t < 0 || t >= 366 * 86400.0)
			break;
		s = (unsigned int)t % 86400;
		day = (unsigned int)t / 86400;
		while (m < 11 && day >= (unsigned int)days[m])
			day -= (unsigned int)days[m++];
		/* "%s %2u %02u:%02u:%02u", without printf's cost */
		day = (day + 1) % 100;
		kmsg_put_fixed(buf, len, (char[]){
			months[m][0], months[m][1], months[m][2], ' ',
			(char)(day >= 10 ? '0' + day / 10 : ' '),
			(char)('0' + day % 10), ' ',
			(char)('0' + s / 3600 % 24 / 10),
			(char)('0' + s / 3600 % 24 % 10), ':',
			(char)('0' + s / 60 % 60 / 10), (char)('0' + s / 60 % 60 % 10),
			':', (char)('0' + s % 60 / 10), (char)('0' + s % 60 % 10),
		}, 15);
		return;
	case KMSG_CLOCK_REAL:
		secs = (time_t)t;
		if (!gmtime_r(&secs, &tm))
			break;
		snprintf(buf, len, "%04d-%02d-%02d %02d:%02d:%02d",
			 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
			 tm.tm_hour, tm.tm_min, tm.tm_sec);
		return;
	case KMSG_CLOCK_MONO:
	case KMSG_CLOCK_BOOT:
		break;
	}
	kmsg_secs_text(t, buf, len);
}

void kmsg_secs_text(double t, char *buf, size_t len)
{
	char tmp[32], *p = tmp + sizeof(tmp);
	unsigned long long us;
	int i;

	/*
	 * "%.6f" without printf's exact decimal expansion of the double,
	 * which took 3,000 instructions a time: the microseconds, rounded
	 * (the times were parsed from six decimals or made from ns)
	 */
	if (!(t >= 0 && t < 1e12)) {
		snprintf(buf, len, "%.6f", t);
		return;
	}
	us = (unsigned long long)(t * 1e6 + 0.5);
	for (i = 0; i < 6; i++, us /= 10)
		*--p = (char)('0' + us % 10);
	*--p = '.';
	do {
		*--p = (char)('0' + us % 10);
		us /= 10;
	} while (us);
	kmsg_put_fixed(buf, len, p, (size_t)(tmp + sizeof(tmp) - p));
}

/* --- journalctl -o export ---------------------------------------------- */

void kmsg_export_init(struct kmsg_export *ex)
{
	ex->msg_len = 0;
	ex->have_msg = false;
	ex->bad = false;
	ex->not_kernel = false;
	ex->any = false;
	ex->t = 0;
	ex->clock = KMSG_CLOCK_NONE;
	ex->real = 0;
	ex->has_real = false;
	ex->level = -1;
	ex->facility = -1;
	ex->seq = -1;
	ex->boot_id[0] = '\0';
	ex->host[0] = '\0';
}

/* An export field line: NAME=value, NAME of upper case, digits and '_' */
bool kmsg_export_is_field(const char *line, size_t len)
{
	size_t i;

	if (!len || !((line[0] >= 'A' && line[0] <= 'Z') || line[0] == '_'))
		return false;
	for (i = 0; i < len && i < 64; i++) {
		char c = line[i];

		if (c == '=')
			return i > 0;
		if (!((c >= 'A' && c <= 'Z') || kmsg_is_digit(c) || c == '_'))
			return false;
	}
	return false;
}

static bool kmsg_field(const char *line, size_t len, const char *name,
		       const char **val, size_t *vlen)
{
	size_t n = strlen(name);

	if (len <= n || memcmp(line, name, n) || line[n] != '=')
		return false;
	*val = line + n + 1;
	*vlen = len - n - 1;
	return true;
}

/* A decimal of at most 19 digits (no overflow), or -1. */
static long long kmsg_field_num(const char *v, size_t vlen)
{
	long long x = 0;
	size_t i;

	if (!vlen || vlen > 18)
		return -1;
	for (i = 0; i < vlen; i++) {
		if (!kmsg_is_digit(v[i]))
			return -1;
		x = x * 10 + (v[i] - '0');
	}
	return x;
}

int kmsg_export_feed(struct kmsg_export *ex, const char *line, size_t len,
		     struct kmsg_record *rec)
{
	const char *v;
	size_t vlen;
	long long x;
	int ret;

	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	if (!len) {
		if (!ex->any)
			return 0;
		if (ex->bad || !ex->have_msg)
			ret = -EINVAL;
		else if (ex->not_kernel)
			ret = KMSG_NOT_KERNEL;
		else
			ret = KMSG_RECORD;
		if (ret == KMSG_RECORD) {
			*rec = (struct kmsg_record) {
				.msg = ex->msg, .msg_len = ex->msg_len,
				.t = ex->t, .clock = ex->clock,
				.mono = ex->t,
				.has_mono = ex->clock == KMSG_CLOCK_MONO,
				.wall = ex->real,
				.wall_clock = ex->has_real ? KMSG_CLOCK_REAL :
					      KMSG_CLOCK_NONE,
				.format = KMSG_FMT_EXPORT,
				.facility = ex->facility, .level = ex->level,
				.seq = ex->seq,
				.host = ex->host[0] ? ex->host : NULL,
				.host_len = strlen(ex->host),
			};
			if (ex->clock == KMSG_CLOCK_NONE && ex->has_real) {
				rec->t = ex->real;
				rec->clock = KMSG_CLOCK_REAL;
			}
		}
		kmsg_export_init(ex);
		return ret;
	}
	ex->any = true;
	if (!kmsg_export_is_field(line, len)) {
		/* binary-safe field (NAME, then a 64-bit length): not read */
		ex->bad = true;
		return 0;
	}
	if (kmsg_field(line, len, "MESSAGE", &v, &vlen)) {
		if (vlen > sizeof(ex->msg) || memchr(v, '\0', vlen)) {
			ex->bad = true;
			return 0;
		}
		memcpy(ex->msg, v, vlen);
		ex->msg_len = vlen;
		ex->have_msg = true;
	} else if (kmsg_field(line, len, "_SOURCE_MONOTONIC_TIMESTAMP",
			      &v, &vlen)) {
		x = kmsg_field_num(v, vlen);
		if (x >= 0) {
			/* the kernel's own time beats the journal's */
			ex->t = (double)x / 1e6;
			ex->clock = KMSG_CLOCK_MONO;
		}
	} else if (kmsg_field(line, len, "__MONOTONIC_TIMESTAMP", &v, &vlen)) {
		x = kmsg_field_num(v, vlen);
		if (x >= 0 && ex->clock != KMSG_CLOCK_MONO) {
			ex->t = (double)x / 1e6;
			ex->clock = KMSG_CLOCK_MONO;
		}
	} else if (kmsg_field(line, len, "__REALTIME_TIMESTAMP", &v, &vlen)) {
		x = kmsg_field_num(v, vlen);
		if (x >= 0) {
			ex->real = (double)x / 1e6;
			ex->has_real = true;
		}
	} else if (kmsg_field(line, len, "PRIORITY", &v, &vlen)) {
		x = kmsg_field_num(v, vlen);
		if (x >= 0 && x <= 7)
			ex->level = (int)x;
	} else if (kmsg_field(line, len, "SYSLOG_FACILITY", &v, &vlen)) {
		x = kmsg_field_num(v, vlen);
		if (x >= 0 && x < 128)
			ex->facility = (int)x;
	} else if (kmsg_field(line, len, "_TRANSPORT", &v, &vlen)) {
		ex->not_kernel = !(vlen == 6 && !memcmp(v, "kernel", 6));
	} else if (kmsg_field(line, len, "_BOOT_ID", &v, &vlen)) {
		util_copy(ex->boot_id, sizeof(ex->boot_id), v, vlen);
	} else if (kmsg_field(line, len, "_HOSTNAME", &v, &vlen)) {
		util_copy(ex->host, sizeof(ex->host), v, vlen);
	}
	return 0;
}

/* --- journalctl -o json -------------------------------------------------- */

static const char *kmsg_json_str(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* A journal number (a decimal string); -1 if none or not one. */
static long long kmsg_json_num(struct json_object *o, const char *key)
{
	const char *s = kmsg_json_str(o, key);

	return s ? kmsg_field_num(s, strlen(s)) : -1;
}

/* MESSAGE as a string, or as the array of bytes journalctl uses for binary */
static size_t kmsg_json_message(struct json_object *o, char *buf)
{
	struct json_object *v;
	size_t i, n;

	if (!json_object_object_get_ex(o, "MESSAGE", &v))
		return (size_t)-1;
	if (json_object_is_type(v, json_type_string)) {
		n = (size_t)json_object_get_string_len(v);
		if (n > KMSG_MSG_MAX)
			n = KMSG_MSG_MAX;
		memcpy(buf, json_object_get_string(v), n);
		return n;
	}
	if (!json_object_is_type(v, json_type_array))
		return (size_t)-1;
	n = json_object_array_length(v);
	if (n > KMSG_MSG_MAX)
		n = KMSG_MSG_MAX;
	for (i = 0; i < n; i++) {
		int64_t b = json_object_get_int64(
			json_object_array_get_idx(v, i));

		buf[i] = b > 0 && b < 256 ? (char)b : '?';
	}
	return n;
}

int kmsg_parse_json(const char *line, size_t len, struct kmsg_record *rec,
		    char *buf, char *hostbuf, char *boot_id)
{
	struct kmsg_record r = {
		.facility = -1, .level = -1, .seq = -1,
		.clock = KMSG_CLOCK_NONE, .wall_clock = KMSG_CLOCK_NONE,
		.format = KMSG_FMT_JSON,
	};
	struct json_tokener *tok;
	struct json_object *o;
	const char *s;
	long long x;
	size_t n;
	int ret = 0;

	boot_id[0] = '\0';
	if (len > KMSG_LINE_MAX || (int)len < 0)
		return -EINVAL;
	tok = json_tokener_new();
	if (!tok)
		return -ENOMEM;
	o = json_tokener_parse_ex(tok, line, (int)len);
	if (!o || !json_object_is_type(o, json_type_object)) {
		ret = -EINVAL;
		goto out;
	}
	s = kmsg_json_str(o, "_TRANSPORT");
	if (!s || strcmp(s, "kernel")) {
		ret = KMSG_NOT_KERNEL;
		goto out;
	}
	n = kmsg_json_message(o, buf);
	if (n == (size_t)-1 || memchr(buf, '\0', n)) {
		ret = -EINVAL;
		goto out;
	}
	r.msg = buf;
	r.msg_len = n;
	x = kmsg_json_num(o, "_SOURCE_MONOTONIC_TIMESTAMP");
	if (x < 0)
		x = kmsg_json_num(o, "__MONOTONIC_TIMESTAMP");
	if (x >= 0)
		kmsg_set_mono(&r, (double)x / 1e6);
	x = kmsg_json_num(o, "__REALTIME_TIMESTAMP");
	if (x >= 0)
		kmsg_set_wall(&r, (double)x / 1e6, true);
	x = kmsg_json_num(o, "PRIORITY");
	if (x >= 0 && x <= 7)
		r.level = (int)x;
	x = kmsg_json_num(o, "SYSLOG_FACILITY");
	if (x >= 0 && x < 128)
		r.facility = (int)x;
	s = kmsg_json_str(o, "_HOSTNAME");
	if (s) {
		util_copy(hostbuf, 64, s, strlen(s));
		r.host = hostbuf;
		r.host_len = strlen(hostbuf);
	}
	s = kmsg_json_str(o, "_BOOT_ID");
	if (s)
		util_copy(boot_id, 40, s, strlen(s));
	if (r.has_mono) {
		r.t = r.mono;
		r.clock = KMSG_CLOCK_MONO;
	} else if (r.wall_clock != KMSG_CLOCK_NONE) {
		r.t = r.wall;
		r.clock = r.wall_clock;
	}
	*rec = r;
out:
	json_object_put(o);
	json_tokener_free(tok);
	return ret;
}

/* --- a whole input ------------------------------------------------------- */

struct kmsg_item {
	struct kmsg_record rec;
	char msg[KMSG_MSG_MAX];
	char host[64];
	size_t phys_len;		/* of the line it came from */
	bool ends_space;		/* that line ended in white space */
};

#define KMSG_POOL	(2 * KMSG_STREAM_WINDOW + 4)

struct kmsg_stream {
	struct kmsg_export ex;
	bool in_export;
	char line[KMSG_LINE_MAX + 1];	/* the current line, normalised */
	char jmsg[KMSG_MSG_MAX], jhost[64], jboot[40];	/* json scratch */
	char boot_id[40];		/* of the current boot, if known */
	unsigned int file;
	unsigned long lineno;
	bool in_fence;
	bool boot_pending;		/* a "-- Boot ... --" line came */
	bool seen_any;			/* a message came before */
	double max_mono;		/* in this boot */
	bool have_mono;
	double rel_wall;		/* dmesg -H: the running wall clock */
	bool rel_valid;
	bool in_verbose;		/* journalctl -o verbose: an entry */
	/* journalctl -o json-pretty: the lines of one entry, joined */
	char *pretty;
	size_t pretty_len;
	bool in_pretty, pretty_bad;
	/* journalctl -o short-monotonic: its host, and whether it had one */
	char mono_host[64];
	bool mono_seen;
	/* items: a pool, the pending one, the window and the ready queue */
	struct kmsg_item pool[KMSG_POOL];
	int free_list[KMSG_POOL];
	int nfree;
	int pending;			/* -1 if none */
	int win[KMSG_STREAM_WINDOW];	/* sorted by mono */
	int nwin;
	int ready[KMSG_POOL];
	int ready_head, nready;
	int current;			/* handed out by _next(), or -1 */
	struct kmsg_stream_stats st;
};

struct kmsg_stream *kmsg_stream_new(void)
{
	struct kmsg_stream *s = calloc(1, sizeof(*s));
	int i;

	if (!s)
		return NULL;
	kmsg_export_init(&s->ex);
	for (i = 0; i < KMSG_POOL; i++)
		s->free_list[i] = KMSG_POOL - 1 - i;
	s->nfree = KMSG_POOL;
	s->pending = -1;
	s->current = -1;
	return s;
}

void kmsg_stream_free(struct kmsg_stream *s)
{
	if (s)
		free(s->pretty);
	free(s);
}

const struct kmsg_stream_stats *kmsg_stream_stats(const struct kmsg_stream *s)
{
	return &s->st;
}

static void kmsg_stream_put_ready(struct kmsg_stream *s, int idx)
{
	s->ready[(s->ready_head + s->nready) % KMSG_POOL] = idx;
	s->nready++;
}

static void kmsg_stream_flush_window(struct kmsg_stream *s)
{
	int i;

	for (i = 0; i < s->nwin; i++)
		kmsg_stream_put_ready(s, s->win[i]);
	s->nwin = 0;
}

/* The pending message goes into the window (or out, without a stamp). */
static void kmsg_stream_commit(struct kmsg_stream *s)
{
	struct kmsg_item *it;
	int idx = s->pending, i;

	if (idx < 0)
		return;
	s->pending = -1;
	it = &s->pool[idx];
	if (!it->rec.has_mono) {
		kmsg_stream_flush_window(s);
		kmsg_stream_put_ready(s, idx);
		return;
	}
	if (s->nwin == KMSG_STREAM_WINDOW) {
		kmsg_stream_put_ready(s, s->win[0]);
		memmove(&s->win[0], &s->win[1], sizeof(s->win[0]) * --s->nwin);
	}
	/* stable: after every message of the same or an earlier time */
	for (i = s->nwin; i > 0 && s->pool[s->win[i - 1]].rec.mono >
	     it->rec.mono; i--)
		;
	memmove(&s->win[i + 1], &s->win[i], sizeof(s->win[0]) *
		(size_t)(s->nwin - i));
	s->win[i] = idx;
	s->nwin++;
}

static int kmsg_stream_alloc(struct kmsg_stream *s)
{
	if (!s->nfree)
		return -1;	/* cannot happen: the pool covers every list */
	return s->free_list[--s->nfree];
}

void kmsg_stream_file(struct kmsg_stream *s, unsigned int file)
{
	kmsg_stream_commit(s);
	s->file = file;
	s->lineno = 0;
	s->in_fence = false;
	if (s->in_export || s->ex.any)
		kmsg_export_init(&s->ex);
	s->in_export = false;
}

/*
 * A new message: into the pending slot (the previous one is committed),
 * with its boot boundary decided.
 */
static void kmsg_stream_add(struct kmsg_stream *s,
			    const struct kmsg_record *rec, size_t phys_len,
			    const char *boot_id)
{
	struct kmsg_item *it;
	bool boot = s->boot_pending;
	size_t n;
	int idx;

	kmsg_stream_commit(s);
	if (boot_id && boot_id[0]) {
		if (s->boot_id[0] && strcmp(s->boot_id, boot_id))
			boot = true;
		util_copy(s->boot_id, sizeof(s->boot_id), boot_id,
			  strlen(boot_id));
	}
	if (rec->has_mono && s->have_mono && rec->mono + 5.0 < s->max_mono)
		boot = true;	/* time went back: a reboot */
	if (rec->msg_len >= 14 && !memcmp(rec->msg, "Linux version ", 14))
		boot = true;
	if (boot && !s->seen_any)
		boot = false;	/* the first boot of the input */
	s->boot_pending = false;
	if (boot) {
		kmsg_stream_flush_window(s);
		s->st.boots++;
		s->have_mono = false;
		s->rel_valid = false;
	}
	if (rec->has_mono && (!s->have_mono || rec->mono > s->max_mono)) {
		s->max_mono = rec->mono;
		s->have_mono = true;
	}
	idx = kmsg_stream_alloc(s);
	if (idx < 0)
		return;
	it = &s->pool[idx];
	it->rec = *rec;
	n = rec->msg_len < KMSG_MSG_MAX ? rec->msg_len : KMSG_MSG_MAX;
	memcpy(it->msg, rec->msg, n);
	it->rec.msg = it->msg;
	it->rec.msg_len = n;
	if (rec->host) {
		util_copy(it->host, sizeof(it->host), rec->host,
			  rec->host_len);
		it->rec.host = it->host;
		it->rec.host_len = strlen(it->host);
	}
	it->rec.new_boot = boot;
	it->rec.joined = false;
	it->rec.file = s->file;
	it->rec.lineno = s->lineno;
	it->phys_len = phys_len;
	s->pending = idx;
	s->seen_any = true;
	s->st.kernel++;
	if (rec->format != KMSG_FMT_PLAIN)
		s->st.stamped++;
	s->st.forms[rec->format]++;
}

/* --- normalising and unwrapping a pasted line --------------------------- */

/*
 * Copy line into s->line with what browsers, terminals and web pages add
 * taken out: Unicode spaces become ' ', zero-width characters and ANSI
 * colour sequences go, the five HTML entities are decoded.  Returns the
 * new length.
 */
static size_t kmsg_normalise(struct kmsg_stream *s, const char *in,
			     size_t len)
{
	static const struct {
		const char *ent;
		char c;
	} ents[] = {
		{ "&nbsp;", ' ' }, { "&lt;", '<' }, { "&gt;", '>' },
		{ "&amp;", '&' }, { "&quot;", '"' }, { "&#39;", '\'' },
	};
	/* the first bytes of what is changed; the rest is copied in runs */
	static const bool first[256] = {
		[0xc2] = true, [0xe2] = true, [0xe3] = true, [0xef] = true,
		[0x1b] = true, ['&'] = true,
	};
	const unsigned char *p = (const unsigned char *)in;
	const unsigned char *end = p + len;
	char *o = s->line;
	size_t i;

	while (p < end) {
		const unsigned char *q = p;
		unsigned char c;

		/* eight bytes at a time: none above 0x7f, ESC or '&' */
		while (end - q >= 8) {
			const uint64_t ones = 0x0101010101010101ull;
			uint64_t x, e, a;

			memcpy(&x, q, 8);
			e = x ^ (ones * 0x1b);
			a = x ^ (ones * '&');
			if ((x | ((e - ones) & ~e) | ((a - ones) & ~a)) &
			    (ones << 7))
				break;
			q += 8;
		}
		while (q < end && !first[*q])
			q++;
		memcpy(o, p, (size_t)(q - p));
		o += q - p;
		p = q;
		if (p == end)
			break;
		c = *p;
		if (c == 0xc2 && end - p >= 2 && p[1] == 0xa0) {
			*o++ = ' ';		/* U+00A0 NO-BREAK SPACE */
			p += 2;
		} else if (c == 0xe2 && end - p >= 3 && p[1] == 0x80 &&
			   (p[2] <= 0x8a || p[2] == 0xaf)) {
			*o++ = ' ';		/* U+2000-200A, U+202F */
			p += 3;
		} else if (c == 0xe2 && end - p >= 3 && p[1] == 0x80 &&
			   (p[2] >= 0x8b && p[2] <= 0x8d)) {
			p += 3;			/* U+200B-200D zero width */
		} else if (c == 0xe2 && end - p >= 3 && p[1] == 0x81 &&
			   (p[2] == 0x9f || p[2] == 0xa0)) {
			*o++ = p[2] == 0x9f ? ' ' : '\0';
			if (p[2] == 0xa0)
				o--;		/* U+2060 WORD JOINER */
			p += 3;			/* U+205F */
		} else if (c == 0xe3 && end - p >= 3 && p[1] == 0x80 &&
			   p[2] == 0x80) {
			*o++ = ' ';		/* U+3000 IDEOGRAPHIC SPACE */
			p += 3;
		} else if (c == 0xef && end - p >= 3 && p[1] == 0xbb &&
			   p[2] == 0xbf) {
			p += 3;			/* U+FEFF BOM */
		} else if (c == 0x1b && end - p >= 2 && p[1] == '[') {
			p += 2;			/* ESC [ ... final byte */
			while (p < end && !(*p >= 0x40 && *p <= 0x7e))
				p++;
			if (p < end)
				p++;
		} else if (c == '&' && end - p >= 4) {
			for (i = 0; i < sizeof(ents) / sizeof(ents[0]); i++) {
				size_t n = strlen(ents[i].ent);

				if ((size_t)(end - p) >= n &&
				    !memcmp(p, ents[i].ent, n)) {
					*o++ = ents[i].c;
					p += n;
					break;
				}
			}
			if (i == sizeof(ents) / sizeof(ents[0]))
				*o++ = (char)*p++;
		} else {
			*o++ = (char)*p++;
		}
	}
	while (o > s->line && (o[-1] == '\n' || o[-1] == '\r'))
		o--;
	*o = '\0';
	return (size_t)(o - s->line);
}

/* Markdown fences: ``` or ~~~, with a language after them */
static bool kmsg_is_fence(const char *p, size_t len)
{
	return len >= 3 && (!memcmp(p, "```", 3) || !memcmp(p, "~~~", 3));
}

/* A prompt or a command, as people paste above their logs */
static bool kmsg_is_prompt(const char *p, size_t len)
{
	if (len >= 2 && (p[0] == '$' || p[0] == '#') && p[1] == ' ')
		return true;
	return memmem(p, len, "$ ", 2) && memchr(p, '@', len) &&
	       memchr(p, ':', len);
}

/* A /dev/kmsg dictionary line or journalctl -o verbose field: KEY=value */
static bool kmsg_is_dict(const char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len && i < 64; i++) {
		if (p[i] == '=')
			return i > 0;
		if (!((p[i] >= 'A' && p[i] <= 'Z') || kmsg_is_digit(p[i]) ||
		      p[i] == '_'))
			return false;
	}
	return false;
}

static bool kmsg_stamped(int ret, const struct kmsg_record *r)
{
	return !ret && r->format != KMSG_FMT_PLAIN;
}

/*
 * What grep -n, grep -H, cat -n and nl put before a line: "123:",
 * "kern.log:", "/var/log/syslog:123:", "     1\t".  Taken off only when a
 * stamped line follows, so "usb 2-1: ..." is never cut.  Returns the
 * offset of the line proper, 0 if there is no such prefix.
 */
static size_t kmsg_line_prefix(const char *p, size_t len)
{
	struct kmsg_record r;
	double d;
	size_t i = 0, j;

	/* one stray character before a stamp (a console's, a paste's) */
	if (len > 2 && p[0] != '[' && p[1] == '[' &&
	    kmsg_stamped(kmsg_parse_one(p + 1, len - 1, &r, &d), &r))
		return 1;
	/* a damaged syslog prefix: "....info kernel: [ 1.2] ..." */
	for (j = 0; j + 9 < len && j < 64; j++)
		if (!memcmp(p + j, "kernel: [", 9) &&
		    kmsg_stamped(kmsg_parse_one(p + j + 8, len - j - 8, &r, &d),
				 &r))
			return j + 8;
	/* cat -n, nl: digits then a tab; grep -n: digits then ':' or '-' */
	while (i < len && kmsg_is_digit(p[i]))
		i++;
	if (i && i < len && (p[i] == '\t' || p[i] == ':' || p[i] == '-' ||
			     p[i] == ' ' || p[i] == '|')) {
		j = i + 1;
		while (j < len && kmsg_is_space(p[j]))
			j++;
		if (j < len &&
		    kmsg_stamped(kmsg_parse_one(p + j, len - j, &r, &d), &r))
			return j;
	}
	/* grep -H: a path without spaces, ':', maybe a line number and ':' */
	for (i = 0; i < len && i < 256 && p[i] != ':'; i++)
		if (kmsg_is_space(p[i]))
			return 0;
	if (!i || i >= len || i >= 256)
		return 0;
	j = i + 1;
	if (j < len && kmsg_is_digit(p[j])) {
		size_t k = j;

		while (k < len && kmsg_is_digit(p[k]))
			k++;
		if (k < len && (p[k] == ':' || p[k] == '-'))
			j = k + 1;
	}
	if (j < len && kmsg_stamped(kmsg_parse_one(p + j, len - j, &r, &d), &r))
		return j;
	return 0;
}

/*
 * A line of no form, in a log whose lines have stamps: the rest of the
 * line above, broken by a browser or mail client?  Only short pieces after
 * long lines, not indented, not prompts.
 */
static bool kmsg_stream_joins(const struct kmsg_stream *s, const char *p,
			      size_t len, bool indented)
{
	const struct kmsg_item *it;

	if (s->pending < 0 || indented || !len || len > 100 ||
	    s->st.stamped == 0 || kmsg_is_prompt(p, len))
		return false;
	/* "Then it hung." is the user's own sentence */
	if (len > 1 && p[0] >= 'A' && p[0] <= 'Z' && p[1] >= 'a' && p[1] <= 'z')
		return false;
	it = &s->pool[s->pending];
	return it->phys_len >= 60 && it->rec.format != KMSG_FMT_PLAIN &&
	       it->rec.lineno == s->lineno - 1;
}

/*
 * A mail client fills lines to 70 to 78 columns and breaks at a space,
 * which it may drop: the line above is at most 78 long, and the piece's
 * first word would not have fitted on it within 70.  A browser or
 * terminal breaks mid-word wherever its width ends ("no" + "t present"
 * at 60): the fragment would have fitted.  Then a space between them.
 */
#define KMSG_MAIL_WRAP_MAX	78
#define KMSG_MAIL_WRAP_MIN	70

static bool kmsg_mail_wrap(const struct kmsg_item *it, const char *p,
			   size_t len)
{
	size_t word = 0;
	char last;

	if (it->phys_len > KMSG_MAIL_WRAP_MAX || !it->rec.msg_len || !len)
		return false;
	while (word < len && !kmsg_is_space(p[word]))
		word++;
	if (it->phys_len + 1 + word <= KMSG_MAIL_WRAP_MIN)
		return false;
	last = it->msg[it->rec.msg_len - 1];
	return last != '-' && last != '/' && last != '(' && last != '[' &&
	       !kmsg_is_space(last) && !kmsg_is_space(p[0]);
}

static void kmsg_stream_join(struct kmsg_stream *s, const char *p,
			     size_t len, size_t width, bool ends_space)
{
	struct kmsg_item *it = &s->pool[s->pending];
	size_t room = KMSG_MSG_MAX - it->rec.msg_len;

	/*
	 * A hard wrap at a column cuts words ("disable" + "d ep"): join as
	 * is.  A mail client breaks at a space, which the line above kept
	 * or kmsg_mail_wrap() finds it dropped.
	 */
	if ((it->ends_space || kmsg_mail_wrap(it, p, len)) && room) {
		it->msg[it->rec.msg_len++] = ' ';
		room--;
	}
	it->ends_space = ends_space;
	if (len > room)
		len = room;
	memcpy(it->msg + it->rec.msg_len, p, len);
	it->rec.msg_len += len;
	it->rec.joined = true;
	it->phys_len = width;
	s->st.joined++;
}

/* A journal line's own markers: "-- Boot 1a2b... --", "-- Reboot --" */
static bool kmsg_stream_marker(struct kmsg_stream *s, const char *p,
			       size_t len)
{
	if (len < 5 || memcmp(p, "-- ", 3) || memcmp(p + len - 2, "--", 2))
		return false;
	if (!memcmp(p + 3, "Boot ", 5) || !memcmp(p + 3, "Reboot", 6))
		s->boot_pending = true;
	return true;	/* "-- Logs begin at ...", "-- No entries --" */
}

static void kmsg_stream_export(struct kmsg_stream *s, const char *p,
			       size_t len)
{
	struct kmsg_record rec;
	char boot[40], host[64];
	int ret;

	/* the entry's boot id and host, before the blank line resets them */
	util_copy(boot, sizeof(boot), s->ex.boot_id,
		  strlen(s->ex.boot_id));
	util_copy(host, sizeof(host), s->ex.host, strlen(s->ex.host));
	ret = kmsg_export_feed(&s->ex, p, len, &rec);
	if (len) {
		s->in_export = true;
		return;
	}
	s->in_export = false;
	if (ret == KMSG_RECORD) {
		rec.host = host[0] ? host : NULL;
		rec.host_len = strlen(host);
		kmsg_stream_add(s, &rec, 0, boot);
	} else if (ret < 0) {
		s->st.malformed++;
	} else {
		s->st.other++;
	}
}

/* A field that starts an export entry (not a lone "ASC=0x11" line) */
static bool kmsg_export_starts(const char *p, size_t len)
{
	return kmsg_export_is_field(p, len) &&
	       (p[0] == '_' || !strncmp(p, "MESSAGE=", 8) ||
		!strncmp(p, "PRIORITY=", 9) || !strncmp(p, "SYSLOG_", 7));
}

/*
 * journalctl -o short-monotonic and short-delta write every program's
 * line as "[  9.801770] host systemd[1]: msg": once the input has shown
 * its "host kernel:" lines, such a line is not the kernel's.  Without a
 * host ("[  9.8] systemd[1]: msg") only a tag with a pid says so:
 * "usbcore: registered ..." is the kernel's.
 */
static bool kmsg_stream_other_mono(struct kmsg_stream *s,
				   const struct kmsg_record *r)
{
	const char *m = r->msg, *end = r->msg + r->msg_len, *q;
	size_t hl = strlen(s->mono_host);

	if (r->format == KMSG_FMT_JOURNAL_MONO) {
		s->mono_seen = true;
		if (r->host)
			util_copy(s->mono_host, sizeof(s->mono_host),
				  r->host, r->host_len);
		return false;
	}
	if (!s->mono_seen || (r->format != KMSG_FMT_DMESG &&
			      r->format != KMSG_FMT_DMESG_DELTA))
		return false;
	if (hl && r->msg_len > hl && !memcmp(m, s->mono_host, hl) &&
	    m[hl] == ' ')
		return kmsg_is_tag(m + hl + 1, end);
	if (!kmsg_is_tag(m, end))
		return false;
	q = memchr(m, '[', r->msg_len);
	return q && q + 1 < end && kmsg_is_digit(q[1]);
}

static void kmsg_stream_json(struct kmsg_stream *s, const char *p, size_t n)
{
	struct kmsg_record rec;
	int ret;

	ret = kmsg_parse_json(p, n, &rec, s->jmsg, s->jhost, s->jboot);
	if (!ret)
		kmsg_stream_add(s, &rec, n, s->jboot);
	else if (ret == KMSG_NOT_KERNEL)
		s->st.other++;
	else
		s->st.malformed++;
}

/*
 * journalctl -o json-pretty: "{" alone, a field a line, "}" alone; the
 * lines are joined without their indentation and read as -o json.  An
 * entry longer than KMSG_LINE_MAX is malformed.  True if p was one of
 * its lines.
 */
static bool kmsg_stream_pretty(struct kmsg_stream *s, const char *p,
			       size_t n)
{
	while (n && (p[n - 1] == '\n' || p[n - 1] == '\r'))
		n--;
	if (!s->in_pretty) {
		if (n != 1 || p[0] != '{')
			return false;
		if (!s->pretty) {
			s->pretty = malloc(KMSG_LINE_MAX);
			if (!s->pretty)
				return false;
		}
		s->in_pretty = true;
		s->pretty_bad = false;
		s->pretty_len = 0;
	}
	if (n == 1 && p[0] == '}') {
		s->in_pretty = false;
		if (s->pretty_bad || s->pretty_len + 1 > KMSG_LINE_MAX) {
			s->st.malformed++;
			return true;
		}
		s->pretty[s->pretty_len++] = '}';
		kmsg_stream_json(s, s->pretty, s->pretty_len);
		return true;
	}
	while (n && (*p == ' ' || *p == '\t'))
		p++, n--;
	if (s->pretty_len + n + 1 > KMSG_LINE_MAX)
		s->pretty_bad = true;
	else {
		memcpy(s->pretty + s->pretty_len, p, n);
		s->pretty_len += n;
	}
	return true;
}

/* "[s=...;i=...;b=BOOT;m=MONO;t=REAL;x=...]": the field key= of it */
static bool kmsg_verbose_key(const char *p, const char *end, const char *key,
			     const char **v, size_t *vlen)
{
	size_t kl = strlen(key);

	while (p < end) {
		const char *e = p;

		while (e < end && *e != ';' && *e != ']')
			e++;
		if ((size_t)(e - p) > kl && !memcmp(p, key, kl)) {
			*v = p + kl;
			*vlen = (size_t)(e - p) - kl;
			return true;
		}
		p = e + 1;
	}
	return false;
}

/*
 * journalctl -o verbose: a header "Tue 2026-12-01 10:00:00.123456 UTC
 * [s=...;i=...;b=BOOT;m=MONO;t=REAL;x=...]" and the entry's fields, one
 * an indented line: read as an export entry, the header's boot id and
 * times as its fields.  True if p was one of its lines.
 */
static bool kmsg_stream_verbose(struct kmsg_stream *s, const char *p,
				size_t n)
{
	static const char *const keys[][2] = {
		{ "b=", "_BOOT_ID=" },
		{ "m=", "__MONOTONIC_TIMESTAMP=" },
		{ "t=", "__REALTIME_TIMESTAMP=" },
	};
	const char *end, *b;
	char field[96];
	unsigned int i;

	while (n && (p[n - 1] == '\n' || p[n - 1] == '\r'))
		n--;
	end = p + n;
	b = n > 30 && p[n - 1] == ']' && p[3] == ' ' &&
	    kmsg_wday(p, end) >= 0 && kmsg_looks_iso(p + 4, n - 4) ?
	    memmem(p, n, " [s=", 4) : NULL;
	if (s->in_verbose && !b && n && (p[0] == ' ' || p[0] == '\t')) {
		while (n && (*p == ' ' || *p == '\t'))
			p++, n--;
		kmsg_stream_export(s, p, n);
		s->in_export = false;
		return true;
	}
	if (s->in_verbose) {
		s->in_verbose = false;
		kmsg_stream_export(s, "", 0);	/* the entry's end */
	}
	if (!b)
		return false;
	s->in_verbose = true;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *v;
		size_t vlen;
		int len;

		if (!kmsg_verbose_key(b + 4, end, keys[i][0], &v, &vlen) ||
		    vlen > 32)
			continue;
		if (i == 0) {
			len = snprintf(field, sizeof(field), "%s%.*s",
				       keys[i][1], (int)vlen, v);
		} else {
			char hex[40];
			unsigned long long x;
			char *e;

			memcpy(hex, v, vlen);
			hex[vlen] = '\0';
			errno = 0;
			x = strtoull(hex, &e, 16);
			if (errno || *e || e == hex)
				continue;
			len = snprintf(field, sizeof(field), "%s%llu",
				       keys[i][1], x);
		}
		kmsg_stream_export(s, field, (size_t)len);
		s->in_export = false;
	}
	return true;
}

/*
 * The lines of a framing rather than of the log: one too long, the
 * journal's verbose and export forms, pretty-printed JSON.  True when @in
 * was one (and is taken).
 */
static bool kmsg_stream_framed(struct kmsg_stream *s, const char *in,
			       size_t len)
{
	size_t n;

	if (len > KMSG_LINE_MAX) {
		s->st.malformed++;
		if (s->in_export)
			s->ex.bad = true;
		return true;
	}
	if ((s->in_verbose || (len > 30 && in[3] == ' ')) &&
	    kmsg_stream_verbose(s, in, len))
		return true;
	/* export entries: fields verbatim, the blank line ends one */
	if (s->in_export || (len && kmsg_export_starts(in, len))) {
		n = len;
		while (n && (in[n - 1] == '\n' || in[n - 1] == '\r'))
			n--;
		if (n && !memchr(in, '=', n) && s->in_export) {
			s->ex.bad = true;	/* a binary field's length */
			return true;
		}
		kmsg_stream_export(s, in, n);
		return true;
	}
	return (s->in_pretty || (len && in[0] == '{')) &&
	       kmsg_stream_pretty(s, in, len);
}

/*
 * The length of a forum's or a page's markup tag at @p (BBCode "[b]",
 * "[COLOR=#ff0000]", "[/color]"; HTML "<span style=...>", "</b>",
 * "<br/>"), or 0.  Only the names of text markup: "[sdb]" and "<6>" are
 * not tags.
 */
static size_t kmsg_markup_tag(const char *p, size_t n)
{
	static const char *const names[] = {
		"b", "i", "u", "s", "color", "colour", "size", "font", "code",
		"icode", "quote", "pre", "tt", "span", "strong", "em", "mark",
		"samp", "kbd", "br", "div", "p", "highlight", "spoiler", "small",
		"big", "sup", "sub", "del", "ins", "strike", "noparse", "plain",
	};
	char close = p[0] == '[' ? ']' : '>';
	size_t i = 1, j, k, len;

	if (n < 3 || (p[0] != '[' && p[0] != '<'))
		return 0;
	if (p[i] == '/')
		i++;
	for (j = i; j < n && j < i + 10 && isalpha((unsigned char)p[j]); j++)
		;
	if (j == i || j >= n)
		return 0;
	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		len = strlen(names[k]);
		if (len == j - i && !strncasecmp(p + i, names[k], len))
			break;
	}
	if (k == sizeof(names) / sizeof(names[0]))
		return 0;
	/* "=value", " attr=...", or "/" of "<br/>", then the close */
	if (p[j] != close && p[j] != '=' && p[j] != ' ' && p[j] != '/')
		return 0;
	while (j < n && j < 200 && p[j] != close)
		j++;
	return j < n && p[j] == close ? j + 1 : 0;
}

/* The markup tags around a line taken off */
static void kmsg_unmarkup(const char **p, size_t *n)
{
	const char *q = *p;
	size_t m = *n, t, i;

	while (m && (t = kmsg_markup_tag(q, m)) > 0) {
		q += t;
		m -= t;
		while (m && kmsg_is_space(*q))
			q++, m--;
	}
	/* closing tags at the end: from the last '[' or '<' back */
	for (;;) {
		while (m && kmsg_is_space(q[m - 1]))
			m--;
		if (!m || (q[m - 1] != ']' && q[m - 1] != '>'))
			break;
		for (i = m - 1; i > 0 && q[i] != (q[m - 1] == ']' ? '[' : '<');
		     i--)
			;
		if (q[i] != (q[m - 1] == ']' ? '[' : '<') ||
		    kmsg_markup_tag(q + i, m - i) != m - i ||
		    (q[i + 1] != '/' && strncasecmp(q + i + 1, "br", 2)))
			break;
		m = i;
	}
	*p = q;
	*n = m;
}

/*
 * What a line was quoted in taken off *@p, *@n: indentation (*@indented),
 * "> " quotes, `inline code`, a diff's '+', Markdown's **bold**, trailing
 * blanks (*@ends_space says there were some).
 */
static void kmsg_stream_unquote(const char **p, size_t *n, bool *indented,
				bool *ends_space)
{
	const char *q = *p;
	size_t m = *n;

	/* indentation, "> " quotes, more indentation, `inline code` */
	while (m && (kmsg_is_space(*q) || *q == '>' || *q == '`')) {
		if (*q == '`' && m >= 3 && !memcmp(q, "```", 3))
			break;		/* a fence */
		/* the blank after a quote's '>' is the quote's */
		if (kmsg_is_space(*q) && !(q > *p && q[-1] == '>'))
			*indented = true;
		q++;
		m--;
	}
	kmsg_unmarkup(&q, &m);
	/* "+[  12.3] ..." or "> +xhci_hcd ...": a diff's added line */
	if (m > 1 && *q == '+' && (q[1] == '[' || (q[1] >= 'a' && q[1] <= 'z') ||
				   (q[1] >= 'A' && q[1] <= 'Z'))) {
		q++;
		m--;
	}
	/* "**[    5.934288] hub ...**": Markdown's bold around a line */
	if (m > 4 && !memcmp(q, "**", 2) && q[2] == '[') {
		q += 2;
		m -= 2;
		if (m > 2 && !memcmp(q + m - 2, "**", 2))
			m -= 2;
	}
	*ends_space = m && kmsg_is_space(q[m - 1]);
	while (m && (q[m - 1] == '`' || kmsg_is_space(q[m - 1])))
		m--;
	*p = q;
	*n = m;
}

/*
 * Lines that are not log lines but say something of the input: empty, a
 * code fence, JSON (taken), a marker, a /dev/kmsg or journalctl verbose
 * dictionary.  True when @p was one.
 */
static bool kmsg_stream_aside(struct kmsg_stream *s, const char *p, size_t n,
			      bool indented)
{
	if (!n) {
		s->st.other++;
		return true;
	}
	if (kmsg_is_fence(p, n)) {
		s->in_fence = !s->in_fence;
		s->st.other++;
		return true;
	}
	if (p[0] == '{' || (n > 1 && p[0] == 0x1e && p[1] == '{') ||
	    (n > 6 && !memcmp(p, "data: {", 7))) {
		while (*p != '{')
			p++, n--;
		kmsg_stream_json(s, p, n);
		return true;
	}
	if (kmsg_stream_marker(s, p, n)) {
		s->st.other++;
		return true;
	}
	if (indented && kmsg_is_dict(p, n)) {
		s->st.other++;	/* /dev/kmsg dictionary, journalctl verbose */
		return true;
	}
	return false;
}

/* A line that may be the kernel's: parsed, and added or joined. */
static void kmsg_stream_log(struct kmsg_stream *s, const char *p, size_t n,
			    size_t width, bool indented, bool ends_space)
{
	struct kmsg_record rec;
	double delta;
	size_t pre;
	int ret;

	ret = kmsg_parse_one(p, n, &rec, &delta);
	if (!ret && rec.format == KMSG_FMT_PLAIN) {
		pre = kmsg_line_prefix(p, n);
		if (pre) {
			p += pre;
			n -= pre;
			ret = kmsg_parse_one(p, n, &rec, &delta);
		}
	}
	if (ret == KMSG_NOT_KERNEL) {
		s->st.other++;
		return;
	}
	if (ret < 0) {
		s->st.malformed++;
		return;
	}
	if (kmsg_stream_other_mono(s, &rec)) {
		s->st.other++;
		return;
	}
	if (rec.format == KMSG_FMT_PLAIN && s->st.stamped) {
		if (kmsg_stream_joins(s, p, n, indented))
			kmsg_stream_join(s, p, n, width, ends_space);
		else
			s->st.other++;	/* prose between stamped lines */
		return;
	}
	/*
	 * dmesg -H: "[Nov29 23:10]" sets the clock, "[  +0.1]" moves it.
	 * dmesg prints the minute instead of the delta whenever the minute
	 * changes (util-linux's print_record()), so a stamp says only that
	 * the line lies in that minute, and the clock run from the stamp
	 * before lags by up to a minute.  Where the clock is within a minute
	 * of the stamp, keep it (a lost delta of 0): setting it to the stamp
	 * would put this line and the ones after it up to a minute away
	 * from the line before, and split one reset into two incidents.
	 */
	if (rec.format == KMSG_FMT_DMESG_REL) {
		if (delta < 0 && s->rel_valid &&
		    s->rel_wall >= rec.wall - KMSG_REL_STAMP_SPAN &&
		    s->rel_wall < rec.wall + KMSG_REL_STAMP_SPAN)
			delta = 0;
		if (delta < 0) {
			s->rel_wall = rec.wall;
			s->rel_valid = true;
		} else if (s->rel_valid) {
			s->rel_wall += delta;
			rec.wall = s->rel_wall;
			rec.wall_clock = KMSG_CLOCK_WALL;
			rec.t = rec.wall;
			rec.clock = KMSG_CLOCK_WALL;
		}
	}
	kmsg_stream_add(s, &rec, width, NULL);
	if (s->pending >= 0)
		s->pool[s->pending].ends_space = ends_space;
}

void kmsg_stream_feed(struct kmsg_stream *s, const char *in, size_t len)
{
	bool indented = false, ends_space = false;
	const char *p;
	size_t n, width;

	s->lineno++;
	s->st.lines++;
	if (kmsg_stream_framed(s, in, len))
		return;
	n = kmsg_normalise(s, in, len);
	p = s->line;
	kmsg_stream_unquote(&p, &n, &indented, &ends_space);
	if (kmsg_stream_aside(s, p, n, indented))
		return;
	/* the width as pasted, "> " quotes and all: where a mailer wrapped */
	width = (size_t)(p - s->line) + n;
	kmsg_stream_log(s, p, n, width, indented, ends_space);
}

void kmsg_stream_end(struct kmsg_stream *s)
{
	if (s->in_pretty) {
		s->in_pretty = false;
		s->st.malformed++;	/* an entry cut short */
	}
	s->in_verbose = false;
	if (s->in_export || s->ex.any)
		kmsg_stream_export(s, "", 0);
	kmsg_stream_commit(s);
	kmsg_stream_flush_window(s);
}

int kmsg_stream_next(struct kmsg_stream *s, struct kmsg_record *rec)
{
	int idx;

	if (s->current >= 0) {
		s->free_list[s->nfree++] = s->current;
		s->current = -1;
	}
	if (!s->nready)
		return 0;
	idx = s->ready[s->ready_head];
	s->ready_head = (s->ready_head + 1) % KMSG_POOL;
	s->nready--;
	s->current = idx;
	*rec = s->pool[idx].rec;
	return 1;
}
