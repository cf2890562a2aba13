/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * uas_probe.h - gather the facts for "usbtrail uas" from the running
 * system (sysfs, /proc, debugfs, libusb), decide with uas_decide(), and
 * express the result as json-c objects.
 *
 * uas_verdicts_json() is the entry point other commands (record) use to
 * store verdicts; cmd_uas.c prints the same data as text or JSON.
 */
#ifndef USBTRAIL_UAS_PROBE_H
#define USBTRAIL_UAS_PROBE_H

#include <json-c/json.h>

#include "devspec.h"
#include "sysfs_usb.h"
#include "uas.h"
#include "usbdesc.h"

struct uas_probe {
	struct sysfs_usb_iface sys;
	struct uas_facts facts;
	struct uas_verdict verdict;
	const char *bridge;		/* chip name, or NULL */
	const char *bridge_source;
	const char *hcd_chip;		/* controller chip name, or NULL */
	const char *hcd_chip_source;
	char hcd_sg_evidence[160];
	const char *descriptors_from;	/* "sysfs", "libusb" or NULL */
	char unreadable[3][96];		/* what could not be read, and why */
	unsigned int nunreadable;
};

unsigned int uas_probe_max_psa(unsigned long hccparams1);
int uas_probe_iface(const char *iface, struct uas_probe *p);
void uas_probe_free(struct uas_probe *p);

json_object *uas_probe_to_json(const struct uas_probe *p);
json_object *uas_verdicts_json(int *err);

/* Interfaces selected by devspecs (all when nspecs is 0). */
struct uas_probe_sel {
	unsigned int n;
	char names[64][SYSFS_USB_NAME_MAX];
	int spec_err[64];	/* per spec: 0 found, -ENOENT, -ENODEV */
};

int uas_probe_select(const struct devspec *specs, unsigned int nspecs,
		     struct uas_probe_sel *sel);

#endif /* USBTRAIL_UAS_PROBE_H */
