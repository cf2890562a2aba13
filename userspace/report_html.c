// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_html.c - report.html: one self-contained page (inline CSS and
 * SVG, no script, no network: a Content-Security-Policy forbids any
 * fetch) with the devices, the throughput of each disk over time with
 * dips shaded and incidents marked on the same axis, the incidents with
 * their decoded codes and evidence, completion codes per endpoint, stress
 * results in CrystalDiskMark's layout and what to try next.
 *
 * Everything taken from the recording is untrusted text (kernel lines,
 * product strings): it goes out through report_esc() only.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "module_probes.h"
#include "report.h"
#include "util.h"

/* a dip's explanation: the verdict, the findings, a kernel line */
#define REPORT_HTML_WHY_MAX	(CLASSIFY_LINE_MAX + 2048)

static const char report_html_css[] =
"body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222;"
"max-width:1100px}\n"
"h1{font-size:1.5em}h2{font-size:1.2em;border-bottom:1px solid #ccc;"
"margin-top:1.6em}\n"
"table{border-collapse:collapse;margin:.5em 0}"
"td,th{border:1px solid #ccc;padding:3px 6px;text-align:left;"
"vertical-align:top}\n"
"th{background:#f0f0f0}td.n{text-align:right;font-variant-numeric:"
"tabular-nums}\n"
"pre,code{font:12px/1.3 ui-monospace,monospace}pre{margin:2px 0;"
"white-space:pre-wrap;word-break:break-all}\n"
".err{color:#b00020;font-weight:bold}.muted{color:#777}\n"
"tr.incident td{background:#fff8f6}\n"
"table.cdm{background:#111;color:#eee}table.cdm th{background:#222;"
"color:#eee}table.cdm td.n{color:#7fd}table.cdm td,table.cdm th"
"{border-color:#444}\n"
".adv{border-left:4px solid #e08000;padding:.2em .8em;margin:.8em 0;"
"background:#fffaf0}\n"
"svg{background:#fff;border:1px solid #ddd;max-width:100%;height:auto}\n"
".why,.dip-why{margin:.3em 0}ul.why{margin:.2em 0;padding-left:1.2em}"
"b.verdict{color:#8a4b00}\n";

static void report_html_cell(FILE *f, const char *s)
{
	fputs("<td>", f);
	report_esc(f, s ? s : "");
	fputs("</td>", f);
}

static void report_html_devices(FILE *f, const struct recording *r,
				const struct report_opts *o)
{
	unsigned int i;
	char buf[128], topo[512];

	fputs("<h2 id='devices'>Devices</h2>\n", f);
	if (!r->ndisks) {
		fputs("<p>No USB disk was seen.</p>\n", f);
		return;
	}
	for (i = 0; i < r->ndisks; i++)
		if (report_topology(r, r->disks[i].disk, topo, sizeof(topo))) {
			fputs("<p>Topology: <code>", f);
			report_esc(f, topo);
			fputs("</code></p>\n", f);
		}
	fputs("<table><tr><th>disk</th><th>USB port</th><th>id</th>"
	      "<th>product</th><th>speed</th><th>driver</th>"
	      "<th>host controller</th><th>serial</th><th>UAS verdict</th>"
	      "</tr>\n", f);
	for (i = 0; i < r->ndisks; i++) {
		const struct recording_disk *d = &r->disks[i];
		const struct ev_device *dv = &d->device;
		struct json_object *uas = report_uas(r, d->disk);
		const char *s;

		fputs("<tr>", f);
		report_html_cell(f, d->disk);
		snprintf(buf, sizeof(buf), "%s (bus %d, device %d)",
			 d->usb[0] ? d->usb : "?", d->busnum, d->devnum);
		report_html_cell(f, buf);
		snprintf(buf, sizeof(buf), "%04x:%04x", dv->vid, dv->pid);
		report_html_cell(f, d->have_device ? buf : "?");
		report_html_cell(f, dv->product);
		util_format_speed(buf, sizeof(buf), dv->speed_mbps);
		report_html_cell(f, d->have_device ? buf : "?");
		report_html_cell(f, dv->driver);
		snprintf(buf, sizeof(buf), "%s (%s)", dv->hcd, dv->hcd_driver);
		fputs("<td>", f);
		report_esc(f, d->have_device ? buf : "?");
		s = report_json_str(uas, "hcd", "chip");
		if (s) {
			fputs("<br><span class='muted'>", f);
			report_esc(f, s);
			fputs("</span>", f);
		}
		fputs("</td>", f);
		report_serial(dv->serial, o->keep_serials, buf, sizeof(buf));
		report_html_cell(f, buf);
		fputs("<td>", f);
		s = report_json_str(uas, "reason", NULL);
		if (s) {
			fputs("<b>", f);
			report_esc(f, s);
			fputs("</b>: ", f);
			report_esc(f, report_json_str(uas, "detail",
							   "why") ?: "");
			s = report_json_str(uas, "detail", "bridge");
			if (s) {
				fputs("<br>bridge: ", f);
				report_esc(f, s);
			}
		} else {
			fputs("<span class='muted'>not recorded</span>", f);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

/*
 * A dip explained (report_dip_explain()): the verdict in bold, then what
 * was looked at; as a list, or the verdict alone when short.
 */
static void report_html_why(FILE *f, const struct recording *r,
			    const struct ev *dip, bool short_form)
{
	char *buf = malloc(REPORT_HTML_WHY_MAX), *line, *save = NULL;
	bool first = true;

	if (!buf || report_dip_explain(r, dip, buf, REPORT_HTML_WHY_MAX)) {
		free(buf);
		return;
	}
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (first) {
			fputs("<b class='verdict'>", f);
			report_esc(f, line);
			fputs("</b>", f);
			if (short_form)
				break;
			fputs("<ul class='why'>", f);
			first = false;
			continue;
		}
		fputs("<li>", f);
		report_esc(f, line);
		fputs("</li>", f);
	}
	if (!first)
		fputs("</ul>", f);
	free(buf);
}

static void report_html_throughput(FILE *f, const struct recording *r,
				   const size_t *idx, size_t n)
{
	unsigned int i;
	bool any = false;
	size_t k;

	fputs("<h2 id='throughput'>Timeline</h2>\n<p>Each disk's lanes on "
	      "one time axis (seconds since recording began): throughput per "
	      "interval (intervals without I/O drop to 0) with dips shaded, "
	      "each SCSI command's latency, commands queued at the device, "
	      "xHCI transfer events per endpoint, incident chains and "
	      "markers; every incident a numbered line across them.  A long "
	      "recording is drawn a pixel column at a time, the lowest and "
	      "highest value of each kept.  Hover for details.</p>\n", f);
	for (i = 0; i < r->ndisks; i++) {
		const struct recording_disk *d = &r->disks[i];

		if (!d->nsamples)
			continue;
		any = true;
		fputs("<h3>", f);
		report_esc(f, d->disk);
		fprintf(f, "</h3><p>peak %.1f MB/s, %.1f MB written, %.1f MB "
			"read</p>\n", d->max_mbps, (double)d->write_bytes / 1e6,
			(double)d->read_bytes / 1e6);
		report_timeline_svg(f, r, i, idx, n, -1, -1);
		for (k = 0; k < n; k++) {
			const struct ev *ev = &r->evs[idx[k]];

			if (ev->u.incident.inc.kind != CLASSIFY_DIP ||
			    strcmp(ev->ident.disk, d->disk))
				continue;
			fprintf(f, "<p class='dip-why'><a href='#inc-%zu'>dip "
				"#%zu</a> at +%.1f s, %.1f s long: ", k + 1,
				k + 1, report_rel(r, ev->t_ns),
				ev->u.incident.dip_secs);
			report_html_why(f, r, ev, true);
			fputs("</p>\n", f);
		}
	}
	/*
	 * Without samples there is no time axis worth drawing (it ran from
	 * the first incident back to an unknown start): the incidents are
	 * in their table below, with their times.
	 */
	if (!any)
		fputs("<p>No throughput samples in this recording: no plot; "
		      "the incidents are listed below with their times.</p>\n",
		      f);
}

static void report_html_incident(FILE *f, const struct recording *r,
				 const struct ev *ev, size_t num)
{
	const struct ev_incident *ei = &ev->u.incident;
	const struct classify_incident *c = &ei->inc;
	char buf[1200];
	unsigned int k;
	uint64_t t;

	fprintf(f, "<tr class='incident' id='inc-%zu'><td class='n'>%zu</td>"
		"<td class='n'>%.3f</td>", num, num, report_rel(r, ev->t_ns));
	report_html_cell(f, ev->ident.disk[0] ? ev->ident.disk : c->dev);
	fprintf(f, "<td style='color:%s'><b>", report_kind_colour(c->kind));
	report_esc(f, classify_kind_name(c->kind));
	fputs("</b></td><td>", f);
	report_sense_text(ev, buf, sizeof(buf));
	if (buf[0]) {
		fputs("sense ", f);
		report_esc(f, buf);
	} else if ((classify_kind_carries(c->kind) & CLASSIFY_C_CODE) &&
		   c->code >= 0) {
		fprintf(f, "completion code %d: ", c->code);
		report_esc(f, recording_cc_name((unsigned int)c->code));
		fputs(" &mdash; ", f);
		report_esc(f, recording_cc_meaning((unsigned int)c->code));
	} else if (classify_kind_carries(c->kind) & CLASSIFY_C_DIP) {
		fprintf(f, "%.1f MB/s for %.1f s against a median of %.1f MB/s",
			ei->dip_mbps, ei->dip_secs, ei->dip_median_mbps);
		if (c->kind == CLASSIFY_DIP) {
			fputs("<div class='why'>Why: ", f);
			report_html_why(f, r, ev, false);
			fputs("</div>", f);
		}
	} else {
		ev_incident_summary(ev, buf, sizeof(buf));
		report_esc(f, buf);
	}
	if (ei->sense_len) {
		fputs("<br>sense bytes <code>", f);
		for (k = 0; k < ei->sense_len; k++)
			fprintf(f, "%02x ", ei->sense[k]);
		fputs("</code>", f);
	}
	if (ei->opcode >= 0) {
		fprintf(f, "<br>command opcode 0x%02x", ei->opcode);
		if (c->opcode_name[0]) {
			fputs(" (", f);
			report_esc(f, c->opcode_name);
			fputc(')', f);
		}
	}
	if (ei->lba >= 0)
		fprintf(f, ", lba %" PRId64, ei->lba);
	if (c->sector >= 0)
		fprintf(f, "<br>sector %" PRId64, c->sector);
	if (c->lost_blocks > 0 && c->part[0]) {
		fprintf(f, "<br>data lost: %ld block%s of ", c->lost_blocks,
			c->lost_blocks == 1 ? "" : "s");
		report_esc(f, c->part);
	}
	fputs("</td>", f);
	if (c->chain)
		fprintf(f, "<td class='n'>%u</td>", c->chain);
	else
		fputs("<td></td>", f);
	fputs("<td>", f);
	if (c->line[0]) {
		fputs("<pre>", f);
		report_esc(f, c->line);
		fputs("</pre>", f);
	}
	for (k = 0; k < ei->nevidence; k++) {
		fprintf(f, "<pre class='evidence'>[%" PRIu64 "] ",
			ei->evidence[k]);
		if (recording_describe(r, ei->evidence[k], buf, sizeof(buf),
				       &t) < 0) {
			fputs("not in the recording", f);
		} else {
			fprintf(f, "+%.6f ", report_rel(r, t));
			report_esc(f, buf);
		}
		fputs("</pre>", f);
	}
	fputs("</td></tr>\n", f);
}

static void report_html_eps(FILE *f, const struct recording *r)
{
	bool used[256] = { false };
	unsigned int i, cc;

	fputs("<h2 id='endpoints'>Completion codes per endpoint</h2>\n", f);
	if (!r->neps) {
		fputs("<p>No xHCI transfer events (usbtrail.ko was not loaded, "
		      "or nothing was transferred).</p>\n", f);
		return;
	}
	for (i = 0; i < r->neps; i++)
		for (cc = 0; cc < 256; cc++)
			used[cc] |= r->eps[i].cc[cc] != 0;
	fputs("<p>xHCI 1.2 table 6-90 codes of every transfer event; codes "
	      "other than Success, Short Packet and Stopped are marked.</p>"
	      "<table><tr><th>bus:device</th><th>endpoint</th><th>disk</th>"
	      "<th>transfers</th>", f);
	for (cc = 0; cc < 256; cc++)
		if (used[cc]) {
			fprintf(f, "<th title='%u'>%u ", cc, cc);
			report_esc(f, recording_cc_name(cc));
			fputs("</th>", f);
		}
	fputs("</tr>\n", f);
	for (i = 0; i < r->neps; i++) {
		const struct recording_ep *e = &r->eps[i];

		fprintf(f, "<tr><td>%d:%d</td><td>", e->busnum, e->devnum);
		if (e->epaddr != 0xff)
			fprintf(f, "0x%02x %s", e->epaddr,
				e->epaddr & 0x80 ? "IN" : "OUT");
		else
			fprintf(f, "DCI %u", e->dci);
		fputs("</td>", f);
		report_html_cell(f, e->disk);
		fprintf(f, "<td class='n'>%" PRIu64 "</td>", e->total);
		for (cc = 0; cc < 256; cc++)
			if (used[cc])
				fprintf(f, "<td class='n%s'>%" PRIu64 "</td>",
					e->cc[cc] && !recording_cc_normal(cc) ?
					" err" : "", e->cc[cc]);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void report_html_stress(FILE *f, const struct recording *r,
			       const struct report_opts *o)
{
	struct recording_stress_row rows[RECORDING_STRESS_MAX];
	unsigned int shown = 0;
	char line[512];
	unsigned int i, n;

	if (!r->nstress)
		return;
	fputs("<h2 id='stress'>usbtrail stress</h2>\n", f);
	for (i = 0; i < r->nruns; i++) {
		report_stress_target(r, &r->runs[i], o->keep_serials, line,
				     sizeof(line));
		fprintf(f, "<p>Run %s on ", r->runs[i].run);
		report_esc(f, line);
		report_stress_verdict(&r->runs[i], line, sizeof(line));
		if (line[0]) {
			fputs("<br><b class='err'>Verdict: ", f);
			report_esc(f, line);
			fputs("</b>", f);
		}
		fputs("</p>\n", f);
	}
	fputs("<p>In CrystalDiskMark's "
	      "layout: MB/s = 10<sup>6</sup> bytes/s, one thread; a test's "
	      "best pass, as usbtrail stress printed it.</p>\n"
	      "<table class='cdm'><tr><th></th><th>Read [MB/s]</th>"
	      "<th>Write [MB/s]</th><th>errors</th></tr>\n", f);
	n = recording_stress_rows(r, rows, RECORDING_STRESS_MAX);
	for (i = 0; i < n; i++) {
		char rd[24], wr[24];

		report_stress_rate(rd, sizeof(rd), rows[i].rd, rows[i].rd_cut);
		report_stress_rate(wr, sizeof(wr), rows[i].wr, rows[i].wr_cut);
		fprintf(f, "<tr><th>%s</th><td class='n'>%s</td><td class='n'>"
			"%s</td><td class='n%s'>%u</td></tr>\n", rows[i].label,
			rd, wr, rows[i].errors ? " err" : "", rows[i].errors);
	}
	fputs("</table>\n", f);
	/* the same phases' completion latency, as fio's lat (slat + clat) */
	for (i = 0; i < n; i++) {
		char lat[128];
		int k;

		for (k = 0; k < 2; k++) {
			const struct recording_stress *p = k ? rows[i].wr :
							  rows[i].rd;

			if (!report_stress_latency(lat, sizeof(lat), p))
				continue;
			if (!shown++)
				fputs("<p>Completion latency [&micro;s], "
				      "submission to completion:</p>\n"
				      "<table class='cdm'>\n", f);
			fprintf(f, "<tr><th>%s %s</th><td>%s</td></tr>\n",
				rows[i].label, k ? "write" : "read", lat);
		}
	}
	if (shown)
		fputs("</table>\n", f);
}

static void report_html_advice(FILE *f, const struct recording *r,
			       const size_t *idx, size_t n)
{
	char quirk[256];
	int a;
	size_t i;

	fputs("<h2 id='advice'>What to try next</h2>\n", f);
	if (!n)
		fputs("<p>No incidents: nothing to fix in this recording.</p>\n",
		      f);
	for (a = 0; a < REPORT_ADVICE_MAX; a++) {
		const struct report_advice *adv = report_advice_get(a);
		const char *const *t;
		bool any = false;

		if (!adv)
			break;
		for (i = 0; i < n; i++) {
			if (report_advice_id(&r->evs[idx[i]]) != a)
				continue;
			if (!any) {
				fputs("<div class='adv'><h3>", f);
				report_esc(f, adv->title);
				fputs("</h3><p>", f);
				report_esc(f, adv->why);
				fputs("</p><p>Evidence: incident", f);
			}
			fprintf(f, " <a href='#inc-%zu'>#%zu</a>", i + 1, i + 1);
			any = true;
		}
		if (!any)
			continue;
		fputs("</p><ul>", f);
		for (t = adv->tries; *t; t++) {
			fputs("<li>", f);
			report_esc(f, *t);
			fputs("</li>", f);
		}
		fputs("</ul>", f);
		if (report_advice_quirk(r, idx, n, a, quirk, sizeof(quirk))) {
			fputs("<p>For this recording: <code>", f);
			report_esc(f, quirk);
			fputs("</code></p>", f);
		}
		fputs("</div>\n", f);
	}
}

int report_html_write(FILE *f, const struct recording *r,
		      const struct report_opts *o)
{
	size_t *idx, n, i;
	const char *s;

	idx = report_incidents(r, &n);
	if (!idx)
		return -ENOMEM;
	fputs("<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>\n"
	      "<meta http-equiv='Content-Security-Policy' content=\"default-src "
	      "'none'; style-src 'unsafe-inline'; img-src data:\">\n"
	      "<meta name='viewport' content='width=device-width'>\n"
	      "<title>usbtrail report</title>\n<style>", f);
	fputs(report_html_css, f);
	fputs("</style></head><body>\n<h1>usbtrail report</h1>\n<p>", f);
	report_esc(f, o->dir);
	fputs(": kernel ", f);
	s = recording_meta_str(r, "kernel", "release");
	report_esc(f, s ? s : "unknown");
	fputs(", trace source ", f);
	s = recording_meta_str(r, "trace_source", NULL);
	report_esc(f, s ? s : "none");
	fprintf(f, ", %.1f s recorded, stopped by ", recording_seconds(r));
	s = recording_meta_str(r, "stopped_by", NULL);
	report_esc(f, s ? s : "? (recording not complete)");
	fprintf(f, ". <b>%zu incidents</b>.</p>\n", n);
	if (r->malformed || r->skipped)
		fprintf(f, "<p class='err'>%" PRIu64 " malformed lines and %"
			PRIu64 " events over the limits were skipped.</p>\n",
			r->malformed, r->skipped);
	module_probes_missing(f, module_probes_of_meta(r->meta), "<p class='err'>",
			      "</p>\n", 1);
	report_html_devices(f, r, o);
	report_html_throughput(f, r, idx, n);

	fprintf(f, "<h2 id='incidents'>Incidents (%zu)</h2>\n", n);
	if (n) {
		fputs("<table id='incident-table'><tr><th>#</th><th>+s</th>"
		      "<th>device</th><th>kind</th><th>decoded</th>"
		      "<th>chain</th><th>kernel line and evidence</th></tr>\n",
		      f);
		for (i = 0; i < n; i++)
			report_html_incident(f, r, &r->evs[idx[i]], i + 1);
		fputs("</table>\n", f);
	} else {
		fputs("<p>None.</p>\n", f);
	}
	report_html_eps(f, r);
	report_html_stress(f, r, o);
	report_html_advice(f, r, idx, n);
	fputs("<h2>Recording</h2>\n", f);
	for (i = 0; i < r->nevs; i++)
		if (r->evs[i].type == EV_LOST) {
			fprintf(f, "<p class='err'>lost at +%.3f s: %" PRIu64
				" events of %s (", report_rel(r, r->evs[i].t_ns),
				r->evs[i].u.lost.count,
				ev_source_name(r->evs[i].u.lost.source));
			report_esc(f, r->evs[i].u.lost.why);
			fputs(")</p>\n", f);
		}
	fprintf(f, "<p class='muted'>%" PRIu64 " lines", r->lines);
	if (r->captured)
		fprintf(f, " and %" PRIu64 " packets of capture.pcapng",
			r->captured);
	fprintf(f, ": %zu events, %zu trace records, %zu samples, %" PRIu64
		" usbmon events, %" PRIu64 " malformed.", r->nevs, r->ntraces,
		r->nsamples, r->usbmon, r->malformed + r->capture_bad);
	if (r->capture_note[0]) {
		fputc(' ', f);
		report_esc(f, r->capture_note);
	}
	fputs("</p>\n</body></html>\n", f);
	free(idx);
	return ferror(f) ? -EIO : 0;
}
