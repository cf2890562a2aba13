// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_recpkt.c - unit tests of userspace/lib/recpkt.c: a trace record as
 * capture.pcapng's packet and back, the names at their limits, and what
 * is refused.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "recpkt.h"

static void test_recpkt_event(struct ev *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = EV_TRACE;
	ev->source = EV_SRC_MODULE;
	ev->id = 0x123456789abcull;
	ev->t_ns = 671395257896ull;
	ev->ident.busnum = -1;
	ev->ident.devnum = -1;
	ev->u.rec.ts_ns = 671395257896ull;
	ev->u.rec.seq = 285;
	ev->u.rec.type = USBTRAIL_REC_SCSI_SENSE;
	ev->u.rec.u.raw[0] = 0x70;
	ev->u.rec.u.raw[47] = 0xff;
}

static void test_recpkt_roundtrip(void **state)
{
	uint8_t pkt[RECPKT_MAX];
	struct ev ev, back;
	size_t n;

	(void)state;
	test_recpkt_event(&ev);
	/* no names: the fixed part and the record */
	n = recpkt_pack(&ev, pkt);
	assert_int_equal(n, RECPKT_FIXED + USBTRAIL_RECORD_SIZE);
	assert_int_equal(recpkt_parse(pkt, n, &back), 0);
	assert_int_equal(back.type, EV_TRACE);
	assert_int_equal(back.id, ev.id);
	assert_int_equal(back.t_ns, ev.t_ns);
	assert_int_equal(back.ident.busnum, -1);
	assert_int_equal(back.ident.devnum, -1);
	assert_string_equal(back.ident.disk, "");
	assert_memory_equal(&back.u.rec, &ev.u.rec, sizeof(ev.u.rec));

	/* every name at its longest */
	memset(ev.ident.disk, 'd', sizeof(ev.ident.disk) - 1);
	memset(ev.ident.usb, 'u', sizeof(ev.ident.usb) - 1);
	memset(ev.ident.scsi, 's', sizeof(ev.ident.scsi) - 1);
	ev.ident.busnum = 300;
	ev.ident.devnum = 127;
	n = recpkt_pack(&ev, pkt);
	assert_true(n <= RECPKT_MAX);
	assert_int_equal((n - USBTRAIL_RECORD_SIZE) % 8, 0);
	assert_int_equal(recpkt_parse(pkt, n, &back), 0);
	assert_string_equal(back.ident.disk, ev.ident.disk);
	assert_string_equal(back.ident.usb, ev.ident.usb);
	assert_string_equal(back.ident.scsi, ev.ident.scsi);
	assert_int_equal(back.ident.busnum, 300);
	assert_int_equal(back.ident.devnum, 127);
	assert_memory_equal(&back.u.rec, &ev.u.rec, sizeof(ev.u.rec));
}

static void test_recpkt_refused(void **state)
{
	uint8_t pkt[RECPKT_MAX], bad[RECPKT_MAX];
	struct ev ev, back;
	uint32_t magic;
	size_t n, i;

	(void)state;
	test_recpkt_event(&ev);
	snprintf(ev.ident.disk, sizeof(ev.ident.disk), "sdc");
	n = recpkt_pack(&ev, pkt);
	back.id = 7;
	/* every length short of the whole */
	for (i = 0; i < n; i++)
		assert_int_equal(recpkt_parse(pkt, i, &back), -EINVAL);
	assert_int_equal(back.id, 7);	/* not written */
	/* the other byte order, a later version: not guessed at */
	memcpy(bad, pkt, n);
	magic = __builtin_bswap32(RECPKT_MAGIC);
	memcpy(bad, &magic, 4);
	assert_int_equal(recpkt_parse(bad, n, &back), -EPROTONOSUPPORT);
	memcpy(bad, pkt, n);
	bad[7] = RECPKT_VERSION + 1;
	assert_int_equal(recpkt_parse(bad, n, &back), -EPROTONOSUPPORT);
	/* not ours */
	memcpy(bad, pkt, n);
	bad[0] ^= 1;
	assert_int_equal(recpkt_parse(bad, n, &back), -EINVAL);
	/* names longer than the header says */
	memcpy(bad, pkt, n);
	bad[28] = 200;
	assert_int_equal(recpkt_parse(bad, n, &back), -EINVAL);
	/* an unknown record type, an unknown source */
	memcpy(bad, pkt, n);
	bad[n - USBTRAIL_RECORD_SIZE + 12] = 0xee;
	assert_int_equal(recpkt_parse(bad, n, &back), -EINVAL);
	memcpy(bad, pkt, n);
	bad[6] = EV_SRC_USBMON;
	assert_int_equal(recpkt_parse(bad, n, &back), -EINVAL);
	assert_int_equal(back.id, 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recpkt_roundtrip),
		cmocka_unit_test(test_recpkt_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
