/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stress_reset.h - "usbtrail stress --reset-check": does the disk keep
 * what it acknowledged?  A pattern is written and flushed (SYNCHRONIZE
 * CACHE), the USB device is reset as a replug or a brown-out resets it,
 * and every acknowledged sector is read back; the ones lost are named.
 * A bridge with a volatile write cache that acknowledges flushes it has
 * not done loses them (no quirk fixes that: detect only).
 */
#ifndef USBTRAIL_STRESS_RESET_H
#define USBTRAIL_STRESS_RESET_H

#include <stdbool.h>
#include <stdint.h>

#include "blkdev.h"

#define STRESS_RESET_DEFAULT_SIZE	(16ull << 20)
#define STRESS_RESET_MAX_RANGES		32

/* A run of lost sectors, in logical blocks */
struct stress_reset_range {
	uint64_t lba, count;
};

struct stress_reset_result {
	uint64_t acked_bytes;		/* written and flushed without error */
	uint32_t lbs;
	char usb[48];			/* "2-1", the device reset */
	unsigned int reset_ms;		/* USBDEVFS_RESET's duration */
	unsigned int back_ms;		/* until the disk ran again */
	uint64_t lost;			/* sectors that did not read back */
	unsigned int nranges;		/* the first STRESS_RESET_MAX_RANGES */
	struct stress_reset_range ranges[STRESS_RESET_MAX_RANGES];
	char why[192];			/* why it could not run, "" if it ran */
};

/*
 * The check on @t (a whole USB disk, opened for writing) over its first
 * @size bytes.  0 when it ran (@res->lost: what it lost), or a negative
 * errno with @res->why.
 */
int stress_reset_check(struct blkdev_target *t, uint64_t size,
		       struct stress_reset_result *res);

#endif /* USBTRAIL_STRESS_RESET_H */
