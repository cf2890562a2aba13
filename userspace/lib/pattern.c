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

/*
 * The loops are written once, over a vector type, and built twice: with
 * 16-byte vectors (SSE2, every x86-64) and with 32-byte vectors for AVX2,
 * picked at run time (libusb's habit: detect, do not guess at compile
 * time).  Two vectors a step, two accumulators: no step waits for the last.
 */
typedef uint64_t pattern_v2 __attribute__((vector_size(16)));
typedef uint64_t pattern_v4 __attribute__((vector_size(32)));

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

/*
 * What the header words other than offset and check word hash to: one
 * pattern_mix64() per sector is then enough for its check word, which is
 * also the key its fill is XORed with.
 */
static uint64_t pattern_seed(uint64_t run_id, uint64_t gen_word,
			     uint64_t run_size, uint64_t start_time)
{
	return pattern_mix64(PATTERN_MAGIC ^ pattern_mix64(run_id ^
		pattern_mix64(gen_word ^ pattern_mix64(run_size ^
		pattern_mix64(start_time)))));
}

static uint64_t pattern_gen_word(uint32_t generation, unsigned int shift)
{
	return generation | ((uint64_t)shift << 32) |
	       ((uint64_t)PATTERN_VERSION << 40);
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
	run->seed = pattern_seed(run_id, pattern_gen_word(generation,
							  run->sector_shift),
				 run_size, start_time);

	s = pattern_mix64(run_id) ^ ((uint64_t)generation << 32) ^ generation;
	for (i = 0; i < PATTERN_TABLE_WORDS; i++) {
		s += PATTERN_GOLDEN;
		run->table[i] = pattern_le64(pattern_mix64(s));
	}
	return 0;
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

/*
 * Header words one at a time, never through an array: gcc would store the
 * words and load them back as a vector, and such a load cannot be
 * forwarded from several smaller stores, which stalls every sector.
 */
static inline uint64_t pattern_load(const unsigned char *p, unsigned int w)
{
	uint64_t v;

	memcpy(&v, p + w * 8, 8);
	return v;
}

static inline void pattern_store(unsigned char *p, unsigned int w,
				 uint64_t v)
{
	memcpy(p + w * 8, &v, 8);
}

#define PATTERN_FILL_BODY(vec, n)					\
	const uint64_t h_magic = pattern_le64(PATTERN_MAGIC);		\
	const uint64_t h_run = pattern_le64(run->run_id);		\
	const uint64_t h_gen = pattern_le64(pattern_gen_word(		\
			run->generation, run->sector_shift));		\
	const uint64_t h_size = pattern_le64(run->run_size);		\
	const uint64_t h_start = pattern_le64(run->start_time);	\
	size_t words = run->sector_size / 8;				\
	unsigned char *p = buf;						\
	size_t done, i;							\
									\
	for (done = 0; done < len; done += run->sector_size,		\
	     offset += run->sector_size) {				\
		const uint64_t *tab = pattern_window(run, offset);	\
		unsigned char *s = p + done;				\
		uint64_t chk = pattern_le64(pattern_mix64(offset ^	\
							  run->seed));	\
		vec kv, v0, v1;						\
									\
		pattern_store(s, PATTERN_W_MAGIC, h_magic);		\
		pattern_store(s, PATTERN_W_OFFSET, pattern_le64(offset)); \
		pattern_store(s, PATTERN_W_RUN_ID, h_run);		\
		pattern_store(s, PATTERN_W_GEN, h_gen);			\
		pattern_store(s, PATTERN_W_RUN_SIZE, h_size);		\
		pattern_store(s, PATTERN_W_START, h_start);		\
		pattern_store(s, PATTERN_W_RESERVED, 0);		\
		pattern_store(s, PATTERN_W_CHECK, chk);			\
		kv = (vec){ 0 } ^ chk;					\
		for (i = PATTERN_HDR_WORDS; i < words; i += 2 * n) {	\
			memcpy(&v0, tab + i, sizeof(v0));		\
			memcpy(&v1, tab + i + n, sizeof(v1));		\
			v0 ^= kv;					\
			v1 ^= kv;					\
			memcpy(s + i * 8, &v0, sizeof(v0));		\
			memcpy(s + (i + n) * 8, &v1, sizeof(v1));	\
		}							\
	}

#define PATTERN_CHECK_BODY(vec, n)					\
	const uint64_t h_magic = pattern_le64(PATTERN_MAGIC);		\
	const uint64_t h_run = pattern_le64(run->run_id);		\
	const uint64_t h_gen = pattern_le64(pattern_gen_word(		\
			run->generation, run->sector_shift));		\
	const uint64_t h_size = pattern_le64(run->run_size);		\
	const uint64_t h_start = pattern_le64(run->start_time);	\
	size_t words = run->sector_size / 8;				\
	const unsigned char *p = buf;					\
	vec acc0, acc1;							\
	uint64_t all = 0;						\
	size_t done, i;							\
									\
	memset(&acc0, 0, sizeof(acc0));					\
	memset(&acc1, 0, sizeof(acc1));					\
	for (done = 0; done < len; done += run->sector_size,		\
	     offset += run->sector_size) {				\
		const uint64_t *tab = pattern_window(run, offset);	\
		const unsigned char *s = p + done;			\
		uint64_t chk = pattern_le64(pattern_mix64(offset ^	\
							  run->seed));	\
		vec kv, v0, v1, t0, t1;					\
									\
		if ((pattern_load(s, PATTERN_W_MAGIC) ^ h_magic) |	\
		    (pattern_load(s, PATTERN_W_OFFSET) ^		\
		     pattern_le64(offset)) |				\
		    (pattern_load(s, PATTERN_W_RUN_ID) ^ h_run) |	\
		    (pattern_load(s, PATTERN_W_GEN) ^ h_gen) |		\
		    (pattern_load(s, PATTERN_W_RUN_SIZE) ^ h_size) |	\
		    (pattern_load(s, PATTERN_W_START) ^ h_start) |	\
		    pattern_load(s, PATTERN_W_RESERVED) |		\
		    (pattern_load(s, PATTERN_W_CHECK) ^ chk))		\
			return false;					\
		kv = (vec){ 0 } ^ chk;					\
		for (i = PATTERN_HDR_WORDS; i < words; i += 2 * n) {	\
			memcpy(&v0, s + i * 8, sizeof(v0));		\
			memcpy(&v1, s + (i + n) * 8, sizeof(v1));	\
			memcpy(&t0, tab + i, sizeof(t0));		\
			memcpy(&t1, tab + i + n, sizeof(t1));		\
			acc0 |= v0 ^ t0 ^ kv;				\
			acc1 |= v1 ^ t1 ^ kv;				\
		}							\
	}								\
	acc0 |= acc1;							\
	for (i = 0; i < n; i++)						\
		all |= acc0[i];						\
	return !all;

static void pattern_fill_sse2(const struct pattern_run *run, void *buf,
			      size_t len, uint64_t offset)
{
	PATTERN_FILL_BODY(pattern_v2, 2)
}

static bool pattern_check_sse2(const struct pattern_run *run,
			       const void *buf, size_t len, uint64_t offset)
{
	PATTERN_CHECK_BODY(pattern_v2, 2)
}

#if defined(__x86_64__)
__attribute__((target("avx2")))
static void pattern_fill_avx2(const struct pattern_run *run, void *buf,
			      size_t len, uint64_t offset)
{
	PATTERN_FILL_BODY(pattern_v4, 4)
}

__attribute__((target("avx2")))
static bool pattern_check_avx2(const struct pattern_run *run,
			       const void *buf, size_t len, uint64_t offset)
{
	PATTERN_CHECK_BODY(pattern_v4, 4)
}

static bool pattern_have_avx2(void)
{
	static int have = -1;

	if (have < 0) {
		__builtin_cpu_init();
		have = __builtin_cpu_supports("avx2") ? 1 : 0;
	}
	return have;
}
#else
#define pattern_have_avx2()	false
#define pattern_fill_avx2	pattern_fill_sse2
#define pattern_check_avx2	pattern_check_sse2
#endif

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
	if (pattern_have_avx2())
		pattern_fill_avx2(run, buf, len, offset);
	else
		pattern_fill_sse2(run, buf, len, offset);
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
	if (pattern_have_avx2())
		return pattern_check_avx2(run, buf, len, offset);
	return pattern_check_sse2(run, buf, len, offset);
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
	uint64_t hdr[PATTERN_HDR_WORDS];
	unsigned int shift;
	uint64_t seed;
	size_t i;

	if (sector_size < PATTERN_HDR_BYTES)
		return -EINVAL;
	memcpy(hdr, sector, sizeof(hdr));
	for (i = 0; i < PATTERN_HDR_WORDS; i++)
		hdr[i] = pattern_le64(hdr[i]);
	if (hdr[PATTERN_W_MAGIC] != PATTERN_MAGIC ||
	    ((hdr[PATTERN_W_GEN] >> 40) & 0xffffff) != PATTERN_VERSION ||
	    hdr[PATTERN_W_RESERVED])
		return -EINVAL;
	shift = (unsigned int)((hdr[PATTERN_W_GEN] >> 32) & 0xff);
	if (shift >= 32 || (1ull << shift) != sector_size)
		return -EINVAL;
	seed = pattern_seed(hdr[PATTERN_W_RUN_ID], hdr[PATTERN_W_GEN],
			    hdr[PATTERN_W_RUN_SIZE], hdr[PATTERN_W_START]);
	if (hdr[PATTERN_W_CHECK] != pattern_mix64(hdr[PATTERN_W_OFFSET] ^ seed))
		return -EINVAL;

	out->offset = hdr[PATTERN_W_OFFSET];
	out->run_id = hdr[PATTERN_W_RUN_ID];
	out->generation = (uint32_t)hdr[PATTERN_W_GEN];
	out->sector_size = (uint32_t)sector_size;
	out->run_size = hdr[PATTERN_W_RUN_SIZE];
	out->start_time = hdr[PATTERN_W_START];
	return 0;
}
