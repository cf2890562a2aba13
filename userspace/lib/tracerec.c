// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracerec: tracefs events -> struct usbtrail_record, with the meaning and
 * the filters of usbtrail.ko (module/ut_xhci.c, ut_scsi.c, ut_blk.c,
 * ut_eh.c).  See tracerec.h for the data flow, docs/module.md for what a
 * tracepoint lacks that the module reads from the kernel's structures.
 *
 * Fields are found by name in the event formats the kernel publishes, with
 * the offsets and sizes it gives, so every layout from 5.10's to 7.3's
 * decodes (tests/fixtures/tracefs/KERNEL/); a field a kernel lacks is
 * absent, not guessed (docs/record.md says which); every read is checked
 * against the size of the event, which comes from an untrusted page.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>

#include "tracerec.h"

/* include/uapi/linux/usb/ch9.h */
#define TRACEREC_XFER_CONTROL	0
#define TRACEREC_XFER_BULK	2

/* UT_EH_HANDLERS() (ut_tables.h): every name of each handler */
#define TRACEREC_EH_PROBE(mod, fn, suffix, kind, driver)	\
	{ mod, fn, suffix, kind, driver },
const struct tracerec_eh_probe tracerec_eh_probes[] = {
	UT_EH_HANDLERS(TRACEREC_EH_PROBE)
};
const unsigned int tracerec_eh_nprobes =
	sizeof(tracerec_eh_probes) / sizeof(tracerec_eh_probes[0]);

/* UT_TRACEPOINTS() (ut_tables.h): the module's, so ours */
#define TRACEREC_TP(id, fn, sys, mod, event, src)	\
	{ sys, event, TRACEREC_##id },
static const struct {
	const char *system;
	const char *name;
	enum tracerec_kind kind;
} tracerec_tracepoints[] = {
	UT_TRACEPOINTS(TRACEREC_TP)
};
#define TRACEREC_NTRACEPOINTS \
	(sizeof(tracerec_tracepoints) / sizeof(tracerec_tracepoints[0]))

int tracerec_eh_probe_of(const char *name, bool *ret)
{
	size_t n, sl;
	unsigned int i;

	if (!name)
		return -1;
	/* "usbtrail_<pid>_" as src_tracefs.c names them */
	if (!strncmp(name, "usbtrail_", 9)) {
		name += 9;
		while (*name >= '0' && *name <= '9')
			name++;
		if (*name == '_')
			name++;
	}
	n = strlen(name);
	for (i = 0; i < tracerec_eh_nprobes; i++) {
		sl = strlen(tracerec_eh_probes[i].suffix);
		if (strncmp(name, tracerec_eh_probes[i].suffix, sl))
			continue;
		if (n == sl) {
			*ret = false;
			return i;
		}
		if (n == sl + 4 && !strcmp(name + sl, "_ret")) {
			*ret = true;
			return i;
		}
	}
	return -1;
}

static void tracerec_add_id(struct tracerec_state *st, struct tep_event *ev,
			    enum tracerec_kind kind, int eh)
{
	struct tracerec_event_id *e;

	if (st->nids >= sizeof(st->ids) / sizeof(st->ids[0]))
		return;
	e = &st->ids[st->nids++];
	e->id = ev->id;
	e->kind = kind;
	e->eh = eh < 0 ? 0 : (uint8_t)eh;
	e->event = ev;
	e->native = tep_is_file_bigendian(ev->tep) ==
		    tep_is_local_bigendian(ev->tep);
	e->nfields = 0;		/* a new event: its fields are looked up anew */
	e->cursor = 0;
}

_Static_assert(sizeof(((struct tracerec_state *)0)->ids) /
	       sizeof(((struct tracerec_state *)0)->ids[0]) < 256,
	       "id_hint holds 1 + an index of ids");

int tracerec_state_init(struct tracerec_state *st, struct tep_handle *tep)
{
	unsigned int i;

	if (!st || !tep)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->tep = tep;
	for (i = 0; i < TRACEREC_SLOTS; i++)
		memset(st->slots[i].epaddr, 0xff, sizeof(st->slots[i].epaddr));
	return tracerec_state_events(st);
}

int tracerec_state_events(struct tracerec_state *st)
{
	struct tep_event *ev;
	unsigned int j;
	int i, n;
	bool ret;
	int eh;

	if (!st || !st->tep)
		return -EINVAL;
	st->nids = 0;
	memset(st->id_hint, 0, sizeof(st->id_hint));
	n = tep_get_events_count(st->tep);
	for (i = 0; i < n; i++) {
		ev = tep_get_event(st->tep, i);
		if (!ev || !ev->name || !ev->system)
			continue;
		for (j = 0; j < TRACEREC_NTRACEPOINTS; j++) {
			const char *sys = tracerec_tracepoints[j].system;

			if (!strcmp(ev->system, sys) &&
			    !strcmp(ev->name, tracerec_tracepoints[j].name))
				tracerec_add_id(st, ev,
						tracerec_tracepoints[j].kind,
						-1);
		}
		/* our kprobes: kprobes/usbtrail_<pid>_x, or a group of ours */
		if (strncmp(ev->name, "usbtrail_", 9) &&
		    strncmp(ev->system, "usbtrail", 8))
			continue;
		eh = tracerec_eh_probe_of(ev->name, &ret);
		if (eh >= 0)
			tracerec_add_id(st, ev, ret ? TRACEREC_EH_RETURN :
					TRACEREC_EH_ENTRY, eh);
	}
	return st->nids;
}

int tracerec_set_release(struct tracerec_state *st, const char *release)
{
	unsigned long major, minor;
	char *end;

	if (!st || !release || *release < '0' || *release > '9')
		return -EINVAL;
	major = strtoul(release, &end, 10);
	if (*end != '.' || end[1] < '0' || end[1] > '9')
		return -EINVAL;
	minor = strtoul(end + 1, &end, 10);
	st->port_one_based = major > 6 || (major == 6 && minor >= 18);
	return 0;
}

int tracerec_add_host(struct tracerec_state *st, unsigned int host)
{
	unsigned int i;

	for (i = 0; i < st->nhosts && i < TRACEREC_HOSTS_MAX; i++)
		if (st->hosts[i] == host)
			return 0;
	if (st->nhosts >= TRACEREC_HOSTS_MAX)
		return -ENOSPC;
	st->hosts[st->nhosts++] = host;
	return 0;
}

int tracerec_add_disk(struct tracerec_state *st,
		      const struct tracerec_disk *disk)
{
	if (st->ndisks >= TRACEREC_DISKS_MAX)
		return -ENOSPC;
	st->disks[st->ndisks] = *disk;
	st->disks[st->ndisks].name[sizeof(disk->name) - 1] = '\0';
	st->ndisks++;
	return 0;
}

void tracerec_clear_disks(struct tracerec_state *st)
{
	st->nhosts = 0;
	st->ndisks = 0;
}

bool tracerec_host_wanted(const struct tracerec_state *st, unsigned int host)
{
	unsigned int i;

	if (st->all_scsi)
		return true;
	for (i = 0; i < st->nhosts && i < TRACEREC_HOSTS_MAX; i++)
		if (st->hosts[i] == host)
			return true;
	return false;
}

const struct tracerec_disk *tracerec_disk_by_addr(
	const struct tracerec_state *st, unsigned int host,
	unsigned int channel, unsigned int id, unsigned int lun)
{
	unsigned int i;

	for (i = 0; i < st->ndisks && i < TRACEREC_DISKS_MAX; i++) {
		const struct tracerec_disk *d = &st->disks[i];

		if (d->host == host && d->channel == channel &&
		    d->id == id && d->lun == lun)
			return d;
	}
	return NULL;
}

const struct tracerec_disk *tracerec_disk_by_devt(
	const struct tracerec_state *st, uint32_t devt)
{
	unsigned int i;

	for (i = 0; i < st->ndisks && i < TRACEREC_DISKS_MAX; i++)
		if (st->disks[i].devt == devt)
			return &st->disks[i];
	return NULL;
}

/* -- reading fields of one event, bounded by its size -- */

struct tracerec_ev {
	struct tracerec_event_id *id;	/* its event, and its field cache */
	const uint8_t *data;
	size_t size;
};

/* What tracerec_num() needs of field f, of an event of id */
static void tracerec_field_fill(const struct tracerec_event_id *id,
				struct tracerec_field_cache *c,
				const char *name, struct tep_format_field *f)
{
	memset(c, 0, sizeof(*c));
	c->name = name;
	c->field = f;
	if (!f || f->offset < 0 || f->size <= 0 || f->size > 8 ||
	    (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)))
		return;
	c->number = true;
	c->size = (uint8_t)f->size;
	c->end = (uint32_t)f->offset + (uint32_t)f->size;
	/*
	 * Read in place where the trace is this machine's (a live one
	 * always is): tep_read_number_field() cost half of decoding a
	 * record, five or six fields of each.
	 */
	c->in_place = id->native && !(f->size & (f->size - 1));
	c->is_signed = (f->flags & TEP_FIELD_IS_SIGNED) != 0;
}

/*
 * libtraceevent finds a field by comparing names along a list; the
 * decoders ask for the same few names of every record, in the same
 * order, so each event id keeps the answers in the order asked, keyed
 * by the name's address (the decoders pass literals), and looks at the
 * one after the last answer first.  @scratch holds the answer when the
 * cache is full.
 */
static const struct tracerec_field_cache *
tracerec_field(const struct tracerec_ev *e, const char *name,
	       struct tracerec_field_cache *scratch)
{
	struct tracerec_event_id *id = e->id;
	struct tracerec_field_cache *c;
	struct tep_format_field *f;
	unsigned int i = id->cursor;

	if (i < id->nfields && id->fields[i].name == name) {
		id->cursor = i + 1;
		return &id->fields[i];
	}
	for (i = 0; i < id->nfields; i++)
		if (id->fields[i].name == name) {
			id->cursor = i + 1;
			return &id->fields[i];
		}
	f = tep_find_field(id->event, name);
	if (!f)
		f = tep_find_common_field(id->event, name);
	c = scratch;
	if (id->nfields < TRACEREC_FIELDS_CACHED) {
		c = &id->fields[id->nfields++];
		id->cursor = id->nfields;
	}
	tracerec_field_fill(id, c, name, f);
	return c;
}

/* -ENOENT: no such field in this kernel's format; -EINVAL: out of bounds */
static int tracerec_num(const struct tracerec_ev *e, const char *name,
			uint64_t *val)
{
	struct tracerec_field_cache scratch;
	const struct tracerec_field_cache *c = tracerec_field(e, name,
							      &scratch);
	const uint8_t *p = e->data;
	unsigned long long v;
	uint16_t v16;
	uint32_t v32;

	if (!c->field)
		return -ENOENT;
	if (!c->number || c->end > e->size)
		return -EINVAL;
	p += c->end - c->size;
	if (!c->in_place) {
		if (tep_read_number_field(c->field, e->data, &v))
			return -EINVAL;
	} else if (c->size == 1) {
		v = *p;
	} else if (c->size == 2) {
		memcpy(&v16, p, 2);
		v = v16;
	} else if (c->size == 4) {
		memcpy(&v32, p, 4);
		v = v32;
	} else {
		memcpy(&v, p, 8);
	}
	/* sign-extend signed fields so an int -5 reads as -5 */
	if (c->is_signed && c->size < 8 && (v >> (c->size * 8 - 1)) & 1)
		v |= ~0ULL << (c->size * 8);
	*val = v;
	return 0;
}

/* A dynamic (__data_loc) or fixed array field: *p, *len within the event */
static int tracerec_array(const struct tracerec_ev *e, const char *name,
			  const uint8_t **p, size_t *len)
{
	struct tracerec_field_cache scratch;
	const struct tep_format_field *f = tracerec_field(e, name,
							  &scratch)->field;
	size_t off, n;
	uint32_t loc;

	if (!f)
		return -ENOENT;
	if (f->offset < 0 || f->size < 0 ||
	    (size_t)f->offset + (size_t)f->size > e->size)
		return -EINVAL;
	if (!(f->flags & TEP_FIELD_IS_DYNAMIC)) {
		*p = e->data + f->offset;
		*len = f->size;
		return 0;
	}
	if (f->size != 4)
		return -EINVAL;
	memcpy(&loc, e->data + f->offset, 4);
	off = loc & 0xffff;
	n = loc >> 16;
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		off += f->offset + 4;
	if (off > e->size || n > e->size - off)
		return -EINVAL;
	*p = e->data + off;
	*len = n;
	return 0;
}

/* Fields every kernel we support has: a miss means a bad event. */
static int tracerec_need(const struct tracerec_ev *e, const char *name,
			 uint64_t *val)
{
	int ret = tracerec_num(e, name, val);

	return ret == -ENOENT ? -EINVAL : ret;
}

/* -- xhci-hcd -- */

static uint8_t tracerec_dci(unsigned int epnum, bool in, unsigned int xfer)
{
	if (xfer == TRACEREC_XFER_CONTROL)
		return (uint8_t)(epnum * 2 + 1);
	return (uint8_t)(epnum * 2 + (in ? 1 : 0));
}

static int tracerec_trb(const struct tracerec_ev *e, uint32_t trb[4])
{
	static const char *const names[4] = {
		"field0", "field1", "field2", "field3"
	};
	uint64_t v;
	int i;

	for (i = 0; i < 4; i++) {
		if (tracerec_need(e, names[i], &v))
			return -EINVAL;
		trb[i] = (uint32_t)v;
	}
	return 0;
}

static int tracerec_xhci_event(struct tracerec_state *st,
			       const struct tracerec_ev *e, unsigned int cpu,
			       struct usbtrail_record *rec)
{
	struct usbtrail_rec_xhci *x = &rec->u.xhci;
	uint32_t trb[4];
	uint8_t type, cc, slot, dci;

	if (tracerec_trb(e, trb))
		return -EINVAL;
	type = UT_XHCI_TRB_TYPE(trb[3]);
	cc = UT_XHCI_COMP_CODE(trb[2]);
	slot = UT_XHCI_SLOT_ID(trb[3]);
	dci = UT_XHCI_EP_ID(trb[3]);
	if (type == UT_TRB_COMPLETION) {
		/* xhci_handle_command follows on this CPU: hand the code on */
		st->cmd_cc[cpu % TRACEREC_CPUS_MAX] = cc;
		return 0;
	}
	if (type != UT_TRB_TRANSFER)
		return 0;	/* port events: xhci_handle_port_status */
	if (cc == UT_COMP_SUCCESS || cc == UT_COMP_SHORT_PACKET) {
		if (!(st->slots[slot].watched & (1u << dci))) {
			st->filtered++;
			return 0;
		}
	} else {
		rec->flags = USBTRAIL_F_ERROR;
	}
	rec->type = USBTRAIL_REC_XHCI_TRANSFER;
	memcpy(x->trb, trb, sizeof(x->trb));
	x->slot = slot;
	x->ep = dci;
	x->cc = cc;
	x->trb_type = type;
	x->length = UT_XHCI_EVENT_LEN(trb[2]);
	x->busnum = st->slots[slot].busnum;
	x->devnum = st->slots[slot].devnum;
	x->epaddr = st->slots[slot].epaddr[dci];
	return 1;
}

static int tracerec_xhci_command(struct tracerec_state *st,
				 const struct tracerec_ev *e, unsigned int cpu,
				 struct usbtrail_record *rec)
{
	struct usbtrail_rec_xhci *x = &rec->u.xhci;
	uint32_t trb[4];

	if (tracerec_trb(e, trb))
		return -EINVAL;
	rec->type = USBTRAIL_REC_XHCI_COMMAND;
	memcpy(x->trb, trb, sizeof(x->trb));
	x->slot = UT_XHCI_SLOT_ID(trb[3]);
	x->ep = UT_XHCI_EP_ID(trb[3]);
	x->trb_type = UT_XHCI_TRB_TYPE(trb[3]);
	x->cc = st->cmd_cc[cpu % TRACEREC_CPUS_MAX];
	x->epaddr = 0xff;
	if (x->cc != UT_COMP_SUCCESS)
		rec->flags = USBTRAIL_F_ERROR;
	return 1;
}

static int tracerec_xhci_port(const struct tracerec_state *st,
			      const struct tracerec_ev *e,
			      struct usbtrail_record *rec)
{
	uint64_t portnum, portsc, busnum = 0;
	int ret;

	if (tracerec_need(e, "portnum", &portnum) ||
	    tracerec_need(e, "portsc", &portsc))
		return -EINVAL;
	ret = tracerec_num(e, "busnum", &busnum);	/* 6.8 and later */
	if (ret && ret != -ENOENT)
		return -EINVAL;
	rec->type = USBTRAIL_REC_XHCI_PORT;
	rec->u.port.portsc = (uint32_t)portsc;
	rec->u.port.busnum = (uint16_t)busnum;
	/* the record's port is 1-based; the event's is from 6.18 on */
	rec->u.port.port = (uint16_t)(st->port_one_based ? portnum :
				      portnum + 1);
	return 1;
}

/* "2-1.4" -> bus 2, devpath "1.4"; "usb2" (a root hub) -> 2, "0" */
static void tracerec_devname(const uint8_t *p, size_t len,
			     struct usbtrail_rec_urb *u)
{
	char name[32];
	char *dash, *end;
	unsigned long bus;

	if (len >= sizeof(name))
		len = sizeof(name) - 1;
	memcpy(name, p, len);
	name[len] = '\0';
	if (!strncmp(name, "usb", 3)) {
		bus = strtoul(name + 3, &end, 10);
		if (end != name + 3 && !*end && bus < 65536) {
			u->busnum = (uint16_t)bus;
			strcpy(u->devpath, "0");
		}
		return;
	}
	dash = strchr(name, '-');
	if (!dash || dash == name)
		return;
	bus = strtoul(name, &end, 10);
	if (end != dash || bus >= 65536)
		return;
	u->busnum = (uint16_t)bus;
	strncpy(u->devpath, dash + 1, sizeof(u->devpath) - 1);
}

static int tracerec_urb(struct tracerec_state *st,
			const struct tracerec_ev *e, enum tracerec_kind kind,
			struct usbtrail_record *rec)
{
	struct usbtrail_rec_urb *u = &rec->u.urb;
	uint64_t pipe, stream, length, actual, epnum, dir_in, xfer, slot;
	uint64_t num_sgs;
	const uint8_t *name;
	size_t nlen;
	uint8_t dci;
	int ret;

	if (tracerec_need(e, "pipe", &pipe) ||
	    tracerec_need(e, "stream", &stream) ||
	    tracerec_need(e, "length", &length) ||
	    tracerec_need(e, "actual", &actual) ||
	    tracerec_need(e, "epnum", &epnum) ||
	    tracerec_need(e, "dir_in", &dir_in) ||
	    tracerec_need(e, "type", &xfer) ||
	    tracerec_need(e, "slot_id", &slot) ||
	    tracerec_need(e, "num_sgs", &num_sgs))
		return -EINVAL;
	if (xfer != TRACEREC_XFER_BULK && xfer != TRACEREC_XFER_CONTROL) {
		st->filtered++;
		return 0;
	}
	if (epnum > 15)
		return -EINVAL;
	if (kind == TRACEREC_URB_ENQUEUE)
		rec->type = USBTRAIL_REC_URB_ENQUEUE;
	else if (kind == TRACEREC_URB_GIVEBACK)
		rec->type = USBTRAIL_REC_URB_GIVEBACK;
	else
		rec->type = USBTRAIL_REC_URB_DEQUEUE;
	/* 6.1 names no bus; 6.12's devname ("2-1") does */
	ret = tracerec_array(e, "devname", &name, &nlen);
	if (ret == -EINVAL)
		return -EINVAL;
	if (!ret)
		tracerec_devname(name, nlen, u);
	u->devnum = (pipe >> 8) & 0x7f;		/* usb_pipedevice() */
	u->epaddr = (uint8_t)(epnum | (dir_in ? 0x80 : 0));
	u->eptype = (uint8_t)xfer;
	u->slot = slot < 256 ? (uint8_t)slot : 0;
	/*
	 * The tracepoint carries urb->status (-EINPROGRESS until the HCD
	 * gives it back), not urb->unlinked: why an URB was cancelled is
	 * not known here, so status stays 0 and a giveback is never an
	 * error (docs/module.md).
	 */
	u->status = 0;
	u->length = (uint32_t)length;
	u->actual = (uint32_t)actual;
	u->stream = (uint32_t)stream;
	u->num_sgs = (uint32_t)num_sgs;

	dci = tracerec_dci((unsigned int)epnum, dir_in, (unsigned int)xfer);
	if (slot > 0 && slot < TRACEREC_SLOTS) {
		struct tracerec_slot *s = &st->slots[slot];

		if (kind == TRACEREC_URB_ENQUEUE)
			s->watched |= 1u << dci;
		s->devnum = u->devnum;
		if (u->busnum)
			s->busnum = u->busnum;
		s->epaddr[dci] = u->epaddr;
	}
	return 1;
}

/* -- scsi -- */

static uint64_t tracerec_be(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | *p++;
	return v;
}

/*
 * The device's LBA and the blocks of a READ/WRITE CDB (SBC-4); other
 * commands: ~0 and 0.
 */
static void tracerec_cdb(const uint8_t *c, size_t len, uint64_t *lba,
			 uint64_t *blocks)
{
	*lba = ~0ULL;
	*blocks = 0;
	if (len < 6)
		return;
	switch (c[0]) {
	case 0x08:	/* READ(6) */
	case 0x0a:	/* WRITE(6) */
		*lba = tracerec_be(c + 1, 3) & 0x1fffff;
		*blocks = c[4] ? c[4] : 256;
		break;
	case 0x28:	/* READ(10) */
	case 0x2a:	/* WRITE(10) */
	case 0x2e:	/* WRITE AND VERIFY(10) */
		if (len < 10)
			return;
		*lba = tracerec_be(c + 2, 4);
		*blocks = tracerec_be(c + 7, 2);
		break;
	case 0xa8:	/* READ(12) */
	case 0xaa:	/* WRITE(12) */
		if (len < 12)
			return;
		*lba = tracerec_be(c + 2, 4);
		*blocks = tracerec_be(c + 6, 4);
		break;
	case 0x88:	/* READ(16) */
	case 0x8a:	/* WRITE(16) */
		if (len < 16)
			return;
		*lba = tracerec_be(c + 2, 8);
		*blocks = tracerec_be(c + 10, 4);
		break;
	default:
		break;
	}
}

static void tracerec_scsi_where(const struct tracerec_state *st,
				uint64_t host, uint64_t channel, uint64_t id,
				uint64_t lun, uint32_t *devt, char disk[8],
				uint32_t *block_size)
{
	const struct tracerec_disk *d;

	d = tracerec_disk_by_addr(st, (unsigned int)host,
				  (unsigned int)channel, (unsigned int)id,
				  (unsigned int)lun);
	if (!d)
		return;
	*devt = d->devt;
	memcpy(disk, d->name, 8);
	if (block_size)
		*block_size = d->block_size ? d->block_size : 512;
}

/* SAM status CHECK CONDITION: the sense buffer holds the device's sense */
#define TRACEREC_SAM_CHECK_CONDITION	0x02

/*
 * The sense key, ASC and ASCQ of a failed command, where the kernel's
 * scsi_dispatch_cmd_done has them (sense_key, asc, ascq: 6.12 has them,
 * 6.1 not; normalized from the sense buffer when it is valid, else 0);
 * older kernels: none, they stay 0.  Taken, as the module does (ut_scsi.c), for
 * a CHECK CONDITION only.
 */
static int tracerec_sense(const struct tracerec_ev *e, uint64_t result,
			  struct usbtrail_rec_scsi *s)
{
	uint64_t key, asc, ascq;
	int ret;

	if ((result & 0xff) != TRACEREC_SAM_CHECK_CONDITION)
		return 0;
	ret = tracerec_num(e, "sense_key", &key);
	if (ret == -ENOENT)
		return 0;
	if (ret || tracerec_need(e, "asc", &asc) ||
	    tracerec_need(e, "ascq", &ascq))
		return -EINVAL;
	s->sense_key = (uint8_t)key;
	s->asc = (uint8_t)asc;
	s->ascq = (uint8_t)ascq;
	return 0;
}

static int tracerec_scsi(struct tracerec_state *st,
			 const struct tracerec_ev *e, enum tracerec_kind kind,
			 struct usbtrail_record *rec)
{
	struct usbtrail_rec_scsi *s = &rec->u.scsi;
	uint64_t host, channel, id, lun, opcode, tag = 0, result = 0;
	uint64_t lba, blocks;
	uint32_t bsize = 512;
	const uint8_t *cdb;
	size_t clen;
	int ret;

	if (tracerec_need(e, "host_no", &host))
		return -EINVAL;
	if (kind == TRACEREC_SCSI_EH_WAKEUP) {
		if (!tracerec_host_wanted(st, (unsigned int)host)) {
			st->filtered++;
			return 0;
		}
		rec->type = USBTRAIL_REC_SCSI_EH_WAKEUP;
		rec->flags = USBTRAIL_F_ERROR;
		s->host = (uint16_t)host;
		s->lba = ~0ULL;
		return 1;
	}
	if (tracerec_need(e, "channel", &channel) ||
	    tracerec_need(e, "id", &id) || tracerec_need(e, "lun", &lun) ||
	    tracerec_need(e, "opcode", &opcode))
		return -EINVAL;
	ret = tracerec_num(e, "driver_tag", &tag);
	if (ret && ret != -ENOENT)
		return -EINVAL;
	if (kind == TRACEREC_SCSI_ERROR)
		ret = tracerec_num(e, "rtn", &result);
	else if (kind != TRACEREC_SCSI_START)
		ret = tracerec_num(e, "result", &result);
	if (ret && ret != -ENOENT)
		return -EINVAL;
	if (tracerec_array(e, "cmnd", &cdb, &clen))
		return -EINVAL;
	if (!tracerec_host_wanted(st, (unsigned int)host)) {
		st->filtered++;
		return 0;
	}
	if (kind == TRACEREC_SCSI_START) {
		rec->type = USBTRAIL_REC_SCSI_START;
	} else if (kind == TRACEREC_SCSI_DONE) {
		rec->type = USBTRAIL_REC_SCSI_DONE;
		if (result)
			rec->flags = USBTRAIL_F_ERROR;
	} else if (kind == TRACEREC_SCSI_ERROR) {
		rec->type = USBTRAIL_REC_SCSI_ERROR;
		rec->flags = USBTRAIL_F_ERROR;
	} else {
		rec->type = USBTRAIL_REC_SCSI_TIMEOUT;
		rec->flags = USBTRAIL_F_ERROR;
	}
	s->host = (uint16_t)host;
	s->channel = (uint8_t)channel;
	s->id = (uint8_t)id;
	s->lun = (uint32_t)lun;
	s->tag = (uint32_t)tag;
	s->opcode = (uint8_t)opcode;
	s->result = (uint32_t)result;
	tracerec_scsi_where(st, host, channel, id, lun, &s->devt, s->disk,
			    &bsize);
	tracerec_cdb(cdb, clen, &lba, &blocks);
	s->lba = lba;
	s->len = (uint32_t)(blocks * bsize);
	if (kind == TRACEREC_SCSI_DONE && tracerec_sense(e, result, s))
		return -EINVAL;
	return 1;
}

/* -- block -- */

/* the kernel's dev_t (MAJOR << 20 | MINOR) -> new_encode_dev() */
static uint32_t tracerec_devt(uint64_t dev)
{
	uint32_t major = (uint32_t)(dev >> 20) & 0xfff;
	uint32_t minor = (uint32_t)dev & 0xfffff;

	return (minor & 0xff) | (major << 8) | ((minor & ~0xffu) << 12);
}

/* blk_fill_rwbs(): 'F' flush (before W: a preflush), W, R, D, DE, N */
static uint32_t tracerec_rwbs_op(const uint8_t *p, size_t len)
{
	size_t i = 0;

	if (len > 1 && p[0] == 'F' && p[1] != '\0')
		i = 1;		/* REQ_PREFLUSH of the write after it */
	if (i >= len)
		return ~0u;
	switch (p[i]) {
	case 'R':
		return 0;	/* REQ_OP_READ */
	case 'W':
		return 1;	/* REQ_OP_WRITE */
	case 'F':
		return 2;	/* REQ_OP_FLUSH */
	case 'D':
		return i + 1 < len && p[i + 1] == 'E' ? 5 : 3;
	default:
		return ~0u;	/* 'N': an operation rwbs does not name */
	}
}

static int tracerec_blk(struct tracerec_state *st, const struct tracerec_ev *e,
			enum tracerec_kind kind, uint64_t ts,
			struct usbtrail_record *rec)
{
	struct usbtrail_rec_blk *b = &rec->u.blk;
	const struct tracerec_disk *d;
	uint64_t dev, sector, nr, bytes = 0, error = 0;
	const uint8_t *rwbs;
	size_t rlen;
	unsigned int i;

	if (tracerec_need(e, "dev", &dev) ||
	    tracerec_need(e, "sector", &sector) ||
	    tracerec_need(e, "nr_sector", &nr) ||
	    tracerec_array(e, "rwbs", &rwbs, &rlen))
		return -EINVAL;
	if (kind == TRACEREC_BLK_ISSUE) {
		if (tracerec_need(e, "bytes", &bytes))
			return -EINVAL;
	} else if (tracerec_need(e, "error", &error)) {
		return -EINVAL;
	}
	d = tracerec_disk_by_devt(st, tracerec_devt(dev));
	if (!d) {
		st->filtered++;
		return 0;
	}
	b->devt = d->devt;
	memcpy(b->disk, d->name, sizeof(b->disk));
	b->sector = sector;
	b->op = tracerec_rwbs_op(rwbs, rlen);
	if (kind == TRACEREC_BLK_ISSUE) {
		struct tracerec_pending *p;

		rec->type = USBTRAIL_REC_BLK_ISSUE;
		b->bytes = (uint32_t)bytes;
		p = &st->pending[st->pending_next++ % TRACEREC_PENDING_MAX];
		p->devt = b->devt;
		p->sector = sector;
		p->ts = ts ? ts : 1;
		return 1;
	}
	rec->type = USBTRAIL_REC_BLK_COMPLETE;
	/* the tracepoint has nr_bytes >> 9 */
	b->bytes = (uint32_t)(nr << 9);
	b->error = (int32_t)error;
	if (b->error)
		rec->flags = USBTRAIL_F_ERROR;
	/*
	 * latency since issue (the module: since the request was made):
	 * the newest issue of that sector, searched from the newest back,
	 * where the few in flight are
	 */
	for (i = 1; i <= TRACEREC_PENDING_MAX; i++) {
		struct tracerec_pending *p = &st->pending[(st->pending_next - i) %
							  TRACEREC_PENDING_MAX];

		if (p->ts && p->devt == b->devt && p->sector == sector) {
			if (ts > p->ts)
				b->latency_ns = ts - p->ts;
			p->ts = 0;
			break;
		}
	}
	return 1;
}

/* -- error handler kprobes -- */

static int tracerec_eh(struct tracerec_state *st, const struct tracerec_ev *e,
		       const struct tracerec_event_id *id,
		       struct usbtrail_record *rec)
{
	const struct tracerec_eh_probe *p = &tracerec_eh_probes[id->eh];
	struct tracerec_eh_running *run = NULL, *free_slot = NULL;
	uint64_t pid, v;
	unsigned int i;
	int ret;

	if (tracerec_need(e, "common_pid", &pid))
		return -EINVAL;
	for (i = 0; i < TRACEREC_EH_MAX; i++) {
		if (st->eh[i].pid == (int)pid && pid)
			run = &st->eh[i];
		else if (!st->eh[i].pid && !free_slot)
			free_slot = &st->eh[i];
	}
	rec->flags = USBTRAIL_F_ERROR;
	if (id->kind == TRACEREC_EH_RETURN) {
		if (tracerec_need(e, "ret", &v))
			return -EINVAL;
		rec->type = USBTRAIL_REC_EH_END;
		if (run && run->eh.kind == p->kind &&
		    run->eh.driver == p->driver) {
			rec->u.eh = run->eh;
			run->pid = 0;
		} else {
			rec->u.eh.kind = p->kind;
			rec->u.eh.driver = p->driver;
		}
		rec->u.eh.result = (int32_t)v;
		return 1;
	}
	rec->type = USBTRAIL_REC_EH_START;
	rec->u.eh.kind = p->kind;
	rec->u.eh.driver = p->driver;
	/*
	 * The handler's scsi_cmnd is a pointer the probe can only follow
	 * with the kernel's structure offsets: take the address when the
	 * probe fetched it (src_tracefs.c, from BTF), else the device of
	 * the last command that timed out (see tracerec_last_timeout).
	 */
	ret = tracerec_num(e, "host", &v);
	if (ret == -EINVAL)
		return -EINVAL;
	if (!ret) {
		uint64_t ch = 0, tid = 0, lun = 0, tag = 0, op = 0;

		if (tracerec_need(e, "channel", &ch) ||
		    tracerec_need(e, "id", &tid) ||
		    tracerec_need(e, "lun", &lun) ||
		    tracerec_need(e, "tag", &tag) ||
		    tracerec_need(e, "opcode", &op))
			return -EINVAL;
		rec->u.eh.host = (uint16_t)v;
		rec->u.eh.channel = (uint8_t)ch;
		rec->u.eh.id = (uint8_t)tid;
		rec->u.eh.lun = (uint32_t)lun;
		rec->u.eh.tag = (uint32_t)tag;
		rec->u.eh.opcode = (uint8_t)op;
		tracerec_scsi_where(st, v, ch, tid, lun, &rec->u.eh.devt,
				    rec->u.eh.disk, NULL);
	} else if (st->last_timeout.type) {
		const struct usbtrail_rec_scsi *t = &st->last_timeout.u.scsi;

		rec->u.eh.devt = t->devt;
		rec->u.eh.host = t->host;
		rec->u.eh.channel = t->channel;
		rec->u.eh.id = t->id;
		rec->u.eh.lun = t->lun;
		memcpy(rec->u.eh.disk, t->disk, sizeof(rec->u.eh.disk));
		if (p->kind == USBTRAIL_EH_ABORT) {
			rec->u.eh.tag = t->tag;
			rec->u.eh.opcode = t->opcode;
		}
	}
	/* all taken: returns were lost; reuse the slots in turn */
	if (!run)
		run = free_slot ? free_slot :
		      &st->eh[st->eh_next++ % TRACEREC_EH_MAX];
	run->pid = (int)pid;
	run->eh = rec->u.eh;
	return 1;
}

int tracerec_parse_event(struct tracerec_state *st, uint64_t ts,
			 unsigned int cpu, const void *data, size_t size,
			 struct usbtrail_record *rec)
{
	struct usbtrail_record r = { .ts_ns = ts, .cpu = (uint8_t)cpu };
	struct tracerec_event_id *id = NULL;
	struct tracerec_ev e = { .data = data, .size = size };
	uint16_t type;
	unsigned int i;
	int ret;

	if (!data || size < 8) {	/* the common fields */
		st->malformed++;
		return -EINVAL;
	}
	memcpy(&type, data, sizeof(type));	/* common_type */
	i = st->id_hint[type & 255];
	if (i && i <= st->nids && st->ids[i - 1].id == type) {
		id = &st->ids[i - 1];
	} else {
		for (i = 0; i < st->nids; i++) {
			if (st->ids[i].id == type) {
				id = &st->ids[i];
				st->id_hint[type & 255] = (uint8_t)(i + 1);
				break;
			}
		}
	}
	if (!id) {
		st->unknown++;
		return 0;
	}
	id->cursor = 0;
	e.id = id;
	switch (id->kind) {
	case TRACEREC_XHCI_EVENT:
		ret = tracerec_xhci_event(st, &e, cpu, &r);
		break;
	case TRACEREC_XHCI_COMMAND:
		ret = tracerec_xhci_command(st, &e, cpu, &r);
		break;
	case TRACEREC_XHCI_PORT:
		ret = tracerec_xhci_port(st, &e, &r);
		break;
	case TRACEREC_URB_ENQUEUE:
	case TRACEREC_URB_GIVEBACK:
	case TRACEREC_URB_DEQUEUE:
		ret = tracerec_urb(st, &e, id->kind, &r);
		break;
	case TRACEREC_SCSI_START:
	case TRACEREC_SCSI_DONE:
	case TRACEREC_SCSI_ERROR:
	case TRACEREC_SCSI_TIMEOUT:
	case TRACEREC_SCSI_EH_WAKEUP:
		ret = tracerec_scsi(st, &e, id->kind, &r);
		break;
	case TRACEREC_BLK_ISSUE:
	case TRACEREC_BLK_COMPLETE:
		ret = tracerec_blk(st, &e, id->kind, ts, &r);
		break;
	case TRACEREC_EH_ENTRY:
	case TRACEREC_EH_RETURN:
		ret = tracerec_eh(st, &e, id, &r);
		break;
	case TRACEREC_NONE:
	case TRACEREC_KIND_MAX:
	default:
		ret = 0;
		break;
	}
	if (ret < 0) {
		st->malformed++;
		return -EINVAL;
	}
	if (ret == 0)
		return 0;
	if (r.type == USBTRAIL_REC_SCSI_TIMEOUT)
		st->last_timeout = r;
	st->records++;
	*rec = r;
	return 1;
}

/* The sub-buffer header: u64 timestamp, then commit (a long) */
#define TRACEREC_PAGE_HDR	16
/* kbuffer reads an event header of up to 8 bytes past its index */
#define TRACEREC_PAGE_PAD	16
/* the commit's low bits; the flags (missed events) are above (kbuffer.c) */
#define TRACEREC_COMMIT_MASK	((1u << 27) - 1)

int tracerec_parse_page(struct tracerec_state *st, struct kbuffer *kb,
			const void *page, size_t size, unsigned int cpu,
			tracerec_cb cb, void *arg)
{
	struct usbtrail_record rec;
	unsigned long long ts;
	uint8_t *buf;
	size_t start, commit;
	int n = 0, missed, ret, hsize;
	void *data;

	if (!st || !kb || !page || size < TRACEREC_PAGE_HDR ||
	    size > TRACEREC_PAGE_MAX) {
		if (st)
			st->malformed++;
		return -EINVAL;
	}
	/*
	 * kbuffer trusts the page: it walks the first event as it loads
	 * it.  So the commit (bytes of events) is checked here first, and
	 * kbuffer gets a private copy with room for the event header it
	 * reads at the end.  Same byte order and long size as this host:
	 * pages come from the running kernel.
	 */
	hsize = st->tep ? tep_get_header_page_size(st->tep) : 8;
	if (hsize != 4 && hsize != 8)
		hsize = 8;
	if (hsize == 8) {
		uint64_t c64;

		memcpy(&c64, (const uint8_t *)page + 8, 8);
		commit = (size_t)(c64 & TRACEREC_COMMIT_MASK);
	} else {
		uint32_t c32;

		memcpy(&c32, (const uint8_t *)page + 8, 4);
		commit = c32 & TRACEREC_COMMIT_MASK;
	}
	if (commit > size - 8 - (size_t)hsize) {
		st->malformed++;
		return -EINVAL;
	}
	/* not calloc(): zeroing the page cost a tenth of decoding it */
	buf = malloc(size + TRACEREC_PAGE_PAD);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, page, size);
	memset(buf + size, 0, TRACEREC_PAGE_PAD);
	if (kbuffer_load_subbuffer(kb, buf) < 0) {
		st->malformed++;
		free(buf);
		return -EINVAL;
	}
	start = (size_t)kbuffer_start_of_data(kb);
	commit = (size_t)kbuffer_subbuffer_size(kb);
	if (start > size || commit > size - start) {
		st->malformed++;
		free(buf);
		return -EINVAL;
	}
	/* the count when the kernel had room to store it, else "some" */
	missed = kbuffer_missed_events(kb);
	if (missed > 0)
		st->missed += (uint64_t)missed;
	else if (missed < 0)
		st->missed++;

	for (data = kbuffer_read_event(kb, &ts); data;
	     data = kbuffer_next_event(kb, &ts)) {
		size_t off = (size_t)((uint8_t *)data - buf);
		int esize = kbuffer_event_size(kb);

		if ((uint8_t *)data < buf || off > start + commit ||
		    esize < 0 || (size_t)esize > start + commit - off) {
			st->malformed++;
			break;	/* the lengths are not to be trusted now */
		}
		ret = tracerec_parse_event(st, ts, cpu, data, (size_t)esize,
					   &rec);
		if (ret <= 0)
			continue;
		n++;
		if (cb && cb(arg, &rec)) {
			free(buf);
			return -ECANCELED;
		}
	}
	free(buf);
	return n;
}
