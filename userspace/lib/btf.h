/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * btf: a structure's size and its members' offsets in the running
 * kernel, from its BPF Type Format (/sys/kernel/btf/vmlinux and, split on
 * top of it, /sys/kernel/btf/MODULE), parsed by libbpf.
 *
 * src_tracefs.c uses it to build kprobe fetch arguments that follow the
 * struct scsi_cmnd * an error handler gets to the command's SCSI address,
 * tag and opcode, as usbtrail.ko reads them; module_probes.c to answer
 * usbtrail.ko's layout table (a tracepoint's parameters, a private
 * structure's members) before its probes attach.  The caller has libbpf
 * read the BTF (btf__load_vmlinux_btf(), btf__load_module_btf(): libbpf
 * 1.1 exports no btf__new_split() to parse a module's from bytes); these
 * questions open nothing and log nothing.
 */
#ifndef USBTRAIL_BTF_H
#define USBTRAIL_BTF_H

#include <stddef.h>
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

/*
 * Type @id of b as C spells it in a declaration without a name: "int",
 * "u32" (a typedef by its own name), "struct xhci_port *", "const char
 * *", "void *"; into out.  0, -ENAMETOOLONG (cut), -ENOENT (no such
 * type), -EINVAL (a kind a parameter or member does not have here: an
 * array, a function).
 */
int btf_type_str(const struct btf *b, uint32_t id, char *out, size_t len);

/*
 * Member MEMBER of struct NAME: its byte offset, its byte size and its
 * type as btf_type_str() spells it.  0, -ENOENT, -EINVAL as above.
 */
int btf_member(const struct btf *b, const char *name, const char *member,
	       uint32_t *offset, uint32_t *size, char *type, size_t len);

/*
 * The parameters of tracepoint TP's probes after their data pointer, as
 * btf_type_str() spells them, joined by "," ("struct xhci_port *,u32"):
 * from the typedef the kernel declares for each tracepoint, btf_trace_TP,
 * a pointer to the probe's prototype.  0, -ENOENT (no such typedef, or
 * not a pointer to a prototype), -ENAMETOOLONG, -EINVAL.
 */
int btf_tracepoint_params(const struct btf *b, const char *tp, char *out,
			  size_t len);

#endif /* USBTRAIL_BTF_H */
