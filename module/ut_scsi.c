// SPDX-License-Identifier: GPL-2.0-only
/*
 * usbtrail.ko: probes on the SCSI midlayer's tracepoints.
 *
 * scsi_dispatch_cmd_done does not carry the sense bytes (the kernel log
 * has them until printk rate limiting drops them), but the command's
 * sense buffer is filled by the time it fires: key, ASC and ASCQ go into
 * the DONE record and the raw bytes into a SENSE record right after it.
 *
 * Only commands of USB storage hosts (uas, usb-storage) are recorded,
 * unless the all_scsi module parameter says otherwise.
 */
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/kdev_t.h>
#include <linux/log2.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_host.h>
#include <trace/events/scsi.h>

#include "ut.h"
#include "ut_compat.h"
#include "ut_sense.h"
#include "ut_tables.h"

#define UT_SAM_STAT_CHECK_CONDITION	0x02

static bool ut_all_scsi;
module_param_named(all_scsi, ut_all_scsi, bool, 0444);
MODULE_PARM_DESC(all_scsi,
		 "record every SCSI disk, not only USB storage (default n)");

/*
 * A host of uas or usb-storage (whose ums-* sub-drivers copy its template
 * and keep its name).  uas sets no proc_name: match the template's name.
 */
bool ut_scsi_host_wanted(struct Scsi_Host *shost)
{
	const char *name = shost->hostt->name;

	if (ut_all_scsi)
		return true;
	return name && (!strcmp(name, "uas") || !strcmp(name, "usb-storage"));
}

bool ut_scsi_cmd_wanted(struct scsi_cmnd *cmd)
{
	return ut_scsi_host_wanted(cmd->device->host);
}

void ut_scsi_fill_where(struct scsi_cmnd *cmd, u32 *devt, u16 *host,
			u8 *channel, u8 *id, u32 *lun, char disk[8])
{
	struct scsi_device *sdev = cmd->device;
	struct gendisk *gd = ut_rq_disk(ut_scsi_rq(cmd));

	*host = sdev->host->host_no;
	*channel = sdev->channel;
	*id = sdev->id;
	*lun = sdev->lun;
	if (gd) {
		*devt = new_encode_dev(disk_devt(gd));
		strscpy(disk, gd->disk_name, 8);
	}
}

static void ut_scsi_fill(struct usbtrail_rec_scsi *s, struct scsi_cmnd *cmd)
{
	struct request *rq = ut_scsi_rq(cmd);
	unsigned int ssize = cmd->device->sector_size;

	ut_scsi_fill_where(cmd, &s->devt, &s->host, &s->channel, &s->id,
			   &s->lun, s->disk);
	s->tag = rq->tag;
	s->opcode = cmd->cmnd[0];
	s->len = scsi_bufflen(cmd);
	s->result = cmd->result;
	/* the device's LBA; blk_rq_pos() counts 512-byte sectors */
	if (blk_rq_is_passthrough(rq))
		s->lba = ~0ULL;
	else if (ssize > 512 && is_power_of_2(ssize))
		s->lba = blk_rq_pos(rq) >> (ilog2(ssize) - 9);
	else
		s->lba = blk_rq_pos(rq);
}

static void ut_scsi_emit(u16 type, struct scsi_cmnd *cmd, u8 flags)
{
	struct usbtrail_record rec = { .type = type, .flags = flags };

	if (!ut_scsi_cmd_wanted(cmd))
		return;
	ut_scsi_fill(&rec.u.scsi, cmd);
	ut_stats_scsi(&rec);
	ut_emit(&rec);
}

static void ut_scsi_start(void *data, struct scsi_cmnd *cmd)
{
	ut_scsi_emit(USBTRAIL_REC_SCSI_START, cmd, 0);
}

static void ut_scsi_done(void *data, struct scsi_cmnd *cmd)
{
	struct usbtrail_record rec = { .type = USBTRAIL_REC_SCSI_DONE };
	struct usbtrail_rec_scsi *s = &rec.u.scsi;
	struct ut_sense sn = { .format = UT_SENSE_NONE };

	if (!ut_scsi_cmd_wanted(cmd))
		return;
	ut_scsi_fill(s, cmd);
	if ((cmd->result & 0xff) == UT_SAM_STAT_CHECK_CONDITION &&
	    cmd->sense_buffer)
		ut_sense_parse(cmd->sense_buffer, SCSI_SENSE_BUFFERSIZE, &sn);
	if (sn.has_key) {
		s->sense_key = sn.key;
		s->asc = sn.asc;
		s->ascq = sn.ascq;
	}
	if (cmd->result)
		rec.flags = USBTRAIL_F_ERROR;
	ut_stats_scsi(&rec);
	ut_emit(&rec);

	if (sn.format != UT_SENSE_NONE) {
		struct usbtrail_record sr = {
			.type = USBTRAIL_REC_SCSI_SENSE,
			.flags = USBTRAIL_F_ERROR,
		};

		/* the sense data's own length, not the buffer's */
		sr.u.sense.devt = s->devt;
		sr.u.sense.tag = s->tag;
		sr.u.sense.len = min_t(unsigned int, sn.len,
				       sizeof(sr.u.sense.sense));
		memcpy(sr.u.sense.sense, cmd->sense_buffer, sr.u.sense.len);
		ut_emit(&sr);
	}
}

static void ut_scsi_error(void *data, struct scsi_cmnd *cmd, int rtn)
{
	struct usbtrail_record rec = {
		.type = USBTRAIL_REC_SCSI_ERROR,
		.flags = USBTRAIL_F_ERROR,
	};

	if (!ut_scsi_cmd_wanted(cmd))
		return;
	ut_scsi_fill(&rec.u.scsi, cmd);
	rec.u.scsi.result = rtn;
	ut_stats_scsi(&rec);
	ut_emit(&rec);
}

static void ut_scsi_timeout(void *data, struct scsi_cmnd *cmd)
{
	ut_scsi_emit(USBTRAIL_REC_SCSI_TIMEOUT, cmd, USBTRAIL_F_ERROR);
}

static void ut_scsi_eh_wakeup(void *data, struct Scsi_Host *shost)
{
	struct usbtrail_record rec = {
		.type = USBTRAIL_REC_SCSI_EH_WAKEUP,
		.flags = USBTRAIL_F_ERROR,
	};

	if (!ut_scsi_host_wanted(shost))
		return;
	rec.u.scsi.host = shost->host_no;
	rec.u.scsi.lba = ~0ULL;
	ut_emit(&rec);
}

UT_TP_CHECK(scsi_dispatch_cmd_start, ut_scsi_start);
UT_TP_CHECK(scsi_dispatch_cmd_done, ut_scsi_done);
UT_TP_CHECK(scsi_dispatch_cmd_error, ut_scsi_error);
UT_TP_CHECK(scsi_dispatch_cmd_timeout, ut_scsi_timeout);
UT_TP_CHECK(scsi_eh_wakeup, ut_scsi_eh_wakeup);

/* UT_TP_SCSI(): each tracepoint of scsi_mod and ut_<fn>, its probe */
#define UT_SCSI_PROBE(id, fn, sys, mod, event, src) \
	{ event, mod, ut_##fn, src },
const struct ut_probe ut_scsi_probes[] = {
	UT_TP_SCSI(UT_SCSI_PROBE)
};
const unsigned int ut_scsi_nprobes = ARRAY_SIZE(ut_scsi_probes);
