// SPDX-License-Identifier: GPL-2.0-only
/*
 * utbtf - write a BTF of the running kernel that differs from it in one
 * place, for tests/testbed/17-module-layout.sh: a kernel whose driver's
 * private declarations do not match what usbtrail.ko mirrors.
 *
 *   utbtf DIR MODULE member STRUCT.MEMBER BYTES
 *        DIR/MODULE is MODULE's BTF (/sys/kernel/btf/MODULE) with
 *        STRUCT's MEMBER moved BYTES further, as if a member of that
 *        size had been added before it
 *   utbtf DIR MODULE tracepoint NAME
 *        ... with tracepoint NAME's last parameter of its first one's
 *        type (void *), as if its prototype had changed
 *
 * DIR/vmlinux is a copy of /sys/kernel/btf/vmlinux, the base: DIR is what
 * usbtrail reads as USBTRAIL_BTF_DIR.  Exit 0, or 1 with a message.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/btf.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

static int utbtf_die(const char *what, int err)
{
	fprintf(stderr, "utbtf: %s: %s\n", what, strerror(err < 0 ? -err : err));
	return 1;
}

static int utbtf_write(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	const char *p = data;

	if (fd < 0)
		return -errno;
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			close(fd);
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return close(fd) ? -errno : 0;
}

/*
 * The module's BTF is changed in its file's bytes: libbpf copies no split
 * BTF (btf__add_btf() refuses one), but its parse keeps the types as the
 * file lays them out, so a type's place in the parse is its place in the
 * file's type section.
 */
struct utbtf {
	struct btf *b;			/* the module's, parsed */
	unsigned char *raw;		/* the file's bytes */
	size_t len;
	size_t types;			/* where the type section begins */
	const char *first;		/* the parse's first type of the module */
};

/* Type @id's bytes in the file, to change in place; NULL if not the module's */
static struct btf_type *utbtf_type(struct utbtf *u, __u32 id)
{
	const char *t = (const char *)btf__type_by_id(u->b, id);
	size_t at;

	if (!t || id < btf__type_cnt(btf__base_btf(u->b)))
		return NULL;
	at = u->types + (size_t)(t - u->first);
	if (at + sizeof(struct btf_type) > u->len)
		return NULL;
	return (struct btf_type *)(void *)(u->raw + at);
}

/* STRUCT.MEMBER moved @bytes further, STRUCT as much larger */
static int utbtf_member(struct utbtf *u, const char *what, long bytes)
{
	char st[128], *member;
	const struct btf_type *t;
	struct btf_type *w;
	struct btf_member *m;
	__s32 id;

	snprintf(st, sizeof(st), "%s", what);
	member = strchr(st, '.');
	if (!member)
		return -EINVAL;
	*member++ = '\0';
	id = btf__find_by_name_kind(u->b, st, BTF_KIND_STRUCT);
	if (id <= 0)
		return -ENOENT;
	t = btf__type_by_id(u->b, (__u32)id);
	w = utbtf_type(u, (__u32)id);
	if (!w)
		return -EPERM;		/* vmlinux's: not in the module's file */
	m = btf_members(w);
	for (__u16 i = 0; i < btf_vlen(t); i++, m++) {
		const char *n = btf__name_by_offset(u->b, m->name_off);

		if (n && !strcmp(n, member)) {
			m->offset += (__u32)(bytes * 8);
			w->size += (__u32)bytes;
			return 0;
		}
	}
	return -ENOENT;
}

/*
 * Tracepoint @name's last parameter made the type of its first (the
 * probe's void *): a prototype the probe was not built for
 */
static int utbtf_tracepoint(struct utbtf *u, const char *name)
{
	const struct btf_type *t;
	struct btf_param *p;
	struct btf_type *w;
	char td[160];
	__s32 id;

	snprintf(td, sizeof(td), "btf_trace_%s", name);
	id = btf__find_by_name_kind(u->b, td, BTF_KIND_TYPEDEF);
	if (id <= 0)
		return -ENOENT;
	t = btf__type_by_id(u->b, (__u32)id);
	t = t ? btf__type_by_id(u->b, t->type) : NULL;	/* the pointer */
	if (!t || !btf_is_ptr(t))
		return -ENOENT;
	w = utbtf_type(u, t->type);
	t = btf__type_by_id(u->b, t->type);
	if (!t || !btf_is_func_proto(t) || btf_vlen(t) < 2)
		return -ENOENT;
	if (!w)
		return -EPERM;
	p = (struct btf_param *)(void *)(w + 1);
	p[btf_vlen(t) - 1].type = p[0].type;
	return 0;
}

/* @path's bytes, all of them */
static unsigned char *utbtf_read(const char *path, size_t *len)
{
	unsigned char *buf = NULL, *nb;
	size_t cap = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	*len = 0;
	if (fd < 0)
		return NULL;
	for (;;) {
		if (*len == cap) {
			cap = cap ? cap * 2 : 1 << 16;
			nb = realloc(buf, cap);
			if (!nb)
				break;
			buf = nb;
		}
		n = read(fd, buf + *len, cap - *len);
		if (n <= 0) {
			close(fd);
			if (n < 0) {
				free(buf);
				return NULL;
			}
			return buf;
		}
		*len += (size_t)n;
	}
	close(fd);
	free(buf);
	return NULL;
}

int main(int argc, char **argv)
{
	struct utbtf u = { 0 };
	struct btf_header h;
	struct btf *base;
	char path[PATH_MAX];
	unsigned char *vm;
	size_t vlen;
	int err;

	if (argc < 5 || ((strcmp(argv[3], "member") || argc != 6) &&
			 (strcmp(argv[3], "tracepoint") || argc != 5))) {
		fprintf(stderr, "usage: utbtf DIR MODULE member STRUCT.MEMBER BYTES\n"
			"       utbtf DIR MODULE tracepoint NAME\n");
		return 2;
	}
	base = btf__parse("/sys/kernel/btf/vmlinux", NULL);
	if (libbpf_get_error(base))
		return utbtf_die("/sys/kernel/btf/vmlinux", errno);
	snprintf(path, sizeof(path), "/sys/kernel/btf/%s", argv[2]);
	u.b = btf__parse_split(path, base);
	if (libbpf_get_error(u.b))
		return utbtf_die(path, errno);
	u.raw = utbtf_read(path, &u.len);
	if (!u.raw || u.len < sizeof(h))
		return utbtf_die(path, u.raw ? EINVAL : errno);
	memcpy(&h, u.raw, sizeof(h));
	if (h.magic != BTF_MAGIC || (size_t)h.hdr_len + h.type_off > u.len)
		return utbtf_die(path, EINVAL);
	u.types = h.hdr_len + h.type_off;
	u.first = (const char *)btf__type_by_id(u.b,
						btf__type_cnt(base));
	if (!u.first)
		return utbtf_die("the module's first type", ENOENT);
	if (!strcmp(argv[3], "member"))
		err = utbtf_member(&u, argv[4], strtol(argv[5], NULL, 0));
	else
		err = utbtf_tracepoint(&u, argv[4]);
	if (err)
		return utbtf_die(argv[4], err);
	snprintf(path, sizeof(path), "%s/%s", argv[1], argv[2]);
	err = utbtf_write(path, u.raw, u.len);
	if (err)
		return utbtf_die(path, err);
	vm = utbtf_read("/sys/kernel/btf/vmlinux", &vlen);
	snprintf(path, sizeof(path), "%s/vmlinux", argv[1]);
	err = vm ? utbtf_write(path, vm, vlen) : -errno;
	if (err)
		return utbtf_die(path, err);
	free(vm);
	free(u.raw);
	btf__free(u.b);
	btf__free(base);
	return 0;
}
