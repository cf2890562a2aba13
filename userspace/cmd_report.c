// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_report.c - "usbtrail report": options of the step that turns a
 * recording into an HTML report and a bundle to attach to a bug report.
 *
 * Loads the recording (recording.c), writes report.txt and report.html
 * (report_text.c, report_html.c) and, with --bundle, the tar.gz for a bug
 * report (bundle.c).  Every file is written to a temporary name and
 * renamed when whole, so an interrupted run leaves no half file behind.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <sys/stat.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bundle.h"
#include "cli.h"
#include "compare.h"
#include "recording.h"
#include "report.h"
#include "savefile.h"
#include "util.h"

#define CMD_REPORT_NAME		"report"
#define CMD_REPORT_MIN_SIZE	(64u << 10)
#define CMD_REPORT_MAX_SIZE	(4ull << 30)
/* Small enough to attach to a mail or a bug tracker. */
#define CMD_REPORT_DEF_SIZE	(1ull << 20)

struct cmd_report_opts {
	const char *dir;
	const char *html;		/* NULL: DIR/report.html */
	const char *bundle;		/* NULL: no bundle */
	uint64_t max_size;
	bool keep_serials;
	bool keep_ids;
	bool compare;			/* --compare: cmd_report_compare.c */
	struct compare_args cmp;
	bool timeline;			/* --timeline: the SVG alone */
	double from, to;		/* its span; < 0: the whole */
};

const char cmd_report_help[] =
"Usage: usbtrail report DIR [-o FILE.html] [--bundle FILE.tar.gz]\n"
"                       [--max-size N] [--keep-serials] [--keep-ids]\n"
"       usbtrail report --compare DIR|BUNDLE... [--format F] [-o FILE]\n"
"       usbtrail report --timeline DIR [-o FILE.svg] [--from S] [--to S]\n"
"\n"
"Turn DIR, a recording made by 'usbtrail record', into an HTML report\n"
"and, with --bundle, a compressed bundle to attach to a bug report.\n"
"\n"
"Options:\n"
"  -o, --output FILE       write the HTML report to FILE (default:\n"
"                          report.html in DIR) and the text report beside\n"
"                          it (FILE.txt; report.txt in DIR); '-' writes\n"
"                          the HTML to standard output and no text file\n"
"      --bundle FILE       write the bug-report bundle (tar.gz) to FILE\n"
"      --max-size N        keep the bundle under N bytes by trimming the\n"
"                          capture around incidents first (64KiB to 4GiB,\n"
"                          default 1MiB, what common bug trackers accept)\n"
"      --keep-serials      keep device serial numbers; by default they are\n"
"                          replaced in the report and the bundle\n"
"      --keep-ids          keep hostnames, user names, IP and MAC addresses,\n"
"                          machine and boot ids in the bundle; by default\n"
"                          each is replaced by a token (host1, user1, ...)\n"
"      --compare           put recordings (directories, or bundles of\n"
"                          --bundle) side by side, a row per disk per\n"
"                          recording: link speed, driver, UAS verdict,\n"
"                          usbtrail stress in CrystalDiskMark's rows,\n"
"                          latency, dips, incidents; to standard output\n"
"                          or -o FILE\n"
"      --format F          of --compare: html, md (a GitHub table) or csv;\n"
"                          default: by FILE's extension, md on standard\n"
"                          output\n"
"      --timeline          write only the timeline, each disk's lanes\n"
"                          (throughput, SCSI latency, commands in flight,\n"
"                          xHCI events, incidents, markers), as an SVG file\n"
"                          (default: timeline.svg in DIR; '-': standard\n"
"                          output), e.g. to paste into a bug report\n"
"      --from S            with --timeline: from S seconds since the\n"
"                          recording began, as report.txt gives times\n"
"      --to S              with --timeline: to S seconds since it began\n"
"  -h, --help              show this help and exit\n"
"\n"
"N takes a K, M, G, T (or KiB, MiB, GiB, TiB) suffix: powers of 1024.\n"
"The names of the files written are printed, one a line.\n"
"Exit status: 0 the reports (and the bundle) written, 1 DIR holds no\n"
"recording or a file could not be written, 2 usage.\n";

enum {
	CMD_REPORT_OPT_BUNDLE = 256,
	CMD_REPORT_OPT_MAX_SIZE,
	CMD_REPORT_OPT_KEEP_SERIALS,
	CMD_REPORT_OPT_KEEP_IDS,
	CMD_REPORT_OPT_COMPARE,
	CMD_REPORT_OPT_FORMAT,
	CMD_REPORT_OPT_TIMELINE,
	CMD_REPORT_OPT_FROM,
	CMD_REPORT_OPT_TO,
};

/* --from, --to: seconds since the recording began, >= 0 */
static int cmd_report_secs(const char *opt, const char *arg, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || *end || errno || !(v >= 0 && v < 1e9))
		return cli_usage_error(CMD_REPORT_NAME, "%s takes seconds since "
				       "the recording began (0 or more), not "
				       "'%s'", opt, arg);
	*out = v;
	return 0;
}

static int cmd_report_parse(int argc, char **argv,
			    struct cmd_report_opts *opts, bool *help)
{
	static const char optstring[] = ":ho:";
	static const struct option longopts[] = {
		{ "help",	  no_argument,	     NULL, 'h' },
		{ "output",	  required_argument, NULL, 'o' },
		{ "bundle",	  required_argument, NULL, CMD_REPORT_OPT_BUNDLE },
		{ "max-size",	  required_argument, NULL, CMD_REPORT_OPT_MAX_SIZE },
		{ "keep-serials", no_argument,	     NULL, CMD_REPORT_OPT_KEEP_SERIALS },
		{ "keep-ids",	  no_argument,	     NULL, CMD_REPORT_OPT_KEEP_IDS },
		{ "compare",	  no_argument,	     NULL, CMD_REPORT_OPT_COMPARE },
		{ "format",	  required_argument, NULL, CMD_REPORT_OPT_FORMAT },
		{ "timeline",	  no_argument,	     NULL, CMD_REPORT_OPT_TIMELINE },
		{ "from",	  required_argument, NULL, CMD_REPORT_OPT_FROM },
		{ "to",		  required_argument, NULL, CMD_REPORT_OPT_TO },
		{ NULL,		  0,		     NULL, 0 }
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
				return cli_usage_error(CMD_REPORT_NAME,
						       "--output must not be empty");
			opts->html = optarg;
			break;
		case CMD_REPORT_OPT_BUNDLE:
			if (!*optarg)
				return cli_usage_error(CMD_REPORT_NAME,
						       "--bundle must not be empty");
			opts->bundle = optarg;
			break;
		case CMD_REPORT_OPT_MAX_SIZE:
			if (cli_parse_number(CMD_REPORT_NAME, "--max-size",
					     optarg, UTIL_NUM_SIZE,
					     CMD_REPORT_MIN_SIZE,
					     CMD_REPORT_MAX_SIZE,
					     &opts->max_size))
				return CLI_EXIT_USAGE;
			break;
		case CMD_REPORT_OPT_KEEP_SERIALS:
			opts->keep_serials = true;
			break;
		case CMD_REPORT_OPT_KEEP_IDS:
			opts->keep_ids = true;
			break;
		case CMD_REPORT_OPT_COMPARE:
			opts->compare = true;
			break;
		case CMD_REPORT_OPT_FORMAT:
			opts->cmp.format = optarg;
			break;
		case CMD_REPORT_OPT_TIMELINE:
			opts->timeline = true;
			break;
		case CMD_REPORT_OPT_FROM:
		case CMD_REPORT_OPT_TO:
			if (cmd_report_secs(c == CMD_REPORT_OPT_FROM ? "--from" :
					    "--to", optarg,
					    c == CMD_REPORT_OPT_FROM ?
					    &opts->from : &opts->to))
				return CLI_EXIT_USAGE;
			break;
		default:
			return cli_getopt_error(CMD_REPORT_NAME, c, argv,
						optstring, longopts);
		}
	}

	if (opts->compare || opts->cmp.format) {
		opts->cmp.inputs = argv + optind;
		opts->cmp.ninputs = argc - optind;
		opts->cmp.output = opts->html;
		return cmd_report_compare_check(&opts->cmp, opts->compare,
						opts->bundle ? "--bundle" :
						opts->keep_serials ?
						"--keep-serials" :
						opts->keep_ids ? "--keep-ids" :
						opts->timeline ? "--timeline" :
						opts->from >= 0 ? "--from" :
						opts->to >= 0 ? "--to" : NULL);
	}
	if (optind >= argc)
		return cli_usage_error(CMD_REPORT_NAME, "missing DIR");
	if (argc - optind > 1)
		return cli_usage_error(CMD_REPORT_NAME,
				       "unexpected argument '%s' (one DIR only)",
				       argv[optind + 1]);
	opts->dir = argv[optind];
	if (!*opts->dir)
		return cli_usage_error(CMD_REPORT_NAME,
				       "DIR must not be empty");
	if (!opts->timeline && (opts->from >= 0 || opts->to >= 0))
		return cli_usage_error(CMD_REPORT_NAME, "--from and --to go "
				       "with --timeline");
	if (opts->timeline && opts->bundle)
		return cli_usage_error(CMD_REPORT_NAME, "--bundle holds the "
				       "report, not --timeline: run them apart");
	if (opts->from >= 0 && opts->to >= 0 && opts->to <= opts->from)
		return cli_usage_error(CMD_REPORT_NAME, "--to must be after "
				       "--from");
	/* the bundle holds the reports as files */
	if (opts->html && !strcmp(opts->html, "-") && opts->bundle)
		return cli_usage_error(CMD_REPORT_NAME,
				       "--bundle needs the report in files: "
				       "give -o FILE.html, not -o -");
	return 0;
}

/* The temporary file being written, removed if a signal ends us. */
static char cmd_report_tmp[4200];

static void cmd_report_signal(int sig)
{
	if (cmd_report_tmp[0])
		unlink(cmd_report_tmp);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* PATH written whole (report.c); the temporary name where the handler sees it */
static int cmd_report_write(const char *path, report_writer w,
			    const struct recording *r,
			    const struct report_opts *o)
{
	return report_write_file(path, w, r, o, cmd_report_tmp,
				 sizeof(cmd_report_tmp));
}

/* --timeline: the SVG alone, over --from..--to */
static int cmd_report_timeline(const struct cmd_report_opts *opts,
			       const struct recording *rec)
{
	struct report_opts ro = { .dir = opts->dir, .from = opts->from,
				  .to = opts->to,
				  .keep_serials = opts->keep_serials };
	double end = recording_seconds(rec);
	char path[4096];
	int ret;

	if (opts->from >= 0 && opts->from >= end) {
		fprintf(stderr, "usbtrail report: --from %g is past the end of "
			"the recording (%.1f s)\n", opts->from, end);
		return CLI_EXIT_FAILURE;
	}
	snprintf(path, sizeof(path), "%s", opts->html ? opts->html : "");
	if (!opts->html)
		snprintf(path, sizeof(path), "%s/timeline.svg", opts->dir);
	ret = cmd_report_write(path, report_timeline_write, rec, &ro);
	if (ret == -ENODATA) {
		fprintf(stderr, "usbtrail report: %s: no throughput samples in "
			"the recording: no timeline to draw\n", opts->dir);
		return CLI_EXIT_FAILURE;
	}
	if (ret) {
		fprintf(stderr, "usbtrail report: %s: %s\n",
			strcmp(path, "-") ? path : "standard output",
			strerror(-ret));
		return CLI_EXIT_FAILURE;
	}
	if (strcmp(path, "-"))
		printf("%s\n", path);
	return CLI_EXIT_OK;
}

/* DIR holds a repro campaign (repro.json and runs/), not a recording */
static bool cmd_report_is_campaign(const char *dir)
{
	char path[4200];
	struct stat st;

	snprintf(path, sizeof(path), "%s/repro.json", dir);
	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return false;
	snprintf(path, sizeof(path), "%s/runs", dir);
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

int cmd_report_main(int argc, char **argv)
{
	struct cmd_report_opts opts = { .max_size = CMD_REPORT_DEF_SIZE,
					.from = -1, .to = -1 };
	struct report_opts ro = { .from = -1, .to = -1 };
	struct bundle_result br = { 0 };
	struct recording rec;
	char html[4096], txt[4200];
	const char *what;
	bool help = false;
	size_t n;
	int ret;

	ret = cmd_report_parse(argc, argv, &opts, &help);
	if (ret)
		return ret;
	if (help) {
		fputs(cmd_report_help, stdout);
		return CLI_EXIT_OK;
	}
	signal(SIGINT, cmd_report_signal);
	signal(SIGTERM, cmd_report_signal);
	signal(SIGHUP, cmd_report_signal);
	if (opts.compare)
		return cmd_report_compare(&opts.cmp, cmd_report_tmp,
					  sizeof(cmd_report_tmp));

	recording_init(&rec);
	ret = recording_load(&rec, opts.dir, &what);
	if (ret == -ENOENT && cmd_report_is_campaign(opts.dir)) {
		fprintf(stderr, "usbtrail report: %s: a campaign of usbtrail "
			"repro, not a recording: its page is %s/report.html "
			"('usbtrail repro --outputs %s' makes it again); each "
			"run's recording is in %s/runs/\n", opts.dir, opts.dir,
			opts.dir, opts.dir);
		recording_free(&rec);
		return CLI_EXIT_FAILURE;
	}
	if (ret) {
		fprintf(stderr, "usbtrail report: %s/%s: %s\n", opts.dir, what,
			strerror(-ret));
		recording_free(&rec);
		return CLI_EXIT_FAILURE;
	}
	if (rec.malformed)
		fprintf(stderr, "usbtrail report: %s/events.jsonl: %" PRIu64
			" malformed lines skipped\n", opts.dir, rec.malformed);
	if (!rec.meta)
		fprintf(stderr, "usbtrail report: %s/meta.json: missing or "
			"unreadable; the report lacks the kernel and the uas "
			"verdicts\n", opts.dir);

	if (opts.timeline) {
		ret = cmd_report_timeline(&opts, &rec);
		recording_free(&rec);
		return ret;
	}
	if (opts.html)
		snprintf(html, sizeof(html), "%s", opts.html);
	else
		snprintf(html, sizeof(html), "%s/report.html", opts.dir);
	/* report.txt beside the HTML: FILE.html -> FILE.txt */
	n = strlen(html);
	if (n > 5 && !strcmp(html + n - 5, ".html"))
		snprintf(txt, sizeof(txt), "%.*s.txt", (int)(n - 5), html);
	else
		snprintf(txt, sizeof(txt), "%s.txt", html);

	ro.dir = opts.dir;
	ro.keep_serials = opts.keep_serials;
	if (!strcmp(html, "-")) {
		ret = cmd_report_write(html, report_html_write, &rec, &ro);
		if (ret)
			fprintf(stderr, "usbtrail report: standard output: %s\n",
				strerror(-ret));
		goto out;
	}
	ret = cmd_report_write(txt, report_text_write, &rec, &ro);
	if (ret) {
		fprintf(stderr, "usbtrail report: %s: %s\n", txt,
			strerror(-ret));
		goto out;
	}
	ret = cmd_report_write(html, report_html_write, &rec, &ro);
	if (ret) {
		fprintf(stderr, "usbtrail report: %s: %s\n", html,
			strerror(-ret));
		goto out;
	}
	printf("%s\n%s\n", txt, html);
	if (opts.bundle) {
		struct bundle_opts bo = {
			.dir = opts.dir,
			.path = opts.bundle,
			.max_size = opts.max_size,
			.keep_serials = opts.keep_serials,
			.keep_ids = opts.keep_ids,
			.report_txt = txt,
			.report_html = html,
			.tmp = cmd_report_tmp,
			.tmplen = sizeof(cmd_report_tmp),
		};

		ret = bundle_write(&rec, &bo, &br);
		if (ret) {
			fprintf(stderr, "usbtrail report: bundle %s: %s%s%s\n",
				opts.bundle, br.error[0] ? br.error : "",
				br.error[0] ? ": " : "", strerror(-ret));
			goto out;
		}
		printf("%s: %" PRIu64 " bytes (limit %" PRIu64 ")%s%s\n",
		       opts.bundle, br.size, opts.max_size,
		       br.trimmed[0] ? ", " : "", br.trimmed);
	}
out:
	recording_free(&rec);
	return ret ? CLI_EXIT_FAILURE : CLI_EXIT_OK;
}
