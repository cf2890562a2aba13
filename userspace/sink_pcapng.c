// SPDX-License-Identifier: GPL-2.0-only
/*
 * sink_pcapng.c - the recorder's capture.pcapng: usbmon events as packets
 * of link type 220 (LINKTYPE_USB_LINUX_MMAPPED), the trace records of
 * usbtrail.ko and of tracefs as packets of link type 147 (LINKTYPE_USER0,
 * recpkt.h; tools/wireshark/usbtrail.lua dissects them), kernel log lines
 * and incidents as Systemd Journal Export blocks, in the order the
 * recorder hands them over (time order), so Wireshark shows URBs, xHCI
 * events, SCSI commands, block requests and errors on one timeline.  The
 * high-rate events live here only: events.jsonl keeps the rest.
 * docs/formats.md describes the file.
 *
 * Blocks collect in memory and go out with write(2) in whole blocks, at
 * least once a second of event time or every 64 KiB.  The file is valid
 * after every write: a write that fails or falls short (full disk, file
 * size limit) is cut back with ftruncate() to the last whole block, and
 * the sink reports -ENOSPC so the recorder stops with a clear error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "owner.h"
#include "pcapng.h"
#include "recpkt.h"
#include "record.h"
#include "usbmon.h"

#define SINK_PCAPNG_FLUSH_BYTES	(64u << 10)
#define SINK_PCAPNG_FLUSH_NS	1000000000ull
/* the interfaces, in the order of their IDBs */
#define SINK_PCAPNG_IF_USBMON	0
#define SINK_PCAPNG_IF_MODULE	1
#define SINK_PCAPNG_IF_TRACEFS	2

struct sink_pcapng {
	int fd;
	off_t good;		/* file length: whole blocks written */
	struct pcapng_buf buf;	/* whole blocks not written yet */
	struct pcapng_buf entry;	/* journal entry being built */
	struct ev_clock clock;
	char boot_id[33];	/* "" if unknown */
	uint64_t flushed_t_ns;	/* event time of the last write */
	int err;		/* sticky: the first failure */
};

/* /proc's boot id without its dashes, the journal's _BOOT_ID form. */
static void sink_pcapng_boot_id(char out[33])
{
	char raw[64];
	size_t i, n = 0;
	ssize_t len;
	int fd;

	out[0] = '\0';
	fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	len = read(fd, raw, sizeof(raw) - 1);
	close(fd);
	if (len <= 0)
		return;
	for (i = 0; i < (size_t)len && n < 32; i++) {
		char c = raw[i];

		if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))
			out[n++] = c;
		else if (c != '-')
			break;
	}
	out[n == 32 ? n : 0] = '\0';
}

/* Of the len bytes at b, how many make whole blocks. */
static size_t sink_pcapng_whole(const uint8_t *b, size_t len)
{
	size_t off = 0;
	uint32_t total;

	while (len - off >= 12) {
		memcpy(&total, b + off + 4, sizeof(total));
		if (total < 12 || total > len - off)
			break;
		off += total;
	}
	return off;
}

static int sink_pcapng_flush(struct sink_pcapng *p)
{
	size_t done = 0, keep;
	int err = 0;
	ssize_t n;

	if (p->err)
		return p->err;
	while (done < p->buf.len) {
		n = write(p->fd, p->buf.data + done, p->buf.len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : -ENOSPC;
			break;
		}
		done += (size_t)n;
	}
	if (!err) {
		p->good += (off_t)done;
		p->buf.len = 0;
		return 0;
	}
	/* Keep the blocks that made it whole; cut the rest off. */
	keep = sink_pcapng_whole(p->buf.data, done);
	p->good += (off_t)keep;
	if (ftruncate(p->fd, p->good) == 0)
		lseek(p->fd, p->good, SEEK_SET);
	p->buf.len = 0;
	/* a full disk, a quota or a file size limit: all "no space" */
	if (err == -ENOSPC || err == -EDQUOT || err == -EFBIG)
		err = -ENOSPC;
	p->err = err;
	return err;
}

static uint32_t sink_pcapng_origlen(const struct ev_usbmon *um)
{
	const struct ev_usbmon_hdr *h = &um->hdr;
	uint64_t len = USBMON_HDR_SIZE + (uint64_t)h->len_cap;

	/*
	 * As libpcap says it: with data, the URB's whole length (and the
	 * descriptors); without, what the kernel gave.
	 */
	if (!h->flag_data) {
		uint64_t urb = USBMON_HDR_SIZE +
			       (uint64_t)h->ndesc * USBMON_ISODESC_SIZE +
			       h->len_urb;

		if (urb > len)
			len = urb;
	}
	if (len < USBMON_HDR_SIZE + (uint64_t)um->caplen)
		len = USBMON_HDR_SIZE + (uint64_t)um->caplen;
	return len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
}

static int sink_pcapng_usbmon(struct sink_pcapng *p, const struct ev *ev)
{
	const struct ev_usbmon *um = &ev->u.usbmon;
	uint8_t hdr[USBMON_HDR_SIZE];
	struct iovec iov[2];

	usbmon_hdr_pack(&um->hdr, hdr);
	iov[0].iov_base = hdr;
	iov[0].iov_len = sizeof(hdr);
	iov[1].iov_base = um->data;
	iov[1].iov_len = um->data ? um->caplen : 0;
	return pcapng_put_epb_iov(&p->buf, SINK_PCAPNG_IF_USBMON,
				  ev->t_ns + (uint64_t)p->clock.boot_to_real_ns,
				  iov, 2, sink_pcapng_origlen(um), ev->id);
}

/* A trace record: its packet is copies of the event, nothing formatted. */
static int sink_pcapng_trace(struct sink_pcapng *p, const struct ev *ev)
{
	uint8_t pkt[RECPKT_MAX];
	uint32_t n = (uint32_t)recpkt_pack(ev, pkt);

	return pcapng_put_epb(&p->buf, ev->source == EV_SRC_TRACEFS ?
			      SINK_PCAPNG_IF_TRACEFS : SINK_PCAPNG_IF_MODULE,
			      ev->t_ns + (uint64_t)p->clock.boot_to_real_ns,
			      pkt, n, n);
}

/* Who a line or incident concerns, where the recorder knows. */
static unsigned int sink_pcapng_ident(const struct ev *ev,
				      struct ev_field *f, unsigned int n,
				      unsigned int max, char *num,
				      size_t numlen)
{
	if (ev->type != EV_INCIDENT) {
		if (ev->ident.disk[0] && n < max)
			f[n++] = (struct ev_field){ "USBTRAIL_DISK",
						    ev->ident.disk };
		if (ev->ident.usb[0] && n < max)
			f[n++] = (struct ev_field){ "USBTRAIL_USB_PATH",
						    ev->ident.usb };
	}
	if (ev->ident.busnum >= 0 && ev->ident.devnum >= 0 && n < max) {
		snprintf(num, numlen, "%d:%d", ev->ident.busnum,
			 ev->ident.devnum);
		f[n++] = (struct ev_field){ "USBTRAIL_USB_DEVICE", num };
	}
	return n;
}

static int sink_pcapng_journal(struct sink_pcapng *p, const struct ev *ev)
{
	struct ev_field f[EV_FIELDS_MAX + 8];
	char buf[4096], prio[8], fac[8], dev[32];
	uint64_t real_ns = ev->t_ns + (uint64_t)p->clock.boot_to_real_ns;
	uint64_t mono_ns = ev->t_ns - (uint64_t)p->clock.mono_to_boot_ns;
	unsigned int n = 0;
	int ret;

	if (ev->type == EV_KLOG) {
		snprintf(prio, sizeof(prio), "%d", ev->u.klog.level & 7);
		snprintf(fac, sizeof(fac), "%d", ev->u.klog.facility);
		f[n++] = (struct ev_field){ "MESSAGE", ev->u.klog.text };
		f[n++] = (struct ev_field){ "PRIORITY", prio };
		f[n++] = (struct ev_field){ "SYSLOG_FACILITY", fac };
		f[n++] = (struct ev_field){ "SYSLOG_IDENTIFIER", "kernel" };
		f[n++] = (struct ev_field){ "_TRANSPORT", "kernel" };
	} else {
		ret = ev_incident_fields(ev, f, EV_FIELDS_MAX, buf, sizeof(buf));
		if (ret < 0)
			return ret;
		n = (unsigned int)ret;
		f[n++] = (struct ev_field){ "SYSLOG_IDENTIFIER", "usbtrail" };
	}
	n = sink_pcapng_ident(ev, f, n, sizeof(f) / sizeof(f[0]), dev,
			      sizeof(dev));

	p->entry.len = 0;
	ret = pcapng_journal_entry(&p->entry, real_ns / 1000, mono_ns / 1000,
				   p->boot_id, f, n);
	if (ret)
		return ret;
	return pcapng_put_sje(&p->buf, p->entry.data, p->entry.len);
}

static int sink_pcapng_event(struct rec_sink *s, const struct ev *ev)
{
	struct sink_pcapng *p = s->priv;
	int ret;

	if (p->err)
		return p->err;
	switch (ev->type) {
	case EV_USBMON:
		ret = sink_pcapng_usbmon(p, ev);
		break;
	case EV_TRACE:
		ret = sink_pcapng_trace(p, ev);
		break;
	case EV_KLOG:
	case EV_INCIDENT:
		ret = sink_pcapng_journal(p, ev);
		break;
	case EV_DEVICE:
	case EV_SAMPLE:
	case EV_MARKER:
	case EV_LOST:
	case EV_TYPE_MAX:
	default:
		return 1;	/* events.jsonl's only */
	}
	if (ret)
		return ret;
	if (p->buf.len >= SINK_PCAPNG_FLUSH_BYTES ||
	    ev->t_ns - p->flushed_t_ns >= SINK_PCAPNG_FLUSH_NS) {
		p->flushed_t_ns = ev->t_ns;
		return sink_pcapng_flush(p);
	}
	return 0;
}

static void sink_pcapng_free(struct sink_pcapng *p)
{
	if (p->fd >= 0)
		close(p->fd);
	pcapng_buf_free(&p->buf);
	pcapng_buf_free(&p->entry);
	free(p);
}

static int sink_pcapng_close(struct rec_sink *s)
{
	struct sink_pcapng *p = s->priv;
	int ret;

	if (!p)
		return 0;
	ret = sink_pcapng_flush(p);
	if (close(p->fd) && !ret)
		ret = -errno;
	p->fd = -1;
	sink_pcapng_free(p);
	s->priv = NULL;
	return ret;
}

int sink_pcapng_open(struct rec_sink *s, const char *path,
		     const struct ev_clock *clock)
{
	struct sink_pcapng *p;
	int ret;

	if (strlen(path) >= sizeof(s->path))
		return -ENAMETOOLONG;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->clock = *clock;
	sink_pcapng_boot_id(p->boot_id);
	/*
	 * A new file in place of any old one: what a link there points to
	 * is left alone.  The user's under sudo (owner.h).
	 */
	if (unlink(path) && errno != ENOENT) {
		ret = -errno;
		goto err_free;
	}
	p->fd = owner_open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (p->fd < 0) {
		ret = p->fd;
		goto err_free;
	}
	ret = pcapng_put_shb(&p->buf, "usbtrail record");
	if (!ret)
		ret = pcapng_put_idb(&p->buf, PCAPNG_LINKTYPE_USB_LINUX_MMAPPED,
				     0, "usbmon0",
				     "usbmon, all USB buses (usbtrail record)",
				     9);
	if (!ret)
		ret = pcapng_put_idb(&p->buf, PCAPNG_LINKTYPE_USER0, 0,
				     "usbtrail.ko",
				     "usbtrail records of usbtrail.ko "
				     "(tools/wireshark/usbtrail.lua)", 9);
	if (!ret)
		ret = pcapng_put_idb(&p->buf, PCAPNG_LINKTYPE_USER0, 0,
				     "tracefs",
				     "usbtrail records of tracefs "
				     "(tools/wireshark/usbtrail.lua)", 9);
	if (!ret)
		ret = sink_pcapng_flush(p);
	if (ret)
		goto err_free;

	memset(s, 0, sizeof(*s));
	s->name = "pcapng";
	s->event = sink_pcapng_event;
	s->close = sink_pcapng_close;
	s->priv = p;
	snprintf(s->path, sizeof(s->path), "%s", path);
	return 0;

err_free:
	sink_pcapng_free(p);
	return ret;
}
