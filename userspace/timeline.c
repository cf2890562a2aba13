// SPDX-License-Identifier: GPL-2.0-only
/*
 * timeline.c - one disk's SCSI commands matched start to done out of the
 * trace records recording.c keeps (timeline.h), and the percentiles of
 * their latencies.  Reads tables, opens nothing, logs nothing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "timeline.h"

bool timeline_rec_disk(const struct usbtrail_record *rec, const char *disk)
{
	const char *d;

	switch (rec->type) {
	case USBTRAIL_REC_SCSI_START:
	case USBTRAIL_REC_SCSI_DONE:
	case USBTRAIL_REC_SCSI_ERROR:
	case USBTRAIL_REC_SCSI_TIMEOUT:
		d = rec->u.scsi.disk;
		break;
	case USBTRAIL_REC_EH_START:
	case USBTRAIL_REC_EH_END:
		d = rec->u.eh.disk;
		break;
	default:
		return false;
	}
	/* disk[8] is NUL-padded: an 8-character name has no NUL */
	return strlen(disk) <= 8 && !strncmp(d, disk, 8);
}

/* The SCSI address and tag that name one open command. */
struct timeline_key {
	uint16_t host;
	uint8_t channel, id;
	uint32_t lun, tag;
};

struct timeline_open {
	struct timeline_key key;
	size_t i;			/* into c->cmd */
};

static bool timeline_key_eq(const struct timeline_key *a,
			    const struct timeline_key *b)
{
	return a->host == b->host && a->channel == b->channel &&
	       a->id == b->id && a->lun == b->lun && a->tag == b->tag;
}

static struct timeline_key timeline_key_scsi(const struct usbtrail_rec_scsi *s)
{
	return (struct timeline_key){ s->host, s->channel, s->id, s->lun,
				      s->tag };
}

static struct timeline_cmd *timeline_cmd_new(struct timeline_cmds *c)
{
	struct timeline_cmd *p;

	if (c->n == c->cap) {
		size_t ncap = c->cap ? c->cap * 2 : 256;

		p = realloc(c->cmd, ncap * sizeof(*p));
		if (!p)
			return NULL;
		c->cmd = p;
		c->cap = ncap;
	}
	p = &c->cmd[c->n++];
	memset(p, 0, sizeof(*p));
	return p;
}

struct timeline_match {
	struct timeline_cmds *c;
	struct timeline_open *open;
	size_t nopen;
};

static ssize_t timeline_find(const struct timeline_match *m,
			     const struct timeline_key *k)
{
	size_t i;

	for (i = 0; i < m->nopen; i++)
		if (timeline_key_eq(&m->open[i].key, k))
			return (ssize_t)i;
	return -1;
}

/* Open slot j ends at t_ns (0: its end is not known). */
static void timeline_close(struct timeline_match *m, size_t j, uint64_t t_ns)
{
	m->c->cmd[m->open[j].i].t_end_ns = t_ns;
	m->open[j] = m->open[--m->nopen];
}

/* A new open command of key k (the oldest forgotten if too many). */
static struct timeline_cmd *timeline_open_new(struct timeline_match *m,
					      const struct timeline_key *k,
					      const struct usbtrail_rec_scsi *s)
{
	struct timeline_cmd *cmd;

	if (m->nopen == TIMELINE_OPEN_MAX)
		timeline_close(m, 0, 0);
	cmd = timeline_cmd_new(m->c);
	if (!cmd)
		return NULL;
	cmd->tag = s->tag;
	cmd->opcode = s->opcode;
	m->open[m->nopen].key = *k;
	m->open[m->nopen++].i = m->c->n - 1;
	return cmd;
}

static int timeline_start(struct timeline_match *m,
			  const struct recording_trace *tr)
{
	const struct usbtrail_rec_scsi *s = &tr->rec.u.scsi;
	struct timeline_key k = timeline_key_scsi(s);
	struct timeline_cmd *cmd;
	ssize_t j = timeline_find(m, &k);

	/* the tag again: the old command left the device (a retry) */
	if (j >= 0)
		timeline_close(m, (size_t)j, tr->t_ns);
	cmd = timeline_open_new(m, &k, s);
	if (!cmd)
		return -ENOMEM;
	cmd->t_start_ns = tr->t_ns;
	return 0;
}

static int timeline_done(struct timeline_match *m,
			 const struct recording_trace *tr)
{
	const struct usbtrail_rec_scsi *s = &tr->rec.u.scsi;
	struct timeline_key k = timeline_key_scsi(s);
	ssize_t j = timeline_find(m, &k);
	struct timeline_cmd *cmd;

	if (j < 0) {
		m->c->unmatched_done++;
		return 0;
	}
	cmd = &m->c->cmd[m->open[j].i];
	cmd->done = true;
	cmd->result = s->result;
	timeline_close(m, (size_t)j, tr->t_ns);
	return 0;
}

static int timeline_timeout(struct timeline_match *m,
			    const struct recording_trace *tr)
{
	const struct usbtrail_rec_scsi *s = &tr->rec.u.scsi;
	struct timeline_key k = timeline_key_scsi(s);
	ssize_t j = timeline_find(m, &k);
	struct timeline_cmd *cmd;

	m->c->timeouts++;
	if (j >= 0) {
		m->c->cmd[m->open[j].i].t_timeout_ns = tr->t_ns;
		return 0;
	}
	/* its start is not in the recording: open from here, start unknown */
	cmd = timeline_open_new(m, &k, s);
	if (!cmd)
		return -ENOMEM;
	cmd->t_timeout_ns = tr->t_ns;
	return 0;
}

/* SUCCESS of the SCSI midlayer's error handler (scsi.h) */
#define TIMELINE_EH_SUCCESS	0x2002

static void timeline_eh_end(struct timeline_match *m,
			    const struct recording_trace *tr)
{
	const struct usbtrail_rec_eh *e = &tr->rec.u.eh;
	struct timeline_key k = { e->host, e->channel, e->id, e->lun,
				  e->tag };
	ssize_t j;

	if (e->result != TIMELINE_EH_SUCCESS)
		return;
	if (e->kind == USBTRAIL_EH_ABORT) {
		j = timeline_find(m, &k);
		if (j >= 0)
			timeline_close(m, (size_t)j, tr->t_ns);
		return;
	}
	/* a device or bus reset: every command of the disk is back */
	while (m->nopen)
		timeline_close(m, m->nopen - 1, tr->t_ns);
}

int timeline_cmds_load(const struct recording *r, const char *disk,
		       struct timeline_cmds *c)
{
	struct timeline_match m = { .c = c };
	size_t i;
	int err = 0;

	memset(c, 0, sizeof(*c));
	m.open = malloc(TIMELINE_OPEN_MAX * sizeof(*m.open));
	if (!m.open)
		return -ENOMEM;
	for (i = 0; i < r->ntraces && !err; i++) {
		const struct recording_trace *tr = &r->traces[i];

		if (tr->rec.type == USBTRAIL_REC_SCSI_START ||
		    tr->rec.type == USBTRAIL_REC_SCSI_DONE)
			c->have_scsi = true;
		if (!timeline_rec_disk(&tr->rec, disk))
			continue;
		switch (tr->rec.type) {
		case USBTRAIL_REC_SCSI_START:
			err = timeline_start(&m, tr);
			break;
		case USBTRAIL_REC_SCSI_DONE:
			err = timeline_done(&m, tr);
			break;
		case USBTRAIL_REC_SCSI_TIMEOUT:
			err = timeline_timeout(&m, tr);
			break;
		case USBTRAIL_REC_EH_END:
			timeline_eh_end(&m, tr);
			break;
		default:
			break;
		}
	}
	free(m.open);
	if (err)
		timeline_cmds_free(c);
	return err;
}

void timeline_cmds_free(struct timeline_cmds *c)
{
	if (!c)
		return;
	free(c->cmd);
	memset(c, 0, sizeof(*c));
}

double timeline_cmd_latency(const struct timeline_cmd *c)
{
	if (!c->done || !c->t_start_ns || c->t_end_ns < c->t_start_ns)
		return -1;
	return (double)(c->t_end_ns - c->t_start_ns) / 1e9;
}

static int timeline_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double timeline_percentile(double *v, size_t n, double p)
{
	size_t k;

	if (!n)
		return -1;
	qsort(v, n, sizeof(*v), timeline_cmp_double);
	/* nearest rank: the smallest value with p % of them at or below */
	k = (size_t)(p / 100.0 * (double)n + 0.999999);
	if (k < 1)
		k = 1;
	if (k > n)
		k = n;
	return v[k - 1];
}

uint64_t timeline_dip_end_ns(const struct ev *dip)
{
	double secs = dip->u.incident.dip_secs;

	/* a recording's nonsense (negative, beyond the clock) stays a time */
	if (!(secs > 0))
		return dip->t_ns;
	if (secs >= (double)(UINT64_MAX - dip->t_ns) / 1e9)
		return UINT64_MAX;
	return dip->t_ns + (uint64_t)(secs * 1e9);
}

size_t timeline_dips(const struct recording *r, const char *disk,
		     struct timeline_span **out)
{
	size_t i, n = 0, cap = 0;
	struct timeline_span *s = NULL, *ns;

	for (i = 0; i < r->nevs; i++) {
		const struct ev *ev = &r->evs[i];

		if (ev->type != EV_INCIDENT ||
		    ev->u.incident.inc.kind != CLASSIFY_DIP ||
		    strcmp(ev->ident.disk, disk))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			ns = realloc(s, cap * sizeof(*s));
			if (!ns) {
				free(s);
				*out = NULL;
				return 0;
			}
			s = ns;
		}
		s[n].t0_ns = ev->t_ns;
		s[n++].t1_ns = timeline_dip_end_ns(ev);
	}
	*out = s;
	return n;
}

bool timeline_in_spans(const struct timeline_span *s, size_t n,
		       uint64_t t_ns)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t_ns >= s[i].t0_ns && t_ns <= s[i].t1_ns)
			return true;
	return false;
}

double timeline_p99_normal(const struct recording *r, const char *disk,
			   const struct timeline_cmds *c)
{
	double *v = malloc((c->n + 1) * sizeof(*v)), p;
	struct timeline_span *dips;
	size_t i, n = 0, ndips;

	if (!v)
		return -1;
	ndips = timeline_dips(r, disk, &dips);
	for (i = 0; i < c->n; i++) {
		double l = timeline_cmd_latency(&c->cmd[i]);

		if (l >= 0 && !timeline_in_spans(dips, ndips,
						 c->cmd[i].t_end_ns))
			v[n++] = l;
	}
	p = n >= TIMELINE_P99_MIN ? timeline_percentile(v, n, 99) : -1;
	free(dips);
	free(v);
	return p;
}
