// SPDX-License-Identifier: GPL-2.0-only
/*
 * utreplay: the recorder's cost per event, without a kernel.  Takes the
 * module records (type "trace") and the devices of a recording's
 * events.jsonl, repeats the records COPIES times (each copy later by the
 * recording's span), and streams them through a pipe into the recorder as
 * "usbtrail record --source module --no-pcap" runs it: src_module.c reads
 * the pipe, the engine orders, ties, derives, and the events.jsonl sink
 * writes OUT/events.jsonl and OUT/capture.pcapng as "usbtrail record"
 * does (the records into the capture).  The records are replayed at the
 * pace they were made, so the run takes COPIES times the recording's
 * span.  The pipe is filled by a child (the recorder's COMMAND), so the
 * figures are the recorder's alone:
 *
 *   utreplay EVENTS.JSONL COPIES OUTDIR [json|both|nowrite|nosink]
 *
 * prints "events N cpu_s S us_per_event U user_s S sys_s S".  With
 * "json", every record is a line of events.jsonl instead (usbtrail 0.2's
 * recordings) and no capture is written; with "both" the recording and
 * OUTDIR/all.jsonl, every event a line, from the same run (what "usbtrail
 * export --jsonl" must give back); with "nowrite" the JSON lines
 * are made but not written; with "nosink" not even made (what the rest of
 * the recorder costs).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "evjson.h"
#include "record.h"

/*
 * --write FILE FD: the records of FILE into FD as their time comes, every
 * 10 ms what has come (the module wakes its reader every 64 records or
 * 100 ms).
 */
static int utreplay_write(const char *path, int fd)
{
	static struct usbtrail_record buf[4096];
	size_t n = 0, from = 0, i;
	FILE *f = fopen(path, "r");

	if (!f)
		return 1;
	for (;;) {
		uint64_t now = ev_clock_now();

		if (from == n) {
			n = fread(buf, sizeof(buf[0]), 4096, f);
			from = 0;
			if (!n)
				break;
		}
		for (i = from; i < n && buf[i].ts_ns <= now; i++)
			;
		if (i > from && write(fd, buf + from,
				      (i - from) * sizeof(buf[0])) < 0)
			return 1;
		from = i;
		if (from < n)
			usleep(10000);
	}
	fclose(f);
	return 0;
}

/* "nowrite": a sink that makes each line and drops it */
static int utreplay_line_event(struct rec_sink *s, const struct ev *ev)
{
	const char *line;
	size_t len;

	return evjson_writer_line(s->priv, ev, &line, &len);
}

static int utreplay_line_close(struct rec_sink *s)
{
	evjson_writer_free(s->priv);
	return 0;
}

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	struct derive_opts dopts = DERIVE_OPTS_DEFAULT;
	struct rec_run_opts ro = { .marker_fd = -1 };
	struct rec_sink sinks[3] = { { 0 } };
	const char *mode;
	struct rec_source src;
	struct ev **devs = NULL;
	struct rusage ru0, ru1;
	unsigned long copies, c;
	size_t nrec = 0, caprec = 0, ndev = 0, i, len = 0;
	uint64_t t_min = UINT64_MAX, t_max = 0, span, base, now;
	struct usbtrail_record *recs = NULL;
	char *line = NULL, path[4096], cmd[4200], fdarg[32];
	char *argv_cmd[5];
	int pfd[2], ret;
	double cpu;
	struct rec *r;
	FILE *f, *out;

	if (argc == 4 && !strcmp(argv[1], "--write"))
		return utreplay_write(argv[2], atoi(argv[3]));
	if (argc < 4) {
		fprintf(stderr,
			"usage: utreplay EVENTS.JSONL COPIES OUTDIR [pcap]\n");
		return 2;
	}
	copies = strtoul(argv[2], NULL, 0);
	f = fopen(argv[1], "r");
	if (!f || !copies) {
		fprintf(stderr, "utreplay: %s: %s\n", argv[1],
			f ? "COPIES must be > 0" : strerror(errno));
		return 2;
	}
	while (getline(&line, &len, f) > 0) {
		static struct ev tmp;
		struct ev *ev = &tmp;

		if (evjson_parse_event(line, strlen(line), ev))
			continue;
		if (ev->type == EV_TRACE) {
			if (nrec == caprec) {
				caprec = caprec ? 2 * caprec : 1024;
				recs = realloc(recs, caprec * sizeof(*recs));
				if (!recs)
					return 1;
			}
			recs[nrec++] = ev->u.rec;
			if (ev->t_ns < t_min)
				t_min = ev->t_ns;
			if (ev->t_ns > t_max)
				t_max = ev->t_ns;
		} else if (ev->type == EV_DEVICE) {
			struct ev *d = ev_new(EV_DEVICE, ev->source, 0);

			devs = realloc(devs, (ndev + 1) * sizeof(*devs));
			if (!devs || !d)
				return 1;
			d->ident = ev->ident;
			d->u.device = ev->u.device;
			devs[ndev++] = d;
		}
	}
	fclose(f);
	free(line);
	if (!nrec) {
		fprintf(stderr, "utreplay: %s: no module records\n", argv[1]);
		return 1;
	}

	/* copies back to back, from a second from now */
	span = t_max - t_min + 10000000;
	now = ev_clock_now();
	/* whole seconds later: the same 100 ms intervals, the same output */
	base = t_min + ((now + 1000000000ull - t_min) / 1000000000ull + 1) *
		       1000000000ull;
	snprintf(path, sizeof(path), "%s/records.bin", argv[3]);
	out = fopen(path, "w");
	if (!out) {
		fprintf(stderr, "utreplay: %s: %s\n", path, strerror(errno));
		return 1;
	}
	for (c = 0; c < copies; c++)
		for (i = 0; i < nrec; i++) {
			struct usbtrail_record x = recs[i];

			x.ts_ns = base + c * span + (recs[i].ts_ns - t_min);
			fwrite(&x, sizeof(x), 1, out);
		}
	if (fclose(out))
		return 1;

	r = rec_new(&dopts);
	if (!r || pipe(pfd)) {
		perror("utreplay");
		return 1;
	}
	fcntl(pfd[0], F_SETFL, O_NONBLOCK);
	fcntl(pfd[0], F_SETFD, FD_CLOEXEC);
	ret = src_module_attach(&src, r, pfd[0]);
	if (ret)
		goto fail;
	rec_add_source(r, &src);
	mode = argc > 4 ? argv[4] : "";
	if (!strcmp(mode, "nowrite")) {
		sinks[0].name = "lines";
		sinks[0].event = utreplay_line_event;
		sinks[0].close = utreplay_line_close;
		sinks[0].priv = evjson_writer_new();
		rec_add_sink(r, &sinks[0]);
	} else if (strcmp(mode, "nosink")) {
		snprintf(path, sizeof(path), "%s/events.jsonl", argv[3]);
		unlink(path);
		/* "json": every event a line, as usbtrail 0.2 wrote them */
		ret = sink_jsonl_open(&sinks[0], path, !strcmp(mode, "json") ?
				      SINK_JSONL_ALL : 0);
		if (ret)
			goto fail;
		rec_add_sink(r, &sinks[0]);
	}
	if (strcmp(mode, "json") && strcmp(mode, "nowrite") &&
	    strcmp(mode, "nosink")) {
		snprintf(path, sizeof(path), "%s/capture.pcapng", argv[3]);
		unlink(path);
		ret = sink_pcapng_open(&sinks[1], path, rec_clock(r));
		if (ret)
			goto fail;
		rec_add_sink(r, &sinks[1]);
	}
	if (!strcmp(mode, "both")) {
		snprintf(path, sizeof(path), "%s/all.jsonl", argv[3]);
		unlink(path);
		ret = sink_jsonl_open(&sinks[2], path, SINK_JSONL_ALL);
		if (ret)
			goto fail;
		rec_add_sink(r, &sinks[2]);
	}
	for (i = 0; i < ndev; i++) {
		devs[i]->t_ns = base - 1000000;
		rec_emit(r, devs[i]);
	}
	free(devs);

	/* COMMAND: this program, writing the records into the pipe */
	snprintf(fdarg, sizeof(fdarg), "%d", pfd[1]);
	snprintf(cmd, sizeof(cmd), "%s/records.bin", argv[3]);
	argv_cmd[0] = strchr(argv[0], '/') ? argv[0] : "/proc/self/exe";
	argv_cmd[1] = "--write";
	argv_cmd[2] = cmd;
	argv_cmd[3] = fdarg;
	argv_cmd[4] = NULL;
	ro.command = argv_cmd;

	getrusage(RUSAGE_SELF, &ru0);
	/* the child gets the write end; ours closes once it runs */
	ret = rec_run(r, &ro);
	getrusage(RUSAGE_SELF, &ru1);
	close(pfd[1]);
	if (ret) {
		fprintf(stderr, "utreplay: recording failed: %s\n",
			strerror(-ret));
		return 1;
	}
	cpu = tv_s(ru1.ru_utime) - tv_s(ru0.ru_utime) +
	      tv_s(ru1.ru_stime) - tv_s(ru0.ru_stime);
	printf("events %llu cpu_s %.3f us_per_event %.2f user_s %.3f sys_s %.3f\n",
	       (unsigned long long)src.events, cpu,
	       src.events ? cpu * 1e6 / (double)src.events : 0.0,
	       tv_s(ru1.ru_utime) - tv_s(ru0.ru_utime),
	       tv_s(ru1.ru_stime) - tv_s(ru0.ru_stime));
	rec_free(r);
	return src.events == copies * nrec ? 0 : 1;
fail:
	fprintf(stderr, "utreplay: %s: %s\n", path, strerror(-ret));
	return 1;
}
