// SPDX-License-Identifier: GPL-2.0-only
/*
 * usbtrail.ko: probes on the block layer's request tracepoints.
 *
 * Issue and completion of each request of a SCSI disk behind a USB
 * storage host: bytes, latency and error, from which userspace computes
 * throughput per disk and finds its dips.  The tracepoints are built into
 * the kernel; the filter keeps every other disk's requests out at the
 * cost of a few pointer reads.
 */
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/kdev_t.h>
#include <linux/major.h>
#include <linux/sched/clock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_host.h>
#include <trace/events/block.h>

#include "ut.h"
#include "ut_compat.h"
#include "ut_tables.h"

/* sd's majors (drivers/scsi/sd.h keeps SCSI_DISK_MAJOR() private) */
static bool ut_blk_sd_major(unsigned int major)
{
	return major == SCSI_DISK0_MAJOR ||
	       (major >= SCSI_DISK1_MAJOR && major <= SCSI_DISK7_MAJOR) ||
	       (major >= SCSI_DISK8_MAJOR && major <= SCSI_DISK15_MAJOR);
}

bool ut_blk_rq_wanted(struct request *rq)
{
	struct gendisk *gd = ut_rq_disk(rq);
	struct scsi_device *sdev;

	if (!gd || !ut_blk_sd_major(gd->major))
		return false;
	sdev = rq->q->queuedata;	/* the SCSI midlayer's, for sd */
	return sdev && ut_scsi_host_wanted(sdev->host);
}

static void ut_blk_fill(struct usbtrail_rec_blk *b, struct request *rq)
{
	struct gendisk *gd = ut_rq_disk(rq);

	b->devt = new_encode_dev(disk_devt(gd));
	strscpy(b->disk, gd->disk_name, sizeof(b->disk));
	b->sector = blk_rq_pos(rq);
	b->op = (__force u32)req_op(rq);
}

static void ut_blk_issue(void *data, struct request *rq)
{
	struct usbtrail_record rec = { .type = USBTRAIL_REC_BLK_ISSUE };

	if (!ut_blk_rq_wanted(rq))
		return;
	ut_blk_fill(&rec.u.blk, rq);
	rec.u.blk.bytes = blk_rq_bytes(rq);
	ut_emit(&rec);
}

static void ut_blk_complete(UT_BLK_COMPLETE_PROTO)
{
	struct usbtrail_record rec = { .type = USBTRAIL_REC_BLK_COMPLETE };
	u64 now;

	if (!ut_blk_rq_wanted(rq))
		return;
	ut_blk_fill(&rec.u.blk, rq);
	rec.u.blk.bytes = nr_bytes;
	rec.u.blk.error = ut_blk_errno(error);
	/* start_time_ns is ktime_get_ns() when the request was allocated */
	now = ktime_get_ns();
	if (rq->start_time_ns && now > rq->start_time_ns)
		rec.u.blk.latency_ns = now - rq->start_time_ns;
	if (error)
		rec.flags = USBTRAIL_F_ERROR;
	ut_stats_blk(&rec);
	ut_emit(&rec);
}

UT_TP_CHECK(block_rq_issue, ut_blk_issue);
UT_TP_CHECK(block_rq_complete, ut_blk_complete);

/* UT_TP_BLK(): each tracepoint of the block layer and ut_<fn>, its probe */
#define UT_BLK_PROBE(id, fn, sys, mod, event, src) \
	{ event, mod, ut_##fn, src },
const struct ut_probe ut_blk_probes[] = {
	UT_TP_BLK(UT_BLK_PROBE)
};
const unsigned int ut_blk_nprobes = ARRAY_SIZE(ut_blk_probes);
