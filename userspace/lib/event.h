/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * event.h - the one event model of "usbtrail record".
 *
 * Every source (usbtrail.ko, tracefs, /dev/kmsg, usbmon, sysfs, evdev, the
 * command under record) turns what it reads into struct ev; the recorder
 * orders them by time, resolves which disk and USB device each concerns,
 * runs the classifier over them, and hands each to every sink (events.jsonl,
 * capture.pcapng, the journal, the live lines).
 *
 * Clock: ev.t_ns is CLOCK_BOOTTIME in nanoseconds, the module's clock.
 * tracefs is read with trace_clock "boot"; kernel log times (local_clock)
 * and usbmon times (CLOCK_REALTIME) are moved onto it by offsets measured
 * when recording starts (struct ev_clock).  docs/formats.md says the same
 * for users.
 */
#ifndef USBTRAIL_EVENT_H
#define USBTRAIL_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/usbtrail.h>

#include "classify.h"

enum ev_type {
	EV_TRACE = 1,	/* u.rec: a kernel trace record (module or tracefs) */
	EV_KLOG,	/* u.klog: one kernel log message */
	EV_USBMON,	/* u.usbmon: one usbmon event (URB submit/complete) */
	EV_DEVICE,	/* u.device: a USB disk appeared, changed or left */
	EV_SAMPLE,	/* u.sample: one disk's throughput over one interval */
	EV_MARKER,	/* u.marker: a key press, a stress phase, a note */
	EV_LOST,	/* u.lost: a source lost or skipped events */
	EV_INCIDENT,	/* u.incident: what the classifier made of the rest */
	EV_TYPE_MAX
};

enum ev_source {
	EV_SRC_MODULE = 1,	/* /dev/usbtrail */
	EV_SRC_TRACEFS,		/* our tracefs instance */
	EV_SRC_KMSG,		/* /dev/kmsg */
	EV_SRC_USBMON,		/* /dev/usbmonN */
	EV_SRC_SYSFS,		/* sysfs and uevents */
	EV_SRC_EVDEV,		/* --marker-key */
	EV_SRC_COMMAND,		/* markers of the command under record */
	EV_SRC_RECORDER,	/* samples and incidents the recorder derives */
	EV_SRC_MAX
};

/*
 * Who an event concerns, as far as it is known; "" / 0 / -1 where not.
 * Filled by the recorder (rec_ident_resolve) from the source's own fields
 * and the device table that EV_DEVICE events keep.
 */
struct ev_ident {
	char disk[32];		/* "sdc", no partition number */
	char usb[48];		/* "2-1.4": bus-port path, stable over replug */
	char scsi[24];		/* "0:0:0:0" */
	int busnum;		/* -1 if unknown */
	int devnum;		/* -1 if unknown */
};

struct ev_klog {
	int64_t seq;		/* /dev/kmsg sequence number */
	int level;		/* 0 (emerg) .. 7 (debug) */
	int facility;
	uint32_t len;
	char text[CLASSIFY_LINE_MAX];	/* NUL-ended, cut at the limit */
};

/* usbmon's binary header (struct mon_bin_hdr, Documentation/usb/usbmon) */
struct ev_usbmon_hdr {
	uint64_t id;
	uint8_t type;		/* 'S' submit, 'C' complete, 'E' error */
	uint8_t xfer_type;	/* 0 iso, 1 interrupt, 2 control, 3 bulk */
	uint8_t epnum;		/* with 0x80 for IN */
	uint8_t devnum;
	uint16_t busnum;
	char flag_setup;
	char flag_data;
	int64_t ts_sec;
	int32_t ts_usec;
	int32_t status;
	uint32_t len_urb;
	uint32_t len_cap;
	uint8_t setup[8];
	int32_t interval;
	int32_t start_frame;
	uint32_t xfer_flags;
	uint32_t ndesc;
};

struct ev_usbmon {
	struct ev_usbmon_hdr hdr;
	/*
	 * Bytes in data[]: what followed the header in usbmon's ring, the
	 * hdr.ndesc ISO descriptors (16 bytes each) then the URB's data, so
	 * header and data[] are what pcap (link type 220) carries.
	 */
	uint32_t caplen;
	uint8_t *data;		/* owned by the event; NULL if caplen is 0 */
};

enum ev_device_action {
	EV_DEVICE_PRESENT = 1,	/* there when recording started */
	EV_DEVICE_ADD,
	EV_DEVICE_CHANGE,	/* e.g. its disk name or devnum changed */
	EV_DEVICE_REMOVE,
};

struct ev_device {
	enum ev_device_action action;
	uint16_t vid, pid;
	unsigned int speed_mbps;	/* 0 unknown, 1 for 1.5 */
	char driver[32];		/* "uas", "usb-storage" */
	char hcd[48];			/* "0000:00:04.0" */
	char hcd_driver[32];		/* "xhci_hcd" */
	char serial[64];		/* as the device reports it, or "" */
	char product[64];
	uint32_t devt;			/* disk dev_t (new_encode_dev) */
};

struct ev_sample {
	uint32_t interval_ms;
	uint64_t read_bytes, write_bytes;
	uint32_t completions;
	uint32_t inflight;		/* requests issued, not completed */
	double mbps;			/* 10^6 bytes per second */
	double median_mbps;		/* trailing median of busy intervals */
	bool dip;			/* part of a dip */
};

enum ev_marker_kind {
	EV_MARKER_KEY = 1,	/* --marker-key pressed */
	EV_MARKER_STRESS,	/* a line from usbtrail stress */
	EV_MARKER_NOTE,		/* the recorder's own: start, stop */
};

struct ev_marker {
	enum ev_marker_kind kind;
	char text[256];
};

struct ev_lost {
	enum ev_source source;
	uint64_t count;		/* since the last EV_LOST of this source */
	uint64_t total;
	char why[64];		/* "buffer full", "kmsg overwritten", ... */
};

/* Ids of the events an incident was made from, for reports. */
#define EV_INCIDENT_EVIDENCE_MAX	8

struct ev_incident {
	struct classify_incident inc;	/* kind, details, the log line */
	unsigned int nevidence;
	uint64_t evidence[EV_INCIDENT_EVIDENCE_MAX];	/* ev.id */
	/* set when trace records back it: the raw sense, the command */
	uint8_t sense_len;
	uint8_t sense[32];
	int opcode;			/* -1 if unknown */
	int64_t lba;			/* -1 if unknown */
	double dip_mbps;		/* dip: the average rate during it */
	double dip_median_mbps;		/* dip: the median it fell from */
	double dip_secs;		/* dip: how long */
};

struct ev {
	uint64_t id;		/* 1, 2, ... in the order events were made */
	uint64_t t_ns;		/* CLOCK_BOOTTIME */
	enum ev_type type;
	enum ev_source source;
	struct ev_ident ident;
	union {
		struct usbtrail_record rec;
		struct ev_klog klog;
		struct ev_usbmon usbmon;
		struct ev_device device;
		struct ev_sample sample;
		struct ev_marker marker;
		struct ev_lost lost;
		struct ev_incident incident;
	} u;
};

/*
 * Offsets between the clocks, measured once when recording starts:
 * boottime = monotonic + mono_to_boot_ns = realtime - boot_to_real_ns.
 */
struct ev_clock {
	int64_t mono_to_boot_ns;
	int64_t boot_to_real_ns;
};

int ev_clock_init(struct ev_clock *c);
uint64_t ev_clock_now(void);	/* CLOCK_BOOTTIME, ns */

/*
 * ev->ident from what a trace record itself names: its disk, or its USB
 * bus, device and port path.  Shared by the module and tracefs sources.
 */
void ev_ident_from_rec(struct ev *ev);

/*
 * A zeroed event of TYPE with the ident fields at "unknown".  Only the
 * union member of TYPE is allocated: never copy a whole struct ev out of
 * one, nor change its type.
 */
struct ev *ev_new(enum ev_type type, enum ev_source source, uint64_t t_ns);
void ev_free(struct ev *ev);

const char *ev_type_name(enum ev_type type);	/* "trace", "klog", ... */
/* The name tables, indexed by enum; NULL where there is no name. */
const char *const *ev_type_names_table(void);
const char *const *ev_source_names_table(void);
const char *ev_source_name(enum ev_source source);	/* "module", ... */

/*
 * One field of an incident in journal form, USBTRAIL_KIND=sense and so on:
 * shared by the journal sink (sd_journal_sendv) and the pcapng sink
 * (journal export blocks) so both say the same.  ev_incident_fields()
 * fills at most max fields and returns how many; values live in buf.
 */
struct ev_field {
	const char *name;	/* "USBTRAIL_KIND", static */
	const char *value;	/* NUL-ended, inside buf */
};

#define EV_FIELDS_MAX	24

int ev_incident_fields(const struct ev *ev, struct ev_field *fields,
		       unsigned int max, char *buf, size_t buflen);

/* "sense 02/3a/00 (Not Ready: Medium not present) on sdc": live line */
int ev_incident_summary(const struct ev *ev, char *buf, size_t len);

#endif /* USBTRAIL_EVENT_H */
