/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * meta.h - meta.json of a recording (docs/formats.md): what "usbtrail
 * record" writes beside events.jsonl and what "usbtrail report" reads
 * back of it, in one file (meta.c) so that writer and reader agree on
 * the keys.
 */
#ifndef USBTRAIL_META_H
#define USBTRAIL_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <json-c/json.h>

#include "record.h"
#include "usbdesc.h"

#define META_NOTE_LEN	256

/* What the recorder knows, for meta_write(); nothing here is taken over. */
struct meta_record {
	const char *version;		/* of usbtrail */
	const struct ev_clock *clock;
	const struct rec_stats *stats;	/* read when done */
	time_t started;
	uint64_t started_boot;		/* ns, CLOCK_BOOTTIME */
	uint64_t payload;		/* bytes kept per URB; 0: no capture */
	bool payload_set;		/* --payload given */
	char *const *command;		/* NULL-terminated, NULL if none */
	bool duration_set;		/* --duration given */
	const struct derive_opts *dip;
	const char *trace_source;	/* "module", "tracefs", or NULL */
	/* the module's USBTRAIL_IOC_INFO when it opened, or NULL */
	const struct usbtrail_info *module_info;
	/* its layout table and the BTF's answers (module_probes.h), or NULL */
	const struct usbtrail_layout *module_layout, *module_layout_btf;
	const struct rec_source *src;
	unsigned int nsrc;
	const struct rec_sink *sink;
	unsigned int nsink;
	const char (*notes)[META_NOTE_LEN];
	unsigned int nnotes;
	struct json_object *uas;	/* the verdicts, or NULL... */
	int uas_err;			/* ... and why not */
	struct json_object *descriptors;	/* meta_descriptors(), or NULL */
};

/*
 * Write DIR/meta.json, whole or not at all.  @done: the recording has
 * ended (counts, how it stopped) and @result is its negative errno or 0.
 * Return: 0 or a negative errno.
 */
int meta_write(const char *dir, const struct meta_record *m, bool done,
	       int result);

/*
 * The raw sysfs descriptors of each USB device the verdicts @uas name, as
 * {"2-1": "hex"} for the bug-report bundle; NULL if none.  The caller
 * owns it (json_object_put()).
 */
struct json_object *meta_descriptors(struct json_object *uas);
/*
 * The descriptors meta.json's "descriptors" holds for USB device @usb
 * ("2-1"), as meta_descriptors() wrote them, parsed into @d
 * (usbdesc_parse_sysfs()); *@nbytes their length.  0, -ENOENT (none for
 * @usb), -EINVAL (not hex, or malformed descriptors) or -ENOMEM.
 */
int meta_descriptors_read(struct json_object *meta, const char *usb,
			  struct usbdesc_device *d, size_t *nbytes);

/* What the report takes of meta.json besides the object itself. */
struct meta_read {
	bool have_payload;
	int payload;			/* "payload" */
	bool payload_set;		/* "payload_set" is true */
	bool have_boot_to_real;
	uint64_t boot_to_real_ns;	/* "boot_to_realtime_ns" */
	double seconds;			/* "seconds" recorded; -1 if absent */
};

/*
 * meta.json from bytes into *@obj (the caller's: json_object_put()) and
 * *@out, both written only on success.  Return: 0, -EINVAL if it is not
 * a JSON object, or -ENOMEM.
 */
int meta_parse(const char *buf, size_t len, struct json_object **obj,
	       struct meta_read *out);

/* The string at @k1 (and then @k2, if not NULL) of a parsed meta.json. */
const char *meta_str(struct json_object *meta, const char *k1,
		     const char *k2);

/* The count at @k1 (@k2) into *@out: false if absent or not >= 0. */
bool meta_u64(struct json_object *meta, const char *k1, const char *k2,
	      uint64_t *out);

#endif /* USBTRAIL_META_H */
