// SPDX-License-Identifier: GPL-2.0-only
/*
 * mitigate.c - a mitigation applied live to one USB disk, and the system
 * put back as it was (mitigate.h).
 *
 * The quirks parameter is the kernel's usb_storage.quirks: a list of
 * "VID:PID:LETTERS" entries, read by usb-storage and uas when they probe
 * an interface (usb_stor_adjust_quirks()), so a change acts at the next
 * probe: the interface is unbound from its driver and handed to
 * drivers_probe, which picks uas or usb-storage as the new flags say.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mitigate.h"
#include "quirks.h"
#include "savefile.h"
#include "sysfs_usb.h"
#include "util.h"

#define MITIGATE_MAGIC	"usbtrail-repro-state 1"

/* @text into the sysfs file @rel (below the sysfs root) */
static int mitigate_write(const char *rel, const char *text)
{
	char path[PATH_MAX];
	int fd, err;

	err = sysfs_usb_path(rel, path, sizeof(path));
	if (err)
		return err;
	/* O_TRUNC as a shell's "echo >": sysfs ignores it, a plain file not */
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = util_write_all(fd, text, strlen(text), NULL);
	if (close(fd) && !err)
		err = -errno;
	return err;
}

static void mitigate_driver(const char *iface, char *buf, size_t len)
{
	char rel[PATH_MAX];

	snprintf(rel, sizeof(rel), "/sys/bus/usb/devices/%s/driver", iface);
	if (sysfs_usb_link_name(rel, buf, len) < 0)
		buf[0] = '\0';
}

static int mitigate_save(const struct mitigate_state *st)
{
	char buf[MITIGATE_PARAM_MAX + 512], tmp[PATH_MAX], dir[256], *s;
	int n;

	util_copy(dir, sizeof(dir), st->path, strlen(st->path));
	s = strrchr(dir, '/');
	if (s && s != dir) {
		*s = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			return -errno;
	}
	n = snprintf(buf, sizeof(buf),
		     MITIGATE_MAGIC "\npid %ld\niface %s\nvidpid %04x:%04x\n"
		     "param%s%s\ndriver %s\nmax_sectors_kb %u\ntimeout %u\n"
		     "offline %d\n",
		     st->pid_owner, st->iface, st->vid, st->pid,
		     st->have_param ? "=" : "-none", st->param, st->driver,
		     st->attr[MITIGATE_MAX_SECTORS_KB],
		     st->attr[MITIGATE_CMD_TIMEOUT], st->offline);
	if (n < 0 || (size_t)n >= sizeof(buf))
		return -ENAMETOOLONG;
	return savefile_write(st->path, buf, (size_t)n, tmp, sizeof(tmp));
}

static int mitigate_load(struct mitigate_state *st, const char *path)
{
	char line[MITIGATE_PARAM_MAX + 64];
	unsigned int vid, pid;
	bool magic = false;
	FILE *f;

	memset(st, 0, sizeof(*st));
	util_copy(st->path, sizeof(st->path), path, strlen(path));
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strcmp(line, MITIGATE_MAGIC))
			magic = true;
		else if (!strncmp(line, "pid ", 4))
			st->pid_owner = strtol(line + 4, NULL, 10);
		else if (!strncmp(line, "iface ", 6))
			util_copy(st->iface, sizeof(st->iface), line + 6,
				  strlen(line + 6));
		else if (sscanf(line, "vidpid %x:%x", &vid, &pid) == 2) {
			st->vid = (uint16_t)vid;
			st->pid = (uint16_t)pid;
		} else if (!strncmp(line, "param=", 6)) {
			st->have_param = true;
			util_copy(st->param, sizeof(st->param), line + 6,
				  strlen(line + 6));
		} else if (!strncmp(line, "driver ", 7))
			util_copy(st->driver, sizeof(st->driver), line + 7,
				  strlen(line + 7));
		else if (!strncmp(line, "max_sectors_kb ", 15))
			st->attr[MITIGATE_MAX_SECTORS_KB] =
				(unsigned int)strtoul(line + 15, NULL, 10);
		else if (!strncmp(line, "timeout ", 8))
			st->attr[MITIGATE_CMD_TIMEOUT] =
				(unsigned int)strtoul(line + 8, NULL, 10);
		else if (!strncmp(line, "offline ", 8))
			st->offline = line[8] == '1';
	}
	fclose(f);
	if (!magic || !st->iface[0] || !sysfs_usb_is_iface_name(st->iface))
		return -EBADMSG;
	/* a state file says a change may have been made */
	st->changed = true;
	return 0;
}

int mitigate_begin(struct mitigate_state *st, const char *path,
		   const char *iface, uint16_t vid, uint16_t pid)
{
	struct stat sb;

	memset(st, 0, sizeof(*st));
	path = path ? path : MITIGATE_STATE_PATH;
	if (strlen(path) >= sizeof(st->path) ||
	    strlen(iface) >= sizeof(st->iface))
		return -ENAMETOOLONG;
	if (!stat(path, &sb))
		return -EEXIST;
	strcpy(st->path, path);
	strcpy(st->iface, iface);
	st->vid = vid;
	st->pid = pid;
	st->pid_owner = (long)getpid();
	st->have_param = sysfs_usb_read_text(MITIGATE_PARAM, st->param,
					     sizeof(st->param)) >= 0;
	if (!st->have_param)
		st->param[0] = '\0';
	mitigate_driver(iface, st->driver, sizeof(st->driver));
	return mitigate_save(st);
}

int mitigate_param_with(const char *param, uint16_t vid, uint16_t pid,
			const char *flags, char *out, size_t len)
{
	char self[16], *copy, *tok, *save = NULL;
	size_t n = 0;
	int ret = 0;

	snprintf(self, sizeof(self), "%04x:%04x:", vid, pid);
	copy = strdup(param ? param : "");
	if (!copy)
		return -ENOMEM;
	out[0] = '\0';
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		unsigned long f;

		/* the device's entries, as the kernel reads them */
		if (!*tok || quirks_param_lookup(tok, vid, pid, &f, NULL, 0) == 1)
			continue;
		n += (size_t)snprintf(out + n, n < len ? len - n : 0, "%s%s",
				      n ? "," : "", tok);
	}
	if (flags && *flags)
		n += (size_t)snprintf(out + n, n < len ? len - n : 0,
				      "%s%s%s", n ? "," : "", self, flags);
	if (n >= len)
		ret = -ENAMETOOLONG;
	free(copy);
	return ret;
}

/* @iface off its driver, if it has one */
static int mitigate_unbind_iface(const char *iface)
{
	char rel[PATH_MAX], cur[32];
	int err;

	mitigate_driver(iface, cur, sizeof(cur));
	if (!cur[0])
		return 0;
	snprintf(rel, sizeof(rel), "/sys/bus/usb/drivers/%s/unbind", cur);
	err = mitigate_write(rel, iface);
	return err == -ENODEV ? 0 : err;
}

int mitigate_bind(const char *iface, char *driver, size_t len)
{
	int err = mitigate_write("/sys/bus/usb/drivers_probe", iface);

	/* -ENODEV: no driver wants it now (IGNORE_DEVICE), not an error */
	if (err && err != -ENODEV)
		return err;
	if (driver)
		mitigate_driver(iface, driver, len);
	return 0;
}

static int mitigate_probe_again(const char *iface, char *driver, size_t len)
{
	int err = mitigate_unbind_iface(iface);

	return err ? err : mitigate_bind(iface, driver, len);
}

int mitigate_unbind(struct mitigate_state *st)
{
	/* the driver differs from before now: restore binds it again */
	st->changed = true;
	return mitigate_unbind_iface(st->iface);
}

int mitigate_quirk(struct mitigate_state *st, const char *flags,
		   char *driver, size_t len)
{
	char param[MITIGATE_PARAM_MAX], all[64], entry[80];
	unsigned long fl;
	int err;

	if (!st->have_param)
		return -ENOENT;		/* usb-storage is not loaded */
	/* on top of the device's first entry (the one the kernel reads) */
	all[0] = '\0';
	if (quirks_param_lookup(st->param, st->vid, st->pid, &fl, entry,
				sizeof(entry)) == 1) {
		const char *letters = strchr(strchr(entry, ':') + 1, ':') + 1;

		util_copy(all, sizeof(all), letters, strlen(letters));
	}
	for (const char *f = flags ? flags : ""; *f; f++)
		if (!strchr(all, *f) && strlen(all) + 1 < sizeof(all))
			strncat(all, f, 1);
	err = mitigate_param_with(st->param, st->vid, st->pid, all, param,
				  sizeof(param));
	if (err)
		return err;
	st->changed = true;
	/* an empty string is no write at all: a newline clears it */
	err = mitigate_write(MITIGATE_PARAM, param[0] ? param : "\n");
	if (err)
		return err;
	return mitigate_probe_again(st->iface, driver, len);
}

static const char *const mitigate_attr_file[] = {
	[MITIGATE_MAX_SECTORS_KB] = "queue/max_sectors_kb",
	[MITIGATE_CMD_TIMEOUT] = "device/timeout",
};

/* /sys/block/@disk/@file (below the sysfs root) into @rel */
static int mitigate_disk_rel(const char *disk, const char *file, char *rel,
			     size_t len)
{
	int n = snprintf(rel, len, "/sys/block/%s/%s", disk, file);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int mitigate_attr_rel(const char *disk, enum mitigate_attr a,
			     char *rel, size_t len)
{
	return mitigate_disk_rel(disk, mitigate_attr_file[a], rel, len);
}

int mitigate_disk_attr(struct mitigate_state *st, const char *disk,
		       enum mitigate_attr a, unsigned int v)
{
	char rel[PATH_MAX], cur[32], val[32];
	int err;

	err = mitigate_attr_rel(disk, a, rel, sizeof(rel));
	if (err)
		return err;
	if (sysfs_usb_read_text(rel, cur, sizeof(cur)) < 0)
		return -ENOENT;
	if (!st->attr[a]) {
		st->attr[a] = (unsigned int)strtoul(cur, NULL, 10);
		err = mitigate_save(st);
		if (err)
			return err;
	}
	st->changed = true;
	snprintf(val, sizeof(val), "%u", v);
	return mitigate_write(rel, val);
}

/* sd's state file takes a name and a newline: "offline\n" */
int mitigate_disk_offline(struct mitigate_state *st, const char *disk,
			  bool offline)
{
	char rel[PATH_MAX], cur[32];
	int err;

	err = mitigate_disk_rel(disk, "device/state", rel, sizeof(rel));
	if (err)
		return err;
	if (sysfs_usb_read_text(rel, cur, sizeof(cur)) < 0)
		return -ENOENT;
	if (!offline) {
		if (strcmp(cur, "offline"))
			err = 0;	/* running, or gone through a probe */
		else
			err = mitigate_write(rel, "running\n");
		if (!err && st->offline) {
			st->offline = false;
			err = mitigate_save(st);
		}
		return err;
	}
	if (strcmp(cur, "running"))
		return -EBUSY;
	if (!st->offline) {
		st->offline = true;
		err = mitigate_save(st);
		if (err)
			return err;
	}
	st->changed = true;
	return mitigate_write(rel, "offline\n");
}

/* The disk of @iface now ("sdb"), or "" */
void mitigate_disk_of(const char *iface, char *disk, size_t len)
{
	sysfs_usb_iface_block(iface, disk, len);
}

int mitigate_restore(struct mitigate_state *st, char *why, size_t len)
{
	char rel[PATH_MAX], disk[32] = "", cur[32], val[32], drv[32];
	static char cur_param[MITIGATE_PARAM_MAX];
	int err = 0, e;

	if (why && len)
		why[0] = '\0';
	if (!st->path[0])
		return 0;
	if (st->changed && st->have_param) {
		/* only what differs: a probe again replaces the disk */
		bool param_same = sysfs_usb_read_text(MITIGATE_PARAM, cur_param,
						      sizeof(cur_param)) >= 0 &&
				  !strcmp(cur_param, st->param);

		mitigate_driver(st->iface, drv, sizeof(drv));
		e = param_same ? 0 : mitigate_write(MITIGATE_PARAM,
					st->param[0] ? st->param : "\n");
		if (e) {
			err = e;
			if (why)
				snprintf(why, len, "the quirks parameter: %s",
					 strerror(-e));
		}
		/* the flags act at probe: probe with the old ones */
		if (!e && (!param_same || strcmp(drv, st->driver))) {
			e = mitigate_probe_again(st->iface, drv, sizeof(drv));
			if (e && !err) {
				err = e;
				if (why)
					snprintf(why, len, "probing %s again: %s",
						 st->iface, strerror(-e));
			}
		}
	}
	/* the disk may be new (the probe): wait for it a little */
	for (int i = 0; i < 100 && !disk[0] &&
	     (st->attr[0] || st->attr[1] || st->offline); i++) {
		mitigate_disk_of(st->iface, disk, sizeof(disk));
		if (!disk[0])
			usleep(50 * 1000);
	}
	for (int a = 0; a < 2; a++) {
		if (!st->attr[a])
			continue;
		if (disk[0] && !mitigate_attr_rel(disk, a, rel, sizeof(rel)) &&
		    sysfs_usb_read_text(rel, cur, sizeof(cur)) >= 0 &&
		    strtoul(cur, NULL, 10) != st->attr[a]) {
			snprintf(val, sizeof(val), "%u", st->attr[a]);
			e = mitigate_write(rel, val);
			if (e && !err) {
				err = e;
				if (why)
					snprintf(why, len, "%s: %s", rel,
						 strerror(-e));
			}
		}
	}
	if (st->offline) {
		/* gone, or replaced by a probe: nothing to do */
		e = disk[0] ? mitigate_disk_offline(st, disk, false) : 0;
		if (e && e != -ENOENT && !err) {
			err = e;
			if (why)
				snprintf(why, len, "/sys/block/%s/device/state: %s",
					 disk, strerror(-e));
		}
	}
	if (!err && unlink(st->path) && errno != ENOENT)
		err = -errno;
	if (!err)
		st->path[0] = '\0';
	return err;
}

int mitigate_recover(const char *path, char *why, size_t len)
{
	struct mitigate_state st;
	int err;

	path = path ? path : MITIGATE_STATE_PATH;
	err = mitigate_load(&st, path);
	if (err == -ENOENT)
		return 0;
	if (err) {
		snprintf(why, len, "%s: not a state file of usbtrail repro (%s); "
			 "remove it to go on", path, strerror(-err));
		return err;
	}
	if (st.pid_owner > 0 && st.pid_owner != (long)getpid() &&
	    (!kill((pid_t)st.pid_owner, 0) || errno == EPERM)) {
		snprintf(why, len, "%s: a run of usbtrail repro (pid %ld) is "
			 "going on", path, st.pid_owner);
		return -EBUSY;
	}
	err = mitigate_restore(&st, why, len);
	return err ? err : 1;
}
