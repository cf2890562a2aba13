/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hist.h - log-linear histograms of unsigned 64-bit values, as fio's
 * completion-latency histogram and HdrHistogram keep them: exact below
 * 128, then 128 buckets per power of two, so a percentile is within 0.4%
 * of a value that was added, in a fixed 58 KiB, however many values.
 * stress.c keeps one per phase for the completion latency of its requests
 * and one for the rates of its intervals.
 */
#ifndef USBTRAIL_HIST_H
#define USBTRAIL_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS	7
#define HIST_SUB	(1u << HIST_SUB_BITS)
/* values below HIST_SUB, then HIST_SUB buckets for each of 2^7 .. 2^63 */
#define HIST_BUCKETS	(HIST_SUB + (64 - HIST_SUB_BITS) * HIST_SUB)

struct hist {
	uint64_t count;
	uint64_t min, max;	/* exact; 0 when empty */
	double sum;		/* for the mean */
	uint64_t buckets[HIST_BUCKETS];
};

void hist_init(struct hist *h);
void hist_add(struct hist *h, uint64_t v);
uint64_t hist_percentile(const struct hist *h, double pct);
double hist_mean(const struct hist *h);

#endif /* USBTRAIL_HIST_H */
