// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_usbdesc.c - unit tests of userspace/lib/usbdesc.c: raw descriptors of
 * real devices (the fixtures of tests/fixtures/uas/) and damaged ones.
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

#include "usbdesc.h"

#ifndef FIXTURES
#define FIXTURES "../tests/fixtures/uas"
#endif

/* The sysfs "descriptors" file of fixture @name; the test owns *@len bytes. */
static uint8_t *load_desc(const char *name, const char *usbpath, size_t *len)
{
	char path[512];
	uint8_t *buf;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/%s/root/sys/bus/usb/devices/%s/descriptors",
		 FIXTURES, name, usbpath);
	f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static struct usbdesc_device *parse(const uint8_t *buf, size_t len, int want)
{
	struct usbdesc_device *d = calloc(1, sizeof(*d));

	assert_non_null(d);
	assert_int_equal(usbdesc_parse_sysfs(buf, len, d), want);
	return d;
}

/* Samsung T5: BOT alt 0 and UAS alt 1 with four pipes and 32 streams. */
static void test_usbdesc_t5(void **state)
{
	const struct usbdesc_altsetting *a0, *a1;
	const struct usbdesc_config *c;
	struct usbdesc_device *d;
	uint8_t *buf;
	size_t len;
	unsigned int i, pipes = 0;

	(void)state;
	buf = load_desc("samsung-t5-asm1142", "4-1", &len);
	assert_int_equal(len, 18 + 121);
	d = parse(buf, len, 0);
	assert_int_equal(d->vid, 0x04e8);
	assert_int_equal(d->pid, 0x61f5);
	assert_int_equal(d->bcd_usb, 0x0310);
	assert_int_equal(d->nconfigs, 1);
	c = usbdesc_device_config(d, 1);
	assert_non_null(c);
	assert_null(usbdesc_device_config(d, 2));
	assert_int_equal(c->total_length, 121);
	assert_int_equal(c->max_power, 112);	/* 896 mA / 8 */
	assert_int_equal(c->nalts, 2);
	assert_int_equal(c->truncated, 0);
	a0 = &c->alts[0];
	a1 = &c->alts[1];
	assert_false(usbdesc_altsetting_is_uas(a0));
	assert_true(usbdesc_altsetting_is_mass_storage(a0));
	assert_int_equal(a0->protocol, USBDESC_PR_BULK);
	assert_int_equal(a0->nendpoints, 2);
	assert_true(a0->ep[0].has_ss_comp);
	assert_int_equal(a0->ep[0].ss_max_burst, 15);
	assert_int_equal(a0->ep[0].ss_max_streams, 0);
	assert_int_equal(a0->ep[0].pipe_id, 0);
	assert_true(usbdesc_altsetting_is_uas(a1));
	assert_int_equal(a1->alt, 1);
	assert_int_equal(a1->nendpoints, 4);
	for (i = 0; i < a1->nendpoints; i++)
		pipes |= 1u << a1->ep[i].pipe_id;
	assert_int_equal(pipes, 0x1e);
	/* 0x83 is the status pipe, 0x04 the command pipe without streams */
	assert_int_equal(a1->ep[2].address, 0x83);
	assert_int_equal(a1->ep[2].pipe_id, USBDESC_PIPE_STATUS);
	assert_int_equal(a1->ep[2].ss_max_streams, 32);
	assert_int_equal(a1->ep[3].pipe_id, USBDESC_PIPE_CMD);
	assert_int_equal(a1->ep[3].ss_max_streams, 0);
	free(d);
	free(buf);
}

/* JMS567 52.03 and ASM1051: Bulk-Only only. */
static void test_usbdesc_bot_only(void **state)
{
	static const char *const names[] = {
		"jms567-no-uas", "thermaltake-asm1051-bot"
	};
	static const char *const paths[] = { "4-2", "2-1" };
	unsigned int i;

	(void)state;
	for (i = 0; i < 2; i++) {
		struct usbdesc_device *d;
		uint8_t *buf;
		size_t len;

		buf = load_desc(names[i], paths[i], &len);
		d = parse(buf, len, 0);
		assert_int_equal(d->configs[0].nalts, 1);
		assert_false(usbdesc_altsetting_is_uas(&d->configs[0].alts[0]));
		free(d);
		free(buf);
	}
}

/* High speed: no companions, so no streams; pipes still found. */
static void test_usbdesc_high_speed(void **state)
{
	struct usbdesc_device *d;
	uint8_t *buf;
	size_t len;
	unsigned int i;

	(void)state;
	buf = load_desc("t5-dwc2-no-sg", "1-1.2", &len);
	d = parse(buf, len, 0);
	for (i = 0; i < 4; i++) {
		assert_false(d->configs[0].alts[1].ep[i].has_ss_comp);
		assert_int_equal(d->configs[0].alts[1].ep[i].ss_max_streams, 0);
		assert_true(d->configs[0].alts[1].ep[i].pipe_id >= 1);
	}
	free(d);
	free(buf);
}

static void test_usbdesc_bad_device(void **state)
{
	uint8_t b[18] = { 18, 1 };
	struct usbdesc_device d;

	(void)state;
	assert_int_equal(usbdesc_parse_device(b, 17, &d), -EINVAL);
	b[1] = 2;
	assert_int_equal(usbdesc_parse_device(b, 18, &d), -EINVAL);
	b[1] = 1;
	b[0] = 9;
	assert_int_equal(usbdesc_parse_device(b, 18, &d), -EINVAL);
	assert_int_equal(usbdesc_parse_device(NULL, 18, &d), -EINVAL);
	assert_int_equal(usbdesc_parse_sysfs(b, 0, NULL), -EINVAL);
}

/* A device descriptor alone is a device without configurations. */
static void test_usbdesc_no_config(void **state)
{
	uint8_t b[18] = { 18, 1, 0x10, 0x03 };
	struct usbdesc_device *d;

	(void)state;
	d = parse(b, sizeof(b), 0);
	assert_int_equal(d->nconfigs, 0);
	free(d);
}

/*
 * Damage the kernel tolerates: a zero-length descriptor or one running
 * past the end stops the walk; what came before is kept.
 */
static void test_usbdesc_truncated(void **state)
{
	static const uint8_t cfg[] = {
		9, 2, 40, 0, 1, 1, 0, 0x80, 50,
		9, 4, 0, 1, 4, 8, 6, 0x62, 0,
		7, 5, 0x81, 2, 0, 2, 0,
		4, 0x24, 3, 0,
		0, 5, 0x02, 2, 0, 2, 0,		/* bLength 0: stop */
		4, 0x24,
	};
	static const uint8_t longdesc[] = {
		9, 2, 30, 0, 1, 1, 0, 0x80, 50,
		9, 4, 0, 0, 1, 8, 6, 0x62, 0,
		7, 5, 0x81, 2, 0, 2, 0,
		200, 0x24, 1, 0,		/* longer than what is left */
	};
	struct usbdesc_config c;
	size_t used;

	(void)state;
	assert_int_equal(usbdesc_parse_config(cfg, sizeof(cfg), &c, &used), 0);
	assert_int_equal(used, sizeof(cfg));
	assert_int_equal(c.nalts, 1);
	assert_int_equal(c.alts[0].nendpoints, 1);
	assert_int_equal(c.alts[0].ep[0].pipe_id, 3);

	assert_int_equal(usbdesc_parse_config(longdesc, sizeof(longdesc), &c,
					      &used), 0);
	assert_int_equal(c.alts[0].nendpoints, 1);
	assert_int_equal(c.alts[0].ep[0].pipe_id, 0);

	/* wTotalLength longer than the buffer: use what is there */
	assert_int_equal(usbdesc_parse_config(cfg, 29, &c, &used), 0);
	assert_int_equal(used, 29);
	assert_int_equal(c.alts[0].ep[0].pipe_id, 3);
	/* not a configuration */
	assert_int_equal(usbdesc_parse_config(cfg + 9, 20, &c, &used), -EINVAL);
}

/*
 * Pipe IDs as uas_find_endpoints() reads them: only the first pipe-usage
 * descriptor after an endpoint counts, and IDs outside 1..4 are ignored.
 */
static void test_usbdesc_pipe_rules(void **state)
{
	static const uint8_t extra1[] = {
		6, 0x30, 15, 5, 0, 0,		/* companion, MaxStreams 2^5 */
		4, 0x24, 5, 0,			/* pipe ID 5: ignored, stops */
		4, 0x24, 2, 0,
	};
	static const uint8_t extra2[] = {
		4, 0x24, 1, 0,
		4, 0x24, 2, 0,			/* second one: ignored */
	};
	static const uint8_t extra3[] = {
		4, 0x24, 2, 0,
		6, 0x30, 15, 20, 0, 0,		/* companion not first: no */
	};
	static const uint8_t extra4[] = {
		6, 0x30, 0, 20, 0, 0,		/* bulk, 20 clamped to 16 */
	};
	struct usbdesc_endpoint ep;

	(void)state;
	memset(&ep, 0, sizeof(ep));
	ep.attributes = 2;
	usbdesc_parse_endpoint_extra(extra1, sizeof(extra1), &ep);
	assert_int_equal(ep.pipe_id, 0);
	assert_int_equal(ep.ss_max_streams, 32);

	memset(&ep, 0, sizeof(ep));
	ep.attributes = 2;
	usbdesc_parse_endpoint_extra(extra2, sizeof(extra2), &ep);
	assert_int_equal(ep.pipe_id, 1);

	memset(&ep, 0, sizeof(ep));
	ep.attributes = 2;
	usbdesc_parse_endpoint_extra(extra3, sizeof(extra3), &ep);
	assert_int_equal(ep.pipe_id, 2);
	assert_false(ep.has_ss_comp);

	memset(&ep, 0, sizeof(ep));
	ep.attributes = 2;
	usbdesc_parse_endpoint_extra(extra4, sizeof(extra4), &ep);
	assert_int_equal(ep.ss_max_streams, 65536);

	/* interrupt endpoints have no streams */
	memset(&ep, 0, sizeof(ep));
	ep.attributes = 3;
	usbdesc_parse_endpoint_extra(extra4, sizeof(extra4), &ep);
	assert_true(ep.has_ss_comp);
	assert_int_equal(ep.ss_max_streams, 0);
}

/* More alternate settings than fit are counted, not overrun. */
static void test_usbdesc_limits(void **state)
{
	uint8_t buf[9 + 9 * (USBDESC_MAX_ALTS + 3)];
	struct usbdesc_config *c = calloc(1, sizeof(*c));
	size_t off = 9, i;

	(void)state;
	assert_non_null(c);
	memcpy(buf, (uint8_t[]){ 9, 2, 0, 0, 1, 1, 0, 0x80, 0 }, 9);
	for (i = 0; i < USBDESC_MAX_ALTS + 3; i++, off += 9)
		memcpy(buf + off, (uint8_t[]){ 9, 4, 0, (uint8_t)i, 0, 8, 6,
					       0x62, 0 }, 9);
	buf[2] = (uint8_t)(off & 0xff);
	buf[3] = (uint8_t)(off >> 8);
	assert_int_equal(usbdesc_parse_config(buf, off, c, NULL), 0);
	assert_int_equal(c->nalts, USBDESC_MAX_ALTS);
	assert_int_equal(c->truncated, 3);
	free(c);
}

/*
 * A poor man's fuzzer, run under ASan/UBSan: every truncation and many
 * random byte flips of real descriptors must parse without reading
 * outside the buffer.  (tests/fuzz/fuzz_usbdesc.c is the libFuzzer form.)
 */
static void test_usbdesc_mutations(void **state)
{
	struct usbdesc_device *d = calloc(1, sizeof(*d));
	uint32_t seed = 12345;
	uint8_t *buf, *m;
	size_t len, i, n;

	(void)state;
	assert_non_null(d);
	buf = load_desc("samsung-t5-asm1142", "4-1", &len);
	for (n = 0; n <= len; n++) {
		m = malloc(n ? n : 1);
		assert_non_null(m);
		memcpy(m, buf, n);
		usbdesc_parse_sysfs(m, n, d);
		free(m);
	}
	for (i = 0; i < 20000; i++) {
		m = malloc(len);
		assert_non_null(m);
		memcpy(m, buf, len);
		for (n = 0; n < 3; n++) {
			seed = seed * 1103515245u + 12345u;
			m[(seed >> 8) % len] = (uint8_t)(seed >> 24);
		}
		usbdesc_parse_sysfs(m, len, d);
		free(m);
	}
	free(buf);
	free(d);
}

/*
 * QEMU's BOS (hw/usb/desc.c, usb_desc_bos()): a USB 2.0 Extension with
 * LPM, then SuperSpeed with U1 exit 10 us, U2 exit 32 us and the speeds
 * the device has descriptors for, byte for byte as the guest of
 * tests/testbed/20-uas-verdicts.sh reads it with a usbfs GET_DESCRIPTOR
 * and, on 6.12, from sysfs bos_descriptors.  usb-storage has full, high
 * and SuperSpeed descriptors (bFunctionalitySupport full), usb-uas only
 * high and SuperSpeed.
 */
static const uint8_t qemu_bos[] = {		/* usb-storage */
	0x05, 0x0f, 0x16, 0x00, 0x02,
	0x07, 0x10, 0x02, 0x02, 0x00, 0x00, 0x00,
	0x0a, 0x10, 0x03, 0x00, 0x0e, 0x00, 0x01, 0x0a, 0x20, 0x00,
};
static const uint8_t qemu_uas_bos[] = {		/* usb-uas */
	0x05, 0x0f, 0x16, 0x00, 0x02,
	0x07, 0x10, 0x02, 0x02, 0x00, 0x00, 0x00,
	0x0a, 0x10, 0x03, 0x00, 0x0c, 0x00, 0x02, 0x0a, 0x20, 0x00,
};

/* QEMU's usb-uas names its configuration (iConfiguration 5), not its alt */
static void test_usbdesc_qemu_strings(void **state)
{
	struct usbdesc_device *d;
	uint8_t *buf;
	size_t len;

	(void)state;
	buf = load_desc("qemu-usb-uas", "2-1", &len);
	d = parse(buf, len, 0);
	assert_int_equal(d->nconfigs, 1);
	assert_int_equal(d->configs[0].string_index, 5);
	assert_int_equal(d->configs[0].nalts, 1);
	assert_int_equal(d->configs[0].alts[0].string_index, 0);
	assert_true(usbdesc_altsetting_is_uas(&d->configs[0].alts[0]));
	free(d);
	free(buf);
}

static void test_usbdesc_bos_qemu(void **state)
{
	struct usbdesc_bos b;

	(void)state;
	assert_int_equal(usbdesc_parse_bos(qemu_bos, sizeof(qemu_bos), &b), 0);
	assert_int_equal(b.total_length, 22);
	assert_int_equal(b.num_caps, 2);
	assert_int_equal(b.ncaps, 2);
	assert_true(b.has_usb2_ext);
	assert_int_equal(b.usb2_ext_attributes, USBDESC_USB2_EXT_LPM);
	assert_true(b.has_ss);
	assert_int_equal(b.ss_attributes & USBDESC_SS_LTM, 0);
	assert_int_equal(b.ss_speeds, 0x0e);
	assert_int_equal(b.ss_functionality, 1);
	assert_int_equal(b.u1_exit_lat, 10);
	assert_int_equal(b.u2_exit_lat, 32);
	assert_false(b.has_ssp);
	assert_false(b.has_container_id);

	assert_int_equal(usbdesc_parse_bos(qemu_uas_bos, sizeof(qemu_uas_bos),
					   &b), 0);
	assert_int_equal(b.ncaps, 2);
	assert_int_equal(b.usb2_ext_attributes, USBDESC_USB2_EXT_LPM);
	assert_int_equal(b.ss_speeds, 0x0c);
	assert_int_equal(b.ss_functionality, 2);
	assert_int_equal(b.u1_exit_lat, 10);
	assert_int_equal(b.u2_exit_lat, 32);
}

static void test_usbdesc_bos_damaged(void **state)
{
	uint8_t buf[64];
	struct usbdesc_bos b;
	size_t n;

	(void)state;
	/* every cut: the header alone or more, never read past the cut */
	for (n = 0; n <= sizeof(qemu_bos); n++) {
		int r = usbdesc_parse_bos(qemu_bos, n, &b);

		assert_int_equal(r, n < 5 ? -EINVAL : 0);
		if (r)
			continue;
		assert_int_equal(b.has_usb2_ext, n >= 12);
		assert_int_equal(b.has_ss, n >= 22);
	}
	/* not a BOS */
	memcpy(buf, qemu_bos, sizeof(qemu_bos));
	buf[1] = 0x02;
	assert_int_equal(usbdesc_parse_bos(buf, sizeof(qemu_bos), &b), -EINVAL);
	/* wTotalLength ends it before the SuperSpeed capability */
	memcpy(buf, qemu_bos, sizeof(qemu_bos));
	buf[2] = 12;
	assert_int_equal(usbdesc_parse_bos(buf, sizeof(qemu_bos), &b), 0);
	assert_true(b.has_usb2_ext);
	assert_false(b.has_ss);
	/* so does bNumDeviceCaps */
	memcpy(buf, qemu_bos, sizeof(qemu_bos));
	buf[4] = 1;
	assert_int_equal(usbdesc_parse_bos(buf, sizeof(qemu_bos), &b), 0);
	assert_int_equal(b.ncaps, 1);
	assert_false(b.has_ss);
	/* a SuperSpeed capability too short for its latencies ends the walk */
	memcpy(buf, qemu_bos, sizeof(qemu_bos));
	buf[12] = 9;
	assert_int_equal(usbdesc_parse_bos(buf, sizeof(qemu_bos), &b), 0);
	assert_false(b.has_ss);
	/* what is not a device capability is stepped over */
	memcpy(buf, qemu_bos, sizeof(qemu_bos));
	buf[6] = 0x30;
	assert_int_equal(usbdesc_parse_bos(buf, sizeof(qemu_bos), &b), 0);
	assert_false(b.has_usb2_ext);
	assert_true(b.has_ss);
	assert_int_equal(b.u2_exit_lat, 32);
	/* a zero-length descriptor cannot loop */
	memcpy(buf, qemu_bos, sizeof(qemu_bos));
	buf[5] = 0;
	assert_int_equal(usbdesc_parse_bos(buf, sizeof(qemu_bos), &b), 0);
	assert_int_equal(b.ncaps, 0);
	/* LTM, and the largest U2 exit latency USB 3.2 allows */
	memcpy(buf, qemu_bos, sizeof(qemu_bos));
	buf[15] = USBDESC_SS_LTM;
	buf[20] = 0xff;
	buf[21] = 0x07;
	assert_int_equal(usbdesc_parse_bos(buf, sizeof(qemu_bos), &b), 0);
	assert_true(b.ss_attributes & USBDESC_SS_LTM);
	assert_int_equal(b.u2_exit_lat, 2047);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_usbdesc_t5),
		cmocka_unit_test(test_usbdesc_bot_only),
		cmocka_unit_test(test_usbdesc_high_speed),
		cmocka_unit_test(test_usbdesc_bad_device),
		cmocka_unit_test(test_usbdesc_no_config),
		cmocka_unit_test(test_usbdesc_truncated),
		cmocka_unit_test(test_usbdesc_pipe_rules),
		cmocka_unit_test(test_usbdesc_limits),
		cmocka_unit_test(test_usbdesc_mutations),
		cmocka_unit_test(test_usbdesc_qemu_strings),
		cmocka_unit_test(test_usbdesc_bos_qemu),
		cmocka_unit_test(test_usbdesc_bos_damaged),
	};

	return cmocka_run_group_tests_name("usbdesc", tests, NULL, NULL);
}
