// SPDX-License-Identifier: GPL-2.0-only
/*
 * recording.c - a recording directory read back into tables for the
 * report (recording.h).  Parsing takes bytes; only recording_load() and
 * recording_load_bundle() open files.  Nothing here logs: counts of what was skipped go to the caller.
 * meta.json's keys are read in meta.c, beside its writer.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datatab.h"
#include "evjson.h"
#include "loginput.h"
#include "meta.h"
#include "modrec.h"
#include "pcapng.h"
#include "recpkt.h"
#include "recording.h"
#include "tar.h"

void recording_init(struct recording *r)
{
	memset(r, 0, sizeof(*r));
	r->payload = -1;
	r->seconds = -1;
}

void recording_free(struct recording *r)
{
	if (!r)
		return;
	json_object_put(r->meta);
	free(r->evs);
	free(r->traces);
	free(r->samples);
	free(r->index);
	recording_init(r);
}

const char *recording_meta_str(const struct recording *r, const char *k1,
			       const char *k2)
{
	return meta_str(r->meta, k1, k2);
}

bool recording_meta_u64(const struct recording *r, const char *k1,
			const char *k2, uint64_t *out)
{
	return meta_u64(r->meta, k1, k2, out);
}

double recording_seconds(const struct recording *r)
{
	if (r->seconds >= 0)
		return r->seconds;
	return r->t_last_ns > r->t_first_ns ?
	       (double)(r->t_last_ns - r->t_first_ns) / 1e9 : 0;
}

int recording_parse_meta(struct recording *r, const char *buf, size_t len)
{
	struct json_object *o;
	struct meta_read m;
	int err;

	err = meta_parse(buf, len, &o, &m);
	if (err)
		return err;
	json_object_put(r->meta);
	r->meta = o;
	if (m.have_payload)
		r->payload = m.payload;
	r->payload_set = m.payload_set;
	r->seconds = m.seconds;
	if (m.have_boot_to_real) {
		r->boot_to_real_ns = m.boot_to_real_ns;
		r->have_boot_to_real = true;
	}
	return 0;
}

/* grow *p (of *cap elements of size sz) to hold n + 1 */
static int recording_grow(void **p, size_t *cap, size_t n, size_t sz)
{
	size_t ncap;
	void *np;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 256;
	np = realloc(*p, ncap * sz);
	if (!np)
		return -ENOMEM;
	*p = np;
	*cap = ncap;
	return 0;
}

unsigned int recording_serials(const struct recording *r, const char **out,
			       unsigned int max)
{
	unsigned int n = 0, k;
	size_t i;

	for (i = 0; i < r->nevs && n < max; i++) {
		const char *s = r->evs[i].u.device.serial;

		if (r->evs[i].type != EV_DEVICE || !s[0])
			continue;
		for (k = 0; k < n; k++)
			if (!strcmp(out[k], s))
				break;
		if (k == n)
			out[n++] = s;
	}
	return n;
}

int recording_disk_find(const struct recording *r, const char *disk)
{
	unsigned int i;

	for (i = 0; i < r->ndisks; i++)
		if (!strcmp(r->disks[i].disk, disk))
			return (int)i;
	return -1;
}

static int recording_disk_get(struct recording *r, const struct ev *ev)
{
	struct recording_disk *d;
	int i;

	if (!ev->ident.disk[0])
		return -1;
	i = recording_disk_find(r, ev->ident.disk);
	if (i >= 0)
		return i;
	if (r->ndisks == RECORDING_DISKS_MAX)
		return -1;
	d = &r->disks[r->ndisks];
	memset(d, 0, sizeof(*d));
	snprintf(d->disk, sizeof(d->disk), "%s", ev->ident.disk);
	snprintf(d->usb, sizeof(d->usb), "%s", ev->ident.usb);
	d->busnum = ev->ident.busnum;
	d->devnum = ev->ident.devnum;
	return (int)r->ndisks++;
}

static void recording_ep_count(struct recording *r, const struct ev *ev)
{
	const struct usbtrail_rec_xhci *x = &ev->u.rec.u.xhci;
	struct recording_ep *e = NULL;
	unsigned int i;

	for (i = 0; i < r->neps; i++) {
		e = &r->eps[i];
		if (e->busnum == x->busnum && e->devnum == x->devnum &&
		    e->dci == x->ep && e->epaddr == x->epaddr)
			break;
	}
	if (i == r->neps) {
		if (r->neps == RECORDING_EPS_MAX) {
			r->skipped++;
			return;
		}
		e = &r->eps[r->neps++];
		memset(e, 0, sizeof(*e));
		e->busnum = x->busnum;
		e->devnum = x->devnum;
		e->dci = x->ep;
		e->epaddr = x->epaddr;
		snprintf(e->disk, sizeof(e->disk), "%s", ev->ident.disk);
	}
	if (!e->disk[0] && ev->ident.disk[0])
		snprintf(e->disk, sizeof(e->disk), "%s", ev->ident.disk);
	e->cc[x->cc]++;
	e->total++;
}

static int recording_add(struct recording *r, const struct ev *ev)
{
	int d;

	if (r->nevs + r->ntraces + r->nsamples >= RECORDING_EVENTS_MAX) {
		r->skipped++;
		return 0;
	}
	switch (ev->type) {
	case EV_TRACE:
		if (ev->u.rec.type == USBTRAIL_REC_XHCI_TRANSFER)
			recording_ep_count(r, ev);
		if (recording_grow((void **)&r->traces, &r->captraces,
				   r->ntraces, sizeof(*r->traces)))
			return -ENOMEM;
		r->traces[r->ntraces].id = ev->id;
		r->traces[r->ntraces].t_ns = ev->t_ns;
		r->traces[r->ntraces++].rec = ev->u.rec;
		return 0;
	case EV_SAMPLE:
		d = recording_disk_get(r, ev);
		if (d < 0) {
			r->skipped++;
			return 0;
		}
		if (recording_grow((void **)&r->samples, &r->capsamples,
				   r->nsamples, sizeof(*r->samples)))
			return -ENOMEM;
		r->samples[r->nsamples].t_ns = ev->t_ns;
		r->samples[r->nsamples].disk = (unsigned int)d;
		r->samples[r->nsamples++].s = ev->u.sample;
		return 0;
	case EV_DEVICE:
		d = recording_disk_get(r, ev);
		if (d >= 0) {
			r->disks[d].device = ev->u.device;
			r->disks[d].have_device = true;
			if (ev->ident.usb[0])
				snprintf(r->disks[d].usb,
					 sizeof(r->disks[d].usb), "%s",
					 ev->ident.usb);
			if (ev->ident.busnum >= 0)
				r->disks[d].busnum = ev->ident.busnum;
			if (ev->ident.devnum >= 0)
				r->disks[d].devnum = ev->ident.devnum;
		}
		break;
	case EV_KLOG:
	case EV_USBMON:
	case EV_MARKER:
	case EV_LOST:
	case EV_INCIDENT:
	case EV_TYPE_MAX:
		break;
	}
	if (recording_grow((void **)&r->evs, &r->capevs, r->nevs,
			   sizeof(*r->evs)))
		return -ENOMEM;
	r->evs[r->nevs++] = *ev;
	return 0;
}

int recording_parse_events(struct recording *r, const char *buf, size_t len)
{
	struct ev *ev = malloc(sizeof(*ev));
	size_t off = 0;
	int ret = 0;

	if (!ev)
		return -ENOMEM;
	while (off < len) {
		const char *line = buf + off;
		const char *nl = memchr(line, '\n', len - off);
		size_t n = nl ? (size_t)(nl - line) : len - off;
		int err;

		off += n + (nl ? 1 : 0);
		if (!n)
			continue;
		r->lines++;
		if (!nl) {
			/* cut short by a kill: not a whole line */
			r->malformed++;
			break;
		}
		err = evjson_parse_event(line, n, ev);
		if (err == -ENOTSUP) {
			r->usbmon++;
			r->count[EV_USBMON]++;
			continue;
		}
		if (err == -ENOMEM) {
			ret = err;
			break;
		}
		if (err) {
			r->malformed++;
			continue;
		}
		r->count[ev->type]++;
		if (!r->t_first_ns || ev->t_ns < r->t_first_ns)
			r->t_first_ns = ev->t_ns;
		if (ev->t_ns > r->t_last_ns)
			r->t_last_ns = ev->t_ns;
		ret = recording_add(r, ev);
		if (ret)
			break;
	}
	free(ev);
	return ret;
}

int recording_parse_capture(struct recording *r, const uint8_t *buf,
			    size_t len)
{
	struct pcapng_reader rd = { 0 };
	struct pcapng_block blk;
	struct ev *ev = malloc(sizeof(*ev));
	size_t off = 0;
	int ret, err = 0, other = 0;

	if (!ev)
		return -ENOMEM;
	while ((ret = pcapng_next_block(&rd, buf, len, &off, &blk)) == 1) {
		struct pcapng_epb e;
		int lt;

		if (blk.type != PCAPNG_BT_EPB || pcapng_epb_parse(&rd, &blk, &e))
			continue;
		lt = pcapng_if_linktype(&rd, e.if_id);
		if (lt == PCAPNG_LINKTYPE_USB_LINUX_MMAPPED) {
			r->captured++;
			r->capture_usbmon++;
			continue;
		}
		if (lt != PCAPNG_LINKTYPE_USER0)
			continue;
		ret = recpkt_parse(e.data, e.caplen, ev);
		if (ret) {
			if (ret == -EPROTONOSUPPORT)
				other++;
			r->capture_bad++;
			continue;
		}
		r->captured++;
		r->count[EV_TRACE]++;
		if (!r->t_first_ns || ev->t_ns < r->t_first_ns)
			r->t_first_ns = ev->t_ns;
		if (ev->t_ns > r->t_last_ns)
			r->t_last_ns = ev->t_ns;
		err = recording_add(r, ev);
		if (err)
			break;
	}
	if (!err && ret < 0)
		snprintf(r->capture_note, sizeof(r->capture_note),
			 "capture.pcapng ends in a damaged block at byte %zu: "
			 "read up to it", off);
	else if (!err && other)
		snprintf(r->capture_note, sizeof(r->capture_note),
			 "%d trace records of capture.pcapng are of a later "
			 "usbtrail or another byte order: not read", other);
	free(ev);
	return err;
}

static int recording_cmp_sample(const void *a, const void *b)
{
	const struct recording_sample *x = a, *y = b;

	if (x->disk != y->disk)
		return x->disk < y->disk ? -1 : 1;
	return (x->t_ns > y->t_ns) - (x->t_ns < y->t_ns);
}

static int recording_cmp_idx(const void *a, const void *b)
{
	const struct recording_idx *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* "key=value" in a stress marker's text; NULL if absent */
static const char *recording_kv(const char *text, const char *key,
				char *val, size_t len)
{
	size_t kl = strlen(key);
	const char *p = text;

	while ((p = strstr(p, key))) {
		if ((p == text || p[-1] == ' ') && p[kl] == '=') {
			size_t n = strcspn(p + kl + 1, " ");

			if (n >= len)
				n = len - 1;
			memcpy(val, p + kl + 1, n);
			val[n] = '\0';
			return val;
		}
		p += kl;
	}
	return NULL;
}

static bool recording_word(const char *name, const char *word)
{
	char buf[32];
	char *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", name);
	for (tok = strtok_r(buf, "-", &save); tok;
	     tok = strtok_r(NULL, "-", &save))
		if (!strcasecmp(tok, word))
			return true;
	return false;
}

/* A "phase=run" marker: the target and its disk, the verdict. */
static void recording_stress_run_marker(struct recording *r,
					const char *text, const char *event)
{
	struct recording_stress_run *u = NULL;
	char run[32] = "", v[32];
	const char *t;
	unsigned int i;

	recording_kv(text, "run", run, sizeof(run));
	for (i = r->nruns; i > 0; i--)
		if (!strcmp(r->runs[i - 1].run, run) && !r->runs[i - 1].ended) {
			u = &r->runs[i - 1];
			break;
		}
	if (!strcmp(event, "start")) {
		if (r->nruns == RECORDING_STRESS_RUNS_MAX)
			return;
		u = &r->runs[r->nruns++];
		memset(u, 0, sizeof(*u));
		snprintf(u->run, sizeof(u->run), "%s", run);
		recording_kv(text, "disk", u->disk, sizeof(u->disk));
		recording_kv(text, "usb", u->usb, sizeof(u->usb));
		/* the last key: the rest of the line, blanks and all */
		t = strstr(text, " target=");
		if (t)
			snprintf(u->target, sizeof(u->target), "%s", t + 8);
		return;
	}
	if (!u || strcmp(event, "end"))
		return;
	u->ended = true;
	u->fake = recording_kv(text, "fake", v, sizeof(v)) && !strcmp(v, "1");
	if (recording_kv(text, "usable", v, sizeof(v)))
		u->usable = strtoull(v, NULL, 10);
	if (recording_kv(text, "wrap", v, sizeof(v)))
		u->wrap = strtoull(v, NULL, 10);
}

/* One "usbtrail-stress: phase=P event=E ..." marker into r->stress. */
static void recording_stress_marker(struct recording *r, const struct ev *ev)
{
	const char *text = ev->u.marker.text;
	char phase[32], event[16], v[32];
	struct recording_stress *s = NULL;
	int i;

	if (strncmp(text, "usbtrail-stress: ", 17) ||
	    !recording_kv(text, "phase", phase, sizeof(phase)) ||
	    !recording_kv(text, "event", event, sizeof(event)))
		return;
	if (!strcmp(phase, "run")) {
		recording_stress_run_marker(r, text, event);
		return;
	}
	/* the latest phase of that name not yet ended */
	for (i = (int)r->nstress - 1; i >= 0; i--)
		if (!strcmp(r->stress[i].name, phase) && !r->stress[i].ended) {
			s = &r->stress[i];
			break;
		}
	if (!strcmp(event, "start")) {
		if (r->nstress == RECORDING_STRESS_MAX)
			return;
		s = &r->stress[r->nstress++];
		memset(s, 0, sizeof(*s));
		snprintf(s->name, sizeof(s->name), "%s", phase);
		if (recording_kv(text, "run", v, sizeof(v)))
			snprintf(s->run, sizeof(s->run), "%s", v);
		/*
		 * op= and random= from usbtrail 0.2 on; before, only the
		 * phase's name said
		 */
		if (recording_kv(text, "op", v, sizeof(v)))
			s->write = !strcmp(v, "write");
		else
			s->write = recording_word(phase, "write") ||
				   recording_word(phase, "mixed");
		s->random = recording_word(phase, "random") ||
			    !strncmp(phase, "4K-QD", 5) ||
			    (recording_kv(text, "random", v, sizeof(v)) &&
			     !strcmp(v, "1"));
		if (recording_kv(text, "block", v, sizeof(v)))
			s->block = (uint32_t)strtoul(v, NULL, 10);
		if (recording_kv(text, "qd", v, sizeof(v)))
			s->qd = (unsigned int)strtoul(v, NULL, 10);
		s->pass = recording_kv(text, "pass", v, sizeof(v)) ?
			  (int)strtol(v, NULL, 10) : -1;
		s->t_start_ns = ev->t_ns;
		return;
	}
	if (!s)
		return;
	if (!strcmp(event, "error")) {
		s->errors++;
	} else if (!strcmp(event, "end")) {
		s->ended = true;
		s->t_end_ns = ev->t_ns;
		if (recording_kv(text, "bytes", v, sizeof(v)))
			s->bytes = strtoull(v, NULL, 10);
		if (recording_kv(text, "secs", v, sizeof(v)))
			s->secs = strtod(v, NULL);
		if (recording_kv(text, "errors", v, sizeof(v)))
			s->errors = (unsigned int)strtoul(v, NULL, 10);
		if (recording_kv(text, "mbps", v, sizeof(v)))
			s->mbps = strtod(v, NULL);
		else if (s->secs > 0)
			s->mbps = (double)s->bytes / s->secs / 1e6;
		s->stopped = recording_kv(text, "stopped", v, sizeof(v)) != NULL;
		s->lat_p50_us = recording_kv(text, "lat_p50_us", v, sizeof(v)) ?
				strtod(v, NULL) : -1;
		s->lat_p99_us = recording_kv(text, "lat_p99_us", v, sizeof(v)) ?
				strtod(v, NULL) : -1;
		s->lat_p999_us = recording_kv(text, "lat_p999_us", v,
					      sizeof(v)) ? strtod(v, NULL) : -1;
		s->lat_max_us = recording_kv(text, "lat_max_us", v, sizeof(v)) ?
				strtod(v, NULL) : -1;
	}
}

int recording_finish(struct recording *r)
{
	size_t i, n = 0;

	/*
	 * usbmon's events: the capture's packets, unless events.jsonl has
	 * them as lines too (usbtrail 0.2 wrote both).
	 */
	if (!r->usbmon) {
		r->usbmon = r->capture_usbmon;
		r->count[EV_USBMON] = r->capture_usbmon;
	} else {
		r->captured -= r->capture_usbmon;	/* counted as lines */
		r->capture_usbmon = 0;
	}

	if (r->nsamples)
		qsort(r->samples, r->nsamples, sizeof(*r->samples),
		      recording_cmp_sample);
	for (i = 0; i < r->ndisks; i++) {
		r->disks[i].nsamples = 0;
		r->disks[i].max_mbps = 0;
	}
	for (i = 0; i < r->nsamples; i++) {
		struct recording_disk *d = &r->disks[r->samples[i].disk];

		if (!d->nsamples)
			d->first_sample = i;
		d->nsamples++;
		if (r->samples[i].s.mbps > d->max_mbps)
			d->max_mbps = r->samples[i].s.mbps;
		d->read_bytes += r->samples[i].s.read_bytes;
		d->write_bytes += r->samples[i].s.write_bytes;
	}
	free(r->index);
	r->index = calloc(r->nevs + r->ntraces + 1, sizeof(*r->index));
	if (!r->index)
		return -ENOMEM;
	for (i = 0; i < r->ntraces; i++)
		if (r->traces[i].id)
			r->index[n++] = (struct recording_idx){
				r->traces[i].id, true, i };
	for (i = 0; i < r->nevs; i++) {
		if (r->evs[i].id && r->evs[i].type != EV_DEVICE)
			r->index[n++] = (struct recording_idx){
				r->evs[i].id, false, i };
		if (r->evs[i].type == EV_MARKER &&
		    r->evs[i].u.marker.kind == EV_MARKER_STRESS)
			recording_stress_marker(r, &r->evs[i]);
	}
	r->nindex = n;
	if (n)
		qsort(r->index, n, sizeof(*r->index), recording_cmp_idx);
	r->finished = true;
	return 0;
}

int recording_find(const struct recording *r, uint64_t id,
		   const struct ev **ev, const struct recording_trace **tr)
{
	struct recording_idx key = { .id = id }, *p;

	if (!r->index)
		return -ENOENT;
	p = bsearch(&key, r->index, r->nindex, sizeof(*r->index),
		    recording_cmp_idx);
	if (!p)
		return -ENOENT;
	*ev = p->trace ? NULL : &r->evs[p->i];
	*tr = p->trace ? &r->traces[p->i] : NULL;
	return 0;
}

int recording_describe(const struct recording *r, uint64_t id, char *buf,
		       size_t len, uint64_t *t_ns)
{
	const struct recording_trace *tr;
	const struct ev *ev;
	char text[512];

	if (recording_find(r, id, &ev, &tr))
		return -ENOENT;
	if (tr) {
		modrec_format(&tr->rec, text, sizeof(text));
		*t_ns = tr->t_ns;
		return snprintf(buf, len, "trace %s", text);
	}
	*t_ns = ev->t_ns;
	switch (ev->type) {
	case EV_KLOG:
		return snprintf(buf, len, "kernel: %s", ev->u.klog.text);
	case EV_MARKER:
		return snprintf(buf, len, "marker: %s", ev->u.marker.text);
	case EV_INCIDENT:
		ev_incident_summary(ev, text, sizeof(text));
		return snprintf(buf, len, "incident: %s", text);
	case EV_TRACE:
	case EV_USBMON:
	case EV_DEVICE:
	case EV_SAMPLE:
	case EV_LOST:
	case EV_TYPE_MAX:
		break;
	}
	return snprintf(buf, len, "%s event", ev_type_name(ev->type));
}

const char *recording_cc_name(unsigned int cc)
{
	int row = datatab_cc_row(cc);

	return row < 0 ? "?" : datatab_cell(&datatab_xhci_cc,
					    (unsigned int)row, DATATAB_CC_NAME);
}

const char *recording_cc_meaning(unsigned int cc)
{
	int row = datatab_cc_row(cc);

	return row < 0 ? "" : datatab_cell(&datatab_xhci_cc, (unsigned int)row,
					   DATATAB_CC_MEANING);
}

bool recording_cc_normal(unsigned int cc)
{
	return !datatab_cc_error(cc);
}

void recording_stress_label(const struct recording_stress *s, char *buf,
			    size_t len)
{
	char size[16];

	if (s->block >= (1u << 20) && !(s->block % (1u << 20)))
		snprintf(size, sizeof(size), "%uM", s->block >> 20);
	else if (s->block >= 1024 && !(s->block % 1024))
		snprintf(size, sizeof(size), "%uK", s->block >> 10);
	else
		snprintf(size, sizeof(size), "%u", s->block);
	snprintf(buf, len, "%s%s Q%uT1", s->random ? "RND" : "SEQ", size,
		 s->qd ? s->qd : 1);
}

/*
 * The disk a stress phase ran on: the one that moved the most bytes
 * while its run did (the markers name the target as the user gave it,
 * often a /dev/disk/by-id/ link the recording cannot resolve).  The
 * run's span, not the phase's: markers may reach the recorder late and
 * bunched (a busy guest), so that a short phase's own span can miss its
 * I/O.  A recording where one disk moved data, or of one disk, needs no
 * more.  -1 if none.
 */
int recording_stress_disk(const struct recording *r,
			  const struct recording_stress *s)
{
	uint64_t best = 0, t0 = s->t_start_ns, t1 = s->t_end_ns;
	unsigned int i, busy = 0;
	int disk = -1, last = -1;
	size_t k;

	for (i = 0; s->run[0] && i < r->nstress; i++) {
		const struct recording_stress *o = &r->stress[i];

		if (strcmp(o->run, s->run))
			continue;
		if (o->t_start_ns < t0)
			t0 = o->t_start_ns;
		if (o->ended && o->t_end_ns > t1)
			t1 = o->t_end_ns;
	}
	for (i = 0; i < r->ndisks; i++) {
		const struct recording_disk *d = &r->disks[i];
		uint64_t bytes = 0;

		if (d->nsamples) {
			busy++;
			last = (int)i;
		}
		for (k = 0; k < d->nsamples; k++) {
			const struct recording_sample *sm =
				&r->samples[d->first_sample + k];
			uint64_t end = sm->t_ns +
				       (uint64_t)sm->s.interval_ms * 1000000;

			if (end > t0 && sm->t_ns < t1)
				bytes += sm->s.read_bytes + sm->s.write_bytes;
		}
		if (bytes > best) {
			best = bytes;
			disk = (int)i;
		}
	}
	if (disk < 0 && busy == 1)
		disk = last;
	if (disk < 0 && r->ndisks == 1)
		disk = 0;
	return disk;
}

/* Phase @s is a scored pass that did I/O: a candidate for the best. */
static bool recording_stress_scored(const struct recording_stress *s)
{
	return s->pass > 0 && s->ended && s->bytes && s->secs > 0;
}

/*
 * Row @row takes phase @s: a cdm pass if it is the best so far that way;
 * another phase its slot.  A phase without an end (killed, the disk
 * gone) has no rate: the row says "cut" where nothing better is.
 */
static void recording_stress_take(struct recording_stress_row *row,
				  const struct recording_stress *s)
{
	const struct recording_stress **slot = s->write ? &row->wr : &row->rd;
	bool *cut = s->write ? &row->wr_cut : &row->rd_cut;

	row->errors += s->errors;
	if (s->pass < 0) {
		if (!s->ended || !(s->secs > 0))
			*cut = true;
		else
			*slot = s;
		return;
	}
	if (!s->ended)
		*cut = true;
	if (recording_stress_scored(s) && (!*slot || s->mbps > (*slot)->mbps))
		*slot = s;
}

unsigned int recording_stress_rows(const struct recording *r,
				   struct recording_stress_row *rows,
				   unsigned int max)
{
	bool done[RECORDING_STRESS_MAX] = { false };
	unsigned int i, j, n = 0;
	char label[32];

	for (i = 0; i < r->nstress && n < max; i++) {
		struct recording_stress_row *row = &rows[n];
		const struct recording_stress *a = &r->stress[i];

		if (done[i])
			continue;
		memset(row, 0, sizeof(*row));
		recording_stress_label(a, row->label, sizeof(row->label));
		for (j = i; j < r->nstress; j++) {
			const struct recording_stress *s = &r->stress[j];

			recording_stress_label(s, label, sizeof(label));
			if (done[j] || strcmp(label, row->label) ||
			    (s->pass < 0) != (a->pass < 0))
				continue;
			if (a->pass >= 0) {
				/* a cdm test: all its passes, of its run */
				if (strcmp(s->run, a->run))
					continue;
			} else if (s->write ? row->wr || row->wr_cut :
				   row->rd || row->rd_cut) {
				continue;	/* a later cycle: own row */
			}
			done[j] = true;
			recording_stress_take(row, s);
		}
		n++;
	}
	return n;
}

/* the whole of DIR/NAME into *buf (NUL-ended); at most max bytes */
static int recording_read_file(const char *dir, const char *name,
			       size_t max, char **buf, size_t *len)
{
	char path[4096];
	struct stat st;
	size_t got = 0;
	char *p;
	int fd, err;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		err = -errno;
		close(fd);
		return err;
	}
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size > max) {
		close(fd);
		return S_ISREG(st.st_mode) ? -EFBIG : -EINVAL;
	}
	p = malloc((size_t)st.st_size + 1);
	if (!p) {
		close(fd);
		return -ENOMEM;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, p + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			free(p);
			close(fd);
			return err;
		}
		if (!n)
			break;
		got += (size_t)n;
	}
	close(fd);
	p[got] = '\0';
	*buf = p;
	*len = got;
	return 0;
}

#define RECORDING_META_MAX	(16u << 20)
#define RECORDING_CHUNK		(4u << 20)

/* Where recording_stream() reads from: bytes, 0 at the end, -errno. */
typedef ssize_t (*recording_reader)(void *ctx, char *buf, size_t len);

/* events.jsonl in chunks of whole lines: it may be bigger than memory. */
static int recording_stream(struct recording *r, recording_reader rd,
			    void *ctx)
{
	size_t have = 0, cap = RECORDING_CHUNK;
	char *buf = malloc(cap);
	int err = 0;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t n = rd(ctx, buf + have, cap - have);
		char *end;

		if (n < 0) {
			err = (int)n;
			break;
		}
		if (!n) {
			/* what is left has no newline: counted as cut short */
			err = recording_parse_events(r, buf, have);
			break;
		}
		have += (size_t)n;
		end = memrchr(buf, '\n', have);
		if (!end) {
			if (have == cap) {
				/* a line longer than a chunk: malformed */
				r->lines++;
				r->malformed++;
				have = 0;
			}
			continue;
		}
		err = recording_parse_events(r, buf, (size_t)(end - buf) + 1);
		if (err)
			break;
		have -= (size_t)(end - buf) + 1;
		memmove(buf, end + 1, have);
	}
	free(buf);
	return err;
}

static ssize_t recording_read_fd(void *ctx, char *buf, size_t len)
{
	ssize_t n;

	do {
		n = read(*(int *)ctx, buf, len);
	} while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

static int recording_stream_events(struct recording *r, const char *path)
{
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = recording_stream(r, recording_read_fd, &fd);
	close(fd);
	return err;
}

int recording_map_file(const char *path, bool optional,
		       struct recording_map *m)
{
	struct stat st;
	void *p;
	int fd, err = 0;

	m->p = NULL;
	m->len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return optional && errno == ENOENT ? 0 : -errno;
	if (fstat(fd, &st))
		err = -errno;
	else if (!S_ISREG(st.st_mode))
		err = -EINVAL;
	if (!err && st.st_size) {
		p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd,
			 0);
		if (p == MAP_FAILED) {
			err = -errno;
		} else {
			madvise(p, (size_t)st.st_size, MADV_SEQUENTIAL);
			m->p = p;
			m->len = (size_t)st.st_size;
		}
	}
	close(fd);
	return err;
}

void recording_unmap(struct recording_map *m)
{
	if (m->p)
		munmap((void *)(uintptr_t)m->p, m->len);
	m->p = NULL;
	m->len = 0;
}

/* DIR/capture.pcapng, mapped: it may be bigger than memory.  None: 0. */
static int recording_load_capture(struct recording *r, const char *dir)
{
	struct recording_map map;
	char path[4096];
	int err;

	if ((size_t)snprintf(path, sizeof(path), "%s/capture.pcapng", dir) >=
	    sizeof(path))
		return -ENAMETOOLONG;
	err = recording_map_file(path, true, &map);
	if (err || !map.len)
		return err;
	err = recording_parse_capture(r, map.p, map.len);
	recording_unmap(&map);
	return err;
}

int recording_load_meta(struct recording *r, const char *dir)
{
	char *buf = NULL;
	size_t len = 0;
	int err;

	err = recording_read_file(dir, "meta.json", RECORDING_META_MAX, &buf,
				  &len);
	if (err)
		return err;
	err = recording_parse_meta(r, buf, len);
	free(buf);
	return err;
}

int recording_load(struct recording *r, const char *dir, const char **what)
{
	char path[4096];
	int err;

	/* unusable meta.json: the events still make a report */
	*what = "meta.json";
	recording_load_meta(r, dir);
	*what = "events.jsonl";
	if ((size_t)snprintf(path, sizeof(path), "%s/events.jsonl", dir) >=
	    sizeof(path))
		return -ENAMETOOLONG;
	err = recording_stream_events(r, path);
	if (err)
		return err;
	*what = "capture.pcapng";
	err = recording_load_capture(r, dir);
	if (err)
		return err;
	return recording_finish(r);
}

int recording_load_events(struct recording *r, const char *path)
{
	int err = recording_stream_events(r, path);

	return err ? err : recording_finish(r);
}

/* One file of a bundle, read through its decompressor. */
struct recording_member {
	struct loginput *in;
	uint64_t left;			/* bytes of it not read yet */
};

static ssize_t recording_read_member(void *ctx, char *buf, size_t len)
{
	struct recording_member *m = ctx;
	ssize_t n;

	if (!m->left)
		return 0;
	if (len > m->left)
		len = (size_t)m->left;
	n = loginput_read(m->in, buf, len);
	if (!n)
		return -EBADMSG;	/* the archive ends inside the file */
	if (n > 0)
		m->left -= (uint64_t)n;
	return n;
}

/* all of len bytes, or -EBADMSG at the end of the archive */
static int recording_member_read(struct recording_member *m, char *buf,
				 size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = recording_read_member(m, buf + got, len - got);

		if (n < 0)
			return (int)n;
		got += (size_t)n;
	}
	return 0;
}

static int recording_member_skip(struct recording_member *m)
{
	char buf[8192];

	while (m->left) {
		ssize_t n = recording_read_member(m, buf, sizeof(buf));

		if (n < 0)
			return (int)n;
	}
	return 0;
}

/* the last part of a member's name: "usbtrail-bundle/meta.json" */
static bool recording_member_is(const struct tar_entry *e, const char *name)
{
	const char *base = strrchr(e->name, '/');

	return (e->type == '0' || !e->type) &&
	       !strcmp(base ? base + 1 : e->name, name);
}

static int recording_bundle_meta(struct recording *r,
				 struct recording_member *m)
{
	size_t len = (size_t)m->left;
	char *buf;
	int err;

	if (m->left > RECORDING_META_MAX)
		return recording_member_skip(m);
	buf = malloc(len + 1);
	if (!buf)
		return -ENOMEM;
	err = recording_member_read(m, buf, len);
	if (!err) {
		buf[len] = '\0';
		/* unusable meta.json: the events still make a row */
		recording_parse_meta(r, buf, len);
	}
	free(buf);
	return err;
}

/* A bundle's capture.pcapng: whole in memory (a bundle keeps it small). */
#define RECORDING_BUNDLE_CAPTURE_MAX	(1ull << 30)

static int recording_bundle_capture(struct recording *r,
				    struct recording_member *m)
{
	size_t len = (size_t)m->left;
	char *buf;
	int err;

	if (m->left > RECORDING_BUNDLE_CAPTURE_MAX) {
		snprintf(r->capture_note, sizeof(r->capture_note),
			 "the bundle's capture.pcapng is over 1 GiB: not read");
		return recording_member_skip(m);
	}
	buf = malloc(len ? len : 1);
	if (!buf)
		return -ENOMEM;
	err = recording_member_read(m, buf, len);
	if (!err)
		err = recording_parse_capture(r, (const uint8_t *)buf, len);
	free(buf);
	return err;
}

int recording_load_bundle(struct recording *r, const char *path,
			  const char **what)
{
	struct recording_member m = { 0 };
	bool events = false;
	uint8_t block[TAR_BLOCK];
	int err;

	*what = "";
	err = loginput_open(path, &m.in);
	if (err)
		return err;
	for (;;) {
		struct tar_entry e;
		uint64_t pad;
		ssize_t n;

		/* a header: the file may end before one (no end blocks) */
		*what = "";
		n = loginput_read(m.in, (char *)block, TAR_BLOCK);
		if (n <= 0) {
			err = (int)n;
			break;
		}
		m.left = TAR_BLOCK - (uint64_t)n;
		err = recording_member_read(&m, (char *)block + n,
					    (size_t)m.left);
		if (err)
			break;
		err = tar_header_parse(block, &e);
		if (err) {
			if (err < 0)
				err = -EBADMSG;	/* not a tar archive */
			else
				err = 0;	/* its end */
			break;
		}
		pad = tar_padded(e.size) - e.size;
		m.left = e.size;
		if (recording_member_is(&e, "events.jsonl")) {
			*what = "events.jsonl";
			events = true;
			err = recording_stream(r, recording_read_member, &m);
		} else if (recording_member_is(&e, "meta.json")) {
			*what = "meta.json";
			err = recording_bundle_meta(r, &m);
		} else if (recording_member_is(&e, "capture.pcapng")) {
			*what = "capture.pcapng";
			err = recording_bundle_capture(r, &m);
		}
		if (!err)
			err = recording_member_skip(&m);
		m.left = pad;
		if (!err)
			err = recording_member_skip(&m);
		if (err)
			break;
	}
	loginput_close(m.in);
	if (err)
		return err;
	*what = "events.jsonl";
	if (!events)
		return -ENOENT;
	return recording_finish(r);
}
