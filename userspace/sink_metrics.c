// SPDX-License-Identifier: GPL-2.0-only
/*
 * sink_metrics.c - the metrics of "usbtrail watch" as a Prometheus
 * textfile (the text exposition format, read by node_exporter's textfile
 * collector): incidents by kind and disk, resets, lost events, the sources
 * that are up, per-disk throughput and request latency, the store's size.
 *
 * As a sink it counts what passes (incidents, throughput samples, block
 * completions with their latency); sink_metrics_write() writes the file
 * whole into a temporary file beside it and renames it over the old one,
 * so the collector never reads half a file.  The names are a stable
 * interface (docs/formats.md, "Metrics").
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "owner.h"
#include "sink_watch.h"
#include "util.h"

#define METRICS_DISKS		64	/* more are counted as "other" */
#define METRICS_KINDS		CLASSIFY_KIND_COUNT

/* Request latency buckets, seconds: USB stalls run to tens of seconds. */
static const double metrics_le[] = {
	0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 30, 60,
};
#define METRICS_NLE	(sizeof(metrics_le) / sizeof(metrics_le[0]))

struct metrics_disk {
	char name[48];			/* disk, else USB path */
	uint64_t incidents[METRICS_KINDS];
	double last_incident;		/* unix seconds, 0: none */
	double read_bps, write_bps;	/* the last throughput sample */
	uint64_t lat_bucket[METRICS_NLE];
	uint64_t lat_count;
	double lat_sum;
	uint64_t errors;		/* block requests that failed */
};

struct sink_metrics {
	char path[4096];
	struct sink_metrics_from from;
	const struct ev_clock *clock;
	struct metrics_disk disk[METRICS_DISKS + 1];	/* last: "other" */
	unsigned int ndisk;
};

static struct metrics_disk *metrics_disk(struct sink_metrics *m,
					 const struct ev *ev)
{
	const char *name = ev->ident.disk[0] ? ev->ident.disk :
			   ev->ident.usb[0] ? ev->ident.usb : "";
	unsigned int i;

	for (i = 0; i < m->ndisk; i++)
		if (!strcmp(m->disk[i].name, name))
			return &m->disk[i];
	if (m->ndisk == METRICS_DISKS) {
		snprintf(m->disk[METRICS_DISKS].name,
			 sizeof(m->disk[0].name), "other");
		return &m->disk[METRICS_DISKS];
	}
	snprintf(m->disk[m->ndisk].name, sizeof(m->disk[0].name), "%s", name);
	return &m->disk[m->ndisk++];
}

static int sink_metrics_event(struct rec_sink *s, const struct ev *ev)
{
	struct sink_metrics *m = s->priv;
	struct metrics_disk *d;
	unsigned int i;

	if (ev->type == EV_INCIDENT) {
		d = metrics_disk(m, ev);
		if ((unsigned int)ev->u.incident.inc.kind < METRICS_KINDS)
			d->incidents[ev->u.incident.inc.kind]++;
		d->last_incident = (double)((int64_t)ev->t_ns +
				   m->clock->boot_to_real_ns) / 1e9;
	} else if (ev->type == EV_SAMPLE && ev->u.sample.interval_ms) {
		d = metrics_disk(m, ev);
		d->read_bps = (double)ev->u.sample.read_bytes * 1000 /
			      ev->u.sample.interval_ms;
		d->write_bps = (double)ev->u.sample.write_bytes * 1000 /
			       ev->u.sample.interval_ms;
	} else if (ev->type == EV_TRACE &&
		   ev->u.rec.type == USBTRAIL_REC_BLK_COMPLETE) {
		double secs = (double)ev->u.rec.u.blk.latency_ns / 1e9;

		d = metrics_disk(m, ev);
		if (ev->u.rec.u.blk.error)
			d->errors++;
		/* tracefs gives no latency of its own: 0 */
		if (!ev->u.rec.u.blk.latency_ns)
			return 0;
		d->lat_count++;
		d->lat_sum += secs;
		for (i = 0; i < METRICS_NLE; i++)
			if (secs <= metrics_le[i])
				d->lat_bucket[i]++;
	}
	return 0;
}

/* A label value: \ " and newline escaped, as the format wants. */
static void metrics_label(struct util_str *b, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			util_str_put(b, "\\", 1);
		if (*v == '\n')
			util_str_put(b, "\\n", 2);
		else
			util_str_put(b, v, 1);
	}
}

static void metrics_printf(struct util_str *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void metrics_printf(struct util_str *b, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0)
		util_str_put(b, buf, (size_t)n < sizeof(buf) ? (size_t)n :
			     sizeof(buf) - 1);
}

static void metrics_head(struct util_str *b, const char *name,
			 const char *type, const char *help)
{
	metrics_printf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name,
		       type);
}

/* name{disk="sdb"<extra>} */
static void metrics_disk_sample(struct util_str *b, const char *name,
				const struct metrics_disk *d,
				const char *extra, const char *value)
{
	metrics_printf(b, "%s{disk=\"", name);
	metrics_label(b, d->name);
	metrics_printf(b, "\"%s} %s\n", extra, value);
}

static void metrics_disks(struct util_str *b, const struct sink_metrics *m)
{
	unsigned int n = m->ndisk + (m->disk[METRICS_DISKS].name[0] ? 1 : 0);
	char v[64], extra[96];
	unsigned int i, k, j;

	metrics_head(b, "usbtrail_incidents_total", "counter",
		     "Incidents named, by kind and disk.");
	for (i = 0; i < n; i++) {
		const struct metrics_disk *d = &m->disk[i < m->ndisk ? i :
							METRICS_DISKS];

		for (k = 0; k < METRICS_KINDS; k++) {
			if (!d->incidents[k])
				continue;
			snprintf(extra, sizeof(extra), ",kind=\"%s\"",
				 classify_kind_name(k));
			snprintf(v, sizeof(v), "%llu",
				 (unsigned long long)d->incidents[k]);
			metrics_disk_sample(b, "usbtrail_incidents_total", d,
					    extra, v);
		}
	}
	metrics_head(b, "usbtrail_resets_total", "counter",
		     "Device and port resets (incidents of kind reset), by disk.");
	for (i = 0; i < n; i++) {
		const struct metrics_disk *d = &m->disk[i < m->ndisk ? i :
							METRICS_DISKS];

		snprintf(v, sizeof(v), "%llu",
			 (unsigned long long)d->incidents[CLASSIFY_RESET]);
		metrics_disk_sample(b, "usbtrail_resets_total", d, "", v);
	}
	metrics_head(b, "usbtrail_last_incident_timestamp_seconds", "gauge",
		     "When the last incident of the disk happened, Unix time.");
	for (i = 0; i < n; i++) {
		const struct metrics_disk *d = &m->disk[i < m->ndisk ? i :
							METRICS_DISKS];

		if (!d->last_incident)
			continue;
		snprintf(v, sizeof(v), "%.3f", d->last_incident);
		metrics_disk_sample(b,
			"usbtrail_last_incident_timestamp_seconds", d, "", v);
	}
	metrics_head(b, "usbtrail_throughput_bytes_per_second", "gauge",
		     "Bytes per second the disk moved in the last interval.");
	for (i = 0; i < n; i++) {
		const struct metrics_disk *d = &m->disk[i < m->ndisk ? i :
							METRICS_DISKS];

		snprintf(v, sizeof(v), "%.0f", d->read_bps);
		metrics_disk_sample(b, "usbtrail_throughput_bytes_per_second",
				    d, ",op=\"read\"", v);
		snprintf(v, sizeof(v), "%.0f", d->write_bps);
		metrics_disk_sample(b, "usbtrail_throughput_bytes_per_second",
				    d, ",op=\"write\"", v);
	}
	metrics_head(b, "usbtrail_request_errors_total", "counter",
		     "Block requests of the disk that completed with an error.");
	for (i = 0; i < n; i++) {
		const struct metrics_disk *d = &m->disk[i < m->ndisk ? i :
							METRICS_DISKS];

		snprintf(v, sizeof(v), "%llu", (unsigned long long)d->errors);
		metrics_disk_sample(b, "usbtrail_request_errors_total", d, "",
				    v);
	}
	metrics_head(b, "usbtrail_request_latency_seconds", "histogram",
		     "Completion latency of the disk's block requests "
		     "(kernel module source only).");
	for (i = 0; i < n; i++) {
		const struct metrics_disk *d = &m->disk[i < m->ndisk ? i :
							METRICS_DISKS];

		if (!d->lat_count)
			continue;
		for (j = 0; j < METRICS_NLE; j++) {
			snprintf(extra, sizeof(extra), ",le=\"%g\"",
				 metrics_le[j]);
			snprintf(v, sizeof(v), "%llu",
				 (unsigned long long)d->lat_bucket[j]);
			metrics_disk_sample(b,
				"usbtrail_request_latency_seconds_bucket", d,
				extra, v);
		}
		snprintf(v, sizeof(v), "%llu",
			 (unsigned long long)d->lat_count);
		metrics_disk_sample(b, "usbtrail_request_latency_seconds_bucket",
				    d, ",le=\"+Inf\"", v);
		snprintf(v, sizeof(v), "%.6f", d->lat_sum);
		metrics_disk_sample(b, "usbtrail_request_latency_seconds_sum",
				    d, "", v);
		snprintf(v, sizeof(v), "%llu",
			 (unsigned long long)d->lat_count);
		metrics_disk_sample(b, "usbtrail_request_latency_seconds_count",
				    d, "", v);
	}
}

static void metrics_watch(struct util_str *b, const struct rec_stats *rs,
			  const struct rec_source *src, unsigned int nsrc,
			  const struct sink_watch_stats *ws)
{
	unsigned int i;

	metrics_head(b, "usbtrail_source_up", "gauge",
		     "1 while the event source is open, 0 while it is down.");
	for (i = 0; i < nsrc; i++)
		if (src[i].name)
			metrics_printf(b, "usbtrail_source_up{source=\"%s\"} %d\n",
			       src[i].name, src[i].down ? 0 : 1);
	metrics_head(b, "usbtrail_lost_events_total", "counter",
		     "Events lost, by where: a source (the kernel dropped "
		     "them), recorder (memory), store (disk full).");
	for (i = 0; i < nsrc; i++)
		if (src[i].name)
			metrics_printf(b, "usbtrail_lost_events_total{where=\"%s\"} "
			       "%llu\n", src[i].name,
			       (unsigned long long)src[i].lost);
	if (rs)
		metrics_printf(b, "usbtrail_lost_events_total"
			       "{where=\"recorder\"} %llu\n",
			       (unsigned long long)rs->dropped);
	if (!ws)
		return;
	metrics_printf(b, "usbtrail_lost_events_total{where=\"store\"} %llu\n",
		       (unsigned long long)(ws->lost + ws->lost_pending));
	metrics_head(b, "usbtrail_store_bytes", "gauge",
		     "Bytes the ring and the incident recordings take on disk.");
	metrics_printf(b, "usbtrail_store_bytes %llu\n",
		       (unsigned long long)ws->stored_bytes);
	metrics_head(b, "usbtrail_incident_recordings_total", "counter",
		     "Incident recordings kept.");
	metrics_printf(b, "usbtrail_incident_recordings_total %llu\n",
		       (unsigned long long)ws->captures);
	metrics_head(b, "usbtrail_pruned_total", "counter",
		     "Recordings removed to stay within --keep and --keep-days.");
	metrics_printf(b, "usbtrail_pruned_total %llu\n",
		       (unsigned long long)ws->pruned);
	metrics_head(b, "usbtrail_store_full_total", "counter",
		     "Writes that found the disk full.");
	metrics_printf(b, "usbtrail_store_full_total %llu\n",
		       (unsigned long long)ws->disk_full);
}

int sink_metrics_write(struct rec_sink *s)
{
	struct sink_metrics *m = s->priv;
	struct util_str b = { 0 };
	char tmp[4200];
	int fd, ret;

	metrics_disks(&b, m);
	metrics_watch(&b, m->from.rs, m->from.src, m->from.nsrc, m->from.ws);
	if (b.oom) {
		free(b.s);
		return -ENOMEM;
	}
	/* beside it, so that rename() replaces it in one step */
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", m->path, (int)getpid());
	unlink(tmp);
	fd = owner_open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0) {
		free(b.s);
		return fd;
	}
	ret = util_write_all(fd, b.s, b.len, NULL);
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, m->path))
		ret = -errno;
	if (ret)
		unlink(tmp);
	free(b.s);
	return ret;
}

/* The last figures, then done.  A file it cannot write ends nothing. */
static int sink_metrics_close(struct rec_sink *s)
{
	if (s->priv && sink_metrics_write(s))
		s->failed++;
	free(s->priv);
	s->priv = NULL;
	return 0;
}

int sink_metrics_open(struct rec_sink *s, const char *path,
		      const struct ev_clock *clock,
		      const struct sink_metrics_from *from)
{
	struct sink_metrics *m;

	if (strlen(path) + 32 >= sizeof(m->path))
		return -ENAMETOOLONG;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	snprintf(m->path, sizeof(m->path), "%s", path);
	m->clock = clock;
	m->from = *from;
	memset(s, 0, sizeof(*s));
	s->name = "metrics";
	s->event = sink_metrics_event;
	s->close = sink_metrics_close;
	s->priv = m;
	snprintf(s->path, sizeof(s->path), "%s", path);
	return 0;
}
