// SPDX-License-Identifier: GPL-2.0-only
/*
 * kmsg.c - parse one kernel log line, in any of the forms people paste into
 * bug reports, into a struct kmsg_record.
 *
 * Forms: dmesg ("[ 1234.567890] msg"), dmesg -T ("[Sun Nov 29 23:10:27
 * 2026] msg"), syslog and journalctl -k short ("Nov 29 23:10:27 host
 * kernel: [  12.3] msg", the bracket optional; also RFC 3339 stamps as
 * rsyslog writes them), /dev/kmsg records ("6,1234,5678901,-;msg", see
 * Documentation/ABI/testing/dev-kmsg) and journalctl -o export entries.
 * Input is bytes that may be anything: every read is bounded by len, and
 * a line that starts like a known form but breaks it is -EINVAL.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kmsg.h"

static const char *const kmsg_months[12] = {
	"Jan", "Feb", "Mar", "Apr", "May", "Jun",
	"Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
};

/* days before each month, non-leap: the year is unknown in syslog stamps */
static const int kmsg_month_days[12] = {
	0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334,
};

static bool kmsg_is_digit(char c)
{
	return c >= '0' && c <= '9';
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

static void kmsg_skip_spaces(const char **p, const char *end)
{
	while (*p < end && **p == ' ')
		(*p)++;
}

static int kmsg_month(const char *p, const char *end)
{
	int i;

	if (end - p < 3)
		return -1;
	for (i = 0; i < 12; i++)
		if (!memcmp(p, kmsg_months[i], 3))
			return i;
	return -1;
}

/* "hh:mm:ss" (with an optional fraction) -> seconds of the day */
static int kmsg_clock_time(const char **p, const char *end, double *sec)
{
	long h, m, s;
	double frac = 0, scale = 0.1;

	h = kmsg_digits(p, end, 2);
	if (h < 0 || h > 23 || !kmsg_expect(p, end, ':'))
		return -EINVAL;
	m = kmsg_digits(p, end, 2);
	if (m < 0 || m > 59 || !kmsg_expect(p, end, ':'))
		return -EINVAL;
	s = kmsg_digits(p, end, 2);
	if (s < 0 || s > 60)
		return -EINVAL;
	if (*p < end && (**p == '.' || **p == ',')) {
		(*p)++;
		while (*p < end && kmsg_is_digit(**p)) {
			frac += (**p - '0') * scale;
			scale /= 10;
			(*p)++;
		}
	}
	*sec = h * 3600.0 + m * 60.0 + s + frac;
	return 0;
}

static double kmsg_wall(int month, long day, double sec)
{
	return (kmsg_month_days[month] + day - 1) * 86400.0 + sec;
}

/* "[ 1234.567890]" at p; p is left after the ']' */
static int kmsg_bracket_mono(const char **p, const char *end, double *t)
{
	const char *q = *p;
	double v = 0, scale = 0.1;
	int n = 0;

	if (!kmsg_expect(&q, end, '['))
		return -EINVAL;
	kmsg_skip_spaces(&q, end);
	while (q < end && kmsg_is_digit(*q) && n < 12) {
		v = v * 10 + (*q - '0');
		q++;
		n++;
	}
	if (!n)
		return -EINVAL;
	if (kmsg_expect(&q, end, '.')) {
		while (q < end && kmsg_is_digit(*q)) {
			v += (*q - '0') * scale;
			scale /= 10;
			q++;
		}
	}
	if (!kmsg_expect(&q, end, ']'))
		return -EINVAL;
	*t = v;
	*p = q;
	return 0;
}

/* dmesg -T: "[Sun Nov 29 23:10:27 2026]" */
static int kmsg_bracket_wall(const char **p, const char *end, double *t)
{
	const char *q = *p;
	double sec;
	long day;
	int month;

	if (!kmsg_expect(&q, end, '[') || end - q < 4 || q[3] != ' ')
		return -EINVAL;
	q += 4;
	month = kmsg_month(q, end);
	if (month < 0)
		return -EINVAL;
	q += 3;
	kmsg_skip_spaces(&q, end);
	day = kmsg_digits(&q, end, 2);
	if (day < 1 || day > 31 || !kmsg_expect(&q, end, ' '))
		return -EINVAL;
	if (kmsg_clock_time(&q, end, &sec) || !kmsg_expect(&q, end, ' ') ||
	    kmsg_digits(&q, end, 4) < 0 || !kmsg_expect(&q, end, ']'))
		return -EINVAL;
	*t = kmsg_wall(month, day, sec);
	*p = q;
	return 0;
}

static void kmsg_set_msg(struct kmsg_record *rec, const char *p,
			 const char *end)
{
	if (p < end && *p == ' ')
		p++;
	rec->msg = p;
	rec->msg_len = (size_t)(end - p);
}

/*
 * journalctl -o short-monotonic: "[  170.483679] host kernel: msg", the
 * host sometimes cut away by whoever pasted it.
 */
static void kmsg_strip_tag(struct kmsg_record *rec)
{
	static const char tag[] = "kernel: ";
	const char *p = rec->msg, *end = rec->msg + rec->msg_len;
	const char *sp = memchr(p, ' ', rec->msg_len);

	if (sp && sp > p && sp[-1] != ':' &&
	    (size_t)(end - sp - 1) >= sizeof(tag) - 1 &&
	    !memcmp(sp + 1, tag, sizeof(tag) - 1))
		p = sp + 1;
	if ((size_t)(end - p) < sizeof(tag) - 1 ||
	    memcmp(p, tag, sizeof(tag) - 1))
		return;
	p += sizeof(tag) - 1;
	rec->msg = p;
	rec->msg_len = (size_t)(end - p);
}

static int kmsg_parse_bracket(const char *p, const char *end,
			      struct kmsg_record *rec)
{
	if (!kmsg_bracket_mono(&p, end, &rec->t)) {
		rec->clock = KMSG_CLOCK_MONO;
		rec->format = KMSG_FMT_DMESG;
	} else if (!kmsg_bracket_wall(&p, end, &rec->t)) {
		rec->clock = KMSG_CLOCK_WALL;
		rec->format = KMSG_FMT_DMESG_T;
	} else {
		return -EINVAL;
	}
	kmsg_set_msg(rec, p, end);
	kmsg_strip_tag(rec);
	return 0;
}

/* PRI,SEQ,USEC,FLAGS[,...];msg */
static int kmsg_parse_devkmsg(const char *p, const char *end,
			      struct kmsg_record *rec)
{
	long long seq = 0, usec = 0;
	long pri;
	int n = 0;

	pri = kmsg_digits(&p, end, 4);
	if (pri < 0 || !kmsg_expect(&p, end, ','))
		return -EINVAL;
	while (p < end && kmsg_is_digit(*p) && n++ < 19)
		seq = seq * 10 + (*p++ - '0');
	if (!n || !kmsg_expect(&p, end, ','))
		return -EINVAL;
	n = 0;
	while (p < end && kmsg_is_digit(*p) && n++ < 19)
		usec = usec * 10 + (*p++ - '0');
	if (!n || !kmsg_expect(&p, end, ','))
		return -EINVAL;
	p = memchr(p, ';', (size_t)(end - p));
	if (!p)
		return -EINVAL;
	rec->msg = p + 1;
	rec->msg_len = (size_t)(end - p - 1);
	rec->level = (int)(pri & 7);
	rec->facility = (int)(pri >> 3);
	rec->seq = seq;
	rec->t = (double)usec / 1e6;
	rec->clock = KMSG_CLOCK_MONO;
	rec->format = KMSG_FMT_KMSG;
	return 0;
}

/* After the stamp: " host kernel: [  12.3] msg" */
static int kmsg_parse_syslog_tail(const char *p, const char *end,
				  struct kmsg_record *rec)
{
	static const char tag[] = "kernel:";
	const char *host;
	double mono;

	if (!kmsg_expect(&p, end, ' '))
		return -EINVAL;
	/* busybox syslogd writes no host name */
	if ((size_t)(end - p) < sizeof(tag) - 1 ||
	    memcmp(p, tag, sizeof(tag) - 1)) {
		host = p;
		while (p < end && *p != ' ')
			p++;
		if (p == host || !kmsg_expect(&p, end, ' '))
			return -EINVAL;
	}
	if ((size_t)(end - p) < sizeof(tag) - 1 ||
	    memcmp(p, tag, sizeof(tag) - 1))
		return KMSG_NOT_KERNEL;
	p += sizeof(tag) - 1;
	kmsg_skip_spaces(&p, end);
	rec->format = KMSG_FMT_SYSLOG;
	if (p < end && *p == '[' && !kmsg_bracket_mono(&p, end, &mono)) {
		/* the printk time is better than the wall clock */
		rec->t = mono;
		rec->clock = KMSG_CLOCK_MONO;
	}
	kmsg_set_msg(rec, p, end);
	return 0;
}

/* "Nov 29 23:10:27" */
static int kmsg_parse_syslog(const char *p, const char *end,
			     struct kmsg_record *rec)
{
	double sec;
	long day;
	int month = kmsg_month(p, end);

	if (month < 0)
		return -EINVAL;
	p += 3;
	kmsg_skip_spaces(&p, end);
	day = kmsg_digits(&p, end, 2);
	if (day < 1 || day > 31 || !kmsg_expect(&p, end, ' ') ||
	    kmsg_clock_time(&p, end, &sec))
		return -EINVAL;
	rec->t = kmsg_wall(month, day, sec);
	rec->clock = KMSG_CLOCK_WALL;
	return kmsg_parse_syslog_tail(p, end, rec);
}

/* RFC 3339, as rsyslog and journalctl -o short-iso write it */
static int kmsg_parse_iso(const char *p, const char *end,
			  struct kmsg_record *rec)
{
	long month, day;
	double sec;

	if (kmsg_digits(&p, end, 4) < 0 || !kmsg_expect(&p, end, '-'))
		return -EINVAL;
	month = kmsg_digits(&p, end, 2);
	if (month < 1 || month > 12 || !kmsg_expect(&p, end, '-'))
		return -EINVAL;
	day = kmsg_digits(&p, end, 2);
	if (day < 1 || day > 31 || !kmsg_expect(&p, end, 'T') ||
	    kmsg_clock_time(&p, end, &sec))
		return -EINVAL;
	/* the zone: Z or +hh:mm / +hhmm; kept as written (local time) */
	if (p < end && *p == 'Z') {
		p++;
	} else if (p < end && (*p == '+' || *p == '-')) {
		p++;
		while (p < end && (kmsg_is_digit(*p) || *p == ':'))
			p++;
	}
	rec->t = kmsg_wall((int)month - 1, day, sec);
	rec->clock = KMSG_CLOCK_WALL;
	return kmsg_parse_syslog_tail(p, end, rec);
}

/*
 * dmesg of kernels without CONFIG_PRINTK_TIME (most 2.6 distributions):
 * no prefix at all.  Taken as a kernel message without a time; the
 * classifier ignores what it does not know.  '#' starts a comment.
 */
static int kmsg_parse_plain(const char *p, const char *end,
			    struct kmsg_record *rec)
{
	/* no kernel line starts so; fixtures and notes do */
	if (*p == '#')
		return KMSG_NOT_KERNEL;
	rec->format = KMSG_FMT_PLAIN;
	rec->clock = KMSG_CLOCK_NONE;
	rec->msg = p;
	rec->msg_len = (size_t)(end - p);
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
	struct kmsg_record r = {
		.facility = -1, .level = -1, .seq = -1,
		.clock = KMSG_CLOCK_NONE,
	};
	const char *end;
	int ret;

	if (!line || len > KMSG_LINE_MAX)
		return -EINVAL;
	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	if (!len || line[0] == ' ' || line[0] == '\t')
		return KMSG_NOT_KERNEL;
	if (memchr(line, '\0', len))
		return -EINVAL;
	end = line + len;

	if (line[0] == '[')
		ret = kmsg_parse_bracket(line, end, &r);
	else if (kmsg_month(line, end) >= 0 && len > 3 && line[3] == ' ')
		ret = kmsg_parse_syslog(line, end, &r);
	else if (len > 4 && kmsg_is_digit(line[0]) && line[4] == '-' &&
		 kmsg_is_digit(line[1]))
		ret = kmsg_parse_iso(line, end, &r);
	else if (kmsg_is_digit(line[0]) &&
		 memchr(line, ',', len < 6 ? len : 6))
		ret = kmsg_parse_devkmsg(line, end, &r);
	else
		ret = kmsg_parse_plain(line, end, &r);
	if (ret)
		return ret;
	*rec = r;
	return 0;
}

void kmsg_export_init(struct kmsg_export *ex)
{
	ex->msg_len = 0;
	ex->have_msg = false;
	ex->bad = false;
	ex->not_kernel = false;
	ex->any = false;
	ex->t = 0;
	ex->clock = KMSG_CLOCK_NONE;
	ex->level = -1;
	ex->facility = -1;
	ex->seq = -1;
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

static long long kmsg_field_num(const char *v, size_t vlen)
{
	long long x = 0;
	size_t i;

	if (!vlen || vlen > 19)
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
				.format = KMSG_FMT_EXPORT,
				.facility = ex->facility, .level = ex->level,
				.seq = ex->seq,
			};
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
	}
	return 0;
}
