// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of "usbtrail report --compare": the rows compare.c makes of
 * a real recording of the test bed (tests/fixtures/recordings/
 * uas-medium-stall) and of the bundle "usbtrail report --bundle" makes of
 * it (read back by recording_load_bundle()), of a recording made of
 * bytes here (two disks, CrystalDiskMark's phases, SCSI trace records
 * for the latency), and the CSV, Markdown and HTML writers: the CSV
 * header names, empty fields (never 0) for missing figures, RFC 4180
 * quoting, the Markdown table's shape.  Also tar_header_parse() and the
 * bundle reader's errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli.h"
#include "compare.h"
#include "recording.h"
#include "report.h"
#include "tar.h"
#include "util.h"

#define FIXTURE "../tests/fixtures/recordings/uas-medium-stall"

/* what tests/unit can expect of the fixture's one row */
static void check_fixture_row(const struct compare_row *row)
{
	const struct compare_cell *c = row->cell;

	assert_string_equal(c[COMPARE_COL_DISK].s, "sda");
	assert_string_equal(c[COMPARE_COL_USB].s, "2-1");
	assert_string_equal(c[COMPARE_COL_VID_PID].s, "46f4:0003");
	assert_string_equal(c[COMPARE_COL_BRIDGE].s, "QEMU usb-uas (emulated)");
	assert_string_equal(c[COMPARE_COL_HOST_CONTROLLER].s,
			    "QEMU xHCI (qemu-xhci)");
	assert_string_equal(c[COMPARE_COL_LINK_MBPS].s, "5000");
	assert_string_equal(c[COMPARE_COL_DRIVER].s, "uas");
	assert_string_equal(c[COMPARE_COL_UAS].s, "true");
	assert_string_equal(c[COMPARE_COL_UAS_REASON].s, "active");
	/* seq: 226492416 bytes read in 2.149 s, written in 20.510 s */
	assert_true(c[COMPARE_COL_SEQ_READ].have);
	assert_float_equal(c[COMPARE_COL_SEQ_READ].v,
			   226492416 / 2.149 / 1e6, 1e-9);
	assert_string_equal(c[COMPARE_COL_SEQ_READ].s, "105.4");
	assert_string_equal(c[COMPARE_COL_SEQ_WRITE].s, "11.0");
	/*
	 * No random phases in a seq run, and the trace records are trimmed
	 * (meta.json counts more than events.jsonl holds): no latency.
	 */
	assert_false(c[COMPARE_COL_Q1_READ].have);
	assert_string_equal(c[COMPARE_COL_Q1_READ].s, "");
	assert_false(c[COMPARE_COL_Q32_WRITE].have);
	assert_false(c[COMPARE_COL_LAT_P99].have);
	assert_string_equal(c[COMPARE_COL_DIPS].s, "1");
	assert_string_equal(c[COMPARE_COL_INCIDENTS].s, "13");
	assert_string_equal(c[COMPARE_COL_HOST].s, "(none)");
	assert_string_equal(c[COMPARE_COL_KERNEL].s, "6.1.0-57-amd64");
	assert_int_equal(row->ntp, COMPARE_TP_POINTS);
	assert_true(row->tp_max > 100);
}

static void test_fixture_row(void **state)
{
	struct compare_source src = { .name = "fx", .make = "usbtrail report fx" };
	struct compare_table t;
	struct recording r;
	const char *what;

	(void)state;
	recording_init(&r);
	assert_int_equal(recording_load(&r, FIXTURE, &what), 0);
	compare_init(&t);
	assert_int_equal(compare_add(&t, &r, &src), 1);
	assert_int_equal(t.nrows, 1);
	assert_int_equal(t.nsources, 1);
	check_fixture_row(&t.rows[0]);
	assert_string_equal(t.rows[0].cell[COMPARE_COL_RECORDING].s, "fx");
	assert_null(t.sources[0].href);
	assert_string_equal(t.sources[0].make, "usbtrail report fx");
	compare_free(&t);
	recording_free(&r);
}

/* the output of a writer in memory, NUL-ended; caller frees */
static char *write_mem(int (*w)(FILE *, const struct compare_table *),
		       const struct compare_table *t)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(w(f, t), 0);
	assert_int_equal(fclose(f), 0);
	return text;
}

/* field i (0-based) of a CSV line, unquoted, into buf */
static void csv_field(const char *line, unsigned int i, char *buf, size_t len)
{
	size_t n = 0;
	bool q = false;

	for (; *line && *line != '\r'; line++) {
		if (q && *line == '"' && line[1] == '"') {
			line++;
		} else if (*line == '"') {
			q = !q;
			continue;
		} else if (!q && *line == ',') {
			if (!i--)
				break;
			continue;
		}
		if (!i && n + 1 < len)
			buf[n++] = *line;
	}
	buf[n] = '\0';
}

/* the columns the issue names, in its order, then ours */
static const char csv_header[] =
	"disk,usb,vid_pid,bridge,host_controller,link_mbps,driver,uas,"
	"uas_reason,seq_read_mbs,seq_write_mbs,rnd4k_q1_read_mbs,"
	"rnd4k_q1_write_mbs,rnd4k_q32_read_mbs,rnd4k_q32_write_mbs,"
	"lat_p99_ms,dips,incidents,host,kernel,recording\r\n";

/*
 * The fixture and the bundle "usbtrail report --bundle" makes of it:
 * two rows alike in everything but the name, written as CSV and
 * Markdown.
 */
static void test_fixture_and_bundle(void **state)
{
	char dir[] = "/tmp/test_compare.XXXXXX", html[64], bundle[64];
	char fixture[] = FIXTURE, opt_o[] = "-o", opt_bundle[] = "--bundle";
	char cmd[] = "report";
	char *argv[7];
	struct compare_source a = { .name = FIXTURE }, b = { .name = bundle };
	struct compare_table t;
	struct recording r;
	char *csv, *md, *line, field[64], path[96];
	const char *what;
	unsigned int c, pipes = 0, k;
	int saved, devnull, ret;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(html, sizeof(html), "%s/r.html", dir);
	snprintf(bundle, sizeof(bundle), "%s/b.tar.gz", dir);
	argv[0] = cmd;
	argv[1] = fixture;
	argv[2] = opt_o;
	argv[3] = html;
	argv[4] = opt_bundle;
	argv[5] = bundle;
	argv[6] = NULL;
	/*
	 * usbtrail report FIXTURE -o DIR/r.html --bundle DIR/b.tar.gz, what
	 * it prints kept off cmocka's TAP.
	 */
	optind = 0;
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	devnull = open("/dev/null", O_WRONLY);
	assert_true(saved >= 0 && devnull >= 0);
	dup2(devnull, STDOUT_FILENO);
	ret = cmd_report_main(6, argv);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	close(devnull);
	assert_int_equal(ret, CLI_EXIT_OK);

	compare_init(&t);
	recording_init(&r);
	assert_int_equal(recording_load(&r, FIXTURE, &what), 0);
	assert_int_equal(compare_add(&t, &r, &a), 1);
	recording_free(&r);
	recording_init(&r);
	assert_int_equal(recording_load_bundle(&r, bundle, &what), 0);
	assert_non_null(r.meta);	/* the bundle's meta.json was read */
	assert_int_equal(r.malformed, 0);
	assert_int_equal(compare_add(&t, &r, &b), 1);
	recording_free(&r);
	assert_int_equal(t.nrows, 2);
	check_fixture_row(&t.rows[1]);
	for (c = 0; c < COMPARE_COL_RECORDING; c++)
		assert_string_equal(t.rows[0].cell[c].s, t.rows[1].cell[c].s);

	csv = write_mem(compare_write_csv, &t);
	assert_true(!strncmp(csv, csv_header, strlen(csv_header)));
	line = strstr(csv, "\r\n") + 2;
	csv_field(line, COMPARE_COL_SEQ_READ, field, sizeof(field));
	assert_string_equal(field, "105.4");
	/* empty, not 0 */
	for (c = COMPARE_COL_Q1_READ; c <= COMPARE_COL_LAT_P99; c++) {
		csv_field(line, c, field, sizeof(field));
		assert_string_equal(field, "");
	}
	csv_field(line, COMPARE_COL_INCIDENTS, field, sizeof(field));
	assert_string_equal(field, "13");
	line = strstr(line, "\r\n") + 2;
	csv_field(line, COMPARE_COL_RECORDING, field, sizeof(field));
	assert_string_equal(field, bundle);
	assert_string_equal(strstr(line, "\r\n"), "\r\n");
	free(csv);

	/* GFM: header, separator, a line a row, as many cells in each */
	md = write_mem(compare_write_md, &t);
	for (k = 0, line = md; k < 4; k++) {
		char *nl = strchr(line, '\n');
		unsigned int n = 0;
		char *p;

		assert_non_null(nl);
		*nl = '\0';
		assert_int_equal(line[0], '|');
		assert_int_equal(nl[-1], '|');
		for (p = line; *p; p++)
			n += *p == '|' && (p == line || p[-1] != '\\');
		if (!k)
			pipes = n;
		assert_int_equal(n, pipes);
		if (k == 1)
			assert_non_null(strstr(line, "| --- | --- |"));
		line = nl + 1;
	}
	assert_int_equal(pipes, COMPARE_COL_MAX + 1);
	assert_non_null(strstr(md, "| seq_read_mbs |"));
	assert_int_equal(line[0], '\n');	/* the table ends */
	free(md);
	compare_free(&t);

	snprintf(path, sizeof(path), "%s/r.txt", dir);
	unlink(path);
	unlink(html);
	unlink(bundle);
	assert_int_equal(rmdir(dir), 0);
}

/* --- a recording of bytes ----------------------------------------------- */

static const char synth_meta[] =
"{\"format\":\"usbtrail-recording\",\"kernel\":{\"release\":\"6.1.0-x\","
"\"hostname\":\"pi4\"},\"seconds\":30,\"events\":{\"trace\":200},"
"\"uas\":[{\"usb\":\"2-1\",\"block\":\"sdb\",\"vid\":\"152d\","
"\"pid\":\"0578\",\"speed\":5000,\"driver\":\"usb-storage\","
"\"uas_capable\":true,\"uas_active\":false,\"reason\":"
"\"quirk-ignore-uas\",\"detail\":{\"bridge\":\"JMicron \\\"JMS578\\\", "
"rev | b\"},\"hcd\":{\"chip\":\"VIA VL805\"}}]}";

static void put(struct util_str *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct util_str *s, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	assert_true(n > 0 && (size_t)n < sizeof(line));
	util_str_put(s, line, (size_t)n);
}

static void put_device(struct util_str *s, const char *disk, const char *usb,
		       const char *id)
{
	put(s, "{\"id\":1,\"t\":1.0,\"type\":\"device\",\"source\":\"sysfs\","
	    "\"disk\":\"%s\",\"usb\":\"%s\",\"bus\":2,\"devnum\":2,"
	    "\"action\":\"present\",\"usb_id\":\"%s\",\"speed_mbps\":5000,"
	    "\"driver\":\"usb-storage\",\"hcd\":\"0000:01:00.0\","
	    "\"hcd_driver\":\"xhci_hcd\",\"serial\":\"\",\"product\":\"x\"}\n",
	    disk, usb, id);
}

/* one CrystalDiskMark phase: start and end markers, samples on sdb */
static void put_phase(struct util_str *s, double t, const char *name,
		      unsigned int block, unsigned int qd, uint64_t bytes,
		      double secs)
{
	double k;

	put(s, "{\"id\":2,\"t\":%.6f,\"type\":\"marker\",\"source\":\"command\","
	    "\"bus\":null,\"devnum\":null,\"kind\":\"stress\",\"text\":"
	    "\"usbtrail-stress: phase=%s event=start run=1 gen=1 block=%u "
	    "qd=%u size=1048576\"}\n", t, name, block, qd);
	for (k = 0; k < secs; k += 0.1)
		put(s, "{\"id\":3,\"t\":%.6f,\"type\":\"sample\",\"source\":"
		    "\"recorder\",\"disk\":\"sdb\",\"usb\":\"2-1\",\"bus\":2,"
		    "\"devnum\":2,\"interval_ms\":100,\"read_bytes\":%" PRIu64
		    ",\"write_bytes\":0,\"completions\":1,\"inflight\":1,"
		    "\"mbps\":%.3f,\"median_mbps\":0,\"dip\":false}\n",
		    t + k, bytes / 10, (double)bytes / secs / 1e6);
	put(s, "{\"id\":4,\"t\":%.6f,\"type\":\"marker\",\"source\":\"command\","
	    "\"bus\":null,\"devnum\":null,\"kind\":\"stress\",\"text\":"
	    "\"usbtrail-stress: phase=%s event=end run=1 gen=1 bytes=%" PRIu64
	    " secs=%.3f errors=0\"}\n", t + secs, name, bytes, secs);
}

/*
 * A phase whose markers reached the recorder late and together (a busy
 * guest): start and end a microsecond apart, away from its I/O.
 */
static void put_late_phase(struct util_str *s, double t, const char *name,
			   unsigned int block, unsigned int qd, uint64_t bytes,
			   double secs)
{
	put(s, "{\"id\":2,\"t\":%.6f,\"type\":\"marker\",\"source\":\"command\","
	    "\"bus\":null,\"devnum\":null,\"kind\":\"stress\",\"text\":"
	    "\"usbtrail-stress: phase=%s event=start run=1 gen=1 block=%u "
	    "qd=%u size=1048576\"}\n", t, name, block, qd);
	put(s, "{\"id\":4,\"t\":%.6f,\"type\":\"marker\",\"source\":\"command\","
	    "\"bus\":null,\"devnum\":null,\"kind\":\"stress\",\"text\":"
	    "\"usbtrail-stress: phase=%s event=end run=1 gen=1 bytes=%" PRIu64
	    " secs=%.3f errors=0\"}\n", t + 1e-6, name, bytes, secs);
}

/* a scsi-start or scsi-done trace record of sdb as events.jsonl has it */
static void put_scsi(struct util_str *s, double t, bool done, uint32_t tag)
{
	struct usbtrail_record rec;
	char hex[2 * sizeof(rec) + 1];
	size_t i;

	memset(&rec, 0, sizeof(rec));
	rec.ts_ns = (uint64_t)(t * 1e9);
	rec.type = done ? USBTRAIL_REC_SCSI_DONE : USBTRAIL_REC_SCSI_START;
	rec.u.scsi.tag = tag;
	rec.u.scsi.lba = 2048;
	rec.u.scsi.len = 4096;
	rec.u.scsi.opcode = 0x28;
	memcpy(rec.u.scsi.disk, "sdb", 3);
	for (i = 0; i < sizeof(rec); i++)
		snprintf(hex + 2 * i, 3, "%02x", ((uint8_t *)&rec)[i]);
	put(s, "{\"id\":5,\"t\":%.9f,\"type\":\"trace\",\"source\":\"module\","
	    "\"disk\":\"sdb\",\"rec\":\"%s\",\"text\":\"\",\"error\":false,"
	    "\"raw\":\"%s\"}\n", t, done ? "scsi-done" : "scsi-start", hex);
}

static void synth_load(struct recording *r, bool whole_trace)
{
	struct util_str s = { 0 };
	unsigned int i;

	recording_init(r);
	/* meta.json says 200 trace records: 200 here, or fewer (trimmed) */
	assert_int_equal(recording_parse_meta(r, synth_meta,
					      strlen(synth_meta)), 0);
	put_device(&s, "sda", "1-1", "0781:5581");	/* idle: no row */
	put_device(&s, "sdb", "2-1", "152d:0578");
	put_phase(&s, 2, "Seq-Write", 1 << 20, 8, 40000000, 1.0);
	put_phase(&s, 4, "Seq-Read", 1 << 20, 8, 36000000, 0.9);
	put_phase(&s, 6, "4K-QD1-Write", 4096, 1, 1500000, 1.0);
	put_phase(&s, 8, "4K-QD1-Read", 4096, 1, 2500000, 1.0);
	put_phase(&s, 10, "4K-QD32-Read", 4096, 32, 8000000, 0.5);
	put_phase(&s, 12, "4K-QD32-Read", 4096, 32, 8000000, 1.5);
	put_late_phase(&s, 14, "4K-QD32-Write", 4096, 32, 3000000, 1.0);
	/* sda moved data too, after the run: no phase of it is sda's */
	put(&s, "{\"id\":8,\"t\":40.0,\"type\":\"sample\",\"source\":"
	    "\"recorder\",\"disk\":\"sda\",\"usb\":\"1-1\",\"bus\":1,"
	    "\"devnum\":2,\"interval_ms\":100,\"read_bytes\":4096,"
	    "\"write_bytes\":0,\"completions\":1,\"inflight\":1,"
	    "\"mbps\":0.041,\"median_mbps\":0,\"dip\":false}\n");
	/* 100 reads of 1, 2, ... 100 ms: the 99th percentile is 99 ms */
	for (i = 0; i < (whole_trace ? 100u : 90u); i++) {
		put_scsi(&s, 20 + i, false, i % 7);
		put_scsi(&s, 20 + i + (i + 1) / 1000.0, true, i % 7);
	}
	put(&s, "{\"id\":6,\"t\":15.0,\"type\":\"incident\",\"source\":"
	    "\"recorder\",\"disk\":\"sdb\",\"usb\":\"2-1\",\"kind\":\"dip\","
	    "\"dev\":\"sdb\",\"clock\":\"boot\",\"mbps\":1,\"median_mbps\":9,"
	    "\"secs\":1}\n");
	put(&s, "{\"id\":7,\"t\":16.0,\"type\":\"incident\",\"source\":"
	    "\"recorder\",\"usb\":\"2-1\",\"kind\":\"reset\",\"dev\":\"2-1\","
	    "\"clock\":\"boot\"}\n");
	assert_false(s.oom);
	assert_int_equal(recording_parse_events(r, s.s, s.len), 0);
	assert_int_equal(r->malformed, 0);
	assert_int_equal(recording_finish(r), 0);
	free(s.s);
}

static void test_synthetic(void **state)
{
	struct compare_source src = { .name = "pi4/rec,1", .href = "x.html" };
	struct compare_table t;
	struct recording r;
	const struct compare_cell *c;
	char *csv, *md, *html, field[128], *line;

	(void)state;
	synth_load(&r, true);
	assert_int_equal(r.ndisks, 2);
	compare_init(&t);
	assert_int_equal(compare_add(&t, &r, &src), 1);	/* sda is idle */
	recording_free(&r);
	c = t.rows[0].cell;
	assert_string_equal(c[COMPARE_COL_DISK].s, "sdb");
	assert_string_equal(c[COMPARE_COL_VID_PID].s, "152d:0578");
	assert_string_equal(c[COMPARE_COL_DRIVER].s, "usb-storage");
	assert_string_equal(c[COMPARE_COL_UAS].s, "false");
	assert_string_equal(c[COMPARE_COL_UAS_REASON].s, "quirk-ignore-uas");
	assert_string_equal(c[COMPARE_COL_BRIDGE].s,
			    "JMicron \"JMS578\", rev | b");
	assert_string_equal(c[COMPARE_COL_HOST_CONTROLLER].s, "VIA VL805");
	assert_string_equal(c[COMPARE_COL_SEQ_WRITE].s, "40.0");
	assert_string_equal(c[COMPARE_COL_SEQ_READ].s, "40.0");
	assert_string_equal(c[COMPARE_COL_Q1_WRITE].s, "1.5");
	assert_string_equal(c[COMPARE_COL_Q1_READ].s, "2.5");
	/* two QD32 read phases: their bytes over their seconds */
	assert_string_equal(c[COMPARE_COL_Q32_READ].s, "8.0");
	/* its markers came late: the run's span says whose it was */
	assert_string_equal(c[COMPARE_COL_Q32_WRITE].s, "3.0");
	assert_string_equal(c[COMPARE_COL_LAT_P99].s, "99.000");
	assert_string_equal(c[COMPARE_COL_DIPS].s, "1");
	/* the reset names the port only */
	assert_string_equal(c[COMPARE_COL_INCIDENTS].s, "1");
	assert_string_equal(c[COMPARE_COL_HOST].s, "pi4");

	/* RFC 4180: commas and quotes quoted, quotes doubled */
	csv = write_mem(compare_write_csv, &t);
	line = strstr(csv, "\r\n") + 2;
	assert_non_null(strstr(line, ",\"JMicron \"\"JMS578\"\", rev | b\","));
	assert_non_null(strstr(line, ",\"pi4/rec,1\"\r\n"));
	csv_field(line, COMPARE_COL_BRIDGE, field, sizeof(field));
	assert_string_equal(field, "JMicron \"JMS578\", rev | b");
	csv_field(line, COMPARE_COL_Q32_WRITE, field, sizeof(field));
	assert_string_equal(field, "3.0");
	csv_field(line, COMPARE_COL_HOST_CONTROLLER, field, sizeof(field));
	assert_string_equal(field, "VIA VL805");
	free(csv);
	md = write_mem(compare_write_md, &t);
	assert_non_null(strstr(md, "| JMicron \"JMS578\", rev \\| b |"));
	free(md);
	html = write_mem(compare_write_html, &t);
	assert_non_null(strstr(html, "JMicron &quot;JMS578&quot;, rev | b"));
	assert_null(strstr(html, "\"JMS578\""));
	assert_non_null(strstr(html, "<a href='x.html#incidents'>1</a>"));
	assert_non_null(strstr(html, "id='by-seq_read_mbs-rev'"));
	assert_non_null(strstr(html, "<svg class='chart'"));
	assert_non_null(strstr(html, "<symbol id='tp-0'"));
	assert_null(strstr(html, "<script"));
	free(html);
	compare_free(&t);

	/*
	 * Trace records cut (as in a bundle): no latency rather than one of
	 * the worst moments only.
	 */
	synth_load(&r, false);
	compare_init(&t);
	assert_int_equal(compare_add(&t, &r, &src), 1);
	assert_false(t.rows[0].cell[COMPARE_COL_LAT_P99].have);
	compare_free(&t);
	recording_free(&r);
}

/*
 * One pass of a --profile cdm test: its markers as usbtrail stress 0.3
 * writes them (pass=, and mbps= the figure its table printed).
 */
static void put_pass(struct util_str *s, double t, const char *name,
		     bool write, unsigned int block, unsigned int qd,
		     int pass, uint64_t bytes, double mbps)
{
	char p[32] = "";

	if (pass >= 0)
		snprintf(p, sizeof(p), "%s pass=%d",
			 strncmp(name, "RND", 3) ? "" : " random=1", pass);
	put(s, "{\"id\":2,\"t\":%.6f,\"type\":\"marker\",\"source\":\"command\","
	    "\"bus\":null,\"devnum\":null,\"kind\":\"stress\",\"text\":"
	    "\"usbtrail-stress: phase=%s event=start run=1 gen=1 block=%u "
	    "qd=%u size=1048576 op=%s%s\"}\n", t, name, block, qd,
	    write ? "write" : "read", p);
	put(s, "{\"id\":3,\"t\":%.6f,\"type\":\"sample\",\"source\":"
	    "\"recorder\",\"disk\":\"sdb\",\"usb\":\"2-1\",\"bus\":2,"
	    "\"devnum\":2,\"interval_ms\":100,\"read_bytes\":%" PRIu64
	    ",\"write_bytes\":0,\"completions\":1,\"inflight\":1,"
	    "\"mbps\":1,\"median_mbps\":0,\"dip\":false}\n", t + 0.1, bytes);
	put(s, "{\"id\":4,\"t\":%.6f,\"type\":\"marker\",\"source\":\"command\","
	    "\"bus\":null,\"devnum\":null,\"kind\":\"stress\",\"text\":"
	    "\"usbtrail-stress: phase=%s event=end run=1 gen=1 bytes=%" PRIu64
	    " secs=1.000 errors=0 mbps=%.17g\"}\n", t + 1, name, bytes, mbps);
}

/*
 * --profile cdm: the report's rows and compare's cells are the best
 * scored pass of each test, as stress printed it, never the warm-up
 * (pass 0, here the fastest) nor a mean of the passes; prepare is a row
 * of its own.
 */
static void test_cdm_best(void **state)
{
	struct compare_source src = { .name = "h", .href = "x.html" };
	struct recording_stress_row rows[8];
	struct util_str s = { 0 };
	char line[256];
	struct compare_table t;
	struct recording r;
	const struct compare_cell *c;
	unsigned int n;

	(void)state;
	recording_init(&r);
	put_device(&s, "sdb", "2-1", "152d:0578");
	put(&s, "{\"id\":2,\"t\":0.5,\"type\":\"marker\",\"source\":"
	    "\"command\",\"bus\":null,\"devnum\":null,\"kind\":\"stress\","
	    "\"text\":\"usbtrail-stress: phase=run event=start run=1 gen=1 "
	    "size=1048576 sector=512 disk=sdb usb=2-1 target=/dev/my disk\"}\n");
	put(&s, "{\"id\":2,\"t\":1.5,\"type\":\"marker\",\"source\":"
	    "\"command\",\"bus\":null,\"devnum\":null,\"kind\":\"stress\","
	    "\"text\":\"usbtrail-stress: phase=run event=start run=2 gen=1 "
	    "size=1048576 sector=512 disk=dm-0 usb=- target=/dev/dm-0\"}\n");
	put(&s, "{\"id\":2,\"t\":1.6,\"type\":\"marker\",\"source\":"
	    "\"command\",\"bus\":null,\"devnum\":null,\"kind\":\"stress\","
	    "\"text\":\"usbtrail-stress: phase=run event=end run=2 gen=1 "
	    "errors=0 bad=2048 fake=1 usable=524288 wrap=524288\"}\n");
	put_pass(&s, 1, "prepare", true, 1 << 20, 4, -1, 8000000, 8.0);
	put_pass(&s, 3, "SEQ1M-Q8T1-Read", false, 1 << 20, 8, 0, 90000000,
		 90.04);
	put_pass(&s, 5, "SEQ1M-Q8T1-Read", false, 1 << 20, 8, 1, 50000000,
		 50.04);
	put_pass(&s, 7, "SEQ1M-Q8T1-Read", false, 1 << 20, 8, 2, 60000000,
		 60.06);
	put_pass(&s, 9, "RND4K-Q32T1-Read", false, 4096, 32, 0, 9000000, 9.0);
	put_pass(&s, 11, "RND4K-Q32T1-Read", false, 4096, 32, 1, 7000000,
		 7.25);
	put_pass(&s, 13, "SEQ1M-Q8T1-Write", true, 1 << 20, 8, 0, 99000000,
		 99.0);
	put_pass(&s, 15, "SEQ1M-Q8T1-Write", true, 1 << 20, 8, 1, 30000000,
		 30.01);
	assert_false(s.oom);
	assert_int_equal(recording_parse_events(&r, s.s, s.len), 0);
	assert_int_equal(recording_finish(&r), 0);
	free(s.s);

	/* the runs: the target's disk from the device events, the verdict */
	assert_int_equal(r.nruns, 2);
	report_stress_target(&r, &r.runs[0], true, line, sizeof(line));
	assert_string_equal(line, "/dev/my disk: sdb, usb 2-1 152d:0578 "
			    "\"x\", 5000 Mbit/s, driver usb-storage, serial "
			    "none");
	report_stress_verdict(&r.runs[0], line, sizeof(line));
	assert_string_equal(line, "");
	report_stress_target(&r, &r.runs[1], true, line, sizeof(line));
	assert_string_equal(line, "/dev/dm-0: dm-0, not a USB disk");
	report_stress_verdict(&r.runs[1], line, sizeof(line));
	assert_string_equal(line, "fake capacity: usable size 512KiB (524288 "
			    "bytes), writes wrap every 512KiB (524288 bytes)");

	n = recording_stress_rows(&r, rows, 8);
	/* prepare (SEQ1M Q4T1), SEQ1M Q8T1, RND4K Q32T1 */
	assert_int_equal(n, 3);
	assert_string_equal(rows[1].label, "SEQ1M Q8T1");
	assert_non_null(rows[1].rd);
	assert_int_equal(rows[1].rd->pass, 2);
	assert_float_equal(rows[1].rd->mbps, 60.06, 1e-12);
	assert_int_equal(rows[1].wr->pass, 1);
	assert_string_equal(rows[2].label, "RND4K Q32T1");
	assert_float_equal(rows[2].rd->mbps, 7.25, 1e-12);
	/* a test with its warm-up only has no figure; prepare its own */
	assert_null(rows[2].wr);
	assert_string_equal(rows[0].label, "SEQ1M Q4T1");
	assert_float_equal(rows[0].wr->mbps, 8.0, 1e-12);
	assert_null(rows[0].rd);

	compare_init(&t);
	assert_int_equal(compare_add(&t, &r, &src), 1);
	recording_free(&r);
	c = t.rows[0].cell;
	assert_string_equal(c[COMPARE_COL_SEQ_READ].s, "60.1");
	assert_string_equal(c[COMPARE_COL_SEQ_WRITE].s, "30.0");
	assert_string_equal(c[COMPARE_COL_Q32_READ].s, "7.2");
	assert_false(c[COMPARE_COL_Q32_WRITE].have);
	compare_free(&t);
}

static void test_order(void **state)
{
	struct compare_table t = { 0 };
	struct compare_row rows[4];
	size_t *idx;
	unsigned int i;

	(void)state;
	memset(rows, 0, sizeof(rows));
	for (i = 0; i < 4; i++) {
		rows[i].cell[COMPARE_COL_SEQ_READ].have = i != 1;
		rows[i].cell[COMPARE_COL_SEQ_READ].v = i * 10.0;
		snprintf(rows[i].cell[COMPARE_COL_DISK].s, 8, "sd%c", 'd' - i);
		rows[i].cell[COMPARE_COL_DISK].have = true;
	}
	t.rows = rows;
	t.nrows = 4;
	idx = compare_order(&t, COMPARE_COL_SEQ_READ, false);
	assert_int_equal(idx[0], 3);
	assert_int_equal(idx[1], 2);
	assert_int_equal(idx[2], 0);
	assert_int_equal(idx[3], 1);	/* missing: last */
	free(idx);
	idx = compare_order(&t, COMPARE_COL_SEQ_READ, true);
	assert_int_equal(idx[0], 0);
	assert_int_equal(idx[2], 3);
	assert_int_equal(idx[3], 1);	/* missing: last, either way */
	free(idx);
	idx = compare_order(&t, COMPARE_COL_DISK, false);
	assert_int_equal(idx[0], 3);	/* sda */
	assert_int_equal(idx[3], 0);	/* sdd */
	free(idx);
}

static void test_formats(void **state)
{
	enum compare_format f = COMPARE_FORMAT_HTML;
	unsigned int c;

	(void)state;
	assert_int_equal(compare_format_guess("a/t.csv", &f), 0);
	assert_int_equal(f, COMPARE_FORMAT_CSV);
	assert_int_equal(compare_format_guess("T.MD", &f), 0);
	assert_int_equal(f, COMPARE_FORMAT_MD);
	assert_int_equal(compare_format_guess("x.htm", &f), 0);
	assert_int_equal(f, COMPARE_FORMAT_HTML);
	assert_int_equal(compare_format_guess("x.txt", &f), -EINVAL);
	assert_int_equal(compare_format_guess("a.d/table", &f), -EINVAL);
	assert_string_equal(compare_col_name(COMPARE_COL_LAT_P99),
			    "lat_p99_ms");
	assert_true(compare_col_numeric(COMPARE_COL_DIPS));
	for (c = 0; c < COMPARE_COL_MAX; c++)
		assert_string_not_equal(compare_col_name(c), "?");
	assert_false(compare_col_numeric(COMPARE_COL_UAS));
}

static void test_tar_read(void **state)
{
	struct tar_buf t = { 0 };
	struct tar_entry e;

	(void)state;
	assert_int_equal(tar_add(&t, "usbtrail-bundle/meta.json", "{}", 2,
				 0), 0);
	assert_int_equal(tar_finish(&t), 0);
	assert_int_equal(tar_header_parse(t.data, &e), 0);
	assert_string_equal(e.name, "usbtrail-bundle/meta.json");
	assert_int_equal(e.size, 2);
	assert_int_equal(e.type, '0');
	assert_int_equal(tar_padded(2), 512);
	assert_int_equal(tar_padded(512), 512);
	assert_int_equal(tar_header_parse(t.data + 1024, &e), 1);
	t.data[10] ^= 1;		/* the checksum no longer holds */
	assert_int_equal(tar_header_parse(t.data, &e), -EINVAL);
	tar_free(&t);
}

static void test_bundle_errors(void **state)
{
	char path[] = "/tmp/test_compare_tar.XXXXXX";
	struct tar_buf t = { 0 };
	struct recording r;
	const char *what;
	size_t off = 0;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(util_write_all(fd, "not a tar archive\n", 18, &off),
			 0);
	recording_init(&r);
	assert_int_equal(recording_load_bundle(&r, path, &what), -EBADMSG);
	recording_free(&r);
	/* a plain tar with a meta.json and no events.jsonl */
	assert_int_equal(tar_add(&t, "x/meta.json", "{}", 2, 0), 0);
	assert_int_equal(tar_finish(&t), 0);
	assert_int_equal(ftruncate(fd, 0), 0);
	assert_int_equal(pwrite(fd, t.data, t.len, 0), (ssize_t)t.len);
	recording_init(&r);
	assert_int_equal(recording_load_bundle(&r, path, &what), -ENOENT);
	assert_string_equal(what, "events.jsonl");
	recording_free(&r);
	/* cut inside the header of the second file */
	tar_free(&t);
	assert_int_equal(tar_add(&t, "x/meta.json", "{}", 2, 0), 0);
	assert_int_equal(tar_add(&t, "x/events.jsonl", "{}\n", 3, 0), 0);
	assert_int_equal(ftruncate(fd, 0), 0);
	assert_int_equal(pwrite(fd, t.data, 1024 + 300, 0), 1024 + 300);
	recording_init(&r);
	assert_int_equal(recording_load_bundle(&r, path, &what), -EBADMSG);
	recording_free(&r);
	close(fd);
	unlink(path);
	tar_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_row),
		cmocka_unit_test(test_fixture_and_bundle),
		cmocka_unit_test(test_synthetic),
		cmocka_unit_test(test_cdm_best),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_tar_read),
		cmocka_unit_test(test_bundle_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
