# SPDX-License-Identifier: GPL-2.0-only
"""testbed.modules.module_order: the guest's modules in load order."""

import os
import tempfile
import unittest

from testbed.config import GUEST_MODULES
from testbed.modules import module_order

# A modules.dep as depmod writes it (dependencies of each module, nearest
# first), cut down from Debian's 6.1 kernel.
MODULES_DEP = """\
kernel/drivers/usb/core/usbcore.ko.xz: kernel/drivers/usb/common/usb-common.ko.xz
kernel/drivers/usb/common/usb-common.ko.xz:
kernel/drivers/usb/host/xhci-pci.ko.xz: kernel/drivers/usb/host/xhci-hcd.ko.xz kernel/drivers/usb/core/usbcore.ko.xz kernel/drivers/usb/common/usb-common.ko.xz
kernel/drivers/usb/host/xhci-hcd.ko.xz: kernel/drivers/usb/core/usbcore.ko.xz kernel/drivers/usb/common/usb-common.ko.xz
kernel/drivers/scsi/scsi_mod.ko.xz: kernel/drivers/scsi/scsi_common.ko.xz
kernel/drivers/scsi/scsi_common.ko.xz:
kernel/drivers/scsi/sd_mod.ko.xz: kernel/drivers/scsi/scsi_mod.ko.xz kernel/drivers/scsi/scsi_common.ko.xz kernel/lib/crc-t10dif.ko.xz
kernel/lib/crc-t10dif.ko.xz: kernel/crypto/crct10dif_common.ko.xz
kernel/crypto/crct10dif_common.ko.xz:
kernel/drivers/usb/storage/usb-storage.ko.xz: kernel/drivers/scsi/scsi_mod.ko.xz kernel/drivers/usb/core/usbcore.ko.xz kernel/drivers/usb/common/usb-common.ko.xz kernel/drivers/scsi/scsi_common.ko.xz
kernel/drivers/usb/storage/uas.ko.xz: kernel/drivers/usb/storage/usb-storage.ko.xz kernel/drivers/scsi/scsi_mod.ko.xz kernel/drivers/usb/core/usbcore.ko.xz kernel/drivers/usb/common/usb-common.ko.xz kernel/drivers/scsi/scsi_common.ko.xz
kernel/drivers/usb/mon/usbmon.ko: kernel/drivers/usb/core/usbcore.ko.xz
kernel/fs/ext4/ext4.ko.zst: kernel/fs/mbcache.ko.zst kernel/fs/jbd2/jbd2.ko.zst
kernel/fs/mbcache.ko.zst:
kernel/fs/jbd2/jbd2.ko.zst:
kernel/drivers/input/evdev.ko.gz:
"""


class ModuleOrderTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        with open(os.path.join(self.dir.name, "modules.dep"), "w") as f:
            f.write(MODULES_DEP)

    def tearDown(self):
        self.dir.cleanup()

    def order(self, wanted):
        return [os.path.basename(m) for m in
                module_order(self.dir.name, wanted)]

    def test_dependencies_first_each_once(self):
        got = self.order(["usbcore", "xhci-pci", "sd_mod", "usb-storage",
                          "uas"])
        self.assertEqual(got, [
            "usb-common.ko.xz", "usbcore.ko.xz", "xhci-hcd.ko.xz",
            "xhci-pci.ko.xz", "scsi_common.ko.xz", "scsi_mod.ko.xz",
            "crct10dif_common.ko.xz", "crc-t10dif.ko.xz", "sd_mod.ko.xz",
            "usb-storage.ko.xz", "uas.ko.xz"])

    def test_every_module_after_its_dependencies(self):
        deps = {}
        for line in MODULES_DEP.splitlines():
            mod, _, rest = line.partition(":")
            deps[mod] = rest.split()
        got = module_order(self.dir.name, list(GUEST_MODULES))
        self.assertEqual(len(got), len(set(got)))
        for i, mod in enumerate(got):
            for d in deps[mod]:
                self.assertIn(d, got[:i], f"{d} not before {mod}")

    def test_the_wanted_order_is_kept(self):
        # ehci before uhci, sd_mod before the storage drivers: the list
        # says what goes first where nothing depends on anything
        self.assertEqual(self.order(["evdev", "usbmon"]),
                         ["evdev.ko.gz", "usb-common.ko.xz",
                          "usbcore.ko.xz", "usbmon.ko"])
        self.assertEqual(self.order(["usbmon", "evdev"]),
                         ["usb-common.ko.xz", "usbcore.ko.xz", "usbmon.ko",
                          "evdev.ko.gz"])

    def test_names_dash_or_underscore(self):
        self.assertEqual(self.order(["usb_storage"]),
                         self.order(["usb-storage"]))
        self.assertEqual(self.order(["scsi-mod"])[-1], "scsi_mod.ko.xz")

    def test_compressed_and_plain(self):
        self.assertEqual(self.order(["ext4"]), [
            "mbcache.ko.zst", "jbd2.ko.zst", "ext4.ko.zst"])

    def test_built_in_modules_are_left_out(self):
        # not in modules.dep: built into this kernel (Debian's crc32c,
        # virtio_pci, ...)
        self.assertEqual(self.order(["crc32c_generic", "virtio_pci",
                                     "evdev"]), ["evdev.ko.gz"])
        self.assertEqual(self.order([]), [])

    def test_paths_as_in_modules_dep(self):
        self.assertEqual(module_order(self.dir.name, ["evdev"]),
                         ["kernel/drivers/input/evdev.ko.gz"])


if __name__ == "__main__":
    unittest.main()
