/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pattern.h - the self-describing sector format of "usbtrail stress".
 *
 * Every sector (512 bytes or the device's logical block size) starts with a
 * 64-byte header that names it: magic, byte offset, run id, generation,
 * sector size and the run's size and start time.  The rest is a
 * pseudo-random fill derived from (run id, generation) through a 64 KiB
 * table and from the offset through a per-sector key, so a sector read back
 * says where it belongs and which write put it there.
 *
 * All words are little-endian 64-bit.  Everything here works on memory
 * buffers only: no I/O, no logging.
 */
#ifndef USBTRAIL_PATTERN_H
#define USBTRAIL_PATTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PATTERN_MAGIC		0x3154535254425355ull	/* "USBTRST1" */
#define PATTERN_VERSION		1u
#define PATTERN_HDR_WORDS	8u
#define PATTERN_HDR_BYTES	(PATTERN_HDR_WORDS * 8u)
#define PATTERN_MIN_SECTOR	512u
#define PATTERN_MAX_SECTOR	65536u
#define PATTERN_TABLE_WORDS	(PATTERN_MAX_SECTOR / 8u)

/* Header word indexes. */
enum pattern_hdr_word {
	PATTERN_W_MAGIC,
	PATTERN_W_OFFSET,
	PATTERN_W_RUN_ID,
	PATTERN_W_GEN,		/* generation | shift << 32 | version << 40 */
	PATTERN_W_RUN_SIZE,
	PATTERN_W_START,	/* run start, Unix seconds */
	PATTERN_W_RESERVED,	/* 0 */
	PATTERN_W_CHECK,	/* mix64(offset ^ hash of the others); also
				 * the key the fill is XORed with */
};

/*
 * One run's parameters and the fill table derived from them.  64 KiB:
 * allocate it, do not put it on the stack.
 */
struct pattern_run {
	uint64_t run_id;
	uint32_t generation;
	uint32_t sector_size;		/* power of two, 512..65536 */
	unsigned int sector_shift;
	uint64_t run_size;
	uint64_t start_time;
	uint64_t seed;			/* hash of the header's fixed words */
	uint64_t table[PATTERN_TABLE_WORDS];	/* little-endian */
};

/* The identity a header claims, decoded by pattern_header_decode(). */
struct pattern_header {
	uint64_t offset;
	uint64_t run_id;
	uint32_t generation;
	uint32_t sector_size;
	uint64_t run_size;
	uint64_t start_time;
};

uint64_t pattern_mix64(uint64_t x);
int pattern_run_init(struct pattern_run *run, uint64_t run_id,
		     uint32_t generation, uint32_t sector_size,
		     uint64_t run_size, uint64_t start_time);
void pattern_fill(const struct pattern_run *run, void *buf, size_t len,
		  uint64_t offset);
bool pattern_check(const struct pattern_run *run, const void *buf,
		   size_t len, uint64_t offset);
bool pattern_sector_ok(const struct pattern_run *run, const void *sector,
		       uint64_t offset);
int pattern_header_decode(const void *sector, size_t sector_size,
			  struct pattern_header *out);

#endif /* USBTRAIL_PATTERN_H */
