/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * verify.h - classify sectors read back from a stress run and collect the
 * bad ones into byte ranges.
 */
#ifndef USBTRAIL_VERIFY_H
#define USBTRAIL_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pattern.h"

enum verify_class {
	VERIFY_OK,
	VERIFY_CHANGED,		/* few bits differ from what was written */
	VERIFY_OVERWRITTEN,	/* a valid sector of another offset */
	VERIFY_STALE,		/* an earlier generation or an earlier run */
	VERIFY_ZEROED,		/* all zero bytes */
	VERIFY_GARBAGE,		/* none of the above */
	VERIFY_UNREADABLE,	/* the read itself failed */
	VERIFY_NR_CLASSES,
};

/* What one sector turned out to be. */
struct verify_sector {
	enum verify_class cls;
	uint32_t bits;			/* CHANGED: differing bits */
	uint64_t found_offset;		/* OVERWRITTEN, STALE: its header */
	uint64_t found_run_id;
	uint32_t found_generation;
};

/* Consecutive bad sectors of one class: [start, end) in bytes. */
struct verify_range {
	uint64_t start;
	uint64_t end;
	enum verify_class cls;
	uint64_t bits;			/* CHANGED: sum over the range */
	struct verify_sector first;	/* details of its first sector */
};

#define VERIFY_MAX_RANGES	4096u

/*
 * The report of a read-back: counts per class and the bad ranges.  Ranges
 * beyond VERIFY_MAX_RANGES are counted in ranges_dropped, not stored.
 */
struct verify_report {
	uint64_t sectors[VERIFY_NR_CLASSES];
	uint64_t bytes_checked;
	uint64_t bits_changed;
	/*
	 * Overwritten sectors: their bytes, and the greatest common divisor
	 * of |found offset - offset| over them, what a wrap-around's
	 * modulus would be (verify_wrap())
	 */
	uint64_t overwritten_bytes;
	uint64_t overwritten_gcd;
	size_t nranges;
	uint64_t ranges_dropped;
	struct verify_range ranges[VERIFY_MAX_RANGES];
};

/* Fraction of a sector's bits that may differ for it to count as CHANGED. */
#define VERIFY_CHANGED_DIVISOR	16u

/*
 * A fake-capacity device as f3probe calls it "wraparound": writes beyond
 * its real size land on its start again, so what is read at X is what
 * was written to X +- k * modulus.
 */
struct verify_wrap {
	uint64_t modulus;	/* bytes: offsets that share a place */
	uint64_t usable;	/* bytes from 0 that are each their own */
};

/* Sectors of 512 bytes, the unit of the kernel's "sector N" and LBA. */
#define VERIFY_LBA_SHIFT	9u

const char *verify_class_name(enum verify_class cls);
void verify_sector_classify(const struct pattern_run *run,
			    struct pattern_run *scratch, const void *sector,
			    uint64_t offset, struct verify_sector *out);
void verify_report_init(struct verify_report *rep);
void verify_report_add(struct verify_report *rep, uint64_t offset,
		       uint64_t len, const struct verify_sector *vs);
uint64_t verify_buffer(const struct pattern_run *run,
		       struct pattern_run *scratch, const void *buf,
		       size_t len, uint64_t offset, struct verify_report *rep);
uint64_t verify_report_bad(const struct verify_report *rep);
void verify_report_finish(struct verify_report *rep);
bool verify_wrap(const struct verify_report *rep, uint64_t size,
		 struct verify_wrap *out);

#endif /* USBTRAIL_VERIFY_H */
