// SPDX-License-Identifier: GPL-2.0-only
/*
 * evjson.c - events and incidents as JSON (docs/formats.md): written
 * as a stream, no object tree per event, by the generator below (its
 * evjson_gen_*() do the separators and the escaping); read back with
 * json-c, the tree's one JSON library.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evjson.h"
#include "util.h"
#include "modrec.h"

const char *evjson_clock_name(enum kmsg_clock clock)
{
	switch (clock) {
	case KMSG_CLOCK_MONO:
		return "monotonic";
	case KMSG_CLOCK_WALL:
		return "wall";
	case KMSG_CLOCK_BOOT:
		return "boot";
	case KMSG_CLOCK_REAL:
		return "real";
	case KMSG_CLOCK_NONE:
		break;
	}
	return "none";
}

static int evjson_unhex(const char *s, uint8_t *out, size_t max, size_t *len)
{
	size_t n = strlen(s), i;

	if (n % 2 || n / 2 > max)
		return -EINVAL;
	for (i = 0; i < n / 2; i++) {
		int hi = util_hexval(s[2 * i]), lo = util_hexval(s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	*len = n / 2;
	return 0;
}

static const char *const evjson_device_actions[] = {
	[EV_DEVICE_PRESENT] = "present",
	[EV_DEVICE_ADD] = "add",
	[EV_DEVICE_CHANGE] = "change",
	[EV_DEVICE_REMOVE] = "remove",
};

static const char *const evjson_marker_kinds[] = {
	[EV_MARKER_KEY] = "key",
	[EV_MARKER_STRESS] = "stress",
	[EV_MARKER_NOTE] = "note",
};

static const char *const evjson_xfer[] = { "iso", "interrupt", "control",
					   "bulk" };

/* --- every event, streamed: no object tree per event ------------------- */

/*
 * The generator: values, keys and containers appended to one line, the
 * separators put in as JSON wants them.  Strings are escaped as RFC 8259
 * says and as yajl did, which wrote these lines before (the files are the
 * same byte for byte): '"', '\\' and the control characters below 0x20
 * (\b \f \n \r \t, else \u00XX), every other byte as it is.
 */
#define EVJSON_DEPTH	8

struct evjson_gen {
	struct util_str *out;
	unsigned int depth;
	bool more[EVJSON_DEPTH];	/* a member before, at this depth */
	bool after_key;			/* the next value is a key's */
	bool bad;			/* unbalanced or too deep */
};

static void evjson_put(struct util_str *b, const char *s, size_t n)
{
	/* most calls are one quote or separator */
	if (n == 1 && b->len + 2 <= b->cap) {
		b->s[b->len++] = *s;
		b->s[b->len] = '\0';
		return;
	}
	util_str_put(b, s, n);
}

/* what comes before a key, or before a value that is not a key's */
static void evjson_gen_sep(struct evjson_gen *g)
{
	if (g->after_key) {
		g->after_key = false;
		return;
	}
	if (g->depth && g->more[g->depth - 1])
		evjson_put(g->out, ",", 1);
	if (g->depth)
		g->more[g->depth - 1] = true;
}

/* a value as it is: a number, or a string that needs no escaping, quoted */
static void evjson_gen_raw(struct evjson_gen *g, const char *v, size_t n)
{
	evjson_gen_sep(g);
	evjson_put(g->out, v, n);
}

static void evjson_gen_quoted(struct evjson_gen *g, const char *v, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t i, start = 0;
	char esc[6] = { '\\', 'u', '0', '0' };

	evjson_put(g->out, "\"", 1);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)v[i];
		const char *e = NULL;
		size_t elen = 2;

		switch (c) {
		case '"':
			e = "\\\"";
			break;
		case '\\':
			e = "\\\\";
			break;
		case '\b':
			e = "\\b";
			break;
		case '\f':
			e = "\\f";
			break;
		case '\n':
			e = "\\n";
			break;
		case '\r':
			e = "\\r";
			break;
		case '\t':
			e = "\\t";
			break;
		default:
			if (c >= 0x20)
				continue;
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 15];
			e = esc;
			elen = 6;
		}
		if (i > start)
			util_str_put(g->out, v + start, i - start);
		util_str_put(g->out, e, elen);
		start = i + 1;
	}
	if (n > start)
		util_str_put(g->out, v + start, n - start);
	evjson_put(g->out, "\"", 1);
}

static void evjson_gen_string(struct evjson_gen *g, const char *v, size_t n)
{
	evjson_gen_sep(g);
	evjson_gen_quoted(g, v, n);
}

static void evjson_gen_key(struct evjson_gen *g, const char *k, size_t n)
{
	evjson_gen_sep(g);
	evjson_gen_quoted(g, k, n);
	evjson_put(g->out, ":", 1);
	g->after_key = true;
}

static void evjson_gen_null(struct evjson_gen *g)
{
	evjson_gen_raw(g, "null", 4);
}

static void evjson_gen_bool(struct evjson_gen *g, bool v)
{
	evjson_gen_raw(g, v ? "true" : "false", v ? 4 : 5);
}

static void evjson_gen_open(struct evjson_gen *g, const char *c)
{
	evjson_gen_sep(g);
	evjson_put(g->out, c, 1);
	if (g->depth == EVJSON_DEPTH) {
		g->bad = true;
		return;
	}
	g->more[g->depth++] = false;
}

static void evjson_gen_close(struct evjson_gen *g, const char *c)
{
	if (!g->depth || g->after_key)
		g->bad = true;
	else
		g->depth--;
	evjson_put(g->out, c, 1);
}

struct evjson_writer {
	struct evjson_gen g;
	struct util_str line;	/* the generator writes here */
	char hostname[256];	/* evjson_writer_set_machine(); "": none */
	char machine_id[64];
};

void evjson_writer_set_machine(struct evjson_writer *w, const char *hostname,
			       const char *machine_id)
{
	snprintf(w->hostname, sizeof(w->hostname), "%s",
		 hostname ? hostname : "");
	snprintf(w->machine_id, sizeof(w->machine_id), "%s",
		 machine_id ? machine_id : "");
}

struct evjson_writer *evjson_writer_new(void)
{
	struct evjson_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->g.out = &w->line;
	return w;
}

void evjson_writer_free(struct evjson_writer *w)
{
	if (!w)
		return;
	free(w->line.s);
	free(w);
}

static void evjson_y_key(struct evjson_gen *g, const char *k)
{
	evjson_gen_key(g, k, strlen(k));
}

/*
 * Most strings we write need no escaping (names, hex, the records' text
 * form): printable ASCII without '"' or '\\'.  Such a value goes out
 * verbatim with its quotes, through evjson_gen_raw(); an escaping loop
 * was once a third of the recorder's time.  Anything else, and anything
 * long, takes evjson_gen_string().
 */
#define EVJSON_RAW_MAX	512

/*
 * Does any byte of x need escaping: below 0x20, 0x7f or above, '"' or
 * '\\'?  The classic word-at-a-time tests: (v - 0x01..) & ~v & 0x80..
 * is non-zero exactly when some byte of v is zero, and with 0x20.. when
 * some byte below 0x80 is below 0x20.
 */
static bool evjson_swar_unsafe(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101ull, high = ones << 7;
	uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\');
	uint64_t d = x ^ (ones * 0x7f);

	return (((x - ones * 0x20) & ~x) | x | ((q - ones) & ~q) |
		((b - ones) & ~b) | ((d - ones) & ~d)) & high;
}

/* printable ASCII other than '"' and '\\', in [0, len) */
static bool evjson_safe(const char *v, size_t len)
{
	size_t i = 0;
	uint64_t x;

	for (; i + 8 <= len; i += 8) {
		memcpy(&x, v + i, 8);
		if (evjson_swar_unsafe(x))
			return false;
	}
	for (; i < len; i++) {
		unsigned char c = (unsigned char)v[i];

		if (c < 0x20 || c > 0x7e || c == '"' || c == '\\')
			return false;
	}
	return true;
}

static void evjson_y_strval(struct evjson_gen *g, const char *v, size_t len)
{
	char buf[EVJSON_RAW_MAX + 2];

	if (len > EVJSON_RAW_MAX || !evjson_safe(v, len)) {
		evjson_gen_string(g, v, len);
		return;
	}
	buf[0] = '"';
	memcpy(buf + 1, v, len);
	buf[len + 1] = '"';
	evjson_gen_raw(g, buf, len + 2);
}

static void evjson_y_str(struct evjson_gen *g, const char *k, const char *v)
{
	evjson_y_key(g, k);
	evjson_y_strval(g, v, strlen(v));
}

/* a fraction as we print it ("%.3f"), not as %.20g would */
static void evjson_y_num(struct evjson_gen *g, const char *k, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void evjson_y_num(struct evjson_gen *g, const char *k, const char *fmt, ...)
{
	char buf[48];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	evjson_y_key(g, k);
	evjson_gen_raw(g, buf, n > 0 && (size_t)n < sizeof(buf) ?
			(size_t)n : strlen(buf));
}

/*
 * Decimal digits of v ending at end (no NUL); returns where they begin.
 * printf was the recorder's hottest function before this.
 */
static char *evjson_digits(char *end, uint64_t v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

static void evjson_y_u64(struct evjson_gen *g, const char *k, uint64_t v)
{
	char buf[24], *p = evjson_digits(buf + sizeof(buf), v);

	evjson_y_key(g, k);
	evjson_gen_raw(g, p, (size_t)(buf + sizeof(buf) - p));
}

/* nanoseconds as seconds with nine decimals: "12.345678901" */
static void evjson_y_time(struct evjson_gen *g, const char *k, uint64_t ns)
{
	char buf[40], *end = buf + sizeof(buf), *p;
	uint64_t frac = ns % 1000000000;
	int i;

	p = end;
	for (i = 0; i < 9; i++) {
		*--p = (char)('0' + frac % 10);
		frac /= 10;
	}
	*--p = '.';
	p = evjson_digits(p, ns / 1000000000);
	evjson_y_key(g, k);
	evjson_gen_raw(g, p, (size_t)(end - p));
}

/* a signed integer (where negative is a value, not "unknown") */
static void evjson_y_s64(struct evjson_gen *g, const char *k, long long v)
{
	char buf[24], *p;

	p = evjson_digits(buf + sizeof(buf),
			  v < 0 ? -(unsigned long long)v : (unsigned long long)v);
	if (v < 0)
		*--p = '-';
	evjson_y_key(g, k);
	evjson_gen_raw(g, p, (size_t)(buf + sizeof(buf) - p));
}

/* null for "not known" (negative), as evjson_int() */
static void evjson_y_int(struct evjson_gen *g, const char *k, long long v)
{
	if (v < 0) {
		evjson_y_key(g, k);
		evjson_gen_null(g);
		return;
	}
	evjson_y_u64(g, k, (uint64_t)v);
}

static void evjson_y_hex(struct evjson_gen *g, const char *k, const uint8_t *p,
			 size_t len)
{
	static const char digits[] = "0123456789abcdef";
	char stackbuf[2 * USBTRAIL_RECORD_SIZE + 2], *buf = stackbuf;
	size_t i;

	if (2 * len + 2 > sizeof(stackbuf)) {
		buf = malloc(2 * len + 2);
		if (!buf)
			return;
	}
	/* hex needs no escaping: out verbatim, as evjson_y_strval() */
	buf[0] = '"';
	for (i = 0; i < len; i++) {
		buf[1 + 2 * i] = digits[p[i] >> 4];
		buf[2 + 2 * i] = digits[p[i] & 15];
	}
	buf[2 * len + 1] = '"';
	evjson_y_key(g, k);
	evjson_gen_raw(g, buf, 2 * len + 2);
	if (buf != stackbuf)
		free(buf);
}

static void evjson_y_trace(struct evjson_gen *g, const struct usbtrail_record *r)
{
	char text[512];

	evjson_y_str(g, "rec", modrec_type_name(r->type));
	modrec_format(r, text, sizeof(text));
	evjson_y_str(g, "text", text);
	evjson_y_key(g, "error");
	evjson_gen_bool(g, r->flags & USBTRAIL_F_ERROR);
	evjson_y_hex(g, "raw", (const uint8_t *)r, sizeof(*r));
}

static void evjson_y_usbmon(struct evjson_gen *g, const struct ev_usbmon *m)
{
	const struct ev_usbmon_hdr *h = &m->hdr;
	char type[2] = { (char)h->type, '\0' };

	evjson_y_u64(g, "urb", h->id);
	evjson_y_str(g, "event", type);
	evjson_y_str(g, "xfer", evjson_xfer[h->xfer_type & 3]);
	evjson_y_s64(g, "ep", h->epnum);
	evjson_y_s64(g, "status", h->status);
	evjson_y_u64(g, "length", h->len_urb);
	evjson_y_u64(g, "captured", m->caplen);
	if (h->flag_setup == 0)
		evjson_y_hex(g, "setup", h->setup, 8);
	if (m->caplen && m->data)
		evjson_y_hex(g, "data", m->data, m->caplen);
}

static void evjson_y_device(struct evjson_gen *g, const struct ev_device *d)
{
	char id[16];

	evjson_y_str(g, "action", (unsigned int)d->action < 5 &&
		     evjson_device_actions[d->action] ?
		     evjson_device_actions[d->action] : "?");
	snprintf(id, sizeof(id), "%04x:%04x", d->vid, d->pid);
	evjson_y_str(g, "usb_id", id);
	evjson_y_u64(g, "speed_mbps", d->speed_mbps);
	evjson_y_str(g, "driver", d->driver);
	evjson_y_str(g, "hcd", d->hcd);
	evjson_y_str(g, "hcd_driver", d->hcd_driver);
	evjson_y_str(g, "serial", d->serial);
	evjson_y_str(g, "product", d->product);
	snprintf(id, sizeof(id), "%u:%u", d->devt >> 20 ? 0 :
		 (d->devt & 0xfff00) >> 8,
		 (d->devt & 0xff) | ((d->devt >> 12) & 0xfff00));
	evjson_y_str(g, "devt", id);
}

static void evjson_y_sample(struct evjson_gen *g, const struct ev_sample *s)
{
	evjson_y_u64(g, "interval_ms", s->interval_ms);
	evjson_y_u64(g, "read_bytes", s->read_bytes);
	evjson_y_u64(g, "write_bytes", s->write_bytes);
	evjson_y_u64(g, "completions", s->completions);
	evjson_y_u64(g, "inflight", s->inflight);
	evjson_y_num(g, "mbps", "%.3f", s->mbps);
	evjson_y_num(g, "median_mbps", "%.3f", s->median_mbps);
	evjson_y_key(g, "dip");
	evjson_gen_bool(g, s->dip);
}

/* --- incidents: analyze's lines, and the recorder's incident events ----- */

static void evjson_y_null(struct evjson_gen *g, const char *k)
{
	evjson_y_key(g, k);
	evjson_gen_null(g);
}

/* a string, or null where it is empty (not known) */
static void evjson_y_str_or_null(struct evjson_gen *g, const char *k, const char *v)
{
	if (!v || !v[0])
		evjson_y_null(g, k);
	else
		evjson_y_str(g, k, v);
}

/* a measured figure, "%.3f" as the samples' (null if not finite) */
static void evjson_y_real(struct evjson_gen *g, const char *k, double v)
{
	if (!isfinite(v))
		evjson_y_null(g, k);
	else
		evjson_y_num(g, k, "%.3f", v);
}

/* A time as the kernel prints it ("%.6f"), not as %.17g would */
static void evjson_y_secs(struct evjson_gen *g, const char *k, double t)
{
	char buf[48];

	kmsg_secs_text(t, buf, sizeof(buf));
	evjson_y_key(g, k);
	evjson_gen_raw(g, buf, strlen(buf));
}

/*
 * The incident's own fields, in the order analyze --json has always
 * printed them.  ev: an incident event (events.jsonl), whose common
 * fields (t, disk, usb, scsi, devnum) stand for the incident's and whose
 * command (opcode, lba) is the merged one; NULL: analyze's line.
 */
static void evjson_y_cmd(struct evjson_gen *g, const struct classify_incident *inc,
			 int opcode, long long lba)
{
	evjson_y_str_or_null(g, "hostbyte", inc->hostbyte);
	evjson_y_str_or_null(g, "driverbyte", inc->driverbyte);
	evjson_y_int(g, "opcode", opcode);
	evjson_y_str_or_null(g, "opcode_name", inc->opcode_name);
	evjson_y_int(g, "lba", lba);
	evjson_y_int(g, "blocks", inc->blocks);
	evjson_y_int(g, "sector", inc->sector);
	evjson_y_str_or_null(g, "op", inc->op);
	evjson_y_str_or_null(g, "blk_status", inc->blk_status);
	evjson_y_str_or_null(g, "partition", inc->part);
	evjson_y_int(g, "lost_blocks", inc->lost_blocks > 0 ?
		     inc->lost_blocks : -1);
	evjson_y_int(g, "lost_first_block", inc->lost_first);
	evjson_y_int(g, "suppressed", inc->suppressed > 0 ?
		     inc->suppressed : -1);
}

static void evjson_y_sense(struct evjson_gen *g, const struct classify_incident *inc)
{
	evjson_y_int(g, "key", inc->key);
	evjson_y_str_or_null(g, "key_text", inc->key_text);
	evjson_y_int(g, "asc", inc->asc);
	evjson_y_int(g, "ascq", inc->ascq);
	evjson_y_str_or_null(g, "asc_text", inc->asc_text);
}

/* Which incident, when, where in the log: the fields of every kind */
static void evjson_y_incident_where(struct evjson_gen *g,
				    const struct classify_incident *inc,
				    const struct ev *ev)
{
	evjson_y_str(g, "kind", classify_kind_name(inc->kind));
	evjson_y_str_or_null(g, "dev", inc->dev);
	if (!ev) {
		if (inc->clock == KMSG_CLOCK_NONE)
			evjson_y_null(g, "t");
		else
			evjson_y_secs(g, "t", inc->t);
	}
	evjson_y_str(g, "clock", evjson_clock_name(inc->clock));
	if (inc->wall_clock != KMSG_CLOCK_NONE) {
		char wall[48];

		/* as the log wrote it: "Mar 14 10:13:08", "2026-11-29 23:10:27" */
		kmsg_time_text(inc->wall, inc->wall_clock, wall, sizeof(wall));
		evjson_y_str(g, "wall", wall);
	}
	if (!ev) {
		if (inc->disk[0])
			evjson_y_str(g, "disk", inc->disk);
		if (inc->usb[0])
			evjson_y_str(g, "usb", inc->usb);
		if (inc->scsi[0])
			evjson_y_str(g, "scsi", inc->scsi);
	}
	if (inc->host >= 0)
		evjson_y_u64(g, "host", (uint64_t)inc->host);
	evjson_y_int(g, "chain", inc->chain ? (long long)inc->chain : -1);
	if (inc->inferred) {
		evjson_y_key(g, "inferred");
		evjson_gen_bool(g, true);
	}
	if (inc->line_first) {
		evjson_y_s64(g, "file", (int32_t)inc->file);
		evjson_y_u64(g, "line_first", inc->line_first);
		evjson_y_u64(g, "line_last", inc->line_last);
		evjson_y_u64(g, "lines", inc->nlines);
	}
	if (inc->row[0])
		evjson_y_str(g, "row", inc->row);
}

/* What the kind carries (classify.h's table), in this order */
static void evjson_y_incident_carried(struct evjson_gen *g,
				      const struct classify_incident *inc,
				      const struct ev *ev, int opcode,
				      long long lba)
{
	unsigned int carries = classify_kind_carries(inc->kind);

	if (carries & CLASSIFY_C_SENSE)
		evjson_y_sense(g, inc);
	if (carries & CLASSIFY_C_INFO)
		evjson_y_int(g, "info", inc->info);
	if ((carries & CLASSIFY_C_COMMANDS) && inc->count > 1)
		evjson_y_int(g, "commands", inc->count);
	if (carries & CLASSIFY_C_CMD)
		evjson_y_cmd(g, inc, opcode, lba);
	if (carries & CLASSIFY_C_OPCODE) {
		evjson_y_int(g, "opcode", opcode);
		evjson_y_str_or_null(g, "opcode_name", inc->opcode_name);
		evjson_y_int(g, "lba", lba);
	}
	if (carries & CLASSIFY_C_SPEED)
		evjson_y_str(g, "speed", inc->speed);
	if (carries & CLASSIFY_C_ERRNO) {
		evjson_y_int(g, "errno", inc->err);
		evjson_y_str_or_null(g, "errno_name", inc->err > 0 ?
				     strerrorname_np(inc->err) : NULL);
	}
	/* in a recording, the device number is in the event's identity */
	if ((carries & CLASSIFY_C_DEVNUM) && !ev)
		evjson_y_int(g, "devnum", inc->devnum);
	if (carries & CLASSIFY_C_PORT)
		evjson_y_int(g, "port", inc->port);
	if (carries & CLASSIFY_C_CODE)
		evjson_y_int(g, "code", inc->code);
	if (((carries & CLASSIFY_C_REPEATS) && inc->count > 1) ||
	    (carries & CLASSIFY_C_TALLY))
		evjson_y_int(g, "count", inc->count);
	if (carries & CLASSIFY_C_LOST) {
		evjson_y_str_or_null(g, "partition", inc->part);
		evjson_y_int(g, "lost_blocks", inc->lost_blocks > 0 ?
			     inc->lost_blocks : -1);
		evjson_y_int(g, "lost_first_block", inc->lost_first);
	}
}

/* A recording's incident: its summary, evidence, raw sense, command */
static void evjson_y_incident_recorded(struct evjson_gen *g, const struct ev *ev,
				       int opcode, long long lba)
{
	unsigned int carries = classify_kind_carries(ev->u.incident.inc.kind);
	const struct ev_incident *ei = &ev->u.incident;
	char summary[512];
	unsigned int i;

	ev_incident_summary(ev, summary, sizeof(summary));
	evjson_y_str(g, "summary", summary);
	evjson_y_key(g, "evidence");
	evjson_gen_open(g, "[");
	for (i = 0; i < ei->nevidence; i++) {
		char buf[24], *p = evjson_digits(buf + sizeof(buf),
						 ei->evidence[i]);

		evjson_gen_raw(g, p, (size_t)(buf + sizeof(buf) - p));
	}
	evjson_gen_close(g, "]");
	if (ei->sense_len)
		evjson_y_hex(g, "sense_data", ei->sense, ei->sense_len);
	if (!(carries & (CLASSIFY_C_CMD | CLASSIFY_C_OPCODE))) {
		evjson_y_int(g, "opcode", opcode);
		evjson_y_int(g, "lba", lba);
	}
	if (carries & CLASSIFY_C_DIP) {
		evjson_y_real(g, "mbps", ei->dip_mbps);
		evjson_y_real(g, "median_mbps", ei->dip_median_mbps);
		evjson_y_real(g, "secs", ei->dip_secs);
	}
}

static void evjson_y_incident(struct evjson_gen *g, const struct classify_incident *inc,
			      const struct ev *ev)
{
	int opcode = ev ? ev->u.incident.opcode : inc->opcode;
	long long lba = ev ? ev->u.incident.lba : inc->lba;

	evjson_y_incident_where(g, inc, ev);
	evjson_y_incident_carried(g, inc, ev, opcode, lba);
	evjson_y_str(g, "line", inc->line);
	if (ev)
		evjson_y_incident_recorded(g, ev, opcode, lba);
}

/* A line's object opened, on an empty buffer */
static int evjson_line_begin(struct evjson_writer *w)
{
	w->line.len = 0;
	w->line.oom = false;
	memset(&w->g, 0, sizeof(w->g));
	w->g.out = &w->line;
	evjson_gen_open(&w->g, "{");
	if (w->hostname[0] || w->machine_id[0]) {
		evjson_y_str(&w->g, "hostname", w->hostname);
		evjson_y_str(&w->g, "machine_id", w->machine_id);
	}
	return 0;
}

/* The object closed: the line in *line, *len */
static int evjson_line_end(struct evjson_writer *w, const char **line,
			   size_t *len)
{
	evjson_gen_close(&w->g, "}");
	if (w->g.bad || w->g.depth)
		return -EINVAL;
	if (w->line.oom)
		return -ENOMEM;
	*line = w->line.s;
	*len = w->line.len;
	return 0;
}

int evjson_incident_line(struct evjson_writer *w,
			 const struct classify_incident *inc,
			 const char **line, size_t *len)
{
	if (evjson_line_begin(w))
		return -EINVAL;
	evjson_y_incident(&w->g, inc, NULL);
	return evjson_line_end(w, line, len);
}

int evjson_writer_line(struct evjson_writer *w, const struct ev *ev,
		       const char **line, size_t *len)
{
	struct evjson_gen *g = &w->g;

	if (evjson_line_begin(w))
		return -EINVAL;
	evjson_y_u64(g, "id", ev->id);
	evjson_y_time(g, "t", ev->t_ns);
	evjson_y_str(g, "type", ev_type_name(ev->type));
	evjson_y_str(g, "source", ev_source_name(ev->source));
	if (ev->ident.disk[0])
		evjson_y_str(g, "disk", ev->ident.disk);
	if (ev->ident.usb[0])
		evjson_y_str(g, "usb", ev->ident.usb);
	if (ev->ident.scsi[0])
		evjson_y_str(g, "scsi", ev->ident.scsi);
	evjson_y_int(g, "bus", ev->ident.busnum);
	evjson_y_int(g, "devnum", ev->ident.devnum);

	switch (ev->type) {
	case EV_TRACE:
		evjson_y_trace(g, &ev->u.rec);
		break;
	case EV_KLOG:
		evjson_y_s64(g, "seq", (long long)ev->u.klog.seq);
		evjson_y_int(g, "level", ev->u.klog.level);
		evjson_y_int(g, "facility", ev->u.klog.facility);
		evjson_y_str(g, "text", ev->u.klog.text);
		break;
	case EV_USBMON:
		evjson_y_usbmon(g, &ev->u.usbmon);
		break;
	case EV_DEVICE:
		evjson_y_device(g, &ev->u.device);
		break;
	case EV_SAMPLE:
		evjson_y_sample(g, &ev->u.sample);
		break;
	case EV_MARKER:
		evjson_y_str(g, "kind", (unsigned int)ev->u.marker.kind < 4 &&
			     evjson_marker_kinds[ev->u.marker.kind] ?
			     evjson_marker_kinds[ev->u.marker.kind] : "?");
		evjson_y_str(g, "text", ev->u.marker.text);
		break;
	case EV_LOST:
		evjson_y_str(g, "of", ev_source_name(ev->u.lost.source));
		evjson_y_u64(g, "count", ev->u.lost.count);
		evjson_y_u64(g, "total", ev->u.lost.total);
		evjson_y_str(g, "why", ev->u.lost.why);
		break;
	case EV_INCIDENT:
		evjson_y_incident(g, &ev->u.incident.inc, ev);
		break;
	case EV_TYPE_MAX:
		break;
	}
	return evjson_line_end(w, line, len);
}

/* --- reading events.jsonl back ------------------------------------------ */

static const char *evjson_get_str(struct json_object *o, const char *name)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, name, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static bool evjson_get_int(struct json_object *o, const char *name,
			   int64_t *out)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, name, &v) ||
	    !(json_object_is_type(v, json_type_int) ||
	      json_object_is_type(v, json_type_double)))
		return false;
	*out = json_object_get_int64(v);
	return true;
}

static int evjson_lookup(const char *s, const char *const *names,
			 unsigned int n)
{
	unsigned int i;

	for (i = 0; s && i < n; i++)
		if (names[i] && !strcmp(names[i], s))
			return (int)i;
	return -1;
}

static void evjson_copy(char *dst, size_t len, const char *s)
{
	snprintf(dst, len, "%s", s ? s : "");
}

static int evjson_parse_kind(const char *s)
{
	unsigned int k;

	for (k = 0; s && k < CLASSIFY_KIND_COUNT; k++)
		if (!strcmp(classify_kind_name(k), s))
			return (int)k;
	return -1;
}

/* What a recording adds to analyze's form: evidence, sense bytes, dip. */
static void evjson_parse_incident_extra(struct json_object *o,
					struct ev_incident *ei)
{
	struct json_object *a, *m;
	const char *s;
	size_t i, n;

	if (json_object_object_get_ex(o, "evidence", &a) &&
	    json_object_is_type(a, json_type_array)) {
		n = json_object_array_length(a);
		for (i = 0; i < n && ei->nevidence < EV_INCIDENT_EVIDENCE_MAX;
		     i++) {
			m = json_object_array_get_idx(a, i);
			if (json_object_is_type(m, json_type_int) &&
			    json_object_get_int64(m) > 0)
				ei->evidence[ei->nevidence++] =
					(uint64_t)json_object_get_int64(m);
		}
	}
	s = evjson_get_str(o, "sense_data");
	if (s && !evjson_unhex(s, ei->sense, sizeof(ei->sense), &n))
		ei->sense_len = (uint8_t)n;
	if (json_object_object_get_ex(o, "mbps", &m))
		ei->dip_mbps = json_object_get_double(m);
	if (json_object_object_get_ex(o, "median_mbps", &m))
		ei->dip_median_mbps = json_object_get_double(m);
	if (json_object_object_get_ex(o, "secs", &m))
		ei->dip_secs = json_object_get_double(m);
}

/* An int field, or -1 where it is null or absent ("not known"). */
static int64_t evjson_int_or(struct json_object *o, const char *name)
{
	int64_t v;

	return evjson_get_int(o, name, &v) ? v : -1;
}

/* Every field evjson_y_incident() writes, back: a recording's incidents
 * report as they were recorded. */
static int evjson_parse_incident(struct json_object *o, struct ev *ev)
{
	struct classify_incident *inc = &ev->u.incident.inc;
	struct json_object *v;
	int64_t n;
	int k;

	k = evjson_parse_kind(evjson_get_str(o, "kind"));
	if (k < 0)
		return -EINVAL;
	classify_incident_init(inc, (enum classify_kind)k);
	inc->t = (double)ev->t_ns / 1e9;
	inc->clock = KMSG_CLOCK_BOOT;
	evjson_copy(inc->dev, sizeof(inc->dev), evjson_get_str(o, "dev"));
	evjson_copy(inc->disk, sizeof(inc->disk), evjson_get_str(o, "disk"));
	evjson_copy(inc->usb, sizeof(inc->usb), evjson_get_str(o, "usb"));
	evjson_copy(inc->scsi, sizeof(inc->scsi), evjson_get_str(o, "scsi"));
	evjson_copy(inc->line, sizeof(inc->line), evjson_get_str(o, "line"));
	evjson_copy(inc->row, sizeof(inc->row), evjson_get_str(o, "row"));
	evjson_copy(inc->speed, sizeof(inc->speed), evjson_get_str(o, "speed"));
	evjson_copy(inc->asc_text, sizeof(inc->asc_text),
		    evjson_get_str(o, "asc_text"));
	evjson_copy(inc->hostbyte, sizeof(inc->hostbyte),
		    evjson_get_str(o, "hostbyte"));
	evjson_copy(inc->driverbyte, sizeof(inc->driverbyte),
		    evjson_get_str(o, "driverbyte"));
	evjson_copy(inc->opcode_name, sizeof(inc->opcode_name),
		    evjson_get_str(o, "opcode_name"));
	evjson_copy(inc->op, sizeof(inc->op), evjson_get_str(o, "op"));
	evjson_copy(inc->blk_status, sizeof(inc->blk_status),
		    evjson_get_str(o, "blk_status"));
	evjson_copy(inc->part, sizeof(inc->part),
		    evjson_get_str(o, "partition"));
	inc->host = (int)evjson_int_or(o, "host");
	inc->chain = evjson_get_int(o, "chain", &n) && n > 0 ?
		     (unsigned int)n : 0;
	inc->inferred = json_object_object_get_ex(o, "inferred", &v) &&
			json_object_get_boolean(v);
	if (evjson_get_int(o, "line_first", &n) && n > 0) {
		inc->line_first = (unsigned long)n;
		inc->line_last = (unsigned long)evjson_int_or(o, "line_last");
		inc->nlines = (unsigned int)evjson_int_or(o, "lines");
		inc->file = (unsigned int)evjson_int_or(o, "file");
	}
	inc->key = (int)evjson_int_or(o, "key");
	inc->key_text = classify_sense_key_text(inc->key);
	inc->asc = (int)evjson_int_or(o, "asc");
	inc->ascq = (int)evjson_int_or(o, "ascq");
	inc->info = evjson_int_or(o, "info");
	/*
	 * "opcode" and "lba" are the event's command; they are the
	 * incident's own only where its kind has a command (a reset's is
	 * the command the error handler started for)
	 */
	ev->u.incident.opcode = (int)evjson_int_or(o, "opcode");
	ev->u.incident.lba = evjson_int_or(o, "lba");
	if (classify_kind_carries(inc->kind) &
	    (CLASSIFY_C_CMD | CLASSIFY_C_OPCODE)) {
		inc->opcode = ev->u.incident.opcode;
		inc->lba = ev->u.incident.lba;
	}
	inc->blocks = evjson_int_or(o, "blocks");
	inc->sector = evjson_int_or(o, "sector");
	inc->lost_blocks = (long)evjson_int_or(o, "lost_blocks");
	if (inc->lost_blocks < 0)
		inc->lost_blocks = 0;
	inc->lost_first = evjson_int_or(o, "lost_first_block");
	inc->suppressed = (long)evjson_int_or(o, "suppressed");
	if (inc->suppressed < 0)
		inc->suppressed = 0;
	inc->code = (int)evjson_int_or(o, "code");
	inc->err = (int)evjson_int_or(o, "errno");
	inc->devnum = (int)evjson_int_or(o, "devnum");
	inc->port = (int)evjson_int_or(o, "port");
	inc->count = (long)evjson_int_or(o, "count");
	/* analyze's form says "commands" for a burst's count */
	if (evjson_get_int(o, "commands", &n))
		inc->count = (long)n;
	evjson_parse_incident_extra(o, &ev->u.incident);
	return 0;
}

static int evjson_parse_trace(struct json_object *o, struct ev *ev)
{
	uint8_t raw[USBTRAIL_RECORD_SIZE];
	const char *s;
	size_t n;

	s = evjson_get_str(o, "raw");
	if (!s || evjson_unhex(s, raw, sizeof(raw), &n) ||
	    modrec_parse(raw, n, &ev->u.rec) < 0)
		return -EINVAL;
	return 0;
}

static int evjson_parse_klog(struct json_object *o, struct ev *ev)
{
	const char *s;
	int64_t v;

	s = evjson_get_str(o, "text");
	if (!s)
		return -EINVAL;
	evjson_copy(ev->u.klog.text, sizeof(ev->u.klog.text), s);
	ev->u.klog.len = (uint32_t)strlen(ev->u.klog.text);
	ev->u.klog.seq = evjson_get_int(o, "seq", &v) ? v : -1;
	ev->u.klog.level = evjson_get_int(o, "level", &v) ? (int)v : -1;
	ev->u.klog.facility = evjson_get_int(o, "facility", &v) ? (int)v : -1;
	return 0;
}

static int evjson_parse_device(struct json_object *o, struct ev *ev)
{
	struct ev_device *d = &ev->u.device;
	unsigned int vid, pid;
	const char *s;
	int64_t v;
	int k;

	k = evjson_lookup(evjson_get_str(o, "action"), evjson_device_actions,
			  5);
	if (k < 0)
		return -EINVAL;
	d->action = (enum ev_device_action)k;
	s = evjson_get_str(o, "usb_id");
	if (s && sscanf(s, "%4x:%4x", &vid, &pid) == 2) {
		d->vid = (uint16_t)vid;
		d->pid = (uint16_t)pid;
	}
	if (evjson_get_int(o, "speed_mbps", &v) && v >= 0)
		d->speed_mbps = (unsigned int)v;
	evjson_copy(d->driver, sizeof(d->driver), evjson_get_str(o, "driver"));
	evjson_copy(d->hcd, sizeof(d->hcd), evjson_get_str(o, "hcd"));
	evjson_copy(d->hcd_driver, sizeof(d->hcd_driver),
		    evjson_get_str(o, "hcd_driver"));
	evjson_copy(d->serial, sizeof(d->serial), evjson_get_str(o, "serial"));
	evjson_copy(d->product, sizeof(d->product),
		    evjson_get_str(o, "product"));
	return 0;
}

static int evjson_parse_marker(struct json_object *o, struct ev *ev)
{
	int k;

	k = evjson_lookup(evjson_get_str(o, "kind"), evjson_marker_kinds, 4);
	if (k < 0)
		return -EINVAL;
	ev->u.marker.kind = (enum ev_marker_kind)k;
	evjson_copy(ev->u.marker.text, sizeof(ev->u.marker.text),
		    evjson_get_str(o, "text"));
	return 0;
}

static int evjson_parse_sample(struct json_object *o, struct ev *ev)
{
	struct ev_sample *smp = &ev->u.sample;
	struct json_object *m;
	int64_t v;

	if (evjson_get_int(o, "read_bytes", &v) && v >= 0)
		smp->read_bytes = (uint64_t)v;
	if (evjson_get_int(o, "write_bytes", &v) && v >= 0)
		smp->write_bytes = (uint64_t)v;
	if (evjson_get_int(o, "interval_ms", &v) && v > 0)
		smp->interval_ms = (uint32_t)v;
	if (json_object_object_get_ex(o, "mbps", &m))
		smp->mbps = json_object_get_double(m);
	if (json_object_object_get_ex(o, "median_mbps", &m))
		smp->median_mbps = json_object_get_double(m);
	if (evjson_get_int(o, "completions", &v) && v >= 0 && v <= UINT32_MAX)
		smp->completions = (uint32_t)v;
	if (evjson_get_int(o, "inflight", &v) && v >= 0 && v <= UINT32_MAX)
		smp->inflight = (uint32_t)v;
	if (json_object_object_get_ex(o, "dip", &m))
		smp->dip = json_object_get_boolean(m);
	return 0;
}

static int evjson_parse_lost(struct json_object *o, struct ev *ev)
{
	int64_t v;
	int k;

	k = evjson_lookup(evjson_get_str(o, "of"), ev_source_names_table(),
			  EV_SRC_MAX);
	if (k > 0)
		ev->u.lost.source = (enum ev_source)k;
	if (evjson_get_int(o, "count", &v) && v >= 0)
		ev->u.lost.count = (uint64_t)v;
	if (evjson_get_int(o, "total", &v) && v >= 0)
		ev->u.lost.total = (uint64_t)v;
	evjson_copy(ev->u.lost.why, sizeof(ev->u.lost.why),
		    evjson_get_str(o, "why"));
	return 0;
}

/* The members of @ev's type: one parser per type. */
static int evjson_parse_body(struct json_object *o, struct ev *ev)
{
	switch (ev->type) {
	case EV_TRACE:
		return evjson_parse_trace(o, ev);
	case EV_KLOG:
		return evjson_parse_klog(o, ev);
	case EV_DEVICE:
		return evjson_parse_device(o, ev);
	case EV_MARKER:
		return evjson_parse_marker(o, ev);
	case EV_SAMPLE:
		return evjson_parse_sample(o, ev);
	case EV_LOST:
		return evjson_parse_lost(o, ev);
	case EV_INCIDENT:
		return evjson_parse_incident(o, ev);
	case EV_USBMON:
	case EV_TYPE_MAX:
		break;
	}
	return -ENOTSUP;
}

int evjson_parse_event(const char *line, size_t len, struct ev *ev)
{
	struct json_tokener *tok;
	struct json_object *o;
	int64_t v;
	int ret, k;

	memset(ev, 0, sizeof(*ev));
	ev->ident.busnum = ev->ident.devnum = -1;
	if (len > INT32_MAX)
		return -EINVAL;
	tok = json_tokener_new();
	if (!tok)
		return -ENOMEM;
	o = json_tokener_parse_ex(tok, line, (int)len);
	if (!o && json_tokener_get_error(tok) == json_tokener_continue)
		o = json_tokener_parse_ex(tok, "", -1);	/* a bare number */
	json_tokener_free(tok);
	if (!o || !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return -EINVAL;
	}
	ret = -EINVAL;
	k = evjson_lookup(evjson_get_str(o, "type"), ev_type_names_table(),
			  EV_TYPE_MAX);
	if (k <= 0)
		goto out;
	ev->type = (enum ev_type)k;
	k = evjson_lookup(evjson_get_str(o, "source"), ev_source_names_table(),
			  EV_SRC_MAX);
	ev->source = k > 0 ? (enum ev_source)k : EV_SRC_RECORDER;
	if (evjson_get_int(o, "id", &v) && v > 0)
		ev->id = (uint64_t)v;
	{
		struct json_object *t;

		if (!json_object_object_get_ex(o, "t", &t) ||
		    !(json_object_is_type(t, json_type_double) ||
		      json_object_is_type(t, json_type_int)) ||
		    json_object_get_double(t) < 0 ||
		    json_object_get_double(t) > 1e10)
			goto out;
		ev->t_ns = (uint64_t)(json_object_get_double(t) * 1e9 + 0.5);
	}
	evjson_copy(ev->ident.disk, sizeof(ev->ident.disk),
		    evjson_get_str(o, "disk"));
	evjson_copy(ev->ident.usb, sizeof(ev->ident.usb),
		    evjson_get_str(o, "usb"));
	evjson_copy(ev->ident.scsi, sizeof(ev->ident.scsi),
		    evjson_get_str(o, "scsi"));
	if (evjson_get_int(o, "bus", &v) && v >= 0 && v < 65536)
		ev->ident.busnum = (int)v;
	if (evjson_get_int(o, "devnum", &v) && v >= 0 && v < 65536)
		ev->ident.devnum = (int)v;
	ret = evjson_parse_body(o, ev);
out:
	json_object_put(o);
	return ret;
}
