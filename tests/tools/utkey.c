// SPDX-License-Identifier: GPL-2.0-only
/*
 * utkey: a test tool for "usbtrail record --marker-key": a keyboard made
 * with uinput that presses a key, and a plain reader of an input device.
 *
 *   utkey press [--wait S] [--gap MS] [--hold S] [--node FILE] KEY COUNT
 *       create the keyboard "utkey keyboard" (every KEY_ code), write its
 *       /dev/input/eventN to FILE (or stdout), wait S seconds (default 2)
 *       for readers to open it, press and release KEY COUNT times GAP ms
 *       apart (default 500), print each press's CLOCK_BOOTTIME (ns),
 *       keep the device HOLD seconds (default 2)
 *   utkey listen [--seconds S] DEVICE KEY
 *       read DEVICE (no grab) for S seconds (default 10) and print
 *       "presses N" for the presses of KEY it saw
 *
 * KEY is an evdev name: F12 or KEY_F12.  Exit status 0, 1 on errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libevdev/libevdev-uinput.h>
#include <libevdev/libevdev.h>

static int utkey_code(const char *name)
{
	char buf[64];

	if (!strncmp(name, "KEY_", 4))
		snprintf(buf, sizeof(buf), "%s", name);
	else
		snprintf(buf, sizeof(buf), "KEY_%s", name);
	return libevdev_event_code_from_name(EV_KEY, buf);
}

static void utkey_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int utkey_press(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "wait", required_argument, NULL, 'w' },
		{ "gap", required_argument, NULL, 'g' },
		{ "hold", required_argument, NULL, 'H' },
		{ "node", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	long wait_s = 2, gap_ms = 500, hold_s = 2, count, i;
	const char *node_file = NULL;
	struct libevdev_uinput *ui;
	struct timespec ts;
	struct libevdev *dev;
	int c, code, ret;
	unsigned int k;
	FILE *f;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'w': wait_s = atol(optarg); break;
		case 'g': gap_ms = atol(optarg); break;
		case 'H': hold_s = atol(optarg); break;
		case 'n': node_file = optarg; break;
		default: return 1;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "usage: utkey press [options] KEY COUNT\n");
		return 1;
	}
	code = utkey_code(argv[optind]);
	count = atol(argv[optind + 1]);
	if (code < 0 || count < 0) {
		fprintf(stderr, "utkey: bad key or count\n");
		return 1;
	}

	dev = libevdev_new();
	if (!dev)
		return 1;
	libevdev_set_name(dev, "utkey keyboard");
	libevdev_set_id_bustype(dev, BUS_VIRTUAL);
	libevdev_set_id_vendor(dev, 0x1d6b);
	libevdev_set_id_product(dev, 0x0104);
	libevdev_enable_event_type(dev, EV_KEY);
	for (k = KEY_ESC; k <= KEY_MICMUTE; k++)
		libevdev_enable_event_code(dev, EV_KEY, k, NULL);
	ret = libevdev_uinput_create_from_device(dev,
			LIBEVDEV_UINPUT_OPEN_MANAGED, &ui);
	if (ret) {
		fprintf(stderr, "utkey: uinput: %s\n", strerror(-ret));
		libevdev_free(dev);
		return 1;
	}
	if (node_file) {
		f = fopen(node_file, "w");
		if (!f) {
			perror(node_file);
			return 1;
		}
		fprintf(f, "%s\n", libevdev_uinput_get_devnode(ui));
		fclose(f);
	} else {
		printf("%s\n", libevdev_uinput_get_devnode(ui));
		fflush(stdout);
	}

	utkey_sleep_ms(wait_s * 1000);
	for (i = 0; i < count; i++) {
		if (i)
			utkey_sleep_ms(gap_ms);
		libevdev_uinput_write_event(ui, EV_KEY, (unsigned int)code, 1);
		libevdev_uinput_write_event(ui, EV_SYN, SYN_REPORT, 0);
		clock_gettime(CLOCK_BOOTTIME, &ts);
		utkey_sleep_ms(50);
		libevdev_uinput_write_event(ui, EV_KEY, (unsigned int)code, 0);
		libevdev_uinput_write_event(ui, EV_SYN, SYN_REPORT, 0);
		printf("utkey: pressed %s (%ld) at %lld\n", argv[optind], i + 1,
		       (long long)ts.tv_sec * 1000000000 + ts.tv_nsec);
		fflush(stdout);
	}
	utkey_sleep_ms(hold_s * 1000);
	libevdev_uinput_destroy(ui);
	libevdev_free(dev);
	return 0;
}

static int utkey_listen(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seconds", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	struct timespec t0, now;
	struct input_event ie;
	struct pollfd pfd;
	long seconds = 10, presses = 0, left_ms;
	int c, code, fd;
	ssize_t n;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c != 's')
			return 1;
		seconds = atol(optarg);
	}
	if (argc - optind != 2) {
		fprintf(stderr, "usage: utkey listen [--seconds S] DEVICE KEY\n");
		return 1;
	}
	code = utkey_code(argv[optind + 1]);
	if (code < 0)
		return 1;
	fd = open(argv[optind], O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		perror(argv[optind]);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		left_ms = seconds * 1000 - ((now.tv_sec - t0.tv_sec) * 1000 +
			  (now.tv_nsec - t0.tv_nsec) / 1000000);
		if (left_ms <= 0)
			break;
		pfd.fd = fd;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, (int)left_ms) <= 0)
			continue;
		if (pfd.revents & (POLLHUP | POLLERR))
			break;		/* the keyboard went away */
		while ((n = read(fd, &ie, sizeof(ie))) == sizeof(ie))
			if (ie.type == EV_KEY && ie.code == code &&
			    ie.value == 1)
				presses++;
	}
	close(fd);
	printf("presses %ld\n", presses);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "press"))
		return utkey_press(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "listen"))
		return utkey_listen(argc - 1, argv + 1);
	fprintf(stderr, "usage: utkey press|listen ...\n");
	return 1;
}
