// SPDX-License-Identifier: GPL-2.0-only
/*
 * bundle.c - the bug-report bundle (bundle.h): a ustar archive (tar.c)
 * built in memory, compressed with zlib's gzip format, and cut down
 * around the incidents until it fits the size limit.
 *
 * The recording's files are read once and prepared: what names a person
 * or a machine replaced (lib/scrub.c: one table for the whole bundle,
 * filled first from every file, so a value reads the same everywhere),
 * URB data dropped unless the recording kept it on purpose.  Each attempt
 * then only filters by time window, scrubs the few files made from the
 * recording's meta.json and events, and compresses.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <zlib.h>

#include "bundle.h"
#include "util.h"
#include "evjson.h"
#include "lsusb.h"
#include "meta.h"
#include "pcapng.h"
#include "report.h"
#include "savefile.h"
#include "scrub.h"
#include "tar.h"
#include "usbdesc.h"
#include "usbmon.h"

#define BUNDLE_TOP		"usbtrail-bundle/"
#define BUNDLE_SERIALS_MAX	64
#define BUNDLE_KLOG_WINDOW	10.0	/* s of kernel log around incidents */
#define BUNDLE_FILE_MAX		(4ull << 30)

int bundle_scrub(const char *text, size_t len, const char *const *serials,
		 unsigned int n, char **out, size_t *outlen)
{
	struct scrub *s = scrub_new(1u << SCRUB_SERIAL);
	struct util_str b = { 0 };
	unsigned int k;
	int err = s ? 0 : -ENOMEM;

	for (k = 0; k < n && !err; k++) {
		err = scrub_add(s, SCRUB_SERIAL, serials[k], strlen(serials[k]));
		if (err == -EINVAL)
			err = 0;	/* empty: nothing to hash */
	}
	if (!err)
		err = scrub_text(s, text, len, &b, NULL);
	scrub_free(s);
	if (err) {
		free(b.s);
		return err;
	}
	*out = b.s;
	*outlen = b.len;
	return 0;
}

/* one line of events.jsonl, prepared */
struct bundle_line {
	uint64_t t_ns;
	bool bulky;		/* trace or usbmon: cut first */
	uint32_t rep;		/* its replacements: bundle_ctx.reps[rep - 1] */
	size_t off, len;	/* into bundle_ctx.lines */
};

/* one block of the capture, prepared */
struct bundle_block {
	uint64_t t_ns;		/* boottime; EPBs only */
	bool epb;
	uint32_t rep;
	size_t off, len;	/* into bundle_ctx.blocks */
	size_t text_off, text_len; /* its 1u line in bundle_ctx.text, EPBs */
};

struct bundle_ctx {
	const struct recording *r;
	const struct bundle_opts *o;
	const char *serials[BUNDLE_SERIALS_MAX];
	unsigned int nserials;
	uint64_t mtime;

	/* NULL: everything kept (--keep-serials --keep-ids) */
	struct scrub *scrub;
	int scrub_err;			/* the first failure, -E2BIG */
	/* the prepared lines' and blocks' replacements, where they made any */
	struct scrub_counts *reps;
	size_t nreps, capreps;
	/* this attempt's replacements, for the README */
	struct scrub_counts cnt;
	unsigned int left_out;		/* capture blocks of other types */

	struct util_str lines;
	struct bundle_line *line;
	size_t nline;
	bool have_capture;
	char capture_note[160];
	struct util_str blocks;
	struct util_str text;
	struct bundle_block *block;
	size_t nblock;

	/* incident windows, boottime ns, sorted by start */
	uint64_t *win_a, *win_b;
	size_t nwin;
};

static int bundle_read(const char *dir, const char *name, char **buf,
		       size_t *len)
{
	char path[4096];
	struct util_str b = { 0 };
	char chunk[65536];
	int fd, err = 0;
	ssize_t n;

	if (name)
		snprintf(path, sizeof(path), "%s/%s", dir, name);
	else
		snprintf(path, sizeof(path), "%s", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	util_str_put(&b, "", 0);
	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			break;
		}
		util_str_put(&b, chunk, (size_t)n);
		if (b.len > BUNDLE_FILE_MAX)
			err = -EFBIG;
		if (b.oom)
			err = -ENOMEM;
		if (err)
			break;
	}
	close(fd);
	if (err) {
		free(b.s);
		return err;
	}
	*buf = b.s;
	*len = b.len;
	return 0;
}

/* a scrub's failure kept for the end, b marked so nothing more is put */
static void bundle_scrub_failed(struct bundle_ctx *c, struct util_str *b,
				int err)
{
	if (!c->scrub_err)
		c->scrub_err = err;
	b->oom = true;
}

/* text with what names a person or machine replaced, appended to b */
static void bundle_put_scrubbed(struct bundle_ctx *c, struct util_str *b,
				const char *s, size_t len)
{
	int err;

	if (!c->scrub) {
		util_str_put(b, s, len);
		return;
	}
	err = scrub_text(c->scrub, s, len, b, &c->cnt);
	if (err)
		bundle_scrub_failed(c, b, err);
}

/*
 * Where a prepared line or block made replacements, they are kept, to be
 * counted in the README of each attempt that keeps it: its rep, or 0.
 */
static int bundle_rep(struct bundle_ctx *c, const struct scrub_counts *n,
		      uint32_t *rep)
{
	static const struct scrub_counts none;
	struct scrub_counts *r;

	*rep = 0;
	if (!memcmp(n, &none, sizeof(none)))
		return 0;
	if (c->nreps == c->capreps) {
		c->capreps = c->capreps ? c->capreps * 2 : 256;
		r = realloc(c->reps, c->capreps * sizeof(*r));
		if (!r)
			return -ENOMEM;
		c->reps = r;
	}
	c->reps[c->nreps++] = *n;
	*rep = (uint32_t)c->nreps;
	return 0;
}

/* a kept line's or block's replacements into this attempt's */
static void bundle_count(struct bundle_ctx *c, uint32_t rep)
{
	unsigned int k;

	if (rep)
		for (k = 0; k < SCRUB_NCLASS; k++)
			c->cnt.n[k] += c->reps[rep - 1].n[k];
}

/* a value known beforehand; one that cannot be of its class is no error */
static int bundle_scrub_add(struct bundle_ctx *c, enum scrub_class cls,
			    const char *v)
{
	int err = v && *v ? scrub_add(c->scrub, cls, v, strlen(v)) : 0;

	return err == -EINVAL ? 0 : err;
}

/*
 * The table: the values known beforehand (the devices' serials, the
 * hostname and boot id of meta.json, the user running this and the one
 * who ran sudo), then whatever every file shows by where it stands, so a
 * name in the last file is replaced in the first too.
 */
static int bundle_scrub_init(struct bundle_ctx *c, const char *ev,
			     size_t evlen, const char *cap, size_t caplen)
{
	const struct recording *r = c->r;
	unsigned int classes = 0, k;
	struct json_object *v;
	struct passwd *pw;
	const char *u;
	char *buf;
	size_t len;
	int err = 0;

	if (!c->o->keep_serials)
		classes |= 1u << SCRUB_SERIAL;
	if (!c->o->keep_ids)
		classes |= SCRUB_IDS;
	if (!classes)
		return 0;
	c->scrub = scrub_new(classes);
	if (!c->scrub)
		return -ENOMEM;
	for (k = 0; k < c->nserials && !err; k++)
		err = bundle_scrub_add(c, SCRUB_SERIAL, c->serials[k]);
	if (!err)
		err = bundle_scrub_add(c, SCRUB_HOST, recording_meta_str(r,
					"kernel", "hostname"));
	if (!err && r->meta &&
	    json_object_object_get_ex(r->meta, "boot_id", &v) &&
	    json_object_is_type(v, json_type_string))
		err = bundle_scrub_add(c, SCRUB_BOOT_ID,
				       json_object_get_string(v));
	if (!err)
		err = bundle_scrub_add(c, SCRUB_USER, getenv("SUDO_USER"));
	pw = getuid() ? getpwuid(getuid()) : NULL;
	if (!err && pw)
		err = bundle_scrub_add(c, SCRUB_USER, pw->pw_name);
	/* learning: each file as bytes, JSON and pcapng alike */
	if (!err && r->meta) {
		u = json_object_to_json_string_ext(r->meta,
			JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
		err = scrub_learn(c->scrub, u, strlen(u));
	}
	if (!err)
		err = scrub_learn(c->scrub, ev, evlen);
	if (!err && cap)
		err = scrub_learn(c->scrub, cap, caplen);
	for (k = 0; k < 2 && !err; k++) {
		u = k ? c->o->report_html : c->o->report_txt;
		if (!u || bundle_read(u, NULL, &buf, &len))
			continue;
		err = scrub_learn(c->scrub, buf, len);
		free(buf);
	}
	return err;
}

static int bundle_prepare_events(struct bundle_ctx *c, char *buf, size_t len)
{
	struct json_tokener *tok;
	char *p, *end;
	size_t cap = 0;
	int err = 0;

	tok = json_tokener_new();
	if (!tok)
		return -ENOMEM;
	for (p = buf, end = buf + len; p < end;) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		struct json_object *o, *v;
		struct bundle_line *l;
		const char *type, *s;
		size_t n;

		if (!nl)
			break;		/* a line cut short: not whole */
		json_tokener_reset(tok);
		o = json_tokener_parse_ex(tok, p, (int)(nl - p));
		p = nl + 1;
		if (!o || !json_object_is_type(o, json_type_object)) {
			json_object_put(o);
			continue;	/* malformed: left out */
		}
		if (c->nline == cap) {
			struct bundle_line *nlines;

			cap = cap ? cap * 2 : 4096;
			nlines = realloc(c->line, cap * sizeof(*nlines));
			if (!nlines) {
				json_object_put(o);
				err = -ENOMEM;
				break;
			}
			c->line = nlines;
		}
		l = &c->line[c->nline++];
		type = json_object_object_get_ex(o, "type", &v) ?
		       json_object_get_string(v) : "";
		l->bulky = !strcmp(type, "trace") || !strcmp(type, "usbmon");
		l->t_ns = json_object_object_get_ex(o, "t", &v) ?
			  (uint64_t)(json_object_get_double(v) * 1e9) : 0;
		/* URB data only when the recording kept it on purpose */
		if (!strcmp(type, "usbmon") && !c->r->payload_set)
			json_object_object_del(o, "data");
		l->rep = 0;
		if (c->scrub) {
			struct scrub_counts lc = { { 0 } };
			struct json_object *clean;

			/* as JSON: a value next to an escape is found too */
			err = scrub_json(c->scrub, o, &clean, &lc);
			json_object_put(o);
			if (err)
				break;
			o = clean;
			err = bundle_rep(c, &lc, &l->rep);
			if (err) {
				json_object_put(o);
				break;
			}
		}
		s = json_object_to_json_string_ext(o, EVJSON_FLAGS);
		n = strlen(s);
		l->off = c->lines.len;
		util_str_put(&c->lines, s, n);
		util_str_put(&c->lines, "\n", 1);
		l->len = c->lines.len - l->off;
		json_object_put(o);
		if (c->lines.oom) {
			err = -ENOMEM;
			break;
		}
	}
	json_tokener_free(tok);
	return err;
}

static int64_t bundle_meta_int(const struct recording *r, const char *k)
{
	struct json_object *v;

	if (r->meta && json_object_object_get_ex(r->meta, k, &v) &&
	    json_object_is_type(v, json_type_int))
		return json_object_get_int64(v);
	return 0;
}

/* one EPB as its 1u text line, appended to c->text */
static void bundle_epb_text(struct bundle_ctx *c, const struct pcapng_epb *e,
			    uint64_t boot_ns)
{
	struct usbmon_event ev;
	int64_t mono;
	char line[512];

	/* a packet cut by --payload, or by the bundle itself, still parses */
	if (usbmon_parse_packet(e->data, e->caplen, &ev) < 0)
		return;
	mono = (int64_t)boot_ns - bundle_meta_int(c->r, "monotonic_to_boot_ns");
	usbmon_format_1u(&ev, usbmon_text_tstamp(mono > 0 ? (uint64_t)mono :
						   0), line, sizeof(line));
	util_str_put(&c->text, line, strlen(line));
}

/* Room for one more block in c->block.  0 or -ENOMEM. */
static int bundle_block_grow(struct bundle_ctx *c, size_t *cap)
{
	struct bundle_block *nb;

	if (c->nblock < *cap)
		return 0;
	*cap = *cap ? *cap * 2 : 1024;
	nb = realloc(c->block, *cap * sizeof(*nb));
	if (!nb)
		return -ENOMEM;
	c->block = nb;
	return 0;
}

/*
 * An Enhanced Packet Block: its text for the bundle, and (in our byte
 * order) the block again into @out with the URB data cut to what the
 * recording may keep.
 */
static int bundle_capture_epb(struct bundle_ctx *c,
			      const struct pcapng_reader *rd,
			      struct pcapng_epb *e, struct bundle_block *b,
			      struct pcapng_buf *out)
{
	uint32_t keep = e->caplen;
	struct iovec iov;

	b->epb = true;
	b->t_ns = e->ts - c->r->boot_to_real_ns;
	/* a trace record (recpkt.h): nothing personal, kept as it is */
	if (pcapng_if_linktype(rd, e->if_id) != PCAPNG_LINKTYPE_USB_LINUX_MMAPPED)
		return 0;
	/* the header (and ISO descriptors) only */
	if (!c->r->payload_set && keep > USBMON_HDR_SIZE) {
		uint32_t ndesc;

		memcpy(&ndesc, e->data + 60, 4);
		keep = USBMON_HDR_SIZE;
		if (ndesc <= USBMON_ISODESC_MAX &&
		    USBMON_HDR_SIZE + ndesc * USBMON_ISODESC_SIZE <= e->caplen)
			keep += ndesc * USBMON_ISODESC_SIZE;
	}
	/* the text shows what the capture keeps, no more */
	b->text_off = c->text.len;
	e->caplen = keep;
	bundle_epb_text(c, e, b->t_ns);
	b->text_len = c->text.len - b->text_off;
	if (rd->swapped)
		return 0;
	iov.iov_base = (void *)(uintptr_t)e->data;
	iov.iov_len = keep;
	return pcapng_put_epb_iov(out, e->if_id, e->ts, &iov, 1, e->origlen,
				  e->packet_id);
}

/*
 * A journal export block scrubbed into @out: field by field, so a value of
 * the binary form gets its new length, and the block its new length.
 */
static int bundle_capture_sje(struct bundle_ctx *c,
			      const struct pcapng_block *blk,
			      struct bundle_block *b, struct pcapng_buf *out)
{
	struct scrub_counts bc = { { 0 } };
	struct pcapng_buf e = { 0 };
	size_t n = blk->body_len;
	int err;

	while (n && !blk->body[n - 1])
		n--;	/* the block's padding */
	if (!n)
		return 0;	/* empty: copied as it is */
	err = scrub_journal(c->scrub, blk->body, n, &e, &bc);
	if (!err && e.len)
		err = pcapng_put_sje(out, e.data, e.len);
	if (!err)
		err = bundle_rep(c, &bc, &b->rep);
	pcapng_buf_free(&e);
	return err;
}

static int bundle_prepare_capture(struct bundle_ctx *c, const char *buf,
				  size_t len)
{
	struct pcapng_reader rd = { 0 };
	struct pcapng_block blk;
	struct pcapng_buf out = { 0 };
	size_t off = 0, cap = 0;
	int err = 0, ret;

	if (!buf) {
		snprintf(c->capture_note, sizeof(c->capture_note),
			 "the recording has no capture.pcapng (recorded with "
			 "--no-pcap, or usbmon was not available)");
		return 0;
	}
	while ((ret = pcapng_next_block(&rd, (const uint8_t *)buf, len, &off,
					&blk)) == 1) {
		struct bundle_block *b;
		struct pcapng_epb e;

		if (rd.swapped && (c->scrub || !c->r->payload_set)) {
			snprintf(c->capture_note, sizeof(c->capture_note),
				 "capture.pcapng left out: written in the other "
				 "byte order, which this version cannot clean");
			err = 0;
			goto out;
		}
		/*
		 * Other blocks (name resolution, secrets, custom) are not
		 * usbtrail's: Wireshark's name resolution block maps
		 * addresses to hostnames.  Left out unless ids are kept.
		 */
		if (!c->o->keep_ids && blk.type != PCAPNG_BT_SHB &&
		    blk.type != PCAPNG_BT_IDB && blk.type != PCAPNG_BT_EPB &&
		    blk.type != PCAPNG_BT_SJE) {
			c->left_out++;
			continue;
		}
		err = bundle_block_grow(c, &cap);
		if (err)
			goto out;
		b = &c->block[c->nblock];
		memset(b, 0, sizeof(*b));
		out.len = 0;
		if (blk.type == PCAPNG_BT_EPB &&
		    !pcapng_epb_parse(&rd, &blk, &e))
			err = bundle_capture_epb(c, &rd, &e, b, &out);
		else if (blk.type == PCAPNG_BT_SJE && !rd.swapped && c->scrub)
			err = bundle_capture_sje(c, &blk, b, &out);
		if (err)
			goto out;
		b->off = c->blocks.len;
		if (out.len)
			util_str_put(&c->blocks, (const char *)out.data,
				    out.len);
		else
			util_str_put(&c->blocks, buf + off - blk.total_len,
				    blk.total_len);
		b->len = c->blocks.len - b->off;
		c->nblock++;
		if (c->blocks.oom || c->text.oom) {
			err = -ENOMEM;
			goto out;
		}
	}
	if (ret < 0)
		snprintf(c->capture_note, sizeof(c->capture_note),
			 "capture.pcapng ends in a damaged block at byte %zu: "
			 "the bundle has the whole blocks before it", off);
	c->have_capture = c->nblock > 0;
out:
	pcapng_buf_free(&out);
	return err;
}

static int bundle_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* the incidents' times (and a dip's end), sorted */
static int bundle_prepare_windows(struct bundle_ctx *c)
{
	const struct recording *r = c->r;
	size_t i, n = 0;

	c->win_a = calloc(2 * r->nevs + 2, sizeof(uint64_t));
	if (!c->win_a)
		return -ENOMEM;
	c->win_b = c->win_a + r->nevs + 1;
	for (i = 0; i < r->nevs; i++) {
		const struct ev *ev = &r->evs[i];

		if (ev->type != EV_INCIDENT)
			continue;
		c->win_a[n] = ev->t_ns;
		n++;
	}
	if (!n)
		c->win_a[n++] = r->t_last_ns;	/* no incident: the end */
	qsort(c->win_a, n, sizeof(uint64_t), bundle_cmp_u64);
	/* a dip lasts: its end is a point of interest too */
	for (i = 0; i < r->nevs; i++) {
		const struct ev *ev = &r->evs[i];
		size_t k;

		if (ev->type != EV_INCIDENT ||
		    !(classify_kind_carries(ev->u.incident.inc.kind) &
		      CLASSIFY_C_DIP))
			continue;
		for (k = 0; k < n; k++)
			if (c->win_a[k] == ev->t_ns)
				break;
		if (k < n && !c->win_b[k])
			c->win_b[k] = ev->t_ns + (uint64_t)(
				ev->u.incident.dip_secs * 1e9);
	}
	for (i = 0; i < n; i++)
		if (c->win_b[i] < c->win_a[i])
			c->win_b[i] = c->win_a[i];
	c->nwin = n;
	return 0;
}

/* t within w seconds of an incident; w < 0: everything, 0: nothing */
static bool bundle_near(const struct bundle_ctx *c, uint64_t t, double w)
{
	uint64_t wn = (uint64_t)(w * 1e9);
	size_t i;

	if (w < 0)
		return true;
	if (w == 0)
		return false;
	for (i = 0; i < c->nwin; i++)
		if (t + wn >= c->win_a[i] && t <= c->win_b[i] + wn)
			return true;
	return false;
}

static void bundle_kernel_log(struct bundle_ctx *c, struct util_str *b)
{
	const struct recording *r = c->r;
	uint64_t wn = (uint64_t)(BUNDLE_KLOG_WINDOW * 1e9);
	size_t i, k;
	char sum[600];

	util_str_printf(b, "# Kernel log lines within %.0f s of each incident, "
		      "on the recording's clock (CLOCK_BOOTTIME, seconds).\n",
		      BUNDLE_KLOG_WINDOW);
	for (i = 0; i < r->nevs; i++) {
		const struct ev *inc = &r->evs[i];

		if (inc->type != EV_INCIDENT)
			continue;
		ev_incident_summary(inc, sum, sizeof(sum));
		util_str_printf(b, "\n## incident %" PRIu64 " at %.6f: ", inc->id,
			      (double)inc->t_ns / 1e9);
		bundle_put_scrubbed(c, b, sum, strlen(sum));
		util_str_put(b, "\n", 1);
		for (k = 0; k < r->nevs; k++) {
			const struct ev *ev = &r->evs[k];
			uint64_t end = inc->t_ns + (uint64_t)(
				inc->u.incident.dip_secs * 1e9);

			if (ev->type != EV_KLOG || ev->t_ns + wn < inc->t_ns ||
			    ev->t_ns > end + wn)
				continue;
			util_str_printf(b, "[%12.6f] <%d> ",
				      (double)ev->t_ns / 1e9, ev->u.klog.level);
			bundle_put_scrubbed(c, b, ev->u.klog.text,
					    strlen(ev->u.klog.text));
			util_str_put(b, "\n", 1);
		}
	}
}

/* JSON v scrubbed as JSON, pretty, appended to b */
static void bundle_put_json(struct bundle_ctx *c, struct util_str *b,
			    struct json_object *v)
{
	struct json_object *clean = NULL;
	const char *s;
	int err;

	if (c->scrub) {
		err = scrub_json(c->scrub, v, &clean, &c->cnt);
		if (err) {
			bundle_scrub_failed(c, b, err);
			return;
		}
		v = clean;
	}
	s = json_object_to_json_string_ext(v, JSON_C_TO_STRING_PRETTY |
					   JSON_C_TO_STRING_NOSLASHESCAPE);
	util_str_put(b, s, strlen(s));
	json_object_put(clean);
}

static void bundle_json_member(struct bundle_ctx *c, struct util_str *b,
			       const char *key)
{
	struct json_object *v;

	if (!c->r->meta || !json_object_object_get_ex(c->r->meta, key, &v)) {
		util_str_printf(b, "(%s: not in meta.json)\n", key);
		return;
	}
	bundle_put_json(c, b, v);
	util_str_put(b, "\n", 1);
}

/* meta.json "descriptors" (recorded from sysfs), lsusb -v style */
static void bundle_descriptors(struct bundle_ctx *c, struct util_str *b)
{
	struct json_object *o;
	struct usbdesc_device *d;

	if (!c->r->meta ||
	    !json_object_object_get_ex(c->r->meta, "descriptors", &o) ||
	    !json_object_is_type(o, json_type_object)) {
		util_str_printf(b, "\n# The recording has no raw descriptors "
			      "(made by an older usbtrail record); lsusb -v -d "
			      "VID:PID on the machine gives them.\n");
		return;
	}
	d = malloc(sizeof(*d));
	if (!d) {
		b->oom = true;
		return;
	}
	json_object_object_foreach(o, usb, v) {
		bool ss = false;
		char *text = NULL;
		size_t n, tlen = 0, i;
		FILE *f;
		int err;

		(void)v;
		util_str_printf(b, "\n# Descriptors of usb %s as sysfs had them "
			      "when recording began (lsusb -v layout)\n", usb);
		for (i = 0; i < c->r->ndisks; i++)
			if (!strcmp(c->r->disks[i].usb, usb))
				ss = c->r->disks[i].device.speed_mbps >= 5000;
		err = meta_descriptors_read(c->r->meta, usb, d, &n);
		if (err == -ENOMEM) {
			b->oom = true;
			break;
		}
		if (err) {
			util_str_printf(b, "(malformed: %zu bytes)\n", n);
			continue;
		}
		f = open_memstream(&text, &tlen);
		if (f) {
			lsusb_print(f, d, ss);
			fclose(f);
			util_str_put(b, text, tlen);
		}
		free(text);
	}
	free(d);
}

static void bundle_devices(struct bundle_ctx *c, struct util_str *b)
{
	const struct recording *r = c->r;
	unsigned int i;
	char serial[80], speed[32];

	util_str_printf(b, "# USB disks of the recording (its device events), "
		      "in the manner of lsusb.\n");
	for (i = 0; i < r->ndisks; i++) {
		const struct recording_disk *d = &r->disks[i];
		const struct ev_device *dv = &d->device;

		if (!d->have_device)
			continue;
		report_serial(dv->serial, c->o->keep_serials, serial,
			      sizeof(serial));
		if (!c->o->keep_serials && serial[0])
			c->cnt.n[SCRUB_SERIAL]++;
		util_str_printf(b, "\nBus %03d Device %03d: ID %04x:%04x ",
			      d->busnum, d->devnum, dv->vid, dv->pid);
		bundle_put_scrubbed(c, b, dv->product, strlen(dv->product));
		util_str_printf(b, "\n  port path     %s\n  disk          %s\n"
			      "  speed         %s\n  driver        %s\n"
			      "  iSerial       %s\n  host          ",
			      d->usb, d->disk,
			      util_format_speed(speed, sizeof(speed),
						dv->speed_mbps), dv->driver,
			      serial[0] ? serial : "(none)");
		/* the controller's name: a PCI address, left as it is */
		bundle_put_scrubbed(c, b, dv->hcd, strlen(dv->hcd));
		util_str_printf(b, " (%s)\n", dv->hcd_driver);
	}
	bundle_descriptors(c, b);
	util_str_printf(b, "\n# The 'usbtrail uas' verdicts when recording "
		      "began (uas-verdicts.json has them whole):\n");
	bundle_json_member(c, b, "uas");
}

static void bundle_kernel(struct bundle_ctx *c, struct util_str *b)
{
	const struct recording *r = c->r;
	const char *keys[] = { "usbtrail", "kernel", "trace_source", "sources",
			       "sinks", "notes", "incidents", "events",
			       "dropped", "seconds", "stopped_by" };
	size_t i;

	util_str_printf(b, "# Kernel, usbtrail version and the recorder's "
		      "counters (from meta.json)\n");
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		util_str_printf(b, "\n%s: ", keys[i]);
		bundle_json_member(c, b, keys[i]);
	}
	util_str_printf(b, "\nlost events (the recording's lost events):\n");
	for (i = 0; i < r->nevs; i++) {
		if (r->evs[i].type != EV_LOST)
			continue;
		util_str_printf(b, "  %.6f %s: %" PRIu64 " (total %" PRIu64
			      "): ", (double)r->evs[i].t_ns / 1e9,
			      ev_source_name(r->evs[i].u.lost.source),
			      r->evs[i].u.lost.count, r->evs[i].u.lost.total);
		bundle_put_scrubbed(c, b, r->evs[i].u.lost.why,
				    strlen(r->evs[i].u.lost.why));
		util_str_put(b, "\n", 1);
	}
}

/* what was replaced, per class, and how often: never the values */
static void bundle_readme_ids(struct bundle_ctx *c, struct util_str *b)
{
	unsigned int k;

	if (c->o->keep_ids) {
		util_str_printf(b, "Hostnames, user names, addresses and ids: "
			      "kept as recorded (--keep-ids).\n");
		return;
	}
	util_str_printf(b, "Hostnames, user names, addresses and ids: each "
		      "value replaced by one token, the\nsame in every file "
		      "(--keep-ids keeps them); replacements:\n");
	for (k = 0; k < SCRUB_NCLASS; k++)
		if (k != SCRUB_SERIAL)
			util_str_printf(b, "  %s: %" PRIu64 " (as %s, ...)\n",
				      scrub_class_name(k), c->cnt.n[k],
				      scrub_class_token(k));
	util_str_printf(b, "Not looked into: URB data (kept only when "
		      "recorded with --payload), hex bytes\n(trace records, "
		      "sense, descriptors), capture block options.\n");
}

static void bundle_readme(struct bundle_ctx *c, struct util_str *b,
			  const char *trim)
{
	util_str_printf(b,
"usbtrail bug-report bundle\n"
"==========================\n\n"
"Made by 'usbtrail report --bundle' from a recording of 'usbtrail record'.\n"
"Times are CLOCK_BOOTTIME seconds unless said otherwise (docs/formats.md).\n\n"
"report.txt        the report: devices, throughput, incidents with the kernel\n"
"                  lines and trace records behind each, what to try next\n"
"report.html       the same with plots; opens from disk, fetches nothing\n"
"capture.pcapng    usbmon packets, trace records (xHCI, SCSI, block), kernel\n"
"                  lines and incidents for Wireshark/tshark (trace records:\n"
"                  tools/wireshark/usbtrail.lua of usbtrail's sources)\n"
"usbmon-1u.txt     the usbmon packets as usbmon's 1u text\n"
"                  (/sys/kernel/debug/usb/usbmon/Nu), the form maintainers ask for\n"
"events.jsonl      the other events, one JSON object a line ('usbtrail export\n"
"                  --jsonl' of this directory gives all of them as lines)\n"
"kernel-log.txt    the kernel log around each incident\n"
"devices.txt       the USB disks (id, speed, driver, port, host controller)\n"
"uas-verdicts.json the 'usbtrail uas' verdict of each USB storage interface\n"
"kernel.txt        kernel version, usbtrail version, sources and their counters\n"
"meta.json         the recording's own description\n\n");
	for (unsigned int i = 0; i < c->o->nextra; i++)
		util_str_printf(b, "%-17s %s\n", c->o->extra[i].name,
				c->o->extra[i].what);
	if (c->o->nextra)
		util_str_put(b, "\n", 1);
	util_str_printf(b, "Size: kept under %" PRIu64 " bytes (--max-size). %s\n",
		      c->o->max_size, trim[0] ? trim : "Nothing was cut.");
	if (c->capture_note[0])
		util_str_printf(b, "Capture: %s.\n", c->capture_note);
	if (c->left_out)
		util_str_printf(b, "Capture: %u blocks of other kinds than "
			      "usbtrail writes (name resolution, comments) left "
			      "out; --keep-ids keeps them.\n", c->left_out);
	if (c->o->keep_serials)
		util_str_printf(b, "Serial numbers: kept as the devices report "
			      "them (--keep-serials).\n");
	else
		util_str_printf(b, "Serial numbers: replaced everywhere by "
			      "'sha256:' and the first 16 hex digits of their "
			      "SHA-256 (--keep-serials keeps them): %" PRIu64
			      " replacements.\n", c->cnt.n[SCRUB_SERIAL]);
	bundle_readme_ids(c, b);
	util_str_printf(b, "URB data: %s\n", c->r->payload_set ?
		      "kept as recorded (the recording was made with "
		      "--payload on purpose)." :
		      "dropped: packets keep usbmon's header (and ISO "
		      "descriptors) only; record with --payload N to keep N "
		      "bytes on purpose.");
}

static int bundle_add_str(struct tar_buf *t, const char *name,
			  struct util_str *s, uint64_t mtime)
{
	char full[128];
	int err;

	if (s->oom) {
		free(s->s);
		return -ENOMEM;
	}
	snprintf(full, sizeof(full), BUNDLE_TOP "%s", name);
	err = tar_add(t, full, s->s ? s->s : "", s->len, mtime);
	free(s->s);
	memset(s, 0, sizeof(*s));
	return err;
}

/* a file written before (report.txt), scrubbed, into s */
static int bundle_read_scrubbed(struct bundle_ctx *c, const char *path,
				struct util_str *s)
{
	char *buf;
	size_t len;
	int err;

	err = bundle_read(path, NULL, &buf, &len);
	if (err)
		return err;
	util_str_put(s, "", 0);
	bundle_put_scrubbed(c, s, buf, len);
	free(buf);
	return 0;
}

static int bundle_gzip(const struct tar_buf *t, uint8_t **out, size_t *len)
{
	z_stream z;
	uint8_t *buf;
	size_t cap;
	int ret;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	cap = deflateBound(&z, t->len) + 64;
	buf = malloc(cap);
	if (!buf) {
		deflateEnd(&z);
		return -ENOMEM;
	}
	z.next_in = t->data;
	z.avail_in = (uInt)t->len;
	z.next_out = buf;
	z.avail_out = (uInt)cap;
	ret = deflate(&z, Z_FINISH);
	*len = z.total_out;
	deflateEnd(&z);
	if (ret != Z_STREAM_END) {
		free(buf);
		return -EIO;
	}
	*out = buf;
	return 0;
}

/* The files of the bundle, in the archive's order. */
enum bundle_file {
	BUNDLE_F_README,
	BUNDLE_F_REPORT_TXT,
	BUNDLE_F_REPORT_HTML,
	BUNDLE_F_CAPTURE,
	BUNDLE_F_USBMON,
	BUNDLE_F_EVENTS,
	BUNDLE_F_KLOG,
	BUNDLE_F_DEVICES,
	BUNDLE_F_UAS,
	BUNDLE_F_KERNEL,
	BUNDLE_F_META,
	BUNDLE_NFILES
};

static const char *const bundle_file_names[BUNDLE_NFILES] = {
	[BUNDLE_F_README] = "README.txt",
	[BUNDLE_F_REPORT_TXT] = "report.txt",
	[BUNDLE_F_REPORT_HTML] = "report.html",
	[BUNDLE_F_CAPTURE] = "capture.pcapng",
	[BUNDLE_F_USBMON] = "usbmon-1u.txt",
	[BUNDLE_F_EVENTS] = "events.jsonl",
	[BUNDLE_F_KLOG] = "kernel-log.txt",
	[BUNDLE_F_DEVICES] = "devices.txt",
	[BUNDLE_F_UAS] = "uas-verdicts.json",
	[BUNDLE_F_KERNEL] = "kernel.txt",
	[BUNDLE_F_META] = "meta.json",
};

/* the capture's blocks and their 1u text, at window w */
static void bundle_build_capture(struct bundle_ctx *c, double w,
				 struct util_str *pcap, struct util_str *text)
{
	size_t i;

	for (i = 0; i < c->nblock; i++) {
		const struct bundle_block *b = &c->block[i];

		if (b->epb && !bundle_near(c, b->t_ns, w))
			continue;
		util_str_put(pcap, c->blocks.s + b->off, b->len);
		bundle_count(c, b->rep);
		if (b->epb)
			util_str_put(text, c->text.s + b->text_off,
				     b->text_len);
	}
	util_str_put(text, "", 0);
}

/*
 * One attempt at window w; the archive in *t.  Every file is made first,
 * the README last, as it counts what the others replaced; it goes into
 * the archive first all the same.
 */
static int bundle_build(struct bundle_ctx *c, double w, const char *trim,
			struct tar_buf *t)
{
	struct util_str f[BUNDLE_NFILES];
	bool have[BUNDLE_NFILES];
	size_t i;
	int err = 0;

	memset(f, 0, sizeof(f));
	memset(&c->cnt, 0, sizeof(c->cnt));
	for (i = 0; i < BUNDLE_NFILES; i++)
		have[i] = true;
	have[BUNDLE_F_REPORT_TXT] = c->o->report_txt;
	have[BUNDLE_F_REPORT_HTML] = c->o->report_html;
	have[BUNDLE_F_CAPTURE] = c->have_capture;
	have[BUNDLE_F_USBMON] = c->have_capture;
	have[BUNDLE_F_META] = c->r->meta;
	if (c->o->report_txt)
		err = bundle_read_scrubbed(c, c->o->report_txt,
					   &f[BUNDLE_F_REPORT_TXT]);
	if (!err && c->o->report_html)
		err = bundle_read_scrubbed(c, c->o->report_html,
					   &f[BUNDLE_F_REPORT_HTML]);
	if (err)
		goto out;
	if (c->have_capture)
		bundle_build_capture(c, w, &f[BUNDLE_F_CAPTURE],
				     &f[BUNDLE_F_USBMON]);
	for (i = 0; i < c->nline; i++) {
		if (c->line[i].bulky && !bundle_near(c, c->line[i].t_ns, w))
			continue;
		util_str_put(&f[BUNDLE_F_EVENTS], c->lines.s + c->line[i].off,
			     c->line[i].len);
		bundle_count(c, c->line[i].rep);
	}
	bundle_kernel_log(c, &f[BUNDLE_F_KLOG]);
	bundle_devices(c, &f[BUNDLE_F_DEVICES]);
	bundle_json_member(c, &f[BUNDLE_F_UAS], "uas");
	bundle_kernel(c, &f[BUNDLE_F_KERNEL]);
	if (c->r->meta)
		bundle_put_json(c, &f[BUNDLE_F_META], c->r->meta);
	bundle_readme(c, &f[BUNDLE_F_README], trim);
	err = c->scrub_err;
	for (i = 0; i < BUNDLE_NFILES && !err; i++)
		if (have[i])
			err = bundle_add_str(t, bundle_file_names[i], &f[i],
					     c->mtime);
	for (i = 0; i < c->o->nextra && !err; i++) {
		struct util_str x = { 0 };

		err = bundle_read_scrubbed(c, c->o->extra[i].path, &x);
		if (!err)
			err = bundle_add_str(t, c->o->extra[i].name, &x,
					     c->mtime);
		else
			free(x.s);
	}
	if (!err)
		err = tar_finish(t);
out:
	for (i = 0; i < BUNDLE_NFILES; i++)
		free(f[i].s);
	return err;
}

/* one bundle at window w (seconds; -1 all, 0 none), compressed, in *gz */
static int bundle_attempt(struct bundle_ctx *c, double w,
			  struct bundle_result *res, uint8_t **gz,
			  size_t *gzlen)
{
	struct tar_buf t = { 0 };
	int err;

	if (w < 0)
		res->trimmed[0] = '\0';
	else if (w > 0)
		snprintf(res->trimmed, sizeof(res->trimmed), "capture packets "
			 "and trace records kept within %g s of an incident "
			 "only", w);
	else
		snprintf(res->trimmed, sizeof(res->trimmed), "no capture "
			 "packets and no trace records kept (kernel lines, "
			 "incidents and samples only)");
	*gz = NULL;
	err = bundle_build(c, w, res->trimmed, &t);
	if (!err)
		err = bundle_gzip(&t, gz, gzlen);
	tar_free(&t);
	return err;
}

static int bundle_save(const struct bundle_opts *o, const uint8_t *data,
		       size_t len)
{
	char local[4200];

	return o->tmp ? savefile_write(o->path, data, len, o->tmp, o->tmplen) :
			savefile_write(o->path, data, len, local, sizeof(local));
}

static void bundle_ctx_free(struct bundle_ctx *c)
{
	scrub_free(c->scrub);
	free(c->reps);
	free(c->lines.s);
	free(c->line);
	free(c->blocks.s);
	free(c->text.s);
	free(c->block);
	free(c->win_a);
}

int bundle_write(const struct recording *r, const struct bundle_opts *o,
		 struct bundle_result *res)
{
	/* seconds around incidents; -1 all, 0 none */
	static const double windows[] = { -1, 30, 10, 5, 2, 1, 0.5, 0.2, 0.1,
					  0 };
	struct bundle_ctx c = { .r = r, .o = o };
	uint8_t *gz = NULL;
	uint8_t *best = NULL;
	size_t gzlen = 0, bestlen = 0, w, nw, lo, hi, evlen = 0, caplen = 0;
	char trimmed[sizeof(res->trimmed)];
	char *ev = NULL, *cap = NULL;
	int err;

	memset(res, 0, sizeof(*res));
	if (o->nextra > BUNDLE_EXTRA_MAX)
		return -EINVAL;
	c.mtime = (uint64_t)time(NULL);
	c.nserials = recording_serials(r, c.serials, BUNDLE_SERIALS_MAX);
	err = bundle_prepare_windows(&c);
	if (!err) {
		snprintf(res->error, sizeof(res->error), "events.jsonl");
		err = bundle_read(o->dir, "events.jsonl", &ev, &evlen);
	}
	if (!err) {
		snprintf(res->error, sizeof(res->error), "capture.pcapng");
		err = bundle_read(o->dir, "capture.pcapng", &cap, &caplen);
		if (err == -ENOENT)
			err = 0;
	}
	if (!err)
		err = bundle_scrub_init(&c, ev, evlen, cap, caplen);
	if (!err) {
		snprintf(res->error, sizeof(res->error), "events.jsonl");
		err = bundle_prepare_events(&c, ev, evlen);
	}
	free(ev);
	if (!err) {
		snprintf(res->error, sizeof(res->error), "capture.pcapng");
		err = bundle_prepare_capture(&c, cap, caplen);
	}
	free(cap);
	if (err)
		goto out;
	res->error[0] = '\0';
	/*
	 * The smallest form first: if even that does not fit, say so at
	 * once.  Otherwise the widest window that fits: sizes shrink as the
	 * window narrows, so a binary search over the windows finds it in a
	 * few attempts.  best holds the bundle of window hi, which fits.
	 */
	nw = sizeof(windows) / sizeof(windows[0]);
	hi = nw - 1;
	err = bundle_attempt(&c, windows[hi], res, &best, &bestlen);
	if (err)
		goto out;
	gz = best;
	gzlen = bestlen;
	if (bestlen <= o->max_size) {
		snprintf(trimmed, sizeof(trimmed), "%s", res->trimmed);
		lo = 0;
		while (lo < hi) {
			w = (lo + hi) / 2;
			err = bundle_attempt(&c, windows[w], res, &gz, &gzlen);
			if (err)
				goto out;
			if (gzlen <= o->max_size) {
				free(best);
				best = gz;
				bestlen = gzlen;
				snprintf(trimmed, sizeof(trimmed), "%s",
					 res->trimmed);
				hi = w;
			} else {
				free(gz);
				lo = w + 1;
			}
			gz = NULL;
		}
		gz = best;
		gzlen = bestlen;
		snprintf(res->trimmed, sizeof(res->trimmed), "%s", trimmed);
	}
	best = NULL;
	if (gzlen > o->max_size) {
		snprintf(res->error, sizeof(res->error), "%zu bytes even with "
			 "%s, over --max-size %" PRIu64, gzlen, res->trimmed,
			 o->max_size);
		err = -EFBIG;
		goto out;
	}
	err = bundle_save(o, gz, gzlen);
	if (err)
		snprintf(res->error, sizeof(res->error), "writing %s", o->path);
	else
		res->size = gzlen;
out:
	if (err == -E2BIG)
		snprintf(res->error, sizeof(res->error), "more than %u distinct "
			 "hostnames, user names, addresses and ids to replace "
			 "(--keep-ids keeps them)", SCRUB_VALUES_MAX);
	free(gz);
	free(best);
	bundle_ctx_free(&c);
	return err;
}
