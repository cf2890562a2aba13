/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * derive.h - what the recorder (and "analyze" over a recording) derives
 * from the event stream: incidents and per-disk throughput.
 *
 * Events go in in time order.  Kernel log lines go through the one
 * classifier (classify.c); trace records (module or tracefs) yield the
 * same kinds where they show them (a SCSI timeout, an error handler, a
 * failed request, a completion code, a device gone).  An incident seen in
 * both is one incident with both as evidence: the log gives the text and
 * the chain, the trace the raw sense bytes and the command.  Block
 * completions give each disk's throughput per interval (EV_SAMPLE) and
 * the dips in it.  Incidents are held DERIVE_HOLD_MS for their other half
 * before they come out.  Pure: no I/O; derived events go to a callback.
 * derive.c does the incidents, tput.c the throughput.
 */
#ifndef USBTRAIL_DERIVE_H
#define USBTRAIL_DERIVE_H

#include <stdint.h>

#include "devmap.h"
#include "event.h"

#define DERIVE_HOLD_MS		1500	/* wait for the other half */
#define DERIVE_MATCH_NS		1500000000ull

struct derive_opts {
	unsigned int interval_ms;	/* throughput interval, default 100 */
	double dip_fraction;		/* of the trailing median, 0.5 */
	unsigned int dip_intervals;	/* this many in a row, 3 */
	unsigned int history;		/* busy intervals in the median, 50 */
	unsigned int min_history;	/* before any dip is called, 10 */
};

#define DERIVE_OPTS_DEFAULT { 100, 0.5, 3, 50, 10 }

struct derive;

/* Called with each derived event; the callee owns it. */
typedef void (*derive_out_fn)(void *arg, struct ev *ev);

struct derive *derive_new(const struct derive_opts *opts, derive_out_fn out,
			  void *arg);
void derive_free(struct derive *d);

/*
 * One event, in time order, its ident already resolved against m; m must
 * live until derive_flush(), which resolves what the log still held.
 */
void derive_feed(struct derive *d, const struct devmap *m,
		 const struct ev *ev);
/* Time has reached now_ns: close intervals, release held incidents. */
void derive_advance(struct derive *d, uint64_t now_ns);
/* The end: everything still held comes out. */
void derive_flush(struct derive *d);

/*
 * An incident of @kind at @t_ns about @ident (may be NULL), for tput.c's
 * dips; NULL when out of memory.  The caller owns it.
 */
struct ev *derive_incident_new(uint64_t t_ns, enum classify_kind kind,
			       const struct ev_ident *ident);

#endif /* USBTRAIL_DERIVE_H */
