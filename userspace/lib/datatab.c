// SPDX-License-Identifier: GPL-2.0-only
/*
 * datatab.c - look-ups in the compiled-in data tables (datatab.h).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datatab.h"

/* The cell at @row, @col, or NULL when out of range. */
const char *datatab_cell(const struct datatab *t, unsigned int row,
			 unsigned int col)
{
	if (!t || row >= t->nrows || col >= t->ncols)
		return NULL;
	return t->cells[row * t->ncols + col];
}

static int datatab_hex(const char *s, unsigned int *out)
{
	char *end;
	unsigned long v;

	if (!s || !*s)
		return -1;
	v = strtoul(s, &end, 16);
	if (*end || v > 0xffff)
		return -1;
	*out = (unsigned int)v;
	return 0;
}

/**
 * datatab_find_hex2() - the first row whose columns 0 and 1, read as hex,
 * are @a and @b (vendor:device or VID:PID)
 *
 * Return: the row index, or -1.
 */
int datatab_find_hex2(const struct datatab *t, unsigned int a,
		      unsigned int b)
{
	unsigned int r, x, y;

	for (r = 0; t && r < t->nrows; r++)
		if (!datatab_hex(datatab_cell(t, r, 0), &x) &&
		    !datatab_hex(datatab_cell(t, r, 1), &y) &&
		    x == a && y == b)
			return (int)r;
	return -1;
}

/* The first row whose column @col equals @s, or -1. */
int datatab_find_str(const struct datatab *t, unsigned int col,
		     const char *s)
{
	unsigned int r;

	for (r = 0; t && s && r < t->nrows; r++) {
		const char *c = datatab_cell(t, r, col);

		if (c && !strcmp(c, s))
			return (int)r;
	}
	return -1;
}

static int datatab_cc_find(unsigned int cc)
{
	char code[16];

	snprintf(code, sizeof(code), "%u", cc);
	return datatab_find_str(&datatab_xhci_cc, DATATAB_CC_CODE, code);
}

/*
 * The table's row of every code the 8-bit field can hold, found once:
 * the recorder asks for each xHCI event, tens of thousands a second.
 */
static int datatab_cc_rows[256];
static pthread_once_t datatab_cc_once = PTHREAD_ONCE_INIT;

static void datatab_cc_index(void)
{
	unsigned int cc;

	for (cc = 0; cc < 256; cc++)
		datatab_cc_rows[cc] = datatab_cc_find(cc);
}

/* The row of xHCI completion code @cc in data/xhci-cc.tsv, or -1. */
int datatab_cc_row(unsigned int cc)
{
	if (cc >= 256)
		return datatab_cc_find(cc);
	pthread_once(&datatab_cc_once, datatab_cc_index);
	return datatab_cc_rows[cc];
}

/*
 * Does completion code @cc report a failed transfer or command?  The
 * table's error column says; a code it does not list (reserved, vendor
 * defined) counts as one, so that nothing unexpected goes unseen.
 */
bool datatab_cc_error(unsigned int cc)
{
	int row = datatab_cc_row(cc);
	const char *e;

	if (row < 0)
		return true;
	e = datatab_cell(&datatab_xhci_cc, (unsigned int)row, DATATAB_CC_ERROR);
	return !e || strcmp(e, "no");
}

int datatab_col(const struct datatab *t, const char *name)
{
	for (unsigned int i = 0; t->cols && i < t->ncols; i++)
		if (!strcmp(t->cols[i], name))
			return (int)i;
	return -1;
}
