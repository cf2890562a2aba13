/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tput.h - per-disk throughput from block issue and completion records,
 * the throughput half of derive (derive.h; derive.c does the incidents).
 *
 * Each disk's time is cut into intervals of derive_opts.interval_ms; a
 * busy interval comes out as an EV_SAMPLE, and a run of intervals below
 * dip_fraction of the trailing median of busy ones as a dip incident.
 * Pure: no I/O; both go to the derive_out_fn.
 */
#ifndef USBTRAIL_TPUT_H
#define USBTRAIL_TPUT_H

#include <stdbool.h>
#include <stdint.h>

#include "derive.h"
#include "event.h"

#define TPUT_DISKS_MAX		32
#define TPUT_HISTORY_MAX	256	/* the most derive_opts.history */

/*
 * Requests issued and not completed, by start sector: a count would drift
 * when a request is issued twice (requeued after a reset) or completed in
 * parts, and a drifting count makes an idle disk look stalled.
 */
#define TPUT_INFLIGHT_MAX	512
#define TPUT_INFLIGHT_STALE_NS	(300ull * 1000000000)

struct tput_disk {
	char name[32];
	uint32_t devt;
	uint64_t start_ns;		/* of the open interval, 0: none */
	uint64_t last_end_ns;		/* of the last interval closed */
	uint64_t bytes_r, bytes_w;
	uint32_t completions;
	uint32_t inflight, inflight_max;
	uint64_t pend_sector[TPUT_INFLIGHT_MAX];
	uint64_t pend_ns[TPUT_INFLIGHT_MAX];
	/* busy, non-dip intervals: the median's window */
	double hist[TPUT_HISTORY_MAX];
	unsigned int nhist, hist_pos;
	/* the dip being counted */
	unsigned int dip_n;
	uint64_t dip_start_ns;
	double dip_sum, dip_median;
	struct ev_ident ident;
};

struct tput {
	const struct derive_opts *o;	/* checked by derive_new() */
	derive_out_fn out;
	void *arg;
	struct tput_disk disks[TPUT_DISKS_MAX];
	unsigned int ndisks;
};

/* Zero *tp; @o must live as long as it. */
void tput_init(struct tput *tp, const struct derive_opts *o,
	       derive_out_fn out, void *arg);
/* A block issue or completion trace record, in time order. */
void tput_blk(struct tput *tp, const struct ev *ev);
/* Time has reached @now_ns: close every disk's intervals up to it. */
void tput_advance(struct tput *tp, uint64_t now_ns);
/* The end at @now_ns: the open intervals closed, the dips ended. */
void tput_flush(struct tput *tp, uint64_t now_ns);

#endif /* USBTRAIL_TPUT_H */
