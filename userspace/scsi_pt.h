/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scsi_pt.h - one SCSI command through SG_IO, as the tools users run send
 * it (smartctl, hdparm, sg3_utils), and how it ended.  For the commands
 * workload of "usbtrail repro" (cmd_repro.c): the commands bridges choke
 * on.
 */
#ifndef USBTRAIL_SCSI_PT_H
#define USBTRAIL_SCSI_PT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A command of the table in scsi_pt.c */
struct scsi_pt_cmd {
	const char *name;		/* "ata16-identify" */
	const char *as;			/* who sends it so: "smartctl -d sat" */
	uint8_t cdb[16];
	unsigned int cdb_len;
	unsigned int len;		/* bytes read back */
};

struct scsi_pt_result {
	int err;			/* SG_IO's errno, 0 if it returned */
	uint8_t status;			/* SCSI status */
	uint16_t host, driver;		/* the kernel's host and driver byte */
	uint8_t sense_key, asc, ascq;	/* 0 if no sense */
	unsigned int ms;		/* SG_IO's duration */
	uint8_t data[32];		/* the first bytes read back */
	unsigned int data_len;		/* how many of them came */
};

/* The commands of the workload, NULL-terminated by name */
extern const struct scsi_pt_cmd scsi_pt_cmds[];

/* READ CAPACITY (10) and (16), as sd sends them (sd.c) */
extern const struct scsi_pt_cmd scsi_pt_rc10, scsi_pt_rc16;

/*
 * The capacity in bytes that READ CAPACITY @cmd (scsi_pt_rc10 or _rc16)
 * answered in @res: (last LBA + 1) * block length (SBC-4, 5.20 and
 * 5.21).  -ENODATA if it did not answer with GOOD and its data, -ERANGE
 * if READ CAPACITY(10) says "too big for me" (last LBA 0xffffffff).
 */
int scsi_pt_capacity(const struct scsi_pt_cmd *cmd,
		     const struct scsi_pt_result *res, uint64_t *bytes);

/*
 * Send @cmd on the open sg-capable @fd with a timeout of @timeout_s; the
 * outcome in @res.  Returns 0 if the device answered (whatever its
 * status), 1 if it did not (SG_IO failed, or a host status: the command
 * timed out or was aborted).
 */
int scsi_pt_send(int fd, const struct scsi_pt_cmd *cmd, unsigned int timeout_s,
		 struct scsi_pt_result *res);

#endif /* USBTRAIL_SCSI_PT_H */
