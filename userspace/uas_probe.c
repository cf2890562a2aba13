// SPDX-License-Identifier: GPL-2.0-only
/*
 * uas_probe.c - collect what the kernel decided on for one USB storage
 * interface, hand it to uas_decide(), and turn the verdict into JSON.
 *
 * Data flow: sysfs_usb (chain, drivers, speed, raw descriptors) ->
 * usbdesc (UAS alt setting, pipe-usage, streams) + quirks (unusual_uas
 * and unusual_devs IGNORE_UAS tables, module parameter, command line) + host controller evidence
 * (data tables, xhci_hcd module parameter, debugfs) -> struct uas_facts ->
 * uas_decide() -> struct uas_verdict -> JSON / text.
 *
 * Every configuration and alternate setting comes from sysfs
 * "descriptors" (world-readable, the kernel's copy, and fixture trees can
 * supply it), parsed by lib/usbdesc.c: libusb's Linux backend reads the
 * same file and gives nothing more.  The BOS comes from sysfs
 * "bos_descriptors" where the kernel has it (6.9), else from the device
 * through usbfs; the strings of configurations and alternate settings
 * through usbfs.  usbfs is libusb's: libusb_open() and GET_DESCRIPTOR
 * requests to the device, no interface claimed, no driver detached.  The
 * BOS bytes from either source go through usbdesc_parse_bos(), so both
 * read alike, and the unit tests and the fuzzer see the command's parser.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libusb.h>

#include "datatab.h"
#include "quirks.h"
#include "uas_probe.h"

#define UAS_PROBE_XHCI_BROKEN_STREAMS	(1ull << 19)	/* xhci.h, 6.1 */

static void uas_probe_note(struct uas_probe *p, const char *what, int err)
{
	if (p->nunreadable >= sizeof(p->unreadable) / sizeof(p->unreadable[0]))
		return;
	snprintf(p->unreadable[p->nunreadable++], sizeof(p->unreadable[0]),
		 "%s: %s", what, strerror(-err));
}

/* "BUS-P1.P2..." into @buf; an over-long name is cut, never overrun. */
static void uas_probe_port_name(char *buf, size_t len, unsigned int bus,
				const unsigned int *ports, unsigned int n)
{
	size_t off;
	unsigned int i;
	int r;

	r = snprintf(buf, len, "%u", bus);
	if (r < 0 || (size_t)r >= len)
		return;
	off = (size_t)r;
	for (i = 0; i < n; i++) {
		r = snprintf(buf + off, len - off, "%c%u", i ? '.' : '-',
			     ports[i]);
		if (r < 0 || (size_t)r >= len - off)
			return;
		off += (size_t)r;
	}
}

/* Fill the descriptor facts from a parsed device. */
static void uas_probe_desc_facts(const struct usbdesc_device *dev,
				 unsigned int config, unsigned int ifnum,
				 struct uas_facts *f)
{
	const struct usbdesc_config *c;
	unsigned int i, j;

	c = usbdesc_device_config(dev, (uint8_t)config);
	if (!c && dev->nconfigs)
		c = &dev->configs[0];
	if (!c)
		return;
	f->have_descriptors = true;
	f->max_power = c->max_power;
	for (i = 0; i < c->nalts; i++) {
		const struct usbdesc_altsetting *a = &c->alts[i];

		if (a->number != ifnum || !usbdesc_altsetting_is_uas(a) ||
		    f->has_uas_alt)
			continue;
		/* the first UAS alt, as uas_find_uas_alt_setting() */
		f->has_uas_alt = true;
		f->uas_alt = a->alt;
		for (j = 0; j < a->nendpoints; j++) {
			const struct usbdesc_endpoint *ep = &a->ep[j];

			if (ep->pipe_id)
				f->pipes |= 1u << (ep->pipe_id - 1);
			if (ep->pipe_id == USBDESC_PIPE_STATUS)
				f->status_streams = ep->ss_max_streams;
			if (ep->ss_max_streams > f->max_streams)
				f->max_streams = ep->ss_max_streams;
		}
	}
}

static void uas_probe_descriptors(struct uas_probe *p)
{
	struct sysfs_usb_iface *s = &p->sys;
	struct usbdesc_device *dev;
	int ret;

	if (!s->descriptors) {
		uas_probe_note(p, "descriptors (sysfs)", s->descriptors_err);
		return;
	}
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return;
	ret = usbdesc_parse_sysfs(s->descriptors, s->descriptors_len, dev);
	if (ret) {
		uas_probe_note(p, "descriptors (sysfs)", ret);
		free(dev);
		return;
	}
	uas_probe_desc_facts(dev, s->config, s->ifnum, &p->facts);
	p->descriptors_from = "sysfs";
	p->desc = dev;
}

/*
 * The kernel's copy of the BOS (bos_descriptors: Linux 6.9; in 6.12, not
 * in 6.1) and whether it enabled U1 and U2 (power/usb3_hardware_lpm_u1,
 * _u2: in 5.10, shown only where the link can do LPM); world-readable,
 * and saved trees have them too.
 */
static void uas_probe_bos_sysfs(struct uas_probe *p)
{
	char rel[160];
	uint8_t *buf;
	size_t len;

	snprintf(rel, sizeof(rel), "/sys/bus/usb/devices/%s/bos_descriptors",
		 p->sys.usb);
	if (!sysfs_usb_read_file(rel, 65535, &buf, &len)) {
		if (!usbdesc_parse_bos(buf, len, &p->bos)) {
			p->have_bos = true;
			p->bos_from = "sysfs";
		}
		free(buf);
	}
	snprintf(rel, sizeof(rel),
		 "/sys/bus/usb/devices/%s/power/usb3_hardware_lpm_u1",
		 p->sys.usb);
	if (sysfs_usb_read_text(rel, p->lpm_u1, sizeof(p->lpm_u1)) < 0)
		p->lpm_u1[0] = '\0';
	snprintf(rel, sizeof(rel),
		 "/sys/bus/usb/devices/%s/power/usb3_hardware_lpm_u2",
		 p->sys.usb);
	if (sysfs_usb_read_text(rel, p->lpm_u2, sizeof(p->lpm_u2)) < 0)
		p->lpm_u2[0] = '\0';
}

static int uas_probe_libusb_errno(int err)
{
	switch (err) {
	case LIBUSB_ERROR_ACCESS:
		return -EACCES;
	case LIBUSB_ERROR_NO_DEVICE:
		return -ENODEV;
	case LIBUSB_ERROR_NOT_FOUND:
		return -ENOENT;
	case LIBUSB_ERROR_NO_MEM:
		return -ENOMEM;
	case LIBUSB_ERROR_TIMEOUT:
		return -ETIMEDOUT;
	case LIBUSB_ERROR_PIPE:
		return -EPIPE;
	default:
		return -EIO;
	}
}

/* The libusb device at bus and port path @usb ("2-1.4"), or NULL */
static libusb_device *uas_probe_libusb_find(libusb_device **list, ssize_t n,
					    const char *usb)
{
	char name[SYSFS_USB_NAME_MAX];
	unsigned int uports[8];
	uint8_t ports[8];
	ssize_t i;
	int np, k;

	for (i = 0; i < n; i++) {
		np = libusb_get_port_numbers(list[i], ports, 8);
		if (np <= 0)
			continue;
		for (k = 0; k < np; k++)
			uports[k] = ports[k];
		uas_probe_port_name(name, sizeof(name),
				    libusb_get_bus_number(list[i]), uports,
				    (unsigned int)np);
		if (!strcmp(name, usb))
			return list[i];
	}
	return NULL;
}

/* GET_DESCRIPTOR(BOS): the 5-byte header for wTotalLength, then all */
static void uas_probe_usbfs_bos(struct uas_probe *p, libusb_device_handle *h)
{
	uint8_t hdr[5], *buf;
	uint16_t total;
	int r;

	r = libusb_get_descriptor(h, LIBUSB_DT_BOS, 0, hdr, sizeof(hdr));
	if (r == LIBUSB_ERROR_PIPE)
		return;		/* stalled: the device has no BOS */
	if (r < (int)sizeof(hdr)) {
		uas_probe_note(p, "BOS (usbfs)",
			       r < 0 ? uas_probe_libusb_errno(r) : -EPROTO);
		return;
	}
	total = (uint16_t)(hdr[2] | hdr[3] << 8);
	if (total < sizeof(hdr))
		total = sizeof(hdr);
	buf = malloc(total);
	if (!buf)
		return;
	r = libusb_get_descriptor(h, LIBUSB_DT_BOS, 0, buf, total);
	if (r < 0) {
		uas_probe_note(p, "BOS (usbfs)", uas_probe_libusb_errno(r));
	} else if (!usbdesc_parse_bos(buf, (size_t)r, &p->bos)) {
		p->have_bos = true;
		p->bos_from = "usbfs";
	}
	free(buf);
}

static void uas_probe_usbfs_string(libusb_device_handle *h, uint8_t index,
				   char *out)
{
	if (index && libusb_get_string_descriptor_ascii(h, index,
			(unsigned char *)out, UAS_PROBE_STR_MAX) < 0)
		out[0] = '\0';
}

/*
 * Through usbfs (libusb), what sysfs does not keep: the BOS on kernels
 * before 6.9, and the strings of every configuration and alternate
 * setting (sysfs has only the active ones').  libusb_open() needs write
 * access to /dev/bus/usb/BBB/DDD; without it, that is said.
 */
static void uas_probe_usbfs(struct uas_probe *p)
{
	libusb_context *ctx = NULL;
	libusb_device **list = NULL;
	libusb_device_handle *h;
	libusb_device *dev;
	char what[64];
	unsigned int c, a;
	ssize_t n;
	int r;

	r = libusb_init(&ctx);
	if (r) {
		uas_probe_note(p, "usbfs (libusb_init)",
			       uas_probe_libusb_errno(r));
		return;
	}
	n = libusb_get_device_list(ctx, &list);
	dev = n > 0 ? uas_probe_libusb_find(list, n, p->sys.usb) : NULL;
	if (!dev) {
		uas_probe_note(p, "usbfs (libusb lists no such device)",
			       -ENOENT);
		goto out;
	}
	snprintf(what, sizeof(what), "usbfs /dev/bus/usb/%03u/%03u",
		 libusb_get_bus_number(dev), libusb_get_device_address(dev));
	r = libusb_open(dev, &h);
	if (r) {
		uas_probe_note(p, what, uas_probe_libusb_errno(r));
		goto out;
	}
	if (!p->have_bos)
		uas_probe_usbfs_bos(p, h);
	for (c = 0; p->desc && c < p->desc->nconfigs; c++) {
		const struct usbdesc_config *cf = &p->desc->configs[c];

		uas_probe_usbfs_string(h, cf->string_index, p->config_str[c]);
		for (a = 0; a < cf->nalts; a++)
			uas_probe_usbfs_string(h, cf->alts[a].string_index,
					       p->alt_str[c][a]);
	}
	p->strings_from = "usbfs";
	libusb_close(h);
out:
	if (n >= 0)
		libusb_free_device_list(list, 1);
	libusb_exit(ctx);
}

static void uas_probe_quirks(struct uas_probe *p)
{
	struct uas_facts *f = &p->facts;
	char param[256] = "", cmdline[4096], cmdq[256], entry[64];
	unsigned long flags;
	int ret, have_param;
	const char *src;

	if (quirks_builtin_lookup(QUIRKS_TABLE_UAS, f->vid, f->pid,
				  f->bcd_device, &f->builtin_flags, &src) == 1)
		f->builtin_match = true;
	if (quirks_builtin_lookup(QUIRKS_TABLE_DEVS, f->vid, f->pid,
				  f->bcd_device, &f->devs_flags, &src) == 1)
		f->devs_match = true;

	ret = sysfs_usb_read_text("/sys/module/usb_storage/parameters/quirks",
				  param, sizeof(param));
	have_param = ret >= 0;
	if (ret < 0 && ret != -ENOENT)
		uas_probe_note(p, "usb-storage quirks parameter", ret);
	cmdq[0] = '\0';
	if (sysfs_usb_read_text("/proc/cmdline", cmdline, sizeof(cmdline)) >= 0)
		quirks_cmdline_value(cmdline, cmdq, sizeof(cmdq));

	if (have_param && quirks_param_lookup(param, f->vid, f->pid, &flags,
					      entry, sizeof(entry)) == 1) {
		unsigned long cf;

		f->param_match = true;
		f->param_flags = flags;
		snprintf(f->param_entry, sizeof(f->param_entry), "%s", entry);
		f->param_from_cmdline =
			quirks_param_lookup(cmdq, f->vid, f->pid, &cf, NULL,
					    0) == 1 && cf == flags;
	} else if (!have_param &&
		   quirks_param_lookup(cmdq, f->vid, f->pid, &flags, entry,
				       sizeof(entry)) == 1) {
		/* usb-storage not loaded: it will take the command line's */
		f->param_match = true;
		f->param_flags = flags;
		f->param_from_cmdline = true;
		snprintf(f->param_entry, sizeof(f->param_entry), "%s", entry);
	}
}

/**
 * uas_probe_max_psa() - the Primary Stream Array size an xHCI offers
 * @hccparams1: its HCCPARAMS1 register
 *
 * MaxPSASize (bits 15:12) is an exponent: 2^(MaxPSASize + 1) entries, as
 * the kernel's HCC_MAX_PSA() (xhci-caps.h; in 7.3 GET_MAX_PSA_SIZE()).
 * The kernel gives a controller streams when the size is at least 4,
 * that is a field of 1 or more; 0 (2 entries) means no streams (the
 * comment in xhci_alloc_streams()).
 *
 * Return: the number of entries, 2 to 65536.
 */
unsigned int uas_probe_max_psa(unsigned long hccparams1)
{
	return 1u << (((hccparams1 >> 12) & 0xf) + 1);
}

/* Can the controller's driver do scatter-gather (data/hcd-drivers.tsv)? */
static void uas_probe_hcd_sg(struct uas_probe *p)
{
	struct sysfs_usb_hcd *h = &p->sys.hcd;
	struct uas_facts *f = &p->facts;
	const char *sg;
	int drow;

	drow = datatab_find_str(&datatab_hcd_drivers, 0, h->driver);
	sg = drow >= 0 ? datatab_cell(&datatab_hcd_drivers,
				      (unsigned int)drow, 1) : NULL;
	if (!sg) {
		f->hcd_sg = UAS_UNKNOWN;
		snprintf(p->hcd_sg_evidence, sizeof(p->hcd_sg_evidence),
			 "driver %s is not in data/hcd-drivers.tsv",
			 h->driver[0] ? h->driver : "(unknown)");
	} else {
		f->hcd_sg = strcmp(sg, "no") ? UAS_YES : UAS_NO;
		snprintf(p->hcd_sg_evidence, sizeof(p->hcd_sg_evidence),
			 "%s %s", h->driver, !strcmp(sg, "no") ?
			 "never sets sg_tablesize" :
			 !strcmp(sg, "local") ?
			 "sets sg_tablesize unless it uses local memory" :
			 "sets sg_tablesize");
	}
}

/*
 * Does the xHCI do streams?  Best evidence first: uas bound at
 * SuperSpeed, the quirks parameter, the chip's XHCI_BROKEN_STREAMS
 * (row: its row of data/hcd-pci.tsv, -1), MaxPSASize from debugfs.
 */
static void uas_probe_hcd_streams(struct uas_probe *p, int row)
{
	struct sysfs_usb_hcd *h = &p->sys.hcd;
	struct uas_facts *f = &p->facts;
	char rel[512], buf[4096], *line;

	/* the kernel bound uas at SuperSpeed */
	if (!strcmp(p->sys.driver, "uas") && f->speed_mbps >= 5000) {
		f->hcd_streams = UAS_YES;
		snprintf(f->hcd_streams_evidence,
			 sizeof(f->hcd_streams_evidence),
			 "uas is bound at SuperSpeed, which needs streams");
		return;
	}
	/* xhci_hcd.quirks= can force XHCI_BROKEN_STREAMS on every xHCI. */
	if (sysfs_usb_read_text("/sys/module/xhci_hcd/parameters/quirks",
				buf, sizeof(buf)) > 0 &&
	    strtoull(buf, NULL, 0) & UAS_PROBE_XHCI_BROKEN_STREAMS) {
		f->hcd_streams = UAS_NO;
		snprintf(f->hcd_streams_evidence,
			 sizeof(f->hcd_streams_evidence),
			 "xhci_hcd quirks parameter %.40s sets XHCI_BROKEN_STREAMS (bit 19)",
			 buf);
		return;
	}
	if (row >= 0 && !strcmp(datatab_cell(&datatab_hcd_pci,
					     (unsigned int)row, 3), "yes")) {
		f->hcd_streams = UAS_NO;
		snprintf(f->hcd_streams_evidence,
			 sizeof(f->hcd_streams_evidence),
			 "PCI %04x:%04x gets XHCI_BROKEN_STREAMS in xhci-pci.c",
			 h->pci_vendor, h->pci_device);
		return;
	}
	/*
	 * debugfs, root only: HCCPARAMS1 MaxPSASize, tested as the kernel
	 * does (xhci-pci.c, xhci-plat.c: HCC_MAX_PSA() >= 4)
	 */
	snprintf(rel, sizeof(rel), "/sys/kernel/debug/usb/xhci/%s/reg-cap",
		 h->name);
	if (sysfs_usb_read_text(rel, buf, sizeof(buf)) > 0 &&
	    (line = strstr(buf, "HCCPARAMS1 = "))) {
		unsigned long v = strtoul(line + 13, NULL, 16);
		unsigned int field = (unsigned int)(v >> 12) & 0xf;
		unsigned int psa = uas_probe_max_psa(v);

		f->hcd_streams = psa >= 4 ? UAS_YES : UAS_NO;
		snprintf(f->hcd_streams_evidence,
			 sizeof(f->hcd_streams_evidence),
			 "debugfs HCCPARAMS1 MaxPSASize %u: %u stream array entries (%s 4)%s",
			 field, psa, psa >= 4 ? ">=" : "<",
			 row >= 0 ? "; chip without XHCI_BROKEN_STREAMS" : "");
		return;
	}
	if (h->is_pci) {
		f->hcd_streams = UAS_YES;
		snprintf(f->hcd_streams_evidence,
			 sizeof(f->hcd_streams_evidence),
			 "PCI %04x:%04x %s XHCI_BROKEN_STREAMS in xhci-pci.c (MaxPSASize not read: debugfs not readable)",
			 h->pci_vendor, h->pci_device,
			 row >= 0 ? "is listed without" : "does not get");
		return;
	}
	f->hcd_streams = UAS_UNKNOWN;
	snprintf(f->hcd_streams_evidence, sizeof(f->hcd_streams_evidence),
		 "platform xHCI: quirks come from firmware, debugfs not readable");
}

static void uas_probe_hcd(struct uas_probe *p)
{
	struct sysfs_usb_hcd *h = &p->sys.hcd;
	struct uas_facts *f = &p->facts;
	int row = -1;

	snprintf(f->hcd_driver, sizeof(f->hcd_driver), "%s", h->driver);
	if (h->is_pci) {
		row = datatab_find_hex2(&datatab_hcd_pci, h->pci_vendor,
					h->pci_device);
		if (row >= 0) {
			p->hcd_chip = datatab_cell(&datatab_hcd_pci,
						   (unsigned int)row, 2);
			p->hcd_chip_source = datatab_cell(&datatab_hcd_pci,
						(unsigned int)row, 4);
			snprintf(f->hcd_name, sizeof(f->hcd_name), "%s",
				 p->hcd_chip);
		}
	}
	uas_probe_hcd_sg(p);
	if (strncmp(h->driver, "xhci", 4)) {
		f->hcd_streams = UAS_NO;
		snprintf(f->hcd_streams_evidence,
			 sizeof(f->hcd_streams_evidence),
			 "%s is not xHCI: no SuperSpeed, no streams",
			 h->driver[0] ? h->driver : "the controller");
		return;
	}
	uas_probe_hcd_streams(p, row);
}

static void uas_probe_uas_driver(struct uas_probe *p)
{
	char rel[256], rel2[256], osrel[128];
	uint8_t *dep;
	size_t len;
	int ret;

	if (sysfs_usb_exists("/sys/bus/usb/drivers/uas")) {
		p->facts.uas_driver = UAS_DRIVER_LOADED;
		return;
	}
	if (sysfs_usb_read_text("/proc/sys/kernel/osrelease", osrel,
				sizeof(osrel)) <= 0)
		return;
	snprintf(rel, sizeof(rel), "/lib/modules/%s/modules.dep", osrel);
	ret = sysfs_usb_read_file(rel, 16u << 20, &dep, &len);
	if (ret)
		return;
	p->facts.uas_driver = strstr((char *)dep, "/uas.ko") ?
			      UAS_DRIVER_NOT_LOADED : UAS_DRIVER_ABSENT;
	free(dep);
	snprintf(rel2, sizeof(rel2), "/lib/modules/%s/modules.builtin", osrel);
	if (p->facts.uas_driver == UAS_DRIVER_ABSENT &&
	    !sysfs_usb_read_file(rel2, 16u << 20, &dep, &len)) {
		/* built in yet no driver directory: uas failed to register */
		if (strstr((char *)dep, "/uas.ko"))
			p->facts.uas_driver = UAS_DRIVER_STATE_UNKNOWN;
		free(dep);
	}
}

/**
 * uas_probe_iface() - facts and verdict for one interface
 * @iface: "2-1:1.0"
 * @flags: UAS_PROBE_ASK_DEVICE, or 0
 * @p:     filled on success; free with uas_probe_free()
 *
 * Return: 0, -ENOENT if the interface does not exist or vanished while it
 * was read, other negative errno values from sysfs_usb_iface_read().
 */
int uas_probe_iface(const char *iface, unsigned int flags,
		    struct uas_probe *p)
{
	struct uas_facts *f;
	int row, ret;

	memset(p, 0, sizeof(*p));
	ret = sysfs_usb_iface_read(iface, &p->sys);
	if (ret)
		return ret;
	f = &p->facts;
	f->vid = p->sys.dev.vid;
	f->pid = p->sys.dev.pid;
	f->bcd_device = p->sys.dev.bcd_device;
	snprintf(f->manufacturer, sizeof(f->manufacturer), "%s",
		 p->sys.dev.manufacturer);
	snprintf(f->product, sizeof(f->product), "%s", p->sys.dev.product);
	f->speed_mbps = p->sys.dev.speed_mbps;
	snprintf(f->driver, sizeof(f->driver), "%s", p->sys.driver);

	row = datatab_find_hex2(&datatab_bridges, f->vid, f->pid);
	if (row >= 0) {
		p->bridge = datatab_cell(&datatab_bridges, (unsigned int)row,
					 DATATAB_BRIDGE_CHIP);
		p->bridge_source = datatab_cell(&datatab_bridges,
						(unsigned int)row,
						DATATAB_BRIDGE_SOURCE);
	}
	uas_probe_descriptors(p);
	uas_probe_bos_sysfs(p);
	if ((flags & UAS_PROBE_ASK_DEVICE) && !strcmp(sysfs_usb_get_root(), "/"))
		uas_probe_usbfs(p);
	uas_probe_quirks(p);
	uas_probe_hcd(p);
	uas_probe_uas_driver(p);

	/* Gone while we looked?  Then say so rather than judge half-facts. */
	if (!sysfs_usb_exists("/sys/bus/usb/devices") ||
	    (!p->sys.descriptors && p->sys.descriptors_err == -ENOENT)) {
		char rel[128];

		snprintf(rel, sizeof(rel), "/sys/bus/usb/devices/%s", iface);
		if (!sysfs_usb_exists(rel)) {
			uas_probe_free(p);
			return -ENOENT;
		}
	}
	uas_decide(f, &p->verdict);
	return 0;
}

void uas_probe_free(struct uas_probe *p)
{
	if (!p)
		return;
	sysfs_usb_iface_free(&p->sys);
	free(p->desc);
	p->desc = NULL;
}

static json_object *uas_probe_str_or_null(const char *s)
{
	return s && *s ? json_object_new_string(s) : NULL;
}

static json_object *uas_probe_hex(uint16_t v)
{
	char b[8];

	snprintf(b, sizeof(b), "%04x", v);
	return json_object_new_string(b);
}

/* null when unknown: sysfs gave nothing, or "unknown" (speed_show()) */
static json_object *uas_probe_speed(const char *speed, unsigned int mbps)
{
	if (!strcmp(speed, "1.5"))
		return json_object_new_double_s(1.5, "1.5");
	if (!mbps)
		return NULL;
	return json_object_new_int((int)mbps);
}

static json_object *uas_probe_tristate(enum uas_tristate t)
{
	if (t == UAS_UNKNOWN)
		return NULL;
	return json_object_new_boolean(t == UAS_YES);
}

static json_object *uas_probe_dev_json(const struct sysfs_usb_dev *d)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "usb", json_object_new_string(d->name));
	json_object_object_add(o, "vid", uas_probe_hex(d->vid));
	json_object_object_add(o, "pid", uas_probe_hex(d->pid));
	json_object_object_add(o, "speed", uas_probe_speed(d->speed,
							     d->speed_mbps));
	json_object_object_add(o, "product",
			       uas_probe_str_or_null(d->product));
	return o;
}

static const char *const uas_probe_ep_types[] = { "control", "isochronous",
						  "bulk", "interrupt" };
static const char *const uas_probe_pipes[] = { NULL, "command", "status",
					       "data-in", "data-out" };

/* "uas", "bot" or NULL: the transport an alternate setting offers */
static const char *uas_probe_transport(const struct usbdesc_altsetting *a)
{
	if (usbdesc_altsetting_is_uas(a))
		return "uas";
	if (usbdesc_altsetting_is_mass_storage(a) &&
	    a->protocol == USBDESC_PR_BULK)
		return "bot";
	return NULL;
}

static json_object *uas_probe_alt_json(const struct usbdesc_altsetting *a,
				       const char *str)
{
	json_object *o = json_object_new_object(), *eps, *e;
	unsigned int i;
	char addr[8];

	json_object_object_add(o, "interface", json_object_new_int(a->number));
	json_object_object_add(o, "alt", json_object_new_int(a->alt));
	json_object_object_add(o, "class", json_object_new_int(a->class));
	json_object_object_add(o, "subclass",
			       json_object_new_int(a->subclass));
	json_object_object_add(o, "protocol",
			       json_object_new_int(a->protocol));
	json_object_object_add(o, "transport",
			       uas_probe_str_or_null(uas_probe_transport(a)));
	json_object_object_add(o, "string", uas_probe_str_or_null(str));
	eps = json_object_new_array();
	for (i = 0; i < a->nendpoints; i++) {
		const struct usbdesc_endpoint *ep = &a->ep[i];

		e = json_object_new_object();
		snprintf(addr, sizeof(addr), "0x%02x", ep->address);
		json_object_object_add(e, "address",
				       json_object_new_string(addr));
		json_object_object_add(e, "type", json_object_new_string(
			uas_probe_ep_types[ep->attributes & 3]));
		json_object_object_add(e, "max_packet",
				       json_object_new_int(ep->max_packet));
		json_object_object_add(e, "max_streams",
				       json_object_new_int((int)ep->ss_max_streams));
		json_object_object_add(e, "pipe", uas_probe_str_or_null(
			ep->pipe_id ? uas_probe_pipes[ep->pipe_id] : NULL));
		json_object_array_add(eps, e);
	}
	json_object_object_add(o, "endpoints", eps);
	return o;
}

static json_object *uas_probe_bos_json(const struct uas_probe *p)
{
	static const char *const speeds[] = { "low", "full", "high", "super" };
	const struct usbdesc_bos *b = &p->bos;
	json_object *o, *sp;
	unsigned int i;

	if (!p->have_bos)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "from", json_object_new_string(p->bos_from));
	json_object_object_add(o, "lpm", b->has_usb2_ext ?
		json_object_new_boolean(b->usb2_ext_attributes &
					USBDESC_USB2_EXT_LPM) : NULL);
	json_object_object_add(o, "besl", b->has_usb2_ext ?
		json_object_new_boolean(b->usb2_ext_attributes &
					USBDESC_USB2_EXT_BESL) : NULL);
	json_object_object_add(o, "superspeed",
			       json_object_new_boolean(b->has_ss));
	json_object_object_add(o, "u1_exit_lat_us", b->has_ss ?
			       json_object_new_int(b->u1_exit_lat) : NULL);
	json_object_object_add(o, "u2_exit_lat_us", b->has_ss ?
			       json_object_new_int(b->u2_exit_lat) : NULL);
	json_object_object_add(o, "ltm", b->has_ss ?
		json_object_new_boolean(b->ss_attributes & USBDESC_SS_LTM) :
		NULL);
	sp = json_object_new_array();
	for (i = 0; b->has_ss && i < 4; i++)
		if (b->ss_speeds & (1u << i))
			json_object_array_add(sp,
				json_object_new_string(speeds[i]));
	json_object_object_add(o, "speeds", sp);
	json_object_object_add(o, "superspeed_plus",
			       json_object_new_boolean(b->has_ssp));
	return o;
}

/*
 * "descriptors": every configuration and alternate setting, the BOS and
 * what the kernel made of its U1/U2 (docs/uas.md)
 */
static json_object *uas_probe_descriptors_json(const struct uas_probe *p)
{
	json_object *o = json_object_new_object(), *cfgs, *c, *alts, *lpm;
	bool ss = p->facts.speed_mbps >= 5000;
	unsigned int i, j;

	cfgs = json_object_new_array();
	for (i = 0; p->desc && i < p->desc->nconfigs; i++) {
		const struct usbdesc_config *cf = &p->desc->configs[i];

		c = json_object_new_object();
		json_object_object_add(c, "value",
				       json_object_new_int(cf->value));
		json_object_object_add(c, "active", json_object_new_boolean(
					       cf->value == p->sys.config));
		json_object_object_add(c, "max_power_ma", json_object_new_int(
					       cf->max_power * (ss ? 8 : 2)));
		json_object_object_add(c, "string",
				       uas_probe_str_or_null(p->config_str[i]));
		alts = json_object_new_array();
		for (j = 0; j < cf->nalts; j++)
			json_object_array_add(alts, uas_probe_alt_json(
					&cf->alts[j], p->alt_str[i][j]));
		json_object_object_add(c, "altsettings", alts);
		json_object_array_add(cfgs, c);
	}
	json_object_object_add(o, "configurations", cfgs);
	json_object_object_add(o, "strings_from",
			       uas_probe_str_or_null(p->strings_from));
	json_object_object_add(o, "bos", uas_probe_bos_json(p));
	if (p->lpm_u1[0] || p->lpm_u2[0]) {
		lpm = json_object_new_object();
		json_object_object_add(lpm, "u1",
				       uas_probe_str_or_null(p->lpm_u1));
		json_object_object_add(lpm, "u2",
				       uas_probe_str_or_null(p->lpm_u2));
	} else {
		lpm = NULL;
	}
	json_object_object_add(o, "usb3_lpm", lpm);
	return o;
}

/**
 * uas_probe_to_json() - one interface as the object "usbtrail uas --json"
 * prints: usb, block, vid, pid, speed, driver, uas_capable, uas_active,
 * reason, detail, descriptors, quirks, hcd (docs/uas.md describes each)
 *
 * Return: a new object the caller owns (json_object_put()), or NULL.
 */
/* "detail": the verdict's words and the device's facts behind it */
static json_object *uas_probe_detail_json(const struct uas_probe *p)
{
	const struct uas_verdict *v = &p->verdict;
	const struct uas_facts *f = &p->facts;
	json_object *d = json_object_new_object(), *arr;
	unsigned int i;

	json_object_object_add(d, "interface",
			       json_object_new_string(p->sys.iface));
	json_object_object_add(d, "why", json_object_new_string(v->detail));
	json_object_object_add(d, "next_step",
			       json_object_new_string(v->next_step));
	json_object_object_add(d, "streams", v->uas_active ?
			       json_object_new_boolean(v->streams) : NULL);
	json_object_object_add(d, "max_streams", f->have_descriptors &&
			       f->has_uas_alt ?
			       json_object_new_int((int)f->max_streams) : NULL);
	json_object_object_add(d, "uas_altsetting", f->has_uas_alt ?
			       json_object_new_int(f->uas_alt) : NULL);
	json_object_object_add(d, "manufacturer",
			       uas_probe_str_or_null(f->manufacturer));
	json_object_object_add(d, "product", uas_probe_str_or_null(f->product));
	json_object_object_add(d, "bridge", uas_probe_str_or_null(p->bridge));
	json_object_object_add(d, "bridge_source",
			       uas_probe_str_or_null(p->bridge_source));
	json_object_object_add(d, "descriptors_from",
			       uas_probe_str_or_null(p->descriptors_from));
	arr = json_object_new_array();
	for (i = 0; i < p->nunreadable; i++)
		json_object_array_add(arr,
			json_object_new_string(p->unreadable[i]));
	json_object_object_add(d, "unreadable", arr);
	return d;
}

/* "quirks": each flag in force, where it comes from, what it does */
static json_object *uas_probe_quirks_json(const struct uas_probe *p)
{
	const struct uas_verdict *v = &p->verdict;
	const struct uas_facts *f = &p->facts;
	json_object *arr = json_object_new_array(), *q;
	unsigned int i;

	for (i = 0; i < v->nquirks; i++) {
		const struct quirks_flag_info *qi =
			quirks_flag_info(v->quirks[i].flag);
		char letter[2] = { qi ? qi->letter : 0, 0 };
		bool param = v->quirks[i].source == UAS_QUIRK_PARAM ||
			     v->quirks[i].source == UAS_QUIRK_CMDLINE;

		q = json_object_new_object();
		json_object_object_add(q, "flag", json_object_new_string(
					       qi ? qi->name : "?"));
		json_object_object_add(q, "letter",
				       uas_probe_str_or_null(letter));
		json_object_object_add(q, "source", json_object_new_string(
			uas_quirk_source_name(v->quirks[i].source)));
		json_object_object_add(q, "entry", param ?
			uas_probe_str_or_null(f->param_entry) : NULL);
		json_object_object_add(q, "effect", uas_probe_str_or_null(
					       qi ? qi->effect : NULL));
		json_object_array_add(arr, q);
	}
	return arr;
}

/* "hcd": the host controller, its chip, scatter-gather and streams */
static json_object *uas_probe_hcd_json(const struct uas_probe *p)
{
	const struct uas_facts *f = &p->facts;
	json_object *h = json_object_new_object(), *chain;
	unsigned int i;

	json_object_object_add(h, "bus", json_object_new_int(
				       (int)p->sys.hcd.busnum));
	json_object_object_add(h, "device",
			       uas_probe_str_or_null(p->sys.hcd.name));
	json_object_object_add(h, "driver",
			       uas_probe_str_or_null(p->sys.hcd.driver));
	if (p->sys.hcd.is_pci) {
		char id[16];

		snprintf(id, sizeof(id), "%04x:%04x", p->sys.hcd.pci_vendor,
			 p->sys.hcd.pci_device);
		json_object_object_add(h, "pci_id", json_object_new_string(id));
	} else {
		json_object_object_add(h, "pci_id", NULL);
	}
	json_object_object_add(h, "chip", uas_probe_str_or_null(p->hcd_chip));
	json_object_object_add(h, "chip_source",
			       uas_probe_str_or_null(p->hcd_chip_source));
	json_object_object_add(h, "sg", uas_probe_tristate(f->hcd_sg));
	json_object_object_add(h, "sg_evidence",
			       uas_probe_str_or_null(p->hcd_sg_evidence));
	json_object_object_add(h, "streams",
			       uas_probe_tristate(f->hcd_streams));
	json_object_object_add(h, "streams_evidence",
			       uas_probe_str_or_null(f->hcd_streams_evidence));
	chain = json_object_new_array();
	for (i = 0; i < p->sys.nhubs; i++)
		json_object_array_add(chain,
				      uas_probe_dev_json(&p->sys.hubs[i]));
	json_object_object_add(h, "hubs", chain);
	return h;
}

json_object *uas_probe_to_json(const struct uas_probe *p)
{
	const struct uas_verdict *v = &p->verdict;
	const struct uas_facts *f = &p->facts;
	json_object *o;

	o = json_object_new_object();
	if (!o)
		return NULL;
	json_object_object_add(o, "usb", json_object_new_string(p->sys.usb));
	json_object_object_add(o, "block", uas_probe_str_or_null(p->sys.block));
	json_object_object_add(o, "vid", uas_probe_hex(f->vid));
	json_object_object_add(o, "pid", uas_probe_hex(f->pid));
	json_object_object_add(o, "speed", uas_probe_speed(p->sys.dev.speed,
							     f->speed_mbps));
	json_object_object_add(o, "driver", uas_probe_str_or_null(f->driver));
	json_object_object_add(o, "uas_capable",
			       json_object_new_boolean(v->uas_capable));
	json_object_object_add(o, "uas_active",
			       json_object_new_boolean(v->uas_active));
	json_object_object_add(o, "reason",
			       json_object_new_string(uas_reason_name(v->reason)));

	json_object_object_add(o, "detail", uas_probe_detail_json(p));
	json_object_object_add(o, "descriptors",
			       uas_probe_descriptors_json(p));
	json_object_object_add(o, "quirks", uas_probe_quirks_json(p));
	json_object_object_add(o, "hcd", uas_probe_hcd_json(p));
	return o;
}

static bool uas_probe_usb_path_match(const struct devspec *s,
				     const char *usb)
{
	char name[SYSFS_USB_NAME_MAX];

	uas_probe_port_name(name, sizeof(name), s->bus, s->ports, s->nports);
	return !strcmp(name, usb);
}

static int uas_probe_add(struct uas_probe_sel *sel, const char *name)
{
	unsigned int i;

	for (i = 0; i < sel->n; i++)
		if (!strcmp(sel->names[i], name))
			return 0;
	if (sel->n == sizeof(sel->names) / sizeof(sel->names[0]))
		return -E2BIG;
	strcpy(sel->names[sel->n++], name);
	return 0;
}

/**
 * uas_probe_select() - the mass-storage interfaces @specs name
 * @specs:  device names from the command line; all interfaces if @nspecs
 *          is 0
 * @nspecs: how many
 * @sel:    the interfaces, in command-line order, without duplicates; per
 *          spec, spec_err says whether it matched (0), named nothing that
 *          exists (-ENOENT) or something that is not USB mass storage
 *          (-ENODEV)
 *
 * Return: 0, or a negative errno if sysfs cannot be listed at all.
 */
int uas_probe_select(const struct devspec *specs, unsigned int nspecs,
		     struct uas_probe_sel *sel)
{
	static char all[256][SYSFS_USB_NAME_MAX];
	unsigned int nall = 0, i, j;
	int ret;

	memset(sel, 0, sizeof(*sel));
	ret = sysfs_usb_iface_list(all, 256, &nall);
	if (ret && ret != -ENOENT)
		return ret;
	if (!nspecs) {
		for (i = 0; i < nall; i++)
			uas_probe_add(sel, all[i]);
		return 0;
	}
	for (j = 0; j < nspecs && j < 64; j++) {
		const struct devspec *s = &specs[j];
		char iface[SYSFS_USB_NAME_MAX];
		bool hit = false;

		if (s->kind == DEVSPEC_DISK) {
			ret = sysfs_usb_iface_from_block(s->disk, iface,
							 sizeof(iface));
			if (ret) {
				sel->spec_err[j] = ret == -ENODEV ? -ENODEV :
						   -ENOENT;
				continue;
			}
			uas_probe_add(sel, iface);
			continue;
		}
		for (i = 0; i < nall; i++) {
			char usb[SYSFS_USB_NAME_MAX], rel[128], v[8];
			uint16_t vid, pid;

			strcpy(usb, all[i]);
			*strchr(usb, ':') = '\0';
			if (s->kind == DEVSPEC_USB_PATH) {
				if (!uas_probe_usb_path_match(s, usb))
					continue;
			} else {
				snprintf(rel, sizeof(rel),
					 "/sys/bus/usb/devices/%s/idVendor",
					 usb);
				if (sysfs_usb_read_text(rel, v, sizeof(v)) < 0)
					continue;
				vid = (uint16_t)strtoul(v, NULL, 16);
				snprintf(rel, sizeof(rel),
					 "/sys/bus/usb/devices/%s/idProduct",
					 usb);
				if (sysfs_usb_read_text(rel, v, sizeof(v)) < 0)
					continue;
				pid = (uint16_t)strtoul(v, NULL, 16);
				if (vid != s->vid || pid != s->pid)
					continue;
			}
			uas_probe_add(sel, all[i]);
			hit = true;
		}
		if (!hit) {
			if (s->kind == DEVSPEC_USB_PATH) {
				char rel[128], usb[SYSFS_USB_NAME_MAX];

				uas_probe_port_name(usb, sizeof(usb), s->bus,
						    s->ports, s->nports);
				snprintf(rel, sizeof(rel),
					 "/sys/bus/usb/devices/%s", usb);
				sel->spec_err[j] = sysfs_usb_exists(rel) ?
						   -ENODEV : -ENOENT;
			} else {
				sel->spec_err[j] = -ENOENT;
			}
		}
	}
	return 0;
}

/**
 * uas_verdicts_json() - the verdict of every USB mass-storage interface,
 * for "usbtrail record" to store
 * @err: if not NULL, set to 0 or the negative errno that stopped the scan
 *
 * Interfaces that vanish while being read are left out.
 *
 * Return: a new JSON array the caller owns, or NULL on error.
 */
json_object *uas_verdicts_json(int *err)
{
	struct uas_probe_sel *sel;
	json_object *arr;
	unsigned int i;
	int ret;

	sel = calloc(1, sizeof(*sel));
	if (!sel) {
		if (err)
			*err = -ENOMEM;
		return NULL;
	}
	ret = uas_probe_select(NULL, 0, sel);
	if (ret) {
		free(sel);
		if (err)
			*err = ret;
		return NULL;
	}
	arr = json_object_new_array();
	for (i = 0; i < sel->n; i++) {
		struct uas_probe *p = calloc(1, sizeof(*p));

		if (p && !uas_probe_iface(sel->names[i], 0, p)) {
			json_object_array_add(arr, uas_probe_to_json(p));
			uas_probe_free(p);
		}
		free(p);
	}
	free(sel);
	if (err)
		*err = 0;
	return arr;
}
