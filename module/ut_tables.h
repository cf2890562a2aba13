/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * usbtrail: the facts about the kernel that usbtrail.ko and the usbtrail
 * command both act on, each written once, as X-macro tables: the
 * tracepoints the module's probes attach to and the tracefs source
 * enables, and the error handlers of uas and usb-storage under every name
 * they have had.
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

#endif /* UT_TABLES_H */
