// SPDX-License-Identifier: GPL-2.0-only
/*
 * utcat: a test tool that drains /dev/usbtrail and prints each record in
 * the module's text form (one line each), for the test-bed tests.
 *
 *   utcat [--info] [--idle MS] [--max N] [--bufsize BYTES] [--discard]
 *         [--no-layout] [DEVICE]
 *
 * It reads until no record has come for --idle milliseconds (default
 * 1000) or --max records were printed.  --info prints USBTRAIL_IOC_INFO
 * first.  --bufsize sets the read() size, to test odd sizes.  --discard
 * drains without parsing or printing (a reader that costs nothing).
 * Opened, it answers the module's layout table from the kernel's BTF, as
 * usbtrail record does (module_probes_layout()), so that the probes on
 * private declarations attach; --no-layout leaves it unanswered.
 * SIGTERM or SIGINT ends it once the records read so far are printed,
 * every line whole (a test stops it so).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "modrec.h"
#include "module_probes.h"

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "info", no_argument, NULL, 'i' },
		{ "idle", required_argument, NULL, 'I' },
		{ "max", required_argument, NULL, 'm' },
		{ "bufsize", required_argument, NULL, 'b' },
		{ "discard", no_argument, NULL, 'd' },
		{ "no-layout", no_argument, NULL, 'L' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dev = USBTRAIL_DEVICE;
	long idle = 1000, max = -1, bufsize = 64 * USBTRAIL_RECORD_SIZE;
	int info = 0, discard = 0, layout = 1, c, fd, sfd;
	sigset_t sigs;
	long printed = 0;
	char *buf, line[512];

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'i': info = 1; break;
		case 'I': idle = strtol(optarg, NULL, 0); break;
		case 'm': max = strtol(optarg, NULL, 0); break;
		case 'b': bufsize = strtol(optarg, NULL, 0); break;
		case 'd': discard = 1; break;
		case 'L':
			layout = 0;
			break;
		default: return 2;
		}
	}
	if (optind < argc)
		dev = argv[optind];
	if (bufsize < 1 || bufsize > (1 << 24)) {
		fprintf(stderr, "utcat: bad --bufsize\n");
		return 2;
	}
	fd = open(dev, O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		fprintf(stderr, "utcat: %s: %s\n", dev, strerror(errno));
		return 1;
	}
	if (layout) {
		struct usbtrail_layout t;

		c = module_probes_layout(fd, &t, NULL);
		if (c && c != -ENOTTY)
			fprintf(stderr, "utcat: the layout table: %s\n",
				strerror(-c));
	}
	if (info) {
		struct usbtrail_info in;

		if (ioctl(fd, USBTRAIL_IOC_INFO, &in) < 0) {
			fprintf(stderr, "utcat: USBTRAIL_IOC_INFO: %s\n",
				strerror(errno));
			return 1;
		}
		printf("info abi=%u record_size=%u clock=%u flight=%u records=%llu lost=%llu stream_bytes=%llu sources=0x%x\n",
		       in.abi_version, in.record_size, in.clock_id,
		       in.flight_records, (unsigned long long)in.records,
		       (unsigned long long)in.lost,
		       (unsigned long long)in.stream_bytes, in.sources);
		/* out at once: a test waits for it to know the reader is on */
		fflush(stdout);
	}
	buf = malloc(bufsize);
	if (!buf)
		return 1;
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	sigprocmask(SIG_BLOCK, &sigs, NULL);
	sfd = signalfd(-1, &sigs, SFD_CLOEXEC);
	if (sfd < 0) {
		fprintf(stderr, "utcat: signalfd: %s\n", strerror(errno));
		return 1;
	}
	while (max < 0 || printed < max) {
		struct pollfd p[2] = {
			{ .fd = fd, .events = POLLIN },
			{ .fd = sfd, .events = POLLIN },
		};
		ssize_t n, off;
		int r = poll(p, 2, idle);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0 || (p[1].revents & POLLIN))
			break;
		n = read(fd, buf, bufsize);
		if (n < 0) {
			if (errno == EAGAIN)
				continue;
			fprintf(stderr, "utcat: read: %s\n", strerror(errno));
			return 1;
		}
		if (discard) {
			printed += n / USBTRAIL_RECORD_SIZE;
			continue;
		}
		for (off = 0; off < n; off += USBTRAIL_RECORD_SIZE) {
			struct usbtrail_record rec;

			if (modrec_parse(buf + off, n - off, &rec) < 0) {
				fprintf(stderr, "utcat: bad record at %zd\n",
					off);
				return 1;
			}
			modrec_format(&rec, line, sizeof(line));
			printf("%s\n", line);
			printed++;
		}
	}
	free(buf);
	close(fd);
	return 0;
}
