// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_btf.c - libFuzzer target for userspace/lib/btf.c: any bytes in place
 * of /sys/kernel/btf/vmlinux or a module's split BTF must be refused or
 * answered from within the blob.  The input is tried as vmlinux's BTF,
 * then as a module's split on top of itself.
 */
#include <stddef.h>
#include <stdint.h>

#include "btf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_ask(const struct btf *b)
{
	static const char *const q[][2] = {
		{ "scsi_cmnd", "device" }, { "scsi_cmnd", "cmnd" },
		{ "request", "tag" }, { "", "" }, { "a", "b" },
	};
	uint32_t x;
	unsigned int i;

	for (i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
		btf_struct_size(b, q[i][0], &x);
		btf_member_offset(b, q[i][0], q[i][1], &x);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct btf base, mod;

	if (btf_open(&base, data, size, NULL))
		return 0;
	fuzz_ask(&base);
	if (!btf_open(&mod, data, size, &base))
		fuzz_ask(&mod);
	return 0;
}
