// SPDX-License-Identifier: GPL-2.0-only
/*
 * src_kmsg.c - the recorder's source for the kernel log: /dev/kmsg from
 * the moment recording starts, one EV_KLOG event per message.
 *
 * Each read() of /dev/kmsg returns one record, "LEVEL,SEQ,USEC,FLAGS;MSG"
 * (Documentation/ABI/testing/dev-kmsg), parsed by kmsg.c.  USEC is
 * local_clock(), which runs with CLOCK_MONOTONIC; it is moved onto the
 * recorder's CLOCK_BOOTTIME by the offset measured at the start.  A gap in
 * the sequence numbers (EPIPE: the ring wrapped before we read) is an
 * EV_LOST event; printk's own "callbacks suppressed" lines reach the
 * classifier as they are.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kmsg.h"
#include "record.h"

#define SRC_KMSG_READS	256	/* records per call: let others run */

struct src_kmsg {
	char buf[8192];		/* the kernel's record limit is 8 KiB */
	int64_t last_seq;	/* -1: none yet */
	uint64_t lost_total;
};

static void src_kmsg_lost(struct rec_source *s, struct rec *r, uint64_t n,
			  const char *why)
{
	struct src_kmsg *k = s->priv;
	struct ev *ev = ev_new(EV_LOST, EV_SRC_KMSG, ev_clock_now());

	s->lost += n;
	k->lost_total += n;
	if (!ev)
		return;
	ev->u.lost.source = EV_SRC_KMSG;
	ev->u.lost.count = n;
	ev->u.lost.total = k->lost_total;
	snprintf(ev->u.lost.why, sizeof(ev->u.lost.why), "%s", why);
	rec_emit(r, ev);
}

static void src_kmsg_line(struct rec_source *s, struct rec *r,
			  const char *buf, size_t len)
{
	struct src_kmsg *k = s->priv;
	const char *nl = memchr(buf, '\n', len);
	struct kmsg_record kr;
	struct ev *ev;
	size_t n;
	int64_t t;

	/* the message ends at the first newline; dictionary lines follow */
	if (nl)
		len = (size_t)(nl - buf);
	if (kmsg_parse_line(buf, len, &kr) || kr.format != KMSG_FMT_KMSG) {
		s->malformed++;
		return;
	}
	if (k->last_seq >= 0 && kr.seq > k->last_seq + 1)
		src_kmsg_lost(s, r, (uint64_t)(kr.seq - k->last_seq - 1),
			      "kernel log overwritten before it was read");
	k->last_seq = kr.seq;
	t = (int64_t)(kr.t * 1e9 + 0.5) + rec_clock(r)->mono_to_boot_ns;
	ev = ev_new(EV_KLOG, EV_SRC_KMSG, t > 0 ? (uint64_t)t : 0);
	if (!ev) {
		rec_emit(r, NULL);
		return;
	}
	ev->u.klog.seq = kr.seq;
	ev->u.klog.level = kr.level;
	ev->u.klog.facility = kr.facility;
	n = kr.msg_len < sizeof(ev->u.klog.text) - 1 ? kr.msg_len :
	    sizeof(ev->u.klog.text) - 1;
	memcpy(ev->u.klog.text, kr.msg, n);
	ev->u.klog.text[n] = '\0';
	ev->u.klog.len = (uint32_t)kr.msg_len;
	s->events++;
	rec_emit(r, ev);
}

static int src_kmsg_read(struct rec_source *s, struct rec *r)
{
	struct src_kmsg *k = s->priv;
	unsigned int i;
	ssize_t n;

	for (i = 0; i < SRC_KMSG_READS; i++) {
		n = read(s->fd, k->buf, sizeof(k->buf));
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return 0;
			if (errno == EPIPE)
				continue;	/* counted by the seq gap */
			if (errno == EINVAL) {	/* over 8 KiB: skip it */
				s->malformed++;
				continue;
			}
			return -errno;
		}
		if (!n)
			return 0;
		src_kmsg_line(s, r, k->buf, (size_t)n);
	}
	return 0;
}

static void src_kmsg_close(struct rec_source *s, struct rec *r)
{
	(void)r;
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	free(s->priv);
	s->priv = NULL;
}

int src_kmsg_open(struct rec_source *s, struct rec *r)
{
	struct src_kmsg *k;
	int fd;

	(void)r;
	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* from now on: what happened before is dmesg's, not ours */
	if (lseek(fd, 0, SEEK_END) < 0) {
		int ret = -errno;

		close(fd);
		return ret;
	}
	k = calloc(1, sizeof(*k));
	if (!k) {
		close(fd);
		return -ENOMEM;
	}
	k->last_seq = -1;
	memset(s, 0, sizeof(*s));
	s->name = "kmsg";
	s->id = EV_SRC_KMSG;
	s->fd = fd;
	s->priv = k;
	s->read = src_kmsg_read;
	s->close = src_kmsg_close;
	return 0;
}
