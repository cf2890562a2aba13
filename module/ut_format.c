// SPDX-License-Identifier: GPL-2.0-only
/*
 * usbtrail.ko: one record as one line of text.
 *
 * Used by the panic dump and debugfs usbtrail/flight, and compiled into
 * the usbtrail command too (see ut_format.h), so the text is the same
 * everywhere: "SEQ SECONDS TYPE key=value...", SECONDS being
 * CLOCK_BOOTTIME (docs/module.md).  Keep to the kernel functions that
 * userspace/kshim/ provides.
 */
#include <linux/kernel.h>
#include <linux/kdev_t.h>
#include <linux/math64.h>
#include <linux/time64.h>

#include "ut_format.h"

static const char *const ut_type_names[USBTRAIL_REC_TYPE_MAX] = {
	[USBTRAIL_REC_LOST] = "lost",
	[USBTRAIL_REC_MARK] = "mark",
	[USBTRAIL_REC_XHCI_TRANSFER] = "xhci-transfer",
	[USBTRAIL_REC_XHCI_COMMAND] = "xhci-command",
	[USBTRAIL_REC_XHCI_PORT] = "xhci-port",
	[USBTRAIL_REC_URB_ENQUEUE] = "urb-enqueue",
	[USBTRAIL_REC_URB_GIVEBACK] = "urb-giveback",
	[USBTRAIL_REC_URB_DEQUEUE] = "urb-dequeue",
	[USBTRAIL_REC_SCSI_START] = "scsi-start",
	[USBTRAIL_REC_SCSI_DONE] = "scsi-done",
	[USBTRAIL_REC_SCSI_ERROR] = "scsi-error",
	[USBTRAIL_REC_SCSI_TIMEOUT] = "scsi-timeout",
	[USBTRAIL_REC_SCSI_SENSE] = "scsi-sense",
	[USBTRAIL_REC_SCSI_EH_WAKEUP] = "scsi-eh-wakeup",
	[USBTRAIL_REC_EH_START] = "eh-start",
	[USBTRAIL_REC_EH_END] = "eh-end",
	[USBTRAIL_REC_BLK_ISSUE] = "blk-issue",
	[USBTRAIL_REC_BLK_COMPLETE] = "blk-complete",
	[USBTRAIL_REC_USB_ADD] = "usb-add",
	[USBTRAIL_REC_USB_REMOVE] = "usb-remove",
};

static const char *const ut_eh_names[] = {
	[USBTRAIL_EH_ABORT] = "abort",
	[USBTRAIL_EH_DEVICE_RESET] = "device-reset",
	[USBTRAIL_EH_BUS_RESET] = "bus-reset",
};

static const char *const ut_drv_names[] = {
	[USBTRAIL_DRV_UAS] = "uas",
	[USBTRAIL_DRV_USB_STORAGE] = "usb-storage",
};

#define UT_NAME(tab, i) \
	((i) < ARRAY_SIZE(tab) && (tab)[i] ? (tab)[i] : "?")

const char *ut_format_type(unsigned int type)
{
	return UT_NAME(ut_type_names, type);
}

static int ut_format_scsi(char *buf, size_t size,
			  const struct usbtrail_rec_scsi *s)
{
	int n;

	n = scnprintf(buf, size,
		      " disk=%.8s dev=%u:%u scsi=%u:%u:%u:%u tag=%u op=0x%02x",
		      s->disk[0] ? s->disk : "-", MAJOR(new_decode_dev(s->devt)),
		      MINOR(new_decode_dev(s->devt)), s->host, s->channel, s->id,
		      s->lun, s->tag, s->opcode);
	if (s->lba != ~0ULL)
		n += scnprintf(buf + n, size - n, " lba=%llu", s->lba);
	n += scnprintf(buf + n, size - n, " len=%u result=0x%x", s->len,
		       s->result);
	if (s->sense_key || s->asc || s->ascq)
		n += scnprintf(buf + n, size - n, " sense=%02x/%02x/%02x",
			       s->sense_key, s->asc, s->ascq);
	return n;
}

int ut_format(char *buf, size_t size, const struct usbtrail_record *rec)
{
	const char *type = ut_format_type(rec->type);
	u32 nsec;
	u64 sec = div_u64_rem(rec->ts_ns, NSEC_PER_SEC, &nsec);
	unsigned int i;
	int n;

	n = scnprintf(buf, size, "%u %llu.%09u %s", rec->seq, sec, nsec, type);

	switch (rec->type) {
	case USBTRAIL_REC_LOST:
		n += scnprintf(buf + n, size - n, " count=%llu total=%llu",
			       rec->u.lost.count, rec->u.lost.total);
		break;
	case USBTRAIL_REC_MARK:
		n += scnprintf(buf + n, size - n, " value=%llu text=%.32s",
			       rec->u.mark.value, rec->u.mark.text);
		break;
	case USBTRAIL_REC_XHCI_TRANSFER:
	case USBTRAIL_REC_XHCI_COMMAND:
		n += scnprintf(buf + n, size - n,
			       " slot=%u ep=%u cc=%u trb=%u len=%u bus=%u dev=%u epaddr=0x%02x",
			       rec->u.xhci.slot, rec->u.xhci.ep, rec->u.xhci.cc,
			       rec->u.xhci.trb_type, rec->u.xhci.length,
			       rec->u.xhci.busnum, rec->u.xhci.devnum,
			       rec->u.xhci.epaddr);
		break;
	case USBTRAIL_REC_XHCI_PORT:
		n += scnprintf(buf + n, size - n, " bus=%u port=%u portsc=0x%08x",
			       rec->u.port.busnum, rec->u.port.port,
			       rec->u.port.portsc);
		break;
	case USBTRAIL_REC_URB_ENQUEUE:
	case USBTRAIL_REC_URB_GIVEBACK:
	case USBTRAIL_REC_URB_DEQUEUE:
		n += scnprintf(buf + n, size - n,
			       " bus=%u dev=%u path=%.16s epaddr=0x%02x type=%u slot=%u stream=%u status=%d len=%u actual=%u sgs=%u",
			       rec->u.urb.busnum, rec->u.urb.devnum,
			       rec->u.urb.devpath, rec->u.urb.epaddr,
			       rec->u.urb.eptype, rec->u.urb.slot,
			       rec->u.urb.stream, rec->u.urb.status,
			       rec->u.urb.length, rec->u.urb.actual,
			       rec->u.urb.num_sgs);
		break;
	case USBTRAIL_REC_SCSI_START:
	case USBTRAIL_REC_SCSI_DONE:
	case USBTRAIL_REC_SCSI_ERROR:
	case USBTRAIL_REC_SCSI_TIMEOUT:
	case USBTRAIL_REC_SCSI_EH_WAKEUP:
		n += ut_format_scsi(buf + n, size - n, &rec->u.scsi);
		break;
	case USBTRAIL_REC_SCSI_SENSE:
		n += scnprintf(buf + n, size - n, " dev=%u:%u tag=%u bytes=",
			       MAJOR(new_decode_dev(rec->u.sense.devt)),
			       MINOR(new_decode_dev(rec->u.sense.devt)),
			       rec->u.sense.tag);
		for (i = 0; i < rec->u.sense.len &&
		     i < ARRAY_SIZE(rec->u.sense.sense); i++)
			n += scnprintf(buf + n, size - n, "%02x",
				       rec->u.sense.sense[i]);
		break;
	case USBTRAIL_REC_EH_START:
	case USBTRAIL_REC_EH_END:
		n += scnprintf(buf + n, size - n,
			       " kind=%s driver=%s disk=%.8s scsi=%u:%u:%u:%u tag=%u op=0x%02x",
			       UT_NAME(ut_eh_names, rec->u.eh.kind),
			       UT_NAME(ut_drv_names, rec->u.eh.driver),
			       rec->u.eh.disk[0] ? rec->u.eh.disk : "-",
			       rec->u.eh.host, rec->u.eh.channel, rec->u.eh.id,
			       rec->u.eh.lun, rec->u.eh.tag, rec->u.eh.opcode);
		if (rec->type == USBTRAIL_REC_EH_END)
			n += scnprintf(buf + n, size - n, " result=0x%x",
				       rec->u.eh.result);
		break;
	case USBTRAIL_REC_BLK_ISSUE:
	case USBTRAIL_REC_BLK_COMPLETE:
		n += scnprintf(buf + n, size - n,
			       " disk=%.8s dev=%u:%u op=%u sector=%llu bytes=%u",
			       rec->u.blk.disk, MAJOR(new_decode_dev(rec->u.blk.devt)),
			       MINOR(new_decode_dev(rec->u.blk.devt)),
			       rec->u.blk.op, rec->u.blk.sector, rec->u.blk.bytes);
		if (rec->type == USBTRAIL_REC_BLK_COMPLETE)
			n += scnprintf(buf + n, size - n,
				       " error=%d latency_ns=%llu",
				       rec->u.blk.error, rec->u.blk.latency_ns);
		break;
	case USBTRAIL_REC_USB_ADD:
	case USBTRAIL_REC_USB_REMOVE:
		n += scnprintf(buf + n, size - n,
			       " bus=%u dev=%u path=%.16s id=%04x:%04x speed=%u serial_hash=%08x",
			       rec->u.usbdev.busnum, rec->u.usbdev.devnum,
			       rec->u.usbdev.devpath, rec->u.usbdev.vid,
			       rec->u.usbdev.pid, rec->u.usbdev.speed,
			       rec->u.usbdev.serial_hash);
		break;
	default:
		break;
	}
	return n;
}
