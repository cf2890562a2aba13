// SPDX-License-Identifier: GPL-2.0-only
/*
 * sink_watch.c - the store of "usbtrail watch": a bounded ring of
 * recordings on disk, and a recording of its own for every incident.
 *
 *   DIR/ring/<UTC start>-<n>/       events.jsonl, meta.json: every event,
 *                                   a new piece each --segment bytes or
 *                                   minutes, the oldest removed first
 *   DIR/incidents/<UTC>-<kind>-<disk>/
 *                                   the --before seconds before the first
 *                                   incident, everything until --after
 *                                   seconds after the last one close to it
 *
 * Each of them is a recording "usbtrail report" and "analyze" read as
 * they read one of "usbtrail record" (meta.json says it was watch's).
 * The seconds before an incident come from a window kept in memory (the
 * event lines of the last --before seconds, bounded in bytes), so an
 * incident recording does not depend on the ring piece still being there.
 *
 * Everything together stays within --keep bytes and --keep-days: the
 * oldest ring pieces go first, then the oldest incident recordings; the
 * open ones never.  Only directories named as this file names them, and
 * only the files it writes in them, are ever removed.
 *
 * A full disk does not stop watch: what could not be written stays in a
 * bounded buffer, the store makes room by pruning and tries again on the
 * next tick; only what overflows that buffer is lost, and counted
 * (meta.json's notes, the metrics, stderr).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "evjson.h"
#include "meta.h"
#include "owner.h"
#include "sink_watch.h"
#include "util.h"

#define WATCH_PENDING_MAX	(8u << 20)	/* unwritten bytes kept */
#define WATCH_FLUSH_AT		(256u << 10)	/* written once this is pending */
#define WATCH_WINDOW_MAX	(64u << 20)	/* the --before window */
#define WATCH_CAPTURE_MAX_S	600	/* one incident recording at most */
/* how late an incident may come and still be in its place (see below) */
#define WATCH_SETTLE_NS		(20ull * 1000000000)
#define WATCH_PRUNE_EVERY_NS	(10ull * 1000000000)
#define WATCH_DIR_MAX		3072	/* room for what goes below */
#define WATCH_META_RETRY	16	/* meta.json kept to write again */

/* One event line of the window, oldest first. */
struct watch_line {
	struct watch_line *next;
	uint64_t t_ns;
	enum ev_type type;
	int kind;			/* EV_INCIDENT: its classify_kind */
	struct ev_ident ident;
	struct ev *inc;			/* EV_INCIDENT: a copy, else NULL */
	size_t len;			/* with the newline */
	char text[];
};

/* An events.jsonl being written, and what its meta.json will say. */
struct watch_file {
	char dir[4096];
	int fd;				/* -1: none open */
	char *pending;			/* lines not yet written */
	size_t npending;
	uint64_t size;			/* bytes written */
	uint64_t first_ns, last_ns;
	uint64_t opened_ns;
	uint64_t lost;			/* lines that overflowed pending */
	struct rec_stats stats;
};

struct sink_watch {
	struct sink_watch_opts o;
	struct evjson_writer *w;
	struct watch_line *head, *tail;
	struct watch_line *todo;	/* the first not decided on yet */
	uint64_t done_ns;		/* the time of the last decided */
	size_t window_bytes;
	struct watch_file ring;
	uint64_t ring_seq;
	struct watch_file cap;		/* fd >= 0 while an incident is open */
	uint64_t cap_end_ns;		/* keep writing until then */
	uint64_t last_prune_ns;
	uint64_t since_prune;		/* bytes queued since the last prune */
	uint64_t last_ns;		/* the newest event's time */
	struct sink_watch_stats st;	/* copied to o.stats */
	/* closed files whose final meta.json could not be written (yet) */
	struct watch_file meta_retry[WATCH_META_RETRY];
	const char *meta_what[WATCH_META_RETRY];
	unsigned int nmeta_retry;
	bool failing;			/* writes fail: said once */
};

/* --- names and the directory ---------------------------------------------- */

static void watch_utc(char *buf, size_t len, time_t t)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y%m%dT%H%M%SZ", &tm);
}

/* The wall-clock second of boottime @t_ns. */
static time_t watch_wall(const struct sink_watch *w, uint64_t t_ns)
{
	return (time_t)((int64_t)(t_ns + (uint64_t)w->o.clock->boot_to_real_ns) /
			1000000000);
}

/* Keep [A-Za-z0-9._-] of @s: a device or kind name inside a file name. */
static void watch_clean(char *dst, size_t len, const char *s)
{
	size_t i = 0;

	for (; *s && i + 1 < len; s++)
		if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || *s == '.' || *s == '-' ||
		    *s == '_')
			dst[i++] = *s;
	dst[i] = '\0';
}

/* snprintf() into a path buffer: 0, or -ENAMETOOLONG when cut. */
static int watch_path(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int watch_path(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int watch_mkdir(const char *path)
{
	int fd;

	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	fd = owner_open(path, O_RDONLY | O_DIRECTORY, 0);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

/* --- one recording directory ---------------------------------------------- */

/* A write failed (@err) or worked again (0): said once each way. */
static void watch_state(struct sink_watch *w, const char *path, int err)
{
	if (!err && !w->failing)
		return;
	if (err)
		w->st.write_errors++;
	if (!!err == w->failing)
		return;
	w->failing = err != 0;
	if (w->o.on_error)
		w->o.on_error(w->o.arg, path, err);
}

static int watch_file_meta(struct sink_watch *w, struct watch_file *f,
			   bool done, const char *what)
{
	int ret;

	struct meta_record m;
	char notes[3][META_NOTE_LEN];
	unsigned int n = 0;

	w->o.meta_fill(w->o.arg, &m);
	f->stats.secs = f->last_ns > f->first_ns ?
		(double)(f->last_ns - f->first_ns) / 1e9 : 0;
	m.stats = &f->stats;
	m.started = watch_wall(w, f->first_ns ? f->first_ns : f->opened_ns);
	m.started_boot = f->first_ns ? f->first_ns : f->opened_ns;
	snprintf(notes[n++], META_NOTE_LEN, "kept by usbtrail watch: %s", what);
	snprintf(notes[n++], META_NOTE_LEN, "the sources' counts are those "
		 "since watch started");
	if (f->lost)
		snprintf(notes[n++], META_NOTE_LEN, "%llu events not stored: "
			 "the disk was full", (unsigned long long)f->lost);
	m.notes = (const char (*)[META_NOTE_LEN])notes;
	m.nnotes = n;
	ret = meta_write(f->dir, &m, done, 0);
	watch_state(w, f->dir, ret);
	return ret;
}

/* The final meta.json of a closed file again, where it failed before. */
static void watch_meta_retry(struct sink_watch *w)
{
	unsigned int i = 0;

	while (i < w->nmeta_retry) {
		if (watch_file_meta(w, &w->meta_retry[i], true,
				    w->meta_what[i])) {
			i++;
			continue;
		}
		w->nmeta_retry--;
		w->meta_retry[i] = w->meta_retry[w->nmeta_retry];
		w->meta_what[i] = w->meta_what[w->nmeta_retry];
	}
}

static int watch_file_open(struct sink_watch *w, struct watch_file *f,
			   const char *dir, uint64_t now_ns, const char *what)
{
	char path[4200];
	int ret;

	memset(&f->stats, 0, sizeof(f->stats));
	watch_path(f->dir, sizeof(f->dir), "%s", dir);
	ret = watch_mkdir(dir);
	if (ret)
		return ret;
	watch_path(path, sizeof(path), "%s/events.jsonl", dir);
	f->fd = owner_open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND, 0644);
	if (f->fd < 0) {
		ret = f->fd;
		rmdir(dir);
		return ret;
	}
	f->npending = 0;
	f->size = 0;
	f->first_ns = 0;
	f->last_ns = 0;
	f->lost = 0;
	f->opened_ns = now_ns;
	/* one that is not there now is written at the end, or retried */
	watch_file_meta(w, f, false, what);
	return 0;
}

/* Write what is pending.  0, or -errno with what did not fit kept. */
static int watch_file_flush(struct watch_file *f)
{
	size_t done = 0;
	int ret;

	if (f->fd < 0 || !f->npending)
		return 0;
	ret = util_write_all(f->fd, f->pending, f->npending, &done);
	if (ret) {
		/* whole lines only: cut back what a short write left half */
		while (done && f->pending[done - 1] != '\n')
			done--;
		if (ftruncate(f->fd, (off_t)(f->size + done)) < 0)
			ret = -errno;
	}
	f->size += done;
	memmove(f->pending, f->pending + done, f->npending - done);
	f->npending -= done;
	return ret;
}

/* Queue one line; what overflows WATCH_PENDING_MAX is lost, and counted. */
static void watch_file_put(struct watch_file *f, const char *text, size_t len,
			   uint64_t t_ns, enum ev_type type, int kind)
{
	if (f->npending + len > WATCH_PENDING_MAX) {
		f->lost++;
		return;
	}
	memcpy(f->pending + f->npending, text, len);
	f->npending += len;
	if (!f->first_ns)
		f->first_ns = t_ns;
	f->last_ns = t_ns;
	f->stats.by_type[type < EV_TYPE_MAX ? type : 0]++;
	if (type == EV_INCIDENT) {
		f->stats.incidents++;
		if (kind >= 0 && kind < CLASSIFY_KIND_COUNT)
			f->stats.by_kind[kind]++;
	}
}

static void watch_file_close(struct sink_watch *w, struct watch_file *f,
			     const char *what)
{
	size_t i;

	if (f->fd < 0)
		return;
	if (watch_file_flush(f)) {
		/* the lines that could not be written are lost now */
		for (i = 0; i < f->npending; i++)
			if (f->pending[i] == '\n')
				f->lost++;
		f->npending = 0;
	}
	close(f->fd);
	f->fd = -1;
	if (watch_file_meta(w, f, true, what)) {
		if (w->nmeta_retry < WATCH_META_RETRY) {
			w->meta_retry[w->nmeta_retry] = *f;
			w->meta_retry[w->nmeta_retry].pending = NULL;
			w->meta_what[w->nmeta_retry++] = what;
		}
	}
	w->st.lost += f->lost;
}

/* --- pruning -------------------------------------------------------------- */

/* One of our directories: the size of the files in it, its age. */
struct watch_entry {
	char path[4200];
	uint64_t bytes;
	time_t mtime;
};

static const char *const watch_files[] = {
	"events.jsonl", "meta.json", ".meta.json.tmp", NULL
};

/* A directory name we made: it starts with a UTC stamp, 20261201T... */
static bool watch_ours(const char *name)
{
	return strlen(name) > 16 && name[8] == 'T' && name[15] == 'Z' &&
	       name[16] == '-' && !strchr(name, '/');
}

/* The disk space @path takes itself: a directory's own blocks too */
static uint64_t watch_blocks(const char *path)
{
	struct stat st;

	return lstat(path, &st) ? 0 : (uint64_t)st.st_blocks * 512;
}

static void watch_entry_stat(struct watch_entry *e)
{
	char p[4400];
	struct stat st;
	unsigned int i;

	/* as du(1) counts it: the directory, then the files we write */
	e->bytes = watch_blocks(e->path);
	e->mtime = 0;
	for (i = 0; watch_files[i]; i++) {
		watch_path(p, sizeof(p), "%s/%s", e->path, watch_files[i]);
		if (lstat(p, &st) || !S_ISREG(st.st_mode))
			continue;
		e->bytes += (uint64_t)st.st_blocks * 512;
		if (st.st_mtime > e->mtime)
			e->mtime = st.st_mtime;
	}
}

static int watch_entry_cmp(const void *a, const void *b)
{
	const struct watch_entry *x = a, *y = b;
	const char *nx = strrchr(x->path, '/'), *ny = strrchr(y->path, '/');

	return strcmp(nx ? nx : x->path, ny ? ny : y->path);
}

/*
 * Our directories in @sub ("ring", "incidents"), oldest first, into a
 * malloc'd array.  Return: how many, or -errno.
 */
static int watch_list(const struct sink_watch *w, const char *sub,
		      struct watch_entry **out)
{
	struct watch_entry *v = NULL, *nv;
	size_t n = 0, cap = 0;
	char dir[4200];
	struct dirent *d;
	DIR *dp;

	watch_path(dir, sizeof(dir), "%s/%s", w->o.dir, sub);
	dp = opendir(dir);
	if (!dp) {
		*out = NULL;
		return errno == ENOENT ? 0 : -errno;
	}
	while ((d = readdir(dp))) {
		if (!watch_ours(d->d_name))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(v);
				closedir(dp);
				return -ENOMEM;
			}
			v = nv;
		}
		watch_path(v[n].path, sizeof(v[n].path), "%s/%s", dir, d->d_name);
		watch_entry_stat(&v[n]);
		n++;
	}
	closedir(dp);
	if (n)
		qsort(v, n, sizeof(*v), watch_entry_cmp);
	*out = v;
	return (int)n;
}

/* Remove the files we write in @path, then @path if that empties it. */
static void watch_remove(struct sink_watch *w, const char *path)
{
	char p[4400];
	unsigned int i;

	for (i = 0; watch_files[i]; i++) {
		watch_path(p, sizeof(p), "%s/%s", path, watch_files[i]);
		unlink(p);
	}
	if (rmdir(path) == 0)
		w->st.pruned++;
}

static bool watch_is_open(const struct sink_watch *w, const char *path)
{
	return (w->ring.fd >= 0 && !strcmp(path, w->ring.dir)) ||
	       (w->cap.fd >= 0 && !strcmp(path, w->cap.dir));
}

/*
 * Within --keep and --keep-days: the oldest ring pieces, then the oldest
 * incident recordings, never an open one.  @need: bytes to free beyond
 * that (a full disk).
 */
static void watch_prune(struct sink_watch *w, uint64_t need)
{
	struct watch_entry *ring = NULL, *inc = NULL;
	int nring, ninc, i;
	uint64_t total;
	char dir[4200];
	time_t old = 0;

	/* the store's own directories count too */
	total = watch_blocks(w->o.dir);
	watch_path(dir, sizeof(dir), "%s/ring", w->o.dir);
	total += watch_blocks(dir);
	watch_path(dir, sizeof(dir), "%s/incidents", w->o.dir);
	total += watch_blocks(dir);

	nring = watch_list(w, "ring", &ring);
	ninc = watch_list(w, "incidents", &inc);
	if (nring < 0)
		nring = 0;
	if (ninc < 0)
		ninc = 0;
	for (i = 0; i < nring; i++)
		total += ring[i].bytes;
	for (i = 0; i < ninc; i++)
		total += inc[i].bytes;
	total += w->ring.npending + w->cap.npending;
	if (w->o.keep_days)
		old = time(NULL) - (time_t)w->o.keep_days * 86400;
	for (i = 0; i < nring; i++) {
		if (watch_is_open(w, ring[i].path))
			continue;
		if (total + need <= w->o.keep_bytes &&
		    (!old || ring[i].mtime >= old))
			continue;
		watch_remove(w, ring[i].path);
		total -= ring[i].bytes < total ? ring[i].bytes : total;
		need -= ring[i].bytes < need ? ring[i].bytes : need;
	}
	for (i = 0; i < ninc; i++) {
		if (watch_is_open(w, inc[i].path))
			continue;
		if (total + need <= w->o.keep_bytes &&
		    (!old || inc[i].mtime >= old))
			continue;
		watch_remove(w, inc[i].path);
		total -= inc[i].bytes < total ? inc[i].bytes : total;
		need -= inc[i].bytes < need ? inc[i].bytes : need;
	}
	w->st.stored_bytes = total;
	free(ring);
	free(inc);
}

/* --- the ring and the incident recordings --------------------------------- */

static int watch_ring_open(struct sink_watch *w, uint64_t t_ns)
{
	char dir[4200], stamp[32];
	int ret;

	watch_utc(stamp, sizeof(stamp), watch_wall(w, t_ns));
	w->ring_seq++;
	watch_path(dir, sizeof(dir), "%s/ring/%s-%06llu", w->o.dir, stamp,
		   (unsigned long long)w->ring_seq);
	ret = watch_file_open(w, &w->ring, dir, t_ns, "a piece of the ring");
	if (ret)
		w->st.write_errors++;
	return ret;
}

static void watch_ring_rotate(struct sink_watch *w, uint64_t t_ns)
{
	watch_file_close(w, &w->ring, "a piece of the ring");
	watch_prune(w, 0);
	watch_ring_open(w, t_ns);
}

static void watch_cap_close(struct sink_watch *w)
{
	watch_file_close(w, &w->cap, "the seconds around an incident");
	w->st.captures++;
}

/* The first incident of a new incident recording: open it, window first. */
static void watch_cap_open(struct sink_watch *w, const struct watch_line *inc,
			   const struct ev_ident *id)
{
	char dir[4200], stamp[32], kind[32], disk[40];
	const struct watch_line *l;
	uint64_t from;
	unsigned int i;
	struct stat st;

	watch_utc(stamp, sizeof(stamp), watch_wall(w, inc->t_ns));
	watch_clean(kind, sizeof(kind), classify_kind_name(inc->kind));
	watch_clean(disk, sizeof(disk), id->disk[0] ? id->disk :
		    id->usb[0] ? id->usb : "host");
	for (i = 0; i < 100; i++) {
		watch_path(dir, sizeof(dir), "%s/incidents/%s-%s-%s%s%.0u",
			   w->o.dir, stamp, kind, disk, i ? "-" : "", i);
		if (lstat(dir, &st))
			break;
	}
	if (watch_file_open(w, &w->cap, dir, inc->t_ns,
			    "the seconds around an incident")) {
		w->st.write_errors++;
		return;
	}
	from = inc->t_ns > (uint64_t)w->o.before_s * 1000000000 ?
		inc->t_ns - (uint64_t)w->o.before_s * 1000000000 : 0;
	/*
	 * Written as it goes: --before seconds of a busy disk's records are
	 * more than the pending buffer holds (a 1 MiB write loop in the test
	 * bed makes some 3 MB of lines a second).
	 */
	for (l = w->head; l && l != inc; l = l->next) {
		if (l->t_ns < from)
			continue;
		watch_file_put(&w->cap, l->text, l->len, l->t_ns, l->type,
			       l->kind);
		if (w->cap.npending > WATCH_FLUSH_AT)
			watch_file_flush(&w->cap);
	}
	w->cap_end_ns = inc->t_ns + (uint64_t)w->o.after_s * 1000000000;
	if (w->o.on_capture)
		w->o.on_capture(w->o.arg, dir);
}

/*
 * One line of the window, in time order, into the incident recording:
 * the end of the one open, the start of a new one, or a line of it.
 */
static void watch_decide(struct sink_watch *w, struct watch_line *l)
{
	if (w->cap.fd >= 0 && (l->t_ns > w->cap_end_ns ||
			       l->t_ns >= w->cap.first_ns +
			       (uint64_t)WATCH_CAPTURE_MAX_S * 1000000000))
		watch_cap_close(w);
	if (l->type == EV_INCIDENT) {
		if (w->cap.fd < 0)
			watch_cap_open(w, l, &l->ident);
		else if (l->t_ns + (uint64_t)w->o.after_s * 1000000000 >
			 w->cap_end_ns)
			w->cap_end_ns = l->t_ns +
				(uint64_t)w->o.after_s * 1000000000;
	}
	if (w->cap.fd >= 0)
		watch_file_put(&w->cap, l->text, l->len, l->t_ns, l->type,
			       l->kind);
	if (l->inc && w->o.on_incident)
		w->o.on_incident(w->o.arg, l->inc,
				 w->cap.fd >= 0 ? w->cap.dir : NULL);
	w->done_ns = l->t_ns;
}

static void watch_line_free(struct watch_line *l)
{
	ev_free(l->inc);
	free(l);
}

/*
 * Decide every line up to @mark (all with UINT64_MAX), then let go of
 * what is older than --before behind the last one decided.
 */
static void watch_settle(struct sink_watch *w, uint64_t mark)
{
	uint64_t keep_ns = (uint64_t)w->o.before_s * 1000000000;
	struct watch_line *l;

	while (w->todo && (w->todo->t_ns <= mark ||
			   w->window_bytes > WATCH_WINDOW_MAX)) {
		watch_decide(w, w->todo);
		w->todo = w->todo->next;
	}
	while (w->head && w->head != w->todo &&
	       (w->head->t_ns + keep_ns < w->done_ns ||
		w->window_bytes > WATCH_WINDOW_MAX)) {
		l = w->head;
		w->head = l->next;
		if (!w->head)
			w->tail = NULL;
		w->window_bytes -= l->len;
		watch_line_free(l);
	}
}

/*
 * The window: every line of the last --before seconds and of the
 * WATCH_SETTLE_S not yet decided, in time order.  The recorder hands
 * incidents over when they are complete (a timeout's chain ends with its
 * outcome), so an incident can come after events newer than it: it goes
 * into its place, and a recording is decided on only once nothing older
 * can come.  One that comes later still is decided at once.
 */
static void watch_window_add(struct sink_watch *w, const struct ev *ev,
			     const char *text, size_t len)
{
	struct watch_line *l, *p, *prev = NULL;
	uint64_t done;

	l = malloc(sizeof(*l) + len);
	if (!l)
		return;		/* the window is a copy: the ring has it */
	l->next = NULL;
	l->t_ns = ev->t_ns;
	l->type = ev->type;
	l->kind = ev->type == EV_INCIDENT ? (int)ev->u.incident.inc.kind : -1;
	l->ident = ev->ident;
	l->inc = NULL;
	if (ev->type == EV_INCIDENT) {
		l->inc = ev_new(EV_INCIDENT, ev->source, ev->t_ns);
		if (l->inc) {
			l->inc->id = ev->id;
			l->inc->ident = ev->ident;
			l->inc->u.incident = ev->u.incident;
		}
	}
	l->len = len;
	memcpy(l->text, text, len);
	w->window_bytes += len;
	if (!w->tail || w->tail->t_ns <= l->t_ns) {
		if (w->tail)
			w->tail->next = l;
		else
			w->head = l;
		w->tail = l;
		if (!w->todo)
			w->todo = l;
		return;
	}
	/* older than the newest: into its place, after its equals */
	for (p = w->head; p && p->t_ns <= l->t_ns; p = p->next)
		prev = p;
	l->next = p;
	if (prev)
		prev->next = l;
	else
		w->head = l;
	if (!w->done_ns || l->t_ns >= w->done_ns) {
		/* among the undecided (what follows a decided one is todo) */
		if (p == w->todo)
			w->todo = l;
		return;
	}
	/* older than what was decided: decided now, where it stands */
	done = w->done_ns;
	watch_decide(w, l);
	w->done_ns = done;
}

/* Flush both files; on a full disk, prune and try once more. */
static void watch_flush(struct sink_watch *w)
{
	size_t had = w->ring.npending + w->cap.npending;
	int ret = watch_file_flush(&w->ring);
	int ret2 = watch_file_flush(&w->cap);

	if (!ret && !ret2) {
		/* writing again: once lines really were written */
		if (w->failing && had && (w->ring.fd >= 0 || w->cap.fd >= 0))
			watch_state(w, w->ring.fd >= 0 ? w->ring.dir :
				    w->cap.dir, 0);
		return;
	}
	if (ret == -ENOSPC || ret2 == -ENOSPC || ret == -EDQUOT ||
	    ret2 == -EDQUOT) {
		w->st.disk_full++;
		watch_prune(w, w->ring.npending + w->cap.npending +
			    WATCH_PENDING_MAX);
		ret = watch_file_flush(&w->ring);
		ret2 = watch_file_flush(&w->cap);
	}
	if (ret)
		watch_state(w, w->ring.dir, ret);
	else if (ret2)
		watch_state(w, w->cap.dir, ret2);
}

static int sink_watch_event(struct rec_sink *s, const struct ev *ev)
{
	struct sink_watch *w = s->priv;
	const char *line;
	char *text;
	size_t n;
	int kind = -1;

	if (evjson_writer_line(w->w, ev, &line, &n))
		return 0;
	text = malloc(n + 1);
	if (!text) {
		w->st.lost++;
		return 0;
	}
	memcpy(text, line, n);
	text[n++] = '\n';
	w->last_ns = ev->t_ns;
	if (ev->type == EV_INCIDENT) {
		kind = (int)ev->u.incident.inc.kind;
		w->st.incidents++;
	}

	/* a ring piece that could not be opened is tried again on the tick */
	if (w->ring.fd >= 0 &&
	    (w->ring.size + w->ring.npending >= w->o.segment_bytes ||
	     ev->t_ns >= w->ring.opened_ns +
			 (uint64_t)w->o.segment_s * 1000000000))
		watch_ring_rotate(w, ev->t_ns);
	if (w->ring.fd >= 0)
		watch_file_put(&w->ring, text, n, ev->t_ns, ev->type, kind);
	else
		w->st.lost++;

	watch_window_add(w, ev, text, n);
	free(text);
	/* the bound holds between ticks too: a prune per 1/32 of it */
	w->since_prune += n;
	if (w->since_prune > w->o.keep_bytes / 32) {
		w->since_prune = 0;
		watch_flush(w);
		watch_prune(w, 0);
	}
	if (w->tail && w->tail->t_ns > WATCH_SETTLE_NS)
		watch_settle(w, w->tail->t_ns - WATCH_SETTLE_NS);
	if (ev->type == EV_INCIDENT ||
	    w->ring.npending + w->cap.npending > WATCH_FLUSH_AT)
		watch_flush(w);
	return 0;
}

/* The counts into the caller's copy, which outlives the sink. */
static void watch_stats_out(const struct sink_watch *w)
{
	if (w->o.stats)
		*w->o.stats = w->st;
}

void sink_watch_tick(struct rec_sink *s, uint64_t now_ns)
{
	struct sink_watch *w = s->priv;
	/* what the recorder still holds is at most this old */
	uint64_t held = (uint64_t)(REC_REORDER_MS + DERIVE_HOLD_MS + 1500) *
			1000000;

	if (!w)
		return;
	if (now_ns > held + WATCH_SETTLE_NS)
		watch_settle(w, now_ns - held - WATCH_SETTLE_NS);
	if (w->cap.fd >= 0 && now_ns > w->cap_end_ns + held + WATCH_SETTLE_NS)
		watch_cap_close(w);
	watch_flush(w);
	if (w->ring.fd >= 0 && now_ns >= w->ring.opened_ns +
	    (uint64_t)w->o.segment_s * 1000000000 + held)
		watch_ring_rotate(w, now_ns);
	if (w->ring.fd < 0)
		watch_ring_open(w, now_ns);
	if (now_ns >= w->last_prune_ns + WATCH_PRUNE_EVERY_NS) {
		w->last_prune_ns = now_ns;
		w->since_prune = 0;
		watch_prune(w, 0);
	}
	if (w->nmeta_retry)
		watch_meta_retry(w);
	w->st.lost_pending = w->ring.lost + w->cap.lost;
	watch_stats_out(w);
}

void sink_watch_reconfigure(struct rec_sink *s, const struct sink_watch_opts *o)
{
	struct sink_watch *w = s->priv;

	w->o.keep_bytes = o->keep_bytes;
	w->o.keep_days = o->keep_days;
	w->o.before_s = o->before_s;
	w->o.after_s = o->after_s;
	w->o.segment_bytes = o->segment_bytes;
	w->o.segment_s = o->segment_s;
	watch_ring_rotate(w, w->last_ns > w->ring.opened_ns ? w->last_ns :
			  w->ring.opened_ns + 1);
}


static int sink_watch_close(struct rec_sink *s)
{
	struct sink_watch *w = s->priv;
	struct watch_line *l;

	if (!w)
		return 0;
	watch_settle(w, UINT64_MAX);
	watch_flush(w);
	if (w->cap.fd >= 0)
		watch_cap_close(w);
	watch_file_close(w, &w->ring, "a piece of the ring");
	watch_prune(w, 0);
	watch_meta_retry(w);
	w->st.lost_pending = 0;
	watch_stats_out(w);
	while ((l = w->head)) {
		w->head = l->next;
		watch_line_free(l);
	}
	evjson_writer_free(w->w);
	free(w->ring.pending);
	free(w->cap.pending);
	free(w);
	s->priv = NULL;
	return 0;
}

int sink_watch_open(struct rec_sink *s, const struct sink_watch_opts *o)
{
	struct sink_watch *w;
	char path[4200];
	int ret;

	/* so that every path below DIR fits (watch_path() cuts nothing) */
	if (strlen(o->dir) > WATCH_DIR_MAX)
		return -ENAMETOOLONG;
	ret = watch_mkdir(o->dir);
	if (!ret) {
		watch_path(path, sizeof(path), "%s/ring", o->dir);
		ret = watch_mkdir(path);
	}
	if (!ret) {
		watch_path(path, sizeof(path), "%s/incidents", o->dir);
		ret = watch_mkdir(path);
	}
	if (ret)
		return ret;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->o = *o;
	w->ring.fd = -1;
	w->cap.fd = -1;
	w->w = evjson_writer_new();
	w->ring.pending = malloc(WATCH_PENDING_MAX);
	w->cap.pending = malloc(WATCH_PENDING_MAX);
	if (!w->w || !w->ring.pending || !w->cap.pending) {
		evjson_writer_free(w->w);
		free(w->ring.pending);
		free(w->cap.pending);
		free(w);
		return -ENOMEM;
	}
	memset(s, 0, sizeof(*s));
	s->name = "watch";
	s->event = sink_watch_event;
	s->close = sink_watch_close;
	s->priv = w;
	watch_path(s->path, sizeof(s->path), "%s", o->dir);
	watch_prune(w, 0);
	ret = watch_ring_open(w, ev_clock_now());
	if (ret) {
		sink_watch_close(s);
		memset(s, 0, sizeof(*s));
	}
	return ret;
}
