// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_ioengine.c - unit tests of userspace/ioengine.c on a real file:
 * whole requests through io_uring with and without registered buffers
 * (a request whose buffer lies in its slot, one that starts inside its
 * slot, one that is no slot's, one in another's slot), and the sync
 * engine, each request timed.  Where the kernel or a sandbox refuses
 * io_uring, its tests are skipped.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ioengine.h"

#define SLOTS	4
#define SLOT	65536

static int test_ioengine_file(void)
{
	char path[] = "/tmp/test_ioengine.XXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	unlink(path);
	return fd;
}

/* Queue @n requests, reap them all; every one must be whole. */
static void test_ioengine_run(struct ioengine *e, struct ioengine_req *r,
			      unsigned int n)
{
	struct ioengine_req *done[SLOTS];
	unsigned int i, got = 0;
	int k;

	for (i = 0; i < n; i++)
		assert_int_equal(ioengine_queue(e, &r[i]), 0);
	while (got < n) {
		k = ioengine_reap(e, done, SLOTS, true);
		assert_true(k > 0);
		for (i = 0; i < (unsigned int)k; i++) {
			assert_int_equal(done[i]->res, (int)done[i]->len);
			/* timed: given to the kernel, then seen done */
			assert_true(done[i]->submit_ns > 0);
			assert_true(done[i]->done_ns >= done[i]->submit_ns);
		}
		got += (unsigned int)k;
	}
}

/*
 * Write each slot's own bytes at its own offset, through the engine, then
 * read them back through it into cleared slots: a request that used
 * another slot's registration would write that slot's bytes, or fail with
 * EFAULT where the buffer lies outside it.
 */
static void test_ioengine_roundtrip(enum ioengine_kind kind, bool reg)
{
	unsigned char *bufs = NULL, *other, *back;
	struct ioengine_req r[SLOTS];
	struct ioengine *e;
	unsigned int i;
	int fd = test_ioengine_file(), err;

	assert_int_equal(posix_memalign((void **)&bufs, 4096, SLOTS * SLOT),
			 0);
	other = malloc(SLOT);
	back = malloc(SLOTS * SLOT);
	assert_non_null(other);
	assert_non_null(back);
	for (i = 0; i < SLOTS * SLOT; i++)
		bufs[i] = (unsigned char)(i * 7 + i / SLOT);
	memset(other, 0x5a, SLOT);

	err = ioengine_create(kind, fd, SLOTS, &e);
	if (err == -ENOSYS || err == -EPERM) {	/* no io_uring here */
		close(fd);
		free(bufs);
		free(other);
		free(back);
		skip();
	}
	assert_int_equal(err, 0);
	if (reg) {
		err = ioengine_register(e, bufs, SLOT, SLOTS);
		if (kind == IOENGINE_SYNC) {
			assert_int_equal(err, -EOPNOTSUPP);
		} else {
			/* a memlock limit is no failure: plain buffers */
			assert_true(err == 0 || err == -ENOMEM);
			/* more slots than the queue depth: refused */
			assert_int_equal(ioengine_register(e, bufs, SLOT,
							   SLOTS + 1),
					 -EINVAL);
		}
	}

	memset(r, 0, sizeof(r));
	for (i = 0; i < SLOTS; i++) {
		r[i].buf = bufs + (size_t)i * SLOT;
		r[i].len = SLOT;
		r[i].offset = (uint64_t)i * SLOT;
		r[i].write = true;
		r[i].slot = i;
	}
	/* slot 1 from inside, to its end */
	r[1].buf = bufs + SLOT + 4096;
	r[1].len = SLOT - 4096;
	r[1].offset = SLOT + 4096;
	/* slot 3's request with a buffer that is no slot's */
	r[3].buf = other;
	/* slot 0's request with slot 2's buffer (beyond its own slot) */
	r[0].slot = 2;
	r[2].slot = 0;
	test_ioengine_run(e, r, SLOTS);

	/* what landed where */
	assert_int_equal(pread(fd, back, SLOTS * SLOT, 0), SLOTS * SLOT);
	assert_memory_equal(back, bufs, SLOT);
	assert_memory_equal(back + SLOT + 4096, bufs + SLOT + 4096,
			    SLOT - 4096);
	assert_memory_equal(back + 2 * SLOT, bufs + 2 * SLOT, SLOT);
	assert_memory_equal(back + 3 * SLOT, other, SLOT);

	/* and back through the engine, into cleared slots */
	memcpy(back, bufs, SLOTS * SLOT);
	memset(bufs, 0, SLOTS * SLOT);
	memset(other, 0, SLOT);
	for (i = 0; i < SLOTS; i++)
		r[i].write = false;
	test_ioengine_run(e, r, SLOTS);
	assert_memory_equal(bufs, back, SLOT);
	assert_memory_equal(bufs + SLOT + 4096, back + SLOT + 4096,
			    SLOT - 4096);
	assert_memory_equal(bufs + 2 * SLOT, back + 2 * SLOT, SLOT);
	for (i = 0; i < SLOT; i++)
		assert_int_equal(other[i], 0x5a);

	ioengine_free(e);
	close(fd);
	free(bufs);
	free(other);
	free(back);
}

static void test_ioengine_uring_plain(void **state)
{
	(void)state;
	test_ioengine_roundtrip(IOENGINE_URING, false);
}

static void test_ioengine_uring_registered(void **state)
{
	(void)state;
	test_ioengine_roundtrip(IOENGINE_URING, true);
}

static void test_ioengine_sync(void **state)
{
	(void)state;
	test_ioengine_roundtrip(IOENGINE_SYNC, true);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ioengine_uring_plain),
		cmocka_unit_test(test_ioengine_uring_registered),
		cmocka_unit_test(test_ioengine_sync),
	};

	return cmocka_run_group_tests_name("ioengine", tests, NULL, NULL);
}
