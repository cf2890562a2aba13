// SPDX-License-Identifier: GPL-2.0-only
/*
 * sink_journal.c - the journal sink of "usbtrail record": one systemd
 * journal entry per incident, with the USBTRAIL_* fields of
 * ev_incident_fields() (event.c), so "journalctl USBTRAIL_KIND=reset" finds
 * them and journal-upload/-remote carry them to a fleet's log server.
 *
 * Only EV_INCIDENT events are sent; the raw events stay in the recording.
 * The journal is a copy for the fleet, the recording is the record: when
 * journald is absent open() says -ENOENT and the recorder runs without this
 * sink, and an entry the journal refuses is counted in rec_sink.failed and
 * the recording goes on.
 */
#include <errno.h>
#include <limits.h>
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
#define SINK_JOURNAL_EXTRA	3
#define SINK_JOURNAL_IOV_MAX	(EV_FIELDS_MAX + SINK_JOURNAL_EXTRA)
/* Field values (8 KiB: a kernel line is at most CLASSIFY_LINE_MAX). */
#define SINK_JOURNAL_BUF	8192

struct sink_journal {
	char recording[PATH_MAX];	/* absolute, or "" */
	char values[SINK_JOURNAL_BUF];	/* ev_incident_fields() values */
	char lines[SINK_JOURNAL_BUF + PATH_MAX + 64 * SINK_JOURNAL_IOV_MAX];
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
	if (p->recording[0]) {
		f[n].name = "USBTRAIL_RECORDING";
		f[n++].value = p->recording;
	}

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
	ret = n < 0 ? n : sd_journal_sendv(iov, n);
	if (ret < 0)
		s->failed++;
	return 0;
}

/*
 * Always 0: refused entries are in s->failed, and a journal that went away
 * must not turn a good recording into a failed one.
 */
static int sink_journal_close(struct rec_sink *s)
{
	free(s->priv);
	s->priv = NULL;
	return 0;
}

/* Named absolutely: whoever reads the entry, maybe elsewhere, wants it. */
static void sink_journal_name(struct sink_journal *p, const char *recording)
{
	p->recording[0] = '\0';
	if (recording && !realpath(recording, p->recording))
		snprintf(p->recording, sizeof(p->recording), "%s", recording);
}

void sink_journal_set_recording(struct rec_sink *s, const char *recording)
{
	if (s->priv)
		sink_journal_name(s->priv, recording);
}

int sink_journal_open(struct rec_sink *s, const char *recording)
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
	/* not there (yet): as given */
	sink_journal_name(p, recording);
	memset(s, 0, sizeof(*s));
	s->name = "journal";
	s->event = sink_journal_event;
	s->close = sink_journal_close;
	s->priv = p;
	return 0;
}
