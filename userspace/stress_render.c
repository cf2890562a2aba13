// SPDX-License-Identifier: GPL-2.0-only
/*
 * stress_render.c - what "usbtrail stress" shows of a run: the progress
 * while it runs (a bar on a terminal, plain lines otherwise, on stderr),
 * the summary as text or --json (through json-c) on stdout, and the
 * per-interval --log file.
 *
 * stress.c fills a struct stress_result; cmd_stress.c picks which of
 * these to call.  Nothing here decides the exit status.
 */
#include <errno.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "cli.h"
#include "stress_render.h"

#ifndef USBTRAIL_VERSION
#define USBTRAIL_VERSION	"unknown"	/* unit-test builds */
#endif
#include "stress_target.h"
#include "util.h"

#define STRESS_RENDER_MAX_RANGES	50	/* printed; --json has them all */

static const char *const stress_render_results[] = {
	[STRESS_RENDER_PASS] = "pass",
	[STRESS_RENDER_FAIL] = "fail",
	[STRESS_RENDER_INTERRUPTED] = "interrupted",
};


void stress_render_bytes(char *buf, size_t len, double v)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned int i = 0;

	while (v >= 1024 && i < 4) {
		v /= 1024;
		i++;
	}
	snprintf(buf, len, "%.1f %s", v, units[i]);
}

void stress_render_progress(void *ctx, const struct stress_progress *p)
{
	struct stress_render_out *o = ctx;
	char done[32], total[32], eta[32] = "";

	stress_render_bytes(done, sizeof(done), (double)p->done);
	if (p->eta >= 0)
		snprintf(eta, sizeof(eta), "  ETA %.0f s", p->eta);
	if (o->tty) {
		char bar[31];
		unsigned int fill = 0, i;

		if (p->total)
			fill = (unsigned int)(30.0 * (double)p->done /
					      (double)p->total);
		else if (p->eta >= 0 && p->elapsed + p->eta > 0)
			fill = (unsigned int)(30.0 * p->elapsed /
					      (p->elapsed + p->eta));
		for (i = 0; i < 30; i++)
			bar[i] = i < fill ? '#' : '.';
		bar[30] = '\0';
		fprintf(stderr, "\r%-18s [%s] %10s %9.1f MB/s%-12s", p->phase,
			bar, done, p->rate / 1e6, p->final ? "" : eta);
		o->bar_shown = true;
		if (p->final) {
			fputc('\n', stderr);
			o->bar_shown = false;
		}
		return;
	}
	/*
	 * Not a terminal: a line a second, and one at the end; of soak's
	 * later cycles, a line a second all told (a cycle can be short).
	 */
	if (!p->final && p->elapsed - o->last_line < 1.0 &&
	    o->last_line <= p->elapsed)
		return;
	if (p->final && p->cycle > 1 && !p->interrupted) {
		struct timespec ts;
		double now;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		now = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
		if (now - o->last_final < 1.0) {
			o->last_line = 0;
			return;
		}
		o->last_final = now;
	}
	o->last_line = p->final ? 0 : p->elapsed;
	if (p->total)
		stress_render_bytes(total, sizeof(total), (double)p->total);
	fprintf(stderr, "%s: %s%s%s, %.1f MB/s, %.1f s%s%s\n", p->phase,
		done, p->total ? " of " : "", p->total ? total : "",
		p->rate / 1e6, p->elapsed, !p->final ? "" :
		p->interrupted ? ", interrupted" : ", done",
		p->final ? "" : eta);
}

void stress_render_message(void *ctx, const char *line)
{
	struct stress_render_out *o = ctx;

	if (o->bar_shown) {
		fputc('\n', stderr);
		o->bar_shown = false;
	}
	fprintf(stderr, CLI_PROG " stress: %s\n", line);
}

static void stress_render_range(FILE *f, const struct verify_range *r,
				  uint32_t ss)
{
	uint64_t n = (r->end - r->start) / ss;
	char lba[48];

	stress_target_lba(lba, sizeof(lba), r->start, r->end);
	fprintf(f, "  %" PRIu64 "-%" PRIu64 " (%" PRIu64 " bytes, %" PRIu64
		" sector%s; %s): %s", r->start, r->end - 1, r->end - r->start,
		n, n == 1 ? "" : "s", lba, verify_class_name(r->cls));
	switch (r->cls) {
	case VERIFY_CHANGED:
		fprintf(f, ", %" PRIu64 " bits differ", r->bits);
		break;
	case VERIFY_OVERWRITTEN:
		fprintf(f, ", first holds offset %" PRIu64 " (generation %"
			PRIu32 ")", r->first.found_offset,
			r->first.found_generation);
		break;
	case VERIFY_STALE:
		fprintf(f, ", first holds run %016" PRIx64 " generation %"
			PRIu32, r->first.found_run_id,
			r->first.found_generation);
		break;
	case VERIFY_OK:
	case VERIFY_ZEROED:
	case VERIFY_GARBAGE:
	case VERIFY_UNREADABLE:
	case VERIFY_NR_CLASSES:
		break;
	}
	fputc('\n', f);
}

static void stress_render_report(const char *what,
				   const struct verify_report *rep,
				   uint32_t ss)
{
	unsigned int cl;
	size_t i;

	printf("%s: %" PRIu64 " bytes read back, %" PRIu64 " bad sectors",
	       what, rep->bytes_checked, verify_report_bad(rep));
	for (cl = VERIFY_OK + 1; cl < VERIFY_NR_CLASSES; cl++)
		if (rep->sectors[cl])
			printf(", %" PRIu64 " %s", rep->sectors[cl],
			       verify_class_name((enum verify_class)cl));
	printf("\n");
	for (i = 0; i < rep->nranges && i < STRESS_RENDER_MAX_RANGES; i++)
		stress_render_range(stdout, &rep->ranges[i], ss);
	if (rep->nranges > STRESS_RENDER_MAX_RANGES || rep->ranges_dropped)
		printf("  ... %" PRIu64 " more ranges (--json lists %u)\n",
		       (uint64_t)(rep->nranges - (rep->nranges >
			STRESS_RENDER_MAX_RANGES ? STRESS_RENDER_MAX_RANGES :
			rep->nranges)) + rep->ranges_dropped,
		       VERIFY_MAX_RANGES);
}

/*
 * The best scored pass (1 and on, not the warm-up) of CrystalDiskMark
 * test @label in direction @write, by MB/s, as CrystalDiskMark keeps it;
 * NULL if none did I/O.
 */
static const struct stress_phase_result *
stress_render_cdm_best(const struct stress_result *res, const char *label,
		       bool write)
{
	const struct stress_phase_result *best = NULL;
	size_t i;

	for (i = 0; i < res->nphases; i++) {
		const struct stress_phase_result *p = &res->phases[i];

		if (strcmp(p->ph.label, label) || p->ph.write != write ||
		    !p->ph.pass || !p->ios)
			continue;
		if (!best || p->mbps > best->mbps)
			best = p;
	}
	return best;
}

/* Whether phase @i is the first of its CrystalDiskMark test. */
static bool stress_render_cdm_first(const struct stress_result *res,
				    size_t i)
{
	size_t k;

	if (!res->phases[i].ph.label[0])
		return false;
	for (k = 0; k < i; k++)
		if (!strcmp(res->phases[k].ph.label, res->phases[i].ph.label))
			return false;
	return true;
}

/* The first lines: the target and the run. */
static void stress_render_head(const struct stress_render_run *run,
			       const struct blkdev_target *t,
			       const struct stress_result *res)
{
	char size[32];

	util_format_size(size, sizeof(size), res->size);
	printf("target: %s (%s%s, %s), %s, sector %" PRIu32 " B\n", t->path,
	       t->is_blockdev ? "block device" : "file",
	       res->direct ? ", O_DIRECT" : ", page cache", res->engine, size,
	       res->sector_size);
	if (run->where)
		stress_target_text(stdout, run->where);
	printf("run: %016" PRIx64 " generation %" PRIu32 "%s\n", res->run_id,
	       res->generation, run->verify_only ? " (found in-band)" :
	       res->continued ? " (continues the run found on the target)" :
	       "");
}

/*
 * The phase's name as the tables give it: "write #3" for a soak cycle,
 * "SEQ1M Q8T1 Read #2" for a cdm pass, "... warm-up" for its warm-up.
 */
static void stress_render_phase_name(char *buf, size_t len,
				     const struct stress_phase_result *p)
{
	if (p->ph.cycle)
		snprintf(buf, len, "%s #%u", p->ph.name, p->ph.cycle);
	else if (p->ph.label[0] && p->ph.pass)
		snprintf(buf, len, "%s #%u", p->ph.name, p->ph.pass);
	else if (p->ph.label[0])
		snprintf(buf, len, "%s warm-up", p->ph.name);
	else
		snprintf(buf, len, "%s", p->ph.name);
}

/* One row per phase. */
static void stress_render_phases(const struct stress_result *res)
{
	size_t i;

	printf("%-26s %7s %4s %10s %10s %7s %4s %6s\n", "phase", "block",
	       "qd", "MB/s", "IOPS", "secs", "dips", "errors");
	for (i = 0; i < res->nphases; i++) {
		const struct stress_phase_result *p = &res->phases[i];
		char bs[32], name[48];

		util_format_size(bs, sizeof(bs), p->ph.block);
		stress_render_phase_name(name, sizeof(name), p);
		printf("%-26s %7s %4u %10.1f %10.0f %7.2f %4u %6u%s%s\n",
		       name, bs, p->ph.qd, p->mbps, p->iops, p->secs, p->dips,
		       p->errors, p->interrupted ? "  interrupted" :
		       p->completed ? "" : "  stopped",
		       p->slow ? "  SLOW" : "");
	}
}

/* Completion latency per phase, as fio's lat: submission to completion. */
static void stress_render_latency(const struct stress_result *res)
{
	size_t i;

	printf("\n%-26s %9s %9s %9s %9s %9s\n", "latency (us)", "mean",
	       "p50", "p99", "p99.9", "max");
	for (i = 0; i < res->nphases; i++) {
		const struct stress_phase_result *p = &res->phases[i];
		char name[48];

		if (!p->ios)
			continue;
		stress_render_phase_name(name, sizeof(name), p);
		printf("%-26s %9.1f %9.1f %9.1f %9.1f %9.1f\n", name,
		       p->lat_mean / 1e3, (double)p->lat_p50 / 1e3,
		       (double)p->lat_p99 / 1e3, (double)p->lat_p999 / 1e3,
		       (double)p->lat_max / 1e3);
	}
}

/* The CrystalDiskMark table: a row a test, the best of its passes. */
static void stress_render_cdm(const struct stress_render_run *run,
			      const struct stress_result *res)
{
	char head[40];
	size_t i;

	snprintf(head, sizeof(head), "CrystalDiskMark, best of %u",
		 run->passes);
	printf("\n%-26s %10s %10s %10s %10s\n", head, "Read MB/s",
	       "Write MB/s", "Read IOPS", "Write IOPS");
	for (i = 0; i < res->nphases; i++) {
		const char *label = res->phases[i].ph.label;
		const struct stress_phase_result *r, *w;

		if (!stress_render_cdm_first(res, i))
			continue;
		r = stress_render_cdm_best(res, label, false);
		w = stress_render_cdm_best(res, label, true);
		printf("%-26s %10.1f %10.1f %10.0f %10.0f\n", label,
		       r ? r->mbps : 0, w ? w->mbps : 0, r ? r->iops : 0,
		       w ? w->iops : 0);
	}
}

/*
 * The sweep as ATTO Disk Benchmark lays it out: a row a block size, its
 * write and read rate side by side (the phases' own figures).
 */
static void stress_render_atto(const struct stress_result *res)
{
	size_t i, j;

	printf("\n%-26s %10s %10s\n", "ATTO layout: block", "Write MB/s",
	       "Read MB/s");
	for (i = 0; i < res->nphases; i++) {
		const struct stress_phase_result *w = &res->phases[i];
		const struct stress_phase_result *r = NULL;
		char bs[32], rd[16] = "-";

		if (!w->ph.write || w->ph.random)
			continue;
		for (j = i + 1; j < res->nphases && !r; j++)
			if (!res->phases[j].ph.write &&
			    res->phases[j].ph.block == w->ph.block)
				r = &res->phases[j];
		if (r)
			snprintf(rd, sizeof(rd), "%.1f", r->mbps);
		util_format_size(bs, sizeof(bs), w->ph.block);
		printf("%-26s %10.1f %10s\n", bs, w->mbps, rd);
	}
}

static void stress_render_soak_cycle(const char *what,
				     const struct stress_soak_cycle *cy)
{
	printf("  %-8s cycle %u: write %.1f MB/s, read %.1f MB/s\n", what,
	       cy->cycle, cy->write_mbps, cy->read_mbps);
}

static double stress_render_rate(uint64_t bytes, double secs)
{
	return secs > 0 ? (double)bytes / secs / 1e6 : 0;
}

/* The soak's cycles, condensed: at most STRESS_SOAK_ROWS rows. */
static void stress_render_soak(const struct stress_result *res)
{
	const struct stress_soak *s = &res->soak;
	char wr[32], rd[32], cyc[32];
	size_t i;

	stress_render_bytes(wr, sizeof(wr), (double)res->written_bytes);
	stress_render_bytes(rd, sizeof(rd), (double)res->read_bytes);
	printf("\nsoak: %u cycle%s in %.1f s, %s written, %s read, %u slow\n",
	       s->cycles, s->cycles == 1 ? "" : "s", res->secs, wr, rd,
	       s->slow_cycles);
	if (!s->cycles)
		return;
	printf("%-15s %10s %10s %10s %10s %5s %5s %6s\n", "cycles",
	       "write min", "write mean", "read min", "read mean", "slow",
	       "dips", "errors");
	for (i = 0; i < s->nrows; i++) {
		const struct stress_soak_row *r = &s->rows[i];

		if (r->first == r->last)
			snprintf(cyc, sizeof(cyc), "%u", r->first);
		else
			snprintf(cyc, sizeof(cyc), "%u-%u", r->first, r->last);
		printf("%-15s %10.1f %10.1f %10.1f %10.1f %5u %5u %6u\n", cyc,
		       r->write_min, stress_render_rate(r->write_bytes,
							r->write_secs),
		       r->read_min, stress_render_rate(r->read_bytes,
						       r->read_secs),
		       r->slow, r->dips, r->errors);
	}
	printf("(MB/s; a row holds %u cycle%s)\n", s->per_row,
	       s->per_row == 1 ? "" : "s");
	stress_render_soak_cycle("first", &s->first);
	stress_render_soak_cycle("slowest", &s->slowest);
	stress_render_soak_cycle("last", &s->last);
}

static void stress_render_errors(const struct stress_result *res)
{
	size_t i;

	printf("I/O errors: %" PRIu64 "\n", res->errors_total);
	for (i = 0; i < res->nerrors; i++) {
		const struct stress_error *e = &res->errors[i];

		printf("  %.3f s %s %s at offset %" PRIu64 " (%" PRIu32
		       " bytes, sector %" PRIu64 "): %s (errno %d)\n", e->t,
		       e->phase, e->write ? "write" : "read", e->offset,
		       e->len, e->offset >> VERIFY_LBA_SHIFT, strerror(e->err),
		       e->err);
	}
}

void stress_render_text(const struct stress_render_run *run,
			const struct blkdev_target *t,
			const struct stress_result *res,
			enum stress_render_result result)
{
	const char *word = stress_render_results[result];
	char sig[24];
	size_t i;

	stress_render_head(run, t, res);
	stress_render_phases(res);
	stress_render_latency(res);
	if (run->cdm)
		stress_render_cdm(run, res);
	if (run->soak)
		stress_render_soak(res);
	if (run->sweep)
		stress_render_atto(res);
	for (i = 0; i < res->nintervals; i++) {
		const struct stress_interval *iv = &res->intervals[i];
		char cyc[16] = "";

		if (iv->cycle)
			snprintf(cyc, sizeof(cyc), " #%u", iv->cycle);
		if (iv->dip)
			printf("dip: %s%s at %.1f s: %.1f MB/s\n",
			       res->phases[iv->phase].ph.name, cyc, iv->t,
			       (double)iv->bytes / iv->secs / 1e6);
	}
	if (res->soak_slow)
		printf("slow-down: a later cycle wrote below %.0f%% of the "
		       "first\n", STRESS_SOAK_SLOW * 100);
	stress_render_report("verify", res->report, res->sector_size);
	stress_target_capacity_text(stdout, res);
	if (res->not_written)
		printf("not verified: %" PRIu64 " bytes whose writes failed\n",
		       res->not_written);
	if (res->reopens) {
		printf("reopened %u time(s); ", res->reopens);
		stress_render_report("verified after reopen",
				     res->reopen_report, res->sector_size);
	}
	if (res->errors_total)
		stress_render_errors(res);
	if (res->interrupted) {
		stress_signal_name(res->interrupted, sig, sizeof(sig));
		printf("interrupted by %s after %" PRIu64 " bytes written, %"
		       PRIu64 " verified\n", sig, res->written_bytes,
		       res->report->bytes_checked);
	}
	printf("result: ");
	for (i = 0; word[i]; i++)
		putchar(toupper((unsigned char)word[i]));
	putchar('\n');
}

static json_object *stress_render_json_range(const struct verify_range *r)
{
	json_object *jr = json_object_new_object();
	char hex[20];

	json_object_object_add(jr, "start", json_object_new_uint64(r->start));
	json_object_object_add(jr, "end", json_object_new_uint64(r->end));
	/* in 512-byte sectors, [lba_start, lba_end) as start and end */
	json_object_object_add(jr, "lba_start", json_object_new_uint64(
				r->start >> VERIFY_LBA_SHIFT));
	json_object_object_add(jr, "lba_end", json_object_new_uint64(
				r->end >> VERIFY_LBA_SHIFT));
	json_object_object_add(jr, "class", json_object_new_string(
				verify_class_name(r->cls)));
	if (r->cls == VERIFY_CHANGED)
		json_object_object_add(jr, "bits",
				       json_object_new_uint64(r->bits));
	if (r->cls == VERIFY_OVERWRITTEN || r->cls == VERIFY_STALE) {
		snprintf(hex, sizeof(hex), "%016" PRIx64,
			 r->first.found_run_id);
		json_object_object_add(jr, "found_offset",
			json_object_new_uint64(r->first.found_offset));
		json_object_object_add(jr, "found_run_id",
				       json_object_new_string(hex));
		json_object_object_add(jr, "found_generation",
			json_object_new_int64(r->first.found_generation));
	}
	return jr;
}

static json_object *stress_render_json_report(const struct verify_report *rep)
{
	json_object *o = json_object_new_object(), *cls, *ranges;
	unsigned int c;
	size_t i;

	json_object_object_add(o, "bytes_checked",
			       json_object_new_uint64(rep->bytes_checked));
	json_object_object_add(o, "bad_sectors",
			       json_object_new_uint64(verify_report_bad(rep)));
	json_object_object_add(o, "bits_changed",
			       json_object_new_uint64(rep->bits_changed));
	cls = json_object_new_object();
	for (c = 0; c < VERIFY_NR_CLASSES; c++)
		json_object_object_add(cls,
			verify_class_name((enum verify_class)c),
			json_object_new_uint64(rep->sectors[c]));
	json_object_object_add(o, "sectors", cls);
	ranges = json_object_new_array();
	for (i = 0; i < rep->nranges; i++)
		json_object_array_add(ranges,
			stress_render_json_range(&rep->ranges[i]));
	json_object_object_add(o, "ranges", ranges);
	json_object_object_add(o, "ranges_dropped",
			       json_object_new_uint64(rep->ranges_dropped));
	return o;
}

/* The members before "phases": the target and the run. */
static void stress_render_json_head(json_object *o,
				    const struct stress_render_run *run,
				    const struct blkdev_target *t,
				    const struct stress_result *res)
{
	char hex[20];

	char when[32];
	struct tm tm;

	json_object_object_add(o, "usbtrail",
			       json_object_new_string(USBTRAIL_VERSION));
	gmtime_r(&run->started, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_object_add(o, "started", json_object_new_string(when));
	json_object_object_add(o, "target", json_object_new_string(t->path));
	if (run->where)
		json_object_object_add(o, "device",
				       stress_target_json(run->where));
	json_object_object_add(o, "kind", json_object_new_string(
				t->is_blockdev ? "block" : "file"));
	json_object_object_add(o, "direct",
			       json_object_new_boolean(res->direct));
	json_object_object_add(o, "engine",
			       json_object_new_string(res->engine));
	json_object_object_add(o, "profile",
			       json_object_new_string(run->profile));
	if (run->cdm)
		json_object_object_add(o, "cdm_set",
				       json_object_new_int(run->cdm_set));
	json_object_object_add(o, "verify_only",
			       json_object_new_boolean(run->verify_only));
	json_object_object_add(o, "size", json_object_new_uint64(res->size));
	json_object_object_add(o, "sector_size",
			       json_object_new_int64(res->sector_size));
	snprintf(hex, sizeof(hex), "%016" PRIx64, res->run_id);
	json_object_object_add(o, "run_id", json_object_new_string(hex));
	json_object_object_add(o, "generation",
			       json_object_new_int64(res->generation));
	json_object_object_add(o, "continued",
			       json_object_new_boolean(res->continued));
	json_object_object_add(o, "secs", json_object_new_double(res->secs));
}

/*
 * A phase's id, the same in every run and version: its name in lower
 * case, '-' for what is not a letter or digit, and a cdm test's pass
 * ("seq1m-q8t1-read-p0" is its warm-up).
 */
static void stress_render_phase_id(char *buf, size_t len,
				   const struct stress_phase_result *p)
{
	size_t i, n = 0;

	for (i = 0; p->ph.name[i] && n + 1 < len; i++) {
		unsigned char c = (unsigned char)p->ph.name[i];

		if (isalnum(c))
			buf[n++] = (char)tolower(c);
		else if (n && buf[n - 1] != '-')
			buf[n++] = '-';
	}
	while (n && buf[n - 1] == '-')
		n--;
	buf[n] = '\0';
	if (p->ph.label[0])
		snprintf(buf + n, len - n, "-p%u", p->ph.pass);
}

static json_object *
stress_render_json_phase(const struct stress_phase_result *p)
{
	json_object *v = json_object_new_object();
	char id[64];

	stress_render_phase_id(id, sizeof(id), p);
	json_object_object_add(v, "id", json_object_new_string(id));
	json_object_object_add(v, "name", json_object_new_string(p->ph.name));
	if (p->ph.label[0])
		json_object_object_add(v, "cdm",
				       json_object_new_string(p->ph.label));
	json_object_object_add(v, "op", json_object_new_string(
				p->ph.write ? "write" : "read"));
	json_object_object_add(v, "random",
			       json_object_new_boolean(p->ph.random));
	json_object_object_add(v, "block", json_object_new_int64(p->ph.block));
	json_object_object_add(v, "qd", json_object_new_int64(p->ph.qd));
	if (p->ph.cycle)
		json_object_object_add(v, "cycle",
				       json_object_new_int64(p->ph.cycle));
	if (p->ph.label[0])
		json_object_object_add(v, "pass",
				       json_object_new_int64(p->ph.pass));
	json_object_object_add(v, "bytes", json_object_new_uint64(p->bytes));
	json_object_object_add(v, "ios", json_object_new_uint64(p->ios));
	json_object_object_add(v, "secs", json_object_new_double(p->secs));
	json_object_object_add(v, "mbps", json_object_new_double(p->mbps));
	json_object_object_add(v, "bw_bytes", json_object_new_double(
				p->secs > 0 ? (double)p->bytes / p->secs : 0));
	json_object_object_add(v, "iops", json_object_new_double(p->iops));
	json_object_object_add(v, "lat_min_us",
			       json_object_new_double((double)p->lat_min / 1e3));
	json_object_object_add(v, "lat_mean_us",
			       json_object_new_double(p->lat_mean / 1e3));
	json_object_object_add(v, "lat_p50_us",
			       json_object_new_double((double)p->lat_p50 / 1e3));
	json_object_object_add(v, "lat_p99_us",
			       json_object_new_double((double)p->lat_p99 / 1e3));
	json_object_object_add(v, "lat_p999_us",
			json_object_new_double((double)p->lat_p999 / 1e3));
	json_object_object_add(v, "lat_max_us",
			       json_object_new_double((double)p->lat_max / 1e3));
	json_object_object_add(v, "dips", json_object_new_int64(p->dips));
	json_object_object_add(v, "errors", json_object_new_int64(p->errors));
	json_object_object_add(v, "completed",
			       json_object_new_boolean(p->completed));
	if (p->interrupted)
		json_object_object_add(v, "interrupted",
				       json_object_new_boolean(1));
	if (p->slow)
		json_object_object_add(v, "slow", json_object_new_boolean(1));
	return v;
}

static json_object *
stress_render_json_interval(const struct stress_result *res,
			    const struct stress_interval *iv)
{
	json_object *v = json_object_new_object();

	json_object_object_add(v, "phase", json_object_new_string(
			res->phases[iv->phase].ph.name));
	if (iv->cycle)
		json_object_object_add(v, "cycle",
				       json_object_new_int64(iv->cycle));
	json_object_object_add(v, "t", json_object_new_double(iv->t));
	json_object_object_add(v, "secs", json_object_new_double(iv->secs));
	json_object_object_add(v, "mbps", json_object_new_double(
			(double)iv->bytes / iv->secs / 1e6));
	json_object_object_add(v, "bw_bytes", json_object_new_double(
			(double)iv->bytes / iv->secs));
	json_object_object_add(v, "iops", json_object_new_double(
			(double)iv->ios / iv->secs));
	json_object_object_add(v, "dip", json_object_new_boolean(iv->dip));
	return v;
}

/* A test's best pass in one direction, or null. */
static json_object *
stress_render_json_best(const struct stress_phase_result *p)
{
	json_object *v;

	if (!p)
		return NULL;
	v = json_object_new_object();
	json_object_object_add(v, "pass", json_object_new_int64(p->ph.pass));
	json_object_object_add(v, "mbps", json_object_new_double(p->mbps));
	json_object_object_add(v, "bw_bytes", json_object_new_double(
				p->secs > 0 ? (double)p->bytes / p->secs : 0));
	json_object_object_add(v, "iops", json_object_new_double(p->iops));
	json_object_object_add(v, "lat_mean_us",
			       json_object_new_double(p->lat_mean / 1e3));
	return v;
}

/* "cdm": CrystalDiskMark's table, the best of the passes of each test. */
static json_object *stress_render_json_cdm(const struct stress_render_run *run,
					   const struct stress_result *res)
{
	json_object *o = json_object_new_object(), *a, *v;
	size_t i;

	json_object_object_add(o, "passes", json_object_new_int64(run->passes));
	a = json_object_new_array();
	for (i = 0; i < res->nphases; i++) {
		const char *label = res->phases[i].ph.label;

		if (!stress_render_cdm_first(res, i))
			continue;
		v = json_object_new_object();
		json_object_object_add(v, "test",
				       json_object_new_string(label));
		json_object_object_add(v, "read", stress_render_json_best(
				stress_render_cdm_best(res, label, false)));
		json_object_object_add(v, "write", stress_render_json_best(
				stress_render_cdm_best(res, label, true)));
		json_object_array_add(a, v);
	}
	json_object_object_add(o, "tests", a);
	return o;
}

static json_object *
stress_render_json_cycle(const struct stress_soak_cycle *cy)
{
	json_object *v = json_object_new_object();

	json_object_object_add(v, "cycle", json_object_new_int64(cy->cycle));
	json_object_object_add(v, "write_mbps",
			       json_object_new_double(cy->write_mbps));
	json_object_object_add(v, "read_mbps",
			       json_object_new_double(cy->read_mbps));
	return v;
}

/* "soak": the summary of its cycles, STRESS_SOAK_ROWS rows at most. */
static json_object *stress_render_json_soak(const struct stress_result *res)
{
	const struct stress_soak *s = &res->soak;
	json_object *o = json_object_new_object(), *a, *v;
	size_t i;

	json_object_object_add(o, "cycles", json_object_new_int64(s->cycles));
	json_object_object_add(o, "written_bytes",
			       json_object_new_uint64(res->written_bytes));
	json_object_object_add(o, "read_bytes",
			       json_object_new_uint64(res->read_bytes));
	json_object_object_add(o, "slow_cycles",
			       json_object_new_int64(s->slow_cycles));
	if (s->cycles) {
		json_object_object_add(o, "first",
				       stress_render_json_cycle(&s->first));
		json_object_object_add(o, "last",
				       stress_render_json_cycle(&s->last));
		json_object_object_add(o, "slowest",
				       stress_render_json_cycle(&s->slowest));
	}
	json_object_object_add(o, "cycles_per_row",
			       json_object_new_int64(s->per_row));
	a = json_object_new_array();
	for (i = 0; i < s->nrows; i++) {
		const struct stress_soak_row *r = &s->rows[i];

		v = json_object_new_object();
		json_object_object_add(v, "first",
				       json_object_new_int64(r->first));
		json_object_object_add(v, "last",
				       json_object_new_int64(r->last));
		json_object_object_add(v, "write_mbps_min",
				       json_object_new_double(r->write_min));
		json_object_object_add(v, "write_mbps_mean",
			json_object_new_double(stress_render_rate(
				r->write_bytes, r->write_secs)));
		json_object_object_add(v, "read_mbps_min",
				       json_object_new_double(r->read_min));
		json_object_object_add(v, "read_mbps_mean",
			json_object_new_double(stress_render_rate(
				r->read_bytes, r->read_secs)));
		json_object_object_add(v, "slow",
				       json_object_new_int64(r->slow));
		json_object_object_add(v, "dips",
				       json_object_new_int64(r->dips));
		json_object_object_add(v, "errors",
				       json_object_new_int64(r->errors));
		json_object_array_add(a, v);
	}
	json_object_object_add(o, "rows", a);
	return o;
}

static json_object *stress_render_json_error(const struct stress_error *e)
{
	json_object *v = json_object_new_object();

	json_object_object_add(v, "t", json_object_new_double(e->t));
	json_object_object_add(v, "phase", json_object_new_string(e->phase));
	json_object_object_add(v, "op", json_object_new_string(
				e->write ? "write" : "read"));
	json_object_object_add(v, "offset", json_object_new_uint64(e->offset));
	json_object_object_add(v, "sector", json_object_new_uint64(
				e->offset >> VERIFY_LBA_SHIFT));
	json_object_object_add(v, "len", json_object_new_int64(e->len));
	json_object_object_add(v, "errno", json_object_new_int64(e->err));
	json_object_object_add(v, "error",
			       json_object_new_string(strerror(e->err)));
	return v;
}

void stress_render_json(const struct stress_render_run *run,
			const struct blkdev_target *t,
			const struct stress_result *res,
			enum stress_render_result result)
{
	json_object *o = json_object_new_object(), *a, *v;
	char sig[24];
	size_t i;

	stress_render_json_head(o, run, t, res);
	a = json_object_new_array();
	for (i = 0; i < res->nphases; i++)
		json_object_array_add(a,
			stress_render_json_phase(&res->phases[i]));
	json_object_object_add(o, "phases", a);

	a = json_object_new_array();
	for (i = 0; i < res->nintervals; i++)
		json_object_array_add(a, stress_render_json_interval(res,
					&res->intervals[i]));
	json_object_object_add(o, "intervals", a);
	json_object_object_add(o, "soak_slowdown",
			       json_object_new_boolean(res->soak_slow));
	if (run->soak)
		json_object_object_add(o, "soak",
				       stress_render_json_soak(res));
	if (run->cdm)
		json_object_object_add(o, "cdm",
				       stress_render_json_cdm(run, res));

	json_object_object_add(o, "verify",
			       stress_render_json_report(res->report));
	json_object_object_add(o, "capacity",
			       stress_target_capacity_json(res));
	json_object_object_add(o, "not_written_bytes",
			       json_object_new_uint64(res->not_written));
	v = json_object_new_object();
	json_object_object_add(v, "count", json_object_new_int64(res->reopens));
	json_object_object_add(v, "verify",
			       stress_render_json_report(res->reopen_report));
	json_object_object_add(o, "reopen", v);

	a = json_object_new_array();
	for (i = 0; i < res->nerrors; i++)
		json_object_array_add(a,
			stress_render_json_error(&res->errors[i]));
	json_object_object_add(o, "errors", a);
	json_object_object_add(o, "errors_total",
			       json_object_new_uint64(res->errors_total));
	json_object_object_add(o, "written_bytes",
			       json_object_new_uint64(res->written_bytes));
	json_object_object_add(o, "interrupted",
			       json_object_new_boolean(res->interrupted));
	if (res->interrupted) {
		stress_signal_name(res->interrupted, sig, sizeof(sig));
		json_object_object_add(o, "signal",
				       json_object_new_string(sig));
	}
	json_object_object_add(o, "result", json_object_new_string(
				stress_render_results[result]));
	puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
					    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

int stress_render_log_open(struct stress_render_out *o, const char *path)
{
	o->log = fopen(path, "we");
	if (!o->log)
		return -errno;
	o->log_head = false;
	return 0;
}

static void stress_render_log_head(struct stress_render_out *o,
				   const struct stress_result *res)
{
	if (o->log_head)
		return;
	fprintf(o->log, "# usbtrail stress run %016" PRIx64 " generation %"
		PRIu32 "\n# t_s secs phase MB/s IOPS [dip]\n", res->run_id,
		res->generation);
	o->log_head = true;
}

/*
 * One line per interval as it ends, flushed: the log of a run cut short
 * (a SIGKILL, a crash) is whole up to there.
 */
void stress_render_interval(void *ctx, const struct stress_result *res,
			    const struct stress_interval *iv)
{
	struct stress_render_out *o = ctx;
	const struct stress_phase *ph = &res->phases[iv->phase].ph;
	char name[48];
	size_t k;

	if (!o->log)
		return;
	stress_render_log_head(o, res);
	if (iv->cycle)
		snprintf(name, sizeof(name), "%s#%u", ph->name, iv->cycle);
	else
		snprintf(name, sizeof(name), "%s", ph->name);
	for (k = 0; name[k]; k++)
		if (name[k] == ' ')
			name[k] = '-';
	fprintf(o->log, "%.3f %.3f %s %.1f %.0f%s\n", iv->t, iv->secs, name,
		(double)iv->bytes / iv->secs / 1e6,
		(double)iv->ios / iv->secs, iv->dip ? " dip" : "");
	fflush(o->log);
}

int stress_render_log_close(struct stress_render_out *o,
			    const struct stress_result *res)
{
	int err = 0;

	if (!o->log)
		return 0;
	if (res)
		stress_render_log_head(o, res);
	if (ferror(o->log))
		err = -EIO;
	if (fclose(o->log) && !err)
		err = -errno;
	o->log = NULL;
	return err;
}
