// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_uas_probe.c - unit tests of userspace/sysfs_usb.c and uas_probe.c
 * against the fixture trees of tests/fixtures/uas/ (real bridges and
 * controllers from public lsusb -v, and trees derived from them): every
 * reason code, the chain, the JSON object, device selection, and devices
 * that vanish.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "devspec.h"
#include "quirks.h"
#include "sysfs_usb.h"
#include "uas_probe.h"

#ifndef FIXTURES
#define FIXTURES "../tests/fixtures/uas"
#endif

struct fixture_case {
	const char *name;
	const char *iface;
	const char *reason;
	const char *block;	/* "" for none */
	const char *driver;	/* "" for none */
	const char *hcd_chip;	/* NULL: not in the table */
	unsigned int nhubs;
};

static const struct fixture_case cases[] = {
	{ "samsung-t5-asm1142", "4-1:1.0", "active", "sdg", "uas",
	  "ASMedia ASM1142", 1 },
	{ "rockpro64-asmt1051", "8-1:1.0", "active", "sda", "uas", NULL, 1 },
	{ "owc-envoy-upd720200", "4-1:1.0", "active", "sde", "uas",
	  "NEC/Renesas uPD720200", 1 },
	{ "qemu-usb-uas", "2-1:1.0", "active", "sda", "uas",
	  "QEMU xHCI (qemu-xhci)", 1 },
	{ "thermaltake-asm1051-bot", "2-1:1.0", "no-uas-altsetting", "sdb",
	  "usb-storage", "Intel 100 Series/C230 (Sunrise Point-H) PCH", 1 },
	{ "jms567-no-uas", "4-2:1.0", "no-uas-altsetting", "sdc",
	  "usb-storage", "Intel 100 Series/C230 (Sunrise Point-H) PCH", 1 },
	{ "qemu-usb-storage", "2-2:1.0", "no-uas-altsetting", "sdc",
	  "usb-storage", "QEMU xHCI (qemu-xhci)", 1 },
	{ "t5-no-pipe-usage", "4-1:1.0", "no-pipe-usage", "sdg",
	  "usb-storage", "ASMedia ASM1142", 1 },
	{ "sandisk-55e8-builtin", "2-1.4:1.0", "quirk-ignore-uas", "sda",
	  "usb-storage", "Intel 100 Series/C230 (Sunrise Point-H) PCH", 2 },
	{ "samsung-t5-param-quirk", "4-1:1.0", "quirk-ignore-uas", "sdg",
	  "usb-storage", "ASMedia ASM1142", 1 },
	{ "vl817-devs-ignore-uas", "2-2:1.0", "quirk-ignore-uas", "sda",
	  "usb-storage", "Intel 100 Series/C230 (Sunrise Point-H) PCH", 1 },
	{ "asm105x-maxpower36", "8-1:1.0", "asmedia-heuristic", "sdb",
	  "usb-storage", NULL, 1 },
	{ "t5-dwc2-no-sg", "1-1.2:1.0", "hcd-no-sg", "sda", "usb-storage",
	  NULL, 2 },
	{ "t5-asm1042-no-streams", "4-1:1.0", "hcd-no-streams", "sdg",
	  "usb-storage", "ASMedia ASM1042", 1 },
	{ "t5-uas-driver-missing", "4-1:1.0", "uas-driver-missing", "", "",
	  "ASMedia ASM1142", 1 },
	{ "t5-platform-psa4", "8-1:1.0", "uas-driver-missing", "", "", NULL,
	  1 },
	{ "t5-speed-unknown", "4-1:1.0", "active", "sdg", "uas",
	  "ASMedia ASM1142", 1 },
	{ "t5-no-descriptors", "4-1:1.0", "unknown", "sdg", "usb-storage",
	  "ASMedia ASM1142", 1 },
};

static void use_fixture(const char *name)
{
	char root[512];

	snprintf(root, sizeof(root), "%s/%s/root", FIXTURES, name);
	assert_int_equal(sysfs_usb_set_root(root), 0);
}

static int teardown_root(void **state)
{
	(void)state;
	sysfs_usb_set_root(NULL);
	return 0;
}

static const char *jstr(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		fail_msg("no key %s", key);
	return v ? json_object_get_string(v) : NULL;
}

static json_object *jget(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		fail_msg("no key %s", key);
	return v;
}

/* Every fixture: listed, probed, and judged as its SOURCE says. */
static void test_probe_fixtures(void **state)
{
	static const char *const keys[] = {
		"usb", "block", "vid", "pid", "speed", "driver", "uas_capable",
		"uas_active", "reason", "detail", "descriptors", "quirks", "hcd",
	};
	struct uas_probe_sel *sel = calloc(1, sizeof(*sel));
	struct uas_probe *p = calloc(1, sizeof(*p));
	unsigned int i, k, seen = 0;

	(void)state;
	assert_non_null(sel);
	assert_non_null(p);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct fixture_case *c = &cases[i];
		json_object *o;

		use_fixture(c->name);
		assert_int_equal(uas_probe_select(NULL, 0, sel), 0);
		assert_int_equal(sel->n, 1);
		assert_string_equal(sel->names[0], c->iface);
		assert_int_equal(uas_probe_iface(c->iface, 0, p), 0);
		if (strcmp(uas_reason_name(p->verdict.reason), c->reason))
			fail_msg("%s: reason %s, expected %s", c->name,
				 uas_reason_name(p->verdict.reason), c->reason);
		seen |= 1u << p->verdict.reason;
		assert_string_equal(p->sys.block, c->block);
		assert_string_equal(p->sys.driver, c->driver);
		assert_int_equal(p->sys.nhubs, c->nhubs);
		if (c->hcd_chip)
			assert_string_equal(p->hcd_chip, c->hcd_chip);
		else
			assert_null(p->hcd_chip);
		assert_true(p->verdict.detail[0]);
		assert_true(p->verdict.next_step[0]);

		o = uas_probe_to_json(p);
		assert_non_null(o);
		assert_int_equal(json_object_object_length(o),
				 sizeof(keys) / sizeof(keys[0]));
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			assert_true(json_object_object_get_ex(o, keys[k],
							      NULL));
		assert_string_equal(jstr(o, "reason"), c->reason);
		assert_string_equal(jstr(o, "usb"), p->sys.usb);
		json_object_put(o);
		uas_probe_free(p);
	}
	/* every reason code is covered by at least one fixture */
	assert_int_equal(seen, (1u << (UAS_REASON_UNKNOWN + 1)) - 1);
	free(p);
	free(sel);
}

/* The details a person needs, for a few fixtures. */
static void test_probe_details(void **state)
{
	struct uas_probe *p = calloc(1, sizeof(*p));
	json_object *o, *q, *h;

	(void)state;
	assert_non_null(p);

	use_fixture("samsung-t5-param-quirk");
	assert_int_equal(uas_probe_iface("4-1:1.0", 0, p), 0);
	o = uas_probe_to_json(p);
	assert_string_equal(jstr(o, "vid"), "04e8");
	assert_string_equal(jstr(o, "pid"), "61f5");
	assert_int_equal(json_object_get_int(jget(o, "speed")), 5000);
	assert_false(json_object_get_boolean(jget(o, "uas_active")));
	assert_true(json_object_get_boolean(jget(o, "uas_capable")));
	q = json_object_array_get_idx(jget(o, "quirks"), 0);
	assert_string_equal(jstr(q, "flag"), "IGNORE_UAS");
	assert_string_equal(jstr(q, "letter"), "u");
	assert_string_equal(jstr(q, "entry"), "04e8:61f5:u");
	assert_non_null(strstr(jstr(q, "source"), "module parameter"));
	h = jget(o, "hcd");
	assert_string_equal(jstr(h, "pci_id"), "1b21:1242");
	assert_string_equal(jstr(h, "driver"), "xhci_hcd");
	assert_int_equal(json_object_get_int(jget(h, "bus")), 4);
	json_object_put(o);
	uas_probe_free(p);

	/* every alt setting, from sysfs "descriptors"; the device not asked */
	use_fixture("samsung-t5-param-quirk");
	assert_int_equal(uas_probe_iface("4-1:1.0", 0, p), 0);
	o = uas_probe_to_json(p);
	{
		json_object *d = jget(o, "descriptors"), *c, *a;

		c = json_object_array_get_idx(jget(d, "configurations"), 0);
		assert_int_equal(json_object_array_length(
					 jget(d, "configurations")), 1);
		assert_true(json_object_get_boolean(jget(c, "active")));
		assert_int_equal(json_object_get_int(jget(c, "max_power_ma")),
				 896);
		assert_int_equal(json_object_array_length(
					 jget(c, "altsettings")), 2);
		a = json_object_array_get_idx(jget(c, "altsettings"), 0);
		assert_string_equal(jstr(a, "transport"), "bot");
		a = json_object_array_get_idx(jget(c, "altsettings"), 1);
		assert_string_equal(jstr(a, "transport"), "uas");
		assert_int_equal(json_object_get_int(jget(a, "alt")), 1);
		assert_int_equal(json_object_array_length(
					 jget(a, "endpoints")), 4);
		assert_null(jget(d, "bos"));
		assert_null(jget(d, "strings_from"));
	}
	json_object_put(o);
	uas_probe_free(p);

	/* the streams evidence names the PCI table */
	use_fixture("t5-asm1042-no-streams");
	assert_int_equal(uas_probe_iface("4-1:1.0", 0, p), 0);
	assert_non_null(strstr(p->facts.hcd_streams_evidence, "1b21:1042"));
	assert_non_null(strstr(p->verdict.detail, "XHCI_BROKEN_STREAMS"));
	uas_probe_free(p);

	/* built-in quirk names unusual_uas.h; the chain has the hub */
	use_fixture("sandisk-55e8-builtin");
	assert_int_equal(uas_probe_iface("2-1.4:1.0", 0, p), 0);
	assert_string_equal(p->sys.hubs[0].name, "usb2");
	assert_string_equal(p->sys.hubs[1].name, "2-1");
	assert_int_equal(p->verdict.nquirks, 1);
	assert_int_equal(p->verdict.quirks[0].source, UAS_QUIRK_BUILTIN);
	uas_probe_free(p);

	/* VIA VL817: IGNORE_UAS from usb-storage's unusual_devs.h only */
	use_fixture("vl817-devs-ignore-uas");
	assert_int_equal(uas_probe_iface("2-2:1.0", 0, p), 0);
	assert_false(p->facts.builtin_match);
	assert_true(p->facts.devs_match);
	assert_int_equal(p->verdict.nquirks, 1);
	assert_int_equal(p->verdict.quirks[0].flag, QUIRKS_FL_IGNORE_UAS);
	assert_int_equal(p->verdict.quirks[0].source, UAS_QUIRK_BUILTIN_DEVS);
	uas_probe_free(p);

	/* MaxPSASize 1 in debugfs: 4 entries, streams as the kernel says */
	use_fixture("t5-platform-psa4");
	assert_int_equal(uas_probe_iface("8-1:1.0", 0, p), 0);
	assert_int_equal(p->facts.hcd_streams, UAS_YES);
	assert_non_null(strstr(p->facts.hcd_streams_evidence,
			       "MaxPSASize 1: 4 stream array entries"));
	uas_probe_free(p);

	/* sysfs says "unknown": no speed in the JSON, not 0 */
	use_fixture("t5-speed-unknown");
	assert_int_equal(uas_probe_iface("4-1:1.0", 0, p), 0);
	assert_int_equal(p->facts.speed_mbps, 0);
	o = uas_probe_to_json(p);
	assert_null(jget(o, "speed"));
	assert_int_equal(json_object_get_int(jget(json_object_array_get_idx(
		jget(jget(o, "hcd"), "hubs"), 0), "speed")), 5000);
	json_object_put(o);
	uas_probe_free(p);

	/* what could not be read is said */
	use_fixture("t5-no-descriptors");
	assert_int_equal(uas_probe_iface("4-1:1.0", 0, p), 0);
	assert_int_equal(p->nunreadable, 1);
	assert_non_null(strstr(p->unreadable[0], "descriptors"));
	o = uas_probe_to_json(p);
	assert_int_equal(json_object_array_length(
		jget(jget(o, "detail"), "unreadable")), 1);
	json_object_put(o);
	uas_probe_free(p);

	/* the ASMedia heuristic's next step is the override */
	use_fixture("asm105x-maxpower36");
	assert_int_equal(uas_probe_iface("8-1:1.0", 0, p), 0);
	assert_non_null(strstr(p->verdict.next_step,
			       "usb-storage.quirks=174c:55aa:"));
	assert_string_equal(p->sys.hcd.driver, "xhci-hcd");
	assert_false(p->sys.hcd.is_pci);
	uas_probe_free(p);

	/* dwc2: sg evidence names the driver */
	use_fixture("t5-dwc2-no-sg");
	assert_int_equal(uas_probe_iface("1-1.2:1.0", 0, p), 0);
	assert_non_null(strstr(p->hcd_sg_evidence, "dwc2"));
	assert_int_equal(p->facts.speed_mbps, 480);
	uas_probe_free(p);
	free(p);
}

static void test_probe_select(void **state)
{
	struct uas_probe_sel *sel = calloc(1, sizeof(*sel));
	struct devspec d[4];

	(void)state;
	assert_non_null(sel);
	use_fixture("sandisk-55e8-builtin");
	assert_int_equal(devspec_parse("sda", &d[0]), 0);
	assert_int_equal(devspec_parse("0781:55e8", &d[1]), 0);
	assert_int_equal(devspec_parse("2-1.4", &d[2]), 0);
	assert_int_equal(uas_probe_select(d, 3, sel), 0);
	assert_int_equal(sel->n, 1);		/* one interface, named 3x */
	assert_string_equal(sel->names[0], "2-1.4:1.0");
	assert_int_equal(sel->spec_err[0], 0);
	assert_int_equal(sel->spec_err[1], 0);
	assert_int_equal(sel->spec_err[2], 0);

	assert_int_equal(devspec_parse("sdz", &d[0]), 0);
	assert_int_equal(devspec_parse("dead:beef", &d[1]), 0);
	assert_int_equal(devspec_parse("2-1", &d[2]), 0);	/* the hub */
	assert_int_equal(devspec_parse("3-1", &d[3]), 0);
	assert_int_equal(uas_probe_select(d, 4, sel), 0);
	assert_int_equal(sel->n, 0);
	assert_int_equal(sel->spec_err[0], -ENOENT);
	assert_int_equal(sel->spec_err[1], -ENOENT);
	assert_int_equal(sel->spec_err[2], -ENODEV);
	assert_int_equal(sel->spec_err[3], -ENOENT);

	/* a root without USB at all */
	assert_int_equal(sysfs_usb_set_root("/nonexistent-usbtrail-root"), 0);
	assert_int_equal(uas_probe_select(NULL, 0, sel), 0);
	assert_int_equal(sel->n, 0);
	free(sel);
}

/*
 * A device that goes away while it is examined: its link in
 * /sys/bus/usb/devices is still there, its directory is not.
 */
static void test_probe_vanished(void **state)
{
	char tmpl[] = "/tmp/usbtrail-test-XXXXXX", path[PATH_MAX];
	struct uas_probe *p = calloc(1, sizeof(*p));
	char *dir;

	(void)state;
	assert_non_null(p);
	dir = mkdtemp(tmpl);
	assert_non_null(dir);
	snprintf(path, sizeof(path), "%s/sys", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/sys/bus", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/sys/bus/usb", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/sys/bus/usb/devices", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/sys/bus/usb/devices/9-1:1.0", dir);
	assert_int_equal(symlink("../../../devices/pci0000:00/0000:00:14.0/usb9/9-1/9-1:1.0",
				 path), 0);
	assert_int_equal(sysfs_usb_set_root(dir), 0);
	assert_int_equal(uas_probe_iface("9-1:1.0", 0, p), -ENOENT);
	assert_int_equal(uas_probe_iface("9-2:1.0", 0, p), -ENOENT);
	assert_int_equal(uas_probe_iface("not-an-iface", 0, p), -EINVAL);
	unlink(path);
	snprintf(path, sizeof(path), "%s/sys/bus/usb/devices", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/sys/bus/usb", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/sys/bus", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/sys", dir);
	rmdir(path);
	rmdir(dir);
	free(p);
}

/* HCC_MAX_PSA(): 2^(MaxPSASize + 1); the kernel wants 4 or more */
static void test_max_psa(void **state)
{
	(void)state;
	assert_int_equal(uas_probe_max_psa(0x00000000), 2);	/* none */
	assert_int_equal(uas_probe_max_psa(0x0220106d), 4);
	assert_int_equal(uas_probe_max_psa(0x00003000), 16);
	assert_int_equal(uas_probe_max_psa(0x200077c1), 256);
	assert_int_equal(uas_probe_max_psa(0x0000f000), 65536);
	assert_int_equal(uas_probe_max_psa(0xffff0fff), 2);	/* other bits */
}

static void test_sysfs_helpers(void **state)
{
	char buf[8];

	(void)state;
	assert_true(sysfs_usb_is_iface_name("2-1.4:1.0"));
	assert_true(sysfs_usb_is_iface_name("10-1:2.13"));
	assert_false(sysfs_usb_is_iface_name("2-1.4"));
	assert_false(sysfs_usb_is_iface_name("usb2"));
	assert_false(sysfs_usb_is_iface_name("2-1:1"));
	assert_false(sysfs_usb_is_iface_name("-1:1.0"));
	assert_int_equal(sysfs_usb_parse_speed("5000"), 5000);
	assert_int_equal(sysfs_usb_parse_speed("1.5"), 1);
	assert_int_equal(sysfs_usb_parse_speed("480\n"), 0);
	assert_int_equal(sysfs_usb_parse_speed(""), 0);
	assert_int_equal(sysfs_usb_set_root("/tmp///"), 0);
	assert_string_equal(sysfs_usb_get_root(), "/tmp");
	assert_int_equal(sysfs_usb_set_root(NULL), 0);
	assert_string_equal(sysfs_usb_get_root(), "/");
	use_fixture("samsung-t5-asm1142");
	assert_int_equal(sysfs_usb_read_text("/proc/sys/kernel/osrelease", buf,
					     sizeof(buf)), 7);
	assert_string_equal(buf, "6.1.0-5");	/* truncated, terminated */
	assert_int_equal(sysfs_usb_read_text("/nope", buf, sizeof(buf)),
			 -ENOENT);
	assert_int_equal(sysfs_usb_iface_from_block("sdg", buf, sizeof(buf)),
			 0);
	assert_string_equal(buf, "4-1:1.0");
}

/* What "usbtrail record" will call: an array, owned by the caller. */
static void test_verdicts_json(void **state)
{
	json_object *a;
	int err = 1;

	(void)state;
	use_fixture("qemu-usb-uas");
	a = uas_verdicts_json(&err);
	assert_non_null(a);
	assert_int_equal(err, 0);
	assert_int_equal(json_object_array_length(a), 1);
	assert_string_equal(jstr(json_object_array_get_idx(a, 0), "reason"),
			    "active");
	json_object_put(a);
}

/*
 * sysfs bos_descriptors (Linux 6.9) and power/usb3_hardware_lpm_u1/u2: the
 * QEMU usb-uas tree (6.1, which has no bos_descriptors) in a copy, with
 * the BOS the 6.12 guest's sysfs has for usb-uas added.
 */
static void test_probe_bos_sysfs(void **state)
{
	static const uint8_t bos[] = {
		0x05, 0x0f, 0x16, 0x00, 0x02,
		0x07, 0x10, 0x02, 0x02, 0x00, 0x00, 0x00,
		0x0a, 0x10, 0x03, 0x00, 0x0c, 0x00, 0x02, 0x0a, 0x20, 0x00,
	};
	char tmp[] = "/tmp/test_uas_probe.XXXXXX", cmd[1024], path[1024];
	struct uas_probe *p = calloc(1, sizeof(*p));
	const char *dev = "root/sys/devices/pci0000:00/0000:00:04.0/usb2/2-1";
	json_object *o, *b, *lpm;
	FILE *f;

	(void)state;
	assert_non_null(p);
	assert_non_null(mkdtemp(tmp));
	snprintf(cmd, sizeof(cmd), "cp -a %s/qemu-usb-uas/root %s/",
		 FIXTURES, tmp);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/%s/bos_descriptors", tmp, dev);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(bos, 1, sizeof(bos), f), sizeof(bos));
	fclose(f);
	snprintf(path, sizeof(path), "%s/%s/power", tmp, dev);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path),
		 "%s/%s/power/usb3_hardware_lpm_u1", tmp, dev);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("enabled\n", f);
	fclose(f);

	snprintf(path, sizeof(path), "%s/root", tmp);
	assert_int_equal(sysfs_usb_set_root(path), 0);
	assert_int_equal(uas_probe_iface("2-1:1.0", UAS_PROBE_ASK_DEVICE, p),
			 0);
	/* not the live system: usbfs is not asked */
	assert_null(p->strings_from);
	o = uas_probe_to_json(p);
	b = jget(jget(o, "descriptors"), "bos");
	assert_non_null(b);
	assert_string_equal(jstr(b, "from"), "sysfs");
	assert_true(json_object_get_boolean(jget(b, "lpm")));
	assert_int_equal(json_object_get_int(jget(b, "u1_exit_lat_us")), 10);
	assert_int_equal(json_object_get_int(jget(b, "u2_exit_lat_us")), 32);
	assert_int_equal(json_object_array_length(jget(b, "speeds")), 2);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(
				    jget(b, "speeds"), 0)), "high");
	lpm = jget(jget(o, "descriptors"), "usb3_lpm");
	assert_string_equal(jstr(lpm, "u1"), "enabled");
	assert_null(jget(lpm, "u2"));
	json_object_put(o);
	uas_probe_free(p);
	free(p);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_probe_fixtures, teardown_root),
		cmocka_unit_test_teardown(test_probe_details, teardown_root),
		cmocka_unit_test_teardown(test_probe_select, teardown_root),
		cmocka_unit_test_teardown(test_probe_vanished, teardown_root),
		cmocka_unit_test(test_max_psa),
		cmocka_unit_test_teardown(test_sysfs_helpers, teardown_root),
		cmocka_unit_test_teardown(test_verdicts_json, teardown_root),
		cmocka_unit_test_teardown(test_probe_bos_sysfs, teardown_root),
	};

	return cmocka_run_group_tests_name("uas_probe", tests, NULL, NULL);
}
