// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_html.c - the comparison table (compare.h) as one self-contained
 * page, as report.html is (inline CSS and SVG, no script, a
 * Content-Security-Policy that forbids every fetch):
 *
 *  - the table, sortable without a script: one ordering per column and
 *    way is written out, each in its own block that CSS shows when the
 *    address names it (:target); the column names link to them;
 *  - a bar chart per figure, bars grouped by host controller and bridge;
 *  - each disk's throughput over the run, a small line, so a drive that
 *    slows down as it heats up shows it;
 *  - the recordings, each linked to its own report (or the command that
 *    makes it), as the dips and incidents of its rows are.
 *
 * Every text taken from a recording or a file name goes out through
 * report_esc().
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "report.h"

static const char compare_html_css[] =
"body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}\n"
"h1{font-size:1.5em}h2{font-size:1.2em;border-bottom:1px solid #ccc;"
"margin-top:1.6em}\n"
"table{border-collapse:collapse;margin:.5em 0}"
"td,th{border:1px solid #ccc;padding:3px 6px;text-align:left;"
"vertical-align:middle;white-space:nowrap}\ntd.w{white-space:normal;"
"min-width:10em;max-width:16em}\n"
"th{background:#f0f0f0}th a{color:inherit;text-decoration:none}"
"th a:hover{text-decoration:underline}th.on{background:#dde8f8}\n"
"td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
".muted{color:#777}.no{color:#b00020}.yes{color:#2a8a2a}\n"
".ord{display:none}.ord:target,.ord.def{display:block}"
".ord:target~.ord.def{display:none}\n"
".sprite{position:absolute;width:0;height:0;overflow:hidden}\n"
"svg.chart,svg.tp{background:#fff;border:1px solid #ddd}\n"
"code{font:12px/1.3 ui-monospace,monospace}\n";

#define COMPARE_HTML_SPARK_W	96
#define COMPARE_HTML_SPARK_H	20

/* the id of an ordering's block: by-COLUMN, by-COLUMN-rev; by-input */
static void compare_html_ord_id(FILE *f, int col, bool rev)
{
	if (col < 0)
		fputs("by-input", f);
	else
		fprintf(f, "by-%s%s", compare_col_name((enum compare_col)col),
			rev ? "-rev" : "");
}

/*
 * The path of a row's throughput line in a box of w by h, scaled to its
 * own peak: the shape is what tells a slowdown.  Idle slots break it.
 */
static void compare_html_tp_path(FILE *f, const struct compare_row *row,
				 double w, double h)
{
	bool pen = false;
	unsigned int i;

	for (i = 0; i < row->ntp; i++) {
		double x0 = w * i / row->ntp, x1 = w * (i + 1) / row->ntp, y;

		if (isnan(row->tp[i]) || !(row->tp_max > 0)) {
			pen = false;
			continue;
		}
		y = h - 1 - (h - 2) * row->tp[i] / row->tp_max;
		fprintf(f, "%c%.1f %.1f L%.1f %.1f ", pen ? 'L' : 'M', x0, y,
			x1, y);
		pen = true;
	}
}

/* each row's line once, for the table's cells to <use> in every ordering */
static void compare_html_sprite(FILE *f, const struct compare_table *t)
{
	size_t i;

	fputs("<svg class='sprite' xmlns='http://www.w3.org/2000/svg' "
	      "aria-hidden='true'>\n", f);
	for (i = 0; i < t->nrows; i++) {
		if (!t->rows[i].ntp)
			continue;
		fprintf(f, "<symbol id='tp-%zu' viewBox='0 0 %d %d' "
			"preserveAspectRatio='none'><path fill='none' "
			"stroke='#1f5fbf' stroke-width='1.2' "
			"vector-effect='non-scaling-stroke' d='", i,
			COMPARE_HTML_SPARK_W, COMPARE_HTML_SPARK_H);
		compare_html_tp_path(f, &t->rows[i], COMPARE_HTML_SPARK_W,
				     COMPARE_HTML_SPARK_H);
		fputs("'/></symbol>\n", f);
	}
	fputs("</svg>\n", f);
}

static void compare_html_cell(FILE *f, const struct compare_table *t,
			      size_t i, enum compare_col c)
{
	const struct compare_row *row = &t->rows[i];
	const struct compare_src *src = &t->sources[row->source];
	const struct compare_cell *cell = &row->cell[c];
	bool link = (c == COMPARE_COL_DIPS || c == COMPARE_COL_INCIDENTS ||
		     c == COMPARE_COL_RECORDING) && src->href;

	fputs(compare_col_numeric(c) ? "<td class='n'>" :
	      c == COMPARE_COL_BRIDGE || c == COMPARE_COL_HOST_CONTROLLER ||
	      c == COMPARE_COL_RECORDING ? "<td class='w'>" : "<td>", f);
	if (link) {
		fputs("<a href='", f);
		report_esc(f, src->href);
		if (c != COMPARE_COL_RECORDING)
			fputs("#incidents", f);
		fputs("'>", f);
	} else if ((c == COMPARE_COL_DIPS || c == COMPARE_COL_INCIDENTS) &&
		   src->make && cell->v > 0) {
		fputs(src->bundle ? "<span title='in the bundle: " :
		      "<span title='no report yet: ", f);
		report_esc(f, src->make);
		fputs("'>", f);
	}
	if (c == COMPARE_COL_UAS && cell->have)
		fprintf(f, "<span class='%s'>", strcmp(cell->s, "true") ?
			"no" : "yes");
	report_esc(f, cell->s);
	if (c == COMPARE_COL_UAS && cell->have)
		fputs("</span>", f);
	if (link)
		fputs("</a>", f);
	else if ((c == COMPARE_COL_DIPS || c == COMPARE_COL_INCIDENTS) &&
		 src->make && cell->v > 0)
		fputs("</span>", f);
	fputs("</td>", f);
}

/* one ordering: col -1 is the order the recordings were given in */
static int compare_html_table(FILE *f, const struct compare_table *t, int col,
			      bool rev)
{
	size_t *idx = NULL, i;
	unsigned int c;

	if (col >= 0) {
		idx = compare_order(t, (enum compare_col)col, rev);
		if (!idx)
			return -ENOMEM;
	}
	fprintf(f, "<div class='ord%s' id='", col < 0 ? " def" : "");
	compare_html_ord_id(f, col, rev);
	fputs("'><table><tr>", f);
	for (c = 0; c < COMPARE_COL_MAX; c++) {
		bool on = (int)c == col;

		/* a second click on the column sorts the other way */
		fprintf(f, "<th%s><a href='#", on ? " class='on'" : "");
		compare_html_ord_id(f, (int)c, on && !rev);
		fprintf(f, "'>%s%s</a></th>", compare_col_name(c),
			!on ? "" : rev != compare_col_numeric(c) ?
			" &#9660;" : " &#9650;");
	}
	fputs("<th>throughput over the run</th></tr>\n", f);
	for (i = 0; i < t->nrows; i++) {
		size_t k = idx ? idx[i] : i;

		fputs("<tr>", f);
		for (c = 0; c < COMPARE_COL_MAX; c++)
			compare_html_cell(f, t, k, c);
		if (t->rows[k].ntp)
			fprintf(f, "<td><svg width='%d' height='%d' "
				"role='img' aria-label='throughput of row %zu "
				"over the run'><use href='#tp-%zu'/></svg> "
				"<span class='muted'>%.1f</span></td>",
				COMPARE_HTML_SPARK_W, COMPARE_HTML_SPARK_H,
				k + 1, k, t->rows[k].tp_max);
		else
			fputs("<td class='muted'>no samples</td>", f);
		fputs("</tr>\n", f);
	}
	fputs("</table></div>\n", f);
	free(idx);
	return 0;
}

#define COMPARE_HTML_LABEL_MAX	56

/*
 * "sda 2-1 @ host (rec-uas)": what a bar or a line is labelled with, the
 * recording by the last part of its name, cut to fit the chart's margin
 * (at a character, not inside one); the whole name in its title.
 */
static void compare_html_label(FILE *f, const struct compare_table *t,
			       const struct compare_row *row, bool svg)
{
	const char *name = t->sources[row->source].name, *base;
	char buf[3 * COMPARE_CELL_LEN];
	size_t n, end;

	n = strlen(name);
	while (n > 1 && name[n - 1] == '/')
		n--;
	for (base = name + n; base > name && base[-1] != '/'; base--)
		;
	/* cut below anyway: a longer one only says so by its length */
	if (snprintf(buf, sizeof(buf), "%s %s%s%s (%.*s)",
		     row->cell[COMPARE_COL_DISK].s, row->cell[COMPARE_COL_USB].s,
		     row->cell[COMPARE_COL_HOST].have ? " @ " : "",
		     row->cell[COMPARE_COL_HOST].s, (int)(name + n - base),
		     base) < 0)
		buf[0] = '\0';
	end = strlen(buf);
	if (end > COMPARE_HTML_LABEL_MAX) {
		end = COMPARE_HTML_LABEL_MAX;
		while (end && ((unsigned char)buf[end] & 0xc0) == 0x80)
			end--;
		memcpy(buf + end, "\xe2\x80\xa6", 4);	/* U+2026 ... */
	}
	fputs(svg ? "<title>" : "<span title='", f);
	report_esc(f, name);
	fputs(svg ? "</title>" : "'>", f);
	report_esc(f, buf);
	if (!svg)
		fputs("</span>", f);
}

/* rows in the order of their group, host controller then bridge */
static const struct compare_table *compare_html_sort_table;

static int compare_html_cmp_group(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct compare_row *x = &compare_html_sort_table->rows[i];
	const struct compare_row *y = &compare_html_sort_table->rows[j];
	int c = strcmp(x->cell[COMPARE_COL_HOST_CONTROLLER].s,
		       y->cell[COMPARE_COL_HOST_CONTROLLER].s);

	if (!c)
		c = strcmp(x->cell[COMPARE_COL_BRIDGE].s,
			   y->cell[COMPARE_COL_BRIDGE].s);
	return c ? c : (i > j) - (i < j);
}

static bool compare_html_same_group(const struct compare_row *x,
				    const struct compare_row *y)
{
	return !strcmp(x->cell[COMPARE_COL_HOST_CONTROLLER].s,
		       y->cell[COMPARE_COL_HOST_CONTROLLER].s) &&
	       !strcmp(x->cell[COMPARE_COL_BRIDGE].s,
		       y->cell[COMPARE_COL_BRIDGE].s);
}

#define CHART_LABEL_W	360.0
#define CHART_BAR_W	420.0
#define CHART_W		(CHART_LABEL_W + CHART_BAR_W + 70.0)
#define CHART_ROW_H	16.0
#define CHART_HEAD_H	20.0

static void compare_html_chart(FILE *f, const struct compare_table *t,
			       const size_t *idx, enum compare_col c)
{
	double max = 0, y = 4, h = 8;
	size_t i;

	for (i = 0; i < t->nrows; i++) {
		const struct compare_row *row = &t->rows[idx[i]];

		if (row->cell[c].have && row->cell[c].v > max)
			max = row->cell[c].v;
		if (!i || !compare_html_same_group(row, &t->rows[idx[i - 1]]))
			h += CHART_HEAD_H;
		h += CHART_ROW_H;
	}
	fprintf(f, "<h3 id='chart-%s'>%s</h3>\n", compare_col_name(c),
		compare_col_name(c));
	fprintf(f, "<svg class='chart' xmlns='http://www.w3.org/2000/svg' "
		"width='%.0f' height='%.0f' viewBox='0 0 %.0f %.0f' role='img' "
		"aria-label='%s by host controller and bridge'>\n", CHART_W, h,
		CHART_W, h, compare_col_name(c));
	for (i = 0; i < t->nrows; i++) {
		const struct compare_row *row = &t->rows[idx[i]];
		const struct compare_cell *cell = &row->cell[c];

		if (!i || !compare_html_same_group(row, &t->rows[idx[i - 1]])) {
			fprintf(f, "<text x='4' y='%.1f' font-size='12' "
				"font-weight='bold'>", y + 14);
			report_esc(f, row->cell[COMPARE_COL_HOST_CONTROLLER]
					.have ? row->cell[
					COMPARE_COL_HOST_CONTROLLER].s :
					"host controller unknown");
			fputs(" &#8212; ", f);
			report_esc(f, row->cell[COMPARE_COL_BRIDGE].have ?
					row->cell[COMPARE_COL_BRIDGE].s :
					"bridge unknown");
			fputs("</text>\n", f);
			y += CHART_HEAD_H;
		}
		fprintf(f, "<text x='14' y='%.1f' font-size='11'>", y + 12);
		compare_html_label(f, t, row, true);
		fputs("</text>", f);
		if (cell->have && max > 0) {
			double w = CHART_BAR_W * cell->v / max;

			fprintf(f, "<rect x='%.1f' y='%.1f' width='%.1f' "
				"height='%.1f' fill='%s'/><text x='%.1f' "
				"y='%.1f' font-size='11'>%s</text>",
				CHART_LABEL_W, y + 2, w < 1 ? 1 : w,
				CHART_ROW_H - 4,
				!strcmp(row->cell[COMPARE_COL_UAS].s, "true") ?
				"#1f5fbf" : "#8a8f99",
				CHART_LABEL_W + (w < 1 ? 1 : w) + 4, y + 12,
				cell->s);
		} else {
			fprintf(f, "<text x='%.1f' y='%.1f' font-size='11' "
				"fill='#777'>not in the recording</text>",
				CHART_LABEL_W, y + 12);
		}
		fputc('\n', f);
		y += CHART_ROW_H;
	}
	fputs("</svg>\n", f);
}

static const enum compare_col compare_html_figures[] = {
	COMPARE_COL_SEQ_READ, COMPARE_COL_SEQ_WRITE, COMPARE_COL_Q1_READ,
	COMPARE_COL_Q1_WRITE, COMPARE_COL_Q32_READ, COMPARE_COL_Q32_WRITE,
	COMPARE_COL_LAT_P99,
};

static int compare_html_charts(FILE *f, const struct compare_table *t)
{
	size_t *idx = calloc(t->nrows + 1, sizeof(*idx)), i;

	if (!idx)
		return -ENOMEM;
	for (i = 0; i < t->nrows; i++)
		idx[i] = i;
	compare_html_sort_table = t;
	qsort(idx, t->nrows, sizeof(*idx), compare_html_cmp_group);
	compare_html_sort_table = NULL;
	fputs("<h2 id='charts'>Each figure by host controller and bridge</h2>"
	      "\n<p>MB/s (latency: ms, less is better); blue bars: UAS on, "
	      "grey: Bulk-Only Transport.</p>\n", f);
	for (i = 0; i < sizeof(compare_html_figures) /
		    sizeof(compare_html_figures[0]); i++)
		compare_html_chart(f, t, idx, compare_html_figures[i]);
	free(idx);
	return 0;
}

#define TP_W	480.0
#define TP_H	60.0

static void compare_html_lines(FILE *f, const struct compare_table *t)
{
	size_t i;

	fputs("<h2 id='throughput'>Throughput over the run</h2>\n<p>Each "
	      "disk's MB/s over its recording, scaled to its own peak (gaps: "
	      "idle). The phases of a CrystalDiskMark run show as steps; a "
	      "drive that slows down as it heats up falls within a phase. A "
	      "long <code>usbtrail stress --profile seq</code> or "
	      "<code>soak</code> run shows that best.</p>\n<table>\n", f);
	for (i = 0; i < t->nrows; i++) {
		const struct compare_row *row = &t->rows[i];

		fputs("<tr><td>", f);
		compare_html_label(f, t, row, false);
		fputs("</td><td>", f);
		if (!row->ntp) {
			fputs("<span class='muted'>no throughput samples"
			      "</span></td></tr>\n", f);
			continue;
		}
		fprintf(f, "<svg class='tp' xmlns='http://www.w3.org/2000/svg' "
			"width='%.0f' height='%.0f' viewBox='0 0 %.0f %.0f' "
			"role='img' aria-label='throughput over the run'>"
			"<path fill='none' stroke='#1f5fbf' stroke-width='1.5' "
			"d='", TP_W, TP_H, TP_W, TP_H);
		compare_html_tp_path(f, row, TP_W, TP_H);
		fprintf(f, "'/></svg></td><td class='n'>peak %.1f MB/s<br>"
			"over %.1f s</td></tr>\n", row->tp_max, row->tp_secs);
	}
	fputs("</table>\n", f);
}

static void compare_html_sources(FILE *f, const struct compare_table *t)
{
	size_t i;

	fputs("<h2 id='recordings'>Recordings</h2>\n<table><tr><th>recording"
	      "</th><th>host</th><th>kernel</th><th>seconds</th><th>rows</th>"
	      "<th>its report</th></tr>\n", f);
	for (i = 0; i < t->nsources; i++) {
		const struct compare_src *s = &t->sources[i];

		fputs("<tr><td>", f);
		report_esc(f, s->name);
		fputs("</td><td>", f);
		report_esc(f, s->host);
		fputs("</td><td>", f);
		report_esc(f, s->kernel);
		fprintf(f, "</td><td class='n'>%.1f</td><td class='n'>%u</td>"
			"<td>", s->seconds, s->rows);
		if (s->href) {
			fputs("<a href='", f);
			report_esc(f, s->href);
			fputs("'>", f);
			report_esc(f, s->href);
			fputs("</a>", f);
		} else if (s->make) {
			fputs(s->bundle ? "in the bundle: <code>" :
			      "none yet: <code>", f);
			report_esc(f, s->make);
			fputs("</code>", f);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

int compare_write_html(FILE *f, const struct compare_table *t)
{
	unsigned int c;
	int err;

	fputs("<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>\n"
	      "<meta http-equiv='Content-Security-Policy' content=\"default-src "
	      "'none'; style-src 'unsafe-inline'; img-src data:\">\n"
	      "<meta name='viewport' content='width=device-width'>\n"
	      "<title>usbtrail: recordings compared</title>\n<style>", f);
	fputs(compare_html_css, f);
	fprintf(f, "</style></head><body>\n<h1>usbtrail: recordings compared"
		"</h1>\n<p>%zu recording%s, %zu row%s: one per disk per "
		"recording. MB/s = 10<sup>6</sup> bytes/s, from the phases of "
		"<code>usbtrail stress</code> (CrystalDiskMark's rows: the "
		"sequential row that moved the most data, RND4K Q1T1, RND4K "
		"Q32T1); lat_p99_ms: the 99th percentile of the SCSI reads' "
		"and writes' completion time, from trace records; dips and "
		"incidents link to each recording's own report. An empty cell: "
		"the recording lacks it.</p>\n", t->nsources,
		t->nsources == 1 ? "" : "s", t->nrows,
		t->nrows == 1 ? "" : "s");
	compare_html_sprite(f, t);
	fputs("<h2 id='table'>The table</h2>\n<p>A column's name sorts by it "
	      "(numbers largest first; again: the other way).  <a "
	      "href='#by-input'>As given</a>.</p>\n", f);
	/* the default last: CSS hides it when another ordering is shown */
	for (c = 0; c < COMPARE_COL_MAX; c++) {
		err = compare_html_table(f, t, (int)c, false);
		if (!err)
			err = compare_html_table(f, t, (int)c, true);
		if (err)
			return err;
	}
	err = compare_html_table(f, t, -1, false);
	if (!err)
		err = compare_html_charts(f, t);
	if (err)
		return err;
	compare_html_lines(f, t);
	compare_html_sources(f, t);
	fputs("</body></html>\n", f);
	return ferror(f) ? -EIO : 0;
}
