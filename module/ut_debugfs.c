// SPDX-License-Identifier: GPL-2.0-only
/*
 * usbtrail.ko: the debugfs directory usbtrail/, for people and tests.
 *
 *   flight   the flight recorder's records, oldest first, one line each
 *            (ut_flight.c)
 *   usb      per USB device and endpoint: URBs given back, bytes, URBs
 *            unlinked, and the count of each xHCI completion code seen
 *            (ut_stats.c)
 *   disks    per SCSI disk: commands, errors, errors by sense key,
 *            timeouts, aborts, device and bus resets, block requests,
 *            bytes and errors (ut_stats.c)
 *   stats    records produced and lost, flight recorder size, sources
 *   probes   each probe: attached, waiting for its module, failed (with
 *            the errno), an alias of a renamed handler (ut_tp.c, ut_eh.c),
 *            or unverified (with why)
 *   layout   each fact of the kernel's private declarations the probes
 *            rely on: verified against BTF, not, and why (ut_layout.c)
 *   trigger  write N: emits N USBTRAIL_REC_MARK records (for tests)
 *
 * The files only show what the other parts keep, and the trigger writes
 * to the stream: they are created once the stream, the flight recorder
 * and the counters exist, and removed before those are freed.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ut.h"

static struct dentry *ut_debugfs_dir;

static int ut_debugfs_flight_open(struct inode *inode, struct file *file)
{
	return seq_open(file, &ut_flight_seq_ops);
}

static const struct file_operations ut_debugfs_flight_fops = {
	.owner = THIS_MODULE,
	.open = ut_debugfs_flight_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release,
};

static int ut_debugfs_usb_show(struct seq_file *m, void *v)
{
	ut_stats_usb_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ut_debugfs_usb);

static int ut_debugfs_disks_show(struct seq_file *m, void *v)
{
	ut_stats_disks_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ut_debugfs_disks);

static int ut_debugfs_stats_show(struct seq_file *m, void *v)
{
	seq_printf(m, "abi=%d\nrecords=%llu\nlost=%llu\nstream_bytes=%lu\nflight_records=%u\nsources=0x%x\n",
		   USBTRAIL_ABI_VERSION, ut_stream_records(), ut_stream_lost(),
		   ut_stream_size(), ut_flight_capacity(), ut_sources());
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ut_debugfs_stats);

/*
 * One line per probe: which attached, which did not and why (the errno of
 * the last attempt), as USBTRAIL_IOC_INFO's table.
 */
static int ut_debugfs_probes_show(struct seq_file *m, void *v)
{
	struct usbtrail_probe *p;
	unsigned int i, n;

	p = kcalloc(USBTRAIL_PROBES_MAX, sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	n = ut_probes(p, USBTRAIL_PROBES_MAX);
	for (i = 0; i < n; i++) {
		const char *event = strchr(p[i].name, ':');
		char why[256] = "";

		if (p[i].state == USBTRAIL_PROBE_UNVERIFIED && event)
			ut_layout_check(event + 1, why, sizeof(why));
		seq_printf(m, "probe=%s kind=%s state=%s error=%d source=0x%x%s%s%s\n",
			   p[i].name, p[i].kind == USBTRAIL_PROBE_TRACEPOINT ?
			   "tracepoint" : "kretprobe",
			   ut_probe_state_name(p[i].state), p[i].error,
			   p[i].source, p[i].flags & USBTRAIL_PROBE_F_BUILTIN ?
			   " builtin=1" : "", why[0] ? " why=" : "", why);
	}
	kfree(p);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ut_debugfs_probes);

static int ut_debugfs_layout_show(struct seq_file *m, void *v)
{
	ut_layout_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ut_debugfs_layout);

#define UT_TRIGGER_MAX	1000000

static ssize_t ut_debugfs_trigger_write(struct file *file,
					const char __user *ubuf, size_t len,
					loff_t *ppos)
{
	struct usbtrail_record rec = { .type = USBTRAIL_REC_MARK };
	unsigned int n, i;
	int ret;

	ret = kstrtouint_from_user(ubuf, len, 0, &n);
	if (ret)
		return ret;
	if (n > UT_TRIGGER_MAX)
		return -ERANGE;
	strscpy(rec.u.mark.text, "trigger", sizeof(rec.u.mark.text));
	for (i = 0; i < n; i++) {
		rec.u.mark.value = i;
		ut_emit(&rec);
		if (!(i % 1024))
			cond_resched();
	}
	return len;
}

static const struct file_operations ut_debugfs_trigger_fops = {
	.owner = THIS_MODULE,
	.write = ut_debugfs_trigger_write,
};

/*
 * After ut_stream_init(), ut_flight_init() and ut_stats_init().  debugfs
 * failures are not the module's: without the directory, the files are
 * not made and the rest works on.
 */
void ut_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("usbtrail", NULL);

	debugfs_create_file("flight", 0400, dir, NULL,
			    &ut_debugfs_flight_fops);
	debugfs_create_file("usb", 0400, dir, NULL, &ut_debugfs_usb_fops);
	debugfs_create_file("disks", 0400, dir, NULL, &ut_debugfs_disks_fops);
	debugfs_create_file("stats", 0400, dir, NULL, &ut_debugfs_stats_fops);
	debugfs_create_file("probes", 0400, dir, NULL,
			    &ut_debugfs_probes_fops);
	debugfs_create_file("layout", 0400, dir, NULL,
			    &ut_debugfs_layout_fops);
	debugfs_create_file("trigger", 0200, dir, NULL,
			    &ut_debugfs_trigger_fops);
	ut_debugfs_dir = dir;
}

/* Waits for the files' readers and writers to leave; NULL-safe. */
void ut_debugfs_exit(void)
{
	debugfs_remove_recursive(ut_debugfs_dir);
	ut_debugfs_dir = NULL;
}
