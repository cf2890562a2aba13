// SPDX-License-Identifier: GPL-2.0-only
/*
 * verify.c - what a sector that failed pattern_check() actually holds, and
 * the report of a read-back: counts per class and exact bad byte ranges.
 *
 * Classification, in this order, because each later test would also match
 * the data of an earlier one:
 *   ok          the sector is what was written;
 *   zeroed      every byte is 0 (a trimmed or never-written block);
 *   stale       a valid sector of this offset, but of an earlier generation
 *               or another run: the write was lost;
 *   overwritten a valid sector of another offset of this run: a write went
 *               to the wrong place;
 *   changed     at most 1/VERIFY_CHANGED_DIVISOR of the bits differ from
 *               what was written: bit flips;
 *   garbage     anything else.
 * "Valid" means the header decodes and the fill matches the header, so a
 * stale sector with a flipped bit counts as changed, not stale: the bits
 * that differ from the expected data are then few only if the header says
 * this offset, run and generation, which a stale sector does not.
 *
 * Pure: memory in, structs out.
 */
#include <stdlib.h>
#include <string.h>

#include "verify.h"

static const char *const verify_class_names[VERIFY_NR_CLASSES] = {
	[VERIFY_OK] = "ok",
	[VERIFY_CHANGED] = "changed",
	[VERIFY_OVERWRITTEN] = "overwritten",
	[VERIFY_STALE] = "stale",
	[VERIFY_ZEROED] = "zeroed",
	[VERIFY_GARBAGE] = "garbage",
	[VERIFY_UNREADABLE] = "unreadable",
};

const char *verify_class_name(enum verify_class cls)
{
	if ((unsigned int)cls >= VERIFY_NR_CLASSES)
		return "?";
	return verify_class_names[cls];
}

static bool verify_all_zero(const unsigned char *p, size_t len)
{
	uint64_t acc = 0, w;
	size_t i;

	for (i = 0; i < len; i += 8) {
		memcpy(&w, p + i, 8);
		acc |= w;
	}
	return !acc;
}

static uint32_t verify_bit_distance(const unsigned char *a,
				    const unsigned char *b, size_t len)
{
	uint32_t bits = 0;
	uint64_t x, y;
	size_t i;

	for (i = 0; i < len; i += 8) {
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		bits += (uint32_t)__builtin_popcountll(x ^ y);
	}
	return bits;
}

/**
 * verify_sector_classify() - say what one sector holds
 * @run:     the run expected at @offset
 * @scratch: a second run (64 KiB) this may rebuild to check a sector of
 *           another run or generation; its contents are not kept
 * @sector:  the run's sector size of bytes, 8-byte aligned
 * @offset:  where @sector was read from
 * @out:     the result
 */
void verify_sector_classify(const struct pattern_run *run,
			    struct pattern_run *scratch, const void *sector,
			    uint64_t offset, struct verify_sector *out)
{
	_Alignas(32) unsigned char want[PATTERN_MAX_SECTOR];
	struct pattern_header h;
	size_t ss = run->sector_size;
	uint32_t bits;

	memset(out, 0, sizeof(*out));
	if (pattern_sector_ok(run, sector, offset)) {
		out->cls = VERIFY_OK;
		return;
	}
	if (verify_all_zero(sector, ss)) {
		out->cls = VERIFY_ZEROED;
		return;
	}

	if (!pattern_header_decode(sector, ss, &h)) {
		const struct pattern_run *other = run;
		bool valid;

		if (h.run_id != run->run_id ||
		    h.generation != run->generation ||
		    h.run_size != run->run_size ||
		    h.start_time != run->start_time) {
			valid = !pattern_run_init(scratch, h.run_id,
						  h.generation, h.sector_size,
						  h.run_size, h.start_time);
			other = scratch;
		} else {
			valid = true;
		}
		if (valid && pattern_sector_ok(other, sector, h.offset)) {
			out->found_offset = h.offset;
			out->found_run_id = h.run_id;
			out->found_generation = h.generation;
			if (h.offset == offset &&
			    (h.run_id != run->run_id ||
			     h.generation < run->generation)) {
				out->cls = VERIFY_STALE;
				return;
			}
			if (h.offset != offset && h.run_id == run->run_id) {
				out->cls = VERIFY_OVERWRITTEN;
				return;
			}
			/* A newer generation here, or another run's sector
			 * of another offset: nothing this run wrote. */
			out->cls = VERIFY_GARBAGE;
			return;
		}
	}

	pattern_fill(run, want, ss, offset);
	bits = verify_bit_distance(sector, want, ss);
	if (bits <= ss * 8 / VERIFY_CHANGED_DIVISOR) {
		out->cls = VERIFY_CHANGED;
		out->bits = bits;
		return;
	}
	out->cls = VERIFY_GARBAGE;
}

static uint64_t verify_gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

void verify_report_init(struct verify_report *rep)
{
	memset(rep, 0, offsetof(struct verify_report, ranges));
}

/**
 * verify_report_add() - count [@offset, @offset + @len) as @vs says
 * @rep:    the report
 * @offset: byte offset
 * @len:    bytes, whole sectors of one class
 * @vs:     what they are; the sector count is @len / 512 for UNREADABLE
 *          and otherwise @len / the sector size the caller used
 *
 * Bad bytes that continue the last range of the same class extend it, so a
 * dead megabyte is one line, not 2048.
 */
void verify_report_add(struct verify_report *rep, uint64_t offset,
		       uint64_t len, const struct verify_sector *vs)
{
	struct verify_range *r;

	rep->bytes_checked += len;
	if (vs->cls == VERIFY_OK)
		return;
	rep->bits_changed += vs->bits;
	if (vs->cls == VERIFY_OVERWRITTEN) {
		rep->overwritten_bytes += len;
		rep->overwritten_gcd = verify_gcd(rep->overwritten_gcd,
			vs->found_offset > offset ? vs->found_offset - offset :
			offset - vs->found_offset);
	}

	if (rep->nranges) {
		r = &rep->ranges[rep->nranges - 1];
		if (r->end == offset && r->cls == vs->cls) {
			r->end = offset + len;
			r->bits += vs->bits;
			return;
		}
	}
	if (rep->nranges == VERIFY_MAX_RANGES) {
		rep->ranges_dropped++;
		return;
	}
	r = &rep->ranges[rep->nranges++];
	r->start = offset;
	r->end = offset + len;
	r->cls = vs->cls;
	r->bits = vs->bits;
	r->first = *vs;
}

/**
 * verify_buffer() - check a buffer read from @offset and add it to @rep
 * @run:     the run expected
 * @scratch: see verify_sector_classify()
 * @buf:     the data, 8-byte aligned
 * @len:     a multiple of the run's sector size
 * @offset:  where @buf was read from
 * @rep:     the report
 *
 * Return: the number of bad sectors in @buf.
 */
uint64_t verify_buffer(const struct pattern_run *run,
		       struct pattern_run *scratch, const void *buf,
		       size_t len, uint64_t offset, struct verify_report *rep)
{
	const unsigned char *p = buf;
	struct verify_sector vs;
	uint64_t bad = 0;
	size_t i;

	if (pattern_check(run, buf, len, offset)) {
		rep->sectors[VERIFY_OK] += len / run->sector_size;
		rep->bytes_checked += len;
		return 0;
	}
	for (i = 0; i < len; i += run->sector_size) {
		verify_sector_classify(run, scratch, p + i, offset + i, &vs);
		rep->sectors[vs.cls]++;
		if (vs.cls != VERIFY_OK)
			bad++;
		verify_report_add(rep, offset + i, run->sector_size, &vs);
	}
	return bad;
}

/* Sectors that were not OK. */
uint64_t verify_report_bad(const struct verify_report *rep)
{
	uint64_t n = 0;
	unsigned int c;

	for (c = VERIFY_OK + 1; c < VERIFY_NR_CLASSES; c++)
		n += rep->sectors[c];
	return n;
}

static int verify_range_cmp(const void *a, const void *b)
{
	const struct verify_range *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

/**
 * verify_report_finish() - sort the ranges by offset and merge neighbours
 * @rep: the report
 *
 * Reads complete out of order at a queue depth above 1, so a bad stretch
 * spanning two blocks arrives as two ranges, possibly far apart in the
 * list.  Call once, after the last verify_report_add().
 */
void verify_report_finish(struct verify_report *rep)
{
	size_t i, o = 0;

	if (!rep->nranges)
		return;
	qsort(rep->ranges, rep->nranges, sizeof(rep->ranges[0]),
	      verify_range_cmp);
	for (i = 1; i < rep->nranges; i++) {
		struct verify_range *last = &rep->ranges[o];

		if (last->end == rep->ranges[i].start &&
		    last->cls == rep->ranges[i].cls) {
			last->end = rep->ranges[i].end;
			last->bits += rep->ranges[i].bits;
		} else {
			rep->ranges[++o] = rep->ranges[i];
		}
	}
	rep->nranges = o + 1;
}

/**
 * verify_wrap() - whether the bad sectors say the writes wrapped around
 * @rep:  the read-back's report
 * @size: the bytes the run wrote from offset 0
 * @out:  the modulus and the usable size, on true
 *
 * A device that claims @size but holds only k bytes and keeps offset X at
 * X mod k gives back, at X, what was written last to an offset of the
 * same place: a sector of this run of offset X +- n * k, "overwritten".
 * After a sequential write of [0, @size) the last @size - k bytes written
 * were each the last at their place, the first @size - k bytes read wrong
 * (all of [0, k) when @size is 2k: the second half over the first).
 *
 * So: the offsets every overwritten sector holds differ from its own by
 * multiples of one modulus k below @size (their greatest common divisor);
 * the overwritten bytes are at least half of what a wrap at k leaves
 * wrong in a whole read, min(k, @size - k), so that one misdirected
 * write is no wrap; and they are most of the bad sectors, so that a
 * device that returns garbage is not called a wrap for a few of them.
 * The usable size is k: from 0 to k each offset has a place of its own.
 * Pure.
 *
 * Return: true with @out set when it is a wrap-around.
 */
bool verify_wrap(const struct verify_report *rep, uint64_t size,
		 struct verify_wrap *out)
{
	uint64_t k = rep->overwritten_gcd, wrong;

	if (!rep->overwritten_bytes || k < PATTERN_MIN_SECTOR || k >= size)
		return false;
	wrong = k < size - k ? k : size - k;
	if (rep->overwritten_bytes < wrong / 2)
		return false;
	if (rep->sectors[VERIFY_OVERWRITTEN] * 2 < verify_report_bad(rep))
		return false;
	out->modulus = k;
	out->usable = k;
	return true;
}
