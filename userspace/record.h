/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record.h - the recorder behind "usbtrail record": sources in, sinks out.
 *
 * A source (src_*.c) owns a file descriptor or is polled on the recorder's
 * 100 ms tick; whenever it can, it turns what it read into struct ev
 * (event.h) and passes each to rec_emit().  The recorder holds events for
 * REC_REORDER_MS so that sources read at different moments come out in
 * time order, fills in who each event concerns, feeds the classifier and
 * the throughput tracker, and hands every event to every sink (sink_*.c).
 *
 * Sources and sinks count what they could not handle; nothing is dropped
 * silently.  A sink's error (a full disk) stops the recording, and every
 * sink's close() leaves a valid file with whatever it got before.
 */
#ifndef USBTRAIL_RECORD_H
#define USBTRAIL_RECORD_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "derive.h"
#include "devmap.h"
#include "event.h"

#define REC_TICK_MS		100
#define REC_REORDER_MS		500	/* events wait this long for older ones */

struct rec;

struct rec_source {
	const char *name;		/* "module", "kmsg", ... */
	enum ev_source id;
	/*
	 * Polled for input; read() runs when it is readable.  -1: read()
	 * runs on every tick instead.
	 */
	int fd;
	/* Take what is there, without blocking.  0 or -errno (fatal). */
	int (*read)(struct rec_source *s, struct rec *r);
	/* Read what is left and release everything; may be NULL. */
	void (*close)(struct rec_source *s, struct rec *r);
	void *priv;
	/* kept by the source, reported in meta.json */
	uint64_t events;		/* emitted */
	uint64_t lost;			/* the kernel or device dropped them */
	uint64_t malformed;		/* could not be parsed: skipped */
	/*
	 * After a read() the fd is not polled again for this long (0: at
	 * once): events gather and one read() takes them, where each would
	 * have woken the recorder.  The source's buffer must hold that
	 * long's worth.  resume_at is the recorder's: when it polls the fd
	 * again, 0 while it does.
	 */
	uint32_t holdoff_ms;
	uint64_t resume_at;
	/*
	 * Under rec_run_opts.keep_going: the -errno read() failed with;
	 * the source is closed and no longer read until opened again
	 * (its open() clears this) and handed to rec_source_resume().
	 */
	int down;
};

struct rec_sink {
	const char *name;		/* "jsonl", "pcapng", ... */
	/*
	 * Take one event.  0; 1 if it is of a kind this sink does not keep
	 * (not counted in written); or -errno: the recording stops (the
	 * recorder says why) and close() still runs.
	 */
	int (*event)(struct rec_sink *s, const struct ev *ev);
	/* Flush and leave a valid file with all events taken so far. */
	int (*close)(struct rec_sink *s);
	void *priv;
	char path[4096];		/* the file it writes, "" if none */
	uint64_t written;		/* events taken */
	/*
	 * Kept by the sink: events it took but could not pass on, when that
	 * is not worth stopping for (the journal refused an entry).
	 */
	uint64_t failed;
};

/* Pass one event to the recorder, which owns it from now on. */
void rec_emit(struct rec *r, struct ev *ev);
/*
 * The close() of a source that owns just its fd and a malloc'd priv:
 * closes the one, frees the other.
 */
void rec_source_close_fd(struct rec_source *s, struct rec *r);
/*
 * A source that was down, opened again into the same struct: poll its
 * fd from now on.  0 or -errno (it is then closed and down again).
 */
int rec_source_resume(struct rec *r, struct rec_source *s);
/* The source's fd reached its end: stop polling it. */
void rec_source_done(struct rec *r, struct rec_source *s);
/* The clock offsets measured when recording began. */
const struct ev_clock *rec_clock(const struct rec *r);
/* The prefix of rec_warn(), "usbtrail record" unless set; kept, not copied. */
void rec_set_who(const char *who);
/* Warn on stderr, prefixed "usbtrail record: SOURCE: ". */
void rec_warn(const struct rec_source *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The sources.  Each open() fills *s and returns 0, -ENOENT when what it
 * reads from is absent here (module not loaded, tracefs not mounted, no
 * usbmon), -EACCES/-EPERM without the privileges, or another -errno
 * (tracefs: -ENODATA when it has none of the events); it prints nothing,
 * the caller explains.
 */
int src_module_open(struct rec_source *s, struct rec *r);
/*
 * The module source on an fd already open, non-blocking, that yields
 * whole records (/dev/usbtrail, or a pipe in tests and benchmarks); the
 * source owns fd from now on, also on failure.
 */
int src_module_attach(struct rec_source *s, struct rec *r, int fd);
/*
 * The USBTRAIL_IOC_INFO of the module source @s when it opened (its probe
 * table: module_probes.h), or NULL if @s was attached to an fd.
 */
struct usbtrail_info;
const struct usbtrail_info *src_module_info(const struct rec_source *s);
/*
 * The layout table of the module source @s as it answered it from BTF
 * when it opened, and the answers (module_probes.h); NULLs if none.
 */
struct usbtrail_layout;
void src_module_layout(const struct rec_source *s,
		       const struct usbtrail_layout **table,
		       const struct usbtrail_layout **btf);
int src_tracefs_open(struct rec_source *s, struct rec *r);
int src_kmsg_open(struct rec_source *s, struct rec *r);
/*
 * usbmon: ring bytes asked for (SRC_USBMON_RING_MIN to _MAX); a kernel
 * that refuses it gets the largest it takes, and the source's note says
 * what was used (src_usbmon_ring()).
 */
#define SRC_USBMON_RING_MIN	(1200u << 10)
#define SRC_USBMON_RING_MAX	(64u << 20)
int src_usbmon_open(struct rec_source *s, struct rec *r, uint32_t payload,
		    uint32_t ring);
/* the ring's size in bytes as usbmon gave it */
size_t src_usbmon_ring(const struct rec_source *s);
int src_sysfs_open(struct rec_source *s, struct rec *r);
int src_evdev_open(struct rec_source *s, struct rec *r, int code,
		   const char *device);
/* The read end of a pipe whose lines are markers (usbtrail stress). */
int src_command_open(struct rec_source *s, struct rec *r, int fd);

/* The sinks.  open() returns 0 or -errno (path not writable, ...). */
/*
 * events.jsonl.  Without SINK_JSONL_ALL the high-rate events (trace
 * records, usbmon URBs) are left to capture.pcapng (sink_pcapng_open()),
 * as "usbtrail record" writes a recording; with it every event is a line,
 * as recordings of usbtrail 0.2 and "usbtrail watch" have them.
 */
#define SINK_JSONL_ALL		0x1
int sink_jsonl_open(struct rec_sink *s, const char *path, unsigned int flags);
int sink_pcapng_open(struct rec_sink *s, const char *path,
		     const struct ev_clock *clock);
/* recording: the directory, named in each entry (may be NULL) */
int sink_journal_open(struct rec_sink *s, const char *recording);
/* The recording the entries from now on name (usbtrail watch). */
void sink_journal_set_recording(struct rec_sink *s, const char *recording);
int sink_live_open(struct rec_sink *s, FILE *out);

/* --- the engine, as "usbtrail record" drives it ------------------------- */

#define REC_SOURCES_MAX		8
#define REC_SINKS_MAX		8

struct rec_stats {
	uint64_t by_type[EV_TYPE_MAX];	/* events made, by type */
	uint64_t by_kind[CLASSIFY_KIND_COUNT];	/* incidents */
	uint64_t incidents;
	uint64_t dropped;		/* out of memory: counted, lost */
	double secs;
	int signal;			/* the last SIGINT/SIGTERM, or 0 */
	bool command_ran;
	int command_status;		/* waitpid() status */
	bool duration_ended;		/* COMMAND was stopped by --duration */
};

struct rec_run_opts {
	uint64_t duration_s;		/* 0: none */
	char **command;			/* NULL: none */
	int marker_fd;			/* COMMAND's write end, or -1: closed */
	/*
	 * "usbtrail watch": a source whose read() fails is closed and
	 * marked down instead of ending the recording; tick() may open
	 * it again.
	 */
	bool keep_going;
	/* Every tick, after the sinks had their events; may be NULL. */
	void (*tick)(void *arg, struct rec *r, uint64_t now);
	/* On SIGHUP; NULL: SIGHUP keeps its default action. */
	void (*hup)(void *arg, struct rec *r);
	void *arg;
	/*
	 * After SIGINT, SIGTERM or --duration: how long COMMAND, sent
	 * SIGTERM, may take to finish (its summary) before SIGKILL; 0 is
	 * REC_CHILD_GRACE_DEFAULT_S
	 */
	uint64_t grace_s;
	/*
	 * The signal mask COMMAND starts with: what rec_hold_signals()
	 * saved when the caller blocked signals for its set-up; NULL: the
	 * mask rec_run() is called with.
	 */
	const sigset_t *child_mask;
};

/* usbtrail stress reads back what it wrote after SIGTERM: minutes. */
#define REC_CHILD_GRACE_DEFAULT_S	60u

/* NULL with errno set on failure. */
struct rec *rec_new(const struct derive_opts *dopts);
void rec_free(struct rec *r);
/* The recorder keeps the pointers; s lives until rec_free(). */
int rec_add_source(struct rec *r, struct rec_source *s);
int rec_add_sink(struct rec *r, struct rec_sink *s);
/*
 * Block SIGINT and SIGTERM (and SIGHUP, if hup) while the caller opens
 * its sources and sinks, so that one coming meanwhile does not kill it
 * with a tracefs instance, kprobes or half-written files left behind:
 * it stays pending, and rec_run() stops on it at once, cleanly.  *orig
 * gets the mask before (rec_run_opts.child_mask; NULL: not wanted).  0 or
 * -errno.
 */
int rec_hold_signals(sigset_t *orig, bool hup);
/*
 * Record until COMMAND exits, the duration ends, or SIGINT/SIGTERM; then
 * close every source and sink.  0, or -errno: a sink's (rec_sink_error()
 * names it) or the loop's own.
 */
int rec_run(struct rec *r, const struct rec_run_opts *o);
int rec_sink_error(const struct rec *r, const char **name);
const struct rec_stats *rec_stats(const struct rec *r);

#endif /* USBTRAIL_RECORD_H */
