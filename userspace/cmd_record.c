// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_record.c - "usbtrail record": options of the recorder that merges
 * USB, SCSI, kernel-log, usbmon and throughput events into one timeline.
 *
 * Only the command line is settled so far; the recorder itself lands later.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <libevdev/libevdev.h>

#include "cli.h"
#include "util.h"

#define CMD_RECORD_NAME		"record"
#define CMD_RECORD_MAX_DURATION	(30u * 24 * 3600)	/* 30 days */
/*
 * A bound on what the user controls.  usbmon caps one URB's data at a fifth
 * of its ring anyway (mon_bin.c), so more would never be seen.
 */
#define CMD_RECORD_MAX_PAYLOAD	(1u << 20)
/* Enough for a mass-storage CBW (31 bytes) and UAS command IUs. */
#define CMD_RECORD_DEF_PAYLOAD	64u

enum cmd_record_source {
	CMD_RECORD_SOURCE_AUTO,
	CMD_RECORD_SOURCE_MODULE,
	CMD_RECORD_SOURCE_TRACEFS,
};

static const char *const cmd_record_sources[] = {
	[CMD_RECORD_SOURCE_AUTO] = "auto",
	[CMD_RECORD_SOURCE_MODULE] = "module",
	[CMD_RECORD_SOURCE_TRACEFS] = "tracefs",
	NULL
};

struct cmd_record_opts {
	const char *output_dir;
	uint64_t duration_s;		/* 0: until COMMAND exits or SIGINT */
	uint64_t payload;
	bool pcap;
	unsigned int source;		/* enum cmd_record_source */
	int marker_code;		/* EV_KEY code, -1: no marker key */
	const char *marker_device;	/* NULL: every keyboard */
	char **command;			/* NULL-terminated, NULL if none */
};

const char cmd_record_help[] =
"Usage: usbtrail record -o DIR [OPTIONS] [[--] COMMAND [ARGS...]]\n"
"\n"
"Record USB, SCSI, kernel-log, usbmon and throughput events into one\n"
"timeline in DIR.  With COMMAND, recording starts before COMMAND runs and\n"
"stops when it exits; without, it stops after --duration or on Ctrl-C.\n"
"\n"
"Options:\n"
"  -o, --output DIR        write the recording into DIR (required)\n"
"      --duration S        stop after S seconds (1 to 2592000)\n"
"      --payload N         keep at most N bytes of each URB's data in the\n"
"                          usbmon capture (0 to 1MiB, default 64: enough for\n"
"                          mass-storage and UAS command blocks)\n"
"      --no-pcap           do not write the usbmon capture (pcapng)\n"
"      --source SRC        where kernel USB events come from: 'module' (the\n"
"                          usbtrail kernel module), 'tracefs' (the kernel's\n"
"                          xhci-hcd and scsi trace events) or 'auto' (the\n"
"                          module if it is loaded, else tracefs; default)\n"
"      --marker-key KEY    put a marker into the timeline each time KEY is\n"
"                          pressed (an evdev key name: F12, KEY_PAUSE)\n"
"      --marker-device PATH\n"
"                          watch only this input device for --marker-key\n"
"                          (default: every keyboard)\n"
"  -h, --help              show this help and exit\n"
"\n"
"N takes a K, M, G, T (or KiB, MiB, GiB, TiB) suffix: powers of 1024.\n"
"Options end at the first argument that is not one, or at '--'.\n";

enum {
	CMD_RECORD_OPT_DURATION = 256,
	CMD_RECORD_OPT_PAYLOAD,
	CMD_RECORD_OPT_NO_PCAP,
	CMD_RECORD_OPT_SOURCE,
	CMD_RECORD_OPT_MARKER_KEY,
	CMD_RECORD_OPT_MARKER_DEVICE,
};

/*
 * "F12" or "KEY_F12" (or a BTN_ name) to an EV_KEY code, by libevdev's own
 * table, so every name the kernel headers know works without a copy here.
 *
 * Return: the code, or -EINVAL.
 */
static int cmd_record_key_code(const char *name)
{
	char buf[64];
	size_t i, n = strlen(name);
	int code;

	if (!n || n + 4 >= sizeof(buf))
		return -EINVAL;
	if (!strncmp(name, "KEY_", 4) || !strncmp(name, "BTN_", 4)) {
		memcpy(buf, name, n + 1);
	} else {
		memcpy(buf, "KEY_", 4);
		for (i = 0; i <= n; i++)
			buf[4 + i] = (char)toupper((unsigned char)name[i]);
	}

	code = libevdev_event_code_from_name(EV_KEY, buf);
	return code < 0 ? -EINVAL : code;
}

static int cmd_record_parse(int argc, char **argv,
			    struct cmd_record_opts *opts, bool *help)
{
	/* '+': everything from the first non-option on is COMMAND's. */
	static const char optstring[] = "+:ho:";
	static const struct option longopts[] = {
		{ "help",	   no_argument,	      NULL, 'h' },
		{ "output",	   required_argument, NULL, 'o' },
		{ "duration",	   required_argument, NULL, CMD_RECORD_OPT_DURATION },
		{ "payload",	   required_argument, NULL, CMD_RECORD_OPT_PAYLOAD },
		{ "no-pcap",	   no_argument,	      NULL, CMD_RECORD_OPT_NO_PCAP },
		{ "source",	   required_argument, NULL, CMD_RECORD_OPT_SOURCE },
		{ "marker-key",	   required_argument, NULL, CMD_RECORD_OPT_MARKER_KEY },
		{ "marker-device", required_argument, NULL, CMD_RECORD_OPT_MARKER_DEVICE },
		{ NULL,		   0,		      NULL, 0 }
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
				return cli_usage_error(CMD_RECORD_NAME,
						       "--output must not be empty");
			opts->output_dir = optarg;
			break;
		case CMD_RECORD_OPT_DURATION:
			if (cli_parse_number(CMD_RECORD_NAME, "--duration",
					     optarg, 0, 1,
					     CMD_RECORD_MAX_DURATION,
					     &opts->duration_s))
				return CLI_EXIT_USAGE;
			break;
		case CMD_RECORD_OPT_PAYLOAD:
			if (cli_parse_number(CMD_RECORD_NAME, "--payload",
					     optarg, UTIL_NUM_SIZE, 0,
					     CMD_RECORD_MAX_PAYLOAD,
					     &opts->payload))
				return CLI_EXIT_USAGE;
			break;
		case CMD_RECORD_OPT_NO_PCAP:
			opts->pcap = false;
			break;
		case CMD_RECORD_OPT_SOURCE:
			if (cli_parse_choice(CMD_RECORD_NAME, "--source", optarg,
					     cmd_record_sources, &opts->source))
				return CLI_EXIT_USAGE;
			break;
		case CMD_RECORD_OPT_MARKER_KEY:
			opts->marker_code = cmd_record_key_code(optarg);
			if (opts->marker_code < 0)
				return cli_usage_error(CMD_RECORD_NAME,
					"unknown key '%s' for --marker-key (try F12 or KEY_PAUSE)",
					optarg);
			break;
		case CMD_RECORD_OPT_MARKER_DEVICE:
			if (!*optarg)
				return cli_usage_error(CMD_RECORD_NAME,
						       "--marker-device must not be empty");
			opts->marker_device = optarg;
			break;
		default:
			return cli_getopt_error(CMD_RECORD_NAME, c, argv,
						optstring, longopts);
		}
	}

	if (!opts->output_dir)
		return cli_usage_error(CMD_RECORD_NAME,
				       "missing required option -o DIR");
	if (opts->marker_device && opts->marker_code < 0)
		return cli_usage_error(CMD_RECORD_NAME,
				       "--marker-device needs --marker-key");
	if (optind < argc)
		opts->command = argv + optind;
	return 0;
}

int cmd_record_main(int argc, char **argv)
{
	struct cmd_record_opts opts = {
		.payload = CMD_RECORD_DEF_PAYLOAD,
		.pcap = true,
		.source = CMD_RECORD_SOURCE_AUTO,
		.marker_code = -1,
	};
	bool help = false;
	int ret;

	ret = cmd_record_parse(argc, argv, &opts, &help);
	if (ret)
		return ret;
	if (help) {
		fputs(cmd_record_help, stdout);
		return CLI_EXIT_OK;
	}
	return cli_not_implemented(CMD_RECORD_NAME);
}
