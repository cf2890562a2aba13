// SPDX-License-Identifier: GPL-2.0-only
/*
 * modrec: parse usbtrail.ko's binary records and write them as text.
 *
 * The text form is the module's own (module/ut_format.c), so a record read
 * from /dev/usbtrail and the same record in a panic dump on a serial
 * console look alike and the same tools read both.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "modrec.h"

_Static_assert(sizeof(struct usbtrail_record) == USBTRAIL_RECORD_SIZE,
	       "usbtrail_record size");

static const char *const modrec_names[USBTRAIL_REC_TYPE_MAX] = {
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

static const char *const modrec_eh_names[] = {
	[USBTRAIL_EH_ABORT] = "abort",
	[USBTRAIL_EH_DEVICE_RESET] = "device-reset",
	[USBTRAIL_EH_BUS_RESET] = "bus-reset",
};

static const char *const modrec_drv_names[] = {
	[USBTRAIL_DRV_UAS] = "uas",
	[USBTRAIL_DRV_USB_STORAGE] = "usb-storage",
};

#define MODREC_NAME(tab, i) \
	((size_t)(i) < sizeof(tab) / sizeof((tab)[0]) && (tab)[i] ? \
	 (tab)[i] : "?")

int modrec_parse(const void *buf, size_t len, struct usbtrail_record *rec)
{
	struct usbtrail_record r;

	if (len < sizeof(r))
		return -EMSGSIZE;
	memcpy(&r, buf, sizeof(r));
	if (r.type == 0 || r.type >= USBTRAIL_REC_TYPE_MAX)
		return -EINVAL;
	*rec = r;
	return sizeof(r);
}

const char *modrec_type_name(unsigned int type)
{
	return MODREC_NAME(modrec_names, type);
}

/* Append to buf like scnprintf: *n grows by what would have been written. */
__attribute__((format(printf, 4, 5)))
static void modrec_add(char *buf, size_t size, int *n, const char *fmt, ...)
{
	va_list ap;
	size_t off = (size_t)*n < size ? (size_t)*n : size;
	int r;

	va_start(ap, fmt);
	r = vsnprintf(buf + off, size - off, fmt, ap);
	va_end(ap);
	if (r > 0)
		*n += r;
}

static unsigned int modrec_major(uint32_t devt)
{
	return (devt & 0xfff00) >> 8;
}

static unsigned int modrec_minor(uint32_t devt)
{
	return (devt & 0xff) | ((devt >> 12) & 0xfff00);
}

static void modrec_scsi(char *buf, size_t size, int *n,
			const struct usbtrail_rec_scsi *s)
{
	modrec_add(buf, size, n,
		   " disk=%.8s dev=%u:%u scsi=%u:%u:%u:%u tag=%u op=0x%02x",
		   s->disk[0] ? s->disk : "-", modrec_major(s->devt),
		   modrec_minor(s->devt), s->host, s->channel, s->id, s->lun,
		   s->tag, s->opcode);
	if (s->lba != ~0ULL)
		modrec_add(buf, size, n, " lba=%llu",
			   (unsigned long long)s->lba);
	modrec_add(buf, size, n, " len=%u result=0x%x", s->len, s->result);
	if (s->sense_key || s->asc || s->ascq)
		modrec_add(buf, size, n, " sense=%02x/%02x/%02x", s->sense_key,
			   s->asc, s->ascq);
}

int modrec_format(const struct usbtrail_record *rec, char *buf, size_t size)
{
	int n = 0;
	unsigned int i;

	if (size)
		buf[0] = '\0';
	modrec_add(buf, size, &n, "%u %llu.%09llu %s", rec->seq,
		   (unsigned long long)(rec->ts_ns / 1000000000ULL),
		   (unsigned long long)(rec->ts_ns % 1000000000ULL),
		   modrec_type_name(rec->type));

	switch (rec->type) {
	case USBTRAIL_REC_LOST:
		modrec_add(buf, size, &n, " count=%llu total=%llu",
			   (unsigned long long)rec->u.lost.count,
			   (unsigned long long)rec->u.lost.total);
		break;
	case USBTRAIL_REC_MARK:
		modrec_add(buf, size, &n, " value=%llu text=%.32s",
			   (unsigned long long)rec->u.mark.value,
			   rec->u.mark.text);
		break;
	case USBTRAIL_REC_XHCI_TRANSFER:
	case USBTRAIL_REC_XHCI_COMMAND:
		modrec_add(buf, size, &n,
			   " slot=%u ep=%u cc=%u trb=%u len=%u bus=%u dev=%u epaddr=0x%02x",
			   rec->u.xhci.slot, rec->u.xhci.ep, rec->u.xhci.cc,
			   rec->u.xhci.trb_type, rec->u.xhci.length,
			   rec->u.xhci.busnum, rec->u.xhci.devnum,
			   rec->u.xhci.epaddr);
		break;
	case USBTRAIL_REC_XHCI_PORT:
		modrec_add(buf, size, &n, " bus=%u port=%u portsc=0x%08x",
			   rec->u.port.busnum, rec->u.port.port,
			   rec->u.port.portsc);
		break;
	case USBTRAIL_REC_URB_ENQUEUE:
	case USBTRAIL_REC_URB_GIVEBACK:
	case USBTRAIL_REC_URB_DEQUEUE:
		modrec_add(buf, size, &n,
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
		modrec_scsi(buf, size, &n, &rec->u.scsi);
		break;
	case USBTRAIL_REC_SCSI_SENSE:
		modrec_add(buf, size, &n, " dev=%u:%u tag=%u bytes=",
			   modrec_major(rec->u.sense.devt),
			   modrec_minor(rec->u.sense.devt), rec->u.sense.tag);
		for (i = 0; i < rec->u.sense.len &&
		     i < sizeof(rec->u.sense.sense); i++)
			modrec_add(buf, size, &n, "%02x",
				   rec->u.sense.sense[i]);
		break;
	case USBTRAIL_REC_EH_START:
	case USBTRAIL_REC_EH_END:
		modrec_add(buf, size, &n,
			   " kind=%s driver=%s disk=%.8s scsi=%u:%u:%u:%u tag=%u op=0x%02x",
			   MODREC_NAME(modrec_eh_names, rec->u.eh.kind),
			   MODREC_NAME(modrec_drv_names, rec->u.eh.driver),
			   rec->u.eh.disk[0] ? rec->u.eh.disk : "-",
			   rec->u.eh.host, rec->u.eh.channel, rec->u.eh.id,
			   rec->u.eh.lun, rec->u.eh.tag, rec->u.eh.opcode);
		if (rec->type == USBTRAIL_REC_EH_END)
			modrec_add(buf, size, &n, " result=0x%x",
				   rec->u.eh.result);
		break;
	case USBTRAIL_REC_BLK_ISSUE:
	case USBTRAIL_REC_BLK_COMPLETE:
		modrec_add(buf, size, &n,
			   " disk=%.8s dev=%u:%u op=%u sector=%llu bytes=%u",
			   rec->u.blk.disk, modrec_major(rec->u.blk.devt),
			   modrec_minor(rec->u.blk.devt), rec->u.blk.op,
			   (unsigned long long)rec->u.blk.sector,
			   rec->u.blk.bytes);
		if (rec->type == USBTRAIL_REC_BLK_COMPLETE)
			modrec_add(buf, size, &n, " error=%d latency_ns=%llu",
				   rec->u.blk.error,
				   (unsigned long long)rec->u.blk.latency_ns);
		break;
	case USBTRAIL_REC_USB_ADD:
	case USBTRAIL_REC_USB_REMOVE:
		modrec_add(buf, size, &n,
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
