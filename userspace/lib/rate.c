// SPDX-License-Identifier: GPL-2.0-only
/*
 * rate.c - a failure rate measured by runs (rate.h).
 */
#include <math.h>

#include "rate.h"

double rate_z(double c)
{
	double lo = 0, hi = 10, q = 1 - (1 - c) / 2;

	/* bisection on the normal CDF: 100 halvings are below a double's ulp */
	for (int i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;

		if (0.5 * erfc(-mid / sqrt(2)) < q)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double rate_wilson_low(unsigned int k, unsigned int n, double z)
{
	double p, z2 = z * z, low;

	if (!n)
		return 0;
	p = (double)k / n;
	low = (p + z2 / (2 * n) -
	       z * sqrt(p * (1 - p) / n + z2 / (4.0 * n * n))) / (1 + z2 / n);
	return low < 0 ? 0 : low;
}

unsigned int rate_runs_needed(double p, double c, unsigned int max)
{
	double m;

	if (p <= 0)
		return max;
	if (p >= 1)
		return 1;
	m = ceil(log(1 - c) / log(1 - p));
	return m > max ? max : (unsigned int)m;
}
