// SPDX-License-Identifier: GPL-2.0-only
/*
 * btf: a structure's size and its members' offsets, from the kernel's BTF
 * (Documentation/bpf/btf.rst).  See btf.h.
 *
 * A linear walk of the types per question: the few questions
 * src_tracefs.c asks once at start cost a few milliseconds on a 5 MiB
 * vmlinux blob.  Every length read from the blob is checked against it.
 */
#include <errno.h>
#include <string.h>

#include <linux/btf.h>

#include "btf.h"

#define BTF_HDR_MIN	24	/* magic .. str_len */

static uint32_t btf_u32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Bytes that follow struct btf_type for this kind, or -1 if unknown */
static long btf_extra(uint32_t info)
{
	uint32_t vlen = BTF_INFO_VLEN(info);

	switch (BTF_INFO_KIND(info)) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	case BTF_KIND_ARRAY:
		return 12;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_DATASEC:
	case BTF_KIND_ENUM64:
		return 12L * vlen;
	case BTF_KIND_ENUM:
	case BTF_KIND_FUNC_PROTO:
		return 8L * vlen;
	default:
		return -1;
	}
}

int btf_open(struct btf *b, const void *data, size_t len,
	     const struct btf *base)
{
	const uint8_t *p = data;
	uint32_t hdr_len, type_off, type_len, str_off, str_len, n = 0;
	uint16_t magic;
	size_t off;
	long extra;

	if (!b || !p || len < BTF_HDR_MIN)
		return -EINVAL;
	memcpy(&magic, p, 2);
	if (magic != BTF_MAGIC || p[2] != BTF_VERSION)
		return -EPROTONOSUPPORT;
	hdr_len = btf_u32(p + 4);
	type_off = btf_u32(p + 8);
	type_len = btf_u32(p + 12);
	str_off = btf_u32(p + 16);
	str_len = btf_u32(p + 20);
	if (hdr_len < BTF_HDR_MIN || hdr_len > len ||
	    type_off > len - hdr_len || type_len > len - hdr_len - type_off ||
	    str_off > len - hdr_len || str_len > len - hdr_len - str_off ||
	    (str_len && p[hdr_len + str_off + str_len - 1] != '\0'))
		return -EINVAL;
	/* count the types, checking each fits */
	for (off = 0; off < type_len; n++) {
		if (type_len - off < sizeof(struct btf_type))
			return -EINVAL;
		extra = btf_extra(btf_u32(p + hdr_len + type_off + off + 4));
		off += sizeof(struct btf_type);
		if (extra < 0 || (size_t)extra > type_len - off)
			return -EINVAL;
		off += (size_t)extra;
	}
	b->base = base;
	b->types = p + hdr_len + type_off;
	b->types_len = type_len;
	b->strs = (const char *)p + hdr_len + str_off;
	b->strs_len = str_len;
	b->ntypes = n;
	return 0;
}

/* A name: in a split blob, offsets past the base's strings are its own */
static const char *btf_name(const struct btf *b, uint32_t off)
{
	if (b->base) {
		if (off < b->base->strs_len)
			return b->base->strs + off;
		off -= (uint32_t)b->base->strs_len;
	}
	if (off >= b->strs_len)
		return NULL;
	return b->strs + off;
}

/* The complete struct NAME in this blob alone: its type, or NULL */
static const uint8_t *btf_find_struct(const struct btf *b, const char *name)
{
	size_t off = 0;
	const char *n;
	uint32_t info;

	while (off + sizeof(struct btf_type) <= b->types_len) {
		const uint8_t *t = b->types + off;

		info = btf_u32(t + 4);
		if (BTF_INFO_KIND(info) == BTF_KIND_STRUCT &&
		    BTF_INFO_VLEN(info) > 0) {
			n = btf_name(b, btf_u32(t));
			if (n && !strcmp(n, name))
				return t;
		}
		/* btf_open() checked every type fits */
		off += sizeof(struct btf_type) + (size_t)btf_extra(info);
	}
	return NULL;
}

static const uint8_t *btf_struct(const struct btf **b, const char *name)
{
	const uint8_t *t;

	for (; *b; *b = (*b)->base) {
		t = btf_find_struct(*b, name);
		if (t)
			return t;
	}
	return NULL;
}

int btf_struct_size(const struct btf *b, const char *name, uint32_t *size)
{
	const uint8_t *t;

	if (!b || !name || !size)
		return -EINVAL;
	t = btf_struct(&b, name);
	if (!t)
		return -ENOENT;
	*size = btf_u32(t + 8);
	return 0;
}

int btf_member_offset(const struct btf *b, const char *name,
		      const char *member, uint32_t *offset)
{
	const uint8_t *t, *m;
	uint32_t info, i, bits;
	const char *n;

	if (!b || !name || !member || !offset)
		return -EINVAL;
	t = btf_struct(&b, name);
	if (!t)
		return -ENOENT;
	info = btf_u32(t + 4);
	for (i = 0; i < BTF_INFO_VLEN(info); i++) {
		m = t + sizeof(struct btf_type) + 12 * i;
		n = btf_name(b, btf_u32(m));
		if (!n || strcmp(n, member))
			continue;
		bits = btf_u32(m + 8);
		if (BTF_INFO_KFLAG(info)) {
			if (bits >> 24)
				return -ENOENT;	/* a bit field */
			bits = BTF_MEMBER_BIT_OFFSET(bits);
		}
		if (bits % 8)
			return -ENOENT;
		*offset = bits / 8;
		return 0;
	}
	return -ENOENT;
}
