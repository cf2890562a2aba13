/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * repro_out.h - what a finished "usbtrail repro" campaign leaves for
 * people, made from its result (repro.json's object) and the recording of
 * its first failing run: the draft kernel patch that adds the fix to
 * unusual_uas.h or unusual_devs.h (lib/quirks_patch.h), the campaign's
 * report.html, and the bug bundle (bundle.h) with the campaign in it.
 */
#ifndef USBTRAIL_REPRO_OUT_H
#define USBTRAIL_REPRO_OUT_H

#include <stddef.h>

#include <json-c/json.h>

struct repro_out_opts {
	const char *dir;		/* the campaign: repro.json, runs/ */
	const char *kernel_tree;	/* the patch against it; NULL: none */
	const char *author;		/* "Name <mail>"; NULL: a placeholder */
	char *tmp;			/* savefile.h's, for a signal handler */
	size_t tmplen;
};

/*
 * The files of the campaign o (repro.json's object) into opts->dir:
 *   - a quirk fixed it: with a kernel tree the patch, 0001-*.patch, else
 *     unusual-entry.txt (the mail and the entry to put in);
 *   - a run failed: that run's report.txt and report.html in its
 *     recording, and bundle.tar.gz;
 *   - report.html, the campaign.
 * Their names (relative to the directory) are added to o as "files".
 * Returns 0, or a negative errno with what failed in msg; what was written
 * before stays.
 */
int repro_out_write(const struct repro_out_opts *opts, json_object *o,
		    char *msg, size_t msglen);

/*
 * 0 if tree holds the tables the patch is made against
 * (drivers/usb/storage/unusual_uas.h and unusual_devs.h), else -errno
 * with the missing path in msg: checked before a campaign starts.
 */
int repro_out_check_tree(const char *tree, char *msg, size_t msglen);

#endif /* USBTRAIL_REPRO_OUT_H */
