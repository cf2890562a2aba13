// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_btf.c - unit tests of userspace/lib/btf.c on small BTF blobs built
 * here by hand (the layout of Documentation/bpf/btf.rst): a "vmlinux"
 * blob and a "module" blob split on top of it, as /sys/kernel/btf has
 * them, parsed by libbpf as src_tracefs.c has it parse them (the module's
 * from a file: libbpf 1.1 exports no btf__new_split()); and on the
 * running kernel's BTF when there is one to read.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include <bpf/btf.h>
#include <cmocka.h>
#include <linux/btf.h>

#include "btf.h"

struct test_blob {
	uint8_t buf[1024];
	size_t len;		/* of the types so far */
	uint8_t types[512];
	size_t tlen;
};

static void test_put(struct test_blob *b, uint32_t v)
{
	assert_true(b->tlen + 4 <= sizeof(b->types));
	memcpy(b->types + b->tlen, &v, 4);
	b->tlen += 4;
}

static void test_type(struct test_blob *b, uint32_t name, uint32_t kind,
		      uint32_t vlen, bool kflag, uint32_t size)
{
	test_put(b, name);
	test_put(b, (kflag ? 1u << 31 : 0) | kind << 24 | vlen);
	test_put(b, size);
}

static void test_member(struct test_blob *b, uint32_t name, uint32_t type,
			uint32_t offset)
{
	test_put(b, name);
	test_put(b, type);
	test_put(b, offset);
}

/* header, types, strings */
static void test_finish(struct test_blob *b, const char *strs, size_t slen)
{
	struct btf_header h = {
		.magic = BTF_MAGIC, .version = BTF_VERSION,
		.hdr_len = sizeof(h), .type_off = 0,
		.type_len = (uint32_t)b->tlen, .str_off = (uint32_t)b->tlen,
		.str_len = (uint32_t)slen,
	};

	memcpy(b->buf, &h, sizeof(h));
	memcpy(b->buf + sizeof(h), b->types, b->tlen);
	memcpy(b->buf + sizeof(h) + b->tlen, strs, slen);
	b->len = sizeof(h) + b->tlen + slen;
}

/* "\0int\0request\0q\0tag\0scsi_cmnd\0" */
static const char test_vstrs[] = "\0int\0request\0q\0tag\0scsi_cmnd";
#define S_INT		1
#define S_REQUEST	5
#define S_Q		13
#define S_TAG		15
#define S_SCSI_CMND	19

static void test_vmlinux(struct test_blob *v)
{
	memset(v, 0, sizeof(*v));
	test_type(v, S_INT, BTF_KIND_INT, 0, false, 4);		/* id 1 */
	test_put(v, 32);					/* 32 bits */
	test_type(v, S_REQUEST, BTF_KIND_STRUCT, 2, false, 248); /* id 2 */
	test_member(v, S_Q, 1, 0);
	test_member(v, S_TAG, 1, 32 * 8);
	test_type(v, S_SCSI_CMND, BTF_KIND_FWD, 0, false, 0);	/* id 3 */
	test_finish(v, test_vstrs, sizeof(test_vstrs));
}

/* the module's strings start after vmlinux's */
static const char test_mstrs[] = "\0device\0cmnd\0flags";
#define M(off)		((uint32_t)sizeof(test_vstrs) + (off))
#define S_DEVICE	M(1)
#define S_CMND		M(8)
#define S_FLAGS		M(13)

static void test_module(struct test_blob *m)
{
	memset(m, 0, sizeof(*m));
	/* id 4: the complete struct scsi_cmnd, with a bit field */
	test_type(m, S_SCSI_CMND, BTF_KIND_STRUCT, 3, true, 400);
	test_member(m, S_DEVICE, 1, 0);
	test_member(m, S_CMND, 1, 200 * 8);
	test_member(m, S_FLAGS, 1, 3u << 24 | 64 * 8);
	test_finish(m, test_mstrs, sizeof(test_mstrs));
}

/* The module blob split on top of @base, through a file as in /sys */
static struct btf *test_split(const struct test_blob *m, struct btf *base)
{
	char path[] = "/tmp/test_btf.XXXXXX";
	struct btf *b;
	int fd;

	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, m->buf, m->len), (ssize_t)m->len);
	close(fd);
	b = btf__parse_raw_split(path, base);
	unlink(path);
	return b;
}

static void test_btf_lookup(void **state)
{
	struct test_blob v, m;
	struct btf *vb, *mb;
	uint32_t x;

	(void)state;
	test_vmlinux(&v);
	test_module(&m);
	vb = btf__new(v.buf, (__u32)v.len);
	assert_non_null(vb);
	assert_int_equal(btf__type_cnt(vb), 4);		/* void and 3 */
	mb = test_split(&m, vb);
	assert_non_null(mb);
	assert_int_equal(btf__type_cnt(mb), 5);

	assert_int_equal(btf_struct_size(vb, "request", &x), 0);
	assert_int_equal(x, 248);
	assert_int_equal(btf_member_offset(vb, "request", "tag", &x), 0);
	assert_int_equal(x, 32);
	assert_int_equal(btf_member_offset(vb, "request", "q", &x), 0);
	assert_int_equal(x, 0);
	/* vmlinux has it only as a declaration */
	assert_int_equal(btf_struct_size(vb, "scsi_cmnd", &x), -ENOENT);
	/* the module's blob has it, and finds vmlinux's through its base */
	assert_int_equal(btf_struct_size(mb, "scsi_cmnd", &x), 0);
	assert_int_equal(x, 400);
	assert_int_equal(btf_member_offset(mb, "scsi_cmnd", "cmnd", &x), 0);
	assert_int_equal(x, 200);
	assert_int_equal(btf_member_offset(mb, "request", "tag", &x), 0);
	assert_int_equal(x, 32);
	/* a bit field has no byte offset; absent things are absent */
	assert_int_equal(btf_member_offset(mb, "scsi_cmnd", "flags", &x),
			 -ENOENT);
	assert_int_equal(btf_member_offset(mb, "scsi_cmnd", "tag", &x),
			 -ENOENT);
	assert_int_equal(btf_struct_size(mb, "gendisk", &x), -ENOENT);
	assert_int_equal(btf_struct_size(NULL, "request", &x), -EINVAL);
	btf__free(mb);
	btf__free(vb);
}

/*
 * What the lookups rely on: libbpf refuses a malformed blob instead of
 * handing out types that run past it.  An unknown kind is refused too:
 * BTF says nothing of a kind's size, so no reader can step over one.
 */
static void test_btf_malformed(void **state)
{
	struct test_blob v;
	uint32_t bad;

	(void)state;
	test_vmlinux(&v);
	assert_null(btf__new(v.buf, 10));
	assert_null(btf__new(v.buf, (__u32)v.len - 1));
	/* strings not NUL-ended */
	v.buf[v.len - 1] = 'x';
	assert_null(btf__new(v.buf, (__u32)v.len));
	test_vmlinux(&v);
	/* a struct claiming more members than the section holds */
	bad = BTF_KIND_STRUCT << 24 | 0xffff;
	memcpy(v.buf + sizeof(struct btf_header) + 16 + 4, &bad, 4);
	assert_null(btf__new(v.buf, (__u32)v.len));
	test_vmlinux(&v);
	/* an unknown kind */
	bad = 31u << 24;
	memcpy(v.buf + sizeof(struct btf_header) + 4, &bad, 4);
	assert_null(btf__new(v.buf, (__u32)v.len));
	test_vmlinux(&v);
	v.buf[0] ^= 0xff;
	assert_null(btf__new(v.buf, (__u32)v.len));
}

/* The running kernel's BTF, as src_tracefs.c loads it */
static void test_btf_running(void **state)
{
	uint32_t size, tag;
	struct btf *b;

	(void)state;
	if (access("/sys/kernel/btf/vmlinux", R_OK))
		skip();
	b = btf__load_vmlinux_btf();
	assert_non_null(b);
	assert_true(btf__type_cnt(b) > 1000);
	/* the block layer is built in: struct request is there */
	assert_int_equal(btf_struct_size(b, "request", &size), 0);
	assert_int_equal(btf_member_offset(b, "request", "tag", &tag), 0);
	assert_true(tag > 0 && tag < size);
	btf__free(b);
}

/*
 * What usbtrail.ko's layout table asks, on BTF written with libbpf's
 * writer as the kernel declares it: a private structure's members and
 * a tracepoint's probe prototype (typedef btf_trace_X, a pointer to it)
 */
static void test_btf_layout(void **state)
{
	struct btf *b = btf__new_empty();
	char buf[128];
	uint32_t off, size;
	int uint_, u32, int_, port, hub, hcd, pport, phub, phcd, proto, chr;
	int cchr, pcchr, pvoid, ptr;

	(void)state;
	assert_non_null(b);
	uint_ = btf__add_int(b, "unsigned int", 4, 0);
	u32 = btf__add_typedef(b, "u32", uint_);
	int_ = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	chr = btf__add_int(b, "char", 1, BTF_INT_CHAR);
	cchr = btf__add_const(b, chr);
	pcchr = btf__add_ptr(b, cchr);
	pvoid = btf__add_ptr(b, 0);
	hcd = btf__add_fwd(b, "usb_hcd", BTF_FWD_STRUCT);
	phcd = btf__add_ptr(b, hcd);
	hub = btf__add_struct(b, "xhci_hub", 24);
	assert_int_equal(btf__add_field(b, "ports", pvoid, 0, 0), 0);
	assert_int_equal(btf__add_field(b, "num_ports", int_, 64, 0), 0);
	assert_int_equal(btf__add_field(b, "hcd", phcd, 128, 0), 0);
	phub = btf__add_ptr(b, hub);
	port = btf__add_struct(b, "xhci_port", 32);
	assert_int_equal(btf__add_field(b, "addr", pvoid, 0, 0), 0);
	assert_int_equal(btf__add_field(b, "hw_portnum", int_, 64, 0), 0);
	assert_int_equal(btf__add_field(b, "hcd_portnum", int_, 96, 0), 0);
	assert_int_equal(btf__add_field(b, "rhub", phub, 128, 0), 0);
	assert_int_equal(btf__add_field(b, "name", pcchr, 192, 0), 0);
	assert_int_equal(btf__add_field(b, "bits", u32, 256, 3), 0);
	pport = btf__add_ptr(b, port);
	proto = btf__add_func_proto(b, 0);
	assert_int_equal(btf__add_func_param(b, "__data", pvoid), 0);
	assert_int_equal(btf__add_func_param(b, "port", pport), 0);
	assert_int_equal(btf__add_func_param(b, "portsc", u32), 0);
	ptr = btf__add_ptr(b, proto);
	assert_true(btf__add_typedef(b, "btf_trace_xhci_handle_port_status",
				     ptr) > 0);
	/* a typedef that is not a pointer to a prototype */
	assert_true(btf__add_typedef(b, "btf_trace_odd", int_) > 0);

	assert_int_equal(btf_type_str(b, (uint32_t)u32, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "u32");
	assert_int_equal(btf_type_str(b, (uint32_t)pcchr, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "const char *");
	assert_int_equal(btf_type_str(b, (uint32_t)pvoid, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "void *");
	assert_int_equal(btf_type_str(b, (uint32_t)phcd, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "struct usb_hcd *");
	/* cut: said, not a silent prefix */
	assert_int_equal(btf_type_str(b, (uint32_t)pport, buf, 8),
			 -ENAMETOOLONG);
	assert_int_equal(btf_type_str(b, 9999, buf, sizeof(buf)), -ENOENT);
	assert_int_equal(btf_type_str(b, (uint32_t)proto, buf, sizeof(buf)),
			 -EINVAL);

	assert_int_equal(btf_member(b, "xhci_port", "hcd_portnum", &off, &size,
				    buf, sizeof(buf)), 0);
	assert_int_equal(off, 12);
	assert_int_equal(size, 4);
	assert_string_equal(buf, "int");
	assert_int_equal(btf_member(b, "xhci_port", "rhub", &off, &size, buf,
				    sizeof(buf)), 0);
	assert_int_equal(off, 16);
	assert_int_equal(size, 8);
	assert_string_equal(buf, "struct xhci_hub *");
	assert_int_equal(btf_member(b, "xhci_hub", "hcd", &off, &size, buf,
				    sizeof(buf)), 0);
	assert_int_equal(off, 16);
	assert_string_equal(buf, "struct usb_hcd *");
	/* a bit field, no such member, no such structure */
	assert_int_equal(btf_member(b, "xhci_port", "bits", &off, &size, buf,
				    sizeof(buf)), -ENOENT);
	assert_int_equal(btf_member(b, "xhci_port", "nope", &off, &size, buf,
				    sizeof(buf)), -ENOENT);
	assert_int_equal(btf_member(b, "xhci_nope", "rhub", &off, &size, buf,
				    sizeof(buf)), -ENOENT);

	assert_int_equal(btf_tracepoint_params(b, "xhci_handle_port_status",
					       buf, sizeof(buf)), 0);
	assert_string_equal(buf, "struct xhci_port *,u32");
	assert_int_equal(btf_tracepoint_params(b, "xhci_handle_port_status",
					       buf, 10), -ENAMETOOLONG);
	assert_int_equal(btf_tracepoint_params(b, "odd", buf, sizeof(buf)),
			 -ENOENT);
	assert_int_equal(btf_tracepoint_params(b, "absent", buf, sizeof(buf)),
			 -ENOENT);
	assert_int_equal(btf_tracepoint_params(NULL, "absent", buf,
					       sizeof(buf)), -EINVAL);
	btf__free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_btf_lookup),
		cmocka_unit_test(test_btf_malformed),
		cmocka_unit_test(test_btf_running),
		cmocka_unit_test(test_btf_layout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
