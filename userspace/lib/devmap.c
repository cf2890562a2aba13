// SPDX-License-Identifier: GPL-2.0-only
/*
 * devmap.c - the recorder's table of USB disks (devmap.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devmap.h"

void devmap_init(struct devmap *m)
{
	memset(m, 0, sizeof(*m));
}

static int devmap_host(const char *scsi)
{
	char *end;
	long h;

	if (!scsi[0])
		return -1;
	h = strtol(scsi, &end, 10);
	return end != scsi && *end == ':' && h >= 0 && h < 65536 ? (int)h : -1;
}

/*
 * The entry an EV_DEVICE event is about: the same port path first (a
 * replug into the same port, or the same device), then the same serial
 * number on another port, then the same disk name.
 */
static struct devmap_entry *devmap_match(struct devmap *m,
					 const struct ev *ev)
{
	unsigned int i;

	for (i = 0; i < m->n; i++)
		if (ev->ident.usb[0] &&
		    !strcmp(m->e[i].ident.usb, ev->ident.usb))
			return &m->e[i];
	for (i = 0; i < m->n; i++)
		if (ev->u.device.serial[0] && !m->e[i].present &&
		    !strcmp(m->e[i].dev.serial, ev->u.device.serial) &&
		    m->e[i].dev.vid == ev->u.device.vid &&
		    m->e[i].dev.pid == ev->u.device.pid)
			return &m->e[i];
	for (i = 0; i < m->n; i++)
		if (ev->ident.disk[0] &&
		    !strcmp(m->e[i].ident.disk, ev->ident.disk))
			return &m->e[i];
	return NULL;
}

struct devmap_entry *devmap_update(struct devmap *m, struct ev *ev)
{
	const struct ev_device *d = &ev->u.device;
	struct devmap_entry *e = devmap_match(m, ev);

	if (!e) {
		if (m->n >= DEVMAP_MAX)
			return NULL;
		e = &m->e[m->n++];
		memset(e, 0, sizeof(*e));
		e->ident.busnum = -1;
		e->ident.devnum = -1;
		e->host = -1;
	}
	if (d->action == EV_DEVICE_REMOVE) {
		e->present = false;
		/* the event says what left; keep the rest for a replug */
		if (!ev->ident.disk[0])
			memcpy(ev->ident.disk, e->ident.disk,
			       sizeof(ev->ident.disk));
		if (!ev->ident.usb[0])
			memcpy(ev->ident.usb, e->ident.usb, sizeof(ev->ident.usb));
		if (!ev->ident.scsi[0])
			memcpy(ev->ident.scsi, e->ident.scsi,
			       sizeof(ev->ident.scsi));
		if (ev->ident.busnum < 0)
			ev->ident.busnum = e->ident.busnum;
		if (ev->ident.devnum < 0)
			ev->ident.devnum = e->ident.devnum;
		return e;
	}
	if (!e->present)
		e->plugs++;
	e->present = true;
	e->ident = ev->ident;
	e->dev = *d;
	e->host = devmap_host(ev->ident.scsi);
	return e;
}

/* "2-1.4" is the port path of a device on bus 2 */
static bool devmap_same_bus(const struct devmap_entry *e, int busnum)
{
	return e->ident.busnum == busnum;
}

static void devmap_fill(const struct devmap_entry *e, struct ev_ident *id)
{
	if (!id->disk[0])
		memcpy(id->disk, e->ident.disk, sizeof(id->disk));
	if (!id->usb[0])
		memcpy(id->usb, e->ident.usb, sizeof(id->usb));
	if (!id->scsi[0])
		memcpy(id->scsi, e->ident.scsi, sizeof(id->scsi));
	if (id->busnum < 0)
		id->busnum = e->ident.busnum;
	if (id->devnum < 0)
		id->devnum = e->ident.devnum;
}

/*
 * Present entries win over departed ones, so that a name reused after a
 * replug resolves to the device that has it now.
 */
static const struct devmap_entry *devmap_lookup(const struct devmap *m,
						const struct ev *ev)
{
	const struct ev_ident *id = &ev->ident;
	const struct devmap_entry *best = NULL;
	unsigned int i;
	int host = -1;

	if (ev->type == EV_TRACE) {
		const struct usbtrail_record *r = &ev->u.rec;

		switch (r->type) {
		case USBTRAIL_REC_SCSI_START:
		case USBTRAIL_REC_SCSI_DONE:
		case USBTRAIL_REC_SCSI_ERROR:
		case USBTRAIL_REC_SCSI_TIMEOUT:
		case USBTRAIL_REC_SCSI_EH_WAKEUP:
			host = r->u.scsi.host;
			break;
		case USBTRAIL_REC_EH_START:
		case USBTRAIL_REC_EH_END:
			host = r->u.eh.host;
			break;
		default:
			break;
		}
	}
	for (i = 0; i < m->n; i++) {
		const struct devmap_entry *e = &m->e[i];
		bool hit = false;

		if (id->disk[0])
			hit = !strcmp(e->ident.disk, id->disk);
		else if (id->usb[0])
			hit = !strcmp(e->ident.usb, id->usb);
		else if (id->busnum >= 0 && id->devnum >= 0)
			hit = devmap_same_bus(e, id->busnum) &&
			      e->ident.devnum == id->devnum;
		else if (id->scsi[0])
			hit = !strcmp(e->ident.scsi, id->scsi);
		else if (host >= 0)
			hit = e->host == host;
		if (hit && (!best || (e->present && !best->present)))
			best = e;
	}
	return best;
}

bool devmap_resolve(const struct devmap *m, struct ev *ev)
{
	const struct devmap_entry *e = devmap_lookup(m, ev);

	if (!e)
		return false;
	devmap_fill(e, &ev->ident);
	return true;
}

const struct devmap_entry *devmap_find_name(const struct devmap *m,
					    const char *name)
{
	const struct devmap_entry *best = NULL;
	unsigned int i;
	int host = -1;

	if (!strncmp(name, "host", 4))
		host = atoi(name + 4);
	for (i = 0; i < m->n; i++) {
		const struct devmap_entry *e = &m->e[i];

		if (strcmp(e->ident.disk, name) && strcmp(e->ident.usb, name) &&
		    (host < 0 || e->host != host))
			continue;
		if (!best || (e->present && !best->present))
			best = e;
	}
	return best;
}
