// SPDX-License-Identifier: GPL-2.0-only
/*
 * classify.c - name the USB storage incidents in kernel log messages.
 *
 * The patterns are the kernel's own printk formats (Linux 6.1:
 * drivers/scsi/scsi_logging.c and constants.c for sense, block/blk-mq.c
 * for "I/O error, dev", drivers/usb/core/hub.c for resets, disconnects,
 * enumeration and over-current, drivers/usb/storage/uas.c for the error
 * handlers, drivers/usb/host/xhci*.c for the controller) plus the older
 * forms still found in bug reports (2.6/3.x "end_request: I/O error").
 * Messages are matched by substring, never by regex: the input is
 * untrusted and this runs on every line of a recording.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "classify.h"

static const char *const classify_kind_names[CLASSIFY_KIND_COUNT] = {
	[CLASSIFY_SENSE] = "sense",
	[CLASSIFY_TIMEOUT] = "timeout",
	[CLASSIFY_ABORT] = "abort",
	[CLASSIFY_RESET] = "reset",
	[CLASSIFY_RECOVERED] = "recovered",
	[CLASSIFY_DISCONNECT] = "disconnect",
	[CLASSIFY_IO_ERROR] = "io-error",
	[CLASSIFY_OFFLINE] = "offline",
	[CLASSIFY_HC_DIED] = "hc-died",
	[CLASSIFY_ENUM_FAILURE] = "enum-failure",
	[CLASSIFY_UAS_IGNORED] = "uas-ignored",
	[CLASSIFY_OVER_CURRENT] = "over-current",
	[CLASSIFY_XHCI_ERROR] = "xhci-error",
	[CLASSIFY_FS_ERROR] = "fs-error",
	[CLASSIFY_SUPPRESSED] = "suppressed",
	[CLASSIFY_DIP] = "dip",
};

const char *classify_kind_name(enum classify_kind kind)
{
	if ((unsigned int)kind >= CLASSIFY_KIND_COUNT)
		return "unknown";
	return classify_kind_names[kind];
}

void classify_details(const struct classify_incident *inc, char *buf,
		      size_t len)
{
	buf[0] = '\0';
	switch (inc->kind) {
	case CLASSIFY_SENSE:
		if (inc->asc < 0 || inc->ascq < 0)
			snprintf(buf, len, "key=%d (%s) asc=? ascq=? (%s)",
				 inc->key, inc->key_text ? inc->key_text : "?",
				 inc->asc_text[0] ? inc->asc_text : "?");
		else
			snprintf(buf, len,
				 "key=%d (%s) asc=0x%02x ascq=0x%02x (%s)",
				 inc->key, inc->key_text ? inc->key_text : "?",
				 inc->asc, inc->ascq,
				 inc->asc_text[0] ? inc->asc_text : "?");
		break;
	case CLASSIFY_IO_ERROR:
		snprintf(buf, len, "sector=%lld", (long long)inc->sector);
		break;
	case CLASSIFY_RESET:
		snprintf(buf, len, "speed=%s", inc->speed);
		break;
	case CLASSIFY_DISCONNECT:
		snprintf(buf, len, "devnum=%d", inc->devnum);
		break;
	case CLASSIFY_ENUM_FAILURE:
		if (inc->err > 0)
			snprintf(buf, len, "errno=%d (%s)", inc->err,
				 strerrorname_np(inc->err) ?
				 strerrorname_np(inc->err) : "?");
		break;
	case CLASSIFY_XHCI_ERROR:
		if (inc->code >= 0)
			snprintf(buf, len, "code=%d", inc->code);
		break;
	case CLASSIFY_SUPPRESSED:
		snprintf(buf, len, "count=%ld", inc->count);
		break;
	case CLASSIFY_TIMEOUT:
		if (inc->inferred)
			snprintf(buf, len, "(implied by the abort)");
		else if (inc->count > 1)
			snprintf(buf, len, "commands=%ld", inc->count);
		break;
	case CLASSIFY_ABORT:
	case CLASSIFY_RECOVERED:
	case CLASSIFY_OFFLINE:
	case CLASSIFY_HC_DIED:
	case CLASSIFY_UAS_IGNORED:
	case CLASSIFY_OVER_CURRENT:
	case CLASSIFY_FS_ERROR:
	case CLASSIFY_DIP:
	case CLASSIFY_KIND_COUNT:
		break;
	}
}

/* SPC-4 table 28, as drivers/scsi/constants.c spells them */
static const char *const classify_sense_keys[16] = {
	"No Sense", "Recovered Error", "Not Ready", "Medium Error",
	"Hardware Error", "Illegal Request", "Unit Attention", "Data Protect",
	"Blank Check", "Vendor Specific", "Copy Aborted", "Aborted Command",
	"Equal", "Volume Overflow", "Miscompare", "Completed",
};

const char *classify_sense_key_text(int key)
{
	if (key < 0 || key > 15)
		return NULL;
	return classify_sense_keys[key];
}

/* The common ones, text as in drivers/scsi/sense_codes.h (6.1). */
static const struct {
	unsigned char asc, ascq;
	const char *text;
} classify_ascs[] = {
	{ 0x00, 0x00, "No additional sense information" },
	{ 0x00, 0x06, "I/O process terminated" },
	{ 0x03, 0x00, "Peripheral device write fault" },
	{ 0x04, 0x00, "Logical unit not ready, cause not reportable" },
	{ 0x04, 0x01, "Logical unit is in process of becoming ready" },
	{ 0x04, 0x02, "Logical unit not ready, initializing command required" },
	{ 0x04, 0x03, "Logical unit not ready, manual intervention required" },
	{ 0x04, 0x04, "Logical unit not ready, format in progress" },
	{ 0x0c, 0x00, "Write error" },
	{ 0x0c, 0x02, "Write error - auto reallocation failed" },
	{ 0x11, 0x00, "Unrecovered read error" },
	{ 0x11, 0x04, "Unrecovered read error - auto reallocate failed" },
	{ 0x14, 0x01, "Record not found" },
	{ 0x1a, 0x00, "Parameter list length error" },
	{ 0x20, 0x00, "Invalid command operation code" },
	{ 0x21, 0x00, "Logical block address out of range" },
	{ 0x24, 0x00, "Invalid field in cdb" },
	{ 0x25, 0x00, "Logical unit not supported" },
	{ 0x27, 0x00, "Write protected" },
	{ 0x28, 0x00, "Not ready to ready change, medium may have changed" },
	{ 0x29, 0x00, "Power on, reset, or bus device reset occurred" },
	{ 0x3a, 0x00, "Medium not present" },
	{ 0x3a, 0x01, "Medium not present - tray closed" },
	{ 0x3a, 0x02, "Medium not present - tray open" },
	{ 0x3f, 0x00, "Target operating conditions have changed" },
	{ 0x3f, 0x01, "Microcode has been changed" },
	{ 0x3f, 0x0e, "Reported luns data has changed" },
	{ 0x44, 0x00, "Internal target failure" },
	{ 0x4b, 0x00, "Data phase error" },
	{ 0x5d, 0x00, "Failure prediction threshold exceeded" },
};

/* ASC/ASCQ -> Add. Sense text; NULL if not in the table. */
const char *classify_asc_text(int asc, int ascq)
{
	size_t i;

	for (i = 0; i < sizeof(classify_ascs) / sizeof(classify_ascs[0]); i++)
		if (classify_ascs[i].asc == asc && classify_ascs[i].ascq == ascq)
			return classify_ascs[i].text;
	return NULL;
}

/* Add. Sense text -> ASC/ASCQ; -ENOENT if not in the table. */
int classify_asc_lookup(const char *text, int *asc, int *ascq)
{
	size_t i;

	for (i = 0; i < sizeof(classify_ascs) / sizeof(classify_ascs[0]); i++) {
		if (!strcasecmp(text, classify_ascs[i].text)) {
			*asc = classify_ascs[i].asc;
			*ascq = classify_ascs[i].ascq;
			return 0;
		}
	}
	return -ENOENT;
}

void classify_init(struct classify *c)
{
	memset(c, 0, sizeof(*c));
	c->next_chain = 1;
}

static void classify_copy(char *dst, size_t size, const char *src,
			  size_t len)
{
	if (len >= size)
		len = size - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

/* sdc1 -> sdc, nvme0n1p2 -> nvme0n1, mmcblk0p1 -> mmcblk0 */
static void classify_whole_disk(char *name)
{
	size_t n = strlen(name);

	if (!strncmp(name, "sd", 2) || !strncmp(name, "hd", 2) ||
	    !strncmp(name, "vd", 2)) {
		while (n > 2 && name[n - 1] >= '0' && name[n - 1] <= '9')
			name[--n] = '\0';
		return;
	}
	while (n && name[n - 1] >= '0' && name[n - 1] <= '9')
		n--;
	if (n > 1 && n < strlen(name) && name[n - 1] == 'p' &&
	    name[n - 2] >= '0' && name[n - 2] <= '9')
		name[n - 1] = '\0';
}

/* The name token after s, ended by one of stop (or the string end). */
static void classify_token(char *dst, const char *s, const char *stop)
{
	size_t n = strcspn(s, stop);

	classify_copy(dst, CLASSIFY_DEV_MAX, s, n);
}

static const char *classify_map_find(const struct classify *c,
				     const char *addr, bool host_only)
{
	size_t hl = strcspn(addr, ":");
	unsigned int i;

	for (i = 0; i < c->nmap; i++) {
		if (!host_only && !strcmp(c->map[i].addr, addr))
			return c->map[i].disk;
		if (host_only && !strncmp(c->map[i].addr, addr, hl) &&
		    c->map[i].addr[hl] == ':')
			return c->map[i].disk;
	}
	return NULL;
}

static void classify_map_add(struct classify *c, const char *addr,
			     const char *disk)
{
	unsigned int i;

	for (i = 0; i < c->nmap; i++) {
		if (!strcmp(c->map[i].addr, addr)) {
			classify_copy(c->map[i].disk, CLASSIFY_DEV_MAX, disk,
				      strlen(disk));
			return;
		}
	}
	/* full: the oldest goes, disks come and go */
	if (c->nmap == CLASSIFY_MAP_MAX) {
		memmove(&c->map[0], &c->map[1],
			sizeof(c->map[0]) * (CLASSIFY_MAP_MAX - 1));
		c->nmap--;
	}
	classify_copy(c->map[c->nmap].addr, CLASSIFY_DEV_MAX, addr,
		      strlen(addr));
	classify_copy(c->map[c->nmap].disk, CLASSIFY_DEV_MAX, disk,
		      strlen(disk));
	c->nmap++;
}

/* dst = a SEP b, cut to CLASSIFY_DEV_MAX */
static void classify_join(char *dst, const char *a, char sep, const char *b)
{
	char buf[CLASSIFY_DEV_MAX];
	size_t n = 0;

	while (*a && n < sizeof(buf) - 1)
		buf[n++] = *a++;
	if (n < sizeof(buf) - 1)
		buf[n++] = sep;
	while (*b && n < sizeof(buf) - 1)
		buf[n++] = *b++;
	buf[n] = '\0';
	memcpy(dst, buf, n + 1);
}

/* usb2-port1 -> 2-1, 2-1-port3 -> 2-1.3, 2-1:1.0 -> 2-1, 2-0:1.0 -> usb2 */
static void classify_usb_name(char *dev)
{
	char *port = strstr(dev, "-port");
	char *colon;

	if (port) {
		*port = '\0';
		if (!strncmp(dev, "usb", 3))
			classify_join(dev, dev + 3, '-', port + 5);
		else
			classify_join(dev, dev, '.', port + 5);
		return;
	}
	colon = strchr(dev, ':');
	if (colon)
		*colon = '\0';
	if (strlen(dev) > 2 && !strcmp(dev + strlen(dev) - 2, "-0")) {
		char bus[CLASSIFY_DEV_MAX];

		classify_copy(bus, sizeof(bus), dev, strlen(dev) - 2);
		classify_join(dev, "usb", bus[0], bus + 1);
	}
}

/*
 * Who a message is about, from the dev_printk prefix "DRIVER DEVNAME: " and
 * the "[sdX]" scsi_device prefix.  rest is left after the prefix.
 */
static void classify_who(struct classify *c, const char *msg,
			 struct classify_incident *inc, const char **rest)
{
	const char *sp = strchr(msg, ' ');
	const char *colon;
	char drv[CLASSIFY_DEV_MAX], name[CLASSIFY_DEV_MAX];
	const char *disk = NULL;

	*rest = msg;
	if (!sp || sp == msg || sp[-1] == ':' || sp - msg >= CLASSIFY_DEV_MAX)
		return;
	colon = strstr(sp + 1, ": ");
	if (!colon || memchr(sp + 1, ' ', (size_t)(colon - sp - 1)) ||
	    colon - sp - 1 >= CLASSIFY_DEV_MAX || colon == sp + 1)
		return;
	classify_copy(drv, sizeof(drv), msg, (size_t)(sp - msg));
	classify_copy(name, sizeof(name), sp + 1, (size_t)(colon - sp - 1));
	*rest = colon + 2;

	if (!strcmp(drv, "sd") || !strcmp(drv, "scsi") || !strcmp(drv, "sr")) {
		if (**rest == '[' && strchr(*rest, ']')) {
			classify_token(inc->dev, *rest + 1, "]");
			classify_map_add(c, name, inc->dev);
			*rest = strchr(*rest, ']') + 1;
			while (**rest == ' ')
				(*rest)++;
			strcpy(inc->disk, inc->dev);
			return;
		}
		if (!strncmp(name, "host", 4)) {
			char addr[CLASSIFY_DEV_MAX];

			snprintf(addr, sizeof(addr), "%s:", name + 4);
			disk = classify_map_find(c, addr, true);
		} else {
			disk = classify_map_find(c, name, false);
		}
		strcpy(inc->dev, disk ? disk : name);
		if (disk)
			strcpy(inc->disk, disk);
		if (!strncmp(name, "host", 4))
			strcpy(inc->dev, name);
		return;
	}
	strcpy(inc->dev, name);
	if (!strcmp(drv, "usb") || !strcmp(drv, "hub") ||
	    !strcmp(drv, "usb-storage") || !strcmp(drv, "uas"))
		classify_usb_name(inc->dev);
}

/* The number after the first @key in @s: decimal, or hex with 0x. */
static long long classify_num_after(const char *s, const char *key, bool *ok)
{
	const char *p = strstr(s, key);
	char *end;
	long long v;

	*ok = false;
	if (!p)
		return 0;
	p += strlen(key);
	errno = 0;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		v = strtoll(p, &end, 16);
	else
		v = strtoll(p, &end, 10);
	if (end == p || errno)
		return 0;
	*ok = true;
	return v;
}

static void classify_new_incident(struct classify_incident *inc,
				  const struct kmsg_record *rec,
				  const char *msg)
{
	memset(inc, 0, sizeof(*inc));
	inc->t = rec->t;
	inc->clock = rec->clock;
	inc->key = inc->asc = inc->ascq = -1;
	inc->sector = -1;
	inc->devnum = -1;
	inc->err = -1;
	inc->code = -1;
	inc->count = -1;
	classify_copy(inc->line, sizeof(inc->line), msg, strlen(msg));
}

/* "Sense Key : Not Ready [current] " */
static void classify_sense_key(struct classify_incident *inc, const char *s)
{
	char text[CLASSIFY_TEXT_MAX];
	size_t n = strcspn(s, "[");
	int i;

	while (n && s[n - 1] == ' ')
		n--;
	classify_copy(text, sizeof(text), s, n);
	for (i = 0; i < 16; i++) {
		if (!strcasecmp(text, classify_sense_keys[i])) {
			inc->key = i;
			inc->key_text = classify_sense_keys[i];
			return;
		}
	}
	/* "Sense Key : 0x2" from kernels without the names compiled in */
	if (!strncmp(text, "0x", 2)) {
		long v = strtol(text, NULL, 16);

		if (v >= 0 && v < 16) {
			inc->key = (int)v;
			inc->key_text = classify_sense_keys[v];
		}
	}
}

/* "Add. Sense: Medium not present" or "Add. Sense: ASC=0x80 ASCQ=0x3 " */
static void classify_add_sense(struct classify_incident *inc, const char *s)
{
	size_t n = strlen(s);
	bool ok1, ok2;
	long long asc, ascq;

	while (n && s[n - 1] == ' ')
		n--;
	classify_copy(inc->asc_text, sizeof(inc->asc_text), s, n);
	asc = classify_num_after(s, "ASC=", &ok1);
	ascq = classify_num_after(s, "ASCQ=", &ok2);
	if (ok1 && ok2 && asc >= 0 && asc <= 255 && ascq >= 0 &&
	    ascq <= 255) {
		inc->asc = (int)asc;
		inc->ascq = (int)ascq;
		return;
	}
	if (classify_asc_lookup(inc->asc_text, &inc->asc, &inc->ascq)) {
		/* "Logical unit not ready, cause not reportable" variants:
		 * the ASC is known even when the qualifier is not */
		if (!strncasecmp(inc->asc_text, "Logical unit not ready", 22) ||
		    !strncasecmp(inc->asc_text, "Logical unit is in process", 26))
			inc->asc = 0x04;
	}
}

static int classify_chain_join(struct classify *c,
			       struct classify_incident *inc, bool open)
{
	const char *disk = inc->disk[0] ? inc->disk : NULL;

	if (c->chain && inc->t - c->chain_t > CLASSIFY_CHAIN_WINDOW)
		c->chain = 0;
	if (c->chain && disk && c->chain_disk[0] &&
	    strcmp(disk, c->chain_disk)) {
		if (!open)
			return 0;
		c->chain = 0;
	}
	if (!c->chain) {
		if (!open)
			return 0;
		c->chain = c->next_chain++;
		c->chain_disk[0] = '\0';
		c->chain_timeout = false;
	}
	if (disk && !c->chain_disk[0])
		strcpy(c->chain_disk, disk);
	if (!inc->disk[0])
		strcpy(inc->disk, c->chain_disk);
	c->chain_t = inc->t;
	inc->chain = c->chain;
	return 1;
}

/* USB device numbers are 1..127 per bus; anything sane is kept */
#define CLASSIFY_DEVNUM_MAX	0xffff

static bool classify_has(const char *s, const char *what)
{
	return strstr(s, what) != NULL;
}

/* Fill inc from one message; false when the message is no incident. */
static bool classify_match(const char *msg,
			   const char *rest, struct classify_incident *inc)
{
	const char *p;
	bool ok;
	long long v;

	if ((p = strstr(rest, "error, dev "))) {
		/* blk_update_request / end_request / blk-mq "I/O error" */
		inc->kind = CLASSIFY_IO_ERROR;
		classify_token(inc->dev, p + 11, ", ");
		classify_whole_disk(inc->dev);
		strcpy(inc->disk, inc->dev);
		v = classify_num_after(p, ", sector ", &ok);
		if (ok && v >= 0)
			inc->sector = v;
		return true;
	}
	if ((p = strstr(rest, "Buffer I/O error on dev ")) ||
	    (p = strstr(rest, "Buffer I/O error on device "))) {
		inc->kind = CLASSIFY_FS_ERROR;
		p = strstr(p, "on dev") + 6;
		p += strspn(p, "ice ");
		classify_token(inc->dev, p, ", ");
		classify_whole_disk(inc->dev);
		strcpy(inc->disk, inc->dev);
		return true;
	}
	if ((p = strstr(rest, "lost page write due to I/O error on "))) {
		inc->kind = CLASSIFY_FS_ERROR;
		classify_token(inc->dev, p + 36, ", ");
		classify_whole_disk(inc->dev);
		strcpy(inc->disk, inc->dev);
		return true;
	}
	if ((p = strstr(rest, "-fs error (device ")) ||
	    (!strncmp(msg, "FAT-fs (", 8) && (p = msg))) {
		inc->kind = CLASSIFY_FS_ERROR;
		p = strchr(p, '(');
		p += strcspn(p, " ") < strcspn(p, ")") ?
			strcspn(p, " ") + 1 : 1;
		classify_token(inc->dev, p, ")");
		classify_whole_disk(inc->dev);
		strcpy(inc->disk, inc->dev);
		return true;
	}
	if ((p = strstr(rest, " callbacks suppressed"))) {
		const char *q = p;

		while (q > rest && q[-1] >= '0' && q[-1] <= '9')
			q--;
		if (q == p)
			return false;
		inc->kind = CLASSIFY_SUPPRESSED;
		inc->count = strtol(q, NULL, 10);
		if (inc->count < 0)
			inc->count = -1;
		inc->dev[0] = '\0';
		return true;
	}
	if ((p = strstr(rest, "Sense Key : "))) {
		inc->kind = CLASSIFY_SENSE;
		classify_sense_key(inc, p + 12);
		return true;
	}
	/* 2.6: "Current sda: sense key Hardware Error" */
	if ((p = strstr(msg, ": sense key ")) &&
	    (!strncmp(msg, "Current ", 8) || !strncmp(msg, "Deferred ", 9))) {
		inc->kind = CLASSIFY_SENSE;
		classify_token(inc->dev, strchr(msg, ' ') + 1, ":");
		classify_whole_disk(inc->dev);
		strcpy(inc->disk, inc->dev);
		classify_sense_key(inc, p + 12);
		return true;
	}
	if (classify_has(rest, "DID_TIME_OUT") ||
	    classify_has(rest, "timing out command") ||
	    classify_has(rest, "Done: TIMEOUT")) {
		inc->kind = CLASSIFY_TIMEOUT;
		return true;
	}
	if (classify_has(rest, "uas_eh_abort_handler") ||
	    classify_has(rest, "command_abort")) {
		inc->kind = CLASSIFY_ABORT;
		return true;
	}
	if (classify_has(rest, "uas_eh_device_reset_handler success") ||
	    classify_has(rest, "device_reset_handler success")) {
		inc->kind = CLASSIFY_RECOVERED;
		return true;
	}
	if (!strncmp(rest, "reset ", 6) &&
	    (p = strstr(rest, " USB device number "))) {
		inc->kind = CLASSIFY_RESET;
		classify_copy(inc->speed, sizeof(inc->speed), rest + 6,
			      (size_t)(p - rest - 6));
		v = classify_num_after(p, "number ", &ok);
		if (ok && v >= 0 && v <= CLASSIFY_DEVNUM_MAX)
			inc->devnum = (int)v;
		return true;
	}
	if ((p = strstr(rest, "USB disconnect, device number "))) {
		inc->kind = CLASSIFY_DISCONNECT;
		v = classify_num_after(p, "number ", &ok);
		if (ok && v >= 0 && v <= CLASSIFY_DEVNUM_MAX)
			inc->devnum = (int)v;
		return true;
	}
	if (classify_has(rest, "rejecting I/O to offline device") ||
	    classify_has(rest, "Device offlined")) {
		inc->kind = CLASSIFY_OFFLINE;
		return true;
	}
	if (classify_has(rest, "not responding, assume dead") ||
	    classify_has(rest, "HC died")) {
		inc->kind = CLASSIFY_HC_DIED;
		return true;
	}
	if (classify_has(rest, "device descriptor read/") ||
	    classify_has(rest, "device not accepting address") ||
	    classify_has(rest, "unable to enumerate USB device") ||
	    classify_has(rest, "can't read configurations")) {
		inc->kind = CLASSIFY_ENUM_FAILURE;
		v = classify_num_after(rest, "error ", &ok);
		if (ok && v < 0 && v > -4096)	/* MAX_ERRNO */
			inc->err = (int)-v;
		v = classify_num_after(rest, "address ", &ok);
		if (ok && v >= 0 && v <= CLASSIFY_DEVNUM_MAX)
			inc->devnum = (int)v;
		return true;
	}
	if (classify_has(rest, "UAS is ignored for this device")) {
		inc->kind = CLASSIFY_UAS_IGNORED;
		return true;
	}
	if (classify_has(rest, "over-current condition")) {
		inc->kind = CLASSIFY_OVER_CURRENT;
		return true;
	}
	if ((!strncmp(msg, "xhci_hcd ", 9) || !strncmp(msg, "xhci-hcd ", 9)) &&
	    (!strncmp(rest, "WARN", 4) || !strncmp(rest, "ERROR", 5) ||
	     classify_has(rest, "completion code") ||
	     classify_has(rest, "comp_code"))) {
		inc->kind = CLASSIFY_XHCI_ERROR;
		v = classify_num_after(rest, "completion code of ", &ok);
		if (!ok)
			v = classify_num_after(rest, "completion code ", &ok);
		if (!ok)
			v = classify_num_after(rest, "comp_code ", &ok);
		if (!ok)
			v = classify_num_after(rest, "comp code ", &ok);
		if (ok && v >= 0 && v <= 255)
			inc->code = (int)v;
		/* the one state error the kernel names without a number */
		if (!ok && classify_has(rest, "incorrect slot or ep state"))
			inc->code = 19;	/* COMP_CONTEXT_STATE_ERROR */
		return true;
	}
	return false;
}

static int classify_emit_sense(struct classify *c,
			       struct classify_incident *out)
{
	if (!c->sense_pending)
		return 0;
	*out = c->sense;
	c->sense_pending = false;
	return 1;
}

/*
 * Feed one message; returns how many incidents were written to out (at
 * most CLASSIFY_MAX_OUT), in log order.
 */
int classify_feed(struct classify *c, const struct kmsg_record *rec,
		  struct classify_incident out[CLASSIFY_MAX_OUT])
{
	char msg[CLASSIFY_LINE_MAX];
	struct classify_incident inc;
	const char *rest, *p;
	int n = 0;

	classify_copy(msg, sizeof(msg), rec->msg, rec->msg_len);
	/* a NUL inside is the end for us; kmsg_parse_line refuses them */
	classify_new_incident(&inc, rec, msg);
	classify_who(c, msg, &inc, &rest);

	/* the second half of a sense report */
	if ((p = strstr(rest, "Add. Sense: ")) && c->sense_pending &&
	    !strcmp(inc.dev, c->sense.dev)) {
		classify_add_sense(&c->sense, p + 12);
		return classify_emit_sense(c, out);
	}
	/* 2.6: "Additional sense: Data phase error", no device named */
	if (!strncmp(msg, "Additional sense: ", 18) && c->sense_pending) {
		classify_add_sense(&c->sense, msg + 18);
		return classify_emit_sense(c, out);
	}
	if (!classify_match(msg, rest, &inc))
		return 0;

	/* a sense whose Add. Sense never came goes out as it is */
	n += classify_emit_sense(c, out);
	if (inc.kind == CLASSIFY_SENSE) {
		c->sense = inc;
		c->sense_pending = true;
		return n;
	}

	switch (inc.kind) {
	case CLASSIFY_TIMEOUT:
		classify_chain_join(c, &inc, true);
		c->chain_timeout = true;
		break;
	case CLASSIFY_ABORT:
		if (!c->chain || inc.t - c->chain_t > CLASSIFY_CHAIN_WINDOW ||
		    !c->chain_timeout) {
			/*
			 * The SCSI midlayer calls eh_abort_handler only for a
			 * command that timed out (scsi_timeout() and
			 * scsi_eh_abort_cmds() in drivers/scsi/scsi_error.c),
			 * and 6.1 prints no line for the timeout itself.
			 */
			struct classify_incident to = inc;

			to.kind = CLASSIFY_TIMEOUT;
			to.inferred = true;
			classify_chain_join(c, &to, true);
			c->chain_timeout = true;
			out[n++] = to;
		}
		classify_chain_join(c, &inc, true);
		break;
	case CLASSIFY_RESET:
	case CLASSIFY_RECOVERED:
	case CLASSIFY_OFFLINE:
	case CLASSIFY_DISCONNECT:
		classify_chain_join(c, &inc, false);
		if (inc.kind == CLASSIFY_RECOVERED ||
		    inc.kind == CLASSIFY_OFFLINE)
			c->chain = 0;
		break;
	case CLASSIFY_SENSE:
	case CLASSIFY_IO_ERROR:
	case CLASSIFY_HC_DIED:
	case CLASSIFY_ENUM_FAILURE:
	case CLASSIFY_UAS_IGNORED:
	case CLASSIFY_OVER_CURRENT:
	case CLASSIFY_XHCI_ERROR:
	case CLASSIFY_FS_ERROR:
	case CLASSIFY_SUPPRESSED:
	case CLASSIFY_DIP:
	case CLASSIFY_KIND_COUNT:
		break;
	}
	out[n++] = inc;
	return n;
}

/* At the end of the input: what is still pending. */
int classify_flush(struct classify *c,
		   struct classify_incident out[CLASSIFY_MAX_OUT])
{
	int n = classify_emit_sense(c, out);

	c->chain = 0;
	return n;
}
