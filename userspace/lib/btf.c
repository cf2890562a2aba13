// SPDX-License-Identifier: GPL-2.0-only
/*
 * btf: a structure's size and its members' offsets, from the kernel's BTF
 * (Documentation/bpf/btf.rst) as libbpf parses it.  See btf.h.
 *
 * libbpf checks the header, every type's length and every type and name
 * reference, swaps a foreign byte order, and is updated with the kernel
 * (a distribution's libbpf knows the kinds its kernel writes); this file
 * only asks it questions.
 */
#include <errno.h>
#include <string.h>

#include <bpf/btf.h>

#include "btf.h"

/* struct NAME in b or its base, or NULL */
static const struct btf_type *btf_struct(const struct btf *b,
					 const char *name)
{
	__s32 id = btf__find_by_name_kind(b, name, BTF_KIND_STRUCT);

	return id > 0 ? btf__type_by_id(b, (__u32)id) : NULL;
}

int btf_struct_size(const struct btf *b, const char *name, uint32_t *size)
{
	const struct btf_type *t;

	if (!b || !name || !size)
		return -EINVAL;
	t = btf_struct(b, name);
	if (!t)
		return -ENOENT;
	*size = t->size;
	return 0;
}

int btf_member_offset(const struct btf *b, const char *name,
		      const char *member, uint32_t *offset)
{
	const struct btf_member *m;
	const struct btf_type *t;
	const char *n;
	__u32 bits;
	__u16 i;

	if (!b || !name || !member || !offset)
		return -EINVAL;
	t = btf_struct(b, name);
	if (!t)
		return -ENOENT;
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		n = btf__name_by_offset(b, m->name_off);
		if (!n || strcmp(n, member))
			continue;
		bits = btf_member_bit_offset(t, i);
		if (btf_member_bitfield_size(t, i) || bits % 8)
			return -ENOENT;
		*offset = bits / 8;
		return 0;
	}
	return -ENOENT;
}
