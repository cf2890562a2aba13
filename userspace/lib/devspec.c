// SPDX-License-Identifier: GPL-2.0-only
/*
 * devspec.c - parse the names a user gives a USB storage device: a SCSI
 * disk (sdX), a USB port path as in /sys/bus/usb/devices (2-1.4), or a
 * VID:PID pair as lsusb -d takes it.
 *
 * Only the syntax is checked here; whether such a device exists is for the
 * command to find out at run time, against sysfs.
 */
#include <errno.h>
#include <string.h>

#include "devspec.h"
#include "util.h"

/*
 * sd_format_disk_name() in drivers/scsi/sd.c names disks sda..sdz, sdaa..,
 * with letters only; a trailing digit would be a partition, which has no
 * transport of its own, so it is refused rather than silently mapped.
 */
static int devspec_parse_disk(const char *s, struct devspec *out)
{
	size_t n, l, d;

	if (!strncmp(s, "/dev/", 5))
		s += 5;
	if (strncmp(s, "sd", 2))
		return -EINVAL;
	n = strlen(s);
	if (n < 3 || n > DEVSPEC_DISK_MAX)
		return -EINVAL;
	/* sd's names: letters, then a partition's number (sdc1, sdab12) */
	l = strspn(s + 2, "abcdefghijklmnopqrstuvwxyz");
	d = strspn(s + 2 + l, "0123456789");
	if (!l || 2 + l + d != n || (d && s[2 + l] == '0'))
		return -EINVAL;

	out->kind = DEVSPEC_DISK;
	memcpy(out->disk, s, n + 1);
	return 0;
}

/* 1..@max decimal, no leading zero; advances *@p past the digits. */
static int devspec_parse_dec(const char **p, unsigned int max,
			     unsigned int *out)
{
	const char *s = *p;
	unsigned int v = 0;

	if (*s < '1' || *s > '9')
		return -EINVAL;
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (unsigned int)(*s - '0');
		if (v > max)
			return -EINVAL;
		s++;
	}
	*p = s;
	*out = v;
	return 0;
}

/*
 * Bus numbers come from an IDA in usbcore and can pass 255 on big hosts, so
 * allow up to 999; ports are at most 255 (root hubs, bMaxPorts is a byte).
 */
static int devspec_parse_usb_path(const char *s, struct devspec *out)
{
	struct devspec d = { .kind = DEVSPEC_USB_PATH };
	const char *p = s;

	if (devspec_parse_dec(&p, 999, &d.bus) || *p++ != '-')
		return -EINVAL;
	for (;;) {
		if (d.nports == DEVSPEC_MAX_PORTS)
			return -EINVAL;
		if (devspec_parse_dec(&p, 255, &d.ports[d.nports++]))
			return -EINVAL;
		if (!*p)
			break;
		if (*p++ != '.')
			return -EINVAL;
	}
	*out = d;
	return 0;
}

/* 1 to 4 hex digits, as lsusb -d accepts; advances *@p. */
static int devspec_parse_hex16(const char **p, uint16_t *out)
{
	const char *s = *p;
	unsigned int v = 0;
	int n = 0, h;

	while ((h = util_hexval(*s)) >= 0) {
		if (++n > 4)
			return -EINVAL;
		v = v << 4 | (unsigned int)h;
		s++;
	}
	if (!n)
		return -EINVAL;
	*p = s;
	*out = (uint16_t)v;
	return 0;
}

static int devspec_parse_vid_pid(const char *s, struct devspec *out)
{
	struct devspec d = { .kind = DEVSPEC_VID_PID };
	const char *p = s;

	if (devspec_parse_hex16(&p, &d.vid) || *p++ != ':')
		return -EINVAL;
	if (devspec_parse_hex16(&p, &d.pid) || *p)
		return -EINVAL;
	*out = d;
	return 0;
}

/**
 * devspec_parse() - tell which kind of device name @s is and split it
 * @s:   sdX or /dev/sdX, a USB path such as 2-1.4, or VID:PID in hex
 * @out: the parsed name, written only on success
 *
 * The three forms cannot be confused: only VID:PID has a colon, only a
 * USB path starts with a digit and has a dash, only a disk starts with "sd"
 * or "/dev/".
 *
 * Return: 0, or -EINVAL if @s is none of them (or NULL).
 */
int devspec_parse(const char *s, struct devspec *out)
{
	if (!s || !out)
		return -EINVAL;
	if (strchr(s, ':'))
		return devspec_parse_vid_pid(s, out);
	if (*s >= '0' && *s <= '9' && strchr(s, '-'))
		return devspec_parse_usb_path(s, out);
	return devspec_parse_disk(s, out);
}
