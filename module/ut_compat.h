/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * usbtrail.ko: every difference between the kernels the module supports
 * lives here, as static inline shims with a line of history each, so the
 * .c files carry no version tests.  Supported: Debian's 5.10, 6.1, 6.12
 * and 7.3 (tools/kernels.conf).
 *
 * The probes' prototypes are checked against the kernel's at compile time
 * (UT_TP_CHECK()): a tracepoint whose prototype changes breaks the build
 * of that kernel, and the fix goes here.
 */
#ifndef UT_COMPAT_H
#define UT_COMPAT_H

#include <linux/version.h>
#include <linux/ring_buffer.h>
#include <linux/usb.h>
#include <linux/usb/hcd.h>
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/kprobes.h>
#include <scsi/scsi_cmnd.h>

/*
 * panic_notifier_list moved from linux/kernel.h to its own header in
 * 5.14.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 14, 0)
#include <linux/panic_notifier.h>
#else
#include <linux/kernel.h>
#endif

/*
 * A request's disk: rq->rq_disk until 5.18 (removed in 5.19), the queue's
 * q->disk from 5.15 on (5.10 has none).  Both are there in 5.15 to 5.18:
 * q->disk is taken from 5.16, rq->rq_disk before.
 */
static inline struct gendisk *ut_rq_disk(struct request *rq)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 16, 0)
	return rq->q->disk;
#else
	return rq->rq_disk;
#endif
}

/*
 * A SCSI command's request: scsi_cmd_to_rq() came in 5.15; before it,
 * cmd->request.
 */
static inline struct request *ut_scsi_rq(struct scsi_cmnd *cmd)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 15, 0)
	return scsi_cmd_to_rq(cmd);
#else
	return cmd->request;
#endif
}

/*
 * The kretprobe of an instance: get_kretprobe() came in 5.11 with the
 * lockless kretprobe rework; 5.10 has ri->rp.
 */
static inline struct kretprobe *ut_kretprobe_of(struct kretprobe_instance *ri)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 11, 0)
	return get_kretprobe(ri);
#else
	return ri->rp;
#endif
}

/*
 * block_rq_complete: 5.10 passes the errno (int error), 6.1 the
 * blk_status_t, which blk_status_to_errno() turns into an errno (it warns
 * when given anything else).  The change came between the two (5.11).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 11, 0)
#define UT_BLK_COMPLETE_PROTO	void *data, struct request *rq,	\
				blk_status_t error, unsigned int nr_bytes

static inline int ut_blk_errno(blk_status_t error)
{
	return blk_status_to_errno(error);
}
#else
#define UT_BLK_COMPLETE_PROTO	void *data, struct request *rq,	\
				int error, unsigned int nr_bytes

static inline int ut_blk_errno(int error)
{
	return error;
}
#endif

/*
 * xhci_handle_event and xhci_handle_command (class xhci_log_trb): 7.3
 * passes the TRB's DMA address after the TRB (the address traced by the
 * event); 5.10 to 6.12 do not.  Taken as added after 6.12 (6.13).
 */
struct xhci_ring;
struct xhci_generic_trb;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#define UT_TRB_PROTO		void *data, struct xhci_ring *ring,	\
				struct xhci_generic_trb *trb, dma_addr_t dma
#define UT_TRB_TYPES		"struct xhci_ring *,struct xhci_generic_trb *,dma_addr_t"
#else
#define UT_TRB_PROTO		void *data, struct xhci_ring *ring,	\
				struct xhci_generic_trb *trb
#define UT_TRB_TYPES		"struct xhci_ring *,struct xhci_generic_trb *"
#endif

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
struct xhci_port;

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

#define UT_PORTSC_PROTO		void *data, struct xhci_port *port, u32 portsc
#define UT_PORTSC_TYPES		"struct xhci_port *,u32"
/* the probe reads the mirror's members: ut_tables.h's rows of them */
#define UT_IF_XHCI_PORT(rows)	rows

static inline void ut_portsc_where(struct xhci_port *xport, u16 *busnum,
				   u16 *portnum)
{
	const struct ut_xhci_port_head *port = (const void *)xport;

	*busnum = port->rhub->hcd->self.busnum;
	*portnum = port->hcd_portnum + 1;
}
#else
#define UT_PORTSC_PROTO		void *data, u32 port, u32 portsc
#define UT_PORTSC_TYPES		"u32,u32"
#define UT_IF_XHCI_PORT(rows)

static inline void ut_portsc_where(u32 port, u16 *busnum, u16 *portnum)
{
	*busnum = 0;		/* 6.1's tracepoint does not say */
	*portnum = port + 1;
}
#endif

/*
 * The kernels the module was tested on (tools/kernels.conf): outside,
 * it says so once at load.
 */
#define UT_TESTED_FIRST		KERNEL_VERSION(5, 10, 0)
#define UT_TESTED_LAST		KERNEL_VERSION(7, 3, 255)

/* Whether this kernel is outside them; its major and minor version */
static inline bool ut_kernel_untested(unsigned int *major, unsigned int *minor)
{
	*major = LINUX_VERSION_CODE >> 16;
	*minor = (LINUX_VERSION_CODE >> 8) & 0xff;
	return LINUX_VERSION_CODE < UT_TESTED_FIRST ||
	       LINUX_VERSION_CODE > UT_TESTED_LAST;
}

/*
 * The probes' prototypes, checked at compile time.  UT_TP_CHECK() for a
 * tracepoint of the kernel's public headers (<trace/events/scsi.h>,
 * <trace/events/block.h>, in every headers package): the probe has the
 * type the generated register_trace_<event>() takes.  xhci-hcd's are
 * declared in drivers/usb/host/xhci-trace.h, private to the driver:
 * UT_TP_CHECK_XHCI() compares the probe with UT_TPP_<event> of
 * ut_tp_kernel.h, which tools/tp-protos makes from the kernel's source
 * tree (the test bed's and lint's builds do; a build without that file,
 * as DKMS makes, checks the public ones only).
 */
#define UT_TP_CHECK(event, probe)					\
	static_assert(__same_type(&register_trace_##event,		\
				  int (*)(typeof(&(probe)), void *)),	\
		      #probe "() does not match tracepoint " #event)

#ifdef UT_HAVE_TP_KERNEL
#include "ut_tp_kernel.h"
#define UT_TP_CHECK_XHCI(event, probe)					\
	static_assert(__same_type(&(probe), void (*)(void *, UT_TPP_##event)), \
		      #probe "() does not match tracepoint " #event)
#else
#define UT_TP_CHECK_XHCI(event, probe)	static_assert(1)
#endif

#endif /* UT_COMPAT_H */
