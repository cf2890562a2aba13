/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tracerec: kernel trace events read from tracefs (xhci-hcd, scsi, block
 * tracepoints and our error-handler kprobes), turned into the records
 * usbtrail.ko makes of the same kernel events (struct usbtrail_record,
 * module/uapi/linux/usbtrail.h).
 *
 * Data flow: src_tracefs.c reads binary per-CPU sub-buffer pages and hands
 * them here with a struct tep_handle that holds the event formats; this
 * file decodes them (libtraceevent's kbuffer and tep) and applies the
 * module's filters, through a small state of what sysfs said (which SCSI
 * hosts are USB storage hosts, which disks they have) and what earlier
 * events said (which xHCI endpoints carry bulk/control URBs).  It opens
 * no files and logs nothing: malformed input is counted and skipped.
 */
#ifndef USBTRAIL_TRACEREC_H
#define USBTRAIL_TRACEREC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/usbtrail.h>

#include "ut_tables.h"

struct tep_handle;
struct tep_event;
struct kbuffer;

#define TRACEREC_HOSTS_MAX	32
#define TRACEREC_DISKS_MAX	32
#define TRACEREC_SLOTS		256	/* xHCI slot ids are 8 bits */
#define TRACEREC_CPUS_MAX	256
#define TRACEREC_PENDING_MAX	512	/* blk requests awaiting completion */
#define TRACEREC_EH_MAX		16	/* error handlers running at once */
#define TRACEREC_PAGE_MAX	(1024 * 1024)	/* sub-buffer size limit */

/*
 * The events this file knows, found by system and name in the tep: the
 * tracepoints of the module's probes (UT_TRACEPOINTS(), ut_tables.h:
 * TRACEREC_XHCI_EVENT for xhci-hcd:xhci_handle_event ...), then our
 * kprobes.
 */
#define TRACEREC_KIND_TP(id, fn, sys, mod, event, src)	TRACEREC_##id,
enum tracerec_kind {
	TRACEREC_NONE = 0,
	UT_TRACEPOINTS(TRACEREC_KIND_TP)
	TRACEREC_EH_ENTRY,		/* our kprobe on a handler */
	TRACEREC_EH_RETURN,		/* ... and its kretprobe */
	TRACEREC_KIND_MAX
};

/*
 * The error-handler probes, UT_EH_HANDLERS() of ut_tables.h: the
 * function (a row for each name it has had), the module it lives in, and
 * the suffix of the kprobe event's name ("usbtrail_<pid>_<suffix>", the
 * kretprobe's with "_ret" after it).  src_tracefs.c defines them from
 * this table, the parser recognises them by it.
 */
struct tracerec_eh_probe {
	const char *module;	/* "uas", "usb_storage" */
	const char *function;
	const char *suffix;	/* "uas_abort" */
	uint8_t kind;		/* enum usbtrail_eh_kind */
	uint8_t driver;		/* enum usbtrail_eh_driver */
};

extern const struct tracerec_eh_probe tracerec_eh_probes[];
extern const unsigned int tracerec_eh_nprobes;

/* A disk of a USB storage host, as sysfs describes it. */
struct tracerec_disk {
	uint16_t host;
	uint8_t channel;
	uint8_t id;
	uint32_t lun;
	uint32_t devt;		/* new_encode_dev() of the whole disk */
	uint32_t block_size;	/* logical block size, bytes; 0: 512 */
	char name[8];		/* "sda" */
};

/* a field looked up by name once per event, not once per record */
#define TRACEREC_FIELDS_CACHED	24

struct tracerec_field_cache {
	const char *name;	/* the caller's string: compared by address */
	struct tep_format_field *field;	/* NULL: the event has none */
	/* for a number (tracerec_num()), worked out when it is cached */
	uint32_t end;		/* offset + size: the event must hold it */
	uint8_t size;
	bool number;		/* a scalar of 1 to 8 bytes */
	bool in_place;		/* native order, size 1, 2, 4 or 8 */
	bool is_signed;
};

struct tracerec_event_id {
	int id;
	enum tracerec_kind kind;
	uint8_t eh;		/* index in tracerec_eh_probes */
	struct tep_event *event;
	bool native;		/* its data in this machine's byte order */
	unsigned int nfields;
	/*
	 * where the next name is looked for first: a decoder asks for the
	 * same names in the same order for every record of the event
	 */
	unsigned int cursor;
	struct tracerec_field_cache fields[TRACEREC_FIELDS_CACHED];
};

struct tracerec_slot {
	uint16_t busnum;	/* 0: unknown (6.1's URB events lack it) */
	uint16_t devnum;
	uint32_t watched;	/* bit DCI: carried bulk/control URBs */
	uint8_t epaddr[32];	/* bEndpointAddress per DCI, 0xff unknown */
};

struct tracerec_pending {
	uint32_t devt;
	uint64_t sector;
	uint64_t ts;		/* issue time, 0: free */
};

struct tracerec_eh_running {
	int pid;		/* the thread in the handler, 0: free */
	struct usbtrail_rec_eh eh;
};

struct tracerec_state {
	struct tep_handle *tep;		/* not owned */
	/* what the source learned from sysfs (tracerec_set_*) */
	bool all_scsi;
	/*
	 * What the running kernel's version says and no format does
	 * (tracerec_set_release): xhci_handle_port_status's portnum is
	 * 1-based from 6.18 on ("usb: xhci: align PORTSC trace with
	 * one-based port numbering"), 0-based before, in the same field
	 */
	bool port_one_based;
	unsigned int nhosts;
	uint32_t hosts[TRACEREC_HOSTS_MAX];
	unsigned int ndisks;
	struct tracerec_disk disks[TRACEREC_DISKS_MAX];
	/* the events of the tep this state decodes */
	unsigned int nids;
	struct tracerec_event_id ids[TRACEREC_KIND_MAX + 16];
	uint8_t id_hint[256];	/* by type & 255: 1 + its index in ids */
	/* what earlier events said */
	struct tracerec_slot slots[TRACEREC_SLOTS];
	uint8_t cmd_cc[TRACEREC_CPUS_MAX];	/* command completion codes */
	struct tracerec_pending pending[TRACEREC_PENDING_MAX];
	unsigned int pending_next;
	struct tracerec_eh_running eh[TRACEREC_EH_MAX];
	unsigned int eh_next;		/* the slot to reuse when all are */
	/* the latest scsi-timeout: whom an error handler works on */
	struct usbtrail_record last_timeout;
	/* counters */
	uint64_t records;		/* produced */
	uint64_t filtered;		/* ours, but the module skips them */
	uint64_t malformed;		/* could not be decoded: skipped */
	uint64_t unknown;		/* an event id we do not decode */
	/*
	 * events the kernel dropped before a page, as the pages say (at
	 * least 1 where the count was not stored); the same losses as the
	 * overrun of per_cpu/cpuN/stats, which src_tracefs.c reports
	 */
	uint64_t missed;
};

/*
 * Set up *st for the events loaded in tep (tep stays the caller's).
 * Returns how many of the events it knows were found, or -EINVAL.
 * The state is large (about 40 KiB): allocate it, do not put it on the
 * stack.
 */
int tracerec_state_init(struct tracerec_state *st, struct tep_handle *tep);
/*
 * Find the events again after more were parsed into the tep (a module
 * with tracepoints loaded later), keeping what earlier events said.
 * Returns how many it knows now.
 */
int tracerec_state_events(struct tracerec_state *st);

/*
 * The release of the kernel whose events these are ("7.3.4+deb13-amd64",
 * uname -r): sets what only the version tells (port_one_based).  Returns
 * 0, or -EINVAL when it does not begin with MAJOR.MINOR (nothing set).
 */
int tracerec_set_release(struct tracerec_state *st, const char *release);

/* The SCSI hosts whose commands are wanted (uas, usb-storage). */
int tracerec_add_host(struct tracerec_state *st, unsigned int host);
/* A disk of such a host: -ENOSPC when the table is full. */
int tracerec_add_disk(struct tracerec_state *st,
		      const struct tracerec_disk *disk);
/* Forget the hosts and disks, before sysfs is read again. */
void tracerec_clear_disks(struct tracerec_state *st);

/* The decisions, pure so the tests drive them. */
bool tracerec_host_wanted(const struct tracerec_state *st, unsigned int host);
const struct tracerec_disk *tracerec_disk_by_addr(
	const struct tracerec_state *st, unsigned int host,
	unsigned int channel, unsigned int id, unsigned int lun);
const struct tracerec_disk *tracerec_disk_by_devt(
	const struct tracerec_state *st, uint32_t devt);

/* "usbtrail_123_uas_abort_ret" -> probe index, *ret true; -1 if none. */
int tracerec_eh_probe_of(const char *event_name, bool *ret);

/*
 * One event, as the ring buffer holds its payload (common_type first),
 * size bytes at data, taken at time ts (ns of the trace clock) on cpu.
 * Returns 1 and fills *rec (type, ts_ns, cpu, flags, u; seq 0) when the
 * module would have recorded it, 0 when not (not ours, or filtered),
 * -EINVAL when malformed (counted in st->malformed).
 */
int tracerec_parse_event(struct tracerec_state *st, uint64_t ts,
			 unsigned int cpu, const void *data, size_t size,
			 struct usbtrail_record *rec);

/* Called for each record a page yields; nonzero stops the page. */
typedef int (*tracerec_cb)(void *arg, const struct usbtrail_record *rec);

/*
 * One sub-buffer page of per_cpu/cpuN/trace_pipe_raw (size bytes, the
 * sub-buffer size, at most TRACEREC_PAGE_MAX), decoded through kb (a
 * kbuffer set up for the tep's header_page, e.g. tep_kbuffer()).
 * Returns the records passed to cb, or -EINVAL when the page header is
 * malformed (counted in st->malformed), or cb's nonzero value negated
 * into -ECANCELED.  Malformed events are counted and skipped.  Events the
 * kernel dropped before this page are added to st->missed.
 */
int tracerec_parse_page(struct tracerec_state *st, struct kbuffer *kb,
			const void *page, size_t size, unsigned int cpu,
			tracerec_cb cb, void *arg);

#endif /* USBTRAIL_TRACEREC_H */
