// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_tracerec.c - libFuzzer target for userspace/lib/tracerec.c: whatever a
 * per-CPU buffer of tracefs hands over (or a corrupted capture) must be
 * decoded or counted as malformed, never read past.  The event formats
 * are the real ones of the 6.12 fixture (tests/fixtures/tracefs/6.12),
 * loaded once; the first input byte chooses what the rest is:
 *   even: one sub-buffer page (kbuffer, then every event in it)
 *   odd:  one event's payload, starting at its common_type
 * The state's sysfs tables are set as in the capture, so the filters let
 * the SCSI and block events through to their decoders.
 */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>

#include "tracerec.h"

#ifndef FUZZ_TRACEREC_FORMATS
#define FUZZ_TRACEREC_FORMATS "../tests/fixtures/tracefs/6.12"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct tep_handle *fuzz_tep;
static struct kbuffer *fuzz_kb;
static struct tracerec_state *fuzz_st;

static char *fuzz_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 &&
	    !fseek(f, 0, SEEK_SET)) {
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n) {
			buf[n] = '\0';
			*len = (size_t)n;
		} else {
			free(buf);
			buf = NULL;
		}
	}
	fclose(f);
	return buf;
}

static void fuzz_load(void)
{
	char path[1024], epath[2048];
	struct dirent *s, *e;
	DIR *sd, *ed;
	size_t len;
	char *buf;

	fuzz_tep = tep_alloc();
	if (!fuzz_tep)
		abort();
	tep_set_long_size(fuzz_tep, 8);
	tep_set_page_size(fuzz_tep, 4096);
	buf = fuzz_slurp(FUZZ_TRACEREC_FORMATS "/events/header_page", &len);
	if (!buf || tep_parse_header_page(fuzz_tep, buf, len, 8))
		abort();
	free(buf);
	sd = opendir(FUZZ_TRACEREC_FORMATS "/events");
	if (!sd)
		abort();
	while ((s = readdir(sd))) {
		if (s->d_name[0] == '.' || !strncmp(s->d_name, "header", 6))
			continue;
		snprintf(path, sizeof(path), "%s/events/%s",
			 FUZZ_TRACEREC_FORMATS, s->d_name);
		ed = opendir(path);
		if (!ed)
			continue;
		while ((e = readdir(ed))) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(epath, sizeof(epath), "%s/%s/format", path,
				 e->d_name);
			buf = fuzz_slurp(epath, &len);
			if (buf)
				tep_parse_event(fuzz_tep, buf, len,
						strcmp(s->d_name, "kprobes") ?
						s->d_name : "usbtrail_fx");
			free(buf);
		}
		closedir(ed);
	}
	closedir(sd);
	fuzz_kb = tep_kbuffer(fuzz_tep);
	fuzz_st = malloc(sizeof(*fuzz_st));
	if (!fuzz_kb || !fuzz_st)
		abort();
}

static int fuzz_check(void *arg, const struct usbtrail_record *rec)
{
	(void)arg;
	if (!rec->type || rec->type >= USBTRAIL_REC_TYPE_MAX)
		__builtin_trap();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tracerec_disk d = {
		.host = 1, .devt = 8 << 8, .block_size = 512, .name = "sda",
	};
	struct usbtrail_record rec;
	uint8_t mode;
	int n;

	if (!fuzz_tep)
		fuzz_load();
	if (size < 1)
		return 0;
	mode = data[0];
	data++;
	size--;
	if (tracerec_state_init(fuzz_st, fuzz_tep) < 17)
		abort();	/* the fixture's formats did not load */
	tracerec_add_host(fuzz_st, 1);
	tracerec_add_disk(fuzz_st, &d);
	if (!(mode & 1)) {
		n = tracerec_parse_page(fuzz_st, fuzz_kb, data, size,
					mode >> 1, fuzz_check, NULL);
		if (n < 0 && n != -EINVAL)
			__builtin_trap();
		return 0;
	}
	/* the same bytes twice: the second sees the state the first left */
	for (n = 0; n < 2; n++)
		if (tracerec_parse_event(fuzz_st, 1, mode >> 1, data, size,
					 &rec) == 1)
			fuzz_check(NULL, &rec);
	return 0;
}
