// SPDX-License-Identifier: GPL-2.0-only
/*
 * stress_fs.c - "usbtrail stress DIR": a large-file copy (as pv times it)
 * or a small-file tree (as ls -lR and find -exec cat walk it) through a
 * mounted filesystem, every file in the self-describing pattern.
 *
 * Safety: everything happens in a directory this run creates in DIR
 * with mkdirat() (usbtrail-stress-RUNID, a new name, never one that
 * exists), its files are created with O_EXCL, every open below DIR is
 * one component at a time with O_NOFOLLOW, so a symlink is never
 * followed out, and the clean-up unlinks only the names this run made:
 * a file someone put in there keeps the directory, and says so.
 *
 * cmd_stress_fs.c calls stress_fs_run() and picks the exit status;
 * stress_fs_render.c shows the result.  Errors are returned, not logged,
 * but for cfg->message() lines while it runs.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "pattern.h"
#include "stress_fs.h"
#include "util.h"

#define STRESS_FS_GENERATION	1u
#define STRESS_FS_PROGRESS_S	0.1	/* between progress calls */

static const char *const stress_fs_problems[] = {
	[STRESS_FS_OK] = "ok",
	[STRESS_FS_MISSING] = "missing",
	[STRESS_FS_UNREADABLE] = "unreadable",
	[STRESS_FS_MISPLACED] = "misplaced",
	[STRESS_FS_CHANGED] = "changed",
	[STRESS_FS_SHORT] = "short",
	[STRESS_FS_LONG] = "long",
};

const char *stress_fs_problem_name(enum stress_fs_problem p)
{
	return (unsigned int)p < STRESS_FS_NR_PROBLEMS ?
	       stress_fs_problems[p] : "?";
}

struct stress_fs_ctx {
	const struct stress_fs_config *cfg;
	struct stress_fs_result *res;
	struct pattern_run *run, *scratch;
	struct verify_report *rep;	/* of one file at a time */
	unsigned char *buf;
	size_t buflen;
	int parent_fd;			/* DIR */
	int root_fd;			/* the run's directory */
	double t0;
	/* the phase running */
	size_t phase;
	double ph_start, iv_start, last_progress;
	uint64_t iv_bytes, iv_files;
	uint64_t ph_total;		/* bytes it is to do, 0 unknown */
	size_t iv_cap;
	/* tree: the directories of the last file opened */
	uint64_t top_no, leaf_no;
	int top_fd, leaf_fd;
	/* what the stat walk found: file indexes in directory order */
	uint64_t *found;
	size_t nfound, found_cap;
	unsigned char *seen;		/* per planned file */
	bool walk_done;
	bool stop;			/* an error, a signal or --duration */
	bool sig_taken;			/* the signal stopped the writes */
	bool timed_out;			/* --duration stopped them */
	bool counting;			/* a phase runs: account to it */
	char prog_name[48];		/* tree: "create 1234 files" */
};

static double stress_fs_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int stress_fs_why(char *why, size_t len, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int stress_fs_why(char *why, size_t len, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return err;
}

static void stress_fs_message(struct stress_fs_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void stress_fs_message(struct stress_fs_ctx *c, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	if (!c->cfg->message)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	c->cfg->message(c->cfg->ctx, line);
}

/**
 * stress_fs_file_name() - the path of file @index below the run directory
 * @mode:  large: "largeNNNN.dat"; tree: "dTTT/dLL/fNNNNNNN.dat", 64 files
 *         a leaf directory, 16 leaves a top one
 * @index: the file's number, from 0
 * @buf:   destination
 * @len:   its size
 *
 * Return: 0, or -ENAMETOOLONG.
 */
int stress_fs_file_name(enum stress_fs_mode mode, uint64_t index,
			char *buf, size_t len)
{
	uint64_t leaf = index / STRESS_FS_PER_DIR;
	int n;

	if (mode == STRESS_FS_LARGE)
		n = snprintf(buf, len, "large%04" PRIu64 ".dat", index);
	else
		n = snprintf(buf, len, "d%03" PRIu64 "/d%02" PRIu64
			     "/f%07" PRIu64 ".dat", leaf / STRESS_FS_FANOUT,
			     leaf % STRESS_FS_FANOUT, index);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* The file's last component: after the last '/'. */
static const char *stress_fs_base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* The length file @i was written to (or is planned to be, on a crash). */
static uint64_t stress_fs_expected_len(const struct stress_fs_result *res,
				       uint64_t i)
{
	uint64_t start;

	if (i >= res->written_files)
		return 0;
	start = i * res->file_size;
	if (res->written_bytes <= start)
		return 0;
	return res->written_bytes - start < res->file_size ?
	       res->written_bytes - start : res->file_size;
}

static void stress_fs_error(struct stress_fs_ctx *c, const char *op,
			    uint64_t index, uint64_t offset, int err)
{
	struct stress_fs_result *res = c->res;
	struct stress_fs_error *e;
	char name[STRESS_FS_NAME_MAX] = "the run directory";

	res->errors_total++;
	if (c->counting && c->phase < res->nphases)
		res->phases[c->phase].errors++;
	if (index != UINT64_MAX)
		stress_fs_file_name(res->mode, index, name, sizeof(name));
	if (res->nerrors < STRESS_FS_MAX_ERRORS) {
		e = &res->errors[res->nerrors++];
		snprintf(e->op, sizeof(e->op), "%s", op);
		e->index = index;
		e->offset = offset;
		e->err = err;
	}
	if (res->errors_total <= 10)
		stress_fs_message(c, "%s %s at offset %" PRIu64 ": %s", op,
				  name, offset, strerror(err));
}

/*
 * A signal, for the loops to stop on.  One that stopped the writes has
 * been taken: what they wrote is then verified to the end (a second
 * signal ends the process, see cmd_stress.c).
 */
static bool stress_fs_interrupted(struct stress_fs_ctx *c)
{
	if (!c->res->interrupted && c->cfg->interrupt)
		c->res->interrupted = atomic_load(c->cfg->interrupt);
	return c->res->interrupted && !c->sig_taken;
}

/* ----- phases and intervals ----- */

static void stress_fs_phase_begin(struct stress_fs_ctx *c, const char *name,
				  bool write, uint64_t total)
{
	struct stress_fs_result *res = c->res;
	struct stress_fs_phase *p;

	if (res->nphases == STRESS_FS_MAX_PHASES)
		res->nphases--;		/* not reached: at most 7 */
	c->phase = res->nphases++;
	p = &res->phases[c->phase];
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->write = write;
	c->ph_start = c->iv_start = stress_fs_now();
	c->last_progress = 0;
	c->iv_bytes = c->iv_files = 0;
	c->ph_total = total;
	c->counting = true;
}

static void stress_fs_progress(struct stress_fs_ctx *c, double now,
			       bool final)
{
	const struct stress_fs_phase *p = &c->res->phases[c->phase];
	struct stress_progress pr = { 0 };
	double el = now - c->ph_start;

	if (!c->cfg->progress)
		return;
	if (!final && now - c->last_progress < STRESS_FS_PROGRESS_S)
		return;
	c->last_progress = now;
	pr.phase = p->name;
	if (c->res->mode == STRESS_FS_TREE) {
		snprintf(c->prog_name, sizeof(c->prog_name), "%s %" PRIu64
			 " files", p->name, p->files);
		pr.phase = c->prog_name;
	}
	pr.done = p->bytes;
	pr.total = c->ph_total;
	pr.elapsed = el;
	pr.rate = el > 0 ? (double)p->bytes / el : 0;
	pr.eta = c->ph_total && pr.rate > 0 && p->bytes <= c->ph_total ?
		 (double)(c->ph_total - p->bytes) / pr.rate : -1;
	pr.final = final;
	pr.interrupted = final && p->interrupted;
	c->cfg->progress(c->cfg->ctx, &pr);
}

/* The interval that ends at @now: kept, and logged. */
static void stress_fs_interval_end(struct stress_fs_ctx *c, double now)
{
	struct stress_fs_result *res = c->res;
	struct stress_interval *iv;

	if (now <= c->iv_start)
		return;
	if (res->nintervals == c->iv_cap) {
		if (c->iv_cap >= STRESS_MAX_INTERVALS) {
			res->nintervals = stress_intervals_merge(
				res->intervals, res->nintervals);
		} else {
			size_t cap = c->iv_cap ? c->iv_cap * 2 : 256;
			struct stress_interval *n;

			n = realloc(res->intervals, cap * sizeof(*n));
			if (!n)
				return;		/* the phase's sums stay */
			res->intervals = n;
			c->iv_cap = cap;
		}
	}
	iv = &res->intervals[res->nintervals++];
	memset(iv, 0, sizeof(*iv));
	iv->phase = (unsigned int)c->phase;
	iv->t = c->iv_start - c->t0;
	iv->secs = now - c->iv_start;
	iv->bytes = c->iv_bytes;
	iv->ios = c->iv_files;
	if (c->cfg->log)
		stress_fs_render_interval(c->cfg->log, res, iv);
	c->iv_start = now;
	c->iv_bytes = c->iv_files = 0;
}

static void stress_fs_account(struct stress_fs_ctx *c, uint64_t bytes,
			      uint64_t files)
{
	struct stress_fs_phase *p = &c->res->phases[c->phase];
	double now;

	if (!c->counting)
		return;
	now = stress_fs_now();
	p->bytes += bytes;
	p->files += files;
	c->iv_bytes += bytes;
	c->iv_files += files;
	if (now - c->iv_start >= c->cfg->interval_ms / 1000.0)
		stress_fs_interval_end(c, now);
	stress_fs_progress(c, now, false);
}

static void stress_fs_phase_end(struct stress_fs_ctx *c, bool completed)
{
	struct stress_fs_result *res = c->res;
	struct stress_fs_phase *p = &res->phases[c->phase];
	double now = stress_fs_now();
	bool *dip;
	size_t i;

	if (c->iv_bytes || c->iv_files)
		stress_fs_interval_end(c, now);
	c->counting = false;
	p->secs = now - c->ph_start;
	p->completed = completed;
	p->interrupted = !completed && res->interrupted;
	dip = calloc(res->nintervals ? res->nintervals : 1, sizeof(*dip));
	if (dip) {
		stress_flag_dips(res->intervals, res->nintervals,
				 (unsigned int)c->phase,
				 c->cfg->interval_ms / 1000.0, dip, &p->dips);
		for (i = 0; i < res->nintervals; i++)
			if (dip[i])
				res->intervals[i].dip = true;
		free(dip);
	}
	stress_fs_progress(c, now, true);
}

/* ----- directories ----- */

/* @name in @dirfd as a directory, never through a symlink. */
static int stress_fs_open_dir(int dirfd, const char *name, bool create)
{
	int fd;

	if (create && mkdirat(dirfd, name, 0755) && errno != EEXIST)
		return -errno;
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static void stress_fs_close_dirs(struct stress_fs_ctx *c)
{
	if (c->leaf_fd >= 0 && c->leaf_fd != c->root_fd)
		close(c->leaf_fd);
	if (c->top_fd >= 0)
		close(c->top_fd);
	c->leaf_fd = c->top_fd = -1;
	c->leaf_no = c->top_no = UINT64_MAX;
}

/*
 * The directory file @index is in, opened one component at a time with
 * O_NOFOLLOW (made with @create).  Return: its fd (the ctx's: do not
 * close it) or a negative errno.
 */
static int stress_fs_dir_of(struct stress_fs_ctx *c, uint64_t index,
			    bool create)
{
	uint64_t leaf = index / STRESS_FS_PER_DIR;
	uint64_t top = leaf / STRESS_FS_FANOUT;
	char name[24];
	int fd;

	if (c->res->mode == STRESS_FS_LARGE)
		return c->root_fd;
	if (c->leaf_fd >= 0 && c->leaf_no == leaf)
		return c->leaf_fd;
	if (c->top_no != top) {
		stress_fs_close_dirs(c);
		snprintf(name, sizeof(name), "d%03" PRIu64, top);
		fd = stress_fs_open_dir(c->root_fd, name, create);
		if (fd < 0)
			return fd;
		c->top_fd = fd;
		c->top_no = top;
	}
	if (c->leaf_fd >= 0)
		close(c->leaf_fd);
	c->leaf_fd = -1;
	c->leaf_no = UINT64_MAX;
	snprintf(name, sizeof(name), "d%02" PRIu64, leaf % STRESS_FS_FANOUT);
	fd = stress_fs_open_dir(c->top_fd, name, create);
	if (fd < 0)
		return fd;
	c->leaf_fd = fd;
	c->leaf_no = leaf;
	return fd;
}

/* File @index opened with @flags (O_NOFOLLOW added). */
static int stress_fs_open_file(struct stress_fs_ctx *c, uint64_t index,
			       int flags, mode_t mode)
{
	char name[STRESS_FS_NAME_MAX];
	int dfd, fd;

	dfd = stress_fs_dir_of(c, index, flags & O_CREAT);
	if (dfd < 0)
		return dfd;
	stress_fs_file_name(c->res->mode, index, name, sizeof(name));
	fd = openat(dfd, stress_fs_base(name), flags | O_NOFOLLOW | O_CLOEXEC,
		    mode);
	return fd < 0 ? -errno : fd;
}

/* ----- the manifest ----- */

static const char *stress_fs_mode_name(enum stress_fs_mode m)
{
	return m == STRESS_FS_LARGE ? "large" : "tree";
}

/*
 * The manifest: key-value lines padded to a fixed size, so the update at
 * the end rewrites blocks the file has (no space needed on a full disk).
 */
static int stress_fs_manifest_write(struct stress_fs_ctx *c, int fd,
				    bool done)
{
	const struct stress_fs_result *res = c->res;
	char text[STRESS_FS_MANIFEST_LEN];
	int n;

	memset(text, '\n', sizeof(text));
	n = snprintf(text, sizeof(text),
		     "usbtrail stress run directory: remove it with rm -r\n"
		     "version 1\nrun %016" PRIx64 "\nstart %" PRIu64
		     "\nmode %s\nfiles %" PRIu64 "\nfile_size %" PRIu64
		     "\nstride %" PRIu64 "\nsector %u\nstate %s\n"
		     "written_files %" PRIu64 "\nwritten_bytes %" PRIu64 "\n",
		     res->run_id, res->start_time,
		     stress_fs_mode_name(res->mode), res->files,
		     res->file_size, res->stride, STRESS_FS_SECTOR,
		     done ? "done" : "writing",
		     done ? res->written_files : res->files,
		     done ? res->written_bytes : res->files * res->file_size);
	if (n < 0 || (size_t)n >= sizeof(text))
		return -ENAMETOOLONG;
	text[n] = '\n';
	if (pwrite(fd, text, sizeof(text), 0) != (ssize_t)sizeof(text))
		return errno ? -errno : -EIO;
	return 0;
}

static int stress_fs_manifest_update(struct stress_fs_ctx *c)
{
	int fd, err;

	fd = openat(c->root_fd, STRESS_FS_MANIFEST,
		    O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	errno = 0;
	err = stress_fs_manifest_write(c, fd, true);
	if (!err && fsync(fd))
		err = -errno;
	close(fd);
	return err;
}

/*
 * Read the manifest in @dirfd, named @dirname, into @res.  Return: 0,
 * -ENOENT if there is none, -EINVAL if it is not a run's (the message
 * in @why).
 */
static int stress_fs_manifest_read(int dirfd, const char *dirname,
				   struct stress_fs_result *res, char *why,
				   size_t whylen)
{
	char text[STRESS_FS_MANIFEST_LEN + 1], mode[16] = "", state[16] = "";
	char want[64], base[PATH_MAX], *line, *save = NULL;
	uint64_t sector = 0, v;
	unsigned int have = 0;
	struct stat st;
	ssize_t n;
	int fd;

	fd = openat(dirfd, STRESS_FS_MANIFEST,
		    O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return stress_fs_why(why, whylen, -EINVAL,
				     "%s: its %s is not a file", dirname,
				     STRESS_FS_MANIFEST);
	}
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n < 0)
		return stress_fs_why(why, whylen, -errno, "%s/%s: %s",
				     dirname, STRESS_FS_MANIFEST,
				     strerror(errno));
	text[n] = '\0';
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "run %" SCNx64, &v) == 1) {
			res->run_id = v;
			have |= 1;
		} else if (sscanf(line, "start %" SCNu64, &v) == 1) {
			res->start_time = v;
			have |= 2;
		} else if (sscanf(line, "mode %15s", mode) == 1) {
			have |= 4;
		} else if (sscanf(line, "files %" SCNu64, &v) == 1) {
			res->files = v;
			have |= 8;
		} else if (sscanf(line, "file_size %" SCNu64, &v) == 1) {
			res->file_size = v;
			have |= 16;
		} else if (sscanf(line, "stride %" SCNu64, &v) == 1) {
			res->stride = v;
			have |= 32;
		} else if (sscanf(line, "sector %" SCNu64, &sector) == 1) {
			have |= 64;
		} else if (sscanf(line, "state %15s", state) == 1) {
			have |= 128;
		} else if (sscanf(line, "written_files %" SCNu64, &v) == 1) {
			res->written_files = v;
		} else if (sscanf(line, "written_bytes %" SCNu64, &v) == 1) {
			res->written_bytes = v;
		}
	}
	snprintf(want, sizeof(want), STRESS_FS_PREFIX "%016" PRIx64,
		 res->run_id);
	snprintf(base, sizeof(base), "%s", dirname);
	while (strlen(base) > 1 && base[strlen(base) - 1] == '/')
		base[strlen(base) - 1] = '\0';
	if (strncmp(text, "usbtrail stress run directory", 29) ||
	    have != 255 || sector != STRESS_FS_SECTOR ||
	    (strcmp(mode, "large") && strcmp(mode, "tree")) ||
	    !res->files || res->files > STRESS_FS_MAX_FILES ||
	    !res->file_size || res->stride < res->file_size ||
	    res->stride % STRESS_FS_SECTOR ||
	    res->written_files > res->files ||
	    res->written_bytes > res->files * res->file_size ||
	    strcmp(stress_fs_base(base), want))
		return stress_fs_why(why, whylen, -EINVAL,
			"%s is not a directory of usbtrail stress (its %s "
			"is not one a run wrote for it)", dirname,
			STRESS_FS_MANIFEST);
	res->mode = strcmp(mode, "large") ? STRESS_FS_TREE : STRESS_FS_LARGE;
	if (strcmp(state, "done")) {
		res->unfinished = true;
		res->written_files = res->files;
		res->written_bytes = res->files * res->file_size;
	}
	return 0;
}

/* ----- where the run goes ----- */

/* The filesystem DIR is on, from mountinfo: its type and source. */
static void stress_fs_mount_of(int fd, struct stress_fs_result *res)
{
	char line[4096], *sep;
	unsigned int maj, min;
	struct stat st;
	FILE *f;

	if (fstat(fd, &st))
		return;
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*u %*u %u:%u", &maj, &min) != 2 ||
		    maj != major(st.st_dev) || min != minor(st.st_dev))
			continue;
		sep = strstr(line, " - ");
		if (!sep)
			continue;
		/* a bind mount is listed again: the last one is on top */
		if (sscanf(sep, " - %31s %127s", res->fs_type,
			   res->fs_source) < 1)
			res->fs_type[0] = '\0';
	}
	fclose(f);
}

/*
 * A run directory under DIR for --verify-only: DIR itself when it holds a
 * manifest, else its one usbtrail-stress-* directory that does.
 */
static int stress_fs_find_run(struct stress_fs_ctx *c, char *why,
			      size_t whylen)
{
	struct stress_fs_result *res = c->res;
	char first[256] = "", self[PATH_MAX];
	unsigned int runs = 0;
	struct dirent *de;
	struct stat st;
	DIR *d;
	int fd, err;

	/* DIR itself: its real name ("." is no run's) */
	if (!realpath(c->cfg->dir, self))
		snprintf(self, sizeof(self), "%s", c->cfg->dir);
	err = stress_fs_manifest_read(c->parent_fd, self, res, why, whylen);
	if (!err) {
		c->root_fd = dup(c->parent_fd);
		snprintf(res->run_dir, sizeof(res->run_dir), ".");
		return c->root_fd < 0 ? -errno : 0;
	}
	if (err != -ENOENT)
		return err;
	fd = dup(c->parent_fd);
	d = fd < 0 ? NULL : fdopendir(fd);
	if (!d) {
		if (fd >= 0)
			close(fd);
		return stress_fs_why(why, whylen, -errno, "%s: %s",
				     c->cfg->dir, strerror(errno));
	}
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, STRESS_FS_PREFIX,
			    strlen(STRESS_FS_PREFIX)) ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISDIR(st.st_mode))
			continue;
		fd = stress_fs_open_dir(dirfd(d), de->d_name, false);
		if (fd < 0)
			continue;
		if (!faccessat(fd, STRESS_FS_MANIFEST, F_OK,
			       AT_SYMLINK_NOFOLLOW)) {
			if (!runs++)
				snprintf(first, sizeof(first), "%s",
					 de->d_name);
		}
		close(fd);
	}
	closedir(d);
	if (!runs)
		return stress_fs_why(why, whylen, -ENOENT,
			"%s: no usbtrail stress run in it (a directory "
			STRESS_FS_PREFIX "RUNID with a " STRESS_FS_MANIFEST
			"): nothing to verify", c->cfg->dir);
	if (runs > 1)
		return stress_fs_why(why, whylen, -EEXIST,
			"%s holds %u runs of usbtrail stress: name the one "
			"to verify, as %s/%s", c->cfg->dir, runs,
			c->cfg->dir, first);
	fd = stress_fs_open_dir(c->parent_fd, first, false);
	if (fd < 0)
		return stress_fs_why(why, whylen, fd, "%s/%s: %s",
				     c->cfg->dir, first, strerror(-fd));
	err = stress_fs_manifest_read(fd, first, res, why, whylen);
	if (err) {
		close(fd);
		return err;
	}
	c->root_fd = fd;
	snprintf(res->run_dir, sizeof(res->run_dir), "%s", first);
	return 0;
}

/* The plan of a writing run: sizes, checked against the free space. */
static int stress_fs_plan(struct stress_fs_ctx *c, char *why, size_t whylen)
{
	const struct stress_fs_config *cfg = c->cfg;
	struct stress_fs_result *res = c->res;
	char have[32], need[32];
	struct statvfs sv;
	uint64_t bs, per, total;

	if (fstatvfs(c->parent_fd, &sv))
		return stress_fs_why(why, whylen, -errno, "%s: %s", cfg->dir,
				     strerror(errno));
	bs = sv.f_bsize ? sv.f_bsize : 4096;
	res->free_before = (uint64_t)sv.f_bavail * sv.f_frsize;
	res->files = cfg->files ? cfg->files :
		     cfg->mode == STRESS_FS_LARGE ? STRESS_FS_LARGE_FILES :
		     STRESS_FS_TREE_FILES;
	if (cfg->mode == STRESS_FS_TREE) {
		res->file_size = cfg->file_size ? cfg->file_size :
				 STRESS_FS_TREE_FILE_SIZE;
	} else if (cfg->size) {
		res->file_size = cfg->size;
	} else {
		/* f3write's way: the free space, ENOSPC the expected end */
		res->fill = true;
		per = res->free_before > bs ? res->free_before - bs : 0;
		res->file_size = per / res->files;
		res->file_size -= res->file_size % STRESS_FS_SECTOR;
		if (res->file_size < STRESS_FS_SECTOR) {
			util_format_size(have, sizeof(have), res->free_before);
			return stress_fs_why(why, whylen, -ENOSPC,
				"%s has %s free: no room for a file to fill",
				cfg->dir, have);
		}
	}
	per = (res->file_size + bs - 1) / bs * bs;
	total = per * res->files + bs;
	if (!res->fill && total > res->free_before) {
		util_format_size(have, sizeof(have), res->free_before);
		util_format_size(need, sizeof(need), total);
		return stress_fs_why(why, whylen, -EFBIG,
			"%s has %s free, less than the %s the run needs "
			"(%" PRIu64 " file%s of %" PRIu64 " bytes); give a "
			"smaller %s or --files", cfg->dir, have, need,
			res->files, res->files == 1 ? "" : "s",
			res->file_size, cfg->mode == STRESS_FS_LARGE ?
			"--size" : "--file-size");
	}
	/* a gap sector between files: their bad ranges never merge */
	res->stride = (res->file_size + STRESS_FS_SECTOR - 1) /
		      STRESS_FS_SECTOR * STRESS_FS_SECTOR + STRESS_FS_SECTOR;
	res->block = cfg->block ? cfg->block : STRESS_FS_BLOCK;
	return 0;
}

/* mkdirat() of a new usbtrail-stress-RUNID, and its manifest. */
static int stress_fs_make_run_dir(struct stress_fs_ctx *c, char *why,
				  size_t whylen)
{
	struct stress_fs_result *res = c->res;
	unsigned int tries;
	int fd, err;

	if (!faccessat(c->parent_fd, STRESS_FS_MANIFEST, F_OK,
		       AT_SYMLINK_NOFOLLOW))
		return stress_fs_why(why, whylen, -EEXIST,
			"%s is the directory of a run of usbtrail stress: "
			"give the directory it is in (or --verify-only)",
			c->cfg->dir);
	for (tries = 0; ; tries++) {
		if (getrandom(&res->run_id, sizeof(res->run_id), 0) !=
		    sizeof(res->run_id))
			return stress_fs_why(why, whylen, -EIO,
					     "getrandom: %s", strerror(errno));
		snprintf(res->run_dir, sizeof(res->run_dir),
			 STRESS_FS_PREFIX "%016" PRIx64, res->run_id);
		if (!mkdirat(c->parent_fd, res->run_dir, 0755))
			break;
		/* a name that exists is someone's: never reused */
		if (errno != EEXIST || tries == 4)
			return stress_fs_why(why, whylen, -errno,
				"%s: cannot create a directory in it: %s",
				c->cfg->dir, strerror(errno));
	}
	c->root_fd = stress_fs_open_dir(c->parent_fd, res->run_dir, false);
	if (c->root_fd < 0) {
		err = c->root_fd;
		unlinkat(c->parent_fd, res->run_dir, AT_REMOVEDIR);
		return stress_fs_why(why, whylen, err, "%s/%s: %s",
				     c->cfg->dir, res->run_dir, strerror(-err));
	}
	res->start_time = (uint64_t)time(NULL);
	fd = openat(c->root_fd, STRESS_FS_MANIFEST, O_WRONLY | O_CREAT |
		    O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	errno = 0;
	err = fd < 0 ? -errno : stress_fs_manifest_write(c, fd, false);
	if (fd >= 0)
		close(fd);
	if (err) {
		unlinkat(c->root_fd, STRESS_FS_MANIFEST, 0);
		close(c->root_fd);
		c->root_fd = -1;
		unlinkat(c->parent_fd, res->run_dir, AT_REMOVEDIR);
		return stress_fs_why(why, whylen, err,
			"%s: cannot write in it: %s", c->cfg->dir,
			strerror(-err));
	}
	return 0;
}

/* ----- writing ----- */

/* Whether the write phase is to stop: an error, a signal, --duration. */
static bool stress_fs_write_stops(struct stress_fs_ctx *c)
{
	if (c->stop || stress_fs_interrupted(c))
		return true;
	if (c->cfg->duration > 0 &&
	    stress_fs_now() - c->ph_start >= c->cfg->duration)
		c->stop = c->timed_out = true;
	return c->stop;
}

/* A write error: ENOSPC is the end of a fill, an error otherwise. */
static void stress_fs_write_error(struct stress_fs_ctx *c, const char *op,
				  uint64_t i, uint64_t off, int err)
{
	c->stop = true;
	if (err == ENOSPC || err == EDQUOT)
		c->res->enospc = true;
	if (err == ENOSPC && c->res->fill)
		return;
	stress_fs_error(c, op, i, off, err);
}

/* File @i in the pattern: created, written, closed. */
static void stress_fs_write_file(struct stress_fs_ctx *c, uint64_t i)
{
	struct stress_fs_result *res = c->res;
	uint64_t pos = 0, len = res->file_size, base = i * res->stride;
	int fd;

	fd = stress_fs_open_file(c, i, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0) {
		stress_fs_write_error(c, "create", i, 0, -fd);
		return;
	}
	res->written_files++;
	while (pos < len) {
		size_t n = len - pos < c->buflen ? (size_t)(len - pos) :
			   c->buflen;
		size_t fill = (n + STRESS_FS_SECTOR - 1) / STRESS_FS_SECTOR *
			      STRESS_FS_SECTOR;
		size_t done = 0;
		int err;

		pattern_fill(c->run, c->buf, fill, base + pos);
		err = util_write_all(fd, c->buf, n, &done);
		pos += done;
		res->written_bytes += done;
		stress_fs_account(c, done, 0);
		if (err) {
			stress_fs_write_error(c, "write", i, pos, -err);
			break;
		}
		if (res->mode == STRESS_FS_LARGE && stress_fs_write_stops(c))
			break;
	}
	if (close(fd) && !c->stop)
		stress_fs_write_error(c, "close", i, pos, errno);
	if (pos == len)
		stress_fs_account(c, 0, 1);
}

/*
 * Drop file @i's pages (it was synced) and count how many stay resident:
 * POSIX_FADV_DONTNEED is advice, and a page still dirty or mapped stays.
 */
static void stress_fs_drop(struct stress_fs_ctx *c, int fd, uint64_t len)
{
	struct stress_fs_result *res = c->res;
	long pg = sysconf(_SC_PAGESIZE);
	uint64_t npages, k;
	unsigned char *vec;
	void *map;
	int err;

	err = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (err && !res->fadvise_err)
		res->fadvise_err = err;
	if (!len || pg <= 0)
		return;
	npages = (len + (uint64_t)pg - 1) / (uint64_t)pg;
	map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	vec = map == MAP_FAILED ? NULL : malloc(npages);
	if (!vec || mincore(map, len, vec)) {
		if (!res->mincore_err)
			res->mincore_err = vec ? errno : ENOMEM;
	} else {
		res->cache_pages += npages;
		for (k = 0; k < npages; k++)
			res->cache_resident += vec[k] & 1;
	}
	free(vec);
	if (map != MAP_FAILED)
		munmap(map, len);
}

/* An fsync or syncfs failure; ENOSPC the end of a fill. */
static void stress_fs_sync_error(struct stress_fs_ctx *c, const char *op,
				 uint64_t i, int err)
{
	if (err == ENOSPC || err == EDQUOT)
		c->res->enospc = true;
	if (err != ENOSPC || !c->res->fill)
		stress_fs_error(c, op, i, 0, err);
}

/*
 * fsync (large: each file) or syncfs (tree), then the pages dropped.  The
 * phase's time is that of the fsyncs (or the syncfs) alone; the drop and
 * its check are not timed.  Then the sum of both phases, as a user times
 * "cp && sync".
 */
static void stress_fs_sync(struct stress_fs_ctx *c)
{
	struct stress_fs_result *res = c->res;
	struct stress_fs_phase *p, *w = &res->phases[c->phase];
	double t, busy = 0;
	uint64_t i;
	int fd;

	stress_fs_phase_begin(c, res->mode == STRESS_FS_LARGE ? "fsync" :
			      "sync", true, 0);
	p = &res->phases[c->phase];
	if (res->mode == STRESS_FS_TREE) {
		t = stress_fs_now();
		if (syncfs(c->root_fd))
			stress_fs_sync_error(c, "syncfs", UINT64_MAX, errno);
		busy = stress_fs_now() - t;
	}
	for (i = 0; i < res->written_files; i++) {
		fd = stress_fs_open_file(c, i, O_RDONLY, 0);
		if (fd < 0) {
			stress_fs_error(c, "open", i, 0, -fd);
			continue;
		}
		if (res->mode == STRESS_FS_LARGE) {
			t = stress_fs_now();
			if (fsync(fd))
				stress_fs_sync_error(c, "fsync", i, errno);
			busy += stress_fs_now() - t;
		}
		stress_fs_drop(c, fd, stress_fs_expected_len(res, i));
		close(fd);
	}
	stress_fs_close_dirs(c);
	p->files = res->written_files;
	p->bytes = res->written_bytes;
	stress_fs_phase_end(c, true);
	p->secs = busy;

	stress_fs_phase_begin(c, res->mode == STRESS_FS_LARGE ?
			      "write+fsync" : "create+sync", true, 0);
	p = &res->phases[c->phase];
	p->total = true;
	p->files = w->files;
	p->bytes = w->bytes;
	p->secs = w->secs + busy;
	p->errors = w->errors + res->phases[c->phase - 1].errors;
	p->completed = w->completed;
	p->interrupted = w->interrupted;
	c->counting = false;
}

/*
 * A signal during the writes or the sync stops the writes; what they
 * wrote is then verified, whole: one during the read-back stops that.
 */
static void stress_fs_take_signal(struct stress_fs_ctx *c)
{
	struct stress_fs_result *res = c->res;
	char sig[24];

	if (!stress_fs_interrupted(c))
		return;
	c->sig_taken = true;
	stress_signal_name(res->interrupted, sig, sizeof(sig));
	stress_fs_message(c, "interrupted by %s: verifying the %" PRIu64
			  " bytes written (a second signal ends it at once)",
			  sig, res->written_bytes);
}

static void stress_fs_write(struct stress_fs_ctx *c)
{
	struct stress_fs_result *res = c->res;
	uint64_t i;

	stress_fs_phase_begin(c, res->mode == STRESS_FS_LARGE ? "write" :
			      "create", true, res->files * res->file_size);
	for (i = 0; i < res->files && !stress_fs_write_stops(c); i++)
		stress_fs_write_file(c, i);
	stress_fs_close_dirs(c);
	/* --duration's end is the end the user asked for, ENOSPC a fill's */
	stress_fs_phase_end(c, res->interrupted ? false :
			    res->written_bytes == res->files * res->file_size ||
			    ((c->timed_out || (res->fill && res->enospc)) &&
			     !res->errors_total));
	stress_fs_take_signal(c);
	if (res->enospc && res->fill)
		stress_fs_message(c, "the filesystem is full after %" PRIu64
				  " bytes: the fill ends here",
				  res->written_bytes);
}

/* ----- the walk: ls -lR ----- */

static void stress_fs_extra(struct stress_fs_ctx *c, const char *path)
{
	struct stress_fs_result *res = c->res;

	if (res->nextra < STRESS_FS_MAX_EXTRA)
		util_copy(res->extra[res->nextra++], sizeof(res->extra[0]),
			  path, strlen(path));
	res->extra_total++;
}

/* Whether @path is the name of one of our files; its index in @index. */
static bool stress_fs_ours(const struct stress_fs_result *res,
			   const char *path, uint64_t *index)
{
	char want[STRESS_FS_NAME_MAX];
	const char *base = stress_fs_base(path);
	uint64_t i;

	if (res->mode == STRESS_FS_LARGE) {
		if (sscanf(base, "large%" SCNu64, &i) != 1)
			return false;
	} else if (sscanf(base, "f%" SCNu64, &i) != 1) {
		return false;
	}
	if (i >= res->files ||
	    stress_fs_file_name(res->mode, i, want, sizeof(want)) ||
	    strcmp(want, path))
		return false;
	*index = i;
	return true;
}

static void stress_fs_found(struct stress_fs_ctx *c, uint64_t i)
{
	if (c->nfound == c->found_cap) {
		size_t cap = c->found_cap ? c->found_cap * 2 : 1024;
		uint64_t *n = realloc(c->found, cap * sizeof(*n));

		if (!n)
			return;
		c->found = n;
		c->found_cap = cap;
	}
	c->found[c->nfound++] = i;
	c->seen[i] = 1;
}

/* Every entry below @fd (@path from the run dir) lstat'ed, as ls -lR. */
static void stress_fs_walk_dir(struct stress_fs_ctx *c, int fd,
			       const char *path, int depth)
{
	char sub[PATH_MAX];
	struct dirent *de;
	struct stat st;
	uint64_t i;
	DIR *d;
	int cfd;

	d = fdopendir(fd);
	if (!d) {
		stress_fs_error(c, "opendir", UINT64_MAX, 0, errno);
		close(fd);
		return;
	}
	while (!stress_fs_interrupted(c) && (errno = 0, de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "/" : "",
			 de->d_name);
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW)) {
			stress_fs_error(c, "stat", UINT64_MAX, 0, errno);
			continue;
		}
		stress_fs_account(c, 0, 1);
		if (S_ISDIR(st.st_mode) && depth < STRESS_FS_MAX_DEPTH) {
			cfd = stress_fs_open_dir(dirfd(d), de->d_name, false);
			if (cfd >= 0)
				stress_fs_walk_dir(c, cfd, sub, depth + 1);
			continue;
		}
		if (!depth && !strcmp(de->d_name, STRESS_FS_MANIFEST))
			continue;
		if (S_ISDIR(st.st_mode))
			stress_fs_extra(c, sub);
		else if (S_ISREG(st.st_mode) && stress_fs_ours(c->res, sub, &i))
			stress_fs_found(c, i);
		else
			stress_fs_extra(c, sub);
	}
	if (errno && !stress_fs_interrupted(c))
		stress_fs_error(c, "readdir", UINT64_MAX, 0, errno);
	closedir(d);
}

/* The stat walk; a phase of its own in the tree mode (ls -lR). */
static void stress_fs_walk(struct stress_fs_ctx *c, bool timed)
{
	int fd = dup(c->root_fd);

	c->seen = calloc(c->res->files, 1);
	if (!c->seen || fd < 0) {
		if (fd >= 0)
			close(fd);
		stress_fs_error(c, "walk", UINT64_MAX, 0, ENOMEM);
		return;
	}
	if (timed)
		stress_fs_phase_begin(c, "stat", false, 0);
	/* the fd's offset is shared with root_fd's: rewound for reuse */
	lseek(fd, 0, SEEK_SET);
	stress_fs_walk_dir(c, fd, "", 0);
	lseek(c->root_fd, 0, SEEK_SET);
	c->walk_done = !stress_fs_interrupted(c);
	if (timed)
		stress_fs_phase_end(c, c->walk_done);
}

/* ----- reading back ----- */

static void stress_fs_bad(struct stress_fs_ctx *c, const struct stress_fs_bad *b)
{
	struct stress_fs_result *res = c->res;

	res->problems[b->problem]++;
	res->bad_total++;
	if (res->nbad < STRESS_FS_MAX_BAD)
		res->bad[res->nbad++] = *b;
}

/* A tail shorter than a sector: the start of its sector's pattern. */
static uint64_t stress_fs_check_tail(struct stress_fs_ctx *c,
				     const unsigned char *p, size_t n,
				     uint64_t off)
{
	unsigned char want[STRESS_FS_SECTOR] __attribute__((aligned(64)));
	struct verify_sector vs = { .cls = VERIFY_OK };
	unsigned int bits = 0;
	bool zero = true;
	size_t k;

	pattern_fill(c->run, want, sizeof(want), off);
	for (k = 0; k < n; k++) {
		bits += (unsigned int)__builtin_popcount(p[k] ^ want[k]);
		zero = zero && !p[k];
	}
	if (bits)
		vs.cls = zero ? VERIFY_ZEROED :
			 bits <= n * 8 / VERIFY_CHANGED_DIVISOR ?
			 VERIFY_CHANGED : VERIFY_GARBAGE;
	vs.bits = vs.cls == VERIFY_CHANGED ? bits : 0;
	c->rep->sectors[vs.cls]++;
	verify_report_add(c->rep, off, n, &vs);
	return vs.cls != VERIFY_OK;
}

/* What the report of file @i says of it. */
static void stress_fs_judge(struct stress_fs_ctx *c, uint64_t i,
			    uint64_t size, uint64_t want)
{
	struct stress_fs_result *res = c->res;
	const struct verify_report *rep = c->rep;
	struct stress_fs_bad b = { .index = i, .size = size };
	const struct verify_range *r = rep->ranges;
	uint64_t base = i * res->stride, run_size = res->files * res->stride;
	size_t k;

	for (k = 0; k < VERIFY_NR_CLASSES; k++)
		res->sectors[k] += rep->sectors[k];
	res->bytes_checked += rep->bytes_checked;
	if (rep->nranges) {
		b.offset = r->start - base;
		b.cls = r->cls;
		b.bits = r->bits;
		b.ranges = rep->nranges + rep->ranges_dropped;
		for (k = 0; k < rep->nranges; k++)
			b.bad_bytes += rep->ranges[k].end - rep->ranges[k].start;
		b.problem = STRESS_FS_CHANGED;
		if (r->cls == VERIFY_OVERWRITTEN &&
		    r->first.found_offset < run_size &&
		    r->first.found_offset / res->stride != i) {
			b.problem = STRESS_FS_MISPLACED;
			b.claims = r->first.found_offset / res->stride;
		}
	} else if (size < want) {
		b.problem = STRESS_FS_SHORT;
		b.offset = size;
	} else if (size > want) {
		b.problem = STRESS_FS_LONG;
		b.offset = want;
	} else {
		return;
	}
	stress_fs_bad(c, &b);
}

/* Read file @i back as cat does, verifying; false when stopped. */
static bool stress_fs_read_file(struct stress_fs_ctx *c, uint64_t i)
{
	struct stress_fs_result *res = c->res;
	uint64_t want = stress_fs_expected_len(res, i), pos = 0, size;
	uint64_t base = i * res->stride;
	struct stress_fs_bad b = { .index = i };
	struct stat st;
	int fd;

	fd = stress_fs_open_file(c, i, O_RDONLY, 0);
	if (fd < 0 || fstat(fd, &st)) {
		b.err = fd < 0 ? -fd : errno;
		b.problem = STRESS_FS_UNREADABLE;
		stress_fs_error(c, "open", i, 0, b.err);
		stress_fs_bad(c, &b);
		if (fd >= 0)
			close(fd);
		return true;
	}
	verify_report_init(c->rep);
	size = (uint64_t)st.st_size;
	while (pos < size) {
		size_t n = size - pos < c->buflen ? (size_t)(size - pos) :
			   c->buflen;
		ssize_t got = 0;
		size_t have = 0, v, full;

		while (have < n) {
			got = read(fd, c->buf + have, n - have);
			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0)
				break;
			have += (size_t)got;
		}
		if (got < 0) {
			b.err = errno;
			b.problem = STRESS_FS_UNREADABLE;
			b.offset = pos + have;
			stress_fs_error(c, "read", i, pos + have, b.err);
			stress_fs_bad(c, &b);
			close(fd);
			return true;
		}
		/* only what was written is checked; the rest is LONG */
		v = pos >= want ? 0 : want - pos < have ? (size_t)(want - pos) :
		    have;
		full = v / STRESS_FS_SECTOR * STRESS_FS_SECTOR;
		if (full)
			verify_buffer(c->run, c->scratch, c->buf, full,
				      base + pos, c->rep);
		if (v > full)
			stress_fs_check_tail(c, c->buf + full, v - full,
					     base + pos + full);
		stress_fs_account(c, have, 0);
		pos += have;
		if (have < n) {
			size = pos;	/* shrank while read */
			break;
		}
		if (stress_fs_interrupted(c)) {
			close(fd);
			return false;
		}
	}
	close(fd);
	stress_fs_account(c, 0, 1);
	res->files_checked++;
	stress_fs_judge(c, i, size, want);
	return true;
}

/* Bad files by index: the order they were written in. */
static int stress_fs_bad_cmp(const void *a, const void *b)
{
	const struct stress_fs_bad *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

static void stress_fs_read(struct stress_fs_ctx *c)
{
	struct stress_fs_result *res = c->res;
	struct stress_fs_bad b = { .problem = STRESS_FS_MISSING };
	uint64_t total = 0, i;
	bool whole = true;
	size_t k;

	for (k = 0; k < c->nfound; k++)
		total += stress_fs_expected_len(res, c->found[k]);
	stress_fs_phase_begin(c, "read", false, total);
	for (k = 0; k < c->nfound && whole; k++)
		whole = stress_fs_read_file(c, c->found[k]) &&
			!stress_fs_interrupted(c);
	stress_fs_close_dirs(c);
	stress_fs_phase_end(c, whole);
	if (!c->walk_done)
		return;
	/* a file we wrote that the walk did not find */
	for (i = 0; i < res->written_files; i++) {
		if (c->seen[i])
			continue;
		b.index = i;
		stress_fs_bad(c, &b);
	}
	qsort(res->bad, res->nbad, sizeof(res->bad[0]), stress_fs_bad_cmp);
}

/* ----- clean-up ----- */

/*
 * Unlink what this run made, by name; then rmdir its directories, which
 * fails, and keeps them, if someone put anything else in there.
 */
static void stress_fs_remove(struct stress_fs_ctx *c)
{
	struct stress_fs_result *res = c->res;
	char name[STRESS_FS_NAME_MAX], sub[24];
	uint64_t i, leaves, top;
	int dfd, fd, err = 0;

	stress_fs_phase_begin(c, "remove", true, 0);
	for (i = 0; i < res->written_files; i++) {
		dfd = stress_fs_dir_of(c, i, false);
		if (dfd < 0)
			continue;
		stress_fs_file_name(res->mode, i, name, sizeof(name));
		if (!unlinkat(dfd, stress_fs_base(name), 0))
			stress_fs_account(c, 0, 1);
	}
	stress_fs_close_dirs(c);
	if (res->mode == STRESS_FS_TREE && res->written_files) {
		leaves = (res->written_files - 1) / STRESS_FS_PER_DIR + 1;
		for (top = 0; top * STRESS_FS_FANOUT < leaves; top++) {
			snprintf(name, sizeof(name), "d%03" PRIu64, top);
			dfd = stress_fs_open_dir(c->root_fd, name, false);
			for (i = 0; dfd >= 0 && i < STRESS_FS_FANOUT; i++) {
				snprintf(sub, sizeof(sub), "d%02" PRIu64, i);
				if (unlinkat(dfd, sub, AT_REMOVEDIR) &&
				    errno != ENOENT && !err)
					err = errno;
			}
			if (dfd >= 0)
				close(dfd);
			if (unlinkat(c->root_fd, name, AT_REMOVEDIR) &&
			    errno != ENOENT && !err)
				err = errno;
		}
	}
	unlinkat(c->root_fd, STRESS_FS_MANIFEST, 0);
	close(c->root_fd);
	c->root_fd = -1;
	if (unlinkat(c->parent_fd, res->run_dir, AT_REMOVEDIR)) {
		res->remove_err = err ? err : errno;
		/* its manifest back: what is left is still known as ours */
		dfd = stress_fs_open_dir(c->parent_fd, res->run_dir, false);
		if (dfd >= 0) {
			c->root_fd = dfd;
			fd = openat(dfd, STRESS_FS_MANIFEST, O_WRONLY |
				    O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
				    0644);
			if (fd >= 0) {
				stress_fs_manifest_write(c, fd, true);
				close(fd);
			}
		}
	} else {
		res->removed = true;
	}
	stress_fs_phase_end(c, res->removed);
}

/* ----- the run ----- */

/* posix_memalign(): any size, where aligned_alloc() wants multiples. */
static void *stress_fs_memalign(size_t align, size_t len)
{
	void *p;

	return posix_memalign(&p, align, len) ? NULL : p;
}

static int stress_fs_alloc(struct stress_fs_ctx *c)
{
	struct stress_fs_result *res = c->res;
	int err;

	c->run = stress_fs_memalign(64, sizeof(*c->run));
	c->scratch = stress_fs_memalign(64, sizeof(*c->scratch));
	c->rep = malloc(sizeof(*c->rep));
	c->buflen = res->block ? res->block : STRESS_FS_BLOCK;
	c->buf = stress_fs_memalign(4096, c->buflen);
	if (!c->run || !c->scratch || !c->rep || !c->buf)
		return -ENOMEM;
	err = pattern_run_init(c->run, res->run_id, STRESS_FS_GENERATION,
			       STRESS_FS_SECTOR, res->files * res->stride,
			       res->start_time);
	verify_report_init(c->rep);
	return err;
}

static void stress_fs_ctx_free(struct stress_fs_ctx *c)
{
	stress_fs_close_dirs(c);
	if (c->root_fd >= 0)
		close(c->root_fd);
	if (c->parent_fd >= 0)
		close(c->parent_fd);
	free(c->run);
	free(c->scratch);
	free(c->rep);
	free(c->buf);
	free(c->found);
	free(c->seen);
}

/**
 * stress_fs_run() - write (or with verify_only find) a run in @cfg->dir
 * and verify it
 * @cfg:    what to run
 * @res:    zeroed by the caller; free its parts with stress_fs_result_free()
 * @why:    the reason it could not start, for the user
 * @whylen: its size
 *
 * Return: 0 when the run happened (its errors are in @res), or a negative
 * errno when it could not start (nothing was written then).
 */
int stress_fs_run(const struct stress_fs_config *cfg,
		  struct stress_fs_result *res, char *why, size_t whylen)
{
	struct stress_fs_ctx c = {
		.cfg = cfg, .res = res, .parent_fd = -1, .root_fd = -1,
		.top_fd = -1, .leaf_fd = -1, .top_no = UINT64_MAX,
		.leaf_no = UINT64_MAX,
	};
	int err;

	snprintf(res->dir, sizeof(res->dir), "%s", cfg->dir);
	res->mode = cfg->mode;
	c.t0 = stress_fs_now();
	c.parent_fd = open(cfg->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c.parent_fd < 0) {
		err = -errno;
		stress_fs_ctx_free(&c);
		return stress_fs_why(why, whylen, err, "%s: %s", cfg->dir,
				     strerror(-err));
	}
	stress_fs_mount_of(c.parent_fd, res);
	if (cfg->verify_only) {
		err = stress_fs_find_run(&c, why, whylen);
		res->block = cfg->block ? cfg->block : STRESS_FS_BLOCK;
		res->kept = true;
	} else {
		err = stress_fs_plan(&c, why, whylen);
		if (!err)
			err = stress_fs_make_run_dir(&c, why, whylen);
	}
	if (!err) {
		err = stress_fs_alloc(&c);
		if (err) {
			stress_fs_why(why, whylen, err, "%s", strerror(-err));
			if (!cfg->verify_only) {
				stress_fs_remove(&c);
				res->nphases = 0;
			}
		}
	}
	if (err) {
		stress_fs_ctx_free(&c);
		return err;
	}

	if (!cfg->verify_only) {
		stress_fs_write(&c);
		stress_fs_sync(&c);
		stress_fs_take_signal(&c);
		err = stress_fs_manifest_update(&c);
		if (err)
			stress_fs_error(&c, "manifest", UINT64_MAX, 0, -err);
	}
	stress_fs_walk(&c, res->mode == STRESS_FS_TREE);
	stress_fs_read(&c);
	if (cfg->keep || cfg->verify_only)
		res->kept = true;
	else
		stress_fs_remove(&c);
	res->secs = stress_fs_now() - c.t0;
	stress_fs_ctx_free(&c);
	return 0;
}

void stress_fs_result_free(struct stress_fs_result *res)
{
	if (!res)
		return;
	free(res->intervals);
	res->intervals = NULL;
	res->nintervals = 0;
}

/* Whether anything went wrong: errors, bad or missing files, no space. */
bool stress_fs_failed(const struct stress_fs_result *res)
{
	return res->errors_total || res->bad_total ||
	       (res->enospc && (!res->fill || !res->written_bytes));
}
