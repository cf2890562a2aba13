// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_analyze.c - "usbtrail analyze": the USB storage incidents in any
 * kernel log a user has: files (plain or compressed), standard input,
 * /dev/kmsg, the journal, a recording or a test-bed directory.
 *
 * Data flow: loginput.c (bytes, decompressed) -> a bounded line cutter
 * here -> struct kmsg_stream (kmsg.c: forms, wrappers, clocks, order,
 * boots) -> classify.c (incidents, the device summary) -> one text line
 * or one JSON object per incident, then the devices, the advice and a
 * summary.  The input is streamed: memory does not grow with its size.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <systemd/sd-journal.h>
#include <time.h>
#include <unistd.h>

#include "classify.h"
#include "cli.h"
#include "datatab.h"
#include "derive.h"
#include "devmap.h"
#include "evjson.h"
#include "kmsg.h"
#include "loginput.h"
#include "recording.h"
#include "report.h"

#define CMD_ANALYZE_NAME	"analyze"

#ifndef USBTRAIL_VERSION
#define USBTRAIL_VERSION	"unknown"
#endif

/* Exit statuses of analyze (docs/analyze.md, usbtrail.1) */
enum {
	CMD_ANALYZE_EXIT_NONE = 0,	/* read, no incident */
	CMD_ANALYZE_EXIT_FOUND = 3,	/* read, incidents found */
	CMD_ANALYZE_EXIT_NOT_LOG = 4,	/* read, nothing was a kernel log */
};

#define CMD_ANALYZE_INPUTS_MAX	64

struct cmd_analyze_time {
	bool set;
	enum kmsg_clock clock;		/* MONO, WALL (no year) or REAL */
	double t;
};

struct cmd_analyze_opts {
	bool json;
	bool rows;			/* --rows: each line's table row */
	bool rederive;			/* --rederive: incidents made again */
	bool follow;
	bool journal;
	int boot;			/* -b N: 0 this boot, -1 the one before */
	bool boot_set;
	const char *boot_id;		/* -b ID */
	const char *journal_dir;	/* -D DIR */
	const char *dev;		/* --dev: a disk or a USB path */
	char dev_norm[CLASSIFY_DEV_MAX];
	struct cmd_analyze_time since, until;
	const char *inputs[CMD_ANALYZE_INPUTS_MAX];
	unsigned int ninputs;
};

const char cmd_analyze_help[] =
"Usage: usbtrail analyze [OPTIONS] FILE|DIR|-...\n"
"       usbtrail analyze [OPTIONS] -k|--journal [-b N] [-D DIR]\n"
"\n"
"Name the USB storage incidents (sense errors, command timeouts, aborts,\n"
"resets, I/O errors, disconnects, dead host controllers, enumeration and\n"
"link failures, file system errors, ...) in a kernel log, and say what\n"
"to try next.  FILE is any kernel log as people paste it: dmesg (any of\n"
"its time formats), journalctl (short forms, json, export, cat), syslog\n"
"(RFC 3164 and 5424, kern.log, busybox, OpenWrt logread, metalog),\n"
"talosctl, logcat; indented, quoted, numbered or prefixed by grep; plain\n"
"or compressed (gzip, xz, zstd, bzip2).  Several files are read in\n"
"order.  '-' reads standard input; /dev/kmsg is read to its end.  DIR\n"
"is a recording of 'usbtrail record' (or its events.jsonl), whose\n"
"incidents are the ones 'usbtrail report' shows, or a test-bed output\n"
"directory.\n"
"\n"
"Options:\n"
"  -k, --journal     read the kernel messages of the systemd journal\n"
"  -b, --boot N|ID   with --journal: boot N (0 this one, -1 the one\n"
"                    before) or the boot with that id; default 0\n"
"  -D, --directory DIR  with --journal: the journal files in DIR; those\n"
"                    of several machines (a log server's) are read\n"
"                    each apart, under a heading naming the host\n"
"  -f, --follow      keep reading /dev/kmsg (or the journal) for new\n"
"                    messages until interrupted\n"
"      --since TIME  only incidents at or after TIME: seconds since boot\n"
"                    (218.3), or a wall-clock time as the log has it\n"
"                    (\"2026-11-29 23:10:27\", \"Nov 29 23:10:27\")\n"
"      --until TIME  only incidents at or before TIME\n"
"      --dev NAME    only incidents of this disk (sdc, /dev/sdc) or USB\n"
"                    device path (2-1.4)\n"
"      --json        one JSON object per incident, then a summary object\n"
"      --rederive    a recording's incidents made again from its kernel\n"
"                    lines and trace records (for a recording made by\n"
"                    an older usbtrail) instead of the ones it stored\n"
"      --rows        print, for every kernel message, the row of\n"
"                    data/kmsg-formats.tsv it matched (or '-'), on stderr\n"
"  -h, --help        show this help and exit\n"
"\n"
"Exit status: 0 no incident, 3 incidents found, 4 nothing read was a\n"
"kernel log, 1 an input could not be read, 2 usage error.\n";

enum {
	CMD_ANALYZE_OPT_JSON = 256,
	CMD_ANALYZE_OPT_SINCE,
	CMD_ANALYZE_OPT_UNTIL,
	CMD_ANALYZE_OPT_DEV,
	CMD_ANALYZE_OPT_ROWS,
	CMD_ANALYZE_OPT_REDERIVE,
};

/* "218.3" (since boot), "2026-11-29 23:10:27", "Nov 29 23:10:27" */
static int cmd_analyze_parse_time(const char *s, struct cmd_analyze_time *t)
{
	struct kmsg_record r;
	char line[128];
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end != s && !*end && !errno && v >= 0) {
		t->set = true;
		t->clock = KMSG_CLOCK_MONO;
		t->t = v;
		return 0;
	}
	/* as a syslog or dmesg --time-format iso stamp would be parsed */
	snprintf(line, sizeof(line), "%s%s x", s, strlen(s) == 16 ? ":00" : "");
	if (kmsg_parse_line(line, strlen(line), &r) ||
	    r.wall_clock == KMSG_CLOCK_NONE) {
		/* "2026-11-29" alone */
		snprintf(line, sizeof(line), "%s 00:00:00 x", s);
		if (kmsg_parse_line(line, strlen(line), &r) ||
		    r.wall_clock == KMSG_CLOCK_NONE)
			return -EINVAL;
	}
	t->set = true;
	t->clock = r.wall_clock;
	t->t = r.wall;
	return 0;
}

static void cmd_analyze_norm_dev(struct cmd_analyze_opts *o)
{
	const char *d = o->dev;
	size_t n;

	if (!strncmp(d, "/dev/", 5))
		d += 5;
	snprintf(o->dev_norm, sizeof(o->dev_norm), "%s", d);
	n = strlen(o->dev_norm);
	/* sdc1 -> sdc: a partition stands for its disk */
	if (!strncmp(o->dev_norm, "sd", 2))
		while (n > 2 && o->dev_norm[n - 1] >= '0' &&
		       o->dev_norm[n - 1] <= '9')
			o->dev_norm[--n] = '\0';
}

/* --boot: 0, -N (the boots before) or a boot id.  0 or CLI_EXIT_USAGE. */
static int cmd_analyze_parse_boot(const char *arg,
				  struct cmd_analyze_opts *opts)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (end != arg && !*end && !errno && v <= 0 && v > -100000) {
		opts->boot = (int)v;
	} else if (strlen(arg) == 32 &&
		   strspn(arg, "0123456789abcdef") == 32) {
		opts->boot_id = arg;
	} else {
		return cli_usage_error(CMD_ANALYZE_NAME,
			"--boot takes 0, a negative number or a "
			"32-digit boot id, not '%s'", arg);
	}
	opts->boot_set = true;
	return 0;
}

static int cmd_analyze_parse_args(int argc, char **argv,
				  struct cmd_analyze_opts *opts);

static int cmd_analyze_parse(int argc, char **argv,
			     struct cmd_analyze_opts *opts, bool *help)
{
	static const char optstring[] = ":hkb:D:f";
	static const struct option longopts[] = {
		{ "help",	no_argument,		NULL, 'h' },
		{ "json",	no_argument,		NULL, CMD_ANALYZE_OPT_JSON },
		{ "journal",	no_argument,		NULL, 'k' },
		{ "boot",	required_argument,	NULL, 'b' },
		{ "directory",	required_argument,	NULL, 'D' },
		{ "follow",	no_argument,		NULL, 'f' },
		{ "since",	required_argument,	NULL, CMD_ANALYZE_OPT_SINCE },
		{ "until",	required_argument,	NULL, CMD_ANALYZE_OPT_UNTIL },
		{ "dev",	required_argument,	NULL, CMD_ANALYZE_OPT_DEV },
		{ "rows",	no_argument,		NULL, CMD_ANALYZE_OPT_ROWS },
		{ "rederive",	no_argument,		NULL, CMD_ANALYZE_OPT_REDERIVE },
		{ NULL,		0,			NULL, 0 }
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
		case CMD_ANALYZE_OPT_ROWS:
			opts->rows = true;
			break;
		case CMD_ANALYZE_OPT_REDERIVE:
			opts->rederive = true;
			break;
		case 'k':
			opts->journal = true;
			break;
		case 'b':
			if (cmd_analyze_parse_boot(optarg, opts))
				return CLI_EXIT_USAGE;
			break;
		case 'D':
			if (!*optarg)
				return cli_usage_error(CMD_ANALYZE_NAME,
					"--directory must not be empty");
			opts->journal_dir = optarg;
			break;
		case 'f':
			opts->follow = true;
			break;
		case CMD_ANALYZE_OPT_SINCE:
		case CMD_ANALYZE_OPT_UNTIL:
			if (cmd_analyze_parse_time(optarg, c == CMD_ANALYZE_OPT_SINCE ?
						   &opts->since : &opts->until))
				return cli_usage_error(CMD_ANALYZE_NAME,
					"%s takes seconds since boot or a time "
					"like \"2026-11-29 23:10:27\" or \"Nov 29 "
					"23:10:27\", not '%s'",
					c == CMD_ANALYZE_OPT_SINCE ? "--since" :
					"--until", optarg);
			break;
		case CMD_ANALYZE_OPT_DEV:
			if (!*optarg)
				return cli_usage_error(CMD_ANALYZE_NAME,
						       "--dev must not be empty");
			opts->dev = optarg;
			cmd_analyze_norm_dev(opts);
			break;
		default:
			return cli_getopt_error(CMD_ANALYZE_NAME, c, argv,
						optstring, longopts);
		}
	}
	return cmd_analyze_parse_args(argc, argv, opts);
}

/* The inputs, and the options that need or exclude each other. */
static int cmd_analyze_parse_args(int argc, char **argv,
				  struct cmd_analyze_opts *opts)
{
	if ((opts->boot_set || opts->journal_dir) && !opts->journal)
		return cli_usage_error(CMD_ANALYZE_NAME,
				       "--boot and --directory go with --journal");
	if (opts->journal && optind < argc)
		return cli_usage_error(CMD_ANALYZE_NAME,
				       "--journal reads no FILE ('%s')",
				       argv[optind]);
	if (!opts->journal && optind >= argc)
		return cli_usage_error(CMD_ANALYZE_NAME,
				       "missing FILE, DIR, '-' or --journal");
	for (; optind < argc; optind++) {
		if (!*argv[optind])
			return cli_usage_error(CMD_ANALYZE_NAME,
					       "input must not be empty");
		if (opts->ninputs == CMD_ANALYZE_INPUTS_MAX)
			return cli_usage_error(CMD_ANALYZE_NAME,
					       "at most %d inputs",
					       CMD_ANALYZE_INPUTS_MAX);
		opts->inputs[opts->ninputs++] = argv[optind];
	}
	if (opts->follow && !opts->journal &&
	    (opts->ninputs != 1 || strcmp(opts->inputs[0], "/dev/kmsg")))
		return cli_usage_error(CMD_ANALYZE_NAME,
				       "--follow reads /dev/kmsg or the journal");
	return 0;
}

/* --- one run ------------------------------------------------------------ */

struct cmd_analyze {
	const struct cmd_analyze_opts *o;
	struct kmsg_stream *ks;
	struct classify *cl;
	struct evjson_writer *w;	/* --json */
	unsigned long incidents, shown;
	unsigned long kinds[CLASSIFY_KIND_COUNT];
	bool advice[REPORT_ADVICE_MAX];
	unsigned long advice_n[REPORT_ADVICE_MAX];
	char advice_dev[REPORT_ADVICE_MAX][CLASSIFY_DEV_MAX];
	unsigned long cut;		/* lines longer than KMSG_LINE_MAX */
	bool out_error;
	/* a journal of several machines: the one being read, or "" */
	char host[64];
	char machine[33];
};

static bool cmd_analyze_time_ok(const struct cmd_analyze_time *lim,
				const struct classify_incident *inc, bool since)
{
	double t;

	if (!lim->set)
		return true;
	if (lim->clock == KMSG_CLOCK_MONO) {
		if (inc->clock != KMSG_CLOCK_MONO && inc->clock != KMSG_CLOCK_BOOT)
			return true;
		t = inc->t;
	} else if (inc->wall_clock == KMSG_CLOCK_NONE) {
		return true;
	} else if (lim->clock == inc->wall_clock) {
		t = inc->wall;
	} else if (lim->clock == KMSG_CLOCK_WALL) {
		/* a yearless limit against a dated log: within its year */
		time_t s = (time_t)inc->wall;
		struct tm tm;

		gmtime_r(&s, &tm);
		t = tm.tm_yday * 86400.0 + tm.tm_hour * 3600.0 +
		    tm.tm_min * 60.0 + tm.tm_sec;
	} else {
		return true;
	}
	return since ? t >= lim->t : t <= lim->t;
}

static bool cmd_analyze_wanted(const struct cmd_analyze *a,
			       const struct classify_incident *inc)
{
	const struct cmd_analyze_opts *o = a->o;

	if (o->dev && strcmp(inc->dev, o->dev_norm) &&
	    strcmp(inc->disk, o->dev_norm) && strcmp(inc->usb, o->dev_norm))
		return false;
	return cmd_analyze_time_ok(&o->since, inc, true) &&
	       cmd_analyze_time_ok(&o->until, inc, false);
}

/* s into out at n, padded to width (on the left if right), cut at len */
static size_t cmd_analyze_put(char *out, size_t n, size_t len, const char *s,
			      size_t width, bool right)
{
	size_t l = strlen(s), pad = l < width ? width - l : 0;

	if (right)
		for (; pad && n < len; pad--)
			out[n++] = ' ';
	if (l > len - n)
		l = len - n;
	memcpy(out + n, s, l);
	n += l;
	for (; pad && n < len; pad--)
		out[n++] = ' ';
	return n;
}

/* @ev: the recorded event of an incident read from a recording, or NULL */
static void cmd_analyze_print_text(const struct cmd_analyze *a,
				   const struct classify_incident *inc,
				   const struct ev *ev)
{
	char details[512], chain[24] = "", when[48], where[96];

	if (ev && (classify_kind_carries(inc->kind) & CLASSIFY_C_DIP))
		/* the recorder's own fields, which the log line has not */
		snprintf(details, sizeof(details),
			 "%.1f MB/s against a median of %.1f MB/s for %.1f s",
			 ev->u.incident.dip_mbps,
			 ev->u.incident.dip_median_mbps,
			 ev->u.incident.dip_secs);
	else
		classify_details(inc, details, sizeof(details));
	if (inc->chain)
		snprintf(chain, sizeof(chain), " chain=%u", inc->chain);
	kmsg_time_text(inc->t, inc->clock, when, sizeof(when));
	if (a->o->ninputs > 1)
		snprintf(where, sizeof(where), "%s: ",
			 a->o->inputs[inc->file < a->o->ninputs ? inc->file : 0]);
	else
		where[0] = '\0';
	if (ev && ev->id)
		snprintf(where + strlen(where), sizeof(where) - strlen(where),
			 "event %" PRIu64 "%s", ev->id,
			 ev->u.incident.nevidence ? ", evidence" : "");
	else if (ev)
		snprintf(where + strlen(where), sizeof(where) - strlen(where),
			 "evidence");
	if (ev) {
		unsigned int k;

		for (k = 0; k < ev->u.incident.nevidence && k < 8; k++)
			snprintf(where + strlen(where),
				 sizeof(where) - strlen(where), " %" PRIu64,
				 ev->u.incident.evidence[k]);
		if (k < ev->u.incident.nevidence)
			snprintf(where + strlen(where),
				 sizeof(where) - strlen(where), " ...");
	} else if (inc->line_last > inc->line_first)
		snprintf(where + strlen(where), sizeof(where) - strlen(where),
			 "lines %lu-%lu", inc->line_first, inc->line_last);
	else
		snprintf(where + strlen(where), sizeof(where) - strlen(where),
			 "line %lu", inc->line_first);
	/* printf("%15s %-8s %-12s %s%s\n    %s  [%s]\n") without printf's
	 * cost, a tenth of analyze's time on a log of failures */
	{
		char out[sizeof(details) + CLASSIFY_LINE_MAX + 256];
		size_t n = 0;

		n = cmd_analyze_put(out, n, sizeof(out), when, 15, true);
		n = cmd_analyze_put(out, n, sizeof(out), " ", 0, false);
		n = cmd_analyze_put(out, n, sizeof(out),
				    inc->dev[0] ? inc->dev : "-", 8, false);
		n = cmd_analyze_put(out, n, sizeof(out), " ", 0, false);
		n = cmd_analyze_put(out, n, sizeof(out),
				    classify_kind_name(inc->kind), 12, false);
		n = cmd_analyze_put(out, n, sizeof(out), " ", 0, false);
		n = cmd_analyze_put(out, n, sizeof(out), details, 0, false);
		n = cmd_analyze_put(out, n, sizeof(out), chain, 0, false);
		n = cmd_analyze_put(out, n, sizeof(out), "\n    ", 0, false);
		n = cmd_analyze_put(out, n, sizeof(out), inc->line, 0, false);
		n = cmd_analyze_put(out, n, sizeof(out), "  [", 0, false);
		n = cmd_analyze_put(out, n, sizeof(out), where, 0, false);
		n = cmd_analyze_put(out, n, sizeof(out), "]\n", 0, false);
		fwrite(out, 1, n, stdout);
	}
}

/*
 * One incident out, if the filters want it.  @ev is set for one read from
 * a recording: --json then gives its line as events.jsonl has it.
 */
static void cmd_analyze_out(struct cmd_analyze *a,
			    const struct classify_incident *inc,
			    const struct ev *ev)
{
	const char *line;
	size_t len;
	int id;

	if (!cmd_analyze_wanted(a, inc))
		return;
	a->shown++;
	a->kinds[inc->kind]++;
	id = report_advice_of(inc);
	if (id >= 0 && id < REPORT_ADVICE_MAX) {
		if (!a->advice[id])
			snprintf(a->advice_dev[id], sizeof(a->advice_dev[id]),
				 "%s", inc->disk[0] ? inc->disk : inc->dev);
		a->advice[id] = true;
		a->advice_n[id]++;
	}
	if (!a->o->json) {
		cmd_analyze_print_text(a, inc, ev);
		return;
	}
	if (ev ? evjson_writer_line(a->w, ev, &line, &len) :
		 evjson_incident_line(a->w, inc, &line, &len)) {
		a->out_error = true;
		return;
	}
	fwrite(line, 1, len, stdout);
	putchar('\n');
}

static void cmd_analyze_drain(struct cmd_analyze *a)
{
	struct classify_incident inc;
	struct kmsg_record rec;

	while (kmsg_stream_next(a->ks, &rec)) {
		classify_feed(a->cl, &rec, rec.lineno);
		if (a->o->rows) {
			const char *row = classify_last_row(a->cl);

			fprintf(stderr, "%lu %s %.*s\n", rec.lineno,
				row ? row : "-", (int)(rec.msg_len > 120 ? 120 :
				rec.msg_len), rec.msg);
		}
		while (classify_next(a->cl, &inc)) {
			a->incidents++;
			cmd_analyze_out(a, &inc, NULL);
		}
	}
}

static void cmd_analyze_finish(struct cmd_analyze *a)
{
	struct classify_incident inc;

	kmsg_stream_end(a->ks);
	cmd_analyze_drain(a);
	classify_end(a->cl);
	while (classify_next(a->cl, &inc)) {
		a->incidents++;
		cmd_analyze_out(a, &inc, NULL);
	}
}

/*
 * Cut one input into lines.  A line longer than KMSG_LINE_MAX is
 * malformed: the rest of it is skipped, not kept.
 */
static int cmd_analyze_lines(struct cmd_analyze *a, struct loginput *in)
{
	static char buf[64 * 1024];
	char *line = malloc(KMSG_LINE_MAX + 1);
	size_t len = 0;
	bool skipping = false;
	ssize_t n;
	int ret = 0;

	if (!line)
		return -ENOMEM;
	while ((n = loginput_read(in, buf, sizeof(buf))) > 0) {
		const char *p = buf, *end = buf + n;

		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t take = nl ? (size_t)(nl - p) : (size_t)(end - p);

			if (!skipping) {
				if (len + take > KMSG_LINE_MAX) {
					skipping = true;
				} else {
					memcpy(line + len, p, take);
					len += take;
				}
			}
			p += take;
			if (!nl)
				break;
			p++;
			if (skipping) {
				kmsg_stream_feed(a->ks, line, KMSG_LINE_MAX + 1);
				a->cut++;
			} else {
				kmsg_stream_feed(a->ks, line, len);
			}
			len = 0;
			skipping = false;
			cmd_analyze_drain(a);
		}
	}
	if (n < 0)
		ret = (int)n;
	if (skipping)
		kmsg_stream_feed(a->ks, line, KMSG_LINE_MAX + 1);
	else if (len)
		kmsg_stream_feed(a->ks, line, len);
	cmd_analyze_drain(a);
	free(line);
	return ret;
}

/*
 * /dev/kmsg: one record per read(); read with O_NONBLOCK to EAGAIN, the
 * end of what the kernel holds (or, with --follow, wait for more).
 */
static int cmd_analyze_devkmsg(struct cmd_analyze *a, const char *path)
{
	char *rec = malloc(8192 + 1);
	unsigned long lost = 0;
	int fd, ret = 0;

	if (!rec)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		free(rec);
		return ret;
	}
	for (;;) {
		ssize_t n = read(fd, rec, 8192);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EPIPE) {
			lost++;		/* overwritten before it was read */
			continue;
		}
		if (n < 0 && errno == EAGAIN) {
			struct pollfd pfd = { .fd = fd, .events = POLLIN };

			if (!a->o->follow)
				break;
			fflush(stdout);
			if (poll(&pfd, 1, -1) < 0 && errno != EINTR) {
				ret = -errno;
				break;
			}
			continue;
		}
		if (n < 0) {
			ret = -errno;
			break;
		}
		if (!n)
			break;
		/* the message ends at the first newline; the dictionary follows */
		kmsg_stream_feed(a->ks, rec, (size_t)(memchr(rec, '\n', (size_t)n) ?
			(char *)memchr(rec, '\n', (size_t)n) - rec : n));
		cmd_analyze_drain(a);
	}
	if (lost)
		fprintf(stderr, "%s %s: %s: %lu records were overwritten before "
			"they could be read\n", CLI_PROG, CMD_ANALYZE_NAME, path,
			lost);
	close(fd);
	free(rec);
	return ret;
}

/* --- the journal -------------------------------------------------------- */

static int cmd_analyze_journal_boot(sd_journal *j, int boot, char *id,
				    size_t len)
{
	/* the boots by the time of their first entry, newest last */
	struct {
		char id[40];
		uint64_t t;
	} *boots = NULL;
	const void *d;
	size_t n = 0, cap = 0, l, i, k;
	int r;

	SD_JOURNAL_FOREACH_UNIQUE(j, d, l) {
		if (l < 9 || l - 9 >= 40)
			continue;
		if (n == cap) {
			void *p = realloc(boots, (cap = cap ? 2 * cap : 16) *
					  sizeof(*boots));

			if (!p) {
				free(boots);
				return -ENOMEM;
			}
			boots = p;
		}
		memcpy(boots[n].id, (const char *)d + 9, l - 9);
		boots[n].id[l - 9] = '\0';
		boots[n].t = UINT64_MAX;
		n++;
	}
	for (i = 0; i < n; i++) {
		char m[64];

		snprintf(m, sizeof(m), "_BOOT_ID=%s", boots[i].id);
		sd_journal_flush_matches(j);
		if (sd_journal_add_match(j, m, 0) < 0)
			continue;
		sd_journal_seek_head(j);
		if (sd_journal_next(j) > 0)
			sd_journal_get_realtime_usec(j, &boots[i].t);
	}
	sd_journal_flush_matches(j);
	/* newest last */
	for (i = 1; i < n; i++)
		for (k = i; k > 0 && boots[k - 1].t > boots[k].t; k--) {
			char tmp[40];
			uint64_t tt = boots[k].t;

			memcpy(tmp, boots[k].id, sizeof(tmp));
			memcpy(boots[k].id, boots[k - 1].id, sizeof(tmp));
			boots[k].t = boots[k - 1].t;
			memcpy(boots[k - 1].id, tmp, sizeof(tmp));
			boots[k - 1].t = tt;
		}
	r = -ENOENT;
	if (n && (size_t)-boot < n) {
		snprintf(id, len, "%s", boots[n - 1 - (size_t)-boot].id);
		r = 0;
	}
	free(boots);
	return r;
}

/* One journal field as an export line into the stream. */
static void cmd_analyze_journal_field(struct cmd_analyze *a, sd_journal *j,
				      const char *name)
{
	char line[KMSG_MSG_MAX + 64];
	const void *d;
	size_t l;

	if (sd_journal_get_data(j, name, &d, &l) < 0 || memchr(d, '\n', l))
		return;
	if (l > sizeof(line) - 1)
		l = sizeof(line) - 1;
	memcpy(line, d, l);
	kmsg_stream_feed(a->ks, line, l);
}

#define CMD_ANALYZE_MACHINES_MAX	1024

struct cmd_analyze_machine {
	char id[33];
	char host[64];
};

/* A value fit to print as it is in a JSON string and a heading. */
static bool cmd_analyze_plain(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '.' ||
		      s[i] == '-' || s[i] == '_'))
			return false;
	return true;
}

/*
 * The machines whose entries a journal directory holds (a fleet's, merged
 * by systemd-journal-remote), each with the host name of its first
 * kernel entry, sorted by host name.  Return: how many (0 or 1: read it
 * as one), or a negative errno.
 */
static int cmd_analyze_machines(const char *dir,
				struct cmd_analyze_machine **out)
{
	struct cmd_analyze_machine *v;
	const void *d;
	char m[64];
	size_t l, n = 0, i, k;
	sd_journal *j;
	int r;

	*out = NULL;
	r = sd_journal_open_directory(&j, dir, 0);
	if (r < 0)
		return r;
	v = calloc(CMD_ANALYZE_MACHINES_MAX, sizeof(*v));
	if (!v) {
		sd_journal_close(j);
		return -ENOMEM;
	}
	r = sd_journal_query_unique(j, "_MACHINE_ID");
	if (r >= 0) {
		SD_JOURNAL_FOREACH_UNIQUE(j, d, l) {
			if (l <= 12 || l - 12 >= sizeof(v[0].id) ||
			    !cmd_analyze_plain((const char *)d + 12, l - 12))
				continue;
			if (n == CMD_ANALYZE_MACHINES_MAX)
				break;
			memcpy(v[n].id, (const char *)d + 12, l - 12);
			v[n].id[l - 12] = '\0';
			n++;
		}
	}
	for (i = 0; i < n; i++) {
		sd_journal_flush_matches(j);
		snprintf(m, sizeof(m), "_MACHINE_ID=%s", v[i].id);
		sd_journal_add_match(j, m, 0);
		sd_journal_seek_head(j);
		snprintf(v[i].host, sizeof(v[i].host), "unknown");
		if (sd_journal_next(j) > 0 &&
		    sd_journal_get_data(j, "_HOSTNAME", &d, &l) >= 0 &&
		    l > 10 && l - 10 < sizeof(v[i].host) &&
		    cmd_analyze_plain((const char *)d + 10, l - 10)) {
			memcpy(v[i].host, (const char *)d + 10, l - 10);
			v[i].host[l - 10] = '\0';
		}
	}
	sd_journal_close(j);
	/* by name, then id: the order of the output does not vary */
	for (i = 1; i < n; i++)
		for (k = i; k > 0; k--) {
			struct cmd_analyze_machine t;
			int c = strcmp(v[k - 1].host, v[k].host);

			if (c < 0 || (!c && strcmp(v[k - 1].id, v[k].id) <= 0))
				break;
			t = v[k];
			v[k] = v[k - 1];
			v[k - 1] = t;
		}
	*out = v;
	return (int)n;
}

static int cmd_analyze_journal(struct cmd_analyze *a)
{
	static const char *const fields[] = {
		"MESSAGE", "_TRANSPORT", "_SOURCE_MONOTONIC_TIMESTAMP",
		"PRIORITY", "SYSLOG_FACILITY", "_BOOT_ID", "_HOSTNAME",
	};
	const struct cmd_analyze_opts *o = a->o;
	char boot[40], m[64], line[64];
	sd_journal *j;
	uint64_t u;
	sd_id128_t bid;
	size_t i;
	int r;

	if (o->journal_dir) {
		struct stat st;

		/* sd-journal opens a missing directory as an empty journal */
		if (stat(o->journal_dir, &st))
			return -errno;
		if (!S_ISDIR(st.st_mode))
			return -ENOTDIR;
	}
	r = o->journal_dir ? sd_journal_open_directory(&j, o->journal_dir, 0) :
	    sd_journal_open(&j, SD_JOURNAL_LOCAL_ONLY);
	if (r < 0)
		return r;
	if (o->boot_id) {
		snprintf(boot, sizeof(boot), "%s", o->boot_id);
	} else if (o->boot_set || !o->journal_dir) {
		r = sd_journal_query_unique(j, "_BOOT_ID");
		if (r >= 0)
			r = cmd_analyze_journal_boot(j, o->boot, boot,
						     sizeof(boot));
		if (r < 0) {
			sd_journal_close(j);
			return r == -ENOENT ? -ENOENT : r;
		}
	} else {
		boot[0] = '\0';		/* -D without -b: every boot in it */
	}
	if (boot[0]) {
		snprintf(m, sizeof(m), "_BOOT_ID=%s", boot);
		sd_journal_add_match(j, m, 0);
	}
	if (a->machine[0]) {
		snprintf(m, sizeof(m), "_MACHINE_ID=%s", a->machine);
		sd_journal_add_match(j, m, 0);
	}
	sd_journal_add_match(j, "_TRANSPORT=kernel", 0);
	sd_journal_seek_head(j);
	for (;;) {
		r = sd_journal_next(j);
		if (r < 0)
			break;
		if (r == 0) {
			if (!o->follow)
				break;
			fflush(stdout);
			r = sd_journal_wait(j, (uint64_t)-1);
			if (r < 0)
				break;
			continue;
		}
		/* an export entry: the stream reads it like a pasted one */
		if (sd_journal_get_realtime_usec(j, &u) >= 0) {
			snprintf(line, sizeof(line), "__REALTIME_TIMESTAMP=%llu",
				 (unsigned long long)u);
			kmsg_stream_feed(a->ks, line, strlen(line));
		}
		if (sd_journal_get_monotonic_usec(j, &u, &bid) >= 0) {
			snprintf(line, sizeof(line), "__MONOTONIC_TIMESTAMP=%llu",
				 (unsigned long long)u);
			kmsg_stream_feed(a->ks, line, strlen(line));
		}
		for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
			cmd_analyze_journal_field(a, j, fields[i]);
		kmsg_stream_feed(a->ks, "", 0);
		cmd_analyze_drain(a);
	}
	sd_journal_close(j);
	return r < 0 ? r : 0;
}

/* --- a recording: read as report reads it (recording.c) ---------------- */

struct cmd_analyze_rec_stats {
	unsigned long lines, kernel, other, malformed;
};

/* --rederive: the incidents derive.c makes of the recording's events. */
static void cmd_analyze_rec_out(void *arg, struct ev *ev)
{
	struct cmd_analyze *a = arg;

	if (ev->type == EV_INCIDENT) {
		a->incidents++;
		cmd_analyze_out(a, &ev->u.incident.inc, ev);
	}
	ev_free(ev);
}

/* A trace record as recording.c keeps it, into a whole event. */
static void cmd_analyze_rec_trace(const struct recording_trace *tr,
				  struct ev *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->id = tr->id;
	ev->t_ns = tr->t_ns;
	ev->type = EV_TRACE;
	ev->source = EV_SRC_MODULE;
	ev->ident.busnum = -1;
	ev->ident.devnum = -1;
	ev->u.rec = tr->rec;
	ev_ident_from_rec(ev);
}

/*
 * The kernel lines, trace records and device events of a recording again
 * through derive.c, in the order they were made (trace records and the
 * other events are kept apart by recording.c; their ids interleave them
 * again), as "record" ran it live.  For a recording made by an older
 * usbtrail; the incidents it stored are not read.
 */
static int cmd_analyze_rederive(struct cmd_analyze *a,
				const struct recording *r)
{
	struct derive_opts dopts = DERIVE_OPTS_DEFAULT;
	struct devmap *map = calloc(1, sizeof(*map));
	struct ev *ev = calloc(1, sizeof(*ev));
	struct derive *d = NULL;
	size_t ie = 0, it = 0;
	int ret = 0;

	if (map && ev)
		d = derive_new(&dopts, cmd_analyze_rec_out, a);
	if (!d) {
		ret = -ENOMEM;
		goto out;
	}
	devmap_init(map);
	while (ie < r->nevs || it < r->ntraces) {
		/*
		 * only the kernel lines and device events: the incidents
		 * came out later than their ids say, and must not hold
		 * back the trace records
		 */
		if (ie < r->nevs && r->evs[ie].type != EV_DEVICE &&
		    r->evs[ie].type != EV_KLOG) {
			ie++;
			continue;
		}
		if (it < r->ntraces &&
		    (ie == r->nevs || r->traces[it].id < r->evs[ie].id)) {
			cmd_analyze_rec_trace(&r->traces[it++], ev);
		} else {
			*ev = r->evs[ie++];
			if (ev->type == EV_DEVICE) {
				devmap_update(map, ev);
				continue;
			}
		}
		devmap_resolve(map, ev);
		derive_feed(d, map, ev);
		derive_advance(d, ev->t_ns);
	}
	derive_flush(d);
out:
	derive_free(d);
	free(ev);
	free(map);
	return ret;
}

/*
 * A recording directory, or an events.jsonl named by itself: read by
 * recording.c as "usbtrail report" reads it, so that both name the same
 * incidents (dips too: they come from throughput samples that only the
 * recording has whole).
 */
static int cmd_analyze_recording(struct cmd_analyze *a, const char *path,
				 bool dir, struct cmd_analyze_rec_stats *st)
{
	struct recording *r = calloc(1, sizeof(*r));
	size_t i, n, *idx = NULL;
	const char *what;
	int ret;

	if (!r)
		return -ENOMEM;
	recording_init(r);
	ret = dir ? recording_load(r, path, &what) :
		    recording_load_events(r, path);
	if (ret)
		goto out;
	/* events: lines of events.jsonl and packets of capture.pcapng */
	st->lines += r->lines + r->captured;
	st->kernel += r->count[EV_KLOG];
	st->malformed += r->malformed + r->capture_bad;
	st->other += r->lines + r->captured - r->malformed - r->count[EV_KLOG];
	if (r->capture_note[0])
		fprintf(stderr, "%s %s: %s: %s\n", CLI_PROG, CMD_ANALYZE_NAME,
			path, r->capture_note);
	if (a->o->rederive) {
		ret = cmd_analyze_rederive(a, r);
		goto out;
	}
	/* in the report's order: by time */
	idx = report_incidents(r, &n);
	if (!idx) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		const struct ev *ev = &r->evs[idx[i]];
		unsigned long shown = a->shown;

		a->incidents++;
		cmd_analyze_out(a, &ev->u.incident.inc, ev);
		/* a dip shown as text: what the recording holds inside it */
		if (a->shown > shown && !a->o->json &&
		    ev->u.incident.inc.kind == CLASSIFY_DIP)
			report_dip_print(stdout, r, ev, "    ");
	}
out:
	free(idx);
	recording_free(r);
	free(r);
	return ret;
}

static bool cmd_analyze_is_jsonl(const char *name)
{
	size_t n = strlen(name);

	return n > 6 && !strcmp(name + n - 6, ".jsonl");
}

/* DIR: a recording (events.jsonl), the test bed's console.log, kmsg.txt. */
static const char *const cmd_analyze_dir_files[] = {
	"events.jsonl", "console.log", "kmsg.txt",
};
#define CMD_ANALYZE_DIR_FILES	3

/* --- the summary -------------------------------------------------------- */

static const char *cmd_analyze_bridge(const struct classify_device *d)
{
	int r = d->vid >= 0 ? datatab_find_hex2(&datatab_bridges,
						(unsigned int)d->vid,
						(unsigned int)d->pid) : -1;

	return r >= 0 ? datatab_cell(&datatab_bridges, (unsigned int)r,
				     DATATAB_BRIDGE_CHIP) :
	       NULL;
}

/* A device the summary lists: storage, or one with incidents. */
static bool cmd_analyze_dev_listed(const struct cmd_analyze *a,
				   const struct classify_device *d)
{
	if (a->o->dev && strcmp(d->usb, a->o->dev_norm) &&
	    strcmp(d->disk, a->o->dev_norm))
		return false;
	return d->driver[0] || d->disk[0] || d->incidents || d->uas_ignored;
}

static void cmd_analyze_speed(const struct classify_device *d, char *buf,
			      size_t len)
{
	if (d->speed_mbps >= 1)
		snprintf(buf, len, "%.0f Mbit/s (%s)", d->speed_mbps, d->speed);
	else if (d->speed_mbps > 0)
		snprintf(buf, len, "%.1f Mbit/s (%s)", d->speed_mbps, d->speed);
	else if (d->speed[0])
		snprintf(buf, len, "speed unknown (%s)", d->speed);
	else
		snprintf(buf, len, "speed unknown");
}

static void cmd_analyze_devices_text(const struct cmd_analyze *a)
{
	const struct classify_device *d;
	unsigned int n, i, shown = 0;
	char speed[128];

	d = classify_devices(a->cl, &n);
	for (i = 0; i < n; i++) {
		const char *bridge = cmd_analyze_bridge(&d[i]);

		if (!cmd_analyze_dev_listed(a, &d[i]))
			continue;
		if (!shown++)
			printf("\nUSB storage devices in the log:\n");
		cmd_analyze_speed(&d[i], speed, sizeof(speed));
		printf("  %s", d[i].usb);
		if (d[i].vid >= 0)
			printf(" %04x:%04x", d[i].vid, d[i].pid);
		if (d[i].manufacturer[0] || d[i].product[0])
			printf(" %s%s%s", d[i].manufacturer,
			       d[i].manufacturer[0] && d[i].product[0] ? " " : "",
			       d[i].product);
		printf("\n    %s, driver %s%s%s", speed,
		       d[i].driver[0] ? d[i].driver : "unknown",
		       d[i].hcd_driver[0] ? " on " : "", d[i].hcd_driver);
		if (bridge)
			printf(", bridge %s", bridge);
		if (d[i].uas_ignored)
			printf(", UAS ignored by a kernel quirk");
		printf("\n");
		if (d[i].disk[0] || d[i].vendor[0]) {
			printf("    disk %s", d[i].disk[0] ? d[i].disk : "?");
			if (d[i].vendor[0] || d[i].model[0])
				printf(" (%s %s)", d[i].vendor, d[i].model);
			if (d[i].size[0])
				printf(", %s", d[i].size);
			printf("\n");
		}
		printf("    %lu incident%s\n", d[i].incidents,
		       d[i].incidents == 1 ? "" : "s");
	}
}

/* The ready usb-storage.quirks= line for disks on uas, if one applies */
static bool cmd_analyze_quirk(const struct cmd_analyze *a, char *buf,
			      size_t len)
{
	const struct classify_device *d;
	unsigned int n, i;
	size_t off = 0;

	buf[0] = '\0';
	d = classify_devices(a->cl, &n);
	for (i = 0; i < n; i++) {
		int m;

		if (!d[i].incidents || strcmp(d[i].driver, "uas") || d[i].vid < 0)
			continue;
		m = snprintf(buf + off, len - off, "%susb-storage.quirks="
			     "%04x:%04x:u", off ? "," : "", d[i].vid, d[i].pid);
		if (m < 0 || (size_t)m >= len - off)
			break;
		off += (size_t)m;
	}
	return off > 0;
}

static void cmd_analyze_advice_text(const struct cmd_analyze *a)
{
	char quirk[256];
	bool any = false;
	int id, k;

	for (id = 0; id < REPORT_ADVICE_MAX; id++) {
		const struct report_advice *adv = report_advice_get(id);

		if (!a->advice[id] || !adv)
			continue;
		if (!any)
			printf("\nWhat to try next:\n");
		any = true;
		printf("  %s (%lu incident%s, %s):\n    %s\n", adv->title,
		       a->advice_n[id], a->advice_n[id] == 1 ? "" : "s",
		       a->advice_dev[id], adv->why);
		for (k = 0; adv->tries[k]; k++)
			printf("    - %s\n", adv->tries[k]);
		if (report_advice_wants_quirk(id) &&
		    cmd_analyze_quirk(a, quirk, sizeof(quirk)))
			printf("    - the kernel parameter for it here: %s\n",
			       quirk);
	}
}

struct cmd_analyze_counts {
	unsigned long lines, kernel, recognised, other, malformed;
};

static void cmd_analyze_summary_text(const struct cmd_analyze *a,
				     const struct cmd_analyze_counts *n)
{
	unsigned int i;

	cmd_analyze_devices_text(a);
	cmd_analyze_advice_text(a);
	printf("\n%lu incident%s in %lu line%s (%lu kernel, %lu recognised, "
	       "%lu other, %lu malformed)\n", a->shown,
	       a->shown == 1 ? "" : "s", n->lines, n->lines == 1 ? "" : "s",
	       n->kernel, n->recognised, n->other, n->malformed);
	if (!a->shown)
		return;
	printf("by kind:");
	for (i = 0; i < CLASSIFY_KIND_COUNT; i++)
		if (a->kinds[i])
			printf(" %s=%lu", classify_kind_name(i), a->kinds[i]);
	printf("\n");
}

static struct json_object *cmd_analyze_devices_json(const struct cmd_analyze *a)
{
	struct json_object *arr = json_object_new_array();
	const struct classify_device *d;
	unsigned int n, i;

	d = classify_devices(a->cl, &n);
	for (i = 0; i < n; i++) {
		struct json_object *o;
		const char *bridge = cmd_analyze_bridge(&d[i]);
		char vp[16];

		if (!cmd_analyze_dev_listed(a, &d[i]))
			continue;
		o = json_object_new_object();
		json_object_object_add(o, "usb", json_object_new_string(d[i].usb));
		if (d[i].vid >= 0) {
			snprintf(vp, sizeof(vp), "%04x:%04x", d[i].vid, d[i].pid);
			json_object_object_add(o, "vid_pid",
					       json_object_new_string(vp));
		} else {
			json_object_object_add(o, "vid_pid", NULL);
		}
#define CMD_ANALYZE_STR(k, v) json_object_object_add(o, k, (v)[0] ?	\
			json_object_new_string(v) : NULL)
		CMD_ANALYZE_STR("product", d[i].product);
		CMD_ANALYZE_STR("manufacturer", d[i].manufacturer);
		CMD_ANALYZE_STR("serial", d[i].serial);
		json_object_object_add(o, "bridge", bridge ?
				       json_object_new_string(bridge) : NULL);
		CMD_ANALYZE_STR("driver", d[i].driver);
		CMD_ANALYZE_STR("hcd_driver", d[i].hcd_driver);
		CMD_ANALYZE_STR("speed", d[i].speed);
		json_object_object_add(o, "link_mbps", d[i].speed_mbps > 0 ?
				       json_object_new_double(d[i].speed_mbps) :
				       NULL);
		CMD_ANALYZE_STR("disk", d[i].disk);
		CMD_ANALYZE_STR("vendor", d[i].vendor);
		CMD_ANALYZE_STR("model", d[i].model);
		json_object_object_add(o, "blocks", d[i].blocks >= 0 ?
				       json_object_new_int64(d[i].blocks) : NULL);
		json_object_object_add(o, "block_size", d[i].block_size > 0 ?
				       json_object_new_int(d[i].block_size) : NULL);
		CMD_ANALYZE_STR("size", d[i].size);
#undef CMD_ANALYZE_STR
		json_object_object_add(o, "uas_ignored",
				       json_object_new_boolean(d[i].uas_ignored));
		json_object_object_add(o, "incidents",
				       json_object_new_int64((int64_t)d[i].incidents));
		json_object_array_add(arr, o);
	}
	return arr;
}

static void cmd_analyze_summary_json(const struct cmd_analyze *a,
				     const struct cmd_analyze_counts *n)
{
	struct json_object *o = json_object_new_object();
	struct json_object *k = json_object_new_object();
	struct json_object *adv = json_object_new_array();
	char quirk[256];
	unsigned int i;

	json_object_object_add(o, "summary", json_object_new_boolean(1));
	if (a->machine[0]) {
		json_object_object_add(o, "hostname",
				       json_object_new_string(a->host));
		json_object_object_add(o, "machine_id",
				       json_object_new_string(a->machine));
	}
	json_object_object_add(o, "version",
			       json_object_new_string(USBTRAIL_VERSION));
	json_object_object_add(o, "lines", json_object_new_int64((int64_t)n->lines));
	json_object_object_add(o, "kernel",
			       json_object_new_int64((int64_t)n->kernel));
	json_object_object_add(o, "recognised",
			       json_object_new_int64((int64_t)n->recognised));
	json_object_object_add(o, "other", json_object_new_int64((int64_t)n->other));
	json_object_object_add(o, "malformed",
			       json_object_new_int64((int64_t)n->malformed));
	json_object_object_add(o, "incidents",
			       json_object_new_int64((int64_t)a->shown));
	for (i = 0; i < CLASSIFY_KIND_COUNT; i++)
		if (a->kinds[i])
			json_object_object_add(k, classify_kind_name(i),
				json_object_new_int64((int64_t)a->kinds[i]));
	json_object_object_add(o, "by_kind", k);
	json_object_object_add(o, "devices", cmd_analyze_devices_json(a));
	for (i = 0; i < REPORT_ADVICE_MAX; i++) {
		const struct report_advice *r = report_advice_get((int)i);
		struct json_object *e;

		if (!a->advice[i] || !r)
			continue;
		e = json_object_new_object();
		json_object_object_add(e, "title", json_object_new_string(r->title));
		json_object_object_add(e, "incidents",
				       json_object_new_int64((int64_t)a->advice_n[i]));
		if (report_advice_wants_quirk((int)i) &&
		    cmd_analyze_quirk(a, quirk, sizeof(quirk)))
			json_object_object_add(e, "quirk",
					       json_object_new_string(quirk));
		json_object_array_add(adv, e);
	}
	json_object_object_add(o, "advice", adv);
	puts(json_object_to_json_string_ext(o, EVJSON_FLAGS));
	json_object_put(o);
}

/* --- inputs ------------------------------------------------------------- */

static void cmd_analyze_err(const char *name, int err)
{
	fprintf(stderr, "%s %s: %s: %s\n", CLI_PROG, CMD_ANALYZE_NAME, name,
		err == -EBADMSG ? "damaged or cut-short compressed data" :
		strerror(-err));
}

/* One FILE, DIR or '-'; 0 or a negative errno (reported here). */
static int cmd_analyze_input(struct cmd_analyze *a, const char *name,
			     struct cmd_analyze_rec_stats *rst)
{
	struct loginput *in;
	char path[4096];
	struct stat sb;
	size_t i;
	int ret;

	if (strcmp(name, "-")) {
		if (stat(name, &sb)) {
			ret = -errno;
			cmd_analyze_err(name, ret);
			return ret;
		}
		if (S_ISDIR(sb.st_mode)) {
			for (i = 0; i < CMD_ANALYZE_DIR_FILES; i++) {
				snprintf(path, sizeof(path), "%s/%s", name,
					 cmd_analyze_dir_files[i]);
				if (!access(path, F_OK))
					break;
			}
			if (i == CMD_ANALYZE_DIR_FILES) {
				fprintf(stderr, "%s %s: %s: no recording "
					"(events.jsonl), console.log or "
					"kmsg.txt in this directory\n",
					CLI_PROG, CMD_ANALYZE_NAME, name);
				return -ENOENT;
			}
			fprintf(stderr, "%s %s: reading %s\n", CLI_PROG,
				CMD_ANALYZE_NAME, path);
			if (i == 0) {
				ret = cmd_analyze_recording(a, name, true, rst);
				if (ret)
					cmd_analyze_err(path, ret);
				return ret;
			}
			name = path;
		} else if (S_ISCHR(sb.st_mode)) {
			/* /dev/kmsg, or a copy of its records */
			ret = cmd_analyze_devkmsg(a, name);
			if (ret)
				cmd_analyze_err(name, ret);
			return ret;
		}
	}
	if (cmd_analyze_is_jsonl(name)) {
		ret = cmd_analyze_recording(a, name, false, rst);
		if (ret)
			cmd_analyze_err(name, ret);
		return ret;
	}
	ret = loginput_open(name, &in);
	if (ret) {
		cmd_analyze_err(strcmp(name, "-") ? name : "standard input", ret);
		return ret;
	}
	ret = cmd_analyze_lines(a, in);
	loginput_close(in);
	if (ret)
		cmd_analyze_err(strcmp(name, "-") ? name : "standard input", ret);
	return ret;
}

/* What the summary of one read says of the lines (stream, classifier). */
static void cmd_analyze_counts_of(const struct cmd_analyze *a,
				  const struct cmd_analyze_rec_stats *rst,
				  struct cmd_analyze_counts *n)
{
	const struct kmsg_stream_stats *ks = kmsg_stream_stats(a->ks);
	const struct classify_stats *cs = classify_stats(a->cl);

	n->lines = ks->lines + rst->lines;
	n->kernel = ks->kernel + rst->kernel;
	n->recognised = cs->recognised;
	n->other = ks->other + rst->other;
	n->malformed = ks->malformed + rst->malformed;
}

/*
 * -D DIR holding the journals of several machines (a fleet's, merged by
 * systemd-journal-remote): each machine read apart, as its own log (its
 * sda is not another's), under a heading that names it, with a summary
 * of its own; in --json each incident and summary carries "hostname"
 * and "machine_id".  Return: how many machines when more than one (a->shown
 * then counts all their incidents), 0 when it is one machine's journal
 * (read as ever), or a negative errno.
 */
static int cmd_analyze_fleet(struct cmd_analyze *a)
{
	const struct cmd_analyze_rec_stats none = { 0 };
	struct cmd_analyze_machine *m;
	struct cmd_analyze_counts n;
	unsigned long shown = 0;
	struct stat st;
	int nm, i, r = 0;

	/* not a directory: said as for one machine's journal */
	if (stat(a->o->journal_dir, &st) || !S_ISDIR(st.st_mode))
		return 0;
	nm = cmd_analyze_machines(a->o->journal_dir, &m);
	if (nm <= 1) {
		free(m);
		return nm < 0 ? nm : 0;
	}
	for (i = 0; i < nm && !r; i++) {
		snprintf(a->host, sizeof(a->host), "%s", m[i].host);
		snprintf(a->machine, sizeof(a->machine), "%s", m[i].id);
		/* which machine, first in each line */
		evjson_writer_set_machine(a->w, a->host, a->machine);
		if (!a->o->json)
			printf("%s== host %s (machine %s)\n\n", i ? "\n" : "",
			       m[i].host, m[i].id);
		r = cmd_analyze_journal(a);
		if (r == -ENOENT)
			r = 0;		/* no such boot on this machine */
		cmd_analyze_finish(a);
		cmd_analyze_counts_of(a, &none, &n);
		if (a->o->json)
			cmd_analyze_summary_json(a, &n);
		else
			cmd_analyze_summary_text(a, &n);
		shown += a->shown;
		/* the next machine from nothing */
		classify_free(a->cl);
		kmsg_stream_free(a->ks);
		a->cl = classify_new();
		a->ks = kmsg_stream_new();
		a->shown = 0;
		a->incidents = 0;
		memset(a->kinds, 0, sizeof(a->kinds));
		memset(a->advice, 0, sizeof(a->advice));
		memset(a->advice_n, 0, sizeof(a->advice_n));
		if (!a->cl || !a->ks)
			r = -ENOMEM;
	}
	a->shown = shown;
	a->host[0] = a->machine[0] = '\0';
	evjson_writer_set_machine(a->w, NULL, NULL);
	free(m);
	return r < 0 ? r : nm;
}

static int cmd_analyze_run(const struct cmd_analyze_opts *opts)
{
	struct cmd_analyze a = { .o = opts };
	struct cmd_analyze_rec_stats rst = { 0 };
	struct cmd_analyze_counts n;
	const struct kmsg_stream_stats *ks;
	const struct classify_stats *cs;
	bool failed = false;
	unsigned int i;
	int ret = CLI_EXIT_FAILURE;

	a.ks = kmsg_stream_new();
	a.cl = classify_new();
	a.w = evjson_writer_new();
	if (!a.ks || !a.cl || !a.w) {
		fprintf(stderr, "%s %s: out of memory\n", CLI_PROG,
			CMD_ANALYZE_NAME);
		goto out;
	}
	if (opts->journal && opts->journal_dir && !opts->follow &&
	    !opts->ninputs) {
		int r = cmd_analyze_fleet(&a);

		if (r > 0) {
			/* each machine read and summed up on its own */
			ret = a.shown ? CMD_ANALYZE_EXIT_FOUND :
			      CMD_ANALYZE_EXIT_NONE;
			if (a.out_error || fflush(stdout) || ferror(stdout)) {
				fprintf(stderr, "%s %s: writing the output "
					"failed\n", CLI_PROG, CMD_ANALYZE_NAME);
				ret = CLI_EXIT_FAILURE;
			}
			goto out;
		}
		if (r < 0) {
			fprintf(stderr, "%s %s: the journal in %s: %s\n",
				CLI_PROG, CMD_ANALYZE_NAME, opts->journal_dir,
				strerror(-r));
			goto out;
		}
	}
	if (opts->journal) {
		int r = cmd_analyze_journal(&a);

		if (r < 0) {
			fprintf(stderr, "%s %s: the journal%s%s: %s\n", CLI_PROG,
				CMD_ANALYZE_NAME, opts->journal_dir ? " in " : "",
				opts->journal_dir ? opts->journal_dir : "",
				r == -ENOENT && (!opts->journal_dir ||
				 !access(opts->journal_dir, F_OK)) ?
				"no such boot" : strerror(-r));
			failed = true;
		}
	}
	for (i = 0; i < opts->ninputs; i++) {
		kmsg_stream_file(a.ks, i);
		if (cmd_analyze_input(&a, opts->inputs[i], &rst))
			failed = true;
	}
	cmd_analyze_finish(&a);
	ks = kmsg_stream_stats(a.ks);
	cs = classify_stats(a.cl);
	n.lines = ks->lines + rst.lines;
	n.kernel = ks->kernel + rst.kernel;
	n.recognised = cs->recognised;
	n.other = ks->other + rst.other;
	n.malformed = ks->malformed + rst.malformed;
	if (opts->json)
		cmd_analyze_summary_json(&a, &n);
	else
		cmd_analyze_summary_text(&a, &n);
	if (a.cut)
		fprintf(stderr, "%s %s: %lu line%s longer than %d bytes "
			"skipped\n", CLI_PROG, CMD_ANALYZE_NAME, a.cut,
			a.cut == 1 ? "" : "s", KMSG_LINE_MAX);
	if (a.out_error) {
		fprintf(stderr, "%s %s: out of memory writing an incident\n",
			CLI_PROG, CMD_ANALYZE_NAME);
		goto out;
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "%s %s: writing the output: %m\n", CLI_PROG,
			CMD_ANALYZE_NAME);
		goto out;
	}
	if (failed)
		goto out;
	if (a.shown)
		ret = CMD_ANALYZE_EXIT_FOUND;
	else if (!ks->stamped && !n.recognised && !rst.lines)
		ret = CMD_ANALYZE_EXIT_NOT_LOG;
	else
		ret = CMD_ANALYZE_EXIT_NONE;
	if (ret == CMD_ANALYZE_EXIT_NOT_LOG)
		fprintf(stderr, "%s %s: nothing in %s looks like a kernel log "
			"(%lu line%s read)\n", CLI_PROG, CMD_ANALYZE_NAME,
			opts->journal ? "the journal" : opts->ninputs > 1 ?
			"these inputs" : strcmp(opts->inputs[0], "-") ?
			opts->inputs[0] : "standard input", n.lines,
			n.lines == 1 ? "" : "s");
out:
	evjson_writer_free(a.w);
	classify_free(a.cl);
	kmsg_stream_free(a.ks);
	return ret;
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
	return cmd_analyze_run(&opts);
}
