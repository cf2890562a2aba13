// SPDX-License-Identifier: GPL-2.0-only
/*
 * scsi_pt.c - one SCSI command through SG_IO (scsi_pt.h).
 *
 * The CDBs are the ones the tools send: smartctl -d sat sends ATA
 * PASS-THROUGH(16) and -d sat,12 ATA PASS-THROUGH(12) with IDENTIFY
 * DEVICE (0xec), PIO data-in, T_DIR from the device, BYT_BLOK and T_LENGTH
 * in the sector count (SAT-4, 12.2.2; smartmontools' scsiata.cpp); hdparm
 * -I sends the same IDENTIFY through ATA PASS-THROUGH(16).
 */
#include <errno.h>
#include <scsi/sg.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>

#include "scsi_pt.h"

const struct scsi_pt_cmd scsi_pt_cmds[] = {
	{ "ata16-identify", "smartctl -d sat, hdparm -I",
	  { 0x85, 0x08, 0x0e, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0, 0xec, 0 },
	  16, 512 },
	{ "ata12-identify", "smartctl -d sat,12",
	  { 0xa1, 0x08, 0x0e, 0, 0x01, 0, 0, 0, 0, 0xec, 0, 0 }, 12, 512 },
	{ NULL, NULL, { 0 }, 0, 0 },
};

/* sd.c's read_capacity_10() and _16(): RC16 is SERVICE ACTION IN 0x10 */
const struct scsi_pt_cmd scsi_pt_rc10 = {
	"read-capacity-10", "sd (the kernel's probe)",
	{ 0x25, 0, 0, 0, 0, 0, 0, 0, 0, 0 }, 10, 8
};
const struct scsi_pt_cmd scsi_pt_rc16 = {
	"read-capacity-16", "sd (the kernel's probe)",
	{ 0x9e, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0 }, 16, 32
};

static uint64_t scsi_pt_be(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | *p++;
	return v;
}

int scsi_pt_capacity(const struct scsi_pt_cmd *cmd,
		     const struct scsi_pt_result *res, uint64_t *bytes)
{
	bool rc16 = cmd->cdb[0] == 0x9e;
	unsigned int lba_len = rc16 ? 8 : 4;
	uint64_t lba, block;

	if (res->err || res->host || res->status ||
	    res->data_len < lba_len + 4)
		return -ENODATA;
	lba = scsi_pt_be(res->data, lba_len);
	block = scsi_pt_be(res->data + lba_len, 4);
	if (!rc16 && lba == 0xffffffffu)
		return -ERANGE;
	if (!block || lba == UINT64_MAX || lba + 1 > UINT64_MAX / block)
		return -ENODATA;
	*bytes = (lba + 1) * block;
	return 0;
}

int scsi_pt_send(int fd, const struct scsi_pt_cmd *cmd, unsigned int timeout_s,
		 struct scsi_pt_result *res)
{
	uint8_t buf[512], sense[32], cdb[16];
	struct timespec t0, t1;
	struct sg_io_hdr io;

	memset(res, 0, sizeof(*res));
	memset(&io, 0, sizeof(io));
	memset(sense, 0, sizeof(sense));
	io.interface_id = 'S';
	io.dxfer_direction = SG_DXFER_FROM_DEV;
	memcpy(cdb, cmd->cdb, sizeof(cdb));
	io.cmdp = cdb;
	io.cmd_len = (unsigned char)cmd->cdb_len;
	io.dxferp = buf;
	io.dxfer_len = cmd->len <= sizeof(buf) ? cmd->len : sizeof(buf);
	io.sbp = sense;
	io.mx_sb_len = sizeof(sense);
	io.timeout = timeout_s * 1000;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (ioctl(fd, SG_IO, &io) < 0)
		res->err = errno;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	res->ms = (unsigned int)((t1.tv_sec - t0.tv_sec) * 1000 +
				 (t1.tv_nsec - t0.tv_nsec) / 1000000);
	if (res->err)
		return 1;
	res->status = io.status;
	res->host = io.host_status;
	res->driver = io.driver_status;
	if (io.resid >= 0 && (unsigned int)io.resid < io.dxfer_len) {
		res->data_len = io.dxfer_len - (unsigned int)io.resid;
		if (res->data_len > sizeof(res->data))
			res->data_len = sizeof(res->data);
		memcpy(res->data, buf, res->data_len);
	}
	if (io.sb_len_wr >= 4 && (sense[0] & 0x7e) == 0x72) {
		/* descriptor format (ATA PASS-THROUGH answers so) */
		res->sense_key = sense[1] & 0xf;
		res->asc = sense[2];
		res->ascq = sense[3];
	} else if (io.sb_len_wr >= 14) {
		res->sense_key = sense[2] & 0xf;
		res->asc = sense[12];
		res->ascq = sense[13];
	}
	return res->host ? 1 : 0;
}
