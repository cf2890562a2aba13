// SPDX-License-Identifier: GPL-2.0-only
/*
 * usbtrail.ko: module entry points and parameters.
 *
 * The module is optional: the usbtrail command works from tracefs without
 * it.  Loaded, it records xHCI, USB, SCSI and block events of USB storage
 * into /dev/usbtrail and into a flight recorder printed on oops and panic.
 *
 * Order matters: the buffers and counters exist before the first probe is
 * attached, and on unload every probe is detached and waited for before
 * anything it writes to is freed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>

#include "ut.h"
#include "ut_compat.h"

static unsigned int stream_kb = 1024;
module_param(stream_kb, uint, 0444);
MODULE_PARM_DESC(stream_kb,
		 "stream buffer per CPU, KiB (64-65536, default 1024)");

static unsigned int flight_records = 4096;
module_param(flight_records, uint, 0444);
MODULE_PARM_DESC(flight_records,
		 "records the flight recorder keeps (16-1048576, rounded up to a power of two; default 4096)");

static unsigned int panic_dump = 256;
module_param(panic_dump, uint, 0444);
MODULE_PARM_DESC(panic_dump,
		 "latest records printed on oops/panic, besides older error records (default 256)");

/*
 * The USBTRAIL_SRC_* bits of what is attached now: tracepoints come and
 * go with their modules, the error handler probes with uas and
 * usb-storage.  Process context (takes ut_tp.c's and ut_eh.c's mutexes).
 */
u32 ut_sources(void)
{
	return ut_tp_sources() | ut_eh_sources() | ut_usb_sources();
}

/* Every probe's state (tracepoints, then kretprobes) into out[]; the count. */
unsigned int ut_probes(struct usbtrail_probe *out, unsigned int max)
{
	unsigned int n = ut_tp_probe_states(out, max);

	return n + ut_eh_probe_states(out + n, max - n);
}

const char *ut_probe_state_name(u8 state)
{
	switch (state) {
	case USBTRAIL_PROBE_WAITING:	return "waiting";
	case USBTRAIL_PROBE_ATTACHED:	return "attached";
	case USBTRAIL_PROBE_FAILED:	return "failed";
	case USBTRAIL_PROBE_ALIAS:	return "alias";
	case USBTRAIL_PROBE_UNVERIFIED:	return "unverified";
	}
	return "?";
}

static int __init ut_init(void)
{
	unsigned int major, minor;
	int ret;

	if (ut_kernel_untested(&major, &minor))
		pr_warn("kernel %u.%u is outside the range usbtrail.ko was tested on (5.10 to 7.3): probes on private declarations attach only where BTF verifies them\n",
			major, minor);
	ut_layout_init();
	ret = ut_stream_init((unsigned long)clamp(stream_kb, 64U, 65536U) *
			     1024);
	if (ret)
		return ret;
	ret = ut_flight_init(flight_records, panic_dump);
	if (ret)
		goto err_stream;
	ret = ut_stats_init();
	if (ret)
		goto err_flight;
	ut_debugfs_init();
	ret = ut_dev_init();
	if (ret)
		goto err_debugfs;
	ut_usb_init();
	ret = ut_tp_init();
	if (ret)
		goto err_usb;
	ret = ut_eh_init();
	if (ret)
		goto err_tp;
	pr_info("loaded, ABI version %d, sources 0x%x\n", USBTRAIL_ABI_VERSION,
		ut_sources());
	return 0;

err_tp:
	ut_tp_exit();
err_usb:
	ut_usb_exit();
	ut_dev_exit();
err_debugfs:
	ut_debugfs_exit();
	ut_stats_exit();
err_flight:
	ut_flight_exit();
err_stream:
	ut_stream_exit();
	return ret;
}

static void __exit ut_exit(void)
{
	/* sources first: no record is emitted after this block */
	ut_eh_exit();
	ut_tp_exit();		/* waits for running probes */
	ut_usb_exit();		/* blocking notifier: none running after */
	/* then the readers and the files, then what they read */
	ut_dev_exit();
	ut_debugfs_exit();
	ut_stats_exit();
	ut_flight_exit();
	ut_stream_exit();
	pr_info("unloaded\n");
}

module_init(ut_init);
module_exit(ut_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("usbtrail developers");
MODULE_DESCRIPTION("USB/xHCI/UAS fault tracer and flight recorder");
MODULE_VERSION(USBTRAIL_VERSION);	/* VERSION, by module/Kbuild */
