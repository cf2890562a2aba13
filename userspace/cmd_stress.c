// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_stress.c - "usbtrail stress": the writer that fills a device with a
 * verifiable pattern, reads it back and measures throughput.
 *
 * Options and output live here: blkdev.c opens the target, stress.c runs
 * the profile, and this file prints the progress (a bar on a terminal,
 * plain lines otherwise), the summary (text or --json, through json-c), the
 * per-interval log, and picks the exit status: 0 only when every I/O
 * succeeded and every sector read back is what was written.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "blkdev.h"
#include "cli.h"
#include "stress.h"
#include "util.h"

#define CMD_STRESS_NAME		"stress"
#define CMD_STRESS_MAX_SIZE	(1ull << 50)		/* 1 PiB */
#define CMD_STRESS_MIN_BLOCK	512u
#define CMD_STRESS_MAX_BLOCK	(64u << 20)
#define CMD_STRESS_MAX_DURATION	(30u * 24 * 3600)	/* 30 days */
#define CMD_STRESS_MAX_QD	1024u
#define CMD_STRESS_MIN_INTERVAL	100u	/* ms */
#define CMD_STRESS_MAX_INTERVAL	1000u
#define CMD_STRESS_MAX_RANGES	50	/* printed; --json has them all */

enum cmd_stress_profile {
	CMD_STRESS_PROFILE_SEQ,
	CMD_STRESS_PROFILE_CDM,
	CMD_STRESS_PROFILE_SWEEP,
	CMD_STRESS_PROFILE_SOAK,
	CMD_STRESS_PROFILE_MIXED,
};

static const char *const cmd_stress_profiles[] = {
	[CMD_STRESS_PROFILE_SEQ] = "seq",
	[CMD_STRESS_PROFILE_CDM] = "cdm",
	[CMD_STRESS_PROFILE_SWEEP] = "sweep",
	[CMD_STRESS_PROFILE_SOAK] = "soak",
	[CMD_STRESS_PROFILE_MIXED] = "mixed",
	NULL
};

enum cmd_stress_on_error {
	CMD_STRESS_ON_ERROR_STOP,
	CMD_STRESS_ON_ERROR_CONTINUE,
	CMD_STRESS_ON_ERROR_REOPEN,
};

static const char *const cmd_stress_engines[] = {
	[IOENGINE_URING] = "uring",
	[IOENGINE_SYNC] = "sync",
	NULL
};

static const char *const cmd_stress_on_errors[] = {
	[CMD_STRESS_ON_ERROR_STOP] = "stop",
	[CMD_STRESS_ON_ERROR_CONTINUE] = "continue",
	[CMD_STRESS_ON_ERROR_REOPEN] = "reopen",
	NULL
};

/* 0 in a number field means "not given: the profile decides". */
struct cmd_stress_opts {
	const char *target;
	unsigned int profile;		/* enum cmd_stress_profile */
	uint64_t size;
	uint64_t block;
	uint64_t duration_s;
	uint64_t qd;
	bool destroy_data;
	bool verify_only;
	unsigned int on_error;		/* enum cmd_stress_on_error */
	bool json;
	unsigned int engine;		/* enum ioengine_kind */
	uint64_t interval_ms;
	const char *log;
	uint64_t reopen_timeout;
};

const char cmd_stress_help[] =
"Usage: usbtrail stress TARGET [OPTIONS]\n"
"\n"
"Write a verifiable pattern to TARGET (a block device or a file), read it\n"
"back, and report throughput and every error with its offset and time.\n"
"\n"
"Options:\n"
"      --profile P         what to run (default seq):\n"
"                            seq    sequential write, then verify\n"
"                            cdm    sequential and random 4K tests at low and\n"
"                                   high queue depth, as CrystalDiskMark does\n"
"                            sweep  sequential throughput over block sizes\n"
"                            soak   write and verify in a loop until\n"
"                                   --duration ends or an error\n"
"                            mixed  random reads and writes of mixed sizes\n"
"      --size N            use the first N bytes of TARGET (default: all)\n"
"      --block N           bytes per I/O, a multiple of 512 up to 64MiB\n"
"                          (default: set by the profile)\n"
"      --duration S        stop after S seconds (1 to 2592000)\n"
"      --qd N              I/Os in flight, 1 to 1024 (default: set by the\n"
"                          profile)\n"
"      --engine E          uring (io_uring, default) or sync (pread/pwrite)\n"
"      --destroy-data      allow writing to TARGET if it is a block device;\n"
"                          whatever is on it is lost\n"
"      --verify-only       write nothing; check a pattern written earlier\n"
"      --on-error ACTION   on an I/O error: stop (default), continue, or\n"
"                          reopen TARGET (after the device re-enumerates)\n"
"                          and continue\n"
"      --reopen-timeout S  how long reopen waits (default 120)\n"
"      --interval MS       throughput log interval in ms, 100 to 1000\n"
"                          (default 1000)\n"
"      --log FILE          write the per-interval throughput log to FILE\n"
"      --json              print results as JSON\n"
"  -h, --help              show this help and exit\n"
"\n"
"N takes a K, M, G, T (or KiB, MiB, GiB, TiB) suffix: powers of 1024.\n"
"Every sector written names its offset, run and generation; the read-back\n"
"reports bad sectors as changed, overwritten, stale, zeroed or garbage with\n"
"their byte ranges.  Exit status: 0 all good, 1 I/O errors or bad sectors\n"
"(or the run could not start), 2 usage.\n";

enum {
	CMD_STRESS_OPT_PROFILE = 256,
	CMD_STRESS_OPT_SIZE,
	CMD_STRESS_OPT_BLOCK,
	CMD_STRESS_OPT_DURATION,
	CMD_STRESS_OPT_QD,
	CMD_STRESS_OPT_DESTROY_DATA,
	CMD_STRESS_OPT_VERIFY_ONLY,
	CMD_STRESS_OPT_ON_ERROR,
	CMD_STRESS_OPT_JSON,
	CMD_STRESS_OPT_ENGINE,
	CMD_STRESS_OPT_INTERVAL,
	CMD_STRESS_OPT_LOG,
	CMD_STRESS_OPT_REOPEN_TIMEOUT,
};

static int cmd_stress_parse(int argc, char **argv,
			    struct cmd_stress_opts *opts, bool *help)
{
	static const char optstring[] = ":h";
	static const struct option longopts[] = {
		{ "help",	  no_argument,	     NULL, 'h' },
		{ "profile",	  required_argument, NULL, CMD_STRESS_OPT_PROFILE },
		{ "size",	  required_argument, NULL, CMD_STRESS_OPT_SIZE },
		{ "block",	  required_argument, NULL, CMD_STRESS_OPT_BLOCK },
		{ "duration",	  required_argument, NULL, CMD_STRESS_OPT_DURATION },
		{ "qd",		  required_argument, NULL, CMD_STRESS_OPT_QD },
		{ "destroy-data", no_argument,	     NULL, CMD_STRESS_OPT_DESTROY_DATA },
		{ "verify-only",  no_argument,	     NULL, CMD_STRESS_OPT_VERIFY_ONLY },
		{ "on-error",	  required_argument, NULL, CMD_STRESS_OPT_ON_ERROR },
		{ "json",	  no_argument,	     NULL, CMD_STRESS_OPT_JSON },
		{ "engine",	  required_argument, NULL, CMD_STRESS_OPT_ENGINE },
		{ "interval",	  required_argument, NULL, CMD_STRESS_OPT_INTERVAL },
		{ "log",	  required_argument, NULL, CMD_STRESS_OPT_LOG },
		{ "reopen-timeout", required_argument, NULL,
		  CMD_STRESS_OPT_REOPEN_TIMEOUT },
		{ NULL,		  0,		     NULL, 0 }
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			*help = true;
			return 0;
		case CMD_STRESS_OPT_PROFILE:
			if (cli_parse_choice(CMD_STRESS_NAME, "--profile",
					     optarg, cmd_stress_profiles,
					     &opts->profile))
				return CLI_EXIT_USAGE;
			break;
		case CMD_STRESS_OPT_SIZE:
			if (cli_parse_number(CMD_STRESS_NAME, "--size", optarg,
					     UTIL_NUM_SIZE, CMD_STRESS_MIN_BLOCK,
					     CMD_STRESS_MAX_SIZE, &opts->size))
				return CLI_EXIT_USAGE;
			break;
		case CMD_STRESS_OPT_BLOCK:
			if (cli_parse_number(CMD_STRESS_NAME, "--block", optarg,
					     UTIL_NUM_SIZE, CMD_STRESS_MIN_BLOCK,
					     CMD_STRESS_MAX_BLOCK, &opts->block))
				return CLI_EXIT_USAGE;
			/* O_DIRECT needs whole logical blocks. */
			if (opts->block % CMD_STRESS_MIN_BLOCK)
				return cli_usage_error(CMD_STRESS_NAME,
					"--block %s is not a multiple of 512",
					optarg);
			break;
		case CMD_STRESS_OPT_DURATION:
			if (cli_parse_number(CMD_STRESS_NAME, "--duration",
					     optarg, 0, 1,
					     CMD_STRESS_MAX_DURATION,
					     &opts->duration_s))
				return CLI_EXIT_USAGE;
			break;
		case CMD_STRESS_OPT_QD:
			if (cli_parse_number(CMD_STRESS_NAME, "--qd", optarg, 0,
					     1, CMD_STRESS_MAX_QD, &opts->qd))
				return CLI_EXIT_USAGE;
			break;
		case CMD_STRESS_OPT_DESTROY_DATA:
			opts->destroy_data = true;
			break;
		case CMD_STRESS_OPT_VERIFY_ONLY:
			opts->verify_only = true;
			break;
		case CMD_STRESS_OPT_ON_ERROR:
			if (cli_parse_choice(CMD_STRESS_NAME, "--on-error",
					     optarg, cmd_stress_on_errors,
					     &opts->on_error))
				return CLI_EXIT_USAGE;
			break;
		case CMD_STRESS_OPT_JSON:
			opts->json = true;
			break;
		case CMD_STRESS_OPT_ENGINE:
			if (cli_parse_choice(CMD_STRESS_NAME, "--engine",
					     optarg, cmd_stress_engines,
					     &opts->engine))
				return CLI_EXIT_USAGE;
			break;
		case CMD_STRESS_OPT_INTERVAL:
			if (cli_parse_number(CMD_STRESS_NAME, "--interval",
					     optarg, 0, CMD_STRESS_MIN_INTERVAL,
					     CMD_STRESS_MAX_INTERVAL,
					     &opts->interval_ms))
				return CLI_EXIT_USAGE;
			break;
		case CMD_STRESS_OPT_LOG:
			if (!*optarg)
				return cli_usage_error(CMD_STRESS_NAME,
					"--log needs a file name");
			opts->log = optarg;
			break;
		case CMD_STRESS_OPT_REOPEN_TIMEOUT:
			if (cli_parse_number(CMD_STRESS_NAME,
					     "--reopen-timeout", optarg, 0, 1,
					     CMD_STRESS_MAX_DURATION,
					     &opts->reopen_timeout))
				return CLI_EXIT_USAGE;
			break;
		default:
			return cli_getopt_error(CMD_STRESS_NAME, c, argv,
						optstring, longopts);
		}
	}

	if (optind >= argc)
		return cli_usage_error(CMD_STRESS_NAME, "missing TARGET");
	if (argc - optind > 1)
		return cli_usage_error(CMD_STRESS_NAME,
				       "unexpected argument '%s' (one TARGET only)",
				       argv[optind + 1]);
	opts->target = argv[optind];
	if (!*opts->target)
		return cli_usage_error(CMD_STRESS_NAME,
				       "TARGET must not be empty");

	/* Reading only, yet agreeing to lose data: one of them is a typo. */
	if (opts->verify_only && opts->destroy_data)
		return cli_usage_error(CMD_STRESS_NAME,
			"--verify-only and --destroy-data exclude each other");
	if (opts->size && opts->block && opts->size < opts->block)
		return cli_usage_error(CMD_STRESS_NAME,
				       "--size is smaller than --block");
	return 0;
}

/* ----- output ----- */

struct cmd_stress_out {
	const struct cmd_stress_opts *opts;
	bool tty;
	double last_line;
	bool bar_shown;
};

static void cmd_stress_fmt_bytes(char *buf, size_t len, double v)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned int i = 0;

	while (v >= 1024 && i < 4) {
		v /= 1024;
		i++;
	}
	snprintf(buf, len, "%.1f %s", v, units[i]);
}

static void cmd_stress_progress(void *ctx, const struct stress_progress *p)
{
	struct cmd_stress_out *o = ctx;
	char done[32], total[32], eta[32] = "";

	cmd_stress_fmt_bytes(done, sizeof(done), (double)p->done);
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
	/* Not a terminal: a line a second, and one at the end. */
	if (!p->final && p->elapsed - o->last_line < 1.0 &&
	    o->last_line <= p->elapsed)
		return;
	o->last_line = p->final ? 0 : p->elapsed;
	if (p->total)
		cmd_stress_fmt_bytes(total, sizeof(total), (double)p->total);
	fprintf(stderr, "%s: %s%s%s, %.1f MB/s, %.1f s%s%s\n", p->phase,
		done, p->total ? " of " : "", p->total ? total : "",
		p->rate / 1e6, p->elapsed, p->final ? ", done" : "",
		p->final ? "" : eta);
}

static void cmd_stress_message(void *ctx, const char *line)
{
	struct cmd_stress_out *o = ctx;

	if (o->bar_shown) {
		fputc('\n', stderr);
		o->bar_shown = false;
	}
	fprintf(stderr, CLI_PROG " " CMD_STRESS_NAME ": %s\n", line);
}

static void cmd_stress_range_text(FILE *f, const struct verify_range *r,
				  uint32_t ss)
{
	uint64_t n = (r->end - r->start) / ss;

	fprintf(f, "  %" PRIu64 "-%" PRIu64 " (%" PRIu64 " bytes, %" PRIu64
		" sector%s): %s", r->start, r->end - 1, r->end - r->start, n,
		n == 1 ? "" : "s", verify_class_name(r->cls));
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

static void cmd_stress_report_text(const char *what,
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
	for (i = 0; i < rep->nranges && i < CMD_STRESS_MAX_RANGES; i++)
		cmd_stress_range_text(stdout, &rep->ranges[i], ss);
	if (rep->nranges > CMD_STRESS_MAX_RANGES || rep->ranges_dropped)
		printf("  ... %" PRIu64 " more ranges (--json lists %u)\n",
		       (uint64_t)(rep->nranges - (rep->nranges >
			CMD_STRESS_MAX_RANGES ? CMD_STRESS_MAX_RANGES :
			rep->nranges)) + rep->ranges_dropped,
		       VERIFY_MAX_RANGES);
}

/* The CrystalDiskMark table: one row per test, read and write columns. */
static const char *const cmd_stress_cdm_rows[] = {
	"Seq", "Random 512KB", "4K QD1", "4K QD32",
};

static const struct stress_phase_result *
cmd_stress_cdm_find(const struct stress_result *res, const char *row,
		    bool write)
{
	size_t i;

	for (i = 0; i < res->nphases; i++)
		if (!strcmp(res->phases[i].ph.label, row) &&
		    res->phases[i].ph.write == write)
			return &res->phases[i];
	return NULL;
}

static void cmd_stress_text(const struct cmd_stress_opts *opts,
			    const struct blkdev_target *t,
			    const struct stress_result *res)
{
	char size[32];
	size_t i;

	util_format_size(size, sizeof(size), res->size);
	printf("target: %s (%s%s, %s), %s, sector %" PRIu32 " B\n", t->path,
	       t->is_blockdev ? "block device" : "file",
	       res->direct ? ", O_DIRECT" : ", page cache", res->engine, size,
	       res->sector_size);
	printf("run: %016" PRIx64 " generation %" PRIu32 "%s\n", res->run_id,
	       res->generation, opts->verify_only ? " (found in-band)" :
	       res->continued ? " (continues the run found on the target)" :
	       "");
	printf("%-20s %8s %4s %10s %10s %8s %5s %6s\n", "phase", "block",
	       "qd", "MB/s", "IOPS", "secs", "dips", "errors");
	for (i = 0; i < res->nphases; i++) {
		const struct stress_phase_result *p = &res->phases[i];
		char bs[32], name[40];

		util_format_size(bs, sizeof(bs), p->ph.block);
		if (p->ph.cycle)
			snprintf(name, sizeof(name), "%s #%u", p->ph.name,
				 p->ph.cycle);
		else
			snprintf(name, sizeof(name), "%s", p->ph.name);
		printf("%-20s %8s %4u %10.1f %10.0f %8.2f %5u %6u%s%s\n",
		       name, bs, p->ph.qd, p->mbps, p->iops, p->secs, p->dips,
		       p->errors, p->completed ? "" : "  stopped",
		       p->slow ? "  SLOW" : "");
	}
	if (opts->profile == CMD_STRESS_PROFILE_CDM) {
		printf("\n%-14s %10s %10s %10s %10s\n", "CrystalDiskMark",
		       "Read MB/s", "Write MB/s", "Read IOPS", "Write IOPS");
		for (i = 0; i < 4; i++) {
			const struct stress_phase_result *r, *w;

			r = cmd_stress_cdm_find(res, cmd_stress_cdm_rows[i],
						false);
			w = cmd_stress_cdm_find(res, cmd_stress_cdm_rows[i],
						true);
			printf("%-14s %10.1f %10.1f %10.0f %10.0f\n",
			       cmd_stress_cdm_rows[i], r ? r->mbps : 0,
			       w ? w->mbps : 0, r ? r->iops : 0,
			       w ? w->iops : 0);
		}
	}
	for (i = 0; i < res->nintervals; i++) {
		const struct stress_interval *iv = &res->intervals[i];

		if (iv->dip)
			printf("dip: %s at %.1f s: %.1f MB/s\n",
			       res->phases[iv->phase].ph.name, iv->t,
			       (double)iv->bytes / iv->secs / 1e6);
	}
	if (res->soak_slow)
		printf("slow-down: a later cycle wrote below %.0f%% of the "
		       "first\n", STRESS_SOAK_SLOW * 100);
	cmd_stress_report_text("verify", res->report, res->sector_size);
	if (res->not_written)
		printf("not verified: %" PRIu64 " bytes whose writes failed\n",
		       res->not_written);
	if (res->reopens) {
		printf("reopened %u time(s); ", res->reopens);
		cmd_stress_report_text("verified after reopen",
				       res->reopen_report, res->sector_size);
	}
	if (res->errors_total) {
		printf("I/O errors: %" PRIu64 "\n", res->errors_total);
		for (i = 0; i < res->nerrors; i++) {
			const struct stress_error *e = &res->errors[i];

			printf("  %.3f s %s %s at offset %" PRIu64 " (%" PRIu32
			       " bytes): %s (errno %d)\n", e->t, e->phase,
			       e->write ? "write" : "read", e->offset, e->len,
			       strerror(e->err), e->err);
		}
	}
}

static json_object *cmd_stress_json_report(const struct verify_report *rep)
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
	for (i = 0; i < rep->nranges; i++) {
		const struct verify_range *r = &rep->ranges[i];
		json_object *jr = json_object_new_object();
		char hex[20];

		json_object_object_add(jr, "start",
				       json_object_new_uint64(r->start));
		json_object_object_add(jr, "end",
				       json_object_new_uint64(r->end));
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
				json_object_new_int64(
					r->first.found_generation));
		}
		json_object_array_add(ranges, jr);
	}
	json_object_object_add(o, "ranges", ranges);
	json_object_object_add(o, "ranges_dropped",
			       json_object_new_uint64(rep->ranges_dropped));
	return o;
}

static void cmd_stress_json(const struct cmd_stress_opts *opts,
			    const struct blkdev_target *t,
			    const struct stress_result *res, bool pass)
{
	json_object *o = json_object_new_object(), *a, *v;
	char hex[20];
	size_t i;

	json_object_object_add(o, "target", json_object_new_string(t->path));
	json_object_object_add(o, "kind", json_object_new_string(
				t->is_blockdev ? "block" : "file"));
	json_object_object_add(o, "direct",
			       json_object_new_boolean(res->direct));
	json_object_object_add(o, "engine",
			       json_object_new_string(res->engine));
	json_object_object_add(o, "profile", json_object_new_string(
				cmd_stress_profiles[opts->profile]));
	json_object_object_add(o, "verify_only",
			       json_object_new_boolean(opts->verify_only));
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

	a = json_object_new_array();
	for (i = 0; i < res->nphases; i++) {
		const struct stress_phase_result *p = &res->phases[i];

		v = json_object_new_object();
		json_object_object_add(v, "name",
				       json_object_new_string(p->ph.name));
		if (p->ph.label[0])
			json_object_object_add(v, "cdm",
				json_object_new_string(p->ph.label));
		json_object_object_add(v, "op", json_object_new_string(
					p->ph.write ? "write" : "read"));
		json_object_object_add(v, "random",
				       json_object_new_boolean(p->ph.random));
		json_object_object_add(v, "block",
				       json_object_new_int64(p->ph.block));
		json_object_object_add(v, "qd", json_object_new_int64(p->ph.qd));
		if (p->ph.cycle)
			json_object_object_add(v, "cycle",
				json_object_new_int64(p->ph.cycle));
		json_object_object_add(v, "bytes",
				       json_object_new_uint64(p->bytes));
		json_object_object_add(v, "ios", json_object_new_uint64(p->ios));
		json_object_object_add(v, "secs",
				       json_object_new_double(p->secs));
		json_object_object_add(v, "mbps",
				       json_object_new_double(p->mbps));
		json_object_object_add(v, "iops",
				       json_object_new_double(p->iops));
		json_object_object_add(v, "dips", json_object_new_int64(p->dips));
		json_object_object_add(v, "errors",
				       json_object_new_int64(p->errors));
		json_object_object_add(v, "completed",
				       json_object_new_boolean(p->completed));
		if (p->slow)
			json_object_object_add(v, "slow",
					       json_object_new_boolean(1));
		json_object_array_add(a, v);
	}
	json_object_object_add(o, "phases", a);

	a = json_object_new_array();
	for (i = 0; i < res->nintervals; i++) {
		const struct stress_interval *iv = &res->intervals[i];

		v = json_object_new_object();
		json_object_object_add(v, "phase", json_object_new_string(
				res->phases[iv->phase].ph.name));
		json_object_object_add(v, "t", json_object_new_double(iv->t));
		json_object_object_add(v, "secs",
				       json_object_new_double(iv->secs));
		json_object_object_add(v, "mbps", json_object_new_double(
				(double)iv->bytes / iv->secs / 1e6));
		json_object_object_add(v, "iops", json_object_new_double(
				(double)iv->ios / iv->secs));
		json_object_object_add(v, "dip",
				       json_object_new_boolean(iv->dip));
		json_object_array_add(a, v);
	}
	json_object_object_add(o, "intervals", a);
	json_object_object_add(o, "soak_slowdown",
			       json_object_new_boolean(res->soak_slow));

	json_object_object_add(o, "verify",
			       cmd_stress_json_report(res->report));
	json_object_object_add(o, "not_written_bytes",
			       json_object_new_uint64(res->not_written));
	v = json_object_new_object();
	json_object_object_add(v, "count", json_object_new_int64(res->reopens));
	json_object_object_add(v, "verify",
			       cmd_stress_json_report(res->reopen_report));
	json_object_object_add(o, "reopen", v);

	a = json_object_new_array();
	for (i = 0; i < res->nerrors; i++) {
		const struct stress_error *e = &res->errors[i];

		v = json_object_new_object();
		json_object_object_add(v, "t", json_object_new_double(e->t));
		json_object_object_add(v, "phase",
				       json_object_new_string(e->phase));
		json_object_object_add(v, "op", json_object_new_string(
					e->write ? "write" : "read"));
		json_object_object_add(v, "offset",
				       json_object_new_uint64(e->offset));
		json_object_object_add(v, "len", json_object_new_int64(e->len));
		json_object_object_add(v, "errno", json_object_new_int64(e->err));
		json_object_object_add(v, "error",
				       json_object_new_string(strerror(e->err)));
		json_object_array_add(a, v);
	}
	json_object_object_add(o, "errors", a);
	json_object_object_add(o, "errors_total",
			       json_object_new_uint64(res->errors_total));
	json_object_object_add(o, "result",
			       json_object_new_string(pass ? "pass" : "fail"));
	puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
					    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

/* The per-interval log: one line per interval, dips marked. */
static int cmd_stress_write_log(const char *path,
				const struct stress_result *res)
{
	FILE *f = fopen(path, "w");
	size_t i;

	if (!f)
		return -errno;
	fprintf(f, "# usbtrail stress run %016" PRIx64 " generation %" PRIu32
		"\n# t_s secs phase MB/s IOPS [dip]\n", res->run_id,
		res->generation);
	for (i = 0; i < res->nintervals; i++) {
		const struct stress_interval *iv = &res->intervals[i];
		char name[32];
		size_t k;

		if (res->phases[iv->phase].ph.cycle)
			snprintf(name, sizeof(name), "%s#%u",
				 res->phases[iv->phase].ph.name,
				 res->phases[iv->phase].ph.cycle);
		else
			snprintf(name, sizeof(name), "%s",
				 res->phases[iv->phase].ph.name);
		for (k = 0; name[k]; k++)
			if (name[k] == ' ')
				name[k] = '-';
		fprintf(f, "%.3f %.3f %s %.1f %.0f%s\n", iv->t, iv->secs, name,
			(double)iv->bytes / iv->secs / 1e6,
			(double)iv->ios / iv->secs, iv->dip ? " dip" : "");
	}
	if (fclose(f))
		return -errno;
	return 0;
}

int cmd_stress_main(int argc, char **argv)
{
	struct cmd_stress_opts opts = {
		.profile = CMD_STRESS_PROFILE_SEQ,
		.on_error = CMD_STRESS_ON_ERROR_STOP,
		.engine = IOENGINE_URING,
	};
	struct cmd_stress_out out = { .opts = &opts };
	struct blkdev_open_opts bo = { 0 };
	struct stress_config cfg = { 0 };
	struct blkdev_target *t = NULL;
	struct stress_result *res = NULL;
	char why[BLKDEV_WHY_MAX];
	bool help = false, pass;
	int ret, err;

	ret = cmd_stress_parse(argc, argv, &opts, &help);
	if (ret)
		return ret;
	if (help) {
		fputs(cmd_stress_help, stdout);
		return CLI_EXIT_OK;
	}

	t = calloc(1, sizeof(*t));
	res = calloc(1, sizeof(*res));
	if (!t || !res) {
		ret = CLI_EXIT_FAILURE;
		goto out;
	}
	bo.size = opts.size;
	bo.destroy_data = opts.destroy_data;
	bo.readonly = opts.verify_only;
	err = blkdev_open(opts.target, &bo, t, why, sizeof(why));
	if (err) {
		fprintf(stderr, CLI_PROG " " CMD_STRESS_NAME ": %s\n", why);
		ret = CLI_EXIT_FAILURE;
		goto out;
	}

	out.tty = isatty(STDERR_FILENO);
	cfg.profile = (enum stress_profile)opts.profile;
	cfg.size = opts.size;
	cfg.block = (uint32_t)opts.block;
	cfg.qd = (unsigned int)opts.qd;
	cfg.duration = (double)opts.duration_s;
	cfg.on_error = (enum stress_on_error)opts.on_error;
	cfg.engine = (enum ioengine_kind)opts.engine;
	cfg.interval_ms = (unsigned int)opts.interval_ms;
	cfg.verify_only = opts.verify_only;
	cfg.reopen_timeout = (double)opts.reopen_timeout;
	cfg.trace_marker = getenv("USBTRAIL_TRACE_MARKER");
	cfg.progress = cmd_stress_progress;
	cfg.message = cmd_stress_message;
	cfg.ctx = &out;

	err = stress_run(t, &bo, &cfg, res);
	if (err) {
		blkdev_drop_unwritten(t);
		if (err == -ENOENT && opts.verify_only)
			fprintf(stderr, CLI_PROG " " CMD_STRESS_NAME
				": %s: no stress pattern at its start: "
				"nothing to verify\n", t->path);
		else if (err == -EINVAL)
			fprintf(stderr, CLI_PROG " " CMD_STRESS_NAME
				": profile %s does not fit %s (size, block "
				"or sector size)\n",
				cmd_stress_profiles[opts.profile], t->path);
		else
			fprintf(stderr, CLI_PROG " " CMD_STRESS_NAME
				": %s: %s\n", t->path, strerror(-err));
		ret = CLI_EXIT_FAILURE;
		goto out;
	}

	pass = !res->errors_total && !verify_report_bad(res->report) &&
	       !verify_report_bad(res->reopen_report) && !res->stopped;
	if (opts.json)
		cmd_stress_json(&opts, t, res, pass);
	else
		cmd_stress_text(&opts, t, res);
	if (opts.log) {
		err = cmd_stress_write_log(opts.log, res);
		if (err) {
			fprintf(stderr, CLI_PROG " " CMD_STRESS_NAME
				": %s: %s\n", opts.log, strerror(-err));
			pass = false;
		}
	}
	if (!opts.json)
		printf("result: %s\n", pass ? "PASS" : "FAIL");
	ret = pass ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
out:
	if (res)
		stress_result_free(res);
	free(res);
	if (t)
		blkdev_close(t);
	free(t);
	return ret;
}
