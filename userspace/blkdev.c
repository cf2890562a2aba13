// SPDX-License-Identifier: GPL-2.0-only
/*
 * blkdev.c - the target of "usbtrail stress": open it, size it, and refuse
 * to touch a block device something else depends on.
 *
 * A block device is written only with --destroy-data, and never while it or
 * one of its partitions is mounted (/proc/self/mountinfo), held by another
 * block device such as dm or md (/sys/class/block/X/holders), or open
 * exclusively elsewhere (our own O_EXCL open fails with EBUSY).  The checks
 * are done in that order so the message names the most useful culprit; the
 * O_EXCL open is the one that cannot race, and it is kept for the run.
 *
 * The caller gets a message in @why and decides whether to print it; this
 * file prints nothing.  Sysfs is read below sysfs_usb's root, the one
 * override (libtracefs' habit); /proc/self/mountinfo is this process's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/fs.h>

#include "blkdev.h"
#include "pattern.h"
#include "sysfs_usb.h"
#include "util.h"

static void blkdev_sys(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * "/sys" + fmt below the one root override, sysfs_usb_set_root(); a path
 * that does not fit is "" and fails to open like a missing one.
 */
static void blkdev_sys(char *buf, size_t len, const char *fmt, ...)
{
	char rel[PATH_MAX];
	va_list ap;
	int n;

	memcpy(rel, "/sys", 5);
	va_start(ap, fmt);
	n = vsnprintf(rel + 4, sizeof(rel) - 4, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(rel) - 4 ||
	    sysfs_usb_path(rel, buf, len))
		buf[0] = '\0';
}

static int blkdev_why(char *why, size_t len, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int blkdev_why(char *why, size_t len, int err, const char *fmt, ...)
{
	va_list ap;

	if (why && len) {
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return err;
}

/* Read a small sysfs attribute, without its trailing newline. */
static int blkdev_read_attr(const char *dir, const char *attr, char *buf,
			    size_t len)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd, err;

	if (snprintf(path, sizeof(path), "%s/%s", dir, attr) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	err = errno;
	close(fd);
	if (n < 0)
		return -err;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = '\0';
	return 0;
}

/*
 * mountinfo escapes blanks in paths as \040 and so on; undo that for the
 * message.
 */
static void blkdev_unescape(const char *s, size_t n, char *out, size_t len)
{
	size_t i = 0, o = 0;

	while (i < n && o + 1 < len) {
		if (s[i] == '\\' && i + 3 < n + 0 &&
		    s[i + 1] >= '0' && s[i + 1] <= '3') {
			out[o++] = (char)(((s[i + 1] - '0') << 6) |
					  ((s[i + 2] - '0') << 3) |
					  (s[i + 3] - '0'));
			i += 4;
		} else {
			out[o++] = s[i++];
		}
	}
	if (len)
		out[o] = '\0';
}

/**
 * blkdev_mountinfo_find() - find a mount of one of @devs
 * @text:   the contents of /proc/self/mountinfo, NUL-terminated
 * @devs:   device numbers to look for
 * @ndevs:  their number
 * @which:  index into @devs of the one mounted
 * @mnt:    its mount point, unescaped
 * @mntlen: size of @mnt
 *
 * Field 3 of a mountinfo line is "major:minor" (proc(5)), field 5 the
 * mount point.  Pure: takes bytes, opens nothing.
 *
 * Return: 0 with @which and @mnt set, -ENOENT if none is mounted.
 */
int blkdev_mountinfo_find(const char *text, const dev_t *devs, size_t ndevs,
			  size_t *which, char *mnt, size_t mntlen)
{
	const char *line = text;

	while (line && *line) {
		const char *end = strchr(line, '\n');
		const char *f[5];
		unsigned int maj, min;
		size_t nf = 0, i;
		const char *p = line;

		if (!end)
			end = line + strlen(line);
		while (nf < 5 && p < end) {
			while (p < end && *p == ' ')
				p++;
			if (p >= end)
				break;
			f[nf++] = p;
			while (p < end && *p != ' ')
				p++;
		}
		if (nf == 5 && sscanf(f[2], "%u:%u", &maj, &min) == 2) {
			for (i = 0; i < ndevs; i++) {
				const char *e;

				if (major(devs[i]) != maj ||
				    minor(devs[i]) != min)
					continue;
				e = strchr(f[4], ' ');
				if (!e || e > end)
					e = end;
				*which = i;
				blkdev_unescape(f[4], (size_t)(e - f[4]), mnt,
						mntlen);
				return 0;
			}
		}
		line = *end ? end + 1 : NULL;
	}
	return -ENOENT;
}

/* The disk and its partitions: names and device numbers. */
struct blkdev_family {
	size_t n;
	char names[BLKDEV_MAX_DEVS][BLKDEV_NAME_MAX];
	dev_t devs[BLKDEV_MAX_DEVS];
};

static int blkdev_parse_dev(const char *s, dev_t *out)
{
	unsigned int maj, min;

	if (sscanf(s, "%u:%u", &maj, &min) != 2)
		return -EINVAL;
	*out = makedev(maj, min);
	return 0;
}

static void blkdev_family_add(struct blkdev_family *fam, const char *name,
			      dev_t dev)
{
	if (fam->n == BLKDEV_MAX_DEVS)
		return;
	if (strlen(name) >= BLKDEV_NAME_MAX)
		return;
	memcpy(fam->names[fam->n], name, strlen(name) + 1);
	fam->devs[fam->n++] = dev;
}

/* @name's sysfs directory has subdirectories for its partitions. */
static int blkdev_family_get(const char *name, dev_t dev,
			     struct blkdev_family *fam)
{
	char dir[PATH_MAX], buf[64];
	struct dirent *de;
	DIR *d;

	fam->n = 0;
	blkdev_family_add(fam, name, dev);
	blkdev_sys(dir, sizeof(dir), "/class/block/%s", name);
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char sub[PATH_MAX];
		dev_t pdev;

		if (strncmp(de->d_name, name, strlen(name)))
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name) >=
		    (int)sizeof(sub))
			continue;
		if (blkdev_read_attr(sub, "partition", buf, sizeof(buf)) ||
		    blkdev_read_attr(sub, "dev", buf, sizeof(buf)) ||
		    blkdev_parse_dev(buf, &pdev))
			continue;
		blkdev_family_add(fam, de->d_name, pdev);
	}
	closedir(d);
	return 0;
}

static char *blkdev_slurp(const char *path)
{
	size_t len = 0, cap = 65536;
	char *buf = malloc(cap), *nb;
	ssize_t n;
	int fd;

	if (!buf)
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		free(buf);
		return NULL;
	}
	while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
		len += (size_t)n;
		if (cap - len < 4096) {
			nb = realloc(buf, cap * 2);
			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
	}
	close(fd);
	buf[len] = '\0';
	return buf;
}

/* Name the first holder of any member of @fam in @holder. */
static int blkdev_family_held(const struct blkdev_family *fam,
			      size_t *which, char *holder, size_t len)
{
	struct dirent *de;
	size_t i;

	for (i = 0; i < fam->n; i++) {
		char dir[PATH_MAX];
		DIR *d;

		blkdev_sys(dir, sizeof(dir), "/class/block/%s/holders",
			   fam->names[i]);
		d = opendir(dir);
		if (!d)
			continue;
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			*which = i;
			snprintf(holder, len, "%s", de->d_name);
			closedir(d);
			return 0;
		}
		closedir(d);
	}
	return -ENOENT;
}

/* USB serial and ids: the first ancestor of the disk with idVendor. */
static void blkdev_identity_get(const char *name, uint64_t size,
				struct blkdev_identity *id)
{
	char link[PATH_MAX], real[PATH_MAX], vid[8], pid[8];
	char *slash;

	char num[32];

	memset(id, 0, sizeof(*id));
	id->size = size;
	blkdev_sys(link, sizeof(link), "/class/block/%s", name);
	if (!realpath(link, real))
		return;
	if (strlen(real) < sizeof(id->syspath))
		memcpy(id->syspath, real, strlen(real) + 1);
	if (!blkdev_read_attr(real, "diskseq", num, sizeof(num)))
		id->diskseq = strtoull(num, NULL, 10);
	while ((slash = strrchr(real, '/')) && slash > real) {
		*slash = '\0';
		if (blkdev_read_attr(real, "idVendor", vid, sizeof(vid)))
			continue;
		if (!blkdev_read_attr(real, "idProduct", pid, sizeof(pid)))
			snprintf(id->usb_id, sizeof(id->usb_id), "%s:%s",
				 vid, pid);
		if (blkdev_read_attr(real, "serial", id->serial,
				     sizeof(id->serial)))
			id->serial[0] = '\0';
		if (!blkdev_read_attr(real, "devnum", num, sizeof(num)))
			id->devnum = strtoul(num, NULL, 10);
		return;
	}
}

static uint64_t blkdev_sysfs_size(const char *name)
{
	char dir[PATH_MAX], buf[32];

	blkdev_sys(dir, sizeof(dir), "/class/block/%s", name);
	if (blkdev_read_attr(dir, "size", buf, sizeof(buf)))
		return 0;
	return strtoull(buf, NULL, 10) * 512;	/* always 512-byte units */
}

/**
 * blkdev_find_identity() - the whole disk that is @id now
 * @id:      from the target when it was opened
 * @name:    the disk's name ("sdb"), written on success
 * @namelen: size of @name
 * @found:   its identity, syspath included, written on success
 *
 * A disk matches when its USB serial, USB ids and size all do; a disk
 * without a serial number never matches, since then any enclosure of the
 * same model would.
 *
 * Return: 0, -ENOENT if no such disk is there (yet), -EINVAL if @id has no
 * serial number.
 */
int blkdev_find_identity(const struct blkdev_identity *id, char *name,
			 size_t namelen, struct blkdev_identity *found)
{
	char dir[PATH_MAX], buf[16];
	struct blkdev_identity cur;
	struct dirent *de;
	DIR *d;

	if (!id->serial[0])
		return -EINVAL;
	blkdev_sys(dir, sizeof(dir), "/class/block");
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char sub[PATH_MAX];

		if (de->d_name[0] == '.')
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name) >=
		    (int)sizeof(sub))
			continue;
		if (!blkdev_read_attr(sub, "partition", buf, sizeof(buf)))
			continue;
		blkdev_identity_get(de->d_name, blkdev_sysfs_size(de->d_name),
				    &cur);
		if (!strcmp(cur.serial, id->serial) &&
		    !strcmp(cur.usb_id, id->usb_id) && cur.size == id->size) {
			snprintf(name, namelen, "%s", de->d_name);
			*found = cur;
			closedir(d);
			return 0;
		}
	}
	closedir(d);
	return -ENOENT;
}

static int blkdev_open_fd(const char *path, int flags, bool *direct)
{
	int fd = open(path, flags | O_DIRECT | O_CLOEXEC, 0644);

	/* Filesystems without O_DIRECT (tmpfs before 6.6) say EINVAL. */
	if (fd < 0 && errno == EINVAL) {
		fd = open(path, flags | O_CLOEXEC, 0644);
		*direct = false;
	} else {
		*direct = fd >= 0;
	}
	return fd < 0 ? -errno : fd;
}

static int blkdev_open_block(const char *path, const struct stat *st,
			     const struct blkdev_open_opts *opts,
			     struct blkdev_target *t, char *why, size_t whylen)
{
	char dir[PATH_MAX], real[PATH_MAX], mnt[1024];
	struct blkdev_family *fam;
	uint64_t bytes;
	size_t which;
	char *info;
	int fd, err, lbs;

	if (!opts->readonly && !opts->destroy_data)
		return blkdev_why(why, whylen, -EPERM,
			"%s is a block device: everything on it would be "
			"lost; give --destroy-data if that is what you want",
			path);

	blkdev_sys(dir, sizeof(dir), "/dev/block/%u:%u", major(st->st_rdev),
		   minor(st->st_rdev));
	if (!realpath(dir, real))
		return blkdev_why(why, whylen, -ENODEV,
				  "%s: no %s in sysfs", path, dir);
	snprintf(t->name, sizeof(t->name), "%s", strrchr(real, '/') + 1);

	fam = calloc(1, sizeof(*fam));
	if (!fam)
		return -ENOMEM;
	err = blkdev_family_get(t->name, st->st_rdev, fam);
	if (err) {
		free(fam);
		return blkdev_why(why, whylen, err, "%s: cannot list %s: %s",
				  path, t->name, strerror(-err));
	}

	if (!opts->readonly) {
		info = blkdev_slurp("/proc/self/mountinfo");
		if (!info) {
			free(fam);
			return blkdev_why(why, whylen, -EIO,
				"%s: cannot read /proc/self/mountinfo", path);
		}
		err = blkdev_mountinfo_find(info, fam->devs, fam->n, &which,
					    mnt, sizeof(mnt));
		free(info);
		if (!err) {
			err = blkdev_why(why, whylen, -EBUSY,
				"refusing %s: /dev/%s is mounted on %s", path,
				fam->names[which], mnt);
			free(fam);
			return err;
		}
		if (!blkdev_family_held(fam, &which, mnt, sizeof(mnt))) {
			err = blkdev_why(why, whylen, -EBUSY,
				"refusing %s: /dev/%s is held by %s "
				"(/sys/class/block/%s/holders)", path,
				fam->names[which], mnt, fam->names[which]);
			free(fam);
			return err;
		}
	}
	free(fam);

	/* O_EXCL on a block device: fails while anyone else has it so. */
	fd = blkdev_open_fd(path, opts->readonly ? O_RDONLY : O_RDWR | O_EXCL,
			    &t->direct);
	if (fd == -EBUSY)
		return blkdev_why(why, whylen, fd,
			"refusing %s: in use (exclusive open: %s); a "
			"filesystem, swap, RAID or another program has it",
			path, strerror(EBUSY));
	if (fd < 0)
		return blkdev_why(why, whylen, fd, "cannot open %s: %s", path,
				  strerror(-fd));
	if (ioctl(fd, BLKGETSIZE64, &bytes) || ioctl(fd, BLKSSZGET, &lbs)) {
		err = -errno;
		close(fd);
		return blkdev_why(why, whylen, err, "%s: cannot size: %s",
				  path, strerror(-err));
	}
	t->fd = fd;
	t->dev_size = bytes;
	t->lbs = (uint32_t)lbs;
	blkdev_identity_get(t->name, bytes, &t->id);
	return 0;
}

/*
 * Whether an existing file may be written without --destroy-data: it
 * holds nothing (empty, or sparse with no block allocated), or its first
 * sector is the header of a usbtrail run (any sector size).  Anything else
 * is someone's data.
 */
#define BLKDEV_PROBE_BYTES	4096	/* aligned for an O_DIRECT fd */

static bool blkdev_file_ours(int fd, const struct stat *st)
{
	struct pattern_header h;
	unsigned int shift;
	bool ours = false;
	void *sector;
	ssize_t n;

	if (!st->st_size || !st->st_blocks)
		return true;
	if (posix_memalign(&sector, BLKDEV_PROBE_BYTES, BLKDEV_PROBE_BYTES))
		return false;
	do
		n = pread(fd, sector, BLKDEV_PROBE_BYTES, 0);
	while (n < 0 && errno == EINTR);
	for (shift = 9; n >= (ssize_t)PATTERN_HDR_BYTES && shift <= 16 &&
	     !ours; shift++)
		ours = !pattern_header_decode(sector, (size_t)1 << shift, &h);
	free(sector);
	return ours;
}

static int blkdev_open_file(const char *path, bool exists,
			    const struct stat *st,
			    const struct blkdev_open_opts *opts,
			    struct blkdev_target *t, char *why, size_t whylen)
{
	char have[32], need[32];
	struct statvfs vfs;
	int fd, err;

	if (opts->readonly && !exists)
		return blkdev_why(why, whylen, -ENOENT, "%s: %s", path,
				  strerror(ENOENT));
	/* /dev/sdx mistyped must not become a file in a RAM-backed /dev
	 * (/dev/shm/x is fine: only names directly in /dev). */
	if (!exists && !strncmp(path, "/dev/", 5) && !strchr(path + 5, '/'))
		return blkdev_why(why, whylen, -ENOENT,
			"%s: no such device; refusing to create a file in "
			"/dev", path);
	if (!exists || !st->st_size) {
		if (!opts->size)
			return blkdev_why(why, whylen, -EINVAL,
				"%s is a new or empty file: give --size",
				path);
	}
	fd = blkdev_open_fd(path, opts->readonly ? O_RDONLY :
			    O_RDWR | O_CREAT, &t->direct);
	if (fd < 0)
		return blkdev_why(why, whylen, fd, "cannot open %s: %s", path,
				  strerror(-fd));
	if (exists && !opts->readonly && !opts->destroy_data &&
	    !blkdev_file_ours(fd, st)) {
		close(fd);
		return blkdev_why(why, whylen, -EPERM,
			"%s holds data that usbtrail stress did not write; "
			"give --destroy-data to overwrite it", path);
	}
	t->created = !exists;
	t->fd = fd;
	t->dev_size = exists ? (uint64_t)st->st_size : 0;
	t->lbs = 512;

	/* Room for what the file must grow by, checked before writing. */
	if (!opts->readonly && opts->size > t->dev_size) {
		if (fstatvfs(fd, &vfs)) {
			err = -errno;
			goto err_close;
		}
		if ((uint64_t)vfs.f_bavail * vfs.f_frsize <
		    opts->size - t->dev_size) {
			util_format_size(have, sizeof(have),
				(uint64_t)vfs.f_bavail * vfs.f_frsize);
			util_format_size(need, sizeof(need),
					 opts->size - t->dev_size);
			err = blkdev_why(why, whylen, -ENOSPC,
				"%s: needs %s more, the filesystem has %s free",
				path, need, have);
			goto err_close;
		}
		t->dev_size = opts->size;
	}
	return 0;

err_close:
	close(fd);
	t->fd = -1;
	if (t->created)
		unlink(path);
	return err;
}

/**
 * blkdev_open() - open the target of a stress run
 * @path:   a file (created if missing) or a block device
 * @opts:   size wanted, whether data may be destroyed, read-only
 * @t:      filled on success; close with blkdev_close()
 * @why:    a one-line message on failure, naming what holds the device
 * @whylen: size of @why
 *
 * Return: 0, or a negative errno (-EPERM: block device without
 * --destroy-data; -EBUSY: mounted, held or in use; -ENOSPC: no room;
 * -EFBIG: --size larger than the target).
 */
int blkdev_open(const char *path, const struct blkdev_open_opts *opts,
		struct blkdev_target *t, char *why, size_t whylen)
{
	struct stat st;
	bool exists;
	int err;
	char have[32], want[32];

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	t->readonly = opts->readonly;
	if (snprintf(t->path, sizeof(t->path), "%s", path) >=
	    (int)sizeof(t->path))
		return blkdev_why(why, whylen, -ENAMETOOLONG, "%s: %s", path,
				  strerror(ENAMETOOLONG));
	exists = !stat(path, &st);
	if (!exists && errno != ENOENT)
		return blkdev_why(why, whylen, -errno, "%s: %s", path,
				  strerror(errno));

	if (exists && S_ISBLK(st.st_mode)) {
		t->is_blockdev = true;
		err = blkdev_open_block(path, &st, opts, t, why, whylen);
	} else if (!exists || S_ISREG(st.st_mode)) {
		err = blkdev_open_file(path, exists, &st, opts, t, why,
				       whylen);
	} else {
		return blkdev_why(why, whylen, -EINVAL,
			"%s is neither a regular file nor a block device",
			path);
	}
	if (err)
		return err;

	t->size = opts->size ? opts->size : t->dev_size;
	t->size -= t->size % t->lbs;
	if (opts->size > t->dev_size) {
		util_format_size(have, sizeof(have), t->dev_size);
		util_format_size(want, sizeof(want), opts->size);
		blkdev_close(t);
		return blkdev_why(why, whylen, -EFBIG,
				  "%s holds %s, less than --size %s", path,
				  have, want);
	}
	if (!t->size) {
		blkdev_close(t);
		return blkdev_why(why, whylen, -EINVAL, "%s: nothing to test",
				  path);
	}
	return 0;
}

/* Turn O_DIRECT off for a filesystem that accepted it at open only. */
int blkdev_drop_direct(struct blkdev_target *t)
{
	int fl = fcntl(t->fd, F_GETFL);

	if (fl < 0 || fcntl(t->fd, F_SETFL, fl & ~O_DIRECT))
		return -errno;
	t->direct = false;
	return 0;
}

/**
 * blkdev_drop_unwritten() - remove the file this run created, if unwritten
 * @t: the target, still open
 *
 * For a run that failed before its first write (a profile that does not
 * fit, no memory for the buffers): the file it created would otherwise
 * stay behind, empty.  A file that holds any data, or that was there
 * before, or that is no longer the one at @t->path, is left alone.
 */
void blkdev_drop_unwritten(struct blkdev_target *t)
{
	struct stat fst, pst;

	if (!t || t->fd < 0 || !t->created || t->is_blockdev)
		return;
	if (fstat(t->fd, &fst) || fst.st_blocks || lstat(t->path, &pst) ||
	    fst.st_dev != pst.st_dev || fst.st_ino != pst.st_ino)
		return;
	if (unlink(t->path) == 0)
		t->created = false;
}

void blkdev_close(struct blkdev_target *t)
{
	if (!t || t->fd < 0)
		return;
	close(t->fd);
	t->fd = -1;
}
