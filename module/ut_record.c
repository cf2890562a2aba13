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
 * /dev/usbtrail (ut_dev.c) consumes the stream with ut_stream_read(),
 * which merges the per-CPU buffers in time order and reports drops in
 * band as USBTRAIL_REC_LOST records.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/build_bug.h>
#include <linux/cpumask.h>
#include <linux/mutex.h>
#include <linux/ring_buffer.h>
#include <linux/smp.h>
#include <linux/timekeeping.h>

#include "ut.h"
#include "ut_compat.h"

static_assert(sizeof(struct usbtrail_record) == USBTRAIL_RECORD_SIZE);
static_assert(sizeof(struct usbtrail_info) == 48);

static struct trace_buffer *ut_stream;
static unsigned long ut_stream_bytes;
static atomic_t ut_seq = ATOMIC_INIT(0);
static atomic64_t ut_lost = ATOMIC64_INIT(0);
/* lost count already reported in band; only the reader touches it */
static u64 ut_lost_reported;
static bool ut_reader_open;
/*
 * Waking the reader for every record would cost a context switch per
 * event; it is woken every UT_WAKE_BATCH records, and by ut_dev.c's
 * timer for the ones that come slower.
 */
#define UT_WAKE_BATCH	64
static atomic_t ut_unwoken = ATOMIC_INIT(0);
/* serialises readers of the ring buffer (one open file, but be sure) */
static DEFINE_MUTEX(ut_read_lock);

int ut_stream_init(unsigned long bytes_per_cpu)
{
	ut_stream = ring_buffer_alloc(bytes_per_cpu, 0);
	if (!ut_stream)
		return -ENOMEM;
	ut_stream_bytes = bytes_per_cpu * num_possible_cpus();
	return 0;
}

/* Called once every probe is gone (tracepoint_synchronize_unregister). */
void ut_stream_exit(void)
{
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
	 * ut_dev.c's 100 ms timer, which bounds the delay; a full barrier
	 * per record would cost more than it saves.
	 */
	if (READ_ONCE(ut_reader_open) &&
	    atomic_inc_return(&ut_unwoken) % UT_WAKE_BATCH == 0)
		ut_dev_wake();
}

void ut_stream_set_reader(bool open)
{
	WRITE_ONCE(ut_reader_open, open);
}

bool ut_stream_empty(void)
{
	int cpu;

	if (atomic64_read(&ut_lost) != ut_lost_reported)
		return false;
	for_each_online_cpu(cpu)
		if (!ring_buffer_empty_cpu(ut_stream, cpu))
			return false;
	return true;
}

/* The oldest record of all CPUs into *rec; false when there is none. */
static bool ut_stream_read_one(struct usbtrail_record *rec)
{
	struct ring_buffer_event *ev;
	u64 ts, best_ts = U64_MAX, lost;
	int cpu, best = -1;

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
		ev = ring_buffer_peek(ut_stream, cpu, &ts, NULL);
		if (ev && ts < best_ts) {
			best_ts = ts;
			best = cpu;
		}
	}
	if (best < 0)
		return false;
	ev = ring_buffer_consume(ut_stream, best, NULL, NULL);
	if (!ev)
		return false;
	memcpy(rec, ring_buffer_event_data(ev), sizeof(*rec));
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
	mutex_lock(&ut_read_lock);
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
