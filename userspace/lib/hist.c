// SPDX-License-Identifier: GPL-2.0-only
/*
 * hist.c - log-linear histograms (hist.h): a value's bucket is its
 * power of two and, within it, its next HIST_SUB_BITS bits; a percentile
 * is read back as the middle of the bucket it falls in, kept within the
 * smallest and largest value added.  Pure.
 */
#include <string.h>

#include "hist.h"

static unsigned int hist_index(uint64_t v)
{
	unsigned int shift;

	if (v < HIST_SUB)
		return (unsigned int)v;
	shift = 63u - (unsigned int)__builtin_clzll(v) - HIST_SUB_BITS;
	return HIST_SUB + shift * HIST_SUB +
	       (unsigned int)((v >> shift) - HIST_SUB);
}

/* The middle of bucket @i. */
static uint64_t hist_value(unsigned int i)
{
	unsigned int shift;
	uint64_t low;

	if (i < HIST_SUB)
		return i;
	shift = (i - HIST_SUB) / HIST_SUB;
	low = (uint64_t)(HIST_SUB + (i - HIST_SUB) % HIST_SUB) << shift;
	return low + (((uint64_t)1 << shift) >> 1);
}

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
}

void hist_add(struct hist *h, uint64_t v)
{
	if (!h->count || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->count++;
	h->sum += (double)v;
	h->buckets[hist_index(v)]++;
}

/**
 * hist_percentile() - the value @pct percent of those added are at or below
 * @h:   the histogram
 * @pct: 0 to 100 (0: the smallest, 100: the largest, exact)
 *
 * Return: the value, within 0.4% (exact below HIST_SUB), or 0 when @h is
 * empty.
 */
uint64_t hist_percentile(const struct hist *h, double pct)
{
	uint64_t rank, seen = 0, v;
	double r;
	unsigned int i;

	if (!h->count)
		return 0;
	if (!(pct > 0))
		return h->min;
	if (pct >= 100)
		return h->max;
	/* the smallest rank with pct% at or below it */
	r = pct / 100.0 * (double)h->count;
	rank = (uint64_t)r;
	if ((double)rank < r || !rank)
		rank++;
	for (i = 0; i < HIST_BUCKETS; i++) {
		seen += h->buckets[i];
		if (seen >= rank)
			break;
	}
	v = hist_value(i < HIST_BUCKETS ? i : HIST_BUCKETS - 1);
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}

double hist_mean(const struct hist *h)
{
	return h->count ? h->sum / (double)h->count : 0;
}
