// SPDX-License-Identifier: GPL-2.0-only
/*
 * utmon: a test tool that captures usbmon's binary interface the way
 * src_usbmon.c does (ring, mmap, MON_IOCX_MFETCH) and writes what it got,
 * for fixtures and benchmarks.
 *
 *   utmon [--raw FILE] [--text] [--duration S] [--ring BYTES]
 *         [--stop-file PATH] [DEVICE]
 *   utmon --record DIR [--payload N] [--duration S] [-- COMMAND...]
 *
 * --raw writes every event's bytes as the ring holds them (header, ISO
 * descriptors, data), each padded to 64 bytes: the form of
 * tests/fixtures/usbmon/ *.bin.  --text prints each event in usbmon's 1u
 * text with the kernel's text timestamp computed from CLOCK_MONOTONIC.
 * It stops after --duration seconds (default 5) or once --stop-file
 * exists, then prints "utmon: events N filler N malformed N dropped N"
 * and the offset "clock realtime-monotonic NS" on stderr.
 *
 * --record runs the recorder's engine (record.c) with the usbmon and
 * kernel-log sources into DIR/capture.pcapng only, until COMMAND exits or
 * --duration ends, and prints each source's counts: a stand-in for
 * "usbtrail record" while its command line is not wired to the engine.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "record.h"
#include "usbmon.h"

#define UTMON_VEC	256

static int utmon_record(const char *dir, uint32_t payload, double duration,
			char **command)
{
	struct derive_opts dopts = DERIVE_OPTS_DEFAULT;
	struct rec_source um, km;
	struct rec_sink pc;
	struct rec_run_opts o = { .marker_fd = -1 };
	char path[4096];
	struct rec *r;
	int ret;

	r = rec_new(&dopts);
	if (!r) {
		perror("utmon: rec_new");
		return 1;
	}
	ret = src_usbmon_open(&um, r, payload, SRC_USBMON_RING_MAX);
	if (ret) {
		fprintf(stderr, "utmon: usbmon: %s\n", strerror(-ret));
		return 1;
	}
	ret = src_kmsg_open(&km, r);
	if (ret) {
		fprintf(stderr, "utmon: kmsg: %s\n", strerror(-ret));
		return 1;
	}
	snprintf(path, sizeof(path), "%s/capture.pcapng", dir);
	ret = sink_pcapng_open(&pc, path, rec_clock(r));
	if (ret) {
		fprintf(stderr, "utmon: %s: %s\n", path, strerror(-ret));
		return 1;
	}
	rec_add_source(r, &um);
	rec_add_source(r, &km);
	rec_add_sink(r, &pc);
	o.duration_s = command && *command ? 0 : (uint64_t)(duration + 0.5);
	o.command = command && *command ? command : NULL;
	ret = rec_run(r, &o);
	fprintf(stderr, "utmon: usbmon events %llu lost %llu malformed %llu\n",
		(unsigned long long)um.events, (unsigned long long)um.lost,
		(unsigned long long)um.malformed);
	fprintf(stderr, "utmon: kmsg events %llu\n",
		(unsigned long long)km.events);
	fprintf(stderr, "utmon: pcapng written %llu\n",
		(unsigned long long)pc.written);
	rec_free(r);
	if (ret) {
		fprintf(stderr, "utmon: record: %s\n", strerror(-ret));
		return 1;
	}
	return 0;
}

static int64_t utmon_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "raw", required_argument, NULL, 'r' },
		{ "text", no_argument, NULL, 't' },
		{ "duration", required_argument, NULL, 'd' },
		{ "ring", required_argument, NULL, 'R' },
		{ "stop-file", required_argument, NULL, 's' },
		{ "record", required_argument, NULL, 'o' },
		{ "payload", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dev = "/dev/usbmon0", *rawpath = NULL, *stop = NULL;
	const char *recdir = NULL;
	uint32_t payload = 64;
	unsigned long ring = 4 << 20;
	unsigned long long events = 0, filler = 0, malformed = 0, dropped = 0;
	double duration = 5;
	int text = 0, c, fd, ringsize;
	int64_t end, real_minus_mono;
	uint32_t vec[UTMON_VEC], nflush = 0, i;
	static const uint8_t zeros[USBMON_ALIGN];
	FILE *raw = NULL;
	uint8_t *map;

	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (c) {
		case 'r': rawpath = optarg; break;
		case 't': text = 1; break;
		case 'd': duration = strtod(optarg, NULL); break;
		case 'R': ring = strtoul(optarg, NULL, 0); break;
		case 's': stop = optarg; break;
		case 'o': recdir = optarg; break;
		case 'p': payload = (uint32_t)strtoul(optarg, NULL, 0); break;
		default: return 2;
		}
	}
	if (recdir)
		return utmon_record(recdir, payload, duration, argv + optind);
	if (optind < argc)
		dev = argv[optind];
	if (rawpath) {
		raw = fopen(rawpath, "wb");
		if (!raw) {
			perror(rawpath);
			return 1;
		}
	}
	fd = open(dev, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "utmon: %s: %s\n", dev, strerror(errno));
		return 1;
	}
	if (ioctl(fd, USBMON_IOCT_RING_SIZE, ring) < 0) {
		fprintf(stderr, "utmon: ring size: %s\n", strerror(errno));
		return 1;
	}
	ringsize = ioctl(fd, USBMON_IOCQ_RING_SIZE);
	if (ringsize <= 0) {
		fprintf(stderr, "utmon: ring size query: %s\n", strerror(errno));
		return 1;
	}
	map = mmap(NULL, (size_t)ringsize, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		fprintf(stderr, "utmon: mmap: %s\n", strerror(errno));
		return 1;
	}
	real_minus_mono = utmon_ns(CLOCK_REALTIME) - utmon_ns(CLOCK_MONOTONIC);
	end = utmon_ns(CLOCK_MONOTONIC) + (int64_t)(duration * 1e9);

	for (;;) {
		struct usbmon_mfetch mf = { vec, UTMON_VEC, nflush };
		struct usbmon_stats st;
		struct pollfd pfd = { fd, POLLIN, 0 };
		int64_t now = utmon_ns(CLOCK_MONOTONIC);
		int last = now >= end || (stop && access(stop, F_OK) == 0);

		if (!last)
			poll(&pfd, 1, 100);
		if (ioctl(fd, USBMON_IOCX_MFETCH, &mf) < 0) {
			if (errno != EAGAIN && errno != EINTR) {
				perror("utmon: MFETCH");
				return 1;
			}
			mf.nfetch = 0;
		}
		nflush = mf.nfetch;
		for (i = 0; i < mf.nfetch; i++) {
			struct usbmon_event ev;
			uint32_t off = vec[i];
			int n;

			if (off >= (uint32_t)ringsize) {
				malformed++;
				continue;
			}
			n = usbmon_parse(map + off, (size_t)ringsize - off, &ev);
			if (n < 0) {
				malformed++;
				continue;
			}
			if (ev.hdr.type == USBMON_TYPE_FILLER) {
				filler++;
				continue;
			}
			events++;
			if (raw) {
				fwrite(map + off, 1, (size_t)n, raw);
				fwrite(zeros, 1, (USBMON_ALIGN - n % USBMON_ALIGN) %
				       USBMON_ALIGN, raw);
			}
			if (text) {
				char line[512];
				int64_t mono = (int64_t)usbmon_realtime_ns(&ev.hdr) -
					       real_minus_mono;

				usbmon_format_1u(&ev, usbmon_text_tstamp(
						 mono < 0 ? 0 : (uint64_t)mono),
						 line, sizeof(line));
				fputs(line, stdout);
			}
		}
		if (ioctl(fd, USBMON_IOCG_STATS, &st) == 0)
			dropped += st.dropped;
		if (last && !mf.nfetch)
			break;
	}
	if (raw && fclose(raw)) {
		perror(rawpath);
		return 1;
	}
	fflush(stdout);
	fprintf(stderr,
		"utmon: events %llu filler %llu malformed %llu dropped %llu\n",
		events, filler, malformed, dropped);
	fprintf(stderr, "utmon: clock realtime-monotonic %lld\n",
		(long long)real_minus_mono);
	munmap(map, (size_t)ringsize);
	close(fd);
	return 0;
}
