/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stress.h - the workloads of "usbtrail stress": phases of reads and
 * writes in the self-describing pattern, timed, verified, and logged per
 * interval.
 */
#ifndef USBTRAIL_STRESS_H
#define USBTRAIL_STRESS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blkdev.h"
#include "hist.h"
#include "ioengine.h"
#include "verify.h"

enum stress_profile {
	STRESS_PROFILE_SEQ,
	STRESS_PROFILE_CDM,
	STRESS_PROFILE_SWEEP,
	STRESS_PROFILE_SOAK,
	STRESS_PROFILE_MIXED,
};

enum stress_on_error {
	STRESS_ON_ERROR_STOP,
	STRESS_ON_ERROR_CONTINUE,
	STRESS_ON_ERROR_REOPEN,
};

#define STRESS_MAX_PHASES	96	/* cdm: 1 + 8 tests x (1 + 9 passes) */
#define STRESS_CDM_PASSES	5	/* CrystalDiskMark's default count */
#define STRESS_CDM_MAX_PASSES	9	/* and its largest */
#define STRESS_MAX_ERRORS	1024
#define STRESS_MAX_INTERVALS	4096	/* kept; then neighbours merge */
#define STRESS_SOAK_ROWS	32	/* the soak's table; then rows merge */
#define STRESS_DIP_FRACTION	0.5	/* of the phase's pace (90th pct.) */
#define STRESS_SOAK_SLOW	0.7	/* of the first cycle's rate */

/* One timed stretch of I/O of one kind. */
struct stress_phase {
	char name[32];		/* "write", "read", "Seq Write"... */
	char label[32];		/* CrystalDiskMark row, or "" */
	bool write;
	bool random;
	bool mixed;		/* random 4K writes and fsyncs among seq */
	bool verify;		/* reads: check every sector */
	uint32_t block;
	unsigned int qd;
	uint64_t region;	/* bytes from offset 0 */
	uint64_t limit_bytes;	/* 0: the region once */
	double limit_secs;	/* 0: none */
	unsigned int cycle;	/* soak: 1, 2...; else 0 */
	unsigned int pass;	/* cdm: 1..passes, 0 the warm-up; else 0 */
	bool wrap;		/* timed sequential: on from 0 at the end */
	uint32_t generation;	/* the pattern generation it writes/reads */
};

struct stress_phase_result {
	struct stress_phase ph;
	uint64_t bytes;
	uint64_t ios;
	uint64_t seq_end;	/* sequential: how far it got */
	double secs;
	double mbps;		/* 10^6 bytes per second, as CDM */
	double iops;
	/* completion latency of the requests that succeeded, ns */
	uint64_t lat_min, lat_p50, lat_p99, lat_p999, lat_max;
	double lat_mean;
	unsigned int dips;
	unsigned int errors;
	bool completed;
	bool interrupted;	/* a signal stopped it */
	bool slow;		/* soak: below STRESS_SOAK_SLOW of cycle 1 */
};

struct stress_interval {
	unsigned int phase;	/* index into res->phases */
	unsigned int cycle;	/* soak: its cycle; else 0 */
	double t;		/* start, seconds since the run began */
	double secs;
	uint64_t bytes;
	uint64_t ios;
	bool dip;
};

struct stress_error {
	double t;		/* seconds since the run began */
	int err;		/* positive errno */
	uint64_t offset;
	uint32_t len;
	bool write;
	char phase[32];
};

/* A soak cycle: a write and the read that checks it. */
struct stress_soak_cycle {
	unsigned int cycle;
	double write_mbps, read_mbps;
};

/* Cycles first to last of a soak, condensed into one row of its table. */
struct stress_soak_row {
	unsigned int first, last;
	double write_min, read_min;	/* MB/s of the slowest cycle */
	uint64_t write_bytes, read_bytes;
	double write_secs, read_secs;	/* the mean: bytes / secs */
	unsigned int slow, dips, errors;
};

/*
 * What a soak of any length keeps of its cycles: a fixed size, however
 * many there were (the --log has every interval of every one).
 */
struct stress_soak {
	unsigned int cycles;		/* whole ones: a write and its read */
	struct stress_soak_cycle first, last;
	struct stress_soak_cycle slowest;	/* by its write rate */
	unsigned int slow_cycles;
	unsigned int per_row;		/* cycles a row holds: 1, 2, 4... */
	size_t nrows;
	struct stress_soak_row rows[STRESS_SOAK_ROWS];
};

struct stress_progress {
	const char *phase;
	uint64_t done;
	uint64_t total;		/* 0 when time-bound */
	double rate;		/* bytes/s over the phase so far */
	double elapsed;
	double eta;		/* seconds, < 0 unknown */
	bool final;
	bool interrupted;	/* a signal ended it (with final) */
	unsigned int cycle;	/* soak: its cycle; else 0 */
};

struct stress_result;

struct stress_config {
	enum stress_profile profile;
	uint64_t size;		/* 0: the profile's default */
	uint32_t block;		/* 0: the profile's default */
	unsigned int qd;	/* 0: the profile's default */
	double duration;	/* 0: the profile's default */
	unsigned int passes;	/* cdm: 0 is STRESS_CDM_PASSES */
	unsigned int cdm_set;	/* cdm: 8 (0) or 3, CrystalDiskMark's */
	enum stress_on_error on_error;
	enum ioengine_kind engine;
	unsigned int interval_ms;
	bool verify_only;
	double reopen_timeout;
	const char *trace_marker;	/* path; NULL: the kernel's */
	/* " disk=sdc usb=2-1" for the run's start marker, or NULL */
	const char *marker_target;
	/*
	 * A signal's number, set by the caller's handler: stop issuing,
	 * finish what is in flight, verify what was written.  NULL: none.
	 */
	const atomic_int *interrupt;
	void (*progress)(void *ctx, const struct stress_progress *p);
	void (*message)(void *ctx, const char *line);
	/*
	 * Each interval as it ends (the --log), its dip judged against the
	 * pace of its phase so far; res->phases[iv->phase] is its phase.
	 */
	void (*interval)(void *ctx, const struct stress_result *res,
			 const struct stress_interval *iv);
	void *ctx;
};

struct stress_result {
	uint64_t run_id;
	uint32_t generation;	/* last written (or found) */
	uint32_t sector_size;
	uint64_t size;
	uint64_t start_time;
	bool continued;		/* run id taken over from the target */
	bool direct;
	const char *engine;
	/* soak: cycle 1's write and read, then the last cycle's */
	size_t nphases;
	struct stress_phase_result phases[STRESS_MAX_PHASES];
	/* of those phases; once STRESS_MAX_INTERVALS, merged in pairs */
	size_t nintervals;
	struct stress_interval *intervals;
	size_t nerrors;
	uint64_t errors_total;
	struct stress_error errors[STRESS_MAX_ERRORS];
	struct verify_report *report;		/* every read-back */
	struct verify_report *reopen_report;	/* after each reopen */
	bool fake_capacity;	/* the read-back says writes wrap */
	struct verify_wrap wrap;	/* then: its modulus, usable size */
	unsigned int reopens;
	uint64_t not_written;	/* bytes skipped: their writes failed */
	bool stopped;		/* by an error or a failed reopen */
	int interrupted;	/* the signal that stopped it, or 0 */
	uint64_t written_bytes;	/* by every write phase */
	uint64_t read_bytes;	/* by every read phase */
	struct stress_soak soak;
	bool soak_slow;
	double secs;
};

int stress_plan(const struct stress_config *cfg, uint64_t target_size,
		uint32_t lbs, struct stress_phase *phases, size_t max);
int stress_run(struct blkdev_target *t, const struct blkdev_open_opts *bo,
	       const struct stress_config *cfg, struct stress_result *res);
void stress_result_free(struct stress_result *res);
void stress_flag_dips(const struct stress_interval *iv, size_t n,
		      unsigned int phase, double interval, bool *dip,
		      unsigned int *ndips);
void stress_signal_name(int sig, char *buf, size_t len);
void stress_soak_add(struct stress_soak *s,
		     const struct stress_phase_result *w,
		     const struct stress_phase_result *r);
size_t stress_intervals_merge(struct stress_interval *iv, size_t n);
int stress_find_run(const void *buf, size_t len, uint32_t lbs,
		    struct pattern_header *out);

#endif /* USBTRAIL_STRESS_H */
