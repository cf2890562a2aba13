// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_classify.c - unit tests of userspace/lib/classify.c over the real kernel
 * log excerpts of tests/fixtures/kmsg/ (each names its source) and lines
 * of the kernel's own formats: one incident per failed command with its
 * parts, chains, repeats, device attribution, the SCSI tables, and every
 * row of data/kmsg-formats.tsv mapping as it says.  The whole corpus of
 * real logs (tests/fixtures/logs/) is checked by tests/corpus/check.py.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "classify.h"
#include "evjson.h"
#include "kmsg.h"
#include "kmsgtab.h"
#include "report_advice.h"

#ifndef FIXTURES
#define FIXTURES "../tests/fixtures/kmsg"
#endif

#define MAX_INC	64

struct result {
	struct classify_incident inc[MAX_INC];
	int n;
};

static struct result res;

static void drain(struct classify *c)
{
	while (res.n < MAX_INC && classify_next(c, &res.inc[res.n]))
		res.n++;
	assert_true(res.n < MAX_INC);
}

/* Lines (one string, '\n' between them) through the stream and classifier */
static struct classify *run_text(const char *text)
{
	struct kmsg_stream *s = kmsg_stream_new();
	struct classify *c = classify_new();
	struct kmsg_record r;
	const char *p = text;

	assert_non_null(s);
	assert_non_null(c);
	memset(&res, 0, sizeof(res));
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		kmsg_stream_feed(s, p, len);
		while (kmsg_stream_next(s, &r)) {
			classify_feed(c, &r, r.lineno);
			drain(c);
		}
		p += len + (nl ? 1 : 0);
	}
	kmsg_stream_end(s);
	while (kmsg_stream_next(s, &r)) {
		classify_feed(c, &r, r.lineno);
		drain(c);
	}
	classify_end(c);
	drain(c);
	kmsg_stream_free(s);
	return c;
}

/* Classify fixture @name, as "usbtrail analyze" does. */
static void run(const char *name)
{
	char path[512], *text;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/%s", FIXTURES, name);
	f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	text = calloc(1, (size_t)n + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	classify_free(run_text(text));
	free(text);
}

/* The @nth (from 0) incident of @kind about @dev. */
static const struct classify_incident *find(enum classify_kind kind,
					    const char *dev, int nth)
{
	int i, want = nth;

	for (i = 0; i < res.n; i++)
		if (res.inc[i].kind == kind && !strcmp(res.inc[i].dev, dev) &&
		    nth-- == 0)
			return &res.inc[i];
	fail_msg("no %s incident #%d on '%s'", classify_kind_name(kind),
		 want, dev);
	return NULL;
}

static int count(enum classify_kind kind)
{
	int i, n = 0;

	for (i = 0; i < res.n; i++)
		n += res.inc[i].kind == kind;
	return n;
}

static void test_testbed(void **state)
{
	const struct classify_incident *s, *to, *ab, *rs, *ok;

	(void)state;
	run("testbed-uas-medium-stall.dmesg");
	/* the failed write: Result, sense, CDB, I/O error: one incident */
	assert_int_equal(count(CLASSIFY_SENSE), 1);
	assert_int_equal(count(CLASSIFY_IO_ERROR), 0);
	s = find(CLASSIFY_SENSE, "sda", 0);
	assert_int_equal(s->key, 2);
	assert_string_equal(s->key_text, "Not Ready");
	assert_int_equal(s->asc, 0x3a);
	assert_int_equal(s->ascq, 0);
	assert_string_equal(s->asc_text, "Medium not present");
	assert_int_equal(s->opcode, 0x2a);
	assert_string_equal(s->opcode_name, "Write(10)");
	assert_int_equal(s->lba, 10240);
	assert_int_equal(s->blocks, 1024);
	assert_int_equal(s->sector, 10240);
	assert_string_equal(s->op, "WRITE");
	assert_string_equal(s->blk_status, "I/O");
	assert_true(s->t > 9.6114 && s->t < 9.6115);
	assert_int_equal(s->line_last - s->line_first, 4);
	assert_int_equal(s->chain, 0);

	to = find(CLASSIFY_TIMEOUT, "sda", 0);
	assert_true(to->inferred);
	ab = find(CLASSIFY_ABORT, "sda", 1);
	assert_int_equal(ab->opcode, 0x2a);
	/* the SCSI handler's reset and the USB reset it did: one reset */
	assert_int_equal(count(CLASSIFY_RESET), 1);
	rs = find(CLASSIFY_RESET, "2-1", 0);
	assert_string_equal(rs->speed, "SuperSpeed");
	assert_int_equal(rs->devnum, 2);
	assert_string_equal(rs->disk, "sda");
	assert_int_equal(rs->host, 0);
	ok = find(CLASSIFY_RECOVERED, "host0", 0);
	assert_string_equal(ok->disk, "sda");
	assert_int_not_equal(to->chain, 0);
	assert_int_equal(ab->chain, to->chain);
	assert_int_equal(rs->chain, to->chain);
	assert_int_equal(ok->chain, to->chain);
	assert_string_equal(ok->line,
			    "scsi host0: uas_eh_device_reset_handler success");
	assert_int_equal(res.n, 6);
}

static void test_export(void **state)
{
	const struct classify_incident *s;

	(void)state;
	run("testbed-export.journal");
	assert_int_equal(res.n, 1);
	s = find(CLASSIFY_SENSE, "sda", 0);
	assert_int_equal(s->asc, 0x3a);
	assert_int_equal(s->sector, 10240);
}

static void test_hc_died(void **state)
{
	const struct classify_incident *to, *ab, *hc;

	(void)state;
	run("rpi-3404-hc-died.dmesg");
	/* "not responding, assume dead" and "HC died": one death */
	assert_int_equal(count(CLASSIFY_HC_DIED), 1);
	hc = find(CLASSIFY_HC_DIED, "0000:01:00.0", 0);
	assert_int_equal(hc->nlines, 3);
	find(CLASSIFY_XHCI_ERROR, "0000:01:00.0", 0);
	to = find(CLASSIFY_TIMEOUT, "sda", 0);
	ab = find(CLASSIFY_ABORT, "sda", 0);
	assert_int_equal(ab->chain, to->chain);
	assert_int_equal(find(CLASSIFY_DISCONNECT, "1-1.3", 0)->devnum, 3);
	find(CLASSIFY_DISCONNECT, "2-1", 0);
}

static void test_offline(void **state)
{
	const struct classify_incident *rs, *off;

	(void)state;
	run("asuswrt-379-offline.syslog");
	rs = find(CLASSIFY_RESET, "2-2", 1);
	assert_string_equal(rs->speed, "SuperSpeed");
	assert_int_equal(rs->clock, KMSG_CLOCK_WALL);
	/* "Device offlined" and the "rejecting I/O" after it: one offline,
	 * about sdd once a later line tied 0:0:0:0 to it */
	off = find(CLASSIFY_OFFLINE, "sdd", 0);
	assert_int_equal(count(CLASSIFY_OFFLINE), 1);
	assert_int_equal(off->count, 2);
	assert_string_equal(off->scsi, "0:0:0:0");
	/* DID_ABORT, CDB, I/O error, lost write: one failed command */
	assert_int_equal(find(CLASSIFY_IO_ERROR, "sdd", 0)->sector, 17803376);
	assert_string_equal(find(CLASSIFY_IO_ERROR, "sdd", 0)->hostbyte,
			    "DID_ABORT");
	assert_int_equal(find(CLASSIFY_IO_ERROR, "sdd", 0)->lost_blocks, 1);
	assert_int_equal(count(CLASSIFY_FS_ERROR), 0);
}

static void test_fs_error(void **state)
{
	(void)state;
	run("asahi-395-fs-error.journal");
	/* two disks named, 3:0:0:0 tied to neither */
	find(CLASSIFY_OFFLINE, "3:0:0:0", 0);
	/* the lost sync write is the same disk's: no command to join */
	find(CLASSIFY_FS_ERROR, "sda", 0);
	find(CLASSIFY_FS_ERROR, "sdc", 1);
	assert_int_equal(count(CLASSIFY_FS_ERROR), 4);
}

/* ZFS names its vdev by a path: a disk's, or a link's the log never ties */
static void test_fs_error_path(void **state)
{
	(void)state;
	classify_free(run_text(
		"[ 1.0] sd 6:0:0:0: [sdb] Attached SCSI disk\n"
		"[ 2.0] zio pool=p vdev=/dev/sdc1 error=5 type=1 "
		"offset=4000742645760 size=8192 flags=721601\n"
		"[ 3.0] zio pool=q vdev=/dev/disk/by-id/usb-X_Y-0:0-part1 "
		"error=5 type=2 offset=1 size=2 flags=3\n"));
	assert_int_equal(count(CLASSIFY_FS_ERROR), 2);
	find(CLASSIFY_FS_ERROR, "sdc", 0);
	/* not the disk attached before it */
	find(CLASSIFY_FS_ERROR, "", 0);
}

static void test_old_sense(void **state)
{
	const struct classify_incident *s;

	(void)state;
	run("plug-2005-old-sense.syslog");
	/* SCSI error, sense key, additional sense, end_request, Buffer I/O */
	assert_int_equal(res.n, 1);
	s = find(CLASSIFY_SENSE, "sda", 0);
	assert_int_equal(s->key, 4);
	assert_int_equal(s->asc, 0x4b);
	assert_int_equal(s->ascq, 0);
	assert_int_equal(s->sector, 62592);
	assert_int_equal(s->lost_blocks, 1);
	/* return code 0x08000002: driver byte 08, host byte 00 */
	assert_string_equal(s->hostbyte, "DID_OK");
	assert_string_equal(s->driverbyte, "DRIVER_SENSE");
}

static void test_old_plain(void **state)
{
	const struct classify_incident *io;

	(void)state;
	run("rhymingpanda-2006-lost-page.dmesg");
	io = find(CLASSIFY_IO_ERROR, "sdg", 0);
	assert_int_equal(io->sector, 172);
	assert_int_equal(io->clock, KMSG_CLOCK_NONE);
	assert_true(io->lost_blocks >= 1);
}

static void test_enum_failure(void **state)
{
	const struct classify_incident *e;

	(void)state;
	run("gamepad-enum-failure.syslog");
	/*
	 * One incident an attempt: device 28's descriptor read; device
	 * 30's address, and hub_port_connect() giving up after it
	 */
	assert_int_equal(res.n, 2);
	e = find(CLASSIFY_ENUM_FAILURE, "5-1", 0);
	assert_int_equal(e->err, 71);
	assert_int_equal(e->devnum, 28);
	assert_int_equal(e->nlines, 1);
	assert_true(e->t > 97408.23 && e->t < 97408.24);
	e = find(CLASSIFY_ENUM_FAILURE, "5-1", 1);
	assert_int_equal(e->err, 71);
	assert_int_equal(e->devnum, 30);
	assert_int_equal(e->count, 2);
	assert_int_equal(e->line_last, 7);

	/*
	 * "Cannot enable" ends an attempt (hub_port_reset() gave up, and
	 * hub_port_init() returns): four attempts with no device number
	 * between them, the power cycle and the give-up on the one before
	 * (raspberrypi/linux#4031), whether 1 s or 4 s apart
	 */
	classify_free(run_text(
		"[  237.460134] usb 1-1.3: new high-speed USB device number 23 using xhci_hcd\n"
		"[  238.410762] usb 1-1-port3: Cannot enable. Maybe the USB cable is bad?\n"
		"[  239.320708] usb 1-1-port3: Cannot enable. Maybe the USB cable is bad?\n"
		"[  239.321211] usb 1-1-port3: attempt power cycle\n"
		"[  240.580713] usb 1-1-port3: Cannot enable. Maybe the USB cable is bad?\n"
		"[  244.490802] usb 1-1-port3: Cannot enable. Maybe the USB cable is bad?\n"
		"[  244.491352] usb 1-1-port3: unable to enumerate USB device\n"));
	assert_int_equal(count(CLASSIFY_ENUM_FAILURE), 4);
	assert_int_equal(find(CLASSIFY_ENUM_FAILURE, "1-1.3", 0)->line_last, 2);
	assert_int_equal(find(CLASSIFY_ENUM_FAILURE, "1-1.3", 1)->line_last, 4);
	assert_int_equal(find(CLASSIFY_ENUM_FAILURE, "1-1.3", 2)->nlines, 1);
	e = find(CLASSIFY_ENUM_FAILURE, "1-1.3", 3);
	assert_int_equal(e->line_first, 6);
	assert_int_equal(e->line_last, 7);
}

/*
 * Pi 5, btrfs, a disconnect (raspberrypi/linux#6433): uas_zap_pending()
 * prints each command it gives back; tag#11's completion then prints its
 * Result and CDB again, and the block layer its sector: one command
 */
static void test_zap_reprint(void **state)
{
	const struct classify_incident *i;

	(void)state;
	classify_free(run_text(
		"[  438.976068] usb 3-2: USB disconnect, device number 2\n"
		"[  438.976293] sd 2:0:0:0: [sdc] tag#11 uas_zap_pending 0 uas-tag 1 inflight: CMD\n"
		"[  438.976299] sd 2:0:0:0: [sdc] tag#11 CDB: opcode=0x2a 2a 00 55 2f 28 00 00 04 00 00\n"
		"[  438.976305] sd 2:0:0:0: [sdc] tag#8 uas_zap_pending 0 uas-tag 2 inflight: CMD\n"
		"[  438.976308] sd 2:0:0:0: [sdc] tag#8 CDB: opcode=0x2a 2a 00 55 2f 2c 00 00 04 00 00\n"
		"[  438.976317] sd 2:0:0:0: [sdc] tag#11 UNKNOWN(0x2003) Result: hostbyte=0x01 driverbyte=DRIVER_OK cmd_age=0s\n"
		"[  438.976326] sd 2:0:0:0: [sdc] tag#10 uas_zap_pending 0 uas-tag 4 inflight: CMD\n"
		"[  438.976327] sd 2:0:0:0: [sdc] tag#11 CDB: opcode=0x2a 2a 00 55 2f 28 00 00 04 00 00\n"
		"[  438.976330] sd 2:0:0:0: [sdc] tag#10 CDB: opcode=0x2a 2a 00 55 2f 34 00 00 04 00 00\n"
		"[  438.976331] I/O error, dev sdc, sector 1429153792 op 0x1:(WRITE) flags 0x4000 phys_seg 32 prio class 2\n"));
	assert_int_equal(count(CLASSIFY_IO_ERROR), 3);
	i = find(CLASSIFY_IO_ERROR, "sdc", 0);
	assert_int_equal(i->nlines, 5);
	assert_int_equal(i->lba, 0x552f2800);
	assert_int_equal(i->sector, 0x552f2800);
	assert_string_equal(i->hostbyte, "DID_NO_CONNECT");
	/* tag#10 is at another LBA: the block layer's line is not its */
	i = find(CLASSIFY_IO_ERROR, "sdc", 2);
	assert_int_equal(i->lba, 0x552f3400);
	assert_int_equal(i->sector, -1);
}

/* A message repeated by one device or port is one incident, counted */
static void test_repeats(void **state)
{
	const struct classify_incident *i;

	(void)state;
	classify_free(run_text(
		"[ 67.945341] usb 2-1: UAS is ignored for this device, using usb-storage instead\n"
		"[ 67.945425] usb 2-1: UAS is ignored for this device, using usb-storage instead\n"
		"[ 90.000001] usb 5-1-port1: cannot reset (err = -71)\n"
		"[ 90.000010] usb 5-1-port1: cannot reset (err = -71)\n"
		"[ 90.000020] usb 5-1-port1: cannot reset (err = -71)\n"
		"[ 95.000000] usb 6-1: new high-speed USB device number 2 using xhci-hcd\n"
		"[ 100.100000] usb 6-1: device descriptor read/64, error -110\n"
		"[ 105.200000] usb 6-1: device descriptor read/64, error -110\n"
		"[ 105.400000] usb 6-1: reset high-speed USB device number 2 using xhci-hcd\n"
		"[ 110.500000] usb 6-1: device descriptor read/64, error -110\n"));
	i = find(CLASSIFY_UAS_IGNORED, "2-1", 0);
	assert_int_equal(i->count, 2);
	assert_int_equal(count(CLASSIFY_UAS_IGNORED), 1);
	i = find(CLASSIFY_RESET_FAILED, "5-1.1", 0);
	assert_int_equal(i->count, 3);
	assert_int_equal(count(CLASSIFY_RESET_FAILED), 1);
	/* two attempts: the reset starts the second */
	assert_int_equal(count(CLASSIFY_ENUM_FAILURE), 2);
	i = find(CLASSIFY_ENUM_FAILURE, "6-1", 0);
	assert_int_equal(i->count, 2);
	assert_int_equal(i->devnum, 2);
	assert_int_equal(find(CLASSIFY_ENUM_FAILURE, "6-1", 1)->nlines, 1);
	/* the address command's timeouts, 5 s apart (an ODROID-XU4's) */
	classify_free(run_text(
		"[   10.168152] xhci-hcd xhci-hcd.6.auto: Timeout while waiting for setup device command\n"
		"[   15.448138] xhci-hcd xhci-hcd.6.auto: Timeout while waiting for setup device command\n"
		"[   15.668116] usb 6-1: device not accepting address 2, error -62\n"
		"[   20.968142] xhci-hcd xhci-hcd.6.auto: Timeout while waiting for setup device command\n"));
	i = find(CLASSIFY_XHCI_ERROR, "xhci-hcd.6.auto", 0);
	assert_int_equal(i->count, 3);
	assert_int_equal(count(CLASSIFY_XHCI_ERROR), 1);
	/*
	 * A dock's LPM failures (U1, U2, SEL: one port's link) are one; a
	 * disconnect ends them, the device that comes back is another
	 */
	classify_free(run_text(
		"[ 10.000000] usb 4-2.3: Disable of device-initiated U1 failed.\n"
		"[ 10.000100] usb 4-2.3: Disable of device-initiated U2 failed.\n"
		"[ 10.500000] usb 4-2.3: USB disconnect, device number 7\n"
		"[ 11.000000] usb 4-2.3: new SuperSpeed USB device number 10 using xhci_hcd\n"
		"[ 11.200000] usb 4-2.3: Enable of device-initiated U1 failed.\n"
		"[ 11.207000] usb 4-2.3: Set SEL for device-initiated U2 failed.\n"));
	assert_int_equal(count(CLASSIFY_LINK_ERROR), 2);
	assert_int_equal(find(CLASSIFY_LINK_ERROR, "4-2.3", 0)->line_last, 2);
	assert_int_equal(find(CLASSIFY_LINK_ERROR, "4-2.3", 1)->count, 2);
	/* 2.4 printed a failed request twice (ll_rw_blk, scsi_lib) */
	classify_free(run_text(
		"/dev/scsi/host0/bus0/target0/lun0: I/O error: dev 08:00, sector 0\n"
		"I/O error: dev 08:00, sector 0\n"));
	assert_int_equal(count(CLASSIFY_IO_ERROR), 1);
	assert_int_equal(find(CLASSIFY_IO_ERROR, "sda", 0)->nlines, 2);
}

static void test_kernel_formats(void **state)
{
	const struct classify_incident *i;

	(void)state;
	run("kernel-formats.kmsg");
	find(CLASSIFY_OVER_CURRENT, "2-3", 0);
	find(CLASSIFY_UAS_IGNORED, "2-3", 0);
	assert_string_equal(find(CLASSIFY_RESET, "2-3", 0)->speed,
			    "high-speed");
	assert_int_equal(find(CLASSIFY_XHCI_ERROR, "0000:00:14.0", 0)->code,
			 -1);
	assert_int_equal(find(CLASSIFY_XHCI_ERROR, "0000:00:14.0", 1)->code,
			 26);
	/* DID_TIME_OUT with its sense: the timeout of one command */
	i = find(CLASSIFY_TIMEOUT, "sdc", 0);
	assert_false(i->inferred);
	assert_int_not_equal(i->chain, 0);
	assert_int_equal(i->key, 3);
	assert_int_equal(i->asc, 0x80);
	assert_int_equal(i->ascq, 0x03);
	assert_string_equal(i->hostbyte, "DID_TIME_OUT");
	/* the rate limit's line came before it: part of it */
	assert_int_equal(i->suppressed, 7);
	assert_true(i->t > 54.99999 && i->t < 55.00001);
	find(CLASSIFY_DISCONNECT, "2-3", 0);
	find(CLASSIFY_FS_ERROR, "sdc", 0);
}

static void test_tables(void **state)
{
	int asc = -1, ascq = -1;

	(void)state;
	assert_int_equal(classify_asc_lookup("medium NOT present", &asc, &ascq),
			 0);
	assert_int_equal(asc, 0x3a);
	assert_int_equal(classify_asc_lookup("Power on, reset, or bus device "
					     "reset occurred", &asc, &ascq), 0);
	assert_int_equal(asc, 0x29);
	/* the example: not 04/00, but 3E/02 */
	assert_int_equal(classify_asc_lookup("Timeout on logical unit", &asc,
					     &ascq), 0);
	assert_int_equal(asc, 0x3e);
	assert_int_equal(ascq, 0x02);
	/* a family: the ASCQ from the kernel's "(%x)" */
	assert_int_equal(classify_asc_lookup("Diagnostic failure on "
					     "component(85)", &asc, &ascq), 0);
	assert_int_equal(asc, 0x40);
	assert_int_equal(ascq, 0x85);
	assert_int_equal(classify_asc_lookup("Ram failure", &asc, &ascq), 0);
	assert_int_equal(ascq, -1);
	/* "Obsolete" names three codes: none */
	assert_int_equal(classify_asc_lookup("Obsolete", &asc, &ascq), -ENOENT);
	assert_int_equal(classify_asc_lookup("nonsense", &asc, &ascq),
			 -ENOENT);
	/* every code's text names that code, and back, but "Obsolete" */
	for (asc = 0; asc < 0x80; asc++) {
		for (ascq = 0; ascq < 0x80; ascq++) {
			const char *t = classify_asc_text(asc, ascq);
			int a = -1, q = -1;

			if (!t || !strcmp(t, "Obsolete"))
				continue;
			assert_int_equal(classify_asc_lookup(t, &a, &q), 0);
			assert_string_equal(classify_asc_text(a, q >= 0 ? q :
							      ascq), t);
		}
	}
	assert_string_equal(classify_asc_text(0x11, 0x04),
			    "Unrecovered read error - auto reallocate failed");
	assert_string_equal(classify_asc_text(0x26, 0x12),
			    "Vendor specific key reference not found");
	assert_null(classify_asc_text(0x85, 0x02));
	assert_null(classify_asc_text(0x11, 0x85));
	assert_null(classify_sense_key_text(16));
	assert_string_equal(classify_sense_key_text(6), "Unit Attention");
	assert_string_equal(classify_sense_key_text(9), "Vendor Specific(9)");
	assert_false(classify_sense_key_fails(1));
	assert_true(classify_sense_key_fails(3));
	assert_string_equal(classify_kind_name(CLASSIFY_KIND_COUNT), "unknown");
	assert_int_equal(classify_kind_of("reset-failed"), CLASSIFY_RESET_FAILED);
}

/* What the issue found wrong, line by line */
static void test_sense_decoding(void **state)
{
	struct classify *c;

	(void)state;
	/* the hex form is decoded; an unknown pair stays unknown */
	c = run_text("[ 1.0] sd 0:0:0:0: [sdb] tag#0 FAILED Result: hostbyte=DID_OK "
		     "driverbyte=DRIVER_OK cmd_age=0s\n"
		     "[ 1.0] sd 0:0:0:0: [sdb] tag#0 Sense Key : Medium Error [current]\n"
		     "[ 1.0] sd 0:0:0:0: [sdb] tag#0 Add. Sense: ASC=0x11 ASCQ=0x4\n"
		     "[ 5.0] sd 0:0:0:0: [sdb] tag#0 FAILED Result: hostbyte=DID_OK "
		     "driverbyte=DRIVER_OK cmd_age=0s\n"
		     "[ 5.0] sd 0:0:0:0: [sdb] tag#0 Sense Key : Vendor Specific(9) [current]\n"
		     "[ 5.0] sd 0:0:0:0: [sdb] tag#0 Add. Sense: <<vendor>>ASC=0x85 ASCQ=0x2\n"
		     "[ 9.0] sd 0:0:0:0: [sdb] tag#0 Sense Key : Not Ready [current]\n"
		     "[ 9.0] sd 0:0:0:0: [sdb] tag#0 Add. Sense: Timeout on logical unit\n");
	classify_free(c);
	assert_int_equal(res.n, 3);
	assert_int_equal(res.inc[0].key, 3);
	assert_int_equal(res.inc[0].asc, 0x11);
	assert_int_equal(res.inc[0].ascq, 0x04);
	assert_string_equal(res.inc[0].asc_text,
			    "Unrecovered read error - auto reallocate failed");
	assert_int_equal(res.inc[1].key, 9);
	assert_non_null(res.inc[1].key_text);
	assert_int_equal(res.inc[1].asc, 0x85);
	assert_string_equal(res.inc[1].asc_text, "<<vendor>>ASC=0x85 ASCQ=0x2");
	assert_int_equal(res.inc[2].asc, 0x3e);
	assert_int_equal(res.inc[2].ascq, 0x02);
	/* smartctl's ATA PASS-THROUGH: no incident */
	c = run_text("[ 1.0] sd 0:0:0:0: [sdb] tag#0 FAILED Result: hostbyte=DID_OK "
		     "driverbyte=DRIVER_OK cmd_age=0s\n"
		     "[ 1.0] sd 0:0:0:0: [sdb] tag#0 Sense Key : Recovered Error [current]\n"
		     "[ 1.0] sd 0:0:0:0: [sdb] tag#0 Add. Sense: ATA pass through "
		     "information available\n"
		     "[ 1.0] sd 0:0:0:0: [sdb] tag#0 CDB: ATA command pass through(16) "
		     "85 06 2c 00 00 00 00 00 00 00 00 00 00 00 e5 00\n"
		     "[ 2.0] sd 0:0:0:0: [sdb] tag#0 FAILED Result: hostbyte=DID_OK "
		     "driverbyte=DRIVER_OK cmd_age=0s\n"
		     "[ 2.0] sd 0:0:0:0: [sdb] tag#0 Sense Key : Illegal Request [current]\n"
		     "[ 2.0] sd 0:0:0:0: [sdb] tag#0 Add. Sense: Invalid field in cdb\n"
		     "[ 2.0] sd 0:0:0:0: [sdb] tag#0 CDB: ATA command pass through(12)/"
		     "Blank a1 08 2e 00 01 00 00 00 00 ec 00 00\n");
	assert_int_equal(res.n, 0);
	assert_int_equal(classify_stats(c)->pass_through, 2);
	classify_free(c);
	/* a benign FAT warning is no incident, a FAT error is */
	c = run_text("[ 1.0] FAT-fs (sdc1): utf8 is not a recommended IO charset "
		     "for FAT filesystems, filesystem will be case sensitive!\n"
		     "[ 1.1] FAT-fs (sdc1): Volume was not properly unmounted. Some "
		     "data may be corrupt. Please run fsck.\n"
		     "[ 9.0] FAT-fs (sdc1): Directory bread(block 32768) failed\n");
	classify_free(c);
	assert_int_equal(res.n, 1);
	assert_string_equal(res.inc[0].dev, "sdc");
	assert_string_equal(res.inc[0].part, "");
}

/* A 16-byte CDB's 8-byte LBA, also one a garbled line gives the top bit */
static void test_cdb_lba_16(void **state)
{
	struct classify *c;

	(void)state;
	c = run_text("[ 40.0] sd 0:0:0:0: [sda] tag#1 uas_eh_abort_handler 0 "
		     "uas-tag 2 inflight: CMD IN\n"
		     "[ 40.0] sd 0:0:0:0: [sda] tag#1 CDB: Read(16) 88 00 00 00 "
		     "00 01 00 00 08 00 00 00 00 08 00 00\n"
		     "[ 50.0] sd 0:0:0:0: [sdb] tag#2 uas_eh_abort_handler 0 "
		     "uas-tag 3 inflight: CMD IN\n"
		     "[ 50.0] sd 0:0:0:0: [sdb] tag#2 CDB: Read(16) 88 00 80 00 "
		     "00 00 00 00 08 00 00 00 00 08 00 00\n");
	classify_free(c);
	assert_int_equal(count(CLASSIFY_ABORT), 2);
	assert_int_equal(find(CLASSIFY_ABORT, "sda", 0)->lba, 0x100000800LL);
	assert_int_equal(find(CLASSIFY_ABORT, "sda", 0)->blocks, 8);
	assert_int_equal((uint64_t)find(CLASSIFY_ABORT, "sdb", 0)->lba,
			 0x8000000000000800ULL);
}

static void test_timeouts(void **state)
{
	struct classify *c;

	(void)state;
	/* an inferred timeout and the later DID_TIME_OUT of the command */
	c = run_text("[ 40.0] sd 0:0:0:0: [sda] tag#1 uas_eh_abort_handler 0 "
		     "uas-tag 2 inflight: CMD OUT\n"
		     "[ 40.0] sd 0:0:0:0: [sda] tag#1 CDB: Write(10) 2a 00 00 01 04 "
		     "00 00 04 00 00\n"
		     "[ 40.1] scsi host0: uas_eh_device_reset_handler start\n"
		     "[ 44.0] usb 2-1: reset SuperSpeed USB device number 2 using "
		     "xhci_hcd\n"
		     "[ 44.1] scsi host0: uas_eh_device_reset_handler success\n"
		     "[ 44.2] sd 0:0:0:0: [sda] tag#1 FAILED Result: hostbyte="
		     "DID_TIME_OUT driverbyte=DRIVER_OK cmd_age=34s\n"
		     "[ 44.2] sd 0:0:0:0: [sda] tag#1 CDB: Write(10) 2a 00 00 01 04 "
		     "00 00 04 00 00\n"
		     "[ 44.2] I/O error, dev sda, sector 66560 op 0x1:(WRITE) flags "
		     "0x0 phys_seg 128 prio class 2\n");
	classify_free(c);
	assert_int_equal(count(CLASSIFY_TIMEOUT), 1);
	assert_false(find(CLASSIFY_TIMEOUT, "sda", 0)->inferred);
	assert_int_equal(find(CLASSIFY_TIMEOUT, "sda", 0)->sector, 66560);
	assert_int_equal(count(CLASSIFY_ABORT), 1);
	assert_int_equal(count(CLASSIFY_RESET), 1);
	assert_int_equal(count(CLASSIFY_RECOVERED), 1);
	assert_int_equal(count(CLASSIFY_IO_ERROR), 0);
	/* aborts seconds apart are two timeouts of one chain; 7.x's name */
	c = run_text("[ 10.0] sd 0:0:0:0: [sda] tag#1 uas_eh_abort_handler 0 "
		     "uas-tag 2 inflight: CMD\n"
		     "[ 10.0] sd 0:0:0:0: [sda] tag#2 uas_eh_abort_handler 0 "
		     "uas-tag 3 inflight: CMD\n"
		     "[ 40.0] sd 0:0:0:0: [sda] tag#3 uas_eh_abort_handler 0 "
		     "uas-tag 4 inflight: CMD\n"
		     "[ 40.1] scsi host0: uas_eh_host_reset_handler start\n"
		     "[ 40.2] scsi host0: uas_eh_host_reset_handler FAILED err -19\n"
		     "[ 40.3] sd 0:0:0:0: Device offlined - not ready after error "
		     "recovery\n"
		     "[ 40.3] sd 0:0:0:0: rejecting I/O to offline device\n"
		     "[ 40.3] sd 0:0:0:0: rejecting I/O to offline device\n");
	classify_free(c);
	assert_int_equal(count(CLASSIFY_TIMEOUT), 2);
	assert_int_equal(count(CLASSIFY_ABORT), 3);
	assert_int_equal(count(CLASSIFY_RESET), 1);
	assert_int_equal(find(CLASSIFY_RESET, "host0", 0)->disk[0], 's');
	assert_int_equal(count(CLASSIFY_RESET_FAILED), 1);
	assert_int_equal(count(CLASSIFY_OFFLINE), 1);
	assert_int_equal(find(CLASSIFY_OFFLINE, "sda", 0)->count, 3);
	assert_int_equal(find(CLASSIFY_OFFLINE, "sda", 0)->chain,
			 find(CLASSIFY_TIMEOUT, "sda", 1)->chain);
	/*
	 * A reset, then its command's DID_TIME_OUT, every 31 s: three
	 * timeouts, each with its sector, not one of three commands (a
	 * mainline sm7150 kernel, hostbyte in hex)
	 */
	c = run_text("[52249.339219] usb 1-1: reset high-speed USB device number 2 using xhci-hcd\n"
		     "[52253.096224] sd 1:0:0:0: [sdg] tag#0 UNKNOWN(0x2003) Result: hostbyte=0x03 driverbyte=DRIVER_OK cmd_age=33s\n"
		     "[52253.096265] I/O error, dev sdg, sector 81243584 op 0x0:(READ) flags 0x80700 phys_seg 1 prio class 2\n"
		     "[52283.642192] usb 1-1: reset high-speed USB device number 2 using xhci-hcd\n"
		     "[52284.425439] sd 1:0:0:0: [sdg] tag#0 UNKNOWN(0x2003) Result: hostbyte=0x03 driverbyte=DRIVER_OK cmd_age=31s\n"
		     "[52284.425480] I/O error, dev sdg, sector 578702336 op 0x0:(READ) flags 0x84700 phys_seg 30 prio class 2\n"
		     "[52314.874102] usb 1-1: reset high-speed USB device number 2 using xhci-hcd\n"
		     "[52315.643895] sd 1:0:0:0: [sdg] tag#0 UNKNOWN(0x2003) Result: hostbyte=0x03 driverbyte=DRIVER_OK cmd_age=31s\n"
		     "[52315.643930] I/O error, dev sdg, sector 978447616 op 0x0:(READ) flags 0x80700 phys_seg 4 prio class 2\n");
	classify_free(c);
	assert_int_equal(count(CLASSIFY_TIMEOUT), 3);
	assert_int_equal(find(CLASSIFY_TIMEOUT, "sdg", 0)->sector, 81243584);
	assert_int_equal(find(CLASSIFY_TIMEOUT, "sdg", 1)->sector, 578702336);
	assert_int_equal(find(CLASSIFY_TIMEOUT, "sdg", 2)->sector, 978447616);
	assert_int_equal(count(CLASSIFY_IO_ERROR), 0);
}

/* The device a line names goes to the lines that do not name it. */
static void test_attribution(void **state)
{
	struct classify *c;
	const struct classify_device *d;
	unsigned int n;

	(void)state;
	/* 3.x: the prefix alone, the text on the next line */
	c = run_text("[ 20.647935] sd 5:0:0:0: [sdb]  \n"
		     "[ 20.647936] Result: hostbyte=DID_OK driverbyte=DRIVER_SENSE\n"
		     "[ 20.647937] sd 5:0:0:0: [sdb]  \n"
		     "[ 20.647938] Sense Key : Medium Error [current] [descriptor]\n"
		     "[ 20.647944] sd 5:0:0:0: [sdb]  \n"
		     "[ 20.647945] Add. Sense: Unrecovered read error\n"
		     "[ 20.647946] sd 5:0:0:0: [sdb] CDB: \n"
		     "[ 20.647948] Read(10): 28 00 00 1c 28 40 00 00 08 00\n");
	classify_free(c);
	assert_int_equal(res.n, 1);
	assert_string_equal(res.inc[0].dev, "sdb");
	assert_int_equal(res.inc[0].key, 3);
	assert_int_equal(res.inc[0].asc, 0x11);
	assert_int_equal(res.inc[0].lba, 0x1c2840);
	assert_int_equal(res.inc[0].line_first, 1);
	/* a hub's port; a root port; the device summary */
	c = run_text("[ 1.0] usb 2-1: new SuperSpeed USB device number 2 using "
		     "xhci_hcd\n"
		     "[ 1.1] usb 2-1: New USB device found, idVendor=174c, "
		     "idProduct=55aa, bcdDevice= 1.00\n"
		     "[ 1.1] usb 2-1: Product: ASM1153E\n"
		     "[ 1.2] scsi host0: uas\n"
		     "[ 1.3] scsi 0:0:0:0: Direct-Access     Samsung  SSD 860 EVO "
		     "500G 0    PQ: 0 ANSI: 6\n"
		     "[ 1.4] sd 0:0:0:0: [sda] 976773168 512-byte logical blocks: "
		     "(500 GB/466 GiB)\n"
		     "[ 9.0] hub 1-0:1.0: unable to enumerate USB device on port 3\n"
		     "[ 9.5] usb usb1-port4: over-current condition\n"
		     "[ 9.6] usb 1-1-port2: over-current change #7\n"
		     "[20.0] scsi host0: uas_eh_device_reset_handler start\n");
	d = classify_devices(c, &n);
	assert_int_equal(n, 1);
	assert_string_equal(d[0].usb, "2-1");
	assert_int_equal(d[0].vid, 0x174c);
	assert_int_equal(d[0].pid, 0x55aa);
	assert_string_equal(d[0].driver, "uas");
	assert_string_equal(d[0].disk, "sda");
	assert_true(fabs(d[0].speed_mbps - 5000) < 1);
	assert_string_equal(d[0].size, "500 GB");
	assert_int_equal(d[0].incidents, 1);
	classify_free(c);
	find(CLASSIFY_ENUM_FAILURE, "1-3", 0);
	find(CLASSIFY_OVER_CURRENT, "1-4", 0);
	find(CLASSIFY_OVER_CURRENT, "1-1.2", 0);
	assert_string_equal(find(CLASSIFY_RESET, "host0", 0)->disk, "sda");
	assert_string_equal(find(CLASSIFY_RESET, "host0", 0)->usb, "2-1");
	/*
	 * Two enclosures enumerated together (the test bed's console,
	 * 6.1): usb-storage names its device, "scsi host1: uas" does not;
	 * it is the other one, announced first, not the last announced
	 * (which usb-storage took).  A replug announces it again.
	 */
	c = run_text("[ 5.95] usb 2-1: new SuperSpeed USB device number 2 using "
		     "xhci_hcd\n"
		     "[ 5.98] usb 2-1: New USB device found, idVendor=46f4, "
		     "idProduct=0003, bcdDevice= 0.00\n"
		     "[ 6.14] usb 2-2: new SuperSpeed USB device number 3 using "
		     "xhci_hcd\n"
		     "[ 6.16] usb 2-2: New USB device found, idVendor=46f4, "
		     "idProduct=0001, bcdDevice= 0.00\n"
		     "[ 7.14] usb-storage 2-2:1.0: USB Mass Storage device "
		     "detected\n"
		     "[ 7.15] scsi host0: usb-storage 2-2:1.0\n"
		     "[ 7.29] scsi host1: uas\n"
		     "[ 7.35] sd 1:0:0:0: [sda] 2097152 512-byte logical blocks: "
		     "(1.07 GB/1.00 GiB)\n"
		     "[ 8.19] sd 0:0:0:0: [sdb] 2097152 512-byte logical blocks: "
		     "(1.07 GB/1.00 GiB)\n"
		     "[ 9.00] usb 2-1: USB disconnect, device number 2\n"
		     "[12.00] usb 2-1: new SuperSpeed USB device number 4 using "
		     "xhci_hcd\n"
		     "[12.10] scsi host2: uas\n"
		     "[12.20] sd 2:0:0:0: [sdc] 2097152 512-byte logical blocks: "
		     "(1.07 GB/1.00 GiB)\n");
	d = classify_devices(c, &n);
	assert_int_equal(n, 2);
	assert_string_equal(d[0].usb, "2-1");
	assert_int_equal(d[0].pid, 0x0003);
	assert_string_equal(d[0].driver, "uas");
	assert_int_equal(d[0].host, 2);
	assert_string_equal(d[0].disk, "sdc");
	assert_string_equal(d[1].usb, "2-2");
	assert_int_equal(d[1].pid, 0x0001);
	assert_string_equal(d[1].driver, "usb-storage");
	assert_int_equal(d[1].host, 0);
	assert_string_equal(d[1].disk, "sdb");
	classify_free(c);
	/*
	 * The other order (the test bed's console, 6.1, 55-arm64-same in a
	 * CI run): "scsi host0: uas" comes after the second device's
	 * announcement but before usb-storage claims it, and the uas disk
	 * attaches before that too.  The claim takes the second device
	 * back; host0 and sda are the first's.
	 */
	c = run_text("[ 3.037] usb 2-1: new SuperSpeed USB device number 2 "
		     "using xhci_hcd\n"
		     "[ 3.058] usb 2-1: New USB device found, idVendor=46f4, "
		     "idProduct=0003, bcdDevice= 0.00\n"
		     "[ 3.167] usbcore: registered new interface driver "
		     "usb-storage\n"
		     "[ 3.196] usb 2-2: new SuperSpeed USB device number 3 "
		     "using xhci_hcd\n"
		     "[ 3.209] scsi host0: uas\n"
		     "[ 3.220] usb 2-2: New USB device found, idVendor=46f4, "
		     "idProduct=0001, bcdDevice= 0.00\n"
		     "[ 3.221] scsi 0:0:0:0: Direct-Access     QEMU     QEMU "
		     "HARDDISK    2.5+ PQ: 0 ANSI: 5\n"
		     "[ 3.224] usb-storage 2-2:1.0: USB Mass Storage device "
		     "detected\n"
		     "[ 3.233] sd 0:0:0:0: [sda] 2097152 512-byte logical "
		     "blocks: (1.07 GB/1.00 GiB)\n"
		     "[ 3.236] scsi host1: usb-storage 2-2:1.0\n"
		     "[ 4.270] sd 1:0:0:0: [sdb] 2097152 512-byte logical "
		     "blocks: (1.07 GB/1.00 GiB)\n");
	d = classify_devices(c, &n);
	assert_int_equal(n, 2);
	assert_string_equal(d[0].usb, "2-1");
	assert_string_equal(d[0].driver, "uas");
	assert_int_equal(d[0].host, 0);
	assert_string_equal(d[0].disk, "sda");
	assert_string_equal(d[0].size, "1.07 GB");
	assert_string_equal(d[1].usb, "2-2");
	assert_string_equal(d[1].driver, "usb-storage");
	assert_int_equal(d[1].host, 1);
	assert_string_equal(d[1].disk, "sdb");
	classify_free(c);
}

/* "%.4s" of four blanks: the revision a JMicron bridge left empty */
static void test_blank_field(void **state)
{
	static const char line[] = "Direct-Access     Jmicron  Corp.       "
				   "          PQ: 0 ANSI: 2 CCS";
	struct kmsgtab_match m;
	const struct kmsgtab_row *r;
	size_t len = 0;
	const char *v;

	(void)state;
	r = kmsgtab_match(line, strlen(line), KMSGTAB_WHO_SCSI, &m);
	assert_non_null(r);
	assert_string_equal(r->id, "scsi-dev-scsi");
	v = kmsgtab_value(&m, KMSGTAB_F_VENDOR, &len);
	assert_non_null(v);
	assert_true(len >= 7 && !strncmp(v, "Jmicron", 7));
	v = kmsgtab_value(&m, KMSGTAB_F_MODEL, &len);
	assert_non_null(v);
	assert_true(len >= 5 && !strncmp(v, "Corp.", 5));
}

/* Every row's test line is that row's, and maps as the row says. */
static void test_table_rows(void **state)
{
	const struct kmsgtab_row *rows;
	unsigned int n, i;

	(void)state;
	rows = kmsgtab_rows(&n);
	if (!rows)
		fail_msg("%s", kmsgtab_error());
	assert_true(n > 500);
	for (i = 0; i < n; i++) {
		const struct kmsgtab_row *r = &rows[i];
		struct classify *c;
		char line[2048];
		const char *got;

		snprintf(line, sizeof(line), "[ 1.000000] %s", r->test);
		c = run_text(line);
		got = classify_last_row(c);
		if (!got || strcmp(got, r->id))
			fail_msg("row %s: its test line '%s' is row %s", r->id,
				 r->test, got ? got : "none");
		if (r->role == KMSGTAB_NONE && res.n)
			fail_msg("row %s is none, its test line gave %s",
				 r->id, classify_kind_name(res.inc[0].kind));
		if (r->role == KMSGTAB_INCIDENT && r->kind != CLASSIFY_IO_ERROR &&
		    r->kind != CLASSIFY_LINK_ERROR && r->kind != CLASSIFY_SENSE &&
		    r->kind != CLASSIFY_TIMEOUT && r->kind != CLASSIFY_ABORT &&
		    (res.n != 1 || res.inc[0].kind != r->kind))
			fail_msg("row %s: its test line gave %d incidents, "
				 "the first %s, not %s", r->id, res.n,
				 res.n ? classify_kind_name(res.inc[0].kind) : "-",
				 classify_kind_name(r->kind));
		classify_free(c);
	}
}

/*
 * classify.h's table of kinds is the one place that says what a kind
 * carries: the JSON writer writes exactly those fields, the text shows
 * them, every kind has advice and its name reads back.
 */
static void test_kind_table(void **state)
{
	static const struct {
		unsigned int carries;
		const char *json, *text;
	} fields[] = {
		{ CLASSIFY_C_SENSE, "\"key\":", "key=3" },
		{ CLASSIFY_C_INFO, "\"info\":", NULL },
		{ CLASSIFY_C_COMMANDS, "\"commands\":", "commands=2" },
		{ CLASSIFY_C_CMD, "\"hostbyte\":", NULL },
		{ CLASSIFY_C_CMD | CLASSIFY_C_OPCODE, "\"opcode\":", NULL },
		{ CLASSIFY_C_SPEED, "\"speed\":", "speed=high-speed" },
		{ CLASSIFY_C_ERRNO, "\"errno\":", "errno=71" },
		{ CLASSIFY_C_DEVNUM, "\"devnum\":", "devnum=3" },
		{ CLASSIFY_C_PORT, "\"port\":", NULL },
		{ CLASSIFY_C_CODE, "\"code\":", "code=4" },
		{ CLASSIFY_C_REPEATS | CLASSIFY_C_TALLY, "\"count\":", NULL },
		{ CLASSIFY_C_REPEATS, NULL, "(2 times)" },
		{ CLASSIFY_C_TALLY, NULL, "count=2" },
		{ CLASSIFY_C_CMD | CLASSIFY_C_LOST, "\"lost_first_block\":", NULL },
	};
	struct evjson_writer *w = evjson_writer_new();
	unsigned int k, i;

	(void)state;
	assert_non_null(w);
	for (k = 0; k < CLASSIFY_KIND_COUNT; k++) {
		unsigned int carries = classify_kind_carries(k);
		struct classify_incident inc;
		char text[512], *json;
		const char *line;
		size_t len;

		classify_incident_init(&inc, k);
		strcpy(inc.dev, "sdc");
		inc.key = 3;
		inc.asc = 0x11;
		inc.ascq = 0;
		inc.info = 7;
		inc.opcode = 0x2a;
		inc.lba = 8;
		strcpy(inc.speed, "high-speed");
		inc.devnum = 3;
		inc.port = 2;
		inc.err = 71;
		inc.code = 4;
		inc.count = 2;
		strcpy(inc.part, "sdc1");
		inc.lost_blocks = 2;
		assert_int_equal(evjson_incident_line(w, &inc, &line, &len), 0);
		json = strndup(line, len);
		assert_non_null(json);
		classify_details(&inc, text, sizeof(text));
		for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
			bool has = carries & fields[i].carries;

			if (fields[i].json && has != !!strstr(json, fields[i].json))
				fail_msg("%s: %s %s", classify_kind_name(k),
					 fields[i].json,
					 has ? "missing" : "not carried");
			if (fields[i].text && has != !!strstr(text, fields[i].text))
				fail_msg("%s: \"%s\" %s in \"%s\"",
					 classify_kind_name(k), fields[i].text,
					 has ? "missing" : "not carried", text);
		}
		free(json);
		assert_int_equal(classify_kind_of(classify_kind_name(k)), k);
		assert_non_null(report_advice_get(report_advice_of(&inc)));
	}
	assert_int_equal(classify_kind_of("no-such-kind"), CLASSIFY_KIND_COUNT);
	assert_int_equal(classify_kind_carries(CLASSIFY_KIND_COUNT), 0);
	evjson_writer_free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_testbed),
		cmocka_unit_test(test_export),
		cmocka_unit_test(test_hc_died),
		cmocka_unit_test(test_offline),
		cmocka_unit_test(test_fs_error),
		cmocka_unit_test(test_fs_error_path),
		cmocka_unit_test(test_old_sense),
		cmocka_unit_test(test_old_plain),
		cmocka_unit_test(test_enum_failure),
		cmocka_unit_test(test_repeats),
		cmocka_unit_test(test_zap_reprint),
		cmocka_unit_test(test_kernel_formats),
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_sense_decoding),
		cmocka_unit_test(test_cdb_lba_16),
		cmocka_unit_test(test_timeouts),
		cmocka_unit_test(test_attribution),
		cmocka_unit_test(test_blank_field),
		cmocka_unit_test(test_table_rows),
		cmocka_unit_test(test_kind_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
