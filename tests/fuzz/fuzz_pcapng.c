// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_pcapng.c - libFuzzer target for the pcapng reader of
 * userspace/lib/pcapng.c (the bug report trims captures with it): any bytes
 * walk as blocks or are refused, packet and journal fields stay inside
 * their block, a trace record packet (recpkt.c) parses or is refused and
 * packs back to what it parsed from, and a file the writer makes reads
 * back, with its packet id.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pcapng.h"
#include "recpkt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* a record packet: parsed or refused; parsed, it packs back the same */
static void fuzz_pcapng_record(const uint8_t *data, size_t size)
{
	static struct ev ev, back;
	uint8_t pkt[RECPKT_MAX];
	size_t n;

	if (recpkt_parse(data, size, &ev))
		return;
	n = recpkt_pack(&ev, pkt);
	if (n > RECPKT_MAX || recpkt_parse(pkt, n, &back) ||
	    back.id != ev.id || back.t_ns != ev.t_ns ||
	    strcmp(back.ident.disk, ev.ident.disk) ||
	    memcmp(&back.u.rec, &ev.u.rec, sizeof(ev.u.rec)))
		__builtin_trap();
}

static void fuzz_pcapng_walk(const uint8_t *data, size_t size, int must_pass)
{
	static const char *const names[] = {
		"MESSAGE", "__REALTIME_TIMESTAMP", "PRIORITY", "A",
	};
	struct pcapng_reader rd = { 0 };
	struct pcapng_block blk;
	struct pcapng_epb epb;
	const uint8_t *v;
	size_t off = 0, vlen, i;
	int r;

	while ((r = pcapng_next_block(&rd, data, size, &off, &blk)) == 1) {
		if (blk.body < data || blk.body + blk.body_len > data + size ||
		    off > size)
			__builtin_trap();
		if (blk.type == PCAPNG_BT_EPB &&
		    pcapng_epb_parse(&rd, &blk, &epb) == 0 &&
		    epb.data + epb.caplen > blk.body + blk.body_len)
			__builtin_trap();
		if (blk.type == PCAPNG_BT_EPB &&
		    pcapng_epb_parse(&rd, &blk, &epb) == 0 &&
		    pcapng_if_linktype(&rd, epb.if_id) == PCAPNG_LINKTYPE_USER0)
			fuzz_pcapng_record(epb.data, epb.caplen);
		if (must_pass && blk.type == PCAPNG_BT_EPB &&
		    (pcapng_epb_parse(&rd, &blk, &epb) ||
		     epb.packet_id != 0x0102030405060708ull))
			__builtin_trap();
		if (blk.type != PCAPNG_BT_SJE)
			continue;
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (pcapng_journal_field(blk.body, blk.body_len,
						 names[i], &v, &vlen) == 0 &&
			    (v < blk.body ||
			     v + vlen > blk.body + blk.body_len))
				__builtin_trap();
	}
	if (must_pass && r != 0)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pcapng_buf b = { 0 }, e = { 0 };
	struct ev_field f = { "MESSAGE", NULL };
	struct iovec iov = { (void *)(uintptr_t)data, size };
	char *msg;

	fuzz_pcapng_walk(data, size, 0);

	/* the input as a packet and as a message: written, read back */
	msg = malloc(size + 1);
	if (!msg)
		return 0;
	memcpy(msg, data, size);
	msg[size] = '\0';
	f.value = msg;
	if (pcapng_put_shb(&b, "fuzz") == 0 &&
	    pcapng_put_idb(&b, PCAPNG_LINKTYPE_USB_LINUX_MMAPPED, 0, "x", NULL,
			   9) == 0 &&
	    pcapng_put_idb(&b, PCAPNG_LINKTYPE_USER0, 0, "r", NULL, 9) == 0 &&
	    pcapng_put_epb_iov(&b, size & 1, size, &iov, 1, 0,
			       0x0102030405060708ull) == 0 &&
	    pcapng_journal_entry(&e, 1, 2, NULL, &f, 1) == 0 &&
	    pcapng_put_sje(&b, e.data, e.len) == 0)
		fuzz_pcapng_walk(b.data, b.len, 1);
	pcapng_buf_free(&b);
	pcapng_buf_free(&e);
	free(msg);
	return 0;
}
