// SPDX-License-Identifier: GPL-2.0-only
/*
 * report.c - what both report writers need of a recording: the quirk
 * line of an advice for its disks, incidents in order, times since the
 * start, sense as text, a disk's topology and uas verdict, the
 * escaping of untrusted text into HTML and SVG, and a report written
 * whole to its file.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bundle.h"
#include "report.h"
#include "savefile.h"
#include "util.h"

bool report_advice_quirk(const struct recording *r, const size_t *idx,
			 size_t n, int id, char *buf, size_t len)
{
	bool seen[RECORDING_DISKS_MAX] = { false };
	size_t i, off = 0;
	int d;

	if (!report_advice_wants_quirk(id))
		return false;
	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		const struct ev *ev = &r->evs[idx[i]];
		const struct ev_device *dv;
		int m;

		if (report_advice_id(ev) != id)
			continue;
		d = recording_disk_find(r, ev->ident.disk);
		if (d < 0 || seen[d] || !r->disks[d].have_device)
			continue;
		seen[d] = true;
		dv = &r->disks[d].device;
		if (strcmp(dv->driver, "uas"))
			continue;	/* already on usb-storage */
		m = snprintf(buf + off, len - off, "%susb-storage.quirks="
			     "%04x:%04x:u (%s)", off ? "; " : "", dv->vid,
			     dv->pid, r->disks[d].disk);
		if (m < 0 || (size_t)m >= len - off)
			break;
		off += (size_t)m;
	}
	return off > 0;
}

double report_rel(const struct recording *r, uint64_t t_ns)
{
	struct json_object *v;
	double t0 = (double)r->t_first_ns / 1e9;

	if (r->meta && json_object_object_get_ex(r->meta, "started_t", &v) &&
	    (json_object_is_type(v, json_type_double) ||
	     json_object_is_type(v, json_type_int)))
		t0 = json_object_get_double(v);
	return (double)t_ns / 1e9 - t0;
}

static const struct recording *report_sort_rec;

static int report_cmp_inc(const void *a, const void *b)
{
	const struct ev *x = &report_sort_rec->evs[*(const size_t *)a];
	const struct ev *y = &report_sort_rec->evs[*(const size_t *)b];

	if (x->t_ns != y->t_ns)
		return x->t_ns < y->t_ns ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

size_t *report_incidents(const struct recording *r, size_t *n)
{
	size_t *idx = calloc(r->nevs + 1, sizeof(*idx));
	size_t i, k = 0;

	*n = 0;
	if (!idx)
		return NULL;
	for (i = 0; i < r->nevs; i++)
		if (r->evs[i].type == EV_INCIDENT)
			idx[k++] = i;
	/* qsort has no context argument; the writers are single-threaded */
	report_sort_rec = r;
	if (k)
		qsort(idx, k, sizeof(*idx), report_cmp_inc);
	report_sort_rec = NULL;
	*n = k;
	return idx;
}

void report_sense_text(const struct ev *inc, char *buf, size_t len)
{
	const struct classify_incident *c = &inc->u.incident.inc;
	const char *asc;

	if (!(classify_kind_carries(c->kind) & CLASSIFY_C_SENSE) ||
	    c->key < 0) {
		buf[0] = '\0';
		return;
	}
	asc = c->asc_text[0] ? c->asc_text :
	      (c->asc >= 0 ? classify_asc_text(c->asc, c->ascq) : NULL);
	snprintf(buf, len, "%02x/%02x/%02x %s%s%s", c->key & 0xff,
		 c->asc < 0 ? 0 : c->asc & 0xff,
		 c->ascq < 0 ? 0 : c->ascq & 0xff,
		 c->key_text ? c->key_text : "?", asc ? ": " : "",
		 asc ? asc : "");
}

/* o[k] when it is a string, else "" (for printing) */
static const char *report_json_s(struct json_object *o, const char *k)
{
	const char *s = report_json_str(o, k, NULL);

	return s ? s : "";
}

/*
 * "5000M", "1.5M" as lsusb -t has it, from the verdict's speed (a number,
 * or null when sysfs gave none we could read), or "speed unknown".
 */
static const char *report_json_speed(struct json_object *o, char *buf,
				     size_t len)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, "speed", &v) ||
	    !(json_object_is_type(v, json_type_int) ||
	      json_object_is_type(v, json_type_double)) ||
	    json_object_get_double(v) <= 0)
		snprintf(buf, len, "speed unknown");
	else if (json_object_is_type(v, json_type_int))
		snprintf(buf, len, "%" PRId64 "M", json_object_get_int64(v));
	else
		snprintf(buf, len, "%gM", json_object_get_double(v));
	return buf;
}

bool report_topology(const struct recording *r, const char *disk, char *buf,
		     size_t len)
{
	struct json_object *e = report_uas(r, disk), *hcd, *hubs;
	char speed[32];
	size_t i, off;
	int n;

	buf[0] = '\0';
	if (!e || !json_object_object_get_ex(e, "hcd", &hcd))
		return false;
	n = snprintf(buf, len, "%s %s [%s]", report_json_s(hcd, "device"),
		     report_json_s(hcd, "chip"),
		     report_json_s(hcd, "pci_id"));
	off = n > 0 && (size_t)n < len ? (size_t)n : 0;
	if (json_object_object_get_ex(hcd, "hubs", &hubs) &&
	    json_object_is_type(hubs, json_type_array)) {
		for (i = 0; i < json_object_array_length(hubs) && off < len;
		     i++) {
			struct json_object *h = json_object_array_get_idx(hubs,
									  i);

			n = snprintf(buf + off, len - off, " > %s %s:%s %s %s",
				     report_json_s(h, "usb"),
				     report_json_s(h, "vid"),
				     report_json_s(h, "pid"),
				     report_json_s(h, "product"),
				     report_json_speed(h, speed,
						       sizeof(speed)));
			if (n < 0 || (size_t)n >= len - off)
				return true;
			off += (size_t)n;
		}
	}
	snprintf(buf + off, len - off, " > %s %s:%s %s (%s)",
		 report_json_s(e, "usb"), report_json_s(e, "vid"),
		 report_json_s(e, "pid"), report_json_speed(e, speed,
							     sizeof(speed)),
		 disk);
	return true;
}

/* the uas verdict meta.json holds for a disk, or NULL */
struct json_object *report_uas(const struct recording *r, const char *disk)
{
	struct json_object *a, *o, *b;
	size_t i;

	if (!r->meta || !json_object_object_get_ex(r->meta, "uas", &a) ||
	    !json_object_is_type(a, json_type_array))
		return NULL;
	for (i = 0; i < json_object_array_length(a); i++) {
		o = json_object_array_get_idx(a, i);
		if (json_object_object_get_ex(o, "block", &b) &&
		    json_object_is_type(b, json_type_string) &&
		    !strcmp(json_object_get_string(b), disk))
			return o;
	}
	return NULL;
}

/* o[k1] (or o[k1][k2]) when it is a string, else NULL */
const char *report_json_str(struct json_object *o, const char *k1,
			    const char *k2)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, k1, &v))
		return NULL;
	if (k2 && !json_object_object_get_ex(v, k2, &v))
		return NULL;
	return v && json_object_is_type(v, json_type_string) ?
	       json_object_get_string(v) : NULL;
}

void report_esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			/* control characters would not show; keep the place */
			if ((unsigned char)*s < 0x20 && *s != '\t')
				fputs("\xef\xbf\xbd", f);
			else
				fputc(*s, f);
		}
	}
}

const char *report_kind_colour(enum classify_kind k)
{
	switch (classify_kind_class(k)) {
	case CLASSIFY_CLASS_RECOVERY:
		return "#2a8a2a";
	case CLASSIFY_CLASS_SLOW:
		return "#e08000";
	case CLASSIFY_CLASS_STEP:
		return "#8a2be2";
	case CLASSIFY_CLASS_ERROR:
		break;
	}
	return "#c00020";
}

void report_stress_rate(char *buf, size_t len,
			const struct recording_stress *s, bool cut)
{
	if (s)
		snprintf(buf, len, "%.1f", s->mbps);
	else
		snprintf(buf, len, "%s", cut ? "(cut)" : "-");
}

bool report_stress_latency(char *buf, size_t len,
			   const struct recording_stress *s)
{
	if (!s || s->lat_p99_us < 0)
		return false;
	snprintf(buf, len, "p50 %.1f  p99 %.1f  p99.9 %.1f  max %.1f",
		 s->lat_p50_us, s->lat_p99_us, s->lat_p999_us, s->lat_max_us);
	return true;
}

/**
 * report_stress_target() - who a stress run's target was, in one line
 * @r:    the recording
 * @u:    the run
 * @keep: show the serial (else hashed, as everywhere in the report)
 * @buf:  "/dev/sdc: sdc, usb 2-1 46f4:0001 \"Ultra\", 5000M, driver uas,
 *        serial ...", or "/dev/dm-0: dm-0, not a USB disk"; a recording
 *        of an older stress, whose markers name no disk: the device
 *        events' of /dev/NAME, else the target alone
 * @len:  its size
 *
 * The identity is the recorder's device events' for the disk the run's
 * start marker names; a disk it did not see keeps the marker's words.
 */
void report_stress_target(const struct recording *r,
			  const struct recording_stress_run *u, bool keep,
			  char *buf, size_t len)
{
	const char *target = u->target[0] ? u->target : "?";
	const struct recording_disk *d;
	char serial[80], speed[32];
	unsigned int k;
	int i = -1;

	if (!strcmp(u->usb, "-")) {
		snprintf(buf, len, "%s: %s%snot a USB disk", target,
			 strcmp(u->disk, "-") ? u->disk : "",
			 strcmp(u->disk, "-") ? ", " : "");
		return;
	}
	if (u->disk[0])
		i = recording_disk_find(r, u->disk);
	else
		/* an older stress: the disk that moved its run's bytes */
		for (k = 0; k < r->nstress && i < 0; k++)
			if (!strcmp(r->stress[k].run, u->run))
				i = recording_stress_disk(r, &r->stress[k]);
	if (i < 0 || !r->disks[i].have_device) {
		if (u->disk[0])
			snprintf(buf, len, "%s: %s, usb %s", target, u->disk,
				 u->usb);
		else
			snprintf(buf, len, "%s", target);
		return;
	}
	d = &r->disks[i];
	report_serial(d->device.serial, keep, serial, sizeof(serial));
	snprintf(buf, len, "%s: %s, usb %s %04x:%04x \"%s\", %s, driver %s, "
		 "serial %s", target, d->disk, d->usb[0] ? d->usb : u->usb,
		 d->device.vid, d->device.pid, d->device.product,
		 util_format_speed(speed, sizeof(speed),
				   d->device.speed_mbps),
		 d->device.driver[0] ? d->device.driver : "none",
		 serial[0] ? serial : "none");
}

/* "fake capacity: usable ... of a run": "" when the run found none. */
void report_stress_verdict(const struct recording_stress_run *u, char *buf,
			   size_t len)
{
	char usable[32], wrap[32];

	if (!u->fake) {
		snprintf(buf, len, "%s", "");
		return;
	}
	util_format_size(usable, sizeof(usable), u->usable);
	util_format_size(wrap, sizeof(wrap), u->wrap);
	snprintf(buf, len, "fake capacity: usable size %s (%" PRIu64
		 " bytes), writes wrap every %s (%" PRIu64 " bytes)", usable,
		 u->usable, wrap, u->wrap);
}
#define REPORT_SERIALS_MAX	64

/*
 * PATH written whole through a temporary file in its directory: the
 * writer's output in memory first, serials hashed in all of it (kernel
 * lines quote them too) unless kept, then written out.
 */
int report_write_file(const char *path, report_writer w,
		      const struct recording *r, const struct report_opts *o,
		      char *tmp, size_t tmplen)
{
	const char *serials[REPORT_SERIALS_MAX];
	char *text = NULL, *out = NULL;
	size_t len = 0, outlen, off = 0;
	unsigned int nserials;
	FILE *f;
	int err;

	f = open_memstream(&text, &len);
	if (!f)
		return -errno;
	err = w(f, r, o);
	if (fclose(f) && !err)
		err = -ENOMEM;
	if (err) {
		free(text);
		return err;
	}
	nserials = o->keep_serials ? 0 :
		   recording_serials(r, serials, REPORT_SERIALS_MAX);
	if (nserials) {
		err = bundle_scrub(text, len, serials, nserials, &out, &outlen);
		free(text);
		if (err)
			return err;
		text = out;
		len = outlen;
	}
	if (!strcmp(path, "-")) {
		/* standard output: no temporary file, every byte or an error */
		err = util_write_all(STDOUT_FILENO, text, len, &off);
		free(text);
		return err;
	}
	err = savefile_write(path, text, len, tmp, tmplen);
	free(text);
	return err;
}

