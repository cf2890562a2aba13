// SPDX-License-Identifier: GPL-2.0-only
/*
 * kmsgtab.c - match kernel messages against data/kmsg-formats.tsv
 * (kmsgtab.h).
 *
 * A row's format is the printk format string as the kernel source has it.
 * It is compiled into pieces: literal runs and conversions.  Matching is
 * a search: the format may start anywhere in the message, the message may
 * go on after it.  Literal text matches exactly, a run of spaces in it
 * one or more spaces; %d and friends match a number, %x a hex number,
 * %c one character, %s and %p* the shortest text that lets the rest
 * match (at the end, the rest of the message).  Every match has a step
 * budget, so no message can make it slow.
 *
 * Candidates come from one Aho-Corasick pass over the message with each
 * row's longest literal run as its key; the table's rows are a few
 * hundred, the messages millions.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datatab.h"
#include "kmsgtab.h"

enum kmsgtab_piece_type {
	KMSGTAB_P_LIT,
	KMSGTAB_P_INT,		/* %d %i: optional '-', digits */
	KMSGTAB_P_UINT,		/* %u: digits */
	KMSGTAB_P_HEX,		/* %x %X: hex digits, "0x" allowed */
	KMSGTAB_P_CHAR,		/* %c */
	KMSGTAB_P_STR,		/* %s %p* %*ph: any text */
};

struct kmsgtab_piece {
	enum kmsgtab_piece_type type;
	const char *s;		/* LIT: its text */
	size_t len;		/* LIT: its length; STR: "%.8s" 8, else 0 */
	enum kmsgtab_field field;	/* conversions */
};

#define KMSGTAB_PIECES_MAX	48
#define KMSGTAB_KEY_MAX		10	/* characters of a row's key */

struct kmsgtab_compiled {
	struct kmsgtab_piece p[KMSGTAB_PIECES_MAX];
	unsigned int n;
	unsigned int nlit;	/* literal characters but spaces: the rank */
	const char *key;	/* the longest literal run: the AC key */
	size_t keylen;
};

/*
 * Aho-Corasick over the rows' keys: a full DFA on byte classes (the
 * characters the keys use, each its own class, every other byte class
 * 0), small enough to stay in the cache.
 */
struct kmsgtab_ac {
	uint8_t cls[256];
	unsigned int ncls;
	uint16_t *next;			/* [state * ncls + class] */
	int32_t *out;		/* first key ending in a state, or -1 */
	int32_t *out_next;	/* per key: the next key of the same output */
	int32_t *fail_out;	/* state: nearest state via fail with output */
	unsigned int nstates;
	unsigned int first_out;	/* states from here have output */
};

/*
 * The compiled table, built once (pthread_once: whichever thread asks
 * first).  The match state (seen, generation) is not shared safely: one
 * thread matches at a time, as the analyzer and the recorder do.
 */
static pthread_once_t kmsgtab_once = PTHREAD_ONCE_INIT;
static struct {
	const char *error;
	char errbuf[160];
	struct kmsgtab_row *rows;
	struct kmsgtab_compiled *comp;
	unsigned int nrows;
	struct kmsgtab_ac ac;
	uint32_t *seen;		/* per row: the match generation it was tried */
	uint32_t generation;
} kmsgtab;

static const char *const kmsgtab_role_names[KMSGTAB_ROLE_COUNT] = {
	[KMSGTAB_INCIDENT] = "incident",
	[KMSGTAB_CMD_RESULT] = "cmd-result",
	[KMSGTAB_CMD_SENSE_KEY] = "cmd-sense-key",
	[KMSGTAB_CMD_ADD_SENSE] = "cmd-add-sense",
	[KMSGTAB_CMD_CDB] = "cmd-cdb",
	[KMSGTAB_CMD_NOT_READY] = "cmd-not-ready",
	[KMSGTAB_CMD_INFO] = "cmd-info",
	[KMSGTAB_CMD_SENSE_HEX] = "cmd-sense-hex",
	[KMSGTAB_DEV_NEW] = "dev-new",
	[KMSGTAB_DEV_IDS] = "dev-ids",
	[KMSGTAB_DEV_PRODUCT] = "dev-product",
	[KMSGTAB_DEV_MANUFACTURER] = "dev-manufacturer",
	[KMSGTAB_DEV_SERIAL] = "dev-serial",
	[KMSGTAB_DEV_UAS] = "dev-uas",
	[KMSGTAB_DEV_USB_STORAGE] = "dev-usb-storage",
	[KMSGTAB_DEV_SCSI] = "dev-scsi",
	[KMSGTAB_DISK_CAPACITY] = "disk-capacity",
	[KMSGTAB_DISK_ATTACHED] = "disk-attached",
	[KMSGTAB_BOOT] = "boot",
	[KMSGTAB_NONE] = "none",
};

static const char *const kmsgtab_who_names[] = {
	[KMSGTAB_WHO_ANY] = "any",
	[KMSGTAB_WHO_HCD] = "hcd",
	[KMSGTAB_WHO_USB] = "usb",
	[KMSGTAB_WHO_SCSI] = "scsi",
	[KMSGTAB_WHO_NONE] = "none",
};

static const char *const kmsgtab_field_names[KMSGTAB_F_NFIELDS] = {
	[KMSGTAB_F_SKIP] = "-",
#define KMSGTAB_F_NAME(id, name) [KMSGTAB_F_##id] = name,
	KMSGTAB_FIELDS(KMSGTAB_F_NAME)
#undef KMSGTAB_F_NAME
};

/*
 * Host controller drivers print as themselves; "usb", "hub" and the
 * interface drivers speak of USB devices; "sd", "sr", "scsi" of SCSI.
 */
/* drv[0, len) is name (not a prefix of it) */
static bool kmsgtab_same(const char *drv, size_t len, const char *name)
{
	return name[0] == drv[0] && !strncmp(drv, name, len) && !name[len];
}

enum kmsgtab_who kmsgtab_who_of_driver(const char *drv, size_t len)
{
	static const char *const usb[] = {
		"usb", "hub", "usb-storage", "uas", "usbcore", "usbfs",
		"ums-realtek", "ums-alauda", "ums-cypress", "ums-datafab",
		"ums-freecom", "ums-isd200", "ums-jumpshot", "ums-karma",
		"ums-onetouch", "ums-sddr09", "ums-sddr55", "ums-usbat",
		"ums-eneub6250",
	};
	static const char *const scsi[] = { "sd", "sr", "scsi", "st", "sg" };
	static const char *const hcd[] = {
		"dwc2", "dwc3", "dwc_otg", "dwc_otg_hcd", "tegra-xusb",
		"musb-hdrc", "musb_hdrc", "xhci", "renesas_usb3",
	};
	size_t i;

	if (!drv || !len)
		return KMSGTAB_WHO_NONE;
	for (i = 0; i < sizeof(usb) / sizeof(usb[0]); i++)
		if (kmsgtab_same(drv, len, usb[i]))
			return KMSGTAB_WHO_USB;
	for (i = 0; i < sizeof(scsi) / sizeof(scsi[0]); i++)
		if (kmsgtab_same(drv, len, scsi[i]))
			return KMSGTAB_WHO_SCSI;
	for (i = 0; i < sizeof(hcd) / sizeof(hcd[0]); i++)
		if (kmsgtab_same(drv, len, hcd[i]))
			return KMSGTAB_WHO_HCD;
	/* xhci_hcd, xhci-hcd, xhci-mtk, ehci-pci, ohci-platform, uhci_hcd,
	 * ehci-orion, ar71xx-ehci, fsl-ehci, xhci-plat-hcd ... */
	for (i = 0; i + 3 <= len; i++)
		if (!memcmp(drv + i, "hci", 3) && (i == 0 || drv[i - 1] == 'x' ||
		    drv[i - 1] == 'e' || drv[i - 1] == 'o' ||
		    drv[i - 1] == 'u'))
			return KMSGTAB_WHO_HCD;
	return KMSGTAB_WHO_NONE;
}

/* --- compiling the rows -------------------------------------------------- */

static int kmsgtab_fail(unsigned int row, const char *what)
{
	snprintf(kmsgtab.errbuf, sizeof(kmsgtab.errbuf),
		 "data/kmsg-formats.tsv row %u: %s", row + 1, what);
	kmsgtab.error = kmsgtab.errbuf;
	return -EINVAL;
}

static int kmsgtab_parse_kind(struct kmsgtab_row *r, const char *kind)
{
	unsigned int i;

	for (i = 0; i < CLASSIFY_KIND_COUNT; i++) {
		if (!strcmp(kind, classify_kind_name(i))) {
			r->role = KMSGTAB_INCIDENT;
			r->kind = i;
			return 0;
		}
	}
	for (i = 1; i < KMSGTAB_ROLE_COUNT; i++) {
		if (!strcmp(kind, kmsgtab_role_names[i])) {
			r->role = i;
			r->kind = CLASSIFY_KIND_COUNT;
			return 0;
		}
	}
	return -EINVAL;
}

static int kmsgtab_parse_who(struct kmsgtab_row *r, const char *who)
{
	unsigned int i;

	for (i = 0; i < KMSGTAB_WHO_NONE; i++) {
		if (!strcmp(who, kmsgtab_who_names[i])) {
			r->who = i;
			return 0;
		}
	}
	return -EINVAL;
}

static enum kmsgtab_field kmsgtab_field_of(const char *s, size_t n)
{
	unsigned int i;

	for (i = 0; i < KMSGTAB_F_NFIELDS; i++)
		if (strlen(kmsgtab_field_names[i]) == n &&
		    !memcmp(s, kmsgtab_field_names[i], n))
			return i;
	return KMSGTAB_F_NFIELDS;
}

/*
 * One conversion at *f ('%' already taken); its piece type, or -1.
 * *prec gets a string's precision ("%.8s": at most 8 characters), 0 if
 * none.
 */
static int kmsgtab_conversion(const char **f, bool *alt, size_t *prec)
{
	const char *p = *f;

	*alt = false;
	*prec = 0;
	while (*p && strchr("-+ #0", *p)) {
		if (*p == '#')
			*alt = true;
		p++;
	}
	while (*p == '*' || (*p >= '0' && *p <= '9'))
		p++;
	if (*p == '.') {
		p++;
		if (*p >= '0' && *p <= '9')
			*prec = (size_t)strtoul(p, NULL, 10);
		while (*p == '*' || (*p >= '0' && *p <= '9'))
			p++;
	}
	while (*p && strchr("hlzjtL", *p))
		p++;
	switch (*p) {
	case 'd':
	case 'i':
		*f = p + 1;
		return KMSGTAB_P_INT;
	case 'u':
		*f = p + 1;
		return KMSGTAB_P_UINT;
	case 'x':
	case 'X':
	case 'o':
		*f = p + 1;
		return KMSGTAB_P_HEX;
	case 'c':
		*f = p + 1;
		return KMSGTAB_P_CHAR;
	case 's':
		*f = p + 1;
		return KMSGTAB_P_STR;
	case 'p':
		/* the kernel's pointer extensions: %pV, %pg, %pOF, %phN */
		p++;
		while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		       (*p >= '0' && *p <= '9'))
			p++;
		*f = p;
		return KMSGTAB_P_STR;
	default:
		return -1;
	}
}

static unsigned int kmsgtab_count_lit(const char *s, size_t n)
{
	unsigned int c = 0;
	size_t i;

	for (i = 0; i < n; i++)
		c += s[i] != ' ';
	return c;
}

/* The longest run of a literal without two spaces in a row. */
static void kmsgtab_key(struct kmsgtab_compiled *c)
{
	unsigned int i;
	size_t j;

	c->key = NULL;
	c->keylen = 0;
	for (i = 0; i < c->n; i++) {
		const struct kmsgtab_piece *p = &c->p[i];
		size_t start = 0;

		if (p->type != KMSGTAB_P_LIT)
			continue;
		for (j = 0; j <= p->len; j++) {
			if (j < p->len && !(p->s[j] == ' ' && j + 1 < p->len &&
					    p->s[j + 1] == ' '))
				continue;
			if (j - start > c->keylen) {
				c->key = p->s + start;
				c->keylen = j - start;
			}
			while (j < p->len && p->s[j] == ' ')
				j++;
			start = j;
		}
	}
}

static int kmsgtab_compile(unsigned int row, const char *fmt,
			   const char *fields, struct kmsgtab_compiled *c)
{
	const char *f = fmt, *fl = fields;
	unsigned int nconv = 0;

	memset(c, 0, sizeof(*c));
	while (*f) {
		struct kmsgtab_piece *p;
		const char *lit = f;
		size_t n, prec;
		bool alt;
		int type;

		while (*f && !(*f == '%' && f[1] != '%')) {
			if (*f == '%')
				f++;	/* "%%": a literal '%' */
			f++;
		}
		if (f > lit) {
			char *copy;
			size_t k;

			if (c->n == KMSGTAB_PIECES_MAX)
				return kmsgtab_fail(row, "too many pieces");
			/* the text as printed: "%%" is one '%' */
			copy = malloc((size_t)(f - lit) + 1);
			if (!copy)
				return kmsgtab_fail(row, "out of memory");
			for (n = 0, k = 0; lit + k < f; k++) {
				copy[n++] = lit[k];
				if (lit[k] == '%')
					k++;
			}
			copy[n] = '\0';
			p = &c->p[c->n++];
			p->type = KMSGTAB_P_LIT;
			p->s = copy;
			p->len = n;
			c->nlit += kmsgtab_count_lit(copy, n);
		}
		if (!*f)
			break;
		f++;
		type = kmsgtab_conversion(&f, &alt, &prec);
		if (type < 0)
			return kmsgtab_fail(row, "unknown conversion");
		if (c->n == KMSGTAB_PIECES_MAX)
			return kmsgtab_fail(row, "too many pieces");
		p = &c->p[c->n++];
		p->type = type;
		p->len = type == KMSGTAB_P_STR ? prec : 0;
		/* the next name in the fields column */
		while (*fl == ' ')
			fl++;
		n = strcspn(fl, ",");
		if (!n && !*fl) {
			p->field = KMSGTAB_F_SKIP;
		} else {
			p->field = kmsgtab_field_of(fl, n);
			if (p->field == KMSGTAB_F_NFIELDS)
				return kmsgtab_fail(row, "unknown field name");
			fl += n;
			if (*fl == ',')
				fl++;
		}
		nconv++;
	}
	if (*fl)
		return kmsgtab_fail(row, "more fields than conversions");
	(void)nconv;
	kmsgtab_key(c);
	/* a few characters find the candidates; matching does the rest,
	 * and a small automaton stays in the cache */
	if (c->keylen > KMSGTAB_KEY_MAX)
		c->keylen = KMSGTAB_KEY_MAX;
	if (c->keylen < 4)
		return kmsgtab_fail(row, "no literal of 4 characters to find "
				    "it by");
	return 0;
}

/* --- Aho-Corasick ------------------------------------------------------- */

/* a before b: the row that would win (most literal text, then first) */
static bool kmsgtab_ranks_before(int32_t a, int32_t b)
{
	const struct kmsgtab_compiled *x = &kmsgtab.comp[a];
	const struct kmsgtab_compiled *y = &kmsgtab.comp[b];

	return x->nlit > y->nlit || (x->nlit == y->nlit && a < b);
}

/*
 * Each state's keys in the order a match would take them: the first that
 * matches is then the best of them, and the rest are not tried.
 */
static void kmsgtab_ac_sort_outputs(struct kmsgtab_ac *ac)
{
	unsigned int s;

	for (s = 0; s < ac->nstates; s++) {
		int32_t sorted = -1, k = ac->out[s];

		while (k >= 0) {	/* insertion sort of a short list */
			int32_t nx = ac->out_next[k], *at = &sorted;

			while (*at >= 0 && kmsgtab_ranks_before(*at, k))
				at = &ac->out_next[*at];
			ac->out_next[k] = *at;
			*at = k;
			k = nx;
		}
		ac->out[s] = sorted;
	}
}

/*
 * The states where a key ends (or one ends through the fail links) last:
 * the walk then knows from the state's number alone that there is
 * nothing to look at, which is the case for nearly every byte.
 */
static int kmsgtab_ac_renumber(struct kmsgtab_ac *ac)
{
	unsigned int n = ac->nstates, s, k, quiet = 0, loud;
	uint16_t *map = malloc(n * sizeof(*map));
	uint16_t *next = malloc((size_t)n * ac->ncls * sizeof(*next));
	int32_t *out = malloc(n * sizeof(*out));
	int32_t *fail_out = malloc(n * sizeof(*fail_out));

	if (!map || !next || !out || !fail_out) {
		free(map);
		free(next);
		free(out);
		free(fail_out);
		return -ENOMEM;
	}
	for (s = 0; s < n; s++)
		if (ac->out[s] < 0 && ac->fail_out[s] < 0)
			quiet++;
	loud = quiet;
	ac->first_out = quiet;
	quiet = 0;
	for (s = 0; s < n; s++)
		map[s] = (uint16_t)(ac->out[s] < 0 && ac->fail_out[s] < 0 ?
				    quiet++ : loud++);
	for (s = 0; s < n; s++) {
		for (k = 0; k < ac->ncls; k++)
			next[map[s] * ac->ncls + k] =
				map[ac->next[s * ac->ncls + k]];
		out[map[s]] = ac->out[s];
		fail_out[map[s]] = ac->fail_out[s] >= 0 ?
				   map[ac->fail_out[s]] : -1;
	}
	free(map);
	free(ac->next);
	free(ac->out);
	free(ac->fail_out);
	ac->next = next;
	ac->out = out;
	ac->fail_out = fail_out;
	return 0;
}

static int kmsgtab_ac_build(void)
{
	struct kmsgtab_ac *ac = &kmsgtab.ac;
	unsigned int max = 1, i, s, head = 0, tail = 0, c, k;
	uint32_t *fail = NULL, *queue = NULL;
	int ret = -ENOMEM;

	/* the byte classes: 0 for bytes no key has */
	memset(ac->cls, 0, sizeof(ac->cls));
	ac->ncls = 1;
	for (i = 0; i < kmsgtab.nrows; i++) {
		const struct kmsgtab_compiled *kc = &kmsgtab.comp[i];
		size_t j;

		max += (unsigned int)kc->keylen;
		for (j = 0; j < kc->keylen; j++) {
			c = (unsigned char)kc->key[j];
			if (!ac->cls[c])
				ac->cls[c] = (uint8_t)ac->ncls++;
		}
	}
	/* 16-bit states: half the automaton, and its walk is the cache's */
	if (max > UINT16_MAX)
		return kmsgtab_fail(0, "keys too long for the automaton");
	ac->next = calloc((size_t)max * ac->ncls, sizeof(*ac->next));
	ac->out = malloc(max * sizeof(*ac->out));
	ac->fail_out = malloc(max * sizeof(*ac->fail_out));
	ac->out_next = malloc(kmsgtab.nrows * sizeof(*ac->out_next));
	fail = calloc(max, sizeof(*fail));
	queue = malloc(max * sizeof(*queue));
	if (!ac->next || !ac->out || !ac->fail_out || !ac->out_next ||
	    !fail || !queue)
		goto out;
	for (s = 0; s < max; s++)
		ac->out[s] = ac->fail_out[s] = -1;
	/* the trie; 0 in next[] means "no edge" (state 0 is the root) */
	ac->nstates = 1;
	for (i = 0; i < kmsgtab.nrows; i++) {
		const struct kmsgtab_compiled *kc = &kmsgtab.comp[i];
		size_t j;

		s = 0;
		for (j = 0; j < kc->keylen; j++) {
			k = ac->cls[(unsigned char)kc->key[j]];
			if (!ac->next[s * ac->ncls + k])
				ac->next[s * ac->ncls + k] =
					(uint16_t)ac->nstates++;
			s = ac->next[s * ac->ncls + k];
		}
		ac->out_next[i] = ac->out[s];
		ac->out[s] = (int32_t)i;
	}
	/* breadth first: fail links, then the edges of a full DFA */
	for (k = 1; k < ac->ncls; k++)
		if (ac->next[k])
			queue[tail++] = ac->next[k];
	while (head < tail) {
		uint32_t u = queue[head++];

		ac->fail_out[u] = ac->out[fail[u]] >= 0 ? (int32_t)fail[u] :
				  ac->fail_out[fail[u]];
		for (k = 1; k < ac->ncls; k++) {
			uint32_t v = ac->next[u * ac->ncls + k];

			if (v) {
				fail[v] = ac->next[fail[u] * ac->ncls + k];
				queue[tail++] = v;
			} else {
				ac->next[u * ac->ncls + k] =
					ac->next[fail[u] * ac->ncls + k];
			}
		}
	}
	kmsgtab_ac_sort_outputs(ac);
	ret = kmsgtab_ac_renumber(ac);
out:
	free(fail);
	free(queue);
	return ret;
}

/* the columns kmsgtab reads, by the names of the file's header line */
enum kmsgtab_col {
	KMSGTAB_COL_ID, KMSGTAB_COL_KIND, KMSGTAB_COL_WHO, KMSGTAB_COL_FORMAT,
	KMSGTAB_COL_FIELDS, KMSGTAB_COL_WHERE, KMSGTAB_COL_VERSIONS,
	KMSGTAB_COL_WHY, KMSGTAB_COL_TEST, KMSGTAB_COL_ATTEMPT, KMSGTAB_NCOLS
};

static const char *const kmsgtab_col_names[KMSGTAB_NCOLS] = {
	"id", "kind", "who", "format", "fields", "where", "versions", "why",
	"test", "attempt",
};

static int kmsgtab_parse_attempt(struct kmsgtab_row *r, const char *s)
{
	if (!*s)
		r->attempt = KMSGTAB_ATTEMPT_WITHIN;
	else if (!strcmp(s, "ends"))
		r->attempt = KMSGTAB_ATTEMPT_ENDS;
	else if (!strcmp(s, "after"))
		r->attempt = KMSGTAB_ATTEMPT_AFTER;
	else
		return -EINVAL;
	if (*s && (r->role != KMSGTAB_INCIDENT ||
		   r->kind != CLASSIFY_ENUM_FAILURE))
		return -EINVAL;
	return 0;
}

static void kmsgtab_init(void)
{
	const struct datatab *t = &datatab_kmsg_formats;
	unsigned int i, j;
	int c[KMSGTAB_NCOLS];

	for (i = 0; i < KMSGTAB_NCOLS; i++) {
		c[i] = datatab_col(t, kmsgtab_col_names[i]);
		if (c[i] < 0) {
			snprintf(kmsgtab.errbuf, sizeof(kmsgtab.errbuf),
				 "%s: no column \"%s\"", t->name,
				 kmsgtab_col_names[i]);
			kmsgtab.error = kmsgtab.errbuf;
			return;
		}
	}
	kmsgtab.nrows = t->nrows;
	kmsgtab.rows = calloc(t->nrows ? t->nrows : 1, sizeof(*kmsgtab.rows));
	kmsgtab.comp = calloc(t->nrows ? t->nrows : 1, sizeof(*kmsgtab.comp));
	kmsgtab.seen = calloc(t->nrows ? t->nrows : 1, sizeof(*kmsgtab.seen));
	if (!kmsgtab.rows || !kmsgtab.comp || !kmsgtab.seen) {
		kmsgtab.error = "out of memory";
		return;
	}
	for (i = 0; i < t->nrows; i++) {
		struct kmsgtab_row *r = &kmsgtab.rows[i];

		r->id = datatab_cell(t, i, (unsigned int)c[KMSGTAB_COL_ID]);
		r->format = datatab_cell(t, i, (unsigned int)c[KMSGTAB_COL_FORMAT]);
		r->where = datatab_cell(t, i, (unsigned int)c[KMSGTAB_COL_WHERE]);
		r->versions = datatab_cell(t, i,
					   (unsigned int)c[KMSGTAB_COL_VERSIONS]);
		r->why = datatab_cell(t, i, (unsigned int)c[KMSGTAB_COL_WHY]);
		r->test = datatab_cell(t, i, (unsigned int)c[KMSGTAB_COL_TEST]);
		r->index = i;
		if (kmsgtab_parse_kind(r, datatab_cell(t, i,
				       (unsigned int)c[KMSGTAB_COL_KIND]))) {
			kmsgtab_fail(i, "unknown kind");
			return;
		}
		if (kmsgtab_parse_who(r, datatab_cell(t, i,
				      (unsigned int)c[KMSGTAB_COL_WHO]))) {
			kmsgtab_fail(i, "unknown who");
			return;
		}
		if (kmsgtab_parse_attempt(r, datatab_cell(t, i,
					  (unsigned int)c[KMSGTAB_COL_ATTEMPT]))) {
			kmsgtab_fail(i, "attempt: \"ends\" or \"after\", on an "
				     "enum-failure row");
			return;
		}
		if (kmsgtab_compile(i, r->format, datatab_cell(t, i,
				    (unsigned int)c[KMSGTAB_COL_FIELDS]),
				    &kmsgtab.comp[i]))
			return;
		for (j = 0; j < i; j++)
			if (!strcmp(kmsgtab.rows[j].id, r->id)) {
				kmsgtab_fail(i, "duplicate id");
				return;
			}
	}
	if (kmsgtab_ac_build()) {
		kmsgtab.error = "out of memory";
		return;
	}
}

static bool kmsgtab_ready(void)
{
	pthread_once(&kmsgtab_once, kmsgtab_init);
	return !kmsgtab.error;
}

const struct kmsgtab_row *kmsgtab_rows(unsigned int *n)
{
	if (!kmsgtab_ready())
		return NULL;
	*n = kmsgtab.nrows;
	return kmsgtab.rows;
}

const char *kmsgtab_error(void)
{
	kmsgtab_ready();
	return kmsgtab.error;
}

/* --- matching ------------------------------------------------------------ */

struct kmsgtab_state {
	const struct kmsgtab_compiled *c;
	const char *msg, *end;
	unsigned int budget;
	struct kmsgtab_match *m;
};

static bool kmsgtab_isdigit(char c)
{
	return c >= '0' && c <= '9';
}

static bool kmsgtab_ishex(char c)
{
	return kmsgtab_isdigit(c) || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

/* A literal at p: spaces in it match one or more spaces; end or NULL. */
static const char *kmsgtab_lit(const struct kmsgtab_piece *pc, const char *p,
			       const char *end)
{
	size_t i = 0;

	while (i < pc->len) {
		if (pc->s[i] == ' ') {
			if (p >= end || (*p != ' ' && *p != '\t'))
				return NULL;
			while (i < pc->len && pc->s[i] == ' ')
				i++;
			while (p < end && (*p == ' ' || *p == '\t'))
				p++;
			continue;
		}
		if (p >= end || *p != pc->s[i])
			return NULL;
		p++;
		i++;
	}
	return p;
}

/* A number at p; end of it or NULL. */
static const char *kmsgtab_num(enum kmsgtab_piece_type t, const char *p,
			       const char *end)
{
	const char *q;

	while (p < end && *p == ' ')
		p++;	/* widths pad with spaces */
	if (t == KMSGTAB_P_INT && p < end && *p == '-')
		p++;
	if (t == KMSGTAB_P_HEX && end - p > 2 && p[0] == '0' &&
	    (p[1] == 'x' || p[1] == 'X') && kmsgtab_ishex(p[2]))
		p += 2;
	q = p;
	if (t == KMSGTAB_P_HEX)
		while (q < end && kmsgtab_ishex(*q))
			q++;
	else
		while (q < end && kmsgtab_isdigit(*q))
			q++;
	return q > p ? q : NULL;
}

static void kmsgtab_capture(struct kmsgtab_state *st,
			    const struct kmsgtab_piece *pc, const char *s,
			    size_t len)
{
	struct kmsgtab_match *m = st->m;

	if (pc->field == KMSGTAB_F_SKIP || m->nvalues == KMSGTAB_VALUES_MAX)
		return;
	m->v[m->nvalues].field = pc->field;
	m->v[m->nvalues].s = s;
	m->v[m->nvalues].len = len;
	m->nvalues++;
}

/* Pieces i.. at p; on success the captures are in st->m, end in *out. */
static bool kmsgtab_match_at(struct kmsgtab_state *st, unsigned int i,
			     const char *p, const char **out)
{
	const struct kmsgtab_piece *pc;
	unsigned int saved;
	const char *q;

	if (!st->budget)
		return false;
	st->budget--;
	if (i == st->c->n) {
		*out = p;
		return true;
	}
	pc = &st->c->p[i];
	saved = st->m->nvalues;
	switch (pc->type) {
	case KMSGTAB_P_LIT:
		q = kmsgtab_lit(pc, p, st->end);
		return q && kmsgtab_match_at(st, i + 1, q, out);
	case KMSGTAB_P_INT:
	case KMSGTAB_P_UINT:
	case KMSGTAB_P_HEX:
		q = kmsgtab_num(pc->type, p, st->end);
		if (!q)
			return false;
		kmsgtab_capture(st, pc, p, (size_t)(q - p));
		if (kmsgtab_match_at(st, i + 1, q, out))
			return true;
		st->m->nvalues = saved;
		return false;
	case KMSGTAB_P_CHAR:
		if (p >= st->end)
			return false;
		kmsgtab_capture(st, pc, p, 1);
		if (kmsgtab_match_at(st, i + 1, p + 1, out))
			return true;
		st->m->nvalues = saved;
		return false;
	case KMSGTAB_P_STR:
		if (i + 1 == st->c->n) {
			size_t n = (size_t)(st->end - p);

			if (pc->len && n > pc->len)
				n = pc->len;
			kmsgtab_capture(st, pc, p, n);
			*out = p + n;
			return true;
		}
		/* the shortest text the rest matches after, within "%.Ns" */
		for (q = p; q <= st->end; q++) {
			if (pc->len && (size_t)(q - p) > pc->len)
				break;
			const struct kmsgtab_piece *nx = &st->c->p[i + 1];

			if (nx->type == KMSGTAB_P_LIT && nx->s[0] != ' ') {
				q = memchr(q, nx->s[0], (size_t)(st->end - q));
				if (!q)
					break;
			} else if (nx->type == KMSGTAB_P_LIT) {
				/* its space is one or more blanks */
				while (q < st->end && *q != ' ' && *q != '\t')
					q++;
				if (q == st->end)
					break;
			}
			if (pc->len && (size_t)(q - p) > pc->len)
				break;
			kmsgtab_capture(st, pc, p, (size_t)(q - p));
			if (kmsgtab_match_at(st, i + 1, q, out))
				return true;
			st->m->nvalues = saved;
			if (!st->budget)
				return false;
		}
		/*
		 * "%.16s %.4s PQ:" with a revision of four blanks: the
		 * literal before it took them all, so "%.4s" is empty and
		 * the next literal's blank is the last one taken
		 */
		if (pc->len && st->c->p[i + 1].type == KMSGTAB_P_LIT &&
		    st->c->p[i + 1].s[0] == ' ' && p > st->msg && p[-1] == ' ') {
			kmsgtab_capture(st, pc, p, 0);
			if (kmsgtab_match_at(st, i + 1, p - 1, out))
				return true;
			st->m->nvalues = saved;
		}
		return false;
	}
	return false;
}

/* The format of row anywhere in msg. */
static bool kmsgtab_search(unsigned int row, const char *msg, size_t len,
			   struct kmsgtab_match *m)
{
	const struct kmsgtab_compiled *c = &kmsgtab.comp[row];
	struct kmsgtab_state st = {
		.c = c, .msg = msg, .end = msg + len, .budget = 4096, .m = m,
	};
	const char *p = msg, *out;

	m->nvalues = 0;
	if (c->p[0].type == KMSGTAB_P_STR) {
		/* a leading %s takes what comes before: start at 0 */
		if (!kmsgtab_match_at(&st, 0, msg, &out))
			return false;
		m->start = 0;
		m->end = (size_t)(out - msg);
		return true;
	}
	if (c->p[0].type != KMSGTAB_P_LIT) {
		/* "%dmA is over ...": a number anywhere, at a word's start */
		for (; p < st.end; p++) {
			if (p > msg && p[-1] != ' ' && p[-1] != '(' && p[-1] != '[')
				continue;
			if (kmsgtab_match_at(&st, 0, p, &out)) {
				m->start = (size_t)(p - msg);
				m->end = (size_t)(out - msg);
				return true;
			}
			if (!st.budget)
				return false;
		}
		return false;
	}
	while (p < st.end) {
		p = memchr(p, c->p[0].s[0], (size_t)(st.end - p));
		if (!p)
			return false;
		if (kmsgtab_match_at(&st, 0, p, &out)) {
			m->start = (size_t)(p - msg);
			m->end = (size_t)(out - msg);
			return true;
		}
		if (!st.budget)
			return false;
		p++;
	}
	return false;
}

static bool kmsgtab_who_fits(const struct kmsgtab_row *r,
			     const struct kmsgtab_compiled *c,
			     enum kmsgtab_who who)
{
	if (r->who == KMSGTAB_WHO_ANY || r->who == who)
		return true;
	/* an unprefixed message: only rows specific enough on their own */
	return who == KMSGTAB_WHO_NONE && c->nlit >= 20;
}

const struct kmsgtab_row *kmsgtab_match(const char *msg, size_t len,
					enum kmsgtab_who who,
					struct kmsgtab_match *m)
{
	const struct kmsgtab_ac *ac = &kmsgtab.ac;
	struct kmsgtab_match cand;
	const struct kmsgtab_row *best = NULL;
	unsigned int best_rank = 0;
	uint32_t s = 0;
	size_t i;

	if (!msg || !kmsgtab_ready() || !kmsgtab.nrows)
		return NULL;
	if (!++kmsgtab.generation) {
		memset(kmsgtab.seen, 0, kmsgtab.nrows * sizeof(*kmsgtab.seen));
		kmsgtab.generation = 1;
	}
	for (i = 0; i < len; i++) {
		int32_t st, k;

		s = ac->next[s * ac->ncls + ac->cls[(unsigned char)msg[i]]];
		if (s < ac->first_out)
			continue;
		st = ac->out[s] >= 0 ? (int32_t)s : ac->fail_out[s];
		for (; st >= 0; st = ac->fail_out[st]) {
			for (k = ac->out[st]; k >= 0; k = ac->out_next[k]) {
				const struct kmsgtab_row *r = &kmsgtab.rows[k];
				const struct kmsgtab_compiled *c =
					&kmsgtab.comp[k];

				if (kmsgtab.seen[k] == kmsgtab.generation)
					continue;
				kmsgtab.seen[k] = kmsgtab.generation;
				/* most literal text wins, then the first row */
				if (!kmsgtab_who_fits(r, c, who) ||
				    (best && (c->nlit < best_rank ||
					      (c->nlit == best_rank &&
					       r->index > best->index))))
					continue;
				if (!kmsgtab_search((unsigned int)k, msg, len,
						    &cand))
					continue;
				best = r;
				best_rank = c->nlit;
				cand.row = r;
				*m = cand;
			}
		}
	}
	return best;
}

const char *kmsgtab_value(const struct kmsgtab_match *m,
			  enum kmsgtab_field f, size_t *len)
{
	unsigned int i;

	for (i = 0; m && i < m->nvalues; i++) {
		if (m->v[i].field == f) {
			*len = m->v[i].len;
			return m->v[i].s;
		}
	}
	return NULL;
}
