// SPDX-License-Identifier: GPL-2.0-only
/*
 * module_probes.c - usbtrail.ko's table of probes (docs/module.md,
 * "USBTRAIL_IOC_INFO"): read through the ioctl, written into meta.json,
 * and what is missing said in the report.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "btf.h"
#include "module_probes.h"
#include "ut_tables.h"

int module_probes_info(int fd, struct usbtrail_info *info)
{
	memset(info, 0, sizeof(*info));
	if (!ioctl(fd, USBTRAIL_IOC_INFO, info))
		return 0;
	if (errno != ENOTTY)
		return -errno;
	memset(info, 0, sizeof(*info));
	if (ioctl(fd, USBTRAIL_IOC_INFO_V1, info))
		return -errno;
	info->info_version = 0;	/* the padding of version 1 */
	info->nprobes = 0;
	return 0;
}

const char *module_probes_state_name(unsigned int state)
{
	switch (state) {
	case USBTRAIL_PROBE_WAITING:	return "waiting";
	case USBTRAIL_PROBE_ATTACHED:	return "attached";
	case USBTRAIL_PROBE_FAILED:	return "failed";
	case USBTRAIL_PROBE_ALIAS:	return "alias";
	case USBTRAIL_PROBE_UNVERIFIED:	return "unverified";
	default:			return "?";
	}
}

struct json_object *module_probes_json(const struct usbtrail_info *info)
{
	struct json_object *a, *k;
	char name[USBTRAIL_PROBE_NAME_LEN + 1];
	unsigned int i, n;

	if (info->info_version < 2)
		return NULL;
	n = info->nprobes < USBTRAIL_PROBES_MAX ? info->nprobes :
						  USBTRAIL_PROBES_MAX;
	a = json_object_new_array();
	for (i = 0; a && i < n; i++) {
		const struct usbtrail_probe *p = &info->probes[i];

		/* NUL-terminated by the module; not trusted to be */
		memcpy(name, p->name, sizeof(p->name));
		name[sizeof(p->name)] = '\0';
		k = json_object_new_object();
		json_object_object_add(k, "name", json_object_new_string(name));
		json_object_object_add(k, "kind", json_object_new_string(
			p->kind == USBTRAIL_PROBE_TRACEPOINT ? "tracepoint" :
			p->kind == USBTRAIL_PROBE_KRETPROBE ? "kretprobe" :
			"?"));
		json_object_object_add(k, "state", json_object_new_string(
			module_probes_state_name(p->state)));
		json_object_object_add(k, "error",
				       json_object_new_int(p->error));
		json_object_object_add(k, "source",
				       json_object_new_int64(p->source));
		if (p->flags & USBTRAIL_PROBE_F_BUILTIN)
			json_object_object_add(k, "builtin",
					       json_object_new_boolean(1));
		json_object_array_add(a, k);
	}
	return a;
}

struct json_object *module_probes_of_meta(struct json_object *meta)
{
	struct json_object *v;

	if (!meta || !json_object_object_get_ex(meta, "module_probes", &v))
		return NULL;
	return v;
}

static const char *module_probes_str(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static void module_probes_put(FILE *f, const char *s, int html)
{
	for (; *s; s++) {
		if (html && *s == '<')
			fputs("&lt;", f);
		else if (html && *s == '>')
			fputs("&gt;", f);
		else if (html && *s == '&')
			fputs("&amp;", f);
		else if (html && *s == '\'')
			fputs("&#39;", f);
		else
			fputc(*s, f);
	}
}

unsigned int module_probes_missing(FILE *f, struct json_object *probes,
				   const char *prefix, const char *suffix,
				   int html)
{
	unsigned int n = 0;
	size_t i;

	if (!probes || !json_object_is_type(probes, json_type_array))
		return 0;
	for (i = 0; i < json_object_array_length(probes); i++) {
		struct json_object *p = json_object_array_get_idx(probes, i);
		struct json_object *e;
		const char *name = module_probes_str(p, "name");
		const char *state = module_probes_str(p, "state");
		const char *kind = module_probes_str(p, "kind");
		char buf[256];
		int err = 0;

		if (!name || !state || (strcmp(state, "failed") &&
					strcmp(state, "waiting") &&
					strcmp(state, "unverified")))
			continue;
		if (json_object_object_get_ex(p, "error", &e))
			err = json_object_get_int(e);
		if (!strcmp(state, "unverified"))
			snprintf(buf, sizeof(buf), "module probe %s (%s) did "
				 "not attach: what it reads of the kernel's "
				 "private declarations %s (meta.json's "
				 "module_layout); the recording has none of its "
				 "records", name, kind ? kind : "?",
				 err == -EPROTO ? "differs in the kernel's BTF" :
				 err == -ENOENT ? "is in no BTF of the kernel" :
				 "was not checked against the kernel's BTF");
		else if (!strcmp(state, "failed"))
			snprintf(buf, sizeof(buf), "module probe %s (%s) did "
				 "not attach: error %d (%s); the recording has "
				 "none of its records", name, kind ? kind : "?",
				 err, strerror(err < 0 ? -err : err));
		else
			snprintf(buf, sizeof(buf), "module probe %s (%s) was "
				 "waiting for its module, not loaded when the "
				 "recording began", name, kind ? kind : "?");
		fputs(prefix, f);
		module_probes_put(f, buf, html);
		fputs(suffix, f);
		n++;
	}
	return n;
}

/* -- the layout table -- */

/* The BTFs read for one answer: vmlinux's and each module's, once */
struct module_probes_btfs {
	const char *dir;		/* $USBTRAIL_BTF_DIR, or NULL */
	struct btf *vmlinux;
	char names[USBTRAIL_LAYOUT_MAX][USBTRAIL_LAYOUT_NAME_LEN];
	struct btf *mods[USBTRAIL_LAYOUT_MAX];
	unsigned int nmods;
};

/* Module @name's BTF split on vmlinux's; vmlinux's if it has none (built in) */
static struct btf *module_probes_btf(struct module_probes_btfs *b,
				     const char *name)
{
	char path[PATH_MAX];
	struct btf *m;
	unsigned int i;

	for (i = 0; i < b->nmods; i++)
		if (!strcmp(b->names[i], name))
			return b->mods[i] ? b->mods[i] : b->vmlinux;
	if (!b->vmlinux || b->nmods >= USBTRAIL_LAYOUT_MAX)
		return b->vmlinux;
	if (b->dir) {
		snprintf(path, sizeof(path), "%s/%s", b->dir, name);
		m = btf__parse_split(path, b->vmlinux);
	} else {
		m = btf__load_module_btf(name, b->vmlinux);
	}
	if (libbpf_get_error(m))
		m = NULL;
	snprintf(b->names[b->nmods], sizeof(b->names[0]), "%s", name);
	b->mods[b->nmods++] = m;
	return m ? m : b->vmlinux;
}

/* Row @row answered from @b: FOUND with what it says, or NO_BTF */
static void module_probes_answer(struct module_probes_btfs *b,
				 struct usbtrail_layout_fact *row)
{
	char type[USBTRAIL_LAYOUT_TYPE_LEN], st[USBTRAIL_LAYOUT_WHAT_LEN];
	struct btf *btf = module_probes_btf(b, row->module);
	uint32_t off = 0, size = 0;
	char *member;
	int err = -ENOENT;

	if (btf && row->kind == USBTRAIL_LAYOUT_TRACEPOINT) {
		err = btf_tracepoint_params(btf, row->what, type, sizeof(type));
	} else if (btf && row->kind == USBTRAIL_LAYOUT_MEMBER) {
		snprintf(st, sizeof(st), "%s", row->what);
		member = strchr(st, '.');
		if (member) {
			*member++ = '\0';
			err = btf_member(btf, st, member, &off, &size, type,
					 sizeof(type));
		}
	}
	memset(row->type, 0, sizeof(row->type));
	row->offset = row->size = 0;
	if (err) {
		row->state = USBTRAIL_LAYOUT_NO_BTF;
		return;
	}
	row->state = USBTRAIL_LAYOUT_FOUND;
	snprintf(row->type, sizeof(row->type), "%s", type);
	row->offset = off;
	row->size = size;
}

int module_probes_layout(int fd, struct usbtrail_layout *t,
			 struct usbtrail_layout *btf)
{
	struct module_probes_btfs b = { .dir = getenv("USBTRAIL_BTF_DIR") };
	char path[PATH_MAX];
	libbpf_print_fn_t print;
	unsigned int i;
	int err = 0;

	memset(t, 0, sizeof(*t));
	if (ioctl(fd, USBTRAIL_IOC_LAYOUT_GET, t))
		return -errno;
	if (t->count > USBTRAIL_LAYOUT_MAX) {
		memset(t, 0, sizeof(*t));
		return -EPROTO;
	}
	if (b.dir && !*b.dir)
		b.dir = NULL;
	/* a miss (no BTF at all, a driver built in) is an answer here */
	print = libbpf_set_print(NULL);
	if (b.dir) {
		snprintf(path, sizeof(path), "%s/vmlinux", b.dir);
		b.vmlinux = btf__parse(path, NULL);
	} else {
		b.vmlinux = btf__load_vmlinux_btf();
	}
	if (libbpf_get_error(b.vmlinux))
		b.vmlinux = NULL;
	for (i = 0; i < t->count; i++) {
		struct usbtrail_layout_fact *row = &t->facts[i];

		/* terminated by the module; not trusted to be */
		row->module[sizeof(row->module) - 1] = '\0';
		row->what[sizeof(row->what) - 1] = '\0';
		module_probes_answer(&b, row);
	}
	libbpf_set_print(print);
	for (i = 0; i < b.nmods; i++)
		btf__free(b.mods[i]);
	btf__free(b.vmlinux);
	if (btf)
		*btf = *t;
	if (ioctl(fd, USBTRAIL_IOC_LAYOUT_SET, t) ||
	    ioctl(fd, USBTRAIL_IOC_LAYOUT_GET, t))
		err = -errno;
	if (err || t->count > USBTRAIL_LAYOUT_MAX)
		memset(t, 0, sizeof(*t));
	return err;
}

/* a row's fixed-size string as a C string */
static struct json_object *module_probes_jstr(const char *s, size_t len)
{
	return json_object_new_string_len(s, (int)strnlen(s, len));
}

/* what the BTF said of row @f, as the expectation is put; "" for none */
static void module_probes_said(const struct usbtrail_layout_fact *f,
			       char *out, size_t len)
{
	int n = (int)strnlen(f->type, sizeof(f->type));

	if (f->state != USBTRAIL_LAYOUT_FOUND)
		snprintf(out, len, "%s", "");
	else if (f->kind == USBTRAIL_LAYOUT_MEMBER)
		snprintf(out, len, "%.*s at %u (%u bytes)", n, f->type,
			 f->offset, f->size);
	else
		snprintf(out, len, "(%.*s)", n, f->type);
}

/* a row's state as ut_tables.h names it */
#define MODULE_PROBES_STATE(id, name)	{ USBTRAIL_LAYOUT_##id, name },
static const struct {
	unsigned int state;
	const char *name;
} module_probes_layout_states[] = {
	UT_LAYOUT_STATES(MODULE_PROBES_STATE)
};

static const char *module_probes_layout_state(unsigned int state)
{
	for (size_t i = 0; i < sizeof(module_probes_layout_states) /
			       sizeof(module_probes_layout_states[0]); i++)
		if (module_probes_layout_states[i].state == state)
			return module_probes_layout_states[i].name;
	return "?";
}

struct json_object *module_probes_layout_json(const struct usbtrail_layout *t,
					      const struct usbtrail_layout *btf)
{
	struct json_object *a, *k;
	unsigned int i;

	if (!t || !t->count || t->count > USBTRAIL_LAYOUT_MAX)
		return NULL;
	a = json_object_new_array();
	for (i = 0; a && i < t->count; i++) {
		const struct usbtrail_layout_fact *f = &t->facts[i];
		struct usbtrail_layout_fact said = *f;
		char exp[USBTRAIL_LAYOUT_TYPE_LEN + 32];
		unsigned int j;

		k = json_object_new_object();
		json_object_object_add(k, "module", module_probes_jstr(
				       f->module, sizeof(f->module)));
		json_object_object_add(k, "what", module_probes_jstr(
				       f->what, sizeof(f->what)));
		json_object_object_add(k, "probe", module_probes_jstr(
				       f->probe, sizeof(f->probe)));
		json_object_object_add(k, "kind", json_object_new_string(
			f->kind == USBTRAIL_LAYOUT_MEMBER ? "member" :
			"tracepoint"));
		json_object_object_add(k, "state", json_object_new_string(
			module_probes_layout_state(f->state)));
		said.state = USBTRAIL_LAYOUT_FOUND;
		module_probes_said(&said, exp, sizeof(exp));
		json_object_object_add(k, "expected",
				       json_object_new_string(exp));
		/* the answer given for the same row, if one was */
		for (j = 0; btf && j < btf->count && j < USBTRAIL_LAYOUT_MAX; j++)
			if (btf->facts[j].kind == f->kind &&
			    !strncmp(btf->facts[j].module, f->module,
				     sizeof(f->module)) &&
			    !strncmp(btf->facts[j].what, f->what,
				     sizeof(f->what)))
				break;
		if (btf && j < btf->count && j < USBTRAIL_LAYOUT_MAX) {
			module_probes_said(&btf->facts[j], exp, sizeof(exp));
			json_object_object_add(k, "btf", exp[0] ?
					       json_object_new_string(exp) :
					       NULL);
		}
		if (f->flags & USBTRAIL_LAYOUT_F_BUILD)
			json_object_object_add(k, "verified_by",
					       json_object_new_string("build"));
		else if (f->state == USBTRAIL_LAYOUT_VERIFIED)
			json_object_object_add(k, "verified_by",
					       json_object_new_string("btf"));
		json_object_array_add(a, k);
	}
	return a;
}
