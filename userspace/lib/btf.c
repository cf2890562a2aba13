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
#include <stdio.h>
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

/*
 * Direct member @member of struct @name (not a bit field, at a whole
 * byte) into *@m, its byte offset into *@offset; -ENOENT if none
 */
static int btf_byte_member(const struct btf *b, const char *name,
			   const char *member, const struct btf_member **m,
			   uint32_t *offset)
{
	const struct btf_type *t = btf_struct(b, name);
	const char *n;
	__u16 i;

	if (!t)
		return -ENOENT;
	*m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, (*m)++) {
		n = btf__name_by_offset(b, (*m)->name_off);
		if (!n || strcmp(n, member))
			continue;
		if (btf_member_bitfield_size(t, i) ||
		    btf_member_bit_offset(t, i) % 8)
			return -ENOENT;
		*offset = btf_member_bit_offset(t, i) / 8;
		return 0;
	}
	return -ENOENT;
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

/* @s after out[*n], kept terminated; -ENAMETOOLONG once it no longer fits */
static int btf_put(char *out, size_t len, size_t *n, const char *s)
{
	size_t l = strlen(s);

	if (*n + l >= len)
		return -ENAMETOOLONG;
	memcpy(out + *n, s, l + 1);
	*n += l;
	return 0;
}

int btf_type_str(const struct btf *b, uint32_t id, char *out, size_t len)
{
	const char *quals[8];
	unsigned int nq = 0, stars = 0;
	const struct btf_type *t;
	const char *name;
	size_t n = 0;
	int err = 0;

	if (!b || !out || !len)
		return -EINVAL;
	out[0] = '\0';
	/* the pointers and qualifiers down to a named type (or void) */
	for (unsigned int depth = 0;; depth++) {
		if (depth > 16)
			return -EINVAL;
		if (!id) {
			name = "void";
			break;
		}
		t = btf__type_by_id(b, id);
		if (!t)
			return -ENOENT;
		if (btf_is_ptr(t)) {
			stars++;
			id = t->type;
			continue;
		}
		if (btf_is_const(t) || btf_is_volatile(t) || btf_is_restrict(t)) {
			/*
			 * put first, as C spells a pointed-to type's: "const
			 * char *" (a qualified pointer reads the same here)
			 */
			if (nq < sizeof(quals) / sizeof(quals[0]))
				quals[nq++] = btf_is_const(t) ? "const " :
					      btf_is_volatile(t) ? "volatile " :
					      "restrict ";
			id = t->type;
			continue;
		}
		if (btf_is_type_tag(t)) {
			id = t->type;
			continue;
		}
		name = btf__name_by_offset(b, t->name_off);
		if (!name)
			return -ENOENT;
		if (btf_is_struct(t))
			err = btf_put(out, len, &n, "struct ");
		else if (btf_is_union(t))
			err = btf_put(out, len, &n, "union ");
		else if (btf_is_enum(t) || btf_is_enum64(t))
			err = btf_put(out, len, &n, "enum ");
		else if (!btf_is_int(t) && !btf_is_typedef(t) &&
			 !btf_is_fwd(t) && !btf_is_float(t))
			return -EINVAL;
		if (btf_is_fwd(t))
			err = btf_put(out, len, &n, btf_kflag(t) ? "union " :
								   "struct ");
		break;
	}
	if (err)
		return err;
	if (nq) {
		/* qualifiers before the name: "const char *" */
		char base[128];

		if (n >= sizeof(base))
			return -ENAMETOOLONG;
		memcpy(base, out, n + 1);
		n = 0;
		out[0] = '\0';
		for (unsigned int i = 0; i < nq && !err; i++)
			err = btf_put(out, len, &n, quals[i]);
		if (!err)
			err = btf_put(out, len, &n, base);
	}
	if (!err)
		err = btf_put(out, len, &n, name);
	if (!err && stars)
		err = btf_put(out, len, &n, " ");
	for (unsigned int i = 0; i < stars && !err; i++)
		err = btf_put(out, len, &n, "*");
	return err;
}

int btf_member(const struct btf *b, const char *name, const char *member,
	       uint32_t *offset, uint32_t *size, char *type, size_t len)
{
	const struct btf_member *m;
	__s64 sz;
	int err;

	if (!b || !name || !member || !offset || !size || !type)
		return -EINVAL;
	err = btf_byte_member(b, name, member, &m, offset);
	if (err)
		return err;
	sz = btf__resolve_size(b, m->type);
	if (sz < 0)
		return (int)sz;
	*size = (uint32_t)sz;
	return btf_type_str(b, m->type, type, len);
}

int btf_tracepoint_params(const struct btf *b, const char *tp, char *out,
			  size_t len)
{
	const struct btf_param *p;
	const struct btf_type *t;
	char name[128], one[128];
	size_t n = 0;
	__s32 id;
	int err = 0;

	if (!b || !tp || !out || !len)
		return -EINVAL;
	if ((size_t)snprintf(name, sizeof(name), "btf_trace_%s", tp) >=
	    sizeof(name))
		return -ENAMETOOLONG;
	id = btf__find_by_name_kind(b, name, BTF_KIND_TYPEDEF);
	if (id <= 0)
		return -ENOENT;
	t = btf__type_by_id(b, (__u32)id);
	t = t ? btf__type_by_id(b, t->type) : NULL;
	if (!t || !btf_is_ptr(t))
		return -ENOENT;
	t = btf__type_by_id(b, t->type);
	if (!t || !btf_is_func_proto(t) || !btf_vlen(t))
		return -ENOENT;
	out[0] = '\0';
	p = btf_params(t);
	/* the first is the probe's data pointer, void *__data */
	for (__u16 i = 1; i < btf_vlen(t) && !err; i++) {
		err = btf_type_str(b, p[i].type, one, sizeof(one));
		if (!err && i > 1)
			err = btf_put(out, len, &n, ",");
		if (!err)
			err = btf_put(out, len, &n, one);
	}
	return err;
}

int btf_member_offset(const struct btf *b, const char *name,
		      const char *member, uint32_t *offset)
{
	const struct btf_member *m;

	if (!b || !name || !member || !offset)
		return -EINVAL;
	return btf_byte_member(b, name, member, &m, offset);
}
