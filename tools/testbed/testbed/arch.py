# SPDX-License-Identifier: GPL-2.0-only
"""--arch: what differs between an x86-64 and an arm64 guest.

The arm64 guest is QEMU's `virt` machine with a Cortex-A72 under TCG,
Debian's arm64 kernel (tools/kernels-arm64.conf), and busybox, usbtrail,
the test tools and their shared libraries for arm64: busybox-static and
the libraries from the sysroot tools/deps.sh unpacks, usbtrail and the
tools cross-built against it (make -C userspace CROSS=arm64).  The USB
controllers and enclosures are the same QEMU devices (on PCIe), so
faults are driven the same way.
"""

import os

from .config import ROOT

ARM64_SYSROOT = os.environ.get("USBTRAIL_ARM64_SYSROOT",
                               "/var/cache/usbtrail/arm64/sysroot")

ARCHES = {
    "x86-64": {
        "qemu": ["qemu-system-x86_64"],
        "console": "ttyS0",
        "kernels": "kernels.conf",
        "abi_suffix": "-amd64",
        "sysroot": None,
        "busybox": "/bin/busybox",
        "userspace": os.path.join(ROOT, "userspace"),
        "tools": os.path.join(ROOT, "userspace", "build", "tools"),
        "controllers": ("xhci", "ehci", "uhci"),
        "kvm": True,
    },
    "arm64": {
        "qemu": ["qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a72"],
        "console": "ttyAMA0",
        "kernels": "kernels-arm64.conf",
        "abi_suffix": "-arm64",
        "sysroot": ARM64_SYSROOT,
        "busybox": os.path.join(ARM64_SYSROOT, "bin", "busybox"),
        "userspace": os.path.join(ROOT, "userspace", "build-arm64"),
        "tools": os.path.join(ROOT, "userspace", "build-arm64", "tools"),
        # Debian's arm64 kernel has no UHCI driver (CONFIG_USB_UHCI_HCD
        # is off): a UHCI controller would enumerate nothing.
        "controllers": ("xhci", "ehci"),
        "kvm": False,
    },
}

# what --arch also accepts, for the names users know
ALIASES = {"amd64": "x86-64", "x86_64": "x86-64", "aarch64": "arm64"}


def arch_of(name):
    """The canonical --arch name, or None."""
    name = ALIASES.get(name, name)
    return name if name in ARCHES else None
