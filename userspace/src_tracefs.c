// SPDX-License-Identifier: GPL-2.0-only
/*
 * src_tracefs.c - the recorder's source for users without usbtrail.ko:
 * the same kernel events, read from tracefs (libtracefs/libtraceevent),
 * one EV_TRACE event each (tracerec.c decodes them into the module's
 * records).
 *
 * It works in a trace instance of its own, "usbtrail-<pid>", with
 * trace_clock "boot" (CLOCK_BOOTTIME, the recorder's clock): the
 * xhci-hcd, scsi and block events are enabled there only, and kprobes on
 * the uas/usb-storage error handlers ("kprobes/usbtrail_<pid>_*") are
 * defined and enabled there only.  It reads the binary per-CPU buffers
 * (per_cpu/cpuN/trace_pipe_raw), never the text trace_pipe, and never
 * writes a file of the top-level instance.  Instances and kprobes left by
 * a usbtrail that died are removed when the next one starts.
 *
 * Kprobes on a module's function may be defined before the module loads:
 * the kernel arms them when it does (trace_kprobe's module notifier), so
 * a uas or usb-storage loaded during the recording is covered.
 *
 * Which SCSI hosts belong to uas/usb-storage, and their disks, come from
 * sysfs, read again every second so a disk plugged in later is followed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <tracefs.h>
#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>

#include "btf.h"
#include "record.h"
#include "tracerec.h"
#include "ut_tables.h"

#define SRC_TRACEFS_PAGES	256	/* sub-buffers per CPU and read() */
/*
 * Our instance's buffer, per CPU: 32 MiB in all, 2 to 8 MiB a CPU.  The
 * recorder decodes every event; a burst (a fast disk's sequential write
 * makes ~50,000 in a second) can outrun it for a while, and what the
 * buffer cannot hold is lost.  trace-cmd copies pages undecoded and gets
 * by with 1 MiB.
 */
#define SRC_TRACEFS_BUFFER_TOTAL_KB	32768
#define SRC_TRACEFS_BUFFER_MIN_KB	2048
#define SRC_TRACEFS_BUFFER_MAX_KB	8192
#define SRC_TRACEFS_RESCAN_NS	1000000000ULL
#define SRC_TRACEFS_PROBES_MAX	16	/* entry and return, per handler name */
#define SRC_TRACEFS_EH_PROBES(mod, fn, suffix, kind, driver)	+ 2
_Static_assert(0 UT_EH_HANDLERS(SRC_TRACEFS_EH_PROBES) <=
	       SRC_TRACEFS_PROBES_MAX, "a probe slot for each UT_EH_HANDLERS()");

/*
 * The tracepoints of usbtrail.ko's probes, UT_TRACEPOINTS() of
 * ut_tables.h: { system, event }.
 */
#define SRC_TRACEFS_EVENT(id, fn, sys, mod, event, src)	{ sys, event },
static const char *const src_tracefs_events[][2] = {
	UT_TRACEPOINTS(SRC_TRACEFS_EVENT)
};
#define SRC_TRACEFS_NEVENTS \
	(sizeof(src_tracefs_events) / sizeof(src_tracefs_events[0]))

struct src_tracefs_cpu {
	struct tracefs_cpu *tcpu;
	int cpu;
	uint64_t lost;		/* overrun + dropped, as stats said last */
};

struct src_tracefs {
	struct rec_source *s;
	struct rec *r;
	char name[32];			/* usbtrail-<pid> */
	struct tracefs_instance *inst;
	bool enabled[SRC_TRACEFS_NEVENTS];	/* of src_tracefs_events */
	struct tracefs_dynevent *probes[SRC_TRACEFS_PROBES_MAX];
	unsigned int nprobes;
	struct tep_handle *tep;
	struct kbuffer *kb;
	struct tracerec_state *st;
	struct src_tracefs_cpu *cpus;
	unsigned int ncpus;
	void *page;
	int page_size;
	uint32_t seq;
	uint64_t lost_total;
	uint64_t next_scan;
};

/* -- sysfs: the hosts of uas and usb-storage, their disks -- */

static int src_tracefs_read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	char *nl;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	return 0;
}

/* The driver of the interface a SCSI host hangs from, or its proc_name */
static bool src_tracefs_usb_host(const char *host)
{
	char path[PATH_MAX], link[PATH_MAX];
	const char *drv;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/class/scsi_host/%s/device/../driver",
		 host);
	n = readlink(path, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = '\0';
		drv = strrchr(link, '/');
		drv = drv ? drv + 1 : link;
		/* usb-storage's sub-drivers (ums-realtek...) share its host */
		if (!strcmp(drv, "uas") || !strcmp(drv, "usb-storage") ||
		    !strncmp(drv, "ums", 3))
			return true;
	}
	snprintf(path, sizeof(path), "/sys/class/scsi_host/%s/proc_name", host);
	if (src_tracefs_read_line(path, link, sizeof(link)))
		return false;
	return !strcmp(link, "uas") || !strcmp(link, "usb-storage");
}

static void src_tracefs_scan_disk(struct tracerec_state *st, const char *addr)
{
	struct tracerec_disk d;
	char path[PATH_MAX], line[64];
	unsigned int h, c, i, l, major, minor;
	struct dirent *de;
	DIR *dir;

	if (sscanf(addr, "%u:%u:%u:%u", &h, &c, &i, &l) != 4 ||
	    !tracerec_host_wanted(st, h))
		return;
	memset(&d, 0, sizeof(d));
	d.host = (uint16_t)h;
	d.channel = (uint8_t)c;
	d.id = (uint8_t)i;
	d.lun = l;
	snprintf(path, sizeof(path), "/sys/class/scsi_disk/%s/device/block",
		 addr);
	dir = opendir(path);
	if (!dir)
		return;
	while ((de = readdir(dir))) {
		if (de->d_name[0] != '.')
			break;
	}
	if (!de || strlen(de->d_name) >= sizeof(d.name)) {
		closedir(dir);
		return;
	}
	strcpy(d.name, de->d_name);
	closedir(dir);
	snprintf(path, sizeof(path), "/sys/class/block/%s/dev", d.name);
	if (src_tracefs_read_line(path, line, sizeof(line)) ||
	    sscanf(line, "%u:%u", &major, &minor) != 2)
		return;
	/* new_encode_dev(), as the module reports it */
	d.devt = (minor & 0xff) | (major << 8) | ((minor & ~0xffu) << 12);
	snprintf(path, sizeof(path),
		 "/sys/class/block/%s/queue/logical_block_size", d.name);
	if (!src_tracefs_read_line(path, line, sizeof(line)))
		d.block_size = (uint32_t)strtoul(line, NULL, 10);
	tracerec_add_disk(st, &d);
}

static void src_tracefs_scan(struct tracerec_state *st)
{
	struct dirent *de;
	unsigned int host;
	DIR *dir;

	tracerec_clear_disks(st);
	dir = opendir("/sys/class/scsi_host");
	if (dir) {
		while ((de = readdir(dir))) {
			if (sscanf(de->d_name, "host%u", &host) == 1 &&
			    src_tracefs_usb_host(de->d_name))
				tracerec_add_host(st, host);
		}
		closedir(dir);
	}
	dir = opendir("/sys/class/scsi_disk");
	if (dir) {
		while ((de = readdir(dir)))
			if (de->d_name[0] != '.')
				src_tracefs_scan_disk(st, de->d_name);
		closedir(dir);
	}
}

/* -- what a usbtrail that died left behind -- */

/*
 * "usbtrail-123" / "usbtrail_123_..." of a process that is gone, or of
 * this one: before it has made its own, one with its pid is a dead
 * recorder's whose pid came round again.
 */
static bool src_tracefs_stale(const char *name, char sep)
{
	char *end;
	long pid;

	if (strncmp(name, "usbtrail", 8) || name[8] != sep)
		return false;
	pid = strtol(name + 9, &end, 10);
	if (end == name + 9 || pid <= 0 || pid > INT_MAX ||
	    (*end && *end != '_'))
		return false;
	if (pid == getpid())
		return true;
	return kill((pid_t)pid, 0) && errno == ESRCH;
}

/*
 * Switch one event of @inst on or off, or with a NULL @sys all of them,
 * by writing its enable file: tracefs_event_enable() matches names as
 * regular expressions over a listing of every system and event, a few
 * tens of milliseconds a call under emulation, paid again each second for
 * events that do not exist (yet).  Return: 0, or -1 with errno (ENOENT:
 * no such event).
 */
static int src_tracefs_enable(struct tracefs_instance *inst, const char *sys,
			      const char *event, bool on)
{
	char path[256];
	int n;

	if (sys)
		n = snprintf(path, sizeof(path), "events/%s/%s/enable", sys,
			     event);
	else
		n = snprintf(path, sizeof(path), "events/enable");
	if (n < 0 || (size_t)n >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return tracefs_instance_file_write(inst, path, on ? "1" : "0") > 0 ?
	       0 : -1;
}

static int src_tracefs_stale_instance(const char *name, void *arg)
{
	struct tracefs_instance *inst;

	(void)arg;
	if (!src_tracefs_stale(name, '-'))
		return 0;
	inst = tracefs_instance_alloc(NULL, name);
	if (inst) {
		src_tracefs_enable(inst, NULL, NULL, false);
		tracefs_instance_destroy(inst);
		tracefs_instance_free(inst);
	}
	return 0;
}

static void src_tracefs_clean_stale(void)
{
	struct tracefs_dynevent **evs;
	char *sys, *event;
	unsigned int i;

	tracefs_instances_walk(src_tracefs_stale_instance, NULL);
	evs = tracefs_dynevent_get_all(TRACEFS_DYNEVENT_KPROBE |
				       TRACEFS_DYNEVENT_KRETPROBE, NULL);
	for (i = 0; evs && evs[i]; i++) {
		sys = event = NULL;
		tracefs_dynevent_info(evs[i], &sys, &event, NULL, NULL, NULL);
		if (event && src_tracefs_stale(event, '_'))
			tracefs_dynevent_destroy(evs[i], true);
		free(sys);
		free(event);
	}
	tracefs_dynevent_list_free(evs);
}

/* -- the error handlers' command, through BTF -- */

/*
 * Fetch arguments that follow the handler's struct scsi_cmnd * to what
 * usbtrail.ko reads of it (ut_scsi_fill_where(), ut_eh.c): the SCSI
 * address through cmd->device, the opcode in cmd->cmnd[0], and the block
 * layer's tag in the struct request just before the command
 * (blk_mq_rq_from_pdu()).  The offsets come from the running kernel's
 * BTF as libbpf reads it: vmlinux's (/sys/kernel/btf/vmlinux), and
 * scsi_mod's split on top of it when the SCSI midlayer is a module.
 * -ENOENT when any is missing: the probes then fetch the pointer only,
 * and tracerec.c names the command as it can.
 */
static int src_tracefs_eh_args(char *args, size_t len)
{
	struct btf *vmlinux, *scsi_mod = NULL, *b;
	uint32_t dev, cmnd, host, host_no, channel, id, lun, rq, tag;
	libbpf_print_fn_t print;
	int ret = -ENOENT;

	/*
	 * libbpf would print its misses ("scsi_mod" built in, no BTF at
	 * all) on stderr; here a miss only means pointer-only probes
	 */
	print = libbpf_set_print(NULL);
	vmlinux = btf__load_vmlinux_btf();
	if (vmlinux)
		scsi_mod = btf__load_module_btf("scsi_mod", vmlinux);
	libbpf_set_print(print);
	if (!vmlinux)
		return -ENOENT;
	b = scsi_mod ? scsi_mod : vmlinux;
	if (btf_member_offset(b, "scsi_cmnd", "device", &dev) ||
	    btf_member_offset(b, "scsi_cmnd", "cmnd", &cmnd) ||
	    btf_member_offset(b, "scsi_device", "host", &host) ||
	    btf_member_offset(b, "scsi_device", "channel", &channel) ||
	    btf_member_offset(b, "scsi_device", "id", &id) ||
	    btf_member_offset(b, "scsi_device", "lun", &lun) ||
	    btf_member_offset(b, "Scsi_Host", "host_no", &host_no) ||
	    btf_struct_size(b, "request", &rq) ||
	    btf_member_offset(b, "request", "tag", &tag) || tag >= rq)
		goto out;
	snprintf(args, len,
		 "cmd=$arg1:x64 host=+%u(+%u(+%u($arg1))):u32 "
		 "channel=+%u(+%u($arg1)):u32 id=+%u(+%u($arg1)):u32 "
		 "lun=+%u(+%u($arg1)):u64 tag=-%u($arg1):s32 "
		 "opcode=+%u($arg1):u8",
		 host_no, host, dev, channel, dev, id, dev, lun, dev,
		 rq - tag, cmnd);
	ret = 0;
out:
	btf__free(scsi_mod);
	btf__free(vmlinux);
	return ret;
}

/* -- the instance and the kprobes -- */

static void src_tracefs_add_probes(struct src_tracefs *t)
{
	struct tracefs_dynevent *ev;
	char name[96], args[512];
	unsigned int i;
	int k;

	if (src_tracefs_eh_args(args, sizeof(args)))
		snprintf(args, sizeof(args), "cmd=$arg1:x64");
	for (i = 0; i < tracerec_eh_nprobes; i++) {
		const struct tracerec_eh_probe *p = &tracerec_eh_probes[i];
		char addr[96];

		snprintf(addr, sizeof(addr), "%s:%s", p->module, p->function);
		for (k = 0; k < 2; k++) {
			if (t->nprobes >= SRC_TRACEFS_PROBES_MAX)
				return;
			snprintf(name, sizeof(name), "usbtrail_%d_%s%s",
				 (int)getpid(), p->suffix, k ? "_ret" : "");
			/*
			 * every handler takes the struct scsi_cmnd * first;
			 * maxactive stays the kernel's default: libtracefs
			 * 1.6 writes "r8::GROUP/NAME" for a given one, which
			 * the kernel refuses
			 */
			if (k)
				ev = tracefs_kretprobe_alloc("kprobes", name,
						addr, "ret=$retval:s32", 0);
			else
				ev = tracefs_kprobe_alloc("kprobes", name, addr,
							  args);
			if (!ev)
				continue;
			/* an absent symbol of a loaded module is refused */
			if (tracefs_dynevent_create(ev)) {
				tracefs_dynevent_free(ev);
				continue;
			}
			t->probes[t->nprobes++] = ev;
			src_tracefs_enable(t->inst, "kprobes", name, true);
		}
	}
}

static void src_tracefs_del_probes(struct src_tracefs *t)
{
	unsigned int i;

	for (i = 0; i < t->nprobes; i++) {
		tracefs_dynevent_destroy(t->probes[i], true);
		tracefs_dynevent_free(t->probes[i]);
	}
	t->nprobes = 0;
}

static void src_tracefs_free(struct src_tracefs *t)
{
	unsigned int i;

	if (!t)
		return;
	for (i = 0; i < t->ncpus; i++)
		tracefs_cpu_close(t->cpus[i].tcpu);
	free(t->cpus);
	if (t->inst) {
		src_tracefs_enable(t->inst, NULL, NULL, false);
		tracefs_instance_destroy(t->inst);
		tracefs_instance_free(t->inst);
	}
	/* after the instance: nothing has them enabled any more */
	src_tracefs_del_probes(t);
	if (t->kb)
		kbuffer_free(t->kb);
	tep_free(t->tep);
	free(t->st);
	free(t->page);
	free(t);
}

/* -- the event formats -- */

static int src_tracefs_format(struct tep_handle *tep, const char *system,
			      const char *event)
{
	char *buf;
	int len, ret;

	buf = tracefs_event_file_read(NULL, system, event, "format", &len);
	if (!buf)
		return -ENOENT;
	ret = tep_parse_event(tep, buf, (unsigned long)len, system);
	free(buf);
	return ret ? -EINVAL : 0;
}

/*
 * The formats of the events this source enabled, and the ring buffer's
 * page layout.  Read one by one: tracefs_local_events_system() also reads
 * all of /proc/kallsyms and the printk formats, which takes seconds on a
 * slow machine and is not needed to decode these events.
 */
static struct tep_handle *src_tracefs_formats(struct src_tracefs *t)
{
	struct tep_handle *tep = tep_alloc();
	char *buf, *sys, *event;
	unsigned int i;
	int len;

	if (!tep)
		return NULL;
	tep_set_long_size(tep, (int)sizeof(long));
	tep_set_page_size(tep, getpagesize());
	buf = tracefs_instance_file_read(NULL, "events/header_page", &len);
	if (!buf || tep_parse_header_page(tep, buf, (unsigned long)len,
					  (int)sizeof(long))) {
		free(buf);
		tep_free(tep);
		return NULL;
	}
	free(buf);
	for (i = 0; i < SRC_TRACEFS_NEVENTS; i++)
		if (t->enabled[i])
			src_tracefs_format(tep, src_tracefs_events[i][0],
					   src_tracefs_events[i][1]);
	for (i = 0; i < t->nprobes; i++) {
		sys = event = NULL;
		tracefs_dynevent_info(t->probes[i], &sys, &event, NULL, NULL,
				      NULL);
		if (sys && event)
			src_tracefs_format(tep, sys, event);
		free(sys);
		free(event);
	}
	return tep;
}

/* -- reading -- */

static int src_tracefs_record(void *arg, const struct usbtrail_record *rec)
{
	struct src_tracefs *t = arg;
	struct ev *ev;

	ev = ev_new(EV_TRACE, EV_SRC_TRACEFS, rec->ts_ns);
	if (!ev) {
		rec_emit(t->r, NULL);
		return 0;
	}
	ev->u.rec = *rec;
	ev->u.rec.seq = ++t->seq;
	ev_ident_from_rec(ev);
	t->s->events++;
	rec_emit(t->r, ev);
	return 0;
}

static void src_tracefs_lost(struct src_tracefs *t, uint64_t count,
			     const char *why)
{
	struct ev *ev;

	t->s->lost += count;
	t->lost_total += count;
	ev = ev_new(EV_LOST, EV_SRC_TRACEFS, ev_clock_now());
	if (!ev) {
		rec_emit(t->r, NULL);
		return;
	}
	ev->u.lost.source = EV_SRC_TRACEFS;
	ev->u.lost.count = count;
	ev->u.lost.total = t->lost_total;
	snprintf(ev->u.lost.why, sizeof(ev->u.lost.why), "%s", why);
	rec_emit(t->r, ev);
}

/* per_cpu/cpuN/stats: "overrun: N" and "dropped events: N" */
static void src_tracefs_stats(struct src_tracefs *t, struct src_tracefs_cpu *c)
{
	char file[64], *buf, *p;
	unsigned long long v;
	uint64_t lost = 0;

	snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", c->cpu);
	buf = tracefs_instance_file_read(t->inst, file, NULL);
	if (!buf)
		return;
	p = strstr(buf, "overrun:");
	if (p && sscanf(p, "overrun: %llu", &v) == 1)
		lost += v;
	p = strstr(buf, "dropped events:");
	if (p && sscanf(p, "dropped events: %llu", &v) == 1)
		lost += v;
	free(buf);
	if (lost > c->lost) {
		src_tracefs_lost(t, lost - c->lost,
				 "tracefs buffer full (overwritten)");
		c->lost = lost;
	}
}

/*
 * Losses are reported from per_cpu/cpuN/stats (src_tracefs_stats()):
 * exact counts, where a page's "missed events" flag may not carry one,
 * and the same events, so they are not counted twice.
 */
static void src_tracefs_sync(struct src_tracefs *t)
{
	t->s->malformed = t->st->malformed;
}

static int src_tracefs_read_cpu(struct src_tracefs *t,
				struct src_tracefs_cpu *c, bool flush)
{
	unsigned int i;
	int n;

	for (i = 0; i < SRC_TRACEFS_PAGES; i++) {
		if (flush)
			n = tracefs_cpu_flush(c->tcpu, t->page);
		else
			n = tracefs_cpu_read(c->tcpu, t->page, true);
		if (n < 0)
			return errno == EINTR ? 0 : -errno;
		if (n == 0)
			return 0;
		tracerec_parse_page(t->st, t->kb, t->page, (size_t)n,
				    (unsigned int)c->cpu, src_tracefs_record,
				    t);
	}
	return 0;
}

/*
 * Events of a module loaded after the recording began (xhci_hcd,
 * scsi_mod): enable them in the instance and learn their format, as
 * usbtrail.ko attaches to a module when it loads.
 */
static void src_tracefs_late_events(struct src_tracefs *t)
{
	unsigned int i, added = 0;

	for (i = 0; i < SRC_TRACEFS_NEVENTS; i++) {
		if (t->enabled[i] ||
		    src_tracefs_enable(t->inst, src_tracefs_events[i][0],
				       src_tracefs_events[i][1], true))
			continue;
		t->enabled[i] = true;
		if (!src_tracefs_format(t->tep, src_tracefs_events[i][0],
					src_tracefs_events[i][1]))
			added++;
	}
	if (added)
		tracerec_state_events(t->st);
}

static int src_tracefs_read(struct rec_source *s, struct rec *r)
{
	struct src_tracefs *t = s->priv;
	uint64_t now = ev_clock_now();
	unsigned int i;
	int ret;

	t->r = r;
	if (now >= t->next_scan) {
		src_tracefs_late_events(t);
		src_tracefs_scan(t->st);
		for (i = 0; i < t->ncpus; i++)
			src_tracefs_stats(t, &t->cpus[i]);
		t->next_scan = now + SRC_TRACEFS_RESCAN_NS;
	}
	for (i = 0; i < t->ncpus; i++) {
		ret = src_tracefs_read_cpu(t, &t->cpus[i], false);
		if (ret)
			return ret;
	}
	src_tracefs_sync(t);
	return 0;
}

static void src_tracefs_close(struct rec_source *s, struct rec *r)
{
	struct src_tracefs *t = s->priv;
	unsigned int i;

	if (!t)
		return;
	t->r = r;
	/* what is left, then the counters, before the instance goes */
	for (i = 0; i < t->ncpus; i++) {
		src_tracefs_read_cpu(t, &t->cpus[i], true);
		src_tracefs_stats(t, &t->cpus[i]);
	}
	src_tracefs_sync(t);
	src_tracefs_free(t);
	s->priv = NULL;
}

static int src_tracefs_setup(struct src_tracefs *t)
{
	unsigned int i, enabled = 0;
	struct utsname uts;
	long ncpus, per_cpu;
	char kb[24];
	int ret;

	snprintf(t->name, sizeof(t->name), "usbtrail-%d", (int)getpid());
	if (tracefs_instance_exists(t->name))
		return -EEXIST;
	t->inst = tracefs_instance_create(t->name);
	if (!t->inst)
		return errno ? -errno : -EIO;
	if (tracefs_instance_file_write(t->inst, "trace_clock", "boot") < 0)
		return -EOPNOTSUPP;	/* CLOCK_BOOTTIME: 4.10 and later */
	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	per_cpu = SRC_TRACEFS_BUFFER_TOTAL_KB / (ncpus > 0 ? ncpus : 1);
	if (per_cpu < SRC_TRACEFS_BUFFER_MIN_KB)
		per_cpu = SRC_TRACEFS_BUFFER_MIN_KB;
	if (per_cpu > SRC_TRACEFS_BUFFER_MAX_KB)
		per_cpu = SRC_TRACEFS_BUFFER_MAX_KB;
	snprintf(kb, sizeof(kb), "%ld", per_cpu);
	tracefs_instance_file_write(t->inst, "buffer_size_kb", kb);
	for (i = 0; i < SRC_TRACEFS_NEVENTS; i++) {
		/* xhci-hcd's events exist once xhci_hcd is loaded */
		t->enabled[i] = !src_tracefs_enable(t->inst,
						    src_tracefs_events[i][0],
						    src_tracefs_events[i][1],
						    true);
		enabled += t->enabled[i];
	}
	src_tracefs_add_probes(t);
	/* mounted, but nothing to trace: not the "not mounted" of -ENOENT */
	if (!enabled && !t->nprobes)
		return -ENODATA;

	t->tep = src_tracefs_formats(t);
	if (!t->tep)
		return -EIO;
	t->kb = tep_kbuffer(t->tep);
	t->st = calloc(1, sizeof(*t->st));
	if (!t->kb || !t->st)
		return -ENOMEM;
	if (tracerec_state_init(t->st, t->tep) <= 0)
		return -ENODATA;
	/* what only the version says (tracerec.h: port_one_based) */
	if (!uname(&uts))
		tracerec_set_release(t->st, uts.release);
	src_tracefs_scan(t->st);

	ncpus = sysconf(_SC_NPROCESSORS_CONF);
	if (ncpus <= 0 || ncpus > TRACEREC_CPUS_MAX)
		ncpus = ncpus <= 0 ? 1 : TRACEREC_CPUS_MAX;
	t->cpus = calloc((size_t)ncpus, sizeof(*t->cpus));
	if (!t->cpus)
		return -ENOMEM;
	for (i = 0; i < (unsigned int)ncpus; i++) {
		struct tracefs_cpu *tcpu = tracefs_cpu_open(t->inst, (int)i,
							    true);

		if (!tcpu)
			continue;	/* offline */
		t->cpus[t->ncpus].tcpu = tcpu;
		t->cpus[t->ncpus].cpu = (int)i;
		t->ncpus++;
		ret = tracefs_cpu_read_size(tcpu);
		if (ret > t->page_size)
			t->page_size = ret;
	}
	if (!t->ncpus || t->page_size <= 0 ||
	    t->page_size > TRACEREC_PAGE_MAX)
		return -EIO;
	t->page = malloc((size_t)t->page_size);
	if (!t->page)
		return -ENOMEM;
	return 0;
}

/*
 * Where tracefs is mounted: libtracefs would mount it itself when it is
 * not, and a recorder should not change the system it looks at.
 */
static int src_tracefs_mounted(char *dir, size_t len)
{
	char path[PATH_MAX], type[64];
	int found = -ENOENT;
	FILE *f;

	f = fopen("/proc/mounts", "re");
	if (!f)
		return -ENOENT;
	while (fscanf(f, "%*s %4095s %63s %*[^\n]\n", path, type) == 2) {
		if (!strcmp(type, "tracefs") && strlen(path) < len) {
			strcpy(dir, path);
			found = 0;
			break;
		}
	}
	fclose(f);
	return found;
}

int src_tracefs_open(struct rec_source *s, struct rec *r)
{
	struct src_tracefs *t;
	char dir[PATH_MAX];
	int ret;

	ret = src_tracefs_mounted(dir, sizeof(dir));
	if (ret)
		return ret;
	if (access(dir, W_OK))
		return errno == EROFS ? -EACCES : -errno;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	src_tracefs_clean_stale();
	ret = src_tracefs_setup(t);
	if (ret) {
		src_tracefs_free(t);
		return ret;
	}
	memset(s, 0, sizeof(*s));
	s->name = "tracefs";
	s->id = EV_SRC_TRACEFS;
	s->fd = -1;
	s->read = src_tracefs_read;
	s->close = src_tracefs_close;
	s->priv = t;
	t->s = s;
	t->r = r;
	return 0;
}
