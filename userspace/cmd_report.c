// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_report.c - "usbtrail report": options of the step that turns a
 * recording into an HTML report and a bundle to attach to a bug report.
 *
 * Only the command line is settled so far; the report lands later.
 */
#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
#include "util.h"

#define CMD_REPORT_NAME		"report"
#define CMD_REPORT_MIN_SIZE	(64u << 10)
#define CMD_REPORT_MAX_SIZE	(4ull << 30)
/* Small enough to attach to a mail or a bug tracker. */
#define CMD_REPORT_DEF_SIZE	(1ull << 20)

struct cmd_report_opts {
	const char *dir;
	const char *html;		/* NULL: DIR/report.html */
	const char *bundle;		/* NULL: no bundle */
	uint64_t max_size;
	bool keep_serials;
};

const char cmd_report_help[] =
"Usage: usbtrail report DIR [-o FILE.html] [--bundle FILE.tar.gz]\n"
"                       [--max-size N] [--keep-serials]\n"
"\n"
"Turn DIR, a recording made by 'usbtrail record', into an HTML report\n"
"and, with --bundle, a compressed bundle to attach to a bug report.\n"
"\n"
"Options:\n"
"  -o, --output FILE       write the HTML report to FILE (default:\n"
"                          report.html in DIR)\n"
"      --bundle FILE       write the bug-report bundle (tar.gz) to FILE\n"
"      --max-size N        keep the bundle under N bytes by trimming the\n"
"                          capture around incidents first (64KiB to 4GiB,\n"
"                          default 1MiB, what common bug trackers accept)\n"
"      --keep-serials      keep device serial numbers; by default they are\n"
"                          replaced in the report and the bundle\n"
"  -h, --help              show this help and exit\n"
"\n"
"N takes a K, M, G, T (or KiB, MiB, GiB, TiB) suffix: powers of 1024.\n";

enum {
	CMD_REPORT_OPT_BUNDLE = 256,
	CMD_REPORT_OPT_MAX_SIZE,
	CMD_REPORT_OPT_KEEP_SERIALS,
};

static int cmd_report_parse(int argc, char **argv,
			    struct cmd_report_opts *opts, bool *help)
{
	static const char optstring[] = ":ho:";
	static const struct option longopts[] = {
		{ "help",	  no_argument,	     NULL, 'h' },
		{ "output",	  required_argument, NULL, 'o' },
		{ "bundle",	  required_argument, NULL, CMD_REPORT_OPT_BUNDLE },
		{ "max-size",	  required_argument, NULL, CMD_REPORT_OPT_MAX_SIZE },
		{ "keep-serials", no_argument,	     NULL, CMD_REPORT_OPT_KEEP_SERIALS },
		{ NULL,		  0,		     NULL, 0 }
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			*help = true;
			return 0;
		case 'o':
			if (!*optarg)
				return cli_usage_error(CMD_REPORT_NAME,
						       "--output must not be empty");
			opts->html = optarg;
			break;
		case CMD_REPORT_OPT_BUNDLE:
			if (!*optarg)
				return cli_usage_error(CMD_REPORT_NAME,
						       "--bundle must not be empty");
			opts->bundle = optarg;
			break;
		case CMD_REPORT_OPT_MAX_SIZE:
			if (cli_parse_number(CMD_REPORT_NAME, "--max-size",
					     optarg, UTIL_NUM_SIZE,
					     CMD_REPORT_MIN_SIZE,
					     CMD_REPORT_MAX_SIZE,
					     &opts->max_size))
				return CLI_EXIT_USAGE;
			break;
		case CMD_REPORT_OPT_KEEP_SERIALS:
			opts->keep_serials = true;
			break;
		default:
			return cli_getopt_error(CMD_REPORT_NAME, c, argv,
						optstring, longopts);
		}
	}

	if (optind >= argc)
		return cli_usage_error(CMD_REPORT_NAME, "missing DIR");
	if (argc - optind > 1)
		return cli_usage_error(CMD_REPORT_NAME,
				       "unexpected argument '%s' (one DIR only)",
				       argv[optind + 1]);
	opts->dir = argv[optind];
	if (!*opts->dir)
		return cli_usage_error(CMD_REPORT_NAME,
				       "DIR must not be empty");
	return 0;
}

int cmd_report_main(int argc, char **argv)
{
	struct cmd_report_opts opts = { .max_size = CMD_REPORT_DEF_SIZE };
	bool help = false;
	int ret;

	ret = cmd_report_parse(argc, argv, &opts, &help);
	if (ret)
		return ret;
	if (help) {
		fputs(cmd_report_help, stdout);
		return CLI_EXIT_OK;
	}
	return cli_not_implemented(CMD_REPORT_NAME);
}
