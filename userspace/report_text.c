// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_text.c - report.txt: the same sections as report.html (devices,
 * throughput, incidents with their evidence, completion codes, stress
 * results, what to try), as plain text for a terminal or a mail.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "module_probes.h"
#include "report.h"
#include "util.h"

static void report_text_devices(FILE *f, const struct recording *r,
				const struct report_opts *o)
{
	unsigned int i;

	fprintf(f, "\n== Devices\n");
	if (!r->ndisks)
		fprintf(f, "No USB disk was seen.\n");
	for (i = 0; i < r->ndisks; i++) {
		const struct recording_disk *d = &r->disks[i];
		struct json_object *uas = report_uas(r, d->disk);
		const char *s;
		char serial[80], topo[512], speed[32];

		fprintf(f, "%s: usb %s", d->disk, d->usb[0] ? d->usb : "?");
		if (d->busnum >= 0 && d->devnum >= 0)
			fprintf(f, " (bus %d device %d)", d->busnum, d->devnum);
		if (d->have_device) {
			const struct ev_device *dv = &d->device;

			report_serial(dv->serial, o->keep_serials, serial,
				      sizeof(serial));
			fprintf(f, " %04x:%04x \"%s\", %s%s, driver %s, "
				"host controller %s (%s), serial %s",
				dv->vid, dv->pid, dv->product,
				dv->speed_mbps ? "" : "speed ",
				util_format_speed(speed, sizeof(speed),
						  dv->speed_mbps),
				dv->driver[0] ? dv->driver : "none",
				dv->hcd[0] ? dv->hcd : "?",
				dv->hcd_driver[0] ? dv->hcd_driver : "?",
				serial[0] ? serial : "none");
		}
		fputc('\n', f);
		if (report_topology(r, d->disk, topo, sizeof(topo)))
			fprintf(f, "  topology: %s\n", topo);
		s = report_json_str(uas, "detail", "bridge");
		if (s)
			fprintf(f, "  bridge: %s\n", s);
		s = report_json_str(uas, "reason", NULL);
		if (s)
			fprintf(f, "  UAS verdict: %s: %s\n", s,
				report_json_str(uas, "detail", "why") ?: "");
	}
}

static void report_text_throughput(FILE *f, const struct recording *r)
{
	unsigned int i;
	size_t k;

	fprintf(f, "\n== Throughput (intervals with I/O)\n");
	if (!r->nsamples)
		fprintf(f, "No throughput samples.\n");
	for (i = 0; i < r->ndisks; i++) {
		const struct recording_disk *d = &r->disks[i];
		size_t ndip = 0;

		if (!d->nsamples)
			continue;
		for (k = 0; k < d->nsamples; k++)
			ndip += r->samples[d->first_sample + k].s.dip;
		fprintf(f, "%s: %zu intervals, peak %.1f MB/s, %.1f MB "
			"written, %.1f MB read, %zu intervals in dips\n",
			d->disk, d->nsamples, d->max_mbps,
			(double)d->write_bytes / 1e6,
			(double)d->read_bytes / 1e6, ndip);
	}
}

static void report_text_incident(FILE *f, const struct recording *r,
				 const struct ev *ev, size_t n)
{
	const struct ev_incident *ei = &ev->u.incident;
	const struct classify_incident *c = &ei->inc;
	char buf[1200];
	unsigned int k;
	uint64_t t;

	ev_incident_summary(ev, buf, sizeof(buf));
	fprintf(f, "#%zu  +%.3f s  %s", n, report_rel(r, ev->t_ns), buf);
	if (c->chain)
		fprintf(f, "  [chain %u]", c->chain);
	fputc('\n', f);
	report_sense_text(ev, buf, sizeof(buf));
	if (buf[0])
		fprintf(f, "    sense: %s\n", buf);
	if (ei->sense_len) {
		fprintf(f, "    sense bytes:");
		for (k = 0; k < ei->sense_len; k++)
			fprintf(f, " %02x", ei->sense[k]);
		fputc('\n', f);
	}
	if ((classify_kind_carries(c->kind) & CLASSIFY_C_CODE) && c->code >= 0)
		fprintf(f, "    completion code %d: %s (%s)\n", c->code,
			recording_cc_name((unsigned int)c->code),
			recording_cc_meaning((unsigned int)c->code));
	if (ei->opcode >= 0) {
		fprintf(f, "    command: opcode 0x%02x", ei->opcode);
		if (c->opcode_name[0])
			fprintf(f, " (%s)", c->opcode_name);
		if (ei->lba >= 0)
			fprintf(f, ", lba %" PRId64, ei->lba);
		if (c->blocks > 0)
			fprintf(f, ", %" PRId64 " blocks", c->blocks);
		fputc('\n', f);
	}
	/* what the log added to the command: its request, the data lost */
	if (c->sector >= 0)
		fprintf(f, "    block layer: sector %" PRId64 "%s%s%s%s\n",
			c->sector, c->op[0] ? " " : "", c->op,
			c->blk_status[0] ? ", status " : "", c->blk_status);
	if (c->lost_blocks > 0 && c->part[0])
		fprintf(f, "    data lost: %ld block%s of %s\n", c->lost_blocks,
			c->lost_blocks == 1 ? "" : "s", c->part);
	if (c->suppressed > 0)
		fprintf(f, "    %ld kernel message%s suppressed (rate limit)\n",
			c->suppressed, c->suppressed == 1 ? "" : "s");
	if (classify_kind_carries(c->kind) & CLASSIFY_C_DIP) {
		fprintf(f, "    %.1f MB/s for %.1f s against a median of "
			"%.1f MB/s\n", ei->dip_mbps, ei->dip_secs,
			ei->dip_median_mbps);
		if (c->kind == CLASSIFY_DIP)
			report_dip_print(f, r, ev, "    ");
	}
	if (c->line[0])
		fprintf(f, "    line: %s\n", c->line);
	for (k = 0; k < ei->nevidence; k++) {
		if (recording_describe(r, ei->evidence[k], buf, sizeof(buf),
				       &t) < 0)
			fprintf(f, "    evidence %" PRIu64 ": not in the "
				"recording\n", ei->evidence[k]);
		else
			fprintf(f, "    evidence %" PRIu64 " +%.6f %s\n",
				ei->evidence[k], report_rel(r, t), buf);
	}
}

static void report_text_eps(FILE *f, const struct recording *r)
{
	unsigned int i, cc;

	fprintf(f, "\n== Completion codes per endpoint (xHCI transfer "
		"events)\n");
	if (!r->neps)
		fprintf(f, "No xHCI transfer events (the module was not "
			"loaded, or no transfers).\n");
	for (i = 0; i < r->neps; i++) {
		const struct recording_ep *e = &r->eps[i];

		fprintf(f, "bus %d device %d ", e->busnum, e->devnum);
		if (e->epaddr != 0xff)
			fprintf(f, "ep 0x%02x", e->epaddr);
		else
			fprintf(f, "dci %u", e->dci);
		fprintf(f, "%s%s: %" PRIu64 " transfers\n",
			e->disk[0] ? " " : "", e->disk, e->total);
		for (cc = 0; cc < 256; cc++)
			if (e->cc[cc])
				fprintf(f, "    %3u %-28s %10" PRIu64 "%s\n",
					cc, recording_cc_name(cc), e->cc[cc],
					recording_cc_normal(cc) ? "" :
					"  <- error");
	}
}

static void report_text_stress(FILE *f, const struct recording *r,
			       const struct report_opts *o)
{
	struct recording_stress_row rows[RECORDING_STRESS_MAX];
	char line[512];
	unsigned int i, n;

	if (!r->nstress)
		return;
	fprintf(f, "\n== usbtrail stress (CrystalDiskMark layout, MB/s = "
		"10^6 bytes/s; a test's best pass)\n");
	for (i = 0; i < r->nruns; i++) {
		report_stress_target(r, &r->runs[i], o->keep_serials, line,
				     sizeof(line));
		fprintf(f, "run %s on %s\n", r->runs[i].run, line);
		report_stress_verdict(&r->runs[i], line, sizeof(line));
		if (line[0])
			fprintf(f, "  verdict: %s\n", line);
	}
	fprintf(f, "%-16s %12s %12s  %s\n", "", "Read [MB/s]", "Write [MB/s]",
		"errors");
	n = recording_stress_rows(r, rows, RECORDING_STRESS_MAX);
	for (i = 0; i < n; i++) {
		char rd[16], wr[16];

		report_stress_rate(rd, sizeof(rd), rows[i].rd, rows[i].rd_cut);
		report_stress_rate(wr, sizeof(wr), rows[i].wr, rows[i].wr_cut);
		fprintf(f, "%-16s %12s %12s  %u\n", rows[i].label, rd, wr,
			rows[i].errors);
	}
	/* the same phases' completion latency, as fio's lat (slat + clat) */
	for (i = 0; i < n; i++) {
		char lat[128];

		if (report_stress_latency(lat, sizeof(lat), rows[i].rd))
			fprintf(f, "latency %s read [us]: %s\n", rows[i].label,
				lat);
		if (report_stress_latency(lat, sizeof(lat), rows[i].wr))
			fprintf(f, "latency %s write [us]: %s\n",
				rows[i].label, lat);
	}
}

static void report_text_advice(FILE *f, const struct recording *r,
			       const size_t *idx, size_t n)
{
	char quirk[256];
	int a;
	size_t i;

	fprintf(f, "\n== What to try next\n");
	if (!n)
		fprintf(f, "No incidents: nothing to fix in this recording.\n");
	for (a = 0; a < REPORT_ADVICE_MAX; a++) {
		const struct report_advice *adv = report_advice_get(a);
		const char *const *t;
		bool any = false;

		if (!adv)
			break;
		for (i = 0; i < n; i++) {
			if (report_advice_id(&r->evs[idx[i]]) != a)
				continue;
			if (!any)
				fprintf(f, "* %s\n  %s\n  evidence: incident",
					adv->title, adv->why);
			fprintf(f, " #%zu", i + 1);
			any = true;
		}
		if (!any)
			continue;
		fputc('\n', f);
		for (t = adv->tries; *t; t++)
			fprintf(f, "  - %s\n", *t);
		if (report_advice_quirk(r, idx, n, a, quirk, sizeof(quirk)))
			fprintf(f, "  For this recording: %s\n", quirk);
	}
}

int report_text_write(FILE *f, const struct recording *r,
		      const struct report_opts *o)
{
	const char *s;
	size_t *idx, n, i;

	idx = report_incidents(r, &n);
	if (!idx)
		return -ENOMEM;
	fprintf(f, "usbtrail report of %s\n", o->dir);
	s = recording_meta_str(r, "kernel", "release");
	fprintf(f, "kernel %s", s ? s : "unknown");
	s = recording_meta_str(r, "trace_source", NULL);
	fprintf(f, ", trace source %s", s ? s : "none");
	s = recording_meta_str(r, "stopped_by", NULL);
	fprintf(f, ", %.1f s recorded, stopped by %s\n", recording_seconds(r),
		s ? s : "? (recording not complete)");
	fprintf(f, "%" PRIu64 " lines", r->lines);
	if (r->captured)
		fprintf(f, " and %" PRIu64 " packets of capture.pcapng",
			r->captured);
	fprintf(f, ": %zu kept events, %zu trace records, "
		"%zu samples, %" PRIu64 " usbmon, %" PRIu64 " malformed "
		"(skipped), %" PRIu64 " over the limits (skipped)\n",
		r->nevs, r->ntraces, r->nsamples, r->usbmon,
		r->malformed + r->capture_bad, r->skipped);
	if (r->capture_note[0])
		fprintf(f, "%s\n", r->capture_note);
	module_probes_missing(f, module_probes_of_meta(r->meta), "", "\n", 0);
	for (i = 0; i < r->nevs; i++)
		if (r->evs[i].type == EV_LOST)
			fprintf(f, "lost at +%.3f s: %" PRIu64 " events of %s "
				"(%s)\n", report_rel(r, r->evs[i].t_ns),
				r->evs[i].u.lost.count,
				ev_source_name(r->evs[i].u.lost.source),
				r->evs[i].u.lost.why);
	report_text_devices(f, r, o);
	report_text_throughput(f, r);
	fprintf(f, "\n== Incidents (%zu), times since recording began\n", n);
	for (i = 0; i < n; i++)
		report_text_incident(f, r, &r->evs[idx[i]], i + 1);
	report_text_eps(f, r);
	report_text_stress(f, r, o);
	report_text_advice(f, r, idx, n);
	free(idx);
	return ferror(f) ? -EIO : 0;
}
