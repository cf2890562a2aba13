/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sink_watch.h - the store of "usbtrail watch" (sink_watch.c): a bounded
 * ring of recordings and one recording per incident, and the Prometheus
 * textfile of its metrics (sink_metrics.c).
 */
#ifndef USBTRAIL_SINK_WATCH_H
#define USBTRAIL_SINK_WATCH_H

#include <stdint.h>

#include "meta.h"
#include "record.h"

struct sink_watch_stats;

struct sink_watch_opts {
	const char *dir;		/* DIR: ring/ and incidents/ in it */
	uint64_t keep_bytes;		/* all of it together, at most */
	unsigned int keep_days;		/* 0: no age limit */
	unsigned int before_s;		/* kept before an incident */
	unsigned int after_s;		/* ...and after the last one */
	uint64_t segment_bytes;		/* a new ring piece after this... */
	unsigned int segment_s;		/* ...or this long */
	const struct ev_clock *clock;
	/* what meta.json says of the recorder: version, sources, uas */
	void (*meta_fill)(void *arg, struct meta_record *m);
	/* an incident recording was opened in @dir; may be NULL */
	void (*on_capture)(void *arg, const char *dir);
	/*
	 * An incident, once the store knows the recording it is in (@dir;
	 * NULL if none could be made), in time order as far as it can:
	 * up to WATCH_SETTLE_NS after it came.  May be NULL.
	 */
	void (*on_incident)(void *arg, const struct ev *ev, const char *dir);
	/*
	 * Writing into @path failed with -@err (a full disk), or works
	 * again (@err 0): once each way, for a message.  May be NULL.
	 */
	void (*on_error)(void *arg, const char *path, int err);
	void *arg;
	/* the caller's, kept up to date, valid after close() too */
	struct sink_watch_stats *stats;
};

struct sink_watch_stats {
	uint64_t incidents;
	uint64_t captures;		/* incident recordings closed */
	uint64_t pruned;		/* directories removed */
	uint64_t stored_bytes;		/* on disk at the last prune */
	uint64_t disk_full;		/* writes that found no room */
	uint64_t write_errors;
	uint64_t lost;			/* events not stored, closed files */
	uint64_t lost_pending;		/* ... and in the open ones */
};

/* 0 or -errno (DIR cannot be made or written). */
int sink_watch_open(struct rec_sink *s, const struct sink_watch_opts *o);
/* On the recorder's tick: flush, close what is due, prune. */
void sink_watch_tick(struct rec_sink *s, uint64_t now_ns);
/* SIGHUP: the limits of @o (not the directory), and a new ring piece. */
void sink_watch_reconfigure(struct rec_sink *s,
			    const struct sink_watch_opts *o);

/*
 * The metrics, a Prometheus textfile for node_exporter's textfile
 * collector, rewritten whole (a temporary file renamed over it) by
 * sink_metrics_write() and by close().  Besides what passes the sink, it
 * reports the counts @from points at, which must outlive the sink.
 */
struct sink_metrics_from {
	const struct rec_stats *rs;		/* may be NULL */
	const struct rec_source *src;
	unsigned int nsrc;
	const struct sink_watch_stats *ws;	/* may be NULL */
};

int sink_metrics_open(struct rec_sink *s, const char *path,
		      const struct ev_clock *clock,
		      const struct sink_metrics_from *from);
/* Write the file now.  0 or -errno. */
int sink_metrics_write(struct rec_sink *s);

#endif /* USBTRAIL_SINK_WATCH_H */
