/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * savefile.h - a file written whole or not at all: the bytes go to a
 * temporary file beside it (PATH.tmp.XXXXXX), which is renamed over PATH
 * once complete, so an interrupted run never leaves half a file.
 *
 * For report --compare (cmd_report_compare.c), the bundle (bundle.c) and
 * the report's own files (cmd_report.c).
 */
#ifndef USBTRAIL_SAVEFILE_H
#define USBTRAIL_SAVEFILE_H

#include <stddef.h>

/*
 * @len bytes of @data into @path, mode 0644, flushed to the disk before
 * the rename.  @tmp (@tmplen bytes, the caller's) holds the temporary
 * name while it exists and "" otherwise, for a signal handler of the
 * caller to unlink.  Returns 0 or a negative errno; on failure @path is
 * as it was and no temporary file is left.
 */
int savefile_write(const char *path, const void *data, size_t len, char *tmp,
		   size_t tmplen);

#endif /* USBTRAIL_SAVEFILE_H */
