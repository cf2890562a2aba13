# SPDX-License-Identifier: GPL-2.0-only
"""Where the test bed's files are, what it emulates, how it exits."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
HERE = os.path.join(ROOT, "tools", "testbed")
KCACHE = os.environ.get("USBTRAIL_KCACHE", "/var/cache/usbtrail/kernels")

EXIT_TIMEOUT = 124
EXIT_TESTBED = 125

# What each --devices name is: the host controller it hangs off, the QEMU
# device, and the driver and speed the guest is expected to bind.
DEVICES = {
    "uas":    {"hc": "xhci", "kind": "uas"},
    "bot":    {"hc": "xhci", "kind": "bot"},
    "uas-hs": {"hc": "ehci", "kind": "uas"},
    "ehci":   {"hc": "ehci", "kind": "bot"},
    "uhci":   {"hc": "uhci", "kind": "bot"},
    # --bridge NAME (testbed.bridges): the dual-mode enclosure, BOT at
    # alternate setting 0 and UAS at 1, with NAME's defects
    "bridge": {"hc": "xhci", "kind": "bridge"},
}

# The QEMU that has the bridge (tools/testbed/qemu/build, which
# tools/deps.sh runs), and the firmware directories it reads: Debian's
# qemu-system-data and seabios, as Debian's own QEMU does.
QEMU_BUILD = os.path.join(ROOT, "tools", "testbed", "qemu", "build")
QEMU_FIRMWARE = ["-L", "/usr/share/qemu", "-L", "/usr/share/seabios"]

# Controller ids end in -hc: the enclosures "ehci" and "uhci" take the
# plain names.
CONTROLLERS = {
    "xhci": ["-device", "qemu-xhci,id=xhci-hc"],
    "ehci": ["-device", "usb-ehci,id=ehci-hc"],
    "uhci": ["-device", "piix3-usb-uhci,id=uhci-hc"],
}

# Kernel modules the guest loads, in this order; their dependencies are
# resolved from the kernel's modules.dep and loaded first.  ehci before
# uhci, as the kernel asks; sd_mod before the storage drivers.
GUEST_MODULES = [
    "usbcore", "xhci-pci", "ehci-hcd", "ehci-pci", "uhci-hcd",
    "scsi_mod", "sd_mod", "usb-storage", "uas", "usbmon",
    "virtio_pci", "9pnet_virtio", "9p",
    "crc32c_generic", "ext4",   # ext2 via ext4 (which wants crc32c):
                                # tests mount a disk
    "vfat", "nls_cp437", "nls_ascii",   # FAT: stress DIR on a stick's
                                        # usual filesystem
    "evdev", "uinput",          # /dev/input/event*, test keyboards
    "dm-mod",                   # device-mapper: a disk that wraps around
]

# Host programs packed into the guest when the host has them (benchmarks
# compare usbtrail with them, tests build device-mapper targets with
# dmsetup): tools/deps.sh installs them.
HOST_PROGRAMS = ["trace-cmd", "dmsetup"]


def die(msg, status=2):
    print(f"testbed: {msg}", file=sys.stderr)
    sys.exit(status)


def warn(msg):
    print(f"testbed: {msg}", file=sys.stderr)
