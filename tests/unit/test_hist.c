// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_hist.c - unit tests of userspace/lib/hist.c: the log-linear
 * histogram's percentiles against the exact ones of the same values.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "hist.h"

static int test_hist_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The exact percentile of sorted @v, by the same rank rule. */
static uint64_t test_hist_exact(const uint64_t *v, size_t n, double pct)
{
	double r = pct / 100.0 * (double)n;
	size_t rank = (size_t)r;

	if ((double)rank < r || !rank)
		rank++;
	return v[rank - 1];
}

static void test_hist_empty_and_small(void **state)
{
	struct hist *h = malloc(sizeof(*h));
	uint64_t i;

	(void)state;
	assert_non_null(h);
	hist_init(h);
	assert_true(hist_percentile(h, 50) == 0);
	assert_true(hist_mean(h) == 0);
	/* below HIST_SUB every value has a bucket of its own: exact */
	for (i = 1; i <= 100; i++)
		hist_add(h, i);
	assert_true(hist_percentile(h, 50) == 50);
	assert_true(hist_percentile(h, 99) == 99);
	assert_true(hist_percentile(h, 99.9) == 100);
	assert_true(hist_percentile(h, 0) == 1);
	assert_true(hist_percentile(h, 100) == 100);
	assert_true(fabs(hist_mean(h) - 50.5) < 1e-9);
	free(h);
}

/* Latencies of 20 us to 2.6 s, skewed as a disk's are: within 0.4%. */
static void test_hist_error_bound(void **state)
{
	static const double pcts[] = { 1, 10, 50, 90, 99, 99.9, 99.99 };
	struct hist *h = malloc(sizeof(*h));
	size_t n = 200000, i, k;
	uint64_t *v = malloc(n * sizeof(*v)), x = 12345;

	(void)state;
	assert_non_null(h);
	assert_non_null(v);
	hist_init(h);
	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		/* a power of two times 20 us, and a spread within it */
		v[i] = (20000ull << (x % 17)) +
		       (x >> 20) % (20000ull << (x % 17));
		hist_add(h, v[i]);
	}
	qsort(v, n, sizeof(*v), test_hist_cmp);
	for (k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++) {
		double want = (double)test_hist_exact(v, n, pcts[k]);
		double got = (double)hist_percentile(h, pcts[k]);

		assert_true(fabs(got - want) <= want * 0.004 + 1);
	}
	assert_true(hist_percentile(h, 100) == v[n - 1]);
	assert_true(hist_percentile(h, 0) == v[0]);
	assert_true(h->min == v[0] && h->max == v[n - 1]);
	free(v);
	free(h);
}

/* The extremes of the range have buckets; a value alone comes back. */
static void test_hist_extremes(void **state)
{
	struct hist *h = malloc(sizeof(*h));

	(void)state;
	assert_non_null(h);
	hist_init(h);
	hist_add(h, UINT64_MAX);
	assert_true(hist_percentile(h, 50) == UINT64_MAX);
	hist_init(h);
	hist_add(h, 0);
	hist_add(h, 1000000007);
	assert_true(hist_percentile(h, 50) == 0);
	assert_true(llabs((long long)hist_percentile(h, 51) - 1000000007) <=
		    1000000007 / 250);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hist_empty_and_small),
		cmocka_unit_test(test_hist_error_bound),
		cmocka_unit_test(test_hist_extremes),
	};

	return cmocka_run_group_tests_name("hist", tests, NULL, NULL);
}
