// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_pcapng.c - unit tests of userspace/lib/pcapng.c (blocks written and
 * read back, journal export entries, malformed input) and of the pcapng
 * sink (userspace/sink_pcapng.c): what the recorder hands it comes out as
 * packets and journal entries at the right times, and a file that hits
 * its size limit stays valid up to its last whole block.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "pcapng.h"
#include "recpkt.h"
#include "record.h"
#include "usbmon.h"

#ifndef FIXTURES
#define FIXTURES "../tests/fixtures/pcapng"
#endif

static void test_pcapng_file(struct pcapng_buf *b)
{
	static const struct ev_field f[] = {
		{ "MESSAGE", "sd 0:0:0:0: [sda] tag#1 Sense Key : Not Ready [current]" },
		{ "PRIORITY", "6" },
		{ "USBTRAIL_MULTI", "one\ntwo" },
	};
	struct pcapng_buf e = { 0 };
	uint8_t pkt[70];

	memset(pkt, 0xab, sizeof(pkt));
	assert_int_equal(pcapng_put_shb(b, "usbtrail test"), 0);
	assert_int_equal(pcapng_put_idb(b, PCAPNG_LINKTYPE_USB_LINUX_MMAPPED, 0,
					"usbmon0", "all buses", 9), 0);
	assert_int_equal(pcapng_put_epb(b, 0, 1764468000123456789ull, pkt,
					sizeof(pkt), 4160), 0);
	assert_int_equal(pcapng_journal_entry(&e, 1764468000123456ull,
					      11000000, "0123456789abcdef0123456789abcdef",
					      f, 3), 0);
	assert_int_equal(pcapng_put_sje(b, e.data, e.len), 0);
	pcapng_buf_free(&e);
}

static void test_pcapng_roundtrip(void **state)
{
	struct pcapng_buf b = { 0 };
	struct pcapng_reader rd = { 0 };
	struct pcapng_block blk;
	struct pcapng_epb epb;
	const uint8_t *v;
	size_t off = 0, vlen;

	(void)state;
	test_pcapng_file(&b);
	assert_int_equal(b.len % 4, 0);

	assert_int_equal(pcapng_next_block(&rd, b.data, b.len, &off, &blk), 1);
	assert_int_equal(blk.type, PCAPNG_BT_SHB);
	/* header 12 + magic, version, section length 16 + "usbtrail test"
	 * option 4 + 16 + end 4 */
	assert_int_equal(blk.total_len, 12 + 16 + 20 + 4);
	assert_int_equal(pcapng_u32(&rd, blk.body), PCAPNG_BYTE_ORDER_MAGIC);

	assert_int_equal(pcapng_next_block(&rd, b.data, b.len, &off, &blk), 1);
	assert_int_equal(blk.type, PCAPNG_BT_IDB);
	assert_int_equal(blk.body[0] | blk.body[1] << 8, 220);
	/* if_tsresol 9 is there */
	assert_non_null(memchr(blk.body, 9, blk.body_len));

	assert_int_equal(pcapng_next_block(&rd, b.data, b.len, &off, &blk), 1);
	assert_int_equal(blk.type, PCAPNG_BT_EPB);
	assert_int_equal(pcapng_epb_parse(&rd, &blk, &epb), 0);
	assert_int_equal(epb.if_id, 0);
	assert_int_equal(epb.ts, 1764468000123456789ull);
	assert_int_equal(epb.caplen, 70);
	assert_int_equal(epb.origlen, 4160);
	assert_int_equal(epb.data[69], 0xab);
	assert_int_equal(blk.total_len, 32 + 72);

	assert_int_equal(pcapng_next_block(&rd, b.data, b.len, &off, &blk), 1);
	assert_int_equal(blk.type, PCAPNG_BT_SJE);
	assert_int_equal(pcapng_journal_field(blk.body, blk.body_len,
					      "__REALTIME_TIMESTAMP", &v, &vlen), 0);
	assert_int_equal(vlen, 16);
	assert_memory_equal(v, "1764468000123456", 16);
	assert_int_equal(pcapng_journal_field(blk.body, blk.body_len,
					      "__MONOTONIC_TIMESTAMP", &v, &vlen), 0);
	assert_memory_equal(v, "11000000", 8);
	assert_int_equal(pcapng_journal_field(blk.body, blk.body_len,
					      "_BOOT_ID", &v, &vlen), 0);
	assert_int_equal(vlen, 32);
	assert_int_equal(pcapng_journal_field(blk.body, blk.body_len,
					      "PRIORITY", &v, &vlen), 0);
	assert_memory_equal(v, "6", 1);
	/* a newline in a value: the binary form, read back whole */
	assert_int_equal(pcapng_journal_field(blk.body, blk.body_len,
					      "USBTRAIL_MULTI", &v, &vlen), 0);
	assert_int_equal(vlen, 7);
	assert_memory_equal(v, "one\ntwo", 7);
	assert_non_null(memmem(blk.body, blk.body_len,
			       "USBTRAIL_MULTI\n\x07\0\0\0\0\0\0\0one\ntwo\n", 31));
	assert_int_equal(pcapng_journal_field(blk.body, blk.body_len,
					      "NOPE", &v, &vlen), -ENOENT);

	assert_int_equal(pcapng_next_block(&rd, b.data, b.len, &off, &blk), 0);
	assert_int_equal(off, b.len);
	pcapng_buf_free(&b);
}

/* A file Wireshark's dumpcap wrote reads to its end. */
static void test_pcapng_dumpcap(void **state)
{
	struct pcapng_reader rd = { 0 };
	struct pcapng_block blk;
	struct pcapng_epb epb;
	unsigned int shb = 0, idb = 0, epbs = 0, other = 0;
	uint8_t buf[4096];
	size_t len, off = 0;
	FILE *f;

	(void)state;
	f = fopen(FIXTURES "/dumpcap-lo.pcapng", "rb");
	assert_non_null(f);
	len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	assert_int_equal(len, 988);
	while (pcapng_next_block(&rd, buf, len, &off, &blk) == 1) {
		switch (blk.type) {
		case PCAPNG_BT_SHB: shb++; break;
		case PCAPNG_BT_IDB: idb++; break;
		case PCAPNG_BT_EPB:
			epbs++;
			assert_int_equal(pcapng_epb_parse(&rd, &blk, &epb), 0);
			assert_int_equal(epb.if_id, 0);
			assert_non_null(memmem(epb.data, epb.caplen,
					       "usbtrail-fixture", 16));
			break;
		default: other++; break;
		}
	}
	assert_int_equal(off, len);
	assert_int_equal(shb, 1);
	assert_int_equal(idb, 1);
	assert_int_equal(epbs, 6);
	assert_int_equal(other, 1);	/* the statistics block */
}

/* The recording of tests/testbed/46, read back without tshark. */
static void test_pcapng_record_fixture(void **state)
{
	struct pcapng_reader rd = { 0 };
	struct pcapng_block blk;
	struct pcapng_epb epb;
	struct usbmon_event me;
	unsigned int epbs = 0, sje = 0, errors = 0;
	uint64_t last_ts = 0;
	static uint8_t buf[1 << 16];
	const uint8_t *v;
	size_t len, off = 0, vlen;
	FILE *f;

	(void)state;
	f = fopen(FIXTURES "/record-medium.pcapng", "rb");
	assert_non_null(f);
	len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	assert_true(len > 0 && len < sizeof(buf));
	while (pcapng_next_block(&rd, buf, len, &off, &blk) == 1) {
		if (blk.type == PCAPNG_BT_EPB) {
			epbs++;
			assert_int_equal(pcapng_epb_parse(&rd, &blk, &epb), 0);
			assert_true(epb.ts >= last_ts);
			last_ts = epb.ts;
			assert_true(usbmon_parse_packet(epb.data, epb.caplen,
							&me) > 0);
			assert_true(me.datalen <= 64);
			/* the packet's time is usbmon's own, to the us */
			assert_true(epb.ts / 1000 >=
				    usbmon_realtime_ns(&me.hdr) / 1000 - 1 &&
				    epb.ts / 1000 <=
				    usbmon_realtime_ns(&me.hdr) / 1000 + 1);
		} else if (blk.type == PCAPNG_BT_SJE) {
			sje++;
			assert_int_equal(pcapng_journal_field(blk.body,
				blk.body_len, "MESSAGE", &v, &vlen), 0);
			if (vlen >= 9 && !memcmp(v, "I/O error", 9))
				errors++;
		}
	}
	assert_int_equal(off, len);
	assert_int_equal(epbs, 72);
	assert_int_equal(sje, 9);
	assert_int_equal(errors, 1);
}

static void test_pcapng_journal_names(void **state)
{
	struct pcapng_buf e = { 0 };
	struct ev_field f = { "message", "x" };

	(void)state;
	assert_int_equal(pcapng_journal_entry(&e, 1, 1, NULL, &f, 1), -EINVAL);
	f.name = "1ABC";
	assert_int_equal(pcapng_journal_entry(&e, 1, 1, NULL, &f, 1), -EINVAL);
	f.name = "A-B";
	assert_int_equal(pcapng_journal_entry(&e, 1, 1, NULL, &f, 1), -EINVAL);
	assert_int_equal(e.len, 0);
	f.name = "_TRANSPORT";
	f.value = "kernel";
	assert_int_equal(pcapng_journal_entry(&e, 5, 6, NULL, &f, 1), 0);
	assert_int_equal(e.len, strlen("__REALTIME_TIMESTAMP=5\n__MONOTONIC_TIMESTAMP=6\n_TRANSPORT=kernel\n\n"));
	assert_memory_equal(e.data, "__REALTIME_TIMESTAMP=5\n__MONOTONIC_TIMESTAMP=6\n_TRANSPORT=kernel\n\n", e.len);
	pcapng_buf_free(&e);
}

static void test_pcapng_swapped(void **state)
{
	/* a big-endian SHB and IDB, as another host writes them */
	static const uint8_t be[] = {
		0x0a, 0x0d, 0x0d, 0x0a, 0, 0, 0, 28,
		0x1a, 0x2b, 0x3c, 0x4d, 0, 1, 0, 0,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0, 0, 0, 28,
		0, 0, 0, 1, 0, 0, 0, 20,
		0, 220, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 20,
	};
	struct pcapng_reader rd = { 0 };
	struct pcapng_block blk;
	size_t off = 0;

	(void)state;
	assert_int_equal(pcapng_next_block(&rd, be, sizeof(be), &off, &blk), 1);
	assert_true(rd.swapped);
	assert_int_equal(pcapng_next_block(&rd, be, sizeof(be), &off, &blk), 1);
	assert_int_equal(blk.type, PCAPNG_BT_IDB);
	assert_int_equal(blk.total_len, 20);
	assert_int_equal(pcapng_next_block(&rd, be, sizeof(be), &off, &blk), 0);
}

static void test_pcapng_malformed(void **state)
{
	struct pcapng_buf b = { 0 };
	struct pcapng_reader rd;
	struct pcapng_block blk;
	struct pcapng_epb epb;
	uint8_t *c;
	size_t off, shb_len, idb_end, epb_off;
	uint32_t v;

	(void)state;
	test_pcapng_file(&b);
	c = malloc(b.len);
	assert_non_null(c);
	memcpy(&v, b.data + 4, 4);
	shb_len = v;
	memcpy(&v, b.data + shb_len + 4, 4);
	idb_end = shb_len + v;
	epb_off = idb_end;

#define TEST_PCAPNG_WALK_FAILS(buf, len) do {				\
	int r_;								\
	memset(&rd, 0, sizeof(rd));					\
	off = 0;							\
	while ((r_ = pcapng_next_block(&rd, buf, len, &off, &blk)) == 1) \
		;							\
	assert_int_equal(r_, -EINVAL);					\
} while (0)

	/* cut anywhere inside a block */
	TEST_PCAPNG_WALK_FAILS(b.data, b.len - 4);
	TEST_PCAPNG_WALK_FAILS(b.data, idb_end + 3);
	TEST_PCAPNG_WALK_FAILS(b.data, 11);
	/* no SHB first */
	TEST_PCAPNG_WALK_FAILS(b.data + shb_len, b.len - shb_len);
	/* bad byte-order magic */
	memcpy(c, b.data, b.len);
	c[8] ^= 0xff;
	TEST_PCAPNG_WALK_FAILS(c, b.len);
	/* trailing length differs */
	memcpy(c, b.data, b.len);
	c[idb_end - 4] ^= 4;
	TEST_PCAPNG_WALK_FAILS(c, b.len);
	/* length not a multiple of 4, under 12, past the end */
	memcpy(c, b.data, b.len);
	v = 30;
	memcpy(c + epb_off + 4, &v, 4);
	TEST_PCAPNG_WALK_FAILS(c, b.len);
	v = 8;
	memcpy(c + epb_off + 4, &v, 4);
	TEST_PCAPNG_WALK_FAILS(c, b.len);
	v = 0x10000000;
	memcpy(c + epb_off + 4, &v, 4);
	TEST_PCAPNG_WALK_FAILS(c, b.len);
	/* an EPB whose caplen overruns it */
	memcpy(c, b.data, b.len);
	v = 1000;
	memcpy(c + epb_off + 8 + 12, &v, 4);
	memset(&rd, 0, sizeof(rd));
	off = 0;
	while (pcapng_next_block(&rd, c, b.len, &off, &blk) == 1 &&
	       blk.type != PCAPNG_BT_EPB)
		;
	assert_int_equal(blk.type, PCAPNG_BT_EPB);
	assert_int_equal(pcapng_epb_parse(&rd, &blk, &epb), -EINVAL);

	free(c);
	pcapng_buf_free(&b);
}

static void test_pcapng_journal_malformed(void **state)
{
	const uint8_t *v;
	size_t vlen;

	(void)state;
	/* binary length past the end */
	assert_int_equal(pcapng_journal_field((const uint8_t *)"A\n\xff\0\0\0\0\0\0\0x\n\n", 13,
					      "B", &v, &vlen), -EINVAL);
	/* no newline at all */
	assert_int_equal(pcapng_journal_field((const uint8_t *)"A=1", 3, "A",
					      &v, &vlen), -EINVAL);
	/* short length field */
	assert_int_equal(pcapng_journal_field((const uint8_t *)"A\n\1\0", 4, "A",
					      &v, &vlen), -EINVAL);
}

/*
 * Fields walked one by one, text and binary, and put back: the same entry,
 * byte for byte (bundle.c rewrites entries so).
 */
static void test_pcapng_journal_walk(void **state)
{
	static const struct ev_field f[] = {
		{ "MESSAGE", "usb 2-1: new SuperSpeed USB device" },
		{ "USBTRAIL_MULTI", "one\ntwo" },
		{ "EMPTY", "" },
	};
	struct pcapng_buf e = { 0 }, again = { 0 };
	struct pcapng_journal_item it;
	size_t pos = 0;
	unsigned int n = 0;
	int ret;

	(void)state;
	assert_int_equal(pcapng_journal_entry(&e, 1, 2, NULL, f, 3), 0);
	while ((ret = pcapng_journal_next(e.data, e.len, &pos, &it)) == 1) {
		if (n == 3) {
			assert_true(it.binary);
			assert_int_equal(it.vlen, 7);
			assert_memory_equal(it.val, "one\ntwo", 7);
		} else {
			assert_false(it.binary);
		}
		assert_int_equal(pcapng_journal_put(&again, (const char *)it.name,
						    it.nlen, it.val, it.vlen), 0);
		n++;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(n, 5);		/* the two timestamps and f */
	assert_int_equal(pos, e.len);
	/* all but the empty line that ends the entry */
	assert_int_equal(again.len, e.len - 1);
	assert_memory_equal(again.data, e.data, again.len);
	/* cut short: no whole field */
	pos = 0;
	assert_int_equal(pcapng_journal_next(e.data, 30, &pos, &it), 1);
	assert_int_equal(pcapng_journal_next(e.data, 30, &pos, &it), -EINVAL);
	pcapng_buf_free(&e);
	pcapng_buf_free(&again);
}

/* --- the sink ----------------------------------------------------------- */

static const struct ev_clock test_pcapng_clock = {
	.mono_to_boot_ns = 2000000000,		/* suspended 2 s */
	.boot_to_real_ns = 1764468000000000000,
};

static struct ev *test_pcapng_usbmon(uint64_t t_ns, uint32_t caplen)
{
	struct ev *ev = ev_new(EV_USBMON, EV_SRC_USBMON, t_ns);
	struct ev_usbmon_hdr *h;
	uint32_t i;

	assert_non_null(ev);
	h = &ev->u.usbmon.hdr;
	h->id = 0xffff888758ed9000ull;
	h->type = 'S';
	h->xfer_type = USBMON_XFER_BULK;
	h->epnum = 0x04;
	h->devnum = 2;
	h->busnum = 2;
	h->flag_setup = '-';
	h->ts_sec = (int64_t)((t_ns + 1764468000000000000ull) / 1000000000);
	h->status = -115;
	h->len_urb = 4096;
	h->len_cap = 4096;
	ev->u.usbmon.caplen = caplen;
	ev->u.usbmon.data = malloc(caplen);
	assert_non_null(ev->u.usbmon.data);
	for (i = 0; i < caplen; i++)
		ev->u.usbmon.data[i] = (uint8_t)i;
	return ev;
}

static uint8_t *test_pcapng_read(const char *path, size_t *len)
{
	struct stat st;
	uint8_t *buf;
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	buf = malloc((size_t)st.st_size + 1);
	assert_non_null(buf);
	assert_int_equal(read(fd, buf, (size_t)st.st_size), st.st_size);
	close(fd);
	*len = (size_t)st.st_size;
	return buf;
}

static void test_pcapng_sink(void **state)
{
	char path[] = "/tmp/test_pcapng.XXXXXX";
	struct rec_sink s;
	struct pcapng_reader rd = { 0 };
	struct pcapng_block blk;
	struct pcapng_epb epb;
	uint8_t hdr[USBMON_HDR_SIZE], *file;
	const uint8_t *v;
	struct ev *ev;
	size_t len, off = 0, vlen;
	unsigned int types[8], n = 0;
	struct ev trace;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(sink_pcapng_open(&s, path, &test_pcapng_clock), 0);
	assert_string_equal(s.name, "pcapng");

	ev = test_pcapng_usbmon(11036861000ull, 64);
	ev->id = 41;
	assert_int_equal(s.event(&s, ev), 0);
	usbmon_hdr_pack(&ev->u.usbmon.hdr, hdr);
	ev_free(ev);

	/* a trace record of tracefs: its packet, on the tracefs interface */
	ev = ev_new(EV_TRACE, EV_SRC_TRACEFS, 11100000000ull);
	ev->id = 42;
	ev->u.rec.type = USBTRAIL_REC_SCSI_DONE;
	ev->u.rec.ts_ns = 11100000000ull;
	ev->u.rec.u.scsi.opcode = 0x2a;
	snprintf(ev->ident.disk, sizeof(ev->ident.disk), "sdc");
	snprintf(ev->ident.usb, sizeof(ev->ident.usb), "2-1.4");
	ev->ident.busnum = 2;
	ev->ident.devnum = 7;
	/* ev_new() sizes the event to its type: the parts, not all of it */
	trace.t_ns = ev->t_ns;
	trace.u.rec = ev->u.rec;
	assert_int_equal(s.event(&s, ev), 0);
	ev_free(ev);

	ev = ev_new(EV_KLOG, EV_SRC_KMSG, 11200000000ull);
	ev->u.klog.level = 3;
	snprintf(ev->u.klog.text, sizeof(ev->u.klog.text),
		 "I/O error, dev sda, sector 10240 op 0x1:(WRITE)");
	ev->ident.busnum = 2;
	ev->ident.devnum = 2;
	assert_int_equal(s.event(&s, ev), 0);
	ev_free(ev);

	ev = ev_new(EV_INCIDENT, EV_SRC_RECORDER, 11300000000ull);
	ev->u.incident.inc.kind = CLASSIFY_IO_ERROR;
	ev->u.incident.inc.sector = 10240;
	snprintf(ev->ident.disk, sizeof(ev->ident.disk), "sda");
	assert_int_equal(s.event(&s, ev), 0);
	ev_free(ev);

	/* not for this file: 1, not counted as written */
	ev = ev_new(EV_SAMPLE, EV_SRC_RECORDER, 11400000000ull);
	assert_int_equal(s.event(&s, ev), 1);
	ev_free(ev);

	assert_int_equal(s.close(&s), 0);

	file = test_pcapng_read(path, &len);
	while (pcapng_next_block(&rd, file, len, &off, &blk) == 1) {
		assert_true(n < 8);
		types[n++] = blk.type;
		if (blk.type == PCAPNG_BT_EPB && n == 6) {
			struct ev back;

			assert_int_equal(pcapng_epb_parse(&rd, &blk, &epb), 0);
			assert_int_equal(epb.if_id, 2);
			assert_int_equal(pcapng_if_linktype(&rd, 2),
					 PCAPNG_LINKTYPE_USER0);
			assert_int_equal(pcapng_if_linktype(&rd, 1),
					 PCAPNG_LINKTYPE_USER0);
			assert_int_equal(pcapng_if_linktype(&rd, 3), -1);
			assert_int_equal(epb.ts, 1764468011100000000ull);
			assert_int_equal(epb.packet_id, 0);
			assert_int_equal(recpkt_parse(epb.data, epb.caplen,
						      &back), 0);
			assert_int_equal(back.id, 42);
			assert_int_equal(back.t_ns, trace.t_ns);
			assert_int_equal(back.source, EV_SRC_TRACEFS);
			assert_string_equal(back.ident.disk, "sdc");
			assert_string_equal(back.ident.usb, "2-1.4");
			assert_string_equal(back.ident.scsi, "");
			assert_int_equal(back.ident.busnum, 2);
			assert_int_equal(back.ident.devnum, 7);
			assert_memory_equal(&back.u.rec, &trace.u.rec,
					    sizeof(trace.u.rec));
		} else if (blk.type == PCAPNG_BT_EPB) {
			assert_int_equal(pcapng_epb_parse(&rd, &blk, &epb), 0);
			assert_int_equal(pcapng_if_linktype(&rd, epb.if_id),
				PCAPNG_LINKTYPE_USB_LINUX_MMAPPED);
			assert_int_equal(epb.packet_id, 41);
			assert_int_equal(epb.ts, 1764468011036861000ull);
			assert_int_equal(epb.caplen, 64 + 64);
			assert_int_equal(epb.origlen, 64 + 4096);
			assert_memory_equal(epb.data, hdr, sizeof(hdr));
			assert_int_equal(epb.data[64 + 63], 63);
			/* back to an event, and to the bundle's 1u text */
			{
				struct usbmon_event me;
				char line[256];

				assert_int_equal(usbmon_parse_packet(epb.data,
					epb.caplen, &me), 128);
				assert_int_equal(me.datalen, 64);
				usbmon_format_1u(&me, 11036861, line,
						 sizeof(line));
				assert_string_equal(line,
					"ffff888758ed9000 11036861 S Bo:2:002:4 -115 4096 = 00010203 04050607 08090a0b 0c0d0e0f 10111213 14151617 18191a1b 1c1d1e1f\n");
			}
		}
		if (blk.type == PCAPNG_BT_SJE && n == 7) {
			assert_int_equal(pcapng_journal_field(blk.body,
				blk.body_len, "MESSAGE", &v, &vlen), 0);
			assert_memory_equal(v, "I/O error, dev sda", 18);
			assert_int_equal(pcapng_journal_field(blk.body,
				blk.body_len, "_TRANSPORT", &v, &vlen), 0);
			assert_memory_equal(v, "kernel", 6);
			assert_int_equal(pcapng_journal_field(blk.body,
				blk.body_len, "PRIORITY", &v, &vlen), 0);
			assert_memory_equal(v, "3", 1);
			assert_int_equal(pcapng_journal_field(blk.body,
				blk.body_len, "__REALTIME_TIMESTAMP", &v, &vlen), 0);
			assert_memory_equal(v, "1764468011200000", vlen);
			/* boot time less the 2 s spent suspended */
			assert_int_equal(pcapng_journal_field(blk.body,
				blk.body_len, "__MONOTONIC_TIMESTAMP", &v, &vlen), 0);
			assert_memory_equal(v, "9200000", vlen);
			assert_int_equal(pcapng_journal_field(blk.body,
				blk.body_len, "USBTRAIL_USB_DEVICE", &v, &vlen), 0);
			assert_memory_equal(v, "2:2", vlen);
		}
		if (blk.type == PCAPNG_BT_SJE && n == 8) {
			assert_int_equal(pcapng_journal_field(blk.body,
				blk.body_len, "USBTRAIL_KIND", &v, &vlen), 0);
			assert_memory_equal(v, "io-error", vlen);
			assert_int_equal(pcapng_journal_field(blk.body,
				blk.body_len, "SYSLOG_IDENTIFIER", &v, &vlen), 0);
			assert_memory_equal(v, "usbtrail", vlen);
		}
	}
	assert_int_equal(off, len);
	assert_int_equal(n, 8);
	assert_int_equal(types[0], PCAPNG_BT_SHB);
	assert_int_equal(types[1], PCAPNG_BT_IDB);
	assert_int_equal(types[2], PCAPNG_BT_IDB);
	assert_int_equal(types[3], PCAPNG_BT_IDB);
	assert_int_equal(types[4], PCAPNG_BT_EPB);
	assert_int_equal(types[5], PCAPNG_BT_EPB);
	assert_int_equal(types[6], PCAPNG_BT_SJE);
	assert_int_equal(types[7], PCAPNG_BT_SJE);
	free(file);
	unlink(path);
}

/* A file size limit (as a full disk): -ENOSPC, and a valid file. */
static void test_pcapng_sink_full(void **state)
{
	char path[] = "/tmp/test_pcapng.XXXXXX";
	struct rlimit old, lim;
	struct rec_sink s;
	struct pcapng_reader rd = { 0 };
	struct pcapng_block blk;
	uint8_t *file;
	size_t len, off = 0;
	unsigned int i, epbs = 0;
	int fd, ret = 0;
	void (*oldsig)(int);

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(sink_pcapng_open(&s, path, &test_pcapng_clock), 0);

	oldsig = signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = 100000;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	/* 1000 events of 1100 bytes, a second apart: each one is written */
	for (i = 0; i < 1000 && !ret; i++) {
		struct ev *ev = test_pcapng_usbmon(1000000000ull * (i + 1),
						   1000);

		ret = s.event(&s, ev);
		ev_free(ev);
	}
	assert_int_equal(ret, -ENOSPC);
	/* and again, without writing */
	{
		struct ev *ev = test_pcapng_usbmon(1000000000ull * (i + 2), 8);

		assert_int_equal(s.event(&s, ev), -ENOSPC);
		ev_free(ev);
	}
	assert_int_equal(s.close(&s), -ENOSPC);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, oldsig);

	file = test_pcapng_read(path, &len);
	assert_true(len <= 100000);
	assert_true(len > 90000);
	while (pcapng_next_block(&rd, file, len, &off, &blk) == 1)
		epbs += blk.type == PCAPNG_BT_EPB;
	assert_int_equal(off, len);
	assert_true(epbs >= 80);
	free(file);
	unlink(path);
}

static void test_pcapng_sink_bad_path(void **state)
{
	struct rec_sink s;

	(void)state;
	assert_int_equal(sink_pcapng_open(&s, "/nonexistent/dir/capture.pcapng",
					  &test_pcapng_clock), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pcapng_roundtrip),
		cmocka_unit_test(test_pcapng_dumpcap),
		cmocka_unit_test(test_pcapng_record_fixture),
		cmocka_unit_test(test_pcapng_journal_names),
		cmocka_unit_test(test_pcapng_swapped),
		cmocka_unit_test(test_pcapng_malformed),
		cmocka_unit_test(test_pcapng_journal_malformed),
		cmocka_unit_test(test_pcapng_journal_walk),
		cmocka_unit_test(test_pcapng_sink),
		cmocka_unit_test(test_pcapng_sink_full),
		cmocka_unit_test(test_pcapng_sink_bad_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
