// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli.c - the command table and the messages every subcommand prints the
 * same way: usage errors and bad option values.
 *
 * This is the command layer, the one place allowed to print: parsers in
 * util.c and elsewhere return -errno and the cmd_*_main() that called them
 * reports through here.  All messages go to stderr and start with
 * "usbtrail CMD: " so a script's log says which command failed.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "util.h"

const struct cli_command cli_commands[] = {
	{ "record", "record USB, SCSI, kernel-log and usbmon events into one timeline",
	  cmd_record_help, cmd_record_main },
	{ "uas", "explain whether a device uses UASP, and why not",
	  cmd_uas_help, cmd_uas_main },
	{ "stress", "write, verify and benchmark a USB storage device",
	  cmd_stress_help, cmd_stress_main },
	{ "repro", "reproduce a disk's failure and find by runs what stops it",
	  cmd_repro_help, cmd_repro_main },
	{ "analyze", "classify failures in a kernel log or a recording",
	  cmd_analyze_help, cmd_analyze_main },
	{ "report", "turn a recording into an HTML report and a bug-report bundle",
	  cmd_report_help, cmd_report_main },
	{ "watch", "record all the time as a service: a bounded ring, the incidents kept",
	  cmd_watch_help, cmd_watch_main },
	{ "export", "write a recording's events as JSON lines, for scripts",
	  cmd_export_help, cmd_export_main },
	{ NULL, NULL, NULL, NULL }
};

const struct cli_command *cli_command_find(const char *name)
{
	const struct cli_command *c;

	if (!name)
		return NULL;
	for (c = cli_commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

void cli_usage(FILE *f)
{
	const struct cli_command *c;

	fputs("Usage: " CLI_PROG " [--help|-h] [--version|-V] COMMAND [ARGS]\n"
	      "\n"
	      "Record, explain and reproduce USB storage faults on Linux\n"
	      "(xHCI, UAS, usb-storage).\n"
	      "\n"
	      "Commands:\n", f);
	for (c = cli_commands; c->name; c++)
		fprintf(f, "  %-9s%s\n", c->name, c->summary);
	fputs("\n"
	      "Options:\n"
	      "  -h, --help     show this help and exit\n"
	      "  -V, --version  show the version and exit\n"
	      "\n"
	      "Run '" CLI_PROG " help COMMAND' or '" CLI_PROG
	      " COMMAND --help' for the options\nof COMMAND.\n", f);
}

static void cli_vprefix(const char *cmd)
{
	if (cmd)
		fprintf(stderr, CLI_PROG " %s: ", cmd);
	else
		fputs(CLI_PROG ": ", stderr);
}

static int cli_hint(const char *cmd)
{
	if (cmd)
		fprintf(stderr, "Try '" CLI_PROG " %s --help'.\n", cmd);
	else
		fputs("Try '" CLI_PROG " --help'.\n", stderr);
	return CLI_EXIT_USAGE;
}

/**
 * cli_usage_error() - report that @cmd was called wrongly
 * @cmd: the subcommand, or NULL for usbtrail itself
 * @fmt: printf format of the message, without a trailing newline
 *
 * Prints the message and a hint where to find the usage, on stderr.
 *
 * Return: CLI_EXIT_USAGE, so callers can "return cli_usage_error(...)".
 */
int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	cli_vprefix(cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return cli_hint(cmd);
}

static const struct option *cli_longopt_by_val(const struct option *lo,
					       int val, int has_arg)
{
	for (; lo->name; lo++)
		if (!lo->flag && lo->val == val && lo->has_arg == has_arg)
			return lo;
	return NULL;
}

/* "--dur=5" -> length of "dur" */
static size_t cli_longopt_len(const char *arg)
{
	return strcspn(arg + 2, "=");
}

static int cli_ambiguous(const char *cmd, const char *arg,
			 const struct option *longopts)
{
	size_t n = cli_longopt_len(arg);
	const struct option *lo;
	int matches = 0;

	for (lo = longopts; lo->name; lo++)
		if (!strncmp(lo->name, arg + 2, n))
			matches++;
	if (matches < 2)
		return 0;

	cli_vprefix(cmd);
	fprintf(stderr, "option '--%.*s' is ambiguous; possibilities:",
		(int)n, arg + 2);
	for (lo = longopts; lo->name; lo++)
		if (!strncmp(lo->name, arg + 2, n))
			fprintf(stderr, " '--%s'", lo->name);
	fputc('\n', stderr);
	return 1;
}

/**
 * cli_getopt_error() - report what getopt_long() objected to
 * @cmd:       the subcommand, or NULL for usbtrail itself
 * @c:         what getopt_long() returned: '?' or ':'
 * @argv:      the argv given to getopt_long()
 * @optstring: the optstring given to it; must start with ':' (after an
 *             optional '+') so a missing argument comes back as ':'
 * @longopts:  the long options given to it
 *
 * getopt is run with opterr = 0 so that every message has the same
 * "usbtrail CMD: " form and names the option as the user wrote it.  That
 * means decoding glibc's state here: for a long option glibc has already
 * advanced optind past it and sets optopt to the option's val (0 if it
 * matched nothing); for a short one optopt is the character.
 *
 * Return: CLI_EXIT_USAGE.
 */
int cli_getopt_error(const char *cmd, int c, char *const argv[],
		     const char *optstring, const struct option *longopts)
{
	const char *arg = argv[optind - 1];
	const struct option *lo;

	if (c == ':') {
		/* A missing argument always ends its argv element. */
		if (!strncmp(arg, "--", 2)) {
			lo = cli_longopt_by_val(longopts, optopt,
						required_argument);
			return cli_usage_error(cmd,
				"option '--%s' requires an argument",
				lo ? lo->name : arg + 2);
		}
		return cli_usage_error(cmd, "option '-%c' requires an argument",
				       optopt);
	}

	if (!optopt) {
		if (cli_ambiguous(cmd, arg, longopts))
			return cli_hint(cmd);
		return cli_usage_error(cmd, "unrecognized option '--%.*s'",
				       (int)cli_longopt_len(arg), arg + 2);
	}

	/*
	 * A short option is only refused if it is not in optstring; a val
	 * that is in there (or is no character at all) came from a long
	 * option that takes no argument but was given "=value".
	 */
	if (optopt < 256 && optopt != ':' && optopt != '+' &&
	    !strchr(optstring, optopt))
		return cli_usage_error(cmd, "invalid option '-%c'", optopt);
	lo = cli_longopt_by_val(longopts, optopt, no_argument);
	return cli_usage_error(cmd, "option '--%s' doesn't allow an argument",
			       lo ? lo->name : "?");
}

/**
 * cli_parse_number() - util_parse_number() for an option, with the message
 * @cmd:   the subcommand, for the message
 * @opt:   the option as documented ("--size"), for the message
 * @arg:   the text the user gave
 * @flags: UTIL_NUM_SIZE to accept size suffixes
 * @min:   smallest value accepted
 * @max:   largest value accepted
 * @out:   the value, written only on success
 *
 * Return: 0, or the -errno of util_parse_number() after printing why.
 */
int cli_parse_number(const char *cmd, const char *opt, const char *arg,
		     unsigned int flags, uint64_t min, uint64_t max,
		     uint64_t *out)
{
	char lo[32], hi[32];
	int ret;

	ret = util_parse_number(arg, flags, min, max, out);
	if (!ret)
		return 0;

	if (ret == -ERANGE) {
		if (flags & UTIL_NUM_SIZE) {
			util_format_size(lo, sizeof(lo), min);
			util_format_size(hi, sizeof(hi), max);
		} else {
			snprintf(lo, sizeof(lo), "%ju", (uintmax_t)min);
			snprintf(hi, sizeof(hi), "%ju", (uintmax_t)max);
		}
		cli_usage_error(cmd, "value '%s' for %s is out of range (%s to %s)",
				arg, opt, lo, hi);
	} else if (flags & UTIL_NUM_SIZE) {
		cli_usage_error(cmd,
			"invalid size '%s' for %s (examples: 4096, 64K, 1GiB)",
			arg, opt);
	} else {
		cli_usage_error(cmd,
			"invalid value '%s' for %s: expected a whole number",
			arg, opt);
	}
	return ret;
}

/**
 * cli_parse_choice() - match an option's value against a fixed list
 * @cmd:     the subcommand, for the message
 * @opt:     the option as documented ("--profile"), for the message
 * @arg:     the text the user gave
 * @choices: the accepted words, ending with NULL; an enum's order
 * @out:     the index of @arg in @choices, written only on success
 *
 * Return: 0, or -EINVAL after printing the accepted words.
 */
int cli_parse_choice(const char *cmd, const char *opt, const char *arg,
		     const char *const choices[], unsigned int *out)
{
	unsigned int i;

	for (i = 0; choices[i]; i++) {
		if (!strcmp(arg, choices[i])) {
			*out = i;
			return 0;
		}
	}

	cli_vprefix(cmd);
	fprintf(stderr, "invalid value '%s' for %s: expected one of", arg, opt);
	for (i = 0; choices[i]; i++)
		fprintf(stderr, "%s %s", i ? "," : "", choices[i]);
	fputc('\n', stderr);
	cli_hint(cmd);
	return -EINVAL;
}
