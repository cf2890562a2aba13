/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * usbtrail: the facts about the kernel that usbtrail.ko and the usbtrail
 * command both act on, each written once, as X-macro tables: the
 * tracepoints the module's probes attach to and the tracefs source
 * enables, the error handlers of uas and usb-storage under every name
 * they have had, and the xHCI constants both decode TRBs with.
 *
 * Included by the module's probe files (ut_tp.c, ut_xhci.c, ut_scsi.c,
 * ut_blk.c, ut_eh.c) and by userspace (lib/tracerec.c, src_tracefs.c),
 * which finds it through -I../module as it finds ut_format.h.  It is not
 * the ABI: uapi/linux/usbtrail.h stays the one header of the records and
 * ioctls, and nothing here changes what a record means.  Definitions
 * only, and no header but <linux/usbtrail.h>, for the enum values the
 * rows name; a row that names NULL needs <stddef.h> or the kernel's at
 * the place that expands it.
 */
#ifndef UT_TABLES_H
#define UT_TABLES_H

#include <linux/usbtrail.h>

/*
 * Tracepoints: X(ID, fn, system, module, event, source)
 *   ID      its enum constant's tail: TRACEREC_<ID> (lib/tracerec.h)
 *   fn      the module's probe on it, ut_<fn>() in ut_xhci.c, ut_scsi.c
 *           or ut_blk.c, each file building its table from its own list
 *   system  its directory in tracefs, events/<system>/<event>
 *   module  the kernel module that defines it; NULL: built in
 *   event   the tracepoint's name
 *   source  the USBTRAIL_SRC_* bit USBTRAIL_IOC_INFO reports while the
 *           module's probe is attached
 */
#define UT_TP_XHCI(X)							\
	X(XHCI_EVENT, xhci_event, "xhci-hcd", "xhci_hcd",		\
	  "xhci_handle_event", USBTRAIL_SRC_XHCI)			\
	X(XHCI_COMMAND, xhci_command, "xhci-hcd", "xhci_hcd",		\
	  "xhci_handle_command", USBTRAIL_SRC_XHCI)			\
	X(XHCI_PORT, xhci_port, "xhci-hcd", "xhci_hcd",			\
	  "xhci_handle_port_status", USBTRAIL_SRC_XHCI)			\
	X(URB_ENQUEUE, xhci_urb_enqueue, "xhci-hcd", "xhci_hcd",	\
	  "xhci_urb_enqueue", USBTRAIL_SRC_XHCI)			\
	X(URB_GIVEBACK, xhci_urb_giveback, "xhci-hcd", "xhci_hcd",	\
	  "xhci_urb_giveback", USBTRAIL_SRC_XHCI)			\
	X(URB_DEQUEUE, xhci_urb_dequeue, "xhci-hcd", "xhci_hcd",	\
	  "xhci_urb_dequeue", USBTRAIL_SRC_XHCI)

#define UT_TP_SCSI(X)							\
	X(SCSI_START, scsi_start, "scsi", "scsi_mod",			\
	  "scsi_dispatch_cmd_start", USBTRAIL_SRC_SCSI)			\
	X(SCSI_DONE, scsi_done, "scsi", "scsi_mod",			\
	  "scsi_dispatch_cmd_done", USBTRAIL_SRC_SCSI)			\
	X(SCSI_ERROR, scsi_error, "scsi", "scsi_mod",			\
	  "scsi_dispatch_cmd_error", USBTRAIL_SRC_SCSI)			\
	X(SCSI_TIMEOUT, scsi_timeout, "scsi", "scsi_mod",		\
	  "scsi_dispatch_cmd_timeout", USBTRAIL_SRC_SCSI)		\
	X(SCSI_EH_WAKEUP, scsi_eh_wakeup, "scsi", "scsi_mod",		\
	  "scsi_eh_wakeup", USBTRAIL_SRC_SCSI)

#define UT_TP_BLK(X)							\
	X(BLK_ISSUE, blk_issue, "block", NULL,				\
	  "block_rq_issue", USBTRAIL_SRC_BLOCK)				\
	X(BLK_COMPLETE, blk_complete, "block", NULL,			\
	  "block_rq_complete", USBTRAIL_SRC_BLOCK)

#define UT_TRACEPOINTS(X)	UT_TP_XHCI(X) UT_TP_SCSI(X) UT_TP_BLK(X)

/*
 * The error handlers of uas and usb-storage (their SCSI host template's
 * eh_*_handler): X(module, function, suffix, kind, driver)
 *   module    the module the function is static in: the module places a
 *             kretprobe on "module:function", the tracefs source a kprobe
 *   function  the function, one row for each name it has had; both sides
 *             try every row and keep those the running kernel has
 *   suffix    the tracefs kprobe's event, usbtrail_<pid>_<suffix> and
 *             <suffix>_ret for its return: one per row, as a kprobe on a
 *             module not loaded yet is defined before the kernel can say
 *             whether the name is there, so every name gets one
 *   kind      enum usbtrail_eh_kind
 *   driver    enum usbtrail_eh_driver
 * Every handler takes the struct scsi_cmnd * first.
 *
 * uas's reset handler is the template's eh_device_reset_handler
 * uas_eh_device_reset_handler in linux 5.10, 6.1 and 6.12, and its
 * eh_host_reset_handler uas_eh_host_reset_handler in 7.3 ("USB: uas:
 * give the error handler the correct name").  Either resets the USB
 * device (usb_reset_device()): the records call both a device reset.
 * usb-storage's (scsiglue.c) kept their names in all four.
 */
#define UT_EH_HANDLERS(X)						\
	X("uas", "uas_eh_abort_handler", "uas_abort",			\
	  USBTRAIL_EH_ABORT, USBTRAIL_DRV_UAS)				\
	X("uas", "uas_eh_device_reset_handler", "uas_reset",		\
	  USBTRAIL_EH_DEVICE_RESET, USBTRAIL_DRV_UAS)			\
	X("uas", "uas_eh_host_reset_handler", "uas_host_reset",		\
	  USBTRAIL_EH_DEVICE_RESET, USBTRAIL_DRV_UAS)			\
	X("usb_storage", "command_abort", "bot_abort",			\
	  USBTRAIL_EH_ABORT, USBTRAIL_DRV_USB_STORAGE)			\
	X("usb_storage", "device_reset", "bot_reset",			\
	  USBTRAIL_EH_DEVICE_RESET, USBTRAIL_DRV_USB_STORAGE)		\
	X("usb_storage", "bus_reset", "bot_bus_reset",			\
	  USBTRAIL_EH_BUS_RESET, USBTRAIL_DRV_USB_STORAGE)

/*
 * xHCI completion codes (xHCI 1.2, section 6.4.5, table 6-90) under the
 * names of the kernel's COMP_* (drivers/usb/host/xhci.h): X(code, NAME)
 * makes UT_COMP_<NAME>.  What each code means, and whether it is an
 * error, is data/xhci-cc.tsv, which the command and the tests read; a
 * unit test (tests/unit/test_tables.c) fails when the two do not list
 * the same codes under the same COMP_* names, and tests/host/
 * 13-tables-vs-kernel.sh checks both against the kernel's source.  (The
 * TSV is not compiled into the module: the module's tree, as DKMS and
 * the test bed build it, is module/ and Kbuild, without data/.)
 */
#define UT_XHCI_CC(X)							\
	X(0, INVALID)							\
	X(1, SUCCESS)							\
	X(2, DATA_BUFFER_ERROR)						\
	X(3, BABBLE_DETECTED_ERROR)					\
	X(4, USB_TRANSACTION_ERROR)					\
	X(5, TRB_ERROR)							\
	X(6, STALL_ERROR)						\
	X(7, RESOURCE_ERROR)						\
	X(8, BANDWIDTH_ERROR)						\
	X(9, NO_SLOTS_AVAILABLE_ERROR)					\
	X(10, INVALID_STREAM_TYPE_ERROR)				\
	X(11, SLOT_NOT_ENABLED_ERROR)					\
	X(12, ENDPOINT_NOT_ENABLED_ERROR)				\
	X(13, SHORT_PACKET)						\
	X(14, RING_UNDERRUN)						\
	X(15, RING_OVERRUN)						\
	X(16, VF_EVENT_RING_FULL_ERROR)					\
	X(17, PARAMETER_ERROR)						\
	X(18, BANDWIDTH_OVERRUN_ERROR)					\
	X(19, CONTEXT_STATE_ERROR)					\
	X(20, NO_PING_RESPONSE_ERROR)					\
	X(21, EVENT_RING_FULL_ERROR)					\
	X(22, INCOMPATIBLE_DEVICE_ERROR)				\
	X(23, MISSED_SERVICE_ERROR)					\
	X(24, COMMAND_RING_STOPPED)					\
	X(25, COMMAND_ABORTED)						\
	X(26, STOPPED)							\
	X(27, STOPPED_LENGTH_INVALID)					\
	X(28, STOPPED_SHORT_PACKET)					\
	X(29, MAX_EXIT_LATENCY_TOO_LARGE_ERROR)				\
	X(31, ISOCH_BUFFER_OVERRUN)					\
	X(32, EVENT_LOST_ERROR)						\
	X(33, UNDEFINED_ERROR)						\
	X(34, INVALID_STREAM_ID_ERROR)					\
	X(35, SECONDARY_BANDWIDTH_ERROR)				\
	X(36, SPLIT_TRANSACTION_ERROR)

/*
 * TRB types (xHCI 1.2, section 6.4.6, table 6-91) under the names of the
 * kernel's TRB_* (xhci.h): X(type, NAME) makes UT_TRB_<NAME>.  Checked
 * against the kernel's source by tests/host/13-tables-vs-kernel.sh.
 */
#define UT_XHCI_TRB_TYPES(X)						\
	X(1, NORMAL)							\
	X(2, SETUP)							\
	X(3, DATA)							\
	X(4, STATUS)							\
	X(5, ISOC)							\
	X(6, LINK)							\
	X(7, EVENT_DATA)						\
	X(8, TR_NOOP)							\
	X(9, ENABLE_SLOT)						\
	X(10, DISABLE_SLOT)						\
	X(11, ADDR_DEV)							\
	X(12, CONFIG_EP)						\
	X(13, EVAL_CONTEXT)						\
	X(14, RESET_EP)							\
	X(15, STOP_RING)						\
	X(16, SET_DEQ)							\
	X(17, RESET_DEV)						\
	X(18, FORCE_EVENT)						\
	X(19, NEG_BANDWIDTH)						\
	X(20, SET_LT)							\
	X(21, GET_BW)							\
	X(22, FORCE_HEADER)						\
	X(23, CMD_NOOP)							\
	X(32, TRANSFER)							\
	X(33, COMPLETION)						\
	X(34, PORT_STATUS)						\
	X(35, BANDWIDTH_EVENT)						\
	X(36, DOORBELL)							\
	X(37, HC_EVENT)							\
	X(38, DEV_NOTE)							\
	X(39, MFINDEX_WRAP)

#define UT_XHCI_ENUM_COMP(code, name)	UT_COMP_##name = (code),
enum ut_xhci_comp {
	UT_XHCI_CC(UT_XHCI_ENUM_COMP)
};
#undef UT_XHCI_ENUM_COMP

#define UT_XHCI_ENUM_TRB(type, name)	UT_TRB_##name = (type),
enum ut_xhci_trb_type {
	UT_XHCI_TRB_TYPES(UT_XHCI_ENUM_TRB)
};
#undef UT_XHCI_ENUM_TRB

/*
 * The fields of an event TRB's dwords 2 and 3 (xHCI 1.2, 6.4.2), as
 * xhci.h's GET_COMP_CODE(), EVENT_TRB_LEN(), TRB_FIELD_TO_TYPE(),
 * TRB_TO_SLOT_ID() and TRB_TO_EP_ID() read them; the endpoint is the
 * device context index (DCI).  Commands carry slot and DCI in dword 3 at
 * the same places.
 */
#define UT_XHCI_COMP_CODE(f2)	(((f2) >> 24) & 0xff)
#define UT_XHCI_EVENT_LEN(f2)	((f2) & 0xffffff)
#define UT_XHCI_TRB_TYPE(f3)	(((f3) >> 10) & 0x3f)
#define UT_XHCI_SLOT_ID(f3)	(((f3) >> 24) & 0xff)
#define UT_XHCI_EP_ID(f3)	(((f3) >> 16) & 0x1f)

/*
 * The layout table (uapi's USBTRAIL_IOC_LAYOUT_GET, ut_layout.c): every
 * fact of xhci-hcd's private declarations the module's probes rely on.
 * X(kind, module, what, probe, type, offset, size): a tracepoint's
 * parameters after the data pointer (type), or a member of a structure
 * mirrored in ut_compat.h (its type, offset and size).  A probe attaches
 * only once each of its facts is verified against the running kernel's
 * BTF.  The types, the mirror and whether the port tracepoint passes
 * struct xhci_port (UT_IF_XHCI_PORT()) differ by kernel: ut_compat.h,
 * which the place that expands the table includes.
 */
#define UT_LAYOUT_FACTS(X)						\
	X(TRACEPOINT, "xhci_hcd", "xhci_handle_event",			\
	  "xhci_handle_event", UT_TRB_TYPES, 0, 0)			\
	X(TRACEPOINT, "xhci_hcd", "xhci_handle_command",		\
	  "xhci_handle_command", UT_TRB_TYPES, 0, 0)			\
	X(TRACEPOINT, "xhci_hcd", "xhci_handle_port_status",		\
	  "xhci_handle_port_status", UT_PORTSC_TYPES, 0, 0)		\
	X(TRACEPOINT, "xhci_hcd", "xhci_urb_enqueue",			\
	  "xhci_urb_enqueue", "struct urb *", 0, 0)			\
	X(TRACEPOINT, "xhci_hcd", "xhci_urb_giveback",			\
	  "xhci_urb_giveback", "struct urb *", 0, 0)			\
	X(TRACEPOINT, "xhci_hcd", "xhci_urb_dequeue",			\
	  "xhci_urb_dequeue", "struct urb *", 0, 0)			\
	UT_IF_XHCI_PORT(UT_LAYOUT_PORT(X))

/*
 * The layout table's states by name, for debugfs "layout" and meta.json:
 * X(STATE, name), STATE the tail of USBTRAIL_LAYOUT_<STATE>
 */
#define UT_LAYOUT_STATES(X)						\
	X(UNCHECKED, "unchecked")					\
	X(VERIFIED, "verified")						\
	X(MISMATCH, "mismatch")						\
	X(NO_BTF, "no-btf")

/* the mirror's members the port probe reads (6.8 on) */
#define UT_LAYOUT_PORT(X)						\
	X(MEMBER, "xhci_hcd", "xhci_port.hcd_portnum",			\
	  "xhci_handle_port_status", "int",				\
	  offsetof(struct ut_xhci_port_head, hcd_portnum), sizeof(int))	\
	X(MEMBER, "xhci_hcd", "xhci_port.rhub",				\
	  "xhci_handle_port_status", "struct xhci_hub *",		\
	  offsetof(struct ut_xhci_port_head, rhub), sizeof(void *))	\
	X(MEMBER, "xhci_hcd", "xhci_hub.hcd",				\
	  "xhci_handle_port_status", "struct usb_hcd *",		\
	  offsetof(struct ut_xhci_hub_head, hcd), sizeof(void *))

#endif /* UT_TABLES_H */
