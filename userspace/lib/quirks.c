// SPDX-License-Identifier: GPL-2.0-only
/*
 * quirks.c - where usb-storage/uas quirks for a device come from.
 *
 * Three sources, combined as usb_stor_adjust_quirks() in
 * drivers/usb/storage/usb.c combines them: the kernel's built-in tables
 * (unusual_uas.h, and the IGNORE_UAS entries of usb-storage's
 * unusual_devs.h, kept as data/unusual-uas.tsv), then the "quirks" module
 * parameter, whose matching entry replaces every flag in its mask.  The
 * kernel command line is only where the parameter usually comes from
 * (usb-storage.quirks=...), so it is parsed to name the source.
 *
 * Parsers only: strings in, flags out.  Reading the files is the caller's.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datatab.h"
#include "quirks.h"

/*
 * Letters as in usb_stor_adjust_quirks() (drivers/usb/storage/usb.c; the
 * same letters in linux 5.10, 6.1, 6.12 and 7.3).  Which driver acts on
 * each flag is read from the same versions: uas.c (uas_queuecommand_lck,
 * uas_target_alloc, uas_slave_alloc/configure) and uas-detect.h for uas;
 * usb.c, scsiglue.c and transport.c for usb-storage.  A flag only
 * usb-storage reads does nothing for a device on uas, and the other way
 * round: usb-storage never sends REPORT SUPPORTED OPERATION CODES, REPORT
 * LUNS or WRITE SAME, whatever its flags, so f, j and k matter under uas.
 */
#define QUIRKS_BOTH	(QUIRKS_BY_UAS | QUIRKS_BY_USB_STORAGE)
#define QUIRKS_UAS	QUIRKS_BY_UAS
#define QUIRKS_BOT	QUIRKS_BY_USB_STORAGE

static const struct quirks_flag_info quirks_flags[] = {
	{ QUIRKS_FL_SANE_SENSE, "SANE_SENSE", 'a', QUIRKS_BOT,
	  "usb-storage asks for the full sense data, not only 18 bytes; uas ignores it (UAS sense comes in its status)" },
	{ QUIRKS_FL_BAD_SENSE, "BAD_SENSE", 'b', QUIRKS_BOT,
	  "usb-storage asks for 18 bytes of sense data at most; uas ignores it" },
	{ QUIRKS_FL_FIX_CAPACITY, "FIX_CAPACITY", 'c', QUIRKS_BOTH,
	  "READ CAPACITY is taken as one block too many and the last block dropped (uas and usb-storage)" },
	{ QUIRKS_FL_NO_READ_DISC_INFO, "NO_READ_DISC_INFO", 'd', QUIRKS_BOT,
	  "usb-storage sends no READ DISC INFORMATION to a CD-type device; uas ignores it" },
	{ QUIRKS_FL_NO_READ_CAPACITY_16, "NO_READ_CAPACITY_16", 'e',
	  QUIRKS_BOTH,
	  "READ CAPACITY(16) is not sent (uas and usb-storage)" },
	{ QUIRKS_FL_NO_REPORT_OPCODES, "NO_REPORT_OPCODES", 'f', QUIRKS_UAS,
	  "uas sends no REPORT SUPPORTED OPERATION CODES (UAS kept); usb-storage never sends it anyway" },
	{ QUIRKS_FL_MAX_SECTORS_240, "MAX_SECTORS_240", 'g', QUIRKS_UAS,
	  "uas limits transfers to 240 sectors (120 KiB): slower, UAS kept; usb-storage ignores it; uas-detect.h also sets it for the ASM1053" },
	{ QUIRKS_FL_CAPACITY_HEURISTICS, "CAPACITY_HEURISTICS", 'h',
	  QUIRKS_BOTH,
	  "an odd READ CAPACITY is taken as one block too many (uas and usb-storage)" },
	{ QUIRKS_FL_IGNORE_DEVICE, "IGNORE_DEVICE", 'i', QUIRKS_BOT,
	  "usb-storage refuses the device (\"device ignored\"); uas does not check it, so a device that offers UAS still binds to uas" },
	{ QUIRKS_FL_NO_REPORT_LUNS, "NO_REPORT_LUNS", 'j', QUIRKS_UAS,
	  "uas sends no REPORT LUNS (LUNs are scanned one by one); usb-storage never sends it anyway" },
	{ QUIRKS_FL_NO_SAME, "NO_SAME", 'k', QUIRKS_UAS,
	  "uas sends no WRITE SAME; usb-storage never sends it anyway" },
	{ QUIRKS_FL_NOT_LOCKABLE, "NOT_LOCKABLE", 'l', QUIRKS_BOT,
	  "usb-storage sends no PREVENT/ALLOW MEDIUM REMOVAL; uas ignores it" },
	{ QUIRKS_FL_MAX_SECTORS_64, "MAX_SECTORS_64", 'm', QUIRKS_BOTH,
	  "transfers are limited to 64 sectors (32 KiB) (uas and usb-storage)" },
	{ QUIRKS_FL_INITIAL_READ10, "INITIAL_READ10", 'n', QUIRKS_BOT,
	  "usb-storage retries the first READ(10), and one that fails after one succeeded; uas ignores it" },
	{ QUIRKS_FL_CAPACITY_OK, "CAPACITY_OK", 'o', QUIRKS_BOT,
	  "usb-storage trusts READ CAPACITY (no capacity guess, no last-sector workaround); uas ignores it" },
	{ QUIRKS_FL_WRITE_CACHE, "WRITE_CACHE", 'p', QUIRKS_BOT,
	  "usb-storage has sd assume a write-back cache when the caching mode page cannot be read, so flushes send SYNCHRONIZE CACHE; uas ignores it (y does it there)" },
	{ QUIRKS_FL_IGNORE_RESIDUE, "IGNORE_RESIDUE", 'r', QUIRKS_BOT,
	  "usb-storage ignores the residue in the device's Bulk-Only status (CSW); uas ignores it" },
	{ QUIRKS_FL_SINGLE_LUN, "SINGLE_LUN", 's', QUIRKS_BOT,
	  "usb-storage uses LUN 0 only and sends no GET MAX LUN; uas ignores it" },
	{ QUIRKS_FL_NO_ATA_1X, "NO_ATA_1X", 't', QUIRKS_BOTH,
	  "ATA PASS-THROUGH(12/16) is refused: SAT pass-through, so smartctl -d sat and hdparm, do not work (uas and usb-storage; UAS kept)" },
	{ QUIRKS_FL_IGNORE_UAS, "IGNORE_UAS", 'u', QUIRKS_BOTH,
	  "the uas driver is not used; usb-storage (Bulk-Only) binds instead" },
	{ QUIRKS_FL_NO_WP_DETECT, "NO_WP_DETECT", 'w', QUIRKS_BOTH,
	  "write protection is not queried (MODE SENSE page 3f skipped; uas and usb-storage)" },
	{ QUIRKS_FL_ALWAYS_SYNC, "ALWAYS_SYNC", 'y', QUIRKS_BOTH,
	  "the device lies about its cache: sd reads no caching or write-protect mode page and assumes a write-back cache, so flushes send SYNCHRONIZE CACHE (uas and usb-storage)" },
	{ QUIRKS_FL_BROKEN_FUA, "BROKEN_FUA", 0, QUIRKS_BOTH,
	  "FUA (force unit access) is not used in READ/WRITE (uas and usb-storage; UAS kept)" },
};

#define QUIRKS_NFLAGS (sizeof(quirks_flags) / sizeof(quirks_flags[0]))

/* The description of one flag bit, or NULL if it is not one we know. */
const struct quirks_flag_info *quirks_flag_info(unsigned long flag)
{
	size_t i;

	for (i = 0; i < QUIRKS_NFLAGS; i++)
		if (quirks_flags[i].flag == flag)
			return &quirks_flags[i];
	return NULL;
}

/* "IGNORE_UAS" -> QUIRKS_FL_IGNORE_UAS; 0 if unknown. */
unsigned long quirks_flag_from_name(const char *name)
{
	size_t i;

	for (i = 0; name && i < QUIRKS_NFLAGS; i++)
		if (!strcmp(quirks_flags[i].name, name))
			return quirks_flags[i].flag;
	return 0;
}

static unsigned long quirks_flag_from_letter(char c)
{
	size_t i;

	c = (char)tolower((unsigned char)c);
	for (i = 0; i < QUIRKS_NFLAGS; i++)
		if (quirks_flags[i].letter && quirks_flags[i].letter == c)
			return quirks_flags[i].flag;
	return 0;
}

/*
 * simple_strtoul(p, &p, 16) as the kernel uses it: optional 0x, then hex
 * digits; no digits leaves *p where it was and yields 0.
 */
static unsigned long quirks_strtoul16(const char **p)
{
	const char *s = *p;
	unsigned long v = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
	    isxdigit((unsigned char)s[2]))
		s += 2;
	while (isxdigit((unsigned char)*s)) {
		int c = tolower((unsigned char)*s);

		v = v * 16 + (unsigned long)(isdigit(c) ? c - '0' : c - 'a' + 10);
		if (v > 0xffffffffUL)
			v = 0xffffffffUL;
		s++;
	}
	*p = s;
	return v;
}

/**
 * quirks_param_lookup() - find a device in a "quirks=" parameter value
 * @param:     the value, "VID:PID:FLAGS[,VID:PID:FLAGS...]"
 * @vid:       vendor ID
 * @pid:       product ID
 * @flags:     set to the entry's flags on a match (letters unknown to the
 *             kernel are ignored, as it does)
 * @entry:     if not NULL, receives the matching entry, e.g. "46f4:0003:u"
 * @entry_len: size of @entry
 *
 * The first matching entry wins, as in usb_stor_adjust_quirks().
 *
 * Return: 1 on a match, 0 if none, -EINVAL if @param or @flags is NULL.
 */
int quirks_param_lookup(const char *param, uint16_t vid, uint16_t pid,
			unsigned long *flags, char *entry, size_t entry_len)
{
	const char *p = param, *start = param;
	unsigned long f = 0, v;

	if (!param || !flags)
		return -EINVAL;
	while (*p) {
		start = p;
		v = quirks_strtoul16(&p);
		if (v == vid && *p == ':') {
			p++;
			v = quirks_strtoul16(&p);
			if (v == pid && *p == ':')
				break;
		}
		while (*p)
			if (*p++ == ',')
				break;
	}
	if (!*p)
		return 0;
	while (*++p && *p != ',' && *p != '\n')
		f |= quirks_flag_from_letter(*p);
	*flags = f;
	if (entry && entry_len) {
		size_t n = (size_t)(p - start);

		if (n >= entry_len)
			n = entry_len - 1;
		memcpy(entry, start, n);
		entry[n] = '\0';
	}
	return 1;
}

/**
 * quirks_cmdline_value() - the usb-storage quirks given on a kernel
 * command line
 * @cmdline: contents of /proc/cmdline
 * @out:     receives the value of the last usb-storage.quirks= (or
 *           usb_storage.quirks=: the kernel treats - and _ alike in
 *           parameter names), without quotes
 * @out_len: size of @out
 *
 * Return: 1 if found, 0 if not, -EINVAL on NULL arguments, -ENAMETOOLONG
 * if the value does not fit in @out.
 */
int quirks_cmdline_value(const char *cmdline, char *out, size_t out_len)
{
	const char *p = cmdline;
	int found = 0;

	if (!cmdline || !out || !out_len)
		return -EINVAL;
	while (*p) {
		const char *w, *v, *e;
		bool quoted = false;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		w = p;
		/* A word; double quotes may hide spaces (next_arg()). */
		while (*p && (quoted || !isspace((unsigned char)*p))) {
			if (*p == '"')
				quoted = !quoted;
			p++;
		}
		e = p;
		if (*w == '"')
			w++;
		if (strncmp(w, "usb-storage.quirks=", 19) &&
		    strncmp(w, "usb_storage.quirks=", 19))
			continue;
		v = w + 19;
		if (*v == '"')
			v++;
		while (e > v && e[-1] == '"')
			e--;
		if ((size_t)(e - v) >= out_len)
			return -ENAMETOOLONG;
		memcpy(out, v, (size_t)(e - v));
		out[e - v] = '\0';
		found = 1;
	}
	return found;
}

static int quirks_hex16(const char *s, unsigned int *out)
{
	char *end;
	unsigned long v;

	if (!s || !*s)
		return -EINVAL;
	v = strtoul(s, &end, 16);
	if (*end || v > 0xffff)
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

/* data/unusual-uas.tsv columns */
enum quirks_uas_col {
	QUIRKS_COL_VID, QUIRKS_COL_PID, QUIRKS_COL_BCD_MIN, QUIRKS_COL_BCD_MAX,
	QUIRKS_COL_VENDOR, QUIRKS_COL_PRODUCT, QUIRKS_COL_FLAGS,
	QUIRKS_COL_TABLE, QUIRKS_COL_SOURCE,
};

/**
 * quirks_builtin_lookup() - the kernel's built-in quirks for a device
 * @table:      which ID table: unusual_uas.h (the uas driver's) or the
 *              IGNORE_UAS entries of unusual_devs.h (usb-storage's)
 * @vid:        vendor ID
 * @pid:        product ID
 * @bcd_device: bcdDevice, matched against the entry's range as
 *              USB_DEVICE_VER() does
 * @flags:      set to the entry's flags on a match
 * @source:     if not NULL, set to the entry's citation
 *
 * The two tables are kept apart because each driver's probe sees only its
 * own entry's flags.  The quirks uas-detect.h adds by code (ASMedia,
 * Seagate, HIKSEMI) are the decision logic's, in uas.c.
 *
 * Return: 1 on a match, 0 if none, -EINVAL if @flags is NULL.
 */
int quirks_builtin_lookup(enum quirks_table table, uint16_t vid,
			  uint16_t pid, uint16_t bcd_device,
			  unsigned long *flags, const char **source)
{
	const struct datatab *t = &datatab_unusual_uas;
	const char *want = table == QUIRKS_TABLE_DEVS ? "unusual_devs.h" :
			   "unusual_uas.h";
	unsigned int r, v, p, lo, hi;

	if (!flags)
		return -EINVAL;
	for (r = 0; r < t->nrows; r++) {
		char names[256], *tok, *save = NULL;
		unsigned long f = 0;

		if (strcmp(datatab_cell(t, r, QUIRKS_COL_TABLE), want) ||
		    quirks_hex16(datatab_cell(t, r, QUIRKS_COL_VID), &v) ||
		    quirks_hex16(datatab_cell(t, r, QUIRKS_COL_PID), &p) ||
		    quirks_hex16(datatab_cell(t, r, QUIRKS_COL_BCD_MIN), &lo) ||
		    quirks_hex16(datatab_cell(t, r, QUIRKS_COL_BCD_MAX), &hi))
			continue;
		if (v != vid || p != pid || bcd_device < lo || bcd_device > hi)
			continue;
		snprintf(names, sizeof(names), "%s",
			 datatab_cell(t, r, QUIRKS_COL_FLAGS));
		for (tok = strtok_r(names, "|", &save); tok;
		     tok = strtok_r(NULL, "|", &save))
			f |= quirks_flag_from_name(tok);
		*flags = f;
		if (source)
			*source = datatab_cell(t, r, QUIRKS_COL_SOURCE);
		return 1;
	}
	return 0;
}

/**
 * quirks_format_flags() - "IGNORE_UAS|NO_ATA_1X" for @flags
 *
 * Return: 0, -ENOSPC if @buf was too small (it then holds the names that
 * fitted whole).
 */
int quirks_format_flags(unsigned long flags, char *buf, size_t len)
{
	size_t i, off = 0;
	int n;

	if (!buf || !len)
		return -EINVAL;
	buf[0] = '\0';
	for (i = 0; i < QUIRKS_NFLAGS; i++) {
		if (!(flags & quirks_flags[i].flag))
			continue;
		n = snprintf(buf + off, len - off, "%s%s", off ? "|" : "",
			     quirks_flags[i].name);
		if (n < 0 || (size_t)n >= len - off) {
			buf[off] = '\0';	/* whole names only */
			return -ENOSPC;
		}
		off += (size_t)n;
	}
	return 0;
}
