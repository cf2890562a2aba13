/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * usbtrail.ko: interfaces between the module's files.
 *
 * Data flow: the probes (ut_xhci.c, ut_scsi.c, ut_blk.c, ut_eh.c,
 * ut_usb.c) fill a struct usbtrail_record and call ut_emit(), which stamps
 * it and hands it to the stream (ut_record.c, read through /dev/usbtrail
 * by ut_dev.c) and to the flight recorder (ut_flight.c, dumped on panic).
 * The probes also bump the counters of ut_stats.c.  ut_debugfs.c shows
 * the counters and the flight recorder in debugfs, with a test trigger
 * that emits records.  ut_tp.c attaches the tracepoint probes; ut_main.c
 * ties it all together.
 */
#ifndef UT_H
#define UT_H

#include <linux/types.h>
#include <linux/usbtrail.h>

struct scsi_cmnd;
struct seq_file;
struct request;

/* ut_main.c */
u32 ut_sources(void);
unsigned int ut_probes(struct usbtrail_probe *out, unsigned int max);
const char *ut_probe_state_name(u8 state);

/* ut_record.c */
struct ut_stream_reader {
	void (*wake)(struct ut_stream_reader *r);	/* must not sleep */
	struct list_head node;		/* in the stream's list, RCU */
};

int ut_stream_init(unsigned long bytes_per_cpu);
void ut_stream_exit(void);
void ut_emit(struct usbtrail_record *rec);
unsigned int ut_stream_read(struct usbtrail_record *recs, unsigned int n);
bool ut_stream_empty(void);
void ut_stream_drop(unsigned int n);
u64 ut_stream_lost(void);
u64 ut_stream_records(void);
unsigned long ut_stream_size(void);
void ut_stream_discard(void);
void ut_stream_reader_add(struct ut_stream_reader *r);
void ut_stream_reader_del(struct ut_stream_reader *r);

/* ut_flight.c */
int ut_flight_init(unsigned int records, unsigned int panic_dump);
void ut_flight_exit(void);
void ut_flight_put(const struct usbtrail_record *rec);
unsigned int ut_flight_capacity(void);
extern const struct seq_operations ut_flight_seq_ops;

/* ut_format.c: one record as one line of text */
#include "ut_format.h"

/* ut_debugfs.c */
void ut_debugfs_init(void);
void ut_debugfs_exit(void);

/* ut_dev.c */
int ut_dev_init(void);
void ut_dev_exit(void);

/* ut_tp.c */
int ut_tp_init(void);
void ut_tp_exit(void);
u32 ut_tp_sources(void);
unsigned int ut_tp_probe_states(struct usbtrail_probe *out, unsigned int max);
void ut_tp_recheck(void);

/* ut_layout.c */
void ut_layout_init(void);
void ut_layout_forget(const char *mod);
int ut_layout_check(const char *probe, char *why, size_t len);
long ut_layout_get(void __user *arg);
long ut_layout_set(const void __user *arg);
void ut_layout_show(struct seq_file *m);

/* ut_eh.c */
int ut_eh_init(void);
void ut_eh_exit(void);
u32 ut_eh_sources(void);
unsigned int ut_eh_probe_states(struct usbtrail_probe *out, unsigned int max);

/* ut_usb.c */
void ut_usb_init(void);
void ut_usb_exit(void);
u32 ut_usb_sources(void);

/* ut_scsi.c: shared with ut_eh.c and ut_blk.c */
struct Scsi_Host;
bool ut_scsi_host_wanted(struct Scsi_Host *shost);
bool ut_scsi_cmd_wanted(struct scsi_cmnd *cmd);
bool ut_blk_rq_wanted(struct request *rq);
void ut_scsi_fill_where(struct scsi_cmnd *cmd, u32 *devt, u16 *host,
			u8 *channel, u8 *id, u32 *lun, char disk[8]);

/* probes, for ut_tp.c's table */
struct ut_probe {
	const char *name;	/* tracepoint */
	const char *module;	/* the module defining it, NULL: built in */
	void *func;
	u32 source;		/* USBTRAIL_SRC_* */
};
extern const struct ut_probe ut_xhci_probes[];
extern const unsigned int ut_xhci_nprobes;
extern const struct ut_probe ut_scsi_probes[];
extern const unsigned int ut_scsi_nprobes;
extern const struct ut_probe ut_blk_probes[];
extern const unsigned int ut_blk_nprobes;

/* ut_stats.c */
int ut_stats_init(void);
void ut_stats_exit(void);
void ut_stats_usb_show(struct seq_file *m);
void ut_stats_disks_show(struct seq_file *m);
void ut_stats_urb(u16 busnum, u16 devnum, u8 epaddr, u8 slot, u8 dci,
		  bool done, u32 bytes, int unlinked);
void ut_stats_xhci_cc(u8 slot, u8 dci, u8 cc, u16 *busnum, u16 *devnum,
		      u8 *epaddr);
void ut_stats_usb_gone(u16 busnum, u16 devnum);
void ut_stats_scsi(const struct usbtrail_record *rec);
void ut_stats_blk(const struct usbtrail_record *rec);

#endif /* UT_H */
