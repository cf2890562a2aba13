// SPDX-License-Identifier: GPL-2.0-only
/*
 * record.c - the recorder's engine: poll the sources, order their events,
 * derive incidents and throughput, feed the sinks; run the command under
 * record; stop cleanly on its exit, the duration, SIGINT or SIGTERM.
 *
 * Events pass two queues ordered by time.  The first holds them
 * REC_REORDER_MS, long enough for every source to have handed over what
 * happened before (the module wakes its reader every 100 ms, tracefs and
 * the others are read on our 100 ms tick); then they are tied to their
 * device (devmap.c) and fed to derive.c.  The second holds every event a
 * further DERIVE_HOLD_MS plus a margin, so the incidents derive.c makes
 * (which wait for their other half) reach the sinks in time order with
 * the events behind them.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record.h"

#define REC_OUT_DELAY_MS	(REC_REORDER_MS + DERIVE_HOLD_MS + 500)
/* after COMMAND exits: let the kernel's last events reach us */
#define REC_TAIL_MS		(REC_REORDER_MS + 300)

/*
 * The time-ordered queues.  Each source hands its events over nearly in
 * time order, so a queue keeps one run of each source's events, sorted
 * by (time, id), and takes the oldest of the runs' heads: an event costs
 * a comparison with its run's last on the way in and one per source on
 * the way out, where a binary heap of all of them (tens of thousands
 * at full rate) cost about 2 log2(n) comparisons and moves.  An event
 * older than its run's last goes in at its place (a binary search and a
 * move of the later ones: a source's own disorder is short).
 */
struct rec_run {
	struct ev **v;
	size_t head, end, cap;		/* the run is v[head..end) */
};

struct rec_queue {
	struct rec_run run[EV_SRC_MAX];
	unsigned int busy;		/* bit i: run[i] has events */
};
_Static_assert(EV_SRC_MAX <= 32, "struct rec_queue's busy has 32 bits");

struct rec {
	struct ev_clock clock;
	uint64_t next_id;
	struct rec_queue in, out;
	struct devmap map;
	struct derive *derive;
	struct rec_source *sources[REC_SOURCES_MAX];
	unsigned int nsources;
	struct rec_sink *sinks[REC_SINKS_MAX];
	unsigned int nsinks;
	bool sink_failed[REC_SINKS_MAX];
	int sink_err;
	const char *sink_err_name;
	struct rec_stats stats;
	int ep;				/* epoll, while rec_run() runs */
	bool keep_going;		/* rec_run_opts.keep_going */
};

/* --- the time-ordered queues -------------------------------------------- */

static bool rec_before(const struct ev *a, const struct ev *b)
{
	return a->t_ns < b->t_ns || (a->t_ns == b->t_ns && a->id < b->id);
}

/* Room for one more at the end of @q: moved to the front, or grown. */
static int rec_run_room(struct rec_run *q)
{
	struct ev **v;
	size_t cap;

	if (q->end < q->cap)
		return 0;
	if (q->head && q->head >= q->cap / 2) {
		/* half the run was taken since it last moved: amortised */
		memmove(q->v, q->v + q->head,
			(q->end - q->head) * sizeof(*q->v));
		q->end -= q->head;
		q->head = 0;
		return 0;
	}
	cap = q->cap ? q->cap * 2 : 1024;
	v = realloc(q->v, cap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	q->v = v;
	q->cap = cap;
	return 0;
}

static int rec_queue_push(struct rec_queue *qs, struct ev *ev)
{
	unsigned int i = (unsigned int)ev->source < EV_SRC_MAX ? ev->source : 0;
	struct rec_run *q = &qs->run[i];
	size_t lo, hi, mid;

	if (rec_run_room(q))
		return -ENOMEM;
	if (q->end == q->head || !rec_before(ev, q->v[q->end - 1])) {
		q->v[q->end++] = ev;
	} else {
		/* the first of the run that ev comes before */
		lo = q->head;
		hi = q->end - 1;
		while (lo < hi) {
			mid = lo + (hi - lo) / 2;
			if (rec_before(ev, q->v[mid]))
				hi = mid;
			else
				lo = mid + 1;
		}
		memmove(q->v + lo + 1, q->v + lo,
			(q->end - lo) * sizeof(*q->v));
		q->v[lo] = ev;
		q->end++;
	}
	qs->busy |= 1U << i;
	return 0;
}

/* The run whose head is the oldest event of all; NULL if none waits. */
static struct rec_run *rec_queue_first(struct rec_queue *qs)
{
	struct rec_run *best = NULL, *q;
	unsigned int busy = qs->busy, i;

	while (busy) {
		i = (unsigned int)__builtin_ctz(busy);
		busy &= busy - 1;
		q = &qs->run[i];
		if (!best || rec_before(q->v[q->head], best->v[best->head]))
			best = q;
	}
	return best;
}

/* The head of @q, which rec_queue_first() gave. */
static struct ev *rec_queue_take(struct rec_queue *qs, struct rec_run *q)
{
	struct ev *ev = q->v[q->head++];

	if (q->head == q->end) {
		q->head = q->end = 0;
		qs->busy &= ~(1U << (q - qs->run));
	}
	return ev;
}

static void rec_queue_free(struct rec_queue *qs)
{
	struct rec_run *q;
	unsigned int i;

	for (i = 0; i < EV_SRC_MAX; i++) {
		q = &qs->run[i];
		while (q->end > q->head)
			ev_free(q->v[--q->end]);
		free(q->v);
		q->v = NULL;
		q->head = q->end = q->cap = 0;
	}
	qs->busy = 0;
}

/* --- the pipeline -------------------------------------------------------- */

const struct ev_clock *rec_clock(const struct rec *r)
{
	return &r->clock;
}

void rec_source_close_fd(struct rec_source *s, struct rec *r)
{
	(void)r;
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	free(s->priv);
	s->priv = NULL;
}

/* keep_going: @s failed with @err; closed, and skipped until resumed */
static void rec_source_fail(struct rec *r, struct rec_source *s, int err)
{
	rec_warn(s, "%s%s", strerror(-err), r->keep_going ?
		 "; closed, to be opened again" : "");
	if (!r->keep_going)
		return;
	rec_source_done(r, s);
	if (s->close)
		s->close(s, r);
	s->fd = -1;
	s->down = err ? err : -EIO;
}

/* What the loop polls @s for: once per holdoff, with one. */
static uint32_t rec_source_events(const struct rec_source *s)
{
	return EPOLLIN | (s->holdoff_ms ? EPOLLONESHOT : 0);
}

int rec_source_resume(struct rec *r, struct rec_source *s)
{
	struct epoll_event ev = { .events = rec_source_events(s),
				  .data.ptr = s };

	s->down = 0;
	s->resume_at = 0;
	if (r->ep < 0 || s->fd < 0)
		return 0;
	if (epoll_ctl(r->ep, EPOLL_CTL_ADD, s->fd, &ev)) {
		int err = -errno;

		if (s->close)
			s->close(s, r);
		s->fd = -1;
		s->down = err;
		return err;
	}
	return 0;
}

void rec_source_done(struct rec *r, struct rec_source *s)
{
	if (r->ep >= 0 && s->fd >= 0)
		epoll_ctl(r->ep, EPOLL_CTL_DEL, s->fd, NULL);
}

/* Who rec_warn() speaks for: "usbtrail record", "usbtrail watch". */
static const char *rec_who = "usbtrail record";

void rec_set_who(const char *who)
{
	rec_who = who;
}

void rec_warn(const struct rec_source *s, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s: ", rec_who, s ? s->name : "recorder");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* A queue could not grow: the event is lost, and counted. */
static void rec_nomem(struct rec *r, struct ev *ev)
{
	r->stats.dropped++;
	ev_free(ev);
}

void rec_emit(struct rec *r, struct ev *ev)
{
	if (!ev) {
		r->stats.dropped++;
		return;
	}
	ev->id = ++r->next_id;
	r->stats.by_type[ev->type < EV_TYPE_MAX ? ev->type : 0]++;
	if (rec_queue_push(&r->in, ev))
		rec_nomem(r, ev);
}

static void rec_to_sinks(struct rec *r, struct ev *ev)
{
	unsigned int i;
	int ret;

	if (ev->type == EV_INCIDENT) {
		enum classify_kind k = ev->u.incident.inc.kind;

		r->stats.incidents++;
		if ((unsigned int)k < CLASSIFY_KIND_COUNT)
			r->stats.by_kind[k]++;
	}
	for (i = 0; i < r->nsinks; i++) {
		if (r->sink_failed[i])
			continue;
		ret = r->sinks[i]->event(r->sinks[i], ev);
		if (ret > 0)		/* not one this sink keeps */
			continue;
		if (ret) {
			r->sink_failed[i] = true;
			if (!r->sink_err) {
				r->sink_err = ret;
				r->sink_err_name = r->sinks[i]->path[0] ?
					r->sinks[i]->path : r->sinks[i]->name;
			}
			continue;
		}
		r->sinks[i]->written++;
	}
	ev_free(ev);
}

/* derive.c's incidents and samples: into the output queue */
static void rec_derived(void *arg, struct ev *ev)
{
	struct rec *r = arg;

	ev->id = ++r->next_id;
	r->stats.by_type[ev->type < EV_TYPE_MAX ? ev->type : 0]++;
	if (rec_queue_push(&r->out, ev))
		rec_nomem(r, ev);
}

/* Ordered input: tie to its device, derive, and queue for output. */
static void rec_process(struct rec *r, struct ev *ev)
{
	if (ev->type == EV_DEVICE)
		devmap_update(&r->map, ev);
	else
		devmap_resolve(&r->map, ev);
	derive_feed(r->derive, &r->map, ev);
	if (rec_queue_push(&r->out, ev))
		rec_nomem(r, ev);
}

/* Move on whatever is older than the watermarks; all with final. */
static void rec_pump(struct rec *r, uint64_t now, bool final)
{
	uint64_t in_mark = now - (uint64_t)REC_REORDER_MS * 1000000;
	uint64_t out_mark = now - (uint64_t)REC_OUT_DELAY_MS * 1000000;
	struct rec_run *q;

	while ((q = rec_queue_first(&r->in)) &&
	       (final || q->v[q->head]->t_ns <= in_mark))
		rec_process(r, rec_queue_take(&r->in, q));
	if (final)
		derive_flush(r->derive);
	else
		derive_advance(r->derive, in_mark);
	while ((q = rec_queue_first(&r->out)) &&
	       (final || q->v[q->head]->t_ns <= out_mark))
		rec_to_sinks(r, rec_queue_take(&r->out, q));
}

/* --- setup and the loop -------------------------------------------------- */

struct rec *rec_new(const struct derive_opts *dopts)
{
	struct rec *r = calloc(1, sizeof(*r));
	int ret;

	if (!r)
		return NULL;
	ret = ev_clock_init(&r->clock);
	if (ret) {
		free(r);
		errno = -ret;
		return NULL;
	}
	devmap_init(&r->map);
	r->ep = -1;
	r->derive = derive_new(dopts, rec_derived, r);
	if (!r->derive) {
		free(r);
		return NULL;
	}
	return r;
}

void rec_free(struct rec *r)
{
	if (!r)
		return;
	rec_queue_free(&r->in);
	rec_queue_free(&r->out);
	derive_free(r->derive);
	free(r);
}

int rec_add_source(struct rec *r, struct rec_source *s)
{
	if (r->nsources == REC_SOURCES_MAX)
		return -ENOSPC;
	r->sources[r->nsources++] = s;
	return 0;
}

int rec_add_sink(struct rec *r, struct rec_sink *s)
{
	if (r->nsinks == REC_SINKS_MAX)
		return -ENOSPC;
	r->sinks[r->nsinks++] = s;
	return 0;
}

const struct rec_stats *rec_stats(const struct rec *r)
{
	return &r->stats;
}

static uint64_t rec_ms(uint64_t ms)
{
	return ms * 1000000;
}

static pid_t rec_spawn(char **argv, const sigset_t *oldmask, int marker_fd)
{
	char env[64];
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid)
		return pid;
	sigprocmask(SIG_SETMASK, oldmask, NULL);
	if (marker_fd >= 0) {
		/* /dev/fd is udev's; /proc/self/fd is the kernel's own */
		snprintf(env, sizeof(env), "/proc/self/fd/%d", marker_fd);
		setenv("USBTRAIL_TRACE_MARKER", env, 1);
	}
	execvp(argv[0], argv);
	fprintf(stderr, "usbtrail record: cannot run %s: %s\n", argv[0],
		strerror(errno));
	_exit(127);
}

/* Read every source that has something, or that is read on the tick. */
static int rec_read_all(struct rec *r, bool tick_only)
{
	unsigned int i;
	int ret;

	for (i = 0; i < r->nsources; i++) {
		struct rec_source *s = r->sources[i];

		if (s->down || (tick_only && s->fd >= 0))
			continue;
		ret = s->read(s, r);
		if (ret) {
			rec_source_fail(r, s, ret);
			if (!r->keep_going)
				return ret;
		}
	}
	return 0;
}

/* The state of rec_run()'s loop. */
struct rec_loop {
	int ep, sfd, tfd;		/* epoll, signals, the tick */
	const struct rec_run_opts *o;
	pid_t child;			/* COMMAND, or -1 */
	bool child_done;		/* reaped, or none */
	bool stopping;
	uint64_t stop_at;		/* the end, once stopping; --duration */
	uint64_t kill_at;		/* SIGKILL COMMAND then, if 0 not */
	uint64_t grace_ns;		/* how long COMMAND gets on SIGTERM */
	uint64_t grace_s;
	bool told;			/* "waiting for COMMAND" said */
	unsigned int nsig;		/* SIGINT and SIGTERM so far */
	unsigned int nsig_term;		/* ... when COMMAND got SIGTERM */
};

/*
 * The loop's file descriptors: epoll over the signals in @mask, the tick
 * timer and every source that has an fd.  Return: 0 or a negative errno.
 */
static int rec_loop_open(struct rec *r, struct rec_loop *l,
			 const sigset_t *mask)
{
	struct itimerspec its = {
		.it_interval = { 0, REC_TICK_MS * 1000000L },
		.it_value = { 0, REC_TICK_MS * 1000000L },
	};
	struct epoll_event ev;
	unsigned int i;

	l->ep = epoll_create1(EPOLL_CLOEXEC);
	r->ep = l->ep;
	l->sfd = signalfd(-1, mask, SFD_CLOEXEC | SFD_NONBLOCK);
	l->tfd = timerfd_create(CLOCK_BOOTTIME, TFD_CLOEXEC | TFD_NONBLOCK);
	if (l->ep < 0 || l->sfd < 0 || l->tfd < 0 ||
	    timerfd_settime(l->tfd, 0, &its, NULL))
		return -errno;
	ev.events = EPOLLIN;
	ev.data.ptr = &l->sfd;
	epoll_ctl(l->ep, EPOLL_CTL_ADD, l->sfd, &ev);
	ev.data.ptr = &l->tfd;
	epoll_ctl(l->ep, EPOLL_CTL_ADD, l->tfd, &ev);
	for (i = 0; i < r->nsources; i++) {
		if (r->sources[i]->fd < 0)
			continue;
		ev.events = rec_source_events(r->sources[i]);
		ev.data.ptr = r->sources[i];
		if (epoll_ctl(l->ep, EPOLL_CTL_ADD, r->sources[i]->fd, &ev)) {
			int err = -errno;

			rec_warn(r->sources[i], "cannot poll: %s",
				 strerror(errno));
			return err;
		}
	}
	return 0;
}

/* SIGINT and SIGTERM counted; SIGCHLD and SIGPIPE only wake the loop. */
static void rec_loop_signals(struct rec *r, struct rec_loop *l)
{
	struct signalfd_siginfo si;

	while (read(l->sfd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo == SIGCHLD)
			continue;
		if (si.ssi_signo == SIGPIPE)
			continue;
		if (si.ssi_signo == SIGHUP) {
			if (l->o->hup)
				l->o->hup(l->o->arg, r);
			continue;
		}
		l->nsig++;
		r->stats.signal = (int)si.ssi_signo;
	}
}

/* What epoll_wait() returned.  Return: 0 or a source's negative errno. */
static int rec_loop_dispatch(struct rec *r, struct rec_loop *l,
			     const struct epoll_event *evs, int n)
{
	int i, ret = 0;

	for (i = 0; i < n; i++) {
		void *p = evs[i].data.ptr;

		if (p == &l->tfd) {
			uint64_t ticks;

			if (read(l->tfd, &ticks, sizeof(ticks)) < 0)
				ticks = 0;
			ret = rec_read_all(r, true);
		} else if (p == &l->sfd) {
			rec_loop_signals(r, l);
		} else {
			struct rec_source *s = p;

			if (s->down)
				continue;
			ret = s->read(s, r);
			/* EPOLLONESHOT: off until rec_loop_resume() */
			if (s->holdoff_ms)
				s->resume_at = ev_clock_now() +
					       rec_ms(s->holdoff_ms);
			if (ret) {
				rec_source_fail(r, s, ret);
				if (r->keep_going)
					ret = 0;
			}
		}
		if (ret)
			break;
	}
	return ret;
}

/*
 * SIGTERM to COMMAND, SIGKILL after the grace: the time a program such
 * as usbtrail stress needs to finish what it does on SIGTERM (its
 * read-back and summary), said once on stderr with how to cut it short.
 */
static void rec_loop_term(struct rec_loop *l, uint64_t now)
{
	kill(l->child, SIGTERM);
	l->kill_at = now + l->grace_ns;
	l->nsig_term = l->nsig;
	if (l->told)
		return;
	l->told = true;
	fprintf(stderr, "%s: waiting up to %llu s for COMMAND "
		"to finish (--command-grace); Ctrl-C kills it now\n", rec_who,
		(unsigned long long)l->grace_s);
}

/*
 * When to stop, and what to do to COMMAND: it exited (stop after the
 * tail), a signal (stop; SIGTERM it, SIGKILL after the grace, at once
 * when asked twice), --duration ended (the same).  The recording goes on
 * while COMMAND finishes: its last markers and I/O are recorded.
 */
static void rec_loop_decide(struct rec *r, struct rec_loop *l, uint64_t now)
{
	int status;

	if (l->child > 0 && !l->child_done &&
	    waitpid(l->child, &status, WNOHANG) == l->child) {
		l->child_done = true;
		r->stats.command_status = status;
		r->stats.command_ran = true;
		/* its last I/O's events, also when it finished on SIGTERM */
		if (!l->stopping || l->stop_at < now + rec_ms(REC_TAIL_MS))
			l->stop_at = now + rec_ms(REC_TAIL_MS);
		l->stopping = true;
	}
	if (l->nsig && !l->stopping) {
		l->stopping = true;
		l->stop_at = now + rec_ms(REC_TAIL_MS);
		if (!l->child_done)
			rec_loop_term(l, now);
	}
	if (l->told && l->nsig > l->nsig_term && !l->child_done) {
		/* asked again while waiting: do not wait for COMMAND */
		kill(l->child, SIGKILL);
		l->kill_at = now;
	}
	if (!l->stopping && l->stop_at && now >= l->stop_at) {
		l->stopping = true;
		if (!l->child_done) {
			r->stats.duration_ended = true;
			rec_loop_term(l, now);
		}
		l->stop_at = now;
	}
	if (l->kill_at && !l->child_done && now >= l->kill_at) {
		kill(l->child, SIGKILL);
		l->kill_at = 0;
	}
}

/*
 * The sources whose holdoff has run out polled again; the wait until the
 * next one's, in ms, at most the tick.
 */
static int rec_loop_resume(struct rec *r, uint64_t now)
{
	struct epoll_event ev;
	uint64_t wait = rec_ms(REC_TICK_MS);
	unsigned int i;

	for (i = 0; i < r->nsources; i++) {
		struct rec_source *s = r->sources[i];

		if (!s->resume_at)
			continue;
		if (s->down || s->fd < 0) {
			s->resume_at = 0;
			continue;
		}
		if (now < s->resume_at) {
			if (s->resume_at - now < wait)
				wait = s->resume_at - now;
			continue;
		}
		s->resume_at = 0;
		ev.events = rec_source_events(s);
		ev.data.ptr = s;
		epoll_ctl(r->ep, EPOLL_CTL_MOD, s->fd, &ev);
	}
	return (int)((wait + 999999) / 1000000);
}

/* Until a sink fails, a source fails or rec_loop_decide() says stop. */
static int rec_loop_run(struct rec *r, struct rec_loop *l)
{
	struct epoll_event evs[16];
	uint64_t now;
	int n, ret = 0, timeout = REC_TICK_MS;

	while (!r->sink_err) {
		n = epoll_wait(l->ep, evs, 16, timeout);
		if (n < 0 && errno != EINTR) {
			ret = -errno;
			break;
		}
		ret = rec_loop_dispatch(r, l, evs, n);
		if (ret)
			break;
		now = ev_clock_now();
		timeout = rec_loop_resume(r, now);
		rec_loop_decide(r, l, now);
		rec_pump(r, now, false);
		if (l->o->tick)
			l->o->tick(l->o->arg, r, now);
		if (l->stopping && l->child_done && now >= l->stop_at)
			break;
		if (l->stopping && !l->child_done && !l->kill_at)
			l->kill_at = now + l->grace_ns;
	}
	return ret;
}

/*
 * The end: what the sources still hold, then everything out to the sinks
 * and every file closed; COMMAND, if still there, killed and reaped.
 */
static void rec_drain(struct rec *r, struct rec_loop *l)
{
	unsigned int i;
	int status;

	for (i = 0; i < r->nsources; i++) {
		struct rec_source *s = r->sources[i];

		if (!s->down && !r->sink_err && s->read(s, r))
			break;
	}
	for (i = 0; i < r->nsources; i++)
		if (!r->sources[i]->down && r->sources[i]->close)
			r->sources[i]->close(r->sources[i], r);
	if (!r->sink_err)
		rec_pump(r, ev_clock_now(), true);
	for (i = 0; i < r->nsinks; i++) {
		int cret = r->sinks[i]->close(r->sinks[i]);

		if (cret && !r->sink_err) {
			r->sink_err = cret;
			r->sink_err_name = r->sinks[i]->path[0] ?
				r->sinks[i]->path : r->sinks[i]->name;
		}
	}
	if (l->child > 0 && !l->child_done) {
		kill(l->child, SIGKILL);
		if (waitpid(l->child, &status, 0) == l->child) {
			r->stats.command_status = status;
			r->stats.command_ran = true;
		}
	}
}

/* The signals that stop a recording: SIGINT, SIGTERM, and SIGHUP if hup. */
static void rec_stop_signals(sigset_t *mask, bool hup)
{
	sigemptyset(mask);
	sigaddset(mask, SIGINT);
	sigaddset(mask, SIGTERM);
	if (hup)
		sigaddset(mask, SIGHUP);
}

int rec_hold_signals(sigset_t *orig, bool hup)
{
	sigset_t mask;

	rec_stop_signals(&mask, hup);
	return sigprocmask(SIG_BLOCK, &mask, orig) ? -errno : 0;
}

int rec_run(struct rec *r, const struct rec_run_opts *o)
{
	struct rec_loop l = {
		.ep = -1, .sfd = -1, .tfd = -1, .child = -1,
		.child_done = !o->command, .o = o,
		.grace_s = o->grace_s ? o->grace_s : REC_CHILD_GRACE_DEFAULT_S,
	};
	sigset_t mask, oldmask;
	uint64_t start = ev_clock_now();
	int ret;

	rec_stop_signals(&mask, o->hup);
	sigaddset(&mask, SIGCHLD);
	sigaddset(&mask, SIGPIPE);
	r->keep_going = o->keep_going;
	if (sigprocmask(SIG_BLOCK, &mask, &oldmask))
		return -errno;
	/* a file size limit: write() says EFBIG, the recording stops cleanly */
	signal(SIGXFSZ, SIG_IGN);
	ret = rec_loop_open(r, &l, &mask);
	if (!ret && o->command) {
		l.child = rec_spawn(o->command,
				    o->child_mask ? o->child_mask : &oldmask,
				    o->marker_fd);
		if (l.child < 0)
			ret = -errno;
	}
	/* ours from here, spawned or not: COMMAND has its own copy */
	if (o->marker_fd >= 0)
		close(o->marker_fd);
	if (ret)
		goto out;

	if (o->duration_s)
		l.stop_at = start + o->duration_s * 1000000000ull;
	l.grace_ns = l.grace_s * 1000000000ull;

	ret = rec_loop_run(r, &l);
	rec_drain(r, &l);
	r->stats.secs = (double)(ev_clock_now() - start) / 1e9;
out:
	r->ep = -1;
	if (l.ep >= 0)
		close(l.ep);
	if (l.sfd >= 0)
		close(l.sfd);
	if (l.tfd >= 0)
		close(l.tfd);
	sigprocmask(SIG_SETMASK, &oldmask, NULL);
	if (!ret && r->sink_err)
		ret = r->sink_err;
	return ret;
}

int rec_sink_error(const struct rec *r, const char **name)
{
	*name = r->sink_err_name;
	return r->sink_err;
}
