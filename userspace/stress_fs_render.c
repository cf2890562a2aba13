// SPDX-License-Identifier: GPL-2.0-only
/*
 * stress_fs_render.c - what "usbtrail stress DIR" shows of a run: the
 * summary as text or --json (json-c) on stdout, in the shape of
 * stress_render.c's, and the --log lines.  Nothing here decides the exit
 * status (cmd_stress_fs.c does).
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "stress_fs.h"
#include "stress_render.h"
#include "util.h"

#define STRESS_FS_RENDER_MAX_BAD	50	/* printed; --json has more */

static double stress_fs_render_rate(double n, double secs)
{
	return secs > 0 ? n / secs : 0;
}

static const char *stress_fs_render_mode(const struct stress_fs_result *res)
{
	return res->mode == STRESS_FS_LARGE ? "large" : "tree";
}

/* The page cache line: whether the read-back can have come from it. */
static void stress_fs_render_cache(const struct stress_fs_result *res)
{
	if (res->fadvise_err)
		printf("page cache: POSIX_FADV_DONTNEED failed (%s): the "
		       "read-back may come from memory\n",
		       strerror(res->fadvise_err));
	else if (!res->cache_pages)
		printf("page cache: dropped with POSIX_FADV_DONTNEED; "
		       "not checked (%s)\n", res->mincore_err ?
		       strerror(res->mincore_err) : "nothing written");
	else if (!res->cache_resident)
		printf("page cache: dropped after the sync: 0 of %" PRIu64
		       " pages resident (mincore), the read-back is from the "
		       "disk\n", res->cache_pages);
	else
		printf("page cache: POSIX_FADV_DONTNEED left %" PRIu64
		       " of %" PRIu64 " pages resident (mincore): %.1f%% of "
		       "the read-back can come from memory\n",
		       res->cache_resident, res->cache_pages,
		       100.0 * (double)res->cache_resident /
		       (double)res->cache_pages);
}

static void stress_fs_render_bad(const struct stress_fs_result *res,
				 const struct stress_fs_bad *b)
{
	char name[64], other[64];

	stress_fs_file_name(res->mode, b->index, name, sizeof(name));
	printf("  %s: %s", name, stress_fs_problem_name(b->problem));
	switch (b->problem) {
	case STRESS_FS_MISPLACED:
		stress_fs_file_name(res->mode, b->claims, other,
				    sizeof(other));
		printf(": holds the data of %s (%" PRIu64 " bytes differ)",
		       other, b->bad_bytes);
		break;
	case STRESS_FS_CHANGED:
		printf(" at byte %" PRIu64 ": %" PRIu64 " bad bytes in %zu "
		       "range%s, the first %s", b->offset, b->bad_bytes,
		       b->ranges, b->ranges == 1 ? "" : "s",
		       verify_class_name(b->cls));
		if (b->cls == VERIFY_CHANGED)
			printf(" (%" PRIu64 " bit%s)", b->bits,
			       b->bits == 1 ? "" : "s");
		break;
	case STRESS_FS_SHORT:
	case STRESS_FS_LONG:
		printf(": %" PRIu64 " bytes, written %" PRIu64, b->size,
		       b->offset);
		break;
	case STRESS_FS_UNREADABLE:
		printf(" at byte %" PRIu64 ": %s", b->offset,
		       strerror(b->err));
		break;
	case STRESS_FS_OK:
	case STRESS_FS_MISSING:
	case STRESS_FS_NR_PROBLEMS:
		break;
	}
	putchar('\n');
}

static void stress_fs_render_verify(const struct stress_fs_result *res)
{
	unsigned int p;
	size_t i;

	printf("verify: %" PRIu64 " files, %" PRIu64 " bytes read back, %"
	       PRIu64 " bad files", res->files_checked, res->bytes_checked,
	       res->bad_total);
	for (p = STRESS_FS_OK + 1; p < STRESS_FS_NR_PROBLEMS; p++)
		if (res->problems[p])
			printf(", %" PRIu64 " %s", res->problems[p],
			       stress_fs_problem_name((enum stress_fs_problem)p));
	putchar('\n');
	for (i = 0; i < res->nbad && i < STRESS_FS_RENDER_MAX_BAD; i++)
		stress_fs_render_bad(res, &res->bad[i]);
	if (res->bad_total > i)
		printf("  ... %" PRIu64 " more (--json lists %u)\n",
		       res->bad_total - i, STRESS_FS_MAX_BAD);
	if (res->extra_total) {
		printf("not made by this run, left alone: %" PRIu64 "\n",
		       res->extra_total);
		for (i = 0; i < res->nextra; i++)
			printf("  %s\n", res->extra[i]);
	}
}

static void stress_fs_render_errors(const struct stress_fs_result *res)
{
	char name[64];
	size_t i;

	printf("I/O errors: %" PRIu64 "\n", res->errors_total);
	for (i = 0; i < res->nerrors; i++) {
		const struct stress_fs_error *e = &res->errors[i];

		if (e->index == UINT64_MAX)
			snprintf(name, sizeof(name), "%s", res->run_dir);
		else
			stress_fs_file_name(res->mode, e->index, name,
					    sizeof(name));
		printf("  %s %s at offset %" PRIu64 ": %s (errno %d)\n",
		       e->op, name, e->offset, strerror(e->err), e->err);
	}
}

/* Where the run's directory went. */
static void stress_fs_render_kept(const struct stress_fs_result *res,
				  bool verify_only)
{
	if (verify_only)
		return;
	if (res->removed)
		printf("removed %s/%s\n", res->dir, res->run_dir);
	else if (res->kept)
		printf("kept %s/%s (--keep): check it later with "
		       "--verify-only\n", res->dir, res->run_dir);
	else
		printf("kept %s/%s: %s (it holds files this run did not "
		       "make?)\n", res->dir, res->run_dir,
		       strerror(res->remove_err));
}

void stress_fs_render_text(const struct stress_fs_result *res,
			   bool verify_only, const char *result)
{
	char size[32], by[32], bs[32], sig[24];
	size_t i;

	util_format_size(size, sizeof(size), res->file_size);
	util_format_size(bs, sizeof(bs), res->block);
	printf("target: %s (directory, %s%s%s, page cache), run directory "
	       "%s\n", res->dir, res->fs_type[0] ? res->fs_type : "unknown",
	       res->fs_source[0] ? " on " : "", res->fs_source,
	       res->run_dir);
	printf("run: %016" PRIx64 "%s, %s: %" PRIu64 " file%s of %s, block "
	       "%s%s\n", res->run_id, verify_only ? " (found in-band)" : "",
	       stress_fs_render_mode(res), res->files,
	       res->files == 1 ? "" : "s", size, bs,
	       res->fill ? ", filling the free space" : "");
	if (res->unfinished)
		printf("the run that wrote it did not end (killed, or the "
		       "system went down): all it planned is checked\n");
	printf("%-14s %8s %12s %10s %10s %8s %4s %6s\n", "phase", "files",
	       "bytes", "MB/s", "files/s", "secs", "dips", "errors");
	for (i = 0; i < res->nphases; i++) {
		const struct stress_fs_phase *p = &res->phases[i];

		stress_render_bytes(by, sizeof(by), (double)p->bytes);
		printf("%-14s %8" PRIu64 " %12s %10.1f %10.1f %8.2f %4u "
		       "%6u%s\n", p->name, p->files, by,
		       stress_fs_render_rate((double)p->bytes, p->secs) / 1e6,
		       stress_fs_render_rate((double)p->files, p->secs),
		       p->secs, p->dips, p->errors,
		       p->interrupted ? "  interrupted" :
		       p->completed ? "" : "  stopped");
	}
	for (i = 0; i < res->nintervals; i++) {
		const struct stress_interval *iv = &res->intervals[i];

		if (iv->dip)
			printf("dip: %s at %.1f s: %.1f MB/s\n",
			       res->phases[iv->phase].name, iv->t,
			       (double)iv->bytes / iv->secs / 1e6);
	}
	if (!verify_only)
		stress_fs_render_cache(res);
	stress_fs_render_verify(res);
	if (res->enospc)
		printf("%s (ENOSPC) after %" PRIu64 " file%s, %" PRIu64
		       " bytes written; %" PRIu64 " bytes of them verified\n",
		       res->fill ? "filled: the filesystem is full" :
		       "the filesystem is full", res->written_files,
		       res->written_files == 1 ? "" : "s", res->written_bytes,
		       res->bytes_checked);
	if (res->errors_total)
		stress_fs_render_errors(res);
	stress_fs_render_kept(res, verify_only);
	if (res->interrupted) {
		stress_signal_name(res->interrupted, sig, sizeof(sig));
		printf("interrupted by %s after %" PRIu64 " bytes written, %"
		       PRIu64 " verified\n", sig, res->written_bytes,
		       res->bytes_checked);
	}
	printf("result: ");
	for (i = 0; result[i]; i++)
		putchar(toupper((unsigned char)result[i]));
	putchar('\n');
}

static void stress_fs_render_add(json_object *o, const char *key,
				 json_object *v)
{
	json_object_object_add(o, key, v);
}

static json_object *stress_fs_render_json_phase(const struct stress_fs_phase *p)
{
	json_object *v = json_object_new_object();

	stress_fs_render_add(v, "name", json_object_new_string(p->name));
	stress_fs_render_add(v, "op", json_object_new_string(
			     p->write ? "write" : "read"));
	stress_fs_render_add(v, "total", json_object_new_boolean(p->total));
	stress_fs_render_add(v, "files", json_object_new_uint64(p->files));
	stress_fs_render_add(v, "bytes", json_object_new_uint64(p->bytes));
	stress_fs_render_add(v, "secs", json_object_new_double(p->secs));
	stress_fs_render_add(v, "mbps", json_object_new_double(
		stress_fs_render_rate((double)p->bytes, p->secs) / 1e6));
	stress_fs_render_add(v, "bw_bytes", json_object_new_double(
		stress_fs_render_rate((double)p->bytes, p->secs)));
	stress_fs_render_add(v, "files_per_s", json_object_new_double(
		stress_fs_render_rate((double)p->files, p->secs)));
	stress_fs_render_add(v, "dips", json_object_new_int64(p->dips));
	stress_fs_render_add(v, "errors", json_object_new_int64(p->errors));
	stress_fs_render_add(v, "completed",
			     json_object_new_boolean(p->completed));
	if (p->interrupted)
		stress_fs_render_add(v, "interrupted",
				     json_object_new_boolean(1));
	return v;
}

static json_object *
stress_fs_render_json_interval(const struct stress_fs_result *res,
			       const struct stress_interval *iv)
{
	json_object *v = json_object_new_object();

	stress_fs_render_add(v, "phase", json_object_new_string(
			     res->phases[iv->phase].name));
	stress_fs_render_add(v, "t", json_object_new_double(iv->t));
	stress_fs_render_add(v, "secs", json_object_new_double(iv->secs));
	stress_fs_render_add(v, "mbps", json_object_new_double(
			     (double)iv->bytes / iv->secs / 1e6));
	stress_fs_render_add(v, "bw_bytes", json_object_new_double(
			     (double)iv->bytes / iv->secs));
	stress_fs_render_add(v, "files_per_s", json_object_new_double(
			     (double)iv->ios / iv->secs));
	stress_fs_render_add(v, "dip", json_object_new_boolean(iv->dip));
	return v;
}

static json_object *stress_fs_render_json_bad(const struct stress_fs_result *res,
					      const struct stress_fs_bad *b)
{
	json_object *v = json_object_new_object();
	char name[64];

	stress_fs_file_name(res->mode, b->index, name, sizeof(name));
	stress_fs_render_add(v, "file", json_object_new_string(name));
	stress_fs_render_add(v, "index", json_object_new_uint64(b->index));
	stress_fs_render_add(v, "problem", json_object_new_string(
			     stress_fs_problem_name(b->problem)));
	switch (b->problem) {
	case STRESS_FS_MISPLACED:
		stress_fs_file_name(res->mode, b->claims, name, sizeof(name));
		stress_fs_render_add(v, "holds", json_object_new_string(name));
		stress_fs_render_add(v, "holds_index",
				     json_object_new_uint64(b->claims));
		stress_fs_render_add(v, "bad_bytes",
				     json_object_new_uint64(b->bad_bytes));
		break;
	case STRESS_FS_CHANGED:
		stress_fs_render_add(v, "offset",
				     json_object_new_uint64(b->offset));
		stress_fs_render_add(v, "class", json_object_new_string(
				     verify_class_name(b->cls)));
		stress_fs_render_add(v, "bad_bytes",
				     json_object_new_uint64(b->bad_bytes));
		stress_fs_render_add(v, "ranges",
				     json_object_new_uint64(b->ranges));
		stress_fs_render_add(v, "bits", json_object_new_uint64(b->bits));
		break;
	case STRESS_FS_SHORT:
	case STRESS_FS_LONG:
		stress_fs_render_add(v, "size", json_object_new_uint64(b->size));
		stress_fs_render_add(v, "written",
				     json_object_new_uint64(b->offset));
		break;
	case STRESS_FS_UNREADABLE:
		stress_fs_render_add(v, "offset",
				     json_object_new_uint64(b->offset));
		stress_fs_render_add(v, "errno", json_object_new_int64(b->err));
		stress_fs_render_add(v, "error", json_object_new_string(
				     strerror(b->err)));
		break;
	case STRESS_FS_OK:
	case STRESS_FS_MISSING:
	case STRESS_FS_NR_PROBLEMS:
		break;
	}
	return v;
}

static json_object *stress_fs_render_json_verify(const struct stress_fs_result *res)
{
	json_object *v = json_object_new_object(), *o, *a;
	unsigned int k;
	size_t i;

	stress_fs_render_add(v, "files_checked",
			     json_object_new_uint64(res->files_checked));
	stress_fs_render_add(v, "bytes_checked",
			     json_object_new_uint64(res->bytes_checked));
	stress_fs_render_add(v, "bad_files",
			     json_object_new_uint64(res->bad_total));
	o = json_object_new_object();
	for (k = STRESS_FS_OK + 1; k < STRESS_FS_NR_PROBLEMS; k++)
		stress_fs_render_add(o, stress_fs_problem_name(
				(enum stress_fs_problem)k),
			json_object_new_uint64(res->problems[k]));
	stress_fs_render_add(v, "problems", o);
	o = json_object_new_object();
	for (k = 0; k < VERIFY_NR_CLASSES; k++)
		stress_fs_render_add(o, verify_class_name((enum verify_class)k),
				     json_object_new_uint64(res->sectors[k]));
	stress_fs_render_add(v, "sectors", o);
	a = json_object_new_array();
	for (i = 0; i < res->nbad; i++)
		json_object_array_add(a, stress_fs_render_json_bad(res,
							&res->bad[i]));
	stress_fs_render_add(v, "files", a);
	stress_fs_render_add(v, "not_ours",
			     json_object_new_uint64(res->extra_total));
	a = json_object_new_array();
	for (i = 0; i < res->nextra; i++)
		json_object_array_add(a, json_object_new_string(res->extra[i]));
	stress_fs_render_add(v, "not_ours_names", a);
	return v;
}

static json_object *stress_fs_render_json_cache(const struct stress_fs_result *res)
{
	json_object *v = json_object_new_object();

	stress_fs_render_add(v, "fadvise", json_object_new_string(
		res->fadvise_err ? strerror(res->fadvise_err) : "ok"));
	stress_fs_render_add(v, "pages",
			     json_object_new_uint64(res->cache_pages));
	stress_fs_render_add(v, "resident",
			     json_object_new_uint64(res->cache_resident));
	stress_fs_render_add(v, "dropped", json_object_new_boolean(
		!res->fadvise_err && res->cache_pages &&
		!res->cache_resident));
	return v;
}

static json_object *stress_fs_render_json_errors(const struct stress_fs_result *res)
{
	json_object *a = json_object_new_array(), *v;
	char name[64];
	size_t i;

	for (i = 0; i < res->nerrors; i++) {
		const struct stress_fs_error *e = &res->errors[i];

		v = json_object_new_object();
		if (e->index == UINT64_MAX)
			snprintf(name, sizeof(name), "%s", res->run_dir);
		else
			stress_fs_file_name(res->mode, e->index, name,
					    sizeof(name));
		stress_fs_render_add(v, "op", json_object_new_string(e->op));
		stress_fs_render_add(v, "file", json_object_new_string(name));
		stress_fs_render_add(v, "offset",
				     json_object_new_uint64(e->offset));
		stress_fs_render_add(v, "errno", json_object_new_int64(e->err));
		stress_fs_render_add(v, "error", json_object_new_string(
				     strerror(e->err)));
		json_object_array_add(a, v);
	}
	return a;
}

void stress_fs_render_json(const struct stress_fs_result *res,
			   bool verify_only, const char *result)
{
	json_object *o = json_object_new_object(), *a;
	char hex[20], sig[24];
	size_t i;

	stress_fs_render_add(o, "target", json_object_new_string(res->dir));
	stress_fs_render_add(o, "kind", json_object_new_string("directory"));
	stress_fs_render_add(o, "fs_type", json_object_new_string(res->fs_type));
	stress_fs_render_add(o, "fs_source",
			     json_object_new_string(res->fs_source));
	stress_fs_render_add(o, "run_dir", json_object_new_string(res->run_dir));
	stress_fs_render_add(o, "fs_mode", json_object_new_string(
			     stress_fs_render_mode(res)));
	stress_fs_render_add(o, "verify_only",
			     json_object_new_boolean(verify_only));
	snprintf(hex, sizeof(hex), "%016" PRIx64, res->run_id);
	stress_fs_render_add(o, "run_id", json_object_new_string(hex));
	stress_fs_render_add(o, "files", json_object_new_uint64(res->files));
	stress_fs_render_add(o, "file_size",
			     json_object_new_uint64(res->file_size));
	stress_fs_render_add(o, "block", json_object_new_int64(res->block));
	stress_fs_render_add(o, "sector_size",
			     json_object_new_int64(STRESS_FS_SECTOR));
	stress_fs_render_add(o, "fill", json_object_new_boolean(res->fill));
	stress_fs_render_add(o, "unfinished",
			     json_object_new_boolean(res->unfinished));
	stress_fs_render_add(o, "free_bytes",
			     json_object_new_uint64(res->free_before));
	stress_fs_render_add(o, "secs", json_object_new_double(res->secs));
	a = json_object_new_array();
	for (i = 0; i < res->nphases; i++)
		json_object_array_add(a, stress_fs_render_json_phase(
				      &res->phases[i]));
	stress_fs_render_add(o, "phases", a);
	a = json_object_new_array();
	for (i = 0; i < res->nintervals; i++)
		json_object_array_add(a, stress_fs_render_json_interval(res,
				      &res->intervals[i]));
	stress_fs_render_add(o, "intervals", a);
	if (!verify_only)
		stress_fs_render_add(o, "page_cache",
				     stress_fs_render_json_cache(res));
	stress_fs_render_add(o, "verify", stress_fs_render_json_verify(res));
	stress_fs_render_add(o, "written_files",
			     json_object_new_uint64(res->written_files));
	stress_fs_render_add(o, "written_bytes",
			     json_object_new_uint64(res->written_bytes));
	stress_fs_render_add(o, "enospc", json_object_new_boolean(res->enospc));
	stress_fs_render_add(o, "errors", stress_fs_render_json_errors(res));
	stress_fs_render_add(o, "errors_total",
			     json_object_new_uint64(res->errors_total));
	stress_fs_render_add(o, "kept", json_object_new_boolean(res->kept ||
			     !res->removed));
	stress_fs_render_add(o, "removed",
			     json_object_new_boolean(res->removed));
	stress_fs_render_add(o, "interrupted",
			     json_object_new_boolean(res->interrupted));
	if (res->interrupted) {
		stress_signal_name(res->interrupted, sig, sizeof(sig));
		stress_fs_render_add(o, "signal", json_object_new_string(sig));
	}
	stress_fs_render_add(o, "result", json_object_new_string(result));
	puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
					    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

/* A --log line as the interval ends: "t_s secs phase MB/s files/s". */
void stress_fs_render_interval(FILE *log, const struct stress_fs_result *res,
			       const struct stress_interval *iv)
{
	if (!res->nintervals || iv == res->intervals)
		fprintf(log, "# usbtrail stress run %016" PRIx64 " %s in %s\n"
			"# t_s secs phase MB/s files/s [dip]\n", res->run_id,
			stress_fs_render_mode(res), res->dir);
	fprintf(log, "%.3f %.3f %s %.1f %.1f%s\n", iv->t, iv->secs,
		res->phases[iv->phase].name,
		(double)iv->bytes / iv->secs / 1e6,
		(double)iv->ios / iv->secs, iv->dip ? " dip" : "");
	fflush(log);
}
