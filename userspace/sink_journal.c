// SPDX-License-Identifier: GPL-2.0-only
/*
 * sink_journal.c - the journal sink of "usbtrail record": one systemd
 * journal entry per incident, with the USBTRAIL_* fields of
 * ev_incident_fields() (event.c), so "journalctl USBTRAIL_KIND=reset" finds
 * them and journal-upload/-remote carry them to a fleet's log server.
 *
 * Only EV_INCIDENT events are sent; the raw events stay in the recording.
 * The journal is a courtesy copy: when journald is absent open() says
 * -ENOENT and the recorder runs without this sink, and when a send fails it
 * is counted (reported by close()) and the recording goes on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

/*
 * Without this sd-journal.h turns sd_journal_sendv() into its _with_location
 * form, which adds CODE_FILE/CODE_LINE/CODE_FUNC of this file: they would
 * name the sink, not anything about the incident.
 */
#define SD_JOURNAL_SUPPRESS_LOCATION
#include <systemd/sd-journal.h>

#include "record.h"

/* Where sd_journal_sendv() writes (sd-journal's own default). */
#define SINK_JOURNAL_SOCKET	"/run/systemd/journal/socket"
/* The fields every entry carries besides ev_incident_fields()'s. */
#define SINK_JOURNAL_EXTRA	2
#define SINK_JOURNAL_IOV_MAX	(EV_FIELDS_MAX + SINK_JOURNAL_EXTRA)
/* Field values (8 KiB: a kernel line is at most CLASSIFY_LINE_MAX). */
#define SINK_JOURNAL_BUF	8192

struct sink_journal {
	uint64_t failed;		/* entries sd_journal_sendv() refused */
	uint64_t skipped;		/* incidents that did not fit the buffer */
	int first_err;			/* -errno of the first refusal */
	char values[SINK_JOURNAL_BUF];	/* ev_incident_fields() values */
	char lines[SINK_JOURNAL_BUF + 64 * SINK_JOURNAL_IOV_MAX];
};

/*
 * Build "NAME=VALUE" for each field in p->lines and point iov at them.
 *
 * Return: the number of iovecs, or -ENOSPC.
 */
static int sink_journal_iov(struct sink_journal *p, const struct ev *ev,
			    struct iovec *iov)
{
	struct ev_field f[EV_FIELDS_MAX + SINK_JOURNAL_EXTRA];
	size_t off = 0;
	int n, i;

	n = ev_incident_fields(ev, f, EV_FIELDS_MAX, p->values,
			       sizeof(p->values));
	if (n < 0)
		return n;
	f[n].name = "SYSLOG_IDENTIFIER";
	f[n++].value = "usbtrail";
	f[n].name = "USBTRAIL_EVENT_ID";
	f[n++].value = NULL;		/* formatted below */

	for (i = 0; i < n; i++) {
		size_t room = sizeof(p->lines) - off;
		int len;

		if (f[i].value)
			len = snprintf(p->lines + off, room, "%s=%s",
				       f[i].name, f[i].value);
		else
			len = snprintf(p->lines + off, room, "%s=%llu",
				       f[i].name, (unsigned long long)ev->id);
		if (len < 0 || (size_t)len >= room)
			return -ENOSPC;
		iov[i].iov_base = p->lines + off;
		iov[i].iov_len = (size_t)len;
		off += (size_t)len + 1;
	}
	return n;
}

static int sink_journal_event(struct rec_sink *s, const struct ev *ev)
{
	struct sink_journal *p = s->priv;
	struct iovec iov[SINK_JOURNAL_IOV_MAX];
	int n, ret;

	if (ev->type != EV_INCIDENT)
		return 0;
	n = sink_journal_iov(p, ev, iov);
	if (n < 0) {
		p->skipped++;
		return 0;
	}
	ret = sd_journal_sendv(iov, n);
	if (ret < 0) {
		if (!p->failed)
			p->first_err = ret;
		p->failed++;
		return 0;
	}
	s->written++;
	return 0;
}

/*
 * Return: 0, or the -errno of the first entry the journal refused, so the
 * recorder can say that some incidents are missing from the journal (they
 * are in the recording all the same).
 */
static int sink_journal_close(struct rec_sink *s)
{
	struct sink_journal *p = s->priv;
	int ret = 0;

	if (!p)
		return 0;
	if (p->failed)
		ret = p->first_err;
	else if (p->skipped)
		ret = -ENOSPC;
	free(p);
	s->priv = NULL;
	return ret;
}

int sink_journal_open(struct rec_sink *s)
{
	struct sink_journal *p;

	/*
	 * sd_journal_sendv() fails on every call without journald (a
	 * container, an initramfs): better to say so once at the start.
	 */
	if (access(SINK_JOURNAL_SOCKET, W_OK))
		return errno == ENOENT ? -ENOENT : -errno;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	memset(s, 0, sizeof(*s));
	s->name = "journal";
	s->event = sink_journal_event;
	s->close = sink_journal_close;
	s->priv = p;
	return 0;
}
