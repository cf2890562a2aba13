/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * owner.h - who owns the files usbtrail makes: under sudo, the user who ran
 * sudo, so that "sudo usbtrail record -o ~/rec" is followed by a
 * "usbtrail report ~/rec" that may write into ~/rec.
 *
 * The command decides once (owner_from_sudo(), owner_set()); every file
 * it makes afterwards is opened with owner_open(), which gives it to that
 * user by fchown() on the new descriptor, never by a path a user could
 * have swapped for a link meanwhile.
 */
#ifndef USBTRAIL_OWNER_H
#define USBTRAIL_OWNER_H

#include <sys/types.h>

struct owner {
	uid_t uid;
	gid_t gid;		/* (gid_t)-1: the group is left as it is */
};

/*
 * The user behind sudo, from @euid and the values of SUDO_UID and
 * SUDO_GID (either may be NULL): only when @euid is 0 and SUDO_UID is a
 * plain decimal number other than 0 (a garbled or missing one is
 * ignored, as is a garbled SUDO_GID: the group then stays root's).
 * Return: 0 with *o set, or -ENOENT (nothing to do; *o untouched).
 */
int owner_from_sudo(uid_t euid, const char *sudo_uid, const char *sudo_gid,
		    struct owner *o);

/*
 * From now on, owner_open() and owner_fd() give what they make to @o
 * (copied); NULL: to no one (the process's own user, as ever).
 */
void owner_set(const struct owner *o);

/*
 * open(2) with @flags | O_NOFOLLOW | O_CLOEXEC: the last component is
 * never followed, so a link planted in a directory its user owns does
 * not lead elsewhere.  Then fchown() to the owner of owner_set(), if any;
 * that failing is not the caller's failure (owner_error() keeps it).
 * Return: the descriptor, or -errno.
 */
int owner_open(const char *path, int flags, mode_t mode);

/* fchown() @fd to the owner of owner_set(), if any; as owner_open(). */
void owner_fd(int fd);

/*
 * The first fchown() that failed since owner_set(), as -errno, or 0; the
 * command says it once (a root-squashed NFS refuses, for one).
 */
int owner_error(void);

#endif /* USBTRAIL_OWNER_H */
