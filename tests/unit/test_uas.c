// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_uas.c - unit tests of userspace/lib/uas.c, the decision alone: facts in,
 * verdict out, in the order of uas_use_uas_driver() (uas-detect.h).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "quirks.h"
#include "uas.h"

/* A UAS-capable SuperSpeed device on a healthy xHCI, not bound yet. */
static void base(struct uas_facts *f)
{
	memset(f, 0, sizeof(*f));
	f->vid = 0x04e8;
	f->pid = 0x61f5;
	f->speed_mbps = 5000;
	f->have_descriptors = true;
	f->has_uas_alt = true;
	f->uas_alt = 1;
	f->pipes = 0xf;
	f->status_streams = 32;
	f->max_streams = 32;
	f->max_power = 112;
	strcpy(f->hcd_driver, "xhci_hcd");
	f->hcd_sg = UAS_YES;
	f->hcd_streams = UAS_YES;
	f->uas_driver = UAS_DRIVER_LOADED;
}

static enum uas_reason decide(const struct uas_facts *f, struct uas_verdict *v)
{
	assert_int_equal(uas_decide(f, v), 0);
	return v->reason;
}

static bool has_quirk(const struct uas_verdict *v, unsigned long flag,
		      enum uas_quirk_source src)
{
	unsigned int i;

	for (i = 0; i < v->nquirks; i++)
		if (v->quirks[i].flag == flag && v->quirks[i].source == src)
			return true;
	return false;
}

static void test_uas_names(void **state)
{
	(void)state;
	assert_string_equal(uas_reason_name(UAS_REASON_ACTIVE), "active");
	assert_string_equal(uas_reason_name(UAS_REASON_NO_UAS_ALTSETTING),
			    "no-uas-altsetting");
	assert_string_equal(uas_reason_name(UAS_REASON_NO_PIPE_USAGE),
			    "no-pipe-usage");
	assert_string_equal(uas_reason_name(UAS_REASON_QUIRK_IGNORE_UAS),
			    "quirk-ignore-uas");
	assert_string_equal(uas_reason_name(UAS_REASON_ASMEDIA_HEURISTIC),
			    "asmedia-heuristic");
	assert_string_equal(uas_reason_name(UAS_REASON_HCD_NO_SG),
			    "hcd-no-sg");
	assert_string_equal(uas_reason_name(UAS_REASON_HCD_NO_STREAMS),
			    "hcd-no-streams");
	assert_string_equal(uas_reason_name(UAS_REASON_UAS_DRIVER_MISSING),
			    "uas-driver-missing");
	assert_string_equal(uas_reason_name(UAS_REASON_UNKNOWN), "unknown");
	assert_string_equal(uas_reason_name((enum uas_reason)99), "unknown");
	assert_int_equal(uas_decide(NULL, NULL), -EINVAL);
}

static void test_uas_active(void **state)
{
	struct uas_facts f;
	struct uas_verdict v;

	(void)state;
	base(&f);
	strcpy(f.driver, "uas");
	assert_int_equal(decide(&f, &v), UAS_REASON_ACTIVE);
	assert_true(v.uas_active);
	assert_true(v.uas_capable);
	assert_true(v.streams);
	assert_non_null(strstr(v.next_step, "usb-storage.quirks=04e8:61f5:u"));

	/* 480 Mbit/s: UAS without streams, said so */
	f.speed_mbps = 480;
	assert_int_equal(decide(&f, &v), UAS_REASON_ACTIVE);
	assert_false(v.streams);
	assert_non_null(strstr(v.detail, "UAS without streams"));

	/* a speed usbtrail could not read is no 0 Mbit/s link */
	f.speed_mbps = 0;
	assert_int_equal(decide(&f, &v), UAS_REASON_ACTIVE);
	assert_string_equal(v.detail, "The uas driver is bound.");

	/* The driver is what the kernel did: it beats our inference. */
	f.hcd_sg = UAS_NO;
	f.have_descriptors = false;
	assert_int_equal(decide(&f, &v), UAS_REASON_ACTIVE);
	assert_true(v.uas_capable);
}

static void test_uas_no_alt_no_pipes(void **state)
{
	struct uas_facts f;
	struct uas_verdict v;

	(void)state;
	base(&f);
	strcpy(f.driver, "usb-storage");
	f.has_uas_alt = false;
	f.pipes = 0;
	assert_int_equal(decide(&f, &v), UAS_REASON_NO_UAS_ALTSETTING);
	assert_false(v.uas_capable);
	assert_false(v.uas_active);

	/* Missing pipes come before any quirk, even IGNORE_UAS. */
	base(&f);
	f.pipes = 0xf & ~0x2u;
	f.param_match = true;
	f.param_flags = QUIRKS_FL_IGNORE_UAS;
	assert_int_equal(decide(&f, &v), UAS_REASON_NO_PIPE_USAGE);
	assert_non_null(strstr(v.detail, "status (2)"));
	assert_false(v.uas_capable);
}

static void test_uas_quirk_sources(void **state)
{
	struct uas_facts f;
	struct uas_verdict v;

	(void)state;
	base(&f);
	strcpy(f.driver, "usb-storage");
	f.param_match = true;
	f.param_flags = QUIRKS_FL_IGNORE_UAS;
	strcpy(f.param_entry, "04e8:61f5:u");
	assert_int_equal(decide(&f, &v), UAS_REASON_QUIRK_IGNORE_UAS);
	assert_true(has_quirk(&v, QUIRKS_FL_IGNORE_UAS, UAS_QUIRK_PARAM));
	assert_non_null(strstr(v.next_step, "remove 04e8:61f5:u"));
	assert_true(v.uas_capable);

	f.param_from_cmdline = true;
	assert_int_equal(decide(&f, &v), UAS_REASON_QUIRK_IGNORE_UAS);
	assert_true(has_quirk(&v, QUIRKS_FL_IGNORE_UAS, UAS_QUIRK_CMDLINE));
	assert_non_null(strstr(v.next_step, "kernel command line"));

	/* built in */
	base(&f);
	f.builtin_match = true;
	f.builtin_flags = QUIRKS_FL_IGNORE_UAS;
	assert_int_equal(decide(&f, &v), UAS_REASON_QUIRK_IGNORE_UAS);
	assert_true(has_quirk(&v, QUIRKS_FL_IGNORE_UAS, UAS_QUIRK_BUILTIN));

	/* a parameter entry without 'u' replaces the built-in flags */
	f.param_match = true;
	f.param_flags = 0;
	f.driver[0] = '\0';
	assert_int_equal(decide(&f, &v), UAS_REASON_UNKNOWN);
	assert_int_equal(v.flags, 0);

	/*
	 * VIA VL817 (2109:0715): IGNORE_UAS in usb-storage's unusual_devs.h
	 * only, none in unusual_uas.h; usb-storage probes first and keeps it
	 */
	base(&f);
	f.vid = 0x2109;
	f.pid = 0x0715;
	strcpy(f.driver, "usb-storage");
	assert_int_equal(quirks_builtin_lookup(QUIRKS_TABLE_UAS, f.vid, f.pid,
					       f.bcd_device, &f.builtin_flags,
					       NULL), 0);
	f.devs_match = quirks_builtin_lookup(QUIRKS_TABLE_DEVS, f.vid, f.pid,
					     f.bcd_device, &f.devs_flags,
					     NULL) == 1;
	assert_true(f.devs_match);
	assert_int_equal(decide(&f, &v), UAS_REASON_QUIRK_IGNORE_UAS);
	assert_true(has_quirk(&v, QUIRKS_FL_IGNORE_UAS,
			      UAS_QUIRK_BUILTIN_DEVS));
	assert_non_null(strstr(v.detail, "unusual_devs.h"));
	assert_non_null(strstr(v.next_step, "usb-storage.quirks=2109:0715:"));
	/* ...and a parameter entry replaces it there too */
	f.param_match = true;
	f.param_flags = 0;
	strcpy(f.param_entry, "2109:0715:");
	f.driver[0] = '\0';
	assert_int_not_equal(decide(&f, &v), UAS_REASON_QUIRK_IGNORE_UAS);
	assert_int_equal(v.flags, 0);
	/* a device that offers no UAS never reaches the quirks */
	f.param_match = false;
	f.has_uas_alt = false;
	assert_int_equal(decide(&f, &v), UAS_REASON_NO_UAS_ALTSETTING);

	/* RTL9210 sold as HIKSEMI MD202: IGNORE_UAS by code (since 6.0) */
	base(&f);
	f.vid = 0x0bda;
	f.pid = 0x9210;
	strcpy(f.manufacturer, "HIKSEMI");
	strcpy(f.product, "MD202");
	assert_int_equal(decide(&f, &v), UAS_REASON_QUIRK_IGNORE_UAS);
	assert_true(has_quirk(&v, QUIRKS_FL_IGNORE_UAS, UAS_QUIRK_DETECT));
	strcpy(f.product, "MD203");
	assert_int_not_equal(decide(&f, &v), UAS_REASON_QUIRK_IGNORE_UAS);
}

/* Quirks that keep UAS but change its behaviour are listed with it. */
static void test_uas_kept_quirks(void **state)
{
	struct uas_facts f;
	struct uas_verdict v;

	(void)state;
	base(&f);
	strcpy(f.driver, "uas");
	f.vid = 0x0bc2;		/* Seagate: NO_ATA_1X by code */
	assert_int_equal(decide(&f, &v), UAS_REASON_ACTIVE);
	assert_true(has_quirk(&v, QUIRKS_FL_NO_ATA_1X, UAS_QUIRK_DETECT));
	assert_non_null(strstr(v.detail, "SAT pass-through"));

	base(&f);
	strcpy(f.driver, "uas");
	f.builtin_match = true;
	f.builtin_flags = QUIRKS_FL_BROKEN_FUA | QUIRKS_FL_NO_REPORT_OPCODES;
	assert_int_equal(decide(&f, &v), UAS_REASON_ACTIVE);
	assert_int_equal(v.nquirks, 2);
	assert_true(has_quirk(&v, QUIRKS_FL_BROKEN_FUA, UAS_QUIRK_BUILTIN));
	/* BROKEN_FUA is outside the parameter's mask: an entry keeps it */
	f.param_match = true;
	f.param_flags = QUIRKS_FL_NO_ATA_1X;
	assert_int_equal(decide(&f, &v), UAS_REASON_ACTIVE);
	assert_true(has_quirk(&v, QUIRKS_FL_BROKEN_FUA, UAS_QUIRK_BUILTIN));
	assert_true(has_quirk(&v, QUIRKS_FL_NO_ATA_1X, UAS_QUIRK_PARAM));
	assert_false(v.flags & QUIRKS_FL_NO_REPORT_OPCODES);
}

static void test_uas_asmedia(void **state)
{
	struct uas_facts f;
	struct uas_verdict v;

	(void)state;
	base(&f);
	f.vid = 0x174c;
	f.pid = 0x55aa;
	strcpy(f.driver, "usb-storage");
	f.max_power = 36;
	f.status_streams = 32;
	assert_int_equal(decide(&f, &v), UAS_REASON_ASMEDIA_HEURISTIC);
	assert_non_null(strstr(v.next_step, "usb-storage.quirks=174c:55aa:"));

	/* 32 streams: IGNORE_UAS at any speed, even one not known */
	f.speed_mbps = 0;
	assert_int_equal(decide(&f, &v), UAS_REASON_ASMEDIA_HEURISTIC);
	assert_null(strstr(v.detail, " 0 Mbit/s"));

	/* below SuperSpeed there are no stream counts: assumed ASM1051 */
	f.speed_mbps = 480;
	f.status_streams = 0;
	assert_int_equal(decide(&f, &v), UAS_REASON_ASMEDIA_HEURISTIC);
	assert_non_null(strstr(v.detail, "480 Mbit/s"));

	/* ...so with the speed unknown, so is the verdict */
	f.speed_mbps = 0;
	assert_int_equal(decide(&f, &v), UAS_REASON_UNKNOWN);
	assert_non_null(strstr(v.detail, "unknown speed"));
	assert_null(strstr(v.detail, " 0 Mbit/s"));
	assert_int_equal(v.flags, 0);

	/* 16 streams: ASM1053, UAS kept with MAX_SECTORS_240 */
	f.speed_mbps = 5000;
	f.status_streams = 16;
	f.driver[0] = '\0';
	strcpy(f.driver, "uas");
	assert_int_equal(decide(&f, &v), UAS_REASON_ACTIVE);
	assert_true(has_quirk(&v, QUIRKS_FL_MAX_SECTORS_240,
			      UAS_QUIRK_DETECT));

	/* bMaxPower 0: ASM1153, nothing */
	f.max_power = 0;
	f.status_streams = 32;
	assert_int_equal(decide(&f, &v), UAS_REASON_ACTIVE);
	assert_int_equal(v.nquirks, 0);

	/* 5106 is treated like 55aa */
	f.pid = 0x5106;
	f.max_power = 36;
	strcpy(f.driver, "usb-storage");
	assert_int_equal(decide(&f, &v), UAS_REASON_ASMEDIA_HEURISTIC);

	/* an empty parameter entry overrides the heuristic */
	f.param_match = true;
	f.param_flags = 0;
	assert_int_not_equal(decide(&f, &v), UAS_REASON_ASMEDIA_HEURISTIC);
	/* and 'u' in it makes the parameter the reason */
	f.param_flags = QUIRKS_FL_IGNORE_UAS;
	strcpy(f.param_entry, "174c:5106:u");
	assert_int_equal(decide(&f, &v), UAS_REASON_QUIRK_IGNORE_UAS);
}

static void test_uas_hcd(void **state)
{
	struct uas_facts f;
	struct uas_verdict v;

	(void)state;
	base(&f);
	strcpy(f.driver, "usb-storage");
	f.hcd_sg = UAS_NO;
	strcpy(f.hcd_driver, "dwc2");
	assert_int_equal(decide(&f, &v), UAS_REASON_HCD_NO_SG);
	assert_non_null(strstr(v.detail, "dwc2"));

	/* IGNORE_UAS is checked before scatter-gather */
	f.builtin_match = true;
	f.builtin_flags = QUIRKS_FL_IGNORE_UAS;
	assert_int_equal(decide(&f, &v), UAS_REASON_QUIRK_IGNORE_UAS);

	base(&f);
	f.hcd_streams = UAS_NO;
	strcpy(f.hcd_name, "ASMedia ASM1042");
	strcpy(f.hcd_streams_evidence, "PCI 1b21:1042 gets XHCI_BROKEN_STREAMS");
	assert_int_equal(decide(&f, &v), UAS_REASON_HCD_NO_STREAMS);
	assert_non_null(strstr(v.detail, "ASM1042"));
	assert_non_null(strstr(v.detail, "XHCI_BROKEN_STREAMS"));
	/* streams only matter at SuperSpeed */
	f.speed_mbps = 480;
	assert_int_not_equal(decide(&f, &v), UAS_REASON_HCD_NO_STREAMS);
	/* scatter-gather is checked before streams */
	f.speed_mbps = 5000;
	f.hcd_sg = UAS_NO;
	assert_int_equal(decide(&f, &v), UAS_REASON_HCD_NO_SG);
}

static void test_uas_driver_missing_unknown(void **state)
{
	struct uas_facts f;
	struct uas_verdict v;

	(void)state;
	base(&f);
	f.uas_driver = UAS_DRIVER_ABSENT;
	assert_int_equal(decide(&f, &v), UAS_REASON_UAS_DRIVER_MISSING);
	assert_non_null(strstr(v.next_step, "modprobe uas"));
	f.uas_driver = UAS_DRIVER_NOT_LOADED;
	assert_int_equal(decide(&f, &v), UAS_REASON_UAS_DRIVER_MISSING);

	/* every check passes, uas loaded, yet usb-storage is bound */
	base(&f);
	strcpy(f.driver, "usb-storage");
	assert_int_equal(decide(&f, &v), UAS_REASON_UNKNOWN);
	assert_non_null(strstr(v.detail, "usb-storage"));

	/* facts we could not establish */
	base(&f);
	f.hcd_sg = UAS_UNKNOWN;
	assert_int_equal(decide(&f, &v), UAS_REASON_UNKNOWN);
	assert_non_null(strstr(v.detail, "scatter-gather"));
	base(&f);
	f.hcd_streams = UAS_UNKNOWN;
	assert_int_equal(decide(&f, &v), UAS_REASON_UNKNOWN);
	assert_non_null(strstr(v.detail, "streams"));
	base(&f);
	f.have_descriptors = false;
	assert_int_equal(decide(&f, &v), UAS_REASON_UNKNOWN);
	assert_non_null(strstr(v.detail, "descriptors"));
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uas_names),
		cmocka_unit_test(test_uas_active),
		cmocka_unit_test(test_uas_no_alt_no_pipes),
		cmocka_unit_test(test_uas_quirk_sources),
		cmocka_unit_test(test_uas_kept_quirks),
		cmocka_unit_test(test_uas_asmedia),
		cmocka_unit_test(test_uas_hcd),
		cmocka_unit_test(test_uas_driver_missing_unknown),
	};

	return cmocka_run_group_tests_name("uas", tests, NULL, NULL);
}
