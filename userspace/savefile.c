// SPDX-License-Identifier: GPL-2.0-only
/*
 * savefile.c - a file written through a temporary one and renamed when
 * whole (savefile.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "savefile.h"
#include "util.h"

int savefile_write(const char *path, const void *data, size_t len, char *tmp,
		   size_t tmplen)
{
	size_t off = 0;
	int fd, err;

	if ((size_t)snprintf(tmp, tmplen, "%s.tmp.XXXXXX", path) >= tmplen) {
		tmp[0] = '\0';
		return -ENAMETOOLONG;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = -errno;
		tmp[0] = '\0';
		return err;
	}
	/* mkstemp() makes it 0600: the file is the user's to share */
	fchmod(fd, 0644);
	err = util_write_all(fd, data, len, &off);
	if (!err && fsync(fd) < 0)
		err = -errno;
	if (close(fd) < 0 && !err)
		err = -errno;
	if (!err && rename(tmp, path) < 0)
		err = -errno;
	if (err)
		unlink(tmp);
	tmp[0] = '\0';
	return err;
}
