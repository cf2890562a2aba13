/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * btf: a structure's size and its members' offsets in the running
 * kernel, from its BPF Type Format (/sys/kernel/btf/vmlinux and, split on
 * top of it, /sys/kernel/btf/MODULE), parsed by libbpf.
 *
 * src_tracefs.c uses it to build kprobe fetch arguments that follow the
 * struct scsi_cmnd * an error handler gets to the command's SCSI address,
 * tag and opcode, as usbtrail.ko reads them.  The caller has libbpf
 * read the BTF (btf__load_vmlinux_btf(), btf__load_module_btf(): libbpf
 * 1.1 exports no btf__new_split() to parse a module's from bytes); these
 * questions open nothing and log nothing.
 */
#ifndef USBTRAIL_BTF_H
#define USBTRAIL_BTF_H

#include <stdint.h>

struct btf;	/* libbpf's <bpf/btf.h> */

/*
 * The byte size of struct NAME, and the byte offset of its direct member
 * MEMBER (not inside an anonymous struct or union, not a bit field),
 * looked up in b and its base.  0, or -ENOENT: no such structure or
 * member, -EINVAL: bad arguments.
 */
int btf_struct_size(const struct btf *b, const char *name, uint32_t *size);
int btf_member_offset(const struct btf *b, const char *name,
		      const char *member, uint32_t *offset);

#endif /* USBTRAIL_BTF_H */
