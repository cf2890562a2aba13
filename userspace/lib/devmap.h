/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * devmap.h - which disk sits behind which USB device: the recorder's table
 * of USB disks, kept from EV_DEVICE events, and the lookup that fills an
 * event's struct ev_ident from whatever the source knew (a disk name, a
 * dev_t, a bus and device number, a SCSI host, a USB port path).
 *
 * A disk that is unplugged and plugged back keeps its entry: it is found
 * again by its port path (same port) or its serial number (other port),
 * and takes the new disk name and device number.  Pure: no I/O.
 */
#ifndef USBTRAIL_DEVMAP_H
#define USBTRAIL_DEVMAP_H

#include <stdbool.h>
#include <stdint.h>

#include "event.h"

#define DEVMAP_MAX	64

struct devmap_entry {
	struct ev_ident ident;
	struct ev_device dev;
	int host;		/* SCSI host number, -1 if unknown */
	bool present;
	unsigned int plugs;	/* times it appeared */
};

struct devmap {
	unsigned int n;
	struct devmap_entry e[DEVMAP_MAX];
};

void devmap_init(struct devmap *m);
/*
 * Take an EV_DEVICE event.  Fills ev->ident from the entry when the event
 * left fields out.  Returns the entry, or NULL when the table is full.
 */
struct devmap_entry *devmap_update(struct devmap *m, struct ev *ev);
/* Fill the unknown fields of ev->ident from the table; true if found. */
bool devmap_resolve(const struct devmap *m, struct ev *ev);
/* The entry for a kernel device name: "sdc", "2-1", "host0"; or NULL. */
const struct devmap_entry *devmap_find_name(const struct devmap *m,
					    const char *name);

#endif /* USBTRAIL_DEVMAP_H */
