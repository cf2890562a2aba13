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
/* after SIGINT/SIGTERM: how long COMMAND gets to exit on SIGTERM */
#define REC_CHILD_GRACE_MS	3000

struct rec_heap {
	struct ev **v;
	size_t n, cap;
};

struct rec {
	struct ev_clock clock;
	uint64_t next_id;
	struct rec_heap in, out;
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
};

/* --- the time-ordered queues -------------------------------------------- */

static bool rec_before(const struct ev *a, const struct ev *b)
{
	return a->t_ns < b->t_ns || (a->t_ns == b->t_ns && a->id < b->id);
}

static int rec_heap_push(struct rec_heap *h, struct ev *ev)
{
	size_t i, p;

	if (h->n == h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 1024;
		struct ev **v = realloc(h->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		h->v = v;
		h->cap = cap;
	}
	for (i = h->n++; i > 0; i = p) {
		p = (i - 1) / 2;
		if (!rec_before(ev, h->v[p]))
			break;
		h->v[i] = h->v[p];
	}
	h->v[i] = ev;
	return 0;
}

static struct ev *rec_heap_pop(struct rec_heap *h)
{
	struct ev *top, *last;
	size_t i = 0, c;

	if (!h->n)
		return NULL;
	top = h->v[0];
	last = h->v[--h->n];
	for (;;) {
		c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && rec_before(h->v[c + 1], h->v[c]))
			c++;
		if (!rec_before(h->v[c], last))
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	if (h->n)
		h->v[i] = last;
	return top;
}

static void rec_heap_free(struct rec_heap *h)
{
	while (h->n)
		ev_free(h->v[--h->n]);
	free(h->v);
	h->v = NULL;
	h->cap = 0;
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

void rec_source_done(struct rec *r, struct rec_source *s)
{
	if (r->ep >= 0 && s->fd >= 0)
		epoll_ctl(r->ep, EPOLL_CTL_DEL, s->fd, NULL);
}

void rec_warn(const struct rec_source *s, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "usbtrail record: %s: ", s ? s->name : "recorder");
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
	if (rec_heap_push(&r->in, ev))
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
	if (rec_heap_push(&r->out, ev))
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
	if (rec_heap_push(&r->out, ev))
		rec_nomem(r, ev);
}

/* Move on whatever is older than the watermarks; all with final. */
static void rec_pump(struct rec *r, uint64_t now, bool final)
{
	uint64_t in_mark = now - (uint64_t)REC_REORDER_MS * 1000000;
	uint64_t out_mark = now - (uint64_t)REC_OUT_DELAY_MS * 1000000;

	while (r->in.n && (final || r->in.v[0]->t_ns <= in_mark))
		rec_process(r, rec_heap_pop(&r->in));
	if (final)
		derive_flush(r->derive);
	else
		derive_advance(r->derive, in_mark);
	while (r->out.n && (final || r->out.v[0]->t_ns <= out_mark))
		rec_to_sinks(r, rec_heap_pop(&r->out));
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
	rec_heap_free(&r->in);
	rec_heap_free(&r->out);
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

		if (tick_only && s->fd >= 0)
			continue;
		ret = s->read(s, r);
		if (ret) {
			rec_warn(s, "%s", strerror(-ret));
			return ret;
		}
	}
	return 0;
}

int rec_run(struct rec *r, const struct rec_run_opts *o)
{
	struct itimerspec its = {
		.it_interval = { 0, REC_TICK_MS * 1000000L },
		.it_value = { 0, REC_TICK_MS * 1000000L },
	};
	struct epoll_event ev, evs[16];
	sigset_t mask, oldmask;
	int ep = -1, sfd = -1, tfd = -1, ret = 0, status, n, i;
	uint64_t start = ev_clock_now(), stop_at = 0, now, kill_at = 0;
	bool stopping = false, child_done = !o->command;
	unsigned int nsig = 0;
	pid_t child = -1;

	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGCHLD);
	sigaddset(&mask, SIGPIPE);
	if (sigprocmask(SIG_BLOCK, &mask, &oldmask))
		return -errno;
	/* a file size limit: write() says EFBIG, the recording stops cleanly */
	signal(SIGXFSZ, SIG_IGN);
	ep = epoll_create1(EPOLL_CLOEXEC);
	r->ep = ep;
	sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	tfd = timerfd_create(CLOCK_BOOTTIME, TFD_CLOEXEC | TFD_NONBLOCK);
	if (ep < 0 || sfd < 0 || tfd < 0 || timerfd_settime(tfd, 0, &its, NULL)) {
		ret = -errno;
		goto out;
	}
	ev.events = EPOLLIN;
	ev.data.ptr = &sfd;
	epoll_ctl(ep, EPOLL_CTL_ADD, sfd, &ev);
	ev.data.ptr = &tfd;
	epoll_ctl(ep, EPOLL_CTL_ADD, tfd, &ev);
	for (i = 0; i < (int)r->nsources; i++) {
		if (r->sources[i]->fd < 0)
			continue;
		ev.data.ptr = r->sources[i];
		if (epoll_ctl(ep, EPOLL_CTL_ADD, r->sources[i]->fd, &ev)) {
			ret = -errno;
			rec_warn(r->sources[i], "cannot poll: %s",
				 strerror(errno));
			goto out;
		}
	}

	if (o->command) {
		child = rec_spawn(o->command, &oldmask, o->marker_fd);
		if (child < 0) {
			ret = -errno;
			goto out;
		}
		if (o->marker_fd >= 0)
			close(o->marker_fd);
	}
	if (o->duration_s)
		stop_at = start + o->duration_s * 1000000000ull;

	while (!r->sink_err) {
		n = epoll_wait(ep, evs, 16, REC_TICK_MS);
		if (n < 0 && errno != EINTR) {
			ret = -errno;
			break;
		}
		for (i = 0; i < n; i++) {
			void *p = evs[i].data.ptr;

			if (p == &tfd) {
				uint64_t ticks;

				if (read(tfd, &ticks, sizeof(ticks)) < 0)
					ticks = 0;
				ret = rec_read_all(r, true);
			} else if (p == &sfd) {
				struct signalfd_siginfo si;

				while (read(sfd, &si, sizeof(si)) == sizeof(si)) {
					if (si.ssi_signo == SIGCHLD)
						continue;
					if (si.ssi_signo == SIGPIPE)
						continue;
					nsig++;
					r->stats.signal = (int)si.ssi_signo;
				}
			} else {
				struct rec_source *s = p;

				ret = s->read(s, r);
				if (ret)
					rec_warn(s, "%s", strerror(-ret));
			}
			if (ret)
				break;
		}
		if (ret)
			break;
		now = ev_clock_now();

		if (child > 0 && !child_done &&
		    waitpid(child, &status, WNOHANG) == child) {
			child_done = true;
			r->stats.command_status = status;
			r->stats.command_ran = true;
			if (!stopping) {
				stopping = true;
				stop_at = now + rec_ms(REC_TAIL_MS);
			}
		}
		if (nsig && !stopping) {
			stopping = true;
			stop_at = now + rec_ms(REC_TAIL_MS);
			if (!child_done) {
				kill(child, SIGTERM);
				kill_at = now + rec_ms(REC_CHILD_GRACE_MS);
			}
		}
		if (nsig > 1 && !child_done) {
			/* asked twice: do not wait for COMMAND */
			kill(child, SIGKILL);
			kill_at = now;
		}
		if (!stopping && stop_at && now >= stop_at) {
			stopping = true;
			if (!child_done) {
				r->stats.duration_ended = true;
				kill(child, SIGTERM);
				kill_at = now + rec_ms(REC_CHILD_GRACE_MS);
			}
			stop_at = now;
		}
		if (kill_at && !child_done && now >= kill_at) {
			kill(child, SIGKILL);
			kill_at = 0;
		}
		rec_pump(r, now, false);
		if (stopping && child_done && now >= stop_at)
			break;
		if (stopping && !child_done && !kill_at)
			kill_at = now + rec_ms(REC_CHILD_GRACE_MS);
	}

	/* the end: what the sources still hold, then everything out */
	for (i = 0; i < (int)r->nsources; i++) {
		struct rec_source *s = r->sources[i];

		if (!r->sink_err && s->read(s, r))
			break;
	}
	for (i = 0; i < (int)r->nsources; i++)
		if (r->sources[i]->close)
			r->sources[i]->close(r->sources[i], r);
	if (!r->sink_err)
		rec_pump(r, ev_clock_now(), true);
	for (i = 0; i < (int)r->nsinks; i++) {
		int cret = r->sinks[i]->close(r->sinks[i]);

		if (cret && !r->sink_err) {
			r->sink_err = cret;
			r->sink_err_name = r->sinks[i]->path[0] ?
				r->sinks[i]->path : r->sinks[i]->name;
		}
	}
	if (child > 0 && !child_done) {
		kill(child, SIGKILL);
		if (waitpid(child, &status, 0) == child) {
			r->stats.command_status = status;
			r->stats.command_ran = true;
		}
	}
	r->stats.secs = (double)(ev_clock_now() - start) / 1e9;
out:
	r->ep = -1;
	if (ep >= 0)
		close(ep);
	if (sfd >= 0)
		close(sfd);
	if (tfd >= 0)
		close(tfd);
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
