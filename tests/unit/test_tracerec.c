// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_tracerec.c - unit tests of userspace/lib/tracerec.c over the tracefs
 * fixtures (tests/fixtures/tracefs/KERNEL/): real sub-buffer pages of a
 * guest recorded during the stall fault, decoded with that kernel's event
 * formats, checked against the kernel's own text of the same events.
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
#include <dirent.h>
#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>

#include "tracerec.h"

#ifndef FIXTURES
#define FIXTURES "../tests/fixtures/tracefs"
#endif

#define TEST_RECS_MAX	8192

struct test_run {
	struct tep_handle *tep;
	struct tracerec_state *st;
	unsigned int n;
	struct usbtrail_record recs[TEST_RECS_MAX];
};

static char *test_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void test_load_dir(struct tep_handle *tep, const char *path,
			  const char *sys)
{
	char epath[1400];
	struct dirent *e;
	size_t len;
	char *buf;
	DIR *ed;

	ed = opendir(path);
	assert_non_null(ed);
	while ((e = readdir(ed))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(epath, sizeof(epath), "%s/%s/format", path, e->d_name);
		buf = test_slurp(epath, &len);
		assert_non_null(buf);
		assert_int_equal(tep_parse_event(tep, buf, len, sys), 0);
		free(buf);
	}
	closedir(ed);
}

/*
 * Every events/SYS/EVENT/format below dir, as system SYS; the kprobes
 * from kprobes (a directory of EVENT/format), in the guest's group.
 */
static void test_load_formats(struct tep_handle *tep, const char *dir,
			      const char *kprobes)
{
	char path[1024];
	struct dirent *s;
	size_t len;
	char *buf;
	DIR *sd;

	snprintf(path, sizeof(path), "%s/events/header_page", dir);
	buf = test_slurp(path, &len);
	assert_non_null(buf);
	assert_int_equal(tep_parse_header_page(tep, buf, len, 8), 0);
	free(buf);
	snprintf(path, sizeof(path), "%s/events", dir);
	sd = opendir(path);
	assert_non_null(sd);
	while ((s = readdir(sd))) {
		if (s->d_name[0] == '.' || !strncmp(s->d_name, "header", 6) ||
		    !strcmp(s->d_name, "kprobes"))
			continue;
		snprintf(path, sizeof(path), "%s/events/%s", dir, s->d_name);
		test_load_dir(tep, path, s->d_name);
	}
	closedir(sd);
	/* the guest's kprobe group, as the fixture's README says */
	test_load_dir(tep, kprobes, "usbtrail_fx");
}

static int test_collect(void *arg, const struct usbtrail_record *rec)
{
	struct test_run *run = arg;

	assert_true(run->n < TEST_RECS_MAX);
	run->recs[run->n++] = *rec;
	return 0;
}

/*
 * The capture of each kernel's fixture (README): its pages, and the UAS
 * disk at 1:0:0:0 (sda, 8:0, when uas bound first, else sdb, 8:16)
 */
static const struct test_capture {
	const char *kernel;
	const char *pages;	/* cpu0-PAGES.raw, cpu0-PAGES.txt */
	uint32_t devt;
	const char *disk;
} test_captures[] = {
	{ "5.10", "medium", 8 << 8, "sda" },
	{ "6.1", "stall", 8 << 8, "sda" },
	{ "6.12", "stall", 8 << 8, "sda" },
	{ "7.3", "medium", 8 << 8 | 16, "sdb" },
};

static const struct test_capture *test_capture_of(const char *kernel)
{
	unsigned int i;

	for (i = 0; i < sizeof(test_captures) / sizeof(test_captures[0]); i++)
		if (!strcmp(test_captures[i].kernel, kernel))
			return &test_captures[i];
	fail_msg("no capture of %s", kernel);
	return NULL;
}

static void test_usb_disk(struct tracerec_state *st, const char *kernel)
{
	const struct test_capture *c = test_capture_of(kernel);
	struct tracerec_disk d = {
		.host = 1, .devt = c->devt, .block_size = 512,
	};

	snprintf(d.name, sizeof(d.name), "%s", c->disk);
	assert_int_equal(tracerec_add_host(st, 1), 0);
	assert_int_equal(tracerec_add_disk(st, &d), 0);
}

/*
 * The pages of fixture KERNEL; with ptr_only, the older capture whose
 * kprobes fetched the command pointer only (no BTF offsets).
 */
static struct test_run *test_parse(const char *kernel, bool ptr_only,
				   bool usb_disk)
{
	struct test_run *run = calloc(1, sizeof(*run));
	char dir[256], pdir[300], kprobes[320], path[512];
	struct kbuffer *kb;
	size_t len, off;
	char *pages;

	assert_non_null(run);
	snprintf(dir, sizeof(dir), "%s/%s", FIXTURES, kernel);
	snprintf(pdir, sizeof(pdir), "%s%s", dir, ptr_only ? "/ptr-only" : "");
	snprintf(kprobes, sizeof(kprobes), "%s/%s", pdir,
		 ptr_only ? "kprobes" : "events/kprobes");
	run->tep = tep_alloc();
	assert_non_null(run->tep);
	tep_set_long_size(run->tep, 8);
	tep_set_page_size(run->tep, 4096);
	test_load_formats(run->tep, dir, kprobes);
	run->st = malloc(sizeof(*run->st));
	assert_non_null(run->st);
	/* 13 tracepoints and the 4 uas kprobes of the capture */
	assert_int_equal(tracerec_state_init(run->st, run->tep), 17);
	if (usb_disk)
		test_usb_disk(run->st, kernel);
	kb = tep_kbuffer(run->tep);
	assert_non_null(kb);
	snprintf(path, sizeof(path), "%s/cpu0-%s.raw", pdir,
		 test_capture_of(kernel)->pages);
	pages = test_slurp(path, &len);
	assert_non_null(pages);
	assert_true(len >= 4096 && len % 4096 == 0);
	for (off = 0; off < len; off += 4096)
		assert_true(tracerec_parse_page(run->st, kb, pages + off, 4096,
						0, test_collect, run) >= 0);
	free(pages);
	kbuffer_free(kb);
	assert_int_equal(run->st->malformed, 0);
	assert_int_equal(run->st->missed, 0);
	return run;
}

static void test_release(struct test_run *run)
{
	tep_free(run->tep);
	free(run->st);
	free(run);
}

/* Lines of the kernel's text rendering naming event NAME ("name: ") */
static unsigned int test_text_count(const char *kernel, bool ptr_only,
				    const char *what)
{
	char path[512], line[4096];
	unsigned int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s%s/cpu0-%s.txt", FIXTURES,
		 kernel, ptr_only ? "/ptr-only" : "",
		 test_capture_of(kernel)->pages);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (line[0] != '#' && strstr(line, what))
			n++;
	fclose(f);
	return n;
}

/* -- events built from a kernel's format: each field at its offset -- */

static struct tep_event *test_event(struct tep_handle *tep, const char *sys,
				    const char *name)
{
	struct tep_event *ev = tep_find_event_by_name(tep, sys, name);

	assert_non_null(ev);
	return ev;
}

/* Set numeric field NAME of event EV in buffer BUF; false if none. */
static bool test_set(struct tep_event *ev, uint8_t *buf, const char *name,
		     uint64_t v)
{
	struct tep_format_field *f = tep_find_any_field(ev, name);

	if (!f)
		return false;
	assert_true(f->size >= 1 && f->size <= 8);
	memcpy(buf + f->offset, &v, (size_t)f->size);	/* little-endian */
	return true;
}

/* The __data_loc array NAME: LEN bytes of P after the fixed fields */
static size_t test_set_loc(struct tep_event *ev, uint8_t *buf, size_t end,
			   const char *name, const void *p, size_t len)
{
	struct tep_format_field *f = tep_find_field(ev, name);
	uint32_t loc;

	assert_non_null(f);
	assert_true(f->flags & TEP_FIELD_IS_DYNAMIC);
	loc = (uint32_t)len << 16 | (uint32_t)end;
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		loc -= (uint32_t)(f->offset + 4);
	memcpy(buf + f->offset, &loc, 4);
	memcpy(buf + end, p, len);
	return end + len;
}

/* The end of the fixed fields of EV: where dynamic data may go */
static size_t test_fixed_end(struct tep_event *ev)
{
	struct tep_format_field *f;
	size_t end = 0;

	for (f = ev->format.fields; f; f = f->next)
		if ((size_t)(f->offset + f->size) > end)
			end = (size_t)(f->offset + f->size);
	return (end + 3) & ~(size_t)3;
}

/*
 * A scsi_dispatch_cmd_done of a WRITE(10) of 1:0:0:0 at LBA 2048 as the
 * format lays it out, with RESULT and the sense fields where the format
 * has them; *has_sense says whether it had.
 */
static int test_scsi_done(struct test_run *run, uint32_t result,
			  struct usbtrail_record *rec, bool *has_sense)
{
	static const uint8_t cdb[10] = { 0x2a, 0, 0, 0, 0x08, 0, 0, 0, 8, 0 };
	struct tep_event *ev = test_event(run->tep, "scsi",
					  "scsi_dispatch_cmd_done");
	uint8_t buf[256];
	size_t end;

	memset(buf, 0, sizeof(buf));
	assert_true(test_set(ev, buf, "common_type", (uint64_t)ev->id));
	assert_true(test_set(ev, buf, "host_no", 1));
	assert_true(test_set(ev, buf, "result", result));
	assert_true(test_set(ev, buf, "opcode", 0x2a));
	assert_true(test_set(ev, buf, "cmd_len", sizeof(cdb)));
	test_set(ev, buf, "driver_tag", 7);	/* 5.13 and later */
	*has_sense = test_set(ev, buf, "sense_key", 0x02);
	if (*has_sense) {
		assert_true(test_set(ev, buf, "asc", 0x3a));
		assert_true(test_set(ev, buf, "ascq", 0x00));
	}
	end = test_set_loc(ev, buf, test_fixed_end(ev), "cmnd", cdb,
			   sizeof(cdb));
	return tracerec_parse_event(run->st, 5, 0, buf, end, rec);
}

static unsigned int test_count(const struct test_run *run, unsigned int type)
{
	unsigned int i, n = 0;

	for (i = 0; i < run->n; i++)
		n += run->recs[i].type == type;
	return n;
}

/* "tag=N" of the kernel's text of each uas_abort, in order */
static unsigned int test_text_abort_tags(const char *kernel, int *tags,
					 unsigned int max)
{
	char path[512], line[4096];
	unsigned int n = 0;
	const char *t;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/cpu0-stall.txt", FIXTURES, kernel);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, " uas_abort: "))
			continue;
		t = strstr(line, " tag=");
		assert_non_null(t);
		assert_true(n < max);
		tags[n++] = atoi(t + 5);
	}
	fclose(f);
	return n;
}

static void test_stall(const char *kernel, bool ptr_only)
{
	struct test_run *run = test_parse(kernel, ptr_only, true);
	const struct test_capture *c = test_capture_of(kernel);
	const struct usbtrail_record *r;
	char blk_text[64];
	unsigned int i, j, timeouts = 0, aborts = 0, stopped = 0, resets = 0;
	unsigned int blk = 0, nissued = 0, ntags = 0;
	uint64_t issued[512], last_ts = 0;
	int tags[16], rtags[16];
	bool seen;

	for (i = 0; i < run->n; i++) {
		r = &run->recs[i];
		assert_true(r->ts_ns >= last_ts);	/* one CPU: in order */
		last_ts = r->ts_ns;
		switch (r->type) {
		case USBTRAIL_REC_SCSI_TIMEOUT:
			/* a 512 KiB WRITE(10) of the UAS disk */
			assert_string_equal(r->u.scsi.disk, c->disk);
			assert_int_equal(r->u.scsi.devt, c->devt);
			assert_int_equal(r->u.scsi.host, 1);
			assert_int_equal(r->u.scsi.opcode, 0x2a);
			assert_int_equal(r->u.scsi.len, 524288);
			assert_int_equal(r->u.scsi.lba % 1024, 0);
			assert_int_equal(r->flags, USBTRAIL_F_ERROR);
			timeouts++;
			break;
		case USBTRAIL_REC_EH_START:
			assert_int_equal(r->u.eh.driver, USBTRAIL_DRV_UAS);
			assert_string_equal(r->u.eh.disk, c->disk);
			assert_int_equal(r->u.eh.devt, c->devt);
			assert_int_equal(r->u.eh.host, 1);
			/* without BTF a reset names the disk, not a command */
			if (!ptr_only || r->u.eh.kind == USBTRAIL_EH_ABORT)
				assert_int_equal(r->u.eh.opcode, 0x2a);
			if (r->u.eh.kind == USBTRAIL_EH_ABORT) {
				assert_true(aborts < 16);
				rtags[aborts++] = (int)r->u.eh.tag;
			}
			break;
		case USBTRAIL_REC_EH_END:
			assert_string_equal(r->u.eh.disk, c->disk);
			/* aborts of commands QEMU still holds fail */
			if (r->u.eh.kind == USBTRAIL_EH_ABORT)
				assert_int_equal(r->u.eh.result, 0x2003);
			else
				assert_int_equal(r->u.eh.result, 0x2002);
			break;
		case USBTRAIL_REC_XHCI_TRANSFER:
			/* the aborts stop the ring: code 26 Stopped */
			if (r->u.xhci.cc == 26) {
				assert_int_equal(r->flags, USBTRAIL_F_ERROR);
				assert_int_equal(r->u.xhci.slot, 1);
				stopped++;
			} else if (r->u.xhci.cc == 1 || r->u.xhci.cc == 13) {
				assert_int_equal(r->flags, 0);
			}
			break;
		case USBTRAIL_REC_XHCI_COMMAND:
			if (r->u.xhci.trb_type == 17) {	/* Reset Device */
				assert_int_equal(r->u.xhci.cc, 1);
				assert_int_equal(r->u.xhci.slot, 1);
				resets++;
			}
			break;
		case USBTRAIL_REC_BLK_ISSUE:
			if (nissued < 512)
				issued[nissued++] = r->u.blk.sector;
			break;
		case USBTRAIL_REC_BLK_COMPLETE:
			assert_string_equal(r->u.blk.disk, c->disk);
			assert_int_equal(r->u.blk.bytes, 524288);
			assert_int_equal(r->u.blk.op, 1);	/* write */
			assert_int_equal(r->u.blk.error, 0);
			assert_true(r->u.blk.sector % 1024 == 0);
			/* its latency when its issue is in the pages too */
			for (j = 0, seen = false; j < nissued; j++)
				seen |= issued[j] == r->u.blk.sector;
			if (seen)
				assert_true(r->u.blk.latency_ns > 0);
			blk++;
			break;
		default:
			break;
		}
	}
	/* as many as the kernel's text shows */
	assert_int_equal(timeouts,
			 test_text_count(kernel, ptr_only,
					 "scsi_dispatch_cmd_timeout:"));
	assert_true(timeouts >= 1);
	assert_int_equal(aborts, test_text_count(kernel, ptr_only,
						 " uas_abort:"));
	assert_true(aborts >= 1);
	assert_int_equal(test_count(run, USBTRAIL_REC_SCSI_EH_WAKEUP),
			 test_text_count(kernel, ptr_only, "scsi_eh_wakeup:"));
	assert_int_equal(stopped, test_text_count(kernel, ptr_only,
						  "status 'Stopped'"));
	assert_true(stopped >= 1);
	assert_int_equal(resets, test_text_count(kernel, ptr_only,
						 "Reset Device Command"));
	assert_true(resets >= 1);
	snprintf(blk_text, sizeof(blk_text), "block_rq_complete: 8,%u ",
		 (unsigned int)(c->devt & 0xff));
	assert_int_equal(blk, test_text_count(kernel, ptr_only, blk_text));
	assert_true(blk >= 1);
	assert_int_equal(test_count(run, USBTRAIL_REC_SCSI_DONE),
			 test_text_count(kernel, ptr_only,
					 "scsi_dispatch_cmd_done:"));
	assert_int_equal(test_count(run, USBTRAIL_REC_EH_START),
			 test_text_count(kernel, ptr_only, " uas_abort: ") +
			 test_text_count(kernel, ptr_only, " uas_reset: "));
	assert_int_equal(test_count(run, USBTRAIL_REC_EH_END),
			 test_text_count(kernel, ptr_only, " uas_abort_ret: ") +
			 test_text_count(kernel, ptr_only, " uas_reset_ret: "));
	/* with BTF, the aborted commands are the kernel's, in its order */
	if (!ptr_only) {
		ntags = test_text_abort_tags(kernel, tags, 16);
		assert_int_equal(ntags, aborts);
		for (i = 0; i < ntags; i++)
			assert_int_equal(rtags[i], tags[i]);
	}
	test_release(run);
}

static void test_tracerec_stall_61(void **state)
{
	(void)state;
	test_stall("6.1", false);
}

static void test_tracerec_stall_612(void **state)
{
	(void)state;
	test_stall("6.12", false);
}

/* kprobes without BTF: the last timed-out command's disk is named */
static void test_tracerec_stall_ptr_only(void **state)
{
	(void)state;
	test_stall("6.1", true);
}

/* The URBs name devices: 6.12 with the bus, 6.1 without */
static void test_tracerec_urbs(void **state)
{
	static const char *const kernels[] = { "6.1", "6.12" };
	unsigned int k, i, n;

	(void)state;
	for (k = 0; k < 2; k++) {
		struct test_run *run = test_parse(kernels[k], false, true);

		for (i = 0, n = 0; i < run->n; i++) {
			const struct usbtrail_record *r = &run->recs[i];

			if (r->type != USBTRAIL_REC_URB_ENQUEUE)
				continue;
			/* bulk, or control (the device reset's requests) */
			if (r->u.urb.eptype == 0)
				assert_int_equal(r->u.urb.epaddr, 0);
			else
				assert_int_equal(r->u.urb.eptype, 2);
			assert_int_equal(r->u.urb.slot, 1);
			assert_int_equal(r->u.urb.devnum, 2);
			if (k == 1) {
				assert_int_equal(r->u.urb.busnum, 2);
				assert_string_equal(r->u.urb.devpath, "1");
			} else {
				assert_int_equal(r->u.urb.busnum, 0);
			}
			n++;
		}
		assert_true(n > 0);
		test_release(run);
	}
}

/* No USB storage host known: the module's filter keeps nothing of SCSI */
static void test_tracerec_filter(void **state)
{
	struct test_run *run = test_parse("6.1", false, false);

	(void)state;
	assert_int_equal(test_count(run, USBTRAIL_REC_SCSI_TIMEOUT), 0);
	assert_int_equal(test_count(run, USBTRAIL_REC_SCSI_DONE), 0);
	assert_int_equal(test_count(run, USBTRAIL_REC_BLK_COMPLETE), 0);
	assert_int_equal(test_count(run, USBTRAIL_REC_SCSI_EH_WAKEUP), 0);
	assert_true(run->st->filtered > 0);
	/* USB events do not depend on it */
	assert_true(test_count(run, USBTRAIL_REC_URB_ENQUEUE) > 0);
	test_release(run);
}

static void test_tracerec_decisions(void **state)
{
	struct tracerec_state *st = calloc(1, sizeof(*st));
	struct tep_handle *tep = tep_alloc();
	struct tracerec_disk d = {
		.host = 3, .channel = 0, .id = 0, .lun = 1,
		.devt = (8 << 8) | 16, .name = "sdb",
	};
	bool ret;

	(void)state;
	assert_int_equal(tracerec_state_init(st, tep), 0);
	assert_false(tracerec_host_wanted(st, 3));
	assert_int_equal(tracerec_add_host(st, 3), 0);
	assert_int_equal(tracerec_add_host(st, 3), 0);	/* once */
	assert_int_equal(st->nhosts, 1);
	assert_true(tracerec_host_wanted(st, 3));
	assert_false(tracerec_host_wanted(st, 0));
	assert_int_equal(tracerec_add_disk(st, &d), 0);
	assert_ptr_equal(tracerec_disk_by_addr(st, 3, 0, 0, 1), &st->disks[0]);
	assert_null(tracerec_disk_by_addr(st, 3, 0, 0, 0));
	assert_ptr_equal(tracerec_disk_by_devt(st, (8 << 8) | 16),
			 &st->disks[0]);
	assert_null(tracerec_disk_by_devt(st, 8 << 8));
	tracerec_clear_disks(st);
	assert_null(tracerec_disk_by_devt(st, (8 << 8) | 16));

	assert_int_equal(tracerec_eh_probe_of("usbtrail_123_uas_abort", &ret),
			 0);
	assert_false(ret);
	assert_int_equal(tracerec_eh_probe_of("usbtrail_9_bot_bus_reset_ret",
					      &ret), 5);
	assert_true(ret);
	assert_int_equal(tracerec_eh_probe_of("uas_reset_ret", &ret), 1);
	assert_true(ret);
	/* 7.3's name of the reset handler: a probe of its own */
	assert_int_equal(tracerec_eh_probe_of("usbtrail_7_uas_host_reset",
					      &ret), 2);
	assert_false(ret);
	assert_string_equal(tracerec_eh_probes[2].function,
			    "uas_eh_host_reset_handler");
	assert_int_equal(tracerec_eh_probes[2].kind,
			 tracerec_eh_probes[1].kind);
	assert_int_equal(tracerec_eh_probe_of("usbtrail_1_uas_abortx", &ret),
			 -1);
	assert_int_equal(tracerec_eh_probe_of("uas_abort_re", &ret), -1);
	tep_free(tep);
	free(st);
}

/* Bad pages and events are counted and skipped, never read past */
static void test_tracerec_malformed(void **state)
{
	struct test_run *run = test_parse("6.1", false, true);
	struct kbuffer *kb = tep_kbuffer(run->tep);
	struct usbtrail_record rec;
	uint8_t page[4096], ev[16];
	uint64_t commit;

	(void)state;
	memset(page, 0, sizeof(page));
	commit = 8192;		/* more than the page holds */
	memcpy(page + 8, &commit, 8);
	assert_int_equal(tracerec_parse_page(run->st, kb, page, sizeof(page),
					     0, NULL, NULL), -EINVAL);
	assert_int_equal(run->st->malformed, 1);
	assert_int_equal(tracerec_parse_page(run->st, kb, page, 8, 0, NULL,
					     NULL), -EINVAL);
	assert_int_equal(run->st->malformed, 2);
	/* an empty page is fine */
	commit = 0;
	memcpy(page + 8, &commit, 8);
	assert_int_equal(tracerec_parse_page(run->st, kb, page, sizeof(page),
					     0, NULL, NULL), 0);
	/* a known event cut short: 16 bytes of the first one found */
	memset(ev, 0, sizeof(ev));
	memcpy(ev, &run->st->ids[0].id, 2);
	assert_int_equal(tracerec_parse_event(run->st, 1, 0, ev, sizeof(ev),
					      &rec), -EINVAL);
	assert_int_equal(run->st->malformed, 3);
	assert_int_equal(tracerec_parse_event(run->st, 1, 0, ev, 4, &rec),
			 -EINVAL);
	kbuffer_free(kb);
	test_release(run);
}

static int test_eh_id(const struct tracerec_state *st, enum tracerec_kind k)
{
	unsigned int i;

	for (i = 0; i < st->nids; i++)
		if (st->ids[i].kind == k && st->ids[i].eh == 0)	/* uas_abort */
			return st->ids[i].id;
	fail_msg("no uas_abort event of kind %d", k);
	return -1;
}

/*
 * Handlers whose return was never seen: their slots are reused in turn,
 * the latest entries still pair with their returns.  Events built by
 * hand with the 6.1 fixture's kprobe layout (common_pid at 4; host,
 * channel, id, lun, tag, opcode at 24..48; ret at 24 of the return).
 */
static void test_tracerec_eh_slots(void **state)
{
	struct test_run *run = test_parse("6.1", false, true);
	struct usbtrail_record rec;
	uint8_t ev[56];
	uint16_t entry, ret_id;
	int32_t pid, v;
	uint64_t lun = 0;

	(void)state;
	entry = (uint16_t)test_eh_id(run->st, TRACEREC_EH_ENTRY);
	ret_id = (uint16_t)test_eh_id(run->st, TRACEREC_EH_RETURN);
	for (pid = 100; pid < 100 + TRACEREC_EH_MAX + 4; pid++) {
		memset(ev, 0, sizeof(ev));
		memcpy(ev, &entry, 2);
		memcpy(ev + 4, &pid, 4);
		v = 1;
		memcpy(ev + 24, &v, 4);			/* host */
		memcpy(ev + 36, &lun, 8);
		v = pid;
		memcpy(ev + 44, &v, 4);			/* tag */
		ev[48] = 0x2a;
		assert_int_equal(tracerec_parse_event(run->st, 1, 0, ev,
						      sizeof(ev), &rec), 1);
		assert_int_equal(rec.type, USBTRAIL_REC_EH_START);
		assert_string_equal(rec.u.eh.disk, "sda");
		assert_int_equal(rec.u.eh.tag, pid);
	}
	/* the last one returns: its command */
	memset(ev, 0, sizeof(ev));
	memcpy(ev, &ret_id, 2);
	pid = 100 + TRACEREC_EH_MAX + 3;
	memcpy(ev + 4, &pid, 4);
	v = 0x2002;
	memcpy(ev + 24, &v, 4);
	assert_int_equal(tracerec_parse_event(run->st, 2, 0, ev, 32, &rec), 1);
	assert_int_equal(rec.type, USBTRAIL_REC_EH_END);
	assert_int_equal(rec.u.eh.tag, pid);
	assert_int_equal(rec.u.eh.result, 0x2002);
	/* the first one's slot was reused: a bare end */
	pid = 100;
	memcpy(ev + 4, &pid, 4);
	assert_int_equal(tracerec_parse_event(run->st, 3, 0, ev, 32, &rec), 1);
	assert_int_equal(rec.u.eh.kind, USBTRAIL_EH_ABORT);
	assert_int_equal(rec.u.eh.disk[0], '\0');
	assert_int_equal(run->st->malformed, 0);
	test_release(run);
}

/* A module's events parsed later are found, and the state kept */
static void test_tracerec_late_events(void **state)
{
	struct tracerec_state *st = malloc(sizeof(*st));
	struct tep_handle *tep = tep_alloc();
	char path[512];

	(void)state;
	assert_non_null(st);
	snprintf(path, sizeof(path), "%s/6.1/events/scsi", FIXTURES);
	test_load_dir(tep, path, "scsi");
	assert_int_equal(tracerec_state_init(st, tep), 5);
	assert_int_equal(tracerec_add_host(st, 1), 0);
	snprintf(path, sizeof(path), "%s/6.1/events/xhci-hcd", FIXTURES);
	test_load_dir(tep, path, "xhci-hcd");
	assert_int_equal(tracerec_state_events(st), 11);
	assert_true(tracerec_host_wanted(st, 1));
	tep_free(tep);
	free(st);
}

/* A page that says events were lost before it: counted, page decoded */
static void test_tracerec_missed(void **state)
{
	struct test_run *run = test_parse("6.1", false, true);
	struct kbuffer *kb = tep_kbuffer(run->tep);
	char path[512];
	uint64_t commit, count = 42;
	size_t len;
	char *pages;
	int n;

	(void)state;
	snprintf(path, sizeof(path), "%s/6.1/cpu0-stall.raw", FIXTURES);
	pages = test_slurp(path, &len);
	assert_non_null(pages);
	memcpy(&commit, pages + 8, 8);
	assert_true(commit > 0 && commit < 4096 - 16 - 8);
	/* RB_MISSED_EVENTS | RB_MISSED_STORED, the count after the data */
	memcpy(pages + 16 + commit, &count, 8);
	commit |= 3ULL << 30;
	memcpy(pages + 8, &commit, 8);
	assert_int_equal(run->st->missed, 0);
	n = tracerec_parse_page(run->st, kb, pages, 4096, 0, NULL, NULL);
	assert_true(n > 0);
	assert_int_equal(run->st->missed, 42);
	/* the flag alone (no room for the count): at least one, and the
	 * kernel sign-extends the 32-bit flags into its long commit */
	commit = (commit & ~(3ULL << 30)) | 0xffffffff80000000ULL;
	memcpy(pages + 8, &commit, 8);
	assert_int_equal(tracerec_parse_page(run->st, kb, pages, 4096, 0,
					     NULL, NULL), n);
	assert_int_equal(run->st->missed, 43);
	assert_int_equal(run->st->malformed, 0);
	free(pages);
	kbuffer_free(kb);
	test_release(run);
}

/*
 * 5.10's and 7.3's captures: a write fails with medium not present.  On
 * 7.3 the sense comes from scsi_dispatch_cmd_done's own fields, as the
 * kernel's text shows it (no module, no kernel log); 5.10's event has
 * none: no sense, not a guessed one.  7.3's URBs name the device
 * (devname "2-1"); its transfer events decode with the dma field before
 * the TRB.
 */
static void test_medium(const char *kernel, bool has_sense, bool devname)
{
	const struct test_capture *c = test_capture_of(kernel);
	struct test_run *run = test_parse(kernel, false, true);
	unsigned int i, sense = 0, done = 0, urbs = 0, xfers = 0, failed = 0;
	unsigned int checks = 0;

	for (i = 0; i < run->n; i++) {
		const struct usbtrail_record *r = &run->recs[i];

		switch (r->type) {
		case USBTRAIL_REC_SCSI_DONE:
			done++;
			if ((r->u.scsi.result & 0xff) != 0x02)
				break;
			checks++;	/* the CHECK CONDITION */
			assert_int_equal(r->flags, USBTRAIL_F_ERROR);
			assert_string_equal(r->u.scsi.disk, c->disk);
			assert_int_equal(r->u.scsi.opcode, 0x2a);
			assert_int_equal(r->u.scsi.lba, 2048);
			assert_int_equal(r->u.scsi.len, 524288);
			assert_int_equal(r->u.scsi.sense_key, has_sense ? 2 : 0);
			assert_int_equal(r->u.scsi.asc, has_sense ? 0x3a : 0);
			assert_int_equal(r->u.scsi.ascq, 0x00);
			sense += r->u.scsi.sense_key != 0;
			break;
		case USBTRAIL_REC_URB_ENQUEUE:
			assert_int_equal(r->u.urb.busnum, devname ? 2 : 0);
			if (devname)
				assert_string_equal(r->u.urb.devpath, "1");
			assert_int_equal(r->u.urb.slot, 1);
			urbs++;
			break;
		case USBTRAIL_REC_XHCI_TRANSFER:
			assert_int_equal(r->u.xhci.slot, 1);
			assert_int_equal(r->u.xhci.busnum, devname ? 2 : 0);
			assert_true(r->u.xhci.cc == 1 || r->u.xhci.cc == 13);
			xfers++;
			break;
		case USBTRAIL_REC_BLK_COMPLETE:
			assert_string_equal(r->u.blk.disk, c->disk);
			failed += r->u.blk.error != 0;
			break;
		default:
			break;
		}
	}
	assert_int_equal(checks, 1);
	assert_int_equal(sense, test_text_count(kernel, false,
				"sense=(key=0x2 asc=0x3a ascq=0x0)"));
	assert_int_equal(sense, has_sense ? 1 : 0);
	assert_int_equal(done, test_text_count(kernel, false,
					       "scsi_dispatch_cmd_done:"));
	assert_int_equal(urbs, test_text_count(kernel, false,
					       "xhci_urb_enqueue:"));
	assert_true(urbs > 0);
	assert_int_equal(xfers, test_text_count(kernel, false,
						"xhci_handle_event:"));
	assert_int_equal(failed, test_text_count(kernel, false, " [-"));
	assert_int_equal(failed, 1);
	test_release(run);
}

static void test_tracerec_medium_510(void **state)
{
	(void)state;
	test_medium("5.10", false, false);
}

static void test_tracerec_medium_73(void **state)
{
	(void)state;
	test_medium("7.3", true, true);
}

/* The four kernels of tools/kernels.conf, oldest first */
static const char *const test_kernels[] = { "5.10", "6.1", "6.12", "7.3" };
#define TEST_NKERNELS	(sizeof(test_kernels) / sizeof(test_kernels[0]))

static bool test_has(struct tep_handle *tep, const char *sys,
		     const char *name, const char *field)
{
	return tep_find_field(test_event(tep, sys, name), field) != NULL;
}

/*
 * What each kernel's formats carry, as docs/record.md tells it: found by
 * name, whatever the offsets (5.10: no driver_tag; 6.12: devname, sense,
 * ioprio, no str; 7.3: dma), and every capture decodes (test_parse).
 */
static void test_tracerec_formats(void **state)
{
	unsigned int k;

	(void)state;
	for (k = 0; k < TEST_NKERNELS; k++) {
		struct test_run *run = test_parse(test_kernels[k], false,
						  true);
		struct tep_handle *t = run->tep;
		bool ge61 = k >= 1, ge612 = k >= 2, ge73 = k >= 3;

		assert_true(run->n > 0);
		assert_int_equal(test_has(t, "scsi", "scsi_dispatch_cmd_done",
					  "driver_tag"), ge61);
		assert_int_equal(test_has(t, "scsi", "scsi_dispatch_cmd_done",
					  "sense_key"), ge612);
		assert_int_equal(test_has(t, "scsi",
					  "scsi_dispatch_cmd_timeout", "asc"),
				 ge612);
		assert_int_equal(test_has(t, "xhci-hcd", "xhci_urb_enqueue",
					  "devname"), ge612);
		assert_int_equal(test_has(t, "xhci-hcd", "xhci_handle_event",
					  "str"), !ge612);
		assert_int_equal(test_has(t, "xhci-hcd", "xhci_handle_event",
					  "dma"), ge73);
		assert_int_equal(test_has(t, "block", "block_rq_complete",
					  "ioprio"), ge612);
		assert_int_equal(test_has(t, "block", "block_rq_issue",
					  "ioprio"), ge612);
		assert_int_equal(test_has(t, "xhci-hcd",
					  "xhci_handle_port_status", "busnum"),
				 ge612);
		test_release(run);
	}
}

/*
 * A failed command's sense from the tracepoint alone, where the kernel's
 * format has it (6.12, 7.3): medium not present, 02/3A/00; a CHECK
 * CONDITION only, as the module takes it.
 */
static void test_tracerec_sense(void **state)
{
	struct usbtrail_record rec;
	unsigned int k;
	bool has;

	(void)state;
	for (k = 0; k < TEST_NKERNELS; k++) {
		struct test_run *run = test_parse(test_kernels[k], false,
						  true);

		/* CHECK CONDITION (SAM status 2), DID_OK */
		assert_int_equal(test_scsi_done(run, 0x02, &rec, &has), 1);
		assert_int_equal(has, k >= 2);
		assert_int_equal(rec.type, USBTRAIL_REC_SCSI_DONE);
		assert_int_equal(rec.flags, USBTRAIL_F_ERROR);
		assert_string_equal(rec.u.scsi.disk,
				    test_capture_of(test_kernels[k])->disk);
		assert_int_equal(rec.u.scsi.opcode, 0x2a);
		assert_int_equal(rec.u.scsi.lba, 2048);
		assert_int_equal(rec.u.scsi.len, 8 * 512);
		assert_int_equal(rec.u.scsi.tag, k >= 1 ? 7 : 0);
		assert_int_equal(rec.u.scsi.sense_key, has ? 0x02 : 0);
		assert_int_equal(rec.u.scsi.asc, has ? 0x3a : 0);
		assert_int_equal(rec.u.scsi.ascq, 0);
		/* a timeout (DID_TIME_OUT) is no sense, whatever the bytes */
		assert_int_equal(test_scsi_done(run, 0x03 << 16, &rec, &has),
				 1);
		assert_int_equal(rec.flags, USBTRAIL_F_ERROR);
		assert_int_equal(rec.u.scsi.sense_key, 0);
		assert_int_equal(rec.u.scsi.asc, 0);
		assert_int_equal(run->st->malformed, 0);
		test_release(run);
	}
}

/* Port numbers: the event's 0-based portnum before 6.18, 1-based after */
static void test_tracerec_port(void **state)
{
	static const struct {
		const char *kernel, *release;
		unsigned int portnum, port;
	} cases[] = {
		{ "6.12", "6.12.117+deb12-amd64", 1, 2 },
		{ "6.12", NULL, 1, 2 },		/* no release: 0-based */
		{ "7.3", "7.3.4+deb13-amd64", 2, 2 },
		{ "7.3", "6.18.1", 2, 2 },
		{ "5.10", "5.10.0-46-amd64", 0, 1 },
	};
	struct usbtrail_record rec;
	unsigned int i;
	bool has_bus;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct test_run *run = test_parse(cases[i].kernel, false,
						  true);
		struct tep_event *ev = test_event(run->tep, "xhci-hcd",
						  "xhci_handle_port_status");
		uint8_t buf[64];

		if (cases[i].release)
			assert_int_equal(tracerec_set_release(run->st,
							      cases[i].release),
					 0);
		memset(buf, 0, sizeof(buf));
		assert_true(test_set(ev, buf, "common_type",
				     (uint64_t)ev->id));
		assert_true(test_set(ev, buf, "portnum", cases[i].portnum));
		assert_true(test_set(ev, buf, "portsc", 0x206e1));
		/* busnum: 6.8 and later */
		has_bus = test_set(ev, buf, "busnum", 2);
		assert_int_equal(has_bus, strcmp(cases[i].kernel, "5.10") != 0);
		assert_int_equal(tracerec_parse_event(run->st, 1, 0, buf,
						      test_fixed_end(ev), &rec),
				 1);
		assert_int_equal(rec.type, USBTRAIL_REC_XHCI_PORT);
		assert_int_equal(rec.u.port.port, cases[i].port);
		assert_int_equal(rec.u.port.portsc, 0x206e1);
		assert_int_equal(rec.u.port.busnum, has_bus ? 2 : 0);
		test_release(run);
	}
	{
		struct tracerec_state *st = calloc(1, sizeof(*st));

		assert_non_null(st);
		assert_int_equal(tracerec_set_release(st, "x"), -EINVAL);
		assert_int_equal(tracerec_set_release(st, "7"), -EINVAL);
		assert_int_equal(tracerec_set_release(st, "6.17.9"), 0);
		assert_false(st->port_one_based);
		assert_int_equal(tracerec_set_release(st, "10.0"), 0);
		assert_true(st->port_one_based);
		free(st);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tracerec_stall_61),
		cmocka_unit_test(test_tracerec_stall_612),
		cmocka_unit_test(test_tracerec_stall_ptr_only),
		cmocka_unit_test(test_tracerec_urbs),
		cmocka_unit_test(test_tracerec_filter),
		cmocka_unit_test(test_tracerec_decisions),
		cmocka_unit_test(test_tracerec_malformed),
		cmocka_unit_test(test_tracerec_missed),
		cmocka_unit_test(test_tracerec_late_events),
		cmocka_unit_test(test_tracerec_eh_slots),
		cmocka_unit_test(test_tracerec_formats),
		cmocka_unit_test(test_tracerec_sense),
		cmocka_unit_test(test_tracerec_medium_510),
		cmocka_unit_test(test_tracerec_medium_73),
		cmocka_unit_test(test_tracerec_port),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
