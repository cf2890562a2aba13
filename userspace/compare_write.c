// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_write.c - the comparison table (compare.h) as CSV (RFC 4180:
 * CRLF line ends, fields with a comma, quote or line break quoted, quotes
 * doubled) for spreadsheets and scripts, and as a GitHub-flavoured
 * Markdown table that pastes into a forum post or an issue as it is.
 * Missing figures are empty fields in both, never 0.
 */
#include <errno.h>
#include <string.h>

#include "compare.h"

static void compare_csv_field(FILE *f, const char *s)
{
	if (!s[strcspn(s, ",\"\r\n")]) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

int compare_write_csv(FILE *f, const struct compare_table *t)
{
	unsigned int c;
	size_t i;

	for (c = 0; c < COMPARE_COL_MAX; c++) {
		if (c)
			fputc(',', f);
		compare_csv_field(f, compare_col_name(c));
	}
	fputs("\r\n", f);
	for (i = 0; i < t->nrows; i++) {
		for (c = 0; c < COMPARE_COL_MAX; c++) {
			if (c)
				fputc(',', f);
			compare_csv_field(f, t->rows[i].cell[c].s);
		}
		fputs("\r\n", f);
	}
	return ferror(f) ? -EIO : 0;
}

/*
 * A cell of a GFM table: '|' escaped, line breaks as spaces, and what
 * would start markup of its own (HTML, code, emphasis, an escape) made
 * literal.  Underscores inside words stay: GFM takes them as text.
 */
static void compare_md_cell(FILE *f, const char *s)
{
	fputc(' ', f);
	for (; *s; s++) {
		switch (*s) {
		case '|':
		case '\\':
		case '<':
		case '`':
		case '*':
			fputc('\\', f);
			fputc(*s, f);
			break;
		case '\r':
		case '\n':
		case '\t':
			fputc(' ', f);
			break;
		default:
			fputc(*s, f);
		}
	}
	fputs(" |", f);
}

int compare_write_md(FILE *f, const struct compare_table *t)
{
	unsigned int c;
	size_t i;

	fputc('|', f);
	for (c = 0; c < COMPARE_COL_MAX; c++)
		compare_md_cell(f, compare_col_name(c));
	fputs("\n|", f);
	for (c = 0; c < COMPARE_COL_MAX; c++)
		fputs(compare_col_numeric(c) ? " ---: |" : " --- |", f);
	fputc('\n', f);
	for (i = 0; i < t->nrows; i++) {
		fputc('|', f);
		for (c = 0; c < COMPARE_COL_MAX; c++)
			compare_md_cell(f, t->rows[i].cell[c].s);
		fputc('\n', f);
	}
	fputs("\nMB/s = 10^6 bytes/s (usbtrail stress, CrystalDiskMark's "
	      "rows); an empty cell: the recording lacks it. Made by "
	      "`usbtrail report --compare`.\n", f);
	return ferror(f) ? -EIO : 0;
}
