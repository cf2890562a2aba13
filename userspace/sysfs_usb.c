// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysfs_usb.c - walk sysfs from a USB storage interface (or its disk) to
 * the device, hubs and host controller, reading what each one says.
 *
 * Layout relied on (stable since 2.6.2x): /sys/bus/usb/devices/ holds a
 * link per USB device ("2-1.4") and interface ("2-1.4:1.0") into
 * /sys/devices/<controller>/usbN/...; the disk sits below the interface as
 * host<N>/target<N:C:T>/H:C:T:L/block/sdX.  "descriptors" is world-readable (0444),
 * so none of this needs root.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysfs_usb.h"

#define SYSFS_USB_DESC_MAX	(1u << 20)	/* 8 configs of 64 KiB fit */

static char sysfs_usb_root[PATH_MAX] = "/";

/**
 * sysfs_usb_set_root() - read sysfs (and /proc) below @dir instead of "/"
 * @dir: a directory, or NULL for "/"; copied
 *
 * Not thread-safe; meant for tests and for the start of main().
 *
 * Return: 0, -ENAMETOOLONG.
 */
int sysfs_usb_set_root(const char *dir)
{
	size_t n;

	if (!dir || !*dir)
		dir = "/";
	n = strlen(dir);
	if (n + 1 > sizeof(sysfs_usb_root))
		return -ENAMETOOLONG;
	memcpy(sysfs_usb_root, dir, n + 1);
	/* keep one trailing slash away: paths are joined with "/rel" */
	while (n > 1 && sysfs_usb_root[n - 1] == '/')
		sysfs_usb_root[--n] = '\0';
	return 0;
}

/* The root in effect; owned by this module. */
const char *sysfs_usb_get_root(void)
{
	return sysfs_usb_root;
}

/**
 * sysfs_usb_path() - @rel ("/sys/...", "/proc/...") below the root
 * @rel: an absolute path as on a live system
 * @buf: the path to open
 * @len: size of @buf
 *
 * The one root override of the command: blkdev.c joins its paths here too.
 *
 * Return: 0, -ENAMETOOLONG.
 */
int sysfs_usb_path(const char *rel, char *buf, size_t len)
{
	const char *root = strcmp(sysfs_usb_root, "/") ? sysfs_usb_root : "";
	int n = snprintf(buf, len, "%s%s", root, rel);

	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

bool sysfs_usb_exists(const char *rel)
{
	char path[PATH_MAX];

	return !sysfs_usb_path(rel, path, sizeof(path)) &&
	       !access(path, F_OK);
}

/**
 * sysfs_usb_read_file() - read a whole file below the root
 * @rel: its path, "/sys/..."
 * @max: refuse files larger than this (-EFBIG)
 * @buf: receives a malloc'd buffer, NUL-terminated one past @len; the
 *       caller frees it
 * @len: receives the length
 *
 * Return: 0 or a negative errno (saved right after the failing call).
 */
int sysfs_usb_read_file(const char *rel, size_t max, uint8_t **buf,
			size_t *len)
{
	char path[PATH_MAX];
	uint8_t *b = NULL, *nb;
	size_t cap = 0, n = 0;
	int fd, ret;

	ret = sysfs_usb_path(rel, path, sizeof(path));
	if (ret)
		return ret;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t r;

		if (n + 1 >= cap) {
			cap = cap ? cap * 2 : 4096;
			if (cap > max + 2)
				cap = max + 2;
			nb = realloc(b, cap);
			if (!nb) {
				ret = -ENOMEM;
				goto err_free;
			}
			b = nb;
		}
		r = read(fd, b + n, cap - n - 1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			goto err_free;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > max) {
			ret = -EFBIG;
			goto err_free;
		}
	}
	close(fd);
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;

err_free:
	free(b);
	close(fd);
	return ret;
}

/**
 * sysfs_usb_read_text() - read a one-line attribute, without its newline
 * Return: its length, or a negative errno.
 */
int sysfs_usb_read_text(const char *rel, char *buf, size_t len)
{
	uint8_t *b;
	size_t n;
	int ret;

	if (!len)
		return -EINVAL;
	ret = sysfs_usb_read_file(rel, 64 * 1024, &b, &n);
	if (ret)
		return ret;
	while (n && (b[n - 1] == '\n' || b[n - 1] == ' '))
		n--;
	if (n >= len)
		n = len - 1;
	memcpy(buf, b, n);
	buf[n] = '\0';
	free(b);
	return (int)n;
}

/* The last component of the target of the symlink @rel ("driver"). */
int sysfs_usb_link_name(const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX], target[PATH_MAX];
	const char *base;
	ssize_t n;
	int ret;

	ret = sysfs_usb_path(rel, path, sizeof(path));
	if (ret)
		return ret;
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (strlen(base) >= len)
		return -ENAMETOOLONG;
	strcpy(buf, base);
	return 0;
}

/* Past the digits at p, or NULL if there is none. */
static const char *sysfs_usb_skip_num(const char *p)
{
	if (!isdigit((unsigned char)*p))
		return NULL;
	while (isdigit((unsigned char)*p))
		p++;
	return p;
}

/* Past a device path "bus-port[.port...]" at p, or NULL if there is none. */
static const char *sysfs_usb_skip_path(const char *p)
{
	p = sysfs_usb_skip_num(p);
	if (!p || *p++ != '-' || !isdigit((unsigned char)*p))
		return NULL;
	while (isdigit((unsigned char)*p) || *p == '.')
		p++;
	return p;
}

/* "2-1.4:1.0": bus-port[.port...]:config.interface */
bool sysfs_usb_is_iface_name(const char *s)
{
	const char *p = sysfs_usb_skip_path(s);

	if (!p || *p++ != ':')
		return false;
	p = sysfs_usb_skip_num(p);
	if (!p || *p++ != '.')
		return false;
	p = sysfs_usb_skip_num(p);
	return p && !*p;
}

/* A USB device (not interface) name: "2-1.4" or a root hub "usb2". */
static bool sysfs_usb_is_dev_name(const char *s)
{
	const char *p;

	if (!strncmp(s, "usb", 3)) {
		p = sysfs_usb_skip_num(s + 3);
		return p && !*p;
	}
	p = sysfs_usb_skip_path(s);
	return p && !*p;
}

/* "5000" -> 5000, "480" -> 480, "1.5" -> 1, "" -> 0 */
unsigned int sysfs_usb_parse_speed(const char *s)
{
	unsigned long v;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return 0;
	v = strtoul(s, &end, 10);
	if (v > 1000000 || (*end && *end != '.'))
		return 0;
	return (unsigned int)v;
}

static int sysfs_usb_cmp(const void *a, const void *b)
{
	return strverscmp(a, b);
}

/**
 * sysfs_usb_iface_list() - the USB interfaces of class 8 (mass storage)
 * @names: array receiving the names, sorted
 * @max:   its size
 * @n:     receives how many were found (at most @max)
 *
 * Return: 0, or a negative errno if /sys/bus/usb/devices cannot be read
 * (-ENOENT: no USB, or no sysfs).
 */
int sysfs_usb_iface_list(char (*names)[SYSFS_USB_NAME_MAX],
			 unsigned int max, unsigned int *n)
{
	char path[PATH_MAX], rel[PATH_MAX], cls[8];
	struct dirent *de;
	unsigned int cnt = 0;
	DIR *d;
	int ret;

	ret = sysfs_usb_path("/sys/bus/usb/devices", path, sizeof(path));
	if (ret)
		return ret;
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d)) && cnt < max) {
		if (!sysfs_usb_is_iface_name(de->d_name) ||
		    strlen(de->d_name) >= SYSFS_USB_NAME_MAX)
			continue;
		snprintf(rel, sizeof(rel),
			 "/sys/bus/usb/devices/%s/bInterfaceClass", de->d_name);
		if (sysfs_usb_read_text(rel, cls, sizeof(cls)) < 0 ||
		    strcmp(cls, "08"))
			continue;
		strcpy(names[cnt++], de->d_name);
	}
	closedir(d);
	qsort(names, cnt, sizeof(names[0]), sysfs_usb_cmp);
	*n = cnt;
	return 0;
}

/*
 * The real path of @rel with the root stripped, so it reads "/sys/...".
 */
static int sysfs_usb_resolve(const char *rel, char *out, size_t len)
{
	char path[PATH_MAX], real[PATH_MAX], rootreal[PATH_MAX];
	size_t rl = 0;
	int ret;

	ret = sysfs_usb_path(rel, path, sizeof(path));
	if (ret)
		return ret;
	if (!realpath(path, real))
		return -errno;
	if (strcmp(sysfs_usb_root, "/")) {
		if (!realpath(sysfs_usb_root, rootreal))
			return -errno;
		rl = strlen(rootreal);
		if (strncmp(real, rootreal, rl) || real[rl] != '/')
			return -EXDEV;	/* a link out of the fixture */
	}
	if (strlen(real + rl) >= len)
		return -ENAMETOOLONG;
	strcpy(out, real + rl);
	return 0;
}

/**
 * sysfs_usb_iface_from_block() - the USB interface a disk hangs off
 * @disk:  "sda"
 * @iface: receives "2-1:1.0"
 * @len:   size of @iface
 *
 * Return: 0, -ENOENT if there is no such disk, -ENODEV if it is not on USB.
 */
int sysfs_usb_iface_from_block(const char *disk, char *iface, size_t len)
{
	char rel[PATH_MAX], real[PATH_MAX], *tok, *save = NULL;
	int ret;

	if (snprintf(rel, sizeof(rel), "/sys/class/block/%s", disk) >=
	    (int)sizeof(rel))
		return -ENAMETOOLONG;
	ret = sysfs_usb_resolve(rel, real, sizeof(real));
	if (ret)
		return ret;
	for (tok = strtok_r(real, "/", &save); tok;
	     tok = strtok_r(NULL, "/", &save))
		if (sysfs_usb_is_iface_name(tok)) {
			if (strlen(tok) >= len)
				return -ENAMETOOLONG;
			strcpy(iface, tok);
			return 0;
		}
	return -ENODEV;
}

/* Join @dir and @attr into @rel; -ENAMETOOLONG if it does not fit. */
static int sysfs_usb_join(char *rel, size_t len, const char *dir,
			  const char *attr)
{
	size_t a = strlen(dir), b = strlen(attr);

	if (a + 1 + b + 1 > len)
		return -ENAMETOOLONG;
	memcpy(rel, dir, a);
	rel[a] = '/';
	memcpy(rel + a + 1, attr, b + 1);
	return 0;
}

static int sysfs_usb_attr_text(const char *dir, const char *attr, char *buf,
			       size_t len)
{
	char rel[PATH_MAX];
	int ret = sysfs_usb_join(rel, sizeof(rel), dir, attr);

	return ret ? ret : sysfs_usb_read_text(rel, buf, len);
}

static int sysfs_usb_attr_link(const char *dir, const char *attr, char *buf,
			       size_t len)
{
	char rel[PATH_MAX];
	int ret = sysfs_usb_join(rel, sizeof(rel), dir, attr);

	return ret ? ret : sysfs_usb_link_name(rel, buf, len);
}

static uint16_t sysfs_usb_hex16(const char *s)
{
	return (uint16_t)strtoul(s, NULL, 16);
}

/* Fill @d from the device directory @dir ("/sys/devices/.../2-1"). */
static int sysfs_usb_dev_read(const char *dir, const char *name,
			      struct sysfs_usb_dev *d)
{
	char v[64];
	int ret;

	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	ret = sysfs_usb_attr_text(dir, "idVendor", v, sizeof(v));
	if (ret < 0)
		return ret;
	d->vid = sysfs_usb_hex16(v);
	if (sysfs_usb_attr_text(dir, "idProduct", v, sizeof(v)) >= 0)
		d->pid = sysfs_usb_hex16(v);
	if (sysfs_usb_attr_text(dir, "bcdDevice", v, sizeof(v)) >= 0)
		d->bcd_device = sysfs_usb_hex16(v);
	if (sysfs_usb_attr_text(dir, "speed", d->speed, sizeof(d->speed)) >= 0)
		d->speed_mbps = sysfs_usb_parse_speed(d->speed);
	if (sysfs_usb_attr_text(dir, "maxchild", v, sizeof(v)) >= 0)
		d->maxchild = (unsigned int)strtoul(v, NULL, 10);
	sysfs_usb_attr_text(dir, "manufacturer", d->manufacturer,
			    sizeof(d->manufacturer));
	sysfs_usb_attr_text(dir, "product", d->product, sizeof(d->product));
	sysfs_usb_attr_link(dir, "driver", d->driver, sizeof(d->driver));
	return 0;
}

static void sysfs_usb_hcd_read(const char *dir, const char *name,
			       struct sysfs_usb_iface *it)
{
	struct sysfs_usb_hcd *h = &it->hcd;
	char v[32];

	snprintf(h->name, sizeof(h->name), "%s", name);
	if (sysfs_usb_attr_link(dir, "driver", h->driver, sizeof(h->driver)))
		it->unreadable |= SYSFS_USB_UNREAD_HCD;
	if (sysfs_usb_attr_text(dir, "vendor", v, sizeof(v)) > 0) {
		h->is_pci = true;
		h->pci_vendor = sysfs_usb_hex16(v);
		if (sysfs_usb_attr_text(dir, "device", v, sizeof(v)) > 0)
			h->pci_device = sysfs_usb_hex16(v);
	}
}

/* The first block device below the interface's @dir, by glob, or "". */
static void sysfs_usb_block_find(const char *dir, char *block, size_t len)
{
	char pat[PATH_MAX], rel[PATH_MAX];
	glob_t g;
	const char *base;

	block[0] = '\0';
	if (snprintf(rel, sizeof(rel), "%s/host*/target*/*/block/*", dir) >=
	    (int)sizeof(rel) || sysfs_usb_path(rel, pat, sizeof(pat)))
		return;
	if (glob(pat, 0, NULL, &g) == 0 && g.gl_pathc) {
		base = strrchr(g.gl_pathv[0], '/');
		snprintf(block, len, "%s", base + 1);
	}
	globfree(&g);
}

/**
 * sysfs_usb_iface_timeouts() - commands the SCSI midlayer timed out on an
 * interface's SCSI devices so far
 * @iface: "2-1:1.0"
 *
 * The sum of their iotmo_cnt (counted in scsi_times_out()): by the
 * interface, as a probe that hangs has a SCSI device but no disk yet.
 *
 * Return: the count, 0 if none can be read.
 */
unsigned long sysfs_usb_iface_timeouts(const char *iface)
{
	const char *root = strcmp(sysfs_usb_root, "/") ? sysfs_usb_root : "";
	char rel[PATH_MAX], pat[PATH_MAX], buf[32];
	unsigned long n = 0;
	glob_t g;

	if (snprintf(rel, sizeof(rel), "/sys/bus/usb/devices/%s/host*/target*/"
		     "*:*:*:*/iotmo_cnt", iface) >= (int)sizeof(rel) ||
	    sysfs_usb_path(rel, pat, sizeof(pat)) || glob(pat, 0, NULL, &g))
		return 0;
	for (size_t i = 0; i < g.gl_pathc; i++)
		if (sysfs_usb_read_text(g.gl_pathv[i] + strlen(root), buf,
					sizeof(buf)) > 0)
			n += strtoul(buf, NULL, 0);
	globfree(&g);
	return n;
}

/**
 * sysfs_usb_disk_idle() - a disk's SCSI device runs and has nothing in
 * flight (an error handler at work, a reset not done, keep it busy)
 * @disk: "sda"
 *
 * Return: 1 if so, 0 if its state or its in-flight count say otherwise,
 * or -ENOENT if one of them cannot be read (and the other is no reason
 * for 0).
 */
int sysfs_usb_disk_idle(const char *disk)
{
	char rel[PATH_MAX], buf[64];
	unsigned long a = 1, b = 1;
	int ret = 1;

	snprintf(rel, sizeof(rel), "/sys/block/%s/device/state", disk);
	if (sysfs_usb_read_text(rel, buf, sizeof(buf)) < 0)
		ret = -ENOENT;
	else if (strncmp(buf, "running", 7))
		return 0;
	snprintf(rel, sizeof(rel), "/sys/block/%s/inflight", disk);
	if (sysfs_usb_read_text(rel, buf, sizeof(buf)) < 0)
		return -ENOENT;
	if (sscanf(buf, "%lu %lu", &a, &b) != 2 || a || b)
		return 0;
	return ret;
}

/**
 * sysfs_usb_iface_block() - the block device of an interface now
 * @iface: "2-1:1.0"
 * @block: receives "sdb", "" if it has none (yet, or any more)
 * @len:   size of @block
 *
 * Return: 0, -EINVAL, or the errno of resolving the interface's path.
 */
int sysfs_usb_iface_block(const char *iface, char *block, size_t len)
{
	char rel[PATH_MAX], real[PATH_MAX];
	int ret;

	if (!len)
		return -EINVAL;
	block[0] = '\0';
	if (!iface || !sysfs_usb_is_iface_name(iface))
		return -EINVAL;
	snprintf(rel, sizeof(rel), "/sys/bus/usb/devices/%s", iface);
	ret = sysfs_usb_resolve(rel, real, sizeof(real));
	if (ret)
		return ret;
	sysfs_usb_block_find(real, block, len);
	return 0;
}

/**
 * sysfs_usb_iface_read() - everything sysfs says about one interface
 * @iface: "2-1:1.0"
 * @out:   filled on success; free with sysfs_usb_iface_free()
 *
 * Parts that cannot be read are flagged in @out->unreadable rather than
 * failing the whole read.
 *
 * Return: 0, -ENOENT if the interface does not exist (or vanished while
 * being read), another negative errno if its path cannot be resolved.
 */
int sysfs_usb_iface_read(const char *iface, struct sysfs_usb_iface *out)
{
	char rel[PATH_MAX], real[PATH_MAX], dir[PATH_MAX], v[16];
	char *comp[64], *tok, *save = NULL, *colon;
	unsigned int ncomp = 0, i, hc = 0;
	struct sysfs_usb_iface it;
	bool have_hc = false;
	int ret;

	if (!iface || !out || !sysfs_usb_is_iface_name(iface) ||
	    strlen(iface) >= SYSFS_USB_NAME_MAX)
		return -EINVAL;
	memset(&it, 0, sizeof(it));
	strcpy(it.iface, iface);
	strcpy(it.usb, iface);
	colon = strchr(it.usb, ':');
	*colon = '\0';
	sscanf(colon + 1, "%u.%u", &it.config, &it.ifnum);

	snprintf(rel, sizeof(rel), "/sys/bus/usb/devices/%s", iface);
	ret = sysfs_usb_resolve(rel, real, sizeof(real));
	if (ret)
		return ret;
	sysfs_usb_attr_link(real, "driver", it.driver, sizeof(it.driver));
	sysfs_usb_block_find(real, it.block, sizeof(it.block));

	/* "/sys/devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0" */
	strcpy(dir, real);
	for (tok = strtok_r(dir, "/", &save); tok && ncomp < 64;
	     tok = strtok_r(NULL, "/", &save))
		comp[ncomp++] = tok;

	for (i = 0; i < ncomp; i++) {
		if (!strncmp(comp[i], "usb", 3) &&
		    sysfs_usb_is_dev_name(comp[i])) {
			have_hc = true;
			hc = i;
			break;
		}
	}
	if (!have_hc || hc == 0)
		return -ENODEV;

	/* Rebuild each prefix of the path to read the objects on it. */
	for (i = 0; i + 1 < ncomp; i++) {
		size_t off = 0;
		unsigned int j;

		for (j = 0; j <= i; j++) {
			int n = snprintf(rel + off, sizeof(rel) - off, "/%s",
					 comp[j]);

			/* cannot happen: rel has the room real had */
			if (n < 0 || (size_t)n >= sizeof(rel) - off)
				return -ENAMETOOLONG;
			off += (size_t)n;
		}
		if (i == hc - 1) {
			sysfs_usb_hcd_read(rel, comp[i], &it);
		} else if (i >= hc && sysfs_usb_is_dev_name(comp[i])) {
			struct sysfs_usb_dev *d;

			if (!strcmp(comp[i], it.usb)) {
				d = &it.dev;
			} else if (it.nhubs < SYSFS_USB_MAX_HUBS) {
				d = &it.hubs[it.nhubs++];
			} else {
				continue;
			}
			ret = sysfs_usb_dev_read(rel, comp[i], d);
			if (ret)
				return ret;	/* vanished: -ENOENT */
		}
	}
	if (it.nhubs) {
		snprintf(rel, sizeof(rel), "/sys/bus/usb/devices/%s/busnum",
			 it.hubs[0].name);
		if (sysfs_usb_read_text(rel, v, sizeof(v)) > 0)
			it.hcd.busnum = (unsigned int)strtoul(v, NULL, 10);
	}

	snprintf(rel, sizeof(rel), "/sys/bus/usb/devices/%s/descriptors",
		 it.usb);
	ret = sysfs_usb_read_file(rel, SYSFS_USB_DESC_MAX, &it.descriptors,
				  &it.descriptors_len);
	if (ret) {
		it.unreadable |= SYSFS_USB_UNREAD_DESCRIPTORS;
		it.descriptors_err = ret;
	}
	*out = it;
	return 0;
}

/* Frees what sysfs_usb_iface_read() allocated; NULL is fine. */
void sysfs_usb_iface_free(struct sysfs_usb_iface *it)
{
	if (!it)
		return;
	free(it->descriptors);
	it->descriptors = NULL;
	it->descriptors_len = 0;
}
