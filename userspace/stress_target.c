// SPDX-License-Identifier: GPL-2.0-only
/*
 * stress_target.c - who the target of "usbtrail stress" is and what its
 * read-back says of its capacity, for stress_render.c's summary and
 * stress.c's markers.
 *
 * The identity is the recorder's (usbdisk.c, the fields of its device
 * events): of the disk the target is, or a partition of; for a regular
 * file, of the disk holding it; a block device that is not on USB (a
 * virtio disk, device-mapper, loop) or a file on none (tmpfs) is said to
 * be so.  Ranges are given in bytes and in 512-byte sectors, the unit of
 * the kernel's "I/O error, dev sdc, sector N" and of LBAs in 512-byte
 * units whatever the logical block size.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "stress_target.h"
#include "util.h"

/**
 * stress_target_where() - the block device and USB disk of a target
 * @t:   the target, open
 * @out: filled on success
 *
 * Return: 0 (also for a file on no block device: @out->block ""), or a
 * negative errno from fstat().
 */
int stress_target_where(const struct blkdev_target *t,
			struct usbdisk_where *out)
{
	struct stat st;

	memset(out, 0, sizeof(*out));
	if (fstat(t->fd, &st))
		return -errno;
	if (usbdisk_where_dev(t->is_blockdev ? st.st_rdev : st.st_dev, out))
		memset(out, 0, sizeof(*out));
	return 0;
}

/*
 * For the run's start marker: " disk=sdc usb=2-1" for a USB disk,
 * " disk=dm-0 usb=-" for another block device, " disk=- usb=-" for none.
 */
void stress_target_marker(const struct usbdisk_where *w, char *buf,
			  size_t len)
{
	snprintf(buf, len, " disk=%s usb=%s",
		 w->block[0] ? w->disk.ident.disk : "-",
		 w->usb ? w->disk.ident.usb : "-");
}

/* The "device:" line of the text summary. */
void stress_target_text(FILE *f, const struct usbdisk_where *w)
{
	const struct usbdisk *d = &w->disk;
	char speed[32];

	if (!w->block[0]) {
		fprintf(f, "device: not on a block device (not a USB disk)\n");
		return;
	}
	if (!w->usb) {
		fprintf(f, "device: %s, not a USB disk\n", w->block);
		return;
	}
	fprintf(f, "device: ");
	if (strcmp(w->block, d->ident.disk))
		fprintf(f, "%s of ", w->block);
	fprintf(f, "%s, USB %s", d->ident.disk, d->ident.usb);
	if (d->ident.busnum >= 0 && d->ident.devnum >= 0)
		fprintf(f, " (bus %d device %d)", d->ident.busnum,
			d->ident.devnum);
	fprintf(f, " %04x:%04x", d->dev.vid, d->dev.pid);
	if (d->dev.product[0])
		fprintf(f, " \"%s\"", d->dev.product);
	if (d->vendor[0] || d->model[0])
		fprintf(f, ", model %s%s%s", d->vendor,
			d->vendor[0] && d->model[0] ? " " : "", d->model);
	fprintf(f, ", serial %s, %s, driver %s, host controller %s (%s)\n",
		d->dev.serial[0] ? d->dev.serial : "none",
		util_format_speed(speed, sizeof(speed), d->dev.speed_mbps),
		d->dev.driver[0] ? d->dev.driver : "none",
		d->dev.hcd[0] ? d->dev.hcd : "?",
		d->dev.hcd_driver[0] ? d->dev.hcd_driver : "?");
}

static json_object *stress_target_str(const char *s)
{
	return s[0] ? json_object_new_string(s) : NULL;
}

/* "device": the same, as JSON; "usb" false and no more when not USB. */
json_object *stress_target_json(const struct usbdisk_where *w)
{
	const struct usbdisk *d = &w->disk;
	json_object *o = json_object_new_object();
	char id[16];

	json_object_object_add(o, "block", stress_target_str(w->block));
	json_object_object_add(o, "usb", json_object_new_boolean(w->usb));
	if (!w->usb)
		return o;
	snprintf(id, sizeof(id), "%04x:%04x", d->dev.vid, d->dev.pid);
	json_object_object_add(o, "disk", stress_target_str(d->ident.disk));
	json_object_object_add(o, "usb_path", stress_target_str(d->ident.usb));
	json_object_object_add(o, "busnum", d->ident.busnum < 0 ? NULL :
			       json_object_new_int(d->ident.busnum));
	json_object_object_add(o, "devnum", d->ident.devnum < 0 ? NULL :
			       json_object_new_int(d->ident.devnum));
	json_object_object_add(o, "vid_pid", json_object_new_string(id));
	json_object_object_add(o, "product", stress_target_str(d->dev.product));
	json_object_object_add(o, "vendor", stress_target_str(d->vendor));
	json_object_object_add(o, "model", stress_target_str(d->model));
	json_object_object_add(o, "serial", stress_target_str(d->dev.serial));
	json_object_object_add(o, "speed_mbps", d->dev.speed_mbps ?
			       json_object_new_int64(d->dev.speed_mbps) : NULL);
	json_object_object_add(o, "driver", stress_target_str(d->dev.driver));
	json_object_object_add(o, "hcd", stress_target_str(d->dev.hcd));
	json_object_object_add(o, "hcd_driver",
			       stress_target_str(d->dev.hcd_driver));
	return o;
}

/* "LBA 2048-4095": bytes [@start, @end) in 512-byte sectors. */
void stress_target_lba(char *buf, size_t len, uint64_t start, uint64_t end)
{
	uint64_t first = start >> VERIFY_LBA_SHIFT;
	uint64_t last = (end - 1) >> VERIFY_LBA_SHIFT;

	if (first == last)
		snprintf(buf, len, "LBA %" PRIu64, first);
	else
		snprintf(buf, len, "LBA %" PRIu64 "-%" PRIu64, first, last);
}

/* The verdict line, when the read-back says the writes wrapped. */
void stress_target_capacity_text(FILE *f, const struct stress_result *res)
{
	char usable[32], size[32], mod[32];

	if (!res->fake_capacity)
		return;
	util_format_size(usable, sizeof(usable), res->wrap.usable);
	util_format_size(size, sizeof(size), res->size);
	util_format_size(mod, sizeof(mod), res->wrap.modulus);
	fprintf(f, "verdict: fake capacity: usable size %s (%" PRIu64
		" bytes, LBA 0-%" PRIu64 ") of %s tested; writes wrap every "
		"%s (%" PRIu64 " bytes): what is read at X was written to X "
		"plus or minus a multiple of it\n", usable, res->wrap.usable,
		(res->wrap.usable >> VERIFY_LBA_SHIFT) - 1, size, mod,
		res->wrap.modulus);
}

/* "capacity": the verdict, its usable size and modulus when fake. */
json_object *stress_target_capacity_json(const struct stress_result *res)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "verdict", json_object_new_string(
		res->fake_capacity ? "fake capacity" : "no wrap-around"));
	json_object_object_add(o, "tested_bytes",
			       json_object_new_uint64(res->size));
	if (!res->fake_capacity)
		return o;
	json_object_object_add(o, "usable_bytes",
			       json_object_new_uint64(res->wrap.usable));
	json_object_object_add(o, "usable_sectors", json_object_new_uint64(
				res->wrap.usable >> VERIFY_LBA_SHIFT));
	json_object_object_add(o, "wrap_modulus_bytes",
			       json_object_new_uint64(res->wrap.modulus));
	return o;
}
