/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli.h - what the usbtrail subcommands share: the command table, exit
 * statuses, and the helpers that turn option-parsing errors into messages.
 *
 * main.c hands argv to one cmd_*_main().  That function parses its own
 * options and is the only place that prints about them, through the cli_*
 * helpers below, so every failure is reported once, by the code that knows
 * which command and option it was.
 */
#ifndef USBTRAIL_CLI_H
#define USBTRAIL_CLI_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

#define CLI_PROG	"usbtrail"

/* Exit statuses, as in grep and diff: 2 means "you called me wrong". */
enum cli_exit {
	CLI_EXIT_OK = 0,
	CLI_EXIT_FAILURE = 1,
	CLI_EXIT_USAGE = 2,
};

struct cli_command {
	const char *name;
	const char *summary;	/* one line for the main usage */
	const char *help;	/* full text for "usbtrail help NAME" */
	int (*main)(int argc, char **argv);	/* argv[0] is NAME */
};

extern const struct cli_command cli_commands[];	/* ends with a NULL name */

const struct cli_command *cli_command_find(const char *name);
void cli_usage(FILE *f);

int cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int cli_getopt_error(const char *cmd, int c, char *const argv[],
		     const char *optstring, const struct option *longopts);
int cli_parse_number(const char *cmd, const char *opt, const char *arg,
		     unsigned int flags, uint64_t min, uint64_t max,
		     uint64_t *out);
int cli_parse_choice(const char *cmd, const char *opt, const char *arg,
		     const char *const choices[], unsigned int *out);

int cmd_record_main(int argc, char **argv);
int cmd_uas_main(int argc, char **argv);
int cmd_stress_main(int argc, char **argv);
int cmd_repro_main(int argc, char **argv);
int cmd_analyze_main(int argc, char **argv);
int cmd_report_main(int argc, char **argv);
int cmd_watch_main(int argc, char **argv);
int cmd_export_main(int argc, char **argv);

extern const char cmd_record_help[];
extern const char cmd_uas_help[];
extern const char cmd_stress_help[];
extern const char cmd_repro_help[];
extern const char cmd_analyze_help[];
extern const char cmd_report_help[];
extern const char cmd_export_help[];
extern const char cmd_watch_help[];

#endif /* USBTRAIL_CLI_H */
