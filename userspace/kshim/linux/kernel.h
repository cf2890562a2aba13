/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kshim: the few kernel interfaces module/ut_format.c uses, for building
 * it into the usbtrail command.  Only that file is compiled with
 * -Ikshim; everything else sees the system's <linux/kernel.h>.
 */
#ifndef USBTRAIL_KSHIM_KERNEL_H
#define USBTRAIL_KSHIM_KERNEL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* The kernel's scnprintf(): the length written, not the length wanted. */
__attribute__((format(printf, 3, 4)))
static inline int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!size)
		return 0;
	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	if (n < 0)
		return 0;
	return (size_t)n >= size ? (int)(size - 1) : n;
}

#endif /* USBTRAIL_KSHIM_KERNEL_H */
