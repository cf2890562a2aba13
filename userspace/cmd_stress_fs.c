// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_stress_fs.c - "usbtrail stress DIR": cmd_stress.c parses the
 * options and sends a directory TARGET here; this checks the options a
 * directory takes, runs stress_fs_run() and shows its result.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "stress_fs.h"
#include "stress_render.h"

#define CMD_STRESS_FS_NAME	"stress"

/* Options that make no sense on a directory: usage errors. */
static int cmd_stress_fs_check(const struct cmd_stress_fs_args *a)
{
	if (a->not_for_dir)
		return cli_usage_error(CMD_STRESS_FS_NAME,
			"%s is not for a directory TARGET (%s): the "
			"filesystem modes are --fs-mode large and tree",
			a->not_for_dir, a->dir);
	if (a->verify_only && a->keep)
		return cli_usage_error(CMD_STRESS_FS_NAME,
			"--verify-only removes nothing: --keep is not for it");
	if (a->mode == STRESS_FS_TREE && a->size)
		return cli_usage_error(CMD_STRESS_FS_NAME,
			"--size is for --fs-mode large; the tree takes "
			"--files and --file-size");
	if (a->mode == STRESS_FS_LARGE && a->file_size)
		return cli_usage_error(CMD_STRESS_FS_NAME,
			"--file-size is for --fs-mode tree; large takes "
			"--size");
	if (a->mode == STRESS_FS_LARGE && a->files > 1000)
		return cli_usage_error(CMD_STRESS_FS_NAME,
			"--files is 1 to 1000 for --fs-mode large");
	if (a->verify_only && (a->size || a->files || a->file_size ||
			       a->duration_s))
		return cli_usage_error(CMD_STRESS_FS_NAME,
			"--verify-only reads what the run's manifest says: "
			"no --size, --files, --file-size or --duration");
	return 0;
}

int cmd_stress_fs(const struct cmd_stress_fs_args *a,
		  enum stress_render_result *result)
{
	struct stress_fs_config cfg = {
		.dir = a->dir,
		.mode = (enum stress_fs_mode)a->mode,
		.size = a->size,
		.files = (unsigned int)a->files,
		.file_size = a->file_size,
		.block = (uint32_t)a->block,
		.duration = (double)a->duration_s,
		.interval_ms = a->interval_ms ? (unsigned int)a->interval_ms :
			       1000,
		.keep = a->keep,
		.verify_only = a->verify_only,
		.interrupt = a->interrupt,
		.progress = a->quiet ? NULL : stress_render_progress,
		.message = stress_render_message,
		.ctx = a->out,
		.log = a->out->log,
	};
	struct stress_fs_result *res;
	const char *word;
	char why[PATH_MAX + 256];
	int err;

	err = cmd_stress_fs_check(a);
	if (err)
		return err;
	res = calloc(1, sizeof(*res));
	if (!res) {
		fprintf(stderr, CLI_PROG " " CMD_STRESS_FS_NAME ": %s\n",
			strerror(ENOMEM));
		return CLI_EXIT_FAILURE;
	}
	err = stress_fs_run(&cfg, res, why, sizeof(why));
	if (err) {
		fprintf(stderr, CLI_PROG " " CMD_STRESS_FS_NAME ": %s\n", why);
		stress_fs_result_free(res);
		free(res);
		return CLI_EXIT_FAILURE;
	}
	*result = STRESS_RENDER_PASS;
	word = "pass";
	if (cfg.log && (fflush(cfg.log) || ferror(cfg.log))) {
		fprintf(stderr, CLI_PROG " " CMD_STRESS_FS_NAME
			": --log: %s\n", strerror(errno ? errno : EIO));
		*result = STRESS_RENDER_FAIL;
		word = "fail";
	} else if (stress_fs_failed(res)) {
		*result = STRESS_RENDER_FAIL;
		word = "fail";
	} else if (res->interrupted) {
		*result = STRESS_RENDER_INTERRUPTED;
		word = "interrupted";
	}
	if (a->json)
		stress_fs_render_json(res, a->verify_only, word);
	else
		stress_fs_render_text(res, a->verify_only, word);
	stress_fs_result_free(res);
	free(res);
	return 0;
}
