/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * recording.h - a recording directory of "usbtrail record" read back for
 * "usbtrail report": meta.json and events.jsonl (docs/formats.md) into
 * tables the report writers and the bundle walk.
 *
 * Data flow: recording_load() (files) -> recording_parse_meta() and
 * recording_parse_events() (bytes) -> struct recording -> report_text.c,
 * report_html.c, bundle.c.  Malformed lines are counted and skipped,
 * never fatal; a line cut short at the end (a recording killed while
 * writing) counts as malformed too.
 */
#ifndef USBTRAIL_RECORDING_H
#define USBTRAIL_RECORDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "event.h"

/* Limits on what one recording may make us hold (a user controls it). */
#define RECORDING_EVENTS_MAX	(8u << 20)	/* lines kept, any type */
#define RECORDING_DISKS_MAX	64
#define RECORDING_EPS_MAX	256
#define RECORDING_STRESS_MAX	128	/* cdm's 9 passes: 81 */

/* A trace record, kept small: there are many. */
struct recording_trace {
	uint64_t id;
	uint64_t t_ns;
	struct usbtrail_record rec;
};

/* One disk: its last device event and its throughput samples. */
struct recording_disk {
	char disk[32];
	char usb[48];
	bool have_device;
	struct ev_device device;	/* the last device event seen */
	int busnum, devnum;
	size_t nsamples;
	size_t first_sample;		/* index into samples[] of the first */
	double max_mbps;
	uint64_t read_bytes, write_bytes;
};

struct recording_sample {
	uint64_t t_ns;			/* start of the interval */
	unsigned int disk;		/* index into disks[] */
	struct ev_sample s;
};

/* Completion codes of one endpoint, from xhci-transfer trace records. */
struct recording_ep {
	int busnum, devnum;
	unsigned int epaddr;		/* 0xff: not known */
	unsigned int dci;
	char disk[32];
	uint64_t total;
	uint64_t cc[256];
};

/* One phase of "usbtrail stress" from its markers. */
struct recording_stress {
	char name[32];			/* as in the marker: "Seq-Write" */
	char run[32];			/* the run's id (hex), "" if none */
	bool write, random;
	uint32_t block;
	unsigned int qd;
	int pass;			/* cdm: 0 the warm-up, 1...; else -1 */
	uint64_t bytes;
	double secs;
	double mbps;			/* stress's own figure; else bytes/secs */
	unsigned int errors;
	bool ended, stopped;
	uint64_t t_start_ns, t_end_ns;
	/* completion latency, as stress's table: microseconds; -1 if none */
	double lat_p50_us, lat_p99_us, lat_p999_us, lat_max_us;
};

/* A run of "usbtrail stress" from its run start and end markers. */
struct recording_stress_run {
	char run[32];			/* its id (hex) */
	char target[128];		/* as the user named it */
	/* its disk and USB path; "-": none, "": unnamed (older stress) */
	char disk[32], usb[48];
	bool ended;
	bool fake;			/* the verdict: fake capacity */
	uint64_t usable, wrap;		/* then: bytes */
};

#define RECORDING_STRESS_RUNS_MAX	16

/*
 * A row of the report's stress table, as "usbtrail stress" printed it:
 * a CrystalDiskMark test (phases with pass=) of one run is one row, each
 * way its best scored pass (the warm-up left out); another phase is a
 * row of its own, read and write of one label side by side.
 */
struct recording_stress_row {
	char label[32];			/* "SEQ1M Q8T1" */
	const struct recording_stress *rd, *wr;	/* NULL: none */
	bool rd_cut, wr_cut;		/* one did not end: no rate */
	unsigned int errors;		/* of every phase of the row */
};

struct recording {
	struct json_object *meta;	/* NULL if meta.json was unusable */
	int payload;			/* meta.json "payload"; -1 unknown */
	bool payload_set;		/* meta.json "payload_set": on purpose */
	uint64_t boot_to_real_ns;
	bool have_boot_to_real;
	double seconds;			/* meta.json "seconds"; -1 unknown */

	/* events other than trace, usbmon and sample, in file order */
	struct ev *evs;
	size_t nevs, capevs;
	struct recording_trace *traces;
	size_t ntraces, captraces;
	struct recording_sample *samples;	/* grouped by disk after load */
	size_t nsamples, capsamples;

	struct recording_disk disks[RECORDING_DISKS_MAX];
	unsigned int ndisks;
	struct recording_ep eps[RECORDING_EPS_MAX];
	unsigned int neps;
	struct recording_stress stress[RECORDING_STRESS_MAX];
	unsigned int nstress;
	struct recording_stress_run runs[RECORDING_STRESS_RUNS_MAX];
	unsigned int nruns;

	/* sorted by id after load: where each id is */
	struct recording_idx *index;
	size_t nindex;

	uint64_t t_first_ns, t_last_ns;	/* over every event read */
	uint64_t lines, malformed, usbmon, skipped;
	/*
	 * capture.pcapng: packets read (trace and usbmon), its usbmon ones,
	 * packets of ours not read
	 */
	uint64_t captured, capture_usbmon, capture_bad;
	char capture_note[160];		/* why the capture was cut, or "" */
	uint64_t count[EV_TYPE_MAX];
	bool finished;			/* recording_finish() ran */
};

struct recording_idx {
	uint64_t id;
	bool trace;
	size_t i;			/* into traces[] or evs[] */
};

/* Zero *r for the calls below. */
void recording_init(struct recording *r);
/* Free what r holds; r may be zeroed or partly filled. */
void recording_free(struct recording *r);

/*
 * meta.json from bytes.  Returns 0, or -EINVAL if it is not a JSON
 * object (r->meta stays NULL; the events still make a report).
 */
int recording_parse_meta(struct recording *r, const char *buf, size_t len);

/*
 * Lines of events.jsonl from bytes; call once or several times with whole
 * lines, then recording_finish().  Malformed lines are counted in
 * r->malformed.  Returns 0 or -ENOMEM.
 */
int recording_parse_events(struct recording *r, const char *buf, size_t len);

/*
 * capture.pcapng from bytes: the trace records of its usbtrail interfaces
 * (recpkt.h) are added as events.jsonl's trace lines are, its usbmon
 * packets counted.  What cannot be read (a damaged block at the end, a
 * packet not of this format, another byte order) is counted or said in
 * r->capture_note, never fatal.  Returns 0 or -ENOMEM.
 */
int recording_parse_capture(struct recording *r, const uint8_t *buf,
			    size_t len);

/* Sort samples and the id index once all lines are in.  0 or -ENOMEM. */
int recording_finish(struct recording *r);

/* A file mapped read-only, whole (len 0 when empty or, if optional, absent). */
struct recording_map {
	const uint8_t *p;
	size_t len;
};

/*
 * PATH mapped into *m (MADV_SEQUENTIAL): a recording's files may be bigger
 * than memory.  0, or -errno (-EINVAL: not a regular file); a file that is
 * not there gives len 0 and 0 when @optional.
 */
int recording_map_file(const char *path, bool optional,
		       struct recording_map *m);

void recording_unmap(struct recording_map *m);

/* DIR/meta.json alone: 0, or -errno / -EINVAL (r->meta stays NULL). */
int recording_load_meta(struct recording *r, const char *dir);

/*
 * Read DIR/meta.json, DIR/events.jsonl (which must exist) and
 * DIR/capture.pcapng (if there is one) and finish.  Returns 0 or a negative errno (-ENOENT: no events.jsonl);
 * *what names the file that failed.
 */
int recording_load(struct recording *r, const char *dir, const char **what);

/*
 * The same for a bundle of "usbtrail report --bundle" (a tar, compressed
 * or not, as loginput.c reads): its meta.json, events.jsonl and
 * capture.pcapng (members of those names in any one directory).  Returns 0 or a
 * negative errno (-ENOENT: no events.jsonl in it, -EBADMSG: not a tar or
 * damaged); *what names the member that failed, "" the archive itself.
 */
int recording_load_bundle(struct recording *r, const char *path,
			  const char **what);

/*
 * The same for an events.jsonl file named by itself (no meta.json): what
 * "usbtrail analyze FILE.jsonl" reads.  0 or a negative errno.
 */
int recording_load_events(struct recording *r, const char *path);

/* The event with this id: exactly one of *ev, *tr is set.  0 or -ENOENT. */
int recording_find(const struct recording *r, uint64_t id,
		   const struct ev **ev, const struct recording_trace **tr);

/*
 * One line naming the event with this id for the evidence lists: "klog
 * sd 0:0:0:0: [sda] ...", "trace 10.63 scsi-sense ...".  Its time in *t_ns.
 * Returns the length (like snprintf) or -ENOENT.
 */
int recording_describe(const struct recording *r, uint64_t id, char *buf,
		       size_t len, uint64_t *t_ns);

/*
 * The distinct non-empty serial numbers of the device events, at most
 * max, into out (pointing into r).  Returns how many.
 */
unsigned int recording_serials(const struct recording *r, const char **out,
			       unsigned int max);

/* The index of DISK in r->disks, or -1. */
int recording_disk_find(const struct recording *r, const char *disk);

/* xHCI completion code name from data/xhci-cc.tsv, "?" if unknown. */
const char *recording_cc_name(unsigned int cc);
/* ... and what it means, "" if unknown. */
const char *recording_cc_meaning(unsigned int cc);
/* Not an error by data/xhci-cc.tsv: Success, Short Packet, Stopped*, ... */
bool recording_cc_normal(unsigned int cc);

/*
 * How long the recording ran: meta.json's "seconds", written when it
 * stopped; else (cut short) the span of the events read.
 */
double recording_seconds(const struct recording *r);

/* meta.json string at a path of object keys ("kernel", "release"). */
const char *recording_meta_str(const struct recording *r, const char *k1,
			       const char *k2);

/* ... and a count there ("events", "trace"): false if absent. */
bool recording_meta_u64(const struct recording *r, const char *k1,
			const char *k2, uint64_t *out);

/* "SEQ1M Q4T1": the CrystalDiskMark row of a stress phase. */
void recording_stress_label(const struct recording_stress *s, char *buf,
			    size_t len);
/*
 * The disk stress phase @s ran on, by the bytes each disk moved during
 * its run: an index into r->disks, or -1.
 */
int recording_stress_disk(const struct recording *r,
			  const struct recording_stress *s);
/* The rows of the stress table into @rows; return: how many. */
unsigned int recording_stress_rows(const struct recording *r,
				   struct recording_stress_row *rows,
				   unsigned int max);

#endif /* USBTRAIL_RECORDING_H */
