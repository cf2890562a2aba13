# SPDX-License-Identifier: GPL-2.0-only
"""QEMU -device property sets of the test bed's enclosures; -accel."""

from .bridges import DISK_PRODUCT, DISK_VENDOR
from .config import DEVICES


def device_qdevs(name, serial, port, bridge=None):
    """QEMU -device property sets for enclosure `name` (for device_add too);
    `bridge` the --bridge BridgeSpec of the enclosure "bridge".

    The root port is given explicitly, so that a replug after unplug
    comes back on the same port (USB path), as a cable put back would.
    """
    hc = DEVICES[name]["hc"] + "-hc"
    disk = {"werror": "report", "rerror": "report", "drive": f"{name}-top"}
    if DEVICES[name]["kind"] == "bridge":
        return [dict({"driver": "usb-uas", "id": name, "bus": f"{hc}.0",
                      "port": str(port), "serial": serial},
                     **bridge.usb_props()),
                dict(disk, driver="scsi-hd", id=f"{name}-disk",
                     bus=f"{name}.0", **{"scsi-id": 0, "lun": 0},
                     serial=serial, vendor=DISK_VENDOR,
                     product=DISK_PRODUCT)]
    if DEVICES[name]["kind"] == "uas":
        return [{"driver": "usb-uas", "id": name, "bus": f"{hc}.0",
                 "port": str(port), "serial": serial},
                dict(disk, driver="scsi-hd", id=f"{name}-disk",
                     bus=f"{name}.0", **{"scsi-id": 0, "lun": 0},
                     serial=serial)]
    return [dict(disk, driver="usb-storage", id=name, bus=f"{hc}.0",
                 port=str(port), serial=serial)]


def qdev_arg(props):
    # a comma in a value is doubled, as QEMU's option parser wants
    return ",".join(f"{k}={str(v).replace(',', ',,')}" for k, v in
                    [("driver", props["driver"])] +
                    [(k, v) for k, v in props.items() if k != "driver"])


def accel_arg(accel, cpus):
    """QEMU's -accel for `cpus` guest CPUs: under TCG, more than one run
    as host threads (multi-threaded TCG), else they would take turns on
    one host thread and never run at the same time."""
    if accel == "tcg" and cpus > 1:
        return "tcg,thread=multi"
    return accel


def icount_arg(shift):
    """QEMU's -icount for --icount SHIFT: a fixed 2^SHIFT ns per guest
    instruction (align=off: never slowed to the host's clock), and
    sleep=on: while the guest idles its clock follows the host's, so
    the emulated disk's latency is a real one; only the idle time, not
    the busy time, then depends on the host."""
    return f"shift={shift},sleep=on,align=off"
