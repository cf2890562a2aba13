// SPDX-License-Identifier: GPL-2.0-only
/*
 * repro_dir.c - the run directories of stress that a stopped run of
 * "usbtrail repro DIR" left behind, removed as stress removes its own: by
 * name under the directory's descriptor (openat, unlinkat), no link
 * followed, no other filesystem entered, and a directory with anything in
 * it that stress does not make (a symlink, a device, a FIFO) kept.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "repro_dir.h"
#include "util.h"

static bool repro_dir_is_run(const char *name)
{
	return !strncmp(name, STRESS_FS_PREFIX, strlen(STRESS_FS_PREFIX));
}

int repro_dir_snapshot(struct repro_dir *d, const char *path)
{
	struct dirent *de;
	DIR *dp;

	memset(d, 0, sizeof(*d));
	util_copy(d->path, sizeof(d->path), path, strlen(path));
	dp = opendir(path);
	if (!dp)
		return -errno;
	while ((de = readdir(dp))) {
		if (!repro_dir_is_run(de->d_name))
			continue;
		if (d->nbefore == REPRO_DIR_BEFORE_MAX) {
			d->before_truncated = 1;
			break;
		}
		util_copy(d->before[d->nbefore], sizeof(d->before[0]),
			  de->d_name, strlen(de->d_name));
		d->nbefore++;
	}
	closedir(dp);
	return 0;
}

/* name under dirfd removed, if it and all it holds are what stress makes */
static int repro_dir_rm(int dirfd, const char *name, dev_t dev, int depth)
{
	struct dirent *de;
	struct stat st;
	int fd, err = 0;
	DIR *dp;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return -errno;
	if (st.st_dev != dev)
		return -EXDEV;
	if (S_ISREG(st.st_mode))
		return unlinkat(dirfd, name, 0) ? -errno : 0;
	if (!S_ISDIR(st.st_mode) || depth > STRESS_FS_MAX_DEPTH + 1)
		return -EPERM;
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	if (fd < 0)
		return -errno;
	dp = fdopendir(fd);
	if (!dp) {
		err = -errno;
		close(fd);
		return err;
	}
	while ((de = readdir(dp))) {
		int e;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		e = repro_dir_rm(fd, de->d_name, dev, depth + 1);
		if (e && !err)
			err = e;
	}
	closedir(dp);
	if (err)
		return err;
	return unlinkat(dirfd, name, AT_REMOVEDIR) ? -errno : 0;
}

int repro_dir_clean(const struct repro_dir *d, char *kept, size_t len)
{
	struct dirent *de;
	struct stat st;
	int fd, n = 0;
	DIR *dp;

	if (len)
		kept[0] = '\0';
	if (d->before_truncated)
		return 0;
	fd = open(d->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		n = -errno;
		close(fd);
		return n;
	}
	dp = fdopendir(fd);
	if (!dp) {
		n = -errno;
		close(fd);
		return n;
	}
	while ((de = readdir(dp))) {
		char manifest[NAME_MAX + 32];
		bool before = false;

		if (!repro_dir_is_run(de->d_name))
			continue;
		for (unsigned int i = 0; i < d->nbefore && !before; i++)
			before = !strcmp(d->before[i], de->d_name);
		snprintf(manifest, sizeof(manifest), "%s/" STRESS_FS_MANIFEST,
			 de->d_name);
		if (before || faccessat(fd, manifest, F_OK, AT_SYMLINK_NOFOLLOW))
			continue;
		if (!repro_dir_rm(fd, de->d_name, st.st_dev, 0))
			n++;
		else if (len && !kept[0])
			util_copy(kept, len, de->d_name, strlen(de->d_name));
	}
	closedir(dp);
	return n;
}
