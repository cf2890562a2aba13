/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mitigate.h - apply a mitigation to one USB disk live, and put the system
 * back as it was: the usb-storage "quirks" module parameter with a rebind
 * of the interface (the kernel reads the quirks at probe time), and the
 * disk's queue/max_sectors_kb.
 *
 * Before the first change, what it will change is written to a state file
 * (default MITIGATE_STATE_PATH, on /run: a reboot resets the parameter and
 * the state with it).  mitigate_restore() puts it back and removes the
 * file; a run that was killed leaves the file, and mitigate_recover() of
 * the next run restores from it.  For "usbtrail repro" (cmd_repro.c).
 */
#ifndef USBTRAIL_MITIGATE_H
#define USBTRAIL_MITIGATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MITIGATE_STATE_PATH	"/run/usbtrail/repro.state"
#define MITIGATE_PARAM		"/sys/module/usb_storage/parameters/quirks"
#define MITIGATE_PARAM_MAX	4096	/* the kernel's: 128 bytes a page */
#define MITIGATE_NAME_MAX	48

struct mitigate_state {
	char path[256];			/* the state file */
	char iface[MITIGATE_NAME_MAX];	/* "2-1:1.0" */
	uint16_t vid, pid;
	long pid_owner;			/* the run that wrote it */
	bool have_param;
	char param[MITIGATE_PARAM_MAX];	/* the quirks parameter before */
	char driver[32];		/* the interface's driver before */
	unsigned int attr[2];		/* by mitigate_attr: before; 0 unchanged */
	bool offline;			/* the disk set offline: running again */
	bool changed;			/* something was changed since begin */
};

/*
 * Remember what may change for interface @iface (VID:PID @vid:@pid) in
 * @st and write the state file @path (NULL: MITIGATE_STATE_PATH).
 * -EEXIST if a live run holds the file.
 */
int mitigate_begin(struct mitigate_state *st, const char *path,
		   const char *iface, uint16_t vid, uint16_t pid);

/*
 * The quirks parameter with @vid:@pid's entries (as quirks_param_lookup()
 * reads them) replaced by one of @flags ("" or NULL: none), into @out;
 * every other device's entry is kept.
 */
int mitigate_param_with(const char *param, uint16_t vid, uint16_t pid,
			const char *flags, char *out, size_t len);

/*
 * Set @flags (quirk letters, "" for none) for the disk, on top of its
 * entry in the parameter as it was at mitigate_begin() (the user's own
 * flags stay), and probe its interface again; the new driver in @driver.
 */
int mitigate_quirk(struct mitigate_state *st, const char *flags,
		   char *driver, size_t len);

/*
 * The interface off its driver, as an unplug is (the disk goes); what
 * mitigate_restore() binds again if nothing else does.  For a workload
 * that is the probe itself: mitigate_bind() then probes it again.
 */
int mitigate_unbind(struct mitigate_state *st);

/*
 * Interface @iface handed to drivers_probe, which binds it to the driver
 * the quirks say (uas or usb-storage), as a plug does; that driver in
 * @driver (may be NULL).  It writes no state: mitigate_unbind() did.
 */
int mitigate_bind(const char *iface, char *driver, size_t len);

/* What mitigate_disk_attr() sets: a file of /sys/block/DISK/ */
enum mitigate_attr {
	MITIGATE_MAX_SECTORS_KB,	/* queue/max_sectors_kb */
	MITIGATE_CMD_TIMEOUT,		/* device/timeout, seconds */
};

/* attribute @a of block device @disk ("sda") to @v */
int mitigate_disk_attr(struct mitigate_state *st, const char *disk,
		       enum mitigate_attr a, unsigned int v);

/*
 * The SCSI device of block device @disk ("sda") offline (@offline) or
 * running again: a failing run cut short.  Offline, the error handler
 * ends the commands it holds at the end of its round instead of retrying
 * them (scsi_eh_flush_done_q() retries on a device online only), and new
 * ones fail at once; running again, the kernel rescans it.  Offline is
 * set only from running (-EBUSY otherwise: the kernel's own state is
 * left alone) and is kept in the state file first: the restore sets the
 * disk running again.
 */
int mitigate_disk_offline(struct mitigate_state *st, const char *disk,
			  bool offline);

/* The disk of @iface now ("sdb") into @disk, "" if none */
void mitigate_disk_of(const char *iface, char *disk, size_t len);

/*
 * Put back what @st changed (the parameter, the driver, max_sectors_kb,
 * the timeout of the interface's disk, its state) and remove the state
 * file; the
 * interface is probed again only if its parameter or its driver differs
 * from before.  @why (may be NULL) gets what could not be restored.  It
 * allocates nothing.
 */
int mitigate_restore(struct mitigate_state *st, char *why, size_t len);

/*
 * A state file left by a run that is gone: restore from it.  Returns 1 if
 * it restored, 0 if there was none, -EBUSY if its run is alive, or a
 * negative errno (@why says what).
 */
int mitigate_recover(const char *path, char *why, size_t len);

#endif /* USBTRAIL_MITIGATE_H */
