// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_watch.c - "usbtrail watch": the recorder as an always-on service
 * (tools/systemd/usbtrail-watch.service).
 *
 * The same sources as "usbtrail record" (the module or tracefs, the kernel
 * log, sysfs; no usbmon: its cost is per URB) feed the same recorder
 * (record.c), whose sinks here are the store (sink_watch.c: a bounded ring
 * of recordings and one recording per incident), the journal
 * (sink_journal.c: one entry per incident, naming its recording) and the
 * metrics (sink_metrics.c: a Prometheus textfile).  This file is the
 * command: options and --config, which sources open, opening a source
 * again when it went away, SIGHUP, and the messages.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cli.h"
#include "meta.h"
#include "record.h"
#include "sink_watch.h"
#include "uas_probe.h"
#include "util.h"

#define CMD_WATCH_NAME		"watch"
#ifndef USBTRAIL_VERSION
#define USBTRAIL_VERSION	"unknown"	/* unit-test builds */
#endif
#define CMD_WATCH_DEF_DIR	"/var/lib/usbtrail"
#define CMD_WATCH_DEF_KEEP	(2ull << 30)
#define CMD_WATCH_MIN_KEEP	(4ull << 20)
#define CMD_WATCH_DEF_DAYS	30
#define CMD_WATCH_DEF_AROUND	30
#define CMD_WATCH_MAX_AROUND	600
#define CMD_WATCH_SEGMENT_MAX	(64ull << 20)
#define CMD_WATCH_SEGMENT_S	900
#define CMD_WATCH_RETRY_NS	(5ull * 1000000000)	/* a source down */
#define CMD_WATCH_CONFIG_MAX	(64 * 1024)
#define CMD_WATCH_CONFIG_ARGS	64

/* Exit statuses beside cli.h's (as record's: docs/watch.md) */
enum {
	CMD_WATCH_EXIT_NO_SOURCE = 3,
};

enum cmd_watch_source {
	CMD_WATCH_SOURCE_AUTO,
	CMD_WATCH_SOURCE_MODULE,
	CMD_WATCH_SOURCE_TRACEFS,
};

static const char *const cmd_watch_sources[] = {
	[CMD_WATCH_SOURCE_AUTO] = "auto",
	[CMD_WATCH_SOURCE_MODULE] = "module",
	[CMD_WATCH_SOURCE_TRACEFS] = "tracefs",
	NULL
};

struct cmd_watch_opts {
	const char *dir;
	uint64_t keep;
	uint64_t keep_days;
	uint64_t before, after;
	uint64_t segment;		/* 0: from --keep */
	uint64_t metrics_every;		/* seconds */
	const char *metrics;		/* NULL: none */
	const char *config;		/* NULL: none */
	unsigned int source;		/* enum cmd_watch_source */
	bool journal;
	bool quiet;
	/* --config's text, which the option strings above may point into */
	char *config_text;
};

const char cmd_watch_help[] =
"Usage: usbtrail watch [OPTIONS]\n"
"\n"
"Record all the time, as a service does (usbtrail-watch.service): every\n"
"event into a ring of recordings in DIR/ring that never grows past\n"
"--keep, every incident to the systemd journal with its USBTRAIL_* fields,\n"
"and for each incident a recording in DIR/incidents of the seconds before\n"
"and after it, which 'usbtrail report' and 'usbtrail analyze' read.\n"
"\n"
"Options:\n"
"  -d, --dir DIR           where the recordings go (default " CMD_WATCH_DEF_DIR ")\n"
"      --keep SIZE         the ring and the incident recordings together\n"
"                          take at most SIZE (4MiB to 16TiB, default 2GiB);\n"
"                          the oldest ring pieces go first, then the oldest\n"
"                          incident recordings\n"
"      --keep-days N       remove recordings older than N days (0 never;\n"
"                          default 30)\n"
"      --before S          keep S seconds before an incident (0 to 600,\n"
"                          default 30)\n"
"      --after S           and S seconds after the last incident close to\n"
"                          it (0 to 600, default 30)\n"
"      --segment SIZE      start a new ring piece after SIZE (64KiB to\n"
"                          64MiB; default --keep/16, at most 64MiB) or 15\n"
"                          minutes\n"
"      --metrics FILE      write Prometheus metrics to FILE (for\n"
"                          node_exporter's textfile collector), replaced\n"
"                          whole every --metrics-interval and at the end\n"
"      --metrics-interval S  (1 to 3600, default 15)\n"
"      --source SRC        kernel events from 'module', 'tracefs' or 'auto'\n"
"                          (the module if it is loaded, else tracefs;\n"
"                          default)\n"
"      --no-journal        do not send incidents to the systemd journal\n"
"      --config FILE       read options from FILE, one 'name value' per\n"
"                          line (the long names above, without '--'; '#'\n"
"                          starts a comment), now and on SIGHUP\n"
"  -q, --quiet             no line on stdout per incident recording\n"
"  -h, --help              show this help and exit\n"
"\n"
"SIZE takes a K, M, G, T (or KiB, MiB, GiB, TiB) suffix: powers of 1024.\n"
"SIGHUP reads --config again (all but --dir, --source and --metrics),\n"
"opens a source that went away and starts a new ring piece; a source\n"
"that fails, or did not open at the start, is tried every 5 s.  SIGTERM or SIGINT stops it with every file\n"
"complete.  A full disk does not stop it: it prunes, keeps up to 8 MiB\n"
"unwritten and counts what it could not keep.  Needs root, as record.\n"
"Exit status: 0 stopped by a signal; 1 DIR cannot be written or --config\n"
"read; 2 usage error (also in --config); 3 no event source could be\n"
"opened.\n";

enum {
	CMD_WATCH_OPT_KEEP = 256,
	CMD_WATCH_OPT_KEEP_DAYS,
	CMD_WATCH_OPT_BEFORE,
	CMD_WATCH_OPT_AFTER,
	CMD_WATCH_OPT_SEGMENT,
	CMD_WATCH_OPT_METRICS,
	CMD_WATCH_OPT_METRICS_EVERY,
	CMD_WATCH_OPT_SOURCE,
	CMD_WATCH_OPT_NO_JOURNAL,
	CMD_WATCH_OPT_CONFIG,
};

static const char cmd_watch_optstring[] = ":hqd:";
static const struct option cmd_watch_longopts[] = {
	{ "help",	      no_argument,	 NULL, 'h' },
	{ "dir",	      required_argument, NULL, 'd' },
	{ "keep",	      required_argument, NULL, CMD_WATCH_OPT_KEEP },
	{ "keep-days",	      required_argument, NULL, CMD_WATCH_OPT_KEEP_DAYS },
	{ "before",	      required_argument, NULL, CMD_WATCH_OPT_BEFORE },
	{ "after",	      required_argument, NULL, CMD_WATCH_OPT_AFTER },
	{ "segment",	      required_argument, NULL, CMD_WATCH_OPT_SEGMENT },
	{ "metrics",	      required_argument, NULL, CMD_WATCH_OPT_METRICS },
	{ "metrics-interval", required_argument, NULL,
	  CMD_WATCH_OPT_METRICS_EVERY },
	{ "source",	      required_argument, NULL, CMD_WATCH_OPT_SOURCE },
	{ "no-journal",	      no_argument,	 NULL, CMD_WATCH_OPT_NO_JOURNAL },
	{ "config",	      required_argument, NULL, CMD_WATCH_OPT_CONFIG },
	{ "quiet",	      no_argument,	 NULL, 'q' },
	{ NULL,		      0,		 NULL, 0 }
};

/* One option but -h.  Return: 0 or CLI_EXIT_USAGE. */
static int cmd_watch_parse_opt(int c, const char *arg,
			       struct cmd_watch_opts *o)
{
	switch (c) {
	case 'q':
		o->quiet = true;
		return 0;
	case 'd':
		if (!*arg)
			return cli_usage_error(CMD_WATCH_NAME,
					       "--dir must not be empty");
		o->dir = arg;
		return 0;
	case CMD_WATCH_OPT_KEEP:
		return cli_parse_number(CMD_WATCH_NAME, "--keep", arg,
					UTIL_NUM_SIZE, CMD_WATCH_MIN_KEEP,
					16ull << 40, &o->keep) ?
		       CLI_EXIT_USAGE : 0;
	case CMD_WATCH_OPT_KEEP_DAYS:
		return cli_parse_number(CMD_WATCH_NAME, "--keep-days", arg, 0,
					0, 36500, &o->keep_days) ?
		       CLI_EXIT_USAGE : 0;
	case CMD_WATCH_OPT_BEFORE:
		return cli_parse_number(CMD_WATCH_NAME, "--before", arg, 0, 0,
					CMD_WATCH_MAX_AROUND, &o->before) ?
		       CLI_EXIT_USAGE : 0;
	case CMD_WATCH_OPT_AFTER:
		return cli_parse_number(CMD_WATCH_NAME, "--after", arg, 0, 0,
					CMD_WATCH_MAX_AROUND, &o->after) ?
		       CLI_EXIT_USAGE : 0;
	case CMD_WATCH_OPT_SEGMENT:
		return cli_parse_number(CMD_WATCH_NAME, "--segment", arg,
					UTIL_NUM_SIZE, 64 << 10,
					CMD_WATCH_SEGMENT_MAX, &o->segment) ?
		       CLI_EXIT_USAGE : 0;
	case CMD_WATCH_OPT_METRICS:
		if (!*arg)
			return cli_usage_error(CMD_WATCH_NAME,
					       "--metrics must not be empty");
		o->metrics = arg;
		return 0;
	case CMD_WATCH_OPT_METRICS_EVERY:
		return cli_parse_number(CMD_WATCH_NAME, "--metrics-interval",
					arg, 0, 1, 3600, &o->metrics_every) ?
		       CLI_EXIT_USAGE : 0;
	case CMD_WATCH_OPT_SOURCE:
		return cli_parse_choice(CMD_WATCH_NAME, "--source", arg,
					cmd_watch_sources, &o->source) ?
		       CLI_EXIT_USAGE : 0;
	case CMD_WATCH_OPT_NO_JOURNAL:
		o->journal = false;
		return 0;
	case CMD_WATCH_OPT_CONFIG:
		if (!*arg)
			return cli_usage_error(CMD_WATCH_NAME,
					       "--config must not be empty");
		o->config = arg;
		return 0;
	}
	return 0;
}

/* argv through getopt_long into @o.  0, CLI_EXIT_USAGE; -h sets *help. */
static int cmd_watch_getopt(int argc, char **argv, struct cmd_watch_opts *o,
			    bool *help)
{
	int c, ret;

	optind = 0;		/* glibc: start over, also the second time */
	opterr = 0;
	while ((c = getopt_long(argc, argv, cmd_watch_optstring,
				cmd_watch_longopts, NULL)) != -1) {
		if (c == 'h') {
			*help = true;
			return 0;
		}
		if (c == '?' || c == ':')
			return cli_getopt_error(CMD_WATCH_NAME, c, argv,
						cmd_watch_optstring,
						cmd_watch_longopts);
		ret = cmd_watch_parse_opt(c, optarg, o);
		if (ret)
			return ret;
	}
	if (optind < argc)
		return cli_usage_error(CMD_WATCH_NAME,
				       "unexpected argument '%s'", argv[optind]);
	return 0;
}

/*
 * --config FILE into @o: each line "name value" is "--name value" (or
 * "--name" alone), given to the same parser as the command line, so the
 * two cannot differ.  @o->config_text keeps the strings.  Return: 0 or
 * CLI_EXIT_USAGE / CLI_EXIT_FAILURE, said on stderr with the line.
 */
static int cmd_watch_config(const char *path, struct cmd_watch_opts *o)
{
	char *args[CMD_WATCH_CONFIG_ARGS + 2];
	char opt[CMD_WATCH_CONFIG_ARGS][64];
	unsigned int argc = 0, lineno = 0;
	char *text, *line, *next;
	bool help = false;
	ssize_t n;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "usbtrail watch: --config %s: %s\n", path,
			strerror(errno));
		return CLI_EXIT_FAILURE;
	}
	text = malloc(CMD_WATCH_CONFIG_MAX + 1);
	if (!text) {
		close(fd);
		return CLI_EXIT_FAILURE;
	}
	n = read(fd, text, CMD_WATCH_CONFIG_MAX + 1);
	close(fd);
	if (n < 0 || n > CMD_WATCH_CONFIG_MAX) {
		fprintf(stderr, "usbtrail watch: --config %s: %s\n", path,
			n < 0 ? strerror(errno) : "larger than 64 KiB");
		free(text);
		return CLI_EXIT_FAILURE;
	}
	text[n] = '\0';
	args[argc++] = (char *)"watch";
	for (line = text; line; line = next) {
		char *name, *value, *hash;

		lineno++;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		name = strtok(line, " \t\r");
		if (!name)
			continue;
		value = strtok(NULL, "\r");
		while (value && (*value == ' ' || *value == '\t'))
			value++;
		if (value) {
			char *e = value + strlen(value);

			while (e > value && (e[-1] == ' ' || e[-1] == '\t'))
				*--e = '\0';
			if (!*value)
				value = NULL;
		}
		if (!strcmp(name, "dir") || !strcmp(name, "source") ||
		    !strcmp(name, "config") || !strcmp(name, "help") ||
		    strlen(name) + 3 > sizeof(opt[0]) ||
		    argc + 2 > CMD_WATCH_CONFIG_ARGS) {
			fprintf(stderr, "usbtrail watch: %s:%u: '%s' cannot "
				"be set here\n", path, lineno, name);
			free(text);
			return CLI_EXIT_USAGE;
		}
		snprintf(opt[argc], sizeof(opt[0]), "--%s", name);
		args[argc] = opt[argc];
		argc++;
		if (value)
			args[argc++] = value;
	}
	args[argc] = NULL;
	ret = cmd_watch_getopt((int)argc, args, o, &help);
	if (ret || help) {
		fprintf(stderr, "usbtrail watch: in %s\n", path);
		free(text);
		return CLI_EXIT_USAGE;
	}
	free(o->config_text);
	o->config_text = text;
	/* the option strings point into text; the opt[] names are gone */
	return 0;
}

static void cmd_watch_defaults(struct cmd_watch_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->dir = CMD_WATCH_DEF_DIR;
	o->keep = CMD_WATCH_DEF_KEEP;
	o->keep_days = CMD_WATCH_DEF_DAYS;
	o->before = CMD_WATCH_DEF_AROUND;
	o->after = CMD_WATCH_DEF_AROUND;
	o->metrics_every = 15;
	o->journal = true;
}

/* --- the service ----------------------------------------------------------- */

enum cmd_watch_slot {
	CMD_WATCH_SLOT_TRACE,
	CMD_WATCH_SLOT_SYSFS,
	CMD_WATCH_SLOT_KMSG,
	CMD_WATCH_SLOTS,
};

static const char *const cmd_watch_slot_names[] = {
	[CMD_WATCH_SLOT_TRACE] = "kernel trace events",
	[CMD_WATCH_SLOT_SYSFS] = "sysfs",
	[CMD_WATCH_SLOT_KMSG] = "kernel log",
};

struct cmd_watch_ctx {
	struct cmd_watch_opts opts;	/* as now, after --config */
	char **argv;			/* the command line, for SIGHUP */
	int argc;
	struct rec *rec;
	struct derive_opts dip;
	struct rec_source src[CMD_WATCH_SLOTS];
	bool open[CMD_WATCH_SLOTS];	/* in the recorder */
	struct rec_source meta_src[CMD_WATCH_SLOTS];	/* those, for meta */
	uint64_t retry_at[CMD_WATCH_SLOTS];
	struct rec_sink store, journal, metrics;
	struct sink_watch_stats ws;	/* the store's, kept here */
	bool have_journal, have_metrics;
	char metrics_path[4096];	/* --metrics as it started */
	const char *trace_source;
	struct json_object *uas;
	int uas_err;
	uint64_t metrics_at;
	bool hup;
};

/* The trace source of --source into @s.  0 or -errno of the last tried. */
static int cmd_watch_open_trace(struct cmd_watch_ctx *x, struct rec_source *s)
{
	int ret = -ENOENT;

	if (x->opts.source != CMD_WATCH_SOURCE_TRACEFS) {
		ret = src_module_open(s, x->rec);
		if (!ret) {
			x->trace_source = "module";
			return 0;
		}
		if (x->opts.source == CMD_WATCH_SOURCE_MODULE)
			return ret;
	}
	ret = src_tracefs_open(s, x->rec);
	if (!ret)
		x->trace_source = "tracefs";
	return ret;
}

static int cmd_watch_open_slot(struct cmd_watch_ctx *x, enum cmd_watch_slot k)
{
	struct rec_source *s = &x->src[k];

	switch (k) {
	case CMD_WATCH_SLOT_TRACE:
		return cmd_watch_open_trace(x, s);
	case CMD_WATCH_SLOT_SYSFS:
		return src_sysfs_open(s, x->rec);
	case CMD_WATCH_SLOT_KMSG:
		return src_kmsg_open(s, x->rec);
	case CMD_WATCH_SLOTS:
		break;
	}
	return -EINVAL;
}

/* sink_watch's meta_fill(): what every meta.json says of the recorder */
static void cmd_watch_meta_fill(void *arg, struct meta_record *m)
{
	struct cmd_watch_ctx *x = arg;
	static const struct rec_stats none;
	unsigned int k, n = 0;

	for (k = 0; k < CMD_WATCH_SLOTS; k++)
		if (x->open[k] && x->src[k].name)
			x->meta_src[n++] = x->src[k];
	memset(m, 0, sizeof(*m));
	m->version = USBTRAIL_VERSION;
	m->clock = rec_clock(x->rec);
	m->stats = &none;
	m->dip = &x->dip;
	m->trace_source = x->trace_source;
	m->src = x->meta_src;
	m->nsrc = n;
	m->uas = x->uas;
	m->uas_err = x->uas_err;
}

/* sink_watch's on_capture(): a line for whoever watches stdout */
static void cmd_watch_on_capture(void *arg, const char *dir)
{
	struct cmd_watch_ctx *x = arg;

	if (!x->opts.quiet) {
		printf("usbtrail watch: incident: recording %s\n", dir);
		fflush(stdout);
	}
}

/*
 * sink_watch's on_incident(): the journal entry, which names the incident
 * recording it is in; so the journal sink is fed by the store, not by
 * the recorder.
 */
static void cmd_watch_on_incident(void *arg, const struct ev *ev,
				  const char *dir)
{
	struct cmd_watch_ctx *x = arg;

	if (!x->have_journal)
		return;
	sink_journal_set_recording(&x->journal, dir);
	if (x->journal.event(&x->journal, ev) == 0)
		x->journal.written++;
}

/* sink_watch's on_error(): said once when it starts, once when it ends */
static void cmd_watch_on_error(void *arg, const char *path, int err)
{
	(void)arg;
	if (err)
		fprintf(stderr, "usbtrail watch: cannot write into %s: %s; "
			"what could not be written waits (up to 8 MiB) while "
			"older recordings are removed\n", path, strerror(-err));
	else
		fprintf(stderr, "usbtrail watch: writing into %s again\n",
			path);
}

static void cmd_watch_store_opts(struct cmd_watch_ctx *x,
				 struct sink_watch_opts *so)
{
	const struct cmd_watch_opts *o = &x->opts;

	memset(so, 0, sizeof(*so));
	so->dir = o->dir;
	so->keep_bytes = o->keep;
	so->keep_days = (unsigned int)o->keep_days;
	so->before_s = (unsigned int)o->before;
	so->after_s = (unsigned int)o->after;
	so->segment_bytes = o->segment ? o->segment : o->keep / 16;
	if (so->segment_bytes > CMD_WATCH_SEGMENT_MAX)
		so->segment_bytes = CMD_WATCH_SEGMENT_MAX;
	so->segment_s = CMD_WATCH_SEGMENT_S;
	so->clock = rec_clock(x->rec);
	so->meta_fill = cmd_watch_meta_fill;
	so->on_capture = cmd_watch_on_capture;
	so->on_incident = cmd_watch_on_incident;
	so->on_error = cmd_watch_on_error;
	so->arg = x;
	so->stats = &x->ws;
}

static void cmd_watch_metrics(struct cmd_watch_ctx *x)
{
	int ret;

	if (!x->have_metrics)
		return;
	ret = sink_metrics_write(&x->metrics);
	if (ret)
		fprintf(stderr, "usbtrail watch: cannot write %s: %s\n",
			x->metrics_path, strerror(-ret));
}

/* SIGHUP: --config again, sources that are down now, a new ring piece. */
static void cmd_watch_reload(struct cmd_watch_ctx *x)
{
	struct cmd_watch_opts o;
	struct sink_watch_opts so;
	bool help = false;
	unsigned int k;

	cmd_watch_defaults(&o);
	if (cmd_watch_getopt(x->argc, x->argv, &o, &help) ||
	    (o.config && cmd_watch_config(o.config, &o))) {
		fprintf(stderr, "usbtrail watch: SIGHUP: --config not "
			"taken, the settings stay as they were\n");
		free(o.config_text);
		o.config_text = NULL;
	} else {
		/* these need a new service, not a reload */
		o.dir = x->opts.dir;
		o.source = x->opts.source;
		if (o.metrics && strcmp(o.metrics, x->metrics_path))
			fprintf(stderr, "usbtrail watch: SIGHUP: --metrics "
				"changes with a restart only\n");
		o.metrics = x->metrics_path[0] ? x->metrics_path : NULL;
		o.journal = x->opts.journal;
		free(x->opts.config_text);
		x->opts = o;
		cmd_watch_store_opts(x, &so);
		sink_watch_reconfigure(&x->store, &so);
		fprintf(stderr, "usbtrail watch: SIGHUP: keep %llu bytes, "
			"%llu days, %llu s before and %llu s after incidents\n",
			(unsigned long long)o.keep,
			(unsigned long long)o.keep_days,
			(unsigned long long)o.before,
			(unsigned long long)o.after);
	}
	for (k = 0; k < CMD_WATCH_SLOTS; k++)
		x->retry_at[k] = 0;
	cmd_watch_metrics(x);
}

static void cmd_watch_hup(void *arg, struct rec *r)
{
	struct cmd_watch_ctx *x = arg;

	(void)r;
	x->hup = true;
}

/* The recorder's tick: the store, sources to open again, the metrics. */
static void cmd_watch_tick(void *arg, struct rec *r, uint64_t now)
{
	struct cmd_watch_ctx *x = arg;
	unsigned int k;
	int ret;

	if (x->hup) {
		x->hup = false;
		cmd_watch_reload(x);
	}
	sink_watch_tick(&x->store, now);
	for (k = 0; k < CMD_WATCH_SLOTS; k++) {
		struct rec_source *s = &x->src[k];

		/* down, or never opened (the module loaded after watch began) */
		if ((x->open[k] && !s->down) || now < x->retry_at[k])
			continue;
		x->retry_at[k] = now + CMD_WATCH_RETRY_NS;
		if (!x->open[k])
			memset(s, 0, sizeof(*s));
		ret = cmd_watch_open_slot(x, k);
		if (ret) {
			/* open() leaves *s as it was, or cleared: down again */
			if (x->open[k]) {
				s->down = ret;
				s->fd = -1;
			}
			continue;
		}
		if (!x->open[k]) {
			x->open[k] = true;
			rec_add_source(r, s);
		}
		ret = rec_source_resume(r, s);
		fprintf(stderr, "usbtrail watch: %s: %s%s%s\n",
			cmd_watch_slot_names[k], ret ? strerror(-ret) : "opened",
			!ret && k == CMD_WATCH_SLOT_TRACE ? ": " : "",
			!ret && k == CMD_WATCH_SLOT_TRACE ? x->trace_source : "");
	}
	if (x->have_metrics && now >= x->metrics_at) {
		x->metrics_at = now + x->opts.metrics_every * 1000000000ull;
		cmd_watch_metrics(x);
	}
}

/*
 * The sources: the trace source, sysfs, the kernel log.  Return: 0 when
 * at least the trace source or the kernel log opened, else -ENOENT, said.
 */
static int cmd_watch_open_sources(struct cmd_watch_ctx *x)
{
	unsigned int k, events = 0;
	int ret;

	for (k = 0; k < CMD_WATCH_SLOTS; k++) {
		ret = cmd_watch_open_slot(x, k);
		if (ret) {
			fprintf(stderr, "usbtrail watch: without the %s for "
				"now (tried again every 5 s): %s\n",
				cmd_watch_slot_names[k], strerror(-ret));
			if (k == CMD_WATCH_SLOT_TRACE &&
			    x->opts.source != CMD_WATCH_SOURCE_AUTO)
				return -ENOENT;
			continue;
		}
		x->open[k] = true;
		rec_add_source(x->rec, &x->src[k]);
		if (k != CMD_WATCH_SLOT_SYSFS)
			events++;
	}
	if (!events) {
		fprintf(stderr, "usbtrail watch: no event source could be "
			"opened (as 'usbtrail record', it needs root, and "
			"usbtrail.ko or tracefs)\n");
		return -ENOENT;
	}
	return 0;
}

static int cmd_watch_open_sinks(struct cmd_watch_ctx *x)
{
	struct sink_watch_opts so;
	int ret;

	if (x->opts.journal) {
		ret = sink_journal_open(&x->journal, NULL);
		if (!ret) {
			/* fed by the store (cmd_watch_on_incident()) */
			x->have_journal = true;
		} else {
			fprintf(stderr, "usbtrail watch: incidents not sent to "
				"the journal: %s\n", ret == -ENOENT ?
				"no systemd journal here" : strerror(-ret));
		}
	}
	cmd_watch_store_opts(x, &so);
	ret = sink_watch_open(&x->store, &so);
	if (ret) {
		fprintf(stderr, "usbtrail watch: cannot write into %s: %s\n",
			x->opts.dir, strerror(-ret));
		return ret;
	}
	rec_add_sink(x->rec, &x->store);
	if (x->opts.metrics) {
		struct sink_metrics_from from = {
			.rs = rec_stats(x->rec), .src = x->src,
			.nsrc = CMD_WATCH_SLOTS, .ws = &x->ws,
		};

		snprintf(x->metrics_path, sizeof(x->metrics_path), "%s",
			 x->opts.metrics);
		ret = sink_metrics_open(&x->metrics, x->metrics_path,
					rec_clock(x->rec), &from);
		if (ret) {
			fprintf(stderr, "usbtrail watch: --metrics %s: %s\n",
				x->opts.metrics, strerror(-ret));
			return ret;
		}
		x->have_metrics = true;
		rec_add_sink(x->rec, &x->metrics);
	}
	return 0;
}

int cmd_watch_main(int argc, char **argv)
{
	struct cmd_watch_ctx *x;
	struct rec_run_opts ro;
	const struct sink_watch_stats *ws;
	bool help = false;
	int ret, status;

	x = calloc(1, sizeof(*x));
	if (!x)
		return CLI_EXIT_FAILURE;
	cmd_watch_defaults(&x->opts);
	ret = cmd_watch_getopt(argc, argv, &x->opts, &help);
	if (!ret && !help && x->opts.config)
		ret = cmd_watch_config(x->opts.config, &x->opts);
	if (ret || help) {
		if (help)
			fputs(cmd_watch_help, stdout);
		free(x->opts.config_text);
		free(x);
		return help ? CLI_EXIT_OK : ret;
	}
	x->argc = argc;
	x->argv = argv;
	/* systemctl stop or reload while it starts: acted on once it runs */
	rec_hold_signals(NULL, true);
	rec_set_who("usbtrail watch");
	x->dip = (struct derive_opts)DERIVE_OPTS_DEFAULT;
	x->rec = rec_new(&x->dip);
	if (!x->rec) {
		fprintf(stderr, "usbtrail watch: %s\n", strerror(errno));
		free(x->opts.config_text);
		free(x);
		return CLI_EXIT_FAILURE;
	}
	x->uas = uas_verdicts_json(&x->uas_err);

	status = CLI_EXIT_OK;
	ret = cmd_watch_open_sources(x);
	if (ret)
		status = CMD_WATCH_EXIT_NO_SOURCE;
	else if (cmd_watch_open_sinks(x))
		status = CLI_EXIT_FAILURE;
	if (status) {
		unsigned int k;

		for (k = 0; k < CMD_WATCH_SLOTS; k++)
			if (x->open[k] && x->src[k].close)
				x->src[k].close(&x->src[k], x->rec);
		goto out;
	}
	fprintf(stderr, "usbtrail watch: recording into %s (kernel events: "
		"%s), keeping %llu bytes\n", x->opts.dir,
		x->trace_source ? x->trace_source : "none",
		(unsigned long long)x->opts.keep);

	memset(&ro, 0, sizeof(ro));
	ro.marker_fd = -1;
	ro.keep_going = true;
	ro.tick = cmd_watch_tick;
	ro.hup = cmd_watch_hup;
	ro.arg = x;
	/* the sinks are closed when it returns: metrics written last */
	ret = rec_run(x->rec, &ro);
	if (x->have_journal)
		x->journal.close(&x->journal);
	ws = &x->ws;
	if (ret) {
		fprintf(stderr, "usbtrail watch: %s\n", strerror(-ret));
		status = CLI_EXIT_FAILURE;
	}
	fprintf(stderr, "usbtrail watch: stopped: %llu incidents, %llu "
		"incident recordings, %llu recordings pruned, %llu events "
		"not stored\n", (unsigned long long)ws->incidents,
		(unsigned long long)ws->captures,
		(unsigned long long)ws->pruned,
		(unsigned long long)(ws->lost + ws->lost_pending));
out:
	if (x->have_journal)
		x->journal.close(&x->journal);	/* NULL-safe, twice too */
	json_object_put(x->uas);
	rec_free(x->rec);
	free(x->opts.config_text);
	free(x);
	return status;
}
