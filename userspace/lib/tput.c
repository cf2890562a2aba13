// SPDX-License-Identifier: GPL-2.0-only
/*
 * tput.c - per-disk throughput and its dips from block issue and
 * completion records (tput.h), for derive.c, which feeds it the block
 * records of the event stream and passes on what comes out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classify.h"
#include "tput.h"

void tput_init(struct tput *tp, const struct derive_opts *o,
	       derive_out_fn out, void *arg)
{
	memset(tp, 0, sizeof(*tp));
	tp->o = o;
	tp->out = out;
	tp->arg = arg;
}

static struct tput_disk *tput_disk_find(struct tput *tp, const struct ev *ev)
{
	const struct usbtrail_rec_blk *b = &ev->u.rec.u.blk;
	const char *name = ev->ident.disk[0] ? ev->ident.disk : b->disk;
	unsigned int i;

	for (i = 0; i < tp->ndisks; i++)
		if ((b->devt && tp->disks[i].devt == b->devt) ||
		    (!b->devt && !strncmp(tp->disks[i].name, name,
					  sizeof(tp->disks[i].name))))
			return &tp->disks[i];
	if (tp->ndisks == TPUT_DISKS_MAX)
		return NULL;
	memset(&tp->disks[tp->ndisks], 0, sizeof(tp->disks[0]));
	tp->disks[tp->ndisks].devt = b->devt;
	snprintf(tp->disks[tp->ndisks].name, sizeof(tp->disks[0].name), "%.*s",
		 (int)sizeof(b->disk), name);
	return &tp->disks[tp->ndisks++];
}

static int tput_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double tput_median(const struct tput_disk *k)
{
	double v[TPUT_HISTORY_MAX];

	memcpy(v, k->hist, k->nhist * sizeof(v[0]));
	qsort(v, k->nhist, sizeof(v[0]), tput_cmp_double);
	return k->nhist % 2 ? v[k->nhist / 2] :
	       (v[k->nhist / 2 - 1] + v[k->nhist / 2]) / 2;
}

static void tput_dip_end(struct tput *tp, struct tput_disk *k,
			   uint64_t end_ns)
{
	struct ev *out;

	if (k->dip_n >= tp->o->dip_intervals) {
		out = derive_incident_new(k->dip_start_ns, CLASSIFY_DIP,
					  &k->ident);
		if (out) {
			struct ev_incident *ei = &out->u.incident;

			if (!ei->inc.dev[0])
				snprintf(ei->inc.dev, CLASSIFY_DEV_MAX, "%s",
					 k->name);
			ei->dip_mbps = k->dip_sum / k->dip_n;
			ei->dip_median_mbps = k->dip_median;
			ei->dip_secs = (double)(end_ns - k->dip_start_ns) / 1e9;
			snprintf(ei->inc.line, CLASSIFY_LINE_MAX,
				 "%s: %.1f MB/s for %.1f s (%u intervals of %u ms), "
				 "trailing median %.1f MB/s",
				 k->name, ei->dip_mbps, ei->dip_secs, k->dip_n,
				 tp->o->interval_ms, ei->dip_median_mbps);
			tp->out(tp->arg, out);
		}
	}
	k->dip_n = 0;
}

/* Close k's open interval, which ends at end_ns. */
static void tput_close_interval(struct tput *tp, struct tput_disk *k,
				  uint64_t end_ns)
{
	double secs = tp->o->interval_ms / 1000.0, mbps, median = 0;
	uint64_t bytes = k->bytes_r + k->bytes_w;
	bool busy = bytes || k->completions || k->inflight_max, dip = false;
	struct ev *s;

	mbps = (double)bytes / secs / 1e6;
	if (busy) {
		if (k->nhist >= tp->o->min_history) {
			median = tput_median(k);
			dip = median > 0 && mbps < tp->o->dip_fraction * median;
		}
		if (dip) {
			if (!k->dip_n++) {
				k->dip_start_ns = k->start_ns;
				k->dip_sum = 0;
				k->dip_median = median;
			}
			k->dip_sum += mbps;
		} else {
			tput_dip_end(tp, k, k->start_ns);
			k->hist[k->hist_pos] = mbps;
			k->hist_pos = (k->hist_pos + 1) % tp->o->history;
			if (k->nhist < tp->o->history)
				k->nhist++;
		}
		s = ev_new(EV_SAMPLE, EV_SRC_RECORDER, k->start_ns);
		if (s) {
			s->ident = k->ident;
			if (!s->ident.disk[0])
				snprintf(s->ident.disk, sizeof(s->ident.disk),
					 "%s", k->name);
			s->u.sample.interval_ms = tp->o->interval_ms;
			s->u.sample.read_bytes = k->bytes_r;
			s->u.sample.write_bytes = k->bytes_w;
			s->u.sample.completions = k->completions;
			s->u.sample.inflight = k->inflight_max;
			s->u.sample.mbps = mbps;
			s->u.sample.median_mbps = median;
			s->u.sample.dip = dip;
			tp->out(tp->arg, s);
		}
	} else {
		/* idle: a dip needs I/O waiting, so an idle disk ends one */
		tput_dip_end(tp, k, k->start_ns);
	}
	k->bytes_r = k->bytes_w = 0;
	k->completions = 0;
	k->inflight_max = k->inflight;
	k->last_end_ns = end_ns;
	k->start_ns = k->inflight ? end_ns : 0;
}

/*
 * An hour of intervals at most between two events: a longer gap with a
 * request still waiting is a clock jump or a request whose completion
 * was never seen, not something to plot interval by interval (and a
 * recording from elsewhere must not make us loop for ever).
 */
#define TPUT_MAX_GAP_NS	(3600ull * 1000000000)

/* Bring k's intervals up to t_ns. */
static void tput_disk_advance(struct tput *tp, struct tput_disk *k,
				uint64_t t_ns)
{
	uint64_t step = (uint64_t)tp->o->interval_ms * 1000000;

	if (k->start_ns && t_ns > k->start_ns + TPUT_MAX_GAP_NS) {
		tput_close_interval(tp, k, k->start_ns + step);
		tput_dip_end(tp, k, k->last_end_ns);
		k->inflight = 0;
		k->start_ns = 0;
		return;
	}
	while (k->start_ns && t_ns >= k->start_ns + step)
		tput_close_interval(tp, k, k->start_ns + step);
}

static void tput_pend_add(struct tput_disk *k, uint64_t sector,
			    uint64_t t_ns)
{
	unsigned int i, oldest = 0;

	for (i = 0; i < k->inflight; i++) {
		if (k->pend_sector[i] == sector) {	/* issued again */
			k->pend_ns[i] = t_ns;
			return;
		}
		if (k->pend_ns[i] < k->pend_ns[oldest])
			oldest = i;
	}
	if (k->inflight == TPUT_INFLIGHT_MAX)
		i = oldest;		/* forget the oldest */
	else
		i = k->inflight++;
	k->pend_sector[i] = sector;
	k->pend_ns[i] = t_ns;
}

static void tput_pend_remove(struct tput_disk *k, unsigned int i)
{
	k->inflight--;
	k->pend_sector[i] = k->pend_sector[k->inflight];
	k->pend_ns[i] = k->pend_ns[k->inflight];
}

static void tput_pend_del(struct tput_disk *k, uint64_t sector,
			    uint64_t t_ns)
{
	unsigned int i;

	for (i = 0; i < k->inflight; i++)
		if (k->pend_sector[i] == sector) {
			tput_pend_remove(k, i);
			break;
		}
	/* issued before recording began, or its completion was lost */
	for (i = 0; i < k->inflight;)
		if (t_ns - k->pend_ns[i] > TPUT_INFLIGHT_STALE_NS &&
		    k->pend_ns[i] < t_ns)
			tput_pend_remove(k, i);
		else
			i++;
}

void tput_blk(struct tput *tp, const struct ev *ev)
{
	const struct usbtrail_rec_blk *b = &ev->u.rec.u.blk;
	struct tput_disk *k = tput_disk_find(tp, ev);

	if (!k)
		return;
	if (ev->ident.disk[0])
		k->ident = ev->ident;
	tput_disk_advance(tp, k, ev->t_ns);
	if (!k->start_ns) {
		uint64_t step = (uint64_t)tp->o->interval_ms * 1000000;

		k->start_ns = ev->t_ns - ev->t_ns % step;
		/* a whole idle interval in between ends a dip */
		if (k->start_ns > k->last_end_ns)
			tput_dip_end(tp, k, k->last_end_ns);
	}
	if (ev->u.rec.type == USBTRAIL_REC_BLK_ISSUE) {
		tput_pend_add(k, b->sector, ev->t_ns);
		if (k->inflight > k->inflight_max)
			k->inflight_max = k->inflight;
		return;
	}
	tput_pend_del(k, b->sector, ev->t_ns);
	k->completions++;
	if (b->error)
		return;
	/* REQ_OP_READ is 0; writes are odd, as the kernel's op_is_write() */
	if (b->op & 1)
		k->bytes_w += b->bytes;
	else if (b->op == 0)
		k->bytes_r += b->bytes;
}


void tput_advance(struct tput *tp, uint64_t now_ns)
{
	unsigned int i;

	for (i = 0; i < tp->ndisks; i++)
		tput_disk_advance(tp, &tp->disks[i], now_ns);
}

void tput_flush(struct tput *tp, uint64_t now_ns)
{
	unsigned int i;

	for (i = 0; i < tp->ndisks; i++) {
		struct tput_disk *k = &tp->disks[i];

		if (k->start_ns)
			tput_close_interval(tp, k, k->start_ns +
					    (uint64_t)tp->o->interval_ms * 1000000);
		tput_dip_end(tp, k, now_ns);
	}
}
