// SPDX-License-Identifier: GPL-2.0-only
/*
 * usbtrail: raw SCSI sense data (SPC-4 4.5, "Sense data"), see
 * ut_sense.h.  The additional sense length (byte 7) bounds what is read,
 * as scsi_normalize_sense() and sg3_utils do: a fixed-format buffer whose
 * additional length stops before byte 12 has no ASC.  Response codes
 * 74h-7Eh are reserved and 7Fh is vendor specific; the kernel's
 * scsi_normalize_sense() reads those as descriptor format, SPC and
 * sg3_utils do not, and neither do we.  Keep to what userspace/kshim/
 * provides.
 */
#include <linux/kernel.h>
#include <linux/string.h>

#include "ut_sense.h"

static unsigned int ut_sense_min(unsigned int a, unsigned int b)
{
	return a < b ? a : b;
}

/* The information descriptor (type 00h), if there is one. */
static void ut_sense_info_desc(const u8 *buf, struct ut_sense *s)
{
	unsigned int off = 8, i;

	while (off + 2 <= s->len) {
		unsigned int dlen = buf[off + 1] + 2;

		if (buf[off] == 0x00 && dlen >= 12 && off + 12 <= s->len) {
			s->info_valid = (buf[off + 2] & 0x80) != 0;
			s->info = 0;
			for (i = 0; i < 8; i++)
				s->info = (s->info << 8) | buf[off + 4 + i];
			return;
		}
		off += dlen;
	}
}

void ut_sense_parse(const __u8 *buf, unsigned int len, struct ut_sense *s)
{
	unsigned int code;

	memset(s, 0, sizeof(*s));
	if (!buf || !len)
		return;
	code = buf[0] & 0x7f;
	switch (code) {
	case 0x70:
	case 0x71:
		s->format = UT_SENSE_FIXED;
		break;
	case 0x72:
	case 0x73:
		s->format = UT_SENSE_DESCRIPTOR;
		break;
	case 0x7f:
		s->format = UT_SENSE_VENDOR;
		s->len = len;
		return;
	default:
		return;
	}
	s->deferred = code == 0x71 || code == 0x73;
	s->len = len < 8 ? len : ut_sense_min(len, 8u + buf[7]);
	if (s->format == UT_SENSE_FIXED) {
		if (len > 2) {
			s->has_key = 1;
			s->key = buf[2] & 0xf;
		}
		if (s->len > 12) {
			s->has_asc = 1;
			s->asc = buf[12];
			s->ascq = s->len > 13 ? buf[13] : 0;
		}
		if (len > 6 && (buf[0] & 0x80)) {
			s->info_valid = 1;
			s->info = ((u64)buf[3] << 24) | ((u64)buf[4] << 16) |
				  ((u64)buf[5] << 8) | buf[6];
		}
		return;
	}
	if (len > 1) {
		s->has_key = 1;
		s->key = buf[1] & 0xf;
	}
	/* the header holds them: what the buffer lacks is 0, as for SPC */
	s->has_asc = 1;
	s->asc = len > 2 ? buf[2] : 0;
	s->ascq = len > 3 ? buf[3] : 0;
	ut_sense_info_desc(buf, s);
}
