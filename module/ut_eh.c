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
 * going while usbtrail.ko is loaded.  The handlers are UT_EH_HANDLERS() of
 * ut_tables.h, every name each has had: a probe goes on each name the
 * running kernel has.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/ptrace.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_host.h>

#include "ut.h"
#include "ut_compat.h"
#include "ut_tables.h"

struct ut_eh_probe {
	const char *module;
	const char *symbol;	/* "module:function" */
	u8 kind;
	u8 driver;
	struct kretprobe krp;
	bool registered;
	bool mod_live;		/* its module is known to be loaded */
	bool builtin;		/* placed in the kernel's own code */
	bool warned;		/* its one warning is out */
	int error;		/* of the last register_kretprobe() */
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

#define UT_EH_PROBE(mod, fn, suffix, kind, driver) \
	UT_EH(mod, fn, kind, driver),
static struct ut_eh_probe ut_eh_probes[] = {
	UT_EH_HANDLERS(UT_EH_PROBE)
};

/* protects .registered; taken inside the module notifier chain's lock */
static DEFINE_MUTEX(ut_eh_lock);

static struct ut_eh_probe *ut_eh_of(struct kretprobe_instance *ri)
{
	return container_of(ut_kretprobe_of(ri), struct ut_eh_probe, krp);
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
		d->eh.tag = ut_scsi_rq(cmd)->tag;
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
 * Another name of p's handler is probed: the kernel has that name.
 * ut_eh_lock held.
 */
static bool ut_eh_other_name(const struct ut_eh_probe *p)
{
	const struct ut_eh_probe *q;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ut_eh_probes); i++) {
		q = &ut_eh_probes[i];
		if (q != p && q->registered && q->driver == p->driver &&
		    q->kind == p->kind)
			return true;
	}
	return false;
}

/* A probe of p's module is placed: the module is loaded.  ut_eh_lock held. */
static bool ut_eh_module_probed(const struct ut_eh_probe *p)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ut_eh_probes); i++)
		if (ut_eh_probes[i].registered &&
		    !strcmp(ut_eh_probes[i].module, p->module))
			return true;
	return false;
}

/* enum usbtrail_probe_state of p.  ut_eh_lock held. */
static u8 ut_eh_state(const struct ut_eh_probe *p)
{
	if (p->registered)
		return USBTRAIL_PROBE_ATTACHED;
	if (!p->mod_live)
		return USBTRAIL_PROBE_WAITING;
	return ut_eh_other_name(p) ? USBTRAIL_PROBE_ALIAS :
				     USBTRAIL_PROBE_FAILED;
}

/*
 * Which probes of module `mod` (NULL: of every module) have a loaded
 * module, and one warning for a handler none of whose names it has.  A
 * module is loaded when it says so (the notifier) or when a probe on it
 * was placed.  ut_eh_lock held.
 */
static void ut_eh_update(const char *mod)
{
	struct ut_eh_probe *p;
	unsigned int i;

	lockdep_assert_held(&ut_eh_lock);
	for (i = 0; i < ARRAY_SIZE(ut_eh_probes); i++) {
		p = &ut_eh_probes[i];
		if (mod && strcmp(mod, p->module))
			continue;
		p->mod_live = mod || ut_eh_module_probed(p);
		if (ut_eh_state(p) != USBTRAIL_PROBE_FAILED || p->warned)
			continue;
		p->warned = true;
		pr_warn("probe %s not attached: error %d%s\n", p->symbol,
			p->error, p->error == -ENOENT ?
			" (no such function in the module)" : "");
	}
}

/*
 * Place the probes of module `mod` (NULL: of every module loaded), on
 * every name of each handler.  A register_kretprobe() on a module not
 * loaded fails as one on a name it lacks does (-ENOENT), so those fail
 * quietly.  ut_eh_lock held.
 */
static void ut_eh_register(const char *mod)
{
	struct ut_eh_probe *p;
	unsigned int i;

	lockdep_assert_held(&ut_eh_lock);
	for (i = 0; i < ARRAY_SIZE(ut_eh_probes); i++) {
		p = &ut_eh_probes[i];
		if (p->registered || (mod && strcmp(mod, p->module)))
			continue;
		memset(&p->krp.kp, 0, sizeof(p->krp.kp));
		p->krp.kp.symbol_name = p->symbol;
		p->error = register_kretprobe(&p->krp);
		p->registered = !p->error;
	}
	ut_eh_update(mod);
}

/* drivers/usb/storage/scsiglue.h (5.10 to 7.3) */
void usb_stor_host_template_init(struct scsi_host_template *sht,
				 const char *name, struct module *owner);

/*
 * Where built-in usb-storage's handlers are, by enum usbtrail_eh_kind:
 * from the host template it gives its sub-drivers.  All NULL when
 * usb-storage is not built in (nor loaded).  ut_eh_lock held.
 */
static void ut_eh_bot_builtin(void *fn[USBTRAIL_EH_BUS_RESET + 1])
{
	typeof(&usb_stor_host_template_init) init;
	struct scsi_host_template *sht;

	init = symbol_get(usb_stor_host_template_init);
	if (!init)
		return;
	sht = kzalloc(sizeof(*sht), GFP_KERNEL);
	if (sht) {
		init(sht, KBUILD_MODNAME, THIS_MODULE);
		fn[USBTRAIL_EH_ABORT] = sht->eh_abort_handler;
		fn[USBTRAIL_EH_DEVICE_RESET] = sht->eh_device_reset_handler;
		fn[USBTRAIL_EH_BUS_RESET] = sht->eh_bus_reset_handler;
		kfree(sht);
	}
	symbol_put(usb_stor_host_template_init);
}

/*
 * The drivers built into the kernel: place the probes no module placed
 * (once, at load: a built-in driver never comes or goes; a module loaded
 * meanwhile had its probes placed by the notifier).  ut_eh_lock held.
 */
static void ut_eh_register_builtin(void)
{
	void *bot[USBTRAIL_EH_BUS_RESET + 1] = { NULL };
	bool bot_read = false;
	struct ut_eh_probe *p;
	unsigned int i;

	lockdep_assert_held(&ut_eh_lock);
	for (i = 0; i < ARRAY_SIZE(ut_eh_probes); i++) {
		p = &ut_eh_probes[i];
		if (p->registered || p->mod_live)
			continue;
		memset(&p->krp.kp, 0, sizeof(p->krp.kp));
		if (p->driver == USBTRAIL_DRV_UAS) {
			/* "uas:uas_eh_abort_handler": uas_eh_abort_handler */
			p->krp.kp.symbol_name = p->symbol + strlen(p->module) + 1;
		} else {
			/* the template once, for all of usb-storage's */
			if (!bot_read) {
				ut_eh_bot_builtin(bot);
				bot_read = true;
			}
			if (p->kind > USBTRAIL_EH_BUS_RESET || !bot[p->kind])
				continue;
			p->krp.kp.addr = bot[p->kind];
		}
		if (register_kretprobe(&p->krp))
			continue;
		p->registered = true;
		p->builtin = true;
		p->error = 0;
		pr_info("probe %s attached: %s is built in\n", p->symbol,
			p->module);
	}
	ut_eh_update(NULL);
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
		p->builtin = false;
	}
	for (i = 0; i < ARRAY_SIZE(ut_eh_probes); i++) {
		p = &ut_eh_probes[i];
		if (!mod || !strcmp(mod, p->module)) {
			p->mod_live = false;
			p->error = 0;
		}
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

/* The state of each probe into out[], at most max; the count. */
unsigned int ut_eh_probe_states(struct usbtrail_probe *out, unsigned int max)
{
	struct ut_eh_probe *p;
	unsigned int i;

	mutex_lock(&ut_eh_lock);
	for (i = 0; i < ARRAY_SIZE(ut_eh_probes) && i < max; i++) {
		p = &ut_eh_probes[i];
		memset(&out[i], 0, sizeof(out[i]));
		strscpy(out[i].name, p->symbol, sizeof(out[i].name));
		out[i].source = p->driver == USBTRAIL_DRV_UAS ?
			USBTRAIL_SRC_UAS_EH : USBTRAIL_SRC_BOT_EH;
		out[i].state = ut_eh_state(p);
		out[i].error = out[i].state == USBTRAIL_PROBE_ATTACHED ? 0 :
			       p->error;
		out[i].kind = USBTRAIL_PROBE_KRETPROBE;
		out[i].flags = p->builtin ? USBTRAIL_PROBE_F_BUILTIN : 0;
	}
	mutex_unlock(&ut_eh_lock);
	return i;
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
	ut_eh_register_builtin();
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
