// SPDX-License-Identifier: GPL-2.0-only
/*
 * usbtrail.ko: the error handlers of uas and usb-storage, through
 * kretprobes.
 *
 * The SCSI error handler calls these when commands time out: abort, then
 * device reset (a USB port reset underneath), then bus reset.  Neither
 * driver has tracepoints, so each handler gets a kretprobe: an EH_START
 * record on entry (which command, which disk) and an EH_END record with
 * its verdict (SUCCESS or FAILED).  The functions are static inside their
 * modules, so the probes are placed by "module:symbol" when the module is
 * live and removed when it goes; a module notifier follows it coming and
 * going while usbtrail.ko is loaded.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/ptrace.h>
#include <linux/string.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_device.h>

#include "ut.h"

struct ut_eh_probe {
	const char *module;
	const char *symbol;	/* "module:function" */
	u8 kind;
	u8 driver;
	struct kretprobe krp;
	bool registered;
};

/* what the entry handler saves for the return handler */
struct ut_eh_data {
	struct usbtrail_rec_eh eh;
	bool wanted;
};

static int ut_eh_entry(struct kretprobe_instance *ri, struct pt_regs *regs);
static int ut_eh_return(struct kretprobe_instance *ri, struct pt_regs *regs);

#define UT_EH(mod, sym, k, d) {						\
	.module = mod, .symbol = mod ":" sym, .kind = k, .driver = d,	\
	.krp = {							\
		.entry_handler = ut_eh_entry,				\
		.handler = ut_eh_return,				\
		.data_size = sizeof(struct ut_eh_data),			\
		.maxactive = 8,						\
	},								\
}

static struct ut_eh_probe ut_eh_probes[] = {
	UT_EH("uas", "uas_eh_abort_handler", USBTRAIL_EH_ABORT,
	      USBTRAIL_DRV_UAS),
	UT_EH("uas", "uas_eh_device_reset_handler", USBTRAIL_EH_DEVICE_RESET,
	      USBTRAIL_DRV_UAS),
	UT_EH("usb_storage", "command_abort", USBTRAIL_EH_ABORT,
	      USBTRAIL_DRV_USB_STORAGE),
	UT_EH("usb_storage", "device_reset", USBTRAIL_EH_DEVICE_RESET,
	      USBTRAIL_DRV_USB_STORAGE),
	UT_EH("usb_storage", "bus_reset", USBTRAIL_EH_BUS_RESET,
	      USBTRAIL_DRV_USB_STORAGE),
};

/* protects .registered; taken inside the module notifier chain's lock */
static DEFINE_MUTEX(ut_eh_lock);

static struct ut_eh_probe *ut_eh_of(struct kretprobe_instance *ri)
{
	return container_of(get_kretprobe(ri), struct ut_eh_probe, krp);
}

static int ut_eh_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct ut_eh_data *d = (struct ut_eh_data *)ri->data;
	struct ut_eh_probe *p = ut_eh_of(ri);
	struct scsi_cmnd *cmd;
	struct usbtrail_record rec = {
		.type = USBTRAIL_REC_EH_START,
		.flags = USBTRAIL_F_ERROR,
	};

	/* every handler takes the struct scsi_cmnd * as its first argument */
	cmd = (struct scsi_cmnd *)regs_get_kernel_argument(regs, 0);
	memset(d, 0, sizeof(*d));
	d->eh.kind = p->kind;
	d->eh.driver = p->driver;
	if (cmd) {
		ut_scsi_fill_where(cmd, &d->eh.devt, &d->eh.host,
				   &d->eh.channel, &d->eh.id, &d->eh.lun,
				   d->eh.disk);
		d->eh.tag = scsi_cmd_to_rq(cmd)->tag;
		d->eh.opcode = cmd->cmnd[0];
	}
	rec.u.eh = d->eh;
	ut_stats_scsi(&rec);
	ut_emit(&rec);
	return 0;
}

static int ut_eh_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct ut_eh_data *d = (struct ut_eh_data *)ri->data;
	struct usbtrail_record rec = {
		.type = USBTRAIL_REC_EH_END,
		.flags = USBTRAIL_F_ERROR,
	};

	rec.u.eh = d->eh;
	rec.u.eh.result = (int)regs_return_value(regs);
	ut_emit(&rec);
	return 0;
}

/*
 * Place the probes of module `mod` (NULL: of every module loaded).
 * ut_eh_lock held.
 */
static void ut_eh_register(const char *mod)
{
	struct ut_eh_probe *p;
	unsigned int i;
	int ret;

	lockdep_assert_held(&ut_eh_lock);
	for (i = 0; i < ARRAY_SIZE(ut_eh_probes); i++) {
		p = &ut_eh_probes[i];
		if (p->registered || (mod && strcmp(mod, p->module)))
			continue;
		memset(&p->krp.kp, 0, sizeof(p->krp.kp));
		p->krp.kp.symbol_name = p->symbol;
		ret = register_kretprobe(&p->krp);
		if (ret == 0)
			p->registered = true;
		else if (mod)	/* absent modules fail quietly at load */
			pr_warn("cannot probe %s: %d\n", p->symbol, ret);
	}
}

/* Remove the probes of module `mod` (NULL: all).  ut_eh_lock held. */
static void ut_eh_unregister(const char *mod)
{
	struct ut_eh_probe *p;
	unsigned int i;

	lockdep_assert_held(&ut_eh_lock);
	for (i = 0; i < ARRAY_SIZE(ut_eh_probes); i++) {
		p = &ut_eh_probes[i];
		if (!p->registered || (mod && strcmp(mod, p->module)))
			continue;
		unregister_kretprobe(&p->krp);
		p->registered = false;
	}
}

static int ut_eh_module_notify(struct notifier_block *nb, unsigned long val,
			       void *data)
{
	struct module *mod = data;

	mutex_lock(&ut_eh_lock);
	if (val == MODULE_STATE_LIVE)
		ut_eh_register(mod->name);
	else if (val == MODULE_STATE_GOING)
		ut_eh_unregister(mod->name);
	mutex_unlock(&ut_eh_lock);
	return NOTIFY_OK;
}

static struct notifier_block ut_eh_module_nb = {
	.notifier_call = ut_eh_module_notify,
};

u32 ut_eh_sources(void)
{
	u32 src = 0;
	unsigned int i;

	mutex_lock(&ut_eh_lock);
	for (i = 0; i < ARRAY_SIZE(ut_eh_probes); i++) {
		if (!ut_eh_probes[i].registered)
			continue;
		src |= ut_eh_probes[i].driver == USBTRAIL_DRV_UAS ?
			USBTRAIL_SRC_UAS_EH : USBTRAIL_SRC_BOT_EH;
	}
	mutex_unlock(&ut_eh_lock);
	return src;
}

int ut_eh_init(void)
{
	int ret;

	/* the notifier first, so a module loading meanwhile is not missed */
	ret = register_module_notifier(&ut_eh_module_nb);
	if (ret)
		return ret;
	mutex_lock(&ut_eh_lock);
	ut_eh_register(NULL);
	mutex_unlock(&ut_eh_lock);
	return 0;
}

void ut_eh_exit(void)
{
	unregister_module_notifier(&ut_eh_module_nb);
	mutex_lock(&ut_eh_lock);
	ut_eh_unregister(NULL);
	mutex_unlock(&ut_eh_lock);
}
