/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * uas.h - the UAS verdict: given the facts about one USB mass-storage
 * interface, say whether the kernel uses uas for it and, if not, which step
 * of its decision (drivers/usb/storage/uas-detect.h) said no.
 *
 * uas_decide() is pure: struct uas_facts in, struct uas_verdict out.  Who
 * gathers the facts (sysfs, libusb, a test fixture) is not its business.
 */
#ifndef USBTRAIL_UAS_H
#define USBTRAIL_UAS_H

#include <stdbool.h>
#include <stdint.h>

enum uas_reason {
	UAS_REASON_ACTIVE,
	UAS_REASON_NO_UAS_ALTSETTING,
	UAS_REASON_NO_PIPE_USAGE,
	UAS_REASON_QUIRK_IGNORE_UAS,
	UAS_REASON_ASMEDIA_HEURISTIC,
	UAS_REASON_HCD_NO_SG,
	UAS_REASON_HCD_NO_STREAMS,
	UAS_REASON_UAS_DRIVER_MISSING,
	UAS_REASON_UNKNOWN,
};

/* A fact usbtrail may or may not have been able to establish. */
enum uas_tristate {
	UAS_UNKNOWN = 0,
	UAS_NO,
	UAS_YES,
};

enum uas_driver_state {
	UAS_DRIVER_STATE_UNKNOWN = 0,
	UAS_DRIVER_LOADED,	/* /sys/bus/usb/drivers/uas exists */
	UAS_DRIVER_NOT_LOADED,	/* a module exists but is not loaded */
	UAS_DRIVER_ABSENT,	/* neither loaded nor installed */
};

/* Where a quirk flag came from. */
enum uas_quirk_source {
	UAS_QUIRK_BUILTIN,	/* unusual_uas.h */
	UAS_QUIRK_BUILTIN_DEVS,	/* unusual_devs.h, usb-storage's own table */
	UAS_QUIRK_DETECT,	/* added by code in uas-detect.h */
	UAS_QUIRK_PARAM,	/* usb-storage "quirks" module parameter */
	UAS_QUIRK_CMDLINE,	/* the same, given on the kernel command line */
};

#define UAS_TEXT_MAX	512

struct uas_facts {
	uint16_t vid, pid, bcd_device;
	char manufacturer[64], product[64];
	unsigned int speed_mbps;	/* 0 unknown; 1 for 1.5 Mbit/s */
	char driver[32];		/* bound interface driver, "" none */

	bool have_descriptors;		/* the fields below are valid */
	bool has_uas_alt;
	uint8_t uas_alt;		/* bAlternateSetting of the UAS alt */
	unsigned int pipes;		/* bit n-1: pipe-usage ID n found */
	unsigned int status_streams;	/* usb_ss_max_streams(status pipe) */
	unsigned int max_streams;	/* largest over the UAS endpoints */
	uint8_t max_power;		/* active config bMaxPower, raw */

	/* Quirks: built in (unusual_uas.h) and the module parameter. */
	bool builtin_match;
	unsigned long builtin_flags;
	/*
	 * usb-storage's entry (unusual_devs.h), which its probe hands to
	 * uas_use_uas_driver(); only its IGNORE_UAS concerns the verdict
	 */
	bool devs_match;
	unsigned long devs_flags;
	bool param_match;
	unsigned long param_flags;
	bool param_from_cmdline;	/* same entry is on /proc/cmdline */
	char param_entry[64];		/* "46f4:0003:u" */

	/* Host controller. */
	char hcd_driver[32];
	char hcd_name[64];		/* chip, or "" */
	enum uas_tristate hcd_sg;
	enum uas_tristate hcd_streams;
	char hcd_streams_evidence[160];

	enum uas_driver_state uas_driver;
};

struct uas_quirk {
	unsigned long flag;
	enum uas_quirk_source source;
};

#define UAS_MAX_QUIRKS	32

struct uas_verdict {
	enum uas_reason reason;
	bool uas_capable;	/* offers a UAS alt with the 4 pipes */
	bool uas_active;	/* the uas driver is bound */
	bool streams;		/* an active UAS link uses streams */
	unsigned long flags;	/* effective quirk flags */
	unsigned int nquirks;
	struct uas_quirk quirks[UAS_MAX_QUIRKS];
	char detail[UAS_TEXT_MAX];	/* why, with the evidence */
	char next_step[UAS_TEXT_MAX];	/* what to do, in plain words */
};

int uas_decide(const struct uas_facts *f, struct uas_verdict *v);
const char *uas_reason_name(enum uas_reason r);
const char *uas_quirk_source_name(enum uas_quirk_source s);

#endif /* USBTRAIL_UAS_H */
