/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bundle.h - the bug-report bundle of "usbtrail report --bundle": one
 * tar.gz a kernel maintainer can act on (capture.pcapng, usbmon text in
 * the 1u form, events.jsonl, the kernel log around each incident, the
 * devices and uas verdicts, kernel version and counters, a README),
 * under a size limit, with serial numbers hashed, hostnames, user names,
 * addresses and ids replaced by tokens (lib/scrub.c) and URB data dropped,
 * unless kept on purpose.
 */
#ifndef USBTRAIL_BUNDLE_H
#define USBTRAIL_BUNDLE_H

#include <stdbool.h>
#include <stdint.h>

#include "recording.h"

#define BUNDLE_EXTRA_MAX	8

struct bundle_extra {
	const char *path;		/* the file */
	const char *name;		/* in the bundle: a plain file name */
	const char *what;		/* one line for the README */
};

struct bundle_opts {
	const char *dir;		/* the recording */
	const char *path;		/* the .tar.gz to write */
	uint64_t max_size;		/* bytes, the whole compressed file */
	bool keep_serials;
	bool keep_ids;			/* hostnames, users, addresses, ids */
	const char *report_txt;		/* written before; put in, or NULL */
	const char *report_html;
	/*
	 * More files written before, each scrubbed as the reports are and
	 * put in under its name with what it is for the README ("repro.json",
	 * "the campaign of usbtrail repro"); nextra at most BUNDLE_EXTRA_MAX
	 */
	const struct bundle_extra *extra;
	unsigned int nextra;
	/*
	 * If set, holds the temporary file's name while it exists ("" else),
	 * so a signal handler of the caller can remove it.
	 */
	char *tmp;
	size_t tmplen;
};

struct bundle_result {
	uint64_t size;			/* bytes written */
	char trimmed[200];		/* how the bundle was cut to fit, or "" */
	char error[400];		/* what failed, with a negative return */
};

/*
 * Write the bundle of recording r (loaded from o->dir) to o->path: to a
 * temporary file renamed when whole.  When it does not fit o->max_size,
 * keeps fewer and fewer capture packets and trace records around the
 * incidents, then none.  Returns 0, -EFBIG if even that does not fit, or
 * another negative errno.
 */
int bundle_write(const struct recording *r, const struct bundle_opts *o,
		 struct bundle_result *res);

/*
 * Every occurrence of each of the n serials in text (len bytes), and of
 * the serials the text's kernel lines name, replaced by its hash
 * (report_serial(), through lib/scrub.c); a new NUL-ended buffer in *out,
 * *outlen.  Pure, for the tests.  0, -E2BIG or -ENOMEM.
 */
int bundle_scrub(const char *text, size_t len, const char *const *serials,
		 unsigned int n, char **out, size_t *outlen);

#endif /* USBTRAIL_BUNDLE_H */
