// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_sink_watch.c - unit tests of userspace/sink_watch.c, the store of
 * "usbtrail watch", on a directory under /tmp: what an incident recording
 * holds (the seconds before and after, one recording per burst), that the
 * ring stays within --keep and removes only what it made, and that a full
 * disk (a --wrap seam on util_write_all()) loses nothing that fits in the
 * store's buffer.
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "evjson.h"
#include "sink_watch.h"
#include "util.h"

#define SEC	1000000000ull
/* snprintf() into a path buffer, which must not cut it */
#define PATHF(buf, ...) \
	assert_true(snprintf(buf, sizeof(buf), __VA_ARGS__) < (int)sizeof(buf))

static int write_fail;		/* util_write_all() says ENOSPC */
static unsigned int write_calls_failed;

int __real_util_write_all(int fd, const void *buf, size_t len, size_t *done);
int __wrap_util_write_all(int fd, const void *buf, size_t len, size_t *done);

int __wrap_util_write_all(int fd, const void *buf, size_t len, size_t *done)
{
	if (write_fail) {
		write_calls_failed++;
		if (done)
			*done = 0;
		return -ENOSPC;
	}
	return __real_util_write_all(fd, buf, len, done);
}

static struct ev_clock test_clock;
static const struct derive_opts test_dip = DERIVE_OPTS_DEFAULT;

static void test_meta_fill(void *arg, struct meta_record *m)
{
	static const struct rec_stats none;

	(void)arg;
	memset(m, 0, sizeof(*m));
	m->version = "test";
	m->clock = &test_clock;
	m->stats = &none;
	m->dip = &test_dip;
	m->uas_err = -ENODEV;
}

static char captured[4][4200];
static unsigned int ncaptured;

static void test_on_capture(void *arg, const char *dir)
{
	(void)arg;
	if (ncaptured < 4)
		snprintf(captured[ncaptured], sizeof(captured[0]), "%s", dir);
	ncaptured++;
}

struct fix {
	char dir[64];
	struct rec_sink s;
	struct sink_watch_opts o;
	struct sink_watch_stats st;
};

static void fix_open(struct fix *f, uint64_t keep, uint64_t segment)
{
	snprintf(f->dir, sizeof(f->dir), "/tmp/test_sink_watch.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	memset(&f->o, 0, sizeof(f->o));
	f->o.dir = f->dir;
	f->o.keep_bytes = keep;
	f->o.before_s = 5;
	f->o.after_s = 3;
	f->o.segment_bytes = segment;
	f->o.segment_s = 900;
	f->o.clock = &test_clock;
	f->o.meta_fill = test_meta_fill;
	f->o.on_capture = test_on_capture;
	f->o.stats = &f->st;
	ncaptured = 0;
	assert_int_equal(sink_watch_open(&f->s, &f->o), 0);
}

static void rm_rf(const char *path)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	assert_int_equal(system(cmd), 0);
}

static void feed(struct fix *f, struct ev *ev)
{
	assert_int_equal(f->s.event(&f->s, ev), 0);
	ev_free(ev);
}

static struct ev *marker(uint64_t t_ns)
{
	struct ev *ev = ev_new(EV_MARKER, EV_SRC_RECORDER, t_ns);

	assert_non_null(ev);
	ev->u.marker.kind = EV_MARKER_NOTE;
	snprintf(ev->u.marker.text, sizeof(ev->u.marker.text),
		 "tick %llu ms, of about the length of a kernel line",
		 (unsigned long long)(t_ns / 1000000));
	return ev;
}

static struct ev *incident(uint64_t t_ns, enum classify_kind kind)
{
	struct ev *ev = ev_new(EV_INCIDENT, EV_SRC_RECORDER, t_ns);

	assert_non_null(ev);
	ev->u.incident.inc.kind = kind;
	snprintf(ev->ident.disk, sizeof(ev->ident.disk), "sdb");
	ev->u.incident.opcode = -1;
	ev->u.incident.lba = -1;
	return ev;
}

/* The events.jsonl of @dir: how many lines, the first and last time. */
static unsigned int read_events(const char *dir, uint64_t *first,
				uint64_t *last, unsigned int *incidents)
{
	char path[4300], line[16384];
	unsigned int n = 0;
	struct ev ev;
	FILE *fp;

	PATHF(path, "%s/events.jsonl", dir);
	fp = fopen(path, "r");
	assert_non_null(fp);
	*first = *last = 0;
	*incidents = 0;
	while (fgets(line, sizeof(line), fp)) {
		assert_int_equal(evjson_parse_event(line, strlen(line), &ev),
				 0);
		if (!n)
			*first = ev.t_ns;
		*last = ev.t_ns;
		if (ev.type == EV_INCIDENT)
			(*incidents)++;
		n++;
	}
	fclose(fp);
	return n;
}

static bool meta_complete(const char *dir)
{
	char path[4300], buf[65536];
	FILE *fp;
	size_t n;

	PATHF(path, "%s/meta.json", dir);
	fp = fopen(path, "r");
	if (!fp)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	return strstr(buf, "\"complete\":true") != NULL &&
	       strstr(buf, "kept by usbtrail watch") != NULL;
}

/* Two incidents a second apart and one 20 s later: two recordings. */
static void test_captures(void **state)
{
	uint64_t t, first, last;
	unsigned int n, inc;
	struct fix f;

	(void)state;
	fix_open(&f, 64ull << 20, 8u << 20);
	for (t = 10 * SEC; t <= 60 * SEC; t += SEC / 10) {
		feed(&f, marker(t));
		if (t == 30 * SEC)
			feed(&f, incident(t, CLASSIFY_TIMEOUT));
		if (t == 31 * SEC)
			feed(&f, incident(t, CLASSIFY_RESET));
		if (t == 50 * SEC)
			feed(&f, incident(t, CLASSIFY_DISCONNECT));
	}
	assert_int_equal(f.s.close(&f.s), 0);
	assert_int_equal(ncaptured, 2);
	assert_int_equal(f.st.captures, 2);
	assert_int_equal(f.st.incidents, 3);
	assert_non_null(strstr(captured[0], "/incidents/"));
	assert_non_null(strstr(captured[0], "-timeout-sdb"));
	assert_non_null(strstr(captured[1], "-disconnect-sdb"));

	/* 5 s before the first, until 3 s after the last of the burst */
	n = read_events(captured[0], &first, &last, &inc);
	assert_int_equal(first, 25 * SEC);
	assert_true(last >= 34 * SEC && last <= 34 * SEC + SEC / 10);
	assert_int_equal(inc, 2);
	assert_true(n >= 90 && n <= 95);
	assert_true(meta_complete(captured[0]));
	n = read_events(captured[1], &first, &last, &inc);
	assert_int_equal(first, 45 * SEC);
	assert_int_equal(inc, 1);
	assert_true(last >= 53 * SEC && last <= 53 * SEC + SEC / 10);
	assert_true(meta_complete(captured[1]));
	assert_int_equal(f.st.lost, 0);
	rm_rf(f.dir);
}

/*
 * An incident handed over 12 s after its time (a timeout's chain is
 * complete only with its outcome) is put in its place: its recording
 * starts 5 s before it, and the events in between are in it once.
 */
static void test_late_incident(void **state)
{
	uint64_t t, first, last;
	unsigned int n, inc;
	struct fix f;

	(void)state;
	fix_open(&f, 64ull << 20, 8u << 20);
	for (t = 10 * SEC; t <= 80 * SEC; t += SEC / 10) {
		feed(&f, marker(t));
		if (t == 42 * SEC)
			feed(&f, incident(30 * SEC, CLASSIFY_TIMEOUT));
	}
	assert_int_equal(f.s.close(&f.s), 0);
	assert_int_equal(ncaptured, 1);
	n = read_events(captured[0], &first, &last, &inc);
	assert_int_equal(first, 25 * SEC);
	assert_int_equal(inc, 1);
	assert_true(last >= 33 * SEC && last <= 33 * SEC + SEC / 10);
	/* 25.0 to 33.0 s in tenths, and the incident */
	assert_int_equal(n, 81 + 1);
	rm_rf(f.dir);
}

/* The size of the regular files below @dir (allocated, as du counts). */
static uint64_t du(const char *dir)
{
	char path[4400];
	uint64_t total = 0;
	struct dirent *d;
	struct stat st;
	DIR *dp = opendir(dir);

	assert_non_null(dp);
	while ((d = readdir(dp))) {
		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		PATHF(path, "%s/%s", dir, d->d_name);
		assert_int_equal(lstat(path, &st), 0);
		/* as du(1): a directory's own blocks too */
		total += (uint64_t)st.st_blocks * 512;
		if (S_ISDIR(st.st_mode))
			total += du(path);
	}
	closedir(dp);
	return total;
}

static unsigned int count_dirs(const char *dir)
{
	unsigned int n = 0;
	struct dirent *d;
	DIR *dp = opendir(dir);

	assert_non_null(dp);
	while ((d = readdir(dp)))
		if (d->d_name[0] != '.')
			n++;
	closedir(dp);
	return n;
}

/* 4 MiB of events into a store of 512 KiB: pruned, ours only. */
static void test_keep(void **state)
{
	char path[4300], mine[4300];
	uint64_t t, used, theirs;
	struct stat st;
	struct fix f;
	FILE *fp;

	(void)state;
	fix_open(&f, 512u << 10, 64u << 10);
	/* what the user put there is never ours to remove */
	PATHF(mine, "%s/ring/20200101T000000Z-mine", f.dir);
	assert_int_equal(mkdir(mine, 0755), 0);
	PATHF(path, "%s/notes.txt", mine);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("mine\n", fp);
	fclose(fp);

	for (t = SEC; t < 40000 * (SEC / 1000); t += SEC / 1000)
		feed(&f, marker(t));
	assert_int_equal(f.s.close(&f.s), 0);
	/*
	 * within --keep as du(1) counts the store, the directories too,
	 * but for what the user put there; ring pieces were removed,
	 * oldest first
	 */
	assert_int_equal(lstat(mine, &st), 0);
	theirs = du(mine) + (uint64_t)st.st_blocks * 512;
	assert_int_equal(lstat(f.dir, &st), 0);
	used = du(f.dir) + (uint64_t)st.st_blocks * 512;
	assert_true(used - theirs <= 512u << 10);
	PATHF(path, "%s/ring", f.dir);
	assert_true(f.st.pruned > 10);
	assert_true(count_dirs(path) >= 4);
	PATHF(path, "%s/notes.txt", mine);
	assert_int_equal(access(path, F_OK), 0);
	PATHF(path, "%s/ring/%s", f.dir,
		 "20200101T000000Z-mine");
	assert_int_equal(access(path, F_OK), 0);
	rm_rf(f.dir);
}

/*
 * Many small pieces: their directories take a block each, which --keep
 * counts as du(1) does (53-watch's store was 260 KiB over 112 MiB).
 */
static void test_keep_dirs(void **state)
{
	struct stat st;
	uint64_t t;
	struct fix f;

	(void)state;
	fix_open(&f, 256u << 10, 8u << 10);
	for (t = SEC; t < 8000 * (SEC / 1000); t += SEC / 1000)
		feed(&f, marker(t));
	assert_int_equal(f.s.close(&f.s), 0);
	assert_int_equal(lstat(f.dir, &st), 0);
	assert_true(du(f.dir) + (uint64_t)st.st_blocks * 512 <= 256u << 10);
	assert_true(f.st.pruned > 10);
	rm_rf(f.dir);
}

/* The disk is full for a while: the lines wait, then all are written. */
static void test_disk_full(void **state)
{
	uint64_t t, first, last, total = 0;
	unsigned int n, inc, fed = 0;
	char path[4300];
	struct dirent *d;
	struct fix f;
	DIR *dp;

	(void)state;
	fix_open(&f, 64ull << 20, 32u << 20);
	for (t = SEC; t <= 20 * SEC; t += SEC / 100) {
		write_fail = t >= 5 * SEC && t < 10 * SEC;
		feed(&f, marker(t));
		fed++;
		if (t == 7 * SEC) {
			feed(&f, incident(t, CLASSIFY_RESET));
			fed++;
		}
		if (t % SEC == 0)
			sink_watch_tick(&f.s, t);
	}
	write_fail = 0;
	assert_int_equal(f.s.close(&f.s), 0);
	assert_true(write_calls_failed > 0);
	assert_true(f.st.disk_full > 0);
	assert_int_equal(f.st.lost, 0);
	PATHF(path, "%s/ring", f.dir);
	dp = opendir(path);
	assert_non_null(dp);
	while ((d = readdir(dp))) {
		char piece[4400];

		if (d->d_name[0] == '.')
			continue;
		PATHF(piece, "%s/%s", path, d->d_name);
		total += read_events(piece, &first, &last, &inc);
	}
	closedir(dp);
	assert_int_equal(total, fed);
	/* and the incident's recording has its seconds, written late */
	assert_int_equal(ncaptured, 1);
	n = read_events(captured[0], &first, &last, &inc);
	assert_int_equal(first, 2 * SEC);
	assert_int_equal(inc, 1);
	assert_true(n > 500);
	rm_rf(f.dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_captures),
		cmocka_unit_test(test_late_incident),
		cmocka_unit_test(test_keep),
		cmocka_unit_test(test_keep_dirs),
		cmocka_unit_test(test_disk_full),
	};

	test_clock.boot_to_real_ns = 1764547200ll * 1000000000;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
