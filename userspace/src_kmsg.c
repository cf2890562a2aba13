// SPDX-License-Identifier: GPL-2.0-only
/*
 * src_kmsg.c - the recorder's source for the kernel log: /dev/kmsg from
 * the moment recording starts, one EV_KLOG event per message.
 *
 * Each read() of /dev/kmsg returns one record, "LEVEL,SEQ,USEC,FLAGS;MSG"
 * (Documentation/ABI/testing/dev-kmsg), parsed by kmsg.c.  USEC is
 * local_clock(), which is close to CLOCK_MONOTONIC but not the same clock
 * (on a virtual machine it was seen tens of milliseconds off within
 * seconds of boot).  So the offset to the recorder's CLOCK_BOOTTIME is
 * measured on the kernel log itself: at the start, a debug-level line is
 * written to /dev/kmsg between two CLOCK_BOOTTIME readings and read back
 * with the kernel's time stamp.  Without write access, the offset between
 * CLOCK_MONOTONIC and CLOCK_BOOTTIME stands in.  A gap in
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

/*
 * Lines read before the sync line, all kept and emitted: reading on for
 * it must not lose the kernel's own lines.
 */
#define SRC_KMSG_EARLY	64

struct src_kmsg {
	char buf[8192];		/* the kernel's record limit is 8 KiB */
	int64_t last_seq;	/* -1: none yet */
	uint64_t lost_total;
	int64_t offset_ns;	/* local_clock() -> CLOCK_BOOTTIME */
	char sync[64];		/* our own sync line, skipped */
	int64_t sync_seq;	/* its sequence number, -1 if not read */
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
	if (k->sync[0] && kr.msg_len == strlen(k->sync) &&
	    !memcmp(kr.msg, k->sync, kr.msg_len)) {
		k->last_seq = kr.seq;
		return;		/* our own line (a late one: already used) */
	}
	if (k->last_seq >= 0 && kr.seq > k->last_seq + 1)
		src_kmsg_lost(s, r, (uint64_t)(kr.seq - k->last_seq - 1),
			      "kernel log overwritten before it was read");
	k->last_seq = kr.seq;
	t = (int64_t)(kr.t * 1e9 + 0.5) + k->offset_ns;
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

/*
 * Write the sync line and read it back: its kernel time against the
 * middle of the two CLOCK_BOOTTIME readings around the write.  Records
 * that came first are kept in early[] to be emitted with the new offset.
 */
static void src_kmsg_sync(struct src_kmsg *k, int fd, char (*early)[1024],
			  size_t *early_len, unsigned int *nearly)
{
	struct kmsg_record kr;
	uint64_t b0, b1;
	char line[96];
	unsigned int i;
	ssize_t n;
	size_t m;
	int wfd;

	wfd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (wfd < 0)
		return;
	snprintf(k->sync, sizeof(k->sync), "usbtrail[%d]: clock sync",
		 (int)getpid());
	n = snprintf(line, sizeof(line), "<7>%s\n", k->sync);
	b0 = ev_clock_now();
	if (write(wfd, line, (size_t)n) != n) {
		close(wfd);
		return;
	}
	b1 = ev_clock_now();
	close(wfd);
	for (i = 0; i < SRC_KMSG_EARLY; i++) {
		n = read(fd, k->buf, sizeof(k->buf));
		if (n < 0 && errno == EPIPE)
			continue;
		if (n <= 0)
			return;		/* EAGAIN: it is not there */
		if (!kmsg_parse_line(k->buf, (size_t)n, &kr) &&
		    kr.format == KMSG_FMT_KMSG &&
		    kr.msg_len >= strlen(k->sync) &&
		    !memcmp(kr.msg, k->sync, strlen(k->sync))) {
			k->offset_ns = (int64_t)(b0 + (b1 - b0) / 2) -
				       (int64_t)(kr.t * 1e9 + 0.5);
			k->sync_seq = kr.seq;
			return;
		}
		/* not ours: kept (cut at a line's limit) for the caller */
		m = (size_t)n < sizeof(early[0]) ? (size_t)n : sizeof(early[0]);
		memcpy(early[*nearly], k->buf, m);
		early_len[(*nearly)++] = m;
	}
	/* what is still unread is read as usual: nothing is dropped */
}

int src_kmsg_open(struct rec_source *s, struct rec *r)
{
	char (*early)[1024];
	size_t early_len[SRC_KMSG_EARLY];
	unsigned int nearly = 0, i;
	struct src_kmsg *k;
	int fd;

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
	k->offset_ns = rec_clock(r)->mono_to_boot_ns;
	k->sync_seq = -1;
	memset(s, 0, sizeof(*s));
	s->name = "kmsg";
	s->id = EV_SRC_KMSG;
	s->fd = fd;
	s->priv = k;
	s->read = src_kmsg_read;
	s->close = rec_source_close_fd;
	early = malloc(SRC_KMSG_EARLY * sizeof(*early));
	if (early) {
		src_kmsg_sync(k, fd, early, early_len, &nearly);
		for (i = 0; i < nearly; i++)
			src_kmsg_line(s, r, early[i], early_len[i]);
		free(early);
	}
	if (k->sync_seq > k->last_seq)
		k->last_seq = k->sync_seq;
	return 0;
}
