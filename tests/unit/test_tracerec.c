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

/* The UAS disk of the capture: sda (8:0) at 1:0:0:0 */
static void test_usb_disk(struct tracerec_state *st)
{
	struct tracerec_disk d = {
		.host = 1, .devt = 8 << 8, .block_size = 512, .name = "sda",
	};

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
		test_usb_disk(run->st);
	kb = tep_kbuffer(run->tep);
	assert_non_null(kb);
	snprintf(path, sizeof(path), "%s/cpu0-stall.raw", pdir);
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

	snprintf(path, sizeof(path), "%s/%s%s/cpu0-stall.txt", FIXTURES,
		 kernel, ptr_only ? "/ptr-only" : "");
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (line[0] != '#' && strstr(line, what))
			n++;
	fclose(f);
	return n;
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
	const struct usbtrail_record *r;
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
			/* a 512 KiB WRITE(10) of sda */
			assert_string_equal(r->u.scsi.disk, "sda");
			assert_int_equal(r->u.scsi.devt, 8 << 8);
			assert_int_equal(r->u.scsi.host, 1);
			assert_int_equal(r->u.scsi.opcode, 0x2a);
			assert_int_equal(r->u.scsi.len, 524288);
			assert_int_equal(r->u.scsi.lba % 1024, 0);
			assert_int_equal(r->flags, USBTRAIL_F_ERROR);
			timeouts++;
			break;
		case USBTRAIL_REC_EH_START:
			assert_int_equal(r->u.eh.driver, USBTRAIL_DRV_UAS);
			assert_string_equal(r->u.eh.disk, "sda");
			assert_int_equal(r->u.eh.devt, 8 << 8);
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
			assert_string_equal(r->u.eh.disk, "sda");
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
			assert_string_equal(r->u.blk.disk, "sda");
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
	assert_int_equal(blk, test_text_count(kernel, ptr_only,
					      "block_rq_complete: 8,0"));
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
