// SPDX-License-Identifier: GPL-2.0-only
/*
 * sink_live.c - the recorder's live view: one line per incident on
 * stdout as it is found, and a note on stderr when a source loses events.
 */
#include <stdio.h>
#include <string.h>

#include "record.h"

static int sink_live_event(struct rec_sink *s, const struct ev *ev)
{
	FILE *out = s->priv;
	char summary[512];

	switch (ev->type) {
	case EV_INCIDENT:
		ev_incident_summary(ev, summary, sizeof(summary));
		fprintf(out, "%12.6f  %s\n", (double)ev->t_ns / 1e9, summary);
		fflush(out);
		break;
	case EV_LOST:
		fprintf(stderr, "usbtrail record: %s lost %llu event%s "
			"(%llu in all): %s\n",
			ev_source_name(ev->u.lost.source),
			(unsigned long long)ev->u.lost.count,
			ev->u.lost.count == 1 ? "" : "s",
			(unsigned long long)ev->u.lost.total, ev->u.lost.why);
		break;
	case EV_DEVICE:
		if (ev->u.device.action == EV_DEVICE_ADD ||
		    ev->u.device.action == EV_DEVICE_REMOVE) {
			fprintf(out, "%12.6f  %s %s (usb %s, %04x:%04x, %s)\n",
				(double)ev->t_ns / 1e9,
				ev->u.device.action == EV_DEVICE_ADD ?
				"plugged:" : "unplugged:",
				ev->ident.disk, ev->ident.usb, ev->u.device.vid,
				ev->u.device.pid, ev->u.device.driver);
			fflush(out);
		}
		break;
	case EV_MARKER:
		if (ev->u.marker.kind == EV_MARKER_KEY) {
			fprintf(out, "%12.6f  marker: %s\n",
				(double)ev->t_ns / 1e9, ev->u.marker.text);
			fflush(out);
		}
		break;
	case EV_TRACE:
	case EV_KLOG:
	case EV_USBMON:
	case EV_SAMPLE:
	case EV_TYPE_MAX:
		break;
	}
	return 0;
}

static int sink_live_close(struct rec_sink *s)
{
	return fflush(s->priv) ? -1 : 0;
}

int sink_live_open(struct rec_sink *s, FILE *out)
{
	memset(s, 0, sizeof(*s));
	s->name = "live";
	s->event = sink_live_event;
	s->close = sink_live_close;
	s->priv = out;
	return 0;
}
