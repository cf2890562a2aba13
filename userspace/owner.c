// SPDX-License-Identifier: GPL-2.0-only
/*
 * owner.c - the files of "sudo usbtrail record" belong to the user who ran
 * sudo, not to root (owner.h).
 *
 * sudo(8) passes that user as SUDO_UID and SUDO_GID.  A process's
 * environment is its caller's to set, so the values are taken only when
 * the process runs as root anyway (nothing is gained by lying about them:
 * root may chown to anyone), only as plain numbers, and never for uid 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <unistd.h>

#include "owner.h"
#include "util.h"

static struct owner owner_cur;
static bool owner_active;
static int owner_err;

/* A uid or gid, decimal; (uid_t)-1 is chown()'s "leave it", never one. */
static int owner_parse_id(const char *s, uint64_t *out)
{
	if (!s)
		return -ENOENT;
	return util_parse_number(s, 0, 0, (uint64_t)(uid_t)-1 - 1, out);
}

int owner_from_sudo(uid_t euid, const char *sudo_uid, const char *sudo_gid,
		    struct owner *o)
{
	uint64_t uid, gid;

	if (euid != 0 || owner_parse_id(sudo_uid, &uid) || uid == 0)
		return -ENOENT;
	o->uid = (uid_t)uid;
	o->gid = owner_parse_id(sudo_gid, &gid) ? (gid_t)-1 : (gid_t)gid;
	return 0;
}

void owner_set(const struct owner *o)
{
	owner_active = o != NULL;
	if (o)
		owner_cur = *o;
	owner_err = 0;
}

void owner_fd(int fd)
{
	if (!owner_active || fd < 0)
		return;
	if (fchown(fd, owner_cur.uid, owner_cur.gid) && !owner_err)
		owner_err = -errno;
}

int owner_open(const char *path, int flags, mode_t mode)
{
	int fd = open(path, flags | O_NOFOLLOW | O_CLOEXEC, mode);

	if (fd < 0)
		return -errno;
	owner_fd(fd);
	return fd;
}

int owner_error(void)
{
	return owner_err;
}
