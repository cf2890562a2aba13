# SPDX-License-Identifier: GPL-2.0-only
"""The command line of tools/testbed/run, and tools/kernels.conf."""

import argparse
import os
import re

from .arch import ARCHES, arch_of
from . import bridges
from .config import DEVICES, ROOT, die
from .faults import Fault


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="tools/testbed/run",
        usage="%(prog)s [options] -- COMMAND [ARGS...]",
        description="Boot the emulated USB test bed (QEMU, Debian's "
        "kernel, real xhci/uas/usb-storage drivers) and run COMMAND as "
        "root inside it once the enclosures are bound.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="""devices (--devices, comma-separated, default uas,bot):
  uas      UAS enclosure on an xHCI SuperSpeed port (bulk streams)
  bot      BOT enclosure (usb-storage) on xHCI
  uas-hs   UAS enclosure behind an EHCI (USB 2.0, 480 Mbit/s) host
  ehci     BOT disk behind an EHCI host (480 Mbit/s)
  uhci     BOT disk behind a UHCI host (12 Mbit/s; not on arm64)
In the guest: /dev/disk/testbed/NAME -> the disk, and $TESTBED_NAME
(e.g. $TESTBED_UAS_HS=/dev/sdb), $TESTBED_NAME_USB, _DRIVER, _SPEED.

faults (--fault, repeatable; DEVICE defaults to the first device):
  medium-not-present@SECTOR[:DEVICE]  a write covering SECTOR fails with
                                      ENOMEDIUM (sense 02/3A/00), once
  io-error@SECTOR[:DEVICE]            every write covering SECTOR fails
                                      with EIO (a bad sector; the guest
                                      sees ABORTED COMMAND and retries)
  stall@T+D[:DEVICE]   from T s after COMMAND starts, for D s, writes are
                       throttled so commands time out (SCSI timeout of
                       that disk set to 2 s): the abort/reset chain
  dip@T+D[:DEVICE]     writes throttled to 25% of the rate of the second
                       before T, for D s: a dip without errors
  unplug@T+D[:DEVICE]  device_del at T, device_add again D s later
  power-cut@T+D        --bridge's enclosure loses power at T (its volatile
                       cache, if it has one, is lost) and D s later has
                       it back: the guest sees a disconnect and a new
                       device
T may be a name instead (letters, digits, '-'): the fault starts when
COMMAND runs `testbed-mark NAME`, D s after it the stall or dip ends, the
device comes back (a guest slower than expected, such as the debug
kernel's, then meets the fault where the test meant it).
Every fault is logged with its time to OUT/faults.log.

arm64 (--arch arm64): QEMU's virt machine with a Cortex-A72 (TCG; a run
takes up to 1.5 times an x86-64 guest's), console ttyAMA0, Debian's arm64 kernel
(tools/kernels-arm64.conf: 6.1, 7.3); usbtrail, the test tools and
usbtrail.ko cross-built, busybox and the shared libraries from the arm64
sysroot of tools/deps.sh.  The same devices but uhci, the same faults.

bridges (--bridge NAME[,vidpid=VVVV:PPPP][,plug=late]; --list-bridges):
  a dual-mode enclosure (BOT at alternate setting 0, UAS at 1, on xHCI)
  with the defects of a real bridge, on QEMU built by
  tools/testbed/qemu/build; the device is named "bridge" ($TESTBED_BRIDGE,
  /dev/disk/testbed/bridge), added to --devices (which then defaults to
  none besides it).  Each time a defect acts, qemu.log says "bridge
  bridge: ..." (faults.log for the ones driven from the host).  plug=late
  plugs it in as COMMAND starts (no $TESTBED_BRIDGE then: find it by its
  serial, usbtrail-bridge).

exit status: COMMAND's; 124 timeout; 125 the test bed failed; 2 usage.""")
    p.add_argument("--kernel", default="default",
                   help="kernel from tools/kernels.conf: 6.1 (default), "
                   "5.10, 6.12 or 7.3, or an ABI name; with --arch arm64 "
                   "from tools/kernels-arm64.conf: 6.1 (default) or 7.3")
    p.add_argument("--arch", default="x86-64", metavar="ARCH",
                   help="the guest's architecture: x86-64 (default) or "
                   "arm64 (QEMU's virt machine, a Cortex-A72 under TCG, "
                   "Debian's arm64 kernel; usbtrail and usbtrail.ko "
                   "cross-built; no uhci, no --journald, no --kvm)")
    p.add_argument("--devices", default=None,
                   help="comma-separated device list (default uas,bot; "
                   "none with --bridge)")
    p.add_argument("--bridge", metavar="NAME[,vidpid=VVVV:PPPP]",
                   help="attach a dual-mode enclosure with the defects of "
                   "bridge personality NAME (see --list-bridges)")
    p.add_argument("--list-bridges", action="store_true",
                   help="list the bridge personalities, their defects, "
                   "the kernel's fix and the sources, and exit")
    p.add_argument("--fault", action="append", default=[],
                   metavar="SPEC", help="inject a fault (repeatable)")
    p.add_argument("--quirk", action="append", default=[],
                   metavar="VID:PID:FLAGS",
                   help="boot with usb-storage.quirks=VID:PID:FLAGS")
    p.add_argument("--append", action="append", default=[],
                   metavar="ARGS", help="extra kernel command line")
    p.add_argument("--out", metavar="DIR",
                   help="host directory shared as /out in the guest; also "
                   "gets console.log, qemu.log, qmp.log, faults.log "
                   "(default: a temporary directory, kept on failure)")
    p.add_argument("--timeout", type=float, default=300, metavar="SECONDS",
                   help="kill the guest after this long (default 300)")
    p.add_argument("--boot-retries", type=int, default=1, metavar="N",
                   help="when the guest's kernel reports an RCU stall or a "
                   "soft lockup before COMMAND starts, boot it again, up to "
                   "N times (default 1; 0 never); the stalled boot's "
                   "console is kept as console.stalled-1.log, ...")
    p.add_argument("--disk-size", default="1G", metavar="SIZE",
                   help="size of each emulated disk (default 1G)")
    p.add_argument("--memory", default="512M", help="guest memory")
    p.add_argument("--cpus", type=int, default=1, metavar="N",
                   help="guest CPUs, 1-%d (default 1); more than one run "
                   "as threads of multi-threaded TCG" % CPUS_MAX)
    p.add_argument("--kvm", action="store_true",
                   help="use KVM when it works (falls back to TCG)")
    p.add_argument("--icount", type=int, metavar="SHIFT",
                   help="count instructions (QEMU's -icount shift=SHIFT,"
                   "sleep=on,align=off; SHIFT 0 to %d): the guest's clock "
                   "advances 2^SHIFT ns per instruction it executes, so the "
                   "time its CPU is busy does not depend on the host's "
                   "load; while it idles, its clock follows the host's. "
                   "Not with --kvm or --cpus above 1" % ICOUNT_SHIFT_MAX)
    p.add_argument("--write-iops", type=int, metavar="N",
                   help="each disk takes at most N writes a second "
                   "(its QEMU throttle group; the first N/10 pass at once): "
                   "with --icount, each write then completes after the "
                   "guest has gone idle, in every run alike")
    p.add_argument("--no-build", action="store_true",
                   help="do not run make for usbtrail and usbtrail.ko")
    p.add_argument("--journald", action="store_true",
                   help="pack systemd-journald and journalctl and start "
                   "journald in the guest before COMMAND")
    p.add_argument("command", nargs=argparse.REMAINDER)
    a = p.parse_args(argv)
    if a.list_bridges:
        print(bridges.list_text(), end="")
        raise SystemExit(0)
    if a.command and a.command[0] == "--":
        a.command = a.command[1:]
    if not a.command:
        p.error("no COMMAND given (put it after --)")
    arch = arch_of(a.arch)
    if not arch:
        p.error(f"unknown --arch '{a.arch}' (known: {', '.join(ARCHES)})")
    a.arch = arch
    if a.devices is None:
        a.devices = "" if a.bridge else "uas,bot"
    elif not [d for d in a.devices.split(",") if d]:
        p.error("--devices is empty")
    a.devices = [d for d in a.devices.split(",") if d]
    if "bridge" in a.devices:
        p.error("device 'bridge' is --bridge NAME's")
    if a.bridge:
        try:
            a.bridge = bridges.BridgeSpec(a.bridge)
        except ValueError as e:
            p.error(str(e))
        if a.arch != "x86-64":
            p.error("--bridge: the bridge's QEMU is built for x86-64 "
                    "guests only")
        a.devices.append("bridge")
    for d in a.devices:
        if d not in DEVICES:
            p.error(f"unknown device '{d}' (known: {', '.join(DEVICES)})")
        if DEVICES[d]["hc"] not in ARCHES[arch]["controllers"]:
            p.error(f"device '{d}' needs a {DEVICES[d]['hc'].upper()} "
                    f"host, which Debian's {arch} kernel has no driver "
                    f"for (on {arch}: "
                    + ", ".join(n for n in DEVICES if DEVICES[n]["hc"]
                                in ARCHES[arch]["controllers"]) + ")")
    if arch == "arm64" and a.journald:
        p.error("--journald: no systemd-journald for an arm64 guest "
                "(the sysroot has none)")
    if len(set(a.devices)) != len(a.devices):
        p.error("a device is named twice in --devices")
    try:
        a.faults = [Fault(s, a.devices) for s in a.fault]
    except ValueError as e:
        p.error(str(e))
    for q in a.quirk:
        if not re.match(r"^[0-9a-fA-F]{4}:[0-9a-fA-F]{4}:[a-z]*$", q):
            p.error(f"bad --quirk '{q}' (expected VID:PID:FLAGS, "
                    "e.g. 46f4:0003:u)")
    if a.boot_retries < 0:
        p.error("--boot-retries must be 0 or more")
    if a.timeout <= 0:
        p.error("--timeout must be positive")
    if not 1 <= a.cpus <= CPUS_MAX:
        p.error(f"--cpus must be 1 to {CPUS_MAX}, not {a.cpus}")
    if a.write_iops is not None and a.write_iops <= 0:
        p.error("--write-iops must be positive")
    if a.icount is not None:
        if not 0 <= a.icount <= ICOUNT_SHIFT_MAX:
            p.error(f"--icount SHIFT must be 0 to {ICOUNT_SHIFT_MAX}, "
                    f"not {a.icount}")
        # KVM runs the guest's instructions on the host's CPU: nothing
        # counts them
        if a.kvm:
            p.error("--icount counts instructions under TCG; KVM cannot: "
                    "drop --kvm")
        # QEMU refuses -icount with multi-threaded TCG, which --cpus N
        # needs for the CPUs to run at the same time
        if a.cpus > 1:
            p.error("--icount needs one guest CPU (QEMU has no "
                    "multi-threaded TCG with icount): drop --cpus")
    return a


CPUS_MAX = 16
# QEMU's limit on -icount shift= (MAX_ICOUNT_SHIFT in softmmu/icount.c)
ICOUNT_SHIFT_MAX = 10


def kernel_abi(name, arch="x86-64"):
    conf = ARCHES[arch]["kernels"]
    with open(os.path.join(ROOT, "tools", conf)) as f:
        for line in f:
            w = line.split()
            if w and not w[0].startswith("#") and w[0] == name:
                return w[1]
    if re.match(r"^\d+\.\d+\.\S+" + ARCHES[arch]["abi_suffix"] + "$",
                name):
        return name
    die(f"unknown {arch} kernel '{name}' (see tools/{conf})")
