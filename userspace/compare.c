// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare.c - a loaded recording into rows of the comparison table
 * (compare.h): per disk its identity (port, ID, bridge, host controller,
 * link speed, driver, the uas verdict), the CrystalDiskMark figures of
 * the "usbtrail stress" phases run on it, the p99 of its SCSI commands'
 * completion latency, its dips and incidents, its throughput over the
 * run.  Pure: it reads struct recording only; the writers take the rows.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "datatab.h"
#include "report.h"
#include "util.h"

/* The name and kind of each column of enum compare_col, in its order. */
static const struct {
	const char *name;
	bool numeric;
} compare_cols[COMPARE_COL_MAX] = {
	[COMPARE_COL_DISK]		= { "disk", false },
	[COMPARE_COL_USB]		= { "usb", false },
	[COMPARE_COL_VID_PID]		= { "vid_pid", false },
	[COMPARE_COL_BRIDGE]		= { "bridge", false },
	[COMPARE_COL_HOST_CONTROLLER]	= { "host_controller", false },
	[COMPARE_COL_LINK_MBPS]		= { "link_mbps", true },
	[COMPARE_COL_DRIVER]		= { "driver", false },
	[COMPARE_COL_UAS]		= { "uas", false },
	[COMPARE_COL_UAS_REASON]	= { "uas_reason", false },
	[COMPARE_COL_SEQ_READ]		= { "seq_read_mbs", true },
	[COMPARE_COL_SEQ_WRITE]		= { "seq_write_mbs", true },
	[COMPARE_COL_Q1_READ]		= { "rnd4k_q1_read_mbs", true },
	[COMPARE_COL_Q1_WRITE]		= { "rnd4k_q1_write_mbs", true },
	[COMPARE_COL_Q32_READ]		= { "rnd4k_q32_read_mbs", true },
	[COMPARE_COL_Q32_WRITE]		= { "rnd4k_q32_write_mbs", true },
	[COMPARE_COL_LAT_P99]		= { "lat_p99_ms", true },
	[COMPARE_COL_DIPS]		= { "dips", true },
	[COMPARE_COL_INCIDENTS]		= { "incidents", true },
	[COMPARE_COL_HOST]		= { "host", false },
	[COMPARE_COL_KERNEL]		= { "kernel", false },
	[COMPARE_COL_RECORDING]		= { "recording", false },
};

const char *compare_col_name(enum compare_col c)
{
	return c < COMPARE_COL_MAX && compare_cols[c].name ?
	       compare_cols[c].name : "?";
}

bool compare_col_numeric(enum compare_col c)
{
	return c < COMPARE_COL_MAX && compare_cols[c].numeric;
}

void compare_init(struct compare_table *t)
{
	memset(t, 0, sizeof(*t));
}

void compare_free(struct compare_table *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nsources; i++) {
		free(t->sources[i].name);
		free(t->sources[i].href);
		free(t->sources[i].make);
	}
	free(t->sources);
	free(t->rows);
	compare_init(t);
}

const char *const compare_format_names[] = {
	[COMPARE_FORMAT_HTML] = "html",
	[COMPARE_FORMAT_MD] = "md",
	[COMPARE_FORMAT_CSV] = "csv",
	NULL
};

int compare_format_guess(const char *path, enum compare_format *out)
{
	const char *dot = strrchr(path, '.');
	unsigned int i;

	if (!dot || strchr(dot, '/'))
		return -EINVAL;
	if (!strcasecmp(dot, ".htm")) {
		*out = COMPARE_FORMAT_HTML;
		return 0;
	}
	for (i = 0; compare_format_names[i]; i++)
		if (!strcasecmp(dot + 1, compare_format_names[i])) {
			*out = (enum compare_format)i;
			return 0;
		}
	return -EINVAL;
}

static void compare_text(struct compare_row *row, enum compare_col c,
			 const char *s)
{
	if (!s || !s[0])
		return;
	row->cell[c].have = true;
	snprintf(row->cell[c].s, sizeof(row->cell[c].s), "%s", s);
}

static void compare_num(struct compare_row *row, enum compare_col c,
			double v, int decimals)
{
	row->cell[c].have = true;
	row->cell[c].v = v;
	snprintf(row->cell[c].s, sizeof(row->cell[c].s), "%.*f", decimals, v);
}

/* --- the figures of usbtrail stress ------------------------------------- */

/*
 * One CrystalDiskMark row, one way: the bytes and seconds of its phases,
 * or for a test of --profile cdm (phases with a pass) the best scored
 * pass's MB/s, the figure stress printed; the warm-up does not count.
 */
struct compare_group {
	char label[32];
	bool write;
	bool cdm;
	uint64_t bytes;
	double secs;
	double best;		/* cdm: MB/s of the best pass, 0 none */
};

#define COMPARE_GROUPS_MAX	RECORDING_STRESS_MAX

struct compare_disk {
	bool stress, incidents, row;
	struct compare_group g[COMPARE_GROUPS_MAX];
	unsigned int ng;
	unsigned int dips, nincidents;
};

static void compare_group_add(struct compare_disk *cd,
			      const struct recording_stress *s,
			      const char *label)
{
	unsigned int i;

	for (i = 0; i < cd->ng; i++)
		if (cd->g[i].write == s->write && !strcmp(cd->g[i].label, label))
			break;
	if (i == cd->ng) {
		if (cd->ng == COMPARE_GROUPS_MAX)
			return;
		memset(&cd->g[i], 0, sizeof(cd->g[i]));
		snprintf(cd->g[i].label, sizeof(cd->g[i].label), "%s", label);
		cd->g[i].write = s->write;
		cd->ng++;
	}
	cd->g[i].bytes += s->bytes;
	if (s->pass < 0) {
		cd->g[i].secs += s->secs;
		return;
	}
	cd->g[i].cdm = true;
	if (s->pass > 0 && s->bytes && s->mbps > cd->g[i].best)
		cd->g[i].best = s->mbps;
}

static void compare_stress(const struct recording *r, struct compare_disk *cd)
{
	char label[32];
	unsigned int i;

	for (i = 0; i < r->nstress; i++) {
		const struct recording_stress *s = &r->stress[i];
		int d;

		/* a phase cut short (killed, the disk gone) has no rate */
		if (!s->ended || !(s->secs > 0))
			continue;
		/* mixed sizes and random rewrites: no row of CrystalDiskMark */
		if (!strcmp(s->name, "mixed"))
			continue;
		d = recording_stress_disk(r, s);
		if (d < 0)
			continue;
		recording_stress_label(s, label, sizeof(label));
		cd[d].stress = true;
		compare_group_add(&cd[d], s, label);
	}
}

/* the MB/s of a row of CrystalDiskMark, one way, into the cell */
static void compare_rate(struct compare_row *row, enum compare_col c,
			 const struct compare_group *g)
{
	/* 1 decimal, as usbtrail stress prints its tables */
	if (g && g->cdm && g->best > 0)
		compare_num(row, c, g->best, 1);
	else if (g && !g->cdm && g->secs > 0)
		compare_num(row, c, (double)g->bytes / g->secs / 1e6, 1);
}

static const struct compare_group *compare_group_find(
	const struct compare_disk *cd, const char *label, bool write)
{
	unsigned int i;

	for (i = 0; i < cd->ng; i++)
		if (cd->g[i].write == write && !strcmp(cd->g[i].label, label))
			return &cd->g[i];
	return NULL;
}

/*
 * The sequential figure: --profile cdm's first sequential test (SEQ1M
 * Q8T1 unless --block or --qd changed it), else the sequential row that
 * moved the most bytes that way (the only one in seq and soak; in sweep
 * the block size that ran fastest).
 */
static const struct compare_group *compare_group_seq(
	const struct compare_disk *cd, bool write)
{
	const struct compare_group *best = NULL;
	unsigned int i;

	for (i = 0; i < cd->ng; i++)
		if (cd->g[i].write == write && cd->g[i].cdm &&
		    !strncmp(cd->g[i].label, "SEQ", 3))
			return &cd->g[i];
	for (i = 0; i < cd->ng; i++)
		if (cd->g[i].write == write && !strncmp(cd->g[i].label, "SEQ", 3) &&
		    (!best || cd->g[i].bytes > best->bytes))
			best = &cd->g[i];
	return best;
}

/* --- latency ------------------------------------------------------------ */

struct compare_cmd {
	int disk;			/* one disk is one LUN: its tags */
	uint32_t key;
	uint64_t t_ns;
	size_t order;			/* file order, for equal times */
	bool done;
};

static int compare_cmp_cmd(const void *a, const void *b)
{
	const struct compare_cmd *x = a, *y = b;

	if (x->disk != y->disk)
		return x->disk < y->disk ? -1 : 1;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->t_ns != y->t_ns)
		return x->t_ns < y->t_ns ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

static int compare_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * Whether the trace records are all there: a bundle keeps them only
 * around incidents (and the fixtures are trimmed so), which would make
 * the latency of the worst moments the whole story.
 */
static bool compare_traces_whole(const struct recording *r)
{
	uint64_t n;

	return !recording_meta_u64(r, "events", "trace", &n) ||
	       n <= r->count[EV_TRACE];
}

/*
 * p99 of the completion latency of each disk's SCSI reads and writes,
 * scsi-start to scsi-done of the same command (its tag), in ms
 * into p99[]; NaN where there is none.  0 or -ENOMEM.
 */
static int compare_latency(const struct recording *r, double *p99)
{
	struct compare_cmd *c;
	uint64_t *lat = NULL;
	size_t i, n = 0, nl;
	unsigned int d;

	for (d = 0; d < r->ndisks; d++)
		p99[d] = NAN;
	if (!r->ntraces || !compare_traces_whole(r))
		return 0;
	c = calloc(r->ntraces, sizeof(*c));
	if (!c)
		return -ENOMEM;
	for (i = 0; i < r->ntraces; i++) {
		const struct usbtrail_record *rec = &r->traces[i].rec;
		const struct usbtrail_rec_scsi *s = &rec->u.scsi;
		char disk[sizeof(s->disk) + 1];
		int k;

		if ((rec->type != USBTRAIL_REC_SCSI_START &&
		     rec->type != USBTRAIL_REC_SCSI_DONE) || s->lba == ~0ull)
			continue;
		util_copy(disk, sizeof(disk), s->disk, strnlen(s->disk,
							     sizeof(s->disk)));
		k = recording_disk_find(r, disk);
		if (k < 0)
			continue;
		c[n++] = (struct compare_cmd){
			.disk = k,
			.key = s->tag,
			.t_ns = r->traces[i].t_ns,
			.order = i,
			.done = rec->type == USBTRAIL_REC_SCSI_DONE,
		};
	}
	if (n)
		lat = malloc(n * sizeof(*lat));
	if (n && !lat) {
		free(c);
		return -ENOMEM;
	}
	qsort(c, n, sizeof(*c), compare_cmp_cmd);
	for (i = 0; i < n; ) {
		size_t j;

		d = (unsigned int)c[i].disk;
		nl = 0;
		/* each done against the latest start of its tag before it */
		for (j = i; j < n && c[j].disk == (int)d; j++)
			if (c[j].done && j > i && !c[j - 1].done &&
			    c[j - 1].key == c[j].key)
				lat[nl++] = c[j].t_ns - c[j - 1].t_ns;
		i = j;
		if (!nl)
			continue;
		qsort(lat, nl, sizeof(*lat), compare_cmp_u64);
		/* nearest rank: the smallest value with 99% at or below it */
		p99[d] = (double)lat[(nl * 99 + 99) / 100 - 1] / 1e6;
	}
	free(lat);
	free(c);
	return 0;
}

/* --- incidents, throughput --------------------------------------------- */

static void compare_incidents(const struct recording *r,
			      struct compare_disk *cd)
{
	size_t i;
	int d;

	for (i = 0; i < r->nevs; i++) {
		const struct ev *ev = &r->evs[i];
		unsigned int k;

		if (ev->type != EV_INCIDENT)
			continue;
		d = ev->ident.disk[0] ? recording_disk_find(r, ev->ident.disk) :
		    -1;
		/* a reset or disconnect names the port, not the disk */
		for (k = 0; d < 0 && ev->ident.usb[0] && k < r->ndisks; k++)
			if (!strcmp(r->disks[k].usb, ev->ident.usb))
				d = (int)k;
		if (d < 0)
			continue;
		cd[d].incidents = true;
		if (ev->u.incident.inc.kind == CLASSIFY_DIP)
			cd[d].dips++;
		else
			cd[d].nincidents++;
	}
}

static void compare_throughput(const struct recording *r,
			       const struct recording_disk *d,
			       struct compare_row *row)
{
	double sum[COMPARE_TP_POINTS] = { 0 };
	unsigned int cnt[COMPARE_TP_POINTS] = { 0 };
	const struct recording_sample *first, *last;
	uint64_t t0, t1;
	unsigned int i;
	size_t k;

	if (!d->nsamples)
		return;
	first = &r->samples[d->first_sample];
	last = &r->samples[d->first_sample + d->nsamples - 1];
	t0 = first->t_ns;
	t1 = last->t_ns + (uint64_t)last->s.interval_ms * 1000000;
	if (t1 <= t0)
		t1 = t0 + 1;
	for (k = 0; k < d->nsamples; k++) {
		const struct recording_sample *s = &r->samples[d->first_sample +
							       k];
		uint64_t slot = (s->t_ns - t0) * COMPARE_TP_POINTS / (t1 - t0);

		if (slot >= COMPARE_TP_POINTS)
			slot = COMPARE_TP_POINTS - 1;
		sum[slot] += s->s.mbps;
		cnt[slot]++;
	}
	row->ntp = COMPARE_TP_POINTS;
	row->tp_secs = (double)(t1 - t0) / 1e9;
	row->tp_max = 0;
	for (i = 0; i < COMPARE_TP_POINTS; i++) {
		row->tp[i] = cnt[i] ? (float)(sum[i] / cnt[i]) : NAN;
		if (cnt[i] && row->tp[i] > row->tp_max)
			row->tp_max = row->tp[i];
	}
}

/* --- the identity of a disk -------------------------------------------- */

/* a boolean of the uas verdict: 1, 0, or -1 when it does not say */
static int compare_json_bool(struct json_object *o, const char *k)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, k, &v) ||
	    !json_object_is_type(v, json_type_boolean))
		return -1;
	return json_object_get_boolean(v) ? 1 : 0;
}

static void compare_speed(struct compare_row *row, unsigned int mbps)
{
	/* ev_device: 1 stands for low speed, 1.5 Mbit/s */
	if (mbps)
		compare_num(row, COMPARE_COL_LINK_MBPS,
			    mbps == 1 ? 1.5 : (double)mbps, mbps == 1);
}

static void compare_identity(const struct recording *r,
			     const struct recording_disk *d,
			     struct compare_row *row)
{
	struct json_object *uas = report_uas(r, d->disk), *v;
	const struct ev_device *dv = &d->device;
	const char *s;
	char buf[COMPARE_CELL_LEN];
	int b, t;

	compare_text(row, COMPARE_COL_DISK, d->disk);
	compare_text(row, COMPARE_COL_USB, d->usb);
	if (d->have_device) {
		snprintf(buf, sizeof(buf), "%04x:%04x", dv->vid, dv->pid);
		compare_text(row, COMPARE_COL_VID_PID, buf);
		compare_speed(row, dv->speed_mbps);
		compare_text(row, COMPARE_COL_DRIVER, dv->driver);
	} else if (report_json_str(uas, "vid", NULL) &&
		   report_json_str(uas, "pid", NULL)) {
		snprintf(buf, sizeof(buf), "%s:%s",
			 report_json_str(uas, "vid", NULL),
			 report_json_str(uas, "pid", NULL));
		compare_text(row, COMPARE_COL_VID_PID, buf);
	}
	if (!row->cell[COMPARE_COL_LINK_MBPS].have && uas &&
	    json_object_object_get_ex(uas, "speed", &v) &&
	    (json_object_is_type(v, json_type_int) ||
	     json_object_is_type(v, json_type_double)) &&
	    json_object_get_double(v) > 0)
		compare_num(row, COMPARE_COL_LINK_MBPS,
			    json_object_get_double(v),
			    json_object_get_double(v) < 10 ? 1 : 0);
	if (!row->cell[COMPARE_COL_DRIVER].have)
		compare_text(row, COMPARE_COL_DRIVER,
			     report_json_str(uas, "driver", NULL));

	/* the bridge: the verdict names it; else data/bridges.tsv */
	s = report_json_str(uas, "detail", "bridge");
	if (!s && d->have_device) {
		b = datatab_find_hex2(&datatab_bridges, dv->vid, dv->pid);
		s = b >= 0 ? datatab_cell(&datatab_bridges, (unsigned int)b,
					  DATATAB_BRIDGE_CHIP) : NULL;
	}
	compare_text(row, COMPARE_COL_BRIDGE, s);

	/* the host controller's chip; else its PCI ID, else its address */
	s = report_json_str(uas, "hcd", "chip");
	if (!s && report_json_str(uas, "hcd", "pci_id")) {
		snprintf(buf, sizeof(buf), "%s (%s)",
			 report_json_str(uas, "hcd", "pci_id"),
			 report_json_str(uas, "hcd", "driver") ?: "?");
		s = buf;
	} else if (!s && d->have_device && dv->hcd[0]) {
		snprintf(buf, sizeof(buf), "%s %s", dv->hcd_driver, dv->hcd);
		s = buf;
	}
	compare_text(row, COMPARE_COL_HOST_CONTROLLER, s);

	/* is uas on: the verdict; else the driver bound */
	t = compare_json_bool(uas, "uas_active");
	if (t < 0 && row->cell[COMPARE_COL_DRIVER].have)
		t = !strcmp(row->cell[COMPARE_COL_DRIVER].s, "uas");
	if (t >= 0)
		compare_text(row, COMPARE_COL_UAS, t ? "true" : "false");
	compare_text(row, COMPARE_COL_UAS_REASON,
		     report_json_str(uas, "reason", NULL));
}

static int compare_src_add(struct compare_table *t, const struct recording *r,
			   const struct compare_source *src)
{
	struct compare_src *n, *s;
	const char *v;

	n = realloc(t->sources, (t->nsources + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	t->sources = n;
	s = &n[t->nsources];
	memset(s, 0, sizeof(*s));
	s->name = strdup(src->name ? src->name : "");
	s->href = src->href ? strdup(src->href) : NULL;
	s->make = src->make ? strdup(src->make) : NULL;
	s->bundle = src->bundle;
	if (!s->name || (src->href && !s->href) || (src->make && !s->make)) {
		free(s->name);
		free(s->href);
		free(s->make);
		return -ENOMEM;
	}
	v = recording_meta_str(r, "kernel", "hostname");
	snprintf(s->host, sizeof(s->host), "%s", v ? v : "");
	v = recording_meta_str(r, "kernel", "release");
	snprintf(s->kernel, sizeof(s->kernel), "%s", v ? v : "");
	s->seconds = recording_seconds(r);
	t->nsources++;
	return 0;
}

static struct compare_row *compare_row_new(struct compare_table *t)
{
	struct compare_row *row;

	if (t->nrows == t->caprows) {
		size_t cap = t->caprows ? t->caprows * 2 : 16;

		row = realloc(t->rows, cap * sizeof(*row));
		if (!row)
			return NULL;
		t->rows = row;
		t->caprows = cap;
	}
	row = &t->rows[t->nrows++];
	memset(row, 0, sizeof(*row));
	return row;
}

int compare_add(struct compare_table *t, const struct recording *r,
		const struct compare_source *src)
{
	struct compare_disk *cd;
	double p99[RECORDING_DISKS_MAX];
	unsigned int i, nrow = 0;
	bool any = false;
	int err;

	if (t->nsources == COMPARE_SOURCES_MAX)
		return -E2BIG;
	cd = calloc(RECORDING_DISKS_MAX, sizeof(*cd));
	if (!cd)
		return -ENOMEM;
	err = compare_latency(r, p99);
	if (err)
		goto out;
	compare_stress(r, cd);
	compare_incidents(r, cd);
	/* the disks it says something of; else all it saw */
	for (i = 0; i < r->ndisks; i++) {
		cd[i].row = cd[i].stress || cd[i].incidents ||
			    (!r->nstress && r->disks[i].nsamples);
		any |= cd[i].row;
		nrow += cd[i].row;
	}
	if (!any)
		nrow = r->ndisks;
	if (t->nrows + nrow > COMPARE_ROWS_MAX) {
		err = -E2BIG;
		goto out;
	}
	err = compare_src_add(t, r, src);
	if (err)
		goto out;
	for (i = 0; i < r->ndisks; i++) {
		const struct recording_disk *d = &r->disks[i];
		const struct compare_src *s = &t->sources[t->nsources - 1];
		struct compare_row *row;

		if (any && !cd[i].row)
			continue;
		row = compare_row_new(t);
		if (!row) {
			err = -ENOMEM;
			goto out;
		}
		row->source = (unsigned int)t->nsources - 1;
		compare_identity(r, d, row);
		compare_rate(row, COMPARE_COL_SEQ_READ,
			     compare_group_seq(&cd[i], false));
		compare_rate(row, COMPARE_COL_SEQ_WRITE,
			     compare_group_seq(&cd[i], true));
		compare_rate(row, COMPARE_COL_Q1_READ,
			     compare_group_find(&cd[i], "RND4K Q1T1", false));
		compare_rate(row, COMPARE_COL_Q1_WRITE,
			     compare_group_find(&cd[i], "RND4K Q1T1", true));
		compare_rate(row, COMPARE_COL_Q32_READ,
			     compare_group_find(&cd[i], "RND4K Q32T1", false));
		compare_rate(row, COMPARE_COL_Q32_WRITE,
			     compare_group_find(&cd[i], "RND4K Q32T1", true));
		if (!isnan(p99[i]))
			compare_num(row, COMPARE_COL_LAT_P99, p99[i], 3);
		compare_num(row, COMPARE_COL_DIPS, cd[i].dips, 0);
		compare_num(row, COMPARE_COL_INCIDENTS, cd[i].nincidents, 0);
		compare_text(row, COMPARE_COL_HOST, s->host);
		compare_text(row, COMPARE_COL_KERNEL, s->kernel);
		compare_text(row, COMPARE_COL_RECORDING, s->name);
		compare_throughput(r, d, row);
		t->sources[row->source].rows++;
	}
	err = (int)nrow;
out:
	free(cd);
	return err;
}

/* --- orderings ---------------------------------------------------------- */

static const struct compare_table *compare_sort_table;
static enum compare_col compare_sort_col;

static int compare_cmp_row(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct compare_cell *x = &compare_sort_table->rows[i].cell[
		compare_sort_col];
	const struct compare_cell *y = &compare_sort_table->rows[j].cell[
		compare_sort_col];
	int c;

	if (x->have != y->have)
		return x->have ? -1 : 1;
	if (!x->have)
		c = 0;
	else if (compare_col_numeric(compare_sort_col))
		c = (x->v < y->v) - (x->v > y->v);
	else
		c = strcmp(x->s, y->s);
	return c ? c : (i > j) - (i < j);
}

size_t *compare_order(const struct compare_table *t, enum compare_col c,
		      bool reverse)
{
	size_t *idx = calloc(t->nrows + 1, sizeof(*idx));
	size_t i, lo, hi, have = 0;

	if (!idx)
		return NULL;
	for (i = 0; i < t->nrows; i++) {
		idx[i] = i;
		have += t->rows[i].cell[c].have;
	}
	/* qsort has no context argument; the writers are single-threaded */
	compare_sort_table = t;
	compare_sort_col = c;
	qsort(idx, t->nrows, sizeof(*idx), compare_cmp_row);
	compare_sort_table = NULL;
	/* the other way round, the missing values still last */
	for (lo = 0, hi = have; reverse && hi > lo + 1; lo++, hi--) {
		size_t tmp = idx[lo];

		idx[lo] = idx[hi - 1];
		idx[hi - 1] = tmp;
	}
	return idx;
}
