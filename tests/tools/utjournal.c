// SPDX-License-Identifier: GPL-2.0-only
/*
 * utjournal: a test tool that sends one sense incident (02/3a/00, Medium
 * not present, as the recorder would classify it) through the journal sink
 * of "usbtrail record", so the test bed can check what a real journald
 * stores without a recording.
 *
 *   utjournal DISK USB-PATH
 *
 * Exit status: 0 sent; 1 the journal refused it; 2 no journald (or usage).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "record.h"

int main(int argc, char **argv)
{
	struct classify_incident *inc;
	struct rec_sink s;
	struct ev *ev;
	int ret;

	if (argc != 3) {
		fprintf(stderr, "usage: utjournal DISK USB-PATH\n");
		return 2;
	}
	ret = sink_journal_open(&s, NULL);
	if (ret) {
		fprintf(stderr, "utjournal: journal: %s\n", strerror(-ret));
		return 2;
	}
	ev = ev_new(EV_INCIDENT, EV_SRC_RECORDER, ev_clock_now());
	if (!ev)
		return 1;
	ev->id = 1;
	snprintf(ev->ident.disk, sizeof(ev->ident.disk), "%s", argv[1]);
	snprintf(ev->ident.usb, sizeof(ev->ident.usb), "%s", argv[2]);
	inc = &ev->u.incident.inc;
	inc->kind = CLASSIFY_SENSE;
	snprintf(inc->dev, sizeof(inc->dev), "%s", argv[1]);
	inc->key = 2;
	inc->asc = 0x3a;
	inc->ascq = 0;
	inc->key_text = classify_sense_key_text(2);
	snprintf(inc->asc_text, sizeof(inc->asc_text), "Medium not present");
	inc->sector = -1;
	snprintf(inc->line, sizeof(inc->line),
		 "[%s] tag#0 Add. Sense: Medium not present", argv[1]);
	ret = s.event(&s, ev);
	ev_free(ev);
	if (ret || s.failed) {
		fprintf(stderr, "utjournal: the journal refused the entry\n");
		s.close(&s);
		return 1;
	}
	s.close(&s);
	printf("utjournal: sent\n");
	return 0;
}
