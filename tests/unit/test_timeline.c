// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the report's timeline: SCSI commands matched start to
 * done (timeline.c), the lanes of SVG (report_timeline.c) and the dips
 * explained in words (report_dip.c), over the test bed's recording
 * tests/fixtures/recordings/uas-medium-stall (its dip at 18.6 s holds the
 * timeout, abort and reset chain) and over recordings made here: a dip
 * with no error anywhere (the drive slowed), one without SCSI records,
 * and ten minutes with a dip of one interval, which the binned lanes keep.
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "recording.h"
#include "report.h"
#include "timeline.h"

#include "fixture_recording.h"

static const struct ev *find_dip(const struct recording *r)
{
	size_t i;

	for (i = 0; i < r->nevs; i++)
		if (r->evs[i].type == EV_INCIDENT &&
		    r->evs[i].u.incident.inc.kind == CLASSIFY_DIP)
			return &r->evs[i];
	return NULL;
}

static char *write_to_string(int (*w)(FILE *, const struct recording *,
				      const struct report_opts *),
			     const struct recording *r, double from, double to)
{
	struct report_opts o = { .dir = "DIR", .from = from, .to = to };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(w(f, r, &o), 0);
	fclose(f);
	return buf;
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	while ((s = strstr(s, what))) {
		n++;
		s += strlen(what);
	}
	return n;
}

static void test_fixture_commands(void **state)
{
	struct recording *r = *state;
	struct timeline_cmds c;
	size_t i, done = 0, timed_out = 0, unknown = 0;

	assert_int_equal(timeline_cmds_load(r, "sda", &c), 0);
	assert_true(c.have_scsi);
	assert_int_equal(c.timeouts, 8);
	for (i = 0; i < c.n; i++) {
		done += c.cmd[i].done;
		timed_out += c.cmd[i].t_timeout_ns != 0;
		unknown += !c.cmd[i].t_start_ns;
		if (c.cmd[i].done)
			assert_true(timeline_cmd_latency(&c.cmd[i]) >= 0);
	}
	assert_int_equal(timed_out, 8);
	/* trimmed: one timed-out command's start is not in the fixture */
	assert_int_equal(unknown, 1);
	assert_true(done >= 10);
	timeline_cmds_free(&c);
	assert_int_equal(timeline_cmds_load(r, "sdz", &c), 0);
	assert_true(c.have_scsi);
	assert_int_equal(c.n, 0);
	timeline_cmds_free(&c);
}

static void test_percentile(void **state)
{
	double v[100];
	int i;

	(void)state;
	for (i = 0; i < 100; i++)
		v[i] = 100 - i;
	assert_true(timeline_percentile(v, 100, 99) == 99);
	assert_true(timeline_percentile(v, 100, 100) == 100);
	assert_true(timeline_percentile(v, 1, 99) == 1);
	assert_true(timeline_percentile(v, 0, 99) == -1);
}

/* The fixture's dip: the UAS timeout, abort and reset chain inside. */
static void test_fixture_dip(void **state)
{
	struct recording *r = *state;
	const struct ev *dip = find_dip(r);
	struct report_dip_facts *f = malloc(sizeof(*f));
	char buf[4096];

	assert_non_null(dip);
	assert_non_null(f);
	/* 18.6 s on the recording's clock */
	assert_true(dip->t_ns == 18600000000ull);
	assert_int_equal(report_dip_facts(r, dip, f), 0);
	assert_int_equal(f->scsi_timeouts, 8);
	assert_int_equal(f->inc_timeouts, 8);
	assert_int_equal(f->aborts, 8);
	assert_true(f->resets >= 1);
	assert_true(f->recovered);
	assert_false(f->offline);
	assert_true(f->have_scsi);
	assert_true(f->have_xhci);
	assert_int_equal(f->cc_errors, 0);
	assert_true(f->klog_about > 0);
	assert_string_equal(f->scsi, "0:0:0:0");
	assert_string_equal(f->host, "host0");
	free(f);

	assert_int_equal(report_dip_explain(r, dip, buf, sizeof(buf)), 0);
	assert_true(!strncmp(buf, "the device stopped answering: 8 commands "
			     "timed out, then abort and reset; recovered ", 83));
	assert_non_null(strstr(buf, "\nSCSI error handling: 8 commands timed "
			       "out (the first 2.8 s into the dip), 8 aborts"));
	assert_non_null(strstr(buf, "\nkernel: "));
	assert_null(strstr(buf, "drive itself slowed"));
	/* cut to the buffer, still a string */
	assert_int_equal(report_dip_explain(r, dip, buf, 40), 0);
	assert_int_equal(strlen(buf), 39);
	/* not a dip */
	assert_int_equal(report_dip_explain(r, &r->evs[0], buf, sizeof(buf)),
			 -EINVAL);
}

/* report.txt and report.html say the same under the dip */
static void test_fixture_writers(void **state)
{
	struct recording *r = *state;
	char *s = write_to_string(report_text_write, r, -1, -1);

	assert_non_null(strstr(s, "    0.2 MB/s for 18.1 s against a median of "
			       "99.6 MB/s\n    why: the device stopped "
			       "answering: 8 commands timed out, then abort "
			       "and reset; recovered "));
	assert_non_null(strstr(s, "\n      SCSI error handling: 8 commands "));
	free(s);
	s = write_to_string(report_html_write, r, -1, -1);
	assert_non_null(strstr(s, "<p class='dip-why'><a href='#inc-3'>dip "
			       "#3</a> at +3.8 s, 18.1 s long: <b "
			       "class='verdict'>the device stopped answering"));
	assert_non_null(strstr(s, "<div class='why'>Why: <b class='verdict'>"
			       "the device stopped answering"));
	assert_non_null(strstr(s, "<li>SCSI error handling: 8 commands"));
	free(s);
}

static const char *const lanes[] = {
	"<g class='lane-throughput'>", "<g class='lane-latency'>",
	"<g class='lane-inflight'>", "<g class='lane-xhci'>",
	"<g class='lane-incidents'>", "<g class='lane-markers'>",
};

static void test_fixture_svg(void **state)
{
	struct recording *r = *state;
	char *s = write_to_string(report_html_write, r, -1, -1);
	unsigned int i;

	for (i = 0; i < sizeof(lanes) / sizeof(lanes[0]); i++)
		assert_int_equal(count(s, lanes[i]), 1);
	assert_int_equal(count(s, "<svg class='plot'"), 1);
	assert_int_equal(count(s, "<g class='mark'>"), 14);
	assert_non_null(strstr(s, "class='throughput'"));
	assert_non_null(strstr(s, "class='throughput-read'"));
	assert_non_null(strstr(s, "class='dip'"));
	assert_non_null(strstr(s, "<path class='latency'"));
	assert_non_null(strstr(s, "<g class='timeout'><title>8 SCSI command "
			       "timeouts"));
	assert_non_null(strstr(s, "SCSI commands queued at the device"));
	assert_non_null(strstr(s, "bulk streams 0x"));
	assert_non_null(strstr(s, "<g class='chain'><title>chain 1: timeout, "
			       "abort \u00d78, reset, recovered"));
	assert_non_null(strstr(s, "<g class='stress'>"));
	/* the mode and link speed in the lane titles */
	assert_int_equal(count(s, "sda \xc2\xb7 UAS \xc2\xb7 5000 Mbit/s"), 6);
	assert_null(strstr(s, "no SCSI command records"));
	free(s);

	/* the standalone file: an SVG document, the same lanes */
	s = write_to_string(report_timeline_write, r, -1, -1);
	assert_true(!strncmp(s, "<?xml version='1.0' encoding='UTF-8'?>\n<svg "
			     "xmlns='http://www.w3.org/2000/svg'", 61));
	for (i = 0; i < sizeof(lanes) / sizeof(lanes[0]); i++)
		assert_int_equal(count(s, lanes[i]), 1);
	assert_int_equal(count(s, "<g class='mark'>"), 14);
	assert_non_null(strstr(s, "</svg>\n"));
	assert_null(strstr(s, "<html"));
	free(s);

	/* zoomed on the stall: only the incidents inside it */
	s = write_to_string(report_timeline_write, r, 6, 8);
	assert_non_null(strstr(s, "+6.0 s to +8.0 s since recording began"));
	/* #4 timeout and #5-#12 aborts at +6.7 s to +7.7 s */
	assert_int_equal(count(s, "<g class='mark'>"), 9);
	assert_null(strstr(s, "#1 +"));
	free(s);
}

/* --- recordings made here ----------------------------------------------- */

struct gen {
	char *buf;
	size_t len;
	FILE *f;
	uint64_t id;
	uint32_t seq;
};

static void gen_open(struct gen *g)
{
	memset(g, 0, sizeof(*g));
	g->f = open_memstream(&g->buf, &g->len);
	assert_non_null(g->f);
	fprintf(g->f, "{\"id\":%" PRIu64 ",\"t\":0.5,\"type\":\"device\","
		"\"source\":\"sysfs\",\"disk\":\"sdb\",\"usb\":\"4-1\",\"bus\":4,"
		"\"devnum\":3,\"action\":\"present\",\"usb_id\":\"174c:55aa\","
		"\"speed_mbps\":5000,\"driver\":\"uas\",\"hcd\":\"0000:00:14.0\","
		"\"hcd_driver\":\"xhci_hcd\",\"serial\":\"S1\",\"product\":"
		"\"ASM1153\",\"devt\":\"8:16\"}\n", ++g->id);
}

static void gen_sample(struct gen *g, double t, double mbps, bool dip)
{
	uint64_t bytes = (uint64_t)(mbps * 1e5);

	fprintf(g->f, "{\"id\":%" PRIu64 ",\"t\":%.3f,\"type\":\"sample\","
		"\"source\":\"recorder\",\"disk\":\"sdb\",\"interval_ms\":100,"
		"\"read_bytes\":0,\"write_bytes\":%" PRIu64 ",\"completions\":1,"
		"\"inflight\":2,\"mbps\":%.3f,\"median_mbps\":100,\"dip\":%s}\n",
		++g->id, t, bytes, mbps, dip ? "true" : "false");
}

static void gen_scsi(struct gen *g, double t, unsigned int type,
		     uint32_t tag)
{
	struct usbtrail_record rec;
	const uint8_t *p = (const uint8_t *)&rec;
	size_t i;

	memset(&rec, 0, sizeof(rec));
	rec.ts_ns = (uint64_t)(t * 1e9 + 0.5);
	rec.seq = ++g->seq;
	rec.type = (uint16_t)type;
	rec.u.scsi.host = 3;
	rec.u.scsi.tag = tag;
	rec.u.scsi.opcode = 0x2a;
	rec.u.scsi.len = 1 << 20;
	memcpy(rec.u.scsi.disk, "sdb", 3);
	fprintf(g->f, "{\"id\":%" PRIu64 ",\"t\":%.9f,\"type\":\"trace\","
		"\"source\":\"module\",\"disk\":\"sdb\",\"rec\":\"scsi\","
		"\"raw\":\"", ++g->id, t);
	for (i = 0; i < sizeof(rec); i++)
		fprintf(g->f, "%02x", p[i]);
	fputs("\"}\n", g->f);
}

static void gen_dip(struct gen *g, double t, double secs)
{
	fprintf(g->f, "{\"kind\":\"dip\",\"dev\":\"sdb\",\"t\":%.3f,\"clock\":"
		"\"boot\",\"disk\":\"sdb\",\"chain\":null,\"line\":\"sdb: dip\","
		"\"summary\":\"dip\",\"evidence\":[],\"opcode\":null,\"lba\":"
		"null,\"mbps\":2.0,\"median_mbps\":100.0,\"secs\":%.1f,\"id\":%"
		PRIu64 ",\"type\":\"incident\",\"source\":\"recorder\","
		"\"usb\":\"4-1\",\"bus\":4,\"devnum\":3}\n", t, secs, ++g->id);
}

static void gen_load(struct gen *g, struct recording *r)
{
	assert_int_equal(fclose(g->f), 0);
	recording_init(r);
	assert_int_equal(recording_parse_events(r, g->buf, g->len), 0);
	assert_int_equal(recording_finish(r), 0);
	assert_int_equal(r->malformed, 0);
	free(g->buf);
}

/*
 * 60 s of writes at 100 MB/s, a command every 10 ms taking 2 ms; from 20
 * to 30 s the drive slows: 2 MB/s, commands take 200 ms; no error, no
 * timeout, nothing in the log.  With scsi: the commands are recorded.
 */
static void gen_slow(struct recording *r, bool scsi)
{
	struct gen g;
	uint32_t tag = 0;
	double t;

	gen_open(&g);
	for (t = 1; t < 61; t += 0.1) {
		bool dip = t >= 20 && t < 30;

		gen_sample(&g, t, dip ? 2 : 100, dip);
	}
	for (t = 1; scsi && t < 61; t += 0.01) {
		bool dip = t >= 20 && t < 30;

		gen_scsi(&g, t, USBTRAIL_REC_SCSI_START, tag);
		gen_scsi(&g, t + (dip ? 0.2 : 0.002), USBTRAIL_REC_SCSI_DONE,
			 tag);
		tag = (tag + 1) % 32;
	}
	gen_dip(&g, 20, 10);
	gen_load(&g, r);
}

static void test_slow_dip(void **state)
{
	struct recording r;
	char buf[4096], *s;

	(void)state;
	gen_slow(&r, true);
	assert_int_equal(r.ndisks, 1);
	assert_int_equal(report_dip_explain(&r, find_dip(&r), buf, sizeof(buf)),
			 0);
	assert_true(!strncmp(buf, "no error anywhere, but commands took up to "
			     "200 ms against a normal p99 of 2 ms: the drive "
			     "itself slowed: cache full, SMR rewrite or heat\n",
			     126));
	assert_non_null(strstr(buf, "\nSCSI error handling: no timeout, abort "
			       "or reset"));
	assert_non_null(strstr(buf, "\nkernel: 0 lines"));
	/* in the lanes: the mode, BOT or UAS, and no note of missing records */
	s = write_to_string(report_html_write, &r, -1, -1);
	assert_non_null(strstr(s, "sdb \xc2\xb7 UAS \xc2\xb7 5000 Mbit/s"));
	assert_non_null(strstr(s, "no error anywhere, but commands took up to"));
	assert_null(strstr(s, "no SCSI command records"));
	assert_non_null(strstr(s, "no xHCI transfer records in this recording "
			       "(record with the module or tracefs)"));
	free(s);
	recording_free(&r);
}

/* Without SCSI records: the lanes and the explanation say so. */
static void test_no_scsi(void **state)
{
	struct recording r;
	char buf[4096], *s;

	(void)state;
	gen_slow(&r, false);
	assert_int_equal(report_dip_explain(&r, find_dip(&r), buf, sizeof(buf)),
			 0);
	assert_true(!strncmp(buf, "no error in the kernel log (this recording "
			     "has no SCSI or xHCI records to check): the drive "
			     "itself slowed", 101));
	assert_non_null(strstr(buf, "\ncommands: no SCSI command records in "
			       "this recording (record with the module or "
			       "tracefs)"));
	s = write_to_string(report_timeline_write, &r, -1, -1);
	assert_non_null(strstr(s, "no SCSI command records in this recording "
			       "(record with the module or tracefs)"));
	assert_non_null(strstr(s, "block requests in flight (no SCSI command "
			       "records"));
	free(s);
	recording_free(&r);
}

/*
 * Ten minutes of samples with one interval at 0 MB/s in the middle: a
 * pixel column holds about seven intervals; its lowest value is kept, so
 * the band reaches the lane's bottom there (y 165.0: the lane's top 65
 * plus its height 100).
 */
static void test_long_binned(void **state)
{
	struct recording r;
	struct gen g;
	char *s, *band, *end;
	int k;

	(void)state;
	gen_open(&g);
	for (k = 10; k < 6010; k++)
		gen_sample(&g, k / 10.0, k == 3000 ? 0 : 100 + k / 10 % 7,
			   false);
	gen_load(&g, &r);
	s = write_to_string(report_timeline_write, &r, -1, -1);
	band = strstr(s, "<path class='throughput-range'");
	assert_non_null(band);
	end = strstr(band, "'/>");
	assert_non_null(end);
	*end = '\0';
	assert_non_null(strstr(band, "V165.0"));
	*end = '\'';
	/* the width bounds the size, not the 6000 samples */
	assert_true(strlen(s) < 64 * 1024);
	free(s);
	recording_free(&r);
}

/* A dip right after a recovery, with nothing in it: says so. */
static void test_after_recovery(void **state)
{
	struct recording r;
	struct gen g;
	char buf[4096];
	int k;

	(void)state;
	gen_open(&g);
	for (k = 10; k < 600; k++)
		gen_sample(&g, k / 10.0, k >= 200 && k < 210 ? 2 : 100,
			   k >= 200 && k < 210);
	fprintf(g.f, "{\"kind\":\"recovered\",\"dev\":\"host3\",\"t\":"
		"19.0,\"clock\":\"boot\",\"disk\":\"sdb\",\"chain\":1,"
		"\"line\":\"scsi host3: uas_eh_device_reset_handler success\","
		"\"summary\":\"recovered\",\"evidence\":[],\"id\":%" PRIu64
		",\"type\":\"incident\",\"source\":\"recorder\"}\n",
		++g.id);
	gen_dip(&g, 20, 1);
	gen_load(&g, &r);
	assert_int_equal(report_dip_explain(&r, find_dip(&r), buf, sizeof(buf)),
			 0);
	assert_true(!strncmp(buf, "no error in it, but it follows a recovery "
			     "1.0 s before the dip: ", 63));
	recording_free(&r);
}

/* A recording without samples has no timeline to draw. */
static void test_no_samples(void **state)
{
	struct report_opts o = { .dir = "DIR", .from = -1, .to = -1 };
	struct recording r;
	struct gen g;
	FILE *f = fopen("/dev/null", "w");

	(void)state;
	assert_non_null(f);
	gen_open(&g);
	gen_scsi(&g, 1.0, USBTRAIL_REC_SCSI_START, 1);
	gen_load(&g, &r);
	assert_int_equal(report_timeline_write(f, &r, &o), -ENODATA);
	fclose(f);
	recording_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fixture_commands,
						load_fixture, free_fixture),
		cmocka_unit_test_setup_teardown(test_fixture_dip,
						load_fixture, free_fixture),
		cmocka_unit_test_setup_teardown(test_fixture_writers,
						load_fixture, free_fixture),
		cmocka_unit_test_setup_teardown(test_fixture_svg,
						load_fixture, free_fixture),
		cmocka_unit_test(test_percentile),
		cmocka_unit_test(test_slow_dip),
		cmocka_unit_test(test_no_scsi),
		cmocka_unit_test(test_long_binned),
		cmocka_unit_test(test_no_samples),
		cmocka_unit_test(test_after_recovery),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
