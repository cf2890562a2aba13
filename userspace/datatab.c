// SPDX-License-Identifier: GPL-2.0-only
/*
 * datatab.c - look-ups in the compiled-in data tables (datatab.h).
 */
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
