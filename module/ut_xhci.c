// SPDX-License-Identifier: GPL-2.0-only
/*
 * usbtrail.ko: probes on xhci-hcd's tracepoints.
 *
 * xhci_handle_event sees every event TRB the controller writes: transfer
 * events carry the completion code, slot, endpoint and residual length;
 * command completion events carry the code of the command that
 * xhci_handle_command then shows (both run back to back under the
 * controller's lock, on one CPU, so the code is handed over per CPU).
 * The URB tracepoints give device, endpoint, stream, status and lengths.
 *
 * To keep the cost off keyboards and mice, only bulk and control URBs are
 * recorded, and only the transfer events of endpoints that carried such
 * URBs, or that failed.
 */
#include <linux/percpu.h>
#include <linux/string.h>
#include <linux/usb.h>

#include "ut.h"
#include "ut_compat.h"
#include "ut_tables.h"

/* The TRB as the tracepoint hands it over (xhci.h's xhci_generic_trb). */
struct ut_trb {
	__le32 field[4];
};

/* slot x DCI pairs that carried bulk/control URBs: their events matter */
static DECLARE_BITMAP(ut_xhci_watched, 256 * 32);
static DEFINE_PER_CPU(u8, ut_xhci_cmd_cc);

static u8 ut_xhci_dci(const struct usb_endpoint_descriptor *d)
{
	u8 num = usb_endpoint_num(d);

	if (usb_endpoint_xfer_control(d))
		return num * 2 + 1;
	return num * 2 + (usb_endpoint_dir_in(d) ? 1 : 0);
}

static void ut_xhci_event(UT_TRB_PROTO)
{
	struct usbtrail_record rec = { .type = USBTRAIL_REC_XHCI_TRANSFER };
	const struct ut_trb *t = (const void *)trb;
	u32 f2 = le32_to_cpu(t->field[2]), f3 = le32_to_cpu(t->field[3]);
	u8 type = UT_XHCI_TRB_TYPE(f3), cc = UT_XHCI_COMP_CODE(f2);
	u8 slot = UT_XHCI_SLOT_ID(f3), dci = UT_XHCI_EP_ID(f3);
	int i;

	if (type == UT_TRB_COMPLETION) {
		this_cpu_write(ut_xhci_cmd_cc, cc);
		return;
	}
	if (type != UT_TRB_TRANSFER)
		return;		/* port events: xhci_handle_port_status */
	if (cc == UT_COMP_SUCCESS || cc == UT_COMP_SHORT_PACKET) {
		if (!test_bit(slot * 32 + dci, ut_xhci_watched))
			return;
	} else {
		rec.flags = USBTRAIL_F_ERROR;
	}
	for (i = 0; i < 4; i++)
		rec.u.xhci.trb[i] = le32_to_cpu(t->field[i]);
	rec.u.xhci.slot = slot;
	rec.u.xhci.ep = dci;
	rec.u.xhci.cc = cc;
	rec.u.xhci.trb_type = type;
	rec.u.xhci.length = UT_XHCI_EVENT_LEN(f2);
	rec.u.xhci.epaddr = 0xff;
	ut_stats_xhci_cc(slot, dci, cc, &rec.u.xhci.busnum,
			 &rec.u.xhci.devnum, &rec.u.xhci.epaddr);
	ut_emit(&rec);
}

static void ut_xhci_command(UT_TRB_PROTO)
{
	struct usbtrail_record rec = { .type = USBTRAIL_REC_XHCI_COMMAND };
	const struct ut_trb *t = (const void *)trb;
	u32 f3 = le32_to_cpu(t->field[3]);
	int i;

	for (i = 0; i < 4; i++)
		rec.u.xhci.trb[i] = le32_to_cpu(t->field[i]);
	rec.u.xhci.slot = UT_XHCI_SLOT_ID(f3);
	rec.u.xhci.ep = UT_XHCI_EP_ID(f3);
	rec.u.xhci.trb_type = UT_XHCI_TRB_TYPE(f3);
	rec.u.xhci.cc = this_cpu_read(ut_xhci_cmd_cc);
	rec.u.xhci.epaddr = 0xff;
	if (rec.u.xhci.cc != UT_COMP_SUCCESS)
		rec.flags = USBTRAIL_F_ERROR;
	ut_emit(&rec);
}

static void ut_xhci_port(UT_PORTSC_PROTO)
{
	struct usbtrail_record rec = { .type = USBTRAIL_REC_XHCI_PORT };

	ut_portsc_where(port, &rec.u.port.busnum, &rec.u.port.port);
	rec.u.port.portsc = portsc;
	ut_emit(&rec);
}

static void ut_xhci_urb(u16 type, struct urb *urb)
{
	struct usbtrail_record rec = { .type = type };
	const struct usb_endpoint_descriptor *d = &urb->ep->desc;
	struct usb_device *udev = urb->dev;
	u8 xfer = usb_endpoint_type(d), dci = ut_xhci_dci(d);

	if (xfer != USB_ENDPOINT_XFER_BULK && xfer != USB_ENDPOINT_XFER_CONTROL)
		return;
	rec.u.urb.busnum = udev->bus->busnum;
	rec.u.urb.devnum = udev->devnum;
	rec.u.urb.epaddr = d->bEndpointAddress;
	rec.u.urb.eptype = xfer;
	rec.u.urb.slot = udev->slot_id;
	/*
	 * At giveback the URB's own status is not set yet (the HCD passes
	 * it to usb_hcd_giveback_urb() after the tracepoint): the outcome
	 * is the transfer event's completion code, recorded separately.
	 * What is known here is whether the URB was unlinked, and why.
	 */
	rec.u.urb.status = urb->unlinked;
	rec.u.urb.length = urb->transfer_buffer_length;
	rec.u.urb.actual = urb->actual_length;
	rec.u.urb.stream = urb->stream_id;
	rec.u.urb.num_sgs = urb->num_sgs;
	strscpy(rec.u.urb.devpath, udev->devpath, sizeof(rec.u.urb.devpath));

	if (type == USBTRAIL_REC_URB_ENQUEUE && udev->slot_id > 0 &&
	    udev->slot_id < 256)
		set_bit(udev->slot_id * 32 + dci, ut_xhci_watched);
	if (type == USBTRAIL_REC_URB_GIVEBACK && urb->unlinked &&
	    urb->unlinked != -ENOENT && urb->unlinked != -ECONNRESET)
		rec.flags = USBTRAIL_F_ERROR;
	if (type != USBTRAIL_REC_URB_DEQUEUE)
		ut_stats_urb(rec.u.urb.busnum, rec.u.urb.devnum,
			     rec.u.urb.epaddr, rec.u.urb.slot, dci,
			     type == USBTRAIL_REC_URB_GIVEBACK,
			     urb->actual_length, urb->unlinked);
	ut_emit(&rec);
}

static void ut_xhci_urb_enqueue(void *data, struct urb *urb)
{
	ut_xhci_urb(USBTRAIL_REC_URB_ENQUEUE, urb);
}

static void ut_xhci_urb_giveback(void *data, struct urb *urb)
{
	ut_xhci_urb(USBTRAIL_REC_URB_GIVEBACK, urb);
}

static void ut_xhci_urb_dequeue(void *data, struct urb *urb)
{
	ut_xhci_urb(USBTRAIL_REC_URB_DEQUEUE, urb);
}

/* the kernel's prototypes (ut_compat.h) */
UT_TP_CHECK_XHCI(xhci_handle_event, ut_xhci_event);
UT_TP_CHECK_XHCI(xhci_handle_command, ut_xhci_command);
UT_TP_CHECK_XHCI(xhci_handle_port_status, ut_xhci_port);
UT_TP_CHECK_XHCI(xhci_urb_enqueue, ut_xhci_urb_enqueue);
UT_TP_CHECK_XHCI(xhci_urb_giveback, ut_xhci_urb_giveback);
UT_TP_CHECK_XHCI(xhci_urb_dequeue, ut_xhci_urb_dequeue);

/* UT_TP_XHCI(): each tracepoint of xhci-hcd and ut_<fn>, its probe */
#define UT_XHCI_PROBE(id, fn, sys, mod, event, src) \
	{ event, mod, ut_##fn, src },
const struct ut_probe ut_xhci_probes[] = {
	UT_TP_XHCI(UT_XHCI_PROBE)
};
const unsigned int ut_xhci_nprobes = ARRAY_SIZE(ut_xhci_probes);
