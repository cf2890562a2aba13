// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_timeline.c - one disk of a recording as lanes of SVG on one
 * time axis: throughput (read and all, dips shaded), each SCSI command's
 * latency (timeouts marked, p99 per interval), commands in flight, xHCI
 * transfer events per endpoint by completion code, incident chains, and
 * markers (stress phases, key presses); every incident a numbered line
 * across all lanes.  report.html holds one per disk; "usbtrail report
 * --timeline" writes them as an SVG file of their own.
 *
 * The axis has one column per pixel: a long recording keeps the lowest
 * and highest value of each column (a one-interval dip in ten minutes
 * stays visible), so the size of the SVG depends on its width, not on
 * the recording's length.  No script: every lane is a <g class="lane-
 * NAME"> with a title, details are <title> tooltips.  Text from the
 * recording goes through report_esc().
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "timeline.h"
#include "util.h"

#define TL_W		960.0
#define TL_L		64.0	/* left margin: the lanes' scales */
#define TL_R		16.0
#define TL_COLS		880	/* TL_W - TL_L - TL_R: one a pixel */
#define TL_HEAD		50.0	/* the disk's title, incident numbers */
#define TL_TITLE	15.0	/* each lane's title */
#define TL_GAP		6.0	/* between lanes */
#define TL_ROW		14.0	/* a row of the xhci, incidents, markers lanes */
#define TL_AXIS		24.0
#define TL_EP_ROWS	8	/* endpoints shown; more are counted */
#define TL_CHAIN_ROWS	3
#define TL_CHAINS	64	/* chains drawn; more are counted */
#define TL_P99_SECS	0.5	/* the p99 line's interval, at least, */
#define TL_P99_COLS	8	/* and in columns: enough to rank */
#define TL_LAT_MIN	1e-4	/* the latency scale's bottom: 0.1 ms */

/* Lowest and highest value of one column. */
struct tl_bin {
	float lo, hi;
	bool any;
};

/* Where a lane is and how its values map to y. */
struct tl_lane {
	double top, h;		/* the plot area, below the title */
	double vmax;		/* linear: 0..vmax; log: TL_LAT_MIN..vmax */
	bool log;
};

/* One endpoint row of the xhci lane. */
struct tl_ep {
	const struct recording_ep *e;
	uint32_t ok[TL_COLS];		/* Success, Short Packet */
	uint32_t stop[TL_COLS];		/* other normal codes: Stopped, ... */
	uint32_t err[TL_COLS];		/* error codes */
	uint8_t err_cc[TL_COLS];	/* the last error code of a column */
	uint32_t streams_lo, streams_hi, nstreams;
	uint8_t stream_seen[65536 / 8];
};

/* One chain of incidents (timeout, aborts, resets, outcome) of the disk. */
struct tl_chain {
	unsigned int chain, row;
	double a, b;			/* its first and last incident */
	enum classify_kind last;
};

struct tl {
	const struct recording *r;
	const struct recording_disk *d;
	unsigned int disk;
	const size_t *idx;		/* incidents in time order */
	size_t n;
	double t0, t1, col_s;		/* the axis, s since start */
	double t_end;			/* the recording's end on it */
	char link[96];			/* "UAS, 5000 Mbit/s" */
	char mode[160];			/* "sda · UAS · 5000 Mbit/s" */

	struct tl_bin tput[TL_COLS], rd[TL_COLS];
	bool any_read;
	struct tl_bin lat[TL_COLS], infl[TL_COLS];
	float p99[TL_COLS];		/* < 0: none */
	struct tl_bin tmo[TL_COLS];	/* ages of timed-out commands */
	uint32_t ntmo[TL_COLS];
	bool tmo_unknown[TL_COLS];	/* a timeout of unknown age */
	double lat_max, p99_normal;
	unsigned int infl_max;
	bool infl_blk;			/* from samples: block requests */
	struct timeline_cmds cmds;
	struct tl_ep *eps;
	unsigned int neps, neps_more;
	bool any_xhci;			/* xhci-transfer records at all */
	struct tl_chain chains[TL_CHAINS];
	unsigned int nchains, chains_more, chain_rows;

	struct tl_lane l_tput, l_lat, l_infl;
	double y_xhci, y_inc, y_mark, y_axis, height;
	double lanes_top;		/* below the header */
};

static double tl_x(const struct tl *t, double s)
{
	if (s < t->t0)
		s = t->t0;
	if (s > t->t1)
		s = t->t1;
	return TL_L + (s - t->t0) / (t->t1 - t->t0) * TL_COLS;
}

/* the column of s seconds, -1 before the axis, TL_COLS after */
static int tl_col(const struct tl *t, double s)
{
	double c = floor((s - t->t0) / t->col_s);

	/* NaN (a time from a recording's nonsense) is before */
	if (!(c >= 0))
		return -1;
	return c < TL_COLS ? (int)c : TL_COLS;
}

static double tl_y(const struct tl_lane *l, double v)
{
	double f;

	if (l->log) {
		if (v < TL_LAT_MIN)
			v = TL_LAT_MIN;
		f = log10(v / TL_LAT_MIN) / log10(l->vmax / TL_LAT_MIN);
	} else {
		f = l->vmax > 0 ? v / l->vmax : 0;
	}
	if (f > 1)
		f = 1;
	if (f < 0)
		f = 0;
	return l->top + l->h - f * l->h;
}

static void tl_bin_add(struct tl_bin *b, double v)
{
	if (!b->any || v < b->lo)
		b->lo = (float)v;
	if (!b->any || v > b->hi)
		b->hi = (float)v;
	b->any = true;
}

/* v over [a, b) seconds into every column it touches */
static void tl_bins_span(const struct tl *t, struct tl_bin *bins, double a,
			 double b, double v)
{
	int c0 = tl_col(t, a), c1 = tl_col(t, b - t->col_s * 1e-3), c;

	if (c1 < 0 || c0 >= TL_COLS)
		return;
	if (c0 < 0)
		c0 = 0;
	if (c1 >= TL_COLS)
		c1 = TL_COLS - 1;
	for (c = c0; c <= c1; c++)
		tl_bin_add(&bins[c], v);
}

/* --- gathering ---------------------------------------------------------- */

static const struct recording_sample *tl_sample(const struct tl *t, size_t k)
{
	return &t->r->samples[t->d->first_sample + k];
}

/* Throughput and read throughput per column; idle gaps are 0. */
static void tl_gather_tput(struct tl *t)
{
	double last_end = -1;
	size_t k;

	for (k = 0; k < t->d->nsamples; k++) {
		const struct recording_sample *s = tl_sample(t, k);
		double a = report_rel(t->r, s->t_ns);
		double dt = s->s.interval_ms / 1000.0;
		double rd = dt > 0 ? (double)s->s.read_bytes / dt / 1e6 : 0;

		if (last_end >= 0 && a - last_end > dt / 2) {
			tl_bins_span(t, t->tput, last_end, a, 0);
			tl_bins_span(t, t->rd, last_end, a, 0);
		}
		tl_bins_span(t, t->tput, a, a + dt, s->s.mbps);
		tl_bins_span(t, t->rd, a, a + dt, rd);
		t->any_read |= s->s.read_bytes != 0;
		last_end = a + dt;
	}
}

static int tl_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Latency of each completed command at its completion, timeouts, p99 */
static int tl_gather_lat(struct tl *t)
{
	const struct timeline_cmds *c = &t->cmds;
	int group = (int)ceil(TL_P99_SECS / t->col_s), c0, col;
	double *v;
	size_t i, nv = 0;

	if (group < TL_P99_COLS)
		group = TL_P99_COLS;
	for (col = 0; col < TL_COLS; col++)
		t->p99[col] = -1;
	t->p99_normal = timeline_p99_normal(t->r, t->d->disk, c);
	/* (column, latency) pairs sorted give each group's values in a row */
	v = malloc((c->n + 1) * 2 * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < c->n; i++) {
		const struct timeline_cmd *cmd = &c->cmd[i];
		double l = timeline_cmd_latency(cmd);

		if (cmd->t_timeout_ns) {
			double tt = report_rel(t->r, cmd->t_timeout_ns);

			col = tl_col(t, tt);
			if (col >= 0 && col < TL_COLS) {
				t->ntmo[col]++;
				if (cmd->t_start_ns) {
					double age = (double)(cmd->t_timeout_ns -
							      cmd->t_start_ns) /
						     1e9;

					tl_bin_add(&t->tmo[col], age);
					if (age > t->lat_max)
						t->lat_max = age;
				} else {
					t->tmo_unknown[col] = true;
				}
			}
		}
		if (l < 0)
			continue;
		col = tl_col(t, report_rel(t->r, cmd->t_end_ns));
		if (col < 0 || col >= TL_COLS)
			continue;
		tl_bin_add(&t->lat[col], l);
		if (l > t->lat_max)
			t->lat_max = l;
		v[nv * 2] = col / group;
		v[nv * 2 + 1] = l;
		nv++;
	}
	/* pairs compare by their first half, the group: each group in a row */
	qsort(v, nv, 2 * sizeof(*v), tl_cmp_double);
	for (i = 0; i < nv;) {
		size_t j = i, k;
		double *lat;

		while (j < nv && v[j * 2] == v[i * 2])
			j++;
		lat = malloc((j - i) * sizeof(*lat));
		if (!lat) {
			free(v);
			return -ENOMEM;
		}
		for (k = i; k < j; k++)
			lat[k - i] = v[k * 2 + 1];
		c0 = (int)v[i * 2] * group;
		for (col = c0; col < c0 + group && col < TL_COLS; col++)
			t->p99[col] = (float)timeline_percentile(lat, j - i,
								  99);
		free(lat);
		i = j;
	}
	free(v);
	return 0;
}

struct tl_step {
	uint64_t t_ns;
	int d;
};

static int tl_cmp_step(const void *a, const void *b)
{
	const struct tl_step *x = a, *y = b;

	if (x->t_ns != y->t_ns)
		return x->t_ns < y->t_ns ? -1 : 1;
	return x->d - y->d;	/* ends first: no false peak */
}

/* Commands at the device per column, from their starts and ends. */
static int tl_gather_inflight(struct tl *t)
{
	const struct timeline_cmds *c = &t->cmds;
	struct tl_step *st;
	size_t i, n = 0, k = 0;
	int cur = 0, col;

	if (!c->n) {
		/* no SCSI records: the block requests of the samples */
		size_t j;

		t->infl_blk = true;
		for (j = 0; j < t->d->nsamples; j++) {
			const struct recording_sample *s = tl_sample(t, j);
			double a = report_rel(t->r, s->t_ns);

			tl_bins_span(t, t->infl, a, a + s->s.interval_ms /
				     1000.0, s->s.inflight);
			if (s->s.inflight > t->infl_max)
				t->infl_max = s->s.inflight;
		}
		return 0;
	}
	st = malloc(c->n * 2 * sizeof(*st));
	if (!st)
		return -ENOMEM;
	for (i = 0; i < c->n; i++) {
		if (!c->cmd[i].t_start_ns)
			continue;
		st[n++] = (struct tl_step){ c->cmd[i].t_start_ns, 1 };
		if (c->cmd[i].t_end_ns)
			st[n++] = (struct tl_step){ c->cmd[i].t_end_ns, -1 };
	}
	qsort(st, n, sizeof(*st), tl_cmp_step);
	/* what was open when the axis begins (a zoom) */
	for (; k < n && report_rel(t->r, st[k].t_ns) < t->t0; k++) {
		cur += st[k].d;
		if (cur < 0)
			cur = 0;
	}
	for (col = 0; col < TL_COLS; col++) {
		double end = t->t0 + (col + 1) * t->col_s;

		if (t->t0 + col * t->col_s > t->t_end)
			break;
		tl_bin_add(&t->infl[col], cur);
		while (k < n && report_rel(t->r, st[k].t_ns) < end) {
			cur += st[k++].d;
			if (cur < 0)
				cur = 0;
			tl_bin_add(&t->infl[col], cur);
			if ((unsigned int)cur > t->infl_max)
				t->infl_max = (unsigned int)cur;
		}
	}
	free(st);
	return 0;
}

static bool tl_ep_of_disk(const struct tl *t, const struct recording_ep *e)
{
	if (e->disk[0])
		return !strcmp(e->disk, t->d->disk);
	return e->busnum == t->d->busnum && e->devnum == t->d->devnum &&
	       e->busnum > 0;
}

/* the row of an xhci-transfer or URB record, or NULL */
static struct tl_ep *tl_ep_row(struct tl *t, unsigned int bus,
			       unsigned int dev, unsigned int epaddr, int dci)
{
	unsigned int i;

	for (i = 0; i < t->neps; i++) {
		const struct recording_ep *e = t->eps[i].e;

		if ((unsigned int)e->busnum == bus &&
		    (unsigned int)e->devnum == dev &&
		    (dci < 0 ? e->epaddr == epaddr :
		     (e->dci == (unsigned int)dci && e->epaddr == epaddr)))
			return &t->eps[i];
	}
	return NULL;
}

static int tl_gather_xhci(struct tl *t)
{
	unsigned int i;
	size_t k;

	for (i = 0; i < t->r->neps; i++) {
		if (!tl_ep_of_disk(t, &t->r->eps[i]))
			continue;
		if (t->neps == TL_EP_ROWS) {
			t->neps_more++;
			continue;
		}
		if (!t->eps) {
			t->eps = calloc(TL_EP_ROWS, sizeof(*t->eps));
			if (!t->eps)
				return -ENOMEM;
		}
		t->eps[t->neps++].e = &t->r->eps[i];
	}
	for (k = 0; k < t->r->ntraces; k++) {
		const struct usbtrail_record *rec = &t->r->traces[k].rec;
		struct tl_ep *row;
		int col;

		if (rec->type == USBTRAIL_REC_XHCI_TRANSFER)
			t->any_xhci = true;
		if (!t->neps)
			continue;
		if (rec->type == USBTRAIL_REC_URB_ENQUEUE &&
		    rec->u.urb.stream) {
			uint32_t s = rec->u.urb.stream & 0xffff;

			row = tl_ep_row(t, rec->u.urb.busnum, rec->u.urb.devnum,
					rec->u.urb.epaddr, -1);
			if (!row || row->stream_seen[s / 8] & (1u << (s % 8)))
				continue;
			row->stream_seen[s / 8] |= (uint8_t)(1u << (s % 8));
			if (!row->nstreams++ || s < row->streams_lo)
				row->streams_lo = s;
			if (s > row->streams_hi)
				row->streams_hi = s;
			continue;
		}
		if (rec->type != USBTRAIL_REC_XHCI_TRANSFER)
			continue;
		row = tl_ep_row(t, rec->u.xhci.busnum, rec->u.xhci.devnum,
				rec->u.xhci.epaddr, rec->u.xhci.ep);
		col = tl_col(t, report_rel(t->r, t->r->traces[k].t_ns));
		if (!row || col < 0 || col >= TL_COLS)
			continue;
		if (rec->u.xhci.cc == 1 || rec->u.xhci.cc == 13) {
			row->ok[col]++;
		} else if (recording_cc_normal(rec->u.xhci.cc)) {
			row->stop[col]++;
		} else {
			row->err[col]++;
			row->err_cc[col] = rec->u.xhci.cc;
		}
	}
	return 0;
}

static bool tl_disk_inc(const struct tl *t, const struct ev *ev)
{
	return !ev->ident.disk[0] || !strcmp(ev->ident.disk, t->d->disk);
}

/*
 * The disk's incident chains in order of their first incident, each
 * given a row of the incidents lane: the first whose last span ended a
 * quarter of the axis before (room for its text), else the last row.
 */
static void tl_gather_chains(struct tl *t)
{
	double row_end[TL_CHAIN_ROWS];
	size_t i;
	unsigned int k, r;

	for (i = 0; i < t->n; i++) {
		const struct ev *ev = &t->r->evs[t->idx[i]];
		unsigned int chain = ev->u.incident.inc.chain;
		double at = report_rel(t->r, ev->t_ns);
		struct tl_chain *c = NULL;

		if (!chain || !tl_disk_inc(t, ev))
			continue;
		for (k = 0; k < t->nchains; k++)
			if (t->chains[k].chain == chain)
				c = &t->chains[k];
		if (!c && t->nchains == TL_CHAINS) {
			t->chains_more++;
			continue;
		}
		if (!c) {
			c = &t->chains[t->nchains++];
			c->chain = chain;
			c->a = at;
		}
		c->b = at;
		c->last = ev->u.incident.inc.kind;
	}
	for (k = 0; k < t->nchains; k++) {
		struct tl_chain *c = &t->chains[k];

		if (c->b < t->t0 || c->a > t->t1)
			continue;
		for (r = 0; r < t->chain_rows; r++)
			if (row_end[r] < c->a)
				break;
		if (r == t->chain_rows && t->chain_rows < TL_CHAIN_ROWS)
			t->chain_rows++;
		if (r == TL_CHAIN_ROWS)
			r = TL_CHAIN_ROWS - 1;
		c->row = r;
		row_end[r] = c->b + (t->t1 - t->t0) * 0.25;
	}
}

/* "sda · UAS · 5000 Mbit/s" */
static void tl_mode(struct tl *t)
{
	const struct ev_device *dv = &t->d->device;
	const char *mode = "driver unknown";
	char speed[32];

	if (t->d->have_device && !strcmp(dv->driver, "uas"))
		mode = "UAS";
	else if (t->d->have_device && !strcmp(dv->driver, "usb-storage"))
		mode = "BOT (usb-storage)";
	else if (t->d->have_device && dv->driver[0])
		mode = dv->driver;
	util_format_speed(speed, sizeof(speed),
			  t->d->have_device ? dv->speed_mbps : 0);
	snprintf(t->link, sizeof(t->link), "%s, %s%s", mode,
		 t->d->have_device && dv->speed_mbps ? "" : "speed ", speed);
	snprintf(t->mode, sizeof(t->mode), "%s \xc2\xb7 %s \xc2\xb7 %s%s",
		 t->d->disk, mode, t->d->have_device && dv->speed_mbps ? "" :
		 "speed ", speed);
}

static void tl_layout(struct tl *t)
{
	double y = TL_HEAD, vmax = 1;

	t->lanes_top = y;
	t->l_tput = (struct tl_lane){ y + TL_TITLE, 100, t->d->max_mbps * 1.1,
				      false };
	if (!(t->l_tput.vmax > 0) || !isfinite(t->l_tput.vmax))
		t->l_tput.vmax = 1;
	y += TL_TITLE + 100 + TL_GAP;
	while (vmax < t->lat_max && vmax < 1e4)
		vmax *= 10;
	t->l_lat = (struct tl_lane){ y + TL_TITLE, 80, vmax, true };
	y += TL_TITLE + 80 + TL_GAP;
	t->l_infl = (struct tl_lane){ y + TL_TITLE, 36,
				      t->infl_max ? t->infl_max : 1, false };
	y += TL_TITLE + 36 + TL_GAP;
	t->y_xhci = y;
	y += TL_TITLE + TL_ROW * (t->neps ? t->neps : 1) + TL_GAP;
	t->y_inc = y;
	y += TL_TITLE + TL_ROW * (t->chain_rows + 1) + TL_GAP;
	t->y_mark = y;
	y += TL_TITLE + TL_ROW * 2;
	t->y_axis = y;
	t->height = y + TL_AXIS;
}

static void tl_free(struct tl *t)
{
	timeline_cmds_free(&t->cmds);
	free(t->eps);
}

/* Everything of disk di between from and to (s since start; to < 0: end) */
static int tl_gather(struct tl *t, const struct recording *r, unsigned int di,
		     const size_t *idx, size_t n, double from, double to)
{
	int err;

	memset(t, 0, sizeof(*t));
	t->r = r;
	t->d = &r->disks[di];
	t->disk = di;
	t->idx = idx;
	t->n = n;
	t->t_end = recording_seconds(r);
	if (report_rel(r, r->t_last_ns) > t->t_end)
		t->t_end = report_rel(r, r->t_last_ns);
	/* events from before the start (a kernel log backlog) */
	t->t0 = report_rel(r, r->t_first_ns) < 0 ?
		report_rel(r, r->t_first_ns) : 0;
	t->t1 = t->t_end > t->t0 ? t->t_end : t->t0 + 1;
	if (from >= 0)
		t->t0 = from;
	if (to >= 0)
		t->t1 = to;
	if (t->t1 <= t->t0)
		t->t1 = t->t0 + 1;
	/* times so large that a second is lost in them: an axis still */
	if (!(t->t1 - t->t0 >= 1e-6) || !isfinite(t->t1 - t->t0)) {
		t->t0 = 0;
		t->t1 = 1;
	}
	t->col_s = (t->t1 - t->t0) / TL_COLS;
	tl_mode(t);
	tl_gather_tput(t);
	err = timeline_cmds_load(r, t->d->disk, &t->cmds);
	if (!err)
		err = tl_gather_lat(t);
	if (!err)
		err = tl_gather_inflight(t);
	if (!err)
		err = tl_gather_xhci(t);
	tl_gather_chains(t);
	if (err) {
		tl_free(t);
		return err;
	}
	tl_layout(t);
	return 0;
}

/* --- drawing ------------------------------------------------------------ */

static double tl_cx(int col)
{
	return TL_L + col;
}

/*
 * A step line through the hi (or lo) value of each column with data,
 * broken where there is none: "M x y H x V y ..." (a run of equal
 * values is one H).
 */
static void tl_steps(FILE *f, const struct tl_bin *b, const struct tl_lane *l,
		     bool hi)
{
	double py = -1;
	bool open = false;
	int c;

	for (c = 0; c < TL_COLS; c++) {
		double y;

		if (!b[c].any) {
			if (open)
				fprintf(f, "H%.0f", tl_cx(c));
			open = false;
			continue;
		}
		y = tl_y(l, hi ? b[c].hi : b[c].lo);
		if (!open)
			fprintf(f, "M%.0f %.1f", tl_cx(c), y);
		else if (fabs(y - py) >= 0.05)
			fprintf(f, "H%.0fV%.1f", tl_cx(c), y);
		py = y;
		open = true;
	}
	if (open)
		fprintf(f, "H%.0f", tl_cx(TL_COLS));
}

/*
 * The band between lo and hi where a column holds more than one value,
 * class CLS-range.
 */
static bool tl_band(FILE *f, const struct tl_bin *b, const struct tl_lane *l,
		    const char *cls, const char *fill)
{
	bool any = false;
	int c, s, e;

	for (c = 0; c < TL_COLS; c++)
		if (b[c].any && tl_y(l, b[c].lo) - tl_y(l, b[c].hi) >= 1)
			break;
	if (c == TL_COLS)
		return false;
	fprintf(f, "<path class='%s-range' fill='%s' fill-opacity='0.25' "
		"stroke='none' d='", cls, fill);
	for (s = 0; s < TL_COLS; s = e) {
		while (s < TL_COLS && !b[s].any)
			s++;
		for (e = s; e < TL_COLS && b[e].any; e++)
			;
		if (s >= e)
			continue;
		fprintf(f, "M%.0f %.1f", tl_cx(s), tl_y(l, b[s].hi));
		for (c = s; c < e; c++)
			fprintf(f, "H%.0fV%.1f", tl_cx(c + 1),
				c + 1 < e ? tl_y(l, b[c + 1].hi) :
				tl_y(l, b[c].lo));
		for (c = e - 1; c >= s; c--)
			fprintf(f, "H%.0fV%.1f", tl_cx(c),
				c > s ? tl_y(l, b[c - 1].lo) : tl_y(l, b[c].hi));
		fputc('Z', f);
		any = true;
	}
	fputs("'/>\n", f);
	return any;
}

/* A series: its band of extremes (if asked) and its line, class CLS. */
static void tl_series(FILE *f, const struct tl_bin *b, const struct tl_lane *l,
		      const char *cls, const char *colour, double width,
		      bool band)
{
	if (band)
		tl_band(f, b, l, cls, colour);
	fprintf(f, "<path class='%s' fill='none' stroke='%s' "
		"stroke-width='%g' d='", cls, colour, width);
	tl_steps(f, b, l, true);
	fputs("'/>\n", f);
}

static void tl_title(FILE *f, const struct tl *t, double y, const char *what)
{
	fprintf(f, "<text class='lane-title' x='%.0f' y='%.1f' font-size='11' "
		"font-weight='bold'>", TL_L, y + 11);
	report_esc(f, what);
	fputs(" <tspan font-weight='normal' fill='#555'>", f);
	report_esc(f, t->mode);
	fputs("</tspan></text>\n", f);
}

/* a grey note across a lane with nothing to draw */
static void tl_note(FILE *f, double y, const char *text)
{
	fprintf(f, "<text class='lane-note' x='%.0f' y='%.1f' font-size='11' "
		"fill='#777'>", TL_L + 8, y);
	report_esc(f, text);
	fputs("</text>\n", f);
}

static void tl_frame(FILE *f, const struct tl_lane *l)
{
	fprintf(f, "<rect x='%.0f' y='%.1f' width='%d' height='%.1f' "
		"fill='none' stroke='#ccc'/>\n", TL_L, l->top, TL_COLS, l->h);
}

static void tl_yticks(FILE *f, const struct tl_lane *l, const double *v,
		      const char *const *label, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		double y = tl_y(l, v[i]);

		fprintf(f, "<line x1='%.0f' y1='%.1f' x2='%.0f' y2='%.1f' "
			"stroke='#eee'/><text x='%.0f' y='%.1f' font-size='10' "
			"text-anchor='end'>%s</text>\n", TL_L, y, TL_L + TL_COLS,
			y, TL_L - 4, y + 3.5, label[i]);
	}
}

/* the round step (1, 2 or 5 times a power of ten) giving n ticks or fewer */
static double tl_step(double span, int n)
{
	double raw = span / n, p = 1;

	if (!(raw > 1e-9) || !isfinite(raw))
		return 1;
	while (p * 10 <= raw)
		p *= 10;
	while (p > raw)
		p /= 10;
	if (raw <= p * 1.000001)
		return p;
	if (raw <= 2 * p)
		return 2 * p;
	return raw <= 5 * p ? 5 * p : 10 * p;
}

/*
 * Dips, from the samples' dip flags: shaded on the throughput lane and,
 * fainter, across the lanes below.
 */
static void tl_dips(FILE *f, const struct tl *t)
{
	double start = -1, end = 0, lo = t->l_lat.top - TL_TITLE;
	size_t k;

	for (k = 0; k <= t->d->nsamples; k++) {
		const struct recording_sample *s = k < t->d->nsamples ?
						   tl_sample(t, k) : NULL;
		double a = s ? report_rel(t->r, s->t_ns) : 0;
		double dt = s ? s->s.interval_ms / 1000.0 : 0;

		if (s && s->s.dip && start >= 0 && a <= end + dt / 2) {
			end = a + dt;
			continue;
		}
		if (start >= 0 && end > t->t0 && start < t->t1) {
			double x0 = tl_x(t, start), x1 = tl_x(t, end);

			fprintf(f, "<rect class='dip' x='%.1f' y='%.1f' "
				"width='%.1f' height='%.1f' fill='#e08000' "
				"fill-opacity='0.18'/>\n<rect class='dip-span' "
				"x='%.1f' y='%.1f' width='%.1f' height='%.1f' "
				"fill='#e08000' fill-opacity='0.07'/>\n", x0,
				t->l_tput.top, x1 - x0, t->l_tput.h, x0, lo,
				x1 - x0, t->y_axis - lo);
		}
		if (!s)
			break;
		start = s->s.dip ? a : -1;
		end = a + dt;
	}
}

static void tl_lane_tput(FILE *f, const struct tl *t)
{
	const struct tl_lane *l = &t->l_tput;
	double v[8], step = tl_step(l->vmax, 4);
	char lab[8][16];
	const char *labp[8];
	unsigned int n;

	fputs("<g class='lane-throughput'>\n", f);
	tl_title(f, t, l->top - TL_TITLE, t->any_read ?
		 "throughput, MB/s (blue: all, green: read)" :
		 "throughput, MB/s");
	for (n = 0; n < 8 && n * step <= l->vmax + 1e-9; n++) {
		v[n] = n * step;
		snprintf(lab[n], sizeof(lab[n]), "%g", v[n]);
		labp[n] = lab[n];
	}
	tl_yticks(f, l, v, labp, n);
	tl_frame(f, l);
	tl_dips(f, t);
	tl_series(f, t->tput, l, "throughput", "#1f5fbf", 2, true);
	if (t->any_read)
		tl_series(f, t->rd, l, "throughput-read", "#2a8a2a", 1, false);
	fputs("</g>\n", f);
}

static bool tl_any_unknown(const struct tl *t)
{
	int c;

	for (c = 0; c < TL_COLS; c++)
		if (t->tmo_unknown[c])
			return true;
	return false;
}

static void tl_lane_latency(FILE *f, const struct tl *t)
{
	static const char *const labs[] = { "0.1 ms", "1 ms", "10 ms",
					    "100 ms", "1 s", "10 s", "100 s",
					    "1000 s", "10000 s" };
	const struct tl_lane *l = &t->l_lat;
	double v[9], d = TL_LAT_MIN;
	unsigned int n = 0, tmo = 0;
	char buf[160];
	int c;

	fputs("<g class='lane-latency'>\n", f);
	tl_title(f, t, l->top - TL_TITLE, "SCSI command latency (dots; orange: "
		 "p99 per interval, red \xc3\x97: timed out)");
	for (; d <= l->vmax * 1.0001 && n < 9; d *= 10)
		v[n++] = d;
	tl_yticks(f, l, v, labs, n);
	tl_frame(f, l);
	if (!t->cmds.have_scsi) {
		tl_note(f, l->top + l->h / 2, "no SCSI command records in this "
			"recording (record with the module or tracefs)");
		fputs("</g>\n", f);
		return;
	}
	if (!t->cmds.n) {
		snprintf(buf, sizeof(buf), "no SCSI command of %s in this "
			 "recording", t->d->disk);
		tl_note(f, l->top + l->h / 2, buf);
	}
	if (t->p99_normal > 0) {
		double y = tl_y(l, t->p99_normal);

		fprintf(f, "<g class='p99-normal'><title>p99 outside dips: "
			"%.3g ms</title><line x1='%.0f' y1='%.1f' x2='%.0f' "
			"y2='%.1f' stroke='#777' stroke-dasharray='4,3'/></g>\n",
			t->p99_normal * 1e3, TL_L, y, TL_L + TL_COLS, y);
	}
	fputs("<path class='latency' fill='none' stroke='#1f5fbf' "
	      "stroke-opacity='0.7' stroke-width='2.5' stroke-linecap='round' "
	      "d='", f);
	for (c = 0; c < TL_COLS; c++)
		if (t->lat[c].any)
			fprintf(f, "M%.1f %.1fV%.1f", tl_cx(c) + 0.5,
				tl_y(l, t->lat[c].hi),
				tl_y(l, t->lat[c].lo) + 0.01);
	fputs("'/>\n<path class='p99' fill='none' stroke='#e08000' "
	      "stroke-width='1.5' d='", f);
	{
		struct tl_bin p[TL_COLS];

		for (c = 0; c < TL_COLS; c++) {
			p[c].any = t->p99[c] >= 0;
			p[c].lo = p[c].hi = t->p99[c];
		}
		tl_steps(f, p, l, true);
	}
	fputs("'/>\n", f);
	for (c = 0; c < TL_COLS; c++)
		tmo += t->ntmo[c];
	if (tmo) {
		fprintf(f, "<g class='timeout'><title>%u SCSI command timeout%s%s"
			"</title><path fill='none' stroke='#c00020' "
			"stroke-width='1.8' d='", tmo, tmo == 1 ? "" : "s",
			tl_any_unknown(t) ? " (at the top: its start is not "
			"in the recording)" : "");
		for (c = 0; c < TL_COLS; c++) {
			double x = tl_cx(c) + 0.5, y;

			if (!t->ntmo[c])
				continue;
			y = t->tmo[c].any ? tl_y(l, t->tmo[c].hi) : l->top + 4;
			fprintf(f, "M%.1f %.1fl7 7m0 -7l-7 7", x - 3.5, y - 3.5);
			if (t->tmo_unknown[c] && t->tmo[c].any)
				fprintf(f, "M%.1f %.1fl7 7m0 -7l-7 7", x - 3.5,
					l->top + 0.5);
		}
		fputs("'/></g>\n", f);
	}
	fputs("</g>\n", f);
}

static void tl_lane_inflight(FILE *f, const struct tl *t)
{
	const struct tl_lane *l = &t->l_infl;
	double v[2] = { 0, l->vmax };
	char top[16];
	const char *labs[2] = { "0", top };

	snprintf(top, sizeof(top), "%u", t->infl_max ? t->infl_max : 1);
	fputs("<g class='lane-inflight'>\n", f);
	tl_title(f, t, l->top - TL_TITLE, t->infl_blk ?
		 "block requests in flight (no SCSI command records: "
		 "record with the module or tracefs)" :
		 "SCSI commands queued at the device");
	tl_yticks(f, l, v, labs, 2);
	tl_frame(f, l);
	tl_series(f, t->infl, l, "inflight", "#8a2be2", 1.2, true);
	fputs("</g>\n", f);
}

/* one run of columns with error codes on an endpoint row */
static void tl_ep_errors(FILE *f, const struct tl *t, const struct tl_ep *row,
			 double y)
{
	int c, e;

	for (c = 0; c < TL_COLS; c = e) {
		uint64_t n = 0;
		unsigned int cc;

		if (!row->err[c]) {
			e = c + 1;
			continue;
		}
		for (e = c; e < TL_COLS && row->err[e]; e++)
			n += row->err[e];
		cc = row->err_cc[c];
		fprintf(f, "<g class='cc-error'><title>%" PRIu64 " error "
			"completion%s from +%.3f s: code %u ", n, n == 1 ? "" :
			"s", t->t0 + c * t->col_s, cc);
		report_esc(f, recording_cc_name(cc));
		fputs(" (", f);
		report_esc(f, recording_cc_meaning(cc));
		fprintf(f, ")</title><rect x='%.0f' y='%.1f' width='%d' "
			"height='%.1f' fill='#c00020'/></g>\n", tl_cx(c) - 1,
			y + 1, e - c + 2, TL_ROW - 2);
	}
}

static void tl_lane_xhci(FILE *f, const struct tl *t)
{
	double y = t->y_xhci + TL_TITLE;
	char title[512];
	size_t off;
	unsigned int i, ns = 0;
	int c, m;

	m = snprintf(title, sizeof(title), "xHCI transfer events (grey: "
		     "success, amber: stopped, red: error codes)");
	off = m > 0 ? (size_t)m : 0;
	for (i = 0; i < t->neps && off < sizeof(title); i++) {
		if (!t->eps[i].nstreams)
			continue;
		m = snprintf(title + off, sizeof(title) - off, "%s0x%02x %u-%u",
			     ns++ ? ", " : "; bulk streams ",
			     t->eps[i].e->epaddr, t->eps[i].streams_lo,
			     t->eps[i].streams_hi);
		if (m < 0 || (size_t)m >= sizeof(title) - off)
			break;
		off += (size_t)m;
	}
	fputs("<g class='lane-xhci'>\n", f);
	tl_title(f, t, t->y_xhci, title);
	if (!t->neps) {
		tl_note(f, y + 10, t->any_xhci ?
			"no xHCI transfer records of this disk's endpoints" :
			"no xHCI transfer records in this recording (record "
			"with the module or tracefs)");
		fputs("</g>\n", f);
		return;
	}
	for (i = 0; i < t->neps; i++) {
		const struct tl_ep *row = &t->eps[i];
		const struct recording_ep *e = row->e;
		double ry = y + i * TL_ROW;
		uint32_t mx = 1;

		fprintf(f, "<g class='endpoint'><title>bus %d device %d, ",
			e->busnum, e->devnum);
		if (e->epaddr != 0xff)
			fprintf(f, "endpoint 0x%02x %s", e->epaddr,
				e->epaddr & 0x80 ? "IN" : "OUT");
		else
			fprintf(f, "DCI %u", e->dci);
		fprintf(f, ": %" PRIu64 " transfer events", e->total);
		if (row->nstreams)
			fprintf(f, ", %u stream ids (%u-%u)", row->nstreams,
				row->streams_lo, row->streams_hi);
		fputs("</title>", f);
		if (e->epaddr == 0)
			fprintf(f, "<text x='%.0f' y='%.1f' font-size='10' "
				"text-anchor='end'>ep0</text>", TL_L - 4,
				ry + 10);
		else if (e->epaddr != 0xff)
			fprintf(f, "<text x='%.0f' y='%.1f' font-size='10' "
				"text-anchor='end'>0x%02x %s</text>", TL_L - 4,
				ry + 10, e->epaddr, e->epaddr & 0x80 ? "in" :
				"out");
		else
			fprintf(f, "<text x='%.0f' y='%.1f' font-size='10' "
				"text-anchor='end'>dci %u</text>", TL_L - 4,
				ry + 10, e->dci);
		fprintf(f, "<line x1='%.0f' y1='%.1f' x2='%.0f' y2='%.1f' "
			"stroke='#eee'/>\n", TL_L, ry + TL_ROW - 0.5,
			TL_L + TL_COLS, ry + TL_ROW - 0.5);
		for (c = 0; c < TL_COLS; c++)
			if (row->ok[c] > mx)
				mx = row->ok[c];
		/* ticks from the row's bottom, log of the count */
		fputs("<path fill='none' stroke='#999' d='", f);
		for (c = 0; c < TL_COLS; c++)
			if (row->ok[c])
				fprintf(f, "M%.1f %.1fv-%.1f", tl_cx(c) + 0.5,
					ry + TL_ROW - 1, 3 + 8 *
					log1p(row->ok[c]) / log1p(mx));
		fputs("'/><path fill='none' stroke='#e0a000' "
		      "stroke-width='1.5' d='", f);
		for (c = 0; c < TL_COLS; c++)
			if (row->stop[c])
				fprintf(f, "M%.1f %.1fv-%.1f", tl_cx(c) + 0.5,
					ry + TL_ROW - 1, TL_ROW - 3);
		fputs("'/></g>\n", f);
		tl_ep_errors(f, t, row, ry);
	}
	if (t->neps_more) {
		snprintf(title, sizeof(title), "%u more endpoints not drawn",
			 t->neps_more);
		tl_note(f, y + t->neps * TL_ROW - 2, title);
	}
	fputs("</g>\n", f);
}

/* what a chain came to: "chain 1: timeout, abort ×8, reset, recovered" */
static void tl_chain_text(const struct tl *t, unsigned int chain, char *buf,
			  size_t len)
{
	unsigned int count[CLASSIFY_KIND_COUNT] = { 0 };
	enum classify_kind order[CLASSIFY_KIND_COUNT];
	unsigned int norder = 0, k;
	size_t i, off;
	int m;

	for (i = 0; i < t->n; i++) {
		const struct ev *ev = &t->r->evs[t->idx[i]];
		enum classify_kind kind = ev->u.incident.inc.kind;

		if (ev->u.incident.inc.chain != chain || !tl_disk_inc(t, ev) ||
		    kind >= CLASSIFY_KIND_COUNT)
			continue;
		if (!count[kind]++)
			order[norder++] = kind;
	}
	m = snprintf(buf, len, "chain %u:", chain);
	off = m > 0 && (size_t)m < len ? (size_t)m : 0;
	for (k = 0; k < norder; k++) {
		m = snprintf(buf + off, len - off, "%s %s", k ? "," : "",
			     classify_kind_name(order[k]));
		if (m < 0 || (size_t)m >= len - off)
			break;
		off += (size_t)m;
		if (count[order[k]] < 2)
			continue;
		m = snprintf(buf + off, len - off, " \xc3\x97%u",
			     count[order[k]]);
		if (m < 0 || (size_t)m >= len - off)
			break;
		off += (size_t)m;
	}
}

static void tl_lane_incidents(FILE *f, const struct tl *t)
{
	double y = t->y_inc + TL_TITLE;
	unsigned int k, others = 0;
	size_t i;
	char text[256];

	fputs("<g class='lane-incidents'>\n", f);
	tl_title(f, t, t->y_inc, "incidents (chains: timeout to recovery "
		 "or offline)");
	for (k = 0; k < t->nchains; k++) {
		const struct tl_chain *c = &t->chains[k];
		const char *fill = c->last == CLASSIFY_RECOVERED ? "#2a8a2a" :
				   classify_kind_class(c->last) ==
				   CLASSIFY_CLASS_ERROR ? "#c00020" : "#8a2be2";
		double x0 = tl_x(t, c->a), x1 = tl_x(t, c->b);
		/* late in the axis, the text goes before the span */
		bool right = x0 > TL_L + TL_COLS * 0.6;

		if (c->b < t->t0 || c->a > t->t1)
			continue;
		if (x1 - x0 < 3)
			x1 = x0 + 3;
		tl_chain_text(t, c->chain, text, sizeof(text));
		fprintf(f, "<g class='chain'><title>%s; +%.3f s to +%.3f s "
			"(%.1f s)</title><rect x='%.1f' y='%.1f' width='%.1f' "
			"height='%.1f' rx='2' fill='%s' fill-opacity='0.3' "
			"stroke='%s'/><text x='%.1f' y='%.1f' font-size='10'%s>",
			text, c->a, c->b, c->b - c->a, x0,
			y + c->row * TL_ROW + 1, x1 - x0, TL_ROW - 2, fill,
			fill, right ? x0 - 3 : x0 + 3,
			y + c->row * TL_ROW + 10.5,
			right ? " text-anchor='end'" : "");
		report_esc(f, text);
		fputs("</text></g>\n", f);
	}
	/* incidents in no chain: a diamond each on the last row */
	y += t->chain_rows * TL_ROW;
	for (i = 0; i < t->n; i++) {
		const struct ev *ev = &t->r->evs[t->idx[i]];
		double a = report_rel(t->r, ev->t_ns);

		if (!tl_disk_inc(t, ev) || ev->u.incident.inc.chain)
			continue;
		others++;
		if (a < t->t0 || a > t->t1)
			continue;
		ev_incident_summary(ev, text, sizeof(text));
		fprintf(f, "<g class='incident'><title>#%zu +%.3f s ", i + 1, a);
		report_esc(f, text);
		fprintf(f, "</title><path d='M%.1f %.1fl4 5l-4 5l-4 -5Z' "
			"fill='%s'/></g>\n", tl_x(t, a), y + 2,
			report_kind_colour(ev->u.incident.inc.kind));
	}
	if (!t->nchains && !others) {
		snprintf(text, sizeof(text), "no incidents on %s", t->d->disk);
		tl_note(f, y + 10, text);
	}
	if (t->chains_more) {
		snprintf(text, sizeof(text), "%u more chains not drawn",
			 t->chains_more);
		tl_note(f, y + 10, text);
	}
	fputs("</g>\n", f);
}

static void tl_lane_markers(FILE *f, const struct tl *t)
{
	double y = t->y_mark + TL_TITLE;
	unsigned int i, shown = 0;
	char label[64];
	size_t k;

	fputs("<g class='lane-markers'>\n", f);
	tl_title(f, t, t->y_mark, "markers (usbtrail stress phases, "
		 "--marker-key presses)");
	for (i = 0; i < t->r->nstress; i++) {
		const struct recording_stress *s = &t->r->stress[i];
		double a = report_rel(t->r, s->t_start_ns);
		double b = s->ended ? report_rel(t->r, s->t_end_ns) : t->t_end;
		double x0, x1;

		if (b < t->t0 || a > t->t1)
			continue;
		x0 = tl_x(t, a);
		x1 = tl_x(t, b);
		recording_stress_label(s, label, sizeof(label));
		fputs("<g class='stress'><title>usbtrail stress ", f);
		report_esc(f, s->name);
		fprintf(f, " %s, +%.3f s to +%.3f s%s, %u error%s</title>"
			"<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' "
			"fill='%s' fill-opacity='0.15' stroke='#777'/>", label,
			a, b, s->ended ? "" : " (cut)", s->errors,
			s->errors == 1 ? "" : "s", x0, y + 1,
			x1 - x0 > 1 ? x1 - x0 : 1, TL_ROW - 2,
			s->write ? "#1f5fbf" : "#2a8a2a");
		if (x1 - x0 > 40) {
			fprintf(f, "<text x='%.1f' y='%.1f' font-size='10'>",
				x0 + 3, y + 10.5);
			report_esc(f, s->name);
			fprintf(f, " %s</text>", label);
		}
		fputs("</g>\n", f);
		shown++;
	}
	for (k = 0; k < t->r->nevs; k++) {
		const struct ev *ev = &t->r->evs[k];
		double a = report_rel(t->r, ev->t_ns), x;
		bool err;

		if (ev->type != EV_MARKER || a < t->t0 || a > t->t1)
			continue;
		err = ev->u.marker.kind == EV_MARKER_STRESS &&
		      strstr(ev->u.marker.text, " event=error ");
		if (ev->u.marker.kind == EV_MARKER_STRESS && !err)
			continue;
		x = tl_x(t, a);
		fprintf(f, "<g class='marker'><title>+%.3f s ", a);
		report_esc(f, ev->u.marker.text);
		fprintf(f, "</title><line x1='%.1f' y1='%.1f' x2='%.1f' "
			"y2='%.1f' stroke='%s' stroke-width='2'/></g>\n", x,
			y + (err ? 1 : TL_ROW + 1), x, y + (err ? TL_ROW - 1 :
			2 * TL_ROW - 1), err ? "#c00020" :
			ev->u.marker.kind == EV_MARKER_KEY ? "#000" : "#777");
		shown++;
	}
	if (!shown)
		tl_note(f, y + 10, "no markers in this recording");
	fputs("</g>\n", f);
}

static void tl_axis(FILE *f, const struct tl *t)
{
	double step = tl_step(t->t1 - t->t0, 15), v;
	int i;

	fprintf(f, "<g class='axis'><line x1='%.0f' y1='%.1f' x2='%.0f' "
		"y2='%.1f' stroke='#444'/>\n", TL_L, t->y_axis, TL_L + TL_COLS,
		t->y_axis);
	/* counted, not summed: a step lost in a huge time ends too */
	for (i = 0; i <= 16; i++) {
		double x;

		v = (ceil(t->t0 / step) + i) * step;
		if (v > t->t1 + 1e-9)
			break;
		x = tl_x(t, v);

		fprintf(f, "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' "
			"stroke='#000' stroke-opacity='0.06'/><text x='%.1f' "
			"y='%.1f' font-size='10' text-anchor='middle'>%g s"
			"</text>\n", x, t->lanes_top, x, t->y_axis + 4, x,
			t->y_axis + 15, fabs(v) < 1e-9 ? 0 : v);
	}
	fputs("</g>\n", f);
}

/* every incident of the disk: a numbered line across the lanes */
static void tl_marks(FILE *f, const struct tl *t)
{
	double last[3] = { -1e9, -1e9, -1e9 };	/* label x per row */
	char sum[600];
	size_t i;

	for (i = 0; i < t->n; i++) {
		const struct ev *ev = &t->r->evs[t->idx[i]];
		enum classify_kind k = ev->u.incident.inc.kind;
		double a = report_rel(t->r, ev->t_ns), x;
		int row;

		if (!tl_disk_inc(t, ev) || a < t->t0 || a > t->t1)
			continue;
		x = tl_x(t, a);
		/* numbers of close marks go to the next row up, or none */
		for (row = 0; row < 3; row++)
			if (x - last[row] >= 16)
				break;
		ev_incident_summary(ev, sum, sizeof(sum));
		fprintf(f, "<g class='mark'><title>#%zu +%.3f s ", i + 1, a);
		report_esc(f, sum);
		fprintf(f, "</title><line x1='%.1f' y1='%.1f' x2='%.1f' "
			"y2='%.1f' stroke='%s' stroke-width='1.2' "
			"stroke-opacity='0.7' stroke-dasharray='%s'/>", x,
			t->lanes_top - 2, x, t->y_axis, report_kind_colour(k),
			k == CLASSIFY_ABORT ? "2,2" : "none");
		if (row < 3) {
			fprintf(f, "<text x='%.1f' y='%.1f' font-size='10' "
				"fill='%s' text-anchor='middle'>%zu</text>",
				x, t->lanes_top - 5 - 11.0 * row,
				report_kind_colour(k), i + 1);
			last[row] = x;
		}
		fputs("</g>\n", f);
	}
}

static void tl_draw(FILE *f, const struct tl *t)
{
	const struct ev_device *dv = &t->d->device;

	fprintf(f, "<text class='disk-title' x='4' y='14' font-size='13' "
		"font-weight='bold'>");
	report_esc(f, t->d->disk);
	fputs("</text><text x='60' y='14' font-size='12'>", f);
	if (t->d->have_device) {
		fprintf(f, "%04x:%04x ", dv->vid, dv->pid);
		report_esc(f, dv->product);
		fputs(", ", f);
	}
	report_esc(f, t->link);
	fprintf(f, ", usb %s; +%.1f s to +%.1f s since recording began</text>\n",
		t->d->usb[0] ? t->d->usb : "?", t->t0, t->t1);
	tl_lane_tput(f, t);
	tl_lane_latency(f, t);
	tl_lane_inflight(f, t);
	tl_lane_xhci(f, t);
	tl_lane_incidents(f, t);
	tl_lane_markers(f, t);
	tl_axis(f, t);
	tl_marks(f, t);
}

int report_timeline_svg(FILE *f, const struct recording *r, unsigned int disk,
			const size_t *idx, size_t n, double from, double to)
{
	struct tl *t = malloc(sizeof(*t));
	int err;

	if (!t)
		return -ENOMEM;
	err = tl_gather(t, r, disk, idx, n, from, to);
	if (err) {
		free(t);
		return err;
	}
	fprintf(f, "<svg class='plot' xmlns='http://www.w3.org/2000/"
		"svg' width='%.0f' height='%.0f' viewBox='0 0 %.0f %.0f' "
		"role='img' font-family='system-ui,sans-serif' aria-label='",
		TL_W, t->height, TL_W, t->height);
	report_esc(f, t->d->disk);
	fputs(": throughput, SCSI latency, commands in flight, xHCI events, "
	      "incidents and markers over time'>\n<g class='timeline'>\n", f);
	tl_draw(f, t);
	fputs("</g>\n</svg>\n", f);
	tl_free(t);
	free(t);
	return ferror(f) ? -EIO : 0;
}

int report_timeline_write(FILE *f, const struct recording *r,
			  const struct report_opts *o)
{
	struct tl *t = malloc(sizeof(*t));
	size_t *idx, n;
	double height = 0;
	unsigned int i;
	int err = 0;

	idx = report_incidents(r, &n);
	if (!t || !idx) {
		free(t);
		free(idx);
		return -ENOMEM;
	}
	/* the heights first: the document's size comes before its lanes */
	for (i = 0; i < r->ndisks && !err; i++) {
		if (!r->disks[i].nsamples)
			continue;
		err = tl_gather(t, r, i, idx, n, o->from, o->to);
		if (!err) {
			height += t->height;
			tl_free(t);
		}
	}
	if (!err && height <= 0)
		err = -ENODATA;
	if (!err) {
		fprintf(f, "<?xml version='1.0' encoding='UTF-8'?>\n<svg "
			"xmlns='http://www.w3.org/2000/svg' width='%.0f' "
			"height='%.0f' viewBox='0 0 %.0f %.0f' "
			"font-family='system-ui,sans-serif'>\n<title>usbtrail "
			"timeline of ", TL_W, height, TL_W, height);
		report_esc(f, o->dir);
		fprintf(f, "</title>\n<rect width='%.0f' height='%.0f' "
			"fill='#fff'/>\n", TL_W, height);
	}
	height = 0;
	for (i = 0; i < r->ndisks && !err; i++) {
		if (!r->disks[i].nsamples)
			continue;
		err = tl_gather(t, r, i, idx, n, o->from, o->to);
		if (err)
			break;
		fprintf(f, "<g class='timeline' transform='translate(0 %.0f)'>\n",
			height);
		tl_draw(f, t);
		fputs("</g>\n", f);
		height += t->height;
		tl_free(t);
	}
	if (!err)
		fputs("</svg>\n", f);
	free(t);
	free(idx);
	if (err)
		return err;
	return ferror(f) ? -EIO : 0;
}
