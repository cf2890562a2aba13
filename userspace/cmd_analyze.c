// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_analyze.c - "usbtrail analyze": options of the classifier that reads
 * a kernel log or a recording and names the USB failures in it.
 *
 * Only the command line is settled so far; the classifier lands later.
 */
#include <stdbool.h>
#include <stdio.h>

#include "cli.h"

#define CMD_ANALYZE_NAME	"analyze"

struct cmd_analyze_opts {
	bool json;
	const char *input;	/* file, recording directory, or "-" */
};

const char cmd_analyze_help[] =
"Usage: usbtrail analyze [--json] FILE|DIR|-\n"
"\n"
"Classify the USB failures (resets, disconnects, command timeouts, xHCI\n"
"errors, ...) found in FILE, a dmesg or journalctl text, or in DIR, a\n"
"recording made by 'usbtrail record'.  '-' reads the text from standard\n"
"input.\n"
"\n"
"Options:\n"
"      --json      print JSON instead of text\n"
"  -h, --help      show this help and exit\n";

enum {
	CMD_ANALYZE_OPT_JSON = 256,
};

static int cmd_analyze_parse(int argc, char **argv,
			     struct cmd_analyze_opts *opts, bool *help)
{
	static const char optstring[] = ":h";
	static const struct option longopts[] = {
		{ "help",	no_argument,	NULL, 'h' },
		{ "json",	no_argument,	NULL, CMD_ANALYZE_OPT_JSON },
		{ NULL,		0,		NULL, 0 }
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			*help = true;
			return 0;
		case CMD_ANALYZE_OPT_JSON:
			opts->json = true;
			break;
		default:
			return cli_getopt_error(CMD_ANALYZE_NAME, c, argv,
						optstring, longopts);
		}
	}

	if (optind >= argc)
		return cli_usage_error(CMD_ANALYZE_NAME,
				       "missing FILE, DIR or '-'");
	if (argc - optind > 1)
		return cli_usage_error(CMD_ANALYZE_NAME,
				       "unexpected argument '%s' (one input only)",
				       argv[optind + 1]);
	opts->input = argv[optind];
	if (!*opts->input)
		return cli_usage_error(CMD_ANALYZE_NAME,
				       "input must not be empty");
	return 0;
}

int cmd_analyze_main(int argc, char **argv)
{
	struct cmd_analyze_opts opts = { .json = false };
	bool help = false;
	int ret;

	ret = cmd_analyze_parse(argc, argv, &opts, &help);
	if (ret)
		return ret;
	if (help) {
		fputs(cmd_analyze_help, stdout);
		return CLI_EXIT_OK;
	}
	return cli_not_implemented(CMD_ANALYZE_NAME);
}
