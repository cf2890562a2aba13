// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_usbmon.c - libFuzzer target for userspace/lib/usbmon.c: any bytes a
 * usbmon ring (or a corrupted capture) holds must parse or be refused,
 * never read outside them, and print as 1u text into any buffer size
 * without overrunning it.  A parsed header packs back to what was read.
 * The input is also taken as one packet of a capture, which may be cut.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "usbmon.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t packed[USBMON_HDR_SIZE];
	char line[512], tiny[9];
	struct usbmon_event ev;
	size_t off = 0, step;
	int n;

	/* the whole input as one packet of a capture (cut or not) */
	n = usbmon_parse_packet(data, size, &ev);
	if (n >= 0) {
		if ((size_t)n > size ||
		    (ev.datalen && ev.data + ev.datalen > data + size) ||
		    (ev.ndesc_cap && ev.desc + (size_t)ev.ndesc_cap *
		     USBMON_ISODESC_SIZE > data + size))
			__builtin_trap();
		usbmon_format_1u(&ev, 1, line, sizeof(line));
		if (strlen(line) >= sizeof(line))
			__builtin_trap();
	}

	/* events one after the other, as the ring lays them out */
	while (off < size) {
		n = usbmon_parse(data + off, size - off, &ev);
		if (n < 0)
			break;
		if ((size_t)n > size - off || n < USBMON_HDR_SIZE)
			__builtin_trap();
		usbmon_hdr_pack(&ev.hdr, packed);
		if (memcmp(packed, data + off, USBMON_HDR_SIZE))
			__builtin_trap();
		if (ev.hdr.type != USBMON_TYPE_FILLER) {
			if (ev.datalen && (ev.data < data + off ||
					   ev.data + ev.datalen > data + size))
				__builtin_trap();
			n = usbmon_format_1u(&ev, 1234, line, sizeof(line));
			if (strlen(line) >= sizeof(line) || n < 0)
				__builtin_trap();
			usbmon_format_1u(&ev, 0, tiny, sizeof(tiny));
			if (strlen(tiny) >= sizeof(tiny))
				__builtin_trap();
		}
		step = ((size_t)USBMON_HDR_SIZE + ev.hdr.len_cap +
			USBMON_ALIGN - 1) & ~(size_t)(USBMON_ALIGN - 1);
		if (step > size - off)
			break;
		off += step;
	}
	return 0;
}
