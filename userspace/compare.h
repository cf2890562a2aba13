/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare.h - "usbtrail report --compare": recordings side by side, one
 * row per disk per recording, as the tables users publish by hand (two
 * controllers times four enclosures, CrystalDiskMark's rows each, whether
 * UAS is really on and why not).
 *
 * Data flow: a recording directory or bundle, loaded by recording.c
 * (cmd_report_compare.c names them) -> compare_add() (pure: a loaded
 * recording into rows) -> compare_write_csv(), compare_write_md()
 * (compare_write.c) or compare_write_html() (compare_html.c).
 */
#ifndef USBTRAIL_COMPARE_H
#define USBTRAIL_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "recording.h"

/* Limits on what the user's list of recordings may make us hold. */
#define COMPARE_ROWS_MAX	1024
#define COMPARE_SOURCES_MAX	256
#define COMPARE_CELL_LEN	256
/* slots of the throughput-over-the-run line of a row */
#define COMPARE_TP_POINTS	64

/*
 * The columns, in order: their names (compare_col_name(), the table in
 * compare.c) are the CSV header, the Markdown header and the HTML one
 * (docs/user-guide.md lists what each holds).  Numeric columns hold a
 * number or nothing (the recording lacks it), never 0 in its place.
 */
enum compare_col {
	COMPARE_COL_DISK,
	COMPARE_COL_USB,
	COMPARE_COL_VID_PID,
	COMPARE_COL_BRIDGE,
	COMPARE_COL_HOST_CONTROLLER,
	COMPARE_COL_LINK_MBPS,
	COMPARE_COL_DRIVER,
	COMPARE_COL_UAS,
	COMPARE_COL_UAS_REASON,
	COMPARE_COL_SEQ_READ,
	COMPARE_COL_SEQ_WRITE,
	COMPARE_COL_Q1_READ,
	COMPARE_COL_Q1_WRITE,
	COMPARE_COL_Q32_READ,
	COMPARE_COL_Q32_WRITE,
	COMPARE_COL_LAT_P99,
	COMPARE_COL_DIPS,
	COMPARE_COL_INCIDENTS,
	COMPARE_COL_HOST,
	COMPARE_COL_KERNEL,
	COMPARE_COL_RECORDING,
	COMPARE_COL_MAX
};

/* One value: the text every writer prints ("" when missing). */
struct compare_cell {
	bool have;
	double v;			/* NUM columns */
	char s[COMPARE_CELL_LEN];
};

struct compare_row {
	struct compare_cell cell[COMPARE_COL_MAX];
	unsigned int source;		/* index into compare_table.sources */
	/*
	 * Throughput over the run: the mean MB/s of the busy intervals in
	 * each slot of tp_secs / COMPARE_TP_POINTS seconds, NaN where the
	 * disk was idle; ntp 0 without samples.
	 */
	float tp[COMPARE_TP_POINTS];
	unsigned int ntp;
	double tp_secs, tp_max;
};

/* A recording as the caller names it and where its own report is. */
struct compare_source {
	const char *name;		/* DIR or BUNDLE as given */
	/* its report.html relative to the output, NULL if there is none */
	const char *href;
	const char *make;		/* else the command that makes it */
	bool bundle;			/* a bundle: the make unpacks it */
};

/* What the table keeps of each source (copies; the table owns them). */
struct compare_src {
	char *name, *href, *make;
	bool bundle;
	char host[COMPARE_CELL_LEN], kernel[COMPARE_CELL_LEN];
	double seconds;
	unsigned int rows;
};

struct compare_table {
	struct compare_row *rows;
	size_t nrows, caprows;
	struct compare_src *sources;
	size_t nsources;
};

enum compare_format {
	COMPARE_FORMAT_HTML,
	COMPARE_FORMAT_MD,
	COMPARE_FORMAT_CSV,
};

void compare_init(struct compare_table *t);
/* Free what t holds; t may be zeroed or partly filled. */
void compare_free(struct compare_table *t);

/*
 * The rows of recording r (finished; from files or bytes) into t, named
 * by src: a row for each disk the recording says something of (stress
 * phases, incidents; without stress, throughput samples; else every USB
 * disk it saw).  Pure.  Returns the rows added (0: no USB disk in it),
 * -E2BIG over COMPARE_ROWS_MAX or COMPARE_SOURCES_MAX, or -ENOMEM.
 */
int compare_add(struct compare_table *t, const struct recording *r,
		const struct compare_source *src);

const char *compare_col_name(enum compare_col c);
bool compare_col_numeric(enum compare_col c);

/* The names of enum compare_format, NULL-ended: what --format takes. */
extern const char *const compare_format_names[];
/* The format a file name's extension (.html, .htm, .md, .csv) says. */
int compare_format_guess(const char *path, enum compare_format *out);

/*
 * Row indexes in the order of column c (numbers largest first, text
 * alphabetically; missing values last whichever way), reversed if asked.
 * Ties keep the input order.  Caller frees; NULL for no memory.
 */
size_t *compare_order(const struct compare_table *t, enum compare_col c,
		      bool reverse);

/* The table as RFC 4180 CSV (CRLF, a header line).  0 or -EIO. */
int compare_write_csv(FILE *f, const struct compare_table *t);
/* As a GitHub-flavoured Markdown table, to paste as it is. */
int compare_write_md(FILE *f, const struct compare_table *t);
/* As one self-contained HTML page (compare_html.c). */
int compare_write_html(FILE *f, const struct compare_table *t);

/* The command's part (cmd_report_compare.c): files and messages. */
struct compare_args {
	char *const *inputs;		/* DIR or BUNDLE, as given */
	int ninputs;
	const char *format;		/* --format, or NULL: guessed */
	const char *output;		/* -o, or NULL or "-": standard output */
};

/*
 * The usage checks of "report --compare" (@compare: it was given;
 * @conflict: an option of the single report given with it, or NULL).
 * Prints the message.  0 or CLI_EXIT_USAGE.
 */
int cmd_report_compare_check(const struct compare_args *a, bool compare,
			     const char *conflict);

/*
 * Load every input, write the table.  @tmp (@tmplen bytes) holds the
 * temporary file's name while it exists, for the caller's signal handler
 * to remove.  Returns an exit status (enum cli_exit).
 */
int cmd_report_compare(const struct compare_args *a, char *tmp,
		       size_t tmplen);

#endif /* USBTRAIL_COMPARE_H */
