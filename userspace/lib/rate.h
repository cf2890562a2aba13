/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rate.h - a failure rate measured by runs: how low it can be, and how
 * many runs without a failure rule it out.  For "usbtrail repro": a
 * workload failed k of n times; a mitigation has fixed it at confidence c
 * when it passes m runs in a row with (1 - p)^m <= 1 - c, p the rate's
 * lower bound (Wilson's score interval, which holds at k = n and small n,
 * where the normal approximation does not).
 */
#ifndef USBTRAIL_RATE_H
#define USBTRAIL_RATE_H

/* The normal quantile of a two-sided confidence @c (0 < c < 1) */
double rate_z(double c);

/* Wilson's lower bound of a rate of @k in @n (n > 0) at quantile @z */
double rate_wilson_low(unsigned int k, unsigned int n, double z);

/*
 * Runs without a failure that rule out a failure rate of @p at
 * confidence @c, at most @max (also for p <= 0: no number of runs does)
 */
unsigned int rate_runs_needed(double p, double c, unsigned int max);

#endif /* USBTRAIL_RATE_H */
