// SPDX-License-Identifier: GPL-2.0-only
/*
 * utprobe: checks that /dev/usbtrail answers bad use as documented in
 * module/ut_dev.c, for the test-bed robustness test.  Prints one line per
 * check ("ok ..." / "not ok ...") and exits 1 if any failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/usbtrail.h>

static int utprobe_failed;

static void utprobe_expect(const char *what, long got, int err, long want,
			   int want_err)
{
	int ok = got == want && (want >= 0 || err == want_err);

	printf("%s %s: got %ld%s%s\n", ok ? "ok" : "not ok", what, got,
	       got < 0 ? " errno " : "", got < 0 ? strerror(err) : "");
	if (!ok)
		utprobe_failed = 1;
}

int main(void)
{
	char buf[4 * USBTRAIL_RECORD_SIZE];
	struct usbtrail_info info;
	int fd, fd2;
	long r;

	fd = open(USBTRAIL_DEVICE, O_RDONLY | O_NONBLOCK);
	utprobe_expect("open", fd >= 0 ? 0 : -1, errno, 0, 0);
	if (fd < 0)
		return 1;
	fd2 = open(USBTRAIL_DEVICE, O_RDONLY);
	utprobe_expect("second open is refused", fd2 >= 0 ? 0 : -1, errno, -1,
		       EBUSY);
	if (fd2 >= 0)
		close(fd2);

	r = ioctl(fd, USBTRAIL_IOC_INFO, &info);
	utprobe_expect("USBTRAIL_IOC_INFO", r, errno, 0, 0);
	utprobe_expect("abi version", info.abi_version, 0, USBTRAIL_ABI_VERSION,
		       0);
	utprobe_expect("record size", info.record_size, 0,
		       USBTRAIL_RECORD_SIZE, 0);
	utprobe_expect("info version", info.info_version, 0,
		       USBTRAIL_INFO_VERSION, 0);
	utprobe_expect("probes in the table", info.nprobes >= 19 &&
		       info.nprobes <= USBTRAIL_PROBES_MAX, 0, 1, 0);
	/* a reader of info version 1 gets its 48 bytes, nothing after */
	memset(&info, 0xa5, sizeof(info));
	r = ioctl(fd, USBTRAIL_IOC_INFO_V1, &info);
	utprobe_expect("USBTRAIL_IOC_INFO_V1", r, errno, 0, 0);
	utprobe_expect("v1: abi version", info.abi_version, 0,
		       USBTRAIL_ABI_VERSION, 0);
	utprobe_expect("v1: nothing past 48 bytes", info.nprobes, 0,
		       0xa5a5a5a5, 0);
	r = ioctl(fd, USBTRAIL_IOC_INFO, (void *)16);
	utprobe_expect("INFO to a bad address", r, errno, -1, EFAULT);
	/* I/O may be running: records come and go while it empties */
	r = ioctl(fd, USBTRAIL_IOC_DISCARD);
	utprobe_expect("USBTRAIL_IOC_DISCARD", r, errno, 0, 0);
	r = ioctl(fd, _IO(USBTRAIL_IOC_MAGIC, 99), 0);
	utprobe_expect("unknown ioctl", r, errno, -1, ENOTTY);
	r = ioctl(fd, 0x5401 /* TCGETS */, buf);
	utprobe_expect("a tty ioctl", r, errno, -1, ENOTTY);

	r = read(fd, buf, 0);
	utprobe_expect("read of 0 bytes", r, errno, -1, EINVAL);
	r = read(fd, buf, 1);
	utprobe_expect("read of 1 byte", r, errno, -1, EINVAL);
	r = read(fd, buf, USBTRAIL_RECORD_SIZE - 1);
	utprobe_expect("read of 63 bytes", r, errno, -1, EINVAL);
	/* raw syscall: the compiler rightly refuses read() into address 16 */
	r = syscall(SYS_read, fd, 16L, sizeof(buf));
	utprobe_expect("read to a bad address (or empty)",
		       r < 0 && (errno == EFAULT || errno == EAGAIN) ? -1 : r,
		       EFAULT, -1, EFAULT);
	r = write(fd, buf, 8);
	utprobe_expect("write", r, errno, -1, EBADF);
	r = lseek(fd, 0, SEEK_SET);
	utprobe_expect("lseek", r, errno, -1, ESPIPE);

	/* drain, then an empty non-blocking read says EAGAIN */
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	r = read(fd, buf, USBTRAIL_RECORD_SIZE + 1);
	if (r > 0) {
		utprobe_expect("read of 65 bytes gives one record", r, 0,
			       USBTRAIL_RECORD_SIZE, 0);
	} else {
		utprobe_expect("empty non-blocking read", r, errno, -1,
			       EAGAIN);
	}
	close(fd);
	return utprobe_failed;
}
