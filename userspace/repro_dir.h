/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * repro_dir.h - repro's directory mode: what is written in the user's
 * directory is only stress's own run directories (stress_fs.h), and a run
 * that repro stopped at its failure can leave one behind (stress removes
 * its files when it ends, not when it is killed).  These are removed after
 * each run; run directories that were there before the campaign stay.
 */
#ifndef USBTRAIL_REPRO_DIR_H
#define USBTRAIL_REPRO_DIR_H

#include <limits.h>
#include <stddef.h>

#include "stress_fs.h"

#define REPRO_DIR_BEFORE_MAX	64

struct repro_dir {
	char path[4096];
	/* the run directories of stress there when the campaign began */
	char before[REPRO_DIR_BEFORE_MAX][NAME_MAX + 1];
	unsigned int nbefore;
	int before_truncated;	/* more than REPRO_DIR_BEFORE_MAX: none removed */
};

/* What path holds at the start: 0 or -errno */
int repro_dir_snapshot(struct repro_dir *d, const char *path);

/*
 * Remove each run directory of stress (STRESS_FS_PREFIX, with its
 * STRESS_FS_MANIFEST) that appeared in the directory since the snapshot:
 * regular files and directories only, opened one name at a time without
 * following links and without leaving the filesystem.  A directory that
 * holds anything else is kept, and its name is put in kept (the first
 * one).  Returns the number removed, or -errno if the directory cannot be
 * read.
 */
int repro_dir_clean(const struct repro_dir *d, char *kept, size_t len);

#endif /* USBTRAIL_REPRO_DIR_H */
