// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_scsi_pt.c - unit tests of userspace/scsi_pt.c's READ CAPACITY
 * reading (SBC-4 5.20, 5.21): the answers of a 1 GiB disk, of a bridge
 * that sets bit 40 of the last LBA (the test bed's rc16 bridge, the size
 * users post), of a disk too big for READ CAPACITY(10), and answers that
 * are no capacity.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "scsi_pt.h"

static struct scsi_pt_result answer(const uint8_t *d, unsigned int n)
{
	struct scsi_pt_result r;

	memset(&r, 0, sizeof(r));
	memcpy(r.data, d, n);
	r.data_len = n;
	return r;
}

static void test_rc10(void **state)
{
	/* last LBA 2097151, 512-byte blocks: 1 GiB */
	static const uint8_t gib[8] = { 0, 0x1f, 0xff, 0xff, 0, 0, 2, 0 };
	static const uint8_t big[8] = { 0xff, 0xff, 0xff, 0xff, 0, 0, 2, 0 };
	static const uint8_t k4[8] = { 0, 0, 0xff, 0xff, 0, 0, 0x10, 0 };
	struct scsi_pt_result r = answer(gib, 8);
	uint64_t b = 0;

	(void)state;
	assert_int_equal(scsi_pt_capacity(&scsi_pt_rc10, &r, &b), 0);
	assert_int_equal(b, 1073741824ull);
	r = answer(k4, 8);
	assert_int_equal(scsi_pt_capacity(&scsi_pt_rc10, &r, &b), 0);
	assert_int_equal(b, 65536ull * 4096);
	/* "ask READ CAPACITY(16)": no size here */
	r = answer(big, 8);
	assert_int_equal(scsi_pt_capacity(&scsi_pt_rc10, &r, &b), -ERANGE);
}

static void test_rc16(void **state)
{
	/* the rc16 bridge: last LBA 0x0000010000_1fffff */
	static const uint8_t garbage[32] = { 0, 0, 0x01, 0, 0, 0x1f, 0xff, 0xff,
					     0, 0, 2, 0 };
	static const uint8_t gib[32] = { 0, 0, 0, 0, 0, 0x1f, 0xff, 0xff,
					 0, 0, 2, 0 };
	struct scsi_pt_result r = answer(garbage, 32);
	uint64_t b = 0;

	(void)state;
	assert_int_equal(scsi_pt_capacity(&scsi_pt_rc16, &r, &b), 0);
	/* sd's "1099513724928 512-byte logical blocks" */
	assert_int_equal(b / 512, 1099513724928ull);
	r = answer(gib, 32);
	assert_int_equal(scsi_pt_capacity(&scsi_pt_rc16, &r, &b), 0);
	assert_int_equal(b, 1073741824ull);
	/* 0xffffffff is a real LBA in (16) */
	r.data[4] = 0xff;
	r.data[5] = 0xff;
	assert_int_equal(scsi_pt_capacity(&scsi_pt_rc16, &r, &b), 0);
	assert_int_equal(b, 4294967296ull * 512);
}

static void test_not_a_capacity(void **state)
{
	static const uint8_t gib[8] = { 0, 0x1f, 0xff, 0xff, 0, 0, 2, 0 };
	static const uint8_t zero_block[8] = { 0, 0x1f, 0xff, 0xff, 0, 0, 0, 0 };
	static const uint8_t all[32] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 2, 0 };
	struct scsi_pt_result r = answer(gib, 8);
	uint64_t b = 7;

	(void)state;
	r.status = 2;			/* CHECK CONDITION */
	assert_int_equal(scsi_pt_capacity(&scsi_pt_rc10, &r, &b), -ENODATA);
	r = answer(gib, 8);
	r.host = 3;			/* DID_TIME_OUT */
	assert_int_equal(scsi_pt_capacity(&scsi_pt_rc10, &r, &b), -ENODATA);
	r = answer(gib, 7);		/* short */
	assert_int_equal(scsi_pt_capacity(&scsi_pt_rc10, &r, &b), -ENODATA);
	r = answer(gib, 8);
	assert_int_equal(scsi_pt_capacity(&scsi_pt_rc16, &r, &b), -ENODATA);
	r = answer(zero_block, 8);
	assert_int_equal(scsi_pt_capacity(&scsi_pt_rc10, &r, &b), -ENODATA);
	/* never an overflowed size */
	r = answer(all, 32);
	assert_int_equal(scsi_pt_capacity(&scsi_pt_rc16, &r, &b), -ENODATA);
	assert_int_equal(b, 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rc10),
		cmocka_unit_test(test_rc16),
		cmocka_unit_test(test_not_a_capacity),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
