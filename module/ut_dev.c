// SPDX-License-Identifier: GPL-2.0-only
/*
 * usbtrail.ko: /dev/usbtrail, the stream's one reader.
 *
 * read() returns whole records (struct usbtrail_record); a buffer smaller
 * than one record gets -EINVAL.  It blocks until a record is there unless
 * O_NONBLOCK (then -EAGAIN); poll() reports POLLIN when one is.  One
 * reader at a time: a second open() gets -EBUSY, since records are
 * consumed.  The ioctls: USBTRAIL_IOC_INFO returns struct usbtrail_info
 * (_INFO_V1 its first version's part), USBTRAIL_IOC_DISCARD empties the
 * stream, USBTRAIL_IOC_LAYOUT_GET and _SET read and answer the layout
 * table (ut_layout.c); any other gets -ENOTTY.  Root only (mode 0600,
 * and CAP_SYS_ADMIN).
 *
 * Writers never wait for the reader: while the device is open it is
 * registered with the stream (ut_record.c), which wakes it every 512
 * records and every 100 ms while records wait.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/time.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include "ut.h"

static DECLARE_WAIT_QUEUE_HEAD(ut_dev_wq);
static atomic_t ut_dev_open_count = ATOMIC_INIT(0);

/* The stream says records wait: from its irq_work or its tick. */
static void ut_dev_wake(struct ut_stream_reader *r)
{
	wake_up_interruptible(&ut_dev_wq);
}

static struct ut_stream_reader ut_dev_reader = {
	.wake = ut_dev_wake,
};

/*
 * Records moved per ut_stream_read() and copy_to_user(): the open file's
 * buffer (file->private_data), 16 KiB, made once per open rather than
 * once per read().  Threads sharing the file take turns with it under
 * ut_dev_read_lock.
 */
#define UT_DEV_BATCH	256
static DEFINE_MUTEX(ut_dev_read_lock);

static int ut_dev_open(struct inode *inode, struct file *file)
{
	struct usbtrail_record *recs;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	recs = kvmalloc_array(UT_DEV_BATCH, sizeof(*recs), GFP_KERNEL);
	if (!recs)
		return -ENOMEM;
	if (atomic_cmpxchg(&ut_dev_open_count, 0, 1) != 0) {
		kvfree(recs);
		return -EBUSY;
	}
	file->private_data = recs;
	ut_stream_reader_add(&ut_dev_reader);
	return nonseekable_open(inode, file);
}

static int ut_dev_release(struct inode *inode, struct file *file)
{
	/* off the stream's list before the next open() may add it again */
	ut_stream_reader_del(&ut_dev_reader);
	kvfree(file->private_data);
	atomic_set(&ut_dev_open_count, 0);
	return 0;
}

static ssize_t ut_dev_read(struct file *file, char __user *buf, size_t len,
			   loff_t *ppos)
{
	struct usbtrail_record *recs = file->private_data;
	size_t done = 0, want;
	unsigned int got;
	ssize_t ret = 0;

	if (len < sizeof(*recs))
		return -EINVAL;
	if (mutex_lock_interruptible(&ut_dev_read_lock))
		return -ERESTARTSYS;
	while (done + sizeof(*recs) <= len) {
		want = min_t(size_t, (len - done) / sizeof(*recs),
			     UT_DEV_BATCH);
		got = ut_stream_read(recs, want);
		if (!got) {
			if (done)
				break;
			if (file->f_flags & O_NONBLOCK) {
				ret = -EAGAIN;
				break;
			}
			ret = wait_event_interruptible(ut_dev_wq,
						       !ut_stream_empty());
			if (ret < 0)
				break;
			continue;
		}
		if (copy_to_user(buf + done, recs, got * sizeof(*recs))) {
			/* consumed, not delivered: the next read says so */
			ut_stream_drop(got);
			ret = -EFAULT;
			break;
		}
		done += got * sizeof(*recs);
		if (got < want || fatal_signal_pending(current))
			break;
	}
	mutex_unlock(&ut_dev_read_lock);
	return done ? done : ret;
}

static __poll_t ut_dev_poll(struct file *file, poll_table *wait)
{
	poll_wait(file, &ut_dev_wq, wait);
	return ut_stream_empty() ? 0 : EPOLLIN | EPOLLRDNORM;
}

/*
 * USBTRAIL_IOC_INFO: the whole of struct usbtrail_info; _V1, of readers
 * before the probe table, its first USBTRAIL_INFO_V1_SIZE bytes.
 */
static long ut_dev_info(void __user *arg, size_t size)
{
	struct usbtrail_info *info;
	long ret = 0;

	info = kzalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return -ENOMEM;
	info->abi_version = USBTRAIL_ABI_VERSION;
	info->record_size = sizeof(struct usbtrail_record);
	info->clock_id = CLOCK_BOOTTIME;
	info->flight_records = ut_flight_capacity();
	info->records = ut_stream_records();
	info->lost = ut_stream_lost();
	info->stream_bytes = ut_stream_size();
	info->sources = ut_sources();
	info->info_version = USBTRAIL_INFO_VERSION;
	info->nprobes = ut_probes(info->probes, USBTRAIL_PROBES_MAX);
	if (copy_to_user(arg, info, size))
		ret = -EFAULT;
	kfree(info);
	return ret;
}

static long ut_dev_ioctl(struct file *file, unsigned int cmd,
			 unsigned long arg)
{
	switch (cmd) {
	case USBTRAIL_IOC_INFO:
		return ut_dev_info((void __user *)arg,
				   sizeof(struct usbtrail_info));
	case USBTRAIL_IOC_INFO_V1:
		return ut_dev_info((void __user *)arg, USBTRAIL_INFO_V1_SIZE);
	case USBTRAIL_IOC_DISCARD:
		ut_stream_discard();
		return 0;
	case USBTRAIL_IOC_LAYOUT_GET:
		return ut_layout_get((void __user *)arg);
	case USBTRAIL_IOC_LAYOUT_SET:
		return ut_layout_set((const void __user *)arg);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations ut_dev_fops = {
	.owner = THIS_MODULE,
	.open = ut_dev_open,
	.release = ut_dev_release,
	.read = ut_dev_read,
	.poll = ut_dev_poll,
	.unlocked_ioctl = ut_dev_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

static struct miscdevice ut_dev_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "usbtrail",
	.fops = &ut_dev_fops,
	.mode = 0600,
};

int ut_dev_init(void)
{
	return misc_register(&ut_dev_misc);
}

/* No file is open (an open one holds the module): no reader registered. */
void ut_dev_exit(void)
{
	misc_deregister(&ut_dev_misc);
}
