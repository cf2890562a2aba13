// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_stress.c - "usbtrail stress": options of the writer that fills a
 * device with a verifiable pattern, reads it back and measures throughput.
 *
 * Only the command line is settled so far; the writer itself lands later.
 */
#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
#include "util.h"

#define CMD_STRESS_NAME		"stress"
#define CMD_STRESS_MAX_SIZE	(1ull << 50)		/* 1 PiB */
#define CMD_STRESS_MIN_BLOCK	512u
#define CMD_STRESS_MAX_BLOCK	(64u << 20)
#define CMD_STRESS_MAX_DURATION	(30u * 24 * 3600)	/* 30 days */
#define CMD_STRESS_MAX_QD	1024u

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
"      --destroy-data      allow writing to TARGET if it is a block device;\n"
"                          whatever is on it is lost\n"
"      --verify-only       write nothing; check a pattern written earlier\n"
"      --on-error ACTION   on an I/O error: stop (default), continue, or\n"
"                          reopen TARGET (after the device re-enumerates)\n"
"                          and continue\n"
"      --json              print results as JSON\n"
"  -h, --help              show this help and exit\n"
"\n"
"N takes a K, M, G, T (or KiB, MiB, GiB, TiB) suffix: powers of 1024.\n";

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

int cmd_stress_main(int argc, char **argv)
{
	struct cmd_stress_opts opts = {
		.profile = CMD_STRESS_PROFILE_SEQ,
		.on_error = CMD_STRESS_ON_ERROR_STOP,
	};
	bool help = false;
	int ret;

	ret = cmd_stress_parse(argc, argv, &opts, &help);
	if (ret)
		return ret;
	if (help) {
		fputs(cmd_stress_help, stdout);
		return CLI_EXIT_OK;
	}
	return cli_not_implemented(CMD_STRESS_NAME);
}
