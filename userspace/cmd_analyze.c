// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_analyze.c - "usbtrail analyze": read a kernel log (dmesg, dmesg -T,
 * syslog, journalctl -k, /dev/kmsg dump, journalctl -o export) or a
 * test-bed/recording directory, and print the USB storage incidents in it.
 *
 * Data flow: a bounded line reader here -> kmsg_parse_line() or
 * kmsg_export_feed() (kmsg.c) -> classify_feed() (classify.c) -> one text
 * line or one JSON object per incident.  The input is streamed: memory is
 * one line buffer and one export entry, whatever the input size.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "classify.h"
#include "cli.h"
#include "derive.h"
#include "devmap.h"
#include "evjson.h"
#include "kmsg.h"

#define CMD_ANALYZE_NAME	"analyze"

struct cmd_analyze_opts {
	bool json;
	const char *input;	/* file, recording directory, or "-" */
};

const char cmd_analyze_help[] =
"Usage: usbtrail analyze [--json] FILE|DIR|-\n"
"\n"
"Classify the USB failures (resets, disconnects, command timeouts, xHCI\n"
"errors, ...) found in FILE, a dmesg, syslog, journalctl -k or\n"
"journalctl -o export text, or a recording's events.jsonl; or in DIR, a\n"
"recording made by 'usbtrail record' (its events.jsonl: kernel lines and\n"
"trace events go through the recorder's own derivation again) or a\n"
"test-bed output directory (its console.log or kmsg.txt).  '-' reads\n"
"text from standard input.\n"
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

/* What one run saw, for the summary. */
#define CMD_ANALYZE_DEVS	64

struct cmd_analyze_stats {
	unsigned long lines, kernel, other, malformed, incidents;
	unsigned long kinds[CLASSIFY_KIND_COUNT];
	struct {
		char dev[CLASSIFY_DEV_MAX];
		unsigned long n;
	} devs[CMD_ANALYZE_DEVS];
	unsigned int ndevs;
	unsigned long devs_other;	/* devices past the table */
};

static void cmd_analyze_count(struct cmd_analyze_stats *st,
			      const struct classify_incident *inc)
{
	const char *dev = inc->dev[0] ? inc->dev : "-";
	unsigned int i;

	st->incidents++;
	st->kinds[inc->kind]++;
	for (i = 0; i < st->ndevs; i++) {
		if (!strcmp(st->devs[i].dev, dev)) {
			st->devs[i].n++;
			return;
		}
	}
	if (st->ndevs == CMD_ANALYZE_DEVS) {
		st->devs_other++;
		return;
	}
	snprintf(st->devs[st->ndevs].dev, sizeof(st->devs[0].dev), "%s", dev);
	st->devs[st->ndevs++].n = 1;
}

static void cmd_analyze_print_json(const struct classify_incident *inc)
{
	struct json_object *o = evjson_incident(inc);

	puts(json_object_to_json_string_ext(o, EVJSON_FLAGS));
	json_object_put(o);
}


/* KMSG_CLOCK_WALL seconds back to "Nov 29 23:10:27", as the log had it */
static void cmd_analyze_wall(double t, char *buf, size_t len)
{
	static const char *const months[12] = {
		"Jan", "Feb", "Mar", "Apr", "May", "Jun",
		"Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
	};
	static const int days[12] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
	};
	unsigned int s = (unsigned int)t % 86400, day = (unsigned int)t / 86400;
	unsigned int m = 0;

	while (m < 11 && day >= (unsigned int)days[m])
		day -= (unsigned int)days[m++];
	snprintf(buf, len, "%s %2u %02u:%02u:%02u", months[m], (day + 1) % 100,
		 s / 3600 % 24, s / 60 % 60, s % 60);
}

static void cmd_analyze_print_text(const struct classify_incident *inc)
{
	char details[256], chain[24] = "", wall[48];

	classify_details(inc, details, sizeof(details));
	if (inc->chain)
		snprintf(chain, sizeof(chain), " chain=%u", inc->chain);
	if (inc->clock == KMSG_CLOCK_NONE) {
		printf("%15s", "-");
	} else if (inc->clock == KMSG_CLOCK_WALL && inc->t >= 0 &&
		   inc->t < 366 * 86400.0) {
		cmd_analyze_wall(inc->t, wall, sizeof(wall));
		printf("%15s", wall);
	} else {
		printf("%15.6f", inc->t);
	}
	printf(" %-8s %-12s %s%s\n    %s\n",
	       inc->dev[0] ? inc->dev : "-", classify_kind_name(inc->kind),
	       details, chain, inc->line);
}

static void cmd_analyze_summary(const struct cmd_analyze_stats *st)
{
	unsigned int i;

	printf("\n%lu incident%s in %lu line%s (%lu kernel, %lu other, "
	       "%lu malformed)\n", st->incidents,
	       st->incidents == 1 ? "" : "s", st->lines,
	       st->lines == 1 ? "" : "s", st->kernel, st->other,
	       st->malformed);
	if (!st->incidents)
		return;
	printf("by kind:");
	for (i = 0; i < CLASSIFY_KIND_COUNT; i++)
		if (st->kinds[i])
			printf(" %s=%lu", classify_kind_name(i), st->kinds[i]);
	printf("\nby device:");
	for (i = 0; i < st->ndevs; i++)
		printf(" %s=%lu", st->devs[i].dev, st->devs[i].n);
	if (st->devs_other)
		printf(" others=%lu", st->devs_other);
	printf("\n");
}

static void cmd_analyze_emit(const struct cmd_analyze_opts *opts,
			     struct cmd_analyze_stats *st,
			     const struct classify_incident *inc, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		cmd_analyze_count(st, &inc[i]);
		if (opts->json)
			cmd_analyze_print_json(&inc[i]);
		else
			cmd_analyze_print_text(&inc[i]);
	}
}

/* One complete line (without its '\n') of the input. */
static void cmd_analyze_line(const struct cmd_analyze_opts *opts,
			     struct cmd_analyze_stats *st,
			     struct classify *cl, struct kmsg_export *ex,
			     const char *line, size_t len)
{
	struct classify_incident inc[CLASSIFY_MAX_OUT];
	struct kmsg_record rec;
	int ret;

	st->lines++;
	if (kmsg_export_is_field(line, len) || (ex->any && !len) ||
	    (ex->any && !memchr(line, '=', len))) {
		ret = kmsg_export_feed(ex, line, len, &rec);
		if (ret == 0 && len)
			return;
		if (ret == 0 || ret == KMSG_NOT_KERNEL) {
			st->other++;
			return;
		}
		if (ret < 0) {
			st->malformed++;
			return;
		}
	} else {
		ret = kmsg_parse_line(line, len, &rec);
		if (ret == KMSG_NOT_KERNEL) {
			st->other++;
			return;
		}
		if (ret < 0) {
			st->malformed++;
			return;
		}
	}
	st->kernel++;
	cmd_analyze_emit(opts, st, inc, classify_feed(cl, &rec, inc));
}

/*
 * Stream f line by line through the parser and the classifier.  A line
 * longer than KMSG_LINE_MAX is malformed: the rest of it is skipped, not
 * kept.  Returns 0 or a negative errno from reading.
 */
static int cmd_analyze_stream(const struct cmd_analyze_opts *opts, FILE *f,
			      struct cmd_analyze_stats *st)
{
	struct classify_incident inc[CLASSIFY_MAX_OUT];
	struct kmsg_export *ex;
	struct classify cl;
	size_t cap = KMSG_LINE_MAX + 1, len = 0;
	bool skipping = false;
	char *buf;
	int c, ret = 0;

	buf = malloc(cap);
	ex = malloc(sizeof(*ex));
	if (!buf || !ex) {
		ret = -ENOMEM;
		goto out;
	}
	kmsg_export_init(ex);
	classify_init(&cl);
	while ((c = getc_unlocked(f)) != EOF) {
		if (c == '\n') {
			if (skipping) {
				st->lines++;
				st->malformed++;
			} else {
				cmd_analyze_line(opts, st, &cl, ex, buf, len);
			}
			len = 0;
			skipping = false;
			continue;
		}
		if (skipping)
			continue;
		if (len == cap - 1) {
			skipping = true;
			continue;
		}
		buf[len++] = (char)c;
	}
	if (ferror(f)) {
		ret = -errno;
		if (!ret)
			ret = -EIO;
		goto out;
	}
	if (skipping) {
		st->lines++;
		st->malformed++;
	} else if (len) {
		cmd_analyze_line(opts, st, &cl, ex, buf, len);
	}
	/* an export stream may end without its last blank line */
	if (ex->any)
		cmd_analyze_line(opts, st, &cl, ex, "", 0);
	cmd_analyze_emit(opts, st, inc, classify_flush(&cl, inc));
out:
	free(ex);
	free(buf);
	return ret;
}

/* --- a recording: events.jsonl through derive.c again ------------------ */

struct cmd_analyze_rec {
	const struct cmd_analyze_opts *opts;
	struct cmd_analyze_stats *st;
	struct evjson_writer *w;
};

static void cmd_analyze_rec_out(void *arg, struct ev *ev)
{
	struct cmd_analyze_rec *ar = arg;
	const char *line;
	size_t len;

	if (ev->type == EV_INCIDENT) {
		cmd_analyze_count(ar->st, &ev->u.incident.inc);
		if (ar->opts->json) {
			/* as events.jsonl has them */
			if (!evjson_writer_line(ar->w, ev, &line, &len))
				printf("%.*s\n", (int)len, line);
		} else {
			cmd_analyze_print_text(&ev->u.incident.inc);
		}
	}
	ev_free(ev);
}

/*
 * The kernel log lines, trace records and device events of a recording,
 * through the same derivation as "record" ran live (its own incidents and
 * samples in the file are not read: they are made again).
 */
static int cmd_analyze_recording(const struct cmd_analyze_opts *opts,
				 FILE *f, struct cmd_analyze_stats *st)
{
	struct derive_opts dopts = DERIVE_OPTS_DEFAULT;
	struct cmd_analyze_rec ar = { opts, st, evjson_writer_new() };
	struct devmap *map = calloc(1, sizeof(*map));
	struct ev *ev = calloc(1, sizeof(*ev));
	struct derive *d = NULL;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int ret = 0;

	if (map && ev && ar.w)
		d = derive_new(&dopts, cmd_analyze_rec_out, &ar);
	if (!d) {
		ret = -ENOMEM;
		goto out;
	}
	devmap_init(map);
	while ((n = getline(&line, &cap, f)) > 0) {
		st->lines++;
		if (evjson_parse_event(line, (size_t)n, ev)) {
			st->malformed++;
			continue;
		}
		switch (ev->type) {
		case EV_DEVICE:
			devmap_update(map, ev);
			break;
		case EV_KLOG:
			st->kernel++;
			devmap_resolve(map, ev);
			break;
		case EV_TRACE:
			devmap_resolve(map, ev);
			break;
		case EV_USBMON:
		case EV_SAMPLE:
		case EV_MARKER:
		case EV_LOST:
		case EV_INCIDENT:
		case EV_TYPE_MAX:
			st->other++;
			continue;
		}
		derive_feed(d, map, ev);
		derive_advance(d, ev->t_ns);
	}
	if (ferror(f))
		ret = -EIO;
	derive_flush(d);
out:
	derive_free(d);
	evjson_writer_free(ar.w);
	free(line);
	free(ev);
	free(map);
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

static int cmd_analyze_run(const struct cmd_analyze_opts *opts)
{
	struct cmd_analyze_stats st;
	char path[4096];
	const char *name = opts->input;
	struct stat sb;
	FILE *f;
	size_t i;
	int ret;

	memset(&st, 0, sizeof(st));
	if (!strcmp(name, "-")) {
		f = stdin;
		name = "standard input";
	} else {
		if (stat(name, &sb)) {
			fprintf(stderr, "%s %s: %s: %m\n", CLI_PROG,
				CMD_ANALYZE_NAME, name);
			return CLI_EXIT_FAILURE;
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
				return CLI_EXIT_FAILURE;
			}
			fprintf(stderr, "%s %s: reading %s\n", CLI_PROG,
				CMD_ANALYZE_NAME, path);
			name = path;
		}
		f = fopen(name, "re");
		if (!f) {
			fprintf(stderr, "%s %s: %s: %m\n", CLI_PROG,
				CMD_ANALYZE_NAME, name);
			return CLI_EXIT_FAILURE;
		}
	}
	if (cmd_analyze_is_jsonl(name))
		ret = cmd_analyze_recording(opts, f, &st);
	else
		ret = cmd_analyze_stream(opts, f, &st);
	if (f != stdin)
		fclose(f);
	if (ret) {
		fprintf(stderr, "%s %s: %s: %s\n", CLI_PROG, CMD_ANALYZE_NAME,
			name, strerror(-ret));
		return CLI_EXIT_FAILURE;
	}
	if (!opts->json)
		cmd_analyze_summary(&st);
	else if (st.malformed)
		fprintf(stderr, "%s %s: %lu malformed line%s skipped\n",
			CLI_PROG, CMD_ANALYZE_NAME, st.malformed,
			st.malformed == 1 ? "" : "s");
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "%s %s: writing the output: %m\n", CLI_PROG,
			CMD_ANALYZE_NAME);
		return CLI_EXIT_FAILURE;
	}
	return CLI_EXIT_OK;
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
