/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * btf: the kernel's BPF Type Format (/sys/kernel/btf/vmlinux and, split
 * on top of it, /sys/kernel/btf/MODULE), just enough to learn a
 * structure's size and its members' offsets in the running kernel.
 *
 * src_tracefs.c uses it to build kprobe fetch arguments that follow the
 * struct scsi_cmnd * an error handler gets to the command's SCSI address,
 * tag and opcode, as usbtrail.ko reads them.  Parses bytes the caller
 * read; opens nothing, logs nothing.  The blobs stay the caller's and
 * must outlive the struct btf.
 */
#ifndef USBTRAIL_BTF_H
#define USBTRAIL_BTF_H

#include <stddef.h>
#include <stdint.h>

struct btf {
	const struct btf *base;		/* vmlinux's, for a module's; or NULL */
	const uint8_t *types;
	size_t types_len;
	const char *strs;
	size_t strs_len;
	uint32_t ntypes;		/* this blob's, counted at open */
};

/*
 * Check the header of data (len bytes) and set *b up over it; base is the
 * BTF a module's is split from (NULL for vmlinux).  0, or -EINVAL for a
 * malformed blob, -EPROTONOSUPPORT for another magic or version.
 */
int btf_open(struct btf *b, const void *data, size_t len,
	     const struct btf *base);

/*
 * The byte size of struct NAME, and the byte offset of its direct member
 * MEMBER (not inside an anonymous struct or union, not a bit field).
 * 0, or -ENOENT: no such complete structure or member in b (nor in its
 * base), -EINVAL: the types are malformed.
 */
int btf_struct_size(const struct btf *b, const char *name, uint32_t *size);
int btf_member_offset(const struct btf *b, const char *name,
		      const char *member, uint32_t *offset);

#endif /* USBTRAIL_BTF_H */
