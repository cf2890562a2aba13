// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_record.c - "usbtrail record": options of the recorder that merges
 * USB, SCSI, kernel-log, usbmon and throughput events into one timeline.
 *
 * This file is the command: options, the output directory, which sources
 * and sinks to open (record.h) and when meta.json is written (meta.c
 * writes it); record.c runs them.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libevdev/libevdev.h>
#include <linux/usbtrail.h>

#include "cli.h"
#include "evjson.h"
#include "meta.h"
#include "owner.h"
#include "record.h"
#include "uas_probe.h"
#include "util.h"

#define CMD_RECORD_NAME		"record"
#ifndef USBTRAIL_VERSION
#define USBTRAIL_VERSION	"unknown"	/* unit-test builds */
#endif
#define CMD_RECORD_MAX_DURATION	(30u * 24 * 3600)	/* 30 days */
#define CMD_RECORD_MAX_GRACE	(24u * 3600)		/* a day */
/*
 * A bound on what the user controls.  usbmon caps one URB's data at a fifth
 * of its ring anyway (mon_bin.c), so more would never be seen.
 */
#define CMD_RECORD_MAX_PAYLOAD	(1u << 20)
/* Enough for a mass-storage CBW (31 bytes) and UAS command IUs. */
#define CMD_RECORD_DEF_PAYLOAD	64u

/* Exit statuses of record beside cli.h's and COMMAND's (docs/record.md) */
enum {
	/* nothing recorded: no event source opened, or not --source's */
	CMD_RECORD_EXIT_NO_SOURCE = 3,
};

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
	uint64_t grace_s;		/* 0: REC_CHILD_GRACE_DEFAULT_S */
	uint64_t payload;
	bool payload_set;		/* --payload given: bytes kept on purpose */
	uint64_t usbmon_ring;		/* --usbmon-ring: bytes */
	bool pcap;
	unsigned int source;		/* enum cmd_record_source */
	int marker_code;		/* EV_KEY code, -1: no marker key */
	const char *marker_device;	/* NULL: every keyboard */
	char **command;			/* NULL-terminated, NULL if none */
	struct derive_opts dip;
	bool quiet;
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
"      --command-grace S   on Ctrl-C, SIGTERM or --duration, COMMAND gets\n"
"                          SIGTERM and S seconds to finish (1 to 86400,\n"
"                          default 60: usbtrail stress reads back what it\n"
"                          wrote), then SIGKILL; Ctrl-C meanwhile: at once\n"
"      --payload N         keep at most N bytes of each URB's data in the\n"
"                          usbmon capture (0 to 1MiB, default 64: enough for\n"
"                          mass-storage and UAS command blocks)\n"
"      --usbmon-ring N     usbmon's ring of kernel memory (1200KiB to 64MiB,\n"
"                          default 64MiB; a kernel before 6.18 without the\n"
"                          backport takes 1200KiB at most): each URB's data\n"
"                          fills up to a fifth of it, whatever --payload\n"
"                          keeps, so a small ring loses URBs at 1 MiB writes\n"
"      --no-usbmon         do not capture usbmon (URBs): capture.pcapng\n"
"                          still holds the trace records\n"
"      --no-pcap           the same, its older name\n"
"      --source SRC        where kernel USB events come from: 'module' (the\n"
"                          usbtrail kernel module), 'tracefs' (the kernel's\n"
"                          xhci-hcd and scsi trace events) or 'auto' (the\n"
"                          module if it is loaded, else tracefs; default)\n"
"      --marker-key KEY    put a marker into the timeline each time KEY is\n"
"                          pressed (an evdev key name: F12, KEY_PAUSE)\n"
"      --marker-device PATH\n"
"                          watch only this input device for --marker-key\n"
"                          (default: every keyboard)\n"
"      --interval MS       throughput interval per disk (10 to 10000,\n"
"                          default 100)\n"
"      --dip-fraction F    a dip is throughput below F times the trailing\n"
"                          median (0.05 to 0.95, default 0.5)...\n"
"      --dip-intervals N   ...for N intervals in a row (1 to 1000, default 3)\n"
"  -q, --quiet             no live lines for incidents on stdout\n"
"  -h, --help              show this help and exit\n"
"\n"
"N takes a K, M, G, T (or KiB, MiB, GiB, TiB) suffix: powers of 1024.\n"
"Options end at the first argument that is not one, or at '--'.\n"
"\n"
"DIR is created if needed and must not hold a recording already.  It gets\n"
"events.jsonl (incidents, kernel lines, devices, throughput, markers,\n"
"losses), capture.pcapng (those lines and incidents, usbmon URBs and the\n"
"trace records, for Wireshark: tools/wireshark/usbtrail.lua dissects the\n"
"records; 'usbtrail export --jsonl DIR' gives them as JSON lines) and\n"
"meta.json (kernel, sources, losses, the 'usbtrail uas' verdicts);\n"
"incidents also go to the systemd journal when there is one.  Needs root\n"
"(or CAP_SYS_ADMIN and read access to /dev/kmsg); a source that does not\n"
"open is named with what it needs.  Through sudo, the files (and DIR, if\n"
"record makes it) belong to the user of sudo.\n"
"Exit status: COMMAND's, or 0; 1 if recording failed (e.g. a full disk:\n"
"what was written stays valid); 2 for usage errors; 3 if no event source\n"
"opened (or not the one --source names): nothing recorded, COMMAND not run.\n";

enum {
	CMD_RECORD_OPT_DURATION = 256,
	CMD_RECORD_OPT_PAYLOAD,
	CMD_RECORD_OPT_NO_PCAP,
	CMD_RECORD_OPT_USBMON_RING,
	CMD_RECORD_OPT_SOURCE,
	CMD_RECORD_OPT_MARKER_KEY,
	CMD_RECORD_OPT_MARKER_DEVICE,
	CMD_RECORD_OPT_INTERVAL,
	CMD_RECORD_OPT_DIP_FRACTION,
	CMD_RECORD_OPT_DIP_INTERVALS,
	CMD_RECORD_OPT_COMMAND_GRACE,
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

/* One option of cmd_record_parse() but -h.  Return: 0 or CLI_EXIT_USAGE. */
static int cmd_record_parse_opt(int c, const char *arg,
				struct cmd_record_opts *opts)
{
	uint64_t v;
	double f;
	char *end;

	switch (c) {
	case 'q':
		opts->quiet = true;
		break;
	case CMD_RECORD_OPT_INTERVAL:
		if (cli_parse_number(CMD_RECORD_NAME, "--interval", arg, 0, 10,
				     10000, &v))
			return CLI_EXIT_USAGE;
		opts->dip.interval_ms = (unsigned int)v;
		break;
	case CMD_RECORD_OPT_DIP_INTERVALS:
		if (cli_parse_number(CMD_RECORD_NAME, "--dip-intervals", arg,
				     0, 1, 1000, &v))
			return CLI_EXIT_USAGE;
		opts->dip.dip_intervals = (unsigned int)v;
		break;
	case CMD_RECORD_OPT_DIP_FRACTION:
		errno = 0;
		f = strtod(arg, &end);
		if (errno || end == arg || *end || !(f >= 0.05) ||
		    !(f <= 0.95))
			return cli_usage_error(CMD_RECORD_NAME,
				"--dip-fraction wants a number from 0.05 to 0.95, not '%s'",
				arg);
		opts->dip.dip_fraction = f;
		break;
	case 'o':
		if (!*arg)
			return cli_usage_error(CMD_RECORD_NAME,
					       "--output must not be empty");
		opts->output_dir = arg;
		break;
	case CMD_RECORD_OPT_DURATION:
		if (cli_parse_number(CMD_RECORD_NAME, "--duration", arg, 0, 1,
				     CMD_RECORD_MAX_DURATION,
				     &opts->duration_s))
			return CLI_EXIT_USAGE;
		break;
	case CMD_RECORD_OPT_COMMAND_GRACE:
		if (cli_parse_number(CMD_RECORD_NAME, "--command-grace", arg, 0,
				     1, CMD_RECORD_MAX_GRACE, &opts->grace_s))
			return CLI_EXIT_USAGE;
		break;
	case CMD_RECORD_OPT_PAYLOAD:
		if (cli_parse_number(CMD_RECORD_NAME, "--payload", arg,
				     UTIL_NUM_SIZE, 0, CMD_RECORD_MAX_PAYLOAD,
				     &opts->payload))
			return CLI_EXIT_USAGE;
		opts->payload_set = true;
		break;
	case CMD_RECORD_OPT_NO_PCAP:
		opts->pcap = false;
		break;
	case CMD_RECORD_OPT_USBMON_RING:
		if (cli_parse_number(CMD_RECORD_NAME, "--usbmon-ring", arg,
				     UTIL_NUM_SIZE, SRC_USBMON_RING_MIN,
				     SRC_USBMON_RING_MAX, &opts->usbmon_ring))
			return CLI_EXIT_USAGE;
		break;
	case CMD_RECORD_OPT_SOURCE:
		if (cli_parse_choice(CMD_RECORD_NAME, "--source", arg,
				     cmd_record_sources, &opts->source))
			return CLI_EXIT_USAGE;
		break;
	case CMD_RECORD_OPT_MARKER_KEY:
		opts->marker_code = cmd_record_key_code(arg);
		if (opts->marker_code < 0)
			return cli_usage_error(CMD_RECORD_NAME,
				"unknown key '%s' for --marker-key (try F12 or KEY_PAUSE)",
				arg);
		break;
	case CMD_RECORD_OPT_MARKER_DEVICE:
		if (!*arg)
			return cli_usage_error(CMD_RECORD_NAME,
					       "--marker-device must not be empty");
		opts->marker_device = arg;
		break;
	}
	return 0;
}

static int cmd_record_parse(int argc, char **argv,
			    struct cmd_record_opts *opts, bool *help)
{
	/* '+': everything from the first non-option on is COMMAND's. */
	static const char optstring[] = "+:hqo:";
	static const struct option longopts[] = {
		{ "help",	   no_argument,	      NULL, 'h' },
		{ "output",	   required_argument, NULL, 'o' },
		{ "duration",	   required_argument, NULL, CMD_RECORD_OPT_DURATION },
		{ "command-grace", required_argument, NULL, CMD_RECORD_OPT_COMMAND_GRACE },
		{ "payload",	   required_argument, NULL, CMD_RECORD_OPT_PAYLOAD },
		{ "no-pcap",	   no_argument,	      NULL, CMD_RECORD_OPT_NO_PCAP },
		{ "no-usbmon",	   no_argument,	      NULL, CMD_RECORD_OPT_NO_PCAP },
		{ "usbmon-ring",   required_argument, NULL, CMD_RECORD_OPT_USBMON_RING },
		{ "source",	   required_argument, NULL, CMD_RECORD_OPT_SOURCE },
		{ "marker-key",	   required_argument, NULL, CMD_RECORD_OPT_MARKER_KEY },
		{ "marker-device", required_argument, NULL, CMD_RECORD_OPT_MARKER_DEVICE },
		{ "interval",	   required_argument, NULL, CMD_RECORD_OPT_INTERVAL },
		{ "dip-fraction",  required_argument, NULL, CMD_RECORD_OPT_DIP_FRACTION },
		{ "dip-intervals", required_argument, NULL, CMD_RECORD_OPT_DIP_INTERVALS },
		{ "quiet",	   no_argument,	      NULL, 'q' },
		{ NULL,		   0,		      NULL, 0 }
	};
	int c, ret;

	opterr = 0;
	while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
		if (c == 'h') {
			*help = true;
			return 0;
		}
		/* an unknown option or a missing argument */
		if (c == '?' || c == ':')
			return cli_getopt_error(CMD_RECORD_NAME, c, argv,
						optstring, longopts);
		ret = cmd_record_parse_opt(c, optarg, opts);
		if (ret)
			return ret;
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

/* --- the recording and meta.json --------------------------------------- */

struct cmd_record_ctx {
	const struct cmd_record_opts *opts;
	char dir[4096];
	struct rec *rec;
	struct rec_source src[REC_SOURCES_MAX];
	unsigned int nsrc;
	struct rec_sink sink[REC_SINKS_MAX];
	unsigned int nsink;
	const char *trace_source;	/* "module", "tracefs", or NULL */
	/* the module's USBTRAIL_IOC_INFO when it opened: meta.json's probes */
	struct usbtrail_info module_info;
	bool have_module_info;
	/* its layout table, answered from BTF, and the answers */
	struct usbtrail_layout module_layout, module_layout_btf;
	bool no_source;			/* no event source opened: exit 3 */
	struct json_object *uas;
	struct json_object *descriptors;	/* "2-1": hex, for the report */
	int uas_err;
	char notes[8][META_NOTE_LEN];
	unsigned int nnotes;
	time_t started;
	uint64_t started_boot;
};

static void cmd_record_keep_note(struct cmd_record_ctx *x, const char *fmt,
				 ...) __attribute__((format(printf, 2, 3)));
static void cmd_record_note(struct cmd_record_ctx *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A note for meta.json only: the caller has said it on stderr. */
static void cmd_record_keep_note(struct cmd_record_ctx *x, const char *fmt,
				 ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (x->nnotes < 8)
		vsnprintf(x->notes[x->nnotes++], sizeof(x->notes[0]), fmt, ap);
	va_end(ap);
}

/* Something the user should know that does not stop the recording. */
static void cmd_record_note(struct cmd_record_ctx *x, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (x->nnotes < 8) {
		vsnprintf(x->notes[x->nnotes], sizeof(x->notes[0]), fmt, ap);
		fprintf(stderr, "usbtrail record: %s\n", x->notes[x->nnotes++]);
	}
	va_end(ap);
}

/* What meta.json is to say, from what the command knows now. */
static void cmd_record_meta_fill(const struct cmd_record_ctx *x,
				 struct meta_record *m)
{
	memset(m, 0, sizeof(*m));
	m->version = USBTRAIL_VERSION;
	m->clock = rec_clock(x->rec);
	m->stats = rec_stats(x->rec);
	m->started = x->started;
	m->started_boot = x->started_boot;
	m->payload = x->opts->pcap ? x->opts->payload : 0;
	m->payload_set = x->opts->payload_set;
	m->command = x->opts->command;
	m->duration_set = x->opts->duration_s != 0;
	m->dip = &x->opts->dip;
	m->trace_source = x->trace_source;
	m->src = x->src;
	m->nsrc = x->nsrc;
	m->module_info = x->have_module_info ? &x->module_info : NULL;
	m->module_layout = x->module_layout.count ? &x->module_layout : NULL;
	m->module_layout_btf = x->module_layout.count ?
			       &x->module_layout_btf : NULL;
	m->sink = x->sink;
	m->nsink = x->nsink;
	m->notes = x->notes;
	m->nnotes = x->nnotes;
	m->uas = x->uas;
	m->uas_err = x->uas_err;
	m->descriptors = x->descriptors;
}

static int cmd_record_write_meta(struct cmd_record_ctx *x, bool done,
				 int result)
{
	struct meta_record m;

	cmd_record_meta_fill(x, &m);
	return meta_write(x->dir, &m, done, result);
}

/* --- setting up ------------------------------------------------------------ */

/*
 * DIR, made if needed (*made says so; then it is the user's under sudo,
 * owner.h), without a recording in it.
 */
static int cmd_record_mkdir(const char *dir, bool *made)
{
	char probe[4200];
	struct stat st;
	int fd;

	*made = !mkdir(dir, 0755);
	if (!*made && errno != EEXIST)
		return -errno;
	if (*made) {
		fd = owner_open(dir, O_RDONLY | O_DIRECTORY, 0);
		if (fd >= 0)
			close(fd);
	}
	if (stat(dir, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	snprintf(probe, sizeof(probe), "%s/events.jsonl", dir);
	if (!access(probe, F_OK))
		return -EEXIST;
	return 0;
}

static struct rec_source *cmd_record_next_src(struct cmd_record_ctx *x)
{
	return &x->src[x->nsrc];
}

/*
 * The kernel's event sources, in the order they are tried and reported.
 * Each needs something of its own (docs/record.md, "Where the events come
 * from"); when one does not open, that is said once, with what it needs.
 */
enum cmd_record_ksrc {
	CMD_RECORD_KSRC_MODULE,
	CMD_RECORD_KSRC_TRACEFS,
	CMD_RECORD_KSRC_KMSG,
	CMD_RECORD_KSRC_USBMON,
	CMD_RECORD_KSRC_COUNT,
};

/* The value of the sysctl kernel.dmesg_restrict is 1. */
static bool cmd_record_dmesg_restricted(void)
{
	char c = '0';
	int fd;

	fd = open("/proc/sys/kernel/dmesg_restrict", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	if (read(fd, &c, 1) != 1)
		c = '0';
	close(fd);
	return c == '1';
}

/* The longest phrase of cmd_record_need(), and all of them together. */
#define CMD_RECORD_NEED_LEN	200
#define CMD_RECORD_NEEDS_LEN	(CMD_RECORD_KSRC_COUNT * CMD_RECORD_NEED_LEN)

/*
 * What source @k needs, as it failed with @err (a negative errno): one
 * phrase, "usbmon needs root and modprobe usbmon", into @buf.
 */
static void cmd_record_need(char *buf, size_t len, enum cmd_record_ksrc k,
			    int err)
{
	/* as root, "needs root" would be wrong: something else is missing */
	const char *root = geteuid() ? "root and " : "";
	bool perm = err == -EACCES || err == -EPERM;

	switch (k) {
	case CMD_RECORD_KSRC_MODULE:
		if (err == -ENOENT)
			snprintf(buf, len, "the module needs %susbtrail.ko "
				 "loaded (insmod usbtrail.ko, built by make "
				 "module)", root);
		else if (perm)
			snprintf(buf, len, "the module needs root "
				 "(CAP_SYS_ADMIN) for " USBTRAIL_DEVICE);
		else if (err == -EBUSY)
			snprintf(buf, len, "the module's " USBTRAIL_DEVICE
				 " is held by another reader");
		else if (err == -EPROTO)
			snprintf(buf, len, "the module loaded is not of this "
				 "usbtrail's version (reload it: rmmod "
				 "usbtrail; insmod usbtrail.ko)");
		else
			snprintf(buf, len, "the module: " USBTRAIL_DEVICE
				 ": %s", strerror(-err));
		return;
	case CMD_RECORD_KSRC_TRACEFS:
		if (err == -ENOENT)
			snprintf(buf, len, "tracefs needs %smount -t tracefs "
				 "nodev /sys/kernel/tracing", root);
		else if (perm)
			snprintf(buf, len, "tracefs needs root");
		else if (err == -ENODATA)
			snprintf(buf, len, "tracefs has none of the xhci-hcd, "
				 "scsi and block events here");
		else if (err == -EOPNOTSUPP)
			snprintf(buf, len, "tracefs needs trace_clock boot "
				 "(Linux 4.10 or later)");
		else
			snprintf(buf, len, "tracefs: %s", strerror(-err));
		return;
	case CMD_RECORD_KSRC_KMSG:
		if (perm && cmd_record_dmesg_restricted())
			snprintf(buf, len, "the kernel log needs root or "
				 "CAP_SYSLOG (/dev/kmsg, as kernel."
				 "dmesg_restrict is 1)");
		else if (perm)
			snprintf(buf, len, "the kernel log needs read access "
				 "to /dev/kmsg (root)");
		else
			snprintf(buf, len, "the kernel log: /dev/kmsg: %s",
				 strerror(-err));
		return;
	case CMD_RECORD_KSRC_USBMON:
		if (err == -ENOENT)
			snprintf(buf, len, "usbmon needs %smodprobe usbmon",
				 root);
		else if (perm)
			snprintf(buf, len, "usbmon needs root (/dev/usbmon0)");
		else
			snprintf(buf, len, "usbmon: /dev/usbmon0: %s",
				 strerror(-err));
		return;
	case CMD_RECORD_KSRC_COUNT:
		break;
	}
	buf[0] = '\0';
}

/*
 * The needs of the sources @first to @last that failed (@err[k] set),
 * joined by "; " into @buf (CMD_RECORD_NEEDS_LEN bytes).  Return: @buf.
 */
static const char *cmd_record_needs(char *buf, const int *err,
				    enum cmd_record_ksrc first,
				    enum cmd_record_ksrc last)
{
	char need[CMD_RECORD_NEED_LEN];
	size_t n = 0;
	unsigned int k;

	buf[0] = '\0';
	for (k = first; k <= last; k++) {
		if (!err[k])
			continue;
		cmd_record_need(need, sizeof(need), k, err[k]);
		n += (size_t)snprintf(buf + n, CMD_RECORD_NEEDS_LEN - n,
				      "%s%s", n ? "; " : "", need);
		if (n >= CMD_RECORD_NEEDS_LEN)
			break;
	}
	return buf;
}

/*
 * The kernel trace source: --source, or the module if it is loaded, else
 * tracefs.  Return: 0 (also when neither opened under --source auto;
 * @err says why), or the negative errno of the source --source named.
 */
static int cmd_record_trace_source(struct cmd_record_ctx *x, int *err)
{
	unsigned int want = x->opts->source;
	int ret;

	if (want == CMD_RECORD_SOURCE_MODULE || want == CMD_RECORD_SOURCE_AUTO) {
		ret = src_module_open(cmd_record_next_src(x), x->rec);
		if (!ret) {
			const struct usbtrail_layout *lt, *lb;
			const struct usbtrail_info *in;

			in = src_module_info(cmd_record_next_src(x));
			if (in) {	/* kept: the source frees its own */
				x->module_info = *in;
				x->have_module_info = true;
			}
			src_module_layout(cmd_record_next_src(x), &lt, &lb);
			if (lt) {
				x->module_layout = *lt;
				x->module_layout_btf = *lb;
			}
			x->trace_source = "module";
			x->nsrc++;
			return 0;
		}
		err[CMD_RECORD_KSRC_MODULE] = ret;
		if (want == CMD_RECORD_SOURCE_MODULE)
			return ret;
	}
	ret = src_tracefs_open(cmd_record_next_src(x), x->rec);
	if (!ret) {
		x->trace_source = "tracefs";
		x->nsrc++;
		return 0;
	}
	err[CMD_RECORD_KSRC_TRACEFS] = ret;
	return want == CMD_RECORD_SOURCE_TRACEFS ? ret : 0;
}

/*
 * What a recording lacks without a kind of event, and the sources that
 * give it: the trace events come from the module or tracefs.
 */
static const struct {
	enum cmd_record_ksrc first, last;
	const char *what;	/* on stderr */
	const char *note;	/* in meta.json */
} cmd_record_parts[] = {
	{ CMD_RECORD_KSRC_MODULE, CMD_RECORD_KSRC_TRACEFS,
	  "the kernel's trace events", "no kernel trace events" },
	{ CMD_RECORD_KSRC_KMSG, CMD_RECORD_KSRC_KMSG,
	  "the kernel log", "no kernel log" },
	{ CMD_RECORD_KSRC_USBMON, CMD_RECORD_KSRC_USBMON,
	  "usbmon", "no usbmon capture" },
};
#define CMD_RECORD_NPARTS \
	(sizeof(cmd_record_parts) / sizeof(cmd_record_parts[0]))

/*
 * Those of the kernel's event sources that did not open (@err), when
 * others did: one line on stderr, and one note each in meta.json.
 */
static void cmd_record_say_missing(struct cmd_record_ctx *x, const int *err)
{
	char buf[CMD_RECORD_NEEDS_LEN];
	const char *what[CMD_RECORD_NPARTS];
	unsigned int i, n = 0;

	for (i = 0; i < CMD_RECORD_NPARTS; i++) {
		/* the trace source is missing only when neither opened */
		if ((i == 0 && x->trace_source) ||
		    !cmd_record_needs(buf, err, cmd_record_parts[i].first,
				      cmd_record_parts[i].last)[0])
			continue;
		what[n++] = cmd_record_parts[i].what;
		cmd_record_keep_note(x, "%s: %s", cmd_record_parts[i].note,
				     buf);
	}
	if (!n)
		return;
	fputs("usbtrail record: recording without ", stderr);
	for (i = 0; i < n; i++)
		fprintf(stderr, "%s%s", !i ? "" : i + 1 == n ? " and " : ", ",
			what[i]);
	fprintf(stderr, ": %s\n", cmd_record_needs(buf, err,
		x->trace_source ? CMD_RECORD_KSRC_KMSG : CMD_RECORD_KSRC_MODULE,
		CMD_RECORD_KSRC_USBMON));
}

/*
 * The kernel's event sources (the trace source, the kernel log, usbmon)
 * and sysfs.  Return: 0 when at least one event source opened (and the
 * one --source named, if any), else -ENOENT with x->no_source set, said
 * on stderr in one line that names what each source needs.
 */
static int cmd_record_open_sources(struct cmd_record_ctx *x)
{
	const struct cmd_record_opts *o = x->opts;
	int err[CMD_RECORD_KSRC_COUNT] = { 0 };
	char buf[CMD_RECORD_NEEDS_LEN];
	unsigned int opened;
	int ret, sysfs_err;

	/* first: what the user asked for by name fails before anything else */
	ret = cmd_record_trace_source(x, err);
	if (ret) {
		x->no_source = true;
		fprintf(stderr, "usbtrail record: --source %s: %s\n",
			cmd_record_sources[o->source],
			cmd_record_needs(buf, err, CMD_RECORD_KSRC_MODULE,
					 CMD_RECORD_KSRC_TRACEFS));
		return -ENOENT;
	}
	opened = x->trace_source != NULL;
	/* in this order, as ever: the devices are known before the log */
	sysfs_err = src_sysfs_open(cmd_record_next_src(x), x->rec);
	if (!sysfs_err)
		x->nsrc++;
	ret = src_kmsg_open(cmd_record_next_src(x), x->rec);
	if (!ret) {
		x->nsrc++;
		opened++;
	} else {
		err[CMD_RECORD_KSRC_KMSG] = ret;
	}
	if (o->pcap) {
		ret = src_usbmon_open(cmd_record_next_src(x), x->rec,
				      (uint32_t)o->payload,
				      (uint32_t)o->usbmon_ring);
		if (!ret) {
			size_t got = src_usbmon_ring(&x->src[x->nsrc]);

			if (got < o->usbmon_ring) {
				char a[32], b[32];

				util_format_size(a, sizeof(a), got);
				util_format_size(b, sizeof(b), o->usbmon_ring);
				cmd_record_note(x, "usbmon ring of %s, not the "
						"%s asked for (the kernel's "
						"most): URBs may be lost at "
						"large writes", a, b);
			}
			x->nsrc++;
			opened++;
		} else {
			err[CMD_RECORD_KSRC_USBMON] = ret;
		}
	}
	if (!opened) {
		x->no_source = true;
		fprintf(stderr, "usbtrail record: no event source could be "
			"opened: %s\n", cmd_record_needs(buf, err,
				CMD_RECORD_KSRC_MODULE, CMD_RECORD_KSRC_USBMON));
		return -ENOENT;
	}
	cmd_record_say_missing(x, err);
	if (sysfs_err)
		cmd_record_note(x, "no device identities from sysfs: %s",
				strerror(-sysfs_err));
	return 0;
}

static int cmd_record_open(struct cmd_record_ctx *x, int marker_rd)
{
	const struct cmd_record_opts *o = x->opts;
	char path[4200];
	int ret;

	ret = cmd_record_open_sources(x);
	if (ret)
		return ret;
	if (o->marker_code >= 0) {
		ret = src_evdev_open(cmd_record_next_src(x), x->rec,
				     o->marker_code, o->marker_device);
		if (ret) {
			fprintf(stderr, "usbtrail record: --marker-key: %s%s%s\n",
				o->marker_device ? o->marker_device : "",
				o->marker_device ? ": " : "", strerror(-ret));
			return ret;
		}
		x->nsrc++;
	}
	if (marker_rd >= 0) {
		ret = src_command_open(cmd_record_next_src(x), x->rec,
				       marker_rd);
		if (ret)
			return ret;
		x->nsrc++;
	}

	snprintf(path, sizeof(path), "%s/events.jsonl", x->dir);
	ret = sink_jsonl_open(&x->sink[x->nsink], path, 0);
	if (ret) {
		fprintf(stderr, "usbtrail record: cannot create %s: %s\n", path,
			strerror(-ret));
		return ret;
	}
	x->nsink++;
	/* always: the trace records are kept there (not only usbmon's) */
	snprintf(path, sizeof(path), "%s/capture.pcapng", x->dir);
	ret = sink_pcapng_open(&x->sink[x->nsink], path, rec_clock(x->rec));
	if (ret) {
		fprintf(stderr, "usbtrail record: cannot create %s: %s\n",
			path, strerror(-ret));
		return ret;
	}
	x->nsink++;
	ret = sink_journal_open(&x->sink[x->nsink], x->dir);
	if (!ret)
		x->nsink++;
	else
		cmd_record_note(x, "incidents not sent to the journal: %s",
				ret == -ENOENT ? "no systemd journal here" :
				strerror(-ret));
	if (!o->quiet) {
		sink_live_open(&x->sink[x->nsink], stdout);
		x->nsink++;
	}
	return 0;
}

/*
 * The recording's context: the recorder, the start times, and the uas
 * verdicts taken before anything runs (what the user plugged in).  NULL
 * on failure, said on stderr.
 */
static struct cmd_record_ctx *cmd_record_ctx_new(
	const struct cmd_record_opts *opts)
{
	struct cmd_record_ctx *x = calloc(1, sizeof(*x));

	if (!x)
		return NULL;
	x->opts = opts;
	snprintf(x->dir, sizeof(x->dir), "%s", opts->output_dir);
	x->rec = rec_new(&opts->dip);
	if (!x->rec) {
		fprintf(stderr, "usbtrail record: %s\n", strerror(errno));
		free(x);
		return NULL;
	}
	x->started = time(NULL);
	x->started_boot = ev_clock_now();
	x->uas = uas_verdicts_json(&x->uas_err);
	x->descriptors = meta_descriptors(x->uas);
	return x;
}

static void cmd_record_ctx_free(struct cmd_record_ctx *x)
{
	json_object_put(x->uas);
	json_object_put(x->descriptors);
	rec_free(x->rec);
	free(x);
}

/*
 * After a start that failed: what opened is closed (the tracefs instance
 * goes), and the files it made are removed: they hold no recording.
 */
static void cmd_record_abandon(struct cmd_record_ctx *x)
{
	unsigned int i;

	for (i = 0; i < x->nsrc; i++)
		if (x->src[i].close)
			x->src[i].close(&x->src[i], x->rec);
	for (i = 0; i < x->nsink; i++) {
		if (x->sink[i].close)
			x->sink[i].close(&x->sink[i]);
		if (x->sink[i].path[0])
			unlink(x->sink[i].path);
	}
	x->nsrc = 0;
	x->nsink = 0;
}

/*
 * Sources and sinks open and handed to the recorder, the first
 * meta.json written.  @marker_rd: the read end of COMMAND's marker pipe,
 * or -1, taken over (closed on failure).  Return: 0 or a negative errno
 * (said on stderr), with nothing left open or made but DIR.
 */
static int cmd_record_start(struct cmd_record_ctx *x, int marker_rd)
{
	unsigned int i;
	int ret;

	ret = cmd_record_open(x, marker_rd);
	if (ret) {
		/* the command source owns it once open, and is the last */
		if (marker_rd >= 0 && (!x->nsrc ||
		    x->src[x->nsrc - 1].id != EV_SRC_COMMAND))
			close(marker_rd);
		cmd_record_abandon(x);
		return ret;
	}
	for (i = 0; i < x->nsrc; i++)
		rec_add_source(x->rec, &x->src[i]);
	for (i = 0; i < x->nsink; i++)
		rec_add_sink(x->rec, &x->sink[i]);
	if (owner_error())
		cmd_record_note(x, "the recording's files are root's: they could "
				"not be given to the user behind sudo: %s",
				strerror(-owner_error()));
	ret = cmd_record_write_meta(x, false, 0);
	if (ret) {
		fprintf(stderr, "usbtrail record: cannot write %s/meta.json: %s\n",
			x->dir, strerror(-ret));
		cmd_record_abandon(x);
		return ret;
	}
	fprintf(stderr, "usbtrail record: recording into %s (kernel events: "
		"%s)%s\n", x->dir, x->trace_source ? x->trace_source : "none",
		x->opts->command ? "" : x->opts->duration_s ? "" :
		"; Ctrl-C stops");
	return 0;
}

/*
 * After rec_run() returned @ret: the final meta.json and the closing
 * lines.  Return: the exit status, COMMAND's when it ran and all went
 * well.
 */
static int cmd_record_finish(struct cmd_record_ctx *x, int ret)
{
	const struct rec_stats *st;
	const char *what = NULL;
	unsigned int i;
	int status;

	if (ret) {
		rec_sink_error(x->rec, &what);
		fprintf(stderr, "usbtrail record: %s%s%s%s; recording stopped, "
			"what was written is kept\n", what ? "writing " : "",
			what ? what : "", what ? ": " : "", strerror(-ret));
	}
	if (cmd_record_write_meta(x, true, ret))
		fprintf(stderr, "usbtrail record: cannot write %s/meta.json\n",
			x->dir);
	for (i = 0; i < x->nsink; i++)
		if (x->sink[i].failed)
			fprintf(stderr, "usbtrail record: %s: %llu event%s "
				"not passed on (they are in the recording)\n",
				x->sink[i].name,
				(unsigned long long)x->sink[i].failed,
				x->sink[i].failed == 1 ? "" : "s");
	st = rec_stats(x->rec);
	fprintf(stderr, "usbtrail record: %.1f s, %llu incident%s, files in %s\n",
		st->secs, (unsigned long long)st->incidents,
		st->incidents == 1 ? "" : "s", x->dir);
	status = ret ? CLI_EXIT_FAILURE : CLI_EXIT_OK;
	if (!ret && st->command_ran) {
		if (WIFEXITED(st->command_status))
			status = WEXITSTATUS(st->command_status);
		else if (WIFSIGNALED(st->command_status))
			status = 128 + WTERMSIG(st->command_status);
	}
	return status;
}

int cmd_record_main(int argc, char **argv)
{
	struct derive_opts dflt = DERIVE_OPTS_DEFAULT;
	struct cmd_record_opts opts = {
		.payload = CMD_RECORD_DEF_PAYLOAD,
		.usbmon_ring = SRC_USBMON_RING_MAX,
		.pcap = true,
		.source = CMD_RECORD_SOURCE_AUTO,
		.marker_code = -1,
		.dip = dflt,
	};
	struct cmd_record_ctx *x;
	struct owner sudo_user;
	struct rec_run_opts ro = { .marker_fd = -1 };
	sigset_t orig_mask;
	int pipefd[2] = { -1, -1 };
	bool help = false, made = false;
	int ret, status = CLI_EXIT_FAILURE;

	ret = cmd_record_parse(argc, argv, &opts, &help);
	if (ret)
		return ret;
	if (help) {
		fputs(cmd_record_help, stdout);
		return CLI_EXIT_OK;
	}
	/*
	 * Ctrl-C or SIGTERM from here on stops it cleanly: while it sets up,
	 * once rec_run() starts (no tracefs instance or kprobe left behind)
	 */
	if (rec_hold_signals(&orig_mask, false) == 0)
		ro.child_mask = &orig_mask;
	/* under sudo, what record makes is the user's (docs/record.md) */
	if (!owner_from_sudo(geteuid(), getenv("SUDO_UID"),
			     getenv("SUDO_GID"), &sudo_user))
		owner_set(&sudo_user);
	ret = cmd_record_mkdir(opts.output_dir, &made);
	if (ret) {
		fprintf(stderr, "usbtrail record: %s: %s\n", opts.output_dir,
			ret == -EEXIST ? "already holds a recording "
			"(events.jsonl); choose another directory" :
			strerror(-ret));
		goto out_rmdir;
	}
	x = cmd_record_ctx_new(&opts);
	if (!x)
		goto out_rmdir;

	if (opts.command && pipe2(pipefd, O_CLOEXEC) == 0) {
		/* the write end goes to COMMAND: not close-on-exec */
		fcntl(pipefd[1], F_SETFD, 0);
		/*
		 * ours never blocks: a child COMMAND left behind (a shell's
		 * sleep) may hold the write end open after COMMAND is gone,
		 * and the last read, at the end, must not wait for it
		 */
		fcntl(pipefd[0], F_SETFL, O_NONBLOCK);
		ro.marker_fd = pipefd[1];
	}
	ret = cmd_record_start(x, pipefd[0]);
	if (ret) {
		if (ro.marker_fd >= 0)
			close(ro.marker_fd);
		if (x->no_source)
			status = CMD_RECORD_EXIT_NO_SOURCE;
		cmd_record_ctx_free(x);
		goto out_rmdir;
	}

	ro.duration_s = opts.duration_s;
	ro.grace_s = opts.grace_s;
	ro.command = opts.command;
	ret = rec_run(x->rec, &ro);
	status = cmd_record_finish(x, ret);
	cmd_record_ctx_free(x);
	return status;

out_rmdir:
	/* left as it was: removed only if made here, and only if empty */
	if (made)
		rmdir(opts.output_dir);
	return status;
}
