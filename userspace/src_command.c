// SPDX-License-Identifier: GPL-2.0-only
/*
 * src_command.c - markers from the command under "usbtrail record": the
 * recorder hands it a pipe as USBTRAIL_TRACE_MARKER, where "usbtrail
 * stress" writes its phases and errors (one line each) as it would to the
 * kernel's trace_marker; each line becomes an EV_MARKER event.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record.h"

struct src_command {
	char line[1024];
	size_t len;
	bool overlong;
};

static void src_command_line(struct rec_source *s, struct rec *r,
			     const char *line, size_t len)
{
	struct ev *ev = ev_new(EV_MARKER, EV_SRC_COMMAND, ev_clock_now());

	if (!ev) {
		rec_emit(r, NULL);
		return;
	}
	ev->u.marker.kind = EV_MARKER_STRESS;
	snprintf(ev->u.marker.text, sizeof(ev->u.marker.text), "%.*s",
		 (int)len, line);
	s->events++;
	rec_emit(r, ev);
}

static int src_command_read(struct rec_source *s, struct rec *r)
{
	struct src_command *c = s->priv;
	char buf[4096];
	ssize_t n;
	size_t i;

	n = read(s->fd, buf, sizeof(buf));
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -errno;
	if (!n) {			/* the command closed it */
		rec_source_done(r, s);
		return 0;
	}
	for (i = 0; i < (size_t)n; i++) {
		if (buf[i] == '\n') {
			if (c->overlong)
				s->malformed++;
			else
				src_command_line(s, r, c->line, c->len);
			c->len = 0;
			c->overlong = false;
		} else if (c->len < sizeof(c->line)) {
			c->line[c->len++] = buf[i];
		} else {
			c->overlong = true;
		}
	}
	return 0;
}

static void src_command_close(struct rec_source *s, struct rec *r)
{
	struct src_command *c = s->priv;

	if (c && c->len && !c->overlong)
		src_command_line(s, r, c->line, c->len);
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	free(c);
	s->priv = NULL;
}

int src_command_open(struct rec_source *s, struct rec *r, int fd)
{
	(void)r;
	memset(s, 0, sizeof(*s));
	s->priv = calloc(1, sizeof(struct src_command));
	if (!s->priv)
		return -ENOMEM;
	s->name = "command";
	s->id = EV_SRC_COMMAND;
	s->fd = fd;
	s->read = src_command_read;
	s->close = src_command_close;
	return 0;
}
