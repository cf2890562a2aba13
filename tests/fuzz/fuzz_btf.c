// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_btf.c - libFuzzer target for userspace/lib/btf.c over libbpf's
 * parser: any bytes in place of /sys/kernel/btf/vmlinux must be refused
 * by btf__new() or answered from within the blob.  (A module's split BTF
 * libbpf 1.1 parses from a file only, which a fuzzer should not write.)
 * Inputs are capped at 64 KiB, as tests/fuzz/run.sh runs them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <linux/btf.h>

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

static void fuzz_parse(const void *blob, size_t size)
{
	struct btf *b = btf__new(blob, (__u32)size);

	if (!b)
		return;
	fuzz_ask(b);
	btf__free(b);
}

/*
 * The input as it comes, and as types and strings behind a header made
 * here (the first two bytes give the types' length): random bytes seldom
 * make a header libbpf takes, and the types are what the lookups walk.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t blob[sizeof(struct btf_header) + 65536];
	struct btf_header h = {
		.magic = BTF_MAGIC, .version = BTF_VERSION,
		.hdr_len = sizeof(h),
	};
	size_t body;

	libbpf_set_print(fuzz_quiet);
	if (size > 65536)
		return 0;
	fuzz_parse(data, size);
	if (size < 2)
		return 0;
	body = size - 2;
	h.type_len = (uint32_t)((data[0] | data[1] << 8) & ~3u);
	if (h.type_len > body)
		h.type_len = (uint32_t)(body & ~(size_t)3);
	h.str_off = h.type_len;
	h.str_len = (uint32_t)(body - h.type_len);
	memcpy(blob, &h, sizeof(h));
	memcpy(blob + sizeof(h), data + 2, body);
	fuzz_parse(blob, sizeof(h) + body);
	return 0;
}
