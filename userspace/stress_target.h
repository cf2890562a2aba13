/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stress_target.h - what "usbtrail stress" says of its target beyond its
 * path (stress_target.c): the USB disk it is or the file is on (model,
 * serial, VID:PID, USB path, link speed, driver), byte ranges also as
 * 512-byte LBA ranges, and the fake-capacity verdict.
 */
#ifndef USBTRAIL_STRESS_TARGET_H
#define USBTRAIL_STRESS_TARGET_H

#include <stdio.h>

#include <json-c/json.h>

#include "blkdev.h"
#include "stress.h"
#include "usbdisk.h"

int stress_target_where(const struct blkdev_target *t,
			struct usbdisk_where *out);
void stress_target_marker(const struct usbdisk_where *w, char *buf,
			  size_t len);
void stress_target_text(FILE *f, const struct usbdisk_where *w);
json_object *stress_target_json(const struct usbdisk_where *w);
void stress_target_lba(char *buf, size_t len, uint64_t start, uint64_t end);
void stress_target_capacity_text(FILE *f, const struct stress_result *res);
json_object *stress_target_capacity_json(const struct stress_result *res);

#endif /* USBTRAIL_STRESS_TARGET_H */
