// SPDX-License-Identifier: GPL-2.0-only
/*
 * usbtrail.ko: counters per USB endpoint and per SCSI disk.
 *
 * Per USB device and endpoint: URBs given back, bytes, URBs unlinked, and
 * the count of each xHCI completion code seen.  Per SCSI disk: commands,
 * errors, errors by sense key, timeouts, aborts, device and bus resets,
 * block requests, bytes and errors.  ut_debugfs.c shows them as debugfs
 * usbtrail/usb and usbtrail/disks, through ut_stats_usb_show() and
 * ut_stats_disks_show().
 *
 * The counters are bumped where the records are emitted, by the same
 * filters, so they agree with the record stream (less what it lost).
 * The tables are fixed arrays filled in probe context under a spinlock;
 * when one is full, new devices are counted in `full` and not shown.
 */
#include <linux/atomic.h>
#include <linux/blk_types.h>
#include <linux/kdev_t.h>
#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/vmalloc.h>

#include "ut.h"

#define UT_EPS		256
#define UT_DISKS	64
#define UT_CCS		64	/* completion codes are 8 bits; 0-36 used */

struct ut_ep_stat {
	u16 busnum;
	u16 devnum;
	u8 epaddr;
	u8 slot;
	u8 dci;
	bool used;
	bool gone;
	atomic64_t urbs;
	atomic64_t bytes;
	atomic64_t unlinked;
	atomic64_t cc[UT_CCS];
};

struct ut_disk_stat {
	u32 devt;
	char disk[8];
	bool used;
	atomic64_t cmds;
	atomic64_t errors;
	atomic64_t sense[16];
	atomic64_t timeouts;
	atomic64_t aborts;
	atomic64_t device_resets;
	atomic64_t bus_resets;
	atomic64_t blk_reqs;
	atomic64_t blk_read_bytes;
	atomic64_t blk_write_bytes;
	atomic64_t blk_errors;
};

static struct ut_ep_stat *ut_eps;
static struct ut_disk_stat *ut_disks;
/* slot * 32 + DCI -> index + 1 in ut_eps; 0: unknown */
static u16 *ut_slot_map;
static atomic64_t ut_eps_full = ATOMIC64_INIT(0);
static atomic64_t ut_disks_full = ATOMIC64_INIT(0);
static DEFINE_SPINLOCK(ut_stats_lock);	/* inserting into the tables */

static struct ut_ep_stat *ut_ep_get(u16 busnum, u16 devnum, u8 epaddr)
{
	struct ut_ep_stat *e, *free = NULL;
	unsigned long flags;
	unsigned int i;

	/* lock-free hit: entries are never moved, only added */
	for (i = 0; i < UT_EPS; i++) {
		e = &ut_eps[i];
		if (!READ_ONCE(e->used))
			break;
		smp_rmb();	/* pairs with the smp_wmb() at insertion */
		if (!e->gone && e->busnum == busnum && e->devnum == devnum &&
		    e->epaddr == epaddr)
			return e;
	}
	spin_lock_irqsave(&ut_stats_lock, flags);
	for (i = 0; i < UT_EPS; i++) {
		e = &ut_eps[i];
		if (!e->used) {
			free = e;
			break;
		}
		if (!e->gone && e->busnum == busnum && e->devnum == devnum &&
		    e->epaddr == epaddr) {
			spin_unlock_irqrestore(&ut_stats_lock, flags);
			return e;
		}
	}
	if (free) {
		free->busnum = busnum;
		free->devnum = devnum;
		free->epaddr = epaddr;
		smp_wmb();	/* the key before `used` */
		WRITE_ONCE(free->used, true);
	} else {
		atomic64_inc(&ut_eps_full);
	}
	spin_unlock_irqrestore(&ut_stats_lock, flags);
	return free;
}

/*
 * The endpoint's xHCI slot and DCI, and the map back from them: under the
 * lock, as ut_stats_usb_gone() unmaps what e says it has mapped, and two
 * CPUs may give back URBs of one endpoint at once.
 */
static void ut_ep_map(struct ut_ep_stat *e, u8 slot, u8 dci)
{
	unsigned long flags;

	spin_lock_irqsave(&ut_stats_lock, flags);
	if (!e->gone) {
		WRITE_ONCE(e->slot, slot);
		WRITE_ONCE(e->dci, dci);
		WRITE_ONCE(ut_slot_map[slot * 32 + dci], e - ut_eps + 1);
	}
	spin_unlock_irqrestore(&ut_stats_lock, flags);
}

void ut_stats_urb(u16 busnum, u16 devnum, u8 epaddr, u8 slot, u8 dci,
		  bool done, u32 bytes, int unlinked)
{
	struct ut_ep_stat *e = ut_ep_get(busnum, devnum, epaddr);

	if (!e)
		return;
	if (slot && dci < 32 &&
	    (READ_ONCE(e->slot) != slot || READ_ONCE(e->dci) != dci))
		ut_ep_map(e, slot, dci);
	if (!done)
		return;
	atomic64_inc(&e->urbs);
	atomic64_add(bytes, &e->bytes);
	if (unlinked)
		atomic64_inc(&e->unlinked);
}

/* Count a completion code; tell the event's device and endpoint. */
void ut_stats_xhci_cc(u8 slot, u8 dci, u8 cc, u16 *busnum, u16 *devnum,
		      u8 *epaddr)
{
	u16 idx = dci < 32 ? READ_ONCE(ut_slot_map[slot * 32 + dci]) : 0;
	struct ut_ep_stat *e;

	if (!idx)
		return;
	e = &ut_eps[idx - 1];
	*busnum = e->busnum;
	*devnum = e->devnum;
	*epaddr = e->epaddr;
	atomic64_inc(&e->cc[cc % UT_CCS]);
}

void ut_stats_usb_gone(u16 busnum, u16 devnum)
{
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&ut_stats_lock, flags);
	for (i = 0; i < UT_EPS && ut_eps[i].used; i++) {
		struct ut_ep_stat *e = &ut_eps[i];

		if (e->gone || e->busnum != busnum || e->devnum != devnum)
			continue;
		e->gone = true;
		if (e->slot && e->dci < 32 &&
		    ut_slot_map[e->slot * 32 + e->dci] == i + 1)
			WRITE_ONCE(ut_slot_map[e->slot * 32 + e->dci], 0);
	}
	spin_unlock_irqrestore(&ut_stats_lock, flags);
}

static struct ut_disk_stat *ut_disk_get(u32 devt, const char *name)
{
	struct ut_disk_stat *d, *free = NULL;
	unsigned long flags;
	unsigned int i;

	if (!devt)
		return NULL;
	for (i = 0; i < UT_DISKS; i++) {
		d = &ut_disks[i];
		if (!READ_ONCE(d->used))
			break;
		smp_rmb();	/* pairs with the smp_wmb() at insertion */
		if (d->devt == devt)
			return d;
	}
	spin_lock_irqsave(&ut_stats_lock, flags);
	for (i = 0; i < UT_DISKS; i++) {
		d = &ut_disks[i];
		if (!d->used) {
			free = d;
			break;
		}
		if (d->devt == devt) {
			spin_unlock_irqrestore(&ut_stats_lock, flags);
			return d;
		}
	}
	if (free) {
		free->devt = devt;
		memcpy(free->disk, name, sizeof(free->disk));
		smp_wmb();	/* the key before `used` */
		WRITE_ONCE(free->used, true);
	} else {
		atomic64_inc(&ut_disks_full);
	}
	spin_unlock_irqrestore(&ut_stats_lock, flags);
	return free;
}

void ut_stats_scsi(const struct usbtrail_record *rec)
{
	struct ut_disk_stat *d;

	switch (rec->type) {
	case USBTRAIL_REC_SCSI_DONE:
		d = ut_disk_get(rec->u.scsi.devt, rec->u.scsi.disk);
		if (!d)
			return;
		atomic64_inc(&d->cmds);
		if (rec->u.scsi.result)
			atomic64_inc(&d->errors);
		if (rec->u.scsi.sense_key || rec->u.scsi.asc)
			atomic64_inc(&d->sense[rec->u.scsi.sense_key & 0xf]);
		break;
	case USBTRAIL_REC_SCSI_TIMEOUT:
		d = ut_disk_get(rec->u.scsi.devt, rec->u.scsi.disk);
		if (d)
			atomic64_inc(&d->timeouts);
		break;
	case USBTRAIL_REC_EH_START:
		d = ut_disk_get(rec->u.eh.devt, rec->u.eh.disk);
		if (!d)
			return;
		if (rec->u.eh.kind == USBTRAIL_EH_ABORT)
			atomic64_inc(&d->aborts);
		else if (rec->u.eh.kind == USBTRAIL_EH_DEVICE_RESET)
			atomic64_inc(&d->device_resets);
		else if (rec->u.eh.kind == USBTRAIL_EH_BUS_RESET)
			atomic64_inc(&d->bus_resets);
		break;
	default:
		break;
	}
}

void ut_stats_blk(const struct usbtrail_record *rec)
{
	struct ut_disk_stat *d = ut_disk_get(rec->u.blk.devt,
					     rec->u.blk.disk);

	if (!d)
		return;
	atomic64_inc(&d->blk_reqs);
	if (rec->u.blk.error)
		atomic64_inc(&d->blk_errors);
	else if (rec->u.blk.op == (__force u32)REQ_OP_READ)
		atomic64_add(rec->u.blk.bytes, &d->blk_read_bytes);
	else if (rec->u.blk.op == (__force u32)REQ_OP_WRITE)
		atomic64_add(rec->u.blk.bytes, &d->blk_write_bytes);
}

/* The endpoint table as text, one line per endpoint. */
void ut_stats_usb_show(struct seq_file *m)
{
	unsigned int i, cc;

	for (i = 0; i < UT_EPS && READ_ONCE(ut_eps[i].used); i++) {
		struct ut_ep_stat *e = &ut_eps[i];

		smp_rmb();	/* the key was written before `used` */
		seq_printf(m, "bus=%u dev=%u ep=0x%02x slot=%u dci=%u gone=%d urbs=%lld bytes=%lld unlinked=%lld",
			   e->busnum, e->devnum, e->epaddr, e->slot, e->dci,
			   e->gone, atomic64_read(&e->urbs),
			   atomic64_read(&e->bytes),
			   atomic64_read(&e->unlinked));
		for (cc = 0; cc < UT_CCS; cc++)
			if (atomic64_read(&e->cc[cc]))
				seq_printf(m, " cc.%u=%lld", cc,
					   atomic64_read(&e->cc[cc]));
		seq_putc(m, '\n');
	}
	if (atomic64_read(&ut_eps_full))
		seq_printf(m, "full=%lld\n", atomic64_read(&ut_eps_full));
}

/* The disk table as text, one line per disk. */
void ut_stats_disks_show(struct seq_file *m)
{
	unsigned int i, k;

	for (i = 0; i < UT_DISKS && READ_ONCE(ut_disks[i].used); i++) {
		struct ut_disk_stat *d = &ut_disks[i];

		smp_rmb();	/* the key was written before `used` */
		seq_printf(m, "disk=%.8s dev=%u:%u cmds=%lld errors=%lld timeouts=%lld aborts=%lld device_resets=%lld bus_resets=%lld blk_reqs=%lld read_bytes=%lld write_bytes=%lld blk_errors=%lld",
			   d->disk, MAJOR(new_decode_dev(d->devt)),
			   MINOR(new_decode_dev(d->devt)),
			   atomic64_read(&d->cmds), atomic64_read(&d->errors),
			   atomic64_read(&d->timeouts),
			   atomic64_read(&d->aborts),
			   atomic64_read(&d->device_resets),
			   atomic64_read(&d->bus_resets),
			   atomic64_read(&d->blk_reqs),
			   atomic64_read(&d->blk_read_bytes),
			   atomic64_read(&d->blk_write_bytes),
			   atomic64_read(&d->blk_errors));
		for (k = 0; k < 16; k++)
			if (atomic64_read(&d->sense[k]))
				seq_printf(m, " sense.%u=%lld", k,
					   atomic64_read(&d->sense[k]));
		seq_putc(m, '\n');
	}
	if (atomic64_read(&ut_disks_full))
		seq_printf(m, "full=%lld\n", atomic64_read(&ut_disks_full));
}

int ut_stats_init(void)
{
	ut_eps = vzalloc(array_size(UT_EPS, sizeof(*ut_eps)));
	ut_disks = vzalloc(array_size(UT_DISKS, sizeof(*ut_disks)));
	ut_slot_map = vzalloc(array_size(256 * 32, sizeof(*ut_slot_map)));
	if (!ut_eps || !ut_disks || !ut_slot_map) {
		ut_stats_exit();
		return -ENOMEM;
	}
	return 0;
}

/* After the probes and the debugfs files are gone. */
void ut_stats_exit(void)
{
	vfree(ut_eps);
	vfree(ut_disks);
	vfree(ut_slot_map);
	ut_eps = NULL;
	ut_disks = NULL;
	ut_slot_map = NULL;
}
