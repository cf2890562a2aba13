// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_usbmon.c - unit tests of userspace/lib/usbmon.c: real events of
 * /dev/usbmon0 (tests/fixtures/usbmon/) parse, pack back to the same
 * bytes, and print as the kernel's own 1u text captured at the same time;
 * malformed events are refused; the text forms the fixtures lack (setup
 * packets, ISO, interrupt, errors) follow mon_text.c.
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

#include "usbmon.h"

#ifndef FIXTURES
#define FIXTURES "../tests/fixtures/usbmon"
#endif

/*
 * The binary and the text reader take their time stamps in two calls
 * (and two clocks); under emulation they were seen up to 1 ms apart.
 */
#define TEST_USBMON_TS_SLACK_US	5000

static uint8_t *test_usbmon_load(const char *name, size_t *len)
{
	char path[256];
	uint8_t *buf;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/%s", FIXTURES, name);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = 0;
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* The line without its second field (the time stamp), and that field. */
static void test_usbmon_split(const char *line, char *rest, size_t restlen,
			      unsigned long *ts)
{
	const char *sp1 = strchr(line, ' '), *sp2;

	assert_non_null(sp1);
	sp2 = strchr(sp1 + 1, ' ');
	assert_non_null(sp2);
	*ts = strtoul(sp1 + 1, NULL, 10);
	snprintf(rest, restlen, "%.*s%s", (int)(sp1 - line), line, sp2);
}

/*
 * Every event of NAME.bin parses, packs back to its header bytes, and
 * each line of NAME.0u (the kernel's text, which may have lost events)
 * is, in order, the 1u text of one of them.
 */
static void test_usbmon_fixture(const char *name, unsigned int want_events)
{
	char file[64], ours[512], a[512], b[512];
	size_t blen, tlen, off = 0;
	uint8_t *bin, *txt, packed[USBMON_HDR_SIZE];
	char **lines;
	unsigned long *stamps, ts_k;
	long long real_minus_mono;
	unsigned int n = 0, matched = 0, nlines = 0, i;
	char *save = NULL, *l;

	snprintf(file, sizeof(file), "%s.bin", name);
	bin = test_usbmon_load(file, &blen);
	snprintf(file, sizeof(file), "%s.0u", name);
	txt = test_usbmon_load(file, &tlen);
	snprintf(file, sizeof(file), "%s.clock", name);
	{
		size_t clen;
		uint8_t *c = test_usbmon_load(file, &clen);

		real_minus_mono = strtoll((char *)c, NULL, 10);
		free(c);
	}

	lines = calloc(blen / USBMON_ALIGN + 1, sizeof(*lines));
	stamps = calloc(blen / USBMON_ALIGN + 1, sizeof(*stamps));
	assert_non_null(lines);
	assert_non_null(stamps);
	while (off < blen) {
		struct usbmon_event ev;
		int sz = usbmon_parse(bin + off, blen - off, &ev);
		int64_t mono;

		assert_true(sz >= USBMON_HDR_SIZE);
		usbmon_hdr_pack(&ev.hdr, packed);
		assert_memory_equal(packed, bin + off, USBMON_HDR_SIZE);
		assert_int_equal(ev.datalen, ev.hdr.len_cap);
		mono = (int64_t)usbmon_realtime_ns(&ev.hdr) - real_minus_mono;
		assert_true(mono > 0);
		usbmon_format_1u(&ev, usbmon_text_tstamp((uint64_t)mono), ours,
				 sizeof(ours));
		test_usbmon_split(ours, a, sizeof(a), &stamps[n]);
		lines[n] = strdup(a);
		n++;
		off += ((size_t)sz + USBMON_ALIGN - 1) & ~(size_t)(USBMON_ALIGN - 1);
	}
	assert_int_equal(n, want_events);

	/* each kernel line, in order, among ours */
	i = 0;
	for (l = strtok_r((char *)txt, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		snprintf(ours, sizeof(ours), "%s\n", l);
		test_usbmon_split(ours, b, sizeof(b), &ts_k);
		nlines++;
		/*
		 * The same URB often repeats an identical event (a status
		 * IU); the one at the kernel's time is this line's.
		 */
		while (i < n && (strcmp(lines[i], b) ||
				 stamps[i] + TEST_USBMON_TS_SLACK_US < ts_k ||
				 ts_k + TEST_USBMON_TS_SLACK_US < stamps[i]))
			i++;
		if (i == n)
			fail_msg("kernel line not among ours at its time: %s", l);
		matched++;
		i++;
	}
	assert_true(nlines > 0);
	assert_int_equal(matched, nlines);
	for (i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
	free(stamps);
	free(bin);
	free(txt);
}

static void test_usbmon_fixture_io(void **state)
{
	(void)state;
	test_usbmon_fixture("uas-bot-io", 36);
}

static void test_usbmon_fixture_rebind(void **state)
{
	(void)state;
	test_usbmon_fixture("uas-rebind", 230);
}

/* A BOT CBW submission (31 bytes out), as a header to vary. */
static size_t test_usbmon_cbw(uint8_t *buf)
{
	static const uint8_t cbw[31] = {
		0x55, 0x53, 0x42, 0x43, 0x0f, 0, 0, 0, 0, 0x10, 0, 0,
		0x80, 0, 0x0a, 0x28,
	};
	struct ev_usbmon_hdr h;

	memset(&h, 0, sizeof(h));
	h.id = 0xffff88875a1ef780ull;
	h.type = 'S';
	h.xfer_type = USBMON_XFER_BULK;
	h.epnum = 0x02;
	h.devnum = 3;
	h.busnum = 2;
	h.flag_setup = '-';
	h.ts_sec = 1000;
	h.ts_usec = 5;
	h.status = -115;
	h.len_urb = 31;
	h.len_cap = 31;
	usbmon_hdr_pack(&h, buf);
	memcpy(buf + USBMON_HDR_SIZE, cbw, sizeof(cbw));
	return USBMON_HDR_SIZE + sizeof(cbw);
}

static void test_usbmon_set32(uint8_t *buf, size_t off, uint32_t v)
{
	memcpy(buf + off, &v, 4);
}

static void test_usbmon_parse_ok(void **state)
{
	uint8_t buf[256];
	struct usbmon_event ev;
	size_t n = test_usbmon_cbw(buf);
	char line[256];

	(void)state;
	assert_int_equal(usbmon_parse(buf, n, &ev), 95);
	assert_int_equal(ev.hdr.busnum, 2);
	assert_int_equal(ev.hdr.devnum, 3);
	assert_int_equal(ev.datalen, 31);
	assert_ptr_equal(ev.data, buf + 64);
	assert_null(ev.desc);
	assert_int_equal(usbmon_realtime_ns(&ev.hdr), 1000000005000ull);
	usbmon_format_1u(&ev, 123, line, sizeof(line));
	assert_string_equal(line,
		"ffff88875a1ef780 123 S Bo:2:003:2 -115 31 = 55534243 0f000000 00100000 80000a28 00000000 00000000 00000000 000000\n");
	/* any alignment */
	memmove(buf + 1, buf, n);
	assert_int_equal(usbmon_parse(buf + 1, n, &ev), 95);
}

static void test_usbmon_parse_bad(void **state)
{
	uint8_t buf[512], good[512];
	struct usbmon_event ev;
	size_t n = test_usbmon_cbw(good);

	(void)state;
	memset(&ev, 0x5a, sizeof(ev));
	assert_int_equal(usbmon_parse(NULL, 64, &ev), -EINVAL);
	assert_int_equal(usbmon_parse(good, 63, &ev), -EINVAL);
	/* data cut short of len_cap */
	assert_int_equal(usbmon_parse(good, n - 1, &ev), -EINVAL);
	/* *ev untouched on failure */
	assert_int_equal(ev.hdr.busnum, 0x5a5a);

	memcpy(buf, good, n);
	buf[8] = 'X';			/* type */
	assert_int_equal(usbmon_parse(buf, n, &ev), -EINVAL);
	memcpy(buf, good, n);
	buf[9] = 4;			/* xfer_type */
	assert_int_equal(usbmon_parse(buf, n, &ev), -EINVAL);
	memcpy(buf, good, n);
	test_usbmon_set32(buf, 60, 1);	/* ndesc on a bulk event */
	assert_int_equal(usbmon_parse(buf, n, &ev), -EINVAL);
	memcpy(buf, good, n);
	buf[15] = '<';			/* flagged absent, yet there */
	assert_int_equal(usbmon_parse(buf, n, &ev), -EINVAL);
	memcpy(buf, good, n);
	test_usbmon_set32(buf, 32, 30);	/* more data than the URB */
	assert_int_equal(usbmon_parse(buf, n, &ev), -EINVAL);
	memcpy(buf, good, n);
	buf[8] = 'E';			/* an error event with data */
	assert_int_equal(usbmon_parse(buf, n, &ev), -EINVAL);
	memcpy(buf, good, n);
	test_usbmon_set32(buf, 36, 0xffffffc0u);	/* len_cap overflow */
	assert_int_equal(usbmon_parse(buf, sizeof(buf), &ev), -EINVAL);

	/* ISO: too many descriptors, descriptors longer than len_cap */
	memcpy(buf, good, n);
	buf[9] = USBMON_XFER_ISO;
	test_usbmon_set32(buf, 60, USBMON_ISODESC_MAX + 1);
	assert_int_equal(usbmon_parse(buf, sizeof(buf), &ev), -EINVAL);
	test_usbmon_set32(buf, 60, 2);	/* 32 bytes > len_cap 31 */
	assert_int_equal(usbmon_parse(buf, sizeof(buf), &ev), -EINVAL);
}

static void test_usbmon_filler(void **state)
{
	uint8_t buf[256];
	struct usbmon_event ev;

	(void)state;
	memset(buf, 0, sizeof(buf));
	buf[8] = USBMON_TYPE_FILLER;
	test_usbmon_set32(buf, 36, 128);
	assert_int_equal(usbmon_parse(buf, 192, &ev), 192);
	assert_int_equal(ev.hdr.type, USBMON_TYPE_FILLER);
	assert_int_equal(usbmon_parse(buf, 191, &ev), -EINVAL);
}

/* An event made of a header (and what follows), parsed and printed. */
static const char *test_usbmon_text(const struct ev_usbmon_hdr *h,
				    const void *rest, size_t restlen,
				    char *line, size_t size)
{
	uint8_t buf[1024];
	struct usbmon_event ev;

	usbmon_hdr_pack(h, buf);
	if (restlen)
		memcpy(buf + USBMON_HDR_SIZE, rest, restlen);
	assert_int_equal(usbmon_parse(buf, USBMON_HDR_SIZE + restlen, &ev),
			 (int)(USBMON_HDR_SIZE + restlen));
	usbmon_format_1u(&ev, 7, line, size);
	return line;
}

static void test_usbmon_text_forms(void **state)
{
	struct ev_usbmon_hdr h;
	char line[512];
	uint8_t data[64], iso[6 * USBMON_ISODESC_SIZE + 8];
	int32_t ec = 1, nd = 6;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)i;

	/* GET_DESCRIPTOR: the setup packet, IN data to come */
	memset(&h, 0, sizeof(h));
	h.id = 0xabc;
	h.type = 'S';
	h.xfer_type = USBMON_XFER_CONTROL;
	h.epnum = 0x80;
	h.devnum = 1;
	h.busnum = 1;
	h.flag_data = '<';
	h.status = -115;
	h.len_urb = 18;
	memcpy(h.setup, "\x80\x06\x00\x01\x00\x00\x12\x00", 8);
	assert_string_equal(test_usbmon_text(&h, NULL, 0, line, sizeof(line)),
			    "abc 7 S Ci:1:001:0 s 80 06 0100 0000 0012 18 <\n");
	/* its completion: 18 bytes, all of them shown */
	h.type = 'C';
	h.flag_setup = '-';
	h.flag_data = 0;
	h.status = 0;
	h.len_cap = 18;
	assert_string_equal(test_usbmon_text(&h, data, 18, line, sizeof(line)),
			    "abc 7 C Ci:1:001:0 0 18 = 00010203 04050607 08090a0b 0c0d0e0f 1011\n");
	/* more than 32 bytes: the text shows 32 */
	h.xfer_type = USBMON_XFER_BULK;
	h.epnum = 0x81;
	h.len_urb = 64;
	h.len_cap = 64;
	assert_string_equal(test_usbmon_text(&h, data, 64, line, sizeof(line)),
			    "abc 7 C Bi:1:001:1 0 64 = 00010203 04050607 08090a0b 0c0d0e0f 10111213 14151617 18191a1b 1c1d1e1f\n");
	/* data the recorder did not keep (--payload 0): no data shown */
	h.len_cap = 0;
	assert_string_equal(test_usbmon_text(&h, NULL, 0, line, sizeof(line)),
			    "abc 7 C Bi:1:001:1 0 64\n");
	/* setup packet not captured */
	h.type = 'S';
	h.xfer_type = USBMON_XFER_CONTROL;
	h.epnum = 0;
	h.flag_setup = 'Z';
	h.flag_data = 'Z';
	h.status = -115;
	h.len_urb = 4;
	assert_string_equal(test_usbmon_text(&h, NULL, 0, line, sizeof(line)),
			    "abc 7 S Co:1:001:0 Z __ __ ____ ____ ____ 4 Z\n");
	/* interrupt IN completion: status:interval */
	memset(&h, 0, sizeof(h));
	h.id = 0xabc;
	h.type = 'C';
	h.xfer_type = USBMON_XFER_INT;
	h.epnum = 0x81;
	h.devnum = 4;
	h.busnum = 3;
	h.flag_setup = '-';
	h.status = -2;
	h.interval = 8;
	assert_string_equal(test_usbmon_text(&h, NULL, 0, line, sizeof(line)),
			    "abc 7 C Ii:3:004:1 -2:8 0\n");
	/* an error event */
	h.type = 'E';
	h.xfer_type = USBMON_XFER_BULK;
	h.epnum = 0x02;
	h.status = -19;
	h.flag_data = 'E';
	assert_string_equal(test_usbmon_text(&h, NULL, 0, line, sizeof(line)),
			    "abc 7 E Bo:3:004:2 -19 0\n");
	/* ISO IN completion with 6 descriptors: the text shows 5 */
	memset(&h, 0, sizeof(h));
	h.id = 0xabc;
	h.type = 'C';
	h.xfer_type = USBMON_XFER_ISO;
	h.epnum = 0x83;
	h.devnum = 5;
	h.busnum = 1;
	h.flag_setup = '-';
	h.interval = 1;
	h.start_frame = 100;
	memcpy(h.setup, &ec, 4);
	memcpy(h.setup + 4, &nd, 4);
	h.ndesc = 6;
	h.len_urb = 8;
	h.len_cap = 6 * USBMON_ISODESC_SIZE + 8;
	memset(iso, 0, sizeof(iso));
	for (i = 0; i < 6; i++) {
		int32_t st = i == 2 ? -18 : 0;

		memcpy(iso + i * 16, &st, 4);
		test_usbmon_set32(iso, i * 16 + 4, i * 192);
		test_usbmon_set32(iso, i * 16 + 8, i == 0 ? 8 : 0);
	}
	memcpy(iso + 96, data, 8);
	assert_string_equal(test_usbmon_text(&h, iso, sizeof(iso), line,
					     sizeof(line)),
			    "abc 7 C Zi:1:005:3 0:1:100:1 6 0:0:8 0:192:0 -18:384:0 0:576:0 0:768:0 8 = 00010203 04050607\n");
}

/* A packet of a capture, cut by --payload or a snap length. */
static void test_usbmon_packet_cut(void **state)
{
	uint8_t buf[512];
	struct usbmon_event ev;
	size_t n = test_usbmon_cbw(buf);
	char line[256];
	uint8_t iso[3 * USBMON_ISODESC_SIZE];
	struct ev_usbmon_hdr h;
	int32_t nd = 3;

	(void)state;
	/* whole: the same as usbmon_parse() */
	assert_int_equal(usbmon_parse_packet(buf, n, &ev), 95);
	assert_int_equal(ev.datalen, 31);
	/* 10 bytes of the CBW kept */
	assert_int_equal(usbmon_parse(buf, 74, &ev), -EINVAL);
	assert_int_equal(usbmon_parse_packet(buf, 74, &ev), 74);
	assert_int_equal(ev.datalen, 10);
	assert_int_equal(ev.hdr.len_cap, 31);
	usbmon_format_1u(&ev, 9, line, sizeof(line));
	assert_string_equal(line,
		"ffff88875a1ef780 9 S Bo:2:003:2 -115 31 = 55534243 0f000000 0010\n");
	/* the header alone (--payload 0) */
	assert_int_equal(usbmon_parse_packet(buf, 64, &ev), 64);
	assert_int_equal(ev.datalen, 0);
	assert_null(ev.data);
	/* still refused: a header short, a bad type, a filler */
	assert_int_equal(usbmon_parse_packet(buf, 63, &ev), -EINVAL);
	buf[8] = USBMON_TYPE_FILLER;
	assert_int_equal(usbmon_parse_packet(buf, n, &ev), -EINVAL);

	/* ISO with 3 descriptors, cut inside the second */
	memset(&h, 0, sizeof(h));
	h.type = 'S';
	h.xfer_type = USBMON_XFER_ISO;
	h.epnum = 0x03;
	h.flag_setup = '-';
	h.flag_data = 0;
	h.len_urb = 100;
	h.len_cap = sizeof(iso) + 100;
	h.ndesc = 3;
	memcpy(h.setup + 4, &nd, 4);
	usbmon_hdr_pack(&h, buf);
	memset(iso, 0, sizeof(iso));
	test_usbmon_set32(iso, 8, 33);
	memcpy(buf + 64, iso, sizeof(iso));
	assert_int_equal(usbmon_parse_packet(buf, 64 + 20, &ev), 84);
	assert_int_equal(ev.ndesc_cap, 1);
	assert_int_equal(ev.datalen, 0);
	assert_int_equal(usbmon_isodesc(&ev, 0).len, 33);
	assert_int_equal(usbmon_isodesc(&ev, 1).len, 0);
	usbmon_format_1u(&ev, 9, line, sizeof(line));
	assert_string_equal(line, "0 9 S Zo:0:000:3 0:0:0 3 0:0:33 100\n");
}

static void test_usbmon_text_truncates(void **state)
{
	uint8_t buf[256];
	struct usbmon_event ev;
	char full[256], small[20];
	int n;

	(void)state;
	usbmon_parse(buf, test_usbmon_cbw(buf), &ev);
	n = usbmon_format_1u(&ev, 1, full, sizeof(full));
	assert_int_equal(n, (int)strlen(full));
	assert_int_equal(usbmon_format_1u(&ev, 1, small, sizeof(small)), n);
	assert_int_equal(strlen(small), sizeof(small) - 1);
	assert_memory_equal(small, full, sizeof(small) - 1);
	assert_int_equal(usbmon_format_1u(&ev, 1, NULL, 0), n);
}

static void test_usbmon_tstamp(void **state)
{
	(void)state;
	assert_int_equal(usbmon_text_tstamp(0), 0);
	assert_int_equal(usbmon_text_tstamp(11035549123ull), 11035549);
	/* seconds wrap at 4096 */
	assert_int_equal(usbmon_text_tstamp(4096000000000ull + 5000), 5);
	assert_int_equal(usbmon_text_tstamp(4095999999999ull), 4095999999u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_usbmon_fixture_io),
		cmocka_unit_test(test_usbmon_fixture_rebind),
		cmocka_unit_test(test_usbmon_parse_ok),
		cmocka_unit_test(test_usbmon_parse_bad),
		cmocka_unit_test(test_usbmon_filler),
		cmocka_unit_test(test_usbmon_text_forms),
		cmocka_unit_test(test_usbmon_packet_cut),
		cmocka_unit_test(test_usbmon_text_truncates),
		cmocka_unit_test(test_usbmon_tstamp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
