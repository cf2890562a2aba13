/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * usbtrail.ko: every difference between the kernels the module supports
 * lives here, as static inline shims with a line of history each, so the
 * .c files carry no version tests.  Supported: Debian's 6.1 and 6.12.
 */
#ifndef UT_COMPAT_H
#define UT_COMPAT_H

#include <linux/version.h>
#include <linux/ring_buffer.h>
#include <linux/usb.h>
#include <linux/usb/hcd.h>

/*
 * ring_buffer_unlock_commit() lost its event argument in 6.3: 6.1 takes
 * (buffer, event), 6.12 takes (buffer).
 */
static inline void ut_rb_commit(struct trace_buffer *buf,
				struct ring_buffer_event *ev)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	ring_buffer_unlock_commit(buf);
#else
	ring_buffer_unlock_commit(buf, ev);
#endif
}

/*
 * xhci_handle_port_status: 6.1 passes (u32 hcd_portnum, u32 portsc) and
 * no bus; 6.12 passes the driver's struct xhci_port (the change came in
 * 6.8, with the bus number added to port tracing).  That structure is
 * private to xhci-hcd (drivers/usb/host/xhci.h), so its leading members
 * are mirrored here, as laid out in 6.12's xhci.h.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
struct ut_xhci_hub_head {
	void **ports;
	unsigned int num_ports;
	struct usb_hcd *hcd;
};

struct ut_xhci_port_head {
	__le32 __iomem *addr;
	int hw_portnum;
	int hcd_portnum;
	struct ut_xhci_hub_head *rhub;
};

#define UT_PORTSC_PROTO		void *data, struct ut_xhci_port_head *port, \
				u32 portsc

static inline void ut_portsc_where(struct ut_xhci_port_head *port,
				   u16 *busnum, u16 *portnum)
{
	*busnum = port->rhub->hcd->self.busnum;
	*portnum = port->hcd_portnum + 1;
}
#else
#define UT_PORTSC_PROTO		void *data, u32 port, u32 portsc

static inline void ut_portsc_where(u32 port, u16 *busnum, u16 *portnum)
{
	*busnum = 0;		/* 6.1's tracepoint does not say */
	*portnum = port + 1;
}
#endif

#endif /* UT_COMPAT_H */
