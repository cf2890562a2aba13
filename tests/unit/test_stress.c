// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_stress.c - unit tests of the pure parts of the stress command:
 * profile planning, dip flagging, in-band run detection (stress.c) and the
 * mountinfo matcher (blkdev.c).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include <cmocka.h>

#include "blkdev.h"
#include "pattern.h"
#include "stress.h"

static void test_stress_plan_seq(void **state)
{
	struct stress_config cfg = { .profile = STRESS_PROFILE_SEQ };
	struct stress_phase ph[STRESS_MAX_PHASES];

	(void)state;
	assert_int_equal(stress_plan(&cfg, 64 << 20, 512, ph, 64), 2);
	assert_string_equal(ph[0].name, "write");
	assert_true(ph[0].write);
	assert_int_equal(ph[0].block, 1 << 20);
	assert_int_equal(ph[0].qd, 4);
	assert_true(ph[0].region == 64 << 20);
	assert_string_equal(ph[1].name, "read");
	assert_true(ph[1].verify);

	/* --size smaller than the target; an odd size rounds down. */
	cfg.size = (3 << 20) + 4096;
	cfg.block = 65536;
	cfg.qd = 32;
	assert_int_equal(stress_plan(&cfg, 64 << 20, 512, ph, 64), 2);
	assert_true(ph[0].region == 3 << 20);
	assert_int_equal(ph[1].qd, 32);

	/* Larger than the target, or a block the sector does not divide. */
	cfg.size = 128 << 20;
	assert_int_equal(stress_plan(&cfg, 64 << 20, 512, ph, 64), -EINVAL);
	cfg.size = 0;
	cfg.block = 2048;
	assert_int_equal(stress_plan(&cfg, 64 << 20, 4096, ph, 64), -EINVAL);
	/* No room for the phases. */
	cfg.block = 0;
	assert_int_equal(stress_plan(&cfg, 64 << 20, 512, ph, 1), -E2BIG);

	cfg.verify_only = true;
	assert_int_equal(stress_plan(&cfg, 64 << 20, 512, ph, 64), 1);
	assert_string_equal(ph[0].name, "verify");
	assert_false(ph[0].write);
	/* every profile reads only */
	for (cfg.profile = STRESS_PROFILE_SEQ;
	     cfg.profile <= STRESS_PROFILE_MIXED; cfg.profile++) {
		assert_int_equal(stress_plan(&cfg, 64 << 20, 512, ph, 64), 1);
		assert_string_equal(ph[0].name, "verify");
		assert_false(ph[0].write);
	}
}

/* CrystalDiskMark 8: prepare, reads, then writes; a warm-up and passes. */
static void test_stress_plan_cdm(void **state)
{
	struct stress_config cfg = { .profile = STRESS_PROFILE_CDM };
	struct stress_phase ph[STRESS_MAX_PHASES];
	static const char *const labels[] = {
		"SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1",
	};
	int i, n;

	(void)state;
	n = stress_plan(&cfg, 8ull << 30, 512, ph, STRESS_MAX_PHASES);
	assert_int_equal(n, 1 + 8 * (1 + STRESS_CDM_PASSES));	/* 49 */
	assert_string_equal(ph[0].name, "prepare");
	assert_true(ph[0].write && !ph[0].random && !ph[0].label[0]);
	assert_true(ph[0].limit_secs == 0);	/* covers the whole region */
	for (i = 1; i < n; i++) {
		int k = (i - 1) / (1 + STRESS_CDM_PASSES);	/* test, 0..7 */

		assert_true(ph[i].region == 1ull << 30);	/* CDM's 1 GiB */
		assert_string_equal(ph[i].label, labels[k % 4]);
		assert_int_equal(ph[i].write, k >= 4);		/* reads first */
		assert_int_equal(ph[i].pass, (i - 1) % (1 + STRESS_CDM_PASSES));
		assert_true(ph[i].limit_secs == 5);
		assert_int_equal(ph[i].random, k % 4 >= 2);
		assert_int_equal(ph[i].wrap, k % 4 < 2);
	}
	assert_string_equal(ph[1].name, "SEQ1M Q8T1 Read");
	assert_int_equal(ph[1].qd, 8);
	assert_int_equal(ph[1 + 2 * 6].block, 4096);
	assert_int_equal(ph[1 + 2 * 6].qd, 32);
	assert_string_equal(ph[n - 1].name, "RND4K Q1T1 Write");

	/* --passes, --block and --qd (of the first test) */
	cfg.passes = 2;
	cfg.block = 65536;
	cfg.qd = 32;
	n = stress_plan(&cfg, 8ull << 30, 512, ph, STRESS_MAX_PHASES);
	assert_int_equal(n, 1 + 8 * 3);
	assert_string_equal(ph[1].name, "SEQ64K Q32T1 Read");
	assert_int_equal(ph[1].block, 65536);
	assert_string_equal(ph[4].label, "SEQ1M Q1T1");
	/* the most passes fit the table; more do not */
	cfg.passes = STRESS_CDM_MAX_PASSES;
	assert_true(stress_plan(&cfg, 8ull << 30, 512, ph,
				STRESS_MAX_PHASES) < STRESS_MAX_PHASES);
	cfg.passes = STRESS_CDM_MAX_PASSES + 1;
	assert_int_equal(stress_plan(&cfg, 8ull << 30, 512, ph,
				     STRESS_MAX_PHASES), -EINVAL);
}

static void test_stress_plan_sweep(void **state)
{
	struct stress_config cfg = { .profile = STRESS_PROFILE_SWEEP };
	struct stress_phase ph[STRESS_MAX_PHASES];

	(void)state;
	/* 512 B .. 8 MiB: 15 sizes, a write and a read each. */
	assert_int_equal(stress_plan(&cfg, 1ull << 30, 512, ph, 64), 30);
	assert_string_equal(ph[0].name, "write 512");
	assert_string_equal(ph[29].name, "read 8MiB");
	/* 4K sectors: no 512, 1K, 2K. */
	assert_int_equal(stress_plan(&cfg, 1ull << 30, 4096, ph, 64), 24);
	assert_string_equal(ph[0].name, "write 4KiB");
}

static void test_stress_dips(void **state)
{
	struct stress_interval iv[12];
	bool dip[12] = { false };
	unsigned int n, i;

	(void)state;
	memset(iv, 0, sizeof(iv));
	for (i = 0; i < 12; i++) {
		iv[i].phase = i < 11 ? 0 : 1;
		iv[i].secs = 1.0;
		iv[i].bytes = 100000000;
	}
	iv[3].bytes = 40000000;		/* below half the pace: a dip */
	iv[4].bytes = 60000000;		/* above: not */
	iv[10].secs = 0.2;		/* the partial last one: not judged */
	iv[10].bytes = 1000;
	stress_flag_dips(iv, 12, 0, 1.0, dip, &n);
	assert_int_equal(n, 1);
	assert_true(dip[3]);
	assert_false(dip[4]);
	assert_false(dip[10]);
	/* Phase 1 has one interval: too few to judge. */
	stress_flag_dips(iv, 12, 1, 1.0, dip, &n);
	assert_int_equal(n, 0);

	/* Half the phase slow (a cache ran out): the slow half are dips,
	 * which a median would have hidden. */
	memset(dip, 0, sizeof(dip));
	for (i = 5; i < 10; i++)
		iv[i].bytes = 30000000;
	stress_flag_dips(iv, 12, 0, 1.0, dip, &n);
	assert_int_equal(n, 6);		/* 3 and 5..9 */
	assert_true(dip[3]);
	for (i = 5; i < 10; i++)
		assert_true(dip[i]);

	/* A slow interval runs over (its last request took long): still
	 * whole, and judged.  Seen in the test bed: a 250 ms log whose dip
	 * intervals took 0.31 s, which the longest-interval rule of old
	 * took as the norm, judging only those and flagging none. */
	memset(dip, 0, sizeof(dip));
	for (i = 0; i < 11; i++) {
		iv[i].secs = i & 1 ? 0.314 : 0.252;
		iv[i].bytes = i >= 4 && i < 8 ? (uint64_t)(0.05e9 * iv[i].secs)
					      : (uint64_t)(0.3e9 * iv[i].secs);
	}
	iv[10].secs = 0.02;
	stress_flag_dips(iv, 12, 0, 0.25, dip, &n);
	assert_int_equal(n, 4);
	for (i = 0; i < 11; i++)
		assert_true(dip[i] == (i >= 4 && i < 8));
}

/* 100000 cycles: 16 to 32 rows of equal width, in order; the extremes. */
static void test_stress_soak_add(void **state)
{
	struct stress_soak *sk = calloc(1, sizeof(*sk));
	struct stress_phase_result w = { 0 }, r = { 0 };
	unsigned int i, n = 100000;
	size_t k;

	(void)state;
	assert_non_null(sk);
	for (i = 1; i <= n; i++) {
		w.ph.cycle = r.ph.cycle = i;
		w.mbps = i == 777 ? 10 : 100 + i % 7;
		r.mbps = 200 - i % 5;
		w.bytes = r.bytes = 1000000;
		w.secs = 1000000 / (w.mbps * 1e6);
		r.secs = 1000000 / (r.mbps * 1e6);
		w.slow = i == 777;
		stress_soak_add(sk, &w, &r);
		assert_true(sk->nrows <= STRESS_SOAK_ROWS);
	}
	assert_int_equal(sk->cycles, n);
	assert_int_equal(sk->first.cycle, 1);
	assert_int_equal(sk->last.cycle, n);
	assert_int_equal(sk->slowest.cycle, 777);
	assert_true(sk->slowest.write_mbps == 10);
	assert_int_equal(sk->slow_cycles, 1);
	assert_true(sk->nrows >= STRESS_SOAK_ROWS / 2);
	assert_int_equal(sk->rows[0].first, 1);
	assert_int_equal(sk->rows[sk->nrows - 1].last, n);
	for (k = 0; k < sk->nrows; k++) {
		const struct stress_soak_row *row = &sk->rows[k];

		if (k + 1 < sk->nrows) {
			assert_int_equal(row->last - row->first + 1,
					 sk->per_row);
			assert_int_equal(sk->rows[k + 1].first, row->last + 1);
		}
		assert_true(row->read_min >= 196 && row->read_min <= 200);
		if (777 >= row->first && 777 <= row->last) {
			assert_true(row->write_min == 10);
			assert_int_equal(row->slow, 1);
		} else {
			assert_true(row->write_min == 100);
		}
	}
	free(sk);
}

/* Neighbours of one phase and cycle merge; others do not. */
static void test_stress_intervals_merge(void **state)
{
	struct stress_interval iv[7];
	unsigned int i;

	(void)state;
	memset(iv, 0, sizeof(iv));
	for (i = 0; i < 7; i++) {
		iv[i].phase = i < 5 ? 0 : 1;
		iv[i].t = i;
		iv[i].secs = 1;
		iv[i].bytes = 10;
		iv[i].ios = 1;
	}
	iv[3].dip = true;
	iv[6].cycle = 2;		/* phase 1, another cycle */
	assert_int_equal(stress_intervals_merge(iv, 7), 5);
	assert_true(iv[0].t == 0 && iv[0].secs == 2 && iv[0].bytes == 20);
	assert_true(iv[1].t == 2 && iv[1].ios == 2 && iv[1].dip);
	assert_true(iv[2].t == 4 && iv[2].secs == 1);	/* phase 0's last */
	assert_true(iv[3].t == 5 && iv[3].phase == 1 && !iv[3].cycle);
	assert_true(iv[4].t == 6 && iv[4].cycle == 2);
}

static void test_stress_find_run(void **state)
{
	struct pattern_run *a = calloc(1, sizeof(*a));
	struct pattern_run *b = calloc(1, sizeof(*b));
	unsigned char *buf = aligned_alloc(4096, 65536);
	struct pattern_header h;

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(buf);

	memset(buf, 0, 65536);
	assert_int_equal(stress_find_run(buf, 65536, 512, &h), -ENOENT);

	assert_int_equal(pattern_run_init(a, 11, 3, 512, 1 << 20, 5), 0);
	assert_int_equal(pattern_run_init(b, 11, 2, 512, 1 << 20, 5), 0);
	pattern_fill(a, buf, 65536, 0);
	/* The first sectors lost the last write: the majority decides. */
	pattern_fill(b, buf, 4096, 0);
	assert_int_equal(stress_find_run(buf, 65536, 512, &h), 0);
	assert_true(h.run_id == 11);
	assert_int_equal(h.generation, 3);
	assert_int_equal(h.sector_size, 512);
	assert_true(h.run_size == 1 << 20);

	/* 4K sectors are found at their own size. */
	assert_int_equal(pattern_run_init(a, 12, 1, 4096, 1 << 20, 5), 0);
	pattern_fill(a, buf, 65536, 0);
	assert_int_equal(stress_find_run(buf, 65536, 512, &h), 0);
	assert_int_equal(h.sector_size, 4096);
	assert_true(h.run_id == 12);

	/*
	 * The start overwritten by what was written further on (a wrap
	 * around): the run is found all the same.
	 */
	assert_int_equal(pattern_run_init(a, 13, 4, 512, 1 << 20, 5), 0);
	pattern_fill(a, buf, 65536, 1 << 19);
	assert_int_equal(stress_find_run(buf, 65536, 512, &h), 0);
	assert_true(h.run_id == 13);
	assert_int_equal(h.generation, 4);
	assert_true(h.offset == 0);
	free(a);
	free(b);
	free(buf);
}

static const char test_stress_mountinfo[] =
"22 1 253:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw\n"
"35 22 0:5 / /dev rw,nosuid shared:2 - devtmpfs udev rw\n"
"80 22 8:17 / /media/usb\\040stick rw,relatime shared:40 - vfat /dev/sdb1 rw\n"
"81 22 8:33 /sub /srv/x rw - ext4 /dev/sdc1 rw\n";

static void test_stress_mountinfo_find(void **state)
{
	dev_t devs[3] = { makedev(8, 16), makedev(8, 17), makedev(8, 18) };
	dev_t other[2] = { makedev(8, 0), makedev(8, 1) };
	char mnt[64];
	size_t which = 99;

	(void)state;
	assert_int_equal(blkdev_mountinfo_find(test_stress_mountinfo, devs, 3,
					       &which, mnt, sizeof(mnt)), 0);
	assert_int_equal(which, 1);
	assert_string_equal(mnt, "/media/usb stick");	/* \040 undone */
	assert_int_equal(blkdev_mountinfo_find(test_stress_mountinfo, other,
					       2, &which, mnt, sizeof(mnt)),
			 -ENOENT);
	devs[0] = makedev(8, 33);
	assert_int_equal(blkdev_mountinfo_find(test_stress_mountinfo, devs, 1,
					       &which, mnt, sizeof(mnt)), 0);
	assert_string_equal(mnt, "/srv/x");
	/* Truncated or empty input. */
	assert_int_equal(blkdev_mountinfo_find("80 22 8:17", devs, 3, &which,
					       mnt, sizeof(mnt)), -ENOENT);
	assert_int_equal(blkdev_mountinfo_find("", devs, 3, &which, mnt,
					       sizeof(mnt)), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stress_plan_seq),
		cmocka_unit_test(test_stress_plan_cdm),
		cmocka_unit_test(test_stress_plan_sweep),
		cmocka_unit_test(test_stress_dips),
		cmocka_unit_test(test_stress_soak_add),
		cmocka_unit_test(test_stress_intervals_merge),
		cmocka_unit_test(test_stress_find_run),
		cmocka_unit_test(test_stress_mountinfo_find),
	};

	return cmocka_run_group_tests_name("stress", tests, NULL, NULL);
}
