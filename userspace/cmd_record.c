// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_record.c - "usbtrail record": options of the recorder that merges
 * USB, SCSI, kernel-log, usbmon and throughput events into one timeline.
 *
 * This file is the command: options, the output directory and meta.json,
 * and which sources and sinks to open (record.h); record.c runs them.
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
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libevdev/libevdev.h>

#include "cli.h"
#include "evjson.h"
#include "record.h"
#include "uas_probe.h"
#include "util.h"

#define CMD_RECORD_NAME		"record"
#ifndef USBTRAIL_VERSION
#define USBTRAIL_VERSION	"unknown"	/* unit-test builds */
#endif
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
	bool payload_set;		/* --payload given: bytes kept on purpose */
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
"events.jsonl (every event), capture.pcapng (usbmon packets and kernel\n"
"lines for Wireshark) and meta.json (kernel, sources, losses, the 'usbtrail\n"
"uas' verdicts); incidents also go to the systemd journal when there is\n"
"one.  Needs root (or CAP_SYS_ADMIN and read access to /dev/kmsg).\n"
"Exit status: COMMAND's, or 0; 1 if recording failed (e.g. a full disk:\n"
"what was written stays valid); 2 for usage errors.\n";

enum {
	CMD_RECORD_OPT_DURATION = 256,
	CMD_RECORD_OPT_PAYLOAD,
	CMD_RECORD_OPT_NO_PCAP,
	CMD_RECORD_OPT_SOURCE,
	CMD_RECORD_OPT_MARKER_KEY,
	CMD_RECORD_OPT_MARKER_DEVICE,
	CMD_RECORD_OPT_INTERVAL,
	CMD_RECORD_OPT_DIP_FRACTION,
	CMD_RECORD_OPT_DIP_INTERVALS,
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
	static const char optstring[] = "+:hqo:";
	static const struct option longopts[] = {
		{ "help",	   no_argument,	      NULL, 'h' },
		{ "output",	   required_argument, NULL, 'o' },
		{ "duration",	   required_argument, NULL, CMD_RECORD_OPT_DURATION },
		{ "payload",	   required_argument, NULL, CMD_RECORD_OPT_PAYLOAD },
		{ "no-pcap",	   no_argument,	      NULL, CMD_RECORD_OPT_NO_PCAP },
		{ "source",	   required_argument, NULL, CMD_RECORD_OPT_SOURCE },
		{ "marker-key",	   required_argument, NULL, CMD_RECORD_OPT_MARKER_KEY },
		{ "marker-device", required_argument, NULL, CMD_RECORD_OPT_MARKER_DEVICE },
		{ "interval",	   required_argument, NULL, CMD_RECORD_OPT_INTERVAL },
		{ "dip-fraction",  required_argument, NULL, CMD_RECORD_OPT_DIP_FRACTION },
		{ "dip-intervals", required_argument, NULL, CMD_RECORD_OPT_DIP_INTERVALS },
		{ "quiet",	   no_argument,	      NULL, 'q' },
		{ NULL,		   0,		      NULL, 0 }
	};
	uint64_t v;
	double f;
	char *end;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			*help = true;
			return 0;
		case 'q':
			opts->quiet = true;
			break;
		case CMD_RECORD_OPT_INTERVAL:
			if (cli_parse_number(CMD_RECORD_NAME, "--interval",
					     optarg, 0, 10, 10000, &v))
				return CLI_EXIT_USAGE;
			opts->dip.interval_ms = (unsigned int)v;
			break;
		case CMD_RECORD_OPT_DIP_INTERVALS:
			if (cli_parse_number(CMD_RECORD_NAME, "--dip-intervals",
					     optarg, 0, 1, 1000, &v))
				return CLI_EXIT_USAGE;
			opts->dip.dip_intervals = (unsigned int)v;
			break;
		case CMD_RECORD_OPT_DIP_FRACTION:
			errno = 0;
			f = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(f >= 0.05) ||
			    !(f <= 0.95))
				return cli_usage_error(CMD_RECORD_NAME,
					"--dip-fraction wants a number from 0.05 to 0.95, not '%s'",
					optarg);
			opts->dip.dip_fraction = f;
			break;
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
			opts->payload_set = true;
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

/* --- meta.json ----------------------------------------------------------- */

struct cmd_record_ctx {
	const struct cmd_record_opts *opts;
	char dir[4096];
	struct rec *rec;
	struct rec_source src[REC_SOURCES_MAX];
	unsigned int nsrc;
	struct rec_sink sink[REC_SINKS_MAX];
	unsigned int nsink;
	const char *trace_source;	/* "module", "tracefs", or NULL */
	struct json_object *uas;
	struct json_object *descriptors;	/* "2-1": hex, for the report */
	int uas_err;
	char notes[8][256];
	unsigned int nnotes;
	time_t started;
	uint64_t started_boot;
};

static void cmd_record_note(struct cmd_record_ctx *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

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

static void cmd_record_boot_id(char *buf, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");

	buf[0] = '\0';
	if (f) {
		if (fgets(buf, (int)len, f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
}

/*
 * usbtrail.ko's counters at the end (docs/module.md: debugfs stats, disks,
 * usb), as the module prints them: what a maintainer asks for beside the
 * events.  NULL members where debugfs is not there.
 */
static struct json_object *cmd_record_module_counters(void)
{
	static const char *const files[] = { "stats", "disks", "usb" };
	struct json_object *o = json_object_new_object();
	char path[64], *buf;
	size_t i, n;
	FILE *f;

	buf = malloc(65536);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "/sys/kernel/debug/usbtrail/%s",
			 files[i]);
		f = buf ? fopen(path, "re") : NULL;
		if (!f) {
			json_object_object_add(o, files[i], NULL);
			continue;
		}
		n = fread(buf, 1, 65535, f);
		fclose(f);
		json_object_object_add(o, files[i],
				       json_object_new_string_len(buf, (int)n));
	}
	free(buf);
	return o;
}

static struct json_object *cmd_record_meta(struct cmd_record_ctx *x,
					   bool done, int result)
{
	const struct ev_clock *clk = rec_clock(x->rec);
	struct json_object *o = json_object_new_object(), *a, *k;
	const struct rec_stats *st = rec_stats(x->rec);
	struct utsname u;
	char buf[128];
	unsigned int i;

	json_object_object_add(o, "format", json_object_new_string(
		"usbtrail-recording"));
	json_object_object_add(o, "format_version", json_object_new_int(1));
	json_object_object_add(o, "usbtrail", json_object_new_string(
		USBTRAIL_VERSION));
	if (!uname(&u)) {
		k = json_object_new_object();
		json_object_object_add(k, "release",
				       json_object_new_string(u.release));
		json_object_object_add(k, "version",
				       json_object_new_string(u.version));
		json_object_object_add(k, "machine",
				       json_object_new_string(u.machine));
		json_object_object_add(k, "hostname",
				       json_object_new_string(u.nodename));
		json_object_object_add(o, "kernel", k);
	}
	cmd_record_boot_id(buf, sizeof(buf));
	json_object_object_add(o, "boot_id", json_object_new_string(buf));
	json_object_object_add(o, "clock", json_object_new_string("boottime"));
	json_object_object_add(o, "boot_to_realtime_ns",
			       json_object_new_int64(clk->boot_to_real_ns));
	json_object_object_add(o, "monotonic_to_boot_ns",
			       json_object_new_int64(clk->mono_to_boot_ns));
	/* the report's bundle keeps URB data only if asked for on purpose */
	json_object_object_add(o, "payload", json_object_new_int64(
		x->opts->pcap ? (int64_t)x->opts->payload : 0));
	json_object_object_add(o, "payload_set", json_object_new_boolean(
		x->opts->payload_set));
	json_object_object_add(o, "started", json_object_new_int64(x->started));
	snprintf(buf, sizeof(buf), "%.9f", (double)x->started_boot / 1e9);
	json_object_object_add(o, "started_t", json_object_new_double_s(
		(double)x->started_boot / 1e9, buf));
	if (x->opts->command) {
		a = json_object_new_array();
		for (i = 0; x->opts->command[i]; i++)
			json_object_array_add(a, json_object_new_string(
				x->opts->command[i]));
		json_object_object_add(o, "command", a);
	}
	json_object_object_add(o, "trace_source", x->trace_source ?
			       json_object_new_string(x->trace_source) : NULL);
	a = json_object_new_array();
	for (i = 0; i < x->nsrc; i++) {
		k = json_object_new_object();
		json_object_object_add(k, "name",
				       json_object_new_string(x->src[i].name));
		json_object_object_add(k, "events",
				       json_object_new_uint64(x->src[i].events));
		json_object_object_add(k, "lost",
				       json_object_new_uint64(x->src[i].lost));
		json_object_object_add(k, "malformed",
				       json_object_new_uint64(x->src[i].malformed));
		json_object_array_add(a, k);
	}
	json_object_object_add(o, "sources", a);
	a = json_object_new_array();
	for (i = 0; i < x->nsink; i++) {
		k = json_object_new_object();
		json_object_object_add(k, "name",
				       json_object_new_string(x->sink[i].name));
		if (x->sink[i].path[0]) {
			const char *base = strrchr(x->sink[i].path, '/');

			json_object_object_add(k, "file", json_object_new_string(
				base ? base + 1 : x->sink[i].path));
		}
		json_object_object_add(k, "events",
				       json_object_new_uint64(x->sink[i].written));
		json_object_object_add(k, "failed",
				       json_object_new_uint64(x->sink[i].failed));
		json_object_array_add(a, k);
	}
	json_object_object_add(o, "sinks", a);
	a = json_object_new_array();
	for (i = 0; i < x->nnotes; i++)
		json_object_array_add(a, json_object_new_string(x->notes[i]));
	json_object_object_add(o, "notes", a);
	json_object_object_add(o, "uas", x->uas ? json_object_get(x->uas) :
			       NULL);
	if (x->descriptors)
		json_object_object_add(o, "descriptors",
				       json_object_get(x->descriptors));
	if (!x->uas)
		json_object_object_add(o, "uas_error", json_object_new_string(
			strerror(-x->uas_err)));

	k = json_object_new_object();
	json_object_object_add(k, "interval_ms",
			       json_object_new_int(x->opts->dip.interval_ms));
	json_object_object_add(k, "dip_fraction",
			       json_object_new_double(x->opts->dip.dip_fraction));
	json_object_object_add(k, "dip_intervals",
			       json_object_new_int(x->opts->dip.dip_intervals));
	json_object_object_add(o, "throughput", k);

	json_object_object_add(o, "complete", json_object_new_boolean(done));
	if (done && x->trace_source && !strcmp(x->trace_source, "module"))
		json_object_object_add(o, "module_counters",
				       cmd_record_module_counters());
	if (done) {
		k = json_object_new_object();
		for (i = 0; i < CLASSIFY_KIND_COUNT; i++)
			if (st->by_kind[i])
				json_object_object_add(k, classify_kind_name(i),
					json_object_new_uint64(st->by_kind[i]));
		json_object_object_add(o, "incidents", k);
		k = json_object_new_object();
		for (i = 1; i < EV_TYPE_MAX; i++)
			json_object_object_add(k, ev_type_name(i),
				json_object_new_uint64(st->by_type[i]));
		json_object_object_add(o, "events", k);
		json_object_object_add(o, "dropped",
				       json_object_new_uint64(st->dropped));
		snprintf(buf, sizeof(buf), "%.3f", st->secs);
		json_object_object_add(o, "seconds",
				       json_object_new_double_s(st->secs, buf));
		json_object_object_add(o, "stopped_by", json_object_new_string(
			result ? "error" : st->signal ? strsignal(st->signal) :
			st->command_ran && !st->duration_ended ? "command exit" :
			x->opts->duration_s ? "duration" : "end"));
		if (result)
			json_object_object_add(o, "error", json_object_new_string(
				strerror(-result)));
		if (st->command_ran) {
			int s = st->command_status;

			json_object_object_add(o, "command_exit", WIFEXITED(s) ?
				json_object_new_int(WEXITSTATUS(s)) : NULL);
			if (WIFSIGNALED(s))
				json_object_object_add(o, "command_signal",
					json_object_new_int(WTERMSIG(s)));
		}
	}
	return o;
}

/*
 * The raw descriptors (sysfs "descriptors": the device descriptor, then
 * each configuration as the device sent it) of every USB storage device
 * the uas verdicts name, as {"2-1": "hex"}: the bug-report bundle prints
 * them lsusb -v style.  NULL if there are none.
 */
static struct json_object *cmd_record_descriptors(struct json_object *uas)
{
	static const char digits[] = "0123456789abcdef";
	struct json_object *o = NULL, *e, *u;
	uint8_t buf[8192];
	char path[128], *hex;
	size_t i, k;
	ssize_t n;
	int fd;

	for (i = 0; uas && i < json_object_array_length(uas); i++) {
		const char *usb;

		e = json_object_array_get_idx(uas, i);
		if (!json_object_object_get_ex(e, "usb", &u) ||
		    !json_object_is_type(u, json_type_string))
			continue;
		usb = json_object_get_string(u);
		/* a port path, nothing that could leave the directory */
		if (!*usb || strspn(usb, "0123456789-.") != strlen(usb) ||
		    (o && json_object_object_get_ex(o, usb, NULL)))
			continue;
		snprintf(path, sizeof(path), "/sys/bus/usb/devices/%s/descriptors",
			 usb);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf));
		close(fd);
		if (n <= 0)
			continue;
		hex = malloc(2 * (size_t)n + 1);
		if (!hex)
			continue;
		for (k = 0; k < (size_t)n; k++) {
			hex[2 * k] = digits[buf[k] >> 4];
			hex[2 * k + 1] = digits[buf[k] & 15];
		}
		hex[2 * n] = '\0';
		if (!o)
			o = json_object_new_object();
		if (o)
			json_object_object_add(o, usb,
					       json_object_new_string(hex));
		free(hex);
	}
	return o;
}

/*
 * Whole or not at all: a temporary file renamed over meta.json.  The
 * first meta.json is padded with spaces (valid JSON) to reserve room: if
 * the disk is full by the end, the final one is written over it in place
 * when it fits, so a full disk still leaves the counts of the recording.
 */
#define CMD_RECORD_META_RESERVE	(64 * 1024)

static int cmd_record_write_meta(struct cmd_record_ctx *x, bool done,
				 int result)
{
	struct json_object *o = cmd_record_meta(x, done, result);
	char tmp[4200], path[4200];
	size_t n, pad = 0;
	char *buf = NULL;
	const char *s;
	struct stat st;
	int fd, ret = 0;

	snprintf(tmp, sizeof(tmp), "%s/.meta.json.tmp", x->dir);
	snprintf(path, sizeof(path), "%s/meta.json", x->dir);
	s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
					   JSON_C_TO_STRING_NOSLASHESCAPE);
	n = strlen(s);
	if (!done && n + 1 < CMD_RECORD_META_RESERVE)
		pad = CMD_RECORD_META_RESERVE - n - 1;
	buf = malloc(n + 1 + pad);
	if (!buf) {
		json_object_put(o);
		return -ENOMEM;
	}
	memcpy(buf, s, n);
	buf[n] = '\n';
	memset(buf + n + 1, ' ', pad);
	json_object_put(o);

	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
	} else {
		ret = util_write_all(fd, buf, n + 1 + pad, NULL);
		if (close(fd) && !ret)
			ret = -errno;
		if (!ret && rename(tmp, path))
			ret = -errno;
		if (ret)
			unlink(tmp);
	}
	/* no room for a new file: over the reserved old one, if it fits */
	if (ret && done && !stat(path, &st) && (size_t)st.st_size >= n + 1) {
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd >= 0) {
			ret = util_write_all(fd, buf, n + 1, NULL);
			/* spaces after the JSON: still one valid document */
			if (!ret && (size_t)st.st_size > n + 1) {
				char *sp = malloc((size_t)st.st_size - n - 1);

				if (sp) {
					memset(sp, ' ', (size_t)st.st_size - n - 1);
					ret = util_write_all(fd, sp,
						(size_t)st.st_size - n - 1, NULL);
					free(sp);
				} else {
					ret = ftruncate(fd, (off_t)n + 1) ?
					      -errno : 0;
				}
			}
			if (close(fd) && !ret)
				ret = -errno;
		}
	}
	free(buf);
	return ret;
}

/* --- setting up ------------------------------------------------------------ */

static int cmd_record_mkdir(const char *dir)
{
	char probe[4200];
	struct stat st;

	if (mkdir(dir, 0755) && errno != EEXIST)
		return -errno;
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

/* The kernel trace source: --source, or the module if it is loaded. */
static int cmd_record_trace_source(struct cmd_record_ctx *x)
{
	unsigned int want = x->opts->source;
	int ret = -ENOENT;

	if (want == CMD_RECORD_SOURCE_MODULE || want == CMD_RECORD_SOURCE_AUTO) {
		ret = src_module_open(cmd_record_next_src(x), x->rec);
		if (!ret) {
			x->trace_source = "module";
			x->nsrc++;
			return 0;
		}
		if (want == CMD_RECORD_SOURCE_MODULE) {
			fprintf(stderr, "usbtrail record: cannot read %s: %s%s\n",
				USBTRAIL_DEVICE, strerror(-ret),
				ret == -ENOENT ? " (is usbtrail.ko loaded? "
				"see docs/module.md, or use --source tracefs)" :
				ret == -EBUSY ? " (another reader has it)" :
				ret == -EPROTO ? " (module and command are "
				"from different versions)" : "");
			return ret;
		}
	}
	ret = src_tracefs_open(cmd_record_next_src(x), x->rec);
	if (!ret) {
		x->trace_source = "tracefs";
		x->nsrc++;
		return 0;
	}
	if (want == CMD_RECORD_SOURCE_TRACEFS) {
		fprintf(stderr, "usbtrail record: cannot trace through tracefs: "
			"%s%s\n", strerror(-ret), ret == -ENOENT ?
			" (mount it: mount -t tracefs nodev /sys/kernel/tracing)" :
			"");
		return ret;
	}
	cmd_record_note(x, "no kernel trace events (module: not loaded; "
			"tracefs: %s): only the kernel log and usbmon",
			strerror(-ret));
	return 0;
}

static int cmd_record_open(struct cmd_record_ctx *x, int marker_rd)
{
	const struct cmd_record_opts *o = x->opts;
	char path[4200];
	int ret;

	/* first: what the user asked for by name fails before anything else */
	ret = cmd_record_trace_source(x);
	if (ret)
		return ret;
	ret = src_sysfs_open(cmd_record_next_src(x), x->rec);
	if (!ret)
		x->nsrc++;
	else
		cmd_record_note(x, "no device identities from sysfs: %s",
				strerror(-ret));
	ret = src_kmsg_open(cmd_record_next_src(x), x->rec);
	if (!ret)
		x->nsrc++;
	else
		cmd_record_note(x, "no kernel log (/dev/kmsg: %s)",
				strerror(-ret));
	if (o->pcap) {
		ret = src_usbmon_open(cmd_record_next_src(x), x->rec,
				      (uint32_t)o->payload);
		if (!ret)
			x->nsrc++;
		else
			cmd_record_note(x, "no usbmon capture (/dev/usbmon0: %s%s)",
					strerror(-ret), ret == -ENOENT ?
					"; modprobe usbmon" : "");
	}
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
	ret = sink_jsonl_open(&x->sink[x->nsink], path);
	if (ret) {
		fprintf(stderr, "usbtrail record: cannot create %s: %s\n", path,
			strerror(-ret));
		return ret;
	}
	x->nsink++;
	if (o->pcap) {
		snprintf(path, sizeof(path), "%s/capture.pcapng", x->dir);
		ret = sink_pcapng_open(&x->sink[x->nsink], path,
				       rec_clock(x->rec));
		if (ret) {
			fprintf(stderr, "usbtrail record: cannot create %s: %s\n",
				path, strerror(-ret));
			return ret;
		}
		x->nsink++;
	}
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

int cmd_record_main(int argc, char **argv)
{
	struct derive_opts dflt = DERIVE_OPTS_DEFAULT;
	struct cmd_record_opts opts = {
		.payload = CMD_RECORD_DEF_PAYLOAD,
		.pcap = true,
		.source = CMD_RECORD_SOURCE_AUTO,
		.marker_code = -1,
		.dip = dflt,
	};
	struct cmd_record_ctx *x;
	struct rec_run_opts ro = { .marker_fd = -1 };
	const struct rec_stats *st;
	int pipefd[2] = { -1, -1 };
	const char *what = NULL;
	bool help = false;
	unsigned int i;
	int ret, status = CLI_EXIT_FAILURE;

	ret = cmd_record_parse(argc, argv, &opts, &help);
	if (ret)
		return ret;
	if (help) {
		fputs(cmd_record_help, stdout);
		return CLI_EXIT_OK;
	}
	ret = cmd_record_mkdir(opts.output_dir);
	if (ret) {
		fprintf(stderr, "usbtrail record: %s: %s\n", opts.output_dir,
			ret == -EEXIST ? "already holds a recording "
			"(events.jsonl); choose another directory" :
			strerror(-ret));
		return CLI_EXIT_FAILURE;
	}
	x = calloc(1, sizeof(*x));
	if (!x)
		return CLI_EXIT_FAILURE;
	x->opts = &opts;
	snprintf(x->dir, sizeof(x->dir), "%s", opts.output_dir);
	x->rec = rec_new(&opts.dip);
	if (!x->rec) {
		fprintf(stderr, "usbtrail record: %s\n", strerror(errno));
		free(x);
		return CLI_EXIT_FAILURE;
	}
	x->started = time(NULL);
	x->started_boot = ev_clock_now();
	/* the verdicts before anything runs: what the user plugged in */
	x->uas = uas_verdicts_json(&x->uas_err);
	x->descriptors = cmd_record_descriptors(x->uas);

	if (opts.command && pipe2(pipefd, O_CLOEXEC) == 0) {
		/* the write end goes to COMMAND: not close-on-exec */
		fcntl(pipefd[1], F_SETFD, 0);
		ro.marker_fd = pipefd[1];
	}
	ret = cmd_record_open(x, pipefd[0]);
	if (ret)
		goto out;
	for (i = 0; i < x->nsrc; i++)
		rec_add_source(x->rec, &x->src[i]);
	for (i = 0; i < x->nsink; i++)
		rec_add_sink(x->rec, &x->sink[i]);
	ret = cmd_record_write_meta(x, false, 0);
	if (ret) {
		fprintf(stderr, "usbtrail record: cannot write %s/meta.json: %s\n",
			x->dir, strerror(-ret));
		goto out;
	}
	fprintf(stderr, "usbtrail record: recording into %s (kernel events: "
		"%s)%s\n", x->dir, x->trace_source ? x->trace_source : "none",
		opts.command ? "" : opts.duration_s ? "" :
		"; Ctrl-C stops");

	ro.duration_s = opts.duration_s;
	ro.command = opts.command;
	ret = rec_run(x->rec, &ro);
	ro.marker_fd = -1;		/* rec_run() closed it */
	pipefd[0] = -1;			/* the command source closed it */
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
out:
	if (ret && ro.marker_fd >= 0)
		close(ro.marker_fd);
	if (ret && pipefd[0] >= 0 && x->nsrc == 0)
		close(pipefd[0]);
	json_object_put(x->uas);
	json_object_put(x->descriptors);
	rec_free(x->rec);
	free(x);
	return status;
}
