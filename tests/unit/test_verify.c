// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_verify.c - unit tests of userspace/lib/pattern.c and userspace/lib/verify.c:
 * the sector format round-trips, and every classification comes out of the
 * deliberate corruption that should produce it.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pattern.h"
#include "verify.h"

#define RUN_ID		0x0123456789abcdefull
#define RUN_SIZE	(1u << 20)
#define START		1764458400ull
#define NSECT		16u

struct fixture {
	struct pattern_run run;		/* generation 2 */
	struct pattern_run old;		/* generation 1 */
	struct pattern_run other;	/* another run id */
	struct pattern_run scratch;
	_Alignas(32) unsigned char buf[NSECT * 4096];
	_Alignas(32) unsigned char sect[4096];
};

static int test_verify_setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	if (pattern_run_init(&f->run, RUN_ID, 2, 512, RUN_SIZE, START) ||
	    pattern_run_init(&f->old, RUN_ID, 1, 512, RUN_SIZE, START) ||
	    pattern_run_init(&f->other, RUN_ID + 1, 2, 512, RUN_SIZE,
			     START + 5))
		return -1;
	*state = f;
	return 0;
}

static int test_verify_teardown(void **state)
{
	free(*state);
	return 0;
}

static void test_verify_run_init_bad(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(pattern_run_init(&f->scratch, 1, 1, 256, 0, 0),
			 -EINVAL);
	assert_int_equal(pattern_run_init(&f->scratch, 1, 1, 1000, 0, 0),
			 -EINVAL);
	assert_int_equal(pattern_run_init(&f->scratch, 1, 1, 131072, 0, 0),
			 -EINVAL);
	assert_int_equal(pattern_run_init(&f->scratch, 1, 1, 4096, 0, 0), 0);
}

static void test_verify_roundtrip(void **state)
{
	struct fixture *f = *state;
	struct pattern_header h;

	pattern_fill(&f->run, f->buf, NSECT * 512, 8192);
	assert_true(pattern_check(&f->run, f->buf, NSECT * 512, 8192));
	/* Same data, wrong place, generation or run: rejected. */
	assert_false(pattern_check(&f->run, f->buf, NSECT * 512, 8704));
	assert_false(pattern_check(&f->old, f->buf, NSECT * 512, 8192));
	assert_false(pattern_check(&f->other, f->buf, NSECT * 512, 8192));

	assert_int_equal(pattern_header_decode(f->buf + 3 * 512, 512, &h), 0);
	assert_true(h.offset == 8192 + 3 * 512);
	assert_true(h.run_id == RUN_ID);
	assert_int_equal(h.generation, 2);
	assert_int_equal(h.sector_size, 512);
	assert_true(h.run_size == RUN_SIZE);
	assert_true(h.start_time == START);
	/* The wrong sector size or a flipped header bit: no header. */
	assert_int_equal(pattern_header_decode(f->buf, 4096, &h), -EINVAL);
	f->buf[20] ^= 1;
	assert_int_equal(pattern_header_decode(f->buf, 512, &h), -EINVAL);
}

/* Two sectors of neighbouring offsets share no word: no dedup, no
 * compression across sectors. */
static void test_verify_sectors_differ(void **state)
{
	struct fixture *f = *state;
	uint64_t a, b;
	size_t i, same = 0;

	pattern_fill(&f->run, f->buf, 2 * 512, 0);
	for (i = PATTERN_HDR_BYTES; i < 512; i += 8) {
		memcpy(&a, f->buf + i, 8);
		memcpy(&b, f->buf + 512 + i, 8);
		same += a == b;
	}
	assert_int_equal(same, 0);
}

static void test_verify_fill_4k(void **state)
{
	struct fixture *f = *state;
	struct pattern_run *r = &f->scratch;
	struct verify_sector vs;

	assert_int_equal(pattern_run_init(r, 7, 1, 4096, 1 << 30, START), 0);
	pattern_fill(r, f->buf, NSECT * 4096, 1ull << 29);
	assert_true(pattern_check(r, f->buf, NSECT * 4096, 1ull << 29));
	memcpy(f->sect, f->buf + 4096, 4096);
	f->sect[4000] ^= 0x80;
	verify_sector_classify(r, &f->run, f->sect, (1ull << 29) + 4096, &vs);
	assert_int_equal(vs.cls, VERIFY_CHANGED);
	assert_int_equal(vs.bits, 1);
}

/* Classify sector @i of f->buf as read from @offset. */
static enum verify_class test_verify_cls(struct fixture *f,
					 const unsigned char *s,
					 uint64_t offset,
					 struct verify_sector *vs)
{
	verify_sector_classify(&f->run, &f->scratch, s, offset, vs);
	return vs->cls;
}

static void test_verify_ok(void **state)
{
	struct fixture *f = *state;
	struct verify_sector vs;

	pattern_fill(&f->run, f->sect, 512, 4096);
	assert_int_equal(test_verify_cls(f, f->sect, 4096, &vs), VERIFY_OK);
}

static void test_verify_changed(void **state)
{
	struct fixture *f = *state;
	struct verify_sector vs;

	/* One bit in the fill. */
	pattern_fill(&f->run, f->sect, 512, 4096);
	f->sect[300] ^= 0x10;
	assert_int_equal(test_verify_cls(f, f->sect, 4096, &vs),
			 VERIFY_CHANGED);
	assert_int_equal(vs.bits, 1);

	/* Bits in the header: still close to what was written. */
	pattern_fill(&f->run, f->sect, 512, 4096);
	f->sect[8] ^= 0x01;
	f->sect[63] ^= 0xff;
	assert_int_equal(test_verify_cls(f, f->sect, 4096, &vs),
			 VERIFY_CHANGED);
	assert_int_equal(vs.bits, 9);

	/* A stale sector with a flipped bit is no longer valid: far from
	 * the expected data, so garbage rather than a guess. */
	pattern_fill(&f->old, f->sect, 512, 4096);
	f->sect[200] ^= 1;
	assert_int_equal(test_verify_cls(f, f->sect, 4096, &vs),
			 VERIFY_GARBAGE);
}

static void test_verify_changed_limit(void **state)
{
	struct fixture *f = *state;
	struct verify_sector vs;
	size_t i;

	/* 256 bits = 1/16 of 4096: the most that is still "changed". */
	pattern_fill(&f->run, f->sect, 512, 0);
	for (i = 100; i < 132; i++)
		f->sect[i] ^= 0xff;
	assert_int_equal(test_verify_cls(f, f->sect, 0, &vs), VERIFY_CHANGED);
	assert_int_equal(vs.bits, 256);
	f->sect[140] ^= 1;
	assert_int_equal(test_verify_cls(f, f->sect, 0, &vs), VERIFY_GARBAGE);
}

static void test_verify_overwritten(void **state)
{
	struct fixture *f = *state;
	struct verify_sector vs;

	/* The sector for 64 KiB landed at 4 KiB: a misdirected write. */
	pattern_fill(&f->run, f->sect, 512, 65536);
	assert_int_equal(test_verify_cls(f, f->sect, 4096, &vs),
			 VERIFY_OVERWRITTEN);
	assert_true(vs.found_offset == 65536);
	assert_true(vs.found_run_id == RUN_ID);
	assert_int_equal(vs.found_generation, 2);

	/* Of an older generation, still from elsewhere. */
	pattern_fill(&f->old, f->sect, 512, 65536);
	assert_int_equal(test_verify_cls(f, f->sect, 4096, &vs),
			 VERIFY_OVERWRITTEN);
	assert_int_equal(vs.found_generation, 1);
}

static void test_verify_stale(void **state)
{
	struct fixture *f = *state;
	struct verify_sector vs;

	/* Generation 1 still at this offset: generation 2 was lost. */
	pattern_fill(&f->old, f->sect, 512, 4096);
	assert_int_equal(test_verify_cls(f, f->sect, 4096, &vs), VERIFY_STALE);
	assert_int_equal(vs.found_generation, 1);
	assert_true(vs.found_offset == 4096);

	/* An earlier run's sector at this offset. */
	pattern_fill(&f->other, f->sect, 512, 4096);
	assert_int_equal(test_verify_cls(f, f->sect, 4096, &vs), VERIFY_STALE);
	assert_true(vs.found_run_id == RUN_ID + 1);
}

static void test_verify_zeroed(void **state)
{
	struct fixture *f = *state;
	struct verify_sector vs;

	memset(f->sect, 0, 512);
	assert_int_equal(test_verify_cls(f, f->sect, 4096, &vs),
			 VERIFY_ZEROED);
	/* One byte set: not zeroed, and far from the pattern. */
	f->sect[511] = 1;
	assert_int_equal(test_verify_cls(f, f->sect, 4096, &vs),
			 VERIFY_GARBAGE);
}

static void test_verify_garbage(void **state)
{
	struct fixture *f = *state;
	struct verify_sector vs;

	memset(f->sect, 0xff, 512);
	assert_int_equal(test_verify_cls(f, f->sect, 4096, &vs),
			 VERIFY_GARBAGE);
	/* A newer generation than expected is nothing this run wrote. */
	{
		struct pattern_run *newer = calloc(1, sizeof(*newer));

		assert_non_null(newer);
		assert_int_equal(pattern_run_init(newer, RUN_ID, 3, 512,
						  RUN_SIZE, START), 0);
		pattern_fill(newer, f->sect, 512, 4096);
		free(newer);
	}
	assert_int_equal(test_verify_cls(f, f->sect, 4096, &vs),
			 VERIFY_GARBAGE);
	/* Half a sector torn: the second half is zero. */
	pattern_fill(&f->run, f->sect, 512, 4096);
	memset(f->sect + 256, 0, 256);
	assert_int_equal(test_verify_cls(f, f->sect, 4096, &vs),
			 VERIFY_GARBAGE);
}

/* A buffer with one of each: counts and exact ranges. */
static void test_verify_buffer_ranges(void **state)
{
	struct fixture *f = *state;
	struct verify_report *rep = malloc(sizeof(*rep));
	const uint64_t base = 1 << 16;

	assert_non_null(rep);
	verify_report_init(rep);
	pattern_fill(&f->run, f->buf, NSECT * 512, base);
	assert_int_equal(verify_buffer(&f->run, &f->scratch, f->buf,
				       NSECT * 512, base, rep), 0);

	f->buf[1 * 512 + 100] ^= 4;			/* changed */
	memset(f->buf + 3 * 512, 0, 2 * 512);		/* zeroed x2 */
	pattern_fill(&f->old, f->buf + 6 * 512, 512, base + 6 * 512);
	pattern_fill(&f->run, f->buf + 8 * 512, 512, base);	/* overwritten */
	memset(f->buf + 15 * 512, 0x5a, 512);		/* garbage */

	assert_int_equal(verify_buffer(&f->run, &f->scratch, f->buf,
				       NSECT * 512, base, rep), 6);
	assert_true(rep->bytes_checked == 2 * NSECT * 512);
	assert_int_equal(rep->sectors[VERIFY_OK], 2 * NSECT - 6);
	assert_int_equal(rep->sectors[VERIFY_CHANGED], 1);
	assert_int_equal(rep->sectors[VERIFY_ZEROED], 2);
	assert_int_equal(rep->sectors[VERIFY_STALE], 1);
	assert_int_equal(rep->sectors[VERIFY_OVERWRITTEN], 1);
	assert_int_equal(rep->sectors[VERIFY_GARBAGE], 1);
	assert_int_equal(verify_report_bad(rep), 6);
	assert_int_equal(rep->bits_changed, 1);

	assert_int_equal(rep->nranges, 5);
	assert_true(rep->ranges[0].start == base + 512);
	assert_true(rep->ranges[0].end == base + 1024);
	assert_int_equal(rep->ranges[0].cls, VERIFY_CHANGED);
	assert_true(rep->ranges[1].start == base + 3 * 512);
	assert_true(rep->ranges[1].end == base + 5 * 512);	/* coalesced */
	assert_int_equal(rep->ranges[1].cls, VERIFY_ZEROED);
	assert_int_equal(rep->ranges[2].cls, VERIFY_STALE);
	assert_int_equal(rep->ranges[2].first.found_generation, 1);
	assert_int_equal(rep->ranges[3].cls, VERIFY_OVERWRITTEN);
	assert_true(rep->ranges[3].first.found_offset == base);
	assert_true(rep->ranges[4].start == base + 15 * 512);
	assert_true(rep->ranges[4].end == base + 16 * 512);
	assert_int_equal(rep->ranges[4].cls, VERIFY_GARBAGE);
	free(rep);
}

/*
 * A device of @real sectors that claims @claimed and keeps sector X at
 * X mod @real: write every sector of [0, @claimed) in the order @order
 * gives (NULL: sequential), then read them all back in order into @rep.
 */
#define WRAP_MAX	256u

static void wrap_device(struct fixture *f, struct verify_report *rep,
			unsigned int claimed, unsigned int real,
			const unsigned int *order)
{
	static _Alignas(32) unsigned char phys[WRAP_MAX * 512];
	unsigned int i, x;

	assert_true(claimed <= WRAP_MAX && real <= claimed);
	memset(phys, 0, sizeof(phys));
	for (i = 0; i < claimed; i++) {
		x = order ? order[i] : i;
		pattern_fill(&f->run, phys + (x % real) * 512, 512,
			     (uint64_t)x * 512);
	}
	verify_report_init(rep);
	for (x = 0; x < claimed; x++)
		verify_buffer(&f->run, &f->scratch, phys + (x % real) * 512,
			      512, (uint64_t)x * 512, rep);
	verify_report_finish(rep);
}

static void test_verify_wrap(void **state)
{
	struct fixture *f = *state;
	struct verify_report *rep = malloc(sizeof(*rep));
	unsigned int order[WRAP_MAX], i, j, t;
	struct verify_wrap w = { 0 };
	uint64_t rng = 1;

	assert_non_null(rep);
	/* the second half over the first: [0, half) reads [half, all) */
	wrap_device(f, rep, 128, 64, NULL);
	assert_true(rep->sectors[VERIFY_OVERWRITTEN] == 64);
	assert_true(rep->sectors[VERIFY_OK] == 64);
	assert_true(rep->ranges[0].first.found_offset == 64 * 512);
	assert_true(verify_wrap(rep, 128 * 512, &w));
	assert_true(w.modulus == 64 * 512);
	assert_true(w.usable == 64 * 512);

	/* 2.5 times its size: X + 2k and X + k read at X, modulus k */
	wrap_device(f, rep, 120, 48, NULL);
	assert_true(rep->sectors[VERIFY_OVERWRITTEN] == 120 - 48);
	assert_true(verify_wrap(rep, 120 * 512, &w));
	assert_true(w.modulus == 48 * 512);

	/* a little more than its size: only [0, 8) is wrong */
	wrap_device(f, rep, 104, 96, NULL);
	assert_true(verify_wrap(rep, 104 * 512, &w));
	assert_true(w.usable == 96 * 512);

	/* written in random order: X - k and X + k, still modulus k */
	for (i = 0; i < 128; i++)
		order[i] = i;
	for (i = 127; i > 0; i--) {
		rng = rng * 6364136223846793005ull + 1442695040888963407ull;
		j = (unsigned int)((rng >> 33) % (i + 1));
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	wrap_device(f, rep, 128, 32, order);
	assert_true(rep->sectors[VERIFY_OVERWRITTEN] == 128 - 32);
	assert_true(verify_wrap(rep, 128 * 512, &w));
	assert_true(w.modulus == 32 * 512);

	/* a device that holds what it claims */
	wrap_device(f, rep, 128, 128, NULL);
	assert_true(verify_report_bad(rep) == 0);
	assert_false(verify_wrap(rep, 128 * 512, &w));

	/* one misdirected write is not a wrap-around */
	wrap_device(f, rep, 128, 128, NULL);
	pattern_fill(&f->run, f->sect, 512, 100 * 512);
	verify_buffer(&f->run, &f->scratch, f->sect, 512, 3 * 512, rep);
	assert_true(rep->sectors[VERIFY_OVERWRITTEN] == 1);
	assert_false(verify_wrap(rep, 128 * 512, &w));

	/* nor a few overwritten among much garbage */
	wrap_device(f, rep, 128, 64, NULL);
	memset(f->buf, 0x5a, 512);
	for (i = 0; i < 80; i++)
		verify_buffer(&f->run, &f->scratch, f->buf, 512,
			      (uint64_t)(64 + (i % 64)) * 512, rep);
	assert_false(verify_wrap(rep, 128 * 512, &w));
	free(rep);
}

static void test_verify_ranges_overflow(void **state)
{
	struct verify_report *rep = malloc(sizeof(*rep));
	struct verify_sector vs = { .cls = VERIFY_ZEROED };
	uint64_t i;

	(void)state;
	assert_non_null(rep);
	verify_report_init(rep);
	/* Every other sector bad: nothing coalesces. */
	for (i = 0; i < VERIFY_MAX_RANGES + 10; i++)
		verify_report_add(rep, i * 1024, 512, &vs);
	assert_int_equal(rep->nranges, VERIFY_MAX_RANGES);
	assert_int_equal(rep->ranges_dropped, 10);
	assert_string_equal(verify_class_name(VERIFY_STALE), "stale");
	assert_string_equal(verify_class_name(VERIFY_NR_CLASSES), "?");
	free(rep);
}

/* Ranges that arrive out of order (QD > 1) are sorted and merged. */
static void test_verify_report_finish(void **state)
{
	struct verify_report *rep = malloc(sizeof(*rep));
	struct verify_sector z = { .cls = VERIFY_ZEROED };
	struct verify_sector g = { .cls = VERIFY_GARBAGE };

	(void)state;
	assert_non_null(rep);
	verify_report_init(rep);
	verify_report_add(rep, 4096, 512, &z);
	verify_report_add(rep, 1024, 512, &g);
	verify_report_add(rep, 3584, 512, &z);
	verify_report_add(rep, 512, 512, &g);
	verify_report_finish(rep);
	assert_int_equal(rep->nranges, 2);
	assert_true(rep->ranges[0].start == 512);
	assert_true(rep->ranges[0].end == 1536);
	assert_int_equal(rep->ranges[0].cls, VERIFY_GARBAGE);
	assert_true(rep->ranges[1].start == 3584);
	assert_true(rep->ranges[1].end == 4608);
	assert_int_equal(rep->ranges[1].cls, VERIFY_ZEROED);
	free(rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verify_run_init_bad),
		cmocka_unit_test(test_verify_roundtrip),
		cmocka_unit_test(test_verify_sectors_differ),
		cmocka_unit_test(test_verify_fill_4k),
		cmocka_unit_test(test_verify_ok),
		cmocka_unit_test(test_verify_changed),
		cmocka_unit_test(test_verify_changed_limit),
		cmocka_unit_test(test_verify_overwritten),
		cmocka_unit_test(test_verify_stale),
		cmocka_unit_test(test_verify_zeroed),
		cmocka_unit_test(test_verify_garbage),
		cmocka_unit_test(test_verify_buffer_ranges),
		cmocka_unit_test(test_verify_wrap),
		cmocka_unit_test(test_verify_ranges_overflow),
		cmocka_unit_test(test_verify_report_finish),
	};

	return cmocka_run_group_tests_name("verify", tests,
					   test_verify_setup,
					   test_verify_teardown);
}
