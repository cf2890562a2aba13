// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_util.c - unit tests of userspace/lib/util.c: the number and size parser
 * that every command option goes through, its formatters, and relative
 * paths.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "util.h"

#define NOMAX	UINT64_MAX

/* Parse @s, expecting @want; @out must be written. */
static void test_util_ok(const char *s, unsigned int flags, uint64_t want)
{
	uint64_t v = 0xdeadbeef;

	assert_int_equal(util_parse_number(s, flags, 0, NOMAX, &v), 0);
	assert_true(v == want);
}

/* Parse @s, expecting @err; @out must be left alone. */
static void test_util_err(const char *s, unsigned int flags, uint64_t min,
			  uint64_t max, int err)
{
	uint64_t v = 0xdeadbeef;

	assert_int_equal(util_parse_number(s, flags, min, max, &v), err);
	assert_true(v == 0xdeadbeef);
}

static void test_util_plain(void **state)
{
	(void)state;
	test_util_ok("0", 0, 0);
	test_util_ok("1", 0, 1);
	test_util_ok("4096", 0, 4096);
	test_util_ok("007", 0, 7);	/* decimal, not octal */
	test_util_ok("18446744073709551615", 0, UINT64_MAX);
}

static void test_util_suffixes(void **state)
{
	(void)state;
	test_util_ok("0K", UTIL_NUM_SIZE, 0);
	test_util_ok("1K", UTIL_NUM_SIZE, 1024);
	test_util_ok("64k", UTIL_NUM_SIZE, 65536);
	test_util_ok("3KiB", UTIL_NUM_SIZE, 3072);
	test_util_ok("1M", UTIL_NUM_SIZE, 1048576);
	test_util_ok("2m", UTIL_NUM_SIZE, 2097152);
	test_util_ok("5MiB", UTIL_NUM_SIZE, 5242880);
	test_util_ok("1G", UTIL_NUM_SIZE, 1073741824);
	test_util_ok("4g", UTIL_NUM_SIZE, 4294967296ull);
	test_util_ok("10GiB", UTIL_NUM_SIZE, 10737418240ull);
	test_util_ok("1T", UTIL_NUM_SIZE, 1099511627776ull);
	test_util_ok("2TiB", UTIL_NUM_SIZE, 2199023255552ull);
	/* The largest value a suffix can reach without overflow. */
	test_util_ok("16777215T", UTIL_NUM_SIZE, 0xffffffull << 40);
}

static void test_util_suffix_needs_flag(void **state)
{
	(void)state;
	test_util_err("1K", 0, 0, NOMAX, -EINVAL);
	test_util_err("1KiB", 0, 0, NOMAX, -EINVAL);
	test_util_err("5s", 0, 0, NOMAX, -EINVAL);
}

static void test_util_bad_suffix(void **state)
{
	static const char *const bad[] = {
		"1KB", "1MB", "1kb", "1kib", "1Ki", "1KiBs", "1KK", "1 K",
		"1B", "1P", "1PiB", "1E", "1b", "1K ", "1.5K", "1,5K",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		test_util_err(bad[i], UTIL_NUM_SIZE, 0, NOMAX, -EINVAL);
}

static void test_util_garbage(void **state)
{
	static const char *const bad[] = {
		"", " ", "K", "KiB", "abc", "12abc", "0x10", "1e3", "1.0",
		" 1", "1 ", "\t1", "1\n", "+1", "--1", "1-", "\xd9\xa1",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		test_util_err(bad[i], 0, 0, NOMAX, -EINVAL);
		test_util_err(bad[i], UTIL_NUM_SIZE, 0, NOMAX, -EINVAL);
	}
}

/* strtoull() would turn these into 2^64 - n; they must be refused. */
static void test_util_negative(void **state)
{
	(void)state;
	test_util_err("-1", 0, 0, NOMAX, -EINVAL);
	test_util_err("-0", 0, 0, NOMAX, -EINVAL);
	test_util_err("-1K", UTIL_NUM_SIZE, 0, NOMAX, -EINVAL);
	test_util_err("-18446744073709551615", 0, 0, NOMAX, -EINVAL);
}

static void test_util_overflow(void **state)
{
	(void)state;
	test_util_err("18446744073709551616", 0, 0, NOMAX, -ERANGE);
	test_util_err("99999999999999999999999999", 0, 0, NOMAX, -ERANGE);
	test_util_err("18446744073709551616K", UTIL_NUM_SIZE, 0, NOMAX,
		      -ERANGE);
	/* Fits in 64 bits, but not once multiplied. */
	test_util_err("16777216T", UTIL_NUM_SIZE, 0, NOMAX, -ERANGE);
	test_util_err("17179869184G", UTIL_NUM_SIZE, 0, NOMAX, -ERANGE);
	test_util_err("18014398509481984K", UTIL_NUM_SIZE, 0, NOMAX, -ERANGE);
	/* Syntax is judged before size. */
	test_util_err("99999999999999999999999x", UTIL_NUM_SIZE, 0, NOMAX,
		      -EINVAL);
}

static void test_util_range(void **state)
{
	uint64_t v = 0;

	(void)state;
	test_util_err("0", 0, 1, 1024, -ERANGE);
	test_util_err("1025", 0, 1, 1024, -ERANGE);
	test_util_err("2K", UTIL_NUM_SIZE, 512, 1024, -ERANGE);
	test_util_err("256", UTIL_NUM_SIZE, 512, 1024, -ERANGE);

	/* Both ends are inclusive. */
	assert_int_equal(util_parse_number("1", 0, 1, 1024, &v), 0);
	assert_true(v == 1);
	assert_int_equal(util_parse_number("1024", 0, 1, 1024, &v), 0);
	assert_true(v == 1024);
	assert_int_equal(util_parse_number("1K", UTIL_NUM_SIZE, 1, 1024, &v),
			 0);
	assert_true(v == 1024);
}

static void test_util_null(void **state)
{
	uint64_t v = 0;

	(void)state;
	assert_int_equal(util_parse_number(NULL, 0, 0, NOMAX, &v), -EINVAL);
	assert_int_equal(util_parse_number("1", 0, 0, NOMAX, NULL), -EINVAL);
}

static void test_util_format(void **state)
{
	static const struct {
		uint64_t v;
		const char *want;
	} cases[] = {
		{ 0, "0" }, { 1, "1" }, { 1000, "1000" }, { 1536, "1536" },
		{ 1024, "1KiB" }, { 65536, "64KiB" }, { 1048576, "1MiB" },
		{ 3ull << 30, "3GiB" }, { 1ull << 50, "1024TiB" },
		{ UINT64_MAX, "18446744073709551615" },
	};
	char buf[32];
	uint64_t back;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(util_format_size(buf, sizeof(buf),
						  cases[i].v), 0);
		assert_string_equal(buf, cases[i].want);
		/* What is printed in a message must parse back. */
		assert_int_equal(util_parse_number(buf, UTIL_NUM_SIZE, 0,
						   NOMAX, &back), 0);
		assert_true(back == cases[i].v);
	}
	assert_int_equal(util_format_size(buf, 4, 65536), -ENOSPC);
	assert_int_equal(util_format_size(buf, 5, 65536), -ENOSPC);
	assert_int_equal(util_format_size(buf, 6, 65536), 0);
}

/* An unknown link speed is unknown, not "0 Mbit/s". */
static void test_util_speed(void **state)
{
	char buf[32];

	(void)state;
	assert_string_equal(util_format_speed(buf, sizeof(buf), 0), "unknown");
	assert_string_equal(util_format_speed(buf, sizeof(buf), 1),
			    "1.5 Mbit/s");
	assert_string_equal(util_format_speed(buf, sizeof(buf), 480),
			    "480 Mbit/s");
	assert_string_equal(util_format_speed(buf, sizeof(buf), 10000),
			    "10000 Mbit/s");
}

static void test_util_relpath(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(util_relpath("/a/b", "/a/c/d", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "../c/d");
	assert_int_equal(util_relpath("/a/b", "/a/b/r.html", buf,
				      sizeof(buf)), 0);
	assert_string_equal(buf, "r.html");
	assert_int_equal(util_relpath("/", "/x/y", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "x/y");
	assert_int_equal(util_relpath("/x/y", "/", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "../..");
	assert_int_equal(util_relpath("/a/b", "/a/b", buf, sizeof(buf)), 0);
	assert_string_equal(buf, ".");
	/* a common prefix of characters is not a common directory */
	assert_int_equal(util_relpath("/ab", "/abc/f", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "../abc/f");
	assert_int_equal(util_relpath("a", "/b", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(util_relpath("/a/b/c", "/x/y/z", buf, 8),
			 -ENAMETOOLONG);
	assert_string_equal(buf, "");
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_util_plain),
		cmocka_unit_test(test_util_suffixes),
		cmocka_unit_test(test_util_suffix_needs_flag),
		cmocka_unit_test(test_util_bad_suffix),
		cmocka_unit_test(test_util_garbage),
		cmocka_unit_test(test_util_negative),
		cmocka_unit_test(test_util_overflow),
		cmocka_unit_test(test_util_range),
		cmocka_unit_test(test_util_null),
		cmocka_unit_test(test_util_format),
		cmocka_unit_test(test_util_speed),
		cmocka_unit_test(test_util_relpath),
	};

	return cmocka_run_group_tests_name("util", tests, NULL, NULL);
}
