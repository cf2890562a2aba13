// SPDX-License-Identifier: GPL-2.0-only
/*
 * utbos: the BOS descriptor of a USB device, read with a bare usbfs
 * GET_DESCRIPTOR (USBDEVFS_CONTROL), printed as hex bytes on one line.
 * The guest of tests/testbed/20-uas-verdicts.sh compares what
 * "usbtrail uas" says (libusb, lib/usbdesc.c) with these bytes.
 *
 *   utbos /dev/bus/usb/BBB/DDD
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/usbdevice_fs.h>

int main(int argc, char **argv)
{
	unsigned char buf[4096];
	struct usbdevfs_ctrltransfer ct = {
		.bRequestType = 0x80,		/* device to host, standard */
		.bRequest = 0x06,		/* GET_DESCRIPTOR */
		.wValue = 0x0f << 8,		/* BOS, index 0 */
		.wLength = sizeof(buf),
		.timeout = 5000,
		.data = buf,
	};
	int fd, n, i;

	if (argc != 2) {
		fprintf(stderr, "usage: utbos /dev/bus/usb/BBB/DDD\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "utbos: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	n = ioctl(fd, USBDEVFS_CONTROL, &ct);
	if (n < 0) {
		fprintf(stderr, "utbos: GET_DESCRIPTOR(BOS): %s\n",
			strerror(errno));
		close(fd);
		return 1;
	}
	close(fd);
	for (i = 0; i < n; i++)
		printf("%s%02x", i ? " " : "", buf[i]);
	printf("\n");
	return 0;
}
