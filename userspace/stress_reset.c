// SPDX-License-Identifier: GPL-2.0-only
/*
 * stress_reset.c - flush honesty (stress_reset.h).
 *
 * The pattern is stress's own (lib/pattern.c): a sector read back says
 * where it belongs and which run wrote it, so a sector that came back
 * with what was there before the run is told from a good one.  The reset
 * is USBDEVFS_RESET on the disk's USB device (usb_reset_device(): a port
 * reset; uas and usb-storage keep their SCSI devices through it, so the
 * disk and its name stay).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/usbdevice_fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "pattern.h"
#include "stress_reset.h"
#include "sysfs_usb.h"
#include "util.h"

#define STRESS_RESET_CHUNK	(1u << 20)
#define STRESS_RESET_BACK_S	30	/* for the disk to run again */

static unsigned int stress_reset_ms_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (unsigned int)((t1.tv_sec - t0->tv_sec) * 1000 +
			      (t1.tv_nsec - t0->tv_nsec) / 1000000);
}

/* USBDEVFS_RESET on the USB device of @disk; its name into @res->usb */
static int stress_reset_usb(const char *disk, struct stress_reset_result *res)
{
	char iface[SYSFS_USB_NAME_MAX], rel[256], node[64], bus[16], dev[16];
	struct timespec t0;
	int fd, err;

	err = sysfs_usb_iface_from_block(disk, iface, sizeof(iface));
	if (err) {
		snprintf(res->why, sizeof(res->why), "%s: not a USB disk", disk);
		return err;
	}
	util_copy(res->usb, sizeof(res->usb), iface, strcspn(iface, ":"));
	snprintf(rel, sizeof(rel), "/sys/bus/usb/devices/%s/busnum", res->usb);
	if (sysfs_usb_read_text(rel, bus, sizeof(bus)) < 0)
		return -ENOENT;
	snprintf(rel, sizeof(rel), "/sys/bus/usb/devices/%s/devnum", res->usb);
	if (sysfs_usb_read_text(rel, dev, sizeof(dev)) < 0)
		return -ENOENT;
	snprintf(node, sizeof(node), "/dev/bus/usb/%03u/%03u",
		 (unsigned int)strtoul(bus, NULL, 10),
		 (unsigned int)strtoul(dev, NULL, 10));
	fd = open(node, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		snprintf(res->why, sizeof(res->why), "%s (USB %s): %s", node,
			 res->usb, strerror(errno));
		return err;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = ioctl(fd, USBDEVFS_RESET, 0) ? -errno : 0;
	res->reset_ms = stress_reset_ms_since(&t0);
	close(fd);
	if (err)
		snprintf(res->why, sizeof(res->why), "resetting USB %s: %s",
			 res->usb, strerror(-err));
	return err;
}

static void stress_reset_lost(struct stress_reset_result *res, uint64_t lba)
{
	struct stress_reset_range *last = res->nranges ?
		&res->ranges[res->nranges - 1] : NULL;

	res->lost++;
	if (last && last->lba + last->count == lba) {
		last->count++;
	} else if (res->nranges < STRESS_RESET_MAX_RANGES) {
		res->ranges[res->nranges].lba = lba;
		res->ranges[res->nranges++].count = 1;
	}
}

int stress_reset_check(struct blkdev_target *t, uint64_t size,
		       struct stress_reset_result *res)
{
	struct pattern_run *run = NULL;
	struct timespec t0;
	uint8_t *buf = NULL;
	uint64_t off;
	int err;

	memset(res, 0, sizeof(*res));
	if (!t->is_blockdev || !t->direct) {
		snprintf(res->why, sizeof(res->why), "%.120s: --reset-check takes "
			 "a whole USB disk", t->path);
		return -ENOTBLK;
	}
	size = size && size < t->size ? size : t->size;
	size -= size % t->lbs;
	res->lbs = t->lbs;
	run = malloc(sizeof(*run));
	if (!run || posix_memalign((void **)&buf, 4096, STRESS_RESET_CHUNK)) {
		err = -ENOMEM;
		goto out;
	}
	err = pattern_run_init(run, ((uint64_t)time(NULL) << 20) ^
			       (uint64_t)getpid(), 1, t->lbs, size,
			       (uint64_t)time(NULL));
	if (err)
		goto out;
	for (off = 0; off < size; off += STRESS_RESET_CHUNK) {
		size_t n = size - off < STRESS_RESET_CHUNK ?
			   (size_t)(size - off) : STRESS_RESET_CHUNK;

		pattern_fill(run, buf, n, off);
		if (pwrite(t->fd, buf, n, (off_t)off) != (ssize_t)n) {
			err = errno ? -errno : -EIO;
			snprintf(res->why, sizeof(res->why), "writing at byte "
				 "%llu: %s", (unsigned long long)off,
				 strerror(-err));
			goto out;
		}
	}
	/* SYNCHRONIZE CACHE: from here on every byte is acknowledged */
	if (fdatasync(t->fd)) {
		err = -errno;
		snprintf(res->why, sizeof(res->why), "the flush failed: %s",
			 strerror(errno));
		goto out;
	}
	res->acked_bytes = size;
	err = stress_reset_usb(t->name, res);
	if (err)
		goto out;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (sysfs_usb_disk_idle(t->name) != 1) {
		if (stress_reset_ms_since(&t0) > STRESS_RESET_BACK_S * 1000) {
			err = -ETIMEDOUT;
			snprintf(res->why, sizeof(res->why), "%s did not run "
				 "again within %d s of the reset", t->name,
				 STRESS_RESET_BACK_S);
			goto out;
		}
		usleep(50 * 1000);
	}
	res->back_ms = stress_reset_ms_since(&t0);
	for (off = 0; off < size; off += STRESS_RESET_CHUNK) {
		size_t n = size - off < STRESS_RESET_CHUNK ?
			   (size_t)(size - off) : STRESS_RESET_CHUNK;

		if (pread(t->fd, buf, n, (off_t)off) != (ssize_t)n) {
			err = errno ? -errno : -EIO;
			snprintf(res->why, sizeof(res->why), "reading back at "
				 "byte %llu: %s", (unsigned long long)off,
				 strerror(-err));
			goto out;
		}
		for (size_t s = 0; s < n; s += t->lbs)
			if (!pattern_sector_ok(run, buf + s, off + s))
				stress_reset_lost(res, (off + s) / t->lbs);
	}
	err = 0;
out:
	free(buf);
	free(run);
	return err;
}
