// SPDX-License-Identifier: GPL-2.0-only
/*
 * meta.c - meta.json of a recording, written and read: the document
 * "usbtrail record" keeps beside events.jsonl (the kernel, the clock
 * offsets, each source and sink with its losses, the "usbtrail uas"
 * verdicts, the counts at the end; docs/formats.md) and the part of it
 * "usbtrail report" reads back (recording.c).
 *
 * The writer runs twice: when the recording starts (so a recording cut
 * short still names its kernel and sources) and when it ends.  The reader
 * takes bytes and never opens a file.
 */
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "classify.h"
#include "meta.h"
#include "module_probes.h"
#include "owner.h"
#include "util.h"

/* --- writing ------------------------------------------------------------ */

static void meta_boot_id(char *buf, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");

	buf[0] = '\0';
	if (f) {
		if (fgets(buf, (int)len, f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
}

/*
 * usbtrail.ko's counters at the end (docs/module.md: debugfs stats, disks,
 * usb), as the module prints them: what a maintainer asks for beside the
 * events.  NULL members where debugfs is not there.
 */
static struct json_object *meta_module_counters(void)
{
	static const char *const files[] = { "stats", "disks", "usb" };
	struct json_object *o = json_object_new_object();
	char path[64], *buf;
	size_t i, n;
	FILE *f;

	buf = malloc(65536);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "/sys/kernel/debug/usbtrail/%s",
			 files[i]);
		f = buf ? fopen(path, "re") : NULL;
		if (!f) {
			json_object_object_add(o, files[i], NULL);
			continue;
		}
		n = fread(buf, 1, 65535, f);
		fclose(f);
		json_object_object_add(o, files[i],
				       json_object_new_string_len(buf, (int)n));
	}
	free(buf);
	return o;
}

static struct json_object *meta_kernel(void)
{
	struct json_object *k;
	struct utsname u;

	if (uname(&u))
		return NULL;
	k = json_object_new_object();
	json_object_object_add(k, "release", json_object_new_string(u.release));
	json_object_object_add(k, "version", json_object_new_string(u.version));
	json_object_object_add(k, "machine", json_object_new_string(u.machine));
	json_object_object_add(k, "hostname",
			       json_object_new_string(u.nodename));
	return k;
}

/* The members that describe the recording: from "format" to "command". */
static void meta_add_head(struct json_object *o, const struct meta_record *m)
{
	struct json_object *a, *k;
	char buf[128];
	unsigned int i;

	json_object_object_add(o, "format", json_object_new_string(
		"usbtrail-recording"));
	json_object_object_add(o, "format_version", json_object_new_int(2));
	json_object_object_add(o, "usbtrail", json_object_new_string(
		m->version));
	k = meta_kernel();
	if (k)
		json_object_object_add(o, "kernel", k);
	meta_boot_id(buf, sizeof(buf));
	json_object_object_add(o, "boot_id", json_object_new_string(buf));
	json_object_object_add(o, "clock", json_object_new_string("boottime"));
	json_object_object_add(o, "boot_to_realtime_ns",
			       json_object_new_int64(m->clock->boot_to_real_ns));
	json_object_object_add(o, "monotonic_to_boot_ns",
			       json_object_new_int64(m->clock->mono_to_boot_ns));
	/* the report's bundle keeps URB data only if asked for on purpose */
	json_object_object_add(o, "payload",
			       json_object_new_int64((int64_t)m->payload));
	json_object_object_add(o, "payload_set", json_object_new_boolean(
		m->payload_set));
	json_object_object_add(o, "started", json_object_new_int64(m->started));
	snprintf(buf, sizeof(buf), "%.9f", (double)m->started_boot / 1e9);
	json_object_object_add(o, "started_t", json_object_new_double_s(
		(double)m->started_boot / 1e9, buf));
	if (m->command) {
		a = json_object_new_array();
		for (i = 0; m->command[i]; i++)
			json_object_array_add(a, json_object_new_string(
				m->command[i]));
		json_object_object_add(o, "command", a);
	}
}

static struct json_object *meta_sources(const struct meta_record *m)
{
	struct json_object *a = json_object_new_array(), *k;
	unsigned int i;

	for (i = 0; i < m->nsrc; i++) {
		k = json_object_new_object();
		json_object_object_add(k, "name",
				       json_object_new_string(m->src[i].name));
		json_object_object_add(k, "events",
				       json_object_new_uint64(m->src[i].events));
		json_object_object_add(k, "lost",
				       json_object_new_uint64(m->src[i].lost));
		json_object_object_add(k, "malformed",
				       json_object_new_uint64(m->src[i].malformed));
		json_object_array_add(a, k);
	}
	return a;
}

static struct json_object *meta_sinks(const struct meta_record *m)
{
	struct json_object *a = json_object_new_array(), *k;
	unsigned int i;

	for (i = 0; i < m->nsink; i++) {
		k = json_object_new_object();
		json_object_object_add(k, "name",
				       json_object_new_string(m->sink[i].name));
		if (m->sink[i].path[0]) {
			const char *base = strrchr(m->sink[i].path, '/');

			json_object_object_add(k, "file", json_object_new_string(
				base ? base + 1 : m->sink[i].path));
		}
		json_object_object_add(k, "events",
				       json_object_new_uint64(m->sink[i].written));
		json_object_object_add(k, "failed",
				       json_object_new_uint64(m->sink[i].failed));
		json_object_array_add(a, k);
	}
	return a;
}

/* The dip detector's settings, for the report to say what a dip was. */
static struct json_object *meta_throughput(const struct derive_opts *dip)
{
	struct json_object *k = json_object_new_object();

	json_object_object_add(k, "interval_ms",
			       json_object_new_int(dip->interval_ms));
	json_object_object_add(k, "dip_fraction",
			       json_object_new_double(dip->dip_fraction));
	json_object_object_add(k, "dip_intervals",
			       json_object_new_int(dip->dip_intervals));
	return k;
}

/* Why the recording stopped, as "stopped_by" says it. */
static const char *meta_stopped_by(const struct meta_record *m, int result)
{
	const struct rec_stats *st = m->stats;

	return result ? "error" : st->signal ? strsignal(st->signal) :
	       st->command_ran && !st->duration_ended ? "command exit" :
	       m->duration_set ? "duration" : "end";
}

/* The members only the final meta.json has: counts and how it ended. */
static void meta_add_end(struct json_object *o, const struct meta_record *m,
			 int result)
{
	const struct rec_stats *st = m->stats;
	struct json_object *k;
	unsigned int i;
	char buf[128];

	if (m->trace_source && !strcmp(m->trace_source, "module"))
		json_object_object_add(o, "module_counters",
				       meta_module_counters());
	k = json_object_new_object();
	for (i = 0; i < CLASSIFY_KIND_COUNT; i++)
		if (st->by_kind[i])
			json_object_object_add(k, classify_kind_name(i),
				json_object_new_uint64(st->by_kind[i]));
	json_object_object_add(o, "incidents", k);
	k = json_object_new_object();
	for (i = 1; i < EV_TYPE_MAX; i++)
		json_object_object_add(k, ev_type_name(i),
			json_object_new_uint64(st->by_type[i]));
	json_object_object_add(o, "events", k);
	json_object_object_add(o, "dropped",
			       json_object_new_uint64(st->dropped));
	snprintf(buf, sizeof(buf), "%.3f", st->secs);
	json_object_object_add(o, "seconds",
			       json_object_new_double_s(st->secs, buf));
	json_object_object_add(o, "stopped_by", json_object_new_string(
		meta_stopped_by(m, result)));
	if (result)
		json_object_object_add(o, "error", json_object_new_string(
			strerror(-result)));
	if (st->command_ran) {
		int s = st->command_status;

		json_object_object_add(o, "command_exit", WIFEXITED(s) ?
			json_object_new_int(WEXITSTATUS(s)) : NULL);
		if (WIFSIGNALED(s))
			json_object_object_add(o, "command_signal",
				json_object_new_int(WTERMSIG(s)));
	}
}

static struct json_object *meta_build(const struct meta_record *m, bool done,
				      int result)
{
	struct json_object *o = json_object_new_object(), *a;
	unsigned int i;

	meta_add_head(o, m);
	json_object_object_add(o, "trace_source", m->trace_source ?
			       json_object_new_string(m->trace_source) : NULL);
	json_object_object_add(o, "sources", meta_sources(m));
	/* which of the module's probes attached, when the recording began */
	if (m->module_info) {
		a = module_probes_json(m->module_info);
		if (a)
			json_object_object_add(o, "module_probes", a);
	}
	/* what they read of private declarations, checked against BTF */
	a = module_probes_layout_json(m->module_layout, m->module_layout_btf);
	if (a)
		json_object_object_add(o, "module_layout", a);
	json_object_object_add(o, "sinks", meta_sinks(m));
	a = json_object_new_array();
	for (i = 0; i < m->nnotes; i++)
		json_object_array_add(a, json_object_new_string(m->notes[i]));
	json_object_object_add(o, "notes", a);
	json_object_object_add(o, "uas", m->uas ? json_object_get(m->uas) :
			       NULL);
	if (m->descriptors)
		json_object_object_add(o, "descriptors",
				       json_object_get(m->descriptors));
	if (!m->uas)
		json_object_object_add(o, "uas_error", json_object_new_string(
			strerror(-m->uas_err)));
	json_object_object_add(o, "throughput", meta_throughput(m->dip));
	json_object_object_add(o, "complete", json_object_new_boolean(done));
	if (done)
		meta_add_end(o, m, result);
	return o;
}

/*
 * The raw descriptors (sysfs "descriptors": the device descriptor, then
 * each configuration as the device sent it) of every USB storage device
 * the uas verdicts name, as {"2-1": "hex"}: the bug-report bundle prints
 * them lsusb -v style.  NULL if there are none.
 */
struct json_object *meta_descriptors(struct json_object *uas)
{
	static const char digits[] = "0123456789abcdef";
	struct json_object *o = NULL, *e, *u;
	uint8_t buf[8192];
	char path[128], *hex;
	size_t i, k;
	ssize_t n;
	int fd;

	for (i = 0; uas && i < json_object_array_length(uas); i++) {
		const char *usb;

		e = json_object_array_get_idx(uas, i);
		if (!json_object_object_get_ex(e, "usb", &u) ||
		    !json_object_is_type(u, json_type_string))
			continue;
		usb = json_object_get_string(u);
		/* a port path, nothing that could leave the directory */
		if (!*usb || strspn(usb, "0123456789-.") != strlen(usb) ||
		    (o && json_object_object_get_ex(o, usb, NULL)))
			continue;
		snprintf(path, sizeof(path), "/sys/bus/usb/devices/%s/descriptors",
			 usb);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf));
		close(fd);
		if (n <= 0)
			continue;
		hex = malloc(2 * (size_t)n + 1);
		if (!hex)
			continue;
		for (k = 0; k < (size_t)n; k++) {
			hex[2 * k] = digits[buf[k] >> 4];
			hex[2 * k + 1] = digits[buf[k] & 15];
		}
		hex[2 * n] = '\0';
		if (!o)
			o = json_object_new_object();
		if (o)
			json_object_object_add(o, usb,
					       json_object_new_string(hex));
		free(hex);
	}
	return o;
}

/*
 * Whole or not at all: a temporary file renamed over meta.json.  The
 * first meta.json is padded with spaces (valid JSON) to reserve room: if
 * the disk is full by the end, the final one is written over it in place
 * when it fits, so a full disk still leaves the counts of the recording.
 */
#define META_RESERVE	(64 * 1024)

/* @buf (@n bytes) over the reserved meta.json at @path, which is @size. */
static int meta_write_in_place(const char *path, const char *buf, size_t n,
			       size_t size)
{
	struct stat st;
	int fd, ret;

	fd = owner_open(path, O_WRONLY, 0);
	if (fd < 0)
		return fd;
	/* ours, as meta_write_new() left it: not a link to another file */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_nlink != 1) {
		close(fd);
		return -EPERM;
	}
	ret = util_write_all(fd, buf, n, NULL);
	/* spaces after the JSON: still one valid document */
	if (!ret && size > n) {
		char *sp = malloc(size - n);

		if (sp) {
			memset(sp, ' ', size - n);
			ret = util_write_all(fd, sp, size - n, NULL);
			free(sp);
		} else {
			ret = ftruncate(fd, (off_t)n) ? -errno : 0;
		}
	}
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/* @buf (@len bytes) to @tmp, renamed over @path. */
static int meta_write_new(const char *tmp, const char *path, const char *buf,
			  size_t len)
{
	int fd, ret;

	/* a new file, whatever a crash or a user left there before */
	if (unlink(tmp) && errno != ENOENT)
		return -errno;
	fd = owner_open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0)
		return fd;
	ret = util_write_all(fd, buf, len, NULL);
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

int meta_write(const char *dir, const struct meta_record *m, bool done,
	       int result)
{
	struct json_object *o = meta_build(m, done, result);
	char tmp[4200], path[4200];
	size_t n, pad = 0;
	char *buf = NULL;
	const char *s;
	struct stat st;
	int ret;

	snprintf(tmp, sizeof(tmp), "%s/.meta.json.tmp", dir);
	snprintf(path, sizeof(path), "%s/meta.json", dir);
	s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
					   JSON_C_TO_STRING_NOSLASHESCAPE);
	n = strlen(s);
	if (!done && n + 1 < META_RESERVE)
		pad = META_RESERVE - n - 1;
	buf = malloc(n + 1 + pad);
	if (!buf) {
		json_object_put(o);
		return -ENOMEM;
	}
	memcpy(buf, s, n);
	buf[n] = '\n';
	memset(buf + n + 1, ' ', pad);
	json_object_put(o);

	ret = meta_write_new(tmp, path, buf, n + 1 + pad);
	/* no room for a new file: over the reserved old one, if it fits */
	if (ret && done && !stat(path, &st) && (size_t)st.st_size >= n + 1)
		ret = meta_write_in_place(path, buf, n + 1,
					  (size_t)st.st_size);
	free(buf);
	return ret;
}

/* --- reading ------------------------------------------------------------ */

static struct json_object *meta_get(struct json_object *o, const char *k)
{
	struct json_object *v;

	if (!o || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, k, &v))
		return NULL;
	return v;
}

const char *meta_str(struct json_object *meta, const char *k1,
		     const char *k2)
{
	struct json_object *v = meta_get(meta, k1);

	if (k2)
		v = meta_get(v, k2);
	if (!v || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

bool meta_u64(struct json_object *meta, const char *k1, const char *k2,
	      uint64_t *out)
{
	struct json_object *v = meta_get(meta, k1);
	int64_t n;

	if (k2)
		v = meta_get(v, k2);
	if (!v || !json_object_is_type(v, json_type_int))
		return false;
	n = json_object_get_int64(v);
	if (n < 0)
		return false;
	*out = (uint64_t)n;
	return true;
}

int meta_parse(const char *buf, size_t len, struct json_object **obj,
	       struct meta_read *out)
{
	struct meta_read m = { .seconds = -1 };
	struct json_tokener *tok;
	struct json_object *o, *v;

	if (len > INT32_MAX)
		return -EINVAL;
	tok = json_tokener_new();
	if (!tok)
		return -ENOMEM;
	o = json_tokener_parse_ex(tok, buf, (int)len);
	json_tokener_free(tok);
	if (!o || !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return -EINVAL;
	}
	v = meta_get(o, "payload");
	if (v && json_object_is_type(v, json_type_int)) {
		m.have_payload = true;
		m.payload = (int)json_object_get_int64(v);
	}
	v = meta_get(o, "payload_set");
	m.payload_set = v && json_object_is_type(v, json_type_boolean) &&
			json_object_get_boolean(v);
	v = meta_get(o, "boot_to_realtime_ns");
	if (v && json_object_is_type(v, json_type_int)) {
		m.have_boot_to_real = true;
		m.boot_to_real_ns = (uint64_t)json_object_get_int64(v);
	}
	/* written when the recording stops: how long it ran */
	v = meta_get(o, "seconds");
	if (v && (json_object_is_type(v, json_type_double) ||
		  json_object_is_type(v, json_type_int))) {
		double d = json_object_get_double(v);

		if (isfinite(d) && d >= 0)
			m.seconds = d;
	}
	*obj = o;
	*out = m;
	return 0;
}

int meta_descriptors_read(struct json_object *meta, const char *usb,
			  struct usbdesc_device *d, size_t *nbytes)
{
	const char *hex = meta_str(meta, "descriptors", usb);
	uint8_t *raw;
	size_t n;
	int err = 0;

	*nbytes = 0;
	if (!hex)
		return -ENOENT;
	n = strlen(hex) / 2;
	*nbytes = n;
	raw = malloc(n + 1);
	if (!raw)
		return -ENOMEM;
	for (size_t i = 0; i < n && !err; i++) {
		int hi = util_hexval(hex[2 * i]), lo = util_hexval(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			err = -EINVAL;
		else
			raw[i] = (uint8_t)(hi << 4 | lo);
	}
	if (!err && usbdesc_parse_sysfs(raw, n, d) < 0)
		err = -EINVAL;
	free(raw);
	return err;
}
