/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * module_probes.h - usbtrail.ko's USBTRAIL_IOC_INFO, with the table of its
 * probes (which attached, which did not and why), for meta.json and the
 * report.
 */
#ifndef USBTRAIL_MODULE_PROBES_H
#define USBTRAIL_MODULE_PROBES_H

#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>
#include <linux/usbtrail.h>

/*
 * USBTRAIL_IOC_INFO on fd, or for a module before the probe table
 * USBTRAIL_IOC_INFO_V1 (then info_version and nprobes are 0).
 * Return: 0 or -errno.
 */
int module_probes_info(int fd, struct usbtrail_info *info);

/*
 * "attached", "waiting", "failed", "alias", "unverified"; "?" for another
 * value.
 */
const char *module_probes_state_name(unsigned int state);

/*
 * The probes of @info as a JSON array of {"name", "kind", "state",
 * "error", "source"} (meta.json's "module_probes"); NULL when the module
 * has no probe table (older than info version 2).
 */
struct json_object *module_probes_json(const struct usbtrail_info *info);

/* meta.json's "module_probes" of a parsed meta.json (may be NULL), or NULL. */
struct json_object *module_probes_of_meta(struct json_object *meta);

/*
 * The probes of meta.json's "module_probes" (@probes, may be NULL) that
 * record nothing: failed, unverified against BTF, or waiting for a
 * module never loaded.  One
 * sentence each into @f, every line starting with @prefix and ending with
 * @suffix; HTML-escaped if @html.  Return: how many.
 */
unsigned int module_probes_missing(FILE *f, struct json_object *probes,
				   const char *prefix, const char *suffix,
				   int html);

/*
 * Answer usbtrail.ko's layout table (USBTRAIL_IOC_LAYOUT_GET, _SET) on
 * @fd from the running kernel's BTF, /sys/kernel/btf/vmlinux and
 * /sys/kernel/btf/MODULE, so that its probes on drivers' private
 * tracepoints attach where the BTF verifies what they read; or from the
 * files vmlinux and MODULE of directory $USBTRAIL_BTF_DIR (for tests, a
 * BTF that differs).  The table as the module then has it into @out, the
 * answers given into @btf (may be NULL).  Return: 0, -ENOTTY (a module
 * before the table: @out has no row), or -errno.
 */
int module_probes_layout(int fd, struct usbtrail_layout *out,
			 struct usbtrail_layout *btf);

/*
 * The rows of @t as a JSON array of {"module", "what", "probe", "kind",
 * "state", "expected", "btf", "verified_by"} (meta.json's
 * "module_layout"), "btf" from the answers @btf (may be NULL); NULL if
 * it has no row.
 */
struct json_object *module_probes_layout_json(const struct usbtrail_layout *t,
					      const struct usbtrail_layout *btf);

#endif
