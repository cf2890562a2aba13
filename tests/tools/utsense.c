// SPDX-License-Identifier: GPL-2.0-only
/*
 * utsense: decode raw SCSI sense buffers with module/ut_sense.c (the
 * parser the module and the command share) and data/scsi-asc.tsv, and
 * print what sg3_utils' sg_decode_sense says of the same bytes, in a form
 * tests/host/11-sense-vs-sg3.sh compares line by line:
 *
 *   utsense < HEX-LINES
 *
 * Each input line is sense bytes in hex ("70 00 03 00 ...").  Each output
 * line is one of
 *   none                       not sense data (reserved response code)
 *   vendor                     response code 7Fh: nothing decoded
 *   FORMAT DEFERRED KEY [ASC-TEXT] [info=N]
 * FORMAT is fixed or descriptor, DEFERRED current or deferred, KEY the
 * kernel's name of the key; ASC-TEXT the kernel's text of the ASC/ASCQ
 * (sg3_utils' text is compared against it), or "ASC=xx ASCQ=xx" when the
 * table has none; nothing after the key when the buffer holds no ASC
 * (sg_decode_sense prints no "Additional sense" then).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classify.h"
#include "ut_sense.h"

int main(void)
{
	char line[1024];

	while (fgets(line, sizeof(line), stdin)) {
		unsigned char b[96];
		unsigned int n = 0;
		struct ut_sense s;
		char *p = line, *end;

		while (n < sizeof(b)) {
			unsigned long v = strtoul(p, &end, 16);

			if (end == p)
				break;
			b[n++] = (unsigned char)v;
			p = end;
		}
		ut_sense_parse(b, n, &s);
		if (s.format == UT_SENSE_NONE) {
			puts("none");
			continue;
		}
		if (s.format == UT_SENSE_VENDOR) {
			puts("vendor");
			continue;
		}
		printf("%s %s %s", s.format == UT_SENSE_FIXED ? "fixed" :
		       "descriptor", s.deferred ? "deferred" : "current",
		       s.has_key ? classify_sense_key_text(s.key) : "?");
		if (s.has_asc) {
			const char *t = classify_asc_text(s.asc, s.ascq);

			if (t)
				printf(" [%s]", t);
			else
				printf(" [ASC=%02x ASCQ=%02x]", s.asc, s.ascq);
		}
		if (s.info_valid)
			printf(" info=%llu", (unsigned long long)s.info);
		printf("\n");
	}
	return 0;
}
