// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_stress.c - "usbtrail stress": the writer that fills a device with a
 * verifiable pattern, reads it back and measures throughput.
 *
 * The options live here: blkdev.c opens the target, stress.c runs the
 * profile, stress_render.c shows the progress, the summary (text or
 * --json) and the per-interval log, and this file picks the exit status:
 * 0 only when every I/O succeeded and every sector read back is what was
 * written.  It also catches SIGINT and SIGTERM: the first stops the run
 * (stress.c finishes what is in flight and verifies what was written),
 * a second ends the process at once.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "blkdev.h"
#include "cli.h"
#include "stress.h"
#include "stress_fs.h"
#include "stress_render.h"
#include "stress_reset.h"
#include "stress_target.h"
#include "util.h"

#define CMD_STRESS_NAME		"stress"
#define CMD_STRESS_MAX_SIZE	(1ull << 50)		/* 1 PiB */
#define CMD_STRESS_MIN_BLOCK	512u
#define CMD_STRESS_MAX_BLOCK	(64u << 20)
#define CMD_STRESS_MAX_DURATION	(30u * 24 * 3600)	/* 30 days */
#define CMD_STRESS_MAX_QD	1024u
#define CMD_STRESS_MIN_INTERVAL	100u	/* ms */
#define CMD_STRESS_MAX_INTERVAL	1000u
/* A run a signal stopped, in which nothing went wrong (1: something did) */
#define CMD_STRESS_EXIT_INTERRUPTED	4

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

static const char *const cmd_stress_fs_modes[] = {
	[STRESS_FS_LARGE] = "large",
	[STRESS_FS_TREE] = "tree",
	NULL
};

static const char *const cmd_stress_on_errors[] = {
	[CMD_STRESS_ON_ERROR_STOP] = "stop",
	[CMD_STRESS_ON_ERROR_CONTINUE] = "continue",
	[CMD_STRESS_ON_ERROR_REOPEN] = "reopen",
	NULL
};

/* --cdm-set: CrystalDiskMark's version whose default tests cdm runs */
static const char *const cmd_stress_cdm_sets[] = { "8", "3", NULL };

/* 0 in a number field means "not given: the profile decides". */
struct cmd_stress_opts {
	const char *target;
	unsigned int profile;		/* enum cmd_stress_profile */
	uint64_t size;
	uint64_t block;
	uint64_t duration_s;
	uint64_t qd;
	uint64_t passes;
	bool destroy_data;
	bool verify_only;
	bool reset_check;
	unsigned int on_error;		/* enum cmd_stress_on_error */
	bool json;
	bool quiet;
	unsigned int cdm_set;		/* index into cmd_stress_cdm_sets */
	bool cdm_set_given;
	time_t started;			/* when this command began */
	unsigned int engine;		/* enum ioengine_kind */
	uint64_t interval_ms;
	const char *log;
	uint64_t reopen_timeout;
	/* a directory TARGET (stress_fs.c) */
	unsigned int fs_mode;		/* enum stress_fs_mode */
	uint64_t files;
	uint64_t file_size;
	bool keep;
	const char *fs_only;		/* the last option only DIR takes */
	const char *not_for_dir;	/* the last one DIR does not take */
};

const char cmd_stress_help[] =
"Usage: usbtrail stress TARGET [OPTIONS]\n"
"\n"
"Write a verifiable pattern to TARGET (a block device, a file, or a\n"
"directory on a mounted filesystem), read it back, and report throughput\n"
"and every error with its offset and time.\n"
"\n"
"Options:\n"
"      --profile P         what to run (default seq):\n"
"                            seq    a sequential write of --size, then a\n"
"                                   verifying read of it\n"
"                            cdm    CrystalDiskMark 8's tests over --size\n"
"                                   (default 1GiB): a sequential write of\n"
"                                   it all, then SEQ1M Q8T1, SEQ1M Q1T1,\n"
"                                   RND4K Q32T1 and RND4K Q1T1 reads, then\n"
"                                   writes, each the best of --passes\n"
"                            sweep  for each block size 512 to 8MiB, a\n"
"                                   sequential write and a read of it\n"
"                            soak   write and verify cycles until\n"
"                                   --duration is up or an error\n"
"                            mixed  sequential writes with bursts of\n"
"                                   random 4K rewrites and fsyncs, then a\n"
"                                   verifying read\n"
"      --size N            use the first N bytes of TARGET (default: all)\n"
"      --block N           bytes per I/O, a multiple of 512 up to 64MiB\n"
"                          (default: set by the profile; cdm: of its first\n"
"                          test; sweep: not used)\n"
"      --duration S        seconds, 1 to 2592000: seq and mixed stop\n"
"                          writing after S, then verify what they wrote;\n"
"                          cdm runs each pass of a test for S (default 5);\n"
"                          sweep each test for S (2), at most once over\n"
"                          --size; soak starts no cycle after S (60)\n"
"      --qd N              I/Os in flight, 1 to 1024 (default: set by the\n"
"                          profile; cdm: of its first test)\n"
"      --passes N          cdm: run each test N times, 1 to 9, after a\n"
"                          warm-up, and keep the best (default 5)\n"
"      --cdm-set V         cdm: the tests of CrystalDiskMark V: 8 (the\n"
"                          default, as above) or 3 (Seq Q1T1, 512K, 4K and\n"
"                          4K QD32 random, each read then written, the\n"
"                          tables CrystalDiskMark 3 users post)\n"
"      --engine E          uring (io_uring, default) or sync (pread/pwrite)\n"
"      --destroy-data      allow writing to TARGET if it is a block device\n"
"                          or a file holding data a run of usbtrail stress\n"
"                          did not write; whatever is on it is lost\n"
"      --verify-only       write nothing; check a pattern written earlier\n"
"      --reset-check       flush honesty instead of a profile: write\n"
"                          --size (default 16MiB) and flush it\n"
"                          (SYNCHRONIZE CACHE), reset the disk's USB\n"
"                          device (USBDEVFS_RESET, as a replug or a\n"
"                          brown-out does), read every acknowledged sector\n"
"                          back and name the ones lost (a volatile write\n"
"                          cache that lies about flushes loses them)\n"
"      --on-error ACTION   on an I/O error: stop (default), continue, or\n"
"                          reopen TARGET (after the device re-enumerates)\n"
"                          and continue\n"
"      --reopen-timeout S  how long reopen waits (default 120)\n"
"      --interval MS       throughput log interval in ms, 100 to 1000\n"
"                          (default 1000)\n"
"      --log FILE          write the per-interval throughput log to FILE,\n"
"                          opened before the run, a line as each interval\n"
"                          ends\n"
"      --json              print results as JSON\n"
"  -q, --quiet             no progress lines on stderr\n"
"  A directory TARGET gets files in a new directory usbtrail-stress-RUNID,\n"
"  removed after but for files it did not make; it takes no --profile,\n"
"  nor --qd, --passes, --engine, --on-error or --destroy-data:\n"
"      --fs-mode M         large (default): --files files of --size\n"
"                          (default: the free space, filled as f3write),\n"
"                          written as cp or pv do, fsync'd, their pages\n"
"                          dropped, read back; tree: --files small files\n"
"                          of --file-size in nested directories: create,\n"
"                          sync, stat walk (ls -lR), read all (find -exec\n"
"                          cat)\n"
"      --files N           large: 1 to 1000 (default 1); tree: 1 to\n"
"                          1000000 (default 10000)\n"
"      --file-size N       tree: bytes per file, 512 to 64MiB (default 4K)\n"
"      --keep              keep the files, for a later --verify-only DIR\n"
"                          (which finds changed, missing and swapped ones)\n"
"  -h, --help              show this help and exit\n"
"\n"
"N takes a K, M, G, T (or KiB, MiB, GiB, TiB) suffix: powers of 1024.\n"
"Every sector written names its offset, run and generation; the read-back\n"
"reports bad sectors as changed, overwritten, stale, zeroed or garbage with\n"
"their byte ranges.  SIGINT (Ctrl-C) or SIGTERM stops the run: what is in\n"
"flight completes, what was written is read back and verified, and the\n"
"summary says \"interrupted\"; a second signal ends it at once.\n"
"Exit status: 0 all good, 1 I/O errors or bad sectors (or the run could\n"
"not start), 2 usage, 4 interrupted with nothing bad found.\n";

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
	CMD_STRESS_OPT_PASSES,
	CMD_STRESS_OPT_FS_MODE,
	CMD_STRESS_OPT_FILES,
	CMD_STRESS_OPT_FILE_SIZE,
	CMD_STRESS_OPT_KEEP,
	CMD_STRESS_OPT_CDM_SET,
	CMD_STRESS_OPT_RESET_CHECK,
};

/* One option of cmd_stress_parse() but -h.  Return: 0 or CLI_EXIT_USAGE. */
static int cmd_stress_parse_opt(int c, const char *arg,
				struct cmd_stress_opts *opts)
{
	switch (c) {
	case CMD_STRESS_OPT_FS_MODE:
		opts->fs_only = "--fs-mode";
		if (cli_parse_choice(CMD_STRESS_NAME, "--fs-mode", arg,
				     cmd_stress_fs_modes, &opts->fs_mode))
			return CLI_EXIT_USAGE;
		break;
	case CMD_STRESS_OPT_FILES:
		opts->fs_only = "--files";
		if (cli_parse_number(CMD_STRESS_NAME, "--files", arg, 0, 1,
				     STRESS_FS_MAX_FILES, &opts->files))
			return CLI_EXIT_USAGE;
		break;
	case CMD_STRESS_OPT_FILE_SIZE:
		opts->fs_only = "--file-size";
		if (cli_parse_number(CMD_STRESS_NAME, "--file-size", arg,
				     UTIL_NUM_SIZE, STRESS_FS_SECTOR,
				     STRESS_FS_MAX_FILE_SIZE, &opts->file_size))
			return CLI_EXIT_USAGE;
		break;
	case CMD_STRESS_OPT_KEEP:
		opts->fs_only = "--keep";
		opts->keep = true;
		break;
	case CMD_STRESS_OPT_PROFILE:
		opts->not_for_dir = "--profile";
		if (cli_parse_choice(CMD_STRESS_NAME, "--profile", arg,
				     cmd_stress_profiles, &opts->profile))
			return CLI_EXIT_USAGE;
		break;
	case CMD_STRESS_OPT_SIZE:
		if (cli_parse_number(CMD_STRESS_NAME, "--size", arg,
				     UTIL_NUM_SIZE, CMD_STRESS_MIN_BLOCK,
				     CMD_STRESS_MAX_SIZE, &opts->size))
			return CLI_EXIT_USAGE;
		break;
	case CMD_STRESS_OPT_BLOCK:
		if (cli_parse_number(CMD_STRESS_NAME, "--block", arg,
				     UTIL_NUM_SIZE, CMD_STRESS_MIN_BLOCK,
				     CMD_STRESS_MAX_BLOCK, &opts->block))
			return CLI_EXIT_USAGE;
		/* O_DIRECT needs whole logical blocks. */
		if (opts->block % CMD_STRESS_MIN_BLOCK)
			return cli_usage_error(CMD_STRESS_NAME,
				"--block %s is not a multiple of 512", arg);
		break;
	case CMD_STRESS_OPT_DURATION:
		if (cli_parse_number(CMD_STRESS_NAME, "--duration", arg, 0, 1,
				     CMD_STRESS_MAX_DURATION,
				     &opts->duration_s))
			return CLI_EXIT_USAGE;
		break;
	case CMD_STRESS_OPT_QD:
		opts->not_for_dir = "--qd";
		if (cli_parse_number(CMD_STRESS_NAME, "--qd", arg, 0, 1,
				     CMD_STRESS_MAX_QD, &opts->qd))
			return CLI_EXIT_USAGE;
		break;
	case CMD_STRESS_OPT_DESTROY_DATA:
		opts->not_for_dir = "--destroy-data";
		opts->destroy_data = true;
		break;
	case CMD_STRESS_OPT_VERIFY_ONLY:
		opts->verify_only = true;
		break;
	case CMD_STRESS_OPT_RESET_CHECK:
		opts->not_for_dir = "--reset-check";
		opts->reset_check = true;
		break;
	case CMD_STRESS_OPT_ON_ERROR:
		opts->not_for_dir = "--on-error";
		if (cli_parse_choice(CMD_STRESS_NAME, "--on-error", arg,
				     cmd_stress_on_errors, &opts->on_error))
			return CLI_EXIT_USAGE;
		break;
	case CMD_STRESS_OPT_JSON:
		opts->json = true;
		break;
	case CMD_STRESS_OPT_ENGINE:
		opts->not_for_dir = "--engine";
		if (cli_parse_choice(CMD_STRESS_NAME, "--engine", arg,
				     cmd_stress_engines, &opts->engine))
			return CLI_EXIT_USAGE;
		break;
	case CMD_STRESS_OPT_INTERVAL:
		if (cli_parse_number(CMD_STRESS_NAME, "--interval", arg, 0,
				     CMD_STRESS_MIN_INTERVAL,
				     CMD_STRESS_MAX_INTERVAL,
				     &opts->interval_ms))
			return CLI_EXIT_USAGE;
		break;
	case CMD_STRESS_OPT_LOG:
		if (!*arg)
			return cli_usage_error(CMD_STRESS_NAME,
				"--log needs a file name");
		opts->log = arg;
		break;
	case CMD_STRESS_OPT_REOPEN_TIMEOUT:
		opts->not_for_dir = "--reopen-timeout";
		if (cli_parse_number(CMD_STRESS_NAME, "--reopen-timeout", arg,
				     0, 1, CMD_STRESS_MAX_DURATION,
				     &opts->reopen_timeout))
			return CLI_EXIT_USAGE;
		break;
	case CMD_STRESS_OPT_CDM_SET:
		opts->not_for_dir = "--cdm-set";
		if (cli_parse_choice(CMD_STRESS_NAME, "--cdm-set", arg,
				     cmd_stress_cdm_sets, &opts->cdm_set))
			return CLI_EXIT_USAGE;
		opts->cdm_set_given = true;
		break;
	case CMD_STRESS_OPT_PASSES:
		opts->not_for_dir = "--passes";
		if (cli_parse_number(CMD_STRESS_NAME, "--passes", arg, 0, 1,
				     STRESS_CDM_MAX_PASSES, &opts->passes))
			return CLI_EXIT_USAGE;
		break;
	}
	return 0;
}

/* TARGET, and the options that exclude each other. */
static int cmd_stress_parse_args(int argc, char **argv,
				 struct cmd_stress_opts *opts)
{
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
	if (opts->passes && opts->profile != CMD_STRESS_PROFILE_CDM)
		return cli_usage_error(CMD_STRESS_NAME,
				       "--passes is for --profile cdm");
	if (opts->cdm_set_given && opts->profile != CMD_STRESS_PROFILE_CDM)
		return cli_usage_error(CMD_STRESS_NAME,
				       "--cdm-set is for --profile cdm");
	return 0;
}

static int cmd_stress_parse(int argc, char **argv,
			    struct cmd_stress_opts *opts, bool *help)
{
	static const char optstring[] = ":hq";
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
		{ "passes",	  required_argument, NULL, CMD_STRESS_OPT_PASSES },
		{ "fs-mode",	  required_argument, NULL, CMD_STRESS_OPT_FS_MODE },
		{ "files",	  required_argument, NULL, CMD_STRESS_OPT_FILES },
		{ "file-size",	  required_argument, NULL,
		  CMD_STRESS_OPT_FILE_SIZE },
		{ "keep",	  no_argument,	     NULL, CMD_STRESS_OPT_KEEP },
		{ "cdm-set",	  required_argument, NULL, CMD_STRESS_OPT_CDM_SET },
		{ "reset-check",  no_argument,	     NULL, CMD_STRESS_OPT_RESET_CHECK },
		{ "quiet",	  no_argument,	     NULL, 'q' },
		{ NULL,		  0,		     NULL, 0 }
	};
	int c, ret;

	opterr = 0;
	while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
		if (c == 'h') {
			*help = true;
			return 0;
		}
		if (c == 'q') {
			opts->quiet = true;
			continue;
		}
		/* '?' and ':': an unknown option or a missing argument */
		if (c < CMD_STRESS_OPT_PROFILE)
			return cli_getopt_error(CMD_STRESS_NAME, c, argv,
						optstring, longopts);
		ret = cmd_stress_parse_opt(c, optarg, opts);
		if (ret)
			return ret;
	}
	return cmd_stress_parse_args(argc, argv, opts);
}

/*
 * The first SIGINT or SIGTERM, for stress_run() to stop on; 0 until then.
 * A second signal ends the process by the default action, except the
 * other one of the two within a second of the first: Ctrl-C under
 * "usbtrail record" sends both, the terminal's SIGINT and record's
 * SIGTERM, and that is one request to stop.
 */
static atomic_int cmd_stress_signal;		/* lock-free: signal-safe */
static struct timespec cmd_stress_signal_at;	/* the handler's own */

static void cmd_stress_on_signal(int sig)
{
	int first = atomic_load(&cmd_stress_signal);
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!first) {
		cmd_stress_signal_at = now;
		atomic_store(&cmd_stress_signal, sig);
		return;
	}
	if (sig != first &&
	    (long long)(now.tv_sec - cmd_stress_signal_at.tv_sec) *
	    1000000000 + now.tv_nsec - cmd_stress_signal_at.tv_nsec <
	    1000000000)
		return;
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * Both handlers, each blocking the other while it runs.  A signal the
 * parent ignores stays ignored, as a job in the background ignores the
 * terminal's SIGINT.
 */
static void cmd_stress_catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM };
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = cmd_stress_on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (!sigaction(sigs[i], NULL, &old) &&
		    old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
}

/* What stress_run() is to do, from the options. */
static void cmd_stress_config(const struct cmd_stress_opts *opts,
			      struct stress_render_out *out,
			      struct stress_config *cfg)
{
	cfg->profile = (enum stress_profile)opts->profile;
	cfg->size = opts->size;
	cfg->block = (uint32_t)opts->block;
	cfg->qd = (unsigned int)opts->qd;
	cfg->duration = (double)opts->duration_s;
	cfg->passes = (unsigned int)opts->passes;
	cfg->cdm_set = opts->cdm_set == 1 ? 3 : 8;
	cfg->on_error = (enum stress_on_error)opts->on_error;
	cfg->engine = (enum ioengine_kind)opts->engine;
	cfg->interval_ms = (unsigned int)opts->interval_ms;
	cfg->verify_only = opts->verify_only;
	cfg->reopen_timeout = (double)opts->reopen_timeout;
	cfg->trace_marker = getenv("USBTRAIL_TRACE_MARKER");
	cfg->interrupt = &cmd_stress_signal;
	cfg->progress = opts->quiet ? NULL : stress_render_progress;
	cfg->message = stress_render_message;
	cfg->interval = stress_render_interval;
	cfg->ctx = out;
}

/* Why stress_run() could not run, in the user's terms. */
static void cmd_stress_run_error(const struct cmd_stress_opts *opts,
				 const struct blkdev_target *t, int err)
{
	if (err == -ENOENT && opts->verify_only)
		fprintf(stderr, CLI_PROG " " CMD_STRESS_NAME
			": %s: no stress pattern at its start: "
			"nothing to verify\n", t->path);
	else if (err == -EINVAL)
		fprintf(stderr, CLI_PROG " " CMD_STRESS_NAME
			": profile %s does not fit %s (size, block "
			"or sector size)\n",
			cmd_stress_profiles[opts->profile], t->path);
	else
		fprintf(stderr, CLI_PROG " " CMD_STRESS_NAME
			": %s: %s\n", t->path, strerror(-err));
}

static int cmd_stress_exit(enum stress_render_result result)
{
	switch (result) {
	case STRESS_RENDER_PASS:
		return CLI_EXIT_OK;
	case STRESS_RENDER_INTERRUPTED:
		return CMD_STRESS_EXIT_INTERRUPTED;
	case STRESS_RENDER_FAIL:
		break;
	}
	return CLI_EXIT_FAILURE;
}

/*
 * The summary and the --log of a run that happened.  Return: the exit
 * status: 0 when it passed (every I/O succeeded, every sector read back
 * is what was written, and the log could be written), 1 when not, or
 * CMD_STRESS_EXIT_INTERRUPTED when a signal stopped it and nothing of
 * that went wrong.
 */
static int cmd_stress_report(const struct cmd_stress_opts *opts,
			     struct stress_render_out *out,
			     const struct blkdev_target *t,
			     const struct usbdisk_where *where,
			     const struct stress_result *res)
{
	struct stress_render_run run = {
		.where = where,
		.profile = cmd_stress_profiles[opts->profile],
		.cdm = opts->profile == CMD_STRESS_PROFILE_CDM &&
		       !opts->verify_only,
		.soak = opts->profile == CMD_STRESS_PROFILE_SOAK &&
			!opts->verify_only,
		.sweep = opts->profile == CMD_STRESS_PROFILE_SWEEP &&
			 !opts->verify_only,
		.passes = opts->passes ? (unsigned int)opts->passes :
			  STRESS_CDM_PASSES,
		.verify_only = opts->verify_only,
		.cdm_set = opts->cdm_set == 1 ? 3 : 8,
		.started = opts->started,
	};
	enum stress_render_result result = STRESS_RENDER_PASS;
	int err;

	if (res->errors_total || verify_report_bad(res->report) ||
	    verify_report_bad(res->reopen_report) || res->stopped)
		result = STRESS_RENDER_FAIL;
	else if (res->interrupted)
		result = STRESS_RENDER_INTERRUPTED;
	if (opts->log) {
		err = stress_render_log_close(out, res);
		if (err) {
			fprintf(stderr, CLI_PROG " " CMD_STRESS_NAME
				": %s: %s\n", opts->log, strerror(-err));
			result = STRESS_RENDER_FAIL;
		}
	}
	if (opts->json)
		stress_render_json(&run, t, res, result);
	else
		stress_render_text(&run, t, res, result);
	return cmd_stress_exit(result);
}

/*
 * --reset-check on the opened disk @t (stress_reset.c): the lost sectors
 * as text or JSON ("errors_total" the lost sectors; "failure" with kind
 * "lost-writes", which usbtrail repro reads).  Return: the exit status.
 */
static int cmd_stress_reset(const struct cmd_stress_opts *opts,
			    struct blkdev_target *t)
{
	struct stress_reset_result res;
	char what[256], size[32];
	int err, n = 0;

	if (opts->verify_only)
		return cli_usage_error(CMD_STRESS_NAME, "--reset-check writes: "
				       "not with --verify-only");
	err = stress_reset_check(t, opts->size ? opts->size :
				 STRESS_RESET_DEFAULT_SIZE, &res);
	if (err) {
		fprintf(stderr, CLI_PROG " " CMD_STRESS_NAME ": --reset-check: "
			"%s\n", res.why[0] ? res.why : strerror(-err));
		return CLI_EXIT_FAILURE;
	}
	util_format_size(size, sizeof(size), res.acked_bytes);
	what[0] = '\0';
	if (res.lost) {
		n = snprintf(what, sizeof(what), "%llu acknowledged sectors "
			     "lost at a USB reset: LBA",
			     (unsigned long long)res.lost);
		for (unsigned int i = 0; i < res.nranges && n > 0 &&
		     (size_t)n < sizeof(what) - 48; i++)
			n += snprintf(what + n, sizeof(what) - (size_t)n,
				      "%s %llu-%llu", i ? "," : "",
				      (unsigned long long)res.ranges[i].lba,
				      (unsigned long long)(res.ranges[i].lba +
				      res.ranges[i].count - 1));
	}
	if (opts->json) {
		json_object *o = json_object_new_object(), *a, *f = NULL;

		json_object_object_add(o, "usbtrail",
				       json_object_new_string("stress"));
		json_object_object_add(o, "mode",
				       json_object_new_string("reset-check"));
		json_object_object_add(o, "target", json_object_new_string(t->path));
		json_object_object_add(o, "usb", json_object_new_string(res.usb));
		json_object_object_add(o, "acknowledged_bytes",
				       json_object_new_int64((int64_t)res.acked_bytes));
		json_object_object_add(o, "sector_size",
				       json_object_new_int((int)res.lbs));
		json_object_object_add(o, "reset_ms",
				       json_object_new_int((int)res.reset_ms));
		json_object_object_add(o, "back_ms",
				       json_object_new_int((int)res.back_ms));
		json_object_object_add(o, "lost_sectors",
				       json_object_new_int64((int64_t)res.lost));
		a = json_object_new_array();
		for (unsigned int i = 0; i < res.nranges; i++) {
			json_object *v = json_object_new_object();

			json_object_object_add(v, "lba", json_object_new_int64(
					       (int64_t)res.ranges[i].lba));
			json_object_object_add(v, "sectors", json_object_new_int64(
					       (int64_t)res.ranges[i].count));
			json_object_array_add(a, v);
		}
		json_object_object_add(o, "lost", a);
		json_object_object_add(o, "lost_ranges_cut", json_object_new_boolean(
				       res.nranges == STRESS_RESET_MAX_RANGES));
		json_object_object_add(o, "errors_total",
				       json_object_new_int64((int64_t)res.lost));
		if (res.lost) {
			f = json_object_new_object();
			json_object_object_add(f, "kind",
					       json_object_new_string("lost-writes"));
			json_object_object_add(f, "what",
					       json_object_new_string(what));
		}
		json_object_object_add(o, "failure", f);
		puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
						    JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(o);
	} else {
		printf("reset-check %s: %s written and flushed, USB %s reset "
		       "(%u ms, the disk back after %u ms)\n", t->path, size,
		       res.usb, res.reset_ms, res.back_ms);
		if (res.lost)
			printf("FAIL: %s%s\n", what,
			       res.nranges == STRESS_RESET_MAX_RANGES ?
			       " (the first ranges)" : "");
		else
			printf("ok: every acknowledged sector read back\n");
	}
	return res.lost ? CLI_EXIT_FAILURE : CLI_EXIT_OK;
}

/* A directory TARGET: stress_fs.c's modes.  Return: the exit status. */
static int cmd_stress_dir(const struct cmd_stress_opts *opts,
			  struct stress_render_out *out)
{
	struct cmd_stress_fs_args a = {
		.dir = opts->target,
		.mode = opts->fs_mode,
		.size = opts->size,
		.files = opts->files,
		.file_size = opts->file_size,
		.block = opts->block,
		.duration_s = opts->duration_s,
		.interval_ms = opts->interval_ms,
		.keep = opts->keep,
		.verify_only = opts->verify_only,
		.json = opts->json,
		.quiet = opts->quiet,
		.not_for_dir = opts->not_for_dir,
		.interrupt = &cmd_stress_signal,
		.out = out,
	};
	enum stress_render_result result;
	int ret;

	out->tty = isatty(STDERR_FILENO);
	cmd_stress_catch_signals();
	ret = cmd_stress_fs(&a, &result);
	return ret ? ret : cmd_stress_exit(result);
}

int cmd_stress_main(int argc, char **argv)
{
	struct cmd_stress_opts opts = {
		.profile = CMD_STRESS_PROFILE_SEQ,
		.started = time(NULL),
		.on_error = CMD_STRESS_ON_ERROR_STOP,
		.engine = IOENGINE_URING,
	};
	struct stress_render_out out = { 0 };
	struct blkdev_open_opts bo = { 0 };
	struct stress_config cfg = { 0 };
	struct blkdev_target *t = NULL;
	struct stress_result *res = NULL;
	char why[BLKDEV_WHY_MAX], marker[128];
	struct usbdisk_where where;
	bool help = false;
	struct stat st;
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
	/* Before the target: a --log that cannot be written stops us here. */
	if (opts.log) {
		err = stress_render_log_open(&out, opts.log);
		if (err) {
			fprintf(stderr, CLI_PROG " " CMD_STRESS_NAME
				": --log %s: %s\n", opts.log, strerror(-err));
			ret = CLI_EXIT_FAILURE;
			goto out;
		}
	}
	if (!stat(opts.target, &st) && S_ISDIR(st.st_mode)) {
		ret = cmd_stress_dir(&opts, &out);
		goto out;
	}
	if (opts.fs_only) {
		ret = cli_usage_error(CMD_STRESS_NAME,
			"%s is for a directory TARGET (a mounted filesystem); "
			"%s is not one", opts.fs_only, opts.target);
		goto out;
	}
	if (opts.reset_check && (stat(opts.target, &st) || !S_ISBLK(st.st_mode))) {
		fprintf(stderr, CLI_PROG " " CMD_STRESS_NAME ": %s: --reset-check "
			"takes a whole USB disk (a block device)\n", opts.target);
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

	if (opts.reset_check) {
		ret = cmd_stress_reset(&opts, t);
		goto out;
	}
	out.tty = isatty(STDERR_FILENO);
	cmd_stress_config(&opts, &out, &cfg);
	/* who it is, now: a reopen may find it elsewhere, it stays the same */
	if (!stress_target_where(t, &where)) {
		stress_target_marker(&where, marker, sizeof(marker));
		cfg.marker_target = marker;
	}
	cmd_stress_catch_signals();
	err = stress_run(t, &bo, &cfg, res);
	if (err) {
		blkdev_drop_unwritten(t);
		cmd_stress_run_error(&opts, t, err);
		ret = CLI_EXIT_FAILURE;
		goto out;
	}
	if (res->interrupted && !res->written_bytes)
		blkdev_drop_unwritten(t);
	ret = cmd_stress_report(&opts, &out, t, cfg.marker_target ? &where :
				NULL, res);
out:
	stress_render_log_close(&out, NULL);
	if (res)
		stress_result_free(res);
	free(res);
	if (t)
		blkdev_close(t);
	free(t);
	return ret;
}
