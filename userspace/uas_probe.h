/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * uas_probe.h - gather the facts for "usbtrail uas" from the running
 * system (sysfs, /proc, debugfs, usbfs through libusb), decide with uas_decide(), and
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

#define UAS_PROBE_STR_MAX	64

struct uas_probe {
	struct sysfs_usb_iface sys;
	struct uas_facts facts;
	struct uas_verdict verdict;
	const char *bridge;		/* chip name, or NULL */
	const char *bridge_source;
	const char *hcd_chip;		/* controller chip name, or NULL */
	const char *hcd_chip_source;
	char hcd_sg_evidence[160];
	const char *descriptors_from;	/* "sysfs" or NULL */
	struct usbdesc_device *desc;	/* every configuration, or NULL */
	/*
	 * What only the device says: its BOS (sysfs bos_descriptors since
	 * 6.9, else GET_DESCRIPTOR through usbfs) and the configuration and
	 * interface strings (usbfs), asked for with UAS_PROBE_ASK_DEVICE
	 */
	bool have_bos;
	struct usbdesc_bos bos;
	const char *bos_from;		/* "sysfs", "usbfs" or NULL */
	char lpm_u1[16], lpm_u2[16];	/* power/usb3_hardware_lpm_u1, _u2 */
	const char *strings_from;	/* "usbfs" or NULL */
	char config_str[USBDESC_MAX_CONFIGS][UAS_PROBE_STR_MAX];
	char alt_str[USBDESC_MAX_CONFIGS][USBDESC_MAX_ALTS][UAS_PROBE_STR_MAX];
	char unreadable[4][160];	/* what could not be read, and why */
	unsigned int nunreadable;
};

/*
 * Ask the device itself through usbfs (libusb): the BOS when sysfs has
 * none, and the strings.  Opens /dev/bus/usb/BBB/DDD, which needs write
 * access (usbfs refuses every request on a read-only open); claims no
 * interface and detaches no driver: GET_DESCRIPTOR goes to the device.
 * Only on the live system (root "/"), and not for record, whose capture
 * should not see our requests.
 */
#define UAS_PROBE_ASK_DEVICE	0x1u

unsigned int uas_probe_max_psa(unsigned long hccparams1);
int uas_probe_iface(const char *iface, unsigned int flags,
		    struct uas_probe *p);
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
