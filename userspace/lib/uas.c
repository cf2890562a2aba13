// SPDX-License-Identifier: GPL-2.0-only
/*
 * uas.c - decide, from collected facts, whether the kernel uses uas for a
 * USB mass-storage interface and which step decided if it does not.
 *
 * The order is the kernel's, uas_use_uas_driver() in
 * drivers/usb/storage/uas-detect.h (checked against linux-6.1):
 *   1. a UAS alternate setting (class 8, subclass 6, protocol 0x62);
 *   2. pipe-usage descriptors for all four pipes;
 *   3. quirks: unusual_uas.h (usb-storage's probe: its unusual_devs.h
 *      entry instead, whose IGNORE_UAS keeps the device), then by code
 *      the ASMedia heuristic (its
 *      bMaxPower test for ASM1153 came with "uas: Do not blacklist ASM1153
 *      disk enclosures", Jan 2015, 3.19), Seagate NO_ATA_1X and RTL9210
 *      "HIKSEMI MD202" IGNORE_UAS (both in 6.1; older kernels may lack
 *      them), then the "quirks" module parameter, whose entry replaces
 *      every flag it can express (usb_stor_adjust_quirks());
 *   4. IGNORE_UAS -> usb-storage;
 *   5. a bus without scatter-gather (sg_tablesize == 0);
 *   6. a SuperSpeed device on a host without streams (can_do_streams).
 * What the kernel actually did (the bound driver) beats what we infer.
 *
 * Pure: no I/O, no logging.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "quirks.h"
#include "uas.h"

static const char *const uas_reason_names[] = {
	[UAS_REASON_ACTIVE]		= "active",
	[UAS_REASON_NO_UAS_ALTSETTING]	= "no-uas-altsetting",
	[UAS_REASON_NO_PIPE_USAGE]	= "no-pipe-usage",
	[UAS_REASON_QUIRK_IGNORE_UAS]	= "quirk-ignore-uas",
	[UAS_REASON_ASMEDIA_HEURISTIC]	= "asmedia-heuristic",
	[UAS_REASON_HCD_NO_SG]		= "hcd-no-sg",
	[UAS_REASON_HCD_NO_STREAMS]	= "hcd-no-streams",
	[UAS_REASON_UAS_DRIVER_MISSING]	= "uas-driver-missing",
	[UAS_REASON_UNKNOWN]		= "unknown",
};

/* The stable reason code, as printed and in JSON. */
const char *uas_reason_name(enum uas_reason r)
{
	if ((unsigned int)r >= sizeof(uas_reason_names) /
			       sizeof(uas_reason_names[0]))
		return "unknown";
	return uas_reason_names[r];
}

const char *uas_quirk_source_name(enum uas_quirk_source s)
{
	switch (s) {
	case UAS_QUIRK_BUILTIN:
		return "kernel built-in (unusual_uas.h)";
	case UAS_QUIRK_BUILTIN_DEVS:
		return "kernel built-in (usb-storage's unusual_devs.h)";
	case UAS_QUIRK_DETECT:
		return "kernel built-in (uas-detect.h)";
	case UAS_QUIRK_PARAM:
		return "module parameter usb-storage quirks";
	case UAS_QUIRK_CMDLINE:
		return "kernel command line usb-storage.quirks=";
	}
	return "unknown";
}

static void uas_text(char *buf, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void uas_text(char *buf, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, UAS_TEXT_MAX, fmt, ap);
	va_end(ap);
}

/* Quirk flags with the source that set each bit. */
struct uas_flagset {
	unsigned long flags;
	enum uas_quirk_source source[32];
	bool asmedia;			/* the ASMedia code set IGNORE_UAS */
	bool asmedia_speed;		/* ...would, were the speed known */
};

static void uas_flagset_add(struct uas_flagset *fs, unsigned long flags,
			    enum uas_quirk_source src)
{
	unsigned int b;

	for (b = 0; b < 32; b++)
		if (flags & (1ul << b)) {
			fs->flags |= 1ul << b;
			fs->source[b] = src;
		}
}

static unsigned int uas_flag_bit(unsigned long flag)
{
	unsigned int b;

	for (b = 0; b < 32; b++)
		if (flag == 1ul << b)
			return b;
	return 0;
}

static bool uas_is_asmedia_shared_id(const struct uas_facts *f)
{
	return f->vid == 0x174c && (f->pid == 0x5106 || f->pid == 0x55aa);
}

/*
 * Step 3: the flags uas_use_uas_driver() ends up with.  Only meaningful
 * for a device that passed steps 1 and 2, as in the kernel; for other
 * devices the module parameter still applies (usb-storage reads it too).
 */
static void uas_compute_flags(const struct uas_facts *f, bool uas_candidate,
			      struct uas_flagset *fs)
{
	enum uas_quirk_source psrc = f->param_from_cmdline ?
				     UAS_QUIRK_CMDLINE : UAS_QUIRK_PARAM;
	unsigned int b;

	memset(fs, 0, sizeof(*fs));
	if (uas_candidate) {
		if (f->builtin_match)
			uas_flagset_add(fs, f->builtin_flags,
					UAS_QUIRK_BUILTIN);
		if (uas_is_asmedia_shared_id(f)) {
			if (f->max_power == 0) {
				/* ASM1153: nothing */
			} else if (!f->speed_mbps && f->status_streams != 32) {
				/*
				 * IGNORE_UAS below SuperSpeed, MAX_SECTORS_240
				 * at it: an unknown speed leaves it open
				 */
				fs->asmedia_speed = true;
			} else if (f->speed_mbps < 5000 ||
				   f->status_streams == 32) {
				uas_flagset_add(fs, QUIRKS_FL_IGNORE_UAS,
						UAS_QUIRK_DETECT);
				fs->asmedia = true;
			} else {
				uas_flagset_add(fs, QUIRKS_FL_MAX_SECTORS_240,
						UAS_QUIRK_DETECT);
			}
		}
		if (f->vid == 0x0bc2)
			uas_flagset_add(fs, QUIRKS_FL_NO_ATA_1X,
					UAS_QUIRK_DETECT);
		if (f->vid == 0x0bda && f->pid == 0x9210 &&
		    !strcmp(f->manufacturer, "HIKSEMI") &&
		    !strcmp(f->product, "MD202"))
			uas_flagset_add(fs, QUIRKS_FL_IGNORE_UAS,
					UAS_QUIRK_DETECT);
	}
	if (f->param_match) {
		fs->flags &= ~QUIRKS_PARAM_MASK;
		fs->asmedia_speed = false;
		if (!(fs->flags & QUIRKS_FL_IGNORE_UAS))
			fs->asmedia = false;
		uas_flagset_add(fs, f->param_flags, psrc);
	}
	/*
	 * usb-storage, registered first (uas needs its symbols), probes
	 * first and calls uas_use_uas_driver() with its own entry's flags:
	 * IGNORE_UAS there keeps the device on usb-storage whatever uas's
	 * table says.  The parameter replaces it there too.  Its other
	 * flags are usb-storage's business, not the uas verdict's.
	 */
	if (uas_candidate && f->devs_match && !f->param_match &&
	    (f->devs_flags & QUIRKS_FL_IGNORE_UAS) &&
	    !(fs->flags & QUIRKS_FL_IGNORE_UAS))
		uas_flagset_add(fs, QUIRKS_FL_IGNORE_UAS,
				UAS_QUIRK_BUILTIN_DEVS);
	b = uas_flag_bit(QUIRKS_FL_IGNORE_UAS);
	if (fs->asmedia && fs->source[b] != UAS_QUIRK_DETECT)
		fs->asmedia = false;
}

static void uas_list_quirks(const struct uas_flagset *fs,
			    struct uas_verdict *v)
{
	unsigned int b;

	v->flags = fs->flags;
	for (b = 0; b < 32 && v->nquirks < UAS_MAX_QUIRKS; b++) {
		if (!(fs->flags & (1ul << b)))
			continue;
		v->quirks[v->nquirks].flag = 1ul << b;
		v->quirks[v->nquirks].source = fs->source[b];
		v->nquirks++;
	}
}

static const char *uas_missing_pipes(unsigned int pipes, char *buf,
				     size_t len)
{
	static const char *const names[] = {
		"command", "status", "data-in", "data-out"
	};
	size_t off = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < 4; i++) {
		int n;

		if (pipes & (1u << i))
			continue;
		n = snprintf(buf + off, len - off, "%s%s (%u)",
			     off ? ", " : "", names[i], i + 1);
		if (n < 0 || (size_t)n >= len - off)
			break;
		off += (size_t)n;
	}
	return buf;
}

static void uas_decide_active(const struct uas_facts *f,
			      const struct uas_flagset *fs,
			      struct uas_verdict *v)
{
	const char *kept = "";
	char late[256] = "";

	v->reason = UAS_REASON_ACTIVE;
	v->uas_active = true;
	v->streams = f->speed_mbps >= 5000;
	if (fs->flags & QUIRKS_FL_NO_ATA_1X)
		kept = " NO_ATA_1X is in effect: SAT pass-through (smartctl -d sat, hdparm) is refused.";
	else if (fs->flags & (QUIRKS_FL_BROKEN_FUA |
			      QUIRKS_FL_NO_REPORT_OPCODES |
			      QUIRKS_FL_MAX_SECTORS_240))
		kept = " Quirks keep UAS but change behaviour (see quirks).";

	if (fs->flags & QUIRKS_FL_IGNORE_UAS)
		snprintf(late, sizeof(late),
			 " IGNORE_UAS is set now (%s) but came after the device was bound: it takes effect when the device is probed again.",
			 f->param_entry[0] ? f->param_entry : "built in");
	if (v->streams)
		uas_text(v->detail,
			 "The uas driver is bound; %u Mbit/s SuperSpeed link with bulk streams (the device offers %u).%s%s",
			 f->speed_mbps, f->max_streams, kept, late);
	else if (f->speed_mbps)
		uas_text(v->detail,
			 "The uas driver is bound; UAS without streams: a %u Mbit/s link has no bulk streams (they exist only at SuperSpeed), so uas moves data for one command at a time, after the device's READ/WRITE READY (queue depth 32).%s%s",
			 f->speed_mbps, kept, late);
	else
		uas_text(v->detail, "The uas driver is bound.%s%s", kept, late);
	if (late[0])
		uas_text(v->next_step,
			 "Replug the device (or unbind it from uas and write its interface to /sys/bus/usb/drivers_probe) for the quirk to apply; remove %s from usb-storage.quirks to keep UAS.",
			 f->param_entry[0] ? f->param_entry : "the entry");
	else
		uas_text(v->next_step,
			 "Nothing to fix. To compare with Bulk-Only Transport, boot with usb-storage.quirks=%04x:%04x:u (or write it to /sys/module/usb_storage/parameters/quirks) and replug; remove it afterwards.",
			 f->vid, f->pid);
}

static void uas_decide_ignored(const struct uas_facts *f,
			       const struct uas_flagset *fs,
			       struct uas_verdict *v)
{
	enum uas_quirk_source src =
		fs->source[uas_flag_bit(QUIRKS_FL_IGNORE_UAS)];

	if (fs->asmedia) {
		v->reason = UAS_REASON_ASMEDIA_HEURISTIC;
		if (f->speed_mbps && f->speed_mbps < 5000)
			uas_text(v->detail,
				 "ASMedia bridge %04x:%04x with bMaxPower %u (not 0, so not an ASM1153) on a %u Mbit/s link: without stream counts the kernel assumes an ASM1051 with broken UAS and sets IGNORE_UAS (uas-detect.h).",
				 f->vid, f->pid, f->max_power, f->speed_mbps);
		else
			uas_text(v->detail,
				 "ASMedia bridge %04x:%04x with bMaxPower %u (not 0, so not an ASM1153) whose status pipe offers 32 streams: the kernel takes it for an ASM1051 with broken UAS and sets IGNORE_UAS (uas-detect.h).",
				 f->vid, f->pid, f->max_power);
		uas_text(v->next_step,
			 "If the bridge is really an ASM1053/ASM1153 and you want to test UAS, boot with usb-storage.quirks=%04x:%04x: (an entry with no flags replaces the heuristic's) and replug; go back if commands time out.",
			 f->vid, f->pid);
		return;
	}
	v->reason = UAS_REASON_QUIRK_IGNORE_UAS;
	switch (src) {
	case UAS_QUIRK_PARAM:
	case UAS_QUIRK_CMDLINE:
		uas_text(v->detail,
			 "The quirk IGNORE_UAS ('u') comes from the %s (entry %s): the kernel does not use uas; usb-storage takes the device if it also offers Bulk-Only (driver now: %s).",
			 uas_quirk_source_name(src), f->param_entry,
			 f->driver[0] ? f->driver : "none");
		uas_text(v->next_step,
			 "To enable UAS remove %s from usb-storage.quirks (%s), then replug.",
			 f->param_entry, src == UAS_QUIRK_CMDLINE ?
			 "kernel command line" :
			 "/etc/modprobe.d or /sys/module/usb_storage/parameters/quirks");
		break;
	case UAS_QUIRK_BUILTIN_DEVS:
		uas_text(v->detail,
			 "The kernel disables UAS for %04x:%04x on purpose: usb-storage's own table (unusual_devs.h) sets IGNORE_UAS for it, so usb-storage, which probes first, keeps the device instead of stepping back for uas, because UAS was reported broken on this device.",
			 f->vid, f->pid);
		uas_text(v->next_step,
			 "Keep it. Only to test a newer firmware: boot with usb-storage.quirks=%04x:%04x: (no flags: replaces the built-in ones) and replug.",
			 f->vid, f->pid);
		break;
	case UAS_QUIRK_BUILTIN:
	case UAS_QUIRK_DETECT:
		uas_text(v->detail,
			 "The kernel disables UAS for %04x:%04x on purpose: IGNORE_UAS is %s, because UAS was reported broken on this device.",
			 f->vid, f->pid, uas_quirk_source_name(src));
		uas_text(v->next_step,
			 "Keep it. Only to test a newer firmware: boot with usb-storage.quirks=%04x:%04x: (no flags: replaces the built-in ones) and replug.",
			 f->vid, f->pid);
		break;
	}
}

/*
 * The device's side, as the kernel's uas probe checks it: descriptors,
 * a UAS alternate setting, its pipe-usage descriptors.  True when one of
 * them is the verdict.
 */
static bool uas_decide_device(const struct uas_facts *f,
			      struct uas_verdict *v)
{
	char buf[128];

	if (!f->have_descriptors) {
		v->reason = UAS_REASON_UNKNOWN;
		uas_text(v->detail,
			 "The device's descriptors could not be read, so whether it offers UAS is unknown; driver: %s.",
			 f->driver[0] ? f->driver : "none");
		uas_text(v->next_step,
			 "Run again as root, or check that /sys/bus/usb/devices/*/descriptors is readable.");
		return true;
	}
	if (!f->has_uas_alt) {
		v->reason = UAS_REASON_NO_UAS_ALTSETTING;
		uas_text(v->detail,
			 "The device offers no UAS alternate setting (class 8, subclass 6, protocol 0x62), only Bulk-Only Transport; driver: %s.",
			 f->driver[0] ? f->driver : "none");
		uas_text(v->next_step,
			 "Nothing to change on the host: UAS needs an enclosure whose bridge chip (and firmware) supports UASP.");
		return true;
	}
	if (f->pipes != 0xf) {
		v->reason = UAS_REASON_NO_PIPE_USAGE;
		uas_text(v->detail,
			 "The UAS alternate setting %u lacks pipe-usage descriptors for: %s; uas_find_endpoints() rejects it and usb-storage binds.",
			 f->uas_alt, uas_missing_pipes(f->pipes, buf, sizeof(buf)));
		uas_text(v->next_step,
			 "A firmware defect of the bridge: look for a firmware update from the enclosure's vendor; no quirk can add the descriptors.");
		return true;
	}
	return false;
}

/*
 * The checks after the quirks: the ASMedia speed heuristic, then the
 * host's side (scatter-gather, streams, the uas driver).  True when one
 * of them is the verdict.
 */
static bool uas_decide_host(const struct uas_facts *f,
			    const struct uas_flagset *fs,
			    struct uas_verdict *v)
{
	if (fs->asmedia_speed) {
		v->reason = UAS_REASON_UNKNOWN;
		uas_text(v->detail,
			 "ASMedia bridge %04x:%04x with bMaxPower %u (not 0, so not an ASM1153) whose status pipe offers %u streams, on a link of unknown speed: uas-detect.h sets IGNORE_UAS below SuperSpeed and MAX_SECTORS_240 at it, so the verdict depends on a speed usbtrail could not read; driver: %s.",
			 f->vid, f->pid, f->max_power, f->status_streams,
			 f->driver[0] ? f->driver : "none");
		uas_text(v->next_step,
			 "Read the speed with lsusb -t, or replug and look at the kernel log (dmesg | grep -i uas): \"UAS is ignored for this device\" is the heuristic.");
		return true;
	}
	if (f->hcd_sg == UAS_NO) {
		v->reason = UAS_REASON_HCD_NO_SG;
		uas_text(v->detail,
			 "The host controller driver %s does not do scatter-gather (bus sg_tablesize 0), which uas requires.",
			 f->hcd_driver[0] ? f->hcd_driver : "(unknown)");
		uas_text(v->next_step,
			 "Plug the enclosure into an xHCI (USB 3) or EHCI port; on this controller it can only use usb-storage.");
		return true;
	}
	if (f->speed_mbps >= 5000 && f->hcd_streams == UAS_NO) {
		v->reason = UAS_REASON_HCD_NO_STREAMS;
		uas_text(v->detail,
			 "SuperSpeed device on a host controller without bulk streams (%s): %s.",
			 f->hcd_name[0] ? f->hcd_name : f->hcd_driver,
			 f->hcd_streams_evidence[0] ?
			 f->hcd_streams_evidence : "no evidence recorded");
		uas_text(v->next_step,
			 "Use a port of another controller (for example the chipset's own USB 3 ports); at USB 2.0 speed this controller would run UAS without streams.");
		return true;
	}
	if (f->uas_driver == UAS_DRIVER_NOT_LOADED ||
	    f->uas_driver == UAS_DRIVER_ABSENT) {
		v->reason = UAS_REASON_UAS_DRIVER_MISSING;
		uas_text(v->detail,
			 "Every check passes, but the uas driver is %s; driver now: %s.",
			 f->uas_driver == UAS_DRIVER_ABSENT ?
			 "neither loaded nor installed (kernel without CONFIG_USB_UAS?)" :
			 "not loaded (blacklisted?)",
			 f->driver[0] ? f->driver : "none");
		uas_text(v->next_step,
			 "Run modprobe uas (check /etc/modprobe.d for a blacklist entry), or install a kernel built with CONFIG_USB_UAS, then replug.");
		return true;
	}
	return false;
}

/* Every check passed or could not be made, and uas is not bound. */
static void uas_decide_unexplained(const struct uas_facts *f,
				   struct uas_verdict *v)
{
	v->reason = UAS_REASON_UNKNOWN;
	if (f->hcd_sg == UAS_UNKNOWN ||
	    (f->speed_mbps >= 5000 && f->hcd_streams == UAS_UNKNOWN) ||
	    f->uas_driver == UAS_DRIVER_STATE_UNKNOWN)
		uas_text(v->detail,
			 "The device offers UAS and no quirk disables it, but usbtrail could not establish %s; driver: %s.",
			 f->hcd_sg == UAS_UNKNOWN ?
			 "whether the host controller does scatter-gather" :
			 f->uas_driver == UAS_DRIVER_STATE_UNKNOWN ?
			 "whether the uas driver is available" :
			 "whether the host controller has streams",
			 f->driver[0] ? f->driver : "none");
	else
		uas_text(v->detail,
			 "Every check the kernel makes passes, yet the interface is bound to %s, not uas: the quirks may have changed since it was bound, or the kernel differs from 6.1 in its checks.",
			 f->driver[0] ? f->driver : "no driver");
	uas_text(v->next_step,
		 "Replug the device and look at the kernel log (dmesg | grep -i uas) for the kernel's own reason.");
}

/**
 * uas_decide() - the verdict for one mass-storage interface
 * @f: the facts; unknown ones are UAS_UNKNOWN or empty
 * @v: the verdict, written in full
 *
 * Return: 0, or -EINVAL if @f or @v is NULL.
 */
int uas_decide(const struct uas_facts *f, struct uas_verdict *v)
{
	struct uas_flagset fs;
	bool candidate;

	if (!f || !v)
		return -EINVAL;
	memset(v, 0, sizeof(*v));

	candidate = f->have_descriptors && f->has_uas_alt && f->pipes == 0xf;
	v->uas_capable = candidate;
	uas_compute_flags(f, candidate, &fs);
	uas_list_quirks(&fs, v);

	if (!strcmp(f->driver, "uas")) {
		if (!f->have_descriptors)
			v->uas_capable = true;
		uas_decide_active(f, &fs, v);
		return 0;
	}
	if (uas_decide_device(f, v))
		return 0;
	if (fs.flags & QUIRKS_FL_IGNORE_UAS) {
		uas_decide_ignored(f, &fs, v);
		return 0;
	}
	if (uas_decide_host(f, &fs, v))
		return 0;
	uas_decide_unexplained(f, v);
	return 0;
}
