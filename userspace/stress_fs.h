/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stress_fs.h - "usbtrail stress DIR": the copies users time on a mounted
 * filesystem, in files that say what they hold.
 *
 * Two modes, each in a directory of its own that the run creates in DIR
 * (usbtrail-stress-RUNID, with a manifest .usbtrail-stress):
 *   large  one or more files of --size written through the page cache,
 *          fsync'd, their pages dropped, read back and verified (pv, cp)
 *   tree   N small files in nested directories: create, sync, stat walk
 *          (ls -lR), read all in directory order (find -exec cat)
 * Every 512-byte sector of every file carries the pattern header of
 * pattern.h at the offset index * stride + offset in file, so a file
 * renamed over another, or swapped with it, names the one it belongs to.
 */
#ifndef USBTRAIL_STRESS_FS_H
#define USBTRAIL_STRESS_FS_H

#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "stress.h"
#include "verify.h"

enum stress_fs_mode {
	STRESS_FS_LARGE,
	STRESS_FS_TREE,
};

#define STRESS_FS_SECTOR	512u
#define STRESS_FS_PREFIX	"usbtrail-stress-"
#define STRESS_FS_MAX_DEPTH	8	/* of the walk, below the run dir */
#define STRESS_FS_NAME_MAX	64
#define STRESS_FS_MANIFEST	".usbtrail-stress"
#define STRESS_FS_MANIFEST_LEN	512u	/* fixed: rewritten in place */
#define STRESS_FS_PER_DIR	64u	/* tree: files in a leaf directory */
#define STRESS_FS_FANOUT	16u	/* tree: leaf directories per top one */
#define STRESS_FS_MAX_FILES	1000000u
#define STRESS_FS_MAX_FILE_SIZE	(64ull << 20)	/* tree */
#define STRESS_FS_LARGE_FILES	1u		/* defaults */
#define STRESS_FS_TREE_FILES	10000u
#define STRESS_FS_TREE_FILE_SIZE 4096u
#define STRESS_FS_BLOCK		(1u << 20)
#define STRESS_FS_MAX_PHASES	8
#define STRESS_FS_MAX_BAD	1024	/* bad files kept; all are counted */
#define STRESS_FS_MAX_ERRORS	32
#define STRESS_FS_MAX_EXTRA	16	/* names of unknown files kept */

/* What a bad file is, worst first. */
enum stress_fs_problem {
	STRESS_FS_OK,
	STRESS_FS_MISSING,	/* expected, not there */
	STRESS_FS_UNREADABLE,	/* open or read failed */
	STRESS_FS_MISPLACED,	/* holds another file's data */
	STRESS_FS_CHANGED,	/* its data differs from what was written */
	STRESS_FS_SHORT,	/* shorter than written (the rest is good) */
	STRESS_FS_LONG,		/* longer than written (the rest is good) */
	STRESS_FS_NR_PROBLEMS,
};

struct stress_fs_config {
	const char *dir;
	enum stress_fs_mode mode;
	uint64_t size;		/* large: per file; 0 fills the free space */
	unsigned int files;	/* 0: the mode's default */
	uint64_t file_size;	/* tree: 0 is STRESS_FS_TREE_FILE_SIZE */
	uint32_t block;		/* bytes per read()/write(); 0: 1 MiB */
	double duration;	/* stop writing after it; 0: none */
	unsigned int interval_ms;
	bool keep;
	bool verify_only;
	const atomic_int *interrupt;	/* as stress_config's */
	void (*progress)(void *ctx, const struct stress_progress *p);
	void (*message)(void *ctx, const char *line);
	void *ctx;
	FILE *log;		/* --log, or NULL */
};

struct stress_fs_phase {
	char name[16];		/* write, fsync, read, create, sync, ... */
	bool write;
	bool total;		/* write+fsync: a sum of two others */
	uint64_t files;
	uint64_t bytes;
	double secs;
	unsigned int dips;
	unsigned int errors;
	bool completed;
	bool interrupted;
};

struct stress_fs_bad {
	uint64_t index;
	enum stress_fs_problem problem;
	uint64_t claims;	/* MISPLACED: the index its data names */
	uint64_t offset;	/* first bad byte in the file */
	uint64_t bad_bytes;
	uint64_t size;		/* found (SHORT, LONG) */
	enum verify_class cls;	/* of the first bad byte */
	uint64_t bits;		/* CHANGED: in its first range */
	size_t ranges;		/* bad ranges in the file */
	int err;		/* UNREADABLE: errno */
};

struct stress_fs_error {
	char op[16];		/* create, write, fsync, read, ... */
	uint64_t index;		/* file, or UINT64_MAX for the directory */
	uint64_t offset;
	int err;		/* positive errno */
};

struct stress_fs_result {
	enum stress_fs_mode mode;
	char dir[PATH_MAX];		/* as given */
	char run_dir[64];		/* its name, in dir */
	char fs_type[32];		/* from mountinfo, "" unknown */
	char fs_source[128];
	uint64_t run_id;
	uint64_t start_time;
	uint64_t files;			/* planned */
	uint64_t file_size;		/* planned, per file */
	uint64_t stride;		/* pattern offsets per file */
	uint32_t block;
	bool fill;			/* large without --size */
	bool unfinished;		/* verify-only: its run did not end */
	uint64_t free_before;		/* bytes statvfs gave */

	size_t nphases;
	struct stress_fs_phase phases[STRESS_FS_MAX_PHASES];
	size_t nintervals;
	struct stress_interval *intervals;	/* .ios: files */

	/* what the write phase did */
	uint64_t written_files;		/* created, whole or not */
	uint64_t written_bytes;
	bool enospc;			/* the filesystem was full */
	/* the page cache after fsync + POSIX_FADV_DONTNEED */
	uint64_t cache_pages;
	uint64_t cache_resident;
	int fadvise_err;		/* its first failure, positive */
	int mincore_err;

	/* the read-back */
	uint64_t files_checked;
	uint64_t bytes_checked;
	uint64_t problems[STRESS_FS_NR_PROBLEMS];
	uint64_t sectors[VERIFY_NR_CLASSES];
	uint64_t bad_total;
	size_t nbad;
	struct stress_fs_bad bad[STRESS_FS_MAX_BAD];
	uint64_t extra_total;		/* entries that are none of ours */
	size_t nextra;
	char extra[STRESS_FS_MAX_EXTRA][64];

	uint64_t errors_total;
	size_t nerrors;
	struct stress_fs_error errors[STRESS_FS_MAX_ERRORS];

	bool kept;			/* --keep or --verify-only */
	bool removed;			/* the run directory is gone */
	int remove_err;			/* why not, positive */
	int interrupted;		/* the signal, or 0 */
	double secs;
};

const char *stress_fs_problem_name(enum stress_fs_problem p);
int stress_fs_file_name(enum stress_fs_mode mode, uint64_t index,
			char *buf, size_t len);
int stress_fs_run(const struct stress_fs_config *cfg,
		  struct stress_fs_result *res, char *why, size_t whylen);
void stress_fs_result_free(struct stress_fs_result *res);
bool stress_fs_failed(const struct stress_fs_result *res);

/* stress_fs_render.c */
void stress_fs_render_text(const struct stress_fs_result *res,
			   bool verify_only, const char *result);
void stress_fs_render_json(const struct stress_fs_result *res,
			   bool verify_only, const char *result);
void stress_fs_render_interval(FILE *log, const struct stress_fs_result *res,
			       const struct stress_interval *iv);

/*
 * cmd_stress_fs.c: "usbtrail stress DIR", from cmd_stress.c's options.
 * 0 in a number is "not given".
 */
struct stress_render_out;

struct cmd_stress_fs_args {
	const char *dir;
	unsigned int mode;		/* enum stress_fs_mode */
	uint64_t size, files, file_size, block, duration_s, interval_ms;
	bool keep, verify_only, json;
	bool quiet;			/* no progress lines */
	const char *not_for_dir;	/* an option given that DIR takes not */
	const atomic_int *interrupt;
	struct stress_render_out *out;	/* progress, and the --log */
};

enum stress_render_result;
int cmd_stress_fs(const struct cmd_stress_fs_args *a,
		  enum stress_render_result *result);

#endif /* USBTRAIL_STRESS_FS_H */
