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
#include <linux/string.h>
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

/*
 * The line is built field by field rather than with scnprintf(): the
 * usbtrail command formats every record it records, and printf's format
 * parsing was most of that cost.  Output is cut at the buffer's end
 * (always NUL-terminated), as scnprintf() would.
 */
struct ut_out {
	char *p, *end;			/* end: the NUL's place */
};

static void ut_put_mem(struct ut_out *o, const char *s, size_t n)
{
	if (n > (size_t)(o->end - o->p))
		n = o->end - o->p;
	memcpy(o->p, s, n);
	o->p += n;
}

static void ut_put(struct ut_out *o, const char *s)
{
	ut_put_mem(o, s, strlen(s));
}

/* "%.Ns": at most max bytes, up to a NUL */
static void ut_put_strn(struct ut_out *o, const char *s, size_t max)
{
	ut_put_mem(o, s, strnlen(s, max));
}

static void ut_put_u(struct ut_out *o, u64 v)
{
	char tmp[20], *q = tmp + sizeof(tmp);

	do {
		*--q = '0' + v % 10;
		v /= 10;
	} while (v);
	ut_put_mem(o, q, tmp + sizeof(tmp) - q);
}

static void ut_put_d(struct ut_out *o, long long v)
{
	if (v < 0) {
		ut_put_mem(o, "-", 1);
		ut_put_u(o, -(u64)v);
		return;
	}
	ut_put_u(o, v);
}

/* "%09u" of a value below 10^9: the nanoseconds of a time */
static void ut_put_frac9(struct ut_out *o, u32 v)
{
	char tmp[9];
	int i;

	for (i = 8; i >= 0; i--) {
		tmp[i] = '0' + v % 10;
		v /= 10;
	}
	ut_put_mem(o, tmp, sizeof(tmp));
}

/* "%0Nx" */
static void ut_put_x(struct ut_out *o, u64 v, unsigned int width)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[16], *q = tmp + sizeof(tmp);

	do {
		*--q = digits[v & 15];
		v >>= 4;
	} while (v);
	while (q > tmp && (unsigned int)(tmp + sizeof(tmp) - q) < width)
		*--q = '0';
	ut_put_mem(o, q, tmp + sizeof(tmp) - q);
}

/* " key=" and a decimal */
static void ut_kv_u(struct ut_out *o, const char *key, u64 v)
{
	ut_put(o, key);
	ut_put_u(o, v);
}

static void ut_dev(struct ut_out *o, u32 devt)
{
	u32 dev = new_decode_dev(devt);

	ut_kv_u(o, " dev=", MAJOR(dev));
	ut_kv_u(o, ":", MINOR(dev));
}

static void ut_scsi_addr(struct ut_out *o, u32 host, u32 channel, u32 id,
			 u64 lun)
{
	ut_kv_u(o, " scsi=", host);
	ut_kv_u(o, ":", channel);
	ut_kv_u(o, ":", id);
	ut_kv_u(o, ":", lun);
}

static void ut_disk(struct ut_out *o, const char *disk)
{
	ut_put(o, " disk=");
	if (disk[0])
		ut_put_strn(o, disk, 8);
	else
		ut_put(o, "-");
}

static void ut_format_scsi(struct ut_out *o, const struct usbtrail_rec_scsi *s)
{
	ut_disk(o, s->disk);
	ut_dev(o, s->devt);
	ut_scsi_addr(o, s->host, s->channel, s->id, s->lun);
	ut_kv_u(o, " tag=", s->tag);
	ut_put(o, " op=0x");
	ut_put_x(o, s->opcode, 2);
	if (s->lba != ~0ULL)
		ut_kv_u(o, " lba=", s->lba);
	ut_kv_u(o, " len=", s->len);
	ut_put(o, " result=0x");
	ut_put_x(o, s->result, 1);
	if (s->sense_key || s->asc || s->ascq) {
		ut_put(o, " sense=");
		ut_put_x(o, s->sense_key, 2);
		ut_put(o, "/");
		ut_put_x(o, s->asc, 2);
		ut_put(o, "/");
		ut_put_x(o, s->ascq, 2);
	}
}

static void ut_format_xhci(struct ut_out *o, const struct usbtrail_rec_xhci *x)
{
	ut_kv_u(o, " slot=", x->slot);
	ut_kv_u(o, " ep=", x->ep);
	ut_kv_u(o, " cc=", x->cc);
	ut_kv_u(o, " trb=", x->trb_type);
	ut_kv_u(o, " len=", x->length);
	ut_kv_u(o, " bus=", x->busnum);
	ut_kv_u(o, " dev=", x->devnum);
	ut_put(o, " epaddr=0x");
	ut_put_x(o, x->epaddr, 2);
}

static void ut_format_urb(struct ut_out *o, const struct usbtrail_rec_urb *u)
{
	ut_kv_u(o, " bus=", u->busnum);
	ut_kv_u(o, " dev=", u->devnum);
	ut_put(o, " path=");
	ut_put_strn(o, u->devpath, 16);
	ut_put(o, " epaddr=0x");
	ut_put_x(o, u->epaddr, 2);
	ut_kv_u(o, " type=", u->eptype);
	ut_kv_u(o, " slot=", u->slot);
	ut_kv_u(o, " stream=", u->stream);
	ut_put(o, " status=");
	ut_put_d(o, u->status);
	ut_kv_u(o, " len=", u->length);
	ut_kv_u(o, " actual=", u->actual);
	ut_kv_u(o, " sgs=", u->num_sgs);
}

/*
 * One record as a text line.  Over 100 lines on purpose: one case per
 * record type of the ABI header, each a few key=value fields, so that a
 * new type is one case here; the larger payloads have their own
 * functions above.
 */
int ut_format(char *buf, size_t size, const struct usbtrail_record *rec)
{
	struct ut_out o = { buf, buf + (size ? size - 1 : 0) };
	u32 nsec;
	u64 sec = div_u64_rem(rec->ts_ns, NSEC_PER_SEC, &nsec);
	unsigned int i;

	if (!size)
		return 0;
	ut_put_u(&o, rec->seq);
	ut_kv_u(&o, " ", sec);
	ut_put(&o, ".");
	ut_put_frac9(&o, nsec);
	ut_put(&o, " ");
	ut_put(&o, ut_format_type(rec->type));

	switch (rec->type) {
	case USBTRAIL_REC_LOST:
		ut_kv_u(&o, " count=", rec->u.lost.count);
		ut_kv_u(&o, " total=", rec->u.lost.total);
		break;
	case USBTRAIL_REC_MARK:
		ut_kv_u(&o, " value=", rec->u.mark.value);
		ut_put(&o, " text=");
		ut_put_strn(&o, rec->u.mark.text, 32);
		break;
	case USBTRAIL_REC_XHCI_TRANSFER:
	case USBTRAIL_REC_XHCI_COMMAND:
		ut_format_xhci(&o, &rec->u.xhci);
		break;
	case USBTRAIL_REC_XHCI_PORT:
		ut_kv_u(&o, " bus=", rec->u.port.busnum);
		ut_kv_u(&o, " port=", rec->u.port.port);
		ut_put(&o, " portsc=0x");
		ut_put_x(&o, rec->u.port.portsc, 8);
		break;
	case USBTRAIL_REC_URB_ENQUEUE:
	case USBTRAIL_REC_URB_GIVEBACK:
	case USBTRAIL_REC_URB_DEQUEUE:
		ut_format_urb(&o, &rec->u.urb);
		break;
	case USBTRAIL_REC_SCSI_START:
	case USBTRAIL_REC_SCSI_DONE:
	case USBTRAIL_REC_SCSI_ERROR:
	case USBTRAIL_REC_SCSI_TIMEOUT:
	case USBTRAIL_REC_SCSI_EH_WAKEUP:
		ut_format_scsi(&o, &rec->u.scsi);
		break;
	case USBTRAIL_REC_SCSI_SENSE:
		ut_dev(&o, rec->u.sense.devt);
		ut_kv_u(&o, " tag=", rec->u.sense.tag);
		ut_put(&o, " bytes=");
		for (i = 0; i < rec->u.sense.len &&
		     i < ARRAY_SIZE(rec->u.sense.sense); i++)
			ut_put_x(&o, rec->u.sense.sense[i], 2);
		break;
	case USBTRAIL_REC_EH_START:
	case USBTRAIL_REC_EH_END:
		ut_put(&o, " kind=");
		ut_put(&o, UT_NAME(ut_eh_names, rec->u.eh.kind));
		ut_put(&o, " driver=");
		ut_put(&o, UT_NAME(ut_drv_names, rec->u.eh.driver));
		ut_disk(&o, rec->u.eh.disk);
		ut_scsi_addr(&o, rec->u.eh.host, rec->u.eh.channel, rec->u.eh.id,
			     rec->u.eh.lun);
		ut_kv_u(&o, " tag=", rec->u.eh.tag);
		ut_put(&o, " op=0x");
		ut_put_x(&o, rec->u.eh.opcode, 2);
		if (rec->type == USBTRAIL_REC_EH_END) {
			ut_put(&o, " result=0x");
			ut_put_x(&o, (u32)rec->u.eh.result, 1);
		}
		break;
	case USBTRAIL_REC_BLK_ISSUE:
	case USBTRAIL_REC_BLK_COMPLETE:
		ut_put(&o, " disk=");
		ut_put_strn(&o, rec->u.blk.disk, 8);
		ut_dev(&o, rec->u.blk.devt);
		ut_kv_u(&o, " op=", rec->u.blk.op);
		ut_kv_u(&o, " sector=", rec->u.blk.sector);
		ut_kv_u(&o, " bytes=", rec->u.blk.bytes);
		if (rec->type == USBTRAIL_REC_BLK_COMPLETE) {
			ut_put(&o, " error=");
			ut_put_d(&o, rec->u.blk.error);
			ut_kv_u(&o, " latency_ns=", rec->u.blk.latency_ns);
		}
		break;
	case USBTRAIL_REC_USB_ADD:
	case USBTRAIL_REC_USB_REMOVE:
		ut_kv_u(&o, " bus=", rec->u.usbdev.busnum);
		ut_kv_u(&o, " dev=", rec->u.usbdev.devnum);
		ut_put(&o, " path=");
		ut_put_strn(&o, rec->u.usbdev.devpath, 16);
		ut_put(&o, " id=");
		ut_put_x(&o, rec->u.usbdev.vid, 4);
		ut_put(&o, ":");
		ut_put_x(&o, rec->u.usbdev.pid, 4);
		ut_kv_u(&o, " speed=", rec->u.usbdev.speed);
		ut_put(&o, " serial_hash=");
		ut_put_x(&o, rec->u.usbdev.serial_hash, 8);
		break;
	default:
		break;
	}
	*o.p = '\0';
	return o.p - buf;
}
