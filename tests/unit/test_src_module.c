// SPDX-License-Identifier: GPL-2.0-only
/*
 * The module source (src_module.c) through the real recorder: records
 * written into a pipe come out of rec_run() as events, in time order, a
 * lost record as EV_LOST with its count, a record of no known type as
 * malformed; the pipe's end stops the polling of it (the recording ends
 * on its duration, not in a busy loop).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "record.h"

#define MAX_SEEN	64

static struct {
	enum ev_type type;
	uint64_t t_ns;
	uint32_t seq;
	uint64_t lost;
} seen[MAX_SEEN];
static unsigned int nseen;

static int collect_event(struct rec_sink *s, const struct ev *ev)
{
	(void)s;
	assert_true(nseen < MAX_SEEN);
	seen[nseen].type = ev->type;
	seen[nseen].t_ns = ev->t_ns;
	if (ev->type == EV_TRACE)
		seen[nseen].seq = ev->u.rec.seq;
	if (ev->type == EV_LOST)
		seen[nseen].lost = ev->u.lost.count;
	nseen++;
	return 0;
}

static int collect_close(struct rec_sink *s)
{
	(void)s;
	return 0;
}

static void record_at(struct usbtrail_record *r, uint16_t type, uint32_t seq,
		      uint64_t t_ns)
{
	memset(r, 0, sizeof(*r));
	r->type = type;
	r->seq = seq;
	r->ts_ns = t_ns;
}

static double cpu_secs(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static void test_pipe_records(void **state)
{
	struct derive_opts dopts = DERIVE_OPTS_DEFAULT;
	struct rec_run_opts ro = { .duration_s = 1, .marker_fd = -1 };
	struct rec_sink sink = {
		.name = "collect", .event = collect_event,
		.close = collect_close,
	};
	struct usbtrail_record recs[5];
	struct rec_source src;
	uint64_t now = ev_clock_now();
	unsigned int i, trace = 0, lost = 0;
	double cpu0;
	struct rec *r;
	int pfd[2];

	(void)state;
	/* written out of order; the recorder puts them back in order */
	record_at(&recs[0], USBTRAIL_REC_SCSI_START, 2, now + 20000000);
	record_at(&recs[1], USBTRAIL_REC_SCSI_START, 1, now + 10000000);
	record_at(&recs[2], USBTRAIL_REC_LOST, 0, now + 30000000);
	recs[2].u.lost.count = 7;
	recs[2].u.lost.total = 7;
	record_at(&recs[3], 0xffff, 3, now + 40000000);	/* no such type */
	record_at(&recs[4], USBTRAIL_REC_SCSI_DONE, 4, now + 50000000);

	r = rec_new(&dopts);
	assert_non_null(r);
	assert_int_equal(pipe(pfd), 0);
	assert_int_equal(fcntl(pfd[0], F_SETFL, O_NONBLOCK), 0);
	assert_int_equal(write(pfd[1], recs, sizeof(recs)),
			 (ssize_t)sizeof(recs));
	close(pfd[1]);			/* the source sees the pipe's end */
	assert_int_equal(src_module_attach(&src, r, pfd[0]), 0);
	assert_int_equal(rec_add_source(r, &src), 0);
	assert_int_equal(rec_add_sink(r, &sink), 0);

	nseen = 0;
	cpu0 = cpu_secs();
	assert_int_equal(rec_run(r, &ro), 0);
	/* a pipe at its end stays readable: polling it would spin */
	assert_true(cpu_secs() - cpu0 < 0.5);

	for (i = 0; i < nseen; i++) {
		if (i)
			assert_true(seen[i - 1].t_ns <= seen[i].t_ns);
		if (seen[i].type == EV_TRACE) {
			/* seq 1, 2, then 4: 3 had no known type */
			assert_int_equal(seen[i].seq,
					 trace < 2 ? trace + 1 : 4);
			trace++;
		} else if (seen[i].type == EV_LOST) {
			assert_int_equal(seen[i].lost, 7);
			lost++;
		}
	}
	assert_int_equal(trace, 3);
	assert_int_equal(lost, 1);
	assert_int_equal(src.events, 3);
	assert_int_equal(src.lost, 7);
	assert_int_equal(src.malformed, 1);
	rec_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pipe_records),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
