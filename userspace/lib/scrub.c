// SPDX-License-Identifier: GPL-2.0-only
/*
 * scrub.c - the bundle's cleaner (scrub.h): one left-to-right scan of the
 * bytes that, at each position, asks in turn
 *
 *   1. is a device serial of the recording here (even inside a word)?
 *   2. do the words here say what follows (/home/, _HOSTNAME=, acct=",
 *      SerialNumber:, _BOOT_ID=, "hostname":)?
 *   3. at the start of a word: a syslog or journal header with its host,
 *      a mount unit with a user's name (media-alice-SSD.mount)?
 *   4. at the start of a word: an address or an id, known by its form?
 *   5. at the start of a word: a name found before, as a whole word?
 *
 * scrub_learn() runs the same scan without output, so that only what
 * steps 2 and 3 find (names) goes into the table first.
 *
 * Every value lives in one hash table, keyed by its kind and its value in
 * a normal form (an address's bytes, an id's 16 bytes, a name's text), so
 * fe80::1 and fe80:0:0:0:0:0:0:1, or a boot id with and without dashes,
 * are one value and get one token.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "report_advice.h"
#include "scrub.h"

/* Key spaces; each numbers its tokens from 1. */
enum scrub_kind {
	SCRUB_K_SERIAL,
	SCRUB_K_HOST,
	SCRUB_K_USER,
	SCRUB_K_IPV4,
	SCRUB_K_IPV6,
	SCRUB_K_MAC,
	SCRUB_K_ID,		/* boot and machine ids: one space */
	SCRUB_NKIND
};

#define SCRUB_NAME_MAX		64	/* a user name, as useradd allows */
#define SCRUB_HOST_MAX		253	/* a DNS name */
/* A USB string descriptor is at most 126 UTF-16 units: 378 UTF-8 bytes. */
#define SCRUB_SERIAL_MAX	384
#define SCRUB_UNIT_MAX		256	/* systemd's unit name limit */
#define SCRUB_JSON_DEPTH	64	/* json-c parses 32 levels by default */

/* How a token is written, from how the value was. */
#define SCRUB_F_UPPER		0x1u	/* hex digits in upper case */
#define SCRUB_F_DASH		0x2u	/* MAC with '-', id with dashes */
#define SCRUB_F_BARE		0x4u	/* MAC as 12 hex digits (enx...) */

struct scrub_val {
	struct scrub_val *next_lit;	/* literals of one first byte */
	uint8_t kind;
	uint8_t cls;			/* enum scrub_class, counted */
	bool literal;			/* replaced wherever it stands */
	bool anywhere;			/* ... even inside a word */
	uint32_t num;			/* token number in its kind */
	uint16_t klen;
	char tok[40];			/* the token, for fixed forms */
	char key[];			/* klen bytes, NUL-ended */
};

struct scrub {
	unsigned int classes;
	struct scrub_val **slot;	/* open addressing, power of 2 */
	size_t cap, n;
	uint32_t next[SCRUB_NKIND];
	/* literals by first byte, longest first */
	struct scrub_val *lit[256];
	struct util_str tmp;		/* scratch for JSON strings */
};

struct scrub_hit {
	size_t start, end;		/* the bytes replaced (or kept) */
	struct scrub_val *v;		/* NULL: kept as they are */
	unsigned int form;
};

static const uint8_t scrub_kind_class[SCRUB_NKIND] = {
	[SCRUB_K_SERIAL] = SCRUB_SERIAL,
	[SCRUB_K_HOST] = SCRUB_HOST,
	[SCRUB_K_USER] = SCRUB_USER,
	[SCRUB_K_IPV4] = SCRUB_IPV4,
	[SCRUB_K_IPV6] = SCRUB_IPV6,
	[SCRUB_K_MAC] = SCRUB_MAC,
	[SCRUB_K_ID] = SCRUB_ID,
};

/* --- characters ---------------------------------------------------------- */

static bool scrub_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool scrub_alnum(char c)
{
	return scrub_digit(c) || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

/* what continues a word: a value must not start or end next to one */
static bool scrub_wordc(char c)
{
	return scrub_alnum(c) || c == '_';
}

static bool scrub_hex(char c)
{
	return util_hexval(c) >= 0;
}

/* user names: POSIX's portable set */
static bool scrub_namec(char c)
{
	return scrub_alnum(c) || c == '.' || c == '_' || c == '-';
}

/* hostnames; '_' too, as some are set so */
static bool scrub_hostc(char c)
{
	return scrub_namec(c);
}

static bool scrub_is(const char *s, size_t n, const char *word)
{
	return strlen(word) == n && !memcmp(s, word, n);
}

static bool scrub_is_nocase(const char *s, size_t n, const char *word)
{
	size_t i;

	if (strlen(word) != n)
		return false;
	for (i = 0; i < n; i++)
		if ((s[i] | 0x20) != word[i])
			return false;
	return true;
}

static bool scrub_starts(const char *s, size_t n, const char *word)
{
	size_t wl = strlen(word);

	return n >= wl && !memcmp(s, word, wl);
}

/* --- the table ----------------------------------------------------------- */

struct scrub *scrub_new(unsigned int classes)
{
	struct scrub *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->classes = classes & SCRUB_ALL;
	s->cap = 64;
	s->slot = calloc(s->cap, sizeof(*s->slot));
	if (!s->slot) {
		free(s);
		return NULL;
	}
	return s;
}

void scrub_free(struct scrub *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->cap; i++)
		free(s->slot[i]);
	free(s->slot);
	free(s->tmp.s);
	free(s);
}

static bool scrub_on(const struct scrub *s, unsigned int cls)
{
	return s->classes & (1u << cls);
}

static uint64_t scrub_hash(uint8_t kind, const void *key, size_t len)
{
	const uint8_t *p = key;
	uint64_t h = 0xcbf29ce484222325ull ^ kind;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

static struct scrub_val **scrub_slot(struct scrub_val **slot, size_t cap,
				     uint8_t kind, const void *key,
				     size_t len)
{
	size_t i = (size_t)scrub_hash(kind, key, len) & (cap - 1);

	while (slot[i] && (slot[i]->kind != kind || slot[i]->klen != len ||
			   memcmp(slot[i]->key, key, len)))
		i = (i + 1) & (cap - 1);
	return &slot[i];
}

static int scrub_grow(struct scrub *s)
{
	struct scrub_val **slot;
	size_t cap = s->cap * 2, i;

	slot = calloc(cap, sizeof(*slot));
	if (!slot)
		return -ENOMEM;
	for (i = 0; i < s->cap; i++)
		if (s->slot[i])
			*scrub_slot(slot, cap, s->slot[i]->kind,
				    s->slot[i]->key, s->slot[i]->klen) =
				s->slot[i];
	free(s->slot);
	s->slot = slot;
	s->cap = cap;
	return 0;
}

/*
 * IPv4 tokens: the documentation networks of RFC 5737 (762 addresses),
 * then 240.0.0.0/4, reserved and never a host's.
 */
static void scrub_ipv4_token(uint32_t num, char *buf, size_t len)
{
	if (num <= 254)
		snprintf(buf, len, "192.0.2.%u", num);
	else if (num <= 508)
		snprintf(buf, len, "198.51.100.%u", num - 254);
	else if (num <= 762)
		snprintf(buf, len, "203.0.113.%u", num - 508);
	else
		snprintf(buf, len, "240.0.%u.%u", ((num - 762) >> 8) & 0xff,
			 (num - 762) & 0xff);
}

static void scrub_token(struct scrub_val *v)
{
	switch (v->kind) {
	case SCRUB_K_SERIAL:
		report_serial(v->key, false, v->tok, sizeof(v->tok));
		break;
	case SCRUB_K_HOST:
		snprintf(v->tok, sizeof(v->tok), "host%u", v->num);
		break;
	case SCRUB_K_USER:
		snprintf(v->tok, sizeof(v->tok), "user%u", v->num);
		break;
	case SCRUB_K_IPV4:
		scrub_ipv4_token(v->num, v->tok, sizeof(v->tok));
		break;
	case SCRUB_K_IPV6:
		/* RFC 3849's documentation prefix */
		snprintf(v->tok, sizeof(v->tok), "2001:db8::%x", v->num);
		break;
	default:
		break;		/* MACs and ids are written as they were */
	}
}

/*
 * The value of @kind with normal form @key: found, or made with the next
 * token of its kind (counted as @cls).  0, -E2BIG, -ENOMEM.
 */
static int scrub_get(struct scrub *s, uint8_t kind, uint8_t cls,
		     const void *key, size_t len, struct scrub_val **out)
{
	struct scrub_val **slot, *v;
	int ret;

	if (len > 0xffff)
		return -EINVAL;
	slot = scrub_slot(s->slot, s->cap, kind, key, len);
	if (*slot) {
		*out = *slot;
		return 0;
	}
	if (s->n >= SCRUB_VALUES_MAX)
		return -E2BIG;
	if ((s->n + 1) * 2 > s->cap) {
		ret = scrub_grow(s);
		if (ret)
			return ret;
		slot = scrub_slot(s->slot, s->cap, kind, key, len);
	}
	v = calloc(1, sizeof(*v) + len + 1);
	if (!v)
		return -ENOMEM;
	v->kind = kind;
	v->cls = cls;
	v->klen = (uint16_t)len;
	memcpy(v->key, key, len);
	v->num = ++s->next[kind];
	scrub_token(v);
	*slot = v;
	s->n++;
	*out = v;
	return 0;
}

/* v matched as text from now on; longest first among its first byte */
static void scrub_lit_add(struct scrub *s, struct scrub_val *v, bool anywhere)
{
	struct scrub_val **p;

	if (!v->klen)
		return;
	if (v->literal) {
		v->anywhere |= anywhere;
		return;
	}
	v->literal = true;
	v->anywhere = anywhere;
	p = &s->lit[(uint8_t)v->key[0]];
	while (*p && (*p)->klen >= v->klen)
		p = &(*p)->next_lit;
	v->next_lit = *p;
	*p = v;
}

/*
 * The literal at in[i]: a serial even inside a word (@anywhere), else a
 * name standing as a whole word; the longest.
 */
static struct scrub_val *scrub_lit_at(const struct scrub *s, const char *in,
				      size_t len, size_t i, bool anywhere)
{
	struct scrub_val *v;

	for (v = s->lit[(uint8_t)in[i]]; v; v = v->next_lit) {
		if (v->anywhere != anywhere || v->klen > len - i ||
		    memcmp(in + i, v->key, v->klen))
			continue;
		if (!anywhere && i + v->klen < len &&
		    scrub_wordc(in[i + v->klen]))
			continue;
		return v;
	}
	return NULL;
}

/* the literal at in[i] as a hit: 1, or 0 */
static int scrub_hit_lit(const struct scrub *s, const char *in, size_t len,
			 size_t i, bool anywhere, struct scrub_hit *h)
{
	struct scrub_val *v = s->lit[(uint8_t)in[i]] ?
			      scrub_lit_at(s, in, len, i, anywhere) : NULL;

	if (!v)
		return 0;
	h->v = v;
	h->start = i;
	h->end = i + v->klen;
	h->form = 0;
	return 1;
}

/*
 * Names that are words of kernel logs and paths too: a user or host so
 * named is replaced only where it stands as a name (/home/data/,
 * "Hostname set to <usb>"), or "ordered data mode" would read "ordered
 * user1 mode" and /dev/sda "/user1/sda".
 */
static const char *const scrub_common[] = {
	"admin", "backup", "bin", "boot", "data", "debian", "dev", "disk",
	"etc", "fedora", "guest", "home", "kernel", "lib", "linux", "media",
	"mnt", "nobody", "opt", "proc", "public", "root", "run", "share",
	"shared", "srv", "storage", "sys", "system", "test", "tmp", "ubuntu",
	"usb", "user", "users", "usr", "var",
};

static bool scrub_free_word(uint8_t kind, const char *v, size_t n)
{
	size_t i;

	if (n < 3)
		return false;
	if (kind == SCRUB_K_SERIAL) {
		/* "0000", "1111": a placeholder, which names no device */
		for (i = 1; i < n && v[i] == v[0]; i++)
			;
		return n >= 4 && i < n;
	}
	for (i = 0; i < sizeof(scrub_common) / sizeof(scrub_common[0]); i++)
		if (scrub_is_nocase(v, n, scrub_common[i]))
			return false;
	return true;
}

/*
 * Hosts that name no one: never replaced.  The log levels are what some
 * logs (ChromeOS's) have where syslog has the host.
 */
static bool scrub_host_nobody(const char *v, size_t n)
{
	static const char *const none[] = {
		"localhost", "localhost.localdomain", "(none)", "-", "INFO",
		"DEBUG", "NOTICE", "WARN", "WARNING", "ERR", "ERROR", "CRIT",
		"ALERT", "EMERG",
	};
	size_t i;

	if (!n)
		return true;
	for (i = 0; i < sizeof(none) / sizeof(none[0]); i++)
		if (scrub_is(v, n, none[i]))
			return true;
	for (i = 0; i < n && (scrub_digit(v[i]) || v[i] == '.'); i++)
		;
	return i == n;		/* a number or an IPv4 address, not a name */
}

/*
 * A name seen where it stands as one: the table's, and a literal if
 * @strong (a home directory, not a mount point anybody may choose).
 */
static int scrub_name(struct scrub *s, uint8_t kind, const char *v, size_t n,
		      bool strong, struct scrub_val **out)
{
	int ret;

	ret = scrub_get(s, kind, scrub_kind_class[kind], v, n, out);
	if (!ret && strong && scrub_free_word(kind, v, n))
		scrub_lit_add(s, *out, false);
	return ret;
}

/* --- values known by their form ------------------------------------------ */

/* a.b.c.d at s, each 0 to 255 without a leading zero: its length */
static size_t scrub_ipv4_parse(const char *s, size_t n, uint8_t q[4])
{
	size_t i = 0;
	int k;

	for (k = 0; k < 4; k++) {
		unsigned int v = 0, d = 0;

		if (k) {
			if (i >= n || s[i] != '.')
				return 0;
			i++;
		}
		while (i < n && scrub_digit(s[i]) && d < 4) {
			v = v * 10 + (unsigned int)(s[i] - '0');
			i++;
			d++;
		}
		if (!d || d > 3 || v > 255 || (d > 1 && s[i - d] == '0'))
			return 0;
		q[k] = (uint8_t)v;
	}
	return i;
}

/*
 * All of s[0..n) as an IPv6 address (RFC 4291 2.2: groups of 1 to 4 hex
 * digits, one "::", a dotted IPv4 tail): true and its bytes, and in *v4
 * where a dotted tail starts (0 if none).
 */
static bool scrub_ipv6_parse(const char *s, size_t n, uint8_t out[16],
			     size_t *v4)
{
	uint16_t g[8];
	int ng = 0, gap = -1, k;
	size_t i = 0;

	*v4 = 0;
	if (n >= 2 && s[0] == ':' && s[1] == ':') {
		gap = 0;
		i = 2;
	} else if (n && s[0] == ':') {
		return false;
	}
	while (i < n) {
		size_t st = i;
		unsigned int v = 0, d = 0;

		while (i < n && scrub_hex(s[i]) && d < 5) {
			v = v * 16 + (unsigned int)util_hexval(s[i]);
			i++;
			d++;
		}
		if (i < n && s[i] == '.') {
			uint8_t q[4];

			if (ng > 6 || scrub_ipv4_parse(s + st, n - st, q) !=
			    n - st)
				return false;
			g[ng++] = (uint16_t)(q[0] << 8 | q[1]);
			g[ng++] = (uint16_t)(q[2] << 8 | q[3]);
			*v4 = st;
			break;
		}
		if (!d || d > 4 || ng == 8)
			return false;
		g[ng++] = (uint16_t)v;
		if (i == n)
			break;
		if (s[i] != ':' || i + 1 == n)
			return false;
		i++;
		if (s[i] == ':') {
			if (gap >= 0)
				return false;
			gap = ng;
			i++;
		}
	}
	if (gap < 0 ? ng != 8 : ng > 7)
		return false;
	memset(out, 0, 16);
	for (k = 0; k < ng; k++) {
		int at = gap >= 0 && k >= gap ? 8 - ng + k : k;

		out[2 * at] = (uint8_t)(g[k] >> 8);
		out[2 * at + 1] = (uint8_t)g[k];
	}
	return true;
}

/*
 * An IPv6 address at s: the longest run of its characters, or that run
 * but a ':' or '.' ending a sentence or a label ("fe80::1: up").  Its
 * length or 0.
 */
static size_t scrub_ipv6(const char *s, size_t n, uint8_t b[16], size_t *v4)
{
	size_t r = 0, colons = 0;

	while (r < n && r <= 45 &&
	       (scrub_hex(s[r]) || s[r] == ':' || s[r] == '.'))
		colons += s[r++] == ':';
	if (r > 45 || colons < 2 || (r < n && scrub_wordc(s[r])))
		return 0;
	if (scrub_ipv6_parse(s, r, b, v4))
		return r;
	if (r > 2 && (s[r - 1] == ':' || s[r - 1] == '.') &&
	    scrub_ipv6_parse(s, r - 1, b, v4))
		return r - 1;
	return 0;
}

/*
 * A MAC-48, EUI-64 or IPoIB (20 bytes) address at s: pairs of hex digits
 * all joined by ':' or all by '-' (the kernel's %pM and %pMF).  Its
 * length or 0; bytes in b, how many in *nb, the form in *form.
 */
static size_t scrub_mac(const char *s, size_t n, uint8_t b[20],
			unsigned int *nb, unsigned int *form)
{
	size_t i = 0;
	unsigned int k = 0;
	char sep = 0;

	*form = 0;
	for (;;) {
		if (n - i < 2 || !scrub_hex(s[i]) || !scrub_hex(s[i + 1]) ||
		    k == 20)
			return 0;
		b[k++] = (uint8_t)(util_hexval(s[i]) << 4 |
				   util_hexval(s[i + 1]));
		if ((s[i] >= 'A' && s[i] <= 'F') ||
		    (s[i + 1] >= 'A' && s[i + 1] <= 'F'))
			*form |= SCRUB_F_UPPER;
		i += 2;
		if (n - i >= 3 && (s[i] == ':' || s[i] == '-') &&
		    (!sep || s[i] == sep) && scrub_hex(s[i + 1]) &&
		    scrub_hex(s[i + 2])) {
			sep = s[i++];
			continue;
		}
		break;
	}
	if (!sep || (k != 6 && k != 8 && k != 20) ||
	    (i < n && scrub_wordc(s[i])))
		return 0;
	if (sep == '-')
		*form |= SCRUB_F_DASH;
	*nb = k;
	return i;
}

/*
 * A 128-bit id at s: 32 hex digits (/etc/machine-id, _BOOT_ID=) or a UUID
 * 8-4-4-4-12 (/proc/sys/kernel/random/boot_id, filesystems).  Its length
 * or 0; its bytes in b, the form in *form.
 */
static size_t scrub_id(const char *s, size_t n, uint8_t b[16],
		       unsigned int *form)
{
	bool dashed = n > 8 && s[8] == '-';
	size_t i = 0, k;

	*form = dashed ? SCRUB_F_DASH : 0;
	for (k = 0; k < 32; k++, i++) {
		int x;

		if (dashed && (k == 8 || k == 12 || k == 16 || k == 20)) {
			if (i >= n || s[i] != '-')
				return 0;
			i++;
		}
		x = i < n ? util_hexval(s[i]) : -1;
		if (x < 0)
			return 0;
		if (s[i] >= 'A' && s[i] <= 'F')
			*form |= SCRUB_F_UPPER;
		if (k % 2)
			b[k / 2] |= (uint8_t)x;
		else
			b[k / 2] = (uint8_t)(x << 4);
	}
	/* not a piece of a longer run, nor of a dash-joined chain of them */
	if (i < n && (scrub_wordc(s[i]) ||
		      (s[i] == '-' && i + 1 < n && scrub_hex(s[i + 1]))))
		return 0;
	return i;
}

/* --- names known by where they stand ------------------------------------- */

/*
 * A name of namec characters (and '@' if @at) at s, at most max, not
 * starting with '.' or '-', a '.' ending a sentence left out: its length
 * or 0.
 */
static size_t scrub_name_len(const char *s, size_t n, size_t max, bool at)
{
	size_t k = 0;

	while (k < n && k <= max && (scrub_namec(s[k]) || (at && s[k] == '@')))
		k++;
	if (k > max)
		return 0;
	while (k && s[k - 1] == '.')
		k--;
	if (!k || s[0] == '.' || s[0] == '-')
		return 0;
	return k;
}

/*
 * A syslog or journalctl header at s: "Jan  2 03:04:05 HOST ident:",
 * "Jan 02 03:04:05.123456 HOST ident[1]:", "2024-01-02T03:04:05.123+01:00
 * HOST ident:", "Tue 2024-01-02 03:04:05 CET HOST ident:".  True and where
 * its host is, [*hs, *he) from s.
 */
static size_t scrub_hms(const char *s, size_t n)
{
	size_t i = 8;

	if (n < 8 || !scrub_digit(s[0]) || !scrub_digit(s[1]) || s[2] != ':' ||
	    !scrub_digit(s[3]) || !scrub_digit(s[4]) || s[5] != ':' ||
	    !scrub_digit(s[6]) || !scrub_digit(s[7]))
		return 0;
	if (i < n && s[i] == '.') {
		while (i + 1 < n && scrub_digit(s[i + 1]) && i < 8 + 9)
			i++;
		if (i == 8)
			return 0;
		i++;
	}
	return i;
}

static bool scrub_ymd(const char *s, size_t n)
{
	int k;

	if (n < 10 || s[4] != '-' || s[7] != '-')
		return false;
	for (k = 0; k < 10; k++)
		if (k != 4 && k != 7 && !scrub_digit(s[k]))
			return false;
	return true;
}

static bool scrub_in3(const char *tab, const char *s, size_t n)
{
	size_t k;

	if (n < 4 || s[3] != ' ')
		return false;
	for (k = 0; tab[k]; k += 3)
		if (!memcmp(tab + k, s, 3))
			return true;
	return false;
}

static bool scrub_header(const char *s, size_t n, size_t *hs, size_t *he)
{
	size_t p = 0, k;

	if (scrub_in3("JanFebMarAprMayJunJulAugSepOctNovDec", s, n)) {
		p = 4;
		if (p < n && s[p] == ' ')
			p++;
		for (k = 0; p + k < n && k < 3 && scrub_digit(s[p + k]); k++)
			;
		if (!k || k > 2 || p + k >= n || s[p + k] != ' ')
			return false;
		p += k + 1;
		k = scrub_hms(s + p, n - p);
	} else if (scrub_in3("MonTueWedThuFriSatSun", s, n)) {
		p = 4;
		if (!scrub_ymd(s + p, n - p) || n - p < 11 || s[p + 10] != ' ')
			return false;
		p += 11;
		k = scrub_hms(s + p, n - p);
		if (!k || p + k >= n || s[p + k] != ' ')
			return false;
		p += k + 1;
		/* the zone: CET, UTC, +0100 */
		for (k = 0; p + k < n && k < 9 &&
		     (scrub_alnum(s[p + k]) || s[p + k] == '+' ||
		      s[p + k] == '-'); k++)
			;
		if (k > 8)
			return false;
	} else if (scrub_ymd(s, n) && n > 11 && s[10] == 'T') {
		p = 11;
		k = scrub_hms(s + p, n - p);
		if (k && p + k < n && s[p + k] == 'Z') {
			k++;
		} else if (k && p + k + 5 <= n &&
			   (s[p + k] == '+' || s[p + k] == '-')) {
			size_t z = p + k + 1;

			if (!scrub_digit(s[z]) || !scrub_digit(s[z + 1]))
				return false;
			z += 2;
			if (z < n && s[z] == ':')
				z++;
			if (z + 2 > n || !scrub_digit(s[z]) ||
			    !scrub_digit(s[z + 1]))
				return false;
			k = z + 2 - p;
		}
	} else {
		return false;
	}
	if (!k)
		return false;
	p += k;
	if (p >= n || s[p] != ' ')
		return false;
	p++;
	for (k = 0; p + k < n && k <= SCRUB_HOST_MAX && scrub_hostc(s[p + k]);
	     k++)
		;
	if (!k || k > SCRUB_HOST_MAX)
		return false;
	*hs = p;
	*he = p + k;
	p += k;
	/* then the identifier: "kernel:", "systemd[1]:" */
	if (p >= n || s[p] != ' ')
		return false;
	p++;
	for (k = 0; p + k < n && k <= 64 && (unsigned char)s[p + k] > ' ' &&
	     s[p + k] != ':' && s[p + k] != '['; k++)
		;
	return k && k <= 64 && p + k < n && (s[p + k] == ':' ||
					     s[p + k] == '[');
}

/*
 * A mount unit of a user's directory at s: home-NAME.mount,
 * run-media-NAME-LABEL.mount, media-NAME-LABEL.mount (systemd escapes a
 * '-' of the path as \x2d, written \\x2d in JSON).  True, the name's
 * bytes [*ns, *ne) from s, unescaped into key (*klen), *strong for the
 * forms that are always a user's.
 */
static bool scrub_unit(const char *s, size_t n, size_t *ns, size_t *ne,
		       char *key, size_t *klen, bool *strong)
{
	static const struct {
		const char *prefix;
		bool strong;		/* else a directory must follow */
	} forms[] = {
		{ "home-", true },
		{ "var-home-", true },
		{ "run-media-", true },
		{ "media-", false },
	};
	size_t f, t = 0, sfx, p, k = 0;

	for (f = 0; f < sizeof(forms) / sizeof(forms[0]); f++)
		if (scrub_starts(s, n, forms[f].prefix))
			break;
	if (f == sizeof(forms) / sizeof(forms[0]))
		return false;
	while (t < n && t < SCRUB_UNIT_MAX &&
	       (scrub_namec(s[t]) || s[t] == '\\' || s[t] == '@'))
		t++;
	/* "Unmounted media-alice-SSD.mount." */
	while (t && (s[t - 1] == '.' || s[t - 1] == '\\'))
		t--;
	if (t >= 6 && !memcmp(s + t - 6, ".mount", 6))
		sfx = t - 6;
	else if (t >= 10 && !memcmp(s + t - 10, ".automount", 10))
		sfx = t - 10;
	else
		return false;
	p = strlen(forms[f].prefix);
	*ns = p;
	while (p < sfx && s[p] != '-') {
		if (s[p] == '\\') {
			/* \xHH or \\xHH */
			size_t e = p + 1 < sfx && s[p + 1] == '\\' ? p + 2 :
				   p + 1;

			if (e + 3 > sfx || s[e] != 'x' || !scrub_hex(s[e + 1]) ||
			    !scrub_hex(s[e + 2]))
				return false;
			key[k++] = (char)(util_hexval(s[e + 1]) << 4 |
					  util_hexval(s[e + 2]));
			p = e + 3;
		} else {
			key[k++] = s[p++];
		}
		if (k > SCRUB_NAME_MAX)
			return false;
	}
	if (p == *ns || (!forms[f].strong && p == sfx))
		return false;
	*ne = p;
	*klen = k;
	*strong = forms[f].strong;
	return true;
}

/* What a context's value is. */
enum scrub_how {
	SCRUB_H_HOME,		/* a user's name: /home/NAME */
	SCRUB_H_MOUNT,		/* /media/NAME/: a user's, or a mount point */
	SCRUB_H_HOST,
	SCRUB_H_HOSTQ,		/* a host's name then '>' */
	SCRUB_H_SERIAL,		/* to the end of the line */
	SCRUB_H_BOOT,
	SCRUB_H_MACHINE,
};

static const struct scrub_ctx {
	const char *word;
	uint8_t how;
	bool json;		/* a JSON member's name: the value is quoted */
} scrub_ctxs[] = {
	{ "/home/", SCRUB_H_HOME, false },
	{ "/var/home/", SCRUB_H_HOME, false },
	{ "/Users/", SCRUB_H_HOME, false },
	{ "/run/media/", SCRUB_H_HOME, false },
	{ "/media/", SCRUB_H_MOUNT, false },
	/* audit records, when auditd does not run: in JSON, report.html */
	{ "acct=\"", SCRUB_H_HOME, false },
	{ "acct=\\\"", SCRUB_H_HOME, false },
	{ "acct=&quot;", SCRUB_H_HOME, false },
	{ "_HOSTNAME=", SCRUB_H_HOST, false },
	{ "\"_HOSTNAME\"", SCRUB_H_HOST, true },
	{ "\"hostname\"", SCRUB_H_HOST, true },
	/* systemd, early in the kernel's log */
	{ "Hostname set to <", SCRUB_H_HOSTQ, false },
	{ "Hostname set to &lt;", SCRUB_H_HOSTQ, false },
	{ "SerialNumber: ", SCRUB_H_SERIAL, false },
	{ "_BOOT_ID=", SCRUB_H_BOOT, false },
	{ "\"_BOOT_ID\"", SCRUB_H_BOOT, true },
	{ "\"boot_id\"", SCRUB_H_BOOT, true },
	{ "_MACHINE_ID=", SCRUB_H_MACHINE, false },
	{ "\"_MACHINE_ID\"", SCRUB_H_MACHINE, true },
	{ "\"machine_id\"", SCRUB_H_MACHINE, true },
};

/* --- the scan ------------------------------------------------------------ */

static int scrub_hit_val(struct scrub *s, struct scrub_hit *h, size_t start,
			 size_t end, uint8_t kind, const void *key,
			 size_t klen, unsigned int form)
{
	int ret = scrub_get(s, kind, scrub_kind_class[kind], key, klen, &h->v);

	h->start = start;
	h->end = end;
	h->form = form;
	return ret ? ret : 1;
}

/* [start, end) kept as it is, and not looked into again */
static int scrub_keep(struct scrub_hit *h, size_t start, size_t end)
{
	h->start = start;
	h->end = end;
	h->v = NULL;
	return 1;
}

/* an id at in[j]: the table's with class cls (a boot id stays one) */
static int scrub_hit_id(struct scrub *s, const char *in, size_t len,
			size_t j, uint8_t cls, bool learn, struct scrub_hit *h)
{
	static const uint8_t zero[16];
	unsigned int form;
	uint8_t b[16];
	size_t m;
	int ret;

	m = scrub_id(in + j, len - j, b, &form);
	if (!m)
		return 0;
	if (!scrub_on(s, cls) || !memcmp(b, zero, 16))
		return scrub_keep(h, j, j + m);
	ret = scrub_hit_val(s, h, j, j + m, SCRUB_K_ID, b, 16, form);
	if (ret > 0 && cls == SCRUB_BOOT_ID)
		h->v->cls = SCRUB_BOOT_ID;
	if (ret > 0 && learn)
		h->v = NULL;
	return ret;
}

/* "usb usb2: " ends at in[i]: the line of a root hub */
static bool scrub_roothub(const char *in, size_t i)
{
	size_t k = i;

	if (k < 2 || in[k - 1] != ' ' || in[k - 2] != ':')
		return false;
	k -= 2;
	while (k && scrub_digit(in[k - 1]))
		k--;
	return k < i - 2 && k >= 7 && !memcmp(in + k - 7, "usb usb", 7);
}

/* The value after a context word, at in[j]. */
static int scrub_ctx_value(struct scrub *s, const char *in, size_t len,
			   size_t j, const struct scrub_ctx *c, bool learn,
			   struct scrub_hit *h)
{
	const char *p = in + j;
	size_t n = len - j, m = 0;
	uint8_t kind = SCRUB_K_HOST;
	bool strong = true;
	int ret;

	switch (c->how) {
	case SCRUB_H_HOME:
	case SCRUB_H_MOUNT:
		kind = SCRUB_K_USER;
		m = scrub_name_len(p, n, SCRUB_NAME_MAX, true);
		/* lost+found is no one's */
		if (!m || (m < n && p[m] == '+'))
			return 0;
		if (c->how == SCRUB_H_MOUNT) {
			if (m == n || p[m] != '/')
				return 0;
			strong = false;
		}
		if (scrub_is(p, m, "root"))
			return scrub_keep(h, j, j + m);
		break;
	case SCRUB_H_HOST:
	case SCRUB_H_HOSTQ:
		m = scrub_name_len(p, n, SCRUB_HOST_MAX, false);
		if (!m || (m < n && scrub_hostc(p[m]) && p[m] != '.') ||
		    (c->how == SCRUB_H_HOSTQ && m < n && p[m] != '>' &&
		     !scrub_starts(p + m, n - m, "&gt;")) ||
		    (c->how == SCRUB_H_HOSTQ && m == n))
			return 0;
		if (scrub_host_nobody(p, m))
			return scrub_keep(h, j, j + m);
		break;
	case SCRUB_H_SERIAL:
		kind = SCRUB_K_SERIAL;
		/* a root hub's is its controller's name: 0000:00:14.0 */
		if (scrub_roothub(in, j - strlen(c->word)))
			return 0;
		/* a serial known before is all of it */
		if (!learn && j < len && scrub_hit_lit(s, in, len, j, true, h))
			return 1;
		while (m < n && m <= SCRUB_SERIAL_MAX &&
		       (unsigned char)p[m] >= ' ' && p[m] != '"' &&
		       p[m] != '\\' && p[m] != '<')
			m++;
		if (m > SCRUB_SERIAL_MAX)
			m = SCRUB_SERIAL_MAX;
		while (m && p[m - 1] == ' ')
			m--;
		if (!m)
			return 0;
		break;
	case SCRUB_H_BOOT:
		return scrub_hit_id(s, in, len, j, SCRUB_BOOT_ID, learn, h);
	case SCRUB_H_MACHINE:
		return scrub_hit_id(s, in, len, j, SCRUB_ID, learn, h);
	}
	if (!scrub_on(s, scrub_kind_class[kind]))
		return scrub_keep(h, j, j + m);
	ret = scrub_name(s, kind, p, m, strong, &h->v);
	if (ret)
		return ret;
	h->start = j;
	h->end = j + m;
	h->form = 0;
	if (learn)
		h->v = NULL;
	return 1;
}

static int scrub_context(struct scrub *s, const char *in, size_t len,
			 size_t i, bool bound, bool learn, struct scrub_hit *h)
{
	const char *p = in + i;
	size_t n = len - i, k, j;
	int ret;

	if (*p != '/' && *p != '"' && *p != '_' && *p != 'a' && *p != 'H' &&
	    *p != 'S')
		return 0;
	for (k = 0; k < sizeof(scrub_ctxs) / sizeof(scrub_ctxs[0]); k++) {
		const struct scrub_ctx *c = &scrub_ctxs[k];

		if (c->word[0] != *p || !scrub_starts(p, n, c->word) ||
		    (scrub_wordc(*p) && !bound))
			continue;
		j = i + strlen(c->word);
		if (c->json) {
			while (j < len && in[j] == ' ')
				j++;
			if (j >= len || in[j++] != ':')
				continue;
			while (j < len && in[j] == ' ')
				j++;
			if (j >= len || in[j++] != '"')
				continue;
		}
		ret = scrub_ctx_value(s, in, len, j, c, learn, h);
		/* a member's value is the whole string */
		if (ret > 0 && c->json && (h->end >= len || in[h->end] != '"'))
			continue;
		if (ret)
			return ret;
	}
	return 0;
}

/* a syslog header's host, a mount unit's user: at a word's start */
static int scrub_words(struct scrub *s, const char *in, size_t len,
		       size_t i, bool learn, struct scrub_hit *h)
{
	char key[SCRUB_NAME_MAX + 1];
	size_t hs, he, klen;
	bool strong;
	int ret;

	if (scrub_header(in + i, len - i, &hs, &he)) {
		hs += i;
		he += i;
		while (he > hs + 1 && in[he - 1] == '.')
			he--;
		if (!scrub_on(s, SCRUB_HOST) ||
		    scrub_host_nobody(in + hs, he - hs))
			return scrub_keep(h, hs, he);
		ret = scrub_name(s, SCRUB_K_HOST, in + hs, he - hs, true,
				 &h->v);
		if (ret)
			return ret;
		h->start = hs;
		h->end = he;
		h->form = 0;
		if (learn)
			h->v = NULL;
		return 1;
	}
	if (scrub_unit(in + i, len - i, &hs, &he, key, &klen, &strong)) {
		if (!scrub_on(s, SCRUB_USER) || scrub_is(key, klen, "root"))
			return scrub_keep(h, i + hs, i + he);
		ret = scrub_name(s, SCRUB_K_USER, key, klen, strong, &h->v);
		if (ret)
			return ret;
		h->start = i + hs;
		h->end = i + he;
		h->form = 0;
		if (learn)
			h->v = NULL;
		return 1;
	}
	return 0;
}

/* addresses and ids, known by their form, at a word's start */
/* a value found by its form: kept while learning, which is for names */
static int scrub_form_hit(struct scrub *s, bool learn, struct scrub_hit *h,
			  size_t start, size_t end, uint8_t kind,
			  const void *key, size_t klen, unsigned int form)
{
	if (learn)
		return scrub_keep(h, start, end);
	return scrub_hit_val(s, h, start, end, kind, key, klen, form);
}

static int scrub_form(struct scrub *s, const char *in, size_t len, size_t i,
		      bool learn, struct scrub_hit *h)
{
	static const uint8_t ones[20] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	};
	static const uint8_t zero[20];
	const char *p = in + i;
	size_t n = len - i, m, v4, k;
	char prev = i ? in[i - 1] : ' ';
	unsigned int nb, form;
	uint8_t b[20];

	/* enx00e04c680001, wlx...: systemd's names of an interface by MAC */
	if (n >= 15 && (scrub_starts(p, n, "enx") || scrub_starts(p, n, "wlx"))) {
		for (k = 0; k < 12 && scrub_hex(p[3 + k]); k++)
			;
		if (k < 12 || (n > 15 && scrub_wordc(p[15])))
			return 0;
		form = SCRUB_F_BARE;
		for (k = 0; k < 6; k++)
			b[k] = (uint8_t)(util_hexval(p[3 + 2 * k]) << 4 |
					 util_hexval(p[4 + 2 * k]));
		if (!scrub_on(s, SCRUB_MAC))
			return scrub_keep(h, i, i + 15);
		return scrub_form_hit(s, learn, h, i + 3, i + 15, SCRUB_K_MAC, b, 6,
				     form);
	}
	/* not the middle of a port path (2-1.4), a SCSI or PCI address */
	if (prev == '.' || prev == '-' || (!scrub_hex(*p) && *p != ':'))
		return 0;
	if (prev != ':' && scrub_hex(*p)) {
		m = scrub_mac(p, n, b, &nb, &form);
		if (m) {
			if (!scrub_on(s, SCRUB_MAC) || !memcmp(b, zero, nb) ||
			    !memcmp(b, ones, nb))
				return scrub_keep(h, i, i + m);
			return scrub_form_hit(s, learn, h, i, i + m, SCRUB_K_MAC, b,
					     nb, form);
		}
		m = scrub_id(p, n, b, &form);
		if (m) {
			if (!scrub_on(s, SCRUB_ID) || !memcmp(b, zero, 16))
				return scrub_keep(h, i, i + m);
			return scrub_form_hit(s, learn, h, i, i + m, SCRUB_K_ID, b, 16,
					     form);
		}
	}
	if (prev != ':') {
		m = scrub_ipv6(p, n, b, &v4);
		if (m) {
			static const uint8_t mapped[12] = {
				0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff
			};

			if (!memcmp(b, zero, 15) && (b[15] == 0 || b[15] == 1))
				return scrub_keep(h, i, i + m);	/* ::, ::1 */
			if (v4 && !memcmp(b, mapped, 12)) {
				/* ::ffff:1.2.3.4: the IPv4 address's token */
				if (!scrub_on(s, SCRUB_IPV4) || b[12] == 127 ||
				    !memcmp(b + 12, zero, 4))
					return scrub_keep(h, i, i + m);
				return scrub_form_hit(s, learn, h, i + v4, i + m,
						     SCRUB_K_IPV4, b + 12, 4,
						     0);
			}
			if (!scrub_on(s, SCRUB_IPV6))
				return scrub_keep(h, i, i + m);
			return scrub_form_hit(s, learn, h, i, i + m, SCRUB_K_IPV6, b,
					     16, 0);
		}
	}
	if (scrub_digit(*p)) {
		m = scrub_ipv4_parse(p, n, b);
		/* nor a version number of five parts */
		if (!m || (m < n && scrub_wordc(p[m])) ||
		    (m + 1 < n && p[m] == '.' && scrub_digit(p[m + 1])))
			return 0;
		/* loopback, "any", netmasks and broadcast name no one */
		if (!scrub_on(s, SCRUB_IPV4) || b[0] == 127 || b[0] == 255 ||
		    !memcmp(b, zero, 4))
			return scrub_keep(h, i, i + m);
		return scrub_form_hit(s, learn, h, i, i + m, SCRUB_K_IPV4, b, 4, 0);
	}
	return 0;
}

#define SCRUB_FORMS	((1u << SCRUB_IPV4) | (1u << SCRUB_IPV6) | \
			 (1u << SCRUB_MAC) | (1u << SCRUB_ID) | \
			 (1u << SCRUB_BOOT_ID))

/* What is at in[i], if anything: 1 and *h, 0, or -errno. */
static int scrub_at(struct scrub *s, const char *in, size_t len, size_t i,
		    bool learn, struct scrub_hit *h)
{
	bool bound = !i || !scrub_wordc(in[i - 1]);
	int ret;

	h->form = 0;
	if (!learn && scrub_hit_lit(s, in, len, i, true, h))
		return 1;
	ret = scrub_context(s, in, len, i, bound, learn, h);
	if (ret || !bound)
		return ret;
	ret = scrub_words(s, in, len, i, learn, h);
	if (ret)
		return ret;
	if (s->classes & SCRUB_FORMS) {
		ret = scrub_form(s, in, len, i, learn, h);
		if (ret)
			return ret;
	}
	return !learn && scrub_hit_lit(s, in, len, i, false, h);
}

static void scrub_emit(const struct scrub_val *v, unsigned int form,
		       struct util_str *out)
{
	const char *hex = form & SCRUB_F_UPPER ? "0123456789ABCDEF" :
			  "0123456789abcdef";
	char buf[80];
	uint8_t b[20] = { 0x02 };
	size_t i, k = 0;

	if (v->kind == SCRUB_K_MAC) {
		/* locally administered, unicast: 02:00:00:... */
		b[v->klen - 3] = (uint8_t)(v->num >> 16);
		b[v->klen - 2] = (uint8_t)(v->num >> 8);
		b[v->klen - 1] = (uint8_t)v->num;
		for (i = 0; i < v->klen; i++) {
			if (i && !(form & SCRUB_F_BARE))
				buf[k++] = form & SCRUB_F_DASH ? '-' : ':';
			buf[k++] = hex[b[i] >> 4];
			buf[k++] = hex[b[i] & 15];
		}
		util_str_put(out, buf, k);
	} else if (v->kind == SCRUB_K_ID) {
		memset(b, 0, 16);
		b[13] = (uint8_t)(v->num >> 16);
		b[14] = (uint8_t)(v->num >> 8);
		b[15] = (uint8_t)v->num;
		for (i = 0; i < 16; i++) {
			if ((form & SCRUB_F_DASH) &&
			    (i == 4 || i == 6 || i == 8 || i == 10))
				buf[k++] = '-';
			buf[k++] = hex[b[i] >> 4];
			buf[k++] = hex[b[i] & 15];
		}
		util_str_put(out, buf, k);
	} else {
		util_str_put(out, v->tok, strlen(v->tok));
	}
}

static int scrub_run(struct scrub *s, const char *in, size_t len, bool learn,
		     struct util_str *out, struct scrub_counts *n)
{
	size_t i = 0, plain = 0;
	struct scrub_hit h;
	int ret;

	while (i < len) {
		ret = scrub_at(s, in, len, i, learn, &h);
		if (ret < 0)
			return ret;
		if (!ret) {
			i++;
			continue;
		}
		if (out) {
			util_str_put(out, in + plain, h.start - plain);
			if (h.v)
				scrub_emit(h.v, h.form, out);
			else
				util_str_put(out, in + h.start,
					     h.end - h.start);
		}
		if (h.v && n)
			n->n[h.v->cls]++;
		i = plain = h.end;
	}
	if (out)
		util_str_put(out, in + plain, len - plain);
	return 0;
}

/* --- the interface ------------------------------------------------------- */

int scrub_learn(struct scrub *s, const void *buf, size_t len)
{
	return scrub_run(s, buf, len, true, NULL, NULL);
}

int scrub_text(struct scrub *s, const char *in, size_t len,
	       struct util_str *out, struct scrub_counts *n)
{
	int ret;

	util_str_put(out, "", 0);
	ret = scrub_run(s, in, len, false, out, n);
	return ret ? ret : out->oom ? -ENOMEM : 0;
}

int scrub_add(struct scrub *s, enum scrub_class cls, const char *v,
	      size_t len)
{
	struct scrub_val *val;
	unsigned int form;
	uint8_t b[16];
	int ret;

	if ((unsigned int)cls >= SCRUB_NCLASS || !len || memchr(v, '\0', len))
		return -EINVAL;
	if (!scrub_on(s, cls))
		return 0;
	switch (cls) {
	case SCRUB_SERIAL:
		if (len > SCRUB_SERIAL_MAX)
			return -EINVAL;
		ret = scrub_get(s, SCRUB_K_SERIAL, SCRUB_SERIAL, v, len, &val);
		if (!ret)
			scrub_lit_add(s, val, true);
		return ret;
	case SCRUB_HOST:
		if (len > SCRUB_HOST_MAX)
			return -EINVAL;
		if (scrub_host_nobody(v, len))
			return 0;
		return scrub_name(s, SCRUB_K_HOST, v, len, true, &val);
	case SCRUB_USER:
		if (len > SCRUB_NAME_MAX)
			return -EINVAL;
		if (scrub_is(v, len, "root"))
			return 0;
		return scrub_name(s, SCRUB_K_USER, v, len, true, &val);
	case SCRUB_BOOT_ID:
	case SCRUB_ID:
		if (scrub_id(v, len, b, &form) != len)
			return -EINVAL;
		ret = scrub_get(s, SCRUB_K_ID, (uint8_t)cls, b, 16, &val);
		if (!ret && cls == SCRUB_BOOT_ID)
			val->cls = SCRUB_BOOT_ID;
		return ret;
	case SCRUB_IPV4:
	case SCRUB_IPV6:
	case SCRUB_MAC:
	case SCRUB_NCLASS:
		break;
	}
	/* addresses are found by their form wherever they are */
	return -EINVAL;
}

/*
 * A value that is one thing as a whole (a JSON member or journal field
 * named for it): its token into out, 1; 0 if it is not one of its kind.
 */
static int scrub_whole(struct scrub *s, enum scrub_class cls, const char *v,
		       size_t len, struct util_str *out,
		       struct scrub_counts *n)
{
	struct scrub_val *val;
	unsigned int form = 0;
	uint8_t b[16];
	size_t k;
	int ret;

	if (!scrub_on(s, cls) || !len)
		return 0;
	switch (cls) {
	case SCRUB_HOST:
		for (k = 0; k < len && scrub_hostc(v[k]); k++)
			;
		if (k < len || len > SCRUB_HOST_MAX ||
		    scrub_host_nobody(v, len))
			return 0;
		ret = scrub_name(s, SCRUB_K_HOST, v, len, true, &val);
		break;
	case SCRUB_SERIAL:
		if (len > SCRUB_SERIAL_MAX)
			return 0;
		ret = scrub_get(s, SCRUB_K_SERIAL, SCRUB_SERIAL, v, len, &val);
		break;
	case SCRUB_BOOT_ID:
	case SCRUB_ID:
		if (scrub_id(v, len, b, &form) != len)
			return 0;
		ret = scrub_get(s, SCRUB_K_ID, (uint8_t)cls, b, 16, &val);
		if (!ret && cls == SCRUB_BOOT_ID)
			val->cls = SCRUB_BOOT_ID;
		break;
	case SCRUB_USER:
	case SCRUB_IPV4:
	case SCRUB_IPV6:
	case SCRUB_MAC:
	case SCRUB_NCLASS:
		return 0;
	}
	if (ret)
		return ret;
	scrub_emit(val, form, out);
	if (n)
		n->n[val->cls]++;
	return 1;
}

/*
 * What a JSON member or journal field of this name holds as a whole;
 * SCRUB_NCLASS: text.
 */
static enum scrub_class scrub_field_class(const char *name, size_t len)
{
	if (scrub_is(name, len, "hostname") || scrub_is(name, len, "_HOSTNAME"))
		return SCRUB_HOST;
	if (scrub_is(name, len, "boot_id") || scrub_is(name, len, "_BOOT_ID"))
		return SCRUB_BOOT_ID;
	if (scrub_is(name, len, "machine_id") ||
	    scrub_is(name, len, "_MACHINE_ID"))
		return SCRUB_ID;
	if (scrub_is(name, len, "serial"))
		return SCRUB_SERIAL;
	return SCRUB_NCLASS;
}

/* value scrubbed into s->tmp, as a whole if its name says what it is */
static int scrub_value(struct scrub *s, const char *name, size_t nlen,
		       const char *v, size_t len, struct scrub_counts *n)
{
	enum scrub_class cls = scrub_field_class(name, nlen);
	int ret = 0;

	s->tmp.len = 0;
	util_str_put(&s->tmp, "", 0);
	if (cls != SCRUB_NCLASS)
		ret = scrub_whole(s, cls, v, len, &s->tmp, n);
	if (!ret)
		ret = scrub_text(s, v, len, &s->tmp, n);
	if (ret < 0)
		return ret;
	return s->tmp.oom ? -ENOMEM : 0;
}

int scrub_journal(struct scrub *s, const uint8_t *entry, size_t len,
		  struct pcapng_buf *out, struct scrub_counts *n)
{
	struct scrub_counts here = { { 0 } };
	struct pcapng_journal_item it;
	size_t pos = 0, start = out->len, k;
	int ret;

	for (;;) {
		if (pos >= len) {
			ret = -EINVAL;		/* no empty line to end it */
			break;
		}
		ret = pcapng_journal_next(entry, len, &pos, &it);
		if (ret <= 0) {
			if (!ret && pos != len)
				ret = -EINVAL;	/* bytes after the end */
			break;
		}
		ret = scrub_value(s, (const char *)it.name, it.nlen,
				  (const char *)it.val, it.vlen, &here);
		if (!ret)
			ret = pcapng_journal_put(out, (const char *)it.name,
						 it.nlen, s->tmp.s, s->tmp.len);
		if (ret)
			return ret;
	}
	if (!ret)
		ret = pcapng_buf_append(out, "\n", 1);
	if (ret == -EINVAL) {
		/* not an entry: its bytes as text, nothing let through */
		out->len = start;
		memset(&here, 0, sizeof(here));
		s->tmp.len = 0;
		ret = scrub_text(s, (const char *)entry, len, &s->tmp, &here);
		if (!ret)
			ret = pcapng_buf_append(out, s->tmp.s, s->tmp.len);
	}
	if (!ret && n)
		for (k = 0; k < SCRUB_NCLASS; k++)
			n->n[k] += here.n[k];
	return ret;
}

/*
 * Hex bytes, not text (docs/formats.md: URB data and setup packets, trace
 * records, sense data, USB descriptors): copied as they are, or 16 bytes
 * of URB data would read as an id.
 */
static bool scrub_json_hex(const char *key)
{
	static const char *const hex[] = {
		"data", "setup", "raw", "sense_data", "descriptors",
	};
	size_t i;

	for (i = 0; key && i < sizeof(hex) / sizeof(hex[0]); i++)
		if (!strcmp(key, hex[i]))
			return true;
	return false;
}

static int scrub_json_walk(struct scrub *s, struct json_object *in,
			   const char *key, int depth, struct json_object **out,
			   struct scrub_counts *n)
{
	struct json_object *o, *child;
	size_t i, len;
	const char *str;
	char *k;
	int ret = 0;

	if (depth > SCRUB_JSON_DEPTH)
		return -EINVAL;
	switch (json_object_get_type(in)) {
	case json_type_object:
		o = json_object_new_object();
		if (!o)
			return -ENOMEM;
		json_object_object_foreach(in, name, v) {
			child = NULL;
			if (scrub_json_hex(name))
				child = json_object_get(v);
			else
				ret = scrub_json_walk(s, v, name, depth + 1,
						      &child, n);
			if (!ret) {
				s->tmp.len = 0;
				ret = scrub_text(s, name, strlen(name),
						 &s->tmp, n);
			}
			if (!ret && json_object_object_add(o, s->tmp.s, child))
				ret = -ENOMEM;
			else if (!ret)
				child = NULL;		/* o's now */
			if (ret) {
				json_object_put(child);
				json_object_put(o);
				return ret;
			}
		}
		*out = o;
		return 0;
	case json_type_array:
		len = json_object_array_length(in);
		o = json_object_new_array_ext((int)len);
		if (!o)
			return -ENOMEM;
		for (i = 0; i < len && !ret; i++) {
			ret = scrub_json_walk(s, json_object_array_get_idx(in, i),
					      NULL, depth + 1, &child, n);
			if (!ret && json_object_array_add(o, child)) {
				json_object_put(child);
				ret = -ENOMEM;
			}
		}
		if (ret) {
			json_object_put(o);
			return ret;
		}
		*out = o;
		return 0;
	case json_type_string:
		str = json_object_get_string(in);
		len = (size_t)json_object_get_string_len(in);
		ret = scrub_value(s, key ? key : "", key ? strlen(key) : 0,
				  str, len, n);
		if (ret)
			return ret;
		if (s->tmp.len == len && !memcmp(s->tmp.s, str, len)) {
			*out = json_object_get(in);
			return 0;
		}
		k = s->tmp.s;
		*out = json_object_new_string_len(k, (int)s->tmp.len);
		return *out ? 0 : -ENOMEM;
	case json_type_null:
	case json_type_boolean:
	case json_type_double:
	case json_type_int:
		break;
	}
	*out = json_object_get(in);
	return 0;
}

int scrub_json(struct scrub *s, struct json_object *in,
	       struct json_object **out, struct scrub_counts *n)
{
	return scrub_json_walk(s, in, NULL, 0, out, n);
}

static const char *const scrub_names[SCRUB_NCLASS][2] = {
	[SCRUB_SERIAL] = { "serial numbers", "sha256:0123456789abcdef" },
	[SCRUB_HOST] = { "hostnames", "host1" },
	[SCRUB_USER] = { "user names", "user1" },
	[SCRUB_IPV4] = { "IPv4 addresses", "192.0.2.1" },
	[SCRUB_IPV6] = { "IPv6 addresses", "2001:db8::1" },
	[SCRUB_MAC] = { "MAC addresses", "02:00:00:00:00:01" },
	[SCRUB_BOOT_ID] = { "boot ids", "00000000-0000-0000-0000-000000000001" },
	[SCRUB_ID] = { "machine and other 128-bit ids",
		       "00000000000000000000000000000001" },
};

const char *scrub_class_name(enum scrub_class cls)
{
	return (unsigned int)cls < SCRUB_NCLASS ? scrub_names[cls][0] : "?";
}

const char *scrub_class_token(enum scrub_class cls)
{
	return (unsigned int)cls < SCRUB_NCLASS ? scrub_names[cls][1] : "?";
}
