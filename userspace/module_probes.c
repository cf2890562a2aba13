// SPDX-License-Identifier: GPL-2.0-only
/*
 * module_probes.c - usbtrail.ko's table of probes (docs/module.md,
 * "USBTRAIL_IOC_INFO"): read through the ioctl, written into meta.json,
 * and what is missing said in the report.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#include "module_probes.h"

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
					strcmp(state, "waiting")))
			continue;
		if (json_object_object_get_ex(p, "error", &e))
			err = json_object_get_int(e);
		if (!strcmp(state, "failed"))
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
