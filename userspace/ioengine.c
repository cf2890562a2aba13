// SPDX-License-Identifier: GPL-2.0-only
/*
 * ioengine.c - how stress.c gets its reads and writes to the target.
 *
 * io_uring (liburing) keeps up to the queue depth in flight from one
 * thread, which is what "4K QD32" means; the sync engine does one pread or
 * pwrite at a time, for kernels or sandboxes without io_uring and as the
 * plainest possible reference.  Both complete whole requests: a short
 * transfer is finished by a second call before the request is reaped,
 * since the stress loop reasons in whole blocks.
 *
 * Requests are queued (ioengine_queue) and become visible to the kernel at
 * the next ioengine_reap(), which submits and collects in one system call.
 *
 * Each request is timed as fio times its completion latency: submit_ns
 * when the kernel gets it (the pwrite/pread, or the io_uring_enter that
 * submits it: not when it is queued, as the caller fills the buffers of
 * the rest of a batch in between), done_ns when the engine sees it
 * complete (one clock reading for a batch reaped together).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <liburing.h>

#include "ioengine.h"

struct ioengine {
	enum ioengine_kind kind;
	int fd;
	unsigned int qd;
	struct io_uring ring;
	unsigned int queued;		/* uring: not yet submitted */
	struct ioengine_req **pending;	/* uring: those, to time */
	unsigned int inflight;		/* uring: submitted, not reaped */
	/* uring: the caller's buffers, registered with the ring */
	const char *fixed_base;
	size_t fixed_len;
	unsigned int nfixed;
	/* sync: done but not reaped, as a ring of qd */
	struct ioengine_req **done;
	unsigned int done_head, done_n;
};

static uint64_t ioengine_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

const char *ioengine_kind_name(enum ioengine_kind kind)
{
	return kind == IOENGINE_URING ? "io_uring" : "sync";
}

/*
 * One task submits and reaps, and it needs completions only when it waits
 * for them: as fio does, the ring defers the kernel's completion work to
 * that wait (DEFER_TASKRUN, 6.1; it needs SINGLE_ISSUER, 6.0) instead of
 * interrupting the task for each one (COOP_TASKRUN, 5.19).  A kernel that
 * does not know a flag says EINVAL: fewer flags, then none.
 */
static int ioengine_uring_init(struct io_uring *ring, unsigned int qd)
{
	static const unsigned int tries[] = {
		IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER |
			IORING_SETUP_DEFER_TASKRUN,
		IORING_SETUP_COOP_TASKRUN,
		0,
	};
	struct io_uring_params p;
	unsigned int i;
	int err = -EINVAL;

	for (i = 0; i < sizeof(tries) / sizeof(tries[0]) && err == -EINVAL;
	     i++) {
		memset(&p, 0, sizeof(p));
		p.flags = tries[i];
		err = io_uring_queue_init_params(qd, ring, &p);
	}
	return err;
}

/**
 * ioengine_create() - an engine for @fd with up to @qd requests in flight
 * @kind: IOENGINE_URING or IOENGINE_SYNC
 * @fd:   the target, not owned
 * @qd:   1 to 4096
 * @out:  the engine; free with ioengine_free()
 *
 * Return: 0 or a negative errno (io_uring_queue_init()'s, e.g. -ENOSYS or
 * -EPERM where io_uring is disabled).
 */
int ioengine_create(enum ioengine_kind kind, int fd, unsigned int qd,
		    struct ioengine **out)
{
	struct ioengine *e;
	int err;

	if (!qd || qd > 4096)
		return -EINVAL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->kind = kind;
	e->fd = fd;
	e->qd = qd;
	if (kind == IOENGINE_URING) {
		e->pending = calloc(qd, sizeof(*e->pending));
		if (!e->pending) {
			free(e);
			return -ENOMEM;
		}
		err = ioengine_uring_init(&e->ring, qd);
		if (err) {
			free(e->pending);
			free(e);
			return err;
		}
	} else {
		e->done = calloc(qd, sizeof(*e->done));
		if (!e->done) {
			free(e);
			return -ENOMEM;
		}
	}
	*out = e;
	return 0;
}

void ioengine_free(struct ioengine *e)
{
	if (!e)
		return;
	if (e->kind == IOENGINE_URING)
		io_uring_queue_exit(&e->ring);
	free(e->pending);
	free(e->done);
	free(e);
}

/**
 * ioengine_register() - register the caller's buffers with the ring
 * @e:     the engine
 * @base:  @n slots of @len bytes each, back to back; a request's buffer
 *         lies in its slot (struct ioengine_req.slot)
 * @len:   bytes per slot
 * @n:     slots
 *
 * The kernel then maps the pages once, not for every request: less work
 * per request for direct I/O, and a buffered write copies from a kernel
 * mapping.  Without it (the sync engine, a kernel or limit that refuses:
 * RLIMIT_MEMLOCK for others than root) requests use plain buffers.
 *
 * Return: 0 if registered, else a negative errno; the engine works either
 * way.
 */
int ioengine_register(struct ioengine *e, void *base, size_t len,
		      unsigned int n)
{
	struct iovec *iov;
	unsigned int i;
	int err;

	if (e->kind != IOENGINE_URING)
		return -EOPNOTSUPP;
	if (!n || n > e->qd || !len || len > (1u << 30))
		return -EINVAL;
	iov = calloc(n, sizeof(*iov));
	if (!iov)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		iov[i].iov_base = (char *)base + (size_t)i * len;
		iov[i].iov_len = len;
	}
	err = io_uring_register_buffers(&e->ring, iov, n);
	free(iov);
	if (err)
		return err;
	e->fixed_base = base;
	e->fixed_len = len;
	e->nfixed = n;
	return 0;
}

/* Whether @r's buffer lies in its registered slot. */
static bool ioengine_is_fixed(const struct ioengine *e,
			      const struct ioengine_req *r)
{
	uintptr_t slot, p = (uintptr_t)r->buf;

	if (r->slot >= e->nfixed)
		return false;
	slot = (uintptr_t)e->fixed_base + (uintptr_t)r->slot * e->fixed_len;
	return p >= slot && p - slot <= e->fixed_len &&
	       r->len <= e->fixed_len - (p - slot);
}

/* After a reopen; only when nothing is in flight. */
void ioengine_set_fd(struct ioengine *e, int fd)
{
	e->fd = fd;
}

/* The rest of a short transfer, done synchronously. */
static int ioengine_finish(int fd, struct ioengine_req *r, size_t done)
{
	while (done < r->len) {
		char *p = (char *)r->buf + done;
		ssize_t n;

		if (r->write)
			n = pwrite(fd, p, r->len - done,
				   (off_t)(r->offset + done));
		else
			n = pread(fd, p, r->len - done,
				  (off_t)(r->offset + done));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)		/* end of a file: nothing more there */
			return -ENODATA;
		done += (size_t)n;
	}
	return (int)done;
}

/**
 * ioengine_queue() - queue @r
 * @e: the engine
 * @r: the request, kept by the caller until reaped
 *
 * The caller keeps at most qd requests queued or in flight.  The sync
 * engine does the I/O now.
 *
 * Return: 0 or -EBUSY if qd are already queued or in flight.
 */
int ioengine_queue(struct ioengine *e, struct ioengine_req *r)
{
	struct io_uring_sqe *sqe;

	if (e->kind == IOENGINE_SYNC) {
		if (e->done_n == e->qd)
			return -EBUSY;
		r->submit_ns = ioengine_now_ns();
		r->res = ioengine_finish(e->fd, r, 0);
		r->done_ns = ioengine_now_ns();
		e->done[(e->done_head + e->done_n++) % e->qd] = r;
		return 0;
	}
	if (e->queued + e->inflight >= e->qd)
		return -EBUSY;
	sqe = io_uring_get_sqe(&e->ring);
	if (!sqe)
		return -EBUSY;
	if (ioengine_is_fixed(e, r)) {
		if (r->write)
			io_uring_prep_write_fixed(sqe, e->fd, r->buf, r->len,
						  r->offset, (int)r->slot);
		else
			io_uring_prep_read_fixed(sqe, e->fd, r->buf, r->len,
						 r->offset, (int)r->slot);
	} else if (r->write) {
		io_uring_prep_write(sqe, e->fd, r->buf, r->len, r->offset);
	} else {
		io_uring_prep_read(sqe, e->fd, r->buf, r->len, r->offset);
	}
	io_uring_sqe_set_data(sqe, r);
	e->pending[e->queued++] = r;
	return 0;
}

/**
 * ioengine_reap() - submit what is queued and collect finished requests
 * @e:    the engine
 * @done: receives up to @max finished requests, res set
 * @max:  size of @done
 * @wait: block until at least one has finished (if any is in flight)
 *
 * Return: the number in @done, or a negative errno of io_uring itself
 * (never of a request: those are in res).
 */
int ioengine_reap(struct ioengine *e, struct ioengine_req **done,
		  unsigned int max, bool wait)
{
	struct io_uring_cqe *cqe;
	unsigned int n = 0, head;
	uint64_t now;
	int ret;

	if (e->kind == IOENGINE_SYNC) {
		while (n < max && e->done_n) {
			done[n++] = e->done[e->done_head];
			e->done_head = (e->done_head + 1) % e->qd;
			e->done_n--;
		}
		return (int)n;
	}

	if (e->queued || (wait && e->inflight)) {
		/* what the submission takes counts as latency, as in fio */
		now = ioengine_now_ns();
		for (head = 0; head < e->queued; head++)
			e->pending[head]->submit_ns = now;
		do {
			ret = io_uring_submit_and_wait(&e->ring,
					wait && (e->queued || e->inflight));
		} while (ret == -EINTR);
		if (ret < 0)
			return ret;
		e->inflight += (unsigned int)ret;
		e->queued -= (unsigned int)ret;
		/* rarely some stay queued (a full ring): first in line next */
		memmove(e->pending, e->pending + ret,
			e->queued * sizeof(*e->pending));
	} else if (e->inflight) {
		/* deferred completions are posted only when asked for */
		ret = io_uring_get_events(&e->ring);
		if (ret < 0 && ret != -EINTR && ret != -EAGAIN)
			return ret;
	}
	io_uring_for_each_cqe(&e->ring, head, cqe) {
		struct ioengine_req *r = io_uring_cqe_get_data(cqe);

		if (n == max)
			break;
		r->res = cqe->res;
		n++;
		done[n - 1] = r;
	}
	io_uring_cq_advance(&e->ring, n);
	e->inflight -= n;

	/* Short transfers: rare (a signal, the end of a file); finish them
	 * here so the caller only sees whole blocks or errors. */
	now = ioengine_now_ns();
	for (head = 0; head < n; head++) {
		struct ioengine_req *r = done[head];

		if (r->res >= 0 && (uint32_t)r->res < r->len) {
			r->res = ioengine_finish(e->fd, r, (size_t)r->res);
			r->done_ns = ioengine_now_ns();
		} else {
			r->done_ns = now;
		}
	}
	return (int)n;
}

/* Only with nothing in flight: the caller drains first. */
int ioengine_fsync(struct ioengine *e)
{
	return fsync(e->fd) ? -errno : 0;
}
