// SPDX-License-Identifier: GPL-2.0-only
/*
 * usbtrail.ko: module entry points.
 *
 * The module is optional: the usbtrail command works from tracefs without
 * it.  This file only ties the parts together at load and unload time;
 * the tracepoint probes, the record ring and /dev/usbtrail live in files of
 * their own (see module/README).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/usbtrail.h>

static int __init ut_init(void)
{
	pr_info("loaded, ABI version %d\n", USBTRAIL_ABI_VERSION);
	return 0;
}

static void __exit ut_exit(void)
{
	pr_info("unloaded\n");
}

module_init(ut_init);
module_exit(ut_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("usbtrail developers");
MODULE_DESCRIPTION("USB/xHCI/UAS fault tracer and flight recorder");
MODULE_VERSION("0.1");
