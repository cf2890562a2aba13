// SPDX-License-Identifier: GPL-2.0-only
/*
 * usbtrail.ko: the flight recorder.
 *
 * An always-on ring of the last N records, overwritten oldest first, that
 * is printed to the kernel log on oops and panic so the evidence reaches a
 * serial console, netconsole or pstore even when the machine never comes
 * back.  ut_flight_seq_ops shows it on demand in the same text, as debugfs
 * usbtrail/flight (ut_debugfs.c).
 *
 * Why not the kernel's ring buffer here: its readers take per-CPU locks,
 * which a CPU stopped by the panic may hold.  This ring is an array of
 * slots claimed with one atomic increment; each slot carries the index it
 * holds, written after the record, so a lock-free reader (the panic
 * handler) can tell a complete slot from one being overwritten.
 *
 * Writers on several CPUs can meet in one slot: a writer that was
 * interrupted or preempted (the debugfs trigger writes in process
 * context) while the others went round the ring.  A writer therefore
 * takes the slot with a cmpxchg of its index word to "busy"; one that
 * finds the slot busy takes the next index instead, so no two writers
 * ever copy into one slot at once, and a slot never says it holds a
 * record that another writer is still copying over.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/kdebug.h>
#include <linux/log2.h>
#include <linux/notifier.h>
#include <linux/printk.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "ut.h"
#include "ut_compat.h"

#define UT_LINE_MAX	200

struct ut_flight_slot {
	u64 idx1;		/* index + 1 of the record held; 0: none yet */
	struct usbtrail_record rec;
};

/* in idx1 while a writer copies into the slot */
#define UT_FLIGHT_BUSY	BIT_ULL(63)
/* indexes a writer tries: if all are busy, the record goes to the stream only */
#define UT_FLIGHT_TRIES	4

static struct ut_flight_slot *ut_flight;
static unsigned int ut_flight_size;	/* a power of two */
static unsigned int ut_flight_dump;	/* records to print on panic */
static atomic64_t ut_flight_head = ATOMIC64_INIT(0);
static atomic_t ut_flight_dumped = ATOMIC_INIT(0);

void ut_flight_put(const struct usbtrail_record *rec)
{
	struct ut_flight_slot *s;
	unsigned int try;
	u64 idx, old;

	for (try = 0; try < UT_FLIGHT_TRIES; try++) {
		idx = atomic64_inc_return(&ut_flight_head) - 1;
		s = &ut_flight[idx & (ut_flight_size - 1)];
		old = READ_ONCE(s->idx1);
		/* busy: a writer a lap behind still copies, leave it be */
		if (old & UT_FLIGHT_BUSY)
			continue;
		/* full barrier: the slot is ours before the record changes */
		if (cmpxchg64(&s->idx1, old, UT_FLIGHT_BUSY) != old)
			continue;
		s->rec = *rec;
		smp_wmb();	/* record complete before the slot says whose */
		WRITE_ONCE(s->idx1, idx + 1);
		return;
	}
}

/* A consistent copy of the record at idx, or false if it is gone. */
static bool ut_flight_get(u64 idx, struct usbtrail_record *rec)
{
	struct ut_flight_slot *s = &ut_flight[idx & (ut_flight_size - 1)];

	if (READ_ONCE(s->idx1) != idx + 1)
		return false;
	smp_rmb();	/* pairs with the smp_wmb() in ut_flight_put() */
	*rec = s->rec;
	smp_rmb();	/* pairs with the cmpxchg: was it taken meanwhile? */
	return READ_ONCE(s->idx1) == idx + 1;
}

unsigned int ut_flight_capacity(void)
{
	return ut_flight_size;
}

/*
 * Print the flight recorder: first the error records (USBTRAIL_F_ERROR)
 * that are older than the window of the last ut_flight_dump records, then
 * that window.  Lock-free; safe in panic and oops context.
 */
static void ut_flight_print(const char *why)
{
	static char line[UT_LINE_MAX];	/* once per panic: not on the stack */
	struct usbtrail_record rec;
	u64 head = atomic64_read(&ut_flight_head), first, win, i;

	first = head > ut_flight_size ? head - ut_flight_size : 0;
	win = head > ut_flight_dump ? head - ut_flight_dump : 0;
	if (win < first)
		win = first;
	pr_emerg("flight recorder dump (%s): %llu records, errors since %llu, all since %llu\n",
		 why, head, first, win);
	for (i = first; i < win; i++) {
		if (!ut_flight_get(i, &rec) || !(rec.flags & USBTRAIL_F_ERROR))
			continue;
		ut_format(line, sizeof(line), &rec);
		pr_emerg("fr %s\n", line);
	}
	for (i = win; i < head; i++) {
		if (!ut_flight_get(i, &rec))
			continue;
		ut_format(line, sizeof(line), &rec);
		pr_emerg("fr %s\n", line);
	}
	pr_emerg("flight recorder dump end\n");
}

static int ut_flight_panic(struct notifier_block *nb, unsigned long val,
			   void *data)
{
	if (atomic_xchg(&ut_flight_dumped, 1) == 0)
		ut_flight_print("panic");
	return NOTIFY_DONE;
}

/* The die chain also carries traps, breakpoints and kprobes: oops only. */
static int ut_flight_die(struct notifier_block *nb, unsigned long val,
			 void *data)
{
	if (val == DIE_OOPS && atomic_xchg(&ut_flight_dumped, 1) == 0)
		ut_flight_print("oops");
	return NOTIFY_DONE;
}

static struct notifier_block ut_flight_panic_nb = {
	.notifier_call = ut_flight_panic,
	.priority = INT_MAX,	/* before kdump or the reboot takes over */
};

static struct notifier_block ut_flight_die_nb = {
	.notifier_call = ut_flight_die,
};

/* The records held now, oldest first, one line each (debugfs flight). */
static void *ut_flight_seq_start(struct seq_file *m, loff_t *pos)
{
	u64 head = atomic64_read(&ut_flight_head);
	u64 first = head > ut_flight_size ? head - ut_flight_size : 0;
	u64 *it;

	if (*pos == 0)
		m->private = (void *)(unsigned long)head;
	head = (unsigned long)m->private;
	if (first + *pos >= head)
		return NULL;
	it = kmalloc(sizeof(*it), GFP_KERNEL);
	if (!it)
		return ERR_PTR(-ENOMEM);
	*it = first + *pos;
	return it;
}

static void *ut_flight_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	u64 *it = v;

	++*pos;
	if (++*it >= (unsigned long)m->private) {
		kfree(it);
		return NULL;
	}
	return it;
}

static void ut_flight_seq_stop(struct seq_file *m, void *v)
{
	if (!IS_ERR_OR_NULL(v))
		kfree(v);
}

static int ut_flight_seq_show(struct seq_file *m, void *v)
{
	struct usbtrail_record rec;
	char line[UT_LINE_MAX];

	if (!ut_flight_get(*(u64 *)v, &rec))
		return 0;	/* overwritten while we read: skip it */
	ut_format(line, sizeof(line), &rec);
	seq_printf(m, "%s\n", line);
	return 0;
}

const struct seq_operations ut_flight_seq_ops = {
	.start = ut_flight_seq_start,
	.next = ut_flight_seq_next,
	.stop = ut_flight_seq_stop,
	.show = ut_flight_seq_show,
};

int ut_flight_init(unsigned int records, unsigned int panic_dump)
{
	int ret;

	ut_flight_size = roundup_pow_of_two(clamp(records, 16U, 1U << 20));
	ut_flight_dump = min(panic_dump, ut_flight_size);
	ut_flight = vzalloc(array_size(ut_flight_size, sizeof(*ut_flight)));
	if (!ut_flight)
		return -ENOMEM;
	ret = atomic_notifier_chain_register(&panic_notifier_list,
					     &ut_flight_panic_nb);
	if (ret)
		goto err_free;
	ret = register_die_notifier(&ut_flight_die_nb);
	if (ret)
		goto err_unregister_panic;
	return 0;

err_unregister_panic:
	atomic_notifier_chain_unregister(&panic_notifier_list,
					 &ut_flight_panic_nb);
err_free:
	vfree(ut_flight);
	ut_flight = NULL;
	return ret;
}

/* Called once every probe is gone and ut_debugfs_exit() has run. */
void ut_flight_exit(void)
{
	unregister_die_notifier(&ut_flight_die_nb);
	atomic_notifier_chain_unregister(&panic_notifier_list,
					 &ut_flight_panic_nb);
	vfree(ut_flight);
	ut_flight = NULL;
}
