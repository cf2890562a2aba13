// SPDX-License-Identifier: GPL-2.0-only
/*
 * classify.c - name the USB storage incidents in kernel log messages
 * (classify.h).
 *
 * What one message is comes from data/kmsg-formats.tsv (kmsgtab.c): an
 * incident of some kind, a part of a failed SCSI command, a fact about a
 * device, or a benign look-alike.  This file only puts messages together:
 *
 *  - the parts of one failed command (Device not ready, Result:, Sense
 *    Key, Add. Sense, Info fld, CDB, the block layer's I/O error, the
 *    file system's Buffer I/O errors and lost page writes, and the
 *    "callbacks suppressed" right before any of them) are one incident,
 *    sense if it has sense data,
 *    timeout if its result says so, io-error otherwise; a part that the
 *    open command has already seen starts the next command;
 *  - timeout -> abort -> reset -> recovered | offline is one chain; an
 *    abort with no timeout before it implies one (the SCSI midlayer aborts
 *    only timed-out commands: scsi_timeout() -> scsi_abort_command() in
 *    drivers/scsi/scsi_error.c), and the timeouts of one chain are one
 *    incident, whatever the lines that say it;
 *  - the reset the SCSI error handler starts and the USB reset it does
 *    are one reset; a repeated message of one device (xHCI warnings,
 *    "rejecting I/O", the lines of one controller's death) is one
 *    incident with a count;
 *  - the device a line names (sdc, the SCSI address, the host, the USB
 *    path) is carried to the lines that do not name it.
 *
 * Incidents are held until no later line can belong to them (a few
 * seconds of log time, or 40 lines of an untimed log) and come out in
 * the order of their first lines.
 */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "classify.h"
#include "datatab.h"
#include "kmsgtab.h"
#include "ut_sense.h"
#include "util.h"

static const struct classify_kind_row {
	const char *name;
	enum classify_class class;
	unsigned int carries;
} classify_kind_rows[CLASSIFY_KIND_COUNT] = {
#define CLASSIFY_KIND_ROW(id, name, class, advice, carries)		\
	[CLASSIFY_##id] = { name, CLASSIFY_CLASS_##class, carries },
	CLASSIFY_KINDS(CLASSIFY_KIND_ROW)
#undef CLASSIFY_KIND_ROW
};

const char *classify_kind_name(enum classify_kind kind)
{
	if ((unsigned int)kind >= CLASSIFY_KIND_COUNT)
		return "unknown";
	return classify_kind_rows[kind].name;
}

unsigned int classify_kind_carries(enum classify_kind kind)
{
	if ((unsigned int)kind >= CLASSIFY_KIND_COUNT)
		return 0;
	return classify_kind_rows[kind].carries;
}

enum classify_class classify_kind_class(enum classify_kind kind)
{
	if ((unsigned int)kind >= CLASSIFY_KIND_COUNT)
		return CLASSIFY_CLASS_ERROR;
	return classify_kind_rows[kind].class;
}

enum classify_kind classify_kind_of(const char *name)
{
	unsigned int i;

	for (i = 0; name && i < CLASSIFY_KIND_COUNT; i++)
		if (!strcmp(name, classify_kind_rows[i].name))
			return i;
	return CLASSIFY_KIND_COUNT;
}

void classify_incident_init(struct classify_incident *inc,
			    enum classify_kind kind)
{
	memset(inc, 0, sizeof(*inc));
	inc->kind = kind;
	inc->host = -1;
	inc->key = inc->asc = inc->ascq = -1;
	inc->info = -1;
	inc->opcode = -1;
	inc->lba = inc->blocks = -1;
	inc->sector = -1;
	inc->lost_first = -1;
	inc->devnum = -1;
	inc->port = -1;
	inc->err = -1;
	inc->code = -1;
	inc->count = -1;
	inc->wall_clock = KMSG_CLOCK_NONE;
}

/* --- SCSI facts ----------------------------------------------------------- */

const char *classify_sense_key_text(int key)
{
	if (key < 0 || key > 15)
		return NULL;
	return datatab_cell(&datatab_scsi_sense_keys, (unsigned int)key, 1);
}

bool classify_sense_key_fails(int key)
{
	const char *c = datatab_cell(&datatab_scsi_sense_keys,
				     (unsigned int)key, 3);

	return !c || strcmp(c, "no");
}

static int classify_hex_cell(const struct datatab *t, unsigned int row,
			     unsigned int col)
{
	const char *s = datatab_cell(t, row, col);

	return s ? (int)strtol(s, NULL, 16) : -1;
}

/*
 * data/scsi-asc.tsv, indexed once: the row of each ASC/ASCQ (the first
 * that holds it; ranges are last), and of each exact text, case folded.
 * Each failed command of a log looks one up; a scan with strtol() over
 * 770 rows per lookup was a twentieth of analyze's time.
 */
#define CLASSIFY_ASC_HASH	2048	/* a power of two over twice the rows */

static struct {
	pthread_once_t once;
	uint16_t by_code[65536];	/* row + 1, 0: none */
	uint16_t by_text[CLASSIFY_ASC_HASH];	/* row + 1, 0: none */
	bool ambiguous[CLASSIFY_ASC_HASH];	/* a text of several codes */
} classify_asc = { .once = PTHREAD_ONCE_INIT };

static uint32_t classify_fold_hash(const char *s)
{
	uint32_t h = 2166136261u;	/* FNV-1a, over the lower case */

	for (; *s; s++)
		h = (h ^ (uint8_t)tolower((unsigned char)*s)) * 16777619u;
	return h;
}

static void classify_asc_index(void)
{
	const struct datatab *t = &datatab_scsi_asc;
	unsigned int r;

	for (r = 0; r < t->nrows && r < 65535; r++) {
		int a0 = classify_hex_cell(t, r, 0), a1 = classify_hex_cell(t, r, 1);
		int q0 = classify_hex_cell(t, r, 2), q1 = classify_hex_cell(t, r, 3);
		const char *text = datatab_cell(t, r, 4);
		int a, q;

		for (a = a0 < 0 ? 0 : a0; a <= a1 && a <= 255; a++)
			for (q = q0 < 0 ? 0 : q0; q <= q1 && q <= 255; q++)
				if (!classify_asc.by_code[a << 8 | q])
					classify_asc.by_code[a << 8 | q] =
						(uint16_t)(r + 1);
		if (!text || strcmp(datatab_cell(t, r, 5), "-"))
			continue;	/* a family: classify_asc_lookup() */
		for (uint32_t h = classify_fold_hash(text);; h++) {
			uint32_t i = h & (CLASSIFY_ASC_HASH - 1);
			uint16_t o = classify_asc.by_text[i];

			if (!o) {
				classify_asc.by_text[i] = (uint16_t)(r + 1);
				break;
			}
			if (!strcasecmp(datatab_cell(t, o - 1u, 4), text)) {
				/* "Obsolete" names three codes: none of them */
				classify_asc.ambiguous[i] = true;
				break;
			}
		}
	}
}

/* The row of data/scsi-asc.tsv that holds ASC/ASCQ, or -1. */
static int classify_asc_row(int asc, int ascq)
{
	if (asc < 0 || asc > 255 || ascq < 0 || ascq > 255)
		return -1;
	pthread_once(&classify_asc.once, classify_asc_index);
	return (int)classify_asc.by_code[asc << 8 | ascq] - 1;
}

const char *classify_asc_text(int asc, int ascq)
{
	int r = classify_asc_row(asc, ascq);

	/* the vendor ranges are no text the kernel prints */
	if (r < 0 || !strncmp(datatab_cell(&datatab_scsi_asc, (unsigned int)r,
					   6), "T10 asc-num.txt and SPC-4", 25))
		return NULL;
	return datatab_cell(&datatab_scsi_asc, (unsigned int)r, 4);
}

int classify_asc_lookup(const char *text, int *asc, int *ascq)
{
	const struct datatab *t = &datatab_scsi_asc;
	unsigned int r;
	uint32_t h;

	pthread_once(&classify_asc.once, classify_asc_index);
	for (h = classify_fold_hash(text);; h++) {
		uint32_t i = h & (CLASSIFY_ASC_HASH - 1);
		uint16_t o = classify_asc.by_text[i];

		if (!o)
			break;
		if (strcasecmp(datatab_cell(t, o - 1u, 4), text))
			continue;
		if (classify_asc.ambiguous[i])
			return -ENOENT;
		*asc = classify_hex_cell(t, o - 1u, 0);
		*ascq = classify_hex_cell(t, o - 1u, 2);
		return 0;
	}
	/* a family: "Ram failure(80)", "Tagged ... (task tag 5)" */
	for (r = 0; r < t->nrows; r++) {
		const char *s = datatab_cell(t, r, 4);
		const char *q = datatab_cell(t, r, 5);
		size_t n, ql;
		const char *p;

		if (!strcmp(q, "-"))
			continue;
		n = strlen(s);
		if (strncasecmp(text, s, n) || (text[n] != '(' && text[n]))
			continue;
		p = text + n;
		ql = strlen(q);
		*asc = classify_hex_cell(t, r, 0);
		*ascq = -1;
		/* the qualifier column is quoted: "" or "task tag " */
		if (*p == '(' && ql >= 2) {
			p++;
			if (!strncmp(p, q + 1, ql - 2))
				p += ql - 2;
			if (*p)
				*ascq = (int)strtol(p, NULL, 16);
		}
		if (*ascq >= 0 && (*ascq < classify_hex_cell(t, r, 2) ||
				   *ascq > classify_hex_cell(t, r, 3)))
			continue;
		return 0;
	}
	return -ENOENT;
}

/* --- details as text -------------------------------------------------- */

void classify_details(const struct classify_incident *inc, char *buf,
		      size_t len)
{
	unsigned int carries = classify_kind_carries(inc->kind);
	size_t n = 0;

#define CLASSIFY_PUT(...)						\
	do {								\
		if (n < len)						\
			n += (size_t)snprintf(buf + n, len - n, __VA_ARGS__); \
	} while (0)

	buf[0] = '\0';
	if ((carries & CLASSIFY_C_SENSE) &&
	    (inc->key >= 0 || inc->asc >= 0 || inc->asc_text[0])) {
		CLASSIFY_PUT("key=%d (%s)", inc->key,
			     inc->key_text ? inc->key_text : "?");
		if (inc->asc >= 0 && inc->ascq >= 0)
			CLASSIFY_PUT(" asc=0x%02x ascq=0x%02x (%s)", inc->asc,
				     inc->ascq, inc->asc_text[0] ?
				     inc->asc_text : "?");
		else if (inc->asc >= 0)
			CLASSIFY_PUT(" asc=0x%02x ascq=? (%s)", inc->asc,
				     inc->asc_text[0] ? inc->asc_text : "?");
		else
			CLASSIFY_PUT(" asc=? ascq=? (%s)", inc->asc_text[0] ?
				     inc->asc_text : "?");
	}
	if (inc->inferred)
		CLASSIFY_PUT("%s(implied by the abort)", n ? " " : "");
	if (inc->hostbyte[0] && strcmp(inc->hostbyte, "DID_OK"))
		CLASSIFY_PUT("%s%s", n ? " " : "", inc->hostbyte);
	if (inc->opcode_name[0] || inc->opcode >= 0) {
		CLASSIFY_PUT("%s%s", n ? " " : "", inc->opcode_name[0] ?
			     inc->opcode_name : "");
		if (!inc->opcode_name[0])
			CLASSIFY_PUT("opcode 0x%02x", inc->opcode);
		if (inc->lba >= 0)
			CLASSIFY_PUT(" lba=%lld", (long long)inc->lba);
		if (inc->blocks >= 0)
			CLASSIFY_PUT(" blocks=%lld", (long long)inc->blocks);
	}
	if (inc->sector >= 0)
		CLASSIFY_PUT("%ssector=%lld%s%s", n ? " " : "",
			     (long long)inc->sector, inc->op[0] ? " " : "",
			     inc->op);
	if (inc->lost_blocks > 0)
		CLASSIFY_PUT("%sdata lost on %s (%ld block%s)", n ? "; " : "",
			     inc->part[0] ? inc->part : inc->disk,
			     inc->lost_blocks, inc->lost_blocks == 1 ? "" : "s");
	if ((carries & CLASSIFY_C_SPEED) && inc->speed[0])
		CLASSIFY_PUT("%sspeed=%s", n ? " " : "", inc->speed);
	if ((carries & CLASSIFY_C_DEVNUM) && inc->devnum >= 0)
		CLASSIFY_PUT("%sdevnum=%d", n ? " " : "", inc->devnum);
	if ((carries & CLASSIFY_C_CODE) && inc->code >= 0)
		CLASSIFY_PUT("%scode=%d", n ? " " : "", inc->code);
	if (carries & CLASSIFY_C_TALLY)
		CLASSIFY_PUT("%scount=%ld", n ? " " : "", inc->count);
	if ((carries & CLASSIFY_C_COMMANDS) && inc->count > 1)
		CLASSIFY_PUT("%scommands=%ld", n ? " " : "", inc->count);
	if ((carries & CLASSIFY_C_ERRNO) && inc->err > 0)
		CLASSIFY_PUT("%serrno=%d (%s)", n ? " " : "", inc->err,
			     strerrorname_np(inc->err) ?
			     strerrorname_np(inc->err) : "?");
	if ((carries & CLASSIFY_C_REPEATS) && inc->count > 1)
		CLASSIFY_PUT("%s(%ld times)", n ? " " : "", inc->count);
	if (inc->suppressed > 0)
		CLASSIFY_PUT("%s%ld callbacks suppressed", n ? "; " : "",
			     inc->suppressed);
#undef CLASSIFY_PUT
}

/* --- state -------------------------------------------------------------- */

/* The parts of a failed command, in the order the kernel prints them. */
enum classify_part {
	CLASSIFY_P_START = 1 << 0,	/* Device not ready, timing out */
	CLASSIFY_P_RESULT = 1 << 1,
	CLASSIFY_P_KEY = 1 << 2,
	CLASSIFY_P_ASC = 1 << 3,
	CLASSIFY_P_INFO = 1 << 4,
	CLASSIFY_P_HEX = 1 << 5,
	CLASSIFY_P_CDB = 1 << 6,
	CLASSIFY_P_BLK = 1 << 7,
	CLASSIFY_P_LOST = 1 << 8,	/* may repeat */
};

#define CLASSIFY_HELD		64
#define CLASSIFY_READY		8	/* taken out early, for the caller */
#define CLASSIFY_MAP_MAX	32
#define CLASSIFY_CHAIN_WINDOW	120.0	/* s between the parts of a chain */
#define CLASSIFY_CMD_WINDOW	2.0	/* s between the parts of a command */
#define CLASSIFY_REPEAT_WINDOW	30.0	/* s: one controller death, offline */
#define CLASSIFY_FLOOD_WINDOW	2.0	/* s: one message repeated */
/*
 * s between the messages of one enumeration attempt: a descriptor read
 * or an address command that times out takes 5 s (USB_CTRL_GET_TIMEOUT,
 * XHCI_CMD_DEFAULT_TIMEOUT), and hub_port_init() tries two or three
 */
#define CLASSIFY_ENUM_WINDOW	12.0
#define CLASSIFY_LINES_WINDOW	40	/* lines, in a log without times */

/* Who a message is about (classify_who()) */
struct classify_who {
	enum kmsgtab_who cls;
	char drv[32];			/* dev_printk's driver, or pr_fmt's tag */
	char dev[CLASSIFY_DEV_MAX];	/* the incident's dev */
	char disk[CLASSIFY_DEV_MAX];
	char usb[CLASSIFY_DEV_MAX];
	char scsi[24];
	int host;
	int tag;
	bool empty;			/* the prefix and nothing after it */
	char rest[16];			/* what followed the prefix, if short */
};

struct classify_held {
	struct classify_incident inc;
	unsigned int parts;	/* enum classify_part bits seen */
	bool cmd;		/* a failed command's parts */
	bool forced;		/* its kind is set (a timeout line) */
	bool closed;
	bool dropped;		/* merged into another: not to go out */
	bool scsi_reset;	/* the EH reset, its USB reset not seen */
	bool probe;		/* a controller's failed probe */
	bool cleaned_up;	/* a death whose "HC died" came */
	bool attempt_over;	/* an enumeration attempt's last message came */
	enum classify_kind provisional;	/* a command's kind without a key */
	int implied_key;	/* "Device not ready": key 2, -1 */
	bool failed_start;	/* a line said the command failed */
	bool reprint;		/* its completion prints its CDB again */
	int tag;		/* the command's tag#, -1 */
	double window;		/* s it stays open after its last line */
	double last_t;
	enum kmsg_clock last_clock;
	unsigned long last_line;
	unsigned int last_file;
	unsigned long last_msg;	/* c->st.messages when its last line came */
};

struct classify {
	struct classify_held held[CLASSIFY_HELD];
	unsigned int head, n;		/* a ring, oldest first */
	struct classify_incident ready[CLASSIFY_READY];
	unsigned int ready_head, nready;
	/* SCSI address (H:C:T:L) -> disk, from "sd H:C:T:L: [sdX]" */
	struct {
		char addr[24];
		char disk[CLASSIFY_DEV_MAX];
	} map[CLASSIFY_MAP_MAX];
	unsigned int nmap;
	char last_disk[CLASSIFY_DEV_MAX];	/* the disk a line named last */
	char one_disk[CLASSIFY_DEV_MAX];	/* the only disk named so far */
	bool many_disks;			/* or more than one */
	/* the open chain */
	unsigned int next_chain, chain;
	char chain_disk[CLASSIFY_DEV_MAX];
	unsigned int last_chain;		/* the chain closed last */
	char last_chain_disk[CLASSIFY_DEV_MAX];
	double chain_t;
	enum kmsg_clock chain_clock;
	unsigned long chain_line;
	struct classify_device devs[CLASSIFY_DEVICES_MAX];
	unsigned int ndevs;
	int pending_storage;		/* device whose SCSI host comes next */
	unsigned long announced;	/* "new ... USB device" lines so far */
	const char *last_row;
	unsigned long suppressed_msg;	/* the last "callbacks suppressed" */
	/* "sd 5:0:0:0: [sdb]" alone on a line, the message on the next (3.x) */
	struct {
		bool set;
		unsigned long line;
		unsigned int file;
		char rest[16];		/* "" or "CDB:" */
		struct classify_who who;
	} carry;
	double abort_t;			/* the chain's last abort */
	enum kmsg_clock abort_clock;
	unsigned long abort_line;
	struct classify_stats st;
};

struct classify *classify_new(void)
{
	struct classify *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->next_chain = 1;
	c->pending_storage = -1;
	return c;
}

void classify_free(struct classify *c)
{
	free(c);
}

const struct classify_stats *classify_stats(const struct classify *c)
{
	return &c->st;
}

const char *classify_last_row(const struct classify *c)
{
	return c->last_row;
}

const struct classify_device *classify_devices(const struct classify *c,
					       unsigned int *n)
{
	*n = c->ndevs;
	return c->devs;
}

#define classify_set(dst, src, len) util_copy(dst, sizeof(dst), src, len)

static struct classify_held *classify_at(struct classify *c, unsigned int i)
{
	return &c->held[(c->head + i) % CLASSIFY_HELD];
}

/* --- who a message is about ----------------------------------------------- */

/* sdc1 -> sdc, nvme0n1p2 -> nvme0n1, mmcblk0p1 -> mmcblk0 */
static void classify_whole_disk(char *name)
{
	size_t n = strlen(name);

	if (!strncmp(name, "sd", 2) || !strncmp(name, "hd", 2) ||
	    !strncmp(name, "vd", 2) || !strncmp(name, "xvd", 3)) {
		while (n > 2 && name[n - 1] >= '0' && name[n - 1] <= '9')
			name[--n] = '\0';
		return;
	}
	if (!strncmp(name, "dm-", 3) || !strncmp(name, "md", 2) ||
	    !strncmp(name, "loop", 4) || !strncmp(name, "sr", 2))
		return;
	while (n && name[n - 1] >= '0' && name[n - 1] <= '9')
		n--;
	if (n > 1 && n < strlen(name) && name[n - 1] == 'p' &&
	    name[n - 2] >= '0' && name[n - 2] <= '9')
		name[n - 1] = '\0';
}

/* "sdc", "sdab": a disk name and nothing else */
static bool classify_is_sd(const char *s, size_t n)
{
	size_t i;

	if (n < 3 || n > 5 || s[0] != 's' || s[1] != 'd')
		return false;
	for (i = 2; i < n; i++)
		if (s[i] < 'a' || s[i] > 'z')
			return false;
	return true;
}

/* dst = a SEP b, cut to CLASSIFY_DEV_MAX */
static void classify_join(char *dst, const char *a, char sep, const char *b)
{
	char buf[CLASSIFY_DEV_MAX];

	snprintf(buf, sizeof(buf), "%s%c%s", a, sep, b);
	memcpy(dst, buf, strlen(buf) + 1);
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
		char bus[CLASSIFY_DEV_MAX - 3];

		classify_set(bus, dev, strlen(dev) - 2);
		snprintf(dev, CLASSIFY_DEV_MAX, "usb%s", bus);
	}
}

static const char *classify_map_find(const struct classify *c,
				     const char *addr)
{
	unsigned int i;

	for (i = 0; i < c->nmap; i++)
		if (!strcmp(c->map[i].addr, addr))
			return c->map[i].disk;
	return NULL;
}

/* The one disk on SCSI host h, if the log tied exactly one to it. */
static const char *classify_map_host(const struct classify *c, int h)
{
	const char *disk = NULL;
	unsigned int i;

	for (i = 0; i < c->nmap; i++) {
		if (atoi(c->map[i].addr) != h)
			continue;
		if (disk && strcmp(disk, c->map[i].disk))
			return NULL;
		disk = c->map[i].disk;
	}
	return disk;
}

/*
 * The log has tied a SCSI address to a disk: the incidents still held
 * that knew only the address (or its host) learn the disk too.
 */
static void classify_map_learnt(struct classify *c, const char *addr,
				const char *disk)
{
	int host = atoi(addr);
	unsigned int i;

	for (i = 0; i < c->n; i++) {
		struct classify_incident *inc = &classify_at(c, i)->inc;

		if (inc->disk[0] || (strcmp(inc->scsi, addr) &&
				     (inc->scsi[0] || inc->host != host)))
			continue;
		classify_set(inc->disk, disk, strlen(disk));
		if (!strcmp(inc->dev, addr))
			classify_set(inc->dev, disk, strlen(disk));
	}
}

static void classify_map_add(struct classify *c, const char *addr,
			     const char *disk)
{
	unsigned int i;

	classify_map_learnt(c, addr, disk);
	for (i = 0; i < c->nmap; i++) {
		if (!strcmp(c->map[i].addr, addr)) {
			classify_set(c->map[i].disk, disk, strlen(disk));
			return;
		}
	}
	/* full: the oldest goes, disks come and go */
	if (c->nmap == CLASSIFY_MAP_MAX) {
		memmove(&c->map[0], &c->map[1],
			sizeof(c->map[0]) * (CLASSIFY_MAP_MAX - 1));
		c->nmap--;
	}
	classify_set(c->map[c->nmap].addr, addr, strlen(addr));
	classify_set(c->map[c->nmap].disk, disk, strlen(disk));
	c->nmap++;
}

/* "0:0:0:0" */
static bool classify_is_scsi_addr(const char *s)
{
	int colons = 0;

	for (; *s; s++) {
		if (*s == ':')
			colons++;
		else if (*s < '0' || *s > '9')
			return false;
	}
	return colons == 3;
}

/*
 * After the SCSI prefix: "[sdc] " (or "[sdc]  " on 3.x) and "tag#3 ".
 * Returns what follows.
 */
static const char *classify_scsi_rest(const char *p, struct classify_who *w)
{
	const char *e;

	while (*p == ' ')
		p++;
	if (*p == '[' && (e = strchr(p, ']')) && e - p - 1 < CLASSIFY_DEV_MAX &&
	    !memchr(p, ' ', (size_t)(e - p))) {
		classify_set(w->disk, p + 1, (size_t)(e - p - 1));
		p = e + 1;
		while (*p == ' ')
			p++;
	}
	if (!strncmp(p, "tag#", 4)) {
		w->tag = atoi(p + 4);
		p += 4;
		while (*p >= '0' && *p <= '9')
			p++;
		while (*p == ' ')
			p++;
	}
	return p;
}

/*
 * Who msg is about, from the dev_printk prefix "DRIVER DEVNAME: " (and the
 * "[sdX] tag#N " the SCSI layer adds) or a pr_fmt "tag: ".
 */
static void classify_who(struct classify *c, const char *msg,
			 struct classify_who *w)
{
	const char *sp, *colon, *p;
	char name[CLASSIFY_DEV_MAX];

	memset(w, 0, sizeof(*w));
	w->cls = KMSGTAB_WHO_NONE;
	w->host = -1;
	w->tag = -1;
	sp = strchr(msg, ' ');
	if (!sp || sp == msg)
		return;
	if (sp[-1] == ':') {
		/* "sdc: ..." (2.6), "usb-storage: ...", "end_request: ..." */
		classify_set(w->drv, msg, (size_t)(sp - msg - 1));
		if (classify_is_sd(msg, (size_t)(sp - msg - 1)))
			classify_set(w->disk, msg, (size_t)(sp - msg - 1));
		return;
	}
	if (sp - msg >= (ptrdiff_t)sizeof(w->drv))
		return;
	colon = strstr(sp + 1, ": ");
	if (!colon || colon == sp + 1 ||
	    memchr(sp + 1, ' ', (size_t)(colon - sp - 1)) ||
	    colon - sp - 1 >= CLASSIFY_DEV_MAX) {
		/* "[sdc] Unhandled error code" without the sd prefix */
		if (msg[0] == '[')
			classify_scsi_rest(msg, w);
		return;
	}
	classify_set(w->drv, msg, (size_t)(sp - msg));
	classify_set(name, sp + 1, (size_t)(colon - sp - 1));
	w->cls = kmsgtab_who_of_driver(w->drv, strlen(w->drv));
	/* "SQUASHFS error: ...": an unknown driver's device has a number */
	if (w->cls == KMSGTAB_WHO_NONE && !strpbrk(name, "0123456789"))
		return;
	/*
	 * "VGsd 6:0:0:0:": a web page glued its own letters to every line;
	 * the driver is what follows them
	 */
	if (w->cls == KMSGTAB_WHO_NONE) {
		size_t k = 0;

		while (k < 4 && w->drv[k] >= 'A' && w->drv[k] <= 'Z')
			k++;
		if (k && kmsgtab_who_of_driver(w->drv + k,
					       strlen(w->drv + k)) !=
		    KMSGTAB_WHO_NONE) {
			memmove(w->drv, w->drv + k, strlen(w->drv + k) + 1);
			w->cls = kmsgtab_who_of_driver(w->drv, strlen(w->drv));
		}
	}
	switch (w->cls) {
	case KMSGTAB_WHO_SCSI:
		p = classify_scsi_rest(colon + 2, w);
		/* 3.x printed the prefix and the text as two lines */
		while (*p == ' ')
			p++;
		if (!*p || !strcmp(p, "CDB:") || !strcmp(p, "CDB: ")) {
			w->empty = true;
			snprintf(w->rest, sizeof(w->rest), "%s", *p ? "CDB:" : "");
		}
		if (!strncmp(name, "host", 4) && name[4] >= '0' &&
		    name[4] <= '9') {
			w->host = atoi(name + 4);
			if (!w->disk[0]) {
				const char *d = classify_map_host(c, w->host);

				if (d)
					classify_set(w->disk, d, strlen(d));
			}
			classify_set(w->dev, name, strlen(name));
		} else if (classify_is_scsi_addr(name)) {
			classify_set(w->scsi, name, strlen(name));
			w->host = atoi(name);
			if (w->disk[0]) {
				classify_map_add(c, name, w->disk);
			} else if (!w->disk[0]) {
				const char *d = classify_map_find(c, name);

				if (d)
					classify_set(w->disk, d, strlen(d));
			}
			classify_set(w->dev, w->disk[0] ? w->disk : name,
				     strlen(w->disk[0] ? w->disk : name));
		} else {
			classify_set(w->dev, name, strlen(name));
		}
		break;
	case KMSGTAB_WHO_USB:
		classify_set(w->usb, name, strlen(name));
		classify_usb_name(w->usb);
		classify_set(w->dev, w->usb, strlen(w->usb));
		break;
	case KMSGTAB_WHO_HCD:
	case KMSGTAB_WHO_ANY:
	case KMSGTAB_WHO_NONE:
		classify_set(w->dev, name, strlen(name));
		break;
	}
}

/* --- time and closeness --------------------------------------------------- */

/* Is rec within window seconds (or CLASSIFY_LINES_WINDOW lines) of h? */
static bool classify_near(const struct classify_held *h,
			  const struct kmsg_record *rec, double window)
{
	if (rec->clock != KMSG_CLOCK_NONE && rec->clock == h->last_clock) {
		double dt = rec->t - h->last_t;

		return dt >= -1.0 && dt <= window;
	}
	return rec->file == h->last_file &&
	       rec->lineno >= h->last_line &&
	       rec->lineno - h->last_line <= CLASSIFY_LINES_WINDOW;
}

static bool classify_chain_near(const struct classify *c,
				const struct kmsg_record *rec)
{
	if (rec->clock != KMSG_CLOCK_NONE && rec->clock == c->chain_clock)
		return rec->t - c->chain_t <= CLASSIFY_CHAIN_WINDOW &&
		       rec->t - c->chain_t >= -1.0;
	return rec->lineno >= c->chain_line &&
	       rec->lineno - c->chain_line <= 4 * CLASSIFY_LINES_WINDOW;
}

/* rec is one more line of h */
static void classify_touch(const struct classify *c, struct classify_held *h,
			   const struct kmsg_record *rec, uint64_t ref)
{
	struct classify_incident *inc = &h->inc;

	h->last_t = rec->t;
	h->last_clock = rec->clock;
	h->last_line = rec->lineno;
	h->last_file = rec->file;
	h->last_msg = c->st.messages;
	if (rec->lineno > inc->line_last)
		inc->line_last = rec->lineno;
	if (rec->clock == inc->clock && rec->t > inc->t_last)
		inc->t_last = rec->t;
	inc->nlines++;
	if (inc->nrefs < CLASSIFY_REFS_MAX)
		inc->refs[inc->nrefs++] = ref;
}

/* --- the held incidents --------------------------------------------------- */

/*
 * The chain ended (recovered, offline, or its window passed).  Its
 * timeout stays open a while: the commands the handler gave back end
 * with their DID_TIME_OUT after the recovery.
 */
static void classify_close_chain(struct classify *c)
{
	unsigned int i;

	for (i = 0; i < c->n; i++) {
		struct classify_held *h = classify_at(c, i);

		if (h->inc.chain != c->chain)
			continue;
		if (h->inc.kind == CLASSIFY_TIMEOUT)
			h->window = CLASSIFY_REPEAT_WINDOW;
		else if (h->window > CLASSIFY_CMD_WINDOW)
			h->window = CLASSIFY_CMD_WINDOW;
	}
	if (c->chain) {
		c->last_chain = c->chain;
		classify_set(c->last_chain_disk, c->chain_disk,
			     strlen(c->chain_disk));
	}
	c->chain = 0;
}

/* Close what no later line than rec can belong to. */
static void classify_close_stale(struct classify *c,
				 const struct kmsg_record *rec)
{
	unsigned int i;

	if (c->chain && !classify_chain_near(c, rec))
		classify_close_chain(c);
	for (i = 0; i < c->n; i++) {
		struct classify_held *h = classify_at(c, i);

		if (!h->closed && !classify_near(h, rec, h->window))
			h->closed = true;
	}
}

/*
 * "N callbacks suppressed" is printed by the rate limit as the next
 * message gets through (___ratelimit() in lib/ratelimit.c), just before
 * it: it belongs to the incident that message is part of, the next
 * command's "FAILED Result:" or the open command's "I/O error, dev",
 * if that message comes at once.  @h has just taken the message.
 */
static void classify_take_suppressed(struct classify *c,
				     struct classify_held *h,
				     const struct kmsg_record *rec)
{
	struct classify_held *s = NULL;
	unsigned int i, k;

	if (!h->cmd && h->inc.kind != CLASSIFY_FS_ERROR)
		return;
	/* the message right before this one, within a second */
	for (i = c->n, k = 0; i-- > 0 && k < 2; k++) {
		s = classify_at(c, i);
		if (s != h && s->inc.kind == CLASSIFY_SUPPRESSED)
			break;
		s = NULL;
	}
	if (!s || s->dropped || s->last_msg + 1 != c->st.messages ||
	    !classify_near(s, rec, 1.0))
		return;
	s->dropped = true;
	s->closed = true;
	h->inc.suppressed += s->inc.count > 0 ? s->inc.count : 0;
	if (s->inc.file == h->inc.file &&
	    s->inc.line_first < h->inc.line_first)
		h->inc.line_first = s->inc.line_first;
	h->inc.nlines += s->inc.nlines;
	for (i = 0; i < s->inc.nrefs && h->inc.nrefs < CLASSIFY_REFS_MAX; i++)
		h->inc.refs[h->inc.nrefs++] = s->inc.refs[i];
}

static bool classify_pop(struct classify *c, struct classify_incident *out);
static struct classify_device *classify_dev_usb(struct classify *c,
						const char *usb, bool add);

static struct classify_held *classify_open(struct classify *c,
					   enum classify_kind kind,
					   const struct kmsg_record *rec,
					   uint64_t ref,
					   const struct classify_who *w,
					   const char *msg,
					   const struct kmsgtab_row *row)
{
	struct classify_held *h;
	struct classify_incident *inc;

	if (c->n == CLASSIFY_HELD) {
		/*
		 * Full (a chain's timeout keeps older incidents waiting
		 * behind it): the oldest goes out now, complete or not.
		 */
		struct classify_incident *r = &c->ready[(c->ready_head +
						c->nready) % CLASSIFY_READY];

		classify_at(c, 0)->closed = true;
		if (c->nready < CLASSIFY_READY && classify_pop(c, r))
			c->nready++;
		else if (c->nready == CLASSIFY_READY)
			c->st.lost++;
	}
	h = classify_at(c, c->n++);
	memset(h, 0, sizeof(*h));
	inc = &h->inc;
	classify_incident_init(inc, kind);
	h->tag = w->tag;
	h->window = CLASSIFY_CMD_WINDOW;
	h->provisional = CLASSIFY_IO_ERROR;
	h->implied_key = -1;
	classify_set(inc->dev, w->dev, strlen(w->dev));
	classify_set(inc->disk, w->disk, strlen(w->disk));
	classify_set(inc->usb, w->usb, strlen(w->usb));
	classify_set(inc->scsi, w->scsi, strlen(w->scsi));
	inc->host = w->host;
	inc->t = inc->t_last = rec->t;
	inc->clock = rec->clock;
	inc->wall = rec->wall;
	inc->wall_clock = rec->wall_clock;
	inc->file = rec->file;
	inc->line_first = inc->line_last = rec->lineno;
	if (row)
		classify_set(inc->row, row->id, strlen(row->id));
	classify_set(inc->line, msg, strlen(msg));
	classify_touch(c, h, rec, ref);
	return h;
}

/* The newest open incident that pred accepts. */
typedef bool (*classify_pred)(const struct classify_held *h,
			      const void *arg);

static struct classify_held *classify_find(struct classify *c,
					   const struct kmsg_record *rec,
					   classify_pred pred, const void *arg)
{
	unsigned int i;

	for (i = c->n; i-- > 0;) {
		struct classify_held *h = classify_at(c, i);

		if (!h->closed && classify_near(h, rec, h->window) &&
		    pred(h, arg))
			return h;
	}
	return NULL;
}

/* --- chains ------------------------------------------------------------- */

static void classify_chain_note(struct classify *c,
				const struct kmsg_record *rec)
{
	c->chain_t = rec->t;
	c->chain_clock = rec->clock;
	c->chain_line = rec->lineno;
}

/* Put h into the open chain (or a new one if open); false if none. */
static bool classify_chain_join(struct classify *c, struct classify_held *h,
				const struct kmsg_record *rec, bool open)
{
	struct classify_incident *inc = &h->inc;
	const char *disk = inc->disk[0] ? inc->disk : NULL;

	if (c->chain && disk && c->chain_disk[0] &&
	    strcmp(disk, c->chain_disk)) {
		if (!open)
			return false;
		classify_close_chain(c);
	}
	if (!c->chain) {
		if (!open)
			return false;
		c->chain = c->next_chain++;
		c->chain_disk[0] = '\0';
	}
	if (disk && !c->chain_disk[0])
		classify_set(c->chain_disk, disk, strlen(disk));
	if (!inc->disk[0])
		classify_set(inc->disk, c->chain_disk, strlen(c->chain_disk));
	inc->chain = c->chain;
	classify_chain_note(c, rec);
	return true;
}

static bool classify_is_chain_timeout(const struct classify_held *h,
				      const void *arg)
{
	const struct classify *c = arg;

	return h->inc.kind == CLASSIFY_TIMEOUT && c->chain &&
	       h->inc.chain == c->chain;
}

/* The open chain's timeout for disk, if the chain has one. */
static struct classify_held *classify_chain_timeout(struct classify *c,
						    const char *disk)
{
	unsigned int i;

	if (!c->chain || (disk[0] && c->chain_disk[0] &&
			  strcmp(disk, c->chain_disk)))
		return NULL;
	for (i = c->n; i-- > 0;) {
		struct classify_held *h = classify_at(c, i);

		if (!h->closed && classify_is_chain_timeout(h, c))
			return h;
	}
	return NULL;
}

/*
 * A DID_TIME_OUT's timeout: the open chain's, or that of the chain that
 * just recovered, whose commands end after it.
 */
static struct classify_held *classify_result_timeout_of(struct classify *c,
							const char *disk)
{
	struct classify_held *h = classify_chain_timeout(c, disk);
	unsigned int i;

	if (h || c->chain || !c->last_chain ||
	    (disk[0] && c->last_chain_disk[0] &&
	     strcmp(disk, c->last_chain_disk)))
		return h;
	for (i = c->n; i-- > 0;) {
		h = classify_at(c, i);
		if (!h->closed && h->inc.kind == CLASSIFY_TIMEOUT &&
		    h->inc.chain == c->last_chain)
			return h;
	}
	return NULL;
}

#define CLASSIFY_BURST		1.0	/* s between the aborts of a burst */

/* Is rec within a burst of the chain's last abort? */
static bool classify_abort_burst(const struct classify *c,
				 const struct kmsg_record *rec)
{
	if (rec->clock != KMSG_CLOCK_NONE && rec->clock == c->abort_clock)
		return rec->t - c->abort_t <= CLASSIFY_BURST;
	return rec->lineno - c->abort_line <= 4;
}

/* --- values from a match ------------------------------------------------- */

static bool classify_value(const struct kmsgtab_match *m,
			   enum kmsgtab_field f, char *buf, size_t size)
{
	size_t n;
	const char *s = kmsgtab_value(m, f, &n);

	if (!s)
		return false;
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	util_copy(buf, size, s, n);
	return true;
}

/* A number field: decimal, or hex with 0x (or hex if the row says so). */
static bool classify_num(const struct kmsgtab_match *m, enum kmsgtab_field f,
			 int base, long long *v)
{
	char buf[40], *end;

	if (!classify_value(m, f, buf, sizeof(buf)) || !buf[0])
		return false;
	errno = 0;
	if (buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X'))
		*v = strtoll(buf + 2, &end, 16);
	else
		*v = strtoll(buf, &end, base);
	return end != buf && !errno;
}

/*
 * 2.4 names a disk by its number, "08:00" (hex major:minor): the SCSI
 * disks' majors are 8 and 65-71, 16 minors a disk
 * (Documentation/admin-guide/devices.txt).
 */
static void classify_devno_name(char *buf, size_t size)
{
	unsigned int major, minor, disk;
	char tail;

	if (strlen(buf) != 5 || sscanf(buf, "%2x:%2x%c", &major, &minor,
					&tail) != 2)
		return;
	if (major == 8)
		disk = minor / 16;
	else if (major >= 65 && major <= 71)
		disk = (major - 64) * 16 + minor / 16;
	else
		return;
	if (disk < 26)
		snprintf(buf, size, "sd%c", 'a' + disk);
	else
		snprintf(buf, size, "sd%c%c", 'a' + disk / 26 - 1,
			 'a' + disk % 26);
}

/* The disk a field names: "sdc1" -> disk "sdc", the partition kept. */
static bool classify_disk_field(const struct kmsgtab_match *m,
				char *disk, char *part)
{
	char buf[CLASSIFY_DEV_MAX];

	if (!classify_value(m, KMSGTAB_F_DISK, buf, sizeof(buf)) || !buf[0])
		return false;
	/*
	 * A path (ZFS's vdev=): /dev/sdc1 is sdc1; a link's name
	 * (/dev/disk/by-id/usb-...) is no kernel name
	 */
	if (!strncmp(buf, "/dev/", 5)) {
		if (strchr(buf + 5, '/'))
			return false;
		memmove(buf, buf + 5, strlen(buf + 5) + 1);
	}
	classify_devno_name(buf, sizeof(buf));
	/* 2.6 printed the driver's "sd" or "sd00:00" where no disk was known */
	if (!strncmp(buf, "sd", 2) && (buf[2] < 'a' || buf[2] > 'z'))
		return false;
	/* "sdc1-8" is jbd2's journal of sdc1 */
	if (strchr(buf, '-') && strncmp(buf, "dm-", 3))
		*strchr(buf, '-') = '\0';
	if (part)
		util_copy(part, CLASSIFY_DEV_MAX, buf, strlen(buf));
	classify_whole_disk(buf);
	util_copy(disk, CLASSIFY_DEV_MAX, buf, strlen(buf));
	return true;
}

/* --- the parts of a failed command ---------------------------------------- */

struct classify_cmd_arg {
	const char *disk;
	int tag;
	unsigned int part;
	unsigned long msg;	/* the message's number (c->st.messages) */
	long long sector;	/* the block layer's, or -1 */
	bool again;		/* 2.4 scsi_lib's print of the same request */
};

/*
 * The message's number for the parts that must follow a command's at
 * once: a "callbacks suppressed" right before it is no gap.
 */
static unsigned long classify_msg_no(const struct classify *c)
{
	if (c->suppressed_msg && c->suppressed_msg + 1 == c->st.messages)
		return c->st.messages - 1;
	return c->st.messages;
}

/* Does the open command h take part a->part of a->disk? */
static bool classify_cmd_takes(const struct classify_held *h, const void *arg)
{
	const struct classify_cmd_arg *a = arg;

	if (!h->cmd)
		return false;
	if (a->disk[0] && h->inc.disk[0] && strcmp(a->disk, h->inc.disk))
		return false;
	if (a->tag >= 0 && h->tag >= 0 && a->tag != h->tag)
		return false;
	/* the data lost: lines that follow the command's own at once */
	if (a->part == CLASSIFY_P_LOST)
		return (h->parts & ~(unsigned int)CLASSIFY_P_CDB) != 0 &&
		       h->last_msg + 1 == a->msg;
	/* the block layer's line comes right after the SCSI lines */
	if (a->part == CLASSIFY_P_BLK && h->last_msg + 2 < a->msg)
		return false;
	/* the sense bytes in hex and the information field come anywhere */
	if (a->part == CLASSIFY_P_HEX || a->part == CLASSIFY_P_INFO)
		return !(h->parts & a->part);
	/*
	 * uas_zap_pending() and the abort handlers print the command they
	 * give back (its CDB); its completion, with the same tag, then
	 * prints its Result and its CDB again (scsi_io_completion())
	 */
	if (a->tag >= 0 && h->tag == a->tag && h->failed_start &&
	    ((a->part == CLASSIFY_P_RESULT && !(h->parts & a->part) &&
	      (h->parts & CLASSIFY_P_CDB)) ||
	     (a->part == CLASSIFY_P_CDB && h->reprint)))
		return true;
	/* 2.4 printed a failed request twice: the block layer, scsi_lib */
	if (a->part == CLASSIFY_P_BLK && a->again && a->sector >= 0 &&
	    (h->parts & CLASSIFY_P_BLK) && h->inc.sector == a->sector)
		return true;
	/* a part it has, or one after it, is the next command's */
	return !(h->parts & ~(a->part - 1) &
		 ~(unsigned int)(CLASSIFY_P_HEX | CLASSIFY_P_INFO));
}

/* The open command of the block layer's sector (512-byte units) */
static bool classify_cmd_takes_sector(const struct classify_held *h,
				      const void *arg)
{
	const struct classify_cmd_arg *a = arg;

	return classify_cmd_takes(h, arg) && h->inc.lba >= 0 &&
	       (h->inc.lba == a->sector || h->inc.lba * 8 == a->sector);
}

/* The CDB line after "uas_eh_abort_handler": the abort's */
static bool classify_abort_takes_cdb(const struct classify_held *h,
				     const void *arg)
{
	const struct classify_cmd_arg *a = arg;

	return h->inc.kind == CLASSIFY_ABORT && !(h->parts & CLASSIFY_P_CDB) &&
	       (!a->disk[0] || !strcmp(a->disk, h->inc.disk)) &&
	       (a->tag < 0 || h->tag < 0 || a->tag == h->tag);
}

/* The ATA PASS-THROUGH commands of smartctl, hdparm and udisks */
static bool classify_is_pass_through(int opcode)
{
	return opcode == 0x85 || opcode == 0xa1;
}

/* Hostbyte names (include/scsi/scsi_status.h enum scsi_host_status) */
static const char *const classify_hostbytes[] = {
	"DID_OK", "DID_NO_CONNECT", "DID_BUS_BUSY", "DID_TIME_OUT",
	"DID_BAD_TARGET", "DID_ABORT", "DID_PARITY", "DID_ERROR", "DID_RESET",
	"DID_BAD_INTR", "DID_PASSTHROUGH", "DID_SOFT_ERROR", "DID_IMM_RETRY",
	"DID_REQUEUE", "DID_TRANSPORT_DISRUPTED", "DID_TRANSPORT_FAILFAST",
	"DID_TARGET_FAILURE", "DID_NEXUS_FAILURE", "DID_ALLOC_FAILURE",
	"DID_MEDIUM_ERROR", "DID_TRANSPORT_MARGINAL",
};

/* Driver bytes of kernels before 5.14 (include/scsi/scsi.h) */
static const char *const classify_driverbytes[] = {
	"DRIVER_OK", "DRIVER_BUSY", "DRIVER_SOFT", "DRIVER_MEDIA",
	"DRIVER_ERROR", "DRIVER_INVALID", "DRIVER_TIMEOUT", "DRIVER_HARD",
	"DRIVER_SENSE",
};

/* "0x07" -> "DID_ERROR": old kernels print the number */
static void classify_byte_name(char *buf, size_t size,
			       const char *const *names, size_t n)
{
	const char *p = buf;
	char *end;
	long v;

	/* "0x07", or "07" after a format's own "0x" */
	if (!strncmp(p, "0x", 2))
		p += 2;
	if (!*p || strspn(p, "0123456789abcdefABCDEF") != strlen(p) ||
	    strlen(p) > 2)
		return;
	v = strtol(p, &end, 16);
	if (*end || v < 0 || (size_t)v >= n)
		return;
	snprintf(buf, size, "%s", names[v]);
}

static bool classify_result_timeout(const struct classify_incident *inc)
{
	return !strcmp(inc->hostbyte, "DID_TIME_OUT") ||
	       !strcmp(inc->driverbyte, "DRIVER_TIMEOUT");
}

/* "xx": two hex digits and nothing else */
static bool classify_hex_byte(const char *p, size_t n)
{
	return n == 2 && util_hexval(p[0]) >= 0 &&
	       util_hexval(p[1]) >= 0;
}

/*
 * A CDB as the kernel prints it: the command's name (which may have
 * spaces: "ATA command pass through(12)/Blank"), then the bytes in hex
 * ("CDB: Write(10) 2a 00 ...", 3.x "Write(10): 2a 00 ...", without
 * constants "opcode=0x28 28 00 ...", 2.6 "cdb[0]=0x28: 28 00 ...").
 */
static void classify_cdb(struct classify_incident *inc, const char *s)
{
	unsigned char b[32];
	unsigned int n = 0, i;
	const char *p = s, *name_end = NULL;

	while (*p && n < sizeof(b)) {
		const char *tok;
		size_t len;

		while (*p == ' ')
			p++;
		tok = p;
		len = strcspn(p, " ");
		p += len;
		if (classify_hex_byte(tok, len)) {
			if (!n)
				name_end = tok;
			b[n++] = (unsigned char)(util_hexval(tok[0]) << 4 |
						 util_hexval(tok[1]));
		} else if (n) {
			break;		/* the bytes have ended */
		}
	}
	/* the name, where the row's %s took only its first word */
	if (name_end && name_end > s) {
		size_t l = (size_t)(name_end - s);

		while (l && (s[l - 1] == ' ' || s[l - 1] == ':'))
			l--;
		if (l > strlen(inc->opcode_name) && strncmp(s, "opcode=", 7) &&
		    strncmp(s, "cdb[", 4))
			classify_set(inc->opcode_name, s, l);
	}
	if (!n)
		return;
	inc->opcode = b[0];
	if (classify_is_pass_through(b[0]))
		return;
	switch (b[0]) {
	case 0x08: case 0x0a:		/* READ/WRITE(6) */
		if (n >= 5) {
			inc->lba = ((b[1] & 0x1f) << 16) | (b[2] << 8) | b[3];
			inc->blocks = b[4] ? b[4] : 256;
		}
		break;
	case 0x28: case 0x2a: case 0x2e: case 0x2f: case 0x35: case 0x41:
		if (n >= 9) {		/* 10-byte */
			inc->lba = ((int64_t)b[2] << 24) | (b[3] << 16) |
				   (b[4] << 8) | b[5];
			inc->blocks = (b[7] << 8) | b[8];
		}
		break;
	case 0xa8: case 0xaa: case 0xae: case 0xaf:
		if (n >= 10) {		/* 12-byte */
			inc->lba = ((int64_t)b[2] << 24) | (b[3] << 16) |
				   (b[4] << 8) | b[5];
			inc->blocks = ((int64_t)b[6] << 24) | (b[7] << 16) |
				      (b[8] << 8) | b[9];
		}
		break;
	case 0x88: case 0x8a: case 0x8e: case 0x8f: case 0x91: case 0x93:
		if (n >= 14) {		/* 16-byte */
			uint64_t lba = 0;

			/* unsigned: 8 bytes of a garbled CDB may set the top bit */
			for (i = 2; i < 10; i++)
				lba = (lba << 8) | b[i];
			inc->lba = (int64_t)lba;
			inc->blocks = ((int64_t)b[10] << 24) | (b[11] << 16) |
				      (b[12] << 8) | b[13];
		}
		break;
	default:
		break;
	}
}

/* "Not Ready", "0x2", "Vendor Specific(9)" -> the key */
static void classify_key(struct classify_incident *inc, const char *s)
{
	int k;

	for (k = 0; k < 16; k++) {
		const char *t = classify_sense_key_text(k);

		if (t && !strcasecmp(s, t)) {
			inc->key = k;
			inc->key_text = t;
			return;
		}
	}
	if (!strncasecmp(s, "Vendor Specific", 15)) {
		inc->key = 9;
	} else if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		k = (int)strtol(s + 2, NULL, 16);
		if (k >= 0 && k < 16)
			inc->key = k;
	} else if (s[0] && strspn(s, "0123456789abcdefABCDEF") == strlen(s) &&
		   strlen(s) <= 2) {
		/* "Sense Key : 0x%x": the format's own "0x" is gone */
		k = (int)strtol(s, NULL, 16);
		if (k >= 0 && k < 16)
			inc->key = k;
	}
	inc->key_text = classify_sense_key_text(inc->key);
}

static void classify_asc_from_text(struct classify_incident *inc,
				   const char *text)
{
	classify_set(inc->asc_text, text, strlen(text));
	if (classify_asc_lookup(text, &inc->asc, &inc->ascq))
		inc->asc = inc->ascq = -1;
}

static void classify_asc_from_numbers(struct classify_incident *inc,
				      long long asc, long long ascq)
{
	const char *t;

	if (asc < 0 || asc > 255 || ascq < 0 || ascq > 255)
		return;
	inc->asc = (int)asc;
	inc->ascq = (int)ascq;
	t = classify_asc_text(inc->asc, inc->ascq);
	if (t)
		classify_set(inc->asc_text, t, strlen(t));
	else
		snprintf(inc->asc_text, sizeof(inc->asc_text),
			 "%sASC=0x%x ASCQ=0x%x", asc >= 0x80 || ascq >= 0x80 ?
			 "<<vendor>>" : "", inc->asc, inc->ascq);
}

/* Raw sense bytes in hex ("70 00 03 00 ..."), through the shared parser */
static void classify_sense_hex(struct classify_incident *inc, const char *s)
{
	__u8 b[96];
	unsigned int n = 0;
	struct ut_sense sn;

	while (*s && n < sizeof(b)) {
		char *end;
		unsigned long v;

		while (*s == ' ' || *s == ':')
			s++;
		v = strtoul(s, &end, 16);
		if (end == s || end - s > 2)
			break;
		b[n++] = (__u8)v;
		s = end;
	}
	ut_sense_parse(b, n, &sn);
	if (sn.has_key && inc->key < 0) {
		inc->key = sn.key;
		inc->key_text = classify_sense_key_text(sn.key);
	}
	if (sn.has_asc && inc->asc < 0)
		classify_asc_from_numbers(inc, sn.asc, sn.ascq);
	if (sn.info_valid && inc->info < 0)
		inc->info = (int64_t)sn.info;
}

/*
 * One more line of lost data: "Buffer I/O error on dev sdc1, logical
 * block N" counts a block; 3.x's "lost page write due to I/O error on
 * sdc1" that follows it says the same block, and counts only alone.
 */
static void classify_lost_block(struct classify_incident *inc,
				const struct kmsgtab_match *m)
{
	long long v;

	if (classify_num(m, KMSGTAB_F_BLOCK, 10, &v) && v >= 0) {
		if (inc->lost_first < 0)
			inc->lost_first = v;
		inc->lost_blocks++;
	} else if (inc->lost_blocks <= 0) {
		inc->lost_blocks = 1;
	}
}

/* What a part says, into the command's incident. */
/* "DID_TIME_OUT" from the line, or from 2.6's "return code = 0x08000002" */
static void classify_fill_result(struct classify_incident *inc,
				 const struct kmsgtab_match *m)
{
	const size_t nhost = sizeof(classify_hostbytes) /
			     sizeof(classify_hostbytes[0]);
	const size_t ndriver = sizeof(classify_driverbytes) /
			       sizeof(classify_driverbytes[0]);
	long long v;

	if (classify_value(m, KMSGTAB_F_HOSTBYTE, inc->hostbyte,
			   sizeof(inc->hostbyte)))
		classify_byte_name(inc->hostbyte, sizeof(inc->hostbyte),
				   classify_hostbytes, nhost);
	if (classify_value(m, KMSGTAB_F_DRIVERBYTE, inc->driverbyte,
			   sizeof(inc->driverbyte)))
		classify_byte_name(inc->driverbyte, sizeof(inc->driverbyte),
				   classify_driverbytes, ndriver);
	/* 2.6: "return code = 0x08000002": driver, host, msg, status */
	if (classify_num(m, KMSGTAB_F_RESULT, 16, &v) && v >= 0) {
		snprintf(inc->hostbyte, sizeof(inc->hostbyte), "0x%02llx",
			 (v >> 16) & 0xff);
		classify_byte_name(inc->hostbyte, sizeof(inc->hostbyte),
				   classify_hostbytes, nhost);
		snprintf(inc->driverbyte, sizeof(inc->driverbyte),
			 "0x%02llx", (v >> 24) & 0xff);
		classify_byte_name(inc->driverbyte, sizeof(inc->driverbyte),
				   classify_driverbytes, ndriver);
	}
}

/* The sense key line: the key, raw bytes, ASC/ASCQ if on it too */
static void classify_fill_key(struct classify_incident *inc,
			      const struct kmsgtab_match *m)
{
	char buf[CLASSIFY_LINE_MAX];
	long long v, v2;

	if (classify_value(m, KMSGTAB_F_KEY, buf, sizeof(buf)))
		classify_key(inc, buf);
	/* 2.4: "sns = 70 2 ..." and friends carry the bytes */
	if (classify_value(m, KMSGTAB_F_SENSE, buf, sizeof(buf)))
		classify_sense_hex(inc, buf);
	if (classify_num(m, KMSGTAB_F_ASC, 16, &v) &&
	    classify_num(m, KMSGTAB_F_ASCQ, 16, &v2))
		classify_asc_from_numbers(inc, v, v2);
	else if (classify_value(m, KMSGTAB_F_ASC_TEXT, buf, sizeof(buf)))
		classify_asc_from_text(inc, buf);
}

/* The ASC line: numbers, the kernel's text, or "<<vendor>>ASC=0x.." */
static void classify_fill_asc(struct classify_incident *inc,
			      const struct kmsgtab_match *m)
{
	char buf[CLASSIFY_LINE_MAX];
	long long v, v2;

	if (classify_num(m, KMSGTAB_F_ASC, 16, &v)) {
		if (!classify_num(m, KMSGTAB_F_ASCQ, 16, &v2))
			v2 = 0;
		classify_asc_from_numbers(inc, v, v2);
	} else if (classify_value(m, KMSGTAB_F_ASC_TEXT, buf, sizeof(buf))) {
		/* "Medium not present" or "ASC=0x11 ASCQ=0x4" */
		char *a = strstr(buf, "ASC=0x");
		char *q = strstr(buf, "ASCQ=0x");

		if (a && q)
			classify_asc_from_numbers(inc, strtoll(a + 6, NULL, 16),
						  strtoll(q + 7, NULL, 16));
		else
			classify_asc_from_text(inc, buf);
	}
}

/* The CDB line: the command's name as the kernel gives it, and its bytes */
static void classify_fill_cdb(struct classify_incident *inc,
			      const struct kmsgtab_match *m)
{
	char buf[CLASSIFY_LINE_MAX];
	size_t nl, cl, l;
	const char *nm = kmsgtab_value(m, KMSGTAB_F_OPCODE_NAME, &nl);
	const char *cb = kmsgtab_value(m, KMSGTAB_F_CDB, &cl);

	/* the name and the bytes, as one text again */
	if (nm && cb && cb >= nm)
		util_copy(buf, sizeof(buf), nm, (size_t)(cb - nm) + cl);
	else if (cb)
		util_copy(buf, sizeof(buf), cb, cl);
	else
		buf[0] = '\0';
	if (nm && cb && cb >= nm && strncmp(nm, "opcode=", 7) &&
	    strncmp(nm, "cdb[", 4))
		util_copy(inc->opcode_name, sizeof(inc->opcode_name), nm,
			  nl);
	l = strlen(inc->opcode_name);
	while (l && inc->opcode_name[l - 1] == ':')
		inc->opcode_name[--l] = '\0';
	classify_cdb(inc, buf);
}

/* The block layer's line: sector, operation, status */
static void classify_fill_blk(struct classify_incident *inc,
			      const struct kmsgtab_match *m)
{
	char buf[CLASSIFY_LINE_MAX];
	long long v;

	if (classify_num(m, KMSGTAB_F_SECTOR, 10, &v) && v >= 0)
		inc->sector = v;
	classify_value(m, KMSGTAB_F_OP, inc->op, sizeof(inc->op));
	if (classify_value(m, KMSGTAB_F_BLK_STATUS, buf, sizeof(buf))) {
		/* the leading %s takes any prefix: keep the words */
		char *w = strrchr(buf, ':');

		w = w ? w + 1 : buf;
		while (*w == ' ')
			w++;
		classify_set(inc->blk_status, w, strlen(w));
	}
}

/* One part of a failed command's report into its incident */
static void classify_cmd_fill(struct classify *c, struct classify_held *h,
			      unsigned int part, const struct kmsgtab_match *m)
{
	struct classify_incident *inc = &h->inc;
	char buf[CLASSIFY_LINE_MAX];
	long long v;

	switch (part) {
	case CLASSIFY_P_RESULT:
		classify_fill_result(inc, m);
		break;
	case CLASSIFY_P_KEY:
		classify_fill_key(inc, m);
		break;
	case CLASSIFY_P_ASC:
		classify_fill_asc(inc, m);
		break;
	case CLASSIFY_P_INFO:
		if (classify_num(m, KMSGTAB_F_INFO, 16, &v) && v >= 0)
			inc->info = v;
		break;
	case CLASSIFY_P_HEX:
		if (classify_value(m, KMSGTAB_F_SENSE, buf, sizeof(buf)))
			classify_sense_hex(inc, buf);
		break;
	case CLASSIFY_P_CDB:
		classify_fill_cdb(inc, m);
		break;
	case CLASSIFY_P_BLK:
		classify_fill_blk(inc, m);
		break;
	case CLASSIFY_P_LOST:
		classify_lost_block(inc, m);
		break;
	default:
		break;
	}
	(void)c;
	h->parts |= part;
}

static void classify_timeout_forced(struct classify *c,
				    struct classify_held *h,
				    const struct kmsg_record *rec)
{
	h->inc.kind = CLASSIFY_TIMEOUT;
	h->forced = true;
	if (h->inc.count < 1)
		h->inc.count = 1;
	if (classify_chain_join(c, h, rec, true))
		h->window = CLASSIFY_CHAIN_WINDOW;
}

/*
 * A part of a failed command.  It joins the open command of its disk and
 * tag that has not had it yet, or starts the next command.
 */
static struct classify_held *classify_cmd_join(struct classify *c,
					       const struct kmsg_record *rec,
					       uint64_t ref,
					       const struct classify_who *w,
					       const char *msg,
					       const struct kmsgtab_row *row,
					       const struct kmsgtab_match *m,
					       unsigned int part)
{
	struct classify_cmd_arg a = {
		w->disk, w->tag, part, classify_msg_no(c), -1,
		!strncmp(row->format, "I/O error: dev ", 15),
	};
	char disk[CLASSIFY_DEV_MAX] = "", partname[CLASSIFY_DEV_MAX] = "";
	struct classify_who who = *w;
	struct classify_held *h = NULL;
	struct classify_incident probe;

	if (classify_disk_field(m, disk, partname) && !who.disk[0]) {
		classify_set(who.disk, disk, strlen(disk));
		classify_set(who.dev, disk, strlen(disk));
	}
	a.disk = who.disk;
	if (part == CLASSIFY_P_CDB) {
		h = classify_find(c, rec, classify_abort_takes_cdb, &a);
		if (!h)
			h = classify_find(c, rec, classify_cmd_takes, &a);
		if (h) {
			h->reprint = false;
			classify_touch(c, h, rec, ref);
			classify_cmd_fill(c, h, part, m);
			return h;
		}
		/* the start of a report cut off above: kept only if more
		 * of it follows (classify_cmd_finish()) */
	}
	if (part == CLASSIFY_P_RESULT) {
		/* a DID_TIME_OUT of a chain that has its timeout: the same */
		classify_incident_init(&probe, CLASSIFY_IO_ERROR);
		{
			struct classify_held tmp = { .inc = probe };

			classify_cmd_fill(c, &tmp, part, m);
			probe = tmp.inc;
		}
		if (classify_result_timeout(&probe)) {
			h = classify_result_timeout_of(c, who.disk);
			/*
			 * The commands the handler gives back complete
			 * together: one that completes seconds after the
			 * last is another timeout, not the same one
			 */
			if (h && (h->parts & CLASSIFY_P_RESULT) &&
			    !classify_near(h, rec, CLASSIFY_CMD_WINDOW))
				h = NULL;
			if (h) {
				h->inc.inferred = false;
				h->inc.count = h->inc.count > 0 ?
					       h->inc.count + 1 : 1;
				h->parts = CLASSIFY_P_START;
				h->cmd = true;
				h->tag = who.tag;
				classify_touch(c, h, rec, ref);
				classify_cmd_fill(c, h, part, m);
				classify_chain_note(c, rec);
				return h;
			}
		}
	}
	if (!h && part == CLASSIFY_P_BLK) {
		long long v;

		/* of several open commands, the one whose LBA it names */
		if (classify_num(m, KMSGTAB_F_SECTOR, 10, &v)) {
			a.sector = v;
			h = classify_find(c, rec, classify_cmd_takes_sector, &a);
		}
	}
	if (!h)
		h = classify_find(c, rec, classify_cmd_takes, &a);
	if (h && part == CLASSIFY_P_RESULT && (h->parts & CLASSIFY_P_CDB))
		h->reprint = true;
	if (!h && !who.disk[0] && (part == CLASSIFY_P_ASC ||
				   part == CLASSIFY_P_INFO)) {
		/* 2.6 "Additional sense:" names no disk: the open command's */
		a.disk = "";
		h = classify_find(c, rec, classify_cmd_takes, &a);
	}
	if (!h && !who.disk[0] && !who.scsi[0] && who.cls == KMSGTAB_WHO_NONE &&
	    c->last_disk[0]) {
		/* "SCSI error : return code = ..." (2.6): the last disk named */
		classify_set(who.disk, c->last_disk, strlen(c->last_disk));
		classify_set(who.dev, c->last_disk, strlen(c->last_disk));
	}
	if (h) {
		classify_touch(c, h, rec, ref);
		if (!h->inc.disk[0] && who.disk[0]) {
			classify_set(h->inc.disk, who.disk, strlen(who.disk));
			/* "sd 3:0:0:0: SCSI error" then "dev sda": the same */
			if (h->inc.scsi[0])
				classify_map_add(c, h->inc.scsi, who.disk);
			if (!strcmp(h->inc.dev, h->inc.scsi))
				classify_set(h->inc.dev, who.disk,
					     strlen(who.disk));
		}
	} else {
		h = classify_open(c, CLASSIFY_IO_ERROR, rec, ref, &who, msg,
				  row);
		h->cmd = true;
		classify_take_suppressed(c, h, rec);
	}
	if (part == CLASSIFY_P_LOST && partname[0] && !h->inc.part[0])
		classify_set(h->inc.part, partname, strlen(partname));
	classify_cmd_fill(c, h, part, m);
	if (part == CLASSIFY_P_RESULT && classify_result_timeout(&h->inc) &&
	    !h->forced)
		classify_timeout_forced(c, h, rec);
	return h;
}

/* The part of a failed command, with a "callbacks suppressed" before it */
static struct classify_held *classify_cmd_part(struct classify *c,
					       const struct kmsg_record *rec,
					       uint64_t ref,
					       const struct classify_who *w,
					       const char *msg,
					       const struct kmsgtab_row *row,
					       const struct kmsgtab_match *m,
					       unsigned int part)
{
	struct classify_held *h = classify_cmd_join(c, rec, ref, w, msg, row,
						    m, part);

	if (h)
		classify_take_suppressed(c, h, rec);
	return h;
}

/* Is h an fs-error of lost data on the same partition? */
static bool classify_lost_takes(const struct classify_held *h,
				const void *arg)
{
	const char *part = arg;

	return h->inc.kind == CLASSIFY_FS_ERROR && h->inc.lost_blocks > 0 &&
	       !strcmp(h->inc.part, part);
}

/* "Buffer I/O error on dev sdc1, logical block N", "lost page write" */
static bool classify_row_is_lost(const struct kmsgtab_row *row)
{
	return strstr(row->format, "Buffer I/O error") ||
	       strstr(row->format, "lost page write");
}

/*
 * A host controller that does not come up: the PCI quirk's handoff
 * timing out (quirk_usb_handoff_xhci()), usb_add_hcd()'s "can't setup"
 * and "startup error", usb_hcd_pci_probe()'s "init ... fail" after them
 */
static bool classify_row_is_probe(const struct kmsgtab_row *row)
{
	return row->kind == CLASSIFY_XHCI_ERROR &&
	       (strstr(row->format, "HW not ready") ||
		strstr(row->format, "can't setup") ||
		strstr(row->format, "startup error") ||
		strstr(row->format, "init %s fail"));
}

/*
 * xhci_setup_device() failing the address step of an enumeration: its
 * command times out after 5 s (XHCI_CMD_DEFAULT_TIMEOUT), and
 * hub_port_init() tries again, so its repeats are seconds apart
 */
static bool classify_row_is_setup(const struct kmsgtab_row *row)
{
	return row->kind == CLASSIFY_XHCI_ERROR &&
	       (strstr(row->format, "setup device command") ||
		strstr(row->format, "Setup ERROR: setup") ||
		strstr(row->format, "unexpected setup"));
}

static bool classify_probe_open(const struct classify_held *h,
				const void *arg)
{
	return h->probe && !strcmp(h->inc.dev, arg);
}

/* --- incidents of one line ------------------------------------------------ */

/* @h takes one more of its message, or of its attempt's */
static void classify_repeat(const struct classify *c, struct classify_held *h,
			    const struct kmsg_record *rec, uint64_t ref)
{
	classify_touch(c, h, rec, ref);
	h->inc.count = h->inc.count > 0 ? h->inc.count + 1 : 2;
}

/*
 * A new attempt at USB device @usb (hub_port_init()'s "new ... USB
 * device number", or its "reset ..."), or its disconnect: the failures
 * of the one before are one incident, and over; what it repeats from now
 * on is another device's (another device number's).
 */
static void classify_end_attempt(struct classify *c, const char *usb)
{
	unsigned int i;

	for (i = 0; usb[0] && i < c->n; i++) {
		struct classify_held *h = classify_at(c, i);
		enum classify_kind k = h->inc.kind;

		if ((k == CLASSIFY_ENUM_FAILURE || k == CLASSIFY_LINK_ERROR ||
		     k == CLASSIFY_POWER || k == CLASSIFY_OVER_CURRENT ||
		     k == CLASSIFY_UAS_IGNORED || k == CLASSIFY_RESET_FAILED) &&
		    !strcmp(h->inc.dev, usb))
			h->closed = true;
	}
}

struct classify_same_arg {
	enum classify_kind kind;
	const char *dev;
	const char *row;	/* NULL: any row */
};

static bool classify_same(const struct classify_held *h, const void *arg)
{
	const struct classify_same_arg *a = arg;

	return h->inc.kind == a->kind && !strcmp(h->inc.dev, a->dev) &&
	       (!a->row || !strcmp(h->inc.row, a->row));
}

static bool classify_scsi_reset_open(const struct classify_held *h,
				     const void *arg)
{
	(void)arg;
	return h->scsi_reset && h->inc.kind == CLASSIFY_RESET;
}

/*
 * -ENODEV, -ESHUTDOWN, -ENOENT, -ECONNRESET, -EPROTO's opposite: the URB
 * ended because the device or its URBs were gone, after a disconnect, a
 * reset or an unlink (Documentation/driver-api/usb/error-codes.rst).
 */
static bool classify_status_gone(const struct kmsgtab_match *m)
{
	long long v;

	if (!classify_num(m, KMSGTAB_F_STATUS, 10, &v) &&
	    !classify_num(m, KMSGTAB_F_ERR, 10, &v))
		return false;
	return v == -ENODEV || v == -ESHUTDOWN || v == -ENOENT ||
	       v == -ECONNRESET;
}

/*
 * "hub 1-0:1.0: unable to enumerate USB device on port 1" is about the
 * device on that port: 1-1 (a root hub's port n is BUS-n, another hub's
 * PATH.n).
 */
static void classify_hub_port(struct classify_who *w,
			      const struct kmsgtab_match *m)
{
	char path[CLASSIFY_DEV_MAX];
	long long port;

	if (strcmp(w->drv, "hub") || !w->usb[0] ||
	    !classify_num(m, KMSGTAB_F_PORT, 10, &port) || port < 1 ||
	    port > 255)
		return;
	if (!strncmp(w->usb, "usb", 3))
		snprintf(path, sizeof(path), "%.8s-%lld", w->usb + 3, port);
	else
		snprintf(path, sizeof(path), "%.32s.%lld", w->usb, port);
	classify_set(w->usb, path, strlen(path));
	classify_set(w->dev, path, strlen(path));
}

/* Fields any incident takes: errno, device number, port, code, slot. */
static void classify_common_fields(struct classify_incident *inc,
				   const struct kmsgtab_match *m)
{
	long long v;

	if ((classify_num(m, KMSGTAB_F_ERR, 10, &v) ||
	     classify_num(m, KMSGTAB_F_STATUS, 10, &v)) && v < 0 && v > -4096)
		inc->err = (int)-v;	/* MAX_ERRNO */
	if (classify_num(m, KMSGTAB_F_DEVNUM, 10, &v) && v >= 0 && v < 65536)
		inc->devnum = (int)v;
	if (classify_num(m, KMSGTAB_F_PORT, 10, &v) && v >= 0 && v < 256)
		inc->port = (int)v;
	if (classify_num(m, KMSGTAB_F_CODE, 10, &v) && v >= 0 && v <= 255)
		inc->code = (int)v;
	if (classify_num(m, KMSGTAB_F_COUNT, 10, &v) && v >= 0)
		inc->count = (long)v;
	classify_value(m, KMSGTAB_F_SPEED, inc->speed, sizeof(inc->speed));
}

/*
 * The open incident @pred accepts takes one more of its message; else
 * the message opens one.  Either way it stays open @window s.  True
 * when it opened one.
 */
static bool classify_repeat_or_open(struct classify *c,
				    const struct kmsg_record *rec,
				    uint64_t ref, const struct classify_who *w,
				    const char *msg,
				    const struct kmsgtab_row *row,
				    const struct kmsgtab_match *m,
				    classify_pred pred, const void *arg,
				    double window, struct classify_held **out)
{
	struct classify_held *h = classify_find(c, rec, pred, arg);
	bool opened = !h;

	if (h) {
		classify_repeat(c, h, rec, ref);
	} else {
		h = classify_open(c, row->kind, rec, ref, w, msg, row);
		classify_common_fields(&h->inc, m);
	}
	h->window = window;
	*out = h;
	return opened;
}

/* "device offline error, dev sda, sector 8": the block layer's word */
static bool classify_blk_offline(const struct kmsgtab_match *m)
{
	char buf[64];

	return classify_value(m, KMSGTAB_F_BLK_STATUS, buf, sizeof(buf)) &&
	       strstr(buf, "device offline");
}

/*
 * The disk was given up: "Device offlined", then "rejecting I/O to
 * offline device" for each request still queued: one incident.
 */
static void classify_offline(struct classify *c, const struct kmsg_record *rec,
			     uint64_t ref, const struct classify_who *w,
			     const char *msg, const struct kmsgtab_row *row)
{
	struct classify_same_arg same = {
		CLASSIFY_OFFLINE, w->disk[0] ? w->disk : w->dev, NULL,
	};
	struct classify_held *h = classify_find(c, rec, classify_same, &same);

	if (h) {
		classify_touch(c, h, rec, ref);
		h->inc.count = h->inc.count > 0 ? h->inc.count + 1 : 2;
		return;
	}
	h = classify_open(c, CLASSIFY_OFFLINE, rec, ref, w, msg, row);
	h->window = CLASSIFY_REPEAT_WINDOW;
	if (w->disk[0])
		classify_set(h->inc.dev, w->disk, strlen(w->disk));
	if (classify_chain_join(c, h, rec, false))
		classify_close_chain(c);
}

/* The line names its disk by a path (/dev/disk/by-id/...) */
static bool classify_named_by_path(const struct kmsgtab_match *m)
{
	size_t len = 0;
	const char *v = kmsgtab_value(m, KMSGTAB_F_DISK, &len);

	return v && len && *v == '/';
}

/*
 * The device of a line: the disk its fields name, or for the lines that
 * name none, the disk the lines before named.  part gets the partition.
 */
static void classify_row_device(struct classify *c, struct classify_who *w,
				const struct kmsgtab_row *row,
				const struct kmsgtab_match *m, char *part)
{
	char disk[CLASSIFY_DEV_MAX];

	if (classify_disk_field(m, disk, part) && !w->disk[0]) {
		classify_set(w->disk, disk, strlen(disk));
		if (!w->dev[0] || w->cls == KMSGTAB_WHO_NONE)
			classify_set(w->dev, disk, strlen(disk));
	}
	/*
	 * usb-storage of 2.6 and 3.x, "JBD2: ...", "blk_partition_remap:
	 * fail" name no device: the disk the lines before named (not for a
	 * line that names one by a path the log does not tie to a disk)
	 */
	if (!w->dev[0] && !w->disk[0] && c->last_disk[0] &&
	    !classify_named_by_path(m) &&
	    (row->kind == CLASSIFY_ABORT || row->kind == CLASSIFY_RESET ||
	     row->kind == CLASSIFY_TIMEOUT || row->kind == CLASSIFY_FS_ERROR ||
	     row->kind == CLASSIFY_IO_ERROR || row->kind == CLASSIFY_SENSE)) {
		classify_set(w->disk, c->last_disk, strlen(c->last_disk));
		classify_set(w->dev, c->last_disk, strlen(c->last_disk));
	}
	classify_hub_port(w, m);
}

/*
 * A line that says a command failed: the block layer's (it has the
 * sector), a sense print (the key), or one that starts the report
 * ("Unhandled sense code", uas_zap_pending)
 */
static void classify_on_failed(struct classify *c, const struct kmsg_record *rec,
			       uint64_t ref, struct classify_who *w,
			       const char *msg, const struct kmsgtab_row *row,
			       const struct kmsgtab_match *m)
{
	struct classify_held *h;

	if (classify_blk_offline(m)) {
		/* BLK_STS_OFFLINE: the disk's offlining, again */
		classify_offline(c, rec, ref, w, msg, row);
	} else if (kmsgtab_value(m, KMSGTAB_F_SECTOR, &(size_t){ 0 })) {
		classify_cmd_part(c, rec, ref, w, msg, row, m, CLASSIFY_P_BLK);
	} else if (kmsgtab_value(m, KMSGTAB_F_KEY, &(size_t){ 0 }) ||
		   kmsgtab_value(m, KMSGTAB_F_SENSE, &(size_t){ 0 })) {
		classify_cmd_part(c, rec, ref, w, msg, row, m, CLASSIFY_P_KEY);
	} else {
		h = classify_cmd_part(c, rec, ref, w, msg, row, m,
				      CLASSIFY_P_START);
		if (h && h->parts == CLASSIFY_P_START)
			h->provisional = row->kind;
		if (h)
			h->failed_start = true;
	}
}

/* Data lost on a partition: the failed command's, or an fs-error's */
static void classify_on_lost(struct classify *c, const struct kmsg_record *rec,
			     uint64_t ref, struct classify_who *w,
			     const char *msg, const struct kmsgtab_row *row,
			     const struct kmsgtab_match *m, char *part)
{
	struct classify_cmd_arg a = {
		w->disk, -1, CLASSIFY_P_LOST, classify_msg_no(c), -1, false
	};
	struct classify_held *h;

	if (classify_find(c, rec, classify_cmd_takes, &a)) {
		classify_cmd_part(c, rec, ref, w, msg, row, m, CLASSIFY_P_LOST);
		return;
	}
	h = classify_find(c, rec, classify_lost_takes, part);
	if (!h) {
		h = classify_open(c, CLASSIFY_FS_ERROR, rec, ref, w, msg, row);
		classify_set(h->inc.part, part, strlen(part));
	} else {
		classify_touch(c, h, rec, ref);
	}
	classify_take_suppressed(c, h, rec);
	classify_lost_block(&h->inc, m);
}

/* "N callbacks suppressed": counted in the incident of the next message */
static void classify_on_suppressed(struct classify *c, const struct kmsg_record *rec,
				   uint64_t ref, struct classify_who *w,
				   const char *msg, const struct kmsgtab_row *row,
				   const struct kmsgtab_match *m)
{
	char func[CLASSIFY_DEV_MAX];
	struct classify_held *h;
	long long v;

	if (!classify_num(m, KMSGTAB_F_COUNT, 10, &v))
		v = 0;
	/* held for the message it comes before (classify_take_suppressed) */
	c->suppressed_msg = c->st.messages;
	if (classify_value(m, KMSGTAB_F_FUNC, func, sizeof(func)))
		classify_set(w->dev, func, strlen(func));
	h = classify_open(c, CLASSIFY_SUPPRESSED, rec, ref, w, msg, row);
	h->inc.count = (long)v;
}

/* A timeout: the next command of the chain's burst, or a new chain */
static void classify_on_timeout(struct classify *c, const struct kmsg_record *rec,
				uint64_t ref, struct classify_who *w,
				const char *msg, const struct kmsgtab_row *row)
{
	struct classify_held *h = classify_chain_timeout(c, w->disk);

	if (h) {
		h->inc.inferred = false;
		h->inc.count = h->inc.count > 0 ? h->inc.count + 1 : 1;
		classify_touch(c, h, rec, ref);
		classify_chain_note(c, rec);
		return;
	}
	h = classify_open(c, CLASSIFY_TIMEOUT, rec, ref, w, msg, row);
	h->cmd = true;
	h->parts = CLASSIFY_P_START;
	classify_timeout_forced(c, h, rec);
}

/*
 * An abort.  The error handler aborts the commands that timed out
 * together within milliseconds; an abort a second after the last is the
 * next timeout, implied when no line said it.
 */
static void classify_on_abort(struct classify *c, const struct kmsg_record *rec,
			      uint64_t ref, struct classify_who *w,
			      const char *msg, const struct kmsgtab_row *row)
{
	struct classify_held *h;

	if (!classify_chain_timeout(c, w->disk) ||
	    !classify_abort_burst(c, rec)) {
		h = classify_open(c, CLASSIFY_TIMEOUT, rec, ref, w, msg, row);
		h->inc.inferred = true;
		h->inc.count = 1;
		h->forced = true;
		classify_chain_join(c, h, rec, true);
		h->window = CLASSIFY_CHAIN_WINDOW;
	}
	h = classify_open(c, CLASSIFY_ABORT, rec, ref, w, msg, row);
	classify_chain_join(c, h, rec, true);
	c->abort_t = rec->t;
	c->abort_clock = rec->clock;
	c->abort_line = rec->lineno;
}

/* A reset: the SCSI handler's, or the USB reset it made (one incident) */
static void classify_on_reset(struct classify *c, const struct kmsg_record *rec,
			      uint64_t ref, struct classify_who *w,
			      const char *msg, const struct kmsgtab_row *row,
			      const struct kmsgtab_match *m)
{
	struct classify_held *h;

	if (w->cls == KMSGTAB_WHO_USB) {
		classify_end_attempt(c, w->usb);
		h = classify_find(c, rec, classify_scsi_reset_open, NULL);
		if (h) {
			/* the USB reset the SCSI handler did */
			classify_touch(c, h, rec, ref);
			classify_set(h->inc.usb, w->usb, strlen(w->usb));
			classify_set(h->inc.dev, w->usb, strlen(w->usb));
			classify_common_fields(&h->inc, m);
			h->scsi_reset = false;
			h->window = CLASSIFY_CMD_WINDOW;
			if (h->inc.chain)
				classify_chain_note(c, rec);
			return;
		}
	}
	h = classify_open(c, CLASSIFY_RESET, rec, ref, w, msg, row);
	classify_common_fields(&h->inc, m);
	if (w->cls == KMSGTAB_WHO_SCSI) {
		h->scsi_reset = true;
		h->window = CLASSIFY_REPEAT_WINDOW;
	}
	classify_chain_join(c, h, rec, false);
}

/*
 * The messages of one enumeration attempt, whichever they are, are one
 * incident: hub_port_init()'s address and descriptor retries, and
 * hub_port_connect()'s "unable to enumerate" after its last.  An attempt
 * has its device number (the "new ... USB device number N" before it);
 * a message naming another is the next attempt's.  A message that ends
 * an attempt (the table's attempt column: "Cannot enable", after which
 * hub_port_init() returns) makes the next message the next attempt's,
 * but for the power cycle and "unable to enumerate" that follow it.
 */
static void classify_on_enum(struct classify *c, const struct kmsg_record *rec,
			     uint64_t ref, struct classify_who *w,
			     const char *msg, const struct kmsgtab_row *row,
			     const struct kmsgtab_match *m)
{
	struct classify_same_arg same = { row->kind, w->dev, NULL };
	struct classify_device *d;
	struct classify_held *h;
	long long v;
	int devnum = classify_num(m, KMSGTAB_F_DEVNUM, 10, &v) ? (int)v : -1;

	h = classify_find(c, rec, classify_same, &same);
	if (h && ((devnum >= 0 && h->inc.devnum >= 0 &&
		   h->inc.devnum != devnum) ||
		  (h->attempt_over && row->attempt != KMSGTAB_ATTEMPT_AFTER))) {
		h->closed = true;
		h = NULL;
	}
	if (h) {
		int err = h->inc.err;
		long n;

		classify_repeat(c, h, rec, ref);
		/* what the first message did not say (the port, the number) */
		n = h->inc.count;
		classify_common_fields(&h->inc, m);
		h->inc.count = n;
		if (err > 0)
			h->inc.err = err;
		if (row->attempt == KMSGTAB_ATTEMPT_ENDS)
			h->attempt_over = true;
		return;
	}
	h = classify_open(c, row->kind, rec, ref, w, msg, row);
	classify_common_fields(&h->inc, m);
	h->window = CLASSIFY_ENUM_WINDOW;
	h->attempt_over = row->attempt == KMSGTAB_ATTEMPT_ENDS;
	d = classify_dev_usb(c, w->usb, false);
	if (h->inc.devnum < 0 && d)
		h->inc.devnum = d->devnum;
}

/* An incident of its own (or a repeat of one held), its fields as said */
static void classify_on_other(struct classify *c, const struct kmsg_record *rec,
			      uint64_t ref, struct classify_who *w,
			      const char *msg, const struct kmsgtab_row *row,
			      const struct kmsgtab_match *m)
{
	struct classify_same_arg same = { row->kind, w->dev, row->id };
	struct classify_held *h;

	switch (row->kind) {
	case CLASSIFY_RECOVERED:
		h = classify_open(c, row->kind, rec, ref, w, msg, row);
		if (classify_chain_join(c, h, rec, false))
			classify_close_chain(c);
		return;
	case CLASSIFY_HC_DIED:
		same.row = NULL;
		h = classify_find(c, rec, classify_same, &same);
		if (h) {
			classify_touch(c, h, rec, ref);
		} else {
			h = classify_open(c, CLASSIFY_HC_DIED, rec, ref, w, msg,
					  row);
			h->window = CLASSIFY_REPEAT_WINDOW;
		}
		/* usb_hc_died()'s line ends the controller's handling */
		if (strstr(row->format, "HC died"))
			h->cleaned_up = true;
		return;
	case CLASSIFY_XHCI_ERROR:
		/*
		 * Between the first sign of a death and usb_hc_died(), what
		 * the driver prints of the controller is the death's (UHCI's
		 * "HCRESET not completed yet!" as it resets a halted one)
		 */
		same.kind = CLASSIFY_HC_DIED;
		same.row = NULL;
		h = classify_find(c, rec, classify_same, &same);
		if (h && !h->cleaned_up) {
			classify_touch(c, h, rec, ref);
			return;
		}
		same.kind = row->kind;
		same.row = row->id;
		if (classify_row_is_setup(row)) {
			classify_repeat_or_open(c, rec, ref, w, msg, row, m,
						classify_same, &same,
						CLASSIFY_ENUM_WINDOW, &h);
			return;
		}
		if (classify_row_is_probe(row)) {
			/* one failed probe, however many lines it takes */
			classify_repeat_or_open(c, rec, ref, w, msg, row, m,
						classify_probe_open, w->dev,
						CLASSIFY_REPEAT_WINDOW, &h);
			h->probe = true;
			return;
		}
		/* fall through */
	case CLASSIFY_UAS_IGNORED:
	case CLASSIFY_OVER_CURRENT:
	case CLASSIFY_LINK_ERROR:
	case CLASSIFY_POWER:
		/*
		 * one message a port, the bridge or the controller repeats;
		 * a port's link errors, whichever (LPM's U1, U2, SEL)
		 */
		if (row->kind == CLASSIFY_LINK_ERROR)
			same.row = NULL;
		classify_repeat_or_open(c, rec, ref, w, msg, row, m,
					classify_same, &same,
					CLASSIFY_FLOOD_WINDOW, &h);
		return;
	case CLASSIFY_ENUM_FAILURE:
		classify_on_enum(c, rec, ref, w, msg, row, m);
		return;
	case CLASSIFY_RESET_FAILED:
		/* hub_port_reset() tries PORT_RESET_TRIES times */
		if (classify_repeat_or_open(c, rec, ref, w, msg, row, m,
					    classify_same, &same,
					    CLASSIFY_FLOOD_WINDOW, &h))
			classify_chain_join(c, h, rec, false);
		return;
	case CLASSIFY_DISCONNECT:
		classify_end_attempt(c, w->usb);
		h = classify_open(c, row->kind, rec, ref, w, msg, row);
		classify_common_fields(&h->inc, m);
		classify_chain_join(c, h, rec, false);
		return;
	case CLASSIFY_SENSE:
	case CLASSIFY_TIMEOUT:
	case CLASSIFY_ABORT:
	case CLASSIFY_RESET:
	case CLASSIFY_IO_ERROR:
	case CLASSIFY_OFFLINE:
	case CLASSIFY_FS_ERROR:
	case CLASSIFY_SUPPRESSED:
	case CLASSIFY_DIP:
	case CLASSIFY_KIND_COUNT:
		break;
	}
	/* an fs-error that is no lost data */
	h = classify_open(c, row->kind, rec, ref, w, msg, row);
	classify_common_fields(&h->inc, m);
}

static void classify_incident_row(struct classify *c, const struct kmsg_record *rec,
				  uint64_t ref, struct classify_who *w,
				  const char *msg, const struct kmsgtab_row *row,
				  const struct kmsgtab_match *m)
{
	char part[CLASSIFY_DEV_MAX];

	part[0] = '\0';
	classify_row_device(c, w, row, m, part);
	/* a USB status of a device already gone follows its disconnect */
	if ((row->kind == CLASSIFY_LINK_ERROR || row->kind == CLASSIFY_IO_ERROR) &&
	    classify_status_gone(m)) {
		c->st.benign++;
		return;
	}
	switch (row->kind) {
	case CLASSIFY_SENSE:
	case CLASSIFY_IO_ERROR:
		classify_on_failed(c, rec, ref, w, msg, row, m);
		return;
	case CLASSIFY_FS_ERROR:
		if (classify_row_is_lost(row)) {
			classify_on_lost(c, rec, ref, w, msg, row, m, part);
			return;
		}
		break;
	case CLASSIFY_SUPPRESSED:
		classify_on_suppressed(c, rec, ref, w, msg, row, m);
		return;
	case CLASSIFY_TIMEOUT:
		classify_on_timeout(c, rec, ref, w, msg, row);
		return;
	case CLASSIFY_ABORT:
		classify_on_abort(c, rec, ref, w, msg, row);
		return;
	case CLASSIFY_RESET:
		classify_on_reset(c, rec, ref, w, msg, row, m);
		return;
	case CLASSIFY_OFFLINE:
		classify_offline(c, rec, ref, w, msg, row);
		return;
	case CLASSIFY_RECOVERED:
	case CLASSIFY_DISCONNECT:
	case CLASSIFY_HC_DIED:
	case CLASSIFY_ENUM_FAILURE:
	case CLASSIFY_UAS_IGNORED:
	case CLASSIFY_OVER_CURRENT:
	case CLASSIFY_XHCI_ERROR:
	case CLASSIFY_DIP:
	case CLASSIFY_RESET_FAILED:
	case CLASSIFY_LINK_ERROR:
	case CLASSIFY_POWER:
	case CLASSIFY_KIND_COUNT:
		break;
	}
	classify_on_other(c, rec, ref, w, msg, row, m);
}

/* --- the device summary --------------------------------------------------- */

static struct classify_device *classify_dev_usb(struct classify *c,
						const char *usb, bool add)
{
	struct classify_device *d;
	unsigned int i;

	if (!usb[0])
		return NULL;
	for (i = 0; i < c->ndevs; i++)
		if (!strcmp(c->devs[i].usb, usb))
			return &c->devs[i];
	if (!add)
		return NULL;
	if (c->ndevs == CLASSIFY_DEVICES_MAX) {
		/* full: the oldest goes */
		memmove(&c->devs[0], &c->devs[1],
			sizeof(c->devs[0]) * (CLASSIFY_DEVICES_MAX - 1));
		c->ndevs--;
		if (c->pending_storage > 0)
			c->pending_storage--;
	}
	d = &c->devs[c->ndevs++];
	memset(d, 0, sizeof(*d));
	classify_set(d->usb, usb, strlen(usb));
	d->host = d->devnum = d->vid = d->pid = -1;
	d->blocks = -1;
	return d;
}

static struct classify_device *classify_dev_host(struct classify *c, int host)
{
	unsigned int i;

	for (i = c->ndevs; host >= 0 && i-- > 0;)
		if (c->devs[i].host == host)
			return &c->devs[i];
	return NULL;
}

static struct classify_device *classify_dev_disk(struct classify *c,
						 const char *disk)
{
	unsigned int i;

	for (i = c->ndevs; disk[0] && i-- > 0;)
		if (!strcmp(c->devs[i].disk, disk))
			return &c->devs[i];
	return NULL;
}

/* usb.ids speed words -> Mbit/s (include/linux/usb/ch9.h usb_speed) */
static double classify_speed_mbps(const char *s)
{
	static const struct {
		const char *word;
		double mbps;
	} speeds[] = {
		{ "low-speed", 1.5 }, { "full-speed", 12 },
		{ "high-speed", 480 }, { "wireless", 0 },
		{ "SuperSpeed Plus Gen 2x2", 20000 },
		{ "SuperSpeed Plus Gen 2x1", 10000 },
		{ "SuperSpeed Plus Gen 1x2", 10000 },
		{ "SuperSpeed Plus", 10000 },
		{ "SuperSpeed Gen 1", 5000 },
		{ "SuperSpeed", 5000 },
	};
	size_t i;

	for (i = 0; i < sizeof(speeds) / sizeof(speeds[0]); i++)
		if (!strcmp(s, speeds[i].word))
			return speeds[i].mbps;
	return 0;
}

/* "scsi host0: uas", "scsi host0: usb-storage 1-1:1.0": the driver bound */
/*
 * The device "scsi hostN: uas" is about, which names none: the one
 * announced last that no SCSI host took since and that usb-storage did
 * not claim ("USB Mass Storage device detected").  Two enclosures that
 * enumerate together bind in either order; the last announced is the
 * one right before the line whenever the drivers keep pace with the hub.
 */
static struct classify_device *classify_dev_unbound(struct classify *c)
{
	struct classify_device *best = NULL;
	unsigned int i;

	for (i = 0; i < c->ndevs; i++) {
		struct classify_device *d = &c->devs[i];

		if (!d->announced || d->bound ||
		    !strcmp(d->driver, "usb-storage"))
			continue;
		if (!best || d->announced > best->announced)
			best = d;
	}
	return best;
}

/*
 * usb-storage has just claimed @d by name, which a "scsi hostN: uas" line
 * was taken to be about: that line was about another device announced
 * with it.  The SCSI host and what its disk said go to the one
 * classify_dev_unbound() picks now that @d is usb-storage's.
 */
static void classify_dev_rehome(struct classify *c, struct classify_device *d)
{
	struct classify_device was = *d, *o;

	d->host = -1;
	d->disk[0] = '\0';
	d->vendor[0] = d->model[0] = d->size[0] = '\0';
	d->blocks = 0;
	d->block_size = 0;
	d->bound = false;
	d->guessed = false;
	snprintf(d->driver, sizeof(d->driver), "usb-storage");
	o = classify_dev_unbound(c);
	if (!o)
		return;
	o->host = was.host;
	o->bound = true;
	o->guessed = true;
	snprintf(o->driver, sizeof(o->driver), "uas");
	memcpy(o->disk, was.disk, sizeof(o->disk));
	memcpy(o->vendor, was.vendor, sizeof(o->vendor));
	memcpy(o->model, was.model, sizeof(o->model));
	memcpy(o->size, was.size, sizeof(o->size));
	o->blocks = was.blocks;
	o->block_size = was.block_size;
}

static void classify_device_driver(struct classify *c,
				   const struct classify_who *w,
				   const struct kmsgtab_row *row,
				   const struct kmsgtab_match *m)
{
	struct classify_device *d = NULL;
	char buf[CLASSIFY_TEXT_MAX] = "";
	long long v;

	if (!classify_num(m, KMSGTAB_F_HOST, 10, &v))
		v = w->host;
	if (classify_value(m, KMSGTAB_F_MSG, buf, sizeof(buf)) &&
	    strchr(buf, '-')) {
		classify_usb_name(buf);
		d = classify_dev_usb(c, buf, true);
		if (d && d->guessed && strstr(row->format, "usb-storage"))
			classify_dev_rehome(c, d);
	} else if (strstr(row->format, "usb-storage") &&
		   c->pending_storage >= 0 &&
		   c->pending_storage < (int)c->ndevs) {
		d = &c->devs[c->pending_storage];
	} else {
		d = classify_dev_unbound(c);
	}
	if (!d && c->ndevs)
		d = &c->devs[c->ndevs - 1];
	if (!d)
		return;
	d->host = (int)v;
	d->bound = true;
	d->guessed = false;
	if (strstr(row->format, "usb-storage")) {
		snprintf(d->driver, sizeof(d->driver), "usb-storage");
	} else {
		snprintf(d->driver, sizeof(d->driver), "uas");
		/* unless it named the device */
		d->guessed = !(buf[0] && strchr(buf, '-'));
	}
	c->pending_storage = -1;
}

/* "[sdc] Attached SCSI disk", "[sdc] 1953525168 512-byte logical blocks" */
static void classify_device_disk(struct classify *c,
				 const struct classify_who *w,
				 const struct kmsgtab_row *row,
				 const struct kmsgtab_match *m)
{
	struct classify_device *d = classify_dev_host(c, w->host);
	long long v;

	if (!d || !w->disk[0])
		return;
	classify_set(d->disk, w->disk, strlen(w->disk));
	if (row->role == KMSGTAB_DISK_ATTACHED)
		return;
	if (classify_num(m, KMSGTAB_F_BLOCKS, 10, &v))
		d->blocks = v;
	if (classify_num(m, KMSGTAB_F_BLOCK_SIZE, 10, &v))
		d->block_size = (int)v;
	classify_value(m, KMSGTAB_F_SIZE, d->size, sizeof(d->size));
}

static void classify_device_row(struct classify *c,
				const struct classify_who *w,
				const struct kmsgtab_row *row,
				const struct kmsgtab_match *m)
{
	struct classify_device *d = NULL;
	long long v;

	switch (row->role) {
	case KMSGTAB_DEV_NEW:
		classify_end_attempt(c, w->usb);
		d = classify_dev_usb(c, w->usb, true);
		if (!d)
			return;
		if (classify_value(m, KMSGTAB_F_SPEED, d->speed,
				   sizeof(d->speed)))
			d->speed_mbps = classify_speed_mbps(d->speed);
		if (classify_num(m, KMSGTAB_F_DEVNUM, 10, &v))
			d->devnum = (int)v;
		/* a new device on the port: its SCSI host is still to come */
		d->announced = ++c->announced;
		d->bound = false;
		classify_value(m, KMSGTAB_F_DRIVER, d->hcd_driver,
			       sizeof(d->hcd_driver));
		return;
	case KMSGTAB_DEV_IDS:
		d = classify_dev_usb(c, w->usb, true);
		if (!d)
			return;
		if (classify_num(m, KMSGTAB_F_VID, 16, &v))
			d->vid = (int)v;
		if (classify_num(m, KMSGTAB_F_PID, 16, &v))
			d->pid = (int)v;
		classify_value(m, KMSGTAB_F_BCD, d->bcd, sizeof(d->bcd));
		return;
	case KMSGTAB_DEV_PRODUCT:
	case KMSGTAB_DEV_MANUFACTURER:
	case KMSGTAB_DEV_SERIAL:
		d = classify_dev_usb(c, w->usb, true);
		if (!d)
			return;
		if (row->role == KMSGTAB_DEV_PRODUCT)
			classify_value(m, KMSGTAB_F_PRODUCT, d->product,
				       sizeof(d->product));
		else if (row->role == KMSGTAB_DEV_MANUFACTURER)
			classify_value(m, KMSGTAB_F_MANUFACTURER,
				       d->manufacturer, sizeof(d->manufacturer));
		else
			classify_value(m, KMSGTAB_F_SERIAL, d->serial,
				       sizeof(d->serial));
		return;
	case KMSGTAB_DEV_USB_STORAGE:
		d = classify_dev_usb(c, w->usb, true);
		if (!d)
			return;
		if (d->guessed)
			classify_dev_rehome(c, d);
		snprintf(d->driver, sizeof(d->driver), "usb-storage");
		c->pending_storage = (int)(d - c->devs);
		return;
	case KMSGTAB_DEV_UAS:
		classify_device_driver(c, w, row, m);
		return;
	case KMSGTAB_DEV_SCSI:
		d = classify_dev_host(c, w->host);
		if (!d)
			return;
		classify_value(m, KMSGTAB_F_VENDOR, d->vendor, sizeof(d->vendor));
		classify_value(m, KMSGTAB_F_MODEL, d->model, sizeof(d->model));
		return;
	case KMSGTAB_DISK_CAPACITY:
	case KMSGTAB_DISK_ATTACHED:
		classify_device_disk(c, w, row, m);
		return;
	case KMSGTAB_INCIDENT:
	case KMSGTAB_CMD_RESULT:
	case KMSGTAB_CMD_SENSE_KEY:
	case KMSGTAB_CMD_ADD_SENSE:
	case KMSGTAB_CMD_CDB:
	case KMSGTAB_CMD_NOT_READY:
	case KMSGTAB_CMD_INFO:
	case KMSGTAB_CMD_SENSE_HEX:
	case KMSGTAB_BOOT:
	case KMSGTAB_NONE:
	case KMSGTAB_ROLE_COUNT:
		return;
	}
}

static bool classify_kind_is_cmd(enum classify_kind k)
{
	return k == CLASSIFY_SENSE || k == CLASSIFY_IO_ERROR ||
	       k == CLASSIFY_TIMEOUT || k == CLASSIFY_ABORT;
}

/* The device summary's ties, onto an incident about to go out. */
static void classify_resolve(struct classify *c, struct classify_incident *inc)
{
	struct classify_device *d = NULL;
	const char *disk = NULL;

	/* what the lines after it taught: the address's or host's disk */
	if (!inc->disk[0] && inc->scsi[0])
		disk = classify_map_find(c, inc->scsi);
	if (!inc->disk[0] && !disk && inc->host >= 0)
		disk = classify_map_host(c, inc->host);
	/*
	 * A log of one disk: its address is that disk's, and so is a
	 * command's line that names nothing (the excerpt cut its disk's)
	 */
	if (!inc->disk[0] && !disk && c->one_disk[0] && !c->many_disks &&
	    ((inc->scsi[0] || inc->host >= 0) && !c->nmap ? true :
	     !inc->dev[0] && classify_kind_is_cmd(inc->kind)))
		disk = c->one_disk;
	if (disk) {
		classify_set(inc->disk, disk, strlen(disk));
		if (!strcmp(inc->dev, inc->scsi) || !inc->dev[0])
			classify_set(inc->dev, disk, strlen(disk));
	}

	if (inc->disk[0])
		d = classify_dev_disk(c, inc->disk);
	if (!d && inc->usb[0])
		d = classify_dev_usb(c, inc->usb, false);
	if (!d && inc->host >= 0)
		d = classify_dev_host(c, inc->host);
	if (!d)
		return;
	if (!inc->usb[0])
		classify_set(inc->usb, d->usb, strlen(d->usb));
	if (!inc->disk[0])
		classify_set(inc->disk, d->disk, strlen(d->disk));
	d->incidents++;
	if (inc->kind == CLASSIFY_UAS_IGNORED)
		d->uas_ignored = true;
}

/* --- the whole --------------------------------------------------------------- */

/* The part of a failed command a row is, 0 if none. */
static unsigned int classify_role_part(enum kmsgtab_role role)
{
	static const unsigned int parts[KMSGTAB_ROLE_COUNT] = {
		[KMSGTAB_CMD_NOT_READY] = CLASSIFY_P_START,
		[KMSGTAB_CMD_RESULT] = CLASSIFY_P_RESULT,
		[KMSGTAB_CMD_SENSE_KEY] = CLASSIFY_P_KEY,
		[KMSGTAB_CMD_ADD_SENSE] = CLASSIFY_P_ASC,
		[KMSGTAB_CMD_INFO] = CLASSIFY_P_INFO,
		[KMSGTAB_CMD_SENSE_HEX] = CLASSIFY_P_HEX,
		[KMSGTAB_CMD_CDB] = CLASSIFY_P_CDB,
	};

	return (unsigned int)role < KMSGTAB_ROLE_COUNT ? parts[role] : 0;
}

/* A line named a disk: the last one, and whether it is the only one */
static void classify_seen_disk(struct classify *c, const char *disk)
{
	classify_set(c->last_disk, disk, strlen(disk));
	if (strncmp(disk, "sd", 2) && strncmp(disk, "sr", 2))
		return;		/* loop0, dm-0, mmcblk0: no SCSI disk */
	if (!c->one_disk[0])
		classify_set(c->one_disk, disk, strlen(disk));
	else if (strcmp(c->one_disk, disk))
		c->many_disks = true;
}

static void classify_end_boot(struct classify *c)
{
	unsigned int i;

	for (i = 0; i < c->n; i++)
		classify_at(c, i)->closed = true;
	c->chain = 0;
	c->nmap = 0;
	c->last_disk[0] = '\0';
	c->one_disk[0] = '\0';
	c->many_disks = false;
	c->pending_storage = -1;
}

void classify_feed(struct classify *c, const struct kmsg_record *rec,
		   uint64_t ref)
{
	struct kmsg_record carried;
	char msg[CLASSIFY_LINE_MAX];
	const struct kmsgtab_row *row;
	struct kmsgtab_match m;
	struct classify_who w;
	unsigned int part;
	size_t len;

	c->st.messages++;
	if (rec->new_boot)
		classify_end_boot(c);
	len = rec->msg_len < sizeof(msg) - 1 ? rec->msg_len : sizeof(msg) - 1;
	memcpy(msg, rec->msg, len);
	msg[len] = '\0';
	/* a NUL inside is the end for us; kmsg_parse_line refuses them */
	len = strlen(msg);
	classify_close_stale(c, rec);
	classify_who(c, msg, &w);
	if (w.empty) {
		c->last_row = NULL;
		c->carry.set = true;
		c->carry.line = rec->lineno;
		c->carry.file = rec->file;
		c->carry.who = w;
		snprintf(c->carry.rest, sizeof(c->carry.rest), "%s", w.rest);
		return;
	}
	if (c->carry.set && w.cls == KMSGTAB_WHO_NONE && !w.disk[0] &&
	    rec->file == c->carry.file && rec->lineno == c->carry.line + 1) {
		/* the text of the prefix on the line before: from there */
		w = c->carry.who;
		w.empty = false;
		carried = *rec;
		carried.lineno = c->carry.line;
		rec = &carried;
		if (c->carry.rest[0]) {
			char joined[CLASSIFY_LINE_MAX];

			snprintf(joined, sizeof(joined), "%s %s", c->carry.rest,
				 msg);
			memcpy(msg, joined, sizeof(msg));
			len = strlen(msg);
		}
	}
	c->carry.set = false;
	if (w.disk[0])
		classify_seen_disk(c, w.disk);
	row = kmsgtab_match(msg, len, w.cls, &m);
	c->last_row = row ? row->id : NULL;
	if (!row)
		return;
	{
		char d[CLASSIFY_DEV_MAX];

		if (classify_disk_field(&m, d, NULL))
			classify_seen_disk(c, d);
	}
	c->st.recognised++;
	part = classify_role_part(row->role);
	if (part) {
		struct classify_held *h = classify_cmd_part(c, rec, ref, &w, msg,
							    row, &m, part);

		/* "Device not ready", "Unit Not Ready": the key is Not Ready */
		if (h && row->role == KMSGTAB_CMD_NOT_READY)
			h->implied_key = 2;
		/* "Read Capacity(10) failed: Result: ..." says it failed */
		if (h && part == CLASSIFY_P_RESULT && strstr(row->format, "failed"))
			h->failed_start = true;
		return;
	}
	if (row->role == KMSGTAB_INCIDENT)
		classify_incident_row(c, rec, ref, &w, msg, row, &m);
	else if (row->role == KMSGTAB_NONE || row->role == KMSGTAB_BOOT)
		c->st.benign++;
	else
		classify_device_row(c, &w, row, &m);
}

void classify_advance(struct classify *c, double t, enum kmsg_clock clock)
{
	unsigned int i;

	if (clock == KMSG_CLOCK_NONE)
		return;
	if (c->chain && c->chain_clock == clock &&
	    t - c->chain_t > CLASSIFY_CHAIN_WINDOW)
		classify_close_chain(c);
	for (i = 0; i < c->n; i++) {
		struct classify_held *h = classify_at(c, i);

		if (!h->closed && h->last_clock == clock &&
		    t - h->last_t > h->window)
			h->closed = true;
	}
}

bool classify_pending(const struct classify *c, double from, double to)
{
	unsigned int i;

	for (i = 0; i < c->nready; i++) {
		const struct classify_incident *r =
			&c->ready[(c->ready_head + i) % CLASSIFY_READY];

		if (r->t <= to && r->t_last >= from)
			return true;
	}
	for (i = 0; i < c->n; i++) {
		const struct classify_held *h =
			&c->held[(c->head + i) % CLASSIFY_HELD];

		if (!h->dropped && h->inc.t <= to && h->inc.t_last >= from)
			return true;
	}
	return false;
}

void classify_end(struct classify *c)
{
	unsigned int i;

	for (i = 0; i < c->n; i++)
		classify_at(c, i)->closed = true;
	c->chain = 0;
}

/*
 * A command's kind from its parts, or false when it is no incident: the
 * reply to an ATA PASS-THROUGH (smartctl, hdparm, udisks ask bridges
 * that may not translate it), a key that reports no failure with nothing
 * lost, or a CDB alone.
 */
static bool classify_cmd_finish(struct classify *c, struct classify_held *h)
{
	struct classify_incident *inc = &h->inc;

	if (!(h->parts & ~(unsigned int)(CLASSIFY_P_CDB | CLASSIFY_P_INFO)))
		return false;
	if (h->forced)
		return true;
	if (inc->key < 0 && h->implied_key >= 0)
		inc->key = h->implied_key;
	/* "Add. Sense:" whose "Sense Key" line the excerpt lost */
	if (inc->key < 0 && (h->parts & CLASSIFY_P_ASC) &&
	    (inc->asc >= 0 || inc->asc_text[0])) {
		inc->kind = CLASSIFY_SENSE;
		return true;
	}
	if (inc->key >= 0) {
		inc->kind = CLASSIFY_SENSE;
		if (!inc->key_text)
			inc->key_text = classify_sense_key_text(inc->key);
		if (classify_is_pass_through(inc->opcode) &&
		    (inc->key == 5 || inc->key == 1 ||
		     (inc->asc == 0x00 && inc->ascq == 0x1d))) {
			c->st.pass_through++;
			return false;
		}
		if (!classify_sense_key_fails(inc->key) &&
		    !(h->parts & (CLASSIFY_P_BLK | CLASSIFY_P_LOST)) &&
		    (!inc->hostbyte[0] || !strcmp(inc->hostbyte, "DID_OK")))
			return false;
		/*
		 * Unit Attention (a reset, a medium change) on a command that
		 * is retried and loses nothing, as at a disk's spin-up: the
		 * reset before it is the incident.
		 */
		if (inc->key == 6 && !(h->parts & (CLASSIFY_P_BLK |
						   CLASSIFY_P_LOST)) &&
		    h->provisional == CLASSIFY_IO_ERROR && !h->failed_start)
			return false;
		return true;
	}
	inc->kind = classify_result_timeout(inc) ? CLASSIFY_TIMEOUT :
		    h->provisional;
	return true;
}

/*
 * Take the oldest held incident off, closed: true and *out when it is an
 * incident (not merged away, not a command that proved harmless).
 */
static bool classify_pop(struct classify *c, struct classify_incident *out)
{
	struct classify_held *h = classify_at(c, 0);

	c->head = (c->head + 1) % CLASSIFY_HELD;
	c->n--;
	if (h->dropped)
		return false;
	if (h->cmd && h->inc.kind != CLASSIFY_ABORT &&
	    !classify_cmd_finish(c, h))
		return false;
	if (!h->inc.dev[0])
		classify_set(h->inc.dev, h->inc.disk, strlen(h->inc.disk));
	classify_resolve(c, &h->inc);
	*out = h->inc;
	c->st.incidents++;
	return true;
}

bool classify_next(struct classify *c, struct classify_incident *out)
{
	if (c->nready) {
		*out = c->ready[c->ready_head];
		c->ready_head = (c->ready_head + 1) % CLASSIFY_READY;
		c->nready--;
		return true;
	}
	while (c->n) {
		if (!classify_at(c, 0)->closed)
			return false;
		if (classify_pop(c, out))
			return true;
	}
	return false;
}
