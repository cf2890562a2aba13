// SPDX-License-Identifier: GPL-2.0-only
/*
 * sink_jsonl.c - the recorder's events.jsonl: one JSON object per event
 * and line (evjson.c; schema in docs/formats.md).  The high-rate events
 * (trace records, usbmon URBs) go to capture.pcapng unless the sink was
 * opened with SINK_JSONL_ALL: "usbtrail export --jsonl" makes their lines
 * again for scripts.
 *
 * Lines are gathered in a buffer and written whole, on every tick's worth
 * of events and at the end, so the file always ends with a complete line:
 * if a write() fails or falls short (a full disk), the file is cut back to
 * the last complete line and the error goes to the recorder, which stops.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evjson.h"
#include "owner.h"
#include "record.h"

#define SINK_JSONL_BUF		(256 * 1024)
#define SINK_JSONL_FLUSH_NS	200000000ull	/* at most this stale */

struct sink_jsonl {
	int fd;
	struct evjson_writer *w;
	char *buf;
	size_t len;
	off_t good;		/* file size up to the last whole line */
	uint64_t flushed_ns;
	bool all;		/* SINK_JSONL_ALL */
};

static int sink_jsonl_flush(struct sink_jsonl *j)
{
	size_t off = 0;
	ssize_t n;
	int ret;

	while (off < j->len) {
		n = write(j->fd, j->buf + off, j->len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -errno : -ENOSPC;
			/* keep every whole line that made it, no half line */
			while (off && j->buf[off - 1] != '\n')
				off--;
			j->good += (off_t)off;
			if (ftruncate(j->fd, j->good) == 0)
				lseek(j->fd, j->good, SEEK_SET);
			j->len = 0;
			return ret;
		}
		off += (size_t)n;
	}
	j->good += (off_t)j->len;
	j->len = 0;
	return 0;
}

static int sink_jsonl_event(struct rec_sink *s, const struct ev *ev)
{
	struct sink_jsonl *j = s->priv;
	const char *line;
	size_t n;
	int ret;

	if (!j->all && (ev->type == EV_TRACE || ev->type == EV_USBMON))
		return 1;	/* capture.pcapng's */
	ret = evjson_writer_line(j->w, ev, &line, &n);
	if (ret)
		return ret;
	if (j->len + n + 1 > SINK_JSONL_BUF) {
		ret = sink_jsonl_flush(j);
		if (ret)
			return ret;
	}
	if (n + 1 > SINK_JSONL_BUF)	/* cannot happen: lines are bounded */
		return -EMSGSIZE;
	memcpy(j->buf + j->len, line, n);
	j->buf[j->len + n] = '\n';
	j->len += n + 1;
	if (ev->t_ns >= j->flushed_ns + SINK_JSONL_FLUSH_NS ||
	    ev->type == EV_INCIDENT) {
		j->flushed_ns = ev->t_ns;
		return sink_jsonl_flush(j);
	}
	return 0;
}

static int sink_jsonl_close(struct rec_sink *s)
{
	struct sink_jsonl *j = s->priv;
	int ret, ret2;

	if (!j)
		return 0;
	ret = sink_jsonl_flush(j);
	ret2 = close(j->fd) ? -errno : 0;
	evjson_writer_free(j->w);
	free(j->buf);
	free(j);
	s->priv = NULL;
	return ret ? ret : ret2;
}

int sink_jsonl_open(struct rec_sink *s, const char *path, unsigned int flags)
{
	struct sink_jsonl *j;
	int fd;

	/* never over an earlier recording; the user's under sudo (owner.h) */
	fd = owner_open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0)
		return fd;
	j = calloc(1, sizeof(*j));
	if (j) {
		j->buf = malloc(SINK_JSONL_BUF);
		j->w = evjson_writer_new();
	}
	if (!j || !j->buf || !j->w) {
		if (j) {
			free(j->buf);
			evjson_writer_free(j->w);
		}
		free(j);
		close(fd);
		unlink(path);
		return -ENOMEM;
	}
	j->fd = fd;
	j->all = flags & SINK_JSONL_ALL;
	memset(s, 0, sizeof(*s));
	s->name = "jsonl";
	s->event = sink_jsonl_event;
	s->close = sink_jsonl_close;
	s->priv = j;
	snprintf(s->path, sizeof(s->path), "%s", path);
	return 0;
}
