// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_derive.c - unit tests of the recorder's derivation (derive.c), its
 * disk table (devmap.c) and the events.jsonl form (evjson.c): events in,
 * incidents and samples out, as "usbtrail record" and "analyze" over a
 * recording produce them.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "datatab.h"
#include "derive.h"
#include "devmap.h"
#include "evjson.h"
#include "recording.h"

#define MS	1000000ull
#define SEC	1000000000ull

struct out {
	struct ev *ev[512];
	unsigned int n;
};

static void collect(void *arg, struct ev *ev)
{
	struct out *o = arg;

	assert_true(o->n < 512);
	o->ev[o->n++] = ev;
}

static void out_free(struct out *o)
{
	while (o->n)
		ev_free(o->ev[--o->n]);
}

static unsigned int count_kind(const struct out *o, enum classify_kind k)
{
	unsigned int i, n = 0;

	for (i = 0; i < o->n; i++)
		if (o->ev[i]->type == EV_INCIDENT &&
		    o->ev[i]->u.incident.inc.kind == k)
			n++;
	return n;
}

static const struct ev *find_kind(const struct out *o, enum classify_kind k)
{
	unsigned int i;

	for (i = 0; i < o->n; i++)
		if (o->ev[i]->type == EV_INCIDENT &&
		    o->ev[i]->u.incident.inc.kind == k)
			return o->ev[i];
	return NULL;
}

static uint64_t next_id;

static struct ev *klog(uint64_t t, const char *text)
{
	struct ev *ev = ev_new(EV_KLOG, EV_SRC_KMSG, t);

	assert_non_null(ev);
	ev->id = ++next_id;
	ev->u.klog.level = 3;
	snprintf(ev->u.klog.text, sizeof(ev->u.klog.text), "%s", text);
	return ev;
}

static struct ev *trace(uint64_t t, unsigned int type)
{
	struct ev *ev = ev_new(EV_TRACE, EV_SRC_MODULE, t);

	assert_non_null(ev);
	ev->id = ++next_id;
	ev->u.rec.ts_ns = t;
	ev->u.rec.type = (uint16_t)type;
	return ev;
}

static struct ev *scsi(uint64_t t, unsigned int type, const char *disk)
{
	struct ev *ev = trace(t, type);

	ev->u.rec.u.scsi.devt = 8 << 8;
	ev->u.rec.u.scsi.lba = 20480;
	ev->u.rec.u.scsi.opcode = 0x2a;
	memcpy(ev->u.rec.u.scsi.disk, disk, strlen(disk));
	ev_ident_from_rec(ev);
	return ev;
}

static struct ev *blk(uint64_t t, unsigned int type, uint64_t sector,
		      uint32_t bytes)
{
	struct ev *ev = trace(t, type);

	ev->u.rec.u.blk.devt = 8 << 8;
	ev->u.rec.u.blk.sector = sector;
	ev->u.rec.u.blk.bytes = bytes;
	ev->u.rec.u.blk.op = 1;		/* REQ_OP_WRITE */
	memcpy(ev->u.rec.u.blk.disk, "sda", 3);
	ev_ident_from_rec(ev);
	return ev;
}

/* one USB disk, sda on 2-1, SCSI 0:0:0:0 */
static void device(struct devmap *m, const char *disk, int devnum,
		   enum ev_device_action action)
{
	struct ev *ev = ev_new(EV_DEVICE, EV_SRC_SYSFS, 0);

	assert_non_null(ev);
	snprintf(ev->ident.disk, sizeof(ev->ident.disk), "%s", disk);
	snprintf(ev->ident.usb, sizeof(ev->ident.usb), "2-1");
	snprintf(ev->ident.scsi, sizeof(ev->ident.scsi), "0:0:0:0");
	ev->ident.busnum = 2;
	ev->ident.devnum = devnum;
	ev->u.device.action = action;
	snprintf(ev->u.device.serial, sizeof(ev->u.device.serial), "S123");
	assert_non_null(devmap_update(m, ev));
	ev_free(ev);
}

static void feed(struct derive *d, struct devmap *m, struct ev *ev)
{
	devmap_resolve(m, ev);
	derive_feed(d, m, ev);
	derive_advance(d, ev->t_ns);
	ev_free(ev);
}

/*
 * The log line and the trace record of one sense error are one incident:
 * the log's text, the trace's command and raw sense bytes.
 */
static void test_sense_merged(void **state)
{
	struct derive_opts o = DERIVE_OPTS_DEFAULT;
	struct out out = { .n = 0 };
	struct devmap m;
	struct derive *d = derive_new(&o, collect, &out);
	const struct ev *inc;
	struct ev *ev;

	(void)state;
	devmap_init(&m);
	device(&m, "sda", 2, EV_DEVICE_PRESENT);
	ev = scsi(10 * SEC, USBTRAIL_REC_SCSI_DONE, "sda");
	ev->u.rec.flags = USBTRAIL_F_ERROR;
	ev->u.rec.u.scsi.sense_key = 2;
	ev->u.rec.u.scsi.asc = 0x3a;
	feed(d, &m, ev);
	ev = trace(10 * SEC + 1000, USBTRAIL_REC_SCSI_SENSE);
	ev->u.rec.u.sense.devt = 8 << 8;
	ev->u.rec.u.sense.len = 18;
	ev->u.rec.u.sense.sense[0] = 0x70;
	ev->u.rec.u.sense.sense[2] = 0x02;
	feed(d, &m, ev);
	feed(d, &m, klog(10 * SEC + 30 * MS,
		"sd 0:0:0:0: [sda] tag#8 Sense Key : Not Ready [current] "));
	feed(d, &m, klog(10 * SEC + 31 * MS,
		"sd 0:0:0:0: [sda] tag#8 Add. Sense: Medium not present"));
	derive_flush(d);

	assert_int_equal(count_kind(&out, CLASSIFY_SENSE), 1);
	inc = find_kind(&out, CLASSIFY_SENSE);
	assert_int_equal(inc->u.incident.inc.key, 2);
	assert_int_equal(inc->u.incident.inc.asc, 0x3a);
	assert_string_equal(inc->u.incident.inc.asc_text, "Medium not present");
	assert_string_equal(inc->ident.disk, "sda");
	assert_string_equal(inc->ident.usb, "2-1");
	assert_int_equal(inc->u.incident.opcode, 0x2a);
	assert_int_equal(inc->u.incident.lba, 20480);
	assert_int_equal(inc->u.incident.sense_len, 18);
	assert_int_equal(inc->u.incident.sense[0], 0x70);
	assert_true(inc->u.incident.nevidence >= 3);
	/* the trace's time, not the log's later one */
	assert_int_equal(inc->t_ns, 10 * SEC);
	out_free(&out);
	derive_free(d);
}

/*
 * A live recording: the command's sense and its request's I/O error come
 * from the trace at once, the log's lines in between, and then nothing
 * more is logged for seconds.  The log's incident is complete only when
 * no later line can join it (2 s): the trace's halves wait for it, and
 * come out as one incident before the end of the recording.
 */
static void test_sense_live(void **state)
{
	struct derive_opts o = DERIVE_OPTS_DEFAULT;
	struct out out = { .n = 0 };
	struct devmap m;
	struct derive *d = derive_new(&o, collect, &out);
	const struct ev *inc;
	struct ev *ev;
	uint64_t t;

	(void)state;
	devmap_init(&m);
	device(&m, "sda", 2, EV_DEVICE_PRESENT);
	ev = scsi(10 * SEC, USBTRAIL_REC_SCSI_DONE, "sda");
	ev->u.rec.flags = USBTRAIL_F_ERROR;
	ev->u.rec.u.scsi.sense_key = 2;
	ev->u.rec.u.scsi.asc = 0x3a;
	feed(d, &m, ev);
	feed(d, &m, klog(10 * SEC + 1 * MS,
		"sd 0:0:0:0: [sda] tag#8 FAILED Result: hostbyte=DID_OK driverbyte=DRIVER_OK cmd_age=0s"));
	feed(d, &m, klog(10 * SEC + 1 * MS,
		"sd 0:0:0:0: [sda] tag#8 Sense Key : Not Ready [current] "));
	feed(d, &m, klog(10 * SEC + 1 * MS,
		"sd 0:0:0:0: [sda] tag#8 Add. Sense: Medium not present"));
	feed(d, &m, klog(10 * SEC + 1 * MS,
		"sd 0:0:0:0: [sda] tag#8 CDB: Write(10) 2a 00 00 00 50 00 00 00 08 00"));
	feed(d, &m, klog(10 * SEC + 2 * MS,
		"I/O error, dev sda, sector 20480 op 0x1:(WRITE) flags 0x0 phys_seg 1 prio class 0"));
	ev = blk(10 * SEC + 3 * MS, USBTRAIL_REC_BLK_COMPLETE, 20480, 4096);
	ev->u.rec.u.blk.error = -5;
	feed(d, &m, ev);
	for (t = 10 * SEC + 100 * MS; t < 16 * SEC; t += 100 * MS)
		derive_advance(d, t);

	/* out before the end, and once */
	assert_int_equal(count_kind(&out, CLASSIFY_SENSE), 1);
	assert_int_equal(count_kind(&out, CLASSIFY_IO_ERROR), 0);
	inc = find_kind(&out, CLASSIFY_SENSE);
	assert_int_equal(inc->u.incident.inc.sector, 20480);
	assert_int_equal(inc->u.incident.lba, 20480);
	assert_int_equal(inc->t_ns, 10 * SEC);
	derive_flush(d);
	assert_int_equal(count_kind(&out, CLASSIFY_SENSE), 1);
	assert_int_equal(count_kind(&out, CLASSIFY_IO_ERROR), 0);
	out_free(&out);
	derive_free(d);
}

/*
 * The log's reset runs from the SCSI handler's start to the USB reset it
 * makes, 14 s later in the test bed's stall; the trace's reset is the
 * handler's end, just after: one reset.
 */
static void test_reset_span(void **state)
{
	struct derive_opts o = DERIVE_OPTS_DEFAULT;
	struct out out = { .n = 0 };
	struct devmap m;
	struct derive *d = derive_new(&o, collect, &out);
	struct ev *ev;
	uint64_t t;

	(void)state;
	devmap_init(&m);
	device(&m, "sda", 2, EV_DEVICE_PRESENT);
	feed(d, &m, klog(5 * SEC,
		"sd 0:0:0:0: [sda] tag#12 uas_eh_abort_handler 0 uas-tag 3 "
		"inflight: CMD OUT "));
	feed(d, &m, klog(5 * SEC + 50 * MS,
		"scsi host0: uas_eh_device_reset_handler start"));
	for (t = 5 * SEC + 100 * MS; t < 19 * SEC; t += 500 * MS)
		derive_advance(d, t);
	feed(d, &m, klog(19 * SEC + 850 * MS,
		"usb 2-1: reset SuperSpeed USB device number 2 using xhci_hcd"));
	ev = trace(19 * SEC + 878 * MS, USBTRAIL_REC_EH_END);
	ev->u.rec.u.eh.devt = 8 << 8;
	ev->u.rec.u.eh.kind = USBTRAIL_EH_DEVICE_RESET;
	ev->u.rec.u.eh.driver = USBTRAIL_DRV_UAS;
	ev->u.rec.u.eh.result = 0x2002;
	memcpy(ev->u.rec.u.eh.disk, "sda", 3);
	ev_ident_from_rec(ev);
	feed(d, &m, ev);
	feed(d, &m, klog(19 * SEC + 878 * MS,
		"scsi host0: uas_eh_device_reset_handler success"));
	for (t = 20 * SEC; t < 30 * SEC; t += 500 * MS)
		derive_advance(d, t);
	derive_flush(d);
	assert_int_equal(count_kind(&out, CLASSIFY_RESET), 1);
	assert_int_equal(count_kind(&out, CLASSIFY_RECOVERED), 1);
	out_free(&out);
	derive_free(d);
}

/* One failed write at @t: its command's sense, then its request's error */
static void failed_write(struct derive *d, struct devmap *m, uint64_t t)
{
	struct ev *ev = scsi(t, USBTRAIL_REC_SCSI_DONE, "sda");

	ev->u.rec.flags = USBTRAIL_F_ERROR;
	ev->u.rec.u.scsi.sense_key = 0xb;
	ev->u.rec.u.scsi.ascq = 6;
	feed(d, m, ev);
	ev = blk(t + 100000, USBTRAIL_REC_BLK_COMPLETE, 20480, 4096);
	ev->u.rec.u.blk.error = -5;
	feed(d, m, ev);
}

/* The log's lines of the failed write at @t, @suppressed before them */
static void failed_write_log(struct derive *d, struct devmap *m, uint64_t t,
			     bool suppressed)
{
	if (suppressed)
		feed(d, m, klog(t, "scsi_io_completion_action: 1 callbacks suppressed"));
	feed(d, m, klog(t,
		"sd 0:0:0:0: [sda] tag#0 FAILED Result: hostbyte=DID_OK driverbyte=DRIVER_OK cmd_age=0s"));
	feed(d, m, klog(t,
		"sd 0:0:0:0: [sda] tag#0 Sense Key : Aborted Command [current] "));
	feed(d, m, klog(t,
		"sd 0:0:0:0: [sda] tag#0 Add. Sense: I/O process terminated"));
	feed(d, m, klog(t,
		"sd 0:0:0:0: [sda] tag#0 CDB: Write(10) 2a 00 00 00 50 00 00 00 08 00"));
	if (suppressed)
		feed(d, m, klog(t, "blk_print_req_error: 1 callbacks suppressed"));
	feed(d, m, klog(t + 1000,
		"I/O error, dev sda, sector 20480 op 0x1:(WRITE) flags 0x8800 phys_seg 1 prio class 2"));
}

/*
 * Three failed writes of one sector, 0.4 s apart, the second one's lines
 * rate-limited away (the third's say "1 callbacks suppressed"), as the
 * test bed's io-error fault on a BOT disk makes them.  The trace has all
 * three, each a sense then its request's I/O error: the second is one
 * more command of the first's burst, not an io-error of its own, and
 * the third's lines take the third's I/O error, not the second's.
 */
static void test_sense_ratelimited(void **state)
{
	struct derive_opts o = DERIVE_OPTS_DEFAULT;
	struct out out = { .n = 0 };
	struct devmap m;
	struct derive *d = derive_new(&o, collect, &out);
	const struct ev *first = NULL, *third = NULL;
	unsigned int i;
	uint64_t t;

	(void)state;
	devmap_init(&m);
	device(&m, "sda", 2, EV_DEVICE_PRESENT);
	failed_write(d, &m, 10 * SEC);
	failed_write_log(d, &m, 10 * SEC + 200000, false);
	failed_write(d, &m, 10 * SEC + 400 * MS);
	failed_write(d, &m, 10 * SEC + 800 * MS);
	failed_write_log(d, &m, 10 * SEC + 800 * MS + 200000, true);
	for (t = 11 * SEC; t < 16 * SEC; t += 100 * MS)
		derive_advance(d, t);
	derive_flush(d);

	assert_int_equal(count_kind(&out, CLASSIFY_IO_ERROR), 0);
	assert_int_equal(count_kind(&out, CLASSIFY_SENSE), 2);
	for (i = 0; i < out.n; i++) {
		const struct ev *e = out.ev[i];

		if (e->type != EV_INCIDENT ||
		    e->u.incident.inc.kind != CLASSIFY_SENSE)
			continue;
		if (e->t_ns < 10 * SEC + 500 * MS)
			first = e;
		else
			third = e;
	}
	assert_non_null(first);
	assert_non_null(third);
	assert_int_equal(first->t_ns, 10 * SEC);
	assert_true(first->u.incident.inc.count >= 2);
	assert_int_equal(first->u.incident.inc.suppressed, 0);
	assert_int_equal(third->u.incident.inc.suppressed, 2);
	assert_int_equal(third->u.incident.inc.key, 0xb);
	assert_int_equal(third->u.incident.inc.sector, 20480);
	out_free(&out);
	derive_free(d);
}

/*
 * A failed write the log says nothing of (its lines rate-limited, or no
 * log read): the trace's sense and its request's I/O error are one sense
 * incident, at the request's sector.
 */
static void test_sense_trace_only(void **state)
{
	struct derive_opts o = DERIVE_OPTS_DEFAULT;
	struct out out = { .n = 0 };
	struct devmap m;
	struct derive *d = derive_new(&o, collect, &out);
	const struct ev *inc;

	(void)state;
	devmap_init(&m);
	device(&m, "sda", 2, EV_DEVICE_PRESENT);
	failed_write(d, &m, 10 * SEC);
	derive_flush(d);
	assert_int_equal(count_kind(&out, CLASSIFY_IO_ERROR), 0);
	assert_int_equal(count_kind(&out, CLASSIFY_SENSE), 1);
	inc = find_kind(&out, CLASSIFY_SENSE);
	assert_int_equal(inc->u.incident.inc.sector, 20480);
	assert_int_equal(inc->u.incident.inc.key, 0xb);
	assert_int_equal(inc->u.incident.nevidence, 2);
	out_free(&out);
	derive_free(d);
}

/*
 * Where the trace has no sense (tracefs before 6.12), the log's failed
 * command takes the nearest of the trace's I/O errors at its sector: an
 * earlier one whose lines were rate-limited stays an io-error.
 */
static void test_io_error_nearest(void **state)
{
	struct derive_opts o = DERIVE_OPTS_DEFAULT;
	struct out out = { .n = 0 };
	struct devmap m;
	struct derive *d = derive_new(&o, collect, &out);
	const struct ev *inc;
	struct ev *ev;

	(void)state;
	devmap_init(&m);
	device(&m, "sda", 2, EV_DEVICE_PRESENT);
	ev = blk(10 * SEC, USBTRAIL_REC_BLK_COMPLETE, 20480, 4096);
	ev->u.rec.u.blk.error = -5;
	feed(d, &m, ev);
	ev = blk(10 * SEC + 400 * MS + 100000, USBTRAIL_REC_BLK_COMPLETE,
		 20480, 4096);
	ev->u.rec.u.blk.error = -5;
	feed(d, &m, ev);
	failed_write_log(d, &m, 10 * SEC + 400 * MS, true);
	derive_flush(d);

	assert_int_equal(count_kind(&out, CLASSIFY_SENSE), 1);
	assert_int_equal(count_kind(&out, CLASSIFY_IO_ERROR), 1);
	inc = find_kind(&out, CLASSIFY_IO_ERROR);
	assert_int_equal(inc->t_ns, 10 * SEC);
	inc = find_kind(&out, CLASSIFY_SENSE);
	assert_int_equal(inc->t_ns, 10 * SEC + 400 * MS);
	assert_int_equal(inc->u.incident.inc.suppressed, 2);
	out_free(&out);
	derive_free(d);
}

/*
 * A pass-through command that fails (smartctl's ATA PASS-THROUGH answered
 * ILLEGAL REQUEST by a driver with NO_ATA_1X) is its program's answer,
 * not an I/O error: by the module's op, and by tracefs's rwbs "N".  A
 * write that fails is one.
 */
static void test_io_error_passthrough(void **state)
{
	static const uint32_t ops[] = { 34, 35, ~0u };
	struct derive_opts o = DERIVE_OPTS_DEFAULT;
	struct out out = { .n = 0 };
	struct devmap m;
	struct derive *d = derive_new(&o, collect, &out);
	struct ev *ev;

	(void)state;
	devmap_init(&m);
	device(&m, "sda", 2, EV_DEVICE_PRESENT);
	for (unsigned int i = 0; i < 3; i++) {
		ev = blk(10 * SEC + i * SEC, USBTRAIL_REC_BLK_COMPLETE, ~0ull,
			 512);
		ev->u.rec.u.blk.op = ops[i];
		ev->u.rec.u.blk.error = -121;	/* BLK_STS_TARGET */
		feed(d, &m, ev);
	}
	ev = blk(20 * SEC, USBTRAIL_REC_BLK_COMPLETE, 20480, 4096);
	ev->u.rec.u.blk.error = -5;
	feed(d, &m, ev);
	derive_flush(d);
	assert_int_equal(count_kind(&out, CLASSIFY_IO_ERROR), 1);
	assert_int_equal(find_kind(&out, CLASSIFY_IO_ERROR)->t_ns, 20 * SEC);
	out_free(&out);
	derive_free(d);
}

/* Eight commands time out together: one timeout, eight commands. */
static void test_timeout_burst(void **state)
{
	struct derive_opts o = DERIVE_OPTS_DEFAULT;
	struct out out = { .n = 0 };
	struct devmap m;
	struct derive *d = derive_new(&o, collect, &out);
	const struct ev *inc;
	int i;

	(void)state;
	devmap_init(&m);
	device(&m, "sda", 2, EV_DEVICE_PRESENT);
	for (i = 0; i < 8; i++)
		feed(d, &m, scsi(20 * SEC + (uint64_t)i * 10000,
				 USBTRAIL_REC_SCSI_TIMEOUT, "sda"));
	feed(d, &m, klog(20 * SEC + 5 * MS,
		"sd 0:0:0:0: [sda] tag#9 uas_eh_abort_handler 0 uas-tag 8 inflight: CMD OUT "));
	derive_flush(d);
	assert_int_equal(count_kind(&out, CLASSIFY_TIMEOUT), 1);
	inc = find_kind(&out, CLASSIFY_TIMEOUT);
	assert_int_equal(inc->u.incident.inc.count, 8);
	assert_false(inc->u.incident.inc.inferred);
	assert_int_equal(inc->u.incident.inc.chain, 1);
	assert_int_equal(count_kind(&out, CLASSIFY_ABORT), 1);
	out_free(&out);
	derive_free(d);
}

/* A failing completion code is an xhci-error; the Stopped codes are not. */
static void test_xhci_codes(void **state)
{
	struct derive_opts o = DERIVE_OPTS_DEFAULT;
	struct out out = { .n = 0 };
	struct devmap m;
	struct derive *d = derive_new(&o, collect, &out);
	struct ev *ev;
	int i;

	(void)state;
	devmap_init(&m);
	for (i = 0; i < 5; i++) {	/* one per second at most */
		ev = trace(SEC + (uint64_t)i * MS, USBTRAIL_REC_XHCI_TRANSFER);
		ev->u.rec.u.xhci.cc = 6;	/* Stall Error */
		ev->u.rec.u.xhci.slot = 1;
		ev->u.rec.u.xhci.ep = 3;
		feed(d, &m, ev);
	}
	ev = trace(2 * SEC, USBTRAIL_REC_XHCI_TRANSFER);
	ev->u.rec.u.xhci.cc = 26;		/* Stopped: a cancelled URB */
	feed(d, &m, ev);
	/* Stopped - Short Packet: as normal as 26 and 27 */
	ev = trace(2 * SEC + MS, USBTRAIL_REC_XHCI_TRANSFER);
	ev->u.rec.u.xhci.cc = 28;
	ev->u.rec.u.xhci.slot = 2;
	feed(d, &m, ev);
	/* the ring stop that comes with a command abort is not an incident */
	ev = trace(2 * SEC + 2 * MS, USBTRAIL_REC_XHCI_COMMAND);
	ev->u.rec.u.xhci.cc = 24;
	feed(d, &m, ev);
	derive_flush(d);
	assert_int_equal(count_kind(&out, CLASSIFY_XHCI_ERROR), 1);
	assert_int_equal(find_kind(&out, CLASSIFY_XHCI_ERROR)->u.incident.inc.code,
			 6);
	out_free(&out);
	derive_free(d);
}

/*
 * data/xhci-cc.tsv against the xHCI 1.2 table and the kernel's
 * xhci_trb_comp_code_string(): what the report prints and derive reads.
 */
static void test_xhci_cc_table(void **state)
{
	static const unsigned int normal[] = { 0, 1, 13, 14, 15, 24, 26, 27,
					       28 };
	unsigned int cc, i, nerr = 0;

	(void)state;
	/* the kernel prints "Babble Detected"; only the spec adds "Error" */
	assert_string_equal(recording_cc_name(3), "Babble Detected");
	assert_string_equal(recording_cc_name(28), "Stopped - Short Packet");
	assert_string_equal(recording_cc_name(30), "?");	/* reserved */
	/* both ring codes: the ring was empty, not full */
	assert_non_null(strstr(recording_cc_meaning(15), "IN endpoint"));
	assert_non_null(strstr(recording_cc_meaning(15), "ring was empty"));
	assert_null(strstr(recording_cc_meaning(15), "full"));
	assert_non_null(strstr(recording_cc_meaning(14), "OUT endpoint"));
	assert_non_null(strstr(recording_cc_meaning(14), "ring was empty"));
	for (i = 0; i < sizeof(normal) / sizeof(normal[0]); i++) {
		assert_false(datatab_cc_error(normal[i]));
		assert_true(recording_cc_normal(normal[i]));
	}
	for (cc = 0; cc < 256; cc++)
		nerr += datatab_cc_error(cc);
	/* 36 codes defined but 30; 9 normal; the other 220 are errors */
	assert_int_equal(nerr, 256 - 9);
	assert_true(datatab_cc_error(4));	/* USB Transaction Error */
	assert_true(datatab_cc_error(25));	/* Command Aborted */
	assert_true(datatab_cc_error(192));	/* vendor defined: not known */
	for (i = 0; i < datatab_xhci_cc.nrows; i++) {
		const char *e = datatab_cell(&datatab_xhci_cc, i,
					     DATATAB_CC_ERROR);

		assert_true(!strcmp(e, "yes") || !strcmp(e, "no"));
	}
}

/*
 * Steady 40 MB/s writes, then 1 s at 10 MB/s with requests waiting: one
 * dip, at the right time, against the right median; samples throughout.
 */
static void test_dip(void **state)
{
	struct derive_opts o = DERIVE_OPTS_DEFAULT;
	struct out out = { .n = 0 };
	struct devmap m;
	struct derive *d = derive_new(&o, collect, &out);
	const struct ev *dip;
	uint64_t t, sector = 0;
	unsigned int i, samples = 0;

	(void)state;
	devmap_init(&m);
	device(&m, "sda", 2, EV_DEVICE_PRESENT);
	/* 4 MB per 100 ms = 40 MB/s for 3 s; then 1 MB per 100 ms for 1 s */
	for (t = 5 * SEC; t < 9 * SEC; t += 25 * MS) {
		bool slow = t >= 8 * SEC;
		uint32_t bytes = slow ? 250000 : 1000000;

		feed(d, &m, blk(t, USBTRAIL_REC_BLK_ISSUE, sector, bytes));
		feed(d, &m, blk(t + 20 * MS, USBTRAIL_REC_BLK_COMPLETE, sector,
				bytes));
		sector += 2048;
	}
	feed(d, &m, blk(9 * SEC + 20 * MS, USBTRAIL_REC_BLK_ISSUE, sector,
			1000000));
	feed(d, &m, blk(9 * SEC + 30 * MS, USBTRAIL_REC_BLK_COMPLETE, sector,
			1000000));
	derive_flush(d);
	assert_int_equal(count_kind(&out, CLASSIFY_DIP), 1);
	dip = find_kind(&out, CLASSIFY_DIP);
	assert_string_equal(dip->ident.disk, "sda");
	assert_true(dip->t_ns >= 8 * SEC - 100 * MS && dip->t_ns <= 8 * SEC + 100 * MS);
	assert_true(dip->u.incident.dip_median_mbps > 35 &&
		    dip->u.incident.dip_median_mbps < 45);
	assert_true(dip->u.incident.dip_mbps > 5 && dip->u.incident.dip_mbps < 15);
	assert_true(dip->u.incident.dip_secs > 0.8 && dip->u.incident.dip_secs < 1.2);
	for (i = 0; i < out.n; i++)
		if (out.ev[i]->type == EV_SAMPLE)
			samples++;
	assert_true(samples >= 38 && samples <= 42);
	out_free(&out);
	derive_free(d);
}

/*
 * A request issued twice (requeued after a reset) and completed once
 * leaves nothing in flight: an idle disk is not a stalled one.
 */
static void test_requeue_not_stalled(void **state)
{
	struct derive_opts o = DERIVE_OPTS_DEFAULT;
	struct out out = { .n = 0 };
	struct devmap m;
	struct derive *d = derive_new(&o, collect, &out);
	uint64_t t, sector = 0;
	unsigned int i, late = 0;

	(void)state;
	devmap_init(&m);
	for (t = SEC; t < 3 * SEC; t += 50 * MS) {
		feed(d, &m, blk(t, USBTRAIL_REC_BLK_ISSUE, sector, 1000000));
		feed(d, &m, blk(t + 5 * MS, USBTRAIL_REC_BLK_ISSUE, sector,
				1000000));
		feed(d, &m, blk(t + 10 * MS, USBTRAIL_REC_BLK_COMPLETE, sector,
				1000000));
		sector += 2048;
	}
	derive_advance(d, 10 * SEC);
	derive_flush(d);
	assert_int_equal(count_kind(&out, CLASSIFY_DIP), 0);
	for (i = 0; i < out.n; i++)
		if (out.ev[i]->type == EV_SAMPLE && out.ev[i]->t_ns > 3 * SEC + 100 * MS)
			late++;
	assert_int_equal(late, 0);
	out_free(&out);
	derive_free(d);
}

/* Unplugged and plugged back as sdb: the same entry, found by port. */
static void test_devmap_replug(void **state)
{
	struct devmap m;
	struct ev *ev;

	(void)state;
	devmap_init(&m);
	device(&m, "sda", 2, EV_DEVICE_PRESENT);
	device(&m, "sda", 2, EV_DEVICE_REMOVE);
	device(&m, "sdb", 3, EV_DEVICE_ADD);
	assert_int_equal(m.n, 1);
	assert_int_equal(m.e[0].plugs, 2);
	assert_string_equal(m.e[0].ident.disk, "sdb");

	ev = ev_new(EV_USBMON, EV_SRC_USBMON, 0);
	ev->ident.busnum = 2;
	ev->ident.devnum = 3;
	assert_true(devmap_resolve(&m, ev));
	assert_string_equal(ev->ident.disk, "sdb");
	assert_string_equal(ev->ident.usb, "2-1");
	ev_free(ev);
	assert_non_null(devmap_find_name(&m, "2-1"));
	assert_null(devmap_find_name(&m, "sdz"));
}

/* events.jsonl lines read back as they were written. */
static void test_evjson_roundtrip(void **state)
{
	struct ev *ev = scsi(12345678901ull, USBTRAIL_REC_SCSI_TIMEOUT, "sdc");
	struct evjson_writer *w = evjson_writer_new();
	struct ev back;
	const char *s;
	size_t n;

	(void)state;
	ev->id = 77;
	assert_int_equal(evjson_writer_line(w, ev, &s, &n), 0);
	assert_int_equal(evjson_parse_event(s, n, &back), 0);
	assert_int_equal(back.type, EV_TRACE);
	assert_int_equal(back.id, 77);
	assert_int_equal(back.t_ns, 12345678901ull);
	assert_memory_equal(&back.u.rec, &ev->u.rec, sizeof(ev->u.rec));
	assert_string_equal(back.ident.disk, "sdc");
	ev_free(ev);

	ev = klog(SEC, "usb 2-1: USB disconnect, device \"number\" 2\\");
	assert_int_equal(evjson_writer_line(w, ev, &s, &n), 0);
	assert_int_equal(evjson_parse_event(s, n, &back), 0);
	assert_string_equal(back.u.klog.text, ev->u.klog.text);
	ev_free(ev);

	/* control characters, bytes above ASCII, more than 512 bytes */
	ev = klog(SEC, "tab\there \x01 caf\xc3\xa9 \x7f");
	assert_int_equal(evjson_writer_line(w, ev, &s, &n), 0);
	assert_non_null(strstr(s, "tab\\there \\u0001"));
	assert_int_equal(strlen(s), n);
	assert_int_equal(evjson_parse_event(s, n, &back), 0);
	assert_string_equal(back.u.klog.text, ev->u.klog.text);
	memset(ev->u.klog.text, 'x', 700);
	ev->u.klog.text[700] = '\0';
	assert_int_equal(evjson_writer_line(w, ev, &s, &n), 0);
	assert_int_equal(evjson_parse_event(s, n, &back), 0);
	assert_string_equal(back.u.klog.text, ev->u.klog.text);
	ev_free(ev);

	/* URBs: an IN endpoint, a negative status */
	ev = ev_new(EV_USBMON, EV_SRC_USBMON, SEC);
	ev->u.usbmon.hdr.type = 'S';
	ev->u.usbmon.hdr.epnum = 0x81;
	ev->u.usbmon.hdr.status = -115;
	ev->u.usbmon.hdr.flag_setup = '-';
	assert_int_equal(evjson_writer_line(w, ev, &s, &n), 0);
	assert_non_null(strstr(s, "\"ep\":129,\"status\":-115,"));
	ev_free(ev);

	/* an incident: analyze's fields, the event's own, once each */
	ev = ev_new(EV_INCIDENT, EV_SRC_RECORDER, 2 * SEC);
	ev->id = 9;
	ev->u.incident.inc.kind = CLASSIFY_SENSE;
	ev->u.incident.inc.key = 2;
	ev->u.incident.inc.asc = 0x3a;
	ev->u.incident.inc.ascq = 0;
	ev->u.incident.inc.t = 2.0;
	ev->u.incident.inc.clock = KMSG_CLOCK_BOOT;
	snprintf(ev->ident.disk, sizeof(ev->ident.disk), "sdc");
	assert_int_equal(evjson_writer_line(w, ev, &s, &n), 0);
	assert_non_null(strstr(s, "\"kind\":\"sense\""));
	assert_null(strstr(strstr(s, "\"t\":") + 1, "\"t\":"));
	assert_int_equal(evjson_parse_event(s, n, &back), 0);
	assert_int_equal(back.type, EV_INCIDENT);
	assert_int_equal(back.u.incident.inc.asc, 0x3a);
	assert_int_equal(back.id, 9);
	ev_free(ev);

	/*
	 * A recorded incident reads back whole: written again, the same
	 * line (report over a recording shows what record saw); what was
	 * not known stays unknown, not 0
	 */
	ev = ev_new(EV_INCIDENT, EV_SRC_RECORDER, 3 * SEC);
	ev->id = 10;
	classify_incident_init(&ev->u.incident.inc, CLASSIFY_SENSE);
	{
		struct classify_incident *inc = &ev->u.incident.inc;
		char first[4096];

		inc->key = 2;
		inc->key_text = classify_sense_key_text(2);
		inc->asc = 0x3a;
		inc->ascq = 0;
		inc->t = 3.0;
		inc->clock = KMSG_CLOCK_BOOT;
		inc->host = 1;
		inc->line_first = 591;
		inc->line_last = 595;
		inc->nlines = 5;
		inc->sector = 20480;
		inc->blocks = 1024;
		inc->lost_blocks = 2;
		inc->lost_first = 19503;
		inc->suppressed = 54;
		inc->chain = 3;
		snprintf(inc->dev, sizeof(inc->dev), "sdc");
		snprintf(inc->hostbyte, sizeof(inc->hostbyte), "DID_OK");
		snprintf(inc->opcode_name, sizeof(inc->opcode_name),
			 "Write(10)");
		snprintf(inc->op, sizeof(inc->op), "WRITE");
		snprintf(inc->blk_status, sizeof(inc->blk_status), "I/O");
		snprintf(inc->part, sizeof(inc->part), "sdc1");
		snprintf(inc->row, sizeof(inc->row), "scsi-result");
		snprintf(inc->line, sizeof(inc->line), "sd 1:0:0:0: [sdc] x");
		snprintf(inc->asc_text, sizeof(inc->asc_text),
			 "Medium not present");
		ev->u.incident.opcode = 0x2a;
		ev->u.incident.lba = 20480;
		ev->u.incident.sense_len = 18;
		ev->u.incident.sense[0] = 0x70;
		ev->u.incident.evidence[0] = 5;
		ev->u.incident.nevidence = 1;
		snprintf(ev->ident.disk, sizeof(ev->ident.disk), "sdc");
		assert_int_equal(evjson_writer_line(w, ev, &s, &n), 0);
		assert_true(n < sizeof(first));
		memcpy(first, s, n + 1);
		assert_non_null(strstr(first, "\"info\":null"));
		assert_non_null(strstr(first, "\"lost_blocks\":2,"));
		assert_int_equal(evjson_parse_event(first, n, &back), 0);
		assert_int_equal(back.u.incident.inc.info, -1);
		assert_int_equal(back.u.incident.inc.lost_first, 19503);
		assert_int_equal(back.u.incident.inc.line_first, 591);
		assert_string_equal(back.u.incident.inc.hostbyte, "DID_OK");
		assert_string_equal(back.u.incident.inc.part, "sdc1");
		assert_int_equal(back.u.incident.lba, 20480);
		assert_int_equal(evjson_writer_line(w, &back, &s, &n), 0);
		assert_string_equal(s, first);
	}
	ev_free(ev);

	/* a reset's command is the event's (what the handler was started
	 * for), not the reset's own: read back so, its summary unchanged */
	ev = ev_new(EV_INCIDENT, EV_SRC_RECORDER, 4 * SEC);
	classify_incident_init(&ev->u.incident.inc, CLASSIFY_RESET);
	snprintf(ev->u.incident.inc.speed, sizeof(ev->u.incident.inc.speed),
		 "SuperSpeed");
	ev->u.incident.opcode = 0x2a;
	snprintf(ev->ident.disk, sizeof(ev->ident.disk), "sda");
	assert_int_equal(evjson_writer_line(w, ev, &s, &n), 0);
	assert_int_equal(evjson_parse_event(s, n, &back), 0);
	assert_int_equal(back.u.incident.opcode, 0x2a);
	assert_int_equal(back.u.incident.inc.opcode, -1);
	{
		char a[256], b[256];

		ev_incident_summary(ev, a, sizeof(a));
		ev_incident_summary(&back, b, sizeof(b));
		assert_string_equal(a, b);
		assert_string_equal(a, "reset speed=SuperSpeed on sda");
	}
	ev_free(ev);

	/* analyze's line: the same fields, with the incident's own t */
	{
		struct classify_incident inc;

		classify_incident_init(&inc, CLASSIFY_RESET);
		inc.t = 218.273966;
		inc.clock = KMSG_CLOCK_MONO;
		inc.devnum = 4;
		snprintf(inc.disk, sizeof(inc.disk), "sdc");
		snprintf(inc.speed, sizeof(inc.speed), "SuperSpeed");
		assert_int_equal(evjson_incident_line(w, &inc, &s, &n), 0);
		assert_non_null(strstr(s, "\"t\":218.273966,"));
		assert_non_null(strstr(s, "\"disk\":\"sdc\""));
		assert_non_null(strstr(s, "\"speed\":\"SuperSpeed\",\"devnum\":4"));
		inc.t = 0.0000004;
		assert_int_equal(evjson_incident_line(w, &inc, &s, &n), 0);
		assert_non_null(strstr(s, "\"t\":0.000000,"));
		inc.t = 12.9999996;
		assert_int_equal(evjson_incident_line(w, &inc, &s, &n), 0);
		assert_non_null(strstr(s, "\"t\":13.000000,"));
	}
	evjson_writer_free(w);
}

static void test_evjson_malformed(void **state)
{
	static const char *const bad[] = {
		"", "{", "[]", "42", "{\"type\":\"trace\"}",
		"{\"type\":\"trace\",\"t\":1,\"raw\":\"zz\"}",
		"{\"type\":\"trace\",\"t\":1,\"raw\":\"00\"}",
		"{\"type\":\"klog\",\"t\":-5,\"text\":\"x\"}",
		"{\"type\":\"nonsense\",\"t\":1}",
		"{\"type\":\"incident\",\"t\":1,\"kind\":\"bogus\"}",
		"{\"type\":\"device\",\"t\":1,\"action\":7}",
	};
	struct ev ev;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_not_equal(evjson_parse_event(bad[i], strlen(bad[i]),
							&ev), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sense_merged),
		cmocka_unit_test(test_sense_live),
		cmocka_unit_test(test_reset_span),
		cmocka_unit_test(test_sense_ratelimited),
		cmocka_unit_test(test_io_error_nearest),
		cmocka_unit_test(test_io_error_passthrough),
		cmocka_unit_test(test_sense_trace_only),
		cmocka_unit_test(test_timeout_burst),
		cmocka_unit_test(test_xhci_codes),
		cmocka_unit_test(test_xhci_cc_table),
		cmocka_unit_test(test_dip),
		cmocka_unit_test(test_requeue_not_stalled),
		cmocka_unit_test(test_devmap_replug),
		cmocka_unit_test(test_evjson_roundtrip),
		cmocka_unit_test(test_evjson_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
