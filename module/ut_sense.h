/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * usbtrail: raw SCSI sense data into key, ASC, ASCQ and the information
 * field (SPC-4 4.5).  Compiled into the module (ut_scsi.c reads the sense
 * buffer of a failed command) and into the usbtrail command (kshim/, as
 * for ut_format.c), so both read sense bytes the same way; tests compare
 * it with sg3_utils' sg_decode_sense.
 */
#ifndef UT_SENSE_H
#define UT_SENSE_H

#include <linux/types.h>

enum ut_sense_format {
	UT_SENSE_NONE,		/* not sense data (response code 00-6F, 74-7E) */
	UT_SENSE_FIXED,		/* response code 70h (current) or 71h */
	UT_SENSE_DESCRIPTOR,	/* 72h or 73h */
	UT_SENSE_VENDOR,	/* 7Fh: vendor specific, nothing decoded */
};

struct ut_sense {
	enum ut_sense_format format;
	/* __u types: this header is read by userspace files too */
	__u8 deferred;		/* 71h, 73h */
	__u8 has_key;		/* the buffer reaches the key */
	__u8 has_asc;		/* the buffer (and its additional length) */
	__u8 key, asc, ascq;	/*   reach the ASC; a missing ASCQ is 0 */
	__u8 info_valid;	/* the VALID bit, or an information descriptor */
	__u64 info;
	/* bytes of sense data: 8 + additional length, no more than given */
	unsigned int len;
};

/* Decode len bytes at buf; s->format is UT_SENSE_NONE if they are none. */
void ut_sense_parse(const __u8 *buf, unsigned int len, struct ut_sense *s);

#endif /* UT_SENSE_H */
