// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_modrec.c - libFuzzer target for userspace/lib/modrec.c and the record
 * formatter shared with the module (module/ut_format.c): any 64 bytes a
 * reader gets from /dev/usbtrail (or a corrupted recording) must parse or
 * be refused, and format into any buffer size without overrunning it.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "modrec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct usbtrail_record rec;
	char line[512], tiny[8];
	int n;

	while (size >= 1) {
		n = modrec_parse(data, size, &rec);
		if (n == -EMSGSIZE)
			break;
		if (n > 0) {
			modrec_format(&rec, line, sizeof(line));
			if (strlen(line) >= sizeof(line))
				__builtin_trap();
			modrec_format(&rec, tiny, sizeof(tiny));
			if (strlen(tiny) >= sizeof(tiny))
				__builtin_trap();
		}
		data += USBTRAIL_RECORD_SIZE <= size ? USBTRAIL_RECORD_SIZE : size;
		size -= USBTRAIL_RECORD_SIZE <= size ? USBTRAIL_RECORD_SIZE : size;
	}
	return 0;
}
