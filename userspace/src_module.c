// SPDX-License-Identifier: GPL-2.0-only
/*
 * src_module.c - the recorder's source for usbtrail.ko: records read from
 * /dev/usbtrail (docs/module.md), one EV_TRACE event each.
 *
 * The module stamps records with CLOCK_BOOTTIME, the recorder's clock, so
 * times pass through unchanged.  A lost record (the module's stream buffer
 * was full) becomes an EV_LOST event with the module's count.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "modrec.h"
#include "module_probes.h"
#include "record.h"

#define SRC_MODULE_BATCH	256	/* records per read() */
#define SRC_MODULE_READS	64	/* read()s per call: let others run */

struct src_module {
	uint8_t buf[SRC_MODULE_BATCH * USBTRAIL_RECORD_SIZE];
	uint64_t lost_total;
	struct usbtrail_info info;	/* when opened; zero if attached */
	/* its layout table once answered, and the BTF's answers */
	struct usbtrail_layout layout, layout_btf;
};

static void src_module_record(struct rec_source *s, struct rec *r,
			      const struct usbtrail_record *rec)
{
	struct src_module *m = s->priv;
	struct ev *ev;

	if (rec->type == USBTRAIL_REC_LOST) {
		ev = ev_new(EV_LOST, EV_SRC_MODULE, rec->ts_ns);
		s->lost += rec->u.lost.count;
		m->lost_total = rec->u.lost.total;
		if (!ev)
			return;
		ev->u.lost.source = EV_SRC_MODULE;
		ev->u.lost.count = rec->u.lost.count;
		ev->u.lost.total = rec->u.lost.total;
		snprintf(ev->u.lost.why, sizeof(ev->u.lost.why),
			 "module stream buffer full (raise stream_kb)");
		rec_emit(r, ev);
		return;
	}
	ev = ev_new(EV_TRACE, EV_SRC_MODULE, rec->ts_ns);
	if (!ev) {
		rec_emit(r, NULL);
		return;
	}
	ev->u.rec = *rec;
	ev_ident_from_rec(ev);
	s->events++;
	rec_emit(r, ev);
}

static int src_module_read(struct rec_source *s, struct rec *r)
{
	struct src_module *m = s->priv;
	struct usbtrail_record rec;
	unsigned int i;
	ssize_t n;
	size_t off;

	for (i = 0; i < SRC_MODULE_READS; i++) {
		n = read(s->fd, m->buf, sizeof(m->buf));
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return 0;
			return -errno;
		}
		if (!n) {	/* a pipe's end; /dev/usbtrail never ends */
			rec_source_done(r, s);
			return 0;
		}
		for (off = 0; off < (size_t)n; off += USBTRAIL_RECORD_SIZE) {
			if (modrec_parse(m->buf + off, (size_t)n - off,
					 &rec) < 0) {
				s->malformed++;
				continue;
			}
			src_module_record(s, r, &rec);
		}
		if ((size_t)n < sizeof(m->buf))
			return 0;
	}
	return 0;
}

static void src_module_discard(int fd, struct src_module *m)
{
	unsigned int i;

	for (i = 0; i < 4096; i++)
		if (read(fd, m->buf, sizeof(m->buf)) < (ssize_t)sizeof(m->buf))
			return;
}

int src_module_attach(struct rec_source *s, struct rec *r, int fd)
{
	(void)r;
	memset(s, 0, sizeof(*s));
	s->priv = calloc(1, sizeof(struct src_module));
	if (!s->priv) {
		close(fd);
		return -ENOMEM;
	}
	s->name = "module";
	s->id = EV_SRC_MODULE;
	s->fd = fd;
	s->read = src_module_read;
	s->close = rec_source_close_fd;
	return 0;
}

const struct usbtrail_info *src_module_info(const struct rec_source *s)
{
	const struct src_module *m = s->priv;

	return m && m->info.abi_version ? &m->info : NULL;
}

void src_module_layout(const struct rec_source *s,
		       const struct usbtrail_layout **table,
		       const struct usbtrail_layout **btf)
{
	const struct src_module *m = s->priv;

	*table = m && m->layout.count ? &m->layout : NULL;
	*btf = m && m->layout.count ? &m->layout_btf : NULL;
}

int src_module_open(struct rec_source *s, struct rec *r)
{
	struct usbtrail_layout layout, btf;
	struct usbtrail_info info;
	int fd, ret;

	fd = open(USBTRAIL_DEVICE, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = module_probes_info(fd, &info);
	if (ret) {
		close(fd);
		return ret;
	}
	if (info.abi_version != USBTRAIL_ABI_VERSION ||
	    info.record_size != USBTRAIL_RECORD_SIZE) {
		close(fd);
		return -EPROTO;
	}
	/*
	 * The probes on private declarations attach once the BTF verifies
	 * them: answered first, the probe table read again.  A module
	 * without the table (ENOTTY) attached them without it.
	 */
	if (!module_probes_layout(fd, &layout, &btf))
		module_probes_info(fd, &info);
	else
		layout.count = 0;
	ret = src_module_attach(s, r, fd);
	if (ret)
		return ret;
	((struct src_module *)s->priv)->info = info;
	((struct src_module *)s->priv)->layout = layout;
	((struct src_module *)s->priv)->layout_btf = btf;
	/*
	 * What the stream holds is from before the recording (the kernel
	 * log is read from now on too), and so are the drops while no one
	 * read: neither is this recording's.  Reading a full stream out
	 * cost a second of CPU under emulation; modules before the ioctl
	 * need it.
	 */
	if (ioctl(fd, USBTRAIL_IOC_DISCARD) && errno == ENOTTY)
		src_module_discard(fd, s->priv);
	return 0;
}
