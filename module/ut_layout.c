// SPDX-License-Identifier: GPL-2.0-only
/*
 * usbtrail.ko: the layout table, what the probes on xhci-hcd's private
 * tracepoints take for granted of the driver's private declarations
 * (ut_tables.h's UT_LAYOUT_FACTS()), and whether the running kernel's
 * BTF says the same.
 *
 * The module cannot read BTF itself (the kernel exports no BTF lookup to
 * modules), so its reader does: it takes the table (USBTRAIL_IOC_LAYOUT_GET),
 * looks each fact up in /sys/kernel/btf/ and hands back what it found
 * (USBTRAIL_IOC_LAYOUT_SET).  The comparison is the module's: a fact is
 * verified only when the BTF says exactly what this build expects.  A
 * probe with a fact that is not verified stays unattached (ut_tp.c asks
 * ut_layout_check() before it attaches one), so a kernel whose driver
 * changed a structure or a tracepoint's parameters is never read with
 * the wrong layout: its probe says why it is off, and the others record.
 *
 * A tracepoint's parameters are also verified by a build against the
 * kernel's own source tree (tools/tp-protos writes ut_tp_kernel.h, and
 * UT_TP_CHECK_XHCI() fails the build if they differ); a BTF that says
 * otherwise still wins.  A structure's members are verified by BTF only.
 * Answers hold until the driver's module goes (ut_layout_forget()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "ut.h"
#include "ut_compat.h"
#include "ut_tables.h"

struct ut_fact {
	u8 kind;			/* enum usbtrail_layout_kind */
	const char *module, *what, *probe, *type;
	u32 offset, size;
};

#define UT_FACT(kind, mod, what, probe, type, off, sz)			\
	{ USBTRAIL_LAYOUT_##kind, mod, what, probe, type, off, sz },
static const struct ut_fact ut_facts[] = {
	UT_LAYOUT_FACTS(UT_FACT)
};

#define UT_NFACTS	ARRAY_SIZE(ut_facts)
static_assert(UT_NFACTS <= USBTRAIL_LAYOUT_MAX);

/* What the BTF said of each fact, by index into ut_facts[] */
struct ut_fact_state {
	u8 state;			/* enum usbtrail_layout_state */
	bool by_build;			/* verified by the build, no BTF yet */
	char type[USBTRAIL_LAYOUT_TYPE_LEN];
	u32 offset, size;
};

static struct ut_fact_state ut_fact_states[UT_NFACTS];
/* inside ut_tp_lock where both are taken */
static DEFINE_MUTEX(ut_layout_lock);

#ifdef UT_HAVE_TP_KERNEL
#define UT_BUILD_CHECKED	true
#else
#define UT_BUILD_CHECKED	false
#endif

/* Fact @i as before any answer.  ut_layout_lock held. */
static void ut_layout_reset(unsigned int i)
{
	struct ut_fact_state *st = &ut_fact_states[i];

	memset(st, 0, sizeof(*st));
	if (ut_facts[i].kind == USBTRAIL_LAYOUT_TRACEPOINT && UT_BUILD_CHECKED) {
		st->state = USBTRAIL_LAYOUT_VERIFIED;
		st->by_build = true;
	}
}

void ut_layout_init(void)
{
	unsigned int i;

	mutex_lock(&ut_layout_lock);
	for (i = 0; i < UT_NFACTS; i++)
		ut_layout_reset(i);
	mutex_unlock(&ut_layout_lock);
}

/* The answers about module @mod's declarations are void: it went. */
void ut_layout_forget(const char *mod)
{
	unsigned int i;

	mutex_lock(&ut_layout_lock);
	for (i = 0; i < UT_NFACTS; i++)
		if (!strcmp(ut_facts[i].module, mod))
			ut_layout_reset(i);
	mutex_unlock(&ut_layout_lock);
}

/* Why fact @i is not verified, into @why.  ut_layout_lock held. */
static void ut_layout_why(unsigned int i, char *why, size_t len)
{
	const struct ut_fact *f = &ut_facts[i];
	const struct ut_fact_state *st = &ut_fact_states[i];

	switch (st->state) {
	case USBTRAIL_LAYOUT_UNCHECKED:
		snprintf(why, len, "%s not checked against %s's BTF yet",
			 f->what, f->module);
		break;
	case USBTRAIL_LAYOUT_NO_BTF:
		snprintf(why, len, "no BTF of %s says what %s is", f->module,
			 f->what);
		break;
	default:
		if (f->kind == USBTRAIL_LAYOUT_TRACEPOINT)
			snprintf(why, len,
				 "%s takes (%s) in the kernel's BTF, usbtrail.ko's probe (%s)",
				 f->what, st->type, f->type);
		else
			snprintf(why, len,
				 "%s is %s at %u (%u bytes) in the kernel's BTF, %s at %u (%u) in usbtrail.ko's mirror",
				 f->what, st->type, st->offset, st->size,
				 f->type, f->offset, f->size);
		break;
	}
}

/*
 * Whether tracepoint @probe's probe may be attached: 0 when every fact it
 * depends on is verified (or it depends on none), else the state's errno
 * (-EAGAIN not checked yet, -ENOENT no BTF, -EPROTO the BTF differs) and
 * in @why the first such fact's reason.
 */
int ut_layout_check(const char *probe, char *why, size_t len)
{
	static const int err[] = {
		[USBTRAIL_LAYOUT_UNCHECKED] = -EAGAIN,
		[USBTRAIL_LAYOUT_MISMATCH] = -EPROTO,
		[USBTRAIL_LAYOUT_NO_BTF] = -ENOENT,
	};
	unsigned int i;
	int ret = 0;

	mutex_lock(&ut_layout_lock);
	for (i = 0; i < UT_NFACTS && !ret; i++) {
		u8 state = ut_fact_states[i].state;

		if (strcmp(ut_facts[i].probe, probe) ||
		    state == USBTRAIL_LAYOUT_VERIFIED)
			continue;
		ret = state < ARRAY_SIZE(err) && err[state] ? err[state] :
							      -EPROTO;
		if (why && len)
			ut_layout_why(i, why, len);
	}
	mutex_unlock(&ut_layout_lock);
	return ret;
}

/* Fact @i as the layout table's row @row.  ut_layout_lock held. */
static void ut_layout_row(unsigned int i, struct usbtrail_layout_fact *row)
{
	const struct ut_fact *f = &ut_facts[i];

	memset(row, 0, sizeof(*row));
	strscpy(row->module, f->module, sizeof(row->module));
	strscpy(row->what, f->what, sizeof(row->what));
	strscpy(row->probe, f->probe, sizeof(row->probe));
	strscpy(row->type, f->type, sizeof(row->type));
	row->offset = f->offset;
	row->size = f->size;
	row->kind = f->kind;
	row->state = ut_fact_states[i].state;
	row->flags = ut_fact_states[i].by_build ? USBTRAIL_LAYOUT_F_BUILD : 0;
}

long ut_layout_get(void __user *arg)
{
	struct usbtrail_layout *t;
	unsigned int i;
	long ret = 0;

	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	mutex_lock(&ut_layout_lock);
	t->count = UT_NFACTS;
	for (i = 0; i < UT_NFACTS; i++)
		ut_layout_row(i, &t->facts[i]);
	mutex_unlock(&ut_layout_lock);
	if (copy_to_user(arg, t, sizeof(*t)))
		ret = -EFAULT;
	kfree(t);
	return ret;
}

/* The fact row @row answers, or -1.  Its strings are terminated. */
static int ut_layout_find(const struct usbtrail_layout_fact *row)
{
	unsigned int i;

	for (i = 0; i < UT_NFACTS; i++)
		if (ut_facts[i].kind == row->kind &&
		    !strcmp(ut_facts[i].module, row->module) &&
		    !strcmp(ut_facts[i].what, row->what))
			return i;
	return -1;
}

/* Row @row's answer for fact @i.  ut_layout_lock held. */
static void ut_layout_answer(unsigned int i,
			     const struct usbtrail_layout_fact *row)
{
	const struct ut_fact *f = &ut_facts[i];
	struct ut_fact_state *st = &ut_fact_states[i];
	u8 before = st->state;
	char why[256];
	bool same;

	if (row->state == USBTRAIL_LAYOUT_NO_BTF) {
		/* a build's check stands where no BTF says otherwise */
		if (!st->by_build)
			st->state = USBTRAIL_LAYOUT_NO_BTF;
		return;
	}
	if (row->state != USBTRAIL_LAYOUT_FOUND)
		return;
	strscpy(st->type, row->type, sizeof(st->type));
	st->offset = row->offset;
	st->size = row->size;
	st->by_build = false;
	same = !strcmp(f->type, row->type);
	if (f->kind == USBTRAIL_LAYOUT_MEMBER)
		same = same && f->offset == row->offset && f->size == row->size;
	st->state = same ? USBTRAIL_LAYOUT_VERIFIED : USBTRAIL_LAYOUT_MISMATCH;
	/* said once, not at every reader's answer */
	if (!same && before != USBTRAIL_LAYOUT_MISMATCH) {
		ut_layout_why(i, why, sizeof(why));
		pr_warn("%s: probe %s:%s stays unattached\n", why, f->module,
			f->probe);
	}
}

/*
 * USBTRAIL_IOC_LAYOUT_SET: the reader's answers, then the probes now
 * verified attached.  Rows that name no fact of this build are ignored
 * (a newer reader's); -EINVAL for a count over the table's.
 */
long ut_layout_set(const void __user *arg)
{
	struct usbtrail_layout *t;
	unsigned int i;
	long ret = 0;

	t = memdup_user(arg, sizeof(*t));
	if (IS_ERR(t))
		return PTR_ERR(t);
	if (t->count > USBTRAIL_LAYOUT_MAX) {
		kfree(t);
		return -EINVAL;
	}
	mutex_lock(&ut_layout_lock);
	for (i = 0; i < t->count; i++) {
		struct usbtrail_layout_fact *row = &t->facts[i];
		int f;

		row->module[sizeof(row->module) - 1] = '\0';
		row->what[sizeof(row->what) - 1] = '\0';
		row->type[sizeof(row->type) - 1] = '\0';
		f = ut_layout_find(row);
		if (f >= 0)
			ut_layout_answer(f, row);
	}
	mutex_unlock(&ut_layout_lock);
	kfree(t);
	ut_tp_recheck();
	return ret;
}

#define UT_LAYOUT_STATE(id, name)	{ USBTRAIL_LAYOUT_##id, name },
static const struct {
	u8 state;
	const char *name;
} ut_layout_states[] = {
	UT_LAYOUT_STATES(UT_LAYOUT_STATE)
};

static const char *ut_layout_state_name(u8 state)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ut_layout_states); i++)
		if (ut_layout_states[i].state == state)
			return ut_layout_states[i].name;
	return "?";
}

/* debugfs "layout": a line a fact, its state and why */
void ut_layout_show(struct seq_file *m)
{
	char why[256];
	unsigned int i;

	mutex_lock(&ut_layout_lock);
	for (i = 0; i < UT_NFACTS; i++) {
		const struct ut_fact_state *st = &ut_fact_states[i];

		why[0] = '\0';
		if (st->state != USBTRAIL_LAYOUT_VERIFIED)
			ut_layout_why(i, why, sizeof(why));
		seq_printf(m, "fact=%s:%s probe=%s state=%s%s%s%s\n",
			   ut_facts[i].module, ut_facts[i].what,
			   ut_facts[i].probe,
			   ut_layout_state_name(st->state),
			   st->by_build ? " by=build" : "",
			   why[0] ? " why=" : "", why);
	}
	mutex_unlock(&ut_layout_lock);
}
