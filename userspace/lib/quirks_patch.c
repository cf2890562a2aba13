// SPDX-License-Identifier: GPL-2.0-only
/*
 * quirks_patch.c - the UNUSUAL_DEV entry of a device and the diff that adds
 * it to the kernel's table (drivers/usb/storage/unusual_uas.h or
 * unusual_devs.h), in the layout those files use in linux 5.10, 6.1, 6.12
 * and 7.3:
 *
 *	/<star> Reported-by: Name <mail> <star>/
 *	UNUSUAL_DEV(0x054c, 0x087d, 0x0000, 0x9999,
 *			"Sony",
 *			"PSZ-HA*",
 *			USB_SC_DEVICE, USB_PR_DEVICE, NULL,
 *			US_FL_NO_REPORT_OPCODES),
 *
 * The tables ask to be kept "sorted first by VendorID, then by ProductID"
 * (their header), so the entry goes after the greatest VID:PID below it.
 * Three entries of unusual_devs.h sit between "#ifdef NO_SDDR09" and its
 * "#endif": an entry is never put inside a conditional block.  Most of
 * unusual_devs.h writes "UNUSUAL_DEV(  0x...", which checkpatch.pl now
 * refuses in a new line; its newest entries, and unusual_uas.h, do not.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quirks_patch.h"

#define QP_CONTEXT	3	/* lines around a change, as diff -u */
#define QP_ENTRY_MAX	12	/* lines an entry may span */

struct qp_line {
	const char *s;
	size_t len;
};

struct qp_entry {
	size_t first, last;	/* lines */
	uint32_t key;		/* vid << 16 | pid */
	unsigned long bcd_min, bcd_max;
};

const char *quirks_patch_file(enum quirks_table table)
{
	return table == QUIRKS_TABLE_UAS ? "unusual_uas.h" : "unusual_devs.h";
}

/* "US_FL_NO_ATA_1X | US_FL_IGNORE_UAS" for the bits of flags, ascending */
static int qp_flag_names(struct util_str *b, unsigned long flags)
{
	bool first = true;

	if (!flags)
		return -EINVAL;
	for (unsigned int i = 0; i < sizeof(flags) * 8; i++) {
		const struct quirks_flag_info *fi;

		if (!(flags & (1ul << i)))
			continue;
		fi = quirks_flag_info(1ul << i);
		if (!fi)
			return -EINVAL;
		util_str_printf(b, "%sUS_FL_%s", first ? "" : " | ", fi->name);
		first = false;
	}
	return 0;
}

/* a C string literal's body: quotes and backslashes escaped, controls out */
static void qp_literal(struct util_str *b, const char *s)
{
	util_str_put(b, "\"", 1);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			util_str_put(b, "\\", 1);
		if (c < 0x20 || c == 0x7f)
			c = ' ';
		util_str_put(b, (const char *)&c, 1);
	}
	util_str_put(b, "\"", 1);
}

int quirks_entry_format(struct util_str *b, const struct quirks_entry *e)
{
	struct util_str fl = { 0 };
	int err = qp_flag_names(&fl, e->flags);

	if (!err && fl.oom)
		err = -ENOMEM;
	if (err) {
		free(fl.s);
		return err;
	}
	if (e->comment && e->comment[0])
		util_str_printf(b, "/* %s */\n", e->comment);
	util_str_printf(b, "UNUSUAL_DEV(0x%04x, 0x%04x, 0x%04x, 0x%04x,\n\t\t",
			e->vid, e->pid, e->bcd_min, e->bcd_max);
	qp_literal(b, e->vendor);
	util_str_put(b, ",\n\t\t", 4);
	qp_literal(b, e->product);
	util_str_printf(b, ",\n\t\tUSB_SC_DEVICE, USB_PR_DEVICE, NULL,\n"
			"\t\t%s),\n", fl.s);
	free(fl.s);
	return b->oom ? -ENOMEM : 0;
}

static size_t qp_split(const char *text, size_t len, struct qp_line **out)
{
	size_t n = 0, cap = 0, off = 0;
	struct qp_line *l = NULL;

	while (off < len) {
		const char *nl = memchr(text + off, '\n', len - off);
		size_t end = nl ? (size_t)(nl - text) : len;

		if (n == cap) {
			struct qp_line *p;

			cap = cap ? cap * 2 : 1024;
			p = realloc(l, cap * sizeof(*l));
			if (!p) {
				free(l);
				*out = NULL;
				return (size_t)-1;
			}
			l = p;
		}
		l[n].s = text + off;
		l[n].len = end - off;
		n++;
		off = end + 1;
	}
	*out = l;
	return n;
}

static bool qp_starts(const struct qp_line *l, const char *p)
{
	size_t n = strlen(p);

	return l->len >= n && !memcmp(l->s, p, n);
}

/* the line without leading and trailing blanks */
static struct qp_line qp_trim(struct qp_line l)
{
	while (l.len && (*l.s == ' ' || *l.s == '\t')) {
		l.s++;
		l.len--;
	}
	while (l.len && (l.s[l.len - 1] == ' ' || l.s[l.len - 1] == '\t' ||
			 l.s[l.len - 1] == '\r'))
		l.len--;
	return l;
}

static bool qp_comment(const struct qp_line *l)
{
	struct qp_line t = qp_trim(*l);

	return t.len && (qp_starts(&t, "/*") || qp_starts(&t, "*") ||
			 (t.len >= 2 && !memcmp(t.s + t.len - 2, "*/", 2)));
}

/* An entry starting at line i: UNUSUAL_DEV( or COMPLIANT_DEV( VID, PID, lo, hi */
static bool qp_parse_entry(const struct qp_line *l, size_t n, size_t i,
			   struct qp_entry *e)
{
	unsigned long v[4];
	char buf[128], *p, *end;
	size_t k;

	if (!qp_starts(&l[i], "UNUSUAL_DEV(") &&
	    !qp_starts(&l[i], "COMPLIANT_DEV("))
		return false;
	k = l[i].len < sizeof(buf) - 1 ? l[i].len : sizeof(buf) - 1;
	memcpy(buf, l[i].s, k);
	buf[k] = '\0';
	p = strchr(buf, '(') + 1;
	for (int j = 0; j < 4; j++) {
		v[j] = strtoul(p, &end, 0);
		if (end == p || v[j] > 0xffff)
			return false;
		p = end + strspn(end, " \t");
		if (*p != ',')
			return false;
		p++;
	}
	e->first = i;
	e->key = (uint32_t)(v[0] << 16 | v[1]);
	e->bcd_min = v[2];
	e->bcd_max = v[3];
	for (k = i; k < n && k < i + QP_ENTRY_MAX; k++) {
		struct qp_line t = qp_trim(l[k]);

		if (t.len >= 2 && !memcmp(t.s + t.len - 2, "),", 2)) {
			e->last = k;
			return true;
		}
	}
	return false;
}

/* the entry's text (its lines) holds "US_FL_NAME" as a whole word */
static bool qp_has_flag(const struct qp_line *l, const struct qp_entry *en,
			const char *name)
{
	size_t n = strlen(name);

	for (size_t i = en->first; i <= en->last; i++)
		for (size_t k = 0; k + n <= l[i].len; k++) {
			char c = k + n < l[i].len ? l[i].s[k + n] : ' ';

			if (!memcmp(l[i].s + k, name, n) &&
			    !(c == '_' || (c >= 'A' && c <= 'Z') ||
			      (c >= '0' && c <= '9')))
				return true;
		}
	return false;
}

/* lines [0, i) leave an #if open: i moved past its #endif */
static size_t qp_out_of_conditionals(const struct qp_line *l, size_t n,
				     size_t i)
{
	int depth = 0;
	size_t k;

	for (k = 0; k < i; k++) {
		if (qp_starts(&l[k], "#if"))
			depth++;
		else if (qp_starts(&l[k], "#endif") && depth > 0)
			depth--;
	}
	for (; depth > 0 && k < n; k++) {
		if (qp_starts(&l[k], "#if"))
			depth++;
		else if (qp_starts(&l[k], "#endif"))
			depth--;
	}
	return k;
}

static void qp_put_line(struct util_str *b, char mark, const char *s,
			size_t len)
{
	util_str_put(b, &mark, 1);
	util_str_put(b, s, len);
	util_str_put(b, "\n", 1);
}

/*
 * The hunk replacing ndel lines at line at with the lines of add (a
 * text of whole lines), with context, onto b
 */
static void qp_hunk(struct util_str *b, const struct qp_line *l, size_t n,
		    size_t at, size_t ndel, const struct util_str *add,
		    struct quirks_patch_stat *st)
{
	size_t from = at > QP_CONTEXT ? at - QP_CONTEXT : 0;
	size_t to = at + ndel + QP_CONTEXT < n ? at + ndel + QP_CONTEXT : n;
	size_t nadd = 0, off;

	for (off = 0; off < add->len; off++)
		nadd += add->s[off] == '\n';
	util_str_printf(b, "@@ -%zu,%zu +%zu,%zu @@\n", from + 1, to - from,
			from + 1, to - from - ndel + nadd);
	for (size_t i = from; i < at; i++)
		qp_put_line(b, ' ', l[i].s, l[i].len);
	for (size_t i = at; i < at + ndel; i++)
		qp_put_line(b, '-', l[i].s, l[i].len);
	for (off = 0; off < add->len;) {
		const char *nl = memchr(add->s + off, '\n', add->len - off);
		size_t end = (size_t)(nl - add->s);

		qp_put_line(b, '+', add->s + off, end - off);
		off = end + 1;
	}
	for (size_t i = at + ndel; i < to; i++)
		qp_put_line(b, ' ', l[i].s, l[i].len);
	st->added = (unsigned int)nadd;
	st->removed = (unsigned int)ndel;
	st->line = (unsigned int)at + 1;
}

/* e's missing flags added to the entry's last line ("...FLAGS),") */
static int qp_change_entry(struct util_str *add, const struct qp_line *l,
			   const struct qp_entry *en,
			   const struct quirks_entry *e)
{
	const struct qp_line *last = &l[en->last];
	unsigned long missing = 0;
	struct util_str fl = { 0 };
	size_t close, end, arg;
	int err;

	for (unsigned int i = 0; i < sizeof(e->flags) * 8; i++) {
		const struct quirks_flag_info *fi;
		char name[64];

		if (!(e->flags & (1ul << i)))
			continue;
		fi = quirks_flag_info(1ul << i);
		if (!fi)
			return -EINVAL;
		snprintf(name, sizeof(name), "US_FL_%s", fi->name);
		if (!qp_has_flag(l, en, name))
			missing |= 1ul << i;
	}
	if (!missing)
		return -EEXIST;
	err = qp_flag_names(&fl, missing);
	if (err || fl.oom) {
		free(fl.s);
		return err ? err : -ENOMEM;
	}
	for (close = last->len; close && last->s[close - 1] != ')'; close--)
		;
	if (!close) {
		free(fl.s);
		return -EINVAL;
	}
	close--;		/* at the ')' */
	for (end = close; end && (last->s[end - 1] == ' ' ||
				  last->s[end - 1] == '\t'); end--)
		;
	for (arg = end; arg && last->s[arg - 1] != ','; arg--)
		;
	while (arg < end && (last->s[arg] == ' ' || last->s[arg] == '\t'))
		arg++;
	if (end - arg == 1 && last->s[arg] == '0') {
		/* "NULL, 0)," -> "NULL, US_FL_X)," */
		util_str_put(add, last->s, arg);
		util_str_put(add, fl.s, fl.len);
	} else {
		util_str_put(add, last->s, end);
		util_str_printf(add, " | %s", fl.s);
	}
	util_str_put(add, last->s + end, last->len - end);
	util_str_put(add, "\n", 1);
	free(fl.s);
	return 0;
}

int quirks_patch_diff(struct util_str *b, const char *text, size_t len,
		      const char *path, const struct quirks_entry *e,
		      struct quirks_patch_stat *st)
{
	uint32_t key = (uint32_t)e->vid << 16 | e->pid;
	struct util_str add = { 0 };
	struct qp_entry en, prev = { 0 }, first = { 0 }, same = { 0 };
	bool have_prev = false, have_first = false, have_same = false;
	struct qp_line *l;
	size_t n, at, ndel = 0;
	int err = 0;

	memset(st, 0, sizeof(*st));
	/* a C file: whole lines, no NUL */
	if (!len || text[len - 1] != '\n' || memchr(text, '\0', len))
		return -EINVAL;
	n = qp_split(text, len, &l);
	if (n == (size_t)-1)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if (!qp_parse_entry(l, n, i, &en))
			continue;
		if (!have_first) {
			first = en;
			have_first = true;
		}
		if (en.key == key && en.bcd_min <= e->bcd_min &&
		    e->bcd_min <= en.bcd_max && !have_same) {
			same = en;
			have_same = true;
		}
		if (en.key < key && (!have_prev || en.key >= prev.key)) {
			prev = en;
			have_prev = true;
		}
		i = en.last;
	}
	if (!have_first) {
		free(l);
		return -ENOENT;
	}
	if (have_same) {
		err = qp_change_entry(&add, l, &same, e);
		at = same.last;
		ndel = 1;
		st->changed_entry = 1;
	} else if (have_prev) {
		at = qp_out_of_conditionals(l, n, prev.last + 1);
		util_str_put(&add, "\n", 1);
		err = quirks_entry_format(&add, e);
	} else {
		at = first.first;
		while (at && qp_comment(&l[at - 1]))
			at--;
		err = quirks_entry_format(&add, e);
		util_str_put(&add, "\n", 1);
	}
	if (!err && add.oom)
		err = -ENOMEM;
	if (!err) {
		util_str_printf(b, "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n",
				path, path, path, path);
		qp_hunk(b, l, n, at, ndel, &add, st);
		if (b->oom)
			err = -ENOMEM;
	}
	if (err)
		st->changed_entry = 0;
	free(add.s);
	free(l);
	return err;
}
