// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_uas.c - "usbtrail uas": options of the check that says whether a
 * USB disk runs on UAS (UASP) or usb-storage, and if not UAS, why not.
 *
 * Only the command line is settled so far; the check itself lands later.
 */
#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
#include "devspec.h"

#define CMD_UAS_NAME		"uas"
#define CMD_UAS_MAX_DEVICES	64

struct cmd_uas_opts {
	bool json;
	unsigned int ndevices;			/* 0: every USB disk */
	struct devspec devices[CMD_UAS_MAX_DEVICES];
};

const char cmd_uas_help[] =
"Usage: usbtrail uas [--json] [DEVICE...]\n"
"\n"
"Explain whether each USB storage DEVICE uses UAS (UASP) and, if it does\n"
"not, why not: for example the device offers no UAS interface, a quirk\n"
"turns UAS off, the host controller has no streams, or the uas driver is\n"
"missing.  Without DEVICE, look at every USB disk.\n"
"\n"
"DEVICE is one of:\n"
"  sdX, /dev/sdX    a SCSI disk\n"
"  BUS-PORT[.PORT]  a USB port path as in /sys/bus/usb/devices, e.g. 2-1.4\n"
"  VID:PID          vendor and product ID in hex, e.g. 174c:55aa\n"
"\n"
"Options:\n"
"      --json      print JSON instead of text\n"
"  -h, --help      show this help and exit\n";

enum {
	CMD_UAS_OPT_JSON = 256,
};

static int cmd_uas_parse(int argc, char **argv, struct cmd_uas_opts *opts,
			 bool *help)
{
	static const char optstring[] = ":h";
	static const struct option longopts[] = {
		{ "help",	no_argument,	NULL, 'h' },
		{ "json",	no_argument,	NULL, CMD_UAS_OPT_JSON },
		{ NULL,		0,		NULL, 0 }
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			*help = true;
			return 0;
		case CMD_UAS_OPT_JSON:
			opts->json = true;
			break;
		default:
			return cli_getopt_error(CMD_UAS_NAME, c, argv,
						optstring, longopts);
		}
	}

	if (argc - optind > CMD_UAS_MAX_DEVICES)
		return cli_usage_error(CMD_UAS_NAME,
				       "too many devices (at most %d)",
				       CMD_UAS_MAX_DEVICES);
	for (; optind < argc; optind++) {
		if (devspec_parse(argv[optind], &opts->devices[opts->ndevices]))
			return cli_usage_error(CMD_UAS_NAME,
				"invalid device '%s': expected sdX, a USB port path such as 2-1.4, or VID:PID",
				argv[optind]);
		opts->ndevices++;
	}
	return 0;
}

int cmd_uas_main(int argc, char **argv)
{
	struct cmd_uas_opts opts = { .json = false };
	bool help = false;
	int ret;

	ret = cmd_uas_parse(argc, argv, &opts, &help);
	if (ret)
		return ret;
	if (help) {
		fputs(cmd_uas_help, stdout);
		return CLI_EXIT_OK;
	}
	return cli_not_implemented(CMD_UAS_NAME);
}
