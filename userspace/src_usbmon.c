// SPDX-License-Identifier: GPL-2.0-only
/*
 * src_usbmon.c - the recorder's usbmon source: every URB submission,
 * completion and error on every USB bus, from /dev/usbmon0's binary
 * interface, one EV_USBMON event each.
 *
 * The ring is mmapped (mon_bin.c keeps events contiguous once it is) and
 * read with MON_IOCX_MFETCH, which hands over the offsets of up to N
 * events; each is copied out (the header, ISO descriptors and at most
 * --payload bytes of data) and the batch released at once (MFLUSH).  usbmon stamps events with CLOCK_REALTIME (ktime_get_real_ts64);
 * they are moved onto the recorder's CLOCK_BOOTTIME by the offset measured
 * at the start.  The ring drops events when full and counts them
 * (MON_IOCG_STATS); each count that grows becomes an EV_LOST event.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "record.h"
#include "usbmon.h"

#define SRC_USBMON_DEVICE	"/dev/usbmon0"	/* bus 0: all buses */
/*
 * usbmon copies each URB's data into the ring up to a fifth of the ring
 * (mon_bin.c: "if (length >= rp->b_size/5)"), whatever part of it the
 * reader keeps: the ring's size, not --payload, says how many URBs it
 * holds.  make demo (UAS, 512 KiB writes, in the test bed) lost 690 of
 * about 11000 events with a 4 MiB ring and 140 to 190 with 16 MiB,
 * none with 64 MiB (mon_bin.c's BUFF_MAX), the default; --usbmon-ring
 * takes less where memory is short.  BUFF_MAX was 1200 KiB until 6.18
 * (368ed48a5ef5 "usb: mon: Increase BUFF_MAX to 64 MiB to support
 * multi-MB URBs", in the 5.4 to 6.12 stable series since December 2025):
 * an older kernel refuses more (EINVAL), and a kernel short of memory
 * (ENOMEM) too: the ring halves until usbmon takes it, to 1200 KiB.
 */
/*
 * usbmon wakes its reader for every event; woken so, the recorder took
 * 1.4 to 1.6 times tcpdump's CPU for the same 18000 URB events
 * (bench/usbmon-vs-dumpcap.sh), where a pause of 10 ms after each read,
 * letting the events of those 10 ms gather for one read, brought it to
 * 0.83 times.
 * The pause is at most the time in which a quarter of the ring fills at
 * USB 3.2 Gen 2's top rate (about 1.2 GB/s): none for a small ring.
 */
#define SRC_USBMON_HOLDOFF_MS	10
#define SRC_USBMON_FILL_BPMS	1200000u	/* bytes a ms, 10 Gbit/s */

#define SRC_USBMON_VEC		256	/* offsets per MFETCH */
#define SRC_USBMON_ROUNDS	32	/* MFETCHes per read(): let others run */

struct src_usbmon {
	uint8_t *map;
	size_t ring;
	uint32_t payload;
	uint64_t lost_total;
	uint32_t vec[SRC_USBMON_VEC];
};

static void src_usbmon_lost(struct rec_source *s, struct rec *r, uint64_t n)
{
	struct src_usbmon *u = s->priv;
	struct ev *ev = ev_new(EV_LOST, EV_SRC_USBMON, ev_clock_now());

	s->lost += n;
	u->lost_total += n;
	if (!ev) {
		rec_emit(r, NULL);
		return;
	}
	ev->u.lost.source = EV_SRC_USBMON;
	ev->u.lost.count = n;
	ev->u.lost.total = u->lost_total;
	snprintf(ev->u.lost.why, sizeof(ev->u.lost.why),
		 "usbmon ring full");
	rec_emit(r, ev);
}

/*
 * One event of the ring at off, copied out of it (what the recorder
 * keeps of it): NULL for a filler, a malformed one (counted) or no memory
 * (*nomem set).
 */
static struct ev *src_usbmon_copy(struct rec_source *s, struct rec *r,
				   uint32_t off, bool *nomem)
{
	struct src_usbmon *u = s->priv;
	uint32_t desclen, n;
	struct usbmon_event me;
	struct ev *ev;
	int64_t t;

	if (off >= u->ring ||
	    usbmon_parse(u->map + off, u->ring - off, &me) < 0) {
		s->malformed++;
		return NULL;
	}
	if (me.hdr.type == USBMON_TYPE_FILLER)
		return NULL;
	t = (int64_t)usbmon_realtime_ns(&me.hdr) - rec_clock(r)->boot_to_real_ns;
	ev = ev_new(EV_USBMON, EV_SRC_USBMON, t > 0 ? (uint64_t)t : 0);
	if (!ev) {
		*nomem = true;
		return NULL;
	}
	ev->u.usbmon.hdr = me.hdr;
	ev->ident.busnum = me.hdr.busnum;
	ev->ident.devnum = me.hdr.devnum;
	/* ISO descriptors always, then at most payload bytes of data */
	desclen = me.hdr.ndesc * USBMON_ISODESC_SIZE;
	n = me.datalen < u->payload ? me.datalen : u->payload;
	if (desclen + n) {
		ev->u.usbmon.data = malloc(desclen + n);
		if (!ev->u.usbmon.data) {
			ev_free(ev);
			*nomem = true;
			return NULL;
		}
		if (desclen)
			memcpy(ev->u.usbmon.data, me.desc, desclen);
		if (n)
			memcpy(ev->u.usbmon.data + desclen, me.data, n);
		ev->u.usbmon.caplen = desclen + n;
	}
	s->events++;
	return ev;
}

/*
 * Each batch is copied out of the ring and released (MFLUSH) before the
 * recorder gets its events: the ring's room is then held only for the
 * time of a copy, not while the sinks write.  usbmon keeps up to a fifth
 * of the ring of each URB's data, so a ring holds only about five large
 * transfers: a reader that holds on to them while it formats them drops
 * the next ones at the first burst.
 */
static int src_usbmon_read(struct rec_source *s, struct rec *r)
{
	struct src_usbmon *u = s->priv;
	struct usbmon_stats st;
	struct ev *evs[SRC_USBMON_VEC];
	uint32_t n, i;
	unsigned int round;
	bool nomem;
	int ret = 0;

	for (round = 0; round < SRC_USBMON_ROUNDS; round++) {
		struct usbmon_mfetch mf = { u->vec, SRC_USBMON_VEC, 0 };

		if (ioctl(s->fd, USBMON_IOCX_MFETCH, &mf) < 0) {
			if (errno != EAGAIN && errno != EINTR)
				ret = -errno;
			break;
		}
		n = mf.nfetch < SRC_USBMON_VEC ? mf.nfetch : SRC_USBMON_VEC;
		nomem = false;
		for (i = 0; i < n; i++)
			evs[i] = src_usbmon_copy(s, r, u->vec[i], &nomem);
		if (n && ioctl(s->fd, USBMON_IOCH_MFLUSH, n) < 0 && !ret)
			ret = -errno;
		for (i = 0; i < n; i++)
			if (evs[i])
				rec_emit(r, evs[i]);
		if (nomem)
			rec_emit(r, NULL);
		if (ret || mf.nfetch < SRC_USBMON_VEC)
			break;
	}
	if (ioctl(s->fd, USBMON_IOCG_STATS, &st) == 0 && st.dropped)
		src_usbmon_lost(s, r, st.dropped);
	return ret;
}

static void src_usbmon_close(struct rec_source *s, struct rec *r)
{
	struct src_usbmon *u = s->priv;

	if (!u)
		return;
	if (s->fd >= 0)
		src_usbmon_read(s, r);
	if (u->map && u->map != MAP_FAILED)
		munmap(u->map, u->ring);
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	free(u);
	s->priv = NULL;
}

size_t src_usbmon_ring(const struct rec_source *s)
{
	const struct src_usbmon *u = s->priv;

	return u ? u->ring : 0;
}

int src_usbmon_open(struct rec_source *s, struct rec *r, uint32_t payload,
		    uint32_t ring)
{
	struct src_usbmon *u;
	int fd, ret, size;
	uint32_t want;

	(void)r;
	/* no /dev/usbmon0: the usbmon module is not loaded */
	fd = open(SRC_USBMON_DEVICE, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* the ring cannot change size once mapped, so first */
	for (want = ring;; want /= 2) {
		if (want < SRC_USBMON_RING_MIN)
			want = SRC_USBMON_RING_MIN;
		if (!ioctl(fd, USBMON_IOCT_RING_SIZE, want))
			break;
		if ((errno != EINVAL && errno != ENOMEM) ||
		    want == SRC_USBMON_RING_MIN) {
			ret = -errno;
			goto err_close;
		}
	}
	size = ioctl(fd, USBMON_IOCQ_RING_SIZE);
	if (size <= 0) {
		ret = size < 0 ? -errno : -EIO;
		goto err_close;
	}
	u = calloc(1, sizeof(*u));
	if (!u) {
		ret = -ENOMEM;
		goto err_close;
	}
	u->ring = (size_t)size;
	u->payload = payload;
	u->map = mmap(NULL, u->ring, PROT_READ, MAP_SHARED, fd, 0);
	if (u->map == MAP_FAILED) {
		ret = -errno;
		goto err_free;
	}

	memset(s, 0, sizeof(*s));
	s->name = "usbmon";
	s->id = EV_SRC_USBMON;
	s->fd = fd;
	s->read = src_usbmon_read;
	s->close = src_usbmon_close;
	s->priv = u;
	s->holdoff_ms = (uint32_t)(u->ring / 4 / SRC_USBMON_FILL_BPMS);
	if (s->holdoff_ms > SRC_USBMON_HOLDOFF_MS)
		s->holdoff_ms = SRC_USBMON_HOLDOFF_MS;
	return 0;

err_free:
	free(u);
err_close:
	close(fd);
	return ret;
}
