/* SPDX-License-Identifier: GPL-2.0-only */
/* kshim: div_u64_rem() (see kernel.h). */
#ifndef USBTRAIL_KSHIM_MATH64_H
#define USBTRAIL_KSHIM_MATH64_H

#include <linux/kernel.h>

static inline u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder)
{
	*remainder = dividend % divisor;
	return dividend / divisor;
}

#endif /* USBTRAIL_KSHIM_MATH64_H */
