// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_scrub.c - unit tests of userspace/lib/scrub.c, the bug bundle's
 * cleaner: real kernel lines that carry MAC and IP addresses, user names
 * in paths and mount units, hostnames and ids come out with tokens, the
 * same value with the same token in every form and every call; the lines
 * that only look so (SCSI and PCI addresses, port paths, versions, times,
 * sense bytes, a root hub's serial) come out as they went in; journal
 * entries and JSON stay what they were.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "pcapng.h"
#include "scrub.h"

/* @in scrubbed by @s, compared with @want; the counts added to @n */
static void test_scrub_is(struct scrub *s, const char *in, const char *want,
			  struct scrub_counts *n)
{
	struct util_str out = { 0 };

	assert_int_equal(scrub_text(s, in, strlen(in), &out, n), 0);
	assert_non_null(out.s);
	assert_string_equal(out.s, want);
	free(out.s);
}

/* @in goes through @s as it is */
static void test_scrub_same(struct scrub *s, const char *in)
{
	struct scrub_counts n = { { 0 } };
	unsigned int k;

	test_scrub_is(s, in, in, &n);
	for (k = 0; k < SCRUB_NCLASS; k++)
		assert_int_equal(n.n[k], 0);
}

/* Lines as the kernel, systemd and udisks write them. */
static void test_scrub_kernel_lines(void **state)
{
	struct scrub *s = scrub_new(SCRUB_ALL);
	struct scrub_counts n = { { 0 } };

	(void)state;
	assert_non_null(s);
	test_scrub_is(s, "r8169 0000:02:00.0 eth0: RTL8168h/8111h, "
		      "00:e0:4c:68:00:01, XID 541, IRQ 35",
		      "r8169 0000:02:00.0 eth0: RTL8168h/8111h, "
		      "02:00:00:00:00:01, XID 541, IRQ 35", &n);
	/* the same MAC: in %pMF's form, upper case, and in an enx name */
	test_scrub_is(s, "r8152 2-1:1.0 enx00e04c680001: renamed from eth0",
		      "r8152 2-1:1.0 enx020000000001: renamed from eth0", &n);
	test_scrub_is(s, "mac 00-E0-4C-68-00-01", "mac 02-00-00-00-00-01", &n);
	test_scrub_is(s, "Bluetooth: hci0: BD Address: 00:1a:7d:da:71:13",
		      "Bluetooth: hci0: BD Address: 02:00:00:00:00:02", &n);
	test_scrub_is(s, "IP-Config: Complete: device=eth0, addr=192.168.1.5, "
		      "mask=255.255.255.0, gw=192.168.1.1,",
		      "IP-Config: Complete: device=eth0, addr=192.0.2.1, "
		      "mask=255.255.255.0, gw=192.0.2.2,", &n);
	test_scrub_is(s, "nfs: server 192.168.1.1 not responding, timed out",
		      "nfs: server 192.0.2.2 not responding, timed out", &n);
	test_scrub_is(s, "IPv6: enp2s0: fe80::2e0:4cff:fe68:1, "
		      "FE80:0:0:0:2E0:4CFF:FE68:1 and ::ffff:192.168.1.5",
		      "IPv6: enp2s0: 2001:db8::1, 2001:db8::1 and "
		      "::ffff:192.0.2.1", &n);
	test_scrub_is(s, "[2001:db8:0:1::5]:443 fe80::1%enp2s0 ff02::1",
		      "[2001:db8::2]:443 2001:db8::3%enp2s0 2001:db8::4", &n);
	test_scrub_is(s, "EXT4-fs (sdb1): mounted filesystem "
		      "8b0a3f4e-6f0c-4b3e-9a77-1d2c3b4a5f60 r/w with ordered "
		      "data mode. Quota mode: none.",
		      "EXT4-fs (sdb1): mounted filesystem "
		      "00000000-0000-0000-0000-000000000001 r/w with ordered "
		      "data mode. Quota mode: none.", &n);
	test_scrub_is(s, "systemd[1]: Mounting media-alice-SSD.mount - "
		      "/media/alice/SSD...",
		      "systemd[1]: Mounting media-user1-SSD.mount - "
		      "/media/user1/SSD...", &n);
	test_scrub_is(s, "udisksd[900]: Mounted /dev/sdb1 at "
		      "/run/media/bob/Untitled on behalf of uid 1000",
		      "udisksd[900]: Mounted /dev/sdb1 at "
		      "/run/media/user2/Untitled on behalf of uid 1000", &n);
	test_scrub_is(s, "Unmounted run-media-bob-Untitled.mount.",
		      "Unmounted run-media-user2-Untitled.mount.", &n);
	test_scrub_is(s, "audit: type=1400 apparmor=\"DENIED\" operation="
		      "\"open\" name=\"/home/carol/.config/x\" pid=1",
		      "audit: type=1400 apparmor=\"DENIED\" operation="
		      "\"open\" name=\"/home/user3/.config/x\" pid=1", &n);
	/* /home is a user's: carol is replaced as a word from now on */
	test_scrub_is(s, "carol's disk, not carolina",
		      "user3's disk, not carolina", &n);
	test_scrub_is(s, "usb 2-1.4: SerialNumber: 0123456789AB",
		      "usb 2-1.4: SerialNumber: sha256:4e3f5a1d81582cf9", &n);
	test_scrub_is(s, "systemd[1]: Hostname set to <alice-laptop>.",
		      "systemd[1]: Hostname set to <host1>.", &n);
	/* escaped, as report.html has them; too short to be a word */
	test_scrub_is(s, "Hostname set to &lt;ab&gt;. acct=&quot;cd&quot;",
		      "Hostname set to &lt;host2&gt;. acct=&quot;user4&quot;",
		      NULL);
	test_scrub_is(s, "machine 0123456789abcdef0123456789abcdef",
		      "machine 00000000000000000000000000000002", &n);
	assert_int_equal(n.n[SCRUB_MAC], 4);
	assert_int_equal(n.n[SCRUB_IPV4], 4);
	assert_int_equal(n.n[SCRUB_IPV6], 5);
	assert_int_equal(n.n[SCRUB_USER], 6);
	assert_int_equal(n.n[SCRUB_SERIAL], 1);
	assert_int_equal(n.n[SCRUB_HOST], 1);
	assert_int_equal(n.n[SCRUB_ID], 2);
	assert_int_equal(n.n[SCRUB_BOOT_ID], 0);
	scrub_free(s);
}

/* What only looks like an address or an id stays as it is. */
static void test_scrub_false_positives(void **state)
{
	static const char *const lines[] = {
		"Linux version 6.1.0-57-amd64 (debian-kernel@lists.debian.org) "
		"(gcc-12 (Debian 12.2.0-14) 12.2.0) #1 SMP PREEMPT_DYNAMIC "
		"Debian 6.1.192-3 (2026-11-26)",
		"sd 0:0:0:0: [sda] tag#12 Sense Key : Not Ready [current]",
		"scsi 6:0:0:0: Direct-Access     JMicron  Generic  0508 PQ: 0 "
		"ANSI: 6",
		"sd 6:0:0:0: [sdb] 1953525168 512-byte logical blocks: (1.00 "
		"TB/932 GiB)",
		"usb 2-1.4: new high-speed USB device number 5 using xhci_hcd",
		"usb 2-1.4.3.2: new SuperSpeed USB device number 7",
		"usb-storage 2-1.4.3.2:1.0: USB Mass Storage device detected",
		"xhci_hcd 0000:00:14.0: xHCI Host Controller",
		"pci 0000:00:14.0: [8086:a36d] type 00 class 0x0c0330",
		"usb usb2: SerialNumber: 0000:00:14.0",
		"sd 0:0:0:0: [sda] tag#0 Sense: 70 00 05 00 00 00 00 0a 00 00 "
		"00 00 20 00 00 00 00 00",
		"sd 0:0:0:0: [sda] tag#12 CDB: Write(10) 2a 00 00 00 50 00 00 04 "
		"00 00",
		"I/O error, dev sdb, sector 20480 op 0x1:(WRITE) flags 0x800 "
		"phys_seg 1 prio class 0",
		"[   16.350046] at 12:34:56 and 12:34:56.789, on 2024-01-02",
		"IPv6: ADDRCONF(NETDEV_CHANGE): enp2s0: link becomes ready",
		"EXT4-fs (sdb1): mounted filesystem with ordered data mode. Opts: "
		"(null)",
		"loopback 127.0.0.1 ::1 :: 0.0.0.0 ::ffff:127.0.0.1",
		"versions 1.2.3 10.0.0.1.5 v1.2.3.4 01.02.03.04 and uas-tag 7",
		"00:00:00:00:00:00 ff:ff:ff:ff:ff:ff 00:e0:4c:68:00:01:ff",
		"urb ffff88800a1b2c3d, 0x0123456789abcdef0123456789abcdef, "
		"system@0123456789abcdef0123456789abcdef-0000000000000001",
		"/home/lost+found /media/cdrom /home/root/x /media/root/X",
		"hub 2-0:1.0: 4 ports detected; std::vector; Key : Value",
		"Jan  2 03:04:05 localhost kernel: usb 1-1: reset",
		"2025-04-03T19:26:32.329473Z INFO kernel: [ 2204.057966] usb 1-4:",
	};
	struct scrub *s = scrub_new(SCRUB_ALL);
	size_t i;

	(void)state;
	assert_non_null(s);
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		assert_int_equal(scrub_learn(s, lines[i], strlen(lines[i])), 0);
		test_scrub_same(s, lines[i]);
	}
	/* a user or mount point named like a word of the log: its paths */
	test_scrub_is(s, "/media/data/x.img, ordered data mode",
		      "/media/user1/x.img, ordered data mode", NULL);
	scrub_free(s);
}

/*
 * Names are known from where they stand: learned from one text (the last
 * file of a bundle), replaced in all, and the ones known beforehand too.
 */
static void test_scrub_learn(void **state)
{
	static const char later[] =
		"Jan  2 03:04:05 alice-laptop kernel: usb 1-1: reset\n"
		"2024-01-02T03:04:05.123456+01:00 bob-pc kernel: x\n"
		"Tue 2024-01-02 03:04:05 CET carol-pc kernel: y\n"
		"{\"_HOSTNAME\" : \"dave-pc\", \"text\":\"/home/erin/x\"}\n"
		"_HOSTNAME=frank-pc\n"
		"_BOOT_ID=38b157d726e0466a90312e8d5c9867ce\n";
	struct scrub *s = scrub_new(SCRUB_ALL);
	struct scrub_counts n = { { 0 } };

	(void)state;
	assert_non_null(s);
	assert_int_equal(scrub_add(s, SCRUB_HOST, "gina-pc", 7), 0);
	assert_int_equal(scrub_add(s, SCRUB_USER, "hank", 4), 0);
	assert_int_equal(scrub_add(s, SCRUB_SERIAL, "usbtrail-uas", 12), 0);
	/* known and named no one: taken, not replaced */
	assert_int_equal(scrub_add(s, SCRUB_HOST, "localhost", 9), 0);
	assert_int_equal(scrub_add(s, SCRUB_USER, "root", 4), 0);
	assert_int_equal(scrub_add(s, SCRUB_BOOT_ID, "nothex", 6), -EINVAL);
	assert_int_equal(scrub_add(s, SCRUB_USER, "", 0), -EINVAL);
	assert_int_equal(scrub_learn(s, later, sizeof(later) - 1), 0);
	test_scrub_is(s, "alice-laptop bob-pc carol-pc dave-pc frank-pc "
		      "gina-pc erin hank localhost root",
		      "host2 host3 host4 host5 host6 host1 user2 user1 "
		      "localhost root", &n);
	assert_int_equal(n.n[SCRUB_HOST], 6);
	assert_int_equal(n.n[SCRUB_USER], 2);
	/* the boot id: the same token with and without dashes */
	test_scrub_is(s, "38b157d7-26e0-466a-9031-2e8d5c9867ce",
		      "00000000-0000-0000-0000-000000000001", &n);
	test_scrub_is(s, "_BOOT_ID=38B157D726E0466A90312E8D5C9867CE",
		      "_BOOT_ID=00000000000000000000000000000001", &n);
	assert_int_equal(n.n[SCRUB_BOOT_ID], 2);
	/* the recording's serials: even inside a longer id */
	test_scrub_is(s, "usb-QEMU_USB_HBA_usbtrail-uas-0:0",
		      "usb-QEMU_USB_HBA_sha256:a2abc8c4525a3e09-0:0", &n);
	/* a short name stands only where it is a name */
	assert_int_equal(scrub_learn(s, "/home/al/x", 10), 0);
	test_scrub_is(s, "/home/al/ al", "/home/user3/ al", NULL);
	scrub_free(s);
}

/* Classes left out are left alone: --keep-ids, --keep-serials. */
static void test_scrub_classes(void **state)
{
	static const char line[] = "usbtrail-uas at 192.168.1.5 /home/alice";
	struct scrub *s = scrub_new(1u << SCRUB_SERIAL);

	(void)state;
	assert_non_null(s);
	assert_int_equal(scrub_add(s, SCRUB_SERIAL, "usbtrail-uas", 12), 0);
	assert_int_equal(scrub_add(s, SCRUB_HOST, "alice-pc", 8), 0);
	test_scrub_is(s, line, "sha256:a2abc8c4525a3e09 at 192.168.1.5 "
		      "/home/alice", NULL);
	scrub_free(s);
	s = scrub_new(SCRUB_IDS);
	assert_non_null(s);
	assert_int_equal(scrub_add(s, SCRUB_SERIAL, "usbtrail-uas", 12), 0);
	test_scrub_is(s, line, "usbtrail-uas at 192.0.2.1 /home/user1", NULL);
	scrub_free(s);
	s = scrub_new(0);
	assert_non_null(s);
	test_scrub_same(s, line);
	scrub_free(s);
	scrub_free(NULL);
}

/* A journal entry stays one: binary fields get their new length. */
static void test_scrub_journal(void **state)
{
	static const struct ev_field f[] = {
		{ "MESSAGE", "nfs: server 192.168.1.10 not responding" },
		{ "_HOSTNAME", "alice-laptop" },
		{ "USBTRAIL_MULTI", "from /home/alice\nto 10.1.2.3" },
	};
	struct scrub *s = scrub_new(SCRUB_ALL);
	struct scrub_counts n = { { 0 } };
	struct pcapng_buf e = { 0 }, out = { 0 };
	const uint8_t *v;
	size_t vlen;

	(void)state;
	assert_non_null(s);
	assert_int_equal(pcapng_journal_entry(&e, 1, 2,
					      "38b157d726e0466a90312e8d5c9867ce",
					      f, 3), 0);
	assert_int_equal(scrub_learn(s, e.data, e.len), 0);
	assert_int_equal(scrub_journal(s, e.data, e.len, &out, &n), 0);
	assert_int_equal(pcapng_journal_field(out.data, out.len, "_BOOT_ID",
					      &v, &vlen), 0);
	assert_int_equal(vlen, 32);
	assert_memory_equal(v, "00000000000000000000000000000001", 32);
	assert_int_equal(pcapng_journal_field(out.data, out.len, "_HOSTNAME",
					      &v, &vlen), 0);
	assert_int_equal(vlen, 5);
	assert_memory_equal(v, "host1", 5);
	assert_int_equal(pcapng_journal_field(out.data, out.len, "MESSAGE",
					      &v, &vlen), 0);
	assert_int_equal(vlen, strlen("nfs: server 192.0.2.1 not responding"));
	assert_memory_equal(v, "nfs: server 192.0.2.1 not responding", vlen);
	assert_int_equal(pcapng_journal_field(out.data, out.len,
					      "USBTRAIL_MULTI", &v, &vlen), 0);
	assert_int_equal(vlen, strlen("from /home/user1\nto 192.0.2.2"));
	assert_memory_equal(v, "from /home/user1\nto 192.0.2.2", vlen);
	assert_int_equal(out.data[out.len - 1], '\n');
	assert_int_equal(out.data[out.len - 2], '\n');
	assert_int_equal(n.n[SCRUB_BOOT_ID], 1);
	assert_int_equal(n.n[SCRUB_HOST], 1);
	assert_int_equal(n.n[SCRUB_IPV4], 2);
	assert_int_equal(n.n[SCRUB_USER], 1);
	/* not an entry: scrubbed as text, nothing let through */
	out.len = 0;
	assert_int_equal(scrub_journal(s, (const uint8_t *)"A\n\xff\0\0\0\0\0"
				       "\0\0 10.1.2.3", 19, &out, NULL), 0);
	assert_int_equal(out.len, 20);
	assert_memory_equal(out.data + 10, " 192.0.2.2", 10);
	pcapng_buf_free(&e);
	pcapng_buf_free(&out);
	scrub_free(s);
}

/* JSON stays JSON; members named for what they hold are one value. */
static void test_scrub_json(void **state)
{
	static const char doc[] =
		"{\"kernel\":{\"release\":\"6.1.0-57-amd64\","
		"\"hostname\":\"ab\"},"
		"\"boot_id\":\"38b157d7-26e0-466a-9031-2e8d5c9867ce\","
		"\"t\":16.350046999,\"n\":[1,true,null,\"at 10.0.0.7\"],"
		"\"data\":\"0123456789abcdef0123456789abcdef\","
		"\"serial\":\"AB\","
		"\"text\":\"x\\n00:e0:4c:68:00:01\","
		"\"/home/alice\":\"key\"}";
	struct json_object *in, *out;
	struct scrub *s = scrub_new(SCRUB_ALL);
	struct scrub_counts n = { { 0 } };
	const char *str;

	(void)state;
	assert_non_null(s);
	in = json_tokener_parse(doc);
	assert_non_null(in);
	assert_int_equal(scrub_json(s, in, &out, &n), 0);
	str = json_object_to_json_string_ext(out, JSON_C_TO_STRING_PLAIN |
					     JSON_C_TO_STRING_NOSLASHESCAPE);
	assert_string_equal(str,
		"{\"kernel\":{\"release\":\"6.1.0-57-amd64\","
		"\"hostname\":\"host1\"},"
		"\"boot_id\":\"00000000-0000-0000-0000-000000000001\","
		"\"t\":16.350046999,\"n\":[1,true,null,\"at 192.0.2.1\"],"
		"\"data\":\"0123456789abcdef0123456789abcdef\","
		"\"serial\":\"sha256:38164fbd17603d73\","
		"\"text\":\"x\\n02:00:00:00:00:01\","
		"\"/home/user1\":\"key\"}");
	assert_int_equal(n.n[SCRUB_HOST], 1);
	assert_int_equal(n.n[SCRUB_BOOT_ID], 1);
	assert_int_equal(n.n[SCRUB_SERIAL], 1);
	assert_int_equal(n.n[SCRUB_USER], 1);
	json_object_put(out);
	json_object_put(in);
	scrub_free(s);
}

/* The table's limit: an error, never a value let through. */
static void test_scrub_full(void **state)
{
	struct util_str text = { 0 }, out = { 0 };
	struct scrub *s = scrub_new(SCRUB_ALL);
	char ip[32];
	uint32_t i;

	(void)state;
	assert_non_null(s);
	for (i = 0; i <= SCRUB_VALUES_MAX; i++) {
		snprintf(ip, sizeof(ip), "10.%u.%u.%u ", i >> 16,
			 (i >> 8) & 0xff, i & 0xff);
		util_str_put(&text, ip, strlen(ip));
	}
	assert_false(text.oom);
	assert_int_equal(scrub_text(s, text.s, text.len, &out, NULL), -E2BIG);
	free(text.s);
	free(out.s);
	scrub_free(s);
}

static void test_scrub_names(void **state)
{
	(void)state;
	assert_string_equal(scrub_class_name(SCRUB_HOST), "hostnames");
	assert_string_equal(scrub_class_token(SCRUB_IPV6), "2001:db8::1");
	assert_string_equal(scrub_class_name(SCRUB_NCLASS), "?");
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scrub_kernel_lines),
		cmocka_unit_test(test_scrub_false_positives),
		cmocka_unit_test(test_scrub_learn),
		cmocka_unit_test(test_scrub_classes),
		cmocka_unit_test(test_scrub_journal),
		cmocka_unit_test(test_scrub_json),
		cmocka_unit_test(test_scrub_full),
		cmocka_unit_test(test_scrub_names),
	};

	return cmocka_run_group_tests_name("scrub", tests, NULL, NULL);
}
