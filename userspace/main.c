// SPDX-License-Identifier: GPL-2.0-only
/*
 * main.c - usbtrail's entry point: global options and dispatch to one
 * cmd_*_main().
 *
 * main() lives alone in this file so the unit tests can link every other
 * object of the tool.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

#ifndef USBTRAIL_VERSION
#error "USBTRAIL_VERSION must be set by the build (see userspace/Makefile)"
#endif
#ifndef USBTRAIL_GIT
#define USBTRAIL_GIT	""
#endif

/* "usbtrail help [COMMAND]": help on stdout, as git does. */
static int main_help(int argc, char **argv)
{
	const struct cli_command *cmd;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		cli_usage(stdout);
		return CLI_EXIT_OK;
	}
	if (argc > 2)
		return cli_usage_error(NULL, "help takes one COMMAND, not %d",
				       argc - 1);
	cmd = cli_command_find(argv[1]);
	if (!cmd)
		return cli_usage_error(NULL, "unknown command '%s'", argv[1]);
	fputs(cmd->help, stdout);
	return CLI_EXIT_OK;
}

static int main_dispatch(int argc, char **argv)
{
	/* '+': stop at the command name, its options are its own. */
	static const char optstring[] = "+:hV";
	static const struct option longopts[] = {
		{ "help",	no_argument,	NULL, 'h' },
		{ "version",	no_argument,	NULL, 'V' },
		{ NULL,		0,		NULL, 0 }
	};
	const struct cli_command *cmd;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			cli_usage(stdout);
			return CLI_EXIT_OK;
		case 'V':
			/* the release; the commit when built from git */
			printf(CLI_PROG " %s%s%s%s\n", USBTRAIL_VERSION,
			       USBTRAIL_GIT[0] ? " (git " : "", USBTRAIL_GIT,
			       USBTRAIL_GIT[0] ? ")" : "");
			return CLI_EXIT_OK;
		default:
			return cli_getopt_error(NULL, c, argv, optstring,
						longopts);
		}
	}

	if (optind >= argc) {
		cli_usage(stderr);
		return CLI_EXIT_USAGE;
	}

	argc -= optind;
	argv += optind;
	if (!strcmp(argv[0], "help"))
		return main_help(argc, argv);

	cmd = cli_command_find(argv[0]);
	if (!cmd)
		return cli_usage_error(NULL, "unknown command '%s'", argv[0]);

	/* 0, not 1: glibc then also resets its scan state for the command. */
	optind = 0;
	return cmd->main(argc, argv);
}

int main(int argc, char **argv)
{
	int ret = main_dispatch(argc, argv);

	/* Help piped into a closed pager or a full disk is still a failure. */
	if (fflush(stdout) || ferror(stdout)) {
		perror(CLI_PROG ": write error");
		return CLI_EXIT_FAILURE;
	}
	return ret;
}
