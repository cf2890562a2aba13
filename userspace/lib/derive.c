// SPDX-License-Identifier: GPL-2.0-only
/*
 * derive.c - incidents from the event stream (derive.h): kernel log lines
 * through the classifier, trace records into the same kinds, the two
 * halves of one incident merged.  The block records go on to tput.c,
 * which does the throughput.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datatab.h"
#include "derive.h"
#include "modrec.h"
#include "tput.h"

#define DERIVE_HELD_MAX		256
#define DERIVE_XHCI_MAX		64
/* one xhci-error incident per slot, endpoint and code per second */
#define DERIVE_XHCI_QUIET_NS	1000000000ull
/*
 * A request's I/O error follows the SCSI completion that failed it at
 * once: scsi_io_completion() -> scsi_end_request() -> blk_update_request()
 */
#define DERIVE_REQ_NS		50000000ull

enum derive_origin {
	DERIVE_FROM_LOG = 1,
	DERIVE_FROM_TRACE = 2,
};

struct derive_held {
	struct ev *ev;
	unsigned int origin;		/* DERIVE_FROM_* */
	unsigned int trace_kinds;	/* 1 << kind of the trace's merged */
	uint32_t devt, tag;		/* trace sense: for the raw bytes */
	uint64_t serial;		/* which held incident, while held */
};

struct derive_xhci {
	uint8_t slot, ep, cc;
	int busnum;
	uint64_t last_ns;
	long suppressed;
};

struct derive {
	struct derive_opts o;
	derive_out_fn out;
	void *arg;
	struct classify *cl;
	const struct devmap *map;	/* the last derive_feed()'s */
	struct derive_held held[DERIVE_HELD_MAX];
	unsigned int nheld;
	struct tput tput;
	struct derive_xhci xhci[DERIVE_XHCI_MAX];
	unsigned int nxhci;
	uint64_t now_ns;
	uint64_t serial;
	/*
	 * The trace's last failed command with sense: the held incident it
	 * went into (its own, or one more command of a burst), for its
	 * request's I/O error that comes next
	 */
	struct {
		uint64_t serial, t_ns;
		bool own;
	} req;
};

struct derive *derive_new(const struct derive_opts *opts, derive_out_fn out,
			  void *arg)
{
	struct derive *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->o = *opts;
	if (!d->o.interval_ms)
		d->o.interval_ms = 100;
	if (d->o.history < 1 || d->o.history > TPUT_HISTORY_MAX)
		d->o.history = 50;
	if (d->o.min_history > d->o.history)
		d->o.min_history = d->o.history;
	if (!d->o.dip_intervals)
		d->o.dip_intervals = 1;
	d->out = out;
	d->arg = arg;
	tput_init(&d->tput, &d->o, out, arg);
	d->cl = classify_new();
	if (!d->cl) {
		free(d);
		return NULL;
	}
	return d;
}

void derive_free(struct derive *d)
{
	unsigned int i;

	if (!d)
		return;
	for (i = 0; i < d->nheld; i++)
		ev_free(d->held[i].ev);
	classify_free(d->cl);
	free(d);
}

/* --- incidents ---------------------------------------------------------- */

struct ev *derive_incident_new(uint64_t t_ns, enum classify_kind kind,
			       const struct ev_ident *ident)
{
	struct ev *ev = ev_new(EV_INCIDENT, EV_SRC_RECORDER, t_ns);
	struct classify_incident *inc;

	if (!ev)
		return NULL;
	if (ident)
		ev->ident = *ident;
	inc = &ev->u.incident.inc;
	classify_incident_init(inc, kind);
	inc->t = (double)t_ns / 1e9;
	inc->clock = KMSG_CLOCK_BOOT;
	if (ident && ident->disk[0]) {
		snprintf(inc->dev, sizeof(inc->dev), "%s", ident->disk);
		snprintf(inc->disk, sizeof(inc->disk), "%s", ident->disk);
	}
	return ev;
}

static void derive_evidence(struct ev *inc, uint64_t id)
{
	struct ev_incident *ei = &inc->u.incident;
	unsigned int i;

	for (i = 0; i < ei->nevidence; i++)
		if (ei->evidence[i] == id)
			return;
	if (ei->nevidence < EV_INCIDENT_EVIDENCE_MAX)
		ei->evidence[ei->nevidence++] = id;
}

static void derive_drop(struct derive *d, unsigned int i)
{
	memmove(&d->held[i], &d->held[i + 1],
		(d->nheld - i - 1) * sizeof(d->held[0]));
	d->nheld--;
}

static void derive_release(struct derive *d, unsigned int i)
{
	struct ev *ev = d->held[i].ev;

	derive_drop(d, i);
	d->out(d->arg, ev);
}

static const char *derive_who(const struct ev *ev)
{
	const struct classify_incident *inc = &ev->u.incident.inc;

	if (ev->ident.disk[0])
		return ev->ident.disk;
	return inc->disk[0] ? inc->disk : inc->dev;
}

static bool derive_cmd_kind(enum classify_kind k)
{
	return k == CLASSIFY_SENSE || k == CLASSIFY_TIMEOUT ||
	       k == CLASSIFY_IO_ERROR;
}

/* When an incident's last line came (a trace's: when it came). */
static uint64_t derive_last_ns(const struct ev *ev)
{
	double last = ev->u.incident.inc.t_last * 1e9;

	return last > (double)ev->t_ns && last < 1.8e19 ? (uint64_t)last :
	       ev->t_ns;
}

/*
 * Do a and b (one from the log, one from a trace) say the same thing?
 * @gap: how far apart they are.
 */
static bool derive_same(const struct ev *a, const struct ev *b,
			uint64_t *gap)
{
	const struct classify_incident *x = &a->u.incident.inc;
	const struct classify_incident *y = &b->u.incident.inc;
	uint64_t a_end = derive_last_ns(a), b_end = derive_last_ns(b), dt = 0;

	/*
	 * From the first to the last line of each: the log's reset runs
	 * from the SCSI handler's start to the USB reset, seconds later,
	 * where the trace's is the handler's end
	 */
	if (a_end < b->t_ns)
		dt = b->t_ns - a_end;
	else if (b_end < a->t_ns)
		dt = a->t_ns - b_end;
	*gap = dt;
	if (dt > DERIVE_MATCH_NS || strcmp(derive_who(a), derive_who(b)))
		return false;
	/*
	 * The log's failed command (sense, timeout, I/O error) holds the
	 * block layer's I/O error of its request: the trace's failed
	 * request at that sector is the same command
	 */
	if (x->kind != y->kind)
		return derive_cmd_kind(x->kind) && derive_cmd_kind(y->kind) &&
		       (x->kind == CLASSIFY_IO_ERROR ||
			y->kind == CLASSIFY_IO_ERROR) &&
		       x->sector >= 0 && x->sector == y->sector;
	if (x->kind == CLASSIFY_SENSE && x->key >= 0 && y->key >= 0 &&
	    (x->key != y->key ||
	     (x->asc >= 0 && y->asc >= 0 &&
	      (x->asc != y->asc || x->ascq != y->ascq))))
		return false;
	if (x->kind == CLASSIFY_XHCI_ERROR && x->code >= 0 && y->code >= 0 &&
	    x->code != y->code)
		return false;
	return true;
}

/* The log's half into the trace's: text, chain, details from the log. */
static void derive_merge(struct derive_held *h, struct ev *ev,
			 unsigned int origin)
{
	struct ev *into = h->ev;
	struct ev_incident *ti = &into->u.incident, *ni = &ev->u.incident;
	unsigned int i;

	if (origin == DERIVE_FROM_LOG) {
		struct ev_incident trace = *ti;
		struct ev_ident ident = into->ident;
		uint64_t t = into->t_ns < ev->t_ns ? into->t_ns : ev->t_ns;

		ti->inc = ni->inc;
		if (trace.inc.count > ti->inc.count)	/* commands in a burst */
			ti->inc.count = trace.inc.count;
		if (ti->inc.kind == CLASSIFY_IO_ERROR && ti->inc.sector < 0)
			ti->inc.sector = trace.inc.sector;
		if (ti->inc.kind == CLASSIFY_SENSE && ti->inc.asc < 0) {
			ti->inc.asc = trace.inc.asc;
			ti->inc.ascq = trace.inc.ascq;
		}
		/* a trace timeout is a real one, not one the abort implied */
		if (ti->inc.kind == CLASSIFY_TIMEOUT)
			ti->inc.inferred = false;
		into->t_ns = t;
		ti->inc.t = (double)t / 1e9;
		ti->inc.clock = KMSG_CLOCK_BOOT;
		into->ident = ev->ident;
		if (!into->ident.disk[0])
			into->ident = ident;
	}
	if (origin == DERIVE_FROM_TRACE) {
		/* the trace saw the timeout the log only implied, and when */
		if (ti->inc.kind == CLASSIFY_TIMEOUT)
			ti->inc.inferred = false;
		/* a command's request failed at this sector */
		if (ti->inc.sector < 0 && ni->inc.sector >= 0)
			ti->inc.sector = ni->inc.sector;
		if (ev->t_ns < into->t_ns) {
			into->t_ns = ev->t_ns;
			ti->inc.t = (double)ev->t_ns / 1e9;
		}
	}
	for (i = 0; i < ni->nevidence; i++)
		derive_evidence(into, ni->evidence[i]);
	if (!ti->sense_len && ni->sense_len) {
		ti->sense_len = ni->sense_len;
		memcpy(ti->sense, ni->sense, sizeof(ti->sense));
	}
	if (ti->opcode < 0)
		ti->opcode = ni->opcode;
	if (ti->lba < 0)
		ti->lba = ni->lba;
	h->origin |= origin;
	ev_free(ev);
}

static bool derive_counts_commands(const struct ev *ev)
{
	enum classify_kind k = ev->u.incident.inc.kind;

	return k == CLASSIFY_TIMEOUT || k == CLASSIFY_SENSE;
}

/* A held incident that ev (from a trace) is one more command of. */
static bool derive_same_burst(const struct ev *h, const struct ev *ev)
{
	const struct classify_incident *x = &h->u.incident.inc;
	const struct classify_incident *y = &ev->u.incident.inc;

	if (x->kind != y->kind || strcmp(derive_who(h), derive_who(ev)) ||
	    ev->t_ns < h->t_ns || ev->t_ns - h->t_ns >= DERIVE_MATCH_NS)
		return false;
	return x->kind != CLASSIFY_SENSE ||
	       (x->key == y->key && x->asc == y->asc && x->ascq == y->ascq);
}

/*
 * The log's incident, just merged into held[i], may be the same command
 * as other trace incidents still held (its sense and its request's I/O
 * error came as two): the nearest of each kind goes into it too.
 */
static void derive_absorb(struct derive *d, unsigned int i)
{
	for (;;) {
		struct derive_held *h = &d->held[i];
		unsigned int j, best = d->nheld;
		uint64_t gap, best_gap = 0;

		for (j = 0; j < d->nheld; j++) {
			const struct derive_held *o = &d->held[j];

			if (j == i || o->origin != DERIVE_FROM_TRACE ||
			    (h->trace_kinds & o->trace_kinds) ||
			    !derive_same(h->ev, o->ev, &gap))
				continue;
			if (best == d->nheld || gap < best_gap) {
				best = j;
				best_gap = gap;
			}
		}
		if (best == d->nheld)
			return;
		h->trace_kinds |= d->held[best].trace_kinds;
		if (d->req.serial == d->held[best].serial)
			d->req.serial = h->serial;
		derive_merge(h, d->held[best].ev, DERIVE_FROM_TRACE);
		derive_drop(d, best);
		if (best < i)
			i--;
	}
}

/*
 * A trace's I/O error of the request whose command failed with sense just
 * before: into the incident that took that sense, as its I/O error or
 * as one more of its burst's.
 */
static bool derive_req_error(struct derive *d, struct ev *ev)
{
	unsigned int i, kbit = 1u << CLASSIFY_IO_ERROR;

	if (!d->req.serial || ev->t_ns < d->req.t_ns ||
	    ev->t_ns - d->req.t_ns > DERIVE_REQ_NS)
		return false;
	for (i = 0; i < d->nheld; i++) {
		struct derive_held *h = &d->held[i];

		if (h->serial != d->req.serial)
			continue;
		if (strcmp(derive_who(h->ev), derive_who(ev)))
			return false;
		d->req.serial = 0;
		if (d->req.own && !(h->trace_kinds & kbit)) {
			h->trace_kinds |= kbit;
			derive_merge(h, ev, DERIVE_FROM_TRACE);
		} else {
			derive_evidence(h->ev, ev->u.incident.evidence[0]);
			ev_free(ev);
		}
		return true;
	}
	return false;
}

static void derive_req_note(struct derive *d, const struct derive_held *h,
			    uint64_t t_ns, bool own)
{
	d->req.serial = h->serial;
	d->req.t_ns = t_ns;
	d->req.own = own;
}

static void derive_hold(struct derive *d, struct ev *ev, unsigned int origin,
			uint32_t devt, uint32_t tag)
{
	enum classify_kind kind = ev->u.incident.inc.kind;
	unsigned int i, best = d->nheld, kbit = 1u << kind;
	uint64_t t_ns = ev->t_ns, gap, best_gap = 0;
	struct derive_held *h;

	if (origin == DERIVE_FROM_TRACE && kind == CLASSIFY_IO_ERROR &&
	    derive_req_error(d, ev))
		return;
	/*
	 * A log incident takes one trace incident of each kind, the
	 * nearest: its command's sense and its request's I/O error
	 */
	for (i = 0; i < d->nheld; i++) {
		h = &d->held[i];
		if (origin == DERIVE_FROM_TRACE ?
		    (h->trace_kinds & kbit) || !(h->origin & DERIVE_FROM_LOG) :
		    (h->origin & origin) != 0)
			continue;
		if (!derive_same(h->ev, ev, &gap))
			continue;
		if (best == d->nheld || gap < best_gap) {
			best = i;
			best_gap = gap;
		}
	}
	if (best < d->nheld) {
		h = &d->held[best];
		if (origin == DERIVE_FROM_TRACE)
			h->trace_kinds |= kbit;
		else
			h->trace_kinds |= 1u << h->ev->u.incident.inc.kind;
		derive_merge(h, ev, origin);
		if (origin == DERIVE_FROM_LOG)
			derive_absorb(d, best);
		else if (kind == CLASSIFY_SENSE)
			derive_req_note(d, h, t_ns, true);
		return;
	}
	/*
	 * The log names one timeout per burst (the first abort implies it)
	 * and rate-limits sense lines; the trace sees every command: one
	 * incident for the burst, with the number of commands.
	 */
	if (origin == DERIVE_FROM_TRACE && derive_counts_commands(ev)) {
		for (i = 0; i < d->nheld; i++) {
			struct classify_incident *inc;

			h = &d->held[i];
			if (!derive_same_burst(h->ev, ev))
				continue;
			inc = &h->ev->u.incident.inc;
			inc->count = inc->count > 0 ? inc->count + 1 : 2;
			derive_evidence(h->ev, ev->u.incident.evidence[0]);
			h->origin |= DERIVE_FROM_TRACE;
			if (kind == CLASSIFY_SENSE)
				derive_req_note(d, h, t_ns, false);
			ev_free(ev);
			return;
		}
	}
	if (d->nheld == DERIVE_HELD_MAX)
		derive_release(d, 0);
	h = &d->held[d->nheld++];
	h->ev = ev;
	h->origin = origin;
	h->trace_kinds = origin == DERIVE_FROM_TRACE ? kbit : 0;
	h->devt = devt;
	h->tag = tag;
	h->serial = ++d->serial;
	if (origin == DERIVE_FROM_TRACE && kind == CLASSIFY_SENSE)
		derive_req_note(d, h, t_ns, true);
}

/* An incident of the classifier, as an event held for its other half. */
static void derive_log_out(struct derive *d, const struct devmap *m,
			   const struct classify_incident *inc)
{
	const struct devmap_entry *e;
	uint64_t t_ns = inc->t > 0 ? (uint64_t)(inc->t * 1e9 + 0.5) : 0;
	struct ev *out = derive_incident_new(t_ns, inc->kind, NULL);
	unsigned int i;

	if (!out)
		return;
	out->u.incident.inc = *inc;
	out->u.incident.opcode = inc->opcode;
	out->u.incident.lba = inc->lba;
	e = devmap_find_name(m, inc->disk[0] ? inc->disk : inc->dev);
	if (e) {
		out->ident = e->ident;
	} else if (inc->disk[0]) {
		snprintf(out->ident.disk, sizeof(out->ident.disk), "%.*s",
			 (int)sizeof(out->ident.disk) - 1, inc->disk);
	} else if (!strncmp(inc->dev, "sd", 2)) {
		snprintf(out->ident.disk, sizeof(out->ident.disk), "%.*s",
			 (int)sizeof(out->ident.disk) - 1, inc->dev);
	}
	/* the refs are the events the classifier made it from */
	for (i = 0; i < inc->nrefs; i++)
		derive_evidence(out, inc->refs[i]);
	derive_hold(d, out, DERIVE_FROM_LOG, 0, 0);
}

static void derive_log_drain(struct derive *d, const struct devmap *m)
{
	struct classify_incident inc;

	while (classify_next(d->cl, &inc))
		derive_log_out(d, m, &inc);
}

static void derive_log(struct derive *d, const struct devmap *m,
		       const struct ev *ev)
{
	struct kmsg_record rec = {
		.msg = ev->u.klog.text,
		.msg_len = strnlen(ev->u.klog.text, sizeof(ev->u.klog.text)),
		.t = (double)ev->t_ns / 1e9,
		.clock = KMSG_CLOCK_BOOT,
		.wall_clock = KMSG_CLOCK_NONE,
		.format = KMSG_FMT_KMSG,
		.facility = ev->u.klog.facility,
		.level = ev->u.klog.level,
		.seq = ev->u.klog.seq,
		.lineno = (unsigned long)ev->id,
	};

	classify_feed(d->cl, &rec, ev->id);
	derive_log_drain(d, m);
}

static void derive_xhci_error(struct derive *d, const struct ev *ev,
			      uint8_t slot, uint8_t ep, uint8_t cc)
{
	struct derive_xhci *x = NULL;
	struct ev *out;
	unsigned int i;

	for (i = 0; i < d->nxhci; i++)
		if (d->xhci[i].slot == slot && d->xhci[i].ep == ep &&
		    d->xhci[i].cc == cc && d->xhci[i].busnum == ev->ident.busnum)
			x = &d->xhci[i];
	if (!x) {
		x = &d->xhci[d->nxhci < DERIVE_XHCI_MAX ? d->nxhci++ :
			     (slot * 31u + ep) % DERIVE_XHCI_MAX];
		memset(x, 0, sizeof(*x));
		x->slot = slot;
		x->ep = ep;
		x->cc = cc;
		x->busnum = ev->ident.busnum;
	} else if (ev->t_ns - x->last_ns < DERIVE_XHCI_QUIET_NS) {
		x->suppressed++;
		return;
	}
	out = derive_incident_new(ev->t_ns, CLASSIFY_XHCI_ERROR, &ev->ident);
	if (!out)
		return;
	out->u.incident.inc.code = cc;
	out->u.incident.inc.count = x->suppressed;
	if (!out->u.incident.inc.dev[0] && ev->ident.usb[0])
		snprintf(out->u.incident.inc.dev, CLASSIFY_DEV_MAX, "%s",
			 ev->ident.usb);
	snprintf(out->u.incident.inc.line, CLASSIFY_LINE_MAX,
		 "xHCI %s event: slot %u ep %u completion code %u%s",
		 ev->u.rec.type == USBTRAIL_REC_XHCI_COMMAND ? "command" :
		 "transfer", slot, ep, cc,
		 x->suppressed ? " (and earlier ones within a second)" : "");
	x->last_ns = ev->t_ns;
	x->suppressed = 0;
	derive_evidence(out, ev->id);
	derive_hold(d, out, DERIVE_FROM_TRACE, 0, 0);
}

/* The raw sense record after a scsi-done: onto its held incident. */
static void derive_sense_bytes(struct derive *d, const struct ev *ev)
{
	const struct usbtrail_rec_sense *s = &ev->u.rec.u.sense;
	unsigned int i;

	for (i = d->nheld; i-- > 0;) {
		struct derive_held *h = &d->held[i];
		struct ev_incident *ei = &h->ev->u.incident;

		if (!(h->origin & DERIVE_FROM_TRACE) ||
		    ei->inc.kind != CLASSIFY_SENSE || h->devt != s->devt ||
		    h->tag != s->tag || ei->sense_len)
			continue;
		ei->sense_len = s->len < sizeof(ei->sense) ? s->len :
				sizeof(ei->sense);
		memcpy(ei->sense, s->sense, ei->sense_len);
		derive_evidence(h->ev, ev->id);
		return;
	}
}

/*
 * The kind of incident trace record @ev is, with what its log half needs
 * to find it (@devt, @tag: SCSI sense); false when it is none.  xHCI
 * errors and sense bytes are handled here and are none either.
 */
/* REQ_OP_DRV_IN, REQ_OP_DRV_OUT (include/linux/blk_types.h, 5.10 to 7.3) */
#define DERIVE_REQ_OP_DRV_IN	34u
#define DERIVE_REQ_OP_DRV_OUT	35u

static bool derive_blk_passthrough(uint32_t op)
{
	return op == DERIVE_REQ_OP_DRV_IN || op == DERIVE_REQ_OP_DRV_OUT ||
	       op == ~0u;
}

static bool derive_trace_kind(struct derive *d, const struct ev *ev,
			      enum classify_kind *kind, uint32_t *devt,
			      uint32_t *tag)
{
	const struct usbtrail_record *r = &ev->u.rec;

	switch (r->type) {
	case USBTRAIL_REC_XHCI_TRANSFER:
	case USBTRAIL_REC_XHCI_COMMAND:
		/*
		 * data/xhci-cc.tsv says which codes are errors: not the
		 * Stopped codes of a cancelled URB, nor the Command Ring
		 * Stopped that comes with every abort (the aborted command's
		 * own code 25 is the incident)
		 */
		if (datatab_cc_error(r->u.xhci.cc))
			derive_xhci_error(d, ev, r->u.xhci.slot, r->u.xhci.ep,
					  r->u.xhci.cc);
		return false;
	case USBTRAIL_REC_SCSI_SENSE:
		derive_sense_bytes(d, ev);
		return false;
	case USBTRAIL_REC_SCSI_DONE:
		if (!(r->flags & USBTRAIL_F_ERROR) || !r->u.scsi.sense_key)
			return false;
		*kind = CLASSIFY_SENSE;
		*devt = r->u.scsi.devt;
		*tag = r->u.scsi.tag;
		return true;
	case USBTRAIL_REC_SCSI_TIMEOUT:
		*kind = CLASSIFY_TIMEOUT;
		return true;
	case USBTRAIL_REC_EH_START:
		/* the log names an abort as its handler starts... */
		if (r->u.eh.kind != USBTRAIL_EH_ABORT)
			return false;
		*kind = CLASSIFY_ABORT;
		return true;
	case USBTRAIL_REC_EH_END:
		/* ...and a reset as it happens, at the handler's end */
		if (r->u.eh.kind == USBTRAIL_EH_ABORT)
			return false;
		*kind = CLASSIFY_RESET;
		return true;
	case USBTRAIL_REC_BLK_COMPLETE:
		/*
		 * A pass-through request (SG_IO: smartctl, hdparm) that
		 * failed is its program's answer, a CHECK CONDITION it reads
		 * itself, not lost data: REQ_OP_DRV_IN/OUT, or rwbs "N"
		 * through tracefs (~0u; "N" also names WRITE ZEROES and
		 * the zone operations, which USB disks hardly get).
		 */
		if (!r->u.blk.error || derive_blk_passthrough(r->u.blk.op))
			return false;
		*kind = CLASSIFY_IO_ERROR;
		return true;
	case USBTRAIL_REC_USB_REMOVE:
		*kind = CLASSIFY_DISCONNECT;
		return true;
	default:
		return false;
	}
}

/* What the trace record @ev says of the incident @out made of it. */
static void derive_trace_fields(struct ev *out, const struct ev *ev)
{
	const struct usbtrail_record *r = &ev->u.rec;

	switch (r->type) {
	case USBTRAIL_REC_SCSI_DONE: {
		struct classify_incident *inc = &out->u.incident.inc;
		const char *text;

		inc->key = r->u.scsi.sense_key;
		inc->asc = r->u.scsi.asc;
		inc->ascq = r->u.scsi.ascq;
		inc->key_text = classify_sense_key_text(inc->key);
		text = classify_asc_text(inc->asc, inc->ascq);
		snprintf(inc->asc_text, sizeof(inc->asc_text), "%s",
			 text ? text : "");
		out->u.incident.opcode = r->u.scsi.opcode;
		if (r->u.scsi.lba != ~0ull)
			out->u.incident.lba = (int64_t)r->u.scsi.lba;
		break;
	}
	case USBTRAIL_REC_SCSI_TIMEOUT:
		out->u.incident.opcode = r->u.scsi.opcode;
		if (r->u.scsi.lba != ~0ull)
			out->u.incident.lba = (int64_t)r->u.scsi.lba;
		break;
	case USBTRAIL_REC_EH_START:
	case USBTRAIL_REC_EH_END:
		out->u.incident.opcode = r->u.eh.opcode;
		break;
	case USBTRAIL_REC_BLK_COMPLETE:
		out->u.incident.inc.sector = (int64_t)r->u.blk.sector;
		break;
	case USBTRAIL_REC_USB_REMOVE:
		out->u.incident.inc.devnum = r->u.usbdev.devnum;
		if (ev->ident.usb[0])
			snprintf(out->u.incident.inc.dev, CLASSIFY_DEV_MAX,
				 "%s", ev->ident.usb);
		break;
	default:
		break;
	}
}

static void derive_trace(struct derive *d, const struct ev *ev)
{
	enum classify_kind kind;
	uint32_t devt = 0, tag = 0;
	struct ev *out;

	if (!derive_trace_kind(d, ev, &kind, &devt, &tag))
		return;
	out = derive_incident_new(ev->t_ns, kind, &ev->ident);
	if (!out)
		return;
	derive_trace_fields(out, ev);
	modrec_format(&ev->u.rec, out->u.incident.inc.line,
		      CLASSIFY_LINE_MAX);
	derive_evidence(out, ev->id);
	derive_hold(d, out, DERIVE_FROM_TRACE, devt, tag);
}

void derive_feed(struct derive *d, const struct devmap *m,
		 const struct ev *ev)
{
	d->map = m;
	if (ev->t_ns > d->now_ns)
		d->now_ns = ev->t_ns;
	switch (ev->type) {
	case EV_KLOG:
		derive_log(d, m, ev);
		break;
	case EV_TRACE:
		if (ev->u.rec.type == USBTRAIL_REC_BLK_ISSUE ||
		    ev->u.rec.type == USBTRAIL_REC_BLK_COMPLETE)
			tput_blk(&d->tput, ev);
		derive_trace(d, ev);
		break;
	case EV_USBMON:
	case EV_DEVICE:
	case EV_SAMPLE:
	case EV_MARKER:
	case EV_LOST:
	case EV_INCIDENT:
	case EV_TYPE_MAX:
		break;
	}
}

void derive_advance(struct derive *d, uint64_t now_ns)
{
	if (now_ns > d->now_ns)
		d->now_ns = now_ns;
	tput_advance(&d->tput, d->now_ns);
	/* the log's incidents no later line can join: to match now */
	classify_advance(d->cl, (double)d->now_ns / 1e9, KMSG_CLOCK_BOOT);
	if (d->map)
		derive_log_drain(d, d->map);
	while (d->nheld && d->held[0].ev->t_ns + DERIVE_HOLD_MS * 1000000ull <
	       d->now_ns) {
		const struct derive_held *h = &d->held[0];
		double t = (double)h->ev->t_ns / 1e9;
		double w = (double)DERIVE_MATCH_NS / 1e9;

		/* a trace incident waits for the log's, still being read */
		if (!(h->origin & DERIVE_FROM_LOG) &&
		    classify_pending(d->cl, t - w, t + w))
			break;
		derive_release(d, 0);
	}
}

void derive_flush(struct derive *d)
{
	struct devmap *empty = NULL;

	classify_end(d->cl);
	if (!d->map) {
		empty = calloc(1, sizeof(*empty));
		if (empty)
			devmap_init(empty);
	}
	if (d->map || empty)
		derive_log_drain(d, d->map ? d->map : empty);
	free(empty);
	tput_flush(&d->tput, d->now_ns);
	while (d->nheld)
		derive_release(d, 0);
}
