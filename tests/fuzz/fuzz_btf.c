// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_btf.c - libFuzzer target for userspace/lib/btf.c over libbpf's
 * parser: any bytes in place of /sys/kernel/btf/vmlinux must be refused
 * by btf__new() or answered from within the blob.  (A module's split BTF
 * libbpf 1.1 parses from a file only, which a fuzzer should not write.)
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

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

/* libbpf's complaints about each bad input would drown the fuzzer's */
static int fuzz_quiet(enum libbpf_print_level level, const char *fmt,
		      va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct btf *b;

	libbpf_set_print(fuzz_quiet);
	if (size > UINT32_MAX)
		return 0;
	b = btf__new(data, (__u32)size);
	if (!b)
		return 0;
	fuzz_ask(b);
	btf__free(b);
	return 0;
}
