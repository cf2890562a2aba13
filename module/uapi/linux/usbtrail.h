/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * usbtrail: the ABI between usbtrail.ko and the usbtrail command.
 *
 * This is the only ABI header: the module's files that userspace compiles
 * too (ut_format.h, ut_sense.h) and the tables both read (ut_tables.h)
 * add no structure or ioctl.  /dev/usbtrail yields a
 * stream of struct usbtrail_record, each USBTRAIL_RECORD_SIZE bytes; a
 * read() returns whole records only.  Every structure has fixed-width
 * fields and explicit padding so 32- and 64-bit readers agree.
 * USBTRAIL_ABI_VERSION changes whenever a structure or its meaning does;
 * readers check it with USBTRAIL_IOC_INFO before reading.
 *
 * Clock: ts_ns is CLOCK_BOOTTIME in nanoseconds (ktime_get_boot_fast_ns()),
 * which userspace reads with clock_gettime(CLOCK_BOOTTIME).
 */
#ifndef _UAPI_LINUX_USBTRAIL_H
#define _UAPI_LINUX_USBTRAIL_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define USBTRAIL_ABI_VERSION	1
#define USBTRAIL_RECORD_SIZE	64
#define USBTRAIL_DEVICE		"/dev/usbtrail"

enum usbtrail_rec_type {
	USBTRAIL_REC_LOST = 1,		/* u.lost: records dropped before this */
	USBTRAIL_REC_MARK,		/* u.mark: debugfs trigger / tests */
	USBTRAIL_REC_XHCI_TRANSFER,	/* u.xhci: transfer event */
	USBTRAIL_REC_XHCI_COMMAND,	/* u.xhci: command and its completion */
	USBTRAIL_REC_XHCI_PORT,		/* u.port: port status change */
	USBTRAIL_REC_URB_ENQUEUE,	/* u.urb */
	USBTRAIL_REC_URB_GIVEBACK,	/* u.urb */
	USBTRAIL_REC_URB_DEQUEUE,	/* u.urb: cancelled by the driver */
	USBTRAIL_REC_SCSI_START,	/* u.scsi: dispatched to the LLD */
	USBTRAIL_REC_SCSI_DONE,		/* u.scsi: completed (any result) */
	USBTRAIL_REC_SCSI_ERROR,	/* u.scsi: queuecommand refused it */
	USBTRAIL_REC_SCSI_TIMEOUT,	/* u.scsi: the block layer timed it out */
	USBTRAIL_REC_SCSI_SENSE,	/* u.sense: raw sense of the DONE before */
	USBTRAIL_REC_SCSI_EH_WAKEUP,	/* u.scsi: error handler woken (host) */
	USBTRAIL_REC_EH_START,		/* u.eh: abort/reset handler entered */
	USBTRAIL_REC_EH_END,		/* u.eh: ... and returned u.eh.result */
	USBTRAIL_REC_BLK_ISSUE,		/* u.blk */
	USBTRAIL_REC_BLK_COMPLETE,	/* u.blk */
	USBTRAIL_REC_USB_ADD,		/* u.usbdev */
	USBTRAIL_REC_USB_REMOVE,	/* u.usbdev */
	USBTRAIL_REC_TYPE_MAX
};

/* usbtrail_record.flags */
#define USBTRAIL_F_ERROR	0x01	/* an error: kept in the panic dump */

/* u.eh.kind */
enum usbtrail_eh_kind {
	USBTRAIL_EH_ABORT = 1,
	USBTRAIL_EH_DEVICE_RESET,
	USBTRAIL_EH_BUS_RESET,
};

/* u.eh.driver */
enum usbtrail_eh_driver {
	USBTRAIL_DRV_UAS = 1,
	USBTRAIL_DRV_USB_STORAGE,
};

struct usbtrail_rec_lost {
	__u64 count;			/* records dropped since the last one */
	__u64 total;
};

struct usbtrail_rec_mark {
	__u64 value;
	char text[32];			/* NUL-padded */
};

/* xHCI event and command TRBs, decoded (xHCI 1.2, section 6.4) */
struct usbtrail_rec_xhci {
	__u32 trb[4];			/* the TRB as the controller wrote it */
	__u8 slot;
	__u8 ep;			/* device context index (DCI) */
	__u8 cc;			/* completion code */
	__u8 trb_type;			/* event, or command for COMMAND */
	__u32 length;			/* transfer event: residual bytes */
	__u16 busnum;			/* when known, else 0 */
	__u16 devnum;
	__u8 epaddr;			/* when known, else 0xff */
	__u8 pad[11];
};

struct usbtrail_rec_port {
	__u32 portsc;
	__u16 busnum;			/* 0 where the kernel does not say */
	__u16 port;			/* 1-based, as in "usb 2-1" */
};

struct usbtrail_rec_urb {
	__u16 busnum;
	__u16 devnum;
	__u8 epaddr;			/* bEndpointAddress */
	__u8 eptype;			/* USB_ENDPOINT_XFER_* */
	__u8 slot;			/* xHCI slot id, 0 if none */
	__u8 pad0;
	/*
	 * urb->unlinked: 0, or -errno if cancelled; the outcome of a
	 * transfer is the completion code of its xHCI transfer event
	 */
	__s32 status;
	__u32 length;			/* transfer_buffer_length */
	__u32 actual;			/* actual_length */
	__u32 stream;			/* UAS bulk stream id, 0 if none */
	__u32 num_sgs;
	char devpath[16];		/* "1.4": the port path below the root */
};

struct usbtrail_rec_scsi {
	__u32 devt;			/* disk dev_t (new_encode_dev), 0: none */
	__u16 host;
	__u8 channel;
	__u8 id;
	__u32 lun;
	__u32 tag;
	__u64 lba;			/* ~0ULL when not a read/write */
	__u32 len;			/* data bytes */
	__u32 result;			/* scsi_cmnd.result */
	__u8 opcode;
	__u8 sense_key;			/* from the sense buffer, on DONE */
	__u8 asc;
	__u8 ascq;
	char disk[8];			/* "sda", NUL-padded */
	__u8 pad[4];
};

struct usbtrail_rec_sense {
	__u32 devt;
	__u32 tag;
	__u8 len;			/* bytes valid in sense[] */
	__u8 pad[7];
	__u8 sense[32];
};

struct usbtrail_rec_eh {
	__u32 devt;
	__u16 host;
	__u8 channel;
	__u8 id;
	__u32 lun;
	__u32 tag;
	__u8 kind;			/* enum usbtrail_eh_kind */
	__u8 driver;			/* enum usbtrail_eh_driver */
	__u8 opcode;
	__u8 pad0;
	__s32 result;			/* EH_END: SUCCESS 0x2002, FAILED 0x2003 */
	char disk[8];
	__u8 pad[16];
};

struct usbtrail_rec_blk {
	__u32 devt;
	__u32 bytes;
	__u64 sector;
	__u64 latency_ns;		/* COMPLETE: since the request began */
	__u32 op;			/* REQ_OP_* */
	__s32 error;			/* COMPLETE: -errno */
	char disk[8];
	__u8 pad[8];
};

struct usbtrail_rec_usbdev {
	__u16 busnum;
	__u16 devnum;
	__u16 vid;
	__u16 pid;
	__u32 speed;			/* enum usb_device_speed */
	__u8 pad[4];
	char devpath[16];
	__u32 serial_hash;		/* FNV-1a of the serial string, 0: none */
	__u8 pad1[12];
};

struct usbtrail_record {
	__u64 ts_ns;			/* CLOCK_BOOTTIME */
	__u32 seq;			/* per load; a gap means records lost */
	__u16 type;			/* enum usbtrail_rec_type */
	__u8 cpu;
	__u8 flags;			/* USBTRAIL_F_* */
	union {
		struct usbtrail_rec_lost lost;
		struct usbtrail_rec_mark mark;
		struct usbtrail_rec_xhci xhci;
		struct usbtrail_rec_port port;
		struct usbtrail_rec_urb urb;
		struct usbtrail_rec_scsi scsi;
		struct usbtrail_rec_sense sense;
		struct usbtrail_rec_eh eh;
		struct usbtrail_rec_blk blk;
		struct usbtrail_rec_usbdev usbdev;
		__u8 raw[48];
	} u;
};

/*
 * One probe of the module (USBTRAIL_IOC_INFO's table, debugfs "probes"):
 * a tracepoint or a kretprobe on an error handler, and whether it is
 * attached now.  A handler renamed across kernels has a probe for each
 * name: the names the running kernel lacks are USBTRAIL_PROBE_ALIAS when
 * another name of the handler is attached.
 */
enum usbtrail_probe_kind {
	USBTRAIL_PROBE_TRACEPOINT = 1,
	USBTRAIL_PROBE_KRETPROBE,
};

enum usbtrail_probe_state {
	USBTRAIL_PROBE_WAITING = 0,	/* its module is not loaded (yet) */
	USBTRAIL_PROBE_ATTACHED,
	USBTRAIL_PROBE_FAILED,		/* not attached: .error says why */
	USBTRAIL_PROBE_ALIAS,		/* name absent, another one attached */
	/*
	 * not attached: what it takes for granted of the kernel's private
	 * declarations is not verified (.error 0: not checked yet, -ENOENT:
	 * no BTF says, -EPROTO: the BTF says otherwise); the layout table
	 * (USBTRAIL_IOC_LAYOUT_GET) says which fact and why
	 */
	USBTRAIL_PROBE_UNVERIFIED,
};

/* usbtrail_probe.flags */
#define USBTRAIL_PROBE_F_BUILTIN	0x01	/* on a driver built into the kernel */

#define USBTRAIL_PROBE_NAME_LEN	48
#define USBTRAIL_PROBES_MAX	32

struct usbtrail_probe {
	/*
	 * "module:event", "module:function": the driver's module name even
	 * when it is built in (flags say so); "vmlinux": the core kernel's
	 */
	char name[USBTRAIL_PROBE_NAME_LEN];
	__u32 source;			/* the USBTRAIL_SRC_* bit it feeds */
	__s32 error;			/* -errno of the last attempt, or 0 */
	__u8 kind;			/* enum usbtrail_probe_kind */
	__u8 state;			/* enum usbtrail_probe_state */
	__u8 flags;			/* USBTRAIL_PROBE_F_*; 0 before */
	__u8 pad[5];
};

/*
 * USBTRAIL_IOC_INFO.  The first 48 bytes are info version 1 (modules
 * before the probe table, whose USBTRAIL_IOC_INFO_V1 still answers with
 * them, info_version being their padding, 0); version 2 adds the table of
 * every probe.  A reader tries USBTRAIL_IOC_INFO, then, on ENOTTY,
 * USBTRAIL_IOC_INFO_V1.  The records are the same in both.
 */
#define USBTRAIL_INFO_VERSION	2
#define USBTRAIL_INFO_V1_SIZE	48

struct usbtrail_info {
	__u32 abi_version;		/* USBTRAIL_ABI_VERSION */
	__u32 record_size;		/* USBTRAIL_RECORD_SIZE */
	__u32 clock_id;			/* CLOCK_BOOTTIME (7) */
	__u32 flight_records;		/* flight recorder capacity */
	__u64 records;			/* records produced since load */
	__u64 lost;			/* dropped: buffer full, read faulted */
	__u64 stream_bytes;		/* stream buffer size, all CPUs */
	__u32 sources;			/* USBTRAIL_SRC_* attached now */
	__u32 info_version;		/* USBTRAIL_INFO_VERSION; 0: 1 */
	/* info version 2 */
	__u32 nprobes;			/* entries of probes[] used */
	__u32 pad;
	struct usbtrail_probe probes[USBTRAIL_PROBES_MAX];
};

/* usbtrail_info.sources, usbtrail_probe.source */
#define USBTRAIL_SRC_XHCI	0x01	/* xhci-hcd tracepoints */
#define USBTRAIL_SRC_SCSI	0x02	/* scsi tracepoints */
#define USBTRAIL_SRC_BLOCK	0x04	/* block tracepoints */
#define USBTRAIL_SRC_UAS_EH	0x08	/* uas error handler kprobes */
#define USBTRAIL_SRC_BOT_EH	0x10	/* usb-storage error handler kprobes */
#define USBTRAIL_SRC_USBDEV	0x20	/* USB device add/remove */

#define USBTRAIL_IOC_MAGIC	0xB8
#define USBTRAIL_IOC_INFO	_IOR(USBTRAIL_IOC_MAGIC, 1, struct usbtrail_info)
#define USBTRAIL_IOC_INFO_V1	_IOC(_IOC_READ, USBTRAIL_IOC_MAGIC, 1, \
				     USBTRAIL_INFO_V1_SIZE)
/*
 * Drop every record waiting in the stream, and the count of records lost
 * so far, at once: a reader that starts a recording starts from now.
 * (Modules before it answer ENOTTY: read the stream out instead.)
 */
#define USBTRAIL_IOC_DISCARD	_IO(USBTRAIL_IOC_MAGIC, 2)

/*
 * The layout table: what the probes on drivers' private tracepoints take
 * for granted of the kernel's private declarations, one fact a row: a
 * tracepoint's parameters (xhci-hcd's are declared in its own
 * xhci-trace.h) or a member of a private structure (struct xhci_port of
 * xhci.h, which 6.8's port tracepoint passes).  Such a probe is attached
 * only when every fact it depends on is verified against the running
 * kernel's BTF (/sys/kernel/btf/vmlinux and /sys/kernel/btf/MODULE).
 * The module cannot read BTF; its reader can:
 *
 *   USBTRAIL_IOC_LAYOUT_GET: the table, each row with the module's
 *     expectation in type, offset and size, and its state;
 *   USBTRAIL_IOC_LAYOUT_SET: the same rows (matched by module, what and
 *     kind) with what the BTF says in type, offset and size and state
 *     USBTRAIL_LAYOUT_FOUND, or USBTRAIL_LAYOUT_NO_BTF where it says
 *     nothing; the module compares, sets each row's state and attaches
 *     the probes now verified.
 *
 * The answers of a driver's rows hold until that driver's module goes.
 * Modules before the table answer ENOTTY (and attach without it).
 */
enum usbtrail_layout_kind {
	/* type: its parameters' types after the data pointer, as C spells
	 * them, joined by ","
	 */
	USBTRAIL_LAYOUT_TRACEPOINT = 1,
	/* what is "struct.member": its type, byte offset and byte size */
	USBTRAIL_LAYOUT_MEMBER,
};

enum usbtrail_layout_state {
	USBTRAIL_LAYOUT_UNCHECKED = 0,	/* no answer yet */
	USBTRAIL_LAYOUT_VERIFIED,	/* the BTF says what the module expects */
	USBTRAIL_LAYOUT_MISMATCH,	/* it says otherwise */
	USBTRAIL_LAYOUT_NO_BTF,		/* no BTF, or none of this */
	USBTRAIL_LAYOUT_FOUND,		/* _SET only: the answer is in the row */
};

#define USBTRAIL_LAYOUT_MAX		16
#define USBTRAIL_LAYOUT_NAME_LEN	32
#define USBTRAIL_LAYOUT_WHAT_LEN	64
#define USBTRAIL_LAYOUT_TYPE_LEN	128

struct usbtrail_layout_fact {
	char module[USBTRAIL_LAYOUT_NAME_LEN];	/* whose BTF: "xhci_hcd" */
	char what[USBTRAIL_LAYOUT_WHAT_LEN];	/* "xhci_port.hcd_portnum" */
	char probe[USBTRAIL_LAYOUT_NAME_LEN];	/* the tracepoint it guards */
	char type[USBTRAIL_LAYOUT_TYPE_LEN];	/* "struct xhci_port *,u32" */
	__u32 offset;
	__u32 size;
	__u8 kind;				/* enum usbtrail_layout_kind */
	__u8 state;				/* enum usbtrail_layout_state */
	__u8 flags;				/* USBTRAIL_LAYOUT_F_* (_GET) */
	__u8 pad[5];
};

/*
 * usbtrail_layout_fact.flags: verified by the module's build against the
 * kernel's own source (its tracepoints' prototypes), no BTF has answered
 */
#define USBTRAIL_LAYOUT_F_BUILD		0x01

struct usbtrail_layout {
	__u32 count;				/* rows of facts[] used */
	__u32 pad;
	struct usbtrail_layout_fact facts[USBTRAIL_LAYOUT_MAX];
};

#define USBTRAIL_IOC_LAYOUT_GET	_IOR(USBTRAIL_IOC_MAGIC, 3, struct usbtrail_layout)
#define USBTRAIL_IOC_LAYOUT_SET	_IOW(USBTRAIL_IOC_MAGIC, 3, struct usbtrail_layout)

#endif /* _UAPI_LINUX_USBTRAIL_H */
