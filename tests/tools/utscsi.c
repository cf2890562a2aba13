// SPDX-License-Identifier: GPL-2.0-only
/*
 * utscsi: send one SCSI command through SG_IO, as the tools users run
 * send it, and say how it ended (the test bed's bridge tests):
 *
 *   utscsi DEV COMMAND [TIMEOUT_S]
 *
 * COMMAND is one of
 *   rsoc    REPORT SUPPORTED OPERATION CODES, all commands (sg_opcodes)
 *   ata16   ATA PASS-THROUGH(16) IDENTIFY DEVICE (smartctl -d sat)
 *   ata12   ATA PASS-THROUGH(12) IDENTIFY DEVICE (smartctl -d sat,12)
 *   rc16    READ CAPACITY(16)
 *   rc10    READ CAPACITY(10)
 * TIMEOUT_S is SG_IO's timeout (default 10 s).  One line is printed:
 *   COMMAND status=0xSS host=0xHH driver=0xDD [sense=KK/AA/QQ] ms=N
 *           [last_lba=N block=N]
 * Exit status 0 when the device answered (whatever its status), 1 when
 * it did not (a host status: the command timed out or was aborted, or
 * SG_IO failed), 2 on bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <scsi/sg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

struct cmd {
	const char *name;
	uint8_t cdb[16];
	unsigned int cdb_len;
	unsigned int len;
};

static const struct cmd cmds[] = {
	{ "rsoc", { 0xa3, 0x0c, 0, 0, 0, 0, 0, 0, 0x20, 0, 0, 0 }, 12, 8192 },
	{ "ata16", { 0x85, 0x08, 0x0e, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0,
		     0xec, 0 }, 16, 512 },
	{ "ata12", { 0xa1, 0x08, 0x0e, 0, 0x01, 0, 0, 0, 0, 0xec, 0, 0 },
	  12, 512 },
	{ "rc16", { 0x9e, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0 },
	  16, 32 },
	{ "rc10", { 0x25, 0, 0, 0, 0, 0, 0, 0, 0, 0 }, 10, 8 },
};

static uint64_t be(const uint8_t *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | *p++;
	return v;
}

int main(int argc, char **argv)
{
	const struct cmd *c = NULL;
	uint8_t sense[32] = { 0 }, cdb[16], *buf;
	struct timespec t0, t1;
	struct sg_io_hdr io;
	unsigned long tmo = 10;
	size_t i;
	int fd;

	if (argc < 3 || argc > 4)
		goto usage;
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[2], cmds[i].name))
			c = &cmds[i];
	if (!c)
		goto usage;
	if (argc == 4) {
		char *end;

		tmo = strtoul(argv[3], &end, 10);
		if (*end || !tmo || tmo > 3600)
			goto usage;
	}
	fd = open(argv[1], O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		fprintf(stderr, "utscsi: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	buf = calloc(1, c->len);
	if (!buf)
		return 1;
	memset(&io, 0, sizeof(io));
	io.interface_id = 'S';
	io.dxfer_direction = SG_DXFER_FROM_DEV;
	io.cmd_len = c->cdb_len;
	memcpy(cdb, c->cdb, sizeof(cdb));
	io.cmdp = cdb;
	io.dxferp = buf;
	io.dxfer_len = c->len;
	io.sbp = sense;
	io.mx_sb_len = sizeof(sense);
	io.timeout = tmo * 1000;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (ioctl(fd, SG_IO, &io) < 0) {
		fprintf(stderr, "utscsi: SG_IO on %s: %s\n", argv[1],
			strerror(errno));
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%s status=0x%02x host=0x%02x driver=0x%02x", c->name,
	       io.status, io.host_status, io.driver_status);
	if (io.sb_len_wr >= 14 && (sense[0] & 0x7e) == 0x70)
		printf(" sense=%02x/%02x/%02x", sense[2] & 0x0f, sense[12],
		       sense[13]);
	else if (io.sb_len_wr >= 4 && (sense[0] & 0x7e) == 0x72)
		printf(" sense=%02x/%02x/%02x", sense[1] & 0x0f, sense[2],
		       sense[3]);
	printf(" ms=%ld",
	       (long)((t1.tv_sec - t0.tv_sec) * 1000 +
		      (t1.tv_nsec - t0.tv_nsec) / 1000000));
	if (!io.status && !io.host_status && !strcmp(c->name, "rc16"))
		printf(" last_lba=%llu block=%llu",
		       (unsigned long long)be(buf, 8),
		       (unsigned long long)be(buf + 8, 4));
	if (!io.status && !io.host_status && !strcmp(c->name, "rc10"))
		printf(" last_lba=%llu block=%llu",
		       (unsigned long long)be(buf, 4),
		       (unsigned long long)be(buf + 4, 4));
	printf("\n");
	close(fd);
	free(buf);
	return io.host_status ? 1 : 0;
usage:
	fprintf(stderr, "usage: utscsi DEV rsoc|ata16|ata12|rc16|rc10 "
		"[TIMEOUT_S]\n");
	return 2;
}
