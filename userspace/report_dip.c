// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_dip.c - a throughput dip explained in words: what the recording
 * holds inside the dip and just before it (timeouts, aborts, resets,
 * commands that failed or took long, xHCI completion codes, kernel lines,
 * or nothing at all) and the verdict that follows.  One function for
 * report.txt, report.html and "usbtrail analyze DIR", so all three say
 * the same.  Times are given from the dip's start: the three show the
 * dip's own time each on its clock.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "timeline.h"

/* The window looked at: the dip, a little before and after it. */
#define REPORT_DIP_BEFORE_S	2.0	/* what set it off */
#define REPORT_DIP_AFTER_S	1.0	/* a recovery logged as it ends */

/* seconds of t_ns from the dip's start */
static double report_dip_off(const struct ev *dip, uint64_t t_ns)
{
	return ((double)t_ns - (double)dip->t_ns) / 1e9;
}

static bool report_dip_inside(const struct ev *dip, uint64_t t_ns)
{
	double o = report_dip_off(dip, t_ns);

	return o >= -REPORT_DIP_BEFORE_S &&
	       o <= dip->u.incident.dip_secs + REPORT_DIP_AFTER_S;
}

/* "2.9 s into the dip", "0.4 s before it", "0.2 s after it" */
static const char *report_dip_when(const struct ev *dip, double off,
				   char *buf, size_t len)
{
	double secs = dip->u.incident.dip_secs;

	if (off < 0)
		snprintf(buf, len, "%.1f s before the dip", -off);
	else if (off > secs - 0.5 && off < secs + 0.5)
		snprintf(buf, len, "as the dip ended, %.1f s in", off);
	else if (off > secs)
		snprintf(buf, len, "%.1f s after the dip ended",
			 off - dip->u.incident.dip_secs);
	else
		snprintf(buf, len, "%.1f s into the dip", off);
	return buf;
}

static bool report_dip_word(const char *text, const char *word,
			    bool digits_after)
{
	size_t n = strlen(word);
	const char *p = text;

	if (!n)
		return false;
	while ((p = strstr(p, word))) {
		char b = p > text ? p[-1] : ' ', a = p[n];

		if (!(b >= 'a' && b <= 'z') && !(b >= '0' && b <= '9') &&
		    !(a >= 'a' && a <= 'z') && a != '.' && a != '-' &&
		    (digits_after || !(a >= '0' && a <= '9')))
			return true;
		p += n;
	}
	return false;
}

/* a kernel line that names the disk, its USB device or SCSI host */
static bool report_dip_about(const struct report_dip_facts *f,
			     const struct ev *dip, const char *text)
{
	char usb[64];

	/* sda, sda1: the disk or one of its partitions */
	if (report_dip_word(text, dip->ident.disk, true))
		return true;
	snprintf(usb, sizeof(usb), "usb %s", dip->ident.usb);
	if (dip->ident.usb[0] && report_dip_word(text, usb, false))
		return true;
	return (f->scsi[0] && report_dip_word(text, f->scsi, false)) ||
	       (f->host[0] && report_dip_word(text, f->host, false));
}

/* an outcome seen: the time of its first */
static void report_dip_first(bool *seen, double *t, double off)
{
	if (!*seen)
		*t = off;
	*seen = true;
}

static void report_dip_incidents(const struct recording *r,
				 const struct ev *dip,
				 struct report_dip_facts *f)
{
	size_t i;

	for (i = 0; i < r->nevs; i++) {
		const struct ev *ev = &r->evs[i];
		const struct classify_incident *c = &ev->u.incident.inc;
		double off = report_dip_off(dip, ev->t_ns);

		if (ev->type != EV_INCIDENT || ev == dip ||
		    !report_dip_inside(dip, ev->t_ns) ||
		    (ev->ident.disk[0] && strcmp(ev->ident.disk,
						 dip->ident.disk)))
			continue;
		switch (c->kind) {
		case CLASSIFY_TIMEOUT:
			f->inc_timeouts += c->count > 0 ? (unsigned int)c->count :
					   1;
			if (f->t_timeout > off || !f->any_timeout)
				f->t_timeout = off;
			f->any_timeout = true;
			break;
		case CLASSIFY_ABORT:
			f->aborts++;
			break;
		case CLASSIFY_RESET:
			f->resets++;
			break;
		case CLASSIFY_RECOVERED:
			report_dip_first(&f->recovered, &f->t_recovered, off);
			break;
		case CLASSIFY_OFFLINE:
		case CLASSIFY_RESET_FAILED:
			report_dip_first(&f->offline, &f->t_offline, off);
			break;
		case CLASSIFY_DISCONNECT:
			report_dip_first(&f->disconnect, &f->t_disconnect, off);
			break;
		case CLASSIFY_HC_DIED:
			f->hc_died = true;
			break;
		case CLASSIFY_SENSE:
			if (!f->sense++)
				report_sense_text(ev, f->sense_text,
						  sizeof(f->sense_text));
			break;
		case CLASSIFY_IO_ERROR:
			f->io_errors++;
			break;
		case CLASSIFY_DIP:
		case CLASSIFY_SUPPRESSED:	/* the log's, not the disk's */
		case CLASSIFY_KIND_COUNT:
			break;
		case CLASSIFY_ENUM_FAILURE:
		case CLASSIFY_UAS_IGNORED:
		case CLASSIFY_OVER_CURRENT:
		case CLASSIFY_XHCI_ERROR:
		case CLASSIFY_FS_ERROR:
		case CLASSIFY_LINK_ERROR:
		case CLASSIFY_POWER:
			f->other++;
			if (!f->other_kind[0])
				snprintf(f->other_kind, sizeof(f->other_kind),
					 "%s", classify_kind_name(c->kind));
			break;
		}
	}
}

/* The disk's scsi-timeout and eh records, its xHCI events in the window */
static void report_dip_traces(const struct recording *r, const struct ev *dip,
			      struct report_dip_facts *f)
{
	unsigned int eh_aborts = 0, eh_resets = 0;
	size_t i;

	for (i = 0; i < r->ntraces; i++) {
		const struct recording_trace *tr = &r->traces[i];
		const struct usbtrail_record *rec = &tr->rec;
		unsigned int k;

		if (rec->type == USBTRAIL_REC_XHCI_TRANSFER)
			f->have_xhci = true;
		if (timeline_rec_disk(rec, dip->ident.disk) && !f->scsi[0] &&
		    rec->type == USBTRAIL_REC_SCSI_START) {
			snprintf(f->scsi, sizeof(f->scsi), "%u:%u:%u:%u",
				 rec->u.scsi.host, rec->u.scsi.channel,
				 rec->u.scsi.id, rec->u.scsi.lun);
			snprintf(f->host, sizeof(f->host), "host%u",
				 rec->u.scsi.host);
		}
		if (!report_dip_inside(dip, tr->t_ns))
			continue;
		if (rec->type == USBTRAIL_REC_XHCI_TRANSFER) {
			for (k = 0; k < r->neps; k++) {
				const struct recording_ep *e = &r->eps[k];

				if (e->busnum == rec->u.xhci.busnum &&
				    e->devnum == rec->u.xhci.devnum &&
				    e->dci == rec->u.xhci.ep &&
				    e->epaddr == rec->u.xhci.epaddr)
					break;
			}
			if (k == r->neps || strcmp(r->eps[k].disk,
						   dip->ident.disk))
				continue;
			if (!recording_cc_normal(rec->u.xhci.cc)) {
				f->cc_count[rec->u.xhci.cc]++;
				f->cc_errors++;
			} else if (rec->u.xhci.cc != 1 &&
				   rec->u.xhci.cc != 13) {
				f->cc_stopped++;
			}
			continue;
		}
		if (!timeline_rec_disk(rec, dip->ident.disk))
			continue;
		if (rec->type == USBTRAIL_REC_SCSI_TIMEOUT) {
			double off = report_dip_off(dip, tr->t_ns);

			if (!f->scsi_timeouts++ && (!f->any_timeout ||
						    off < f->t_timeout))
				f->t_timeout = off;
			f->any_timeout = true;
		} else if (rec->type == USBTRAIL_REC_EH_START) {
			if (rec->u.eh.kind == USBTRAIL_EH_ABORT)
				eh_aborts++;
			else
				eh_resets++;
		}
	}
	/* the log and the trace see the same steps; either may miss some */
	if (eh_aborts > f->aborts)
		f->aborts = eh_aborts;
	if (eh_resets > f->resets)
		f->resets = eh_resets;
	for (i = 0; i < 256; i++)
		if (f->cc_count[i] > f->cc_count[f->cc_top])
			f->cc_top = (unsigned int)i;
}

static int report_dip_commands(const struct recording *r,
			       const struct ev *dip,
			       struct report_dip_facts *f)
{
	struct timeline_cmds c;
	uint64_t end = timeline_dip_end_ns(dip);
	size_t i;
	int err;

	err = timeline_cmds_load(r, dip->ident.disk, &c);
	if (err)
		return err;
	f->have_scsi = c.have_scsi;
	f->p99_normal = timeline_p99_normal(r, dip->ident.disk, &c);
	for (i = 0; i < c.n; i++) {
		const struct timeline_cmd *cmd = &c.cmd[i];
		double l = timeline_cmd_latency(cmd);

		/* at the device during the dip, not done in it: held */
		if (cmd->t_start_ns && cmd->t_start_ns < end &&
		    (!cmd->done || cmd->t_end_ns > end) &&
		    (!cmd->t_end_ns || cmd->t_end_ns > dip->t_ns))
			f->held++;
		if (l < 0 || cmd->t_end_ns < dip->t_ns || cmd->t_end_ns > end)
			continue;
		f->cmds_done++;
		if (cmd->result)
			f->cmds_failed++;
		if (l > f->lat_max)
			f->lat_max = l;
		if (f->p99_normal > 0 && l > f->p99_normal)
			f->slow++;
	}
	timeline_cmds_free(&c);
	return 0;
}

static void report_dip_klog(const struct recording *r, const struct ev *dip,
			    struct report_dip_facts *f)
{
	size_t i;

	for (i = 0; i < r->nevs; i++) {
		const struct ev *ev = &r->evs[i];
		bool about;

		/* usbmon's packets are not looked at: their loss is not */
		if (ev->type == EV_LOST && ev->u.lost.source != EV_SRC_USBMON &&
		    report_dip_inside(dip, ev->t_ns))
			f->lost += ev->u.lost.count;
		if (ev->type != EV_KLOG || !report_dip_inside(dip, ev->t_ns))
			continue;
		about = report_dip_about(f, dip, ev->u.klog.text);
		f->klog++;
		f->klog_about += about;
		f->klog_err += ev->u.klog.level >= 0 && ev->u.klog.level <= 3;
		if (about && !f->klog_first[0]) {
			size_t n = strlen(ev->u.klog.text);

			while (n && ev->u.klog.text[n - 1] == ' ')
				n--;
			snprintf(f->klog_first, sizeof(f->klog_first), "%.*s",
				 (int)n, ev->u.klog.text);
		}
	}
}

int report_dip_facts(const struct recording *r, const struct ev *dip,
		     struct report_dip_facts *f)
{
	memset(f, 0, sizeof(*f));
	f->p99_normal = -1;
	f->lat_max = -1;
	if (dip->type != EV_INCIDENT ||
	    dip->u.incident.inc.kind != CLASSIFY_DIP)
		return -EINVAL;
	report_dip_incidents(r, dip, f);
	report_dip_traces(r, dip, f);
	report_dip_klog(r, dip, f);
	return report_dip_commands(r, dip, f);
}

/* appends to a buffer, never past its end */
struct report_dip_out {
	char *buf;
	size_t len, off;
};

static void report_dip_put(struct report_dip_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void report_dip_put(struct report_dip_out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->off >= o->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->off, o->len - o->off, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	o->off += (size_t)n;
	if (o->off >= o->len)
		o->off = o->len - 1;
}

/* "1.2 ms", "15.1 s" */
static const char *report_dip_secs(double s, char *buf, size_t len)
{
	if (s < 1)
		snprintf(buf, len, "%.3g ms", s * 1e3);
	else
		snprintf(buf, len, "%.1f s", s);
	return buf;
}

static unsigned int report_dip_timeouts(const struct report_dip_facts *f)
{
	return f->scsi_timeouts > f->inc_timeouts ? f->scsi_timeouts :
	       f->inc_timeouts;
}

#define REPORT_DIP_SLOWED "the drive itself slowed: cache full, SMR " \
			  "rewrite or heat"

/* The verdict: the first line. */
static void report_dip_verdict(struct report_dip_out *o, const struct ev *dip,
			       const struct report_dip_facts *f)
{
	unsigned int tmo = report_dip_timeouts(f);
	char w[64], a[32], b[32];

	if (f->hc_died) {
		report_dip_put(o, "the host controller died: every device on "
			       "it was lost");
		return;
	}
	if (tmo) {
		report_dip_put(o, "the device stopped answering: %u command%s "
			       "timed out", tmo, tmo == 1 ? "" : "s");
		if (f->aborts || f->resets)
			report_dip_put(o, ", then %s%s%s", f->aborts ? "abort" :
				       "", f->aborts && f->resets ? " and " :
				       "", f->resets ? "reset" : "");
		if (f->offline)
			report_dip_put(o, "; the disk went offline %s",
				       report_dip_when(dip, f->t_offline, w,
						       sizeof(w)));
		else if (f->disconnect)
			report_dip_put(o, "; the device dropped off the bus %s",
				       report_dip_when(dip, f->t_disconnect, w,
						       sizeof(w)));
		else if (f->recovered)
			report_dip_put(o, "; recovered %s",
				       report_dip_when(dip, f->t_recovered, w,
						       sizeof(w)));
		else
			report_dip_put(o, "; no recovery in the recording");
		return;
	}
	if (f->disconnect) {
		report_dip_put(o, "the device dropped off the bus %s",
			       report_dip_when(dip, f->t_disconnect, w,
					       sizeof(w)));
		return;
	}
	if (f->offline) {
		report_dip_put(o, "the kernel gave up on the disk: offline %s",
			       report_dip_when(dip, f->t_offline, w,
					       sizeof(w)));
		return;
	}
	if (f->resets) {
		report_dip_put(o, "the device was reset (%u reset%s) without a "
			       "command timing out%s", f->resets,
			       f->resets == 1 ? "" : "s", f->recovered ?
			       "; it recovered" : "");
		return;
	}
	if (f->cc_errors) {
		report_dip_put(o, "transfers failed on the bus: %" PRIu64
			       " error completion%s, mostly %s (%s)",
			       f->cc_errors, f->cc_errors == 1 ? "" : "s",
			       recording_cc_name(f->cc_top),
			       recording_cc_meaning(f->cc_top));
		return;
	}
	if (f->sense || f->io_errors || f->cmds_failed) {
		report_dip_put(o, "the device answered with errors");
		if (f->sense_text[0])
			report_dip_put(o, ": sense %s", f->sense_text);
		else if (f->cmds_failed)
			report_dip_put(o, ": %u command%s failed",
				       f->cmds_failed,
				       f->cmds_failed == 1 ? "" : "s");
		else
			report_dip_put(o, ": %u I/O error%s", f->io_errors,
				       f->io_errors == 1 ? "" : "s");
		return;
	}
	if (f->recovered && f->t_recovered < 0) {
		report_dip_put(o, "no error in it, but it follows a recovery %s: "
			       "the disk coming back after the error handler",
			       report_dip_when(dip, f->t_recovered, w,
					       sizeof(w)));
		return;
	}
	if (f->other) {
		report_dip_put(o, "a %s incident falls in it; no timeout, "
			       "reset or failed command", f->other_kind);
		return;
	}
	if (!f->have_scsi && !f->have_xhci) {
		report_dip_put(o, "no error in the kernel log (this recording "
			       "has no SCSI or xHCI records to check): "
			       REPORT_DIP_SLOWED);
		return;
	}
	if (f->slow)
		report_dip_put(o, "no error anywhere, but commands took up to "
			       "%s against a normal p99 of %s: "
			       REPORT_DIP_SLOWED,
			       report_dip_secs(f->lat_max, a, sizeof(a)),
			       report_dip_secs(f->p99_normal, b, sizeof(b)));
	else
		report_dip_put(o, "no error anywhere: " REPORT_DIP_SLOWED);
}

/* What was found, a line each after the verdict. */
static void report_dip_findings(struct report_dip_out *o, const struct ev *dip,
				const struct report_dip_facts *f)
{
	unsigned int tmo = report_dip_timeouts(f);
	char w[64], a[32], b[32];

	report_dip_put(o, "\nlooked at: the dip's %.1f s and the %.0f s before "
		       "it", dip->u.incident.dip_secs, REPORT_DIP_BEFORE_S);
	report_dip_put(o, "\nSCSI error handling: ");
	if (!tmo && !f->aborts && !f->resets && !f->recovered &&
	    !f->offline)
		report_dip_put(o, "no timeout, abort or reset");
	if (tmo)
		report_dip_put(o, "%u command%s timed out (the first %s)", tmo,
			       tmo == 1 ? "" : "s",
			       report_dip_when(dip, f->t_timeout, w,
					       sizeof(w)));
	if (f->aborts)
		report_dip_put(o, "%s%u abort%s", tmo ? ", " : "", f->aborts,
			       f->aborts == 1 ? "" : "s");
	if (f->resets)
		report_dip_put(o, "%s%u reset%s", tmo || f->aborts ? ", " : "",
			       f->resets, f->resets == 1 ? "" : "s");
	if (f->recovered)
		report_dip_put(o, "%srecovered %s", tmo || f->aborts ||
			       f->resets ? ", " : "",
			       report_dip_when(dip, f->t_recovered, w,
					       sizeof(w)));
	if (f->offline)
		report_dip_put(o, "%soffline %s", tmo || f->aborts ||
			       f->resets || f->recovered ? ", " : "",
			       report_dip_when(dip, f->t_offline, w,
					       sizeof(w)));
	if (!f->have_scsi) {
		report_dip_put(o, "\ncommands: no SCSI command records in this "
			       "recording (record with the module or "
			       "tracefs)");
	} else {
		report_dip_put(o, "\ncommands: %u completed in it",
			       f->cmds_done);
		if (f->cmds_done)
			report_dip_put(o, ", the slowest in %s",
				       report_dip_secs(f->lat_max, a,
						       sizeof(a)));
		if (f->cmds_failed)
			report_dip_put(o, ", %u with an error result",
				       f->cmds_failed);
		if (f->p99_normal > 0)
			report_dip_put(o, " (p99 outside dips %s%s)",
				       report_dip_secs(f->p99_normal, b,
						       sizeof(b)),
				       f->slow ? "" : ": none slower");
		if (f->slow)
			report_dip_put(o, "; %u above it", f->slow);
		if (f->held)
			report_dip_put(o, "; %u held at the device without "
				       "completing in it", f->held);
	}
	if (!f->have_xhci)
		report_dip_put(o, "\nxHCI: no transfer records in this recording "
			       "(record with the module or tracefs)");
	else if (f->cc_errors)
		report_dip_put(o, "\nxHCI: %" PRIu64 " error completion%s, %"
			       PRIu64 " of them %s (code %u)", f->cc_errors,
			       f->cc_errors == 1 ? "" : "s",
			       f->cc_count[f->cc_top],
			       recording_cc_name(f->cc_top), f->cc_top);
	else
		report_dip_put(o, "\nxHCI: no error completion code");
	if (f->have_xhci && f->cc_stopped)
		report_dip_put(o, "; %" PRIu64 " transfer%s stopped (cancelled "
			       "by the driver)", f->cc_stopped,
			       f->cc_stopped == 1 ? "" : "s");
	if (f->sense_text[0])
		report_dip_put(o, "\nsense: %s", f->sense_text);
	report_dip_put(o, "\nkernel: %u line%s, %u naming %s, %u at error "
		       "level", f->klog, f->klog == 1 ? "" : "s", f->klog_about,
		       dip->ident.disk, f->klog_err);
	if (f->klog_first[0])
		report_dip_put(o, "; the first: %s", f->klog_first);
	if (f->lost)
		report_dip_put(o, "\nthe recording lost %" PRIu64 " event%s "
			       "here (trace or kernel log): they are not looked "
			       "at", f->lost, f->lost == 1 ? "" : "s");
}

int report_dip_explain(const struct recording *r, const struct ev *dip,
		       char *buf, size_t len)
{
	struct report_dip_facts *f = malloc(sizeof(*f));
	struct report_dip_out o = { buf, len, 0 };
	int err;

	if (!len)
		return -EINVAL;
	buf[0] = '\0';
	if (!f)
		return -ENOMEM;
	err = report_dip_facts(r, dip, f);
	if (!err) {
		report_dip_verdict(&o, dip, f);
		report_dip_findings(&o, dip, f);
	}
	free(f);
	return err;
}

/* room for the verdict and every line, the kernel line cut at its max */
#define REPORT_DIP_TEXT_MAX	(CLASSIFY_LINE_MAX + 2048)

int report_dip_print(FILE *f, const struct recording *r, const struct ev *dip,
		     const char *indent)
{
	char *buf = malloc(REPORT_DIP_TEXT_MAX), *line, *save = NULL;
	bool first = true;
	int err;

	if (!buf)
		return -ENOMEM;
	err = report_dip_explain(r, dip, buf, REPORT_DIP_TEXT_MAX);
	for (line = err ? NULL : strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		fprintf(f, "%s%s%s\n", indent, first ? "why: " : "  ", line);
		first = false;
	}
	free(buf);
	return err;
}
