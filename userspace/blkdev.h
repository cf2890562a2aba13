/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blkdev.h - open the target of "usbtrail stress" safely: a file, or a
 * whole block device that nothing mounts, holds or uses.
 */
#ifndef USBTRAIL_BLKDEV_H
#define USBTRAIL_BLKDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define BLKDEV_NAME_MAX		64
#define BLKDEV_SERIAL_MAX	128
#define BLKDEV_MAX_DEVS		128	/* a disk and its partitions */
#define BLKDEV_WHY_MAX		512

/* Who a disk is, to find it again after it re-enumerates. */
struct blkdev_identity {
	char serial[BLKDEV_SERIAL_MAX];	/* USB iSerial, "" if none */
	char usb_id[16];		/* "vvvv:pppp", "" if not USB */
	uint64_t size;			/* bytes */
	char syspath[512];		/* sysfs path of the disk; the same
					 * after a replug into the same port */
	uint64_t diskseq;		/* /sys/block/X/diskseq (Linux 5.15+):
					 * new for every disk instance; 0 if
					 * the kernel has none */
	unsigned int devnum;		/* the USB device's number: new on
					 * each enumeration; 0 if not USB */
};

struct blkdev_target {
	int fd;
	char path[4096];
	bool is_blockdev;
	bool direct;			/* opened with O_DIRECT */
	bool created;			/* the file did not exist */
	bool readonly;
	uint64_t size;			/* usable bytes: --size or all */
	uint64_t dev_size;		/* the whole file or device */
	uint32_t lbs;			/* logical block size */
	char name[BLKDEV_NAME_MAX];	/* "sda" for block devices */
	struct blkdev_identity id;
};

struct blkdev_open_opts {
	uint64_t size;			/* 0: all of it */
	bool destroy_data;
	bool readonly;			/* --verify-only */
};

int blkdev_mountinfo_find(const char *text, const dev_t *devs, size_t ndevs,
			  size_t *which, char *mnt, size_t mntlen);
int blkdev_open(const char *path, const struct blkdev_open_opts *opts,
		struct blkdev_target *t, char *why, size_t whylen);
void blkdev_close(struct blkdev_target *t);
void blkdev_drop_unwritten(struct blkdev_target *t);
int blkdev_drop_direct(struct blkdev_target *t);
int blkdev_find_identity(const struct blkdev_identity *id, char *name,
			 size_t namelen, struct blkdev_identity *found);

#endif /* USBTRAIL_BLKDEV_H */
