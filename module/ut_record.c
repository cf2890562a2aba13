// SPDX-License-Identifier: GPL-2.0-only
/*
 * usbtrail.ko: the record stream.
 *
 * ut_emit() is called from the probes, in any context but NMI (hard and
 * soft interrupts included), possibly on every CPU at once.  It stamps the
 * record and writes it into the kernel's lockless per-CPU ring buffer in
 * producer mode: when a slow or absent reader has let it fill up, the new
 * record is dropped and counted, never waited for.  The same record goes
 * to the flight recorder, which always keeps the latest ones.
 *
 * A reader consumes the stream with ut_stream_read(), which takes the
 * per-CPU buffers a page at a time (ring_buffer_read_page(): one hold of
 * the CPU buffer's lock swaps a full page out, or copies what is
 * committed of the page the writer is on), merges the pages in time
 * order and reports drops in band as USBTRAIL_REC_LOST records.
 * Readers register a struct ut_stream_reader to be woken when records
 * wait (as usbmon's readers register with their bus): the stream owns
 * the wakeup, and knows nothing of who reads it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bug.h>
#include <linux/build_bug.h>
#include <linux/cpumask.h>
#include <linux/irq_work.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/rcupdate.h>
#include <linux/ring_buffer.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>

#include <asm/local.h>

#include "ut.h"
#include "ut_compat.h"

static_assert(sizeof(struct usbtrail_record) == USBTRAIL_RECORD_SIZE);
static_assert(offsetof(struct usbtrail_info, nprobes) == USBTRAIL_INFO_V1_SIZE);
static_assert(sizeof(struct usbtrail_probe) == 64);
static_assert(sizeof(struct usbtrail_info) ==
	      USBTRAIL_INFO_V1_SIZE + 8 + 64 * USBTRAIL_PROBES_MAX);

static struct trace_buffer *ut_stream;
static unsigned long ut_stream_bytes;
static atomic_t ut_seq = ATOMIC_INIT(0);
static atomic64_t ut_lost = ATOMIC64_INIT(0);
/* lost count already reported in band; only the reader touches it */
static u64 ut_lost_reported;
/* serialises readers of the ring buffer (one open file, but be sure) */
static DEFINE_MUTEX(ut_read_lock);

/*
 * The record each CPU's buffer gave up last and ut_stream_read() has not
 * handed over yet: the reader merges the CPUs by time, so it holds the
 * oldest record of each.  Records leave the buffer through
 * ring_buffer_consume(), the ring buffer's own reader: nothing here knows
 * how it lays out its pages.  All under ut_read_lock but for the unlocked
 * look of ut_stream_empty() at full.
 */
struct ut_rpage {
	struct usbtrail_record rec;
	bool full;
};

static struct ut_rpage *ut_rpages;	/* [nr_cpu_ids] */

/*
 * The readers to wake.  Added and removed in process context under
 * ut_readers_lock; walked under RCU, from the irq_work and the tick.
 */
static LIST_HEAD(ut_readers);
static DEFINE_MUTEX(ut_readers_lock);
/*
 * Waking the readers for every record would cost a context switch per
 * event; they are woken every UT_WAKE_BATCH records, through an irq_work
 * (ut_emit() may run where wake_up() could not), and by a tick every
 * UT_STREAM_TICK while records wait, for the ones that come slower: a
 * record reaches a reader within 100 ms.  512 records are 8 pages of the
 * buffer, a 30th of one CPU's default megabyte: a full read() of the
 * recorder's, where 64 woke it for a few hundred bytes.
 */
#define UT_WAKE_BATCH	512
#define UT_STREAM_TICK	(HZ / 10)
static atomic_t ut_unwoken = ATOMIC_INIT(0);
static struct irq_work ut_wake_work;
static void ut_stream_tick_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(ut_stream_tick, ut_stream_tick_fn);

static void ut_stream_wake_readers(void)
{
	struct ut_stream_reader *r;

	rcu_read_lock();
	list_for_each_entry_rcu(r, &ut_readers, node)
		r->wake(r);
	rcu_read_unlock();
}

static void ut_stream_wake_fn(struct irq_work *work)
{
	ut_stream_wake_readers();
}

/* Runs while a reader is registered: ut_stream_reader_del() stops it. */
static void ut_stream_tick_fn(struct work_struct *work)
{
	if (!ut_stream_empty())
		ut_stream_wake_readers();
	if (!list_empty(&ut_readers))
		schedule_delayed_work(&ut_stream_tick, UT_STREAM_TICK);
}

/*
 * Call r->wake(r) when records wait, from now until
 * ut_stream_reader_del().  wake() is called in hard interrupt context
 * (the irq_work) or from a workqueue: it must not sleep.  Process
 * context.
 */
void ut_stream_reader_add(struct ut_stream_reader *r)
{
	bool first;

	mutex_lock(&ut_readers_lock);
	first = list_empty(&ut_readers);
	list_add_tail_rcu(&r->node, &ut_readers);
	if (first)
		schedule_delayed_work(&ut_stream_tick, UT_STREAM_TICK);
	mutex_unlock(&ut_readers_lock);
}

/*
 * Stop waking r.  When this returns no wake() of r runs or will run, and
 * r may be freed.  Process context; sleeps (the tick, an RCU grace
 * period).
 */
void ut_stream_reader_del(struct ut_stream_reader *r)
{
	mutex_lock(&ut_readers_lock);
	list_del_rcu(&r->node);
	/*
	 * Under the lock, so that the next reader's add cannot have its
	 * freshly scheduled tick cancelled here.  The tick does not take
	 * the lock, and cannot requeue itself once cancelling has begun.
	 */
	if (list_empty(&ut_readers))
		cancel_delayed_work_sync(&ut_stream_tick);
	mutex_unlock(&ut_readers_lock);
	synchronize_rcu();	/* ut_stream_wake_readers() is done with r */
}

int ut_stream_init(unsigned long bytes_per_cpu)
{
	init_irq_work(&ut_wake_work, ut_stream_wake_fn);
	ut_rpages = kcalloc(nr_cpu_ids, sizeof(*ut_rpages), GFP_KERNEL);
	if (!ut_rpages)
		return -ENOMEM;
	ut_stream = ring_buffer_alloc(bytes_per_cpu, 0);
	if (!ut_stream) {
		kfree(ut_rpages);
		ut_rpages = NULL;
		return -ENOMEM;
	}
	ut_stream_bytes = bytes_per_cpu * num_possible_cpus();
	return 0;
}

/*
 * Called once every probe is gone (tracepoint_synchronize_unregister)
 * and every reader removed: no wakeup can be queued any more, but the
 * last one may still be pending.
 */
void ut_stream_exit(void)
{
	WARN_ON(!list_empty(&ut_readers));
	irq_work_sync(&ut_wake_work);
	kfree(ut_rpages);
	ut_rpages = NULL;
	if (ut_stream)
		ring_buffer_free(ut_stream);
	ut_stream = NULL;
}

void ut_emit(struct usbtrail_record *rec)
{
	struct ring_buffer_event *ev;

	rec->ts_ns = ktime_get_boot_fast_ns();
	rec->seq = atomic_inc_return(&ut_seq);
	rec->cpu = raw_smp_processor_id();

	ut_flight_put(rec);

	ev = ring_buffer_lock_reserve(ut_stream, sizeof(*rec));
	if (!ev) {
		atomic64_inc(&ut_lost);
		return;
	}
	memcpy(ring_buffer_event_data(ev), rec, sizeof(*rec));
	ut_rb_commit(ut_stream, ev);

	/*
	 * No barrier here: a reader that misses this wakeup is woken by
	 * the 100 ms tick, which bounds the delay; a full barrier per
	 * record would cost more than it saves.
	 */
	if (!list_empty(&ut_readers) &&
	    atomic_inc_return(&ut_unwoken) % UT_WAKE_BATCH == 0)
		irq_work_queue(&ut_wake_work);
}

/*
 * No record waits, in the buffers or held by the reader.  Without the
 * read lock (poll, the tick): a record being taken may look one way or
 * the other, which costs a spurious wakeup or one that waits for the
 * tick.
 */
bool ut_stream_empty(void)
{
	int cpu;

	if (atomic64_read(&ut_lost) != ut_lost_reported)
		return false;
	for_each_online_cpu(cpu)
		if (!ring_buffer_empty_cpu(ut_stream, cpu) ||
		    READ_ONCE(ut_rpages[cpu].full))
			return false;
	return true;
}

/*
 * The oldest record of @cpu not handed over yet, NULL if there is none.
 * An event shorter than a record (none is written) is dropped, counted
 * lost.  ut_read_lock held.
 */
static const struct usbtrail_record *ut_stream_cpu_next(int cpu)
{
	struct ut_rpage *rp = &ut_rpages[cpu];
	struct ring_buffer_event *ev;

	while (!rp->full) {
		ev = ring_buffer_consume(ut_stream, cpu, NULL, NULL);
		if (!ev)
			return NULL;
		if (ring_buffer_event_length(ev) < sizeof(rp->rec)) {
			WARN_ONCE(1, "usbtrail: short ring buffer event\n");
			atomic64_inc(&ut_lost);
			continue;
		}
		memcpy(&rp->rec, ring_buffer_event_data(ev), sizeof(rp->rec));
		WRITE_ONCE(rp->full, true);
	}
	return &rp->rec;
}

/*
 * The oldest record of all CPUs into *rec; false when there is none.
 * ut_read_lock held: it guards ut_lost_reported and the consuming reads.
 */
static bool ut_stream_read_one(struct usbtrail_record *rec)
{
	const struct usbtrail_record *next, *first = NULL;
	u64 best_ts = U64_MAX, lost;
	int cpu, best = -1;

	lockdep_assert_held(&ut_read_lock);
	lost = atomic64_read(&ut_lost);
	if (lost != ut_lost_reported) {
		memset(rec, 0, sizeof(*rec));
		rec->type = USBTRAIL_REC_LOST;
		rec->flags = USBTRAIL_F_ERROR;
		rec->ts_ns = ktime_get_boot_fast_ns();
		rec->u.lost.count = lost - ut_lost_reported;
		rec->u.lost.total = lost;
		ut_lost_reported = lost;
		return true;
	}
	for_each_online_cpu(cpu) {
		next = ut_stream_cpu_next(cpu);
		if (next && next->ts_ns < best_ts) {
			best_ts = next->ts_ns;
			best = cpu;
			first = next;
		}
	}
	if (best < 0)
		return false;
	memcpy(rec, first, sizeof(*rec));
	WRITE_ONCE(ut_rpages[best].full, false);
	return true;
}

/*
 * Up to n records, oldest first, into recs[].  Returns how many (0 when
 * the stream is empty).  Process context only; takes ut_read_lock.
 */
unsigned int ut_stream_read(struct usbtrail_record *recs, unsigned int n)
{
	unsigned int got = 0;

	mutex_lock(&ut_read_lock);
	while (got < n && ut_stream_read_one(&recs[got]))
		got++;
	mutex_unlock(&ut_read_lock);
	return got;
}

/*
 * Empty the stream, and let the losses so far go unreported: the reader
 * starts from now.  Process context; sleeps (two RCU grace periods).
 */
void ut_stream_discard(void)
{
	int cpu;

	mutex_lock(&ut_read_lock);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		WRITE_ONCE(ut_rpages[cpu].full, false);
	/* writers meanwhile find it disabled: dropped, counted in ut_lost */
	ring_buffer_reset(ut_stream);
	/*
	 * Probes run with preemption off: once this grace period ends, every
	 * writer that found the buffer disabled has counted its drop.
	 */
	synchronize_rcu();
	ut_lost_reported = atomic64_read(&ut_lost);
	mutex_unlock(&ut_read_lock);
}

/* Records consumed but not delivered (the reader's buffer faulted). */
void ut_stream_drop(unsigned int n)
{
	atomic64_add(n, &ut_lost);
}

u64 ut_stream_lost(void)
{
	return atomic64_read(&ut_lost);
}

/* Records produced since load (the sequence number wraps at 2^32). */
u64 ut_stream_records(void)
{
	return (u32)atomic_read(&ut_seq);
}

unsigned long ut_stream_size(void)
{
	return ut_stream_bytes;
}
