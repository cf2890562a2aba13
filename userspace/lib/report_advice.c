// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_advice.c - what to try next per kind of incident (the advice
 * analyze, report and the HTML report give), and serials as a report
 * shows them (hashed).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "report_advice.h"

enum {
	REPORT_ADV_MEDIUM,
	REPORT_ADV_NOT_READY,
	REPORT_ADV_MEDIUM_ERROR,
	REPORT_ADV_HW_ERROR,
	REPORT_ADV_SENSE,
	REPORT_ADV_RESET_CHAIN,
	REPORT_ADV_IO_ERROR,
	REPORT_ADV_DISCONNECT,
	REPORT_ADV_OFFLINE,
	REPORT_ADV_HC_DIED,
	REPORT_ADV_ENUM,
	REPORT_ADV_UAS_IGNORED,
	REPORT_ADV_OVER_CURRENT,
	REPORT_ADV_XHCI,
	REPORT_ADV_XHCI_HOST,
	REPORT_ADV_FS,
	REPORT_ADV_DIP,
	REPORT_ADV_SUPPRESSED,
	REPORT_ADV_LINK,
	REPORT_ADV_POWER,
	REPORT_ADV_UNDERVOLTAGE,
	REPORT_ADV_COUNT
};

#define REPORT_TRIES(...)	((const char *const[]){ __VA_ARGS__, NULL })

static const struct report_advice report_advices[REPORT_ADV_COUNT] = {
	[REPORT_ADV_MEDIUM] = {
		"Medium not present (sense 02/3a/00)",
		"The USB bridge answered for a drive it could no longer see: "
		"the bridge lost its drive, usually for lack of power or a "
		"loose SATA/NVMe connection inside the enclosure, sometimes a "
		"drive that spun down and did not come back.",
		REPORT_TRIES(
			"Check the power: use the enclosure's own power supply, "
			"or a powered USB hub; a 2.5\" disk on a bus-powered "
			"port may draw more than the port gives.",
			"Reseat the drive in the enclosure; try another cable.",
			"Repeat the same write with 'usbtrail record -- "
			"usbtrail stress' and see whether it fails at the same "
			"place (a drive fault) or anywhere (power)."),
	},
	[REPORT_ADV_NOT_READY] = {
		"Not ready (sense key 02)",
		"The device said it was not ready for the command.",
		REPORT_TRIES(
			"Check the drive's power and spin-up; try a powered hub.",
			"Look at the ASC text: it says what the device was "
			"waiting for."),
	},
	[REPORT_ADV_MEDIUM_ERROR] = {
		"Medium error (sense key 03)",
		"The drive itself could not read or write a sector.",
		REPORT_TRIES(
			"Read the drive's SMART data (smartctl -a -d sat "
			"/dev/sdX) and back up what you can.",
			"The USB link is not the cause: another cable or port "
			"will not help."),
	},
	[REPORT_ADV_HW_ERROR] = {
		"Hardware error (sense key 04)",
		"The device or its bridge reported an internal fault.",
		REPORT_TRIES(
			"Check SMART data (smartctl -d sat).",
			"Try the drive in another enclosure to tell the bridge "
			"from the drive."),
	},
	[REPORT_ADV_SENSE] = {
		"SCSI sense data",
		"The device rejected or failed a command and said why.",
		REPORT_TRIES(
			"See the decoded key and ASC; 'Illegal Request' on a "
			"command the bridge does not support is often harmless."),
	},
	[REPORT_ADV_RESET_CHAIN] = {
		"Command timeout, abort and reset chain",
		"A command did not complete in time; the SCSI error handler "
		"aborted the commands in flight and reset the device.  On UAS "
		"this is the classic sign of a bridge whose UAS firmware "
		"misbehaves, of a marginal link, or of a drive that stalled "
		"(power, thermal).",
		REPORT_TRIES(
			"Run an A/B test with the 'u' quirk: boot with "
			"usb-storage.quirks=VID:PID:u (or write it to "
			"/sys/module/usb_storage/parameters/quirks and replug), "
			"record the same workload, compare the two reports "
			"(docs/user-guide.md).  'usbtrail uas' explains the "
			"quirk for this device.",
			"Use another port (another controller if the machine "
			"has one) and another, short cable.",
			"Put a powered hub between the computer and the "
			"enclosure.",
			"If the quirk cures it, report the bridge's VID:PID to "
			"linux-usb@vger.kernel.org with the bundle "
			"(usbtrail report --bundle)."),
	},
	[REPORT_ADV_IO_ERROR] = {
		"I/O error reported to the block layer",
		"The kernel gave up on a request and returned an error to the "
		"program; the incident just before it (sense, reset) is the "
		"cause.",
		REPORT_TRIES(
			"Follow the advice for the incident before it.",
			"Check the file system afterwards (fsck) once the cause "
			"is fixed."),
	},
	[REPORT_ADV_DISCONNECT] = {
		"Device disconnected",
		"The device dropped off the bus: a replug, a power loss, or "
		"a link failure.",
		REPORT_TRIES(
			"If nobody unplugged it: check power (powered hub, the "
			"enclosure's own supply) and the cable.",
			"Try another port."),
	},
	[REPORT_ADV_OFFLINE] = {
		"Disk set offline",
		"Recovery failed and the kernel stopped using the disk.",
		REPORT_TRIES(
			"Replug the enclosure; follow the advice for the reset "
			"chain before it.",
			"Try the 'u' quirk A/B test and a powered hub."),
	},
	[REPORT_ADV_HC_DIED] = {
		"Host controller died",
		"The USB host controller stopped responding; every device on "
		"it was lost.",
		REPORT_TRIES(
			"If the controller is in a dock or Thunderbolt device "
			"that was unplugged then, its death is the unplug's "
			"(the kernel finds it gone): nothing to do.",
			"Update the kernel and the machine's firmware.",
			"Use a port of another controller.",
			"Report it to linux-usb@vger.kernel.org with the bundle: "
			"the controller's PCI ID is in it."),
	},
	[REPORT_ADV_ENUM] = {
		"Device could not be enumerated",
		"The device did not answer its address or descriptor requests.",
		REPORT_TRIES(
			"Try another cable and port; a powered hub.",
			"Connect it directly, without a hub or dock."),
	},
	[REPORT_ADV_UAS_IGNORED] = {
		"UAS ignored by a kernel quirk",
		"The kernel knows this bridge and runs it with usb-storage "
		"(Bulk-Only) on purpose.",
		REPORT_TRIES(
			"Nothing to do; 'usbtrail uas' names the quirk."),
	},
	[REPORT_ADV_OVER_CURRENT] = {
		"Over-current on a port",
		"A port or hub cut power because the device drew too much.",
		REPORT_TRIES(
			"Use a powered hub or the enclosure's own power supply.",
			"Check the cable and the port for damage."),
	},
	[REPORT_ADV_LINK] = {
		"USB port or link errors",
		"The hub could not keep the link to a working device: it "
		"disabled the port (EMI), could not enable or disable it, or "
		"link power management (U1/U2) failed.  These point at the "
		"cable, the port or electrical noise, sometimes at a device "
		"whose link power management is broken.",
		REPORT_TRIES(
			"Another short cable and another port; a powered hub.",
			"If U1/U2 lines are among them, try the 'k' quirk "
			"(no LPM): usb-storage.quirks=VID:PID:k, or "
			"usbcore.quirks=VID:PID:k for any device."),
	},
	[REPORT_ADV_POWER] = {
		"Not enough bus power",
		"The hub had less power left than the device asks for in its "
		"configuration, so the kernel did not configure it.",
		REPORT_TRIES(
			"Use a powered hub or the enclosure's own power supply.",
			"Connect the device directly to the computer."),
	},
	[REPORT_ADV_UNDERVOLTAGE] = {
		"Under-voltage (the board's supply)",
		"The Raspberry Pi's firmware saw its 5 V supply sag: the disks "
		"on its USB ports brown out, then reset or drop off the bus.",
		REPORT_TRIES(
			"Use the board's own power supply (5.1 V, and 5 A for "
			"a Raspberry Pi 5 with USB disks) and a short cable.",
			"Power the disk separately: the enclosure's own supply "
			"or a powered USB hub.",
			"'vcgencmd get_throttled' says whether it happened since "
			"boot (bit 16) and now (bit 0)."),
	},
	[REPORT_ADV_XHCI] = {
		"xHCI transfer errors",
		"The host controller completed transfers with an error code "
		"(see the completion-code table): USB Transaction Errors point "
		"at the link (cable, port, power), Stall and Babble at the "
		"device.",
		REPORT_TRIES(
			"Another cable and port; a powered hub.",
			"Compare the per-endpoint table of a run with the 'u' "
			"quirk."),
	},
	[REPORT_ADV_XHCI_HOST] = {
		"xHCI controller errors",
		"The host controller driver reported trouble with the "
		"controller itself, not with a transfer: it did not come up "
		"(can't setup, init fail), did not answer a command in time, "
		"signalled a Host System Error, or its view of an endpoint or "
		"its streams went wrong.  These point at the controller, its "
		"firmware or its PCIe link more than at the device.",
		REPORT_TRIES(
			"Update the controller's firmware where it has its own "
			"(Renesas uPD720201/202 cards; the Raspberry Pi 4's "
			"VL805 with rpi-eeprom-update) and the machine's.",
			"Use a port of another controller, if the machine has "
			"one, and compare.",
			"Report the controller (lspci -nn) and the log to "
			"linux-usb@vger.kernel.org (usbtrail report --bundle)."),
	},
	[REPORT_ADV_FS] = {
		"File system error",
		"The file system found damage, often after the I/O errors "
		"before it.",
		REPORT_TRIES(
			"Fix the hardware cause first, then run fsck."),
	},
	[REPORT_ADV_DIP] = {
		"Throughput dip",
		"The disk's throughput fell well below its median with I/O "
		"waiting: the device stalled (a timeout chain, thermal "
		"throttling, an SMR drive rewriting, a full write cache).",
		REPORT_TRIES(
			"See which incidents fall inside the shaded part of the "
			"plot; without any, suspect the drive itself (cache, "
			"SMR, temperature).",
			"Repeat with 'usbtrail stress' to see whether it comes "
			"back at the same offset."),
	},
	[REPORT_ADV_SUPPRESSED] = {
		"Kernel messages suppressed",
		"The kernel dropped messages to limit the log rate: the "
		"recording may lack lines the trace records still show.",
		REPORT_TRIES(
			"Trust the trace records and the incident counts more "
			"than the log lines for this part."),
	},
};

int report_advice_id(const struct ev *inc)
{
	return report_advice_of(&inc->u.incident.inc);
}

bool report_advice_wants_quirk(int id)
{
	return id == REPORT_ADV_RESET_CHAIN || id == REPORT_ADV_OFFLINE ||
	       id == REPORT_ADV_XHCI;
}

/* The "advice" column of classify.h's table of kinds */
static const int report_advice_by_kind[CLASSIFY_KIND_COUNT] = {
#define REPORT_ADVICE_OF(id, name, class, advice, carries)		\
	[CLASSIFY_##id] = REPORT_ADV_##advice,
	CLASSIFY_KINDS(REPORT_ADVICE_OF)
#undef REPORT_ADVICE_OF
};

int report_advice_of(const struct classify_incident *c)
{
	if ((unsigned int)c->kind >= CLASSIFY_KIND_COUNT)
		return REPORT_ADV_SUPPRESSED;
	/* a sense incident's advice depends on what the drive said */
	if (c->kind == CLASSIFY_SENSE) {
		if (c->key == 2 && c->asc == 0x3a)
			return REPORT_ADV_MEDIUM;
		if (c->key == 2)
			return REPORT_ADV_NOT_READY;
		if (c->key == 3)
			return REPORT_ADV_MEDIUM_ERROR;
		if (c->key == 4)
			return REPORT_ADV_HW_ERROR;
	}
	/* the board's supply (rpi-* rows), not a port's budget */
	if (c->kind == CLASSIFY_POWER && !strncmp(c->row, "rpi-", 4))
		return REPORT_ADV_UNDERVOLTAGE;
	/* an xHCI error with no completion code is the controller's */
	if (c->kind == CLASSIFY_XHCI_ERROR && c->code < 0)
		return REPORT_ADV_XHCI_HOST;
	return report_advice_by_kind[c->kind];
}

const struct report_advice *report_advice_get(int id)
{
	if (id < 0 || id >= REPORT_ADV_COUNT)
		return NULL;
	return &report_advices[id];
}

void report_serial(const char *serial, bool keep, char *buf, size_t len)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0, i;
	size_t n;

	if (keep || !serial[0]) {
		snprintf(buf, len, "%s", serial);
		return;
	}
	if (!EVP_Digest(serial, strlen(serial), md, &mdlen, EVP_sha256(),
			NULL) || mdlen < 8) {
		snprintf(buf, len, "(hidden)");
		return;
	}
	n = (size_t)snprintf(buf, len, "sha256:");
	for (i = 0; i < 8 && n + 2 < len; i++, n += 2)
		snprintf(buf + n, len - n, "%02x", md[i]);
}
