// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_export.c - "usbtrail export --jsonl DIR": every event of a
 * recording as events.jsonl lines, for scripts.
 *
 * A recording keeps the high-rate events (trace records, usbmon URBs) in
 * capture.pcapng and the rest in events.jsonl (docs/formats.md).  This
 * merges the two back into one stream in the recorder's order (time, then
 * id): the lines of events.jsonl as they are, and a line made by evjson.c
 * for each packet, as usbtrail 0.2 wrote them into events.jsonl.  usbmon
 * packets get the disk and USB path the recorder gave them from the
 * device events before them, as it did.  A recording of usbtrail 0.2
 * (meta.json's format_version 1: everything in events.jsonl, usbmon's
 * packets in the capture too) comes out as its events.jsonl is.
 *
 * Both files are mapped, not read into memory: a recording may be bigger
 * than RAM.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "devmap.h"
#include "evjson.h"
#include "owner.h"
#include "pcapng.h"
#include "recording.h"
#include "recpkt.h"
#include "usbmon.h"
#include "util.h"

#define CMD_EXPORT_NAME	"export"

const char cmd_export_help[] =
"Usage: usbtrail export --jsonl DIR [-o FILE]\n"
"\n"
"Write every event of DIR, a recording of 'usbtrail record', as the lines\n"
"of events.jsonl (docs/formats.md): its events.jsonl, and in their place\n"
"in time the trace records and usbmon URBs that capture.pcapng keeps, one\n"
"JSON object a line, as scripts read them.\n"
"\n"
"Options:\n"
"      --jsonl             JSON lines (the one form, and the default)\n"
"  -o, --output FILE       write to FILE, which must not exist (default:\n"
"                          standard output)\n"
"  -h, --help              show this help and exit\n"
"\n"
"A recording of usbtrail 0.2, whose events.jsonl holds every event, comes\n"
"out as it is.  What cannot be read (a line or block cut short by a kill)\n"
"is said on stderr and left out; the rest is written.\n"
"Exit status: 0 written, 1 DIR holds no recording, a file could not be\n"
"read or written, or part of it was left out; 2 usage.\n";

enum {
	CMD_EXPORT_OPT_JSONL = 256,
};

/* The next line of events.jsonl, parsed for its place (and devices). */
struct cmd_export_lines {
	struct recording_map map;
	size_t off;
	const char *line;		/* the current one, NULL at the end */
	size_t n;
	uint64_t t_ns, id;
	struct ev ev;			/* it, when it parsed */
	bool parsed;
	unsigned long malformed, cut;
};

static void cmd_export_next_line(struct cmd_export_lines *l)
{
	const char *nl;
	int ret;

	l->line = NULL;
	while (l->off < l->map.len) {
		const char *s = (const char *)l->map.p + l->off;
		size_t left = l->map.len - l->off;

		nl = memchr(s, '\n', left);
		if (!nl) {
			l->cut++;	/* a line cut short at the end */
			l->off = l->map.len;
			return;
		}
		l->off += (size_t)(nl - s) + 1;
		if (nl == s)
			continue;
		l->line = s;
		l->n = (size_t)(nl - s);
		/* a line that does not parse keeps its place after the last */
		/* -ENOTSUP: a usbmon line (usbtrail 0.2): its time is read */
		ret = evjson_parse_event(s, l->n, &l->ev);
		l->parsed = !ret || ret == -ENOTSUP;
		if (l->parsed) {
			l->t_ns = l->ev.t_ns;
			l->id = l->ev.id;
		} else {
			l->malformed++;
		}
		return;
	}
}

/* The next packet of capture.pcapng that is an event, made into one. */
struct cmd_export_packets {
	struct recording_map map;
	struct pcapng_reader rd;
	size_t off;
	int64_t boot_to_real_ns;
	struct ev *ev;			/* the current one, NULL at the end */
	struct ev buf;			/* usbmon's data points into map */
	unsigned long bad, other;
	bool damaged;
};

static bool cmd_export_usbmon(struct cmd_export_packets *k,
			      const struct pcapng_epb *e)
{
	struct usbmon_event me;
	struct ev *ev = &k->buf;
	uint32_t n;

	if (usbmon_parse_packet(e->data, e->caplen, &me) < 0)
		return false;
	memset(ev, 0, offsetof(struct ev, u));
	ev->type = EV_USBMON;
	ev->source = EV_SRC_USBMON;
	ev->id = e->packet_id;
	ev->t_ns = e->ts - (uint64_t)k->boot_to_real_ns;
	ev->ident.busnum = me.hdr.busnum;
	ev->ident.devnum = me.hdr.devnum;
	memset(&ev->u.usbmon, 0, sizeof(ev->u.usbmon));
	ev->u.usbmon.hdr = me.hdr;
	/* the descriptors and data where they are, in the mapped capture */
	n = e->caplen - USBMON_HDR_SIZE;
	if (n) {
		ev->u.usbmon.data = (uint8_t *)(uintptr_t)(e->data +
							   USBMON_HDR_SIZE);
		ev->u.usbmon.caplen = n;
	}
	return true;
}

static void cmd_export_next_packet(struct cmd_export_packets *k)
{
	struct pcapng_block blk;
	int ret;

	k->ev = NULL;
	while ((ret = pcapng_next_block(&k->rd, k->map.p, k->map.len, &k->off,
					&blk)) == 1) {
		struct pcapng_epb e;
		int lt;

		if (blk.type != PCAPNG_BT_EPB || pcapng_epb_parse(&k->rd, &blk, &e))
			continue;
		lt = pcapng_if_linktype(&k->rd, e.if_id);
		if (lt == PCAPNG_LINKTYPE_USER0) {
			ret = recpkt_parse(e.data, e.caplen, &k->buf);
			if (ret) {
				if (ret == -EPROTONOSUPPORT)
					k->other++;
				else
					k->bad++;
				continue;
			}
		} else if (lt == PCAPNG_LINKTYPE_USB_LINUX_MMAPPED) {
			if (k->rd.swapped) {
				k->other++;
				continue;
			}
			if (!cmd_export_usbmon(k, &e)) {
				k->bad++;
				continue;
			}
		} else {
			continue;
		}
		k->ev = &k->buf;
		return;
	}
	if (ret < 0)
		k->damaged = true;
}

struct cmd_export_out {
	FILE *f;
	const char *name;
	int err;
};

static void cmd_export_put(struct cmd_export_out *o, const char *s, size_t n)
{
	if (o->err)
		return;
	if (fwrite(s, 1, n, o->f) != n || putc('\n', o->f) == EOF)
		o->err = errno ? -errno : -EIO;
}

static int cmd_export_run(const char *dir, struct cmd_export_out *o)
{
	struct cmd_export_lines *l = calloc(1, sizeof(*l));
	struct cmd_export_packets *k = calloc(1, sizeof(*k));
	struct evjson_writer *w = evjson_writer_new();
	struct devmap *map = calloc(1, sizeof(*map));
	struct recording r;
	uint64_t format;
	char path[4200];
	bool old;
	int err, ret = CLI_EXIT_OK;

	if (!l || !k || !w || !map) {
		err = -ENOMEM;
		goto fail;
	}
	devmap_init(map);
	snprintf(path, sizeof(path), "%s/events.jsonl", dir);
	err = recording_map_file(path, false, &l->map);
	if (err)
		goto fail;
	/* the clock of usbmon's packets: meta.json's offset, as report's */
	recording_init(&r);
	recording_load_meta(&r, dir);
	k->boot_to_real_ns = (int64_t)r.boot_to_real_ns;
	/* usbtrail 0.2 (format 1): every event a line, the capture beside */
	old = recording_meta_u64(&r, "format_version", NULL, &format) &&
	      format < 2;
	recording_free(&r);
	snprintf(path, sizeof(path), "%s/capture.pcapng", dir);
	err = old ? 0 : recording_map_file(path, true, &k->map);
	if (err)
		goto fail;

	cmd_export_next_line(l);
	cmd_export_next_packet(k);
	while ((l->line || k->ev) && !o->err) {
		const char *s;
		size_t n;

		if (l->line && (!k->ev || l->t_ns < k->ev->t_ns ||
				(l->t_ns == k->ev->t_ns && l->id <= k->ev->id))) {
			cmd_export_put(o, l->line, l->n);
			/* the devices so far, as the recorder knew them */
			if (l->parsed && l->ev.type == EV_DEVICE)
				devmap_update(map, &l->ev);
			cmd_export_next_line(l);
			continue;
		}
		if (k->ev->type == EV_USBMON)
			devmap_resolve(map, k->ev);
		err = evjson_writer_line(w, k->ev, &s, &n);
		if (err)
			goto fail;
		cmd_export_put(o, s, n);
		cmd_export_next_packet(k);
	}
	if (o->err) {
		err = o->err;
		snprintf(path, sizeof(path), "%s", o->name);
		goto fail_out;
	}
	if (l->malformed)
		fprintf(stderr, "usbtrail export: %s/events.jsonl: %lu lines "
			"are not events: copied as they are\n", dir,
			l->malformed);
	if (l->cut) {
		fprintf(stderr, "usbtrail export: %s/events.jsonl ends in a "
			"line cut short: left out\n", dir);
		ret = CLI_EXIT_FAILURE;
	}
	if (k->damaged) {
		fprintf(stderr, "usbtrail export: %s/capture.pcapng ends in a "
			"damaged block at byte %zu: the packets before it are "
			"written\n", dir, k->off);
		ret = CLI_EXIT_FAILURE;
	}
	if (k->bad || k->other) {
		fprintf(stderr, "usbtrail export: %s/capture.pcapng: %lu "
			"packets left out (%lu not of this format, %lu of a "
			"later usbtrail or another byte order)\n", dir,
			k->bad + k->other, k->bad, k->other);
		ret = CLI_EXIT_FAILURE;
	}
	goto out;

fail:
	if (err == -ENOENT)
		fprintf(stderr, "usbtrail export: %s: not a recording (no "
			"events.jsonl)\n", dir);
	else
		fprintf(stderr, "usbtrail export: %s: %s\n", path,
			strerror(-err));
	ret = CLI_EXIT_FAILURE;
	goto out;
fail_out:
	fprintf(stderr, "usbtrail export: writing %s: %s\n", path,
		strerror(-err));
	ret = CLI_EXIT_FAILURE;
out:
	if (l)
		recording_unmap(&l->map);
	if (k)
		recording_unmap(&k->map);
	evjson_writer_free(w);
	free(map);
	free(l);
	free(k);
	return ret;
}

int cmd_export_main(int argc, char **argv)
{
	static const char optstring[] = ":ho:";
	static const struct option longopts[] = {
		{ "help",	no_argument,	   NULL, 'h' },
		{ "output",	required_argument, NULL, 'o' },
		{ "jsonl",	no_argument,	   NULL, CMD_EXPORT_OPT_JSONL },
		{ NULL,		0,		   NULL, 0 }
	};
	struct cmd_export_out o = { stdout, "standard output", 0 };
	const char *output = NULL;
	struct stat st;
	int c, ret, fd;

	opterr = 0;
	while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(cmd_export_help, stdout);
			return CLI_EXIT_OK;
		case 'o':
			output = optarg;
			break;
		case CMD_EXPORT_OPT_JSONL:
			break;
		default:
			return cli_getopt_error(CMD_EXPORT_NAME, c, argv,
						optstring, longopts);
		}
	}
	if (optind >= argc)
		return cli_usage_error(CMD_EXPORT_NAME, "DIR is required: the "
				       "directory of a recording");
	if (argc - optind > 1)
		return cli_usage_error(CMD_EXPORT_NAME, "takes one DIR, not %d",
				       argc - optind);
	if (stat(argv[optind], &st)) {
		fprintf(stderr, "usbtrail export: %s: %s\n", argv[optind],
			strerror(errno));
		return CLI_EXIT_FAILURE;
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "usbtrail export: %s: not a directory\n",
			argv[optind]);
		return CLI_EXIT_FAILURE;
	}
	if (output && strcmp(output, "-")) {
		/* never over a file: the user names a new one */
		fd = owner_open(output, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd < 0) {
			fprintf(stderr, "usbtrail export: %s: %s%s\n", output,
				strerror(-fd), fd == -EEXIST ?
				" (export does not overwrite a file)" : "");
			return CLI_EXIT_FAILURE;
		}
		o.f = fdopen(fd, "w");
		if (!o.f) {
			close(fd);
			unlink(output);
			return CLI_EXIT_FAILURE;
		}
		o.name = output;
	}
	ret = cmd_export_run(argv[optind], &o);
	if (o.f != stdout) {
		if (fclose(o.f) && ret == CLI_EXIT_OK) {
			fprintf(stderr, "usbtrail export: writing %s: %s\n",
				output, strerror(errno));
			ret = CLI_EXIT_FAILURE;
		}
		if (o.err)
			unlink(output);	/* not whole: not left as if it were */
	}
	return ret;
}
