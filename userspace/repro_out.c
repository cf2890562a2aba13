// SPDX-License-Identifier: GPL-2.0-only
/*
 * repro_out.c - the files a finished "usbtrail repro" campaign leaves:
 * the draft kernel patch, the campaign's report.html and the bug bundle.
 * Everything comes from the campaign's result (what repro.json holds) and
 * the recording of its first failing run (the device's descriptors and
 * strings, its kernel lines), never from the live system: "usbtrail repro
 * --outputs DIR" makes them again from a finished campaign.
 *
 * The patch is what drivers/usb/storage/unusual_uas.h asks of a new entry
 * ("a patch that adds the entry for your device ... lsusb -v output for
 * the device", its header) and what linux-usb reviewers ask on top: the
 * failure as the kernel logged it and the test that shows the flag fixes
 * it.  unusual_devs.h asks for /sys/kernel/debug/usb/devices instead; the
 * descriptors are the same facts, and the lsusb -v layout is what both
 * files' recent entries were sent with.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bundle.h"
#include "lsusb.h"
#include "meta.h"
#include "quirks_patch.h"
#include "recording.h"
#include "repro_out.h"
#include "report.h"
#include "savefile.h"
#include "usbdesc.h"
#include "util.h"

#define REPRO_OUT_WRAP		72	/* a commit message's lines */
#define REPRO_OUT_LOG_LINES	16	/* kernel lines in the patch */
#define REPRO_OUT_BUNDLE_MAX	(1ull << 20)	/* as report --bundle */
#define REPRO_OUT_PLACEHOLDER	"Your Name <you@example.org>"
#define REPRO_OUT_TABLES	"drivers/usb/storage/"

/* What each workload is, in a sentence's middle */
static const struct {
	const char *name, *what;
} repro_out_steps[] = {
	{ "seq", "a sequential write and read-back, as a copy does" },
	{ "cdm", "CrystalDiskMark's set, RND4K Q32T1 included" },
	{ "commands", "ATA PASS-THROUGH(16) and (12) as smartctl and hdparm "
		      "send them" },
	{ "probe", "the kernel's probe of the disk, as at a plug (REPORT "
		   "SUPPORTED OPERATION CODES and READ CAPACITY(16) included)" },
	{ "flush", "a flushed write read back after a USB reset" },
	{ "soak", "a soak of write cycles" },
};

/* What the campaign and its first failing run say */
struct repro_out {
	const struct repro_out_opts *opts;
	json_object *o;
	const char *verdict, *usb, *id, *driver, *disk;
	json_object *failure, *fix;
	char rundir[4096];		/* the first failing run, or "" */
	struct recording rec;
	bool have_rec;
	char vendor[128], product[128];
	uint16_t vid, pid, bcd;
	struct util_str lsusb;		/* the descriptors, lsusb -v layout */
	struct util_str log;		/* the failing run's kernel lines */
	char letter;			/* the quirk of the patch, or 0 */
	unsigned long flag;
};

static const char *repro_out_step(const char *name)
{
	for (size_t i = 0; name && i < sizeof(repro_out_steps) /
	     sizeof(repro_out_steps[0]); i++)
		if (!strcmp(repro_out_steps[i].name, name))
			return repro_out_steps[i].what;
	return "its workload";
}

/* text as paragraphs of whole words, at most REPRO_OUT_WRAP wide */
static void repro_out_wrap(struct util_str *b, const char *text)
{
	size_t col = 0;

	while (*text) {
		size_t n = strcspn(text, " ");

		if (col && col + 1 + n > REPRO_OUT_WRAP) {
			util_str_put(b, "\n", 1);
			col = 0;
		} else if (col) {
			util_str_put(b, " ", 1);
			col++;
		}
		util_str_put(b, text, n);
		col += n;
		text += n;
		text += strspn(text, " ");
	}
	util_str_put(b, "\n", 1);
}

static void repro_out_wrapf(struct util_str *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void repro_out_wrapf(struct util_str *b, const char *fmt, ...)
{
	char *text;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	text = n < 0 ? NULL : malloc((size_t)n + 1);
	if (!text) {
		b->oom = true;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(text, (size_t)n + 1, fmt, ap);
	va_end(ap);
	repro_out_wrap(b, text);
	free(text);
}

/*
 * "562951027163136 bytes" as "512.0 TiB" in prose: a run of 12 digits or
 * more is what checkpatch takes for a commit id written wrong
 */
static void repro_out_sizes(const char *in, char *out, size_t len)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB",
					     "PiB" };
	size_t o = 0;

	while (*in && o + 1 < len) {
		size_t n = strspn(in, "0123456789");

		if (n >= 10 && !strncmp(in + n, " bytes", 6)) {
			double v = strtod(in, NULL);
			unsigned int u = 0;

			for (v /= 1024; v >= 1024 && u + 1 < 5; u++)
				v /= 1024;
			o += (size_t)snprintf(out + o, len - o, "%.1f %s", v,
					      units[u]);
			if (o >= len)
				return;
			in += n + 6;
		} else if (n) {
			while (n-- && o + 1 < len)
				out[o++] = *in++;
		} else {
			out[o++] = *in++;
		}
	}
	out[o < len ? o : len - 1] = '\0';
}

/* the device's strings from the uas verdict of meta.json */
static void repro_out_device(struct repro_out *x)
{
	struct usbdesc_device *dev;
	json_object *uas, *e;
	size_t n;

	if (!x->rec.meta)
		return;
	if (json_object_object_get_ex(x->rec.meta, "uas", &uas) &&
	    json_object_is_type(uas, json_type_array))
		for (size_t i = 0; i < json_object_array_length(uas); i++) {
			const char *s;

			e = json_object_array_get_idx(uas, i);
			s = meta_str(e, "usb", NULL);
			if (!s || strcmp(s, x->usb))
				continue;
			s = meta_str(e, "detail", "manufacturer");
			snprintf(x->vendor, sizeof(x->vendor), "%s", s ? s : "");
			s = meta_str(e, "detail", "product");
			snprintf(x->product, sizeof(x->product), "%s",
				 s ? s : "");
		}
	dev = malloc(sizeof(*dev));
	if (dev && !meta_descriptors_read(x->rec.meta, x->usb, dev, &n)) {
		char *text = NULL;
		size_t tlen = 0;
		FILE *f = open_memstream(&text, &tlen);

		x->bcd = dev->bcd_device;
		if (f) {
			lsusb_print(f, dev, dev->bcd_usb >= 0x0300);
			fclose(f);
			util_str_put(&x->lsusb, text, tlen);
		}
		free(text);
	}
	free(dev);
}

/* a kernel line about the disk or its USB path */
static bool repro_out_ours(const struct repro_out *x, const char *text)
{
	char usb[64], disk[40];

	snprintf(usb, sizeof(usb), "usb %s", x->usb);
	snprintf(disk, sizeof(disk), "[%s]", x->disk ? x->disk : "-");
	return strstr(text, usb) || strstr(text, disk) ||
	       !strncmp(text, "scsi host", 9) || !strncmp(text, "sd ", 3) ||
	       (x->disk && !strncmp(text, x->disk, strlen(x->disk)));
}

/* the first kernel lines of the failing run about the disk, dmesg style */
static void repro_out_log(struct repro_out *x)
{
	unsigned int n = 0;

	for (size_t i = 0; i < x->rec.nevs && n < REPRO_OUT_LOG_LINES; i++) {
		const struct ev *e = &x->rec.evs[i];

		if (e->type != EV_KLOG || e->u.klog.level > 6 ||
		    !repro_out_ours(x, e->u.klog.text))
			continue;
		size_t len = strlen(e->u.klog.text);

		while (len && e->u.klog.text[len - 1] == ' ')
			len--;
		util_str_printf(&x->log, "[%5" PRIu64 ".%06" PRIu64 "] %.*s\n",
				e->t_ns / 1000000000, e->t_ns % 1000000000 / 1000,
				(int)len, e->u.klog.text);
		n++;
	}
}

/* the mitigation that ran under name in the campaign's "runs", or NULL */
static json_object *repro_out_tally(const struct repro_out *x,
				    const char *name)
{
	json_object *runs;

	if (!json_object_object_get_ex(x->o, "runs", &runs))
		return NULL;
	for (size_t i = 0; i < json_object_array_length(runs); i++) {
		json_object *t = json_object_array_get_idx(runs, i);
		const char *m = meta_str(t, "mitigation", NULL);

		if (m && !strcmp(m, name))
			return t;
	}
	return NULL;
}

static bool repro_out_bool(json_object *o, const char *key)
{
	json_object *v;

	return o && json_object_object_get_ex(o, key, &v) &&
	       json_object_get_boolean(v);
}

static int repro_out_int(json_object *o, const char *key)
{
	json_object *v;

	return o && json_object_object_get_ex(o, key, &v) ?
	       json_object_get_int(v) : 0;
}

/* the measured figure, or -1 for null */
static double repro_out_num(json_object *o, const char *key)
{
	json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) || !v)
		return -1;
	return json_object_get_double(v);
}

/*
 * The quirk the patch adds: the fix's letter, or MAX_SECTORS_240 when the
 * fix is max_sectors_kb and g fixed it too (the table has no sysfs value)
 */
static void repro_out_pick_flag(struct repro_out *x)
{
	const char *kind = meta_str(x->fix, "kind", NULL);
	const char *val = meta_str(x->fix, "value", NULL);
	const struct quirks_flag_info *fi;

	x->letter = 0;
	if (kind && val && !strcmp(kind, "usb-storage-quirk") && strlen(val))
		x->letter = val[strlen(val) - 1];
	else if (kind && !strcmp(kind, "max-sectors") &&
		 repro_out_bool(repro_out_tally(x, "g"), "fixed"))
		x->letter = 'g';
	for (unsigned int i = 0; x->letter && i < 32; i++) {
		fi = quirks_flag_info(1ul << i);
		if (fi && fi->letter == x->letter) {
			x->flag = 1ul << i;
			return;
		}
	}
	x->letter = 0;
}

static void repro_out_table(struct util_str *b, const struct repro_out *x)
{
	json_object *runs;

	if (!json_object_object_get_ex(x->o, "runs", &runs))
		return;
	util_str_printf(b, "  %-18s %4s %8s %10s %9s %7s\n", "mitigation",
			"runs", "failures", "write MB/s", "read MB/s", "p99 ms");
	for (size_t i = 0; i < json_object_array_length(runs); i++) {
		json_object *t = json_object_array_get_idx(runs, i);
		const char *m = meta_str(t, "mitigation", NULL);
		double w = repro_out_num(t, "mbps_write");
		double r = repro_out_num(t, "mbps_read");
		double p = repro_out_num(t, "p99_ms");
		char ws[16] = "-", rs[16] = "-", ps[16] = "-";

		if (meta_str(t, "skipped", NULL))
			continue;
		if (w >= 0)
			snprintf(ws, sizeof(ws), "%.0f", w);
		if (r >= 0)
			snprintf(rs, sizeof(rs), "%.0f", r);
		if (p >= 0)
			snprintf(ps, sizeof(ps), "%.1f", p);
		util_str_printf(b, "  %-18s %4d %8d %10s %9s %7s\n",
				m ? m : "?", repro_out_int(t, "runs"),
				repro_out_int(t, "failures"), ws, rs, ps);
	}
}

static const char *repro_out_author(const struct repro_out *x)
{
	return x->opts->author && x->opts->author[0] ? x->opts->author :
	       REPRO_OUT_PLACEHOLDER;
}

static void repro_out_subject(const struct repro_out *x, char *buf,
			      size_t len)
{
	const struct quirks_flag_info *fi = quirks_flag_info(x->flag);
	bool uas = x->driver && !strcmp(x->driver, "uas");
	char name[sizeof(x->vendor) + sizeof(x->product) + 2];

	snprintf(name, sizeof(name), "%s%s%s", x->vendor,
		 x->vendor[0] && x->product[0] ? " " : "", x->product);
	if (!name[0])
		snprintf(name, sizeof(name), "%04x:%04x", x->vid, x->pid);
	snprintf(buf, len, "USB: %s: Add US_FL_%s for %s", uas ? "uas" :
		 "storage", fi ? fi->name : "?", name);
}

/* The mail: headers, the case for the flag, the evidence, then tail */
static void repro_out_mail(struct util_str *b, const struct repro_out *x,
			   const char *subject, const char *tail)
{
	const struct quirks_flag_info *fi = quirks_flag_info(x->flag);
	json_object *t, *base = repro_out_tally(x, "none");
	char date[64], mit[2] = { x->letter, 0 };
	const char *step = meta_str(x->failure, "step", NULL);
	const char *kind = meta_str(x->failure, "kind", NULL);
	const char *inc = meta_str(x->failure, "incident", NULL);
	char incident[256];
	double conf = repro_out_num(x->o, "confidence");
	double rate = repro_out_num(x->failure, "rate_low");
	time_t now = time(NULL);
	struct tm tm;

	repro_out_sizes(inc ? inc : kind ? kind : "a failure", incident,
			sizeof(incident));
	t = repro_out_tally(x, mit);
	if (!t && x->letter == 'g')
		t = repro_out_tally(x, "g");
	gmtime_r(&now, &tm);
	strftime(date, sizeof(date), "%a, %d %b %Y %H:%M:%S +0000", &tm);
	util_str_printf(b, "From 0000000000000000000000000000000000000000 "
			"Mon Sep 17 00:00:00 2001\nFrom: %s\nDate: %s\n"
			"Subject: [PATCH] %s\n\n", repro_out_author(x), date,
			subject);
	repro_out_wrapf(b, "The %s%s%s (%04x:%04x) fails on the %s driver: "
			"%s, under %s. The quirk %s stops it: %s.", x->vendor,
			x->vendor[0] ? " " : "",
			x->product[0] ? x->product : "USB storage bridge",
			x->vid, x->pid, x->driver ? x->driver : "usb-storage",
			incident, repro_out_step(step), fi ? fi->name : "?",
			fi ? fi->effect : "");
	util_str_put(b, "\n", 1);
	repro_out_wrapf(b, "Without a quirk the workload failed %d of %d runs "
			"(a failure rate of at least %.0f%% at %.0f%% "
			"confidence). With %s (usb-storage.quirks=%04x:%04x:%c) "
			"it passed %d runs in a row, as many as that confidence "
			"needs. The runs of each quirk tried, as usbtrail repro "
			"measured them:", repro_out_int(base, "failures"),
			repro_out_int(base, "runs"), rate * 100, conf * 100,
			fi ? fi->name : "the flag", x->vid, x->pid, x->letter,
			repro_out_int(t, "runs"));
	util_str_put(b, "\n", 1);
	repro_out_table(b, x);
	if (x->log.len) {
		util_str_printf(b, "\nThe kernel log of the first failing "
				"run:\n\n");
		util_str_put(b, x->log.s, x->log.len);
	}
	if (x->lsusb.len) {
		util_str_printf(b, "\nlsusb -v -d %04x:%04x (the descriptors "
				"as sysfs had them):\n\n", x->vid, x->pid);
		util_str_put(b, x->lsusb.s, x->lsusb.len);
	}
	util_str_printf(b, "\nSigned-off-by: %s\n---\n", repro_out_author(x));
	util_str_put(b, tail, strlen(tail));
}

/* git format-patch's file name of the subject */
static void repro_out_slug(const char *subject, char *buf, size_t len)
{
	size_t o = 0;
	bool dash = false;

	o += (size_t)snprintf(buf, len, "0001-");
	for (const char *s = subject; *s && o + 8 < len && o < 5 + 52; s++) {
		bool keep = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
			    (*s >= '0' && *s <= '9') || *s == '_' || *s == '.';

		if (keep) {
			buf[o++] = *s;
			dash = false;
		} else if (!dash) {
			buf[o++] = '-';
			dash = true;
		}
	}
	while (o > 5 && (buf[o - 1] == '-' || buf[o - 1] == '.'))
		o--;
	snprintf(buf + o, len - o, ".patch");
}

/* serials hashed, as in the reports: the mail goes to a public list */
static int repro_out_save(const struct repro_out *x, const char *name,
			  const char *text, size_t len)
{
	const char *serials[64];
	unsigned int n = x->have_rec ? recording_serials(&x->rec, serials, 64) :
			 0;
	char path[4200], *out = NULL;
	size_t outlen = len;
	int err;

	snprintf(path, sizeof(path), "%s/%s", x->opts->dir, name);
	if (n) {
		err = bundle_scrub(text, len, serials, n, &out, &outlen);
		if (err)
			return err;
		text = out;
	}
	err = savefile_write(path, text, outlen, x->opts->tmp,
			     x->opts->tmplen);
	free(out);
	return err;
}

static int repro_out_patch(struct repro_out *x, json_object *files,
			   char *msg, size_t msglen)
{
	enum quirks_table table = x->driver && !strcmp(x->driver, "uas") ?
				  QUIRKS_TABLE_UAS : QUIRKS_TABLE_DEVS;
	const char *file = quirks_patch_file(table);
	struct quirks_entry e = {
		.vid = x->vid, .pid = x->pid, .bcd_min = 0x0000,
		.bcd_max = 0x9999, .vendor = x->vendor, .product = x->product,
		.flags = x->flag,
	};
	struct util_str mail = { 0 }, tail = { 0 };
	struct quirks_patch_stat st;
	char subject[320], name[128], comment[300], rel[256];
	int err;

	snprintf(comment, sizeof(comment), "Reported-by: %s",
		 repro_out_author(x));
	e.comment = comment;
	repro_out_subject(x, subject, sizeof(subject));
	snprintf(rel, sizeof(rel), REPRO_OUT_TABLES "%s", file);
	if (x->opts->kernel_tree) {
		struct util_str diff = { 0 };
		struct recording_map m;
		char path[4200];

		snprintf(path, sizeof(path), "%s/%s", x->opts->kernel_tree, rel);
		err = recording_map_file(path, false, &m);
		if (err) {
			snprintf(msg, msglen, "%s", path);
			return err;
		}
		err = quirks_patch_diff(&diff, (const char *)m.p, m.len, rel, &e,
					&st);
		recording_unmap(&m);
		if (err) {
			snprintf(msg, msglen, "%s: %s", path, err == -EEXIST ?
				 "its entry of the device has the flag already" :
				 "not a table of UNUSUAL_DEV entries");
			free(diff.s);
			return err;
		}
		/* git's diffstat: " FILE | 7 +++++++" */
		util_str_printf(&tail, " %s | %u ", rel, st.added + st.removed);
		for (unsigned int i = 0; i < st.added; i++)
			util_str_put(&tail, "+", 1);
		for (unsigned int i = 0; i < st.removed; i++)
			util_str_put(&tail, "-", 1);
		util_str_put(&tail, "\n 1 file changed", 16);
		util_str_printf(&tail, ", %u insertion%s(+)", st.added,
				st.added == 1 ? "" : "s");
		if (st.removed)
			util_str_printf(&tail, ", %u deletion%s(-)", st.removed,
					st.removed == 1 ? "" : "s");
		util_str_put(&tail, "\n\n", 2);
		util_str_put(&tail, diff.s, diff.len);
		/* the signature separator of git format-patch: "-- " */
		util_str_printf(&tail, "--%c\nusbtrail repro\n", ' ');
		free(diff.s);
		repro_out_slug(subject, name, sizeof(name));
		json_object_object_add(files, "patch",
				       json_object_new_string(name));
	} else {
		util_str_put(&tail, "\n", 1);
		repro_out_wrapf(&tail, "No kernel tree was given, so this is the "
				"mail without its diff. Add the entry below to "
				"%s, where the file's order (VID, then PID) "
				"wants it, or make the patch against a tree:",
				rel);
		util_str_printf(&tail, "\n  usbtrail repro --outputs %s "
				"--kernel-tree ~/linux\n\n", x->opts->dir);
		err = quirks_entry_format(&tail, &e);
		if (err) {
			free(tail.s);
			return err;
		}
		snprintf(name, sizeof(name), "unusual-entry.txt");
		json_object_object_add(files, "entry",
				       json_object_new_string(name));
	}
	repro_out_mail(&mail, x, subject, tail.s ? tail.s : "");
	free(tail.s);
	err = mail.oom ? -ENOMEM : repro_out_save(x, name, mail.s, mail.len);
	if (err)
		snprintf(msg, msglen, "%s/%s", x->opts->dir, name);
	free(mail.s);
	return err;
}

static void repro_out_html_str(FILE *f, const char *tag, const char *s)
{
	fprintf(f, "<%s>", tag);
	report_esc(f, s ? s : "");
	fprintf(f, "</%s>", tag);
}

/* <a href="HREF">HREF</a>, both escaped */
static void repro_out_html_link(FILE *f, const char *href, const char *tail)
{
	fputs("<a href=\"", f);
	report_esc(f, href);
	fputs(tail, f);
	fputs("\">", f);
	report_esc(f, href);
	fputs("</a>", f);
}

/* the verdict and the failure in a sentence */
static void repro_out_html_verdict(FILE *f, const struct repro_out *x)
{
	const char *step = meta_str(x->failure, "step", NULL);

	fputs("\n<p>Verdict: <b>", f);
	report_esc(f, x->verdict);
	fputs("</b>", f);
	if (x->failure) {
		fputs(". Failure: ", f);
		report_esc(f, meta_str(x->failure, "kind", NULL));
		fputs(" under the ", f);
		report_esc(f, step);
		fputs(" workload (", f);
		report_esc(f, repro_out_step(step));
		fputs("): ", f);
		report_esc(f, meta_str(x->failure, "incident", NULL));
		fprintf(f, ". Its failure rate is at least %.0f%% (%.0f%% "
			"confidence): a mitigation had to pass %d runs in a row",
			repro_out_num(x->failure, "rate_low") * 100,
			repro_out_num(x->o, "confidence") * 100,
			repro_out_int(x->failure, "runs_needed"));
	}
	fputs(".</p>\n", f);
}

/* the fix, the lines that keep it, the patch and the bundle */
static void repro_out_html_fix(FILE *f, const struct repro_out *x,
			       json_object *files)
{
	const char *kind = meta_str(x->fix, "kind", NULL);
	const char *patch = meta_str(files, "patch", NULL);
	const char *entry = meta_str(files, "entry", NULL);
	const char *bundle = meta_str(files, "bundle", NULL);
	json_object *persist;

	if (kind && strcmp(kind, "none")) {
		fputs("<h2>The fix</h2>\n<p>", f);
		report_esc(f, kind);
		fputs(" ", f);
		report_esc(f, meta_str(x->fix, "value", NULL));
		fputs(". To keep it:</p>\n<pre>", f);
		if (json_object_object_get_ex(x->fix, "persist", &persist))
			for (size_t i = 0; i < json_object_array_length(persist);
			     i++) {
				report_esc(f, json_object_get_string(
					   json_object_array_get_idx(persist, i)));
				fputc('\n', f);
			}
		fputs("</pre>\n", f);
	} else if (x->verdict && !strcmp(x->verdict, "detect-only")) {
		fputs("<p>No quirk stops it: try another enclosure, a powered hub "
		      "or port, and do not trust its flushes.</p>\n", f);
	}
	if (patch || entry) {
		fputs("<p>The kernel patch: ", f);
		repro_out_html_link(f, patch ? patch : entry, "");
		fputs(patch ? " (git am takes it).</p>\n" :
		      " (the mail and the entry; with --kernel-tree the "
		      "patch).</p>\n", f);
	}
	if (bundle) {
		fputs("<p>The bug bundle: ", f);
		repro_out_html_link(f, bundle, "");
		fputs(".</p>\n", f);
	}
}

/* "<td>212</td><td>301</td>", or dashes for a figure not measured */
static void repro_out_html_rates(FILE *f, json_object *t, bool p99)
{
	double w = repro_out_num(t, "mbps_write");
	double r = repro_out_num(t, "mbps_read");

	if (w > 0 || r > 0)
		fprintf(f, "<td class=\"n\">%.0f</td><td class=\"n\">%.0f</td>",
			w, r);
	else
		fputs("<td>-</td><td>-</td>", f);
	if (!p99)
		return;
	if (repro_out_num(t, "p99_ms") >= 0)
		fprintf(f, "<td class=\"n\">%.1f</td>",
			repro_out_num(t, "p99_ms"));
	else
		fputs("<td>-</td>", f);
}

static void repro_out_html_mitigations(FILE *f, const struct repro_out *x)
{
	json_object *runs;

	if (!json_object_object_get_ex(x->o, "runs", &runs) ||
	    !json_object_array_length(runs))
		return;
	fputs("<h2>Mitigations</h2>\n<table><tr><th>mitigation</th><th>runs"
	      "</th><th>failures</th><th>fixed</th><th>write MB/s</th><th>"
	      "read MB/s</th><th>p99 ms</th><th>applied</th></tr>\n", f);
	for (size_t i = 0; i < json_object_array_length(runs); i++) {
		json_object *t = json_object_array_get_idx(runs, i);
		const char *sk = meta_str(t, "skipped", NULL);
		bool fixed = repro_out_bool(t, "fixed");

		fputs("<tr>", f);
		repro_out_html_str(f, "td", meta_str(t, "mitigation", NULL));
		if (sk) {
			fputs("<td colspan=\"7\">skipped: ", f);
			report_esc(f, sk);
			fputs("</td></tr>\n", f);
			continue;
		}
		fprintf(f, "<td class=\"n\">%d</td><td class=\"n\">%d</td><td "
			"class=\"%s\">%s</td>", repro_out_int(t, "runs"),
			repro_out_int(t, "failures"),
			fixed ? "passed" : "failed", fixed ? "yes" : "no");
		repro_out_html_rates(f, t, true);
		repro_out_html_str(f, "td", meta_str(t, "applied", NULL));
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void repro_out_html_runs(FILE *f, const struct repro_out *x)
{
	json_object *recs;

	if (!json_object_object_get_ex(x->o, "recordings", &recs) ||
	    !json_object_array_length(recs))
		return;
	fputs("<h2>Runs</h2>\n<table><tr><th>recording</th><th>workload</th>"
	      "<th>mitigation</th><th>result</th><th>s</th><th>write MB/s"
	      "</th><th>read MB/s</th></tr>\n", f);
	for (size_t i = 0; i < json_object_array_length(recs); i++) {
		json_object *t = json_object_array_get_idx(recs, i);
		bool failed = repro_out_bool(t, "failed");

		fputs("<tr><td>", f);
		repro_out_html_link(f, meta_str(t, "recording", NULL), "/");
		fputs("</td>", f);
		repro_out_html_str(f, "td", meta_str(t, "workload", NULL));
		repro_out_html_str(f, "td", meta_str(t, "mitigation", NULL));
		fprintf(f, "<td class=\"%s\">", failed ? "failed" : "passed");
		if (failed) {
			report_esc(f, meta_str(t, "kind", NULL));
			fputs(": ", f);
			report_esc(f, meta_str(t, "incident", NULL));
		} else {
			fputs("passed", f);
		}
		fprintf(f, "</td><td class=\"n\">%.0f</td>",
			repro_out_num(t, "secs"));
		repro_out_html_rates(f, t, false);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* The campaign as a page: verdict, fix, the mitigations, every run */
static int repro_out_html(const struct repro_out *x, json_object *files)
{
	char *text = NULL, title[256];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int err;

	if (!f)
		return -errno;
	snprintf(title, sizeof(title), "usbtrail repro: %s (%s at USB %s, %s)",
		 x->disk ? x->disk : "no disk", x->id, x->usb,
		 x->driver && x->driver[0] ? x->driver : "no driver");
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<title>", f);
	report_esc(f, title);
	fputs("</title><style>body{font:14px sans-serif;margin:2em;max-width:"
	      "70em}table{border-collapse:collapse}td,th{border:1px solid "
	      "#ccc;padding:2px 8px;text-align:left}td.n{text-align:right}"
	      ".failed{color:#b00}.passed{color:#070}pre{background:#f6f6f6;"
	      "padding:8px;overflow-x:auto}</style></head><body>\n", f);
	repro_out_html_str(f, "h1", title);
	repro_out_html_verdict(f, x);
	repro_out_html_fix(f, x, files);
	repro_out_html_mitigations(f, x);
	repro_out_html_runs(f, x);
	if (x->have_rec) {
		fputs("<h2>The first failing run</h2>\n<p>", f);
		repro_out_html_link(f, meta_str(x->failure, "recording", NULL),
				    "/report.html");
		fputs(": its report. Its kernel lines about the disk:</p>\n<pre>",
		      f);
		report_esc(f, x->log.s ? x->log.s : "(none)\n");
		fputs("</pre>\n", f);
	}
	fputs("</body></html>\n", f);
	if (fclose(f)) {
		free(text);
		return -ENOMEM;
	}
	err = repro_out_save(x, "report.html", text, len);
	free(text);
	if (!err)
		json_object_object_add(files, "report",
				       json_object_new_string("report.html"));
	return err;
}

/* the failing run's own report and the bundle with the campaign in it */
static int repro_out_bundle(struct repro_out *x, json_object *files,
			    char *msg, size_t msglen)
{
	struct report_opts ro = { .dir = x->rundir, .from = -1, .to = -1 };
	struct bundle_extra extra[3];
	struct bundle_result br;
	char txt[4200], html[4200], bundle[4200], json[4200], page[4200];
	char patch[4200];
	const char *p = meta_str(files, "patch", NULL);
	unsigned int n = 0;
	int err;

	if (!p)
		p = meta_str(files, "entry", NULL);
	snprintf(txt, sizeof(txt), "%s/report.txt", x->rundir);
	snprintf(html, sizeof(html), "%s/report.html", x->rundir);
	err = report_write_file(txt, report_text_write, &x->rec, &ro,
				x->opts->tmp, x->opts->tmplen);
	if (err) {
		snprintf(msg, msglen, "%s", txt);
		return err;
	}
	err = report_write_file(html, report_html_write, &x->rec, &ro,
				x->opts->tmp, x->opts->tmplen);
	if (err) {
		snprintf(msg, msglen, "%s", html);
		return err;
	}
	snprintf(json, sizeof(json), "%s/repro.json", x->opts->dir);
	snprintf(page, sizeof(page), "%s/report.html", x->opts->dir);
	extra[n++] = (struct bundle_extra){ json, "repro.json",
		"the campaign of 'usbtrail repro': each mitigation's runs, "
		"the verdict and the fix (docs/repro.md)" };
	extra[n++] = (struct bundle_extra){ page, "repro.html",
		"the campaign as a page; the recording here is its first "
		"failing run" };
	if (p) {
		snprintf(patch, sizeof(patch), "%s/%s", x->opts->dir, p);
		extra[n++] = (struct bundle_extra){ patch, p,
			"the draft kernel patch that adds the fix" };
	}
	snprintf(bundle, sizeof(bundle), "%s/bundle.tar.gz", x->opts->dir);
	{
		struct bundle_opts bo = {
			.dir = x->rundir, .path = bundle,
			.max_size = REPRO_OUT_BUNDLE_MAX,
			.report_txt = txt, .report_html = html,
			.extra = extra, .nextra = n,
			.tmp = x->opts->tmp, .tmplen = x->opts->tmplen,
		};

		err = bundle_write(&x->rec, &bo, &br);
	}
	if (err) {
		snprintf(msg, msglen, "%s%s%s", bundle, br.error[0] ? ": " : "",
			 br.error);
		return err;
	}
	json_object_object_add(files, "bundle",
			       json_object_new_string("bundle.tar.gz"));
	return 0;
}

int repro_out_check_tree(const char *tree, char *msg, size_t msglen)
{
	static const char *const tables[] = { "unusual_uas.h",
					      "unusual_devs.h" };
	char path[4200];

	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/" REPRO_OUT_TABLES "%s", tree,
			 tables[i]);
		if (access(path, R_OK)) {
			snprintf(msg, msglen, "%s", path);
			return -errno;
		}
	}
	return 0;
}

int repro_out_write(const struct repro_out_opts *opts, json_object *o,
		    char *msg, size_t msglen)
{
	struct repro_out *x = calloc(1, sizeof(*x));
	json_object *files = json_object_new_object();
	const char *rec, *what;
	unsigned int vid = 0, pid = 0;
	int err = 0;

	msg[0] = '\0';
	if (!x || !files) {
		free(x);
		json_object_put(files);
		return -ENOMEM;
	}
	x->opts = opts;
	x->o = o;
	x->verdict = meta_str(o, "verdict", NULL);
	x->usb = meta_str(o, "usb", NULL);
	x->id = meta_str(o, "id", NULL);
	x->driver = meta_str(o, "driver", NULL);
	x->disk = meta_str(o, "disk", NULL);
	if (!x->verdict || !x->usb || !x->id ||
	    sscanf(x->id, "%4x:%4x", &vid, &pid) != 2) {
		snprintf(msg, msglen, "%s/repro.json: not a campaign's result",
			 opts->dir);
		free(x);
		json_object_put(files);
		return -EINVAL;
	}
	x->vid = (uint16_t)vid;
	x->pid = (uint16_t)pid;
	json_object_object_get_ex(o, "failure", &x->failure);
	json_object_object_get_ex(o, "fix", &x->fix);
	recording_init(&x->rec);
	rec = meta_str(x->failure, "recording", NULL);
	if (rec) {
		snprintf(x->rundir, sizeof(x->rundir), "%s/%s", opts->dir, rec);
		err = recording_load(&x->rec, x->rundir, &what);
		if (err) {
			snprintf(msg, msglen, "%s/%s", x->rundir, what);
			goto out;
		}
		x->have_rec = true;
		repro_out_device(x);
		repro_out_log(x);
	}
	repro_out_pick_flag(x);
	if (x->letter && x->failure)
		err = repro_out_patch(x, files, msg, msglen);
	/* the page before the bundle, which holds it; again after, to link it */
	if (!err)
		err = repro_out_html(x, files);
	if (!err && x->have_rec)
		err = repro_out_bundle(x, files, msg, msglen);
	if (!err && x->have_rec)
		err = repro_out_html(x, files);
	if (err && !msg[0])
		snprintf(msg, msglen, "%s/report.html", opts->dir);
out:
	json_object_object_add(o, "files", files);
	free(x->lsusb.s);
	free(x->log.s);
	recording_free(&x->rec);
	free(x);
	return err;
}
