// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_quirks_patch.c - libFuzzer target for the kernel patch's diff
 * (userspace/lib/quirks_patch.c), which reads a table file of a kernel
 * tree the user names: the first 5 bytes pick a VID:PID, a bcdDevice and
 * a flag, the rest is the file.  Whatever it is, the diff is either
 * refused or well formed: its header, then one hunk whose line counts are
 * what its lines say.  The corpus is the kernel's unusual_uas.h and
 * unusual_devs.h of the trees under /var/cache/usbtrail/src.
 *
 *   make -C userspace fuzz
 *   userspace/build-fuzz/fuzz_quirks_patch -max_total_time=60 \
 *           userspace/build-fuzz/corpus-quirks_patch
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quirks_patch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const unsigned long fuzz_flags[] = {
	QUIRKS_FL_IGNORE_UAS, QUIRKS_FL_NO_ATA_1X, QUIRKS_FL_NO_REPORT_OPCODES,
	QUIRKS_FL_NO_READ_CAPACITY_16, QUIRKS_FL_MAX_SECTORS_240,
	QUIRKS_FL_IGNORE_UAS | QUIRKS_FL_NO_ATA_1X, 0x2ul,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct quirks_entry e = { .vendor = "V\"", .product = "P\\",
				  .bcd_max = 0x9999, .comment = "c" };
	struct quirks_patch_stat st;
	struct util_str b = { 0 };
	unsigned int old = 0, new = 0, hold, hnew, a, c;
	char *line, *save = NULL;
	int err;

	if (size < 5)
		return 0;
	e.vid = (uint16_t)(data[0] << 8 | data[1]);
	e.pid = (uint16_t)(data[2] << 8 | data[3]);
	e.bcd_min = data[4] & 0x80 ? 0x0100 : 0;
	e.flags = fuzz_flags[data[4] % (sizeof(fuzz_flags) /
					sizeof(fuzz_flags[0]))];
	err = quirks_patch_diff(&b, (const char *)data + 5, size - 5, "t.h", &e,
				&st);
	if (err) {
		free(b.s);
		return 0;
	}
	static const char head[] = "diff --git a/t.h b/t.h\n--- a/t.h\n"
				   "+++ b/t.h\n";
	char *hunk;

	if (!b.s || strncmp(b.s, head, strlen(head)))
		abort();
	hunk = b.s + strlen(head);
	if (sscanf(hunk, "@@ -%u,%u +%u,%u @@", &a, &hold, &c, &hnew) != 4 ||
	    a != c || !a)
		abort();
	line = strtok_r(strchr(hunk, '\n') + 1, "\n", &save);
	for (; line; line = strtok_r(NULL, "\n", &save)) {
		if (*line == ' ') {
			old++;
			new++;
		} else if (*line == '-') {
			old++;
		} else if (*line == '+') {
			new++;
		} else {
			abort();
		}
	}
	/* every hunk line has its mark, so strtok_r skips no empty one */
	if (old != hold || new != hnew || new - old != st.added - st.removed)
		abort();
	free(b.s);
	return 0;
}
