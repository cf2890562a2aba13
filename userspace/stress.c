// SPDX-License-Identifier: GPL-2.0-only
/*
 * stress.c - the workloads of "usbtrail stress" and the loop that runs
 * them.
 *
 * A profile is planned as a list of phases (stress_plan(), pure); each
 * phase is one loop that keeps qd requests in flight through ioengine.c,
 * fills every block it writes with pattern.c and checks every block it
 * reads with verify.c.  The loop is single-threaded: filling and checking
 * run at memcpy speed, faster than any USB device.
 *
 * Errors are kept with errno, offset and time.  --on-error stop ends the
 * run, continue goes on (sectors whose write failed are then skipped by the
 * read-back and counted as not written), reopen drains what is in flight,
 * waits for the same disk (USB serial, ids and size) to come back, checks
 * what was written before the failure, re-issues the failed requests and
 * resumes.
 *
 * A signal the caller caught (cfg->interrupt) stops the issuing of new
 * requests; what is in flight completes, the phase ends as interrupted,
 * and when it was a write, what this generation wrote is read back and
 * checked as one more phase, "verify", before the run ends.
 *
 * Phases and errors are also written to the kernel's trace_marker when it
 * is writable, one line each (docs/stress.md), for "usbtrail record".
 * Everything a user should see goes through cfg->message; nothing here
 * prints.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "stress.h"
#include "util.h"

#define STRESS_BUF_ALIGN	4096u
#define STRESS_HUGE_DEFAULT	(2u << 20)
#define STRESS_HUGE_MAX		(32u << 20)
#define STRESS_MAP_REAP		64u
#define STRESS_PROGRESS_SECS	0.2
#define STRESS_REOPEN_SETTLE	5.0	/* present this long: no unplug */
#define STRESS_MAX_REOPENS	10
#define STRESS_FIND_MAX		(1u << 20)
#define STRESS_CDM_SIZE		(1ull << 30)
#define STRESS_SWEEP_SIZE	(256ull << 20)
#define STRESS_MIXED_EVERY	(16ull << 20)	/* bytes between bursts */
#define STRESS_MIXED_BURST	64u		/* 4K writes per burst */

static const char *const stress_trace_markers[] = {
	"/sys/kernel/tracing/trace_marker",
	"/sys/kernel/debug/tracing/trace_marker",
	NULL
};

/* A failed request kept for the read-back or a retry. */
struct stress_failed {
	uint64_t offset;
	uint32_t len;
	bool write;
};

/* The kernel's transparent huge page size, or 0 when there is none. */
static size_t stress_huge_size(void)
{
	unsigned long long v = STRESS_HUGE_DEFAULT;
	FILE *f;

	f = fopen("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", "re");
	if (!f)
		return 0;
	if (fscanf(f, "%llu", &v) != 1)
		v = STRESS_HUGE_DEFAULT;
	fclose(f);
	return v && !(v & (v - 1)) && v <= STRESS_HUGE_MAX ? (size_t)v : 0;
}

/*
 * The slots' memory (free() it).  Where it spans a huge page or more, it
 * is aligned to one and asks for transparent huge pages: every request's
 * fill or check, and the kernel's copy of it, then walks megabytes
 * without a page boundary every 4 KiB (what that is worth, measured: the
 * huge-page A/B in docs/performance.md).  Without them (THP off, or
 * madvise refused) it is the same memory in small pages.
 */
static unsigned char *stress_bufs_alloc(size_t len)
{
	size_t huge = stress_huge_size();
	void *p;

	if (!huge || len < huge) {
		if (posix_memalign(&p, STRESS_BUF_ALIGN, len))
			return NULL;
		return p;
	}
	len = (len + huge - 1) & ~(huge - 1);
	if (posix_memalign(&p, huge, len))
		return NULL;
	(void)madvise(p, len, MADV_HUGEPAGE);
	return p;
}

struct stress_ctx {
	struct blkdev_target *t;
	const struct blkdev_open_opts *bo;
	const struct stress_config *cfg;
	struct stress_result *res;
	struct ioengine *io;
	struct pattern_run *run;
	struct pattern_run *scratch;
	unsigned int nslots;
	uint32_t slot_len;
	unsigned char *bufs;
	struct ioengine_req *reqs;
	unsigned int *free_slots;
	unsigned int nfree;
	/* writes that failed for good (--on-error continue) */
	struct stress_failed *bad;
	size_t nbad, capbad;
	size_t capintervals;
	double t0;
	int marker_fd;
	uint64_t rng;
	bool in_reverify;
	bool ignore_interrupt;		/* the read-back after a signal */
	uint64_t written_end;		/* this generation wrote [0, it) */
	struct hist *rates;		/* the phase's whole intervals, B/s */
	struct hist *lat;		/* the phase's completions, ns */
	double first_rate;		/* soak: cycle 1's write, MB/s */
};

static double stress_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void stress_msg(struct stress_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void stress_msg(struct stress_ctx *c, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	if (!c->cfg->message)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	c->cfg->message(c->cfg->ctx, line);
}

/*
 * One line per event for "usbtrail record" to put on its timeline:
 *   usbtrail-stress: phase=NAME event=EVENT run=HEX gen=N [key=value]...
 * Spaces in NAME become '-'.  Failure to write is ignored: markers are a
 * bonus, never a reason to fail a run.
 */
static void stress_marker(struct stress_ctx *c, const char *phase,
			  const char *event, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void stress_marker(struct stress_ctx *c, const char *phase,
			  const char *event, const char *fmt, ...)
{
	char line[400], name[32];
	va_list ap;
	size_t i;
	int n;

	if (c->marker_fd < 0)
		return;
	snprintf(name, sizeof(name), "%s", phase);
	for (i = 0; name[i]; i++)
		if (name[i] == ' ')
			name[i] = '-';
	n = snprintf(line, sizeof(line),
		     "usbtrail-stress: phase=%s event=%s run=%016" PRIx64
		     " gen=%" PRIu32, name, event, c->run->run_id,
		     c->run->generation);
	if (fmt && n > 0 && (size_t)n < sizeof(line)) {
		line[n++] = ' ';
		va_start(ap, fmt);
		vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
		va_end(ap);
	}
	n = (int)strlen(line);
	if (n + 1 < (int)sizeof(line)) {
		line[n++] = '\n';
		line[n] = '\0';
	}
	if (write(c->marker_fd, line, (size_t)n) < 0) {
		/* nothing to do: see above */
	}
}

/* The signal cfg->interrupt holds, or 0 (also during the read-back). */
static int stress_interrupted(const struct stress_ctx *c)
{
	if (!c->cfg->interrupt || c->ignore_interrupt)
		return 0;
	return atomic_load(c->cfg->interrupt);
}

/* "SIGINT", for the markers and the summary */
void stress_signal_name(int sig, char *buf, size_t len)
{
	const char *abbrev = sigabbrev_np(sig);

	if (abbrev)
		snprintf(buf, len, "SIG%s", abbrev);
	else
		snprintf(buf, len, "signal %d", sig);
}

static uint64_t stress_rand(struct stress_ctx *c)
{
	c->rng += 0x9e3779b97f4a7c15ull;
	return pattern_mix64(c->rng);
}

/* ----- planning ----- */

static void stress_phase_set(struct stress_phase *p, const char *name,
			     const char *label, bool write, bool random,
			     uint32_t block, unsigned int qd, uint64_t region,
			     double secs)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->label, sizeof(p->label), "%s", label);
	p->write = write;
	p->random = random;
	p->verify = !write;
	p->block = block;
	p->qd = qd;
	p->region = region - region % block;
	p->limit_secs = secs;
}

/* "SEQ1M Q8T1", "RND4K Q32T1": CrystalDiskMark's name of a test. */
static void stress_cdm_label(char *buf, size_t len, bool random,
			     uint32_t block, unsigned int qd)
{
	char size[16];

	if (block >= (1u << 20) && !(block % (1u << 20)))
		snprintf(size, sizeof(size), "%uM", block >> 20);
	else if (block >= 1024 && !(block % 1024))
		snprintf(size, sizeof(size), "%uK", block >> 10);
	else
		snprintf(size, sizeof(size), "%u", block);
	snprintf(buf, len, "%s%s Q%uT1", random ? "RND" : "SEQ", size, qd);
}

/*
 * CrystalDiskMark 8's default tests, as it runs them (DiskBench.cpp):
 * the test file filled first ("prepare": a sequential write of it all,
 * so every read checks data), then SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1
 * and RND4K Q1T1 reads, then the same writes; each test a warm-up run
 * (pass 0) and @cfg->passes scored ones, each --duration, a sequential
 * one on from the start when it reaches the end.  Writes rewrite what
 * "prepare" wrote, the same contents.  --block and --qd change the first
 * test.  Pure.
 */
static int stress_plan_cdm(const struct stress_config *cfg, uint64_t size,
			   uint32_t lbs, struct stress_phase *phases,
			   size_t max)
{
	static const struct stress_cdm_test {
		bool random;
		uint32_t block;
		unsigned int qd;
	} cdm8[] = {
		{ false, 1u << 20, 8 }, { false, 1u << 20, 1 },
		{ true, 4096, 32 }, { true, 4096, 1 },
	}, cdm3[] = {
		/* CrystalDiskMark 3.0: Seq, 512K, 4K, 4K QD32 */
		{ false, 1u << 20, 1 }, { true, 512u << 10, 1 },
		{ true, 4096, 1 }, { true, 4096, 32 },
	};
	const struct stress_cdm_test *tests = cfg->cdm_set == 3 ? cdm3 : cdm8;
	unsigned int passes = cfg->passes ? cfg->passes : STRESS_CDM_PASSES;
	double dur = cfg->duration ? cfg->duration : 5;
	unsigned int w, t, p, k, qd;
	char label[24], name[32];
	uint32_t block;
	size_t n = 0;

	if (size < (1u << 20) || lbs > 4096 || passes > STRESS_CDM_MAX_PASSES ||
	    (cfg->block && (cfg->block % lbs || cfg->block > size)))
		return -EINVAL;
	if (max < 1 + 2 * 4 * (1 + (size_t)passes))
		return -E2BIG;
	stress_phase_set(&phases[n++], "prepare", "", true, false, 1u << 20, 4,
			 size, 0);
	/*
	 * CrystalDiskMark 8 reads every test, then writes them; 3.0 read and
	 * wrote each test in turn (Seq Read, Seq Write, 512K Read, ...).
	 */
	for (k = 0; k < 8; k++) {
		w = cfg->cdm_set == 3 ? k % 2 : k / 4;
		t = cfg->cdm_set == 3 ? k / 2 : k % 4;
		block = tests[t].block;
		qd = tests[t].qd;

		if (!t && cfg->block)
			block = cfg->block;
		if (!t && cfg->qd)
			qd = cfg->qd;
		stress_cdm_label(label, sizeof(label), tests[t].random,
				 block, qd);
		snprintf(name, sizeof(name), "%s %s", label,
			 w ? "Write" : "Read");
		for (p = 0; p <= passes; p++) {
			struct stress_phase *ph = &phases[n++];

			stress_phase_set(ph, name, label, w, tests[t].random,
					 block, qd, size, dur);
			ph->pass = p;
			ph->wrap = !tests[t].random;
		}
	}
	return (int)n;
}

/**
 * stress_plan() - the phases a profile runs
 * @cfg:         profile and options (0 fields: defaults)
 * @target_size: usable bytes of the target
 * @lbs:         its logical block size
 * @phases:      output array
 * @max:         its size
 *
 * Pure.  Return: the number of phases, or -EINVAL when the size or block
 * cannot work (the command checked the options' ranges already), or
 * -E2BIG when @max is too small.
 */
int stress_plan(const struct stress_config *cfg, uint64_t target_size,
		uint32_t lbs, struct stress_phase *phases, size_t max)
{
	uint64_t size = cfg->size ? cfg->size : target_size;
	uint32_t block = cfg->block;
	unsigned int qd = cfg->qd;
	double dur = cfg->duration;
	size_t n = 0;
	uint32_t bs;

	if (size > target_size || !lbs)
		return -EINVAL;

#define STRESS_ADD(...)	do {					\
		if (n == max)					\
			return -E2BIG;				\
		stress_phase_set(&phases[n++], __VA_ARGS__);	\
	} while (0)

	if (cfg->verify_only) {
		/* whatever the profile: a read of what a run left */
		block = block ? block : 1u << 20;
		qd = qd ? qd : 4;
		if (size < block || block % lbs)
			return -EINVAL;
		STRESS_ADD("verify", "", false, false, block, qd, size, 0);
		return (int)n;
	}
	switch (cfg->profile) {
	case STRESS_PROFILE_SEQ:
	case STRESS_PROFILE_MIXED:
		block = block ? block : 1u << 20;
		qd = qd ? qd : 4;
		if (size < block || block % lbs)
			return -EINVAL;
		/* --duration cuts the write short; the read then checks
		 * what it reached (see stress_run()). */
		STRESS_ADD(cfg->profile == STRESS_PROFILE_MIXED ? "mixed" :
			   "write", "", true, false, block, qd, size, dur);
		phases[n - 1].mixed = cfg->profile == STRESS_PROFILE_MIXED;
		STRESS_ADD("read", "", false, false, block, qd, size, 0);
		break;
	case STRESS_PROFILE_CDM:
		if (!cfg->size && size > STRESS_CDM_SIZE)
			size = STRESS_CDM_SIZE;
		return stress_plan_cdm(cfg, size, lbs, phases, max);
	case STRESS_PROFILE_SWEEP:
		if (!cfg->size && size > STRESS_SWEEP_SIZE)
			size = STRESS_SWEEP_SIZE;
		dur = dur ? dur : 2;
		qd = qd ? qd : 4;
		for (bs = 512; bs <= (8u << 20); bs <<= 1) {
			char bsz[16], name[32];

			if (bs < lbs || bs > size)
				continue;
			util_format_size(bsz, sizeof(bsz), bs);
			/* The read covers what the write got done in time:
			 * stress_run() shrinks its region. */
			snprintf(name, sizeof(name), "write %s", bsz);
			STRESS_ADD(name, "", true, false, bs, qd, size, dur);
			snprintf(name, sizeof(name), "read %s", bsz);
			STRESS_ADD(name, "", false, false, bs, qd, size, dur);
		}
		break;
	case STRESS_PROFILE_SOAK:
		/* The cycles are added by stress_run() until time is up. */
		block = block ? block : 1u << 20;
		qd = qd ? qd : 4;
		if (size < block || block % lbs)
			return -EINVAL;
		STRESS_ADD("write", "", true, false, block, qd, size, 0);
		phases[0].cycle = 1;
		STRESS_ADD("read", "", false, false, block, qd, size, 0);
		phases[1].cycle = 1;
		break;
	}
#undef STRESS_ADD
	return (int)n;
}

/* ----- dips ----- */

/* The per-interval log's nominal interval: --interval, or a second. */
static double stress_interval_secs(const struct stress_config *cfg)
{
	return (cfg->interval_ms ? cfg->interval_ms : 1000) / 1000.0;
}

static int stress_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/**
 * stress_flag_dips() - mark the intervals of @phase well below its pace
 * @iv:       the intervals of a run
 * @n:        their number
 * @phase:    which phase
 * @interval: the nominal interval, seconds
 * @dip:      per interval, set for a dip (others untouched)
 * @ndips:    the number flagged
 *
 * The pace is the 90th percentile of the phase's whole intervals, what
 * the device does when it is not held back; an interval below
 * STRESS_DIP_FRACTION of it is a dip.  Not the median: when an SLC cache
 * runs out or a bridge throttles half-way, half the phase is slow and the
 * median with it.  An interval ends at the first completion after its
 * nominal length, so a whole one is never shorter (a slow one is longer:
 * its last request took long) and only the phase's last, partial one is;
 * that is not judged, nor a phase of fewer than 3 whole intervals.  Pure.
 */
void stress_flag_dips(const struct stress_interval *iv, size_t n,
		      unsigned int phase, double interval, bool *dip,
		      unsigned int *ndips)
{
	double *rates, pace, whole = interval * 0.99;
	size_t i, m = 0;

	*ndips = 0;
	rates = calloc(n ? n : 1, sizeof(*rates));
	if (!rates)
		return;
	for (i = 0; i < n; i++)
		if (iv[i].phase == phase && iv[i].secs >= whole)
			rates[m++] = (double)iv[i].bytes / iv[i].secs;
	if (m < 3) {
		free(rates);
		return;
	}
	qsort(rates, m, sizeof(*rates), stress_cmp_double);
	pace = rates[(m - 1) * 9 / 10];
	for (i = 0; i < n; i++) {
		if (iv[i].phase != phase || iv[i].secs < whole)
			continue;
		if ((double)iv[i].bytes / iv[i].secs <
		    pace * STRESS_DIP_FRACTION) {
			dip[i] = true;
			(*ndips)++;
		}
	}
	free(rates);
}

/* ----- in-band run detection ----- */

/*
 * The run most sectors of @buf at sector size @ss belong to, into @best;
 * with @own, only sectors that name their own offset count.  Return: how
 * many sectors it has.
 */
static unsigned int stress_find_run_ss(const unsigned char *p, size_t len,
				       uint32_t ss, bool own,
				       struct pattern_header *best)
{
	struct pattern_header h;
	unsigned int best_n = 0;
	size_t i, j;

	for (i = 0; i < len; i += ss) {
		unsigned int cnt = 0;

		if (pattern_header_decode(p + i, ss, &h) ||
		    (own && h.offset != i))
			continue;
		for (j = 0; j < len; j += ss) {
			struct pattern_header o;

			if (!pattern_header_decode(p + j, ss, &o) &&
			    (!own || o.offset == j) && o.run_id == h.run_id &&
			    o.generation == h.generation)
				cnt++;
		}
		if (cnt > best_n || (cnt == best_n && best_n &&
				     h.run_id == best->run_id &&
				     h.generation > best->generation)) {
			*best = h;
			best_n = cnt;
		}
	}
	return best_n;
}

/**
 * stress_find_run() - the run and generation the first sectors hold
 * @buf: data read from offset 0
 * @len: its length, a multiple of 512
 * @lbs: the logical block size (sectors are tried at it and at every
 *       power of two from 512 to 64 KiB)
 * @out: the header of the run most sectors belong to (the newest
 *       generation on a tie), its offset set to 0
 *
 * Sectors at their own offset first; when none is, sectors of a run at
 * other offsets: the start of a device whose writes wrapped around holds
 * what was written further on, and --verify-only is to say so.  Pure.
 *
 * Return: 0, or -ENOENT when no sector decodes.
 */
int stress_find_run(const void *buf, size_t len, uint32_t lbs,
		    struct pattern_header *out)
{
	struct pattern_header best = { 0 };
	unsigned int pass;
	uint32_t ss;

	for (pass = 0; pass < 2; pass++) {
		for (ss = PATTERN_MIN_SECTOR; ss <= PATTERN_MAX_SECTOR;
		     ss <<= 1) {
			if (ss < lbs || ss > len)
				continue;
			if (stress_find_run_ss(buf, len, ss, !pass, &best)) {
				best.offset = 0;
				*out = best;
				return 0;
			}
		}
	}
	return -ENOENT;
}

/* ----- the loop ----- */

static void stress_error_add(struct stress_ctx *c, const char *phase,
			     const struct ioengine_req *r, int err)
{
	struct stress_result *res = c->res;
	struct stress_error *e;
	double t = stress_now() - c->t0;

	res->errors_total++;
	stress_marker(c, phase, "error", "op=%s offset=%" PRIu64
		      " len=%" PRIu32 " errno=%d", r->write ? "write" : "read",
		      r->offset, r->len, err);
	stress_msg(c, "%s error at offset %" PRIu64 " (%" PRIu32
		   " bytes), %.3f s: %s (errno %d)",
		   r->write ? "write" : "read", r->offset, r->len, t,
		   strerror(err), err);
	if (res->nerrors == STRESS_MAX_ERRORS)
		return;
	e = &res->errors[res->nerrors++];
	e->t = t;
	e->err = err;
	e->offset = r->offset;
	e->len = r->len;
	e->write = r->write;
	snprintf(e->phase, sizeof(e->phase), "%s", phase);
}

static int stress_bad_add(struct stress_ctx *c, uint64_t off, uint32_t len)
{
	if (c->nbad == c->capbad) {
		size_t cap = c->capbad ? c->capbad * 2 : 64;
		struct stress_failed *nb = realloc(c->bad, cap * sizeof(*nb));

		if (!nb)
			return -ENOMEM;
		c->bad = nb;
		c->capbad = cap;
	}
	c->bad[c->nbad].offset = off;
	c->bad[c->nbad].len = len;
	c->bad[c->nbad++].write = true;
	return 0;
}

static bool stress_bad_covers(const struct stress_ctx *c, uint64_t off)
{
	size_t i;

	for (i = 0; i < c->nbad; i++)
		if (off >= c->bad[i].offset &&
		    off < c->bad[i].offset + c->bad[i].len)
			return true;
	return false;
}

static bool stress_bad_overlaps(const struct stress_ctx *c, uint64_t off,
				uint32_t len)
{
	size_t i;

	for (i = 0; i < c->nbad; i++)
		if (off < c->bad[i].offset + c->bad[i].len &&
		    c->bad[i].offset < off + len)
			return true;
	return false;
}

/* Whether failed writes cover all of [@off, @off + @len). */
static bool stress_bad_covers_all(const struct stress_ctx *c, uint64_t off,
				  uint32_t len)
{
	uint64_t end = off + len;
	bool moved = true;

	/* The failed writes were whole blocks; a few passes suffice. */
	while (off < end && moved) {
		size_t i;

		moved = false;
		for (i = 0; i < c->nbad; i++) {
			if (off >= c->bad[i].offset &&
			    off < c->bad[i].offset + c->bad[i].len) {
				off = c->bad[i].offset + c->bad[i].len;
				moved = true;
			}
		}
	}
	return off >= end;
}

static void stress_verify(struct stress_ctx *c, struct verify_report *rep,
			  const struct ioengine_req *r)
{
	uint32_t ss = c->run->sector_size;
	const unsigned char *p = r->buf;
	struct verify_sector vs;
	uint32_t i;

	if (!stress_bad_overlaps(c, r->offset, r->len)) {
		verify_buffer(c->run, c->scratch, r->buf, r->len, r->offset,
			      rep);
		return;
	}
	for (i = 0; i < r->len; i += ss) {
		if (stress_bad_covers(c, r->offset + i)) {
			c->res->not_written += ss;
			continue;
		}
		verify_sector_classify(c->run, c->scratch, p + i,
				       r->offset + i, &vs);
		rep->sectors[vs.cls]++;
		verify_report_add(rep, r->offset + i, ss, &vs);
	}
}

static void stress_unreadable(struct stress_ctx *c, struct verify_report *rep,
			      const struct ioengine_req *r)
{
	struct verify_sector vs = { .cls = VERIFY_UNREADABLE };

	rep->sectors[VERIFY_UNREADABLE] += r->len / c->run->sector_size;
	verify_report_add(rep, r->offset, r->len, &vs);
}

/**
 * stress_intervals_merge() - halve the intervals kept, merging neighbours
 * @iv: intervals, in order
 * @n:  their number
 *
 * Each pair of neighbours of one phase and cycle becomes one interval:
 * bytes, requests and seconds summed, a dip if either was.  Pure.
 *
 * Return: the number left, about @n / 2 (one more per phase at most).
 */
size_t stress_intervals_merge(struct stress_interval *iv, size_t n)
{
	size_t i = 0, o = 0;

	while (i < n) {
		struct stress_interval m = iv[i++];

		if (i < n && iv[i].phase == m.phase &&
		    iv[i].cycle == m.cycle) {
			m.secs += iv[i].secs;
			m.bytes += iv[i].bytes;
			m.ios += iv[i].ios;
			m.dip = m.dip || iv[i].dip;
			i++;
		}
		iv[o++] = m;
	}
	return o;
}

/*
 * An interval as it ends, to cfg->interval (the --log): a dip when below
 * STRESS_DIP_FRACTION of the pace of its phase so far, as
 * stress_flag_dips() judges the whole phase at its end.
 */
static void stress_interval_emit(struct stress_ctx *c,
				 const struct stress_interval *iv)
{
	struct stress_interval line = *iv;
	double rate = (double)iv->bytes / iv->secs;

	if (iv->secs >= stress_interval_secs(c->cfg) * 0.99) {
		hist_add(c->rates, (uint64_t)rate);
		line.dip = c->rates->count >= 3 &&
			   rate < (double)hist_percentile(c->rates, 90) *
			   STRESS_DIP_FRACTION;
	}
	if (c->cfg->interval)
		c->cfg->interval(c->cfg->ctx, c->res, &line);
}

/*
 * Keep an interval of phase @phase (res->phases) of @cycle, and emit it.
 * At STRESS_MAX_INTERVALS, those kept merge in pairs first: memory stays
 * bounded whatever the run's length.
 */
static int stress_interval_push(struct stress_ctx *c, unsigned int phase,
				unsigned int cycle, double t, double secs,
				uint64_t bytes, uint64_t ios)
{
	struct stress_result *res = c->res;
	struct stress_interval *iv;

	if (secs <= 0)
		return 0;
	if (res->nintervals == STRESS_MAX_INTERVALS)
		res->nintervals = stress_intervals_merge(res->intervals,
							 res->nintervals);
	if (res->nintervals == c->capintervals) {
		size_t cap = c->capintervals ? c->capintervals * 2 : 256;

		if (cap > STRESS_MAX_INTERVALS)
			cap = STRESS_MAX_INTERVALS;
		iv = realloc(res->intervals, cap * sizeof(*iv));
		if (!iv)
			return -ENOMEM;
		res->intervals = iv;
		c->capintervals = cap;
	}
	iv = &res->intervals[res->nintervals++];
	iv->phase = phase;
	iv->cycle = cycle;
	iv->t = t - c->t0;
	iv->secs = secs;
	iv->bytes = bytes;
	iv->ios = ios;
	iv->dip = false;
	stress_interval_emit(c, iv);
	return 0;
}

/* The dips of phase @index, once it is over: its intervals are kept. */
static void stress_phase_dips(struct stress_ctx *c, unsigned int index)
{
	struct stress_result *res = c->res;
	bool *dip = calloc(res->nintervals ? res->nintervals : 1, 1);
	size_t k;

	if (!dip)
		return;
	stress_flag_dips(res->intervals, res->nintervals, index,
			 stress_interval_secs(c->cfg), dip,
			 &res->phases[index].dips);
	for (k = 0; k < res->nintervals; k++)
		if (dip[k])
			res->intervals[k].dip = true;
	free(dip);
}

static int stress_reopen(struct stress_ctx *c, const char *phase,
			 uint64_t written_below);

/* The state of one phase's loop. */
struct stress_loop {
	const struct stress_phase *ph;
	unsigned int index;		/* into res->phases, or -1u */
	struct verify_report *rep;
	uint64_t next;			/* seq: next offset to issue */
	uint64_t issued;		/* bytes */
	uint64_t done_bytes, done_ios;
	uint64_t lowest_failed;		/* writes: lowest failed offset */
	uint64_t mixed_next;		/* mixed: offset of the next burst */
	unsigned int burst_left;
	bool fsync_pending;		/* mixed: drain, then fsync */
	struct stress_failed *retry;	/* to re-issue after a reopen */
	size_t nretry, capretry;
	bool stop_issuing;
	bool failed;			/* stop: ended by an error */
	bool interrupted;		/* ended by a signal */
	bool wrapped;			/* a wrap phase went on from 0 */
	bool want_reopen;
	unsigned int inflight;
	unsigned int errors;
};

static int stress_retry_add(struct stress_loop *l,
			    const struct ioengine_req *r)
{
	if (l->nretry == l->capretry) {
		size_t cap = l->capretry ? l->capretry * 2 : 64;
		struct stress_failed *nr = realloc(l->retry,
						   cap * sizeof(*nr));

		if (!nr)
			return -ENOMEM;
		l->retry = nr;
		l->capretry = cap;
	}
	l->retry[l->nretry].offset = r->offset;
	l->retry[l->nretry].len = r->len;
	l->retry[l->nretry++].write = r->write;
	return 0;
}

/* What to do next: offset and length, or false when the phase is done. */
static bool stress_next(struct stress_ctx *c, struct stress_loop *l,
			double start, uint64_t *off, uint32_t *len,
			bool *write)
{
	const struct stress_phase *ph = l->ph;
	uint64_t limit = ph->limit_bytes ? ph->limit_bytes : ph->region;
	unsigned int wraps;

	*write = ph->write;
	if (stress_interrupted(c)) {
		l->interrupted = true;
		return false;
	}
	if (l->stop_issuing || l->fsync_pending)
		return false;
	/* After a reopen: what failed before it, first. */
	if (l->nretry) {
		l->nretry--;
		*off = l->retry[l->nretry].offset;
		*len = l->retry[l->nretry].len;
		*write = l->retry[l->nretry].write;
		return true;
	}
	if (ph->limit_secs > 0 && stress_now() - start >= ph->limit_secs)
		return false;
	if (ph->mixed && l->burst_left) {
		/* Random 4K rewrites of what is already written. */
		uint64_t n = l->next / 4096;

		if (!--l->burst_left)
			l->fsync_pending = true;
		if (!n)
			return stress_next(c, l, start, off, len, write);
		*off = (stress_rand(c) % n) * 4096;
		*len = 4096;
		return true;
	}
	if (ph->random) {
		if (ph->limit_secs <= 0 && l->issued >= limit)
			return false;
		*off = (stress_rand(c) % (ph->region / ph->block)) * ph->block;
		*len = ph->block;
		l->issued += *len;
		return true;
	}
	for (wraps = 0;;) {
		if (l->next >= ph->region && ph->wrap && ph->limit_secs > 0) {
			if (wraps++)	/* all of it skipped: nothing to do */
				return false;
			l->next = 0;
			l->wrapped = true;
		}
		if (l->next >= ph->region ||
		    (!l->wrapped && l->issued >= limit))
			return false;
		*off = l->next;
		*len = (uint32_t)(ph->region - l->next < ph->block ?
				  ph->region - l->next : ph->block);
		l->next += *len;
		l->issued += *len;
		/* Nothing to learn from reading back a failed write. */
		if (ph->write || !stress_bad_covers_all(c, *off, *len))
			break;
		if (!l->wrapped)
			c->res->not_written += *len;
	}
	if (ph->mixed && l->next >= l->mixed_next) {
		l->mixed_next += STRESS_MIXED_EVERY;
		l->burst_left = STRESS_MIXED_BURST;
	}
	return true;
}

static void stress_progress(struct stress_ctx *c, struct stress_loop *l,
			    double start, bool final)
{
	struct stress_progress p;
	double now = stress_now();

	if (!c->cfg->progress)
		return;
	p.phase = l->ph->name;
	p.done = l->done_bytes;
	p.total = l->ph->limit_secs > 0 ? 0 : l->ph->region;
	p.elapsed = now - start;
	p.rate = p.elapsed > 0 ? (double)l->done_bytes / p.elapsed : 0;
	p.eta = -1;
	if (p.total && p.rate > 0)
		p.eta = (double)(p.total - (p.done < p.total ? p.done :
					    p.total)) / p.rate;
	else if (l->ph->limit_secs > 0)
		p.eta = l->ph->limit_secs - p.elapsed;
	p.final = final;
	p.interrupted = l->interrupted;
	p.cycle = l->ph->cycle;
	c->cfg->progress(c->cfg->ctx, &p);
}

/* Handle one finished request.  Return: 0, or -ENOMEM. */
static int stress_complete(struct stress_ctx *c, struct stress_loop *l,
			   struct ioengine_req *r)
{
	int err = r->res < 0 ? -r->res : 0;

	c->free_slots[c->nfree++] = r->slot;
	l->inflight--;
	if (!err && (uint32_t)r->res != r->len)
		err = EIO;
	if (!err) {
		l->done_bytes += r->len;
		l->done_ios++;
		if (!c->in_reverify)
			hist_add(c->lat, r->done_ns - r->submit_ns);
		if (!r->write && l->ph->verify)
			stress_verify(c, l->rep, r);
		return 0;
	}

	l->errors++;
	stress_error_add(c, l->ph->name, r, err);
	if (r->write && r->offset < l->lowest_failed)
		l->lowest_failed = r->offset;
	if (c->in_reverify) {
		if (!r->write)
			stress_unreadable(c, l->rep, r);
		l->stop_issuing = true;
		l->failed = true;
		return 0;
	}
	switch (c->cfg->on_error) {
	case STRESS_ON_ERROR_STOP:
		if (!r->write)
			stress_unreadable(c, l->rep, r);
		l->stop_issuing = true;
		l->failed = true;
		return 0;
	case STRESS_ON_ERROR_CONTINUE:
		if (r->write)
			return l->ph->random ? 0 :
				stress_bad_add(c, r->offset, r->len);
		stress_unreadable(c, l->rep, r);
		return 0;
	case STRESS_ON_ERROR_REOPEN:
		l->stop_issuing = true;
		l->want_reopen = true;
		return stress_retry_add(l, r);
	}
	return 0;
}

/* The end of a mixed burst: everything so far, once nothing is in flight. */
static void stress_burst_fsync(struct stress_ctx *c, struct stress_loop *l)
{
	int err;

	if (!l->fsync_pending || l->inflight)
		return;
	l->fsync_pending = false;
	err = ioengine_fsync(c->io);
	if (err)
		stress_msg(c, "fsync: %s", strerror(-err));
}

/* Queue requests until @qd are in flight or stress_next() has none. */
static int stress_issue(struct stress_ctx *c, struct stress_loop *l,
			unsigned int qd, double start)
{
	uint64_t off;
	uint32_t len;
	bool wr;
	int err;

	while (l->inflight < qd &&
	       stress_next(c, l, start, &off, &len, &wr)) {
		unsigned int s = c->free_slots[--c->nfree];
		struct ioengine_req *r = &c->reqs[s];

		r->buf = c->bufs + (size_t)s * c->slot_len;
		r->offset = off;
		r->len = len;
		r->write = wr;
		r->slot = s;
		if (wr)
			pattern_fill(c->run, r->buf, len, off);
		err = ioengine_queue(c->io, r);
		if (err) {
			c->free_slots[c->nfree++] = s;
			return err;
		}
		l->inflight++;
	}
	return 0;
}

/*
 * Nothing in flight: the phase is over, unless an error asked for a
 * reopen, after which it goes on.
 *
 * Return: 1 to go on, 0 when the phase is over (also when the target did
 * not come back: l->failed), or a negative errno.
 */
static int stress_idle(struct stress_ctx *c, struct stress_loop *l)
{
	const struct stress_phase *ph = l->ph;
	int err;

	if (!l->want_reopen)
		return 0;
	l->want_reopen = false;
	if (stress_interrupted(c)) {
		/* no reopen after a signal: the error stands */
		l->failed = true;
		return 0;
	}
	err = stress_reopen(c, ph->name, ph->write && !ph->random ?
			    l->lowest_failed : 0);
	if (err == -ENODEV) {
		l->failed = true;
		return 0;
	}
	if (err)
		return err;
	l->stop_issuing = false;
	l->lowest_failed = UINT64_MAX;
	return 1;
}

/*
 * Wait for completions and handle them; the bytes and requests that
 * succeeded are added to *@bytes and *@ios (the current interval).
 */
static int stress_reap(struct stress_ctx *c, struct stress_loop *l,
		       uint64_t *bytes, uint64_t *ios)
{
	struct ioengine_req *done[STRESS_MAP_REAP];
	int n, i, err;

	n = ioengine_reap(c->io, done, STRESS_MAP_REAP, true);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		uint64_t before = l->done_bytes;

		err = stress_complete(c, l, done[i]);
		if (err)
			return err;
		if (l->done_bytes != before) {
			*bytes += done[i]->len;
			(*ios)++;
		}
	}
	return 0;
}

static void stress_phase_result_set(struct stress_phase_result *pr,
				    const struct stress_loop *l,
				    const struct hist *lat, double secs)
{
	const struct stress_phase *ph = l->ph;

	memset(pr, 0, sizeof(*pr));
	pr->ph = *ph;
	pr->bytes = l->done_bytes;
	pr->ios = l->done_ios;
	pr->seq_end = ph->random ? 0 : l->next;
	pr->secs = secs;
	pr->mbps = pr->secs > 0 ? (double)pr->bytes / pr->secs / 1e6 : 0;
	pr->iops = pr->secs > 0 ? (double)pr->ios / pr->secs : 0;
	pr->errors = l->errors;
	pr->completed = !l->failed && !l->interrupted;
	pr->interrupted = l->interrupted;
	pr->lat_min = lat->min;
	pr->lat_mean = hist_mean(lat);
	pr->lat_p50 = hist_percentile(lat, 50);
	pr->lat_p99 = hist_percentile(lat, 99);
	pr->lat_p999 = hist_percentile(lat, 99.9);
	pr->lat_max = lat->max;
}

/**
 * stress_phase_run() - one phase, to its end or an error it cannot pass
 * @c:     the run
 * @ph:    what to do
 * @index: its slot in res->phases (results, intervals), or -1u for a
 *         reverify after a reopen, which keeps no results
 * @rep:   where read-backs go
 *
 * Return: 0 (also when errors ended it: see res->stopped), or a negative
 * errno when the run cannot go on (out of memory, io_uring broken).
 */
static int stress_phase_run(struct stress_ctx *c,
			    const struct stress_phase *ph, unsigned int index,
			    struct verify_report *rep)
{
	struct stress_phase_result *pr = index != -1u ?
					 &c->res->phases[index] : NULL;
	double start, istart, last_progress = 0, now;
	uint64_t ibytes = 0, iios = 0;
	double interval = stress_interval_secs(c->cfg);
	char why[48] = "", sig[24], pass[16] = "", lat[128] = "";
	struct stress_loop l = {
		.ph = ph, .index = index, .rep = rep,
		.lowest_failed = UINT64_MAX,
		.mixed_next = STRESS_MIXED_EVERY,
	};
	unsigned int qd = ph->qd < c->nslots ? ph->qd : c->nslots;
	int err = 0;

	if (ph->label[0])
		snprintf(pass, sizeof(pass), " pass=%u", ph->pass);
	stress_marker(c, ph->name, "start", "block=%" PRIu32 " qd=%u "
		      "size=%" PRIu64 " op=%s%s%s", ph->block, qd, ph->region,
		      ph->write ? "write" : "read", ph->random ? " random=1" : "",
		      pass);
	if (pr) {
		/* the --log names it while it runs */
		memset(pr, 0, sizeof(*pr));
		pr->ph = *ph;
		/* not for a reverify: it runs inside a phase */
		hist_init(c->rates);
		hist_init(c->lat);
	}
	start = istart = stress_now();
	for (;;) {
		stress_burst_fsync(c, &l);
		err = stress_issue(c, &l, qd, start);
		if (err)
			goto out;
		if (!l.inflight) {
			err = stress_idle(c, &l);
			if (err < 0)
				goto out;
			if (!err)
				break;
			err = 0;
			continue;
		}
		err = stress_reap(c, &l, &ibytes, &iios);
		if (err)
			goto out;
		now = stress_now();
		if (now - istart >= interval) {
			if (pr && stress_interval_push(c, index, ph->cycle,
						       istart, now - istart,
						       ibytes, iios)) {
				err = -ENOMEM;
				goto out;
			}
			istart = now;
			ibytes = iios = 0;
		}
		if (now - last_progress >= STRESS_PROGRESS_SECS) {
			stress_progress(c, &l, start, false);
			last_progress = now;
		}
		if (l.failed && !l.inflight)
			break;
	}
	now = stress_now();
	if (pr && ibytes)
		stress_interval_push(c, index, ph->cycle, istart, now - istart,
				     ibytes, iios);
	stress_progress(c, &l, start, true);
	if (pr) {
		stress_phase_result_set(pr, &l, c->lat, now - start);
		stress_phase_dips(c, index);
		if (ph->write)
			c->res->written_bytes += l.done_bytes;
		else
			c->res->read_bytes += l.done_bytes;
	}
	if (ph->write && !ph->random && l.next > c->written_end)
		c->written_end = l.next;
	if (l.failed)
		c->res->stopped = true;
	if (l.interrupted && !c->res->interrupted)
		c->res->interrupted = atomic_load(c->cfg->interrupt);
	if (l.failed || l.interrupted)
		snprintf(why, sizeof(why), " stopped=1");
	if (l.interrupted) {
		stress_signal_name(c->res->interrupted, sig, sizeof(sig));
		snprintf(why + strlen(why), sizeof(why) - strlen(why),
			 " interrupted=%s", sig);
	}
	/* the completion latency the table prints, for the report's */
	if (c->lat->count)
		snprintf(lat, sizeof(lat), "lat_p50_us=%.1f lat_p99_us=%.1f "
			 "lat_p999_us=%.1f lat_max_us=%.1f ",
			 (double)hist_percentile(c->lat, 50) / 1e3,
			 (double)hist_percentile(c->lat, 99) / 1e3,
			 (double)hist_percentile(c->lat, 99.9) / 1e3,
			 (double)c->lat->max / 1e3);
	/* mbps: the figure the tables print, exact, for the report's */
	stress_marker(c, ph->name, "end", "%sbytes=%" PRIu64 " secs=%.3f "
		      "errors=%u mbps=%.17g%s", lat, l.done_bytes, now - start,
		      l.errors, now > start ? (double)l.done_bytes /
		      (now - start) / 1e6 : 0.0, why);
out:
	free(l.retry);
	return err;
}

static void stress_sleep(double secs)
{
	struct timespec ts = {
		.tv_sec = (time_t)secs,
		.tv_nsec = (long)((secs - (double)(time_t)secs) * 1e9),
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * Poll until the target @id names is back (or proved it never left) and
 * open it again with @bo into c->t; @path is where it was and becomes
 * where it is.
 *
 * Return: 0, or -ENODEV at @deadline.
 */
static int stress_reopen_wait(struct stress_ctx *c, const char *phase,
			      const struct blkdev_identity *id, bool was_block,
			      const struct blkdev_open_opts *bo, char *path,
			      size_t pathlen, double start, double deadline)
{
	char name[BLKDEV_NAME_MAX], why[BLKDEV_WHY_MAX];
	bool saw_gone = false;
	struct stat st;
	int err;

	for (;;) {
		double now = stress_now();

		if (stress_interrupted(c)) {
			stress_msg(c, "interrupted while waiting for %s", path);
			return -ENODEV;
		}
		if (now >= deadline) {
			stress_msg(c, "gave up: %s did not come back", path);
			stress_marker(c, phase, "gone", NULL);
			return -ENODEV;
		}
		if (was_block && id->serial[0]) {
			struct blkdev_identity cur;
			bool same;

			err = blkdev_find_identity(id, name, sizeof(name),
						   &cur);
			same = !err && !strcmp(cur.syspath, id->syspath) &&
			       cur.diskseq == id->diskseq &&
			       cur.devnum == id->devnum;
			/*
			 * The instance that failed is accepted only if it
			 * never went away for STRESS_REOPEN_SETTLE: a disk
			 * being torn down after a disconnect still shows
			 * in sysfs for a while, and writes to it fail.
			 * After an unplug the disk that comes back is a
			 * new instance: a new diskseq and USB device
			 * number, though back in the same port it has
			 * the same sysfs path (and often the same name).
			 */
			if (err || (same && saw_gone)) {
				saw_gone = true;
				stress_sleep(0.2);
				continue;
			}
			if (same && now - start < STRESS_REOPEN_SETTLE) {
				stress_sleep(0.2);
				continue;
			}
			snprintf(path, pathlen, "/dev/%s", name);
			if (stat(path, &st)) {
				stress_sleep(0.2);
				continue;
			}
		} else if (now - start < 1.0) {
			stress_sleep(0.2);
			continue;
		}
		err = blkdev_open(path, bo, c->t, why, sizeof(why));
		if (!err)
			return 0;
		stress_sleep(0.5);
	}
}

/*
 * Read back [0, @written_below) after a reopen, into res->reopen_report.
 *
 * Return: 0, -ENODEV when errors stopped it, or another negative errno
 * when the run cannot go on.
 */
static int stress_reverify(struct stress_ctx *c, uint64_t written_below)
{
	struct stress_phase rv;
	int err;

	stress_phase_set(&rv, "reverify", "", false, false, c->slot_len,
			 c->nslots, written_below, 0);
	rv.block = c->slot_len;
	rv.region = written_below - written_below % c->run->sector_size;
	c->in_reverify = true;
	err = stress_phase_run(c, &rv, -1u, c->res->reopen_report);
	c->in_reverify = false;
	if (err)
		return err;
	stress_msg(c, "verified %" PRIu64 " bytes written before the "
		   "failure: %" PRIu64 " bad sectors", rv.region,
		   verify_report_bad(c->res->reopen_report));
	if (c->res->stopped)
		return -ENODEV;
	return 0;
}

/*
 * After an error with --on-error reopen, nothing in flight: wait for the
 * disk to come back (or to prove it never left), open it again with the
 * same checks, and verify [0, @written_below) - what the phase had written
 * before the failure.
 *
 * Return: 0, -ENODEV when it did not come back in time, or another
 * negative errno when the run cannot go on.
 */
static int stress_reopen(struct stress_ctx *c, const char *phase,
			 uint64_t written_below)
{
	struct blkdev_open_opts bo = *c->bo;
	struct blkdev_identity id = c->t->id;
	char path[4096];
	double start = stress_now(), deadline;
	bool was_block = c->t->is_blockdev;
	int err;

	deadline = start + (c->cfg->reopen_timeout > 0 ?
			    c->cfg->reopen_timeout : 120);
	snprintf(path, sizeof(path), "%s", c->t->path);
	if (c->res->reopens >= STRESS_MAX_REOPENS) {
		stress_msg(c, "%u reopens already: giving up",
			   c->res->reopens);
		return -ENODEV;
	}
	stress_marker(c, phase, "wait", "serial=%s",
		      id.serial[0] ? id.serial : "-");
	if (was_block && id.serial[0])
		stress_msg(c, "waiting up to %.0f s for the disk with USB "
			   "serial %s (%s) to come back",
			   deadline - start, id.serial, id.usb_id);
	else
		stress_msg(c, "waiting up to %.0f s to reopen %s",
			   deadline - start, path);
	blkdev_close(c->t);
	bo.size = c->res->size;

	err = stress_reopen_wait(c, phase, &id, was_block, &bo, path,
				 sizeof(path), start, deadline);
	if (err)
		return err;
	c->res->reopens++;
	ioengine_set_fd(c->io, c->t->fd);
	stress_msg(c, "reopened %s after %.1f s", path, stress_now() - start);
	stress_marker(c, phase, "reopened", "path=%s", path);

	if (written_below && written_below != UINT64_MAX)
		return stress_reverify(c, written_below);
	return 0;
}

/* Read the first bytes of the target to find an earlier run. */
static int stress_probe(struct stress_ctx *c, struct pattern_header *h)
{
	size_t len = c->t->size < STRESS_FIND_MAX ? c->t->size :
		     STRESS_FIND_MAX;
	ssize_t n;

	len -= len % 512;
	if (len > (size_t)c->slot_len * c->nslots)
		len = (size_t)c->slot_len * c->nslots;
	n = pread(c->t->fd, c->bufs, len, 0);
	if (n < 0 && errno == EINVAL && c->t->direct) {
		if (blkdev_drop_direct(c->t))
			return -EINVAL;
		n = pread(c->t->fd, c->bufs, len, 0);
	}
	if (n < 0)
		return -errno;
	return stress_find_run(c->bufs, (size_t)n - (size_t)n % 512,
			       c->t->lbs, h);
}

/* The I/O slots: as many as the deepest queue, each the largest block. */
static int stress_slots_alloc(struct stress_ctx *c,
			      const struct stress_phase *plan, size_t np)
{
	uint32_t max_block = 0;
	unsigned int max_qd = 0, i;

	for (i = 0; i < np; i++) {
		if (plan[i].block > max_block)
			max_block = plan[i].block;
		if (plan[i].qd > max_qd)
			max_qd = plan[i].qd;
	}
	c->nslots = max_qd;
	c->slot_len = max_block;
	c->bufs = stress_bufs_alloc((size_t)c->nslots * c->slot_len);
	if (!c->bufs) {
		char sz[16], bsz[16];

		util_format_size(sz, sizeof(sz),
				 (uint64_t)c->nslots * c->slot_len);
		util_format_size(bsz, sizeof(bsz), c->slot_len);
		stress_msg(c, "cannot allocate %s of I/O buffers (%u of the "
			   "largest block, %s); a smaller --qd or --block "
			   "needs less", sz, c->nslots, bsz);
		return -ENOMEM;
	}
	c->reqs = calloc(c->nslots, sizeof(*c->reqs));
	c->free_slots = calloc(c->nslots, sizeof(*c->free_slots));
	if (!c->reqs || !c->free_slots)
		return -ENOMEM;
	for (i = 0; i < c->nslots; i++)
		c->free_slots[c->nfree++] = i;
	return 0;
}

/*
 * --verify-only: check the run stress_probe() found in @h.  The plan's
 * region is --size or the target, so it is made again for the run's size.
 */
static int stress_run_found(struct stress_ctx *c,
			    const struct pattern_header *h,
			    struct stress_phase *plan, size_t *np)
{
	struct stress_result *res = c->res;
	struct stress_config vc = *c->cfg;
	int n;

	res->run_id = h->run_id;
	res->generation = h->generation;
	res->start_time = h->start_time;
	if (!c->cfg->size && h->run_size < c->t->size)
		res->size = h->run_size;
	res->continued = true;
	vc.size = res->size;
	n = stress_plan(&vc, c->t->size, c->t->lbs, plan, STRESS_MAX_PHASES);
	if (n <= 0)
		return n ? n : -EINVAL;
	*np = (size_t)n;
	return pattern_run_init(c->run, h->run_id, h->generation,
				h->sector_size, h->run_size, h->start_time);
}

/*
 * The run id and generation: an earlier run on the target is checked by
 * --verify-only; a new write keeps its run id with the next generation,
 * so data an earlier write left behind is reported as exactly that.
 *
 * Return: 0, -ENOENT when --verify-only finds no earlier run, or another
 * negative errno.
 */
static int stress_run_identity(struct stress_ctx *c,
			       struct stress_phase *plan, size_t *np)
{
	struct stress_result *res = c->res;
	struct pattern_header h;
	uint32_t ss = c->t->lbs;
	int err;

	err = stress_probe(c, &h);
	if (err && err != -ENOENT)
		return err;
	res->direct = c->t->direct;
	res->size = c->t->size;
	if (c->cfg->verify_only) {
		if (err)
			return -ENOENT;
		ss = h.sector_size;
		err = stress_run_found(c, &h, plan, np);
	} else {
		if (!err && h.sector_size == ss) {
			res->run_id = h.run_id;
			res->generation = h.generation + 1;
			res->continued = true;
		} else {
			res->run_id = stress_rand(c);
			res->generation = 1;
		}
		res->start_time = (uint64_t)time(NULL);
		err = pattern_run_init(c->run, res->run_id, res->generation, ss,
				       res->size, res->start_time);
	}
	if (err)
		return err;
	res->sector_size = ss;
	return 0;
}

/* The kernel's trace_marker (or $USBTRAIL_TRACE_MARKER's), if writable. */
static void stress_marker_open(struct stress_ctx *c)
{
	const char *const *m;

	for (m = c->cfg->trace_marker ? (const char *const[]){
			c->cfg->trace_marker, NULL } : stress_trace_markers;
	     *m && c->marker_fd < 0; m++)
		c->marker_fd = open(*m, O_WRONLY | O_CLOEXEC);
}

/*
 * A sequential read after a timed sequential write checks what the write
 * reached, not what an earlier one left: plan[@i]'s region shrinks to it.
 * Return: false when that leaves nothing to read.
 */
static bool stress_read_reach(const struct stress_result *res,
			      struct stress_phase *plan, size_t i)
{
	struct stress_phase *ph = &plan[i];
	uint64_t w;

	if (!i || ph->write || ph->random || !plan[i - 1].write ||
	    plan[i - 1].random || !(plan[i - 1].limit_secs > 0) ||
	    !res->nphases)
		return true;
	w = res->phases[res->nphases - 1].seq_end;
	if (w < ph->region)
		ph->region = w - w % ph->block;
	return ph->region != 0;
}

/* A filesystem that took O_DIRECT at open but not in I/O. */
static bool stress_direct_refused(const struct stress_result *res,
				  const struct blkdev_target *t)
{
	return res->nphases == 1 && t->direct && res->nerrors &&
	       res->errors[0].err == EINVAL && !res->phases[0].bytes;
}

/* Forget the first phase's results: the run starts over. */
static void stress_result_restart(struct stress_result *res)
{
	res->direct = false;
	res->stopped = false;
	res->nerrors = 0;
	res->errors_total = 0;
	res->nphases = 0;
	res->nintervals = 0;
}

static double stress_min(double a, double b)
{
	return a < b ? a : b;
}

/**
 * stress_soak_add() - a whole soak cycle into the soak's summary
 * @s: the summary
 * @w: the cycle's write (ph.cycle its number, slow and dips set)
 * @r: its read
 *
 * Cycles come in order, 1 first.  When the table is full, neighbouring
 * rows merge in pairs and a row holds twice the cycles from then on, so
 * it has 16 to 32 rows of equal width (but the last) however long the
 * soak.  Pure.
 */
void stress_soak_add(struct stress_soak *s,
		     const struct stress_phase_result *w,
		     const struct stress_phase_result *r)
{
	struct stress_soak_cycle cy = {
		.cycle = w->ph.cycle, .write_mbps = w->mbps,
		.read_mbps = r->mbps,
	};
	struct stress_soak_row *row = s->nrows ? &s->rows[s->nrows - 1] : NULL;
	size_t i;

	if (!s->cycles++) {
		s->first = s->slowest = cy;
		s->per_row = 1;
	} else if (cy.write_mbps < s->slowest.write_mbps) {
		s->slowest = cy;
	}
	s->last = cy;
	s->slow_cycles += w->slow;
	if (!row || row->last - row->first + 1 >= s->per_row) {
		if (s->nrows == STRESS_SOAK_ROWS) {
			for (i = 0; i < STRESS_SOAK_ROWS / 2; i++) {
				const struct stress_soak_row *a =
					&s->rows[2 * i], *b = &s->rows[2 * i + 1];
				struct stress_soak_row m = *a;

				m.last = b->last;
				m.write_min = stress_min(a->write_min, b->write_min);
				m.read_min = stress_min(a->read_min, b->read_min);
				m.write_bytes += b->write_bytes;
				m.read_bytes += b->read_bytes;
				m.write_secs += b->write_secs;
				m.read_secs += b->read_secs;
				m.slow += b->slow;
				m.dips += b->dips;
				m.errors += b->errors;
				s->rows[i] = m;
			}
			s->nrows = STRESS_SOAK_ROWS / 2;
			s->per_row *= 2;
		}
		row = &s->rows[s->nrows++];
		memset(row, 0, sizeof(*row));
		row->first = cy.cycle;
		row->write_min = cy.write_mbps;
		row->read_min = cy.read_mbps;
	}
	row->last = cy.cycle;
	row->write_min = stress_min(row->write_min, cy.write_mbps);
	row->read_min = stress_min(row->read_min, cy.read_mbps);
	row->write_bytes += w->bytes;
	row->read_bytes += r->bytes;
	row->write_secs += w->secs;
	row->read_secs += r->secs;
	row->slow += w->slow;
	row->dips += w->dips + r->dips;
	row->errors += w->errors + r->errors;
}

/* Soak, after a cycle's write: below STRESS_SOAK_SLOW of the first? */
static void stress_soak_judge(struct stress_ctx *c,
			      struct stress_phase_result *w)
{
	if (w->ph.cycle == 1)
		c->first_rate = w->mbps;
	else if (c->first_rate > 0 &&
		 w->mbps < c->first_rate * STRESS_SOAK_SLOW)
		w->slow = c->res->soak_slow = true;
}

/*
 * Soak, after a cycle's read: into the summary, then, until --duration is
 * up, the next cycle (a new generation over the same area).  Cycle 1 keeps
 * phases 0 and 1; each later one takes 2 and 3 (and their intervals) from
 * the one before.
 *
 * Return: 1 for another cycle, 0 when the soak is over, or a negative
 * errno.
 */
static int stress_soak_next(struct stress_ctx *c, struct stress_phase *plan)
{
	struct stress_result *res = c->res;
	double dur = c->cfg->duration ? c->cfg->duration : 60;
	unsigned int cycle = plan[1].cycle + 1;
	int err;

	stress_soak_add(&res->soak, &res->phases[res->nphases - 2],
			&res->phases[res->nphases - 1]);
	if (stress_now() - c->t0 >= dur)
		return 0;
	plan[0].cycle = plan[1].cycle = cycle;
	if (res->nphases > 2) {
		res->nphases = 2;
		while (res->nintervals &&
		       res->intervals[res->nintervals - 1].phase >= 2)
			res->nintervals--;
	}
	res->generation++;
	c->written_end = 0;
	err = pattern_run_init(c->run, res->run_id, res->generation,
			       res->sector_size, res->size, res->start_time);
	return err ? err : 1;
}

/*
 * After a signal stopped write phase @ph: read back [0, written_end),
 * what this generation wrote, as one more phase.  The signal is ignored
 * meanwhile; a second one is the caller's (it ends the process).
 */
static int stress_interrupt_verify(struct stress_ctx *c,
				   const struct stress_phase *ph)
{
	struct stress_result *res = c->res;
	struct stress_phase v;
	char sz[16], sig[24];
	int err;

	if (!ph->write || res->stopped || !c->written_end ||
	    res->nphases == STRESS_MAX_PHASES)
		return 0;
	stress_phase_set(&v, "verify", "", false, false, c->slot_len,
			 c->nslots, c->written_end, 0);
	v.region = c->written_end - c->written_end % c->run->sector_size;
	if (!v.region)
		return 0;
	util_format_size(sz, sizeof(sz), v.region);
	stress_signal_name(res->interrupted, sig, sizeof(sig));
	stress_msg(c, "interrupted by %s: verifying the %s written (a second "
		   "signal ends at once)", sig, sz);
	c->ignore_interrupt = true;
	err = stress_phase_run(c, &v, (unsigned int)res->nphases,
			       res->report);
	c->ignore_interrupt = false;
	if (!err)
		res->nphases++;
	return err;
}

/*
 * The phases of @plan in order, until one stops the run; soak's two again
 * and again.
 */
static int stress_run_plan(struct stress_ctx *c, struct stress_phase *plan,
			   size_t np)
{
	bool soak = c->cfg->profile == STRESS_PROFILE_SOAK &&
		    !c->cfg->verify_only;
	struct stress_result *res = c->res;
	size_t i;
	int err;

	for (i = 0; i < np && !res->stopped; i++) {
		if (!stress_read_reach(res, plan, i))
			continue;
		err = stress_phase_run(c, &plan[i], (unsigned int)res->nphases,
				       res->report);
		if (err)
			return err;
		res->nphases++;

		if (stress_direct_refused(res, c->t)) {
			if (blkdev_drop_direct(c->t))
				break;
			stress_msg(c, "%s: O_DIRECT refused, using the page "
				   "cache", c->t->path);
			stress_result_restart(res);
			c->written_end = 0;
			i--;
			continue;
		}
		if (soak && plan[i].write)
			stress_soak_judge(c, &res->phases[res->nphases - 1]);
		if (res->interrupted)
			return stress_interrupt_verify(c, &plan[i]);

		if (soak && i == np - 1 && !res->stopped) {
			err = stress_soak_next(c, plan);
			if (err < 0)
				return err;
			if (!err)
				break;
			i = (size_t)-1;		/* the next cycle */
		}
	}
	return 0;
}

/**
 * stress_run() - run a profile on an open target
 * @t:   the target, from blkdev_open(); may be reopened
 * @bo:  the options it was opened with (for a reopen)
 * @cfg: what to run
 * @res: the results; free with stress_result_free() whatever this returns
 *
 * Return: 0 when the run happened (errors and bad sectors are in @res), or
 * a negative errno when it could not (-ENOENT: --verify-only found no
 * earlier run; -EINVAL: a profile that does not fit the target).
 */
int stress_run(struct blkdev_target *t, const struct blkdev_open_opts *bo,
	       const struct stress_config *cfg, struct stress_result *res)
{
	struct stress_phase plan[STRESS_MAX_PHASES];
	struct stress_ctx c = {
		.t = t, .bo = bo, .cfg = cfg, .res = res, .marker_fd = -1,
	};
	size_t np;
	int n, err;
	char sig[24], fake[64] = "";

	memset(res, 0, sizeof(*res));
	res->report = calloc(1, sizeof(*res->report));
	res->reopen_report = calloc(1, sizeof(*res->reopen_report));
	c.run = calloc(1, sizeof(*c.run));
	c.scratch = calloc(1, sizeof(*c.scratch));
	c.rates = calloc(1, sizeof(*c.rates));
	c.lat = calloc(1, sizeof(*c.lat));
	if (!res->report || !res->reopen_report || !c.run || !c.scratch ||
	    !c.rates || !c.lat) {
		err = -ENOMEM;
		goto out;
	}
	verify_report_init(res->report);
	verify_report_init(res->reopen_report);

	n = stress_plan(cfg, t->size, t->lbs, plan, STRESS_MAX_PHASES);
	if (n <= 0) {
		err = n ? n : -EINVAL;
		goto out;
	}
	np = (size_t)n;
	err = stress_slots_alloc(&c, plan, np);
	if (err)
		goto out;
	if (getrandom(&c.rng, sizeof(c.rng), 0) != sizeof(c.rng))
		c.rng = (uint64_t)time(NULL) ^ (uint64_t)getpid() << 32;

	err = stress_run_identity(&c, plan, &np);
	if (err)
		goto out;

	err = ioengine_create(cfg->engine, t->fd, c.nslots, &c.io);
	if (err) {
		stress_msg(&c, "%s: %s", ioengine_kind_name(cfg->engine),
			   strerror(-err));
		goto out;
	}
	/* not registered (a memlock limit): plain buffers, a little slower */
	ioengine_register(c.io, c.bufs, c.slot_len, c.nslots);
	res->engine = ioengine_kind_name(cfg->engine);

	stress_marker_open(&c);
	c.t0 = stress_now();
	stress_marker(&c, "run", "start", "size=%" PRIu64 " sector=%" PRIu32
		      "%s target=%s", res->size, res->sector_size,
		      cfg->marker_target ? cfg->marker_target : "", t->path);
	err = stress_run_plan(&c, plan, np);
	if (err)
		goto out;
	verify_report_finish(res->report);
	verify_report_finish(res->reopen_report);
	res->fake_capacity = verify_wrap(res->report, res->size, &res->wrap);
	res->secs = stress_now() - c.t0;
	if (res->interrupted)
		stress_signal_name(res->interrupted, sig, sizeof(sig));
	if (res->fake_capacity)
		snprintf(fake, sizeof(fake), " fake=1 usable=%" PRIu64
			 " wrap=%" PRIu64, res->wrap.usable,
			 res->wrap.modulus);
	stress_marker(&c, "run", "end", "errors=%" PRIu64 " bad=%" PRIu64
		      "%s%s%s", res->errors_total,
		      verify_report_bad(res->report),
		      res->interrupted ? " interrupted=" : "",
		      res->interrupted ? sig : "", fake);
	err = 0;
out:
	if (c.marker_fd >= 0)
		close(c.marker_fd);
	ioengine_free(c.io);
	free(c.bufs);
	free(c.reqs);
	free(c.free_slots);
	free(c.bad);
	free(c.run);
	free(c.scratch);
	free(c.rates);
	free(c.lat);
	return err;
}

void stress_result_free(struct stress_result *res)
{
	if (!res)
		return;
	free(res->intervals);
	free(res->report);
	free(res->reopen_report);
	res->intervals = NULL;
	res->report = NULL;
	res->reopen_report = NULL;
}
