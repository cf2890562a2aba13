// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_repro.c - "usbtrail repro": run recorded workloads on a USB disk
 * until one fails, then run that workload again under each candidate
 * mitigation, applied live (mitigate.c), until runs tell which one stops
 * the failure.  The verdict comes from runs only.
 *
 * Each run is "usbtrail record -o RUN -q -- usbtrail stress DISK ...",
 * this program run again (as git runs its own commands); a run failed if
 * its recording holds an incident of the disk that is a failure (below)
 * or stress found I/O errors or bad sectors.
 *
 * How many runs tell "fixed" from "did not fail this time": the workload
 * failed k of n times without a mitigation; the failure rate is at least
 * p, Wilson's lower bound at the confidence c.  A mitigation under which
 * it does not fail m times in a row, with (1 - p)^m <= 1 - c, has fixed
 * it at that confidence.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "blkdev.h"
#include "cli.h"
#include "mitigate.h"
#include "rate.h"
#include "savefile.h"
#include "repro_dir.h"
#include "repro_out.h"
#include "scsi_pt.h"
#include "sysfs_usb.h"
#include "usbdisk.h"
#include "util.h"

#define CMD_REPRO_NAME		"repro"
#define CMD_REPRO_BASE_RUNS	3	/* of the failing workload, unmitigated */
#define CMD_REPRO_MAX_RUNS	64	/* per mitigation */
#define CMD_REPRO_MAX_CANDS	16
#define CMD_REPRO_DISK_WAIT_S	60
#define CMD_REPRO_TICK_US	(200 * 1000)	/* how often a run is watched */
#define CMD_REPRO_STOP_GRACE_TICKS 10	/* 2 s for a stopped run to end */
#define CMD_REPRO_COST_NOISE	0.15	/* throughputs this close are equal */
#define CMD_REPRO_FLUSH_MAX	(64ull << 20)	/* the flush workload's size */
/* a soak run's --duration: a real SLC cache takes tens of GB to exhaust */
#define CMD_REPRO_SOAK_S	300
#define CMD_REPRO_SOAK_REST_S	10	/* idle before it: a rested disk */

const char cmd_repro_help[] =
"Usage: usbtrail repro DISK -o DIR --destroy-data [OPTIONS]\n"
"       usbtrail repro DIRECTORY -o DIR [OPTIONS]\n"
"       usbtrail repro --restore [--state FILE]\n"
"       usbtrail repro --outputs DIR [--kernel-tree TREE] [--author WHO]\n"
"\n"
"Reproduce a USB disk's failure and find by experiment what stops it.\n"
"Recorded workloads run on DISK, each as 'usbtrail record -- usbtrail\n"
"stress', one after the other and again until one fails or the budget is\n"
"spent.  The workload that failed then runs again without a mitigation,\n"
"to measure how often it fails, and under each candidate mitigation,\n"
"applied live (no reboot, no replug), in this order: the usb-storage\n"
"quirks NO_REPORT_OPCODES (f), NO_ATA_1X (t), NO_READ_CAPACITY_16 (e)\n"
"through the module parameter and a rebind, max_sectors_kb 120 through\n"
"sysfs, MAX_SECTORS_240 (g), and IGNORE_UAS (u: BOT instead of UAS, if\n"
"the disk runs on uas).  A mitigation has fixed the failure when the\n"
"workload passes under it as many times in a row as the confidence\n"
"needs.  The fix is the first of those in this order (the smallest change\n"
"first) unless another writes more than 15% faster.  It says what to\n"
"write to keep it, and writes the draft kernel patch that adds it to\n"
"unusual_uas.h (or unusual_devs.h), the campaign's report.html and the\n"
"bug bundle.\n"
"\n"
"A failure is an incident of the disk in the recording (a timeout, an\n"
"abort, a reset, a disconnect, an I/O error, the disk offline, the host\n"
"controller dead, a sense of Not Ready, Medium or Hardware Error or\n"
"Aborted Command), I/O errors and bad sectors that stress found, a\n"
"command not answered, a disk that after its probe has the size READ\n"
"CAPACITY(16) gives where READ CAPACITY(10) gives another, flushed\n"
"sectors lost at a USB reset, or a soak's writes collapsing.\n"
"\n"
"Options:\n"
"  -o, --output DIR        write the campaign into DIR (required; created,\n"
"                          must be empty): a recording per run in\n"
"                          DIR/runs/, the result in DIR/repro.json, the\n"
"                          campaign in DIR/report.html; when a run\n"
"                          failed, DIR/bundle.tar.gz; when a quirk fixed\n"
"                          it, the patch DIR/0001-*.patch (with\n"
"                          --kernel-tree) or DIR/unusual-entry.txt\n"
"      --destroy-data      DISK's data is overwritten: required\n"
"      --budget S          seconds of workloads before the verdict\n"
"                          no-failure (10 to 86400, default 1800)\n"
"      --size N            bytes each workload covers (1MiB to 1TiB,\n"
"                          default 1GiB)\n"
"      --workloads LIST    the workloads in order, of seq (a sequential\n"
"                          write and read-back, as a copy), cdm\n"
"                          (CrystalDiskMark's set, Q32 included),\n"
"                          commands (ATA PASS-THROUGH 16 and 12 as\n"
"                          smartctl sends them), probe (the interface\n"
"                          unbound and bound again, as a replug: the\n"
"                          kernel's own probe, REPORT SUPPORTED OPERATION\n"
"                          CODES and READ CAPACITY(16) included, and the\n"
"                          size it finds checked against READ\n"
"                          CAPACITY(10)), flush ('usbtrail stress\n"
"                          --reset-check' of --size, at most 64MiB: what\n"
"                          was flushed, read back after a USB reset) and\n"
"                          soak ('usbtrail stress --profile soak' for\n"
"                          --soak seconds after 10 s idle: write cycles\n"
"                          over --size, a collapse if one writes below 0.7\n"
"                          of the first); on a DIRECTORY only seq (one\n"
"                          file of --size) and files (--size of 16 KiB\n"
"                          files, 64 to 20000: created, synced, walked\n"
"                          as ls -lR, read back as find -exec cat); the\n"
"                          default is seq,cdm,commands,probe,flush,soak,\n"
"                          on a DIRECTORY seq,files\n"
"      --soak S            seconds of a soak run (5 to 86400, default 300:\n"
"                          an SLC cache takes tens of GB to run out)\n"
"      --confidence P      of 'fixed' (0.5 to 0.999, default 0.95)\n"
"      --cmd-timeout S     the disk's SCSI command timeout during the runs\n"
"                          (1 to 600; default: the kernel's, 30 s): a\n"
"                          shorter one finds a hang sooner\n"
"      --state FILE        where what repro changed is kept until it is\n"
"                          put back (default " MITIGATE_STATE_PATH ")\n"
"      --restore           only put back what an interrupted run left\n"
"                          changed, then exit\n"
"      --json              the result as JSON on standard output\n"
"      --kernel-tree TREE  make the patch against the kernel source tree\n"
"                          TREE (its drivers/usb/storage/unusual_uas.h\n"
"                          and unusual_devs.h); without it, the mail and\n"
"                          the entry to put in\n"
"      --author WHO        the patch's From:, Signed-off-by: and\n"
"                          Reported-by:, as 'Name <mail>' (default a\n"
"                          placeholder to replace)\n"
"      --outputs DIR       only make the patch, report.html and the bundle\n"
"                          of the finished campaign in DIR again, from its\n"
"                          repro.json and recordings, and exit\n"
"      --send-commands DISK\n"
"                          only send the commands workload's commands to\n"
"                          DISK (what its recorded run runs), their\n"
"                          outcome as JSON, and exit\n"
"      --probe IFACE       only bind the USB interface IFACE (2-1:1.0)\n"
"                          again and check its disk's probe (what the\n"
"                          probe workload's recorded run runs), the\n"
"                          outcome as JSON, and exit\n"
"  -h, --help              show this help and exit\n"
"\n"
"N takes a K, M, G, T (or KiB, MiB, GiB, TiB) suffix: powers of 1024.\n"
"\n"
"DISK is a whole USB disk: sdX, /dev/sdX, or a /dev/disk/by-id/ name; or\n"
"its USB device or interface (2-1, 2-1:1.0), which also names a disk that\n"
"never appeared (its probe hangs): then only the probe workload runs.  It\n"
"must not be mounted or in use.  --destroy-data is not needed when the\n"
"workloads are only probe, which writes nothing.  A DIRECTORY on a\n"
"mounted filesystem of a USB disk takes the file-level workloads, with no\n"
"--destroy-data: only stress's own files are written there (those a\n"
"stopped run leaves are removed), and DIR must be on another disk.  With\n"
"the filesystem mounted a quirk cannot be tried (its rebind would pull\n"
"the disk from under it): only max_sectors_kb is, live.  A run stops at\n"
"its first failure; where commands hang, the disk is set offline until\n"
"the kernel's error handler has failed them (not its five retries, a\n"
"timeout each: minutes) and then running again (not on a DIRECTORY).\n"
"Everything repro changes (the quirks parameter, the interface's driver,\n"
"max_sectors_kb, the command timeout, the disk offline) is written to\n"
"the state file first and put back on every exit; after a crash or a\n"
"SIGKILL the next run (or --restore) puts it back.  Needs root.\n"
"\n"
"Exit status: 0 a verdict (fixed, not-fixed, detect-only, no-failure), 1\n"
"the campaign could not run or could not put back what it changed, 2\n"
"usage, 4 interrupted (what was changed put back).\n";

enum cmd_repro_workload {
	CMD_REPRO_SEQ, CMD_REPRO_CDM, CMD_REPRO_COMMANDS, CMD_REPRO_PROBE,
	CMD_REPRO_FLUSH, CMD_REPRO_SOAK, CMD_REPRO_FILES, CMD_REPRO_NWORK
};

static const char *const cmd_repro_workloads[] = {
	"seq", "cdm", "commands", "probe", "flush", "soak", "files", NULL
};

/* the files workload: small files, as a photo or source tree */
#define CMD_REPRO_FILE_SIZE	(16u << 10)
#define CMD_REPRO_FILES_MIN	64
#define CMD_REPRO_FILES_MAX	20000

/* A candidate: quirk letters, or max_sectors_kb through sysfs */
struct cmd_repro_cand {
	const char *name;		/* "u", "max_sectors_kb=120" */
	char letter;			/* 0: max_sectors */
	unsigned int kb;
};

/* One run: a workload under a mitigation */
struct cmd_repro_run {
	bool failed;
	char kind[24];			/* the first failing incident */
	char incident[160];		/* its summary */
	double mbps_write, mbps_read, p99_ms;	/* p99_ms < 0: not measured */
	double secs;
	int stress_rc;
	bool stress_json;		/* stress wrote its result */
	uint64_t errors;		/* I/O errors and bad sectors it found */
	char said_kind[24];		/* the failure its JSON names, or "" */
	char said[160];
	bool collapse;			/* soak: a cycle below 0.7 of the first */
	double soak_first, soak_slowest;	/* their write MB/s */
	bool stopped;			/* stopped at the failure */
	bool cut;			/* ended by the disk set offline */
	char name[64];			/* its recording: "003-seq-none" */
};

/* A run as repro.json's "recordings" lists it */
struct cmd_repro_logged {
	enum cmd_repro_workload w;
	const char *mitigation;
	struct cmd_repro_run run;
};

/* A mitigation's runs */
struct cmd_repro_tally {
	const char *mitigation;		/* "none", "u", "max_sectors_kb=120" */
	unsigned int runs, failures, measured;
	double mbps_write, mbps_read, p99_ms;	/* means, p99: the worst */
	bool have_p99;			/* a run measured latency */
	bool fixed;
	bool no_quirk;			/* a run failed in a way no quirk fixes */
	char applied[64];		/* "driver usb-storage", "" */
	char skipped[96];		/* why not tried, or "" */
};

struct cmd_repro {
	const char *disk_arg, *dir, *state_path;
	const char *send_commands;	/* --send-commands DISK */
	const char *probe;		/* --probe IFACE */
	bool destroy_data, json, restore_only;
	bool workloads_set;		/* --workloads given */
	bool dirmode;			/* DISK is a directory: files only */
	char target[PATH_MAX];		/* that directory, resolved */
	struct repro_dir rdir;		/* what was in it */
	uint64_t budget, size, cmd_timeout, soak;
	double confidence;
	unsigned int nwork;
	enum cmd_repro_workload work[CMD_REPRO_NWORK * 2];

	char disk[32];			/* "sda" now */
	char disk0[32];			/* the one it was given */
	char iface[MITIGATE_NAME_MAX];
	char usb[MITIGATE_NAME_MAX];
	char driver[32];		/* the driver it came with */
	uint16_t vid, pid;
	struct mitigate_state st;
	unsigned int nruns;		/* recordings made */
	double run_secs;		/* their time, for the ETA */
	struct cmd_repro_tally tally[CMD_REPRO_MAX_CANDS + 1];
	unsigned int ntally;
	struct cmd_repro_logged *log;	/* every run, in order */
	unsigned int nlog, caplog;
	const char *kernel_tree, *author;	/* for the patch */
	const char *outputs;		/* --outputs DIR */
};

/* set by the signal handler: lock-free atomics, as stress.c's */
static atomic_int cmd_repro_stop;
static atomic_int cmd_repro_child;

static void cmd_repro_on_signal(int sig)
{
	pid_t child = (pid_t)atomic_load(&cmd_repro_child);

	atomic_store(&cmd_repro_stop, sig);
	if (child > 0)
		kill(child, SIGTERM);
}

static void cmd_repro_catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = cmd_repro_on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

static void cmd_repro_say(const struct cmd_repro *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void cmd_repro_say(const struct cmd_repro *r, const char *fmt, ...)
{
	va_list ap;

	(void)r;
	va_start(ap, fmt);
	fputs(CLI_PROG " " CMD_REPRO_NAME ": ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/*
 * The disk is ready for a run: its node is there, it has a size (after a
 * probe, usb-storage scans only after delay_use, and the disk has size 0
 * until its capacity is read), its SCSI device is running and nothing is
 * in flight (a run stopped at a failure may leave the error handler at
 * work).
 */
static bool cmd_repro_disk_ready(const char *disk)
{
	char rel[PATH_MAX], buf[64];

	snprintf(rel, sizeof(rel), "/dev/%s", disk);
	if (access(rel, R_OK | W_OK))
		return false;
	snprintf(rel, sizeof(rel), "/sys/block/%s/size", disk);
	if (sysfs_usb_read_text(rel, buf, sizeof(buf)) < 0 ||
	    !strtoull(buf, NULL, 10))
		return false;
	/* a state or in-flight count it cannot read is no reason to wait */
	return sysfs_usb_disk_idle(disk) != 0;
}

/* The disk of the interface once it is ready, waiting up to @secs */
static int cmd_repro_find_disk(struct cmd_repro *r, unsigned int secs)
{
	for (unsigned int i = 0; i < secs * 10 && !cmd_repro_stop; i++) {
		mitigate_disk_of(r->iface, r->disk, sizeof(r->disk));
		if (r->disk[0] && cmd_repro_disk_ready(r->disk))
			return 0;
		usleep(100 * 1000);
	}
	r->disk[0] = '\0';
	return -ENODEV;
}

/* The incident kinds that are a failure; a sense by its key */
static bool cmd_repro_is_failure(json_object *inc, const char **kind)
{
	static const char *const kinds[] = {
		"timeout", "abort", "reset", "disconnect", "io-error",
		"offline", "hc-died", NULL
	};
	json_object *v;
	const char *k;

	if (!json_object_object_get_ex(inc, "kind", &v))
		return false;
	k = json_object_get_string(v);
	*kind = k;
	for (unsigned int i = 0; kinds[i]; i++)
		if (!strcmp(k, kinds[i]))
			return true;
	if (!strcmp(k, "sense") && json_object_object_get_ex(inc, "key", &v)) {
		int key = json_object_get_int(v);

		/* Not Ready, Medium Error, Hardware Error, Aborted Command */
		return key == 2 || key == 3 || key == 4 || key == 0xb;
	}
	return false;
}

/* The incident concerns our disk: its disk, its SCSI disk or USB device */
static bool cmd_repro_is_ours(const struct cmd_repro *r, json_object *inc)
{
	static const char *const keys[] = { "disk", "dev", NULL };
	size_t n = strlen(r->usb);
	json_object *v;

	for (unsigned int i = 0; keys[i]; i++) {
		const char *s;

		if (!json_object_object_get_ex(inc, keys[i], &v))
			continue;
		s = json_object_get_string(v);
		if (!s)
			continue;
		if (!strcmp(s, r->disk) ||
		    (!strncmp(s, r->usb, n) && (!s[n] || s[n] == ':')))
			return true;
	}
	return false;
}

/*
 * The recording's incidents from byte @*off of its events.jsonl on: the
 * first that is a failure of our disk into @run.  Only whole lines are
 * read (record writes as it goes); @*off is where the next read starts.
 */
static void cmd_repro_incidents(const struct cmd_repro *r, const char *rundir,
				enum cmd_repro_workload w,
				struct cmd_repro_run *run, off_t *off)
{
	char path[PATH_MAX + 16], *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/events.jsonl", rundir);
	f = fopen(path, "re");
	if (!f)
		return;
	if (fseeko(f, *off, SEEK_SET)) {
		fclose(f);
		return;
	}
	while (!run->failed && (n = getline(&line, &cap, f)) > 0) {
		json_object *o, *v;
		const char *kind;

		if (line[n - 1] != '\n')
			break;		/* not all written yet */
		*off += n;
		if (!strstr(line, "\"incident\""))
			continue;
		o = json_tokener_parse(line);
		if (!o)
			continue;
		if (json_object_object_get_ex(o, "type", &v) &&
		    !strcmp(json_object_get_string(v), "incident") &&
		    cmd_repro_is_ours(r, o) && cmd_repro_is_failure(o, &kind) &&
		    /* the flush workload's own reset is no failure */
		    (w != CMD_REPRO_FLUSH || strcmp(kind, "reset")) &&
		    /* nor the disk offline that cut the run short */
		    (!run->cut || strcmp(kind, "offline"))) {
			run->failed = true;
			util_copy(run->kind, sizeof(run->kind), kind,
				  strlen(kind));
			if (json_object_object_get_ex(o, "summary", &v))
				util_copy(run->incident, sizeof(run->incident),
					  json_object_get_string(v),
					  strlen(json_object_get_string(v)));
		}
		json_object_put(o);
	}
	free(line);
	fclose(f);
}

/* Throughput and p99 of a run from stress's JSON */
static void cmd_repro_measures(const char *path, struct cmd_repro_run *run)
{
	double wb = 0, ws = 0, rb = 0, rs = 0, p99 = 0, tb = 0, ts = 0;
	json_object *o, *phases, *v;
	bool totals = false, have_p99 = false;

	o = json_object_from_file(path);
	if (!o)
		return;
	run->stress_json = true;
	if (json_object_object_get_ex(o, "failure", &v) &&
	    json_object_is_type(v, json_type_object)) {
		json_object *k, *what;

		if (json_object_object_get_ex(v, "kind", &k) &&
		    json_object_object_get_ex(v, "what", &what)) {
			const char *ks = json_object_get_string(k);
			const char *wh = json_object_get_string(what);

			util_copy(run->said_kind, sizeof(run->said_kind), ks,
				  strlen(ks));
			util_copy(run->said, sizeof(run->said), wh, strlen(wh));
		}
	}
	if (json_object_object_get_ex(o, "errors_total", &v))
		run->errors += (uint64_t)json_object_get_int64(v);
	if (json_object_object_get_ex(o, "soak_slowdown", &v))
		run->collapse = json_object_get_boolean(v);
	if (json_object_object_get_ex(o, "soak", &v)) {
		json_object *cy, *mb;

		if (json_object_object_get_ex(v, "first", &cy) &&
		    json_object_object_get_ex(cy, "write_mbps", &mb))
			run->soak_first = json_object_get_double(mb);
		if (json_object_object_get_ex(v, "slowest", &cy) &&
		    json_object_object_get_ex(cy, "write_mbps", &mb))
			run->soak_slowest = json_object_get_double(mb);
	}
	if (json_object_object_get_ex(o, "verify", &v)) {
		json_object *n;

		/* a device's bad sectors, or a directory's bad files */
		if (json_object_object_get_ex(v, "bad_sectors", &n) ||
		    json_object_object_get_ex(v, "bad_files", &n))
			run->errors += (uint64_t)json_object_get_int64(n);
	}
	if (json_object_object_get_ex(o, "phases", &phases) &&
	    json_object_is_type(phases, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(phases); i++) {
			json_object *p = json_object_array_get_idx(phases, i);
			double b = 0, s = 0;
			bool w = false;

			if (json_object_object_get_ex(p, "bytes", &v))
				b = json_object_get_double(v);
			if (json_object_object_get_ex(p, "secs", &v))
				s = json_object_get_double(v);
			if (json_object_object_get_ex(p, "op", &v))
				w = !strcmp(json_object_get_string(v), "write");
			if (json_object_object_get_ex(p, "lat_p99_us", &v) &&
			    json_object_is_type(v, json_type_double)) {
				have_p99 = true;
				if (json_object_get_double(v) / 1000 > p99)
					p99 = json_object_get_double(v) / 1000;
			}
			/*
			 * a directory's write+fsync (create+sync) is the
			 * rate of its parts together: only it counts
			 */
			if (w && json_object_object_get_ex(p, "total", &v) &&
			    json_object_get_boolean(v)) {
				totals = true;
				tb += b;
				ts += s;
			} else if (w) {
				wb += b;
				ws += s;
			} else {
				rb += b;
				rs += s;
			}
		}
	}
	if (totals) {
		wb = tb;
		ws = ts;
	}
	run->mbps_write = ws > 0 ? wb / ws / 1e6 : 0;
	run->mbps_read = rs > 0 ? rb / rs / 1e6 : 0;
	/* a directory's phases time no single I/O: no latency */
	run->p99_ms = have_p99 ? p99 : -1;
	json_object_put(o);
}

/*
 * The stress options of workload @w; @n1 and @n2 (@len bytes each, the
 * caller's) hold the numbers among them: the size and the soak's seconds,
 * or the files' count and size
 */
static void cmd_repro_stress_args(const struct cmd_repro *r,
				  enum cmd_repro_workload w, char *n1,
				  char *n2, size_t len, const char **argv,
				  int *argc)
{
	snprintf(n2, len, "%llu", (unsigned long long)r->soak);
	/* flush: what a bridge's volatile cache holds, at most */
	snprintf(n1, len, "%llu", (unsigned long long)
		 (w == CMD_REPRO_FLUSH && r->size > CMD_REPRO_FLUSH_MAX ?
		  CMD_REPRO_FLUSH_MAX : r->size));
	if (w == CMD_REPRO_FILES) {
		/* --size of 16 KiB files, sync-heavy: create, syncfs, walk, read */
		uint64_t n = r->size / CMD_REPRO_FILE_SIZE;

		n = n < CMD_REPRO_FILES_MIN ? CMD_REPRO_FILES_MIN :
		    n > CMD_REPRO_FILES_MAX ? CMD_REPRO_FILES_MAX : n;
		snprintf(n1, len, "%llu", (unsigned long long)n);
		snprintf(n2, len, "%u", CMD_REPRO_FILE_SIZE);
		argv[(*argc)++] = "--fs-mode";
		argv[(*argc)++] = "tree";
		argv[(*argc)++] = "--files";
		argv[(*argc)++] = n1;
		argv[(*argc)++] = "--file-size";
		argv[(*argc)++] = n2;
		return;
	}
	argv[(*argc)++] = "--size";
	argv[(*argc)++] = n1;
	if (r->dirmode) {
		/* seq on a directory: one file of --size, a copy of an ISO */
		argv[(*argc)++] = "--fs-mode";
		argv[(*argc)++] = "large";
		return;
	}
	if (w == CMD_REPRO_FLUSH) {
		argv[(*argc)++] = "--reset-check";
		return;
	}
	argv[(*argc)++] = "--profile";
	if (w == CMD_REPRO_SEQ) {
		argv[(*argc)++] = "seq";
	} else if (w == CMD_REPRO_SOAK) {
		argv[(*argc)++] = "soak";
		argv[(*argc)++] = "--duration";
		argv[(*argc)++] = n2;
	} else {
		argv[(*argc)++] = "cdm";
		argv[(*argc)++] = "--passes";
		argv[(*argc)++] = "1";
		argv[(*argc)++] = "--duration";
		argv[(*argc)++] = "1";
	}
}

/* stress's files that stopped runs left in the directory, removed */
static void cmd_repro_dir_clean(const struct cmd_repro *r)
{
	char kept[NAME_MAX + 1];
	int n = repro_dir_clean(&r->rdir, kept, sizeof(kept));

	if (n < 0)
		cmd_repro_say(r, "%s: %s", r->target, strerror(-n));
	else if (kept[0])
		cmd_repro_say(r, "%s/%s: a stopped run's directory kept: it "
			      "holds what stress does not make", r->target,
			      kept);
}

/*
 * A run stopped at its failure ends only when stress does, and stress
 * waits in the kernel for the commands that hang: the error handler
 * retries each (sd's five retries, a timeout each, a reset between them)
 * before it fails them.  That is minutes with the kernel's 30 s timeout
 * and tells nothing the first timeout did not.  The disk offline, the
 * handler's round ends with them failed, and the run with it.  Not on a
 * directory (the user's filesystem would see its own writes fail) nor in
 * a probe (its disk is not there yet).
 */
static void cmd_repro_cut(struct cmd_repro *r, enum cmd_repro_workload w,
			  struct cmd_repro_run *run)
{
	int err;

	if (r->dirmode || w == CMD_REPRO_PROBE || !r->disk[0])
		return;
	/* the kernel's own state (the handler offlined it) is left */
	err = mitigate_disk_offline(&r->st, r->disk, true);
	/*
	 * Cut if the state file says offline was written, even if the
	 * write said otherwise: the end of the run sets it running again
	 * wherever it reads offline
	 */
	run->cut = r->st.offline;
	if (err)
		cmd_repro_say(r, "run %u: /sys/block/%s/device/state not set "
			      "offline (%s): the run ends when the kernel's "
			      "error handler gives up", r->nruns, r->disk,
			      strerror(-err));
}

/*
 * Run workload @w once, recorded, under what is applied now.  Returns 0
 * (its outcome in @run) or a negative errno: no disk, or interrupted.
 */
static int cmd_repro_run(struct cmd_repro *r, enum cmd_repro_workload w,
			 const char *mitigation, struct cmd_repro_run *run)
{
	char rundir[PATH_MAX], json[PATH_MAX + 8], dev[64], size[32], soak[32];
	const char *argv[32];
	struct timespec t0, t1;
	int argc = 0, fd, status = 0;
	unsigned long tmo0, tmo;
	off_t off = 0;
	pid_t pid;

	memset(run, 0, sizeof(*run));
	if (w == CMD_REPRO_PROBE) {
		/*
		 * The disk goes, as at an unplug, before the recording starts;
		 * the recorded command binds the interface again (what a plug
		 * does) and the kernel probes it: no SCSI device is left to
		 * have timed out before.
		 */
		int err = mitigate_unbind(&r->st);

		if (err)
			return err;
	} else if (cmd_repro_find_disk(r, CMD_REPRO_DISK_WAIT_S)) {
		return cmd_repro_stop ? -EINTR : -ENODEV;
	}
	/* a soak starts from a rested disk, as a copy started cold does */
	for (int i = 0; w == CMD_REPRO_SOAK && i < CMD_REPRO_SOAK_REST_S * 10 &&
	     !cmd_repro_stop; i++)
		usleep(100 * 1000);
	if (cmd_repro_stop)
		return -EINTR;
	if (r->cmd_timeout && w != CMD_REPRO_PROBE) {
		int err = mitigate_disk_attr(&r->st, r->disk,
					     MITIGATE_CMD_TIMEOUT,
					     (unsigned int)r->cmd_timeout);

		if (err)
			return err;
	}
	snprintf(run->name, sizeof(run->name), "%03u-%s-%s", ++r->nruns,
		 cmd_repro_workloads[w], mitigation);
	snprintf(rundir, sizeof(rundir), "%s/runs/%s", r->dir, run->name);
	snprintf(json, sizeof(json), "%s.json", rundir);
	snprintf(dev, sizeof(dev), "/dev/%s", r->disk);
	argv[argc++] = "usbtrail";
	argv[argc++] = "record";
	argv[argc++] = "-o";
	argv[argc++] = rundir;
	argv[argc++] = "-q";
	argv[argc++] = "--";
	argv[argc++] = "/proc/self/exe";
	if (w == CMD_REPRO_PROBE) {
		argv[argc++] = "repro";
		argv[argc++] = "--probe";
		argv[argc++] = r->iface;
	} else if (w == CMD_REPRO_COMMANDS) {
		/* this program's own pass-through, recorded the same way */
		snprintf(size, sizeof(size), "%llu", (unsigned long long)
			 (r->cmd_timeout ? r->cmd_timeout : 30));
		argv[argc++] = "repro";
		argv[argc++] = "--send-commands";
		argv[argc++] = dev;
		argv[argc++] = "--cmd-timeout";
		argv[argc++] = size;
	} else {
		argv[argc++] = "stress";
		/* a directory: only stress's own files are written there */
		argv[argc++] = r->dirmode ? r->target : dev;
		if (!r->dirmode)
			argv[argc++] = "--destroy-data";
		argv[argc++] = "--json";
		argv[argc++] = "-q";
		cmd_repro_stress_args(r, w, size, soak, sizeof(size), argv,
				      &argc);
	}
	argv[argc] = NULL;

	fd = open(json, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	tmo0 = sysfs_usb_iface_timeouts(r->iface);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0) {
		close(fd);
		return -errno;
	}
	if (!pid) {
		int log;

		snprintf(json, sizeof(json), "%s.log", rundir);
		log = open(json, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, STDOUT_FILENO);
		if (log >= 0)
			dup2(log, STDERR_FILENO);
		/* if repro is killed, the run stops too (record stops stress) */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		{
			/* execv()'s argv is not const: copies */
			char *args[32];

			for (int i = 0; i <= argc; i++)
				args[i] = argv[i] ? strdup(argv[i]) : NULL;
			execv("/proc/self/exe", args);
		}
		_exit(127);
	}
	cmd_repro_child = pid;
	close(fd);
	/*
	 * Watch the recording as it grows, and the disk's timeout count: at
	 * the first failure the run has told what it can, and record stops
	 * (it gives stress SIGTERM, keeps what came and, at its end, every
	 * incident still open).  Waiting out the rest of a failing run, its
	 * timeouts one after the other, would only cost time.
	 */
	for (unsigned int since = 0;; since += run->stopped) {
		pid_t got = waitpid(pid, &status, WNOHANG);

		if (got == pid || (got < 0 && errno != EINTR))
			break;
		if (!run->failed) {
			cmd_repro_incidents(r, rundir, w, run, &off);
			/* or a timeout, before its chain is an incident */
			if (run->failed ||
			    (!run->stopped && sysfs_usb_iface_timeouts(r->iface) > tmo0)) {
				run->stopped = true;
				kill(pid, SIGTERM);
				cmd_repro_cut(r, w, run);
			}
		}
		/*
		 * record's second signal ends stress at once: stress would
		 * verify what it wrote, through the failing disk, for nothing
		 */
		if (since == CMD_REPRO_STOP_GRACE_TICKS)
			kill(pid, SIGTERM);
		usleep(CMD_REPRO_TICK_US);
	}
	cmd_repro_child = 0;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (run->cut) {
		int err = mitigate_disk_offline(&r->st, r->disk, false);

		if (err) {
			cmd_repro_say(r, "/sys/block/%s/device/state: running "
				      "again: %s", r->disk, strerror(-err));
			return err;
		}
	}
	/* a stopped run of stress leaves its files: removed at once */
	if (r->dirmode && !cmd_repro_stop)
		cmd_repro_dir_clean(r);
	run->secs = (double)(t1.tv_sec - t0.tv_sec) +
		    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	r->run_secs += run->secs;
	if (cmd_repro_stop)
		return -EINTR;
	run->stress_rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
	snprintf(json, sizeof(json), "%s.json", rundir);
	cmd_repro_measures(json, run);
	if (!run->failed)
		cmd_repro_incidents(r, rundir, w, run, &off);
	if (run->failed)
		return 0;
	tmo = sysfs_usb_iface_timeouts(r->iface);
	if (tmo > tmo0) {
		/* the recording ended before the chain's incident */
		run->failed = true;
		strcpy(run->kind, "timeout");
		snprintf(run->incident, sizeof(run->incident),
			 "the kernel timed out %lu commands of %s (iotmo_cnt)",
			 tmo - tmo0, w == CMD_REPRO_PROBE ? r->iface : r->disk);
	} else if (w == CMD_REPRO_SOAK && run->stress_json && !run->errors &&
		   run->collapse) {
		/* a collapse: no error, the writes slowed down and stayed so */
		run->failed = true;
		strcpy(run->kind, "collapse");
		snprintf(run->incident, sizeof(run->incident),
			 "a soak cycle wrote %.0f MB/s, the first %.0f MB/s",
			 run->soak_slowest, run->soak_first);
	} else if (run->stress_json && run->errors && run->said_kind[0]) {
		run->failed = true;
		util_copy(run->kind, sizeof(run->kind), run->said_kind,
			  strlen(run->said_kind));
		util_copy(run->incident, sizeof(run->incident), run->said,
			  strlen(run->said));
	} else if (run->stress_json && run->errors && w == CMD_REPRO_COMMANDS) {
		run->failed = true;
		strcpy(run->kind, "no-answer");
		snprintf(run->incident, sizeof(run->incident),
			 "%llu commands not answered (ATA PASS-THROUGH as "
			 "smartctl sends it)", (unsigned long long)run->errors);
	} else if (run->stress_json && run->errors) {
		run->failed = true;
		strcpy(run->kind, "stress-error");
		snprintf(run->incident, sizeof(run->incident),
			 "usbtrail stress found %llu I/O errors or bad sectors",
			 (unsigned long long)run->errors);
	} else if (run->stress_rc) {
		/* not a failure of the disk: stress or record could not run */
		cmd_repro_say(r, "run %u: record or stress exited %d without "
			      "an incident of the disk: see %s.log",
			      r->nruns, run->stress_rc, rundir);
		return -EIO;
	}
	return 0;
}

/*
 * The failures no quirk fixes: the disk dropped off the bus, lost what it
 * acknowledged or wrote wrong data, or its writes collapsed
 */
static bool cmd_repro_no_quirk(const char *kind)
{
	static const char *const kinds[] = {
		"disconnect", "stress-error", "lost-writes", "collapse", NULL
	};

	for (unsigned int i = 0; kinds[i]; i++)
		if (!strcmp(kind, kinds[i]))
			return true;
	return false;
}

static void cmd_repro_tally_add(struct cmd_repro_tally *t,
				const struct cmd_repro_run *run)
{
	/* the means over the runs that measured (a failed one may too) */
	unsigned int n = t->measured;

	t->runs++;
	t->failures += run->failed;
	t->no_quirk |= run->failed && cmd_repro_no_quirk(run->kind);
	if (run->mbps_write <= 0 && run->mbps_read <= 0)
		return;
	t->measured++;
	t->mbps_write = (t->mbps_write * n + run->mbps_write) / (n + 1);
	t->mbps_read = (t->mbps_read * n + run->mbps_read) / (n + 1);
	if (run->p99_ms >= 0)
		t->have_p99 = true;
	if (run->p99_ms > t->p99_ms)
		t->p99_ms = run->p99_ms;
}

/* @from's runs into @t */
static void cmd_repro_tally_add_all(struct cmd_repro_tally *t,
				    const struct cmd_repro_tally *from)
{
	unsigned int n = t->measured + from->measured;

	if (n) {
		t->mbps_write = (t->mbps_write * t->measured +
				 from->mbps_write * from->measured) / n;
		t->mbps_read = (t->mbps_read * t->measured +
				from->mbps_read * from->measured) / n;
	}
	t->measured = n;
	t->runs += from->runs;
	t->failures += from->failures;
	t->no_quirk |= from->no_quirk;
	t->have_p99 |= from->have_p99;
	if (from->p99_ms > t->p99_ms)
		t->p99_ms = from->p99_ms;
}

/* A run done: said, and kept for repro.json (a run not kept if no memory) */
static void cmd_repro_progress(struct cmd_repro *r,
			       enum cmd_repro_workload w, const char *mit,
			       const struct cmd_repro_run *run)
{
	if (r->nlog == r->caplog) {
		unsigned int cap = r->caplog ? r->caplog * 2 : 64;
		struct cmd_repro_logged *p = realloc(r->log, cap * sizeof(*p));

		if (p) {
			r->log = p;
			r->caplog = cap;
		}
	}
	if (r->nlog < r->caplog)
		r->log[r->nlog++] = (struct cmd_repro_logged){ w, mit, *run };
	if (run->failed)
		cmd_repro_say(r, "run %u: %s, mitigation %s: FAILED (%s%s%s), "
			      "%.0f s", r->nruns, cmd_repro_workloads[w], mit,
			      run->kind, run->incident[0] ? ": " : "",
			      run->incident, run->secs);
	else if (run->mbps_write <= 0 && run->mbps_read <= 0)
		cmd_repro_say(r, "run %u: %s, mitigation %s: passed, %.0f s",
			      r->nruns, cmd_repro_workloads[w], mit, run->secs);
	else
		cmd_repro_say(r, "run %u: %s, mitigation %s: passed, write "
			      "%.0f MB/s, read %.0f MB/s, %.0f s", r->nruns,
			      cmd_repro_workloads[w], mit, run->mbps_write,
			      run->mbps_read, run->secs);
}

static const struct cmd_repro_cand cmd_repro_cands[] = {
	{ "f", 'f', 0 },
	{ "t", 't', 0 },
	{ "e", 'e', 0 },
	{ "max_sectors_kb=120", 0, 120 },
	{ "g", 'g', 0 },
	{ "u", 'u', 0 },
};

#define CMD_REPRO_NCANDS (sizeof(cmd_repro_cands) / sizeof(cmd_repro_cands[0]))

/* Apply candidate @c (NULL: none) from a clean probe */
static int cmd_repro_apply(struct cmd_repro *r, const struct cmd_repro_cand *c,
			   struct cmd_repro_tally *t)
{
	char flags[2] = { c && c->letter ? c->letter : 0, 0 };
	char drv[32];
	int err;

	if (r->dirmode) {
		/* no rebind under a mounted filesystem: sysfs only, live */
		snprintf(t->applied, sizeof(t->applied), "live, driver %s",
			 r->driver);
		if (!c || !c->kb)
			return 0;
		return mitigate_disk_attr(&r->st, r->disk,
					  MITIGATE_MAX_SECTORS_KB, c->kb);
	}
	err = mitigate_quirk(&r->st, flags, drv, sizeof(drv));
	if (err)
		return err;
	snprintf(t->applied, sizeof(t->applied), "driver %s",
		 drv[0] ? drv : "none");
	if (c && c->kb) {
		err = cmd_repro_find_disk(r, CMD_REPRO_DISK_WAIT_S);
		if (!err)
			err = mitigate_disk_attr(&r->st, r->disk,
						 MITIGATE_MAX_SECTORS_KB, c->kb);
	}
	return err;
}

/* Run @w up to @max times under what is applied, into @t; stop at a failure */
static int cmd_repro_runs(struct cmd_repro *r, enum cmd_repro_workload w,
			  struct cmd_repro_tally *t, unsigned int max,
			  bool stop_at_failure)
{
	struct cmd_repro_run run;
	int err;

	while (t->runs < max) {
		err = cmd_repro_run(r, w, t->mitigation, &run);
		if (err == -ENODEV) {
			/* no disk under this mitigation: it does not help */
			run.failed = true;
			strcpy(run.kind, "no-disk");
			strcpy(run.incident, "the disk did not come back");
		} else if (err) {
			return err;
		}
		cmd_repro_tally_add(t, &run);
		cmd_repro_progress(r, w, t->mitigation, &run);
		if (run.failed && stop_at_failure)
			break;
	}
	return 0;
}

struct cmd_repro_result {
	bool failed;
	enum cmd_repro_workload work;
	struct cmd_repro_run first;		/* the first failing run */
	unsigned int needed;
	double rate_low;
	int fix;				/* index in tally, -1 none */
	const char *verdict;
};

/*
 * The fix among the mitigations that fixed it: the first in the order of
 * cmd_repro_cands (the smallest change first) unless another writes more
 * than CMD_REPRO_COST_NOISE faster (the test bed's timing noise is about
 * 10%).  The tally's index, -1 if none fixed it.
 */
static int cmd_repro_pick(const struct cmd_repro *r)
{
	double best = 0;
	int pick = -1;

	for (unsigned int i = 1; i < r->ntally; i++)
		if (r->tally[i].fixed && r->tally[i].mbps_write > best)
			best = r->tally[i].mbps_write;
	for (unsigned int i = 1; i < r->ntally && pick < 0; i++)
		if (r->tally[i].fixed &&
		    r->tally[i].mbps_write >= best * (1 - CMD_REPRO_COST_NOISE))
			pick = (int)i;
	return pick;
}

static int cmd_repro_campaign(struct cmd_repro *r, struct cmd_repro_result *res)
{
	struct cmd_repro_tally *base = &r->tally[0];
	struct cmd_repro_tally seen[CMD_REPRO_NWORK];	/* per workload */
	double spent = 0, z = rate_z(r->confidence);
	unsigned int i = 0;
	int err;

	memset(res, 0, sizeof(*res));
	memset(seen, 0, sizeof(seen));
	res->fix = -1;
	r->ntally = 1;
	base->mitigation = "none";
	/* 1: the workloads in turn until one fails or the budget is spent */
	while (!res->failed && spent < (double)r->budget) {
		enum cmd_repro_workload w = r->work[i++ % r->nwork];
		struct cmd_repro_run run;

		cmd_repro_say(r, "run %u: %s, no mitigation (%.0f of %llu s "
			      "of the budget spent)", r->nruns + 1,
			      cmd_repro_workloads[w], spent,
			      (unsigned long long)r->budget);
		err = cmd_repro_run(r, w, "none", &run);
		if (err)
			return err;
		cmd_repro_progress(r, w, "none", &run);
		spent += run.secs;
		/* its earlier runs count too: they passed */
		cmd_repro_tally_add(&seen[w], &run);
		if (run.failed) {
			res->failed = true;
			res->work = w;
			res->first = run;
		}
	}
	if (!res->failed) {
		res->verdict = "no-failure";
		for (unsigned int w = 0; w < CMD_REPRO_NWORK; w++)
			cmd_repro_tally_add_all(base, &seen[w]);
		return 0;
	}
	cmd_repro_tally_add_all(base, &seen[res->work]);
	/* 2: how often it fails */
	err = cmd_repro_runs(r, res->work, base, CMD_REPRO_BASE_RUNS, false);
	if (err)
		return err;
	res->rate_low = rate_wilson_low(base->failures, base->runs, z);
	res->needed = rate_runs_needed(res->rate_low, r->confidence,
				       CMD_REPRO_MAX_RUNS);
	cmd_repro_say(r, "%s failed %u of %u runs: at least %.0f%% (%.0f%% "
		      "confidence); a mitigation must pass %u run%s in a row",
		      cmd_repro_workloads[res->work], base->failures,
		      base->runs, res->rate_low * 100, r->confidence * 100,
		      res->needed, res->needed == 1 ? "" : "s");
	/* 3: each candidate */
	for (size_t c = 0; c < CMD_REPRO_NCANDS; c++) {
		const struct cmd_repro_cand *cand = &cmd_repro_cands[c];
		struct cmd_repro_tally *t = &r->tally[r->ntally++];

		t->mitigation = cand->name;
		if (cand->letter && r->dirmode) {
			snprintf(t->skipped, sizeof(t->skipped),
				 "the disk is mounted: a quirk needs a rebind, "
				 "which would pull it from under the filesystem");
			continue;
		}
		if (cand->letter == 'u' && strcmp(r->driver, "uas")) {
			snprintf(t->skipped, sizeof(t->skipped),
				 "the disk runs on %s, not uas",
				 r->driver[0] ? r->driver : "no driver");
			continue;
		}
		if (cand->kb && res->work == CMD_REPRO_PROBE) {
			snprintf(t->skipped, sizeof(t->skipped),
				 "max_sectors_kb is set after a probe: it "
				 "cannot change what the probe sends");
			continue;
		}
		/* what is left, at most: every candidate to come passing */
		cmd_repro_say(r, "mitigation %s (%zu of %zu): up to %u runs; "
			      "at most about %.0f s left", cand->name, c + 1,
			      CMD_REPRO_NCANDS, res->needed,
			      (double)((CMD_REPRO_NCANDS - c) * res->needed) *
			      r->run_secs / (r->nruns ? r->nruns : 1));
		err = cmd_repro_apply(r, cand, t);
		if (err == -ENODEV) {
			snprintf(t->skipped, sizeof(t->skipped),
				 "no disk under it");
			continue;
		}
		if (!err)
			err = cmd_repro_runs(r, res->work, t, res->needed, true);
		if (err)
			return err;
		t->fixed = !t->failures && t->runs >= res->needed;
	}
	res->fix = cmd_repro_pick(r);
	if (res->fix >= 0)
		res->verdict = "fixed";
	else if (base->no_quirk)
		/* any unmitigated run, the first failing one included: a drop
		 * may log an I/O error before its disconnect
		 */
		res->verdict = "detect-only";
	else
		res->verdict = "not-fixed";
	return 0;		/* mitigate_restore() puts it back */
}

/* The lines that keep the fix: modprobe.d, the kernel command line, udev */
static json_object *cmd_repro_persist(const struct cmd_repro *r,
				      const struct cmd_repro_cand *c)
{
	json_object *a = json_object_new_array();
	char line[512];

	if (c->letter) {
		snprintf(line, sizeof(line), "/etc/modprobe.d/usbtrail-%04x-%04x."
			 "conf: options usb-storage quirks=%04x:%04x:%c",
			 r->vid, r->pid, r->vid, r->pid, c->letter);
		json_object_array_add(a, json_object_new_string(line));
		snprintf(line, sizeof(line), "kernel command line: "
			 "usb-storage.quirks=%04x:%04x:%c", r->vid, r->pid,
			 c->letter);
		json_object_array_add(a, json_object_new_string(line));
	} else {
		snprintf(line, sizeof(line), "/etc/udev/rules.d/"
			 "60-usbtrail-%04x-%04x.rules: ACTION==\"add|change\", "
			 "SUBSYSTEM==\"block\", ENV{DEVTYPE}==\"disk\", "
			 "ATTRS{idVendor}==\"%04x\", ATTRS{idProduct}==\"%04x\", "
			 "ATTR{queue/max_sectors_kb}=\"%u\"", r->vid, r->pid,
			 r->vid, r->pid, c->kb);
		json_object_array_add(a, json_object_new_string(line));
	}
	return a;
}

static const struct cmd_repro_cand *cmd_repro_cand_of(const char *name)
{
	for (size_t c = 0; c < CMD_REPRO_NCANDS; c++)
		if (!strcmp(cmd_repro_cands[c].name, name))
			return &cmd_repro_cands[c];
	return NULL;
}

static json_object *cmd_repro_json(const struct cmd_repro *r,
				   const struct cmd_repro_result *res)
{
	json_object *o = json_object_new_object(), *a, *v, *fix;
	char id[16], path[96];

	snprintf(id, sizeof(id), "%04x:%04x", r->vid, r->pid);
	json_object_object_add(o, "usbtrail", json_object_new_string("repro"));
	/* null: a USB target whose disk never came */
	json_object_object_add(o, "disk", r->disk[0] ?
			       json_object_new_string(r->disk) : NULL);
	json_object_object_add(o, "usb", json_object_new_string(r->usb));
	/* directory mode: where stress wrote its files; null: the disk */
	json_object_object_add(o, "directory", r->dirmode ?
			       json_object_new_string(r->target) : NULL);
	json_object_object_add(o, "id", json_object_new_string(id));
	json_object_object_add(o, "driver", json_object_new_string(r->driver));
	json_object_object_add(o, "failed", json_object_new_boolean(res->failed));
	if (res->failed) {
		v = json_object_new_object();
		json_object_object_add(v, "kind",
				       json_object_new_string(res->first.kind));
		json_object_object_add(v, "step", json_object_new_string(
				       cmd_repro_workloads[res->work]));
		json_object_object_add(v, "incident",
				       json_object_new_string(res->first.incident));
		json_object_object_add(v, "rate_low",
				       json_object_new_double(res->rate_low));
		json_object_object_add(v, "runs_needed",
				       json_object_new_int((int)res->needed));
		snprintf(path, sizeof(path), "runs/%s", res->first.name);
		json_object_object_add(v, "recording",
				       json_object_new_string(path));
		json_object_object_add(o, "failure", v);
	} else {
		json_object_object_add(o, "failure", NULL);
	}
	json_object_object_add(o, "confidence",
			       json_object_new_double(r->confidence));
	a = json_object_new_array();
	for (unsigned int i = 0; i < r->ntally; i++) {
		const struct cmd_repro_tally *t = &r->tally[i];

		if (!t->runs && !t->skipped[0])
			continue;
		v = json_object_new_object();
		json_object_object_add(v, "mitigation",
				       json_object_new_string(t->mitigation));
		json_object_object_add(v, "runs", json_object_new_int((int)t->runs));
		json_object_object_add(v, "failures",
				       json_object_new_int((int)t->failures));
		json_object_object_add(v, "fixed", json_object_new_boolean(t->fixed));
		/* null: no run of it measured (each stopped at its failure) */
		json_object_object_add(v, "mbps_write", t->measured ?
				       json_object_new_double(t->mbps_write) :
				       NULL);
		json_object_object_add(v, "mbps_read", t->measured ?
				       json_object_new_double(t->mbps_read) :
				       NULL);
		json_object_object_add(v, "p99_ms", t->measured && t->have_p99 ?
				       json_object_new_double(t->p99_ms) : NULL);
		if (t->applied[0])
			json_object_object_add(v, "applied",
					       json_object_new_string(t->applied));
		if (t->skipped[0])
			json_object_object_add(v, "skipped",
					       json_object_new_string(t->skipped));
		json_object_array_add(a, v);
	}
	json_object_object_add(o, "runs", a);
	fix = json_object_new_object();
	if (res->fix >= 0) {
		const struct cmd_repro_cand *c =
			cmd_repro_cand_of(r->tally[res->fix].mitigation);
		char val[32];

		if (c->letter)
			snprintf(val, sizeof(val), "%04x:%04x:%c", r->vid,
				 r->pid, c->letter);
		else
			snprintf(val, sizeof(val), "%u", c->kb);
		json_object_object_add(fix, "kind", json_object_new_string(
				       c->letter ? "usb-storage-quirk" :
				       "max-sectors"));
		json_object_object_add(fix, "value", json_object_new_string(val));
		json_object_object_add(fix, "persist", cmd_repro_persist(r, c));
	} else {
		json_object_object_add(fix, "kind", json_object_new_string("none"));
		json_object_object_add(fix, "value", NULL);
		json_object_object_add(fix, "persist", json_object_new_array());
	}
	json_object_object_add(o, "fix", fix);
	json_object_object_add(o, "verdict",
			       json_object_new_string(res->verdict));
	/* every run, for report.html: its recording and how it went */
	a = json_object_new_array();
	for (unsigned int i = 0; i < r->nlog; i++) {
		const struct cmd_repro_logged *l = &r->log[i];

		v = json_object_new_object();
		snprintf(path, sizeof(path), "runs/%s", l->run.name);
		json_object_object_add(v, "recording",
				       json_object_new_string(path));
		json_object_object_add(v, "workload", json_object_new_string(
				       cmd_repro_workloads[l->w]));
		json_object_object_add(v, "mitigation",
				       json_object_new_string(l->mitigation));
		json_object_object_add(v, "failed",
				       json_object_new_boolean(l->run.failed));
		json_object_object_add(v, "kind", l->run.failed ?
				       json_object_new_string(l->run.kind) : NULL);
		json_object_object_add(v, "incident", l->run.failed ?
				       json_object_new_string(l->run.incident) :
				       NULL);
		json_object_object_add(v, "secs",
				       json_object_new_double(l->run.secs));
		json_object_object_add(v, "cut_short",
				       json_object_new_boolean(l->run.cut));
		json_object_object_add(v, "mbps_write",
				       json_object_new_double(l->run.mbps_write));
		json_object_object_add(v, "mbps_read",
				       json_object_new_double(l->run.mbps_read));
		json_object_array_add(a, v);
	}
	json_object_object_add(o, "recordings", a);
	return o;
}

/* what repro_out made: "patch: DIR/0001-...patch" */
static void cmd_repro_text_files(const struct cmd_repro *r, json_object *o)
{
	json_object *v;

	if (!json_object_object_get_ex(o, "files", &v))
		return;
	json_object_object_foreach(v, k, f) {
		printf("%s: %s/%s\n", k, r->dir, json_object_get_string(f));
	}
}

static void cmd_repro_text(const struct cmd_repro *r,
			   const struct cmd_repro_result *res, json_object *o)
{
	json_object *fix, *v;

	printf("usbtrail repro: %s (%04x:%04x at USB %s, %s)\n",
	       r->disk[0] ? r->disk : "no disk", r->vid, r->pid, r->usb,
	       r->driver[0] ? r->driver : "no driver");
	if (!res->failed) {
		const struct cmd_repro_tally *t = &r->tally[0];

		printf("%u runs without a mitigation, none failed", t->runs);
		if (t->measured)
			printf("; write %.0f MB/s, read %.0f MB/s",
			       t->mbps_write, t->mbps_read);
		if (t->measured && t->have_p99)
			printf(", p99 %.1f ms", t->p99_ms);
		printf("\nverdict: no-failure within the budget of %llu s\n",
		       (unsigned long long)r->budget);
		cmd_repro_text_files(r, o);
		return;
	}
	printf("failure: %s under %s: %s\n", res->first.kind,
	       cmd_repro_workloads[res->work], res->first.incident);
	printf("\n%-20s %5s %9s %6s %11s %10s %8s\n", "mitigation", "runs",
	       "failures", "fixed", "write MB/s", "read MB/s", "p99 ms");
	for (unsigned int i = 0; i < r->ntally; i++) {
		const struct cmd_repro_tally *t = &r->tally[i];

		if (t->skipped[0]) {
			printf("%-20s skipped: %s\n", t->mitigation, t->skipped);
			continue;
		}
		if (!t->measured) {
			printf("%-20s %5u %9u %6s %11s %10s %8s\n",
			       t->mitigation, t->runs, t->failures,
			       t->fixed ? "yes" : "no", "-", "-", "-");
			continue;
		}
		{
			char p99[16] = "-";

			if (t->have_p99)
				snprintf(p99, sizeof(p99), "%.1f", t->p99_ms);
			printf("%-20s %5u %9u %6s %11.0f %10.0f %8s\n",
			       t->mitigation, t->runs, t->failures,
			       t->fixed ? "yes" : "no", t->mbps_write,
			       t->mbps_read, p99);
		}
	}
	printf("\nverdict: %s\n", res->verdict);
	if (res->fix >= 0) {
		const struct cmd_repro_tally *t = &r->tally[res->fix];

		printf("fix: %s: no failure in %u runs", t->mitigation, t->runs);
		if (!t->measured)
			;	/* a workload that moves no data: commands */
		else if (r->tally[0].measured)
			printf("; write %.0f -> %.0f MB/s, read %.0f -> %.0f "
			       "MB/s", r->tally[0].mbps_write, t->mbps_write,
			       r->tally[0].mbps_read, t->mbps_read);
		else
			printf("; write %.0f MB/s, read %.0f MB/s (no run "
			       "without it got as far)", t->mbps_write,
			       t->mbps_read);
		putchar('\n');
		if (json_object_object_get_ex(o, "fix", &fix) &&
		    json_object_object_get_ex(fix, "persist", &v))
			for (size_t i = 0; i < json_object_array_length(v); i++)
				printf("  %s\n", json_object_get_string(
				       json_object_array_get_idx(v, i)));
	} else if (!strcmp(res->verdict, "detect-only")) {
		printf("no quirk stops it: try another enclosure, a powered hub "
		       "or port, and do not trust its flushes\n");
	}
	cmd_repro_text_files(r, o);
}

/*
 * --send-commands DISK: the commands workload's run, under record: each
 * command of scsi_pt_cmds as its tool sends it, the outcome as JSON on
 * standard output ("errors_total": those not answered).
 */
static int cmd_repro_send_commands(const char *dev, unsigned int timeout_s)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	unsigned int lost = 0;
	int fd;

	fd = open(dev, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, CLI_PROG " " CMD_REPRO_NAME ": %s: %s\n", dev,
			strerror(errno));
		json_object_put(o);
		json_object_put(a);
		return CLI_EXIT_FAILURE;
	}
	for (const struct scsi_pt_cmd *c = scsi_pt_cmds; c->name; c++) {
		struct scsi_pt_result res;
		json_object *v = json_object_new_object();
		char sense[16];
		int lost1 = scsi_pt_send(fd, c, timeout_s, &res);

		if (res.err == ENOTTY || res.err == EINVAL) {
			fprintf(stderr, CLI_PROG " " CMD_REPRO_NAME ": %s: not a "
				"SCSI device (SG_IO: %s)\n", dev,
				strerror(res.err));
			json_object_put(v);
			json_object_put(a);
			json_object_put(o);
			close(fd);
			return CLI_EXIT_FAILURE;
		}
		lost += (unsigned int)lost1;
		snprintf(sense, sizeof(sense), "%x/%02x/%02x", res.sense_key,
			 res.asc, res.ascq);
		json_object_object_add(v, "command", json_object_new_string(c->name));
		json_object_object_add(v, "as", json_object_new_string(c->as));
		json_object_object_add(v, "answered",
				       json_object_new_boolean(!lost1));
		if (res.err)
			json_object_object_add(v, "error", json_object_new_string(
					       strerror(res.err)));
		json_object_object_add(v, "status", json_object_new_int(res.status));
		json_object_object_add(v, "host", json_object_new_int(res.host));
		json_object_object_add(v, "driver", json_object_new_int(res.driver));
		json_object_object_add(v, "sense", json_object_new_string(sense));
		json_object_object_add(v, "ms", json_object_new_int((int)res.ms));
		json_object_array_add(a, v);
	}
	close(fd);
	json_object_object_add(o, "usbtrail",
			       json_object_new_string("repro-commands"));
	json_object_object_add(o, "target", json_object_new_string(dev));
	json_object_object_add(o, "commands", a);
	json_object_object_add(o, "errors_total", json_object_new_int((int)lost));
	puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
					    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	return CLI_EXIT_OK;
}

/*
 * READ CAPACITY @cmd on @fd: its capacity in @bytes (0 if none), -1 if
 * it was not answered
 */
static int cmd_repro_capacity(int fd, const struct scsi_pt_cmd *cmd,
			      unsigned int timeout_s, uint64_t *bytes)
{
	struct scsi_pt_result res;

	*bytes = 0;
	if (scsi_pt_send(fd, cmd, timeout_s, &res))
		return -1;
	if (scsi_pt_capacity(cmd, &res, bytes))
		*bytes = 0;
	return 0;
}

/*
 * --probe IFACE: the probe workload's run, under record.  The interface
 * (unbound by the campaign) is bound again, as a plug binds it, and the
 * kernel probes the disk: INQUIRY, READ CAPACITY (16 first on uas, for a
 * disk that claims SPC-3), REPORT SUPPORTED OPERATION CODES unless the
 * driver says no, the mode pages.  What the campaign watches meanwhile is
 * the timeouts of the probe's commands.  Then the size the kernel found:
 * sd takes READ CAPACITY(16)'s when it asked it, and a bridge that
 * answers it wrong gives a disk of the wrong size (a failure: "capacity").
 * READ CAPACITY(10) tells which: only if the two sizes differ is (16)
 * sent again, to see whether the kernel's came from it.  The outcome as
 * JSON on standard output ("errors_total" 1 with a "failure" if it
 * failed).
 */
static int cmd_repro_probe(struct cmd_repro *r, unsigned int timeout_s)
{
	json_object *o = json_object_new_object(), *f = NULL;
	uint64_t kernel = 0, rc10 = 0, rc16 = 0;
	char drv[32] = "", rel[PATH_MAX], buf[32], what[160] = "";
	const char *kind = NULL;
	struct timespec t0, t1;
	bool sent16 = false;
	int err, fd;

	util_copy(r->iface, sizeof(r->iface), r->probe, strlen(r->probe));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = mitigate_bind(r->iface, drv, sizeof(drv));
	if (err) {
		fprintf(stderr, CLI_PROG " " CMD_REPRO_NAME ": %s: binding it "
			"again: %s\n", r->iface, strerror(-err));
		json_object_put(o);
		return CLI_EXIT_FAILURE;
	}
	if (cmd_repro_find_disk(r, CMD_REPRO_DISK_WAIT_S)) {
		kind = "no-disk";
		snprintf(what, sizeof(what), "no disk within %d s of the probe "
			 "(driver %s)", CMD_REPRO_DISK_WAIT_S,
			 drv[0] ? drv : "none");
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (!kind) {
		snprintf(rel, sizeof(rel), "/sys/block/%s/size", r->disk);
		if (sysfs_usb_read_text(rel, buf, sizeof(buf)) >= 0)
			kernel = strtoull(buf, NULL, 10) * 512;
		snprintf(rel, sizeof(rel), "/dev/%s", r->disk);
		fd = open(rel, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0) {
			fprintf(stderr, CLI_PROG " " CMD_REPRO_NAME ": %s: %s\n",
				rel, strerror(errno));
			json_object_put(o);
			return CLI_EXIT_FAILURE;
		}
		if (!cmd_repro_capacity(fd, &scsi_pt_rc10, timeout_s, &rc10) &&
		    rc10 && kernel != rc10) {
			sent16 = true;
			cmd_repro_capacity(fd, &scsi_pt_rc16, timeout_s, &rc16);
		}
		close(fd);
		if (sent16 && rc16 == kernel) {
			kind = "capacity";
			snprintf(what, sizeof(what), "%s sized by READ "
				 "CAPACITY(16): %llu bytes; READ CAPACITY(10) "
				 "says %llu", r->disk, (unsigned long long)kernel,
				 (unsigned long long)rc10);
		}
	}
	json_object_object_add(o, "usbtrail", json_object_new_string("repro-probe"));
	json_object_object_add(o, "iface", json_object_new_string(r->iface));
	json_object_object_add(o, "driver", json_object_new_string(drv));
	json_object_object_add(o, "disk", json_object_new_string(r->disk));
	json_object_object_add(o, "probe_ms", json_object_new_int64(
			       (int64_t)(t1.tv_sec - t0.tv_sec) * 1000 +
			       (t1.tv_nsec - t0.tv_nsec) / 1000000));
	json_object_object_add(o, "kernel_bytes", kernel ?
			       json_object_new_int64((int64_t)kernel) : NULL);
	json_object_object_add(o, "rc10_bytes", rc10 ?
			       json_object_new_int64((int64_t)rc10) : NULL);
	json_object_object_add(o, "rc16_bytes", rc16 ?
			       json_object_new_int64((int64_t)rc16) : NULL);
	if (kind) {
		f = json_object_new_object();
		json_object_object_add(f, "kind", json_object_new_string(kind));
		json_object_object_add(f, "what", json_object_new_string(what));
	}
	json_object_object_add(o, "failure", f);
	json_object_object_add(o, "errors_total", json_object_new_int(!!kind));
	puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
					    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	return CLI_EXIT_OK;
}

enum {
	CMD_REPRO_OPT_DESTROY = 256,
	CMD_REPRO_OPT_BUDGET,
	CMD_REPRO_OPT_SIZE,
	CMD_REPRO_OPT_WORKLOADS,
	CMD_REPRO_OPT_CONFIDENCE,
	CMD_REPRO_OPT_CMD_TIMEOUT,
	CMD_REPRO_OPT_STATE,
	CMD_REPRO_OPT_RESTORE,
	CMD_REPRO_OPT_JSON,
	CMD_REPRO_OPT_SEND_COMMANDS,
	CMD_REPRO_OPT_PROBE,
	CMD_REPRO_OPT_SOAK,
	CMD_REPRO_OPT_KERNEL_TREE,
	CMD_REPRO_OPT_AUTHOR,
	CMD_REPRO_OPT_OUTPUTS,
};

static int cmd_repro_parse_workloads(struct cmd_repro *r, const char *arg)
{
	char buf[128], *tok, *save = NULL;
	unsigned int w;

	if (strlen(arg) >= sizeof(buf))
		return cli_usage_error(CMD_REPRO_NAME, "--workloads: too long");
	strcpy(buf, arg);
	r->nwork = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (r->nwork >= sizeof(r->work) / sizeof(r->work[0]))
			return cli_usage_error(CMD_REPRO_NAME,
					       "--workloads: too many");
		if (cli_parse_choice(CMD_REPRO_NAME, "--workloads", tok,
				     cmd_repro_workloads, &w))
			return CLI_EXIT_USAGE;
		r->work[r->nwork++] = (enum cmd_repro_workload)w;
	}
	if (!r->nwork)
		return cli_usage_error(CMD_REPRO_NAME, "--workloads: empty");
	return 0;
}

static int cmd_repro_parse(struct cmd_repro *r, int argc, char **argv)
{
	static const char optstring[] = ":o:h";
	static const struct option longopts[] = {
		{ "output",	required_argument, NULL, 'o' },
		{ "destroy-data", no_argument,	NULL, CMD_REPRO_OPT_DESTROY },
		{ "budget",	required_argument, NULL, CMD_REPRO_OPT_BUDGET },
		{ "size",	required_argument, NULL, CMD_REPRO_OPT_SIZE },
		{ "workloads",	required_argument, NULL, CMD_REPRO_OPT_WORKLOADS },
		{ "confidence",	required_argument, NULL, CMD_REPRO_OPT_CONFIDENCE },
		{ "cmd-timeout", required_argument, NULL, CMD_REPRO_OPT_CMD_TIMEOUT },
		{ "state",	required_argument, NULL, CMD_REPRO_OPT_STATE },
		{ "restore",	no_argument,	NULL, CMD_REPRO_OPT_RESTORE },
		{ "json",	no_argument,	NULL, CMD_REPRO_OPT_JSON },
		{ "send-commands", required_argument, NULL,
		  CMD_REPRO_OPT_SEND_COMMANDS },
		{ "probe",	required_argument, NULL, CMD_REPRO_OPT_PROBE },
		{ "soak",	required_argument, NULL, CMD_REPRO_OPT_SOAK },
		{ "kernel-tree", required_argument, NULL,
		  CMD_REPRO_OPT_KERNEL_TREE },
		{ "author",	required_argument, NULL, CMD_REPRO_OPT_AUTHOR },
		{ "outputs",	required_argument, NULL, CMD_REPRO_OPT_OUTPUTS },
		{ "help",	no_argument,	NULL, 'h' },
		{ NULL,		0,		NULL, 0 }
	};
	char *end;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			r->dir = optarg;
			break;
		case CMD_REPRO_OPT_DESTROY:
			r->destroy_data = true;
			break;
		case CMD_REPRO_OPT_BUDGET:
			if (cli_parse_number(CMD_REPRO_NAME, "--budget", optarg,
					     0, 10, 86400, &r->budget))
				return CLI_EXIT_USAGE;
			break;
		case CMD_REPRO_OPT_SIZE:
			if (cli_parse_number(CMD_REPRO_NAME, "--size", optarg,
					     UTIL_NUM_SIZE, 1ull << 20,
					     1ull << 40, &r->size))
				return CLI_EXIT_USAGE;
			break;
		case CMD_REPRO_OPT_WORKLOADS:
			if (cmd_repro_parse_workloads(r, optarg))
				return CLI_EXIT_USAGE;
			r->workloads_set = true;
			break;
		case CMD_REPRO_OPT_CONFIDENCE:
			errno = 0;
			r->confidence = strtod(optarg, &end);
			if (errno || *end || end == optarg ||
			    !(r->confidence >= 0.5 && r->confidence <= 0.999))
				return cli_usage_error(CMD_REPRO_NAME,
						       "--confidence: '%s' is not "
						       "a number from 0.5 to 0.999",
						       optarg);
			break;
		case CMD_REPRO_OPT_SOAK:
			if (cli_parse_number(CMD_REPRO_NAME, "--soak", optarg,
					     0, 5, 86400, &r->soak))
				return CLI_EXIT_USAGE;
			break;
		case CMD_REPRO_OPT_CMD_TIMEOUT:
			if (cli_parse_number(CMD_REPRO_NAME, "--cmd-timeout",
					     optarg, 0, 1, 600, &r->cmd_timeout))
				return CLI_EXIT_USAGE;
			break;
		case CMD_REPRO_OPT_STATE:
			r->state_path = optarg;
			break;
		case CMD_REPRO_OPT_KERNEL_TREE:
			r->kernel_tree = optarg;
			break;
		case CMD_REPRO_OPT_AUTHOR:
			if (!strchr(optarg, '@') || !strchr(optarg, '<') ||
			    strchr(optarg, '\n'))
				return cli_usage_error(CMD_REPRO_NAME, "--author: "
						       "'%s' is not 'Name "
						       "<mail>'", optarg);
			r->author = optarg;
			break;
		case CMD_REPRO_OPT_OUTPUTS:
			r->outputs = optarg;
			break;
		case CMD_REPRO_OPT_RESTORE:
			r->restore_only = true;
			break;
		case CMD_REPRO_OPT_JSON:
			r->json = true;
			break;
		case CMD_REPRO_OPT_SEND_COMMANDS:
			r->send_commands = optarg;
			break;
		case CMD_REPRO_OPT_PROBE:
			if (!sysfs_usb_is_iface_name(optarg))
				return cli_usage_error(CMD_REPRO_NAME, "--probe: "
						       "'%s' is not a USB "
						       "interface (2-1:1.0)",
						       optarg);
			r->probe = optarg;
			break;
		case 'h':
			fputs(cmd_repro_help, stdout);
			return -1;
		default:
			return cli_getopt_error(CMD_REPRO_NAME, c, argv,
						optstring, longopts);
		}
	}
	if (r->kernel_tree) {
		char what[600];
		int e = repro_out_check_tree(r->kernel_tree, what,
					     sizeof(what));

		if (e)
			return cli_usage_error(CMD_REPRO_NAME, "--kernel-tree: "
					       "%s: %s", what, strerror(-e));
	}
	if (r->outputs) {
		if (optind < argc)
			return cli_usage_error(CMD_REPRO_NAME,
					       "--outputs takes no DISK");
		return 0;
	}
	if (r->send_commands || r->probe) {
		if (optind < argc)
			return cli_usage_error(CMD_REPRO_NAME, "%s takes no DISK",
					       r->probe ? "--probe" :
					       "--send-commands");
		return 0;
	}
	if (r->restore_only) {
		if (optind < argc)
			return cli_usage_error(CMD_REPRO_NAME,
					       "--restore takes no DISK");
		return 0;
	}
	if (optind >= argc)
		return cli_usage_error(CMD_REPRO_NAME, "no DISK");
	if (optind + 1 < argc)
		return cli_usage_error(CMD_REPRO_NAME, "one DISK, not %d",
				       argc - optind);
	r->disk_arg = argv[optind];
	if (!r->dir)
		return cli_usage_error(CMD_REPRO_NAME, "-o DIR is required");
	return 0;
}

/* Only the probe workload, which writes nothing */
static bool cmd_repro_probe_only(const struct cmd_repro *r)
{
	for (unsigned int i = 0; i < r->nwork; i++)
		if (r->work[i] != CMD_REPRO_PROBE)
			return false;
	return true;
}

/*
 * DISK given as a USB mass-storage interface ("2-1:1.0") or device
 * ("2-1"): its interface into @iface.  0, or -ENOENT if it is none.
 */
static int cmd_repro_usb_arg(const char *arg, char *iface, size_t len)
{
	char names[32][SYSFS_USB_NAME_MAX];
	size_t n = strlen(arg);
	unsigned int cnt = 0;

	if (strchr(arg, '/') || !strchr(arg, '-') ||
	    sysfs_usb_iface_list(names, 32, &cnt))
		return -ENOENT;
	for (unsigned int i = 0; i < cnt; i++)
		if (!strcmp(names[i], arg) ||
		    (!strncmp(names[i], arg, n) && names[i][n] == ':')) {
			util_copy(iface, len, names[i], strlen(names[i]));
			return 0;
		}
	return -ENOENT;
}

/* The campaign's directory, and its runs/ */
static int cmd_repro_mkdirs(struct cmd_repro *r)
{
	char rel[PATH_MAX];

	if (mkdir(r->dir, 0755) && errno != EEXIST) {
		cmd_repro_say(r, "%s: %s", r->dir, strerror(errno));
		return -errno;
	}
	snprintf(rel, sizeof(rel), "%s/runs", r->dir);
	if (mkdir(rel, 0755)) {
		cmd_repro_say(r, "%s: %s%s", rel, strerror(errno),
			      errno == EEXIST ? " (DIR holds a campaign: give "
			      "another)" : "");
		return -errno;
	}
	return 0;
}

/* The USB interface's identity into @r */
static int cmd_repro_iface_id(struct cmd_repro *r)
{
	struct sysfs_usb_iface it;
	int err = sysfs_usb_iface_read(r->iface, &it);

	if (err) {
		cmd_repro_say(r, "%s: %s", r->iface, strerror(-err));
		return err;
	}
	r->vid = it.dev.vid;
	r->pid = it.dev.pid;
	util_copy(r->usb, sizeof(r->usb), it.usb, strlen(it.usb));
	util_copy(r->driver, sizeof(r->driver), it.driver, strlen(it.driver));
	sysfs_usb_iface_free(&it);
	return 0;
}

/*
 * The workloads a target takes: a directory the file-level ones (what is
 * written there is stress's own files), a disk the others
 */
static int cmd_repro_check_workloads(struct cmd_repro *r)
{
	if (r->dirmode && !r->workloads_set) {
		r->nwork = 2;
		r->work[0] = CMD_REPRO_SEQ;
		r->work[1] = CMD_REPRO_FILES;
	}
	for (unsigned int i = 0; i < r->nwork; i++) {
		enum cmd_repro_workload w = r->work[i];

		if (r->dirmode && w != CMD_REPRO_SEQ && w != CMD_REPRO_FILES)
			return cli_usage_error(CMD_REPRO_NAME, "--workloads %s: "
					       "needs the whole disk; on a "
					       "directory repro runs seq and "
					       "files", cmd_repro_workloads[w]);
		if (!r->dirmode && w == CMD_REPRO_FILES)
			return cli_usage_error(CMD_REPRO_NAME, "--workloads "
					       "files: needs a directory on a "
					       "mounted filesystem of the disk");
	}
	return 0;
}

/* the disk an existing path (or its nearest existing parent) is on, or "" */
static void cmd_repro_disk_of_path(const char *path, char *disk, size_t len)
{
	char p[PATH_MAX];
	struct usbdisk_where w;
	struct stat st;

	disk[0] = '\0';
	util_copy(p, sizeof(p), path, strlen(path));
	while (stat(p, &st)) {
		char *slash = strrchr(p, '/');

		if (!slash)
			snprintf(p, sizeof(p), ".");
		else if (slash == p)
			p[1] = '\0';
		else
			*slash = '\0';
	}
	if (!usbdisk_where_dev(st.st_dev, &w))
		util_copy(disk, len, w.disk.ident.disk,
			  strlen(w.disk.ident.disk));
}

/* A directory on a mounted filesystem of a USB disk */
static int cmd_repro_target_dir(struct cmd_repro *r, const struct stat *st)
{
	struct usbdisk_where w;
	char out[32];
	int err;

	if (!realpath(r->disk_arg, r->target)) {
		cmd_repro_say(r, "%s: %s", r->disk_arg, strerror(errno));
		return -errno;
	}
	if (usbdisk_where_dev(st->st_dev, &w) || !w.usb) {
		cmd_repro_say(r, "%s: not on a USB disk (%s)", r->disk_arg,
			      w.block[0] ? w.block : "not on a block device");
		return -ENODEV;
	}
	if (access(r->target, W_OK | X_OK)) {
		cmd_repro_say(r, "%s: %s", r->disk_arg, errno == EROFS ?
			      "a read-only filesystem" : strerror(errno));
		return -errno;
	}
	util_copy(r->disk, sizeof(r->disk), w.disk.ident.disk,
		  strlen(w.disk.ident.disk));
	err = sysfs_usb_iface_from_block(r->disk, r->iface, sizeof(r->iface));
	if (err) {
		cmd_repro_say(r, "%s: %s is not a USB disk", r->disk_arg,
			      r->disk);
		return err;
	}
	err = cmd_repro_iface_id(r);
	if (err)
		return err;
	/* a failing disk would take the recordings with it */
	cmd_repro_disk_of_path(r->dir, out, sizeof(out));
	if (!strcmp(out, r->disk)) {
		cmd_repro_say(r, "%s: on the disk under test (%s): the "
			      "recordings go elsewhere", r->dir, r->disk);
		return -EINVAL;
	}
	err = repro_dir_snapshot(&r->rdir, r->target);
	if (err) {
		cmd_repro_say(r, "%s: %s", r->target, strerror(-err));
		return err;
	}
	return cmd_repro_mkdirs(r);
}

/*
 * DISK to its block device name and its USB interface; the safety
 * checks.  A USB interface or device whose disk is there is taken as that
 * disk; one with no disk (its probe hangs, or failed) takes only the probe
 * workload.
 */
static int cmd_repro_target(struct cmd_repro *r)
{
	struct blkdev_open_opts bo = {
		/* the probe writes nothing: only "not mounted, not in use" */
		.destroy_data = r->destroy_data || cmd_repro_probe_only(r),
	};
	char real[PATH_MAX], rel[PATH_MAX], why[BLKDEV_WHY_MAX];
	struct blkdev_target t;
	const char *name;
	struct stat st;
	int err;

	if (r->dirmode && !stat(r->disk_arg, &st))
		return cmd_repro_target_dir(r, &st);
	if (!cmd_repro_usb_arg(r->disk_arg, r->iface, sizeof(r->iface))) {
		char disk[32];

		mitigate_disk_of(r->iface, disk, sizeof(disk));
		if (!disk[0]) {
			if (!cmd_repro_probe_only(r)) {
				cmd_repro_say(r, "%s: USB %s has no disk (its "
					      "probe may still be going on): "
					      "only --workloads probe runs on "
					      "it", r->disk_arg, r->iface);
				return -ENODEV;
			}
			err = cmd_repro_iface_id(r);
			return err ? err : cmd_repro_mkdirs(r);
		}
		snprintf(real, sizeof(real), "/dev/%s", disk);
	} else if (!strchr(r->disk_arg, '/'))
		snprintf(real, sizeof(real), "/dev/%s", r->disk_arg);
	else if (!realpath(r->disk_arg, real)) {
		cmd_repro_say(r, "%s: %s", r->disk_arg, strerror(errno));
		return -errno;
	}
	name = strrchr(real, '/') + 1;
	snprintf(rel, sizeof(rel), "/sys/block/%s", name);
	if (!sysfs_usb_exists(rel) && !strchr(r->disk_arg, '/') &&
	    strchr(r->disk_arg, '-')) {
		cmd_repro_say(r, "%s: no such disk, nor a USB storage device or "
			      "interface (as 2-1 or 2-1:1.0)", r->disk_arg);
		return -ENODEV;
	}
	if (!sysfs_usb_exists(rel)) {
		cmd_repro_say(r, "%s: not a whole disk (a partition or not a "
			      "block device): repro takes the disk", r->disk_arg);
		return -ENOTBLK;
	}
	util_copy(r->disk, sizeof(r->disk), name, strlen(name));
	err = sysfs_usb_iface_from_block(r->disk, r->iface, sizeof(r->iface));
	if (err) {
		cmd_repro_say(r, "%s: not a USB disk", r->disk_arg);
		return err;
	}
	err = cmd_repro_iface_id(r);
	if (err)
		return err;
	/* stress's checks, before anything is changed or written */
	err = blkdev_open(real, &bo, &t, why, sizeof(why));
	if (err) {
		cmd_repro_say(r, "%s", why);
		return err;
	}
	blkdev_close(&t);
	return cmd_repro_mkdirs(r);
}

static int cmd_repro_recover(struct cmd_repro *r)
{
	char why[512];
	int ret = mitigate_recover(r->state_path, why, sizeof(why));

	if (ret == 1)
		cmd_repro_say(r, "put back what an interrupted run changed "
			      "(%s)", r->state_path ? r->state_path :
			      MITIGATE_STATE_PATH);
	else if (ret < 0)
		cmd_repro_say(r, "%s", why);
	return ret < 0 ? ret : 0;
}

/* repro.json of o, whole or not at all */
static int cmd_repro_save_json(const struct cmd_repro *r, const char *dir,
			       json_object *o)
{
	const char *text = json_object_to_json_string_ext(o,
						JSON_C_TO_STRING_PRETTY);
	char path[PATH_MAX], tmp[PATH_MAX + 16];
	struct util_str b = { 0 };
	int err;

	snprintf(path, sizeof(path), "%s/repro.json", dir);
	util_str_printf(&b, "%s\n", text);
	err = b.oom ? -ENOMEM : savefile_write(path, b.s, b.len, tmp,
						sizeof(tmp));
	free(b.s);
	if (err)
		cmd_repro_say(r, "%s: %s", path, strerror(-err));
	return err;
}

/*
 * The campaign's files beside repro.json (repro_out.c): the patch,
 * report.html, the bundle; repro.json again with their names
 */
static int cmd_repro_outputs(const struct cmd_repro *r, const char *dir,
			     json_object *o)
{
	char tmp[PATH_MAX + 16] = "", msg[PATH_MAX + 200];
	struct repro_out_opts oo = {
		.dir = dir, .kernel_tree = r->kernel_tree, .author = r->author,
		.tmp = tmp, .tmplen = sizeof(tmp),
	};
	int err = repro_out_write(&oo, o, msg, sizeof(msg));

	if (err)
		cmd_repro_say(r, "%s: %s", msg, strerror(-err));
	/* with the names of the files made; not a result: left as it was */
	if (json_object_object_get_ex(o, "files", NULL) &&
	    cmd_repro_save_json(r, dir, o))
		err = err ? err : -EIO;
	return err;
}

/* --outputs DIR: a finished campaign's files made again */
static int cmd_repro_outputs_only(struct cmd_repro *r)
{
	char path[PATH_MAX];
	json_object *o, *files;
	int ret;

	snprintf(path, sizeof(path), "%s/repro.json", r->outputs);
	if (access(path, R_OK)) {
		cmd_repro_say(r, "%s: %s (not a campaign of usbtrail repro?)",
			      path, strerror(errno));
		return CLI_EXIT_FAILURE;
	}
	o = json_object_from_file(path);
	if (!o || !json_object_is_type(o, json_type_object)) {
		cmd_repro_say(r, "%s: not a JSON object", path);
		json_object_put(o);
		return CLI_EXIT_FAILURE;
	}
	ret = cmd_repro_outputs(r, r->outputs, o) ? CLI_EXIT_FAILURE :
						    CLI_EXIT_OK;
	if (json_object_object_get_ex(o, "files", &files)) {
		json_object_object_foreach(files, k, v) {
			(void)k;
			printf("%s/%s\n", r->outputs, json_object_get_string(v));
		}
	}
	json_object_put(o);
	return ret;
}

int cmd_repro_main(int argc, char **argv)
{
	struct cmd_repro *r;
	struct cmd_repro_result res;
	char why[512];
	json_object *o;
	int ret, err;

	r = calloc(1, sizeof(*r));
	if (!r)
		return CLI_EXIT_FAILURE;
	r->budget = 1800;
	r->size = 1ull << 30;
	r->soak = CMD_REPRO_SOAK_S;
	r->confidence = 0.95;
	r->nwork = 6;
	r->work[0] = CMD_REPRO_SEQ;
	r->work[1] = CMD_REPRO_CDM;
	r->work[2] = CMD_REPRO_COMMANDS;
	r->work[3] = CMD_REPRO_PROBE;
	r->work[4] = CMD_REPRO_FLUSH;
	r->work[5] = CMD_REPRO_SOAK;
	ret = cmd_repro_parse(r, argc, argv);
	if (ret) {
		free(r);
		return ret < 0 ? CLI_EXIT_OK : ret;
	}
	if (r->outputs) {
		ret = cmd_repro_outputs_only(r);
		free(r);
		return ret;
	}
	if (r->send_commands) {
		ret = cmd_repro_send_commands(r->send_commands,
					      r->cmd_timeout ?
					      (unsigned int)r->cmd_timeout : 30);
		free(r);
		return ret;
	}
	if (r->probe) {
		ret = cmd_repro_probe(r, r->cmd_timeout ?
				      (unsigned int)r->cmd_timeout : 30);
		free(r);
		return ret;
	}
	cmd_repro_catch_signals();
	if (cmd_repro_recover(r)) {
		free(r);
		return CLI_EXIT_FAILURE;
	}
	if (r->restore_only) {
		free(r);
		return CLI_EXIT_OK;
	}
	{
		struct stat st;

		r->dirmode = !stat(r->disk_arg, &st) && S_ISDIR(st.st_mode);
	}
	ret = cmd_repro_check_workloads(r);
	if (ret) {
		free(r);
		return ret;
	}
	if (r->dirmode && r->destroy_data) {
		ret = cli_usage_error(CMD_REPRO_NAME, "%s: a directory: repro "
				      "writes only its own files there, "
				      "--destroy-data is not for it",
				      r->disk_arg);
		free(r);
		return ret;
	}
	if (!r->destroy_data && !cmd_repro_probe_only(r) && !r->dirmode) {
		cmd_repro_say(r, "%s: repro writes all over the disk: give "
			      "--destroy-data", r->disk_arg);
		free(r);
		return CLI_EXIT_FAILURE;
	}
	if (cmd_repro_target(r)) {
		free(r);
		return CLI_EXIT_FAILURE;
	}
	err = mitigate_begin(&r->st, r->state_path, r->iface, r->vid, r->pid);
	if (err) {
		cmd_repro_say(r, "%s: %s", r->state_path ? r->state_path :
			      MITIGATE_STATE_PATH, strerror(-err));
		free(r);
		return CLI_EXIT_FAILURE;
	}
	util_copy(r->disk0, sizeof(r->disk0), r->disk, strlen(r->disk));
	err = cmd_repro_campaign(r, &res);
	ret = CLI_EXIT_OK;
	if (err == -EINTR || cmd_repro_stop) {
		cmd_repro_say(r, "interrupted (signal %d)", (int)cmd_repro_stop);
		ret = 4;
	} else if (err) {
		cmd_repro_say(r, "the campaign stopped: %s", strerror(-err));
		ret = CLI_EXIT_FAILURE;
	}
	if (mitigate_restore(&r->st, why, sizeof(why))) {
		cmd_repro_say(r, "could not put back %s; 'usbtrail repro "
			      "--restore' tries again", why);
		ret = CLI_EXIT_FAILURE;
	}
	if (r->dirmode)
		cmd_repro_dir_clean(r);
	/* the disk after the restore; the name given if it is not back yet */
	if (cmd_repro_find_disk(r, 10))
		util_copy(r->disk, sizeof(r->disk), r->disk0, strlen(r->disk0));
	if (!err && !cmd_repro_stop) {
		o = cmd_repro_json(r, &res);
		/* repro.json first: the bundle holds it */
		if (cmd_repro_save_json(r, r->dir, o) ||
		    cmd_repro_outputs(r, r->dir, o))
			ret = CLI_EXIT_FAILURE;
		if (r->json)
			puts(json_object_to_json_string_ext(o,
				JSON_C_TO_STRING_PRETTY));
		else
			cmd_repro_text(r, &res, o);
		json_object_put(o);
	}
	free(r->log);
	free(r);
	return ret;
}
