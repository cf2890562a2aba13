// SPDX-License-Identifier: GPL-2.0-only
/*
 * pattern.c - fill and check buffers in the self-describing sector format
 * (see pattern.h).  It sits between the stress loop, which hands it the
 * buffers it writes and reads, and verify.c, which classifies the sectors
 * pattern_check() rejects.
 *
 * Speed matters more than anywhere else in the tool: every byte written is
 * filled here and every byte read is checked here, on one core, while the
 * device may run at several GB/s.  Hence the fill is a table XOR a key
 * rather than a generator stepped per word: the inner loops are a
 * load-xor-store and a load-xor-or, which run at memcpy speed, with no
 * dependency from one word to the next.  The table itself is pseudo-random
 * (splitmix64 over run id and generation), and which 1/k of the table a
 * sector uses rotates with its index, so neighbouring sectors differ in
 * every word and no controller can compress or deduplicate the data.
 */
#include <errno.h>
#include <string.h>

#include "pattern.h"

/* 32-byte vectors: the compiler uses AVX2 when built for it, else SSE2. */
typedef uint64_t pattern_vec __attribute__((vector_size(32)));

#define PATTERN_VEC_WORDS	4u
#define PATTERN_GOLDEN		0x9e3779b97f4a7c15ull

/* splitmix64's finaliser: a bijection, so distinct inputs stay distinct. */
uint64_t pattern_mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	return x;
}

static uint64_t pattern_key(const struct pattern_run *run, uint64_t offset)
{
	return pattern_mix64(offset ^ pattern_mix64(run->run_id ^
		((uint64_t)run->generation * PATTERN_GOLDEN)));
}

/* Host order to and from the little-endian words on the medium. */
static inline uint64_t pattern_le64(uint64_t v)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return __builtin_bswap64(v);
#else
	return v;
#endif
}

/**
 * pattern_run_init() - set up @run and derive its fill table
 * @run:         caller-owned, 64 KiB
 * @run_id:      any value; the stress command draws it at random
 * @generation:  1 for the first write of a run, +1 per rewrite
 * @sector_size: power of two from 512 to 65536
 * @run_size:    bytes the run covers, recorded in every header
 * @start_time:  Unix seconds, recorded in every header
 *
 * Return: 0, or -EINVAL for a bad @sector_size (@run then untouched).
 */
int pattern_run_init(struct pattern_run *run, uint64_t run_id,
		     uint32_t generation, uint32_t sector_size,
		     uint64_t run_size, uint64_t start_time)
{
	uint64_t s;
	size_t i;

	if (sector_size < PATTERN_MIN_SECTOR ||
	    sector_size > PATTERN_MAX_SECTOR ||
	    (sector_size & (sector_size - 1)))
		return -EINVAL;

	run->run_id = run_id;
	run->generation = generation;
	run->sector_size = sector_size;
	run->sector_shift = (unsigned int)__builtin_ctz(sector_size);
	run->run_size = run_size;
	run->start_time = start_time;

	s = pattern_mix64(run_id) ^ ((uint64_t)generation << 32) ^ generation;
	for (i = 0; i < PATTERN_TABLE_WORDS; i++) {
		s += PATTERN_GOLDEN;
		run->table[i] = pattern_le64(pattern_mix64(s));
	}
	return 0;
}

static void pattern_header_make(const struct pattern_run *run,
				uint64_t offset, uint64_t *hdr)
{
	hdr[PATTERN_W_MAGIC] = PATTERN_MAGIC;
	hdr[PATTERN_W_OFFSET] = offset;
	hdr[PATTERN_W_RUN_ID] = run->run_id;
	hdr[PATTERN_W_GEN] = run->generation |
			     ((uint64_t)run->sector_shift << 32) |
			     ((uint64_t)PATTERN_VERSION << 40);
	hdr[PATTERN_W_RUN_SIZE] = run->run_size;
	hdr[PATTERN_W_START] = run->start_time;
	hdr[PATTERN_W_RESERVED] = 0;
	hdr[PATTERN_W_CHECK] = pattern_mix64(hdr[0] ^ pattern_mix64(hdr[1] ^
		pattern_mix64(hdr[2] ^ pattern_mix64(hdr[3] ^
		pattern_mix64(hdr[4] ^ pattern_mix64(hdr[5]))))));
}

/* The part of the table sector number @sector_no uses. */
static const uint64_t *pattern_window(const struct pattern_run *run,
				      uint64_t offset)
{
	unsigned int windows = PATTERN_MAX_SECTOR >> run->sector_shift;
	uint64_t sector_no = offset >> run->sector_shift;

	return run->table + (size_t)(sector_no & (windows - 1)) *
			    (run->sector_size / 8);
}

/**
 * pattern_fill() - write the pattern for [@offset, @offset + @len) to @buf
 * @run:    the run
 * @buf:    at least 8-byte aligned
 * @len:    a multiple of the run's sector size
 * @offset: byte offset of @buf's first sector on the target, sector-aligned
 */
void pattern_fill(const struct pattern_run *run, void *buf, size_t len,
		  uint64_t offset)
{
	size_t words = run->sector_size / 8;
	unsigned char *p = buf;
	size_t done, i;

	for (done = 0; done < len; done += run->sector_size,
	     offset += run->sector_size) {
		uint64_t hdr[PATTERN_HDR_WORDS];
		const uint64_t *tab = pattern_window(run, offset);
		uint64_t k = pattern_le64(pattern_key(run, offset));
		pattern_vec kv = { k, k, k, k };
		unsigned char *s = p + done;

		pattern_header_make(run, offset, hdr);
		for (i = 0; i < PATTERN_HDR_WORDS; i++)
			hdr[i] = pattern_le64(hdr[i]);
		memcpy(s, hdr, sizeof(hdr));
		for (i = PATTERN_HDR_WORDS; i < words; i += PATTERN_VEC_WORDS) {
			pattern_vec v;

			memcpy(&v, tab + i, sizeof(v));
			v ^= kv;
			memcpy(s + i * 8, &v, sizeof(v));
		}
	}
}

/**
 * pattern_sector_ok() - whether one sector holds exactly the pattern
 * @run:    the run expected
 * @sector: the run's sector size of bytes
 * @offset: where @sector was read from
 */
bool pattern_sector_ok(const struct pattern_run *run, const void *sector,
		       uint64_t offset)
{
	return pattern_check(run, sector, run->sector_size, offset);
}

/**
 * pattern_check() - whether @buf holds exactly the pattern
 * @run:    the run expected
 * @buf:    at least 8-byte aligned
 * @len:    a multiple of the run's sector size
 * @offset: byte offset of @buf's first sector on the target
 *
 * The fast path of every read: it only says yes or no.  verify.c looks
 * closer at the sectors of a buffer this rejects.
 */
bool pattern_check(const struct pattern_run *run, const void *buf,
		   size_t len, uint64_t offset)
{
	size_t words = run->sector_size / 8;
	const unsigned char *p = buf;
	pattern_vec acc = { 0, 0, 0, 0 };
	size_t done, i;

	for (done = 0; done < len; done += run->sector_size,
	     offset += run->sector_size) {
		uint64_t hdr[PATTERN_HDR_WORDS];
		const uint64_t *tab = pattern_window(run, offset);
		uint64_t k = pattern_le64(pattern_key(run, offset));
		pattern_vec kv = { k, k, k, k };
		const unsigned char *s = p + done;

		pattern_header_make(run, offset, hdr);
		for (i = 0; i < PATTERN_HDR_WORDS; i++)
			hdr[i] = pattern_le64(hdr[i]);
		if (memcmp(s, hdr, sizeof(hdr)))
			return false;
		for (i = PATTERN_HDR_WORDS; i < words; i += PATTERN_VEC_WORDS) {
			pattern_vec v, t;

			memcpy(&v, s + i * 8, sizeof(v));
			memcpy(&t, tab + i, sizeof(t));
			acc |= v ^ t ^ kv;
		}
	}
	return !(acc[0] | acc[1] | acc[2] | acc[3]);
}

/**
 * pattern_header_decode() - read the identity a sector claims
 * @sector:      the bytes
 * @sector_size: their number
 * @out:         written only on success
 *
 * A header is accepted when its magic, version, check word and sector size
 * agree; its fill is not looked at (build a run from @out and call
 * pattern_sector_ok() for that).
 *
 * Return: 0, or -EINVAL if @sector holds no valid header.
 */
int pattern_header_decode(const void *sector, size_t sector_size,
			  struct pattern_header *out)
{
	uint64_t hdr[PATTERN_HDR_WORDS], want[PATTERN_HDR_WORDS];
	struct pattern_run probe;
	unsigned int shift;
	size_t i;

	if (sector_size < PATTERN_HDR_BYTES)
		return -EINVAL;
	memcpy(hdr, sector, sizeof(hdr));
	for (i = 0; i < PATTERN_HDR_WORDS; i++)
		hdr[i] = pattern_le64(hdr[i]);
	if (hdr[PATTERN_W_MAGIC] != PATTERN_MAGIC ||
	    ((hdr[PATTERN_W_GEN] >> 40) & 0xff) != PATTERN_VERSION)
		return -EINVAL;
	shift = (unsigned int)((hdr[PATTERN_W_GEN] >> 32) & 0xff);
	if (shift >= 32 || (1ull << shift) != sector_size)
		return -EINVAL;

	/* Only the fields pattern_header_make() reads. */
	probe.run_id = hdr[PATTERN_W_RUN_ID];
	probe.generation = (uint32_t)hdr[PATTERN_W_GEN];
	probe.sector_shift = shift;
	probe.run_size = hdr[PATTERN_W_RUN_SIZE];
	probe.start_time = hdr[PATTERN_W_START];
	pattern_header_make(&probe, hdr[PATTERN_W_OFFSET], want);
	if (memcmp(hdr, want, sizeof(hdr)))
		return -EINVAL;

	out->offset = hdr[PATTERN_W_OFFSET];
	out->run_id = probe.run_id;
	out->generation = probe.generation;
	out->sector_size = (uint32_t)sector_size;
	out->run_size = probe.run_size;
	out->start_time = probe.start_time;
	return 0;
}
