// SPDX-License-Identifier: GPL-2.0-only
/*
 * usbtrail.ko: attaching the probes to the kernel's tracepoints.
 *
 * xhci-hcd's and scsi_mod's tracepoints live in modules that may load
 * before or after us and unload while we stay: a tracepoint module
 * notifier (which replays the modules already loaded when registered)
 * attaches our probes when such a module comes and forgets them when it
 * goes.  The block layer's tracepoints are built in and found with
 * for_each_kernel_tracepoint(), and so are xhci-hcd's and scsi_mod's in
 * a kernel that has those built in (the test bed's debug kernel, many
 * embedded ones).  No kernel symbol of xhci-hcd or scsi_mod is
 * referenced, so usbtrail.ko loads without them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "ut.h"
#include "ut_tables.h"

struct ut_tp_slot {
	const struct ut_probe *probe;
	struct tracepoint *tp;		/* non-NULL while attached */
	struct tracepoint *pending;	/* found, its layout not verified */
	u8 state;			/* enum usbtrail_probe_state */
	int error;			/* of the last attempt */
	bool warned;			/* its one warning is out */
	bool builtin;			/* a module's, found built in */
};

/* a slot for each tracepoint of UT_TRACEPOINTS() */
#define UT_TP_SLOT(id, fn, sys, mod, event, src)	UT_TP_SLOT_##id,
enum {
	UT_TRACEPOINTS(UT_TP_SLOT)
	UT_TP_MAX
};

static struct ut_tp_slot ut_tp_slots[UT_TP_MAX];
static unsigned int ut_tp_nslots;
/* protects ut_tp_slots[].tp; taken inside tracepoint_module_list_mutex */
static DEFINE_MUTEX(ut_tp_lock);

static void ut_tp_add_table(const struct ut_probe *tab, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n && ut_tp_nslots < UT_TP_MAX; i++)
		ut_tp_slots[ut_tp_nslots++].probe = &tab[i];
}

/* Not attached, for a reason: one warning the first time.  ut_tp_lock held. */
static void ut_tp_failed(struct ut_tp_slot *s, int error)
{
	lockdep_assert_held(&ut_tp_lock);
	s->state = USBTRAIL_PROBE_FAILED;
	s->error = error;
	if (s->warned)
		return;
	s->warned = true;
	if (error == -ENOENT)
		pr_warn("probe %s:%s not attached: %s has no such tracepoint\n",
			s->probe->module ?: "vmlinux", s->probe->name,
			s->probe->module ?: "the kernel");
	else
		pr_warn("probe %s:%s not attached: error %d\n",
			s->probe->module ?: "vmlinux", s->probe->name, error);
}

/*
 * The probes of module `mod` (NULL: the kernel's) that its tracepoints
 * did not attach: the module has no such tracepoint.  ut_tp_lock held.
 */
static void ut_tp_missing(const char *mod)
{
	struct ut_tp_slot *s;
	unsigned int i;

	lockdep_assert_held(&ut_tp_lock);
	for (i = 0; i < ut_tp_nslots; i++) {
		s = &ut_tp_slots[i];
		if (s->tp || s->pending || s->state == USBTRAIL_PROBE_FAILED ||
		    !!mod != !!s->probe->module ||
		    (mod && strcmp(mod, s->probe->module)))
			continue;
		ut_tp_failed(s, -ENOENT);
	}
}

/*
 * Attach slot @s's probe to @tp if what it takes for granted of the
 * kernel's private declarations is verified (ut_layout.c); else keep @tp
 * until it is, and say why once.  ut_tp_lock held.
 */
static void ut_tp_attach_slot(struct ut_tp_slot *s, struct tracepoint *tp)
{
	char why[256];
	int ret;

	lockdep_assert_held(&ut_tp_lock);
	ret = ut_layout_check(s->probe->name, why, sizeof(why));
	if (ret) {
		s->pending = tp;
		s->state = USBTRAIL_PROBE_UNVERIFIED;
		s->error = ret == -EAGAIN ? 0 : ret;
		/* a mismatch is said where it is found (ut_layout.c) */
		if (ret == -ENOENT && !s->warned) {
			s->warned = true;
			pr_warn("probe %s:%s not attached: %s\n",
				s->probe->module ?: "vmlinux", s->probe->name,
				why);
		}
		return;
	}
	s->pending = NULL;
	ret = tracepoint_probe_register(tp, s->probe->func, NULL);
	if (ret) {
		ut_tp_failed(s, ret);
		return;
	}
	s->tp = tp;
	s->state = USBTRAIL_PROBE_ATTACHED;
	s->error = 0;
}

/*
 * Attach the probe meant for tracepoint tp of module `mod` (NULL: core;
 * a module's probe takes a core tracepoint of its name: the module is
 * built in, and the kernel's tracepoint names are unique).  ut_tp_lock
 * held.
 */
static void ut_tp_attach(struct tracepoint *tp, const char *mod)
{
	struct ut_tp_slot *s;
	unsigned int i;

	lockdep_assert_held(&ut_tp_lock);
	for (i = 0; i < ut_tp_nslots; i++) {
		s = &ut_tp_slots[i];
		if (s->tp || strcmp(s->probe->name, tp->name))
			continue;
		if (mod && (!s->probe->module ||
			    strcmp(mod, s->probe->module)))
			continue;
		s->builtin = !mod && s->probe->module;
		ut_tp_attach_slot(s, tp);
	}
}

/* ut_tp_lock held. */
static void ut_tp_detach_slot(struct ut_tp_slot *s)
{
	lockdep_assert_held(&ut_tp_lock);
	tracepoint_probe_unregister(s->tp, s->probe->func, NULL);
	s->tp = NULL;
	s->state = USBTRAIL_PROBE_WAITING;
	s->error = 0;
}

/*
 * The layout table has new answers: attach the probes that waited for
 * them, and detach those whose facts the answers no longer verify (a
 * BTF that now says otherwise: the probe reads nothing more with the
 * layout it expects).  Process context; takes ut_tp_lock.
 */
void ut_tp_recheck(void)
{
	struct tracepoint *tp;
	unsigned int i;

	mutex_lock(&ut_tp_lock);
	for (i = 0; i < ut_tp_nslots; i++) {
		struct ut_tp_slot *s = &ut_tp_slots[i];

		if (s->tp && ut_layout_check(s->probe->name, NULL, 0)) {
			tp = s->tp;
			ut_tp_detach_slot(s);
			ut_tp_attach_slot(s, tp);	/* keeps it pending */
		} else if (s->pending && !s->tp) {
			ut_tp_attach_slot(s, s->pending);
		}
	}
	mutex_unlock(&ut_tp_lock);
}

static int ut_tp_module_notify(struct notifier_block *nb, unsigned long val,
			       void *data)
{
	struct tp_module *tp_mod = data;
	struct module *mod = tp_mod->mod;
	unsigned int i;

	mutex_lock(&ut_tp_lock);
	if (val == MODULE_STATE_COMING) {
		for (i = 0; i < mod->num_tracepoints; i++)
			ut_tp_attach(tracepoint_ptr_deref(
					&mod->tracepoints_ptrs[i]), mod->name);
		ut_tp_missing(mod->name);
	} else if (val == MODULE_STATE_GOING) {
		for (i = 0; i < ut_tp_nslots; i++) {
			struct ut_tp_slot *s = &ut_tp_slots[i];

			if (!s->probe->module ||
			    strcmp(s->probe->module, mod->name))
				continue;
			if (s->tp)
				ut_tp_detach_slot(s);
			s->pending = NULL;
			s->state = USBTRAIL_PROBE_WAITING;
			s->error = 0;
		}
		/* the next one may be another build: checked anew */
		ut_layout_forget(mod->name);
	}
	mutex_unlock(&ut_tp_lock);
	return NOTIFY_OK;
}

static struct notifier_block ut_tp_module_nb = {
	.notifier_call = ut_tp_module_notify,
};

static void ut_tp_core_one(struct tracepoint *tp, void *priv)
{
	ut_tp_attach(tp, NULL);
}

u32 ut_tp_sources(void)
{
	u32 src = 0;
	unsigned int i;

	mutex_lock(&ut_tp_lock);
	for (i = 0; i < ut_tp_nslots; i++)
		if (ut_tp_slots[i].tp)
			src |= ut_tp_slots[i].probe->source;
	mutex_unlock(&ut_tp_lock);
	return src;
}

/* The state of each probe into out[], at most max; the count. */
unsigned int ut_tp_probe_states(struct usbtrail_probe *out, unsigned int max)
{
	struct ut_tp_slot *s;
	unsigned int i;

	mutex_lock(&ut_tp_lock);
	for (i = 0; i < ut_tp_nslots && i < max; i++) {
		s = &ut_tp_slots[i];
		memset(&out[i], 0, sizeof(out[i]));
		snprintf(out[i].name, sizeof(out[i].name), "%s:%s",
			 s->probe->module ?: "vmlinux", s->probe->name);
		out[i].source = s->probe->source;
		out[i].error = s->error;
		out[i].kind = USBTRAIL_PROBE_TRACEPOINT;
		out[i].state = s->state;
		out[i].flags = s->builtin ? USBTRAIL_PROBE_F_BUILTIN : 0;
	}
	mutex_unlock(&ut_tp_lock);
	return i;
}

int ut_tp_init(void)
{
	int ret;

	ut_tp_add_table(ut_xhci_probes, ut_xhci_nprobes);
	ut_tp_add_table(ut_scsi_probes, ut_scsi_nprobes);
	ut_tp_add_table(ut_blk_probes, ut_blk_nprobes);

	mutex_lock(&ut_tp_lock);
	for_each_kernel_tracepoint(ut_tp_core_one, NULL);
	ut_tp_missing(NULL);
	mutex_unlock(&ut_tp_lock);

	ret = register_tracepoint_module_notifier(&ut_tp_module_nb);
	if (ret) {
		ut_tp_exit();
		return ret;
	}
	return 0;
}

/*
 * Detach everything and wait until no probe runs any more; the callers
 * free the buffers the probes write to after this returns.
 */
void ut_tp_exit(void)
{
	unsigned int i;

	/* after this no notifier runs: the list mutex is taken inside */
	unregister_tracepoint_module_notifier(&ut_tp_module_nb);
	mutex_lock(&ut_tp_lock);
	for (i = 0; i < ut_tp_nslots; i++)
		if (ut_tp_slots[i].tp)
			ut_tp_detach_slot(&ut_tp_slots[i]);
	mutex_unlock(&ut_tp_lock);
	tracepoint_synchronize_unregister();
}
