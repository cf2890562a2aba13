/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ioengine.h - submit reads and writes at a queue depth: io_uring, or plain
 * pwrite/pread one at a time; each request timed from its submission to
 * its completion.
 */
#ifndef USBTRAIL_IOENGINE_H
#define USBTRAIL_IOENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ioengine_kind {
	IOENGINE_URING,
	IOENGINE_SYNC,
};

/* One I/O; owned by the caller, which must keep it until it is reaped. */
struct ioengine_req {
	void *buf;
	uint64_t offset;
	uint32_t len;
	bool write;
	int res;		/* bytes transferred or -errno, when reaped */
	unsigned int slot;	/* the caller's */
	/*
	 * CLOCK_MONOTONIC ns, set by the engine: given to the kernel, and
	 * seen complete (the latency is done_ns - submit_ns)
	 */
	uint64_t submit_ns, done_ns;
};

struct ioengine;

const char *ioengine_kind_name(enum ioengine_kind kind);
int ioengine_create(enum ioengine_kind kind, int fd, unsigned int qd,
		    struct ioengine **out);
void ioengine_free(struct ioengine *e);
int ioengine_register(struct ioengine *e, void *base, size_t len,
		      unsigned int n);
void ioengine_set_fd(struct ioengine *e, int fd);
int ioengine_queue(struct ioengine *e, struct ioengine_req *r);
int ioengine_reap(struct ioengine *e, struct ioengine_req **done,
		  unsigned int max, bool wait);
int ioengine_fsync(struct ioengine *e);

#endif /* USBTRAIL_IOENGINE_H */
