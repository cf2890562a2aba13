// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_report_compare.c - "usbtrail report --compare DIR|BUNDLE...": the
 * files of the comparison.  Each input is loaded by recording.c (a
 * recording directory, or the meta.json and events.jsonl of a bundle of
 * "usbtrail report --bundle"), its rows made by compare.c, with a link to
 * its own report relative to where the table goes (or the command that
 * makes one), and the table written as HTML, Markdown or CSV: to a file
 * through a temporary one renamed when whole, or to standard output.
 * cmd_report.c parses the options and hands over.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "compare.h"
#include "savefile.h"
#include "util.h"

#define CMD_COMPARE_NAME	"report"

int cmd_report_compare_check(const struct compare_args *a, bool compare,
			     const char *conflict)
{
	enum compare_format fmt;
	unsigned int choice;
	int i;

	if (!compare)
		return cli_usage_error(CMD_COMPARE_NAME,
				       "--format needs --compare");
	if (conflict)
		return cli_usage_error(CMD_COMPARE_NAME,
				       "%s does not go with --compare", conflict);
	if (a->ninputs < 1)
		return cli_usage_error(CMD_COMPARE_NAME, "missing DIR: "
				       "--compare takes recordings (directories "
				       "or bundles)");
	if (a->ninputs > COMPARE_SOURCES_MAX)
		return cli_usage_error(CMD_COMPARE_NAME, "--compare takes at "
				       "most %d recordings", COMPARE_SOURCES_MAX);
	for (i = 0; i < a->ninputs; i++)
		if (!a->inputs[i][0])
			return cli_usage_error(CMD_COMPARE_NAME,
					       "DIR must not be empty");
	if (a->format) {
		if (cli_parse_choice(CMD_COMPARE_NAME, "--format", a->format,
				     compare_format_names, &choice))
			return CLI_EXIT_USAGE;
	} else if (a->output && strcmp(a->output, "-") &&
		   compare_format_guess(a->output, &fmt)) {
		return cli_usage_error(CMD_COMPARE_NAME, "cannot tell the format "
				       "from the name '%s': give --format html, "
				       "md or csv", a->output);
	}
	return 0;
}

/* a character a shell takes as part of a plain word */
static bool cmd_compare_plain(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c && strchr("_./:+-", c));
}

/* a word for a shell command shown to the user: quoted if it needs it */
static void cmd_compare_quote(char *buf, size_t len, const char *s)
{
	size_t off = 0, i;

	for (i = 0; s[i] && cmd_compare_plain(s[i]); i++)
		;
	if (!s[i]) {
		snprintf(buf, len, "%s", s);
		return;
	}
	buf[off++] = '\'';
	for (; *s && off + 5 < len; s++) {
		if (*s == '\'') {
			memcpy(buf + off, "'\\''", 4);
			off += 4;
		} else {
			buf[off++] = *s;
		}
	}
	buf[off++] = '\'';
	buf[off] = '\0';
}

/* a relative path as a URL path: what is not plainly safe %-encoded */
static int cmd_compare_url(char *buf, size_t len, const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t off = 0;

	for (; *path; path++) {
		unsigned char c = (unsigned char)*path;

		if (off + 4 > len)
			return -ENAMETOOLONG;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr("-._~/", c)) {
			buf[off++] = (char)c;
		} else {
			buf[off++] = '%';
			buf[off++] = hex[c >> 4];
			buf[off++] = hex[c & 15];
		}
	}
	buf[off] = '\0';
	return 0;
}

/*
 * Where the rows of a recording link to: DIR/report.html relative to the
 * directory the table goes to, if it exists; else the command that makes
 * it (a bundle holds its report already: the command unpacks it).
 */
static void cmd_compare_link(const char *input, bool bundle,
			     const char *outdir, char *href, size_t hlen,
			     char *make, size_t mlen)
{
	char report[PATH_MAX + 16], from[PATH_MAX], to[PATH_MAX];
	char rel[2 * PATH_MAX], q[2 * PATH_MAX];

	href[0] = make[0] = '\0';
	cmd_compare_quote(q, sizeof(q), input);
	if (bundle) {
		snprintf(make, mlen, "tar -xzf %s usbtrail-bundle/report.html",
			 q);
		return;
	}
	snprintf(report, sizeof(report), "%s/report.html", input);
	if (access(report, R_OK) || !realpath(outdir, from) ||
	    !realpath(report, to) ||
	    util_relpath(from, to, rel, sizeof(rel)) ||
	    cmd_compare_url(href, hlen, rel)) {
		href[0] = '\0';
		snprintf(make, mlen, "usbtrail report %s", q);
	}
}

/* the directory the table goes to, for the links: "." for stdout */
static void cmd_compare_outdir(const char *output, char *buf, size_t len)
{
	const char *slash = output ? strrchr(output, '/') : NULL;

	if (!slash || !strcmp(output, "-"))
		snprintf(buf, len, ".");
	else if (slash == output)
		snprintf(buf, len, "/");
	else
		snprintf(buf, len, "%.*s", (int)(slash - output), output);
}

/* one input into t: 0, or an exit status with the message printed */
static int cmd_compare_add(struct compare_table *t, const char *input,
			   const char *outdir)
{
	char href[2 * PATH_MAX], make[2 * PATH_MAX + 64];
	struct compare_source src = { .name = input };
	struct recording *r;
	const char *what = "";
	struct stat st;
	bool bundle;
	int err;

	if (stat(input, &st)) {
		err = -errno;
		fprintf(stderr, "usbtrail report: %s: %s\n", input,
			strerror(-err));
		return CLI_EXIT_FAILURE;
	}
	bundle = !S_ISDIR(st.st_mode);
	r = malloc(sizeof(*r));
	if (!r) {
		fprintf(stderr, "usbtrail report: %s\n", strerror(ENOMEM));
		return CLI_EXIT_FAILURE;
	}
	recording_init(r);
	err = bundle ? recording_load_bundle(r, input, &what) :
	      recording_load(r, input, &what);
	if (err) {
		fprintf(stderr, "usbtrail report: %s%s%s: %s%s\n", input,
			what[0] ? (bundle ? ": " : "/") : "", what,
			err == -EBADMSG ? "not a bundle of usbtrail report, "
			"or damaged: " : "", strerror(-err));
		goto out;
	}
	if (r->malformed)
		fprintf(stderr, "usbtrail report: %s: %" PRIu64 " malformed "
			"lines of events.jsonl skipped\n", input, r->malformed);
	if (!r->meta)
		fprintf(stderr, "usbtrail report: %s: meta.json missing or "
			"unreadable; its rows lack the host, the kernel and "
			"the uas verdicts\n", input);
	cmd_compare_link(input, bundle, outdir, href, sizeof(href), make,
			 sizeof(make));
	src.bundle = bundle;
	src.href = href[0] ? href : NULL;
	src.make = make[0] ? make : NULL;
	err = compare_add(t, r, &src);
	if (err == -E2BIG)
		fprintf(stderr, "usbtrail report: %s: more than %d rows in "
			"all: compare fewer recordings\n", input,
			COMPARE_ROWS_MAX);
	else if (err < 0)
		fprintf(stderr, "usbtrail report: %s: %s\n", input,
			strerror(-err));
	else if (!err)
		fprintf(stderr, "usbtrail report: %s: no USB disk in this "
			"recording: no row\n", input);
out:
	recording_free(r);
	free(r);
	return err < 0 ? CLI_EXIT_FAILURE : 0;
}

static int cmd_compare_write(FILE *f, const struct compare_table *t,
			     enum compare_format fmt)
{
	switch (fmt) {
	case COMPARE_FORMAT_CSV:
		return compare_write_csv(f, t);
	case COMPARE_FORMAT_MD:
		return compare_write_md(f, t);
	case COMPARE_FORMAT_HTML:
		break;
	}
	return compare_write_html(f, t);
}

int cmd_report_compare(const struct compare_args *a, char *tmp,
		       size_t tmplen)
{
	bool out = a->output && strcmp(a->output, "-");
	enum compare_format fmt = COMPARE_FORMAT_MD;
	struct compare_table t;
	char outdir[PATH_MAX], *text = NULL;
	unsigned int choice;
	size_t len = 0, off = 0;
	int i, ret = 0, err;
	FILE *f;

	/* as checked by cmd_report_compare_check() */
	if (a->format && !cli_parse_choice(CMD_COMPARE_NAME, "--format",
					   a->format, compare_format_names,
					   &choice))
		fmt = (enum compare_format)choice;
	else if (out)
		compare_format_guess(a->output, &fmt);
	cmd_compare_outdir(a->output, outdir, sizeof(outdir));
	compare_init(&t);
	for (i = 0; i < a->ninputs && !ret; i++)
		ret = cmd_compare_add(&t, a->inputs[i], outdir);
	if (ret)
		goto done;
	f = open_memstream(&text, &len);
	if (!f) {
		err = -errno;
		goto fail;
	}
	err = cmd_compare_write(f, &t, fmt);
	if (fclose(f) && !err)
		err = -ENOMEM;
	if (!err && out)
		err = savefile_write(a->output, text, len, tmp, tmplen);
	else if (!err)
		err = util_write_all(STDOUT_FILENO, text, len, &off);
	if (!err && out)
		printf("%s\n", a->output);
fail:
	if (err) {
		fprintf(stderr, "usbtrail report: %s: %s\n",
			out ? a->output : "standard output", strerror(-err));
		ret = CLI_EXIT_FAILURE;
	}
done:
	free(text);
	compare_free(&t);
	return ret;
}
