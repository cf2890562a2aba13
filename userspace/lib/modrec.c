// SPDX-License-Identifier: GPL-2.0-only
/*
 * modrec: parse usbtrail.ko's binary records and write them as text.
 *
 * The text form is the module's own: module/ut_format.c is compiled into
 * the command too, so a record read from /dev/usbtrail and the same record
 * in a panic dump on a serial console are the same line.
 */
#include <errno.h>
#include <string.h>

#include "modrec.h"
#include "ut_format.h"

_Static_assert(sizeof(struct usbtrail_record) == USBTRAIL_RECORD_SIZE,
	       "usbtrail_record size");

int modrec_parse(const void *buf, size_t len, struct usbtrail_record *rec)
{
	struct usbtrail_record r;

	if (len < sizeof(r))
		return -EMSGSIZE;
	memcpy(&r, buf, sizeof(r));
	if (r.type == 0 || r.type >= USBTRAIL_REC_TYPE_MAX)
		return -EINVAL;
	*rec = r;
	return sizeof(r);
}

const char *modrec_type_name(unsigned int type)
{
	return ut_format_type(type);
}

int modrec_format(const struct usbtrail_record *rec, char *buf, size_t size)
{
	return ut_format(buf, size, rec);
}
