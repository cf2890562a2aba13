# SPDX-License-Identifier: GPL-2.0-only
"""--bridge NAME: enclosures that fail the way real USB-SATA bridges fail.

A bridge is QEMU's usb-uas built with usbtrail's patch
(tools/testbed/qemu/): with bot=on its interface has alternate setting 0
Bulk-Only (protocol 0x50) and alternate setting 1 UAS (0x62, bulk
streams at SuperSpeed), so the guest's usb-storage and uas drivers choose
between them as on hardware, and a usb-storage quirk `u` is a real
fallback to BOT.  A personality is a set of defects; it takes any VID:PID
(`--bridge NAME,vidpid=VVVV:PPPP`), so nothing in the guest can look its
identity up in a table.  The default VID:PID is in no quirk table.

Each defect is one the kernel's quirk tables or smartmontools' drivedb
describe for real bridges; `sources` cites them.  The defects that live
in the protocol are the device's (x-* properties of the patched usb-uas,
which says on stderr, in qemu.log, each time one acts: "bridge bridge:
..."); those of the disk behind the bridge (write collapse, brown-out)
are driven from the host through QMP by testbed.runner, like --fault,
and logged to faults.log.
"""

import re

# In no table of unusual_uas.h, unusual_devs.h or usb/core/quirks.c: QEMU's
# vendor id (CRC16 of "QEMU"), a product id QEMU's own devices do not use.
DEFAULT_VIDPID = "46f4:0b00"

# The SCSI identity of the disk behind every bridge (scsi-hd's INQUIRY).
DISK_VENDOR = "ATA"
DISK_PRODUCT = "usbtrail SSD"


class Personality:
    def __init__(self, name, summary, props=None, host=None, fix=None,
                 field=None, sources=()):
        self.name = name
        self.summary = summary
        # the usb-uas properties of the defect (bot=on always)
        self.props = dict(props or {})
        # defects driven from the host: {"collapse": {...}} or
        # {"brownout": {...}}
        self.host = dict(host or {})
        # how the kernel is told to live with it, or None (detect only)
        self.fix = fix
        # what the guest's kernel logs when it meets the defect (regexes)
        self.field = list(field or [])
        self.sources = list(sources)


BRIDGES = [
    Personality(
        "healthy",
        "a bridge with no defect, as the control: every workload passes "
        "over UAS and over BOT",
        fix=None,
        sources=["the behaviour of usb-uas and usb-storage-dev in QEMU "
                 "7.2, unchanged"]),
    Personality(
        "uas-load",
        "UAS breaks under load: a command completes but its status IU is "
        "never sent on its stream, once in a while when 4 or more "
        "commands are in flight; BOT on the same bridge works",
        props={"x-lose-status-depth": 4, "x-lose-status-interval": 40},
        fix="usb-storage quirk u (US_FL_IGNORE_UAS): the bridge runs on "
            "BOT",
        field=[r"uas_eh_abort_handler 0 uas-tag \d+ inflight:",
               r"uas_eh_device_reset_handler start",
               r"reset SuperSpeed USB device number \d+ using xhci_hcd"],
        sources=['drivers/usb/storage/unusual_uas.h (6.12): 0984:0301 Apricorn, US_FL_IGNORE_UAS, "sometimes returns \\"USBSUSBSUSBS\\" in response to SCSI commands in UAS mode"',
                 'drivers/usb/storage/unusual_uas.h (6.12): 357d:7788 JMicron JMS566, US_FL_NO_REPORT_OPCODES | US_FL_IGNORE_UAS ("UAS Ignore Reported by Steven Ellis")',
                 'drivers/usb/storage/unusual_uas.h (6.12): 2537:1068 Norelsys NS1068X, 090c:2000 Hiksemi, 0b05:1932 ASUS, 17ef:3899 Thinkplus External HDD: US_FL_IGNORE_UAS',
                 'drivers/usb/storage/uas-detect.h (6.12): ASMedia 174c:5106/55aa, "Possibly an ASM1051, disable uas" (US_FL_IGNORE_UAS)']),
    Personality(
        "max-sectors",
        "a READ or WRITE of more than 240 sectors (120 KiB) is never "
        "answered, over UAS and over BOT",
        props={"x-hang-sectors": 240},
        fix="usb-storage quirk g (US_FL_MAX_SECTORS_240) for uas, or "
            "/sys/block/sdX/queue/max_sectors_kb = 120 for either driver",
        field=[r"uas_eh_abort_handler 0 uas-tag \d+ inflight:.*CMD",
               r"reset SuperSpeed USB device number \d+ using xhci_hcd"],
        sources=['drivers/usb/storage/uas-detect.h (6.12): ASMedia 174c:55aa, "ASM1053, these have issues with large transfers": US_FL_MAX_SECTORS_240',
                 'drivers/usb/storage/uas.c (6.12) uas_slave_configure: US_FL_MAX_SECTORS_240 caps max_hw_sectors at 240; usb-storage (scsiglue.c) uses 2048 at SuperSpeed and honours only MAX_SECTORS_64, so over BOT the sysfs max_sectors_kb is the fix']),
    Personality(
        "rsoc",
        "REPORT SUPPORTED OPERATION CODES (MAINTENANCE IN, service action "
        "0Ch) is never answered; the kernel's sd sends it while probing a "
        "disk on uas",
        props={"x-hang-opcodes": "a3/0c"},
        fix="usb-storage quirk f (US_FL_NO_REPORT_OPCODES)",
        field=[r"uas_eh_abort_handler 0 uas-tag \d+ inflight:",
               r"reset SuperSpeed USB device number \d+ using xhci_hcd"],
        sources=['drivers/usb/storage/unusual_uas.h (6.12): 152d:0539 JMicron JMS539, 152d:0583 JMS583Gen 2, 054c:087d Sony PSZ-HA*, 4971:8017 SimpleTech External HDD: US_FL_NO_REPORT_OPCODES',
                 'drivers/usb/storage/unusual_uas.h (6.12): 059f:105f LaCie 2Big Quadra USB3, 059f:1061 Rugged USB3-FW: US_FL_NO_REPORT_OPCODES | US_FL_NO_SAME',
                 'drivers/scsi/sd.c (6.12) sd_read_write_same: scsi_report_opcode() for INQUIRY, WRITE SAME(16) and (10) at every probe unless no_report_opcodes; usb-storage (scsiglue.c) sets no_report_opcodes always, uas only for the quirk']),
    Personality(
        "ata-pt",
        "ATA PASS-THROUGH (12) and (16), as smartctl -d sat and hdparm "
        "send them, are never answered",
        props={"x-hang-opcodes": "85,a1"},
        fix="usb-storage quirk t (US_FL_NO_ATA_1X): the driver answers "
            "them itself with ILLEGAL REQUEST",
        field=[r"uas_eh_abort_handler 0 uas-tag \d+ inflight:",
               r"reset SuperSpeed USB device number \d+ using xhci_hcd"],
        sources=['drivers/usb/storage/unusual_uas.h (6.12): 2109:0711 VIA VL711, 125f:a94a ADATA Portable HDD CH94, 154b:f00b PNY Pro Elite SSD: US_FL_NO_ATA_1X',
                 'drivers/usb/storage/uas-detect.h (6.12): "All Seagate disk enclosures have broken ATA pass-through support" (vendor 0bc2: US_FL_NO_ATA_1X)',
                 'drivers/usb/storage/unusual_uas.h (6.12): 13fd:3940 Initio INIC-3069: US_FL_NO_ATA_1X | US_FL_IGNORE_RESIDUE']),
    Personality(
        "rc16",
        "READ CAPACITY(16) answers garbage: bit 40 of the last LBA set, "
        "a disk 512 TiB larger than it is; READ CAPACITY(10) is right",
        props={"x-rc16-garbage": "on"},
        fix="usb-storage quirk e (US_FL_NO_READ_CAPACITY_16)",
        field=[r"\[sd[a-z]+\] \d{13,} 512-byte logical blocks"],
        sources=['drivers/usb/storage/unusual_devs.h (6.12): 054c:02a5 Sony MicroVault Flash Drive, 071b:3203 RockChip MP3: US_FL_NO_READ_CAPACITY_16',
                 'drivers/usb/storage/scsiglue.c (6.12): "Many devices do not respond properly to READ_CAPACITY_16. Tell the SCSI layer to try READ_CAPACITY_10 first." (usb-storage sets try_rc_10_first; uas does not, so the garbage shows over UAS)']),
    Personality(
        "volatile-cache",
        "a volatile write cache: SYNCHRONIZE CACHE and FUA writes are "
        "acknowledged, and a bus reset or power loss within 10 s of a "
        "write loses it (up to 64 MiB); no quirk fixes this, it can only "
        "be detected",
        props={"x-cache-mb": 64, "x-cache-flush-ms": 10000},
        fix=None,
        sources=['drivers/usb/storage/unusual_uas.h (6.12): 152d:0567 and 152d:0578 JMicron JMS567: US_FL_BROKEN_FUA; drivers/usb/storage/scsiglue.c (6.12): "A few buggy USB-ATA bridges don\'t understand FUA"',
                 'drivers/usb/storage/scsiglue.c (6.12): "Some even totally fail to indicate a cache" (US_FL_WRITE_CACHE: the kernel can only assume one; nothing makes a lying cache keep what it acknowledged)']),
    Personality(
        "collapse",
        "sustained-write collapse: full speed for the first 256 MiB "
        "written, then a fifth of it until the writes stop for 5 s (an "
        "exhausted SLC cache, or heat); detect only",
        host={"collapse": {"after_mib": 256, "fraction": 0.2,
                           "floor_bps": 512 * 1024, "idle_s": 5}},
        fix=None,
        sources=["no quirk table describes it and no quirk fixes it: it "
                 "is the disk's (an exhausted SLC write cache, or thermal "
                 "throttling), seen through any bridge; usbtrail stress's "
                 "soak measures it (soak_slowdown)"]),
    Personality(
        "brownout",
        "brown-out: after 64 MiB moved within 8 s the disk drops off the "
        "bus for 3 s and comes back (a bus-powered 2.5\" disk on a weak "
        "port); detect only",
        host={"brownout": {"mib": 64, "window_s": 8, "off_s": 3}},
        fix=None,
        field=[r"USB disconnect, device number \d+"],
        sources=["no quirk table describes it: it is the port's power, "
                 "not the bridge's firmware; the field shows it as \"USB "
                 "disconnect\" under load, and on Raspberry Pi boards beside "
                 "the firmware's \"Under-voltage detected!\" "
                 "(data/kmsg-formats.tsv)"]),
]

BY_NAME = {b.name: b for b in BRIDGES}

VIDPID_RE = re.compile(r"^[0-9a-fA-F]{4}:[0-9a-fA-F]{4}$")


class BridgeSpec:
    """--bridge NAME[,vidpid=VVVV:PPPP][,plug=late]"""

    def __init__(self, spec):
        name, *opts = spec.split(",")
        if name not in BY_NAME:
            raise ValueError(f"unknown bridge '{name}' (known: "
                             f"{', '.join(BY_NAME)}; --list-bridges)")
        self.personality = BY_NAME[name]
        self.vidpid = DEFAULT_VIDPID
        # plugged in when COMMAND starts rather than at boot: a probe the
        # defect stalls then stalls no insmod of the guest's /init (the
        # kernel waits for async probes after loading a module)
        self.late = False
        for o in opts:
            k, eq, v = o.partition("=")
            if k == "plug" and v in ("boot", "late"):
                self.late = v == "late"
                continue
            if k != "vidpid" or not eq:
                raise ValueError(f"--bridge {spec}: unknown option '{o}' "
                                 "(vidpid=VVVV:PPPP or plug=boot|late)")
            if not VIDPID_RE.match(v):
                raise ValueError(f"--bridge {spec}: bad vidpid '{v}' "
                                 "(four hex digits, ':', four hex digits)")
            self.vidpid = v.lower()
        self.vid, self.pid = (int(x, 16) for x in self.vidpid.split(":"))

    def usb_props(self):
        """The usb-uas properties of this bridge."""
        p = {"bot": "on", "vendorid": self.vid, "productid": self.pid,
             "manufacturer": "usbtrail",
             "product": f"bridge {self.personality.name}"}
        p.update(self.personality.props)
        return p


def list_text():
    """--list-bridges: each personality, its defects, fix and sources."""
    out = []
    for b in BRIDGES:
        out.append(f"{b.name}\n  {b.summary}")
        out.append("  fix: " + (b.fix or ("-" if b.name == "healthy"
                                          else "none: detect only")))
        for s in b.sources:
            out.append(f"  source: {s}")
    return "\n".join(out) + "\n"
