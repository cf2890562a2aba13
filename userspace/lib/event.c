// SPDX-License-Identifier: GPL-2.0-only
/*
 * event.c - struct ev: allocation, names, clocks, and the journal form of
 * an incident that the journal and pcapng sinks share.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "event.h"
#include "util.h"

static const char *const ev_type_names[EV_TYPE_MAX] = {
	[EV_TRACE] = "trace",
	[EV_KLOG] = "klog",
	[EV_USBMON] = "usbmon",
	[EV_DEVICE] = "device",
	[EV_SAMPLE] = "sample",
	[EV_MARKER] = "marker",
	[EV_LOST] = "lost",
	[EV_INCIDENT] = "incident",
};

static const char *const ev_source_names[EV_SRC_MAX] = {
	[EV_SRC_MODULE] = "module",
	[EV_SRC_TRACEFS] = "tracefs",
	[EV_SRC_KMSG] = "kmsg",
	[EV_SRC_USBMON] = "usbmon",
	[EV_SRC_SYSFS] = "sysfs",
	[EV_SRC_EVDEV] = "evdev",
	[EV_SRC_COMMAND] = "command",
	[EV_SRC_RECORDER] = "recorder",
};

const char *const *ev_type_names_table(void)
{
	return ev_type_names;
}

const char *const *ev_source_names_table(void)
{
	return ev_source_names;
}

const char *ev_type_name(enum ev_type type)
{
	if ((unsigned int)type >= EV_TYPE_MAX || !ev_type_names[type])
		return "unknown";
	return ev_type_names[type];
}

const char *ev_source_name(enum ev_source source)
{
	if ((unsigned int)source >= EV_SRC_MAX || !ev_source_names[source])
		return "unknown";
	return ev_source_names[source];
}

static int64_t ev_clock_ns(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts))
		return -1;
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

uint64_t ev_clock_now(void)
{
	int64_t ns = ev_clock_ns(CLOCK_BOOTTIME);

	return ns < 0 ? 0 : (uint64_t)ns;
}

/*
 * Read the clocks in a tight sandwich (boot, other, boot) and keep the
 * tightest of a few tries, so the offsets are good to a microsecond or so.
 */
static int ev_clock_offset(clockid_t other, int64_t *off)
{
	int64_t best = INT64_MAX, b0, o, b1;
	int i;

	for (i = 0; i < 5; i++) {
		b0 = ev_clock_ns(CLOCK_BOOTTIME);
		o = ev_clock_ns(other);
		b1 = ev_clock_ns(CLOCK_BOOTTIME);
		if (b0 < 0 || o < 0 || b1 < 0)
			return -errno;
		if (b1 - b0 < best) {
			best = b1 - b0;
			*off = o - (b0 + (b1 - b0) / 2);
		}
	}
	return 0;
}

int ev_clock_init(struct ev_clock *c)
{
	int64_t mono_minus_boot;
	int ret;

	ret = ev_clock_offset(CLOCK_MONOTONIC, &mono_minus_boot);
	if (ret)
		return ret;
	c->mono_to_boot_ns = -mono_minus_boot;
	return ev_clock_offset(CLOCK_REALTIME, &c->boot_to_real_ns);
}

/*
 * Only the union member of the type is allocated: a trace event, the
 * common case by far, takes 200 bytes instead of the union's 1.6 KiB, and
 * the recorder holds seconds' worth of them in its queues.
 */
static size_t ev_size(enum ev_type type)
{
	size_t body;

	switch (type) {
	case EV_TRACE:
		body = sizeof(((struct ev *)0)->u.rec);
		break;
	case EV_KLOG:
		body = sizeof(((struct ev *)0)->u.klog);
		break;
	case EV_USBMON:
		body = sizeof(((struct ev *)0)->u.usbmon);
		break;
	case EV_DEVICE:
		body = sizeof(((struct ev *)0)->u.device);
		break;
	case EV_SAMPLE:
		body = sizeof(((struct ev *)0)->u.sample);
		break;
	case EV_MARKER:
		body = sizeof(((struct ev *)0)->u.marker);
		break;
	case EV_LOST:
		body = sizeof(((struct ev *)0)->u.lost);
		break;
	case EV_INCIDENT:
	case EV_TYPE_MAX:
	default:
		return sizeof(struct ev);
	}
	return offsetof(struct ev, u) + body;
}

/*
 * Trace records and URBs come by the tens of thousands a second and wait
 * a few seconds in the recorder's queues: their events are kept for reuse
 * rather than handed back to malloc, which spent more on them than the
 * rest of their way through the recorder.  Per thread, and bounded.
 */
#define EV_CACHE_MAX	16384

struct ev_cache {
	struct ev *head;		/* linked through their first bytes */
	unsigned int n;
};

#ifdef __SANITIZE_ADDRESS__
static struct ev_cache *ev_cache_of(enum ev_type type)
{
	(void)type;
	return NULL;		/* none: ASan sees every use after free */
}
#else
static __thread struct ev_cache ev_caches[2];

static struct ev_cache *ev_cache_of(enum ev_type type)
{
	if (type == EV_TRACE)
		return &ev_caches[0];
	if (type == EV_USBMON)
		return &ev_caches[1];
	return NULL;
}
#endif

struct ev *ev_new(enum ev_type type, enum ev_source source, uint64_t t_ns)
{
	struct ev_cache *c = ev_cache_of(type);
	size_t size = ev_size(type);
	struct ev *ev;

	if (c && c->head) {
		void *next;

		ev = c->head;
		memcpy(&next, ev, sizeof(next));
		c->head = next;
		c->n--;
		memset(ev, 0, size);
	} else {
		ev = calloc(1, size);
		if (!ev)
			return NULL;
	}
	ev->type = type;
	ev->source = source;
	ev->t_ns = t_ns;
	ev->ident.busnum = -1;
	ev->ident.devnum = -1;
	if (type == EV_INCIDENT) {
		ev->u.incident.opcode = -1;
		ev->u.incident.lba = -1;
	}
	return ev;
}

static void ev_ident_disk(struct ev_ident *id, const char *disk, size_t len)
{
	size_t n = strnlen(disk, len);

	if (n >= sizeof(id->disk))
		n = sizeof(id->disk) - 1;
	memcpy(id->disk, disk, n);
	id->disk[n] = '\0';
}

/*
 * @v in decimal at @p, which has room for 10 digits; returns the end.
 * Every trace record names its device with a few numbers, and snprintf()
 * cost more than the rest of the record's way through the recorder.
 */
static char *ev_put_u32(char *p, uint32_t v)
{
	char digits[10];
	unsigned int n = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = digits[--n];
	return p;
}

static void ev_ident_usb(struct ev_ident *id, unsigned int busnum,
			 const char *devpath, size_t len)
{
	char buf[11 + sizeof(id->usb)], *p;
	size_t n = strnlen(devpath, len);

	if (!busnum || !n || n >= len)
		return;
	p = ev_put_u32(buf, busnum);
	*p++ = '-';
	if (n > sizeof(id->usb))
		n = sizeof(id->usb);	/* cut below anyway */
	memcpy(p, devpath, n);
	/* cut to fit, as snprintf() cut */
	util_copy(id->usb, sizeof(id->usb), buf, (size_t)(p - buf) + n);
}

/* "HOST:CHANNEL:ID:LUN", the kernel's name of a SCSI device */
static void ev_ident_scsi(struct ev_ident *id, unsigned int host,
			  unsigned int channel, unsigned int target,
			  uint32_t lun)
{
	char buf[4 * 11], *p = buf;

	p = ev_put_u32(p, host);
	*p++ = ':';
	p = ev_put_u32(p, channel);
	*p++ = ':';
	p = ev_put_u32(p, target);
	*p++ = ':';
	p = ev_put_u32(p, lun);
	util_copy(id->scsi, sizeof(id->scsi), buf, (size_t)(p - buf));
}

void ev_ident_from_rec(struct ev *ev)
{
	const struct usbtrail_record *r = &ev->u.rec;
	struct ev_ident *id = &ev->ident;

	switch (r->type) {
	case USBTRAIL_REC_SCSI_START:
	case USBTRAIL_REC_SCSI_DONE:
	case USBTRAIL_REC_SCSI_ERROR:
	case USBTRAIL_REC_SCSI_TIMEOUT:
	case USBTRAIL_REC_SCSI_EH_WAKEUP:
		ev_ident_disk(id, r->u.scsi.disk, sizeof(r->u.scsi.disk));
		if (r->type != USBTRAIL_REC_SCSI_EH_WAKEUP)
			ev_ident_scsi(id, r->u.scsi.host, r->u.scsi.channel,
				      r->u.scsi.id, r->u.scsi.lun);
		break;
	case USBTRAIL_REC_EH_START:
	case USBTRAIL_REC_EH_END:
		ev_ident_disk(id, r->u.eh.disk, sizeof(r->u.eh.disk));
		ev_ident_scsi(id, r->u.eh.host, r->u.eh.channel, r->u.eh.id,
			      r->u.eh.lun);
		break;
	case USBTRAIL_REC_BLK_ISSUE:
	case USBTRAIL_REC_BLK_COMPLETE:
		ev_ident_disk(id, r->u.blk.disk, sizeof(r->u.blk.disk));
		break;
	case USBTRAIL_REC_URB_ENQUEUE:
	case USBTRAIL_REC_URB_GIVEBACK:
	case USBTRAIL_REC_URB_DEQUEUE:
		id->busnum = r->u.urb.busnum;
		id->devnum = r->u.urb.devnum;
		ev_ident_usb(id, r->u.urb.busnum, r->u.urb.devpath,
			     sizeof(r->u.urb.devpath));
		break;
	case USBTRAIL_REC_USB_ADD:
	case USBTRAIL_REC_USB_REMOVE:
		id->busnum = r->u.usbdev.busnum;
		id->devnum = r->u.usbdev.devnum;
		ev_ident_usb(id, r->u.usbdev.busnum, r->u.usbdev.devpath,
			     sizeof(r->u.usbdev.devpath));
		break;
	case USBTRAIL_REC_XHCI_TRANSFER:
	case USBTRAIL_REC_XHCI_COMMAND:
		if (r->u.xhci.busnum)
			id->busnum = r->u.xhci.busnum;
		if (r->u.xhci.devnum)
			id->devnum = r->u.xhci.devnum;
		break;
	default:
		break;
	}
	/* the module pads with NULs; an empty SCSI disk name means none */
	if (id->scsi[0] && !strcmp(id->scsi, "0:0:0:0") && !id->disk[0] &&
	    r->type == USBTRAIL_REC_SCSI_EH_WAKEUP)
		id->scsi[0] = '\0';
}

void ev_free(struct ev *ev)
{
	struct ev_cache *c;

	if (!ev)
		return;
	if (ev->type == EV_USBMON)
		free(ev->u.usbmon.data);
	c = ev_cache_of(ev->type);
	if (c && c->n < EV_CACHE_MAX) {
		void *next = c->head;

		memcpy(ev, &next, sizeof(next));
		c->head = ev;
		c->n++;
		return;
	}
	free(ev);
}

/* Append "VALUE\0" to buf at *off; the value, or NULL when out of room. */
static const char *ev_field_put(char *buf, size_t buflen, size_t *off,
				const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static const char *ev_field_put(char *buf, size_t buflen, size_t *off,
				const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*off >= buflen)
		return NULL;
	va_start(ap, fmt);
	n = vsnprintf(buf + *off, buflen - *off, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= buflen - *off)
		return NULL;
	*off += (size_t)n + 1;
	return buf + *off - n - 1;
}

#define EV_FIELD(name_, ...) do {					\
	const char *v_ = ev_field_put(buf, buflen, &off, __VA_ARGS__);	\
	if (!v_)							\
		return -ENOSPC;						\
	if (n >= max)							\
		return -ENOSPC;						\
	fields[n].name = (name_);					\
	fields[n++].value = v_;						\
} while (0)

int ev_incident_fields(const struct ev *ev, struct ev_field *fields,
		       unsigned int max, char *buf, size_t buflen)
{
	const struct ev_incident *ei = &ev->u.incident;
	const struct classify_incident *inc = &ei->inc;
	unsigned int carries = classify_kind_carries(inc->kind);
	char summary[512];
	unsigned int n = 0, i;
	size_t off = 0;

	if (ev->type != EV_INCIDENT)
		return -EINVAL;
	ev_incident_summary(ev, summary, sizeof(summary));
	EV_FIELD("MESSAGE", "%s", summary);
	/* syslog's notice for a recovery, err for the rest */
	EV_FIELD("PRIORITY", "%d", classify_kind_class(inc->kind) ==
		 CLASSIFY_CLASS_RECOVERY ? 5 : 3);
	EV_FIELD("USBTRAIL_KIND", "%s", classify_kind_name(inc->kind));
	if (inc->dev[0])
		EV_FIELD("USBTRAIL_DEVICE", "%s", inc->dev);
	if (ev->ident.disk[0])
		EV_FIELD("USBTRAIL_DISK", "%s", ev->ident.disk);
	if (ev->ident.usb[0])
		EV_FIELD("USBTRAIL_USB_PATH", "%s", ev->ident.usb);
	if (ev->ident.scsi[0])
		EV_FIELD("USBTRAIL_SCSI", "%s", ev->ident.scsi);
	EV_FIELD("USBTRAIL_TIME", "%.6f", (double)ev->t_ns / 1e9);
	if (inc->chain)
		EV_FIELD("USBTRAIL_CHAIN", "%u", inc->chain);
	if (carries & CLASSIFY_C_SENSE) {
		if (inc->key >= 0 && inc->asc >= 0 && inc->ascq >= 0)
			EV_FIELD("USBTRAIL_SENSE", "%02x/%02x/%02x", inc->key,
				 inc->asc, inc->ascq);
		if (inc->key >= 0)
			EV_FIELD("USBTRAIL_SENSE_KEY", "%d", inc->key);
		if (inc->asc >= 0)
			EV_FIELD("USBTRAIL_ASC", "%d", inc->asc);
		if (inc->ascq >= 0)
			EV_FIELD("USBTRAIL_ASCQ", "%d", inc->ascq);
		if (ei->sense_len) {
			char hex[2 * sizeof(ei->sense) + 1];

			for (i = 0; i < ei->sense_len && i < sizeof(ei->sense); i++)
				snprintf(hex + 2 * i, 3, "%02x", ei->sense[i]);
			EV_FIELD("USBTRAIL_SENSE_DATA", "%s", hex);
		}
	}
	if ((carries & CLASSIFY_C_SPEED) && inc->speed[0])
		EV_FIELD("USBTRAIL_SPEED", "%s", inc->speed);
	if ((carries & CLASSIFY_C_CODE) && inc->code >= 0)
		EV_FIELD("USBTRAIL_COMPLETION_CODE", "%d", inc->code);
	if (carries & CLASSIFY_C_TALLY)
		EV_FIELD("USBTRAIL_COUNT", "%ld", inc->count);
	if (carries & CLASSIFY_C_DIP) {
		EV_FIELD("USBTRAIL_MBPS", "%.1f", ei->dip_mbps);
		EV_FIELD("USBTRAIL_MEDIAN_MBPS", "%.1f", ei->dip_median_mbps);
		EV_FIELD("USBTRAIL_SECONDS", "%.1f", ei->dip_secs);
	}
	/* the parts of a failed command, whatever its kind */
	if (inc->sector >= 0)
		EV_FIELD("USBTRAIL_SECTOR", "%lld", (long long)inc->sector);
	if (inc->hostbyte[0])
		EV_FIELD("USBTRAIL_HOSTBYTE", "%s", inc->hostbyte);
	if (inc->lost_blocks > 0) {
		EV_FIELD("USBTRAIL_LOST_BLOCKS", "%ld", inc->lost_blocks);
		if (inc->part[0])
			EV_FIELD("USBTRAIL_PARTITION", "%s", inc->part);
	}
	if (inc->err > 0)
		EV_FIELD("USBTRAIL_ERRNO", "%d", inc->err);
	if (ei->lba >= 0)
		EV_FIELD("USBTRAIL_LBA", "%lld", (long long)ei->lba);
	if (ei->opcode >= 0)
		EV_FIELD("USBTRAIL_OPCODE", "0x%02x", ei->opcode);
	if (inc->line[0])
		EV_FIELD("USBTRAIL_KERNEL_LINE", "%s", inc->line);
	return (int)n;
}

int ev_incident_summary(const struct ev *ev, char *buf, size_t len)
{
	const struct ev_incident *ei = &ev->u.incident;
	const struct classify_incident *inc = &ei->inc;
	const char *who = ev->ident.disk[0] ? ev->ident.disk :
			  inc->dev[0] ? inc->dev : "?";
	char details[256];
	int n;

	if (inc->kind == CLASSIFY_SENSE && inc->key >= 0 && inc->asc >= 0 &&
	    inc->ascq >= 0)
		snprintf(details, sizeof(details), "%02x/%02x/%02x (%s: %s)",
			 inc->key, inc->asc, inc->ascq,
			 inc->key_text ? inc->key_text : "?",
			 inc->asc_text[0] ? inc->asc_text : "?");
	else if (classify_kind_carries(inc->kind) & CLASSIFY_C_DIP)
		snprintf(details, sizeof(details),
			 "%.1f MB/s against a median of %.1f MB/s for %.1f s",
			 ei->dip_mbps, ei->dip_median_mbps, ei->dip_secs);
	else
		classify_details(inc, details, sizeof(details));
	n = snprintf(buf, len, "%s%s%s on %s%s%s%s", classify_kind_name(inc->kind),
		     details[0] ? " " : "", details, who,
		     ev->ident.usb[0] ? " (usb " : "", ev->ident.usb,
		     ev->ident.usb[0] ? ")" : "");
	return n < 0 ? 0 : n;
}
