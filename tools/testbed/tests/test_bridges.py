# SPDX-License-Identifier: GPL-2.0-only
"""testbed.bridges: --bridge and --list-bridges, the bridge's -device
property sets, power-cut."""

import contextlib
import io
import unittest

from testbed.args import parse_args
from testbed.bridges import BRIDGES, DEFAULT_VIDPID, BridgeSpec, list_text
from testbed.qemu import device_qdevs, qdev_arg


def usage_error(argv):
    err = io.StringIO()
    with contextlib.redirect_stderr(err), \
            contextlib.suppress(SystemExit):
        parse_args(argv)
    return err.getvalue()


class BridgeArgsTest(unittest.TestCase):
    def test_bridge_is_the_only_device(self):
        a = parse_args(["--bridge", "healthy", "--", "x"])
        self.assertEqual(a.devices, ["bridge"])
        self.assertEqual(a.bridge.vidpid, DEFAULT_VIDPID)
        a = parse_args(["--bridge", "rsoc,vidpid=ABCD:00ef,plug=late",
                        "--devices", "bot", "--", "x"])
        self.assertEqual(a.devices, ["bot", "bridge"])
        self.assertEqual((a.bridge.vid, a.bridge.pid, a.bridge.late),
                         (0xabcd, 0xef, True))
        self.assertEqual(parse_args(["--", "x"]).devices, ["uas", "bot"])

    def test_bad_bridges(self):
        self.assertIn("unknown bridge 'jms578'",
                      usage_error(["--bridge", "jms578", "--", "x"]))
        self.assertIn("bad vidpid 'abc:1'",
                      usage_error(["--bridge", "healthy,vidpid=abc:1", "--",
                                   "x"]))
        self.assertIn("unknown option 'lpm=on'",
                      usage_error(["--bridge", "healthy,lpm=on", "--", "x"]))
        self.assertIn("device 'bridge' is --bridge NAME's",
                      usage_error(["--devices", "bridge", "--", "x"]))
        self.assertIn("x86-64 guests only",
                      usage_error(["--arch", "arm64", "--bridge", "healthy",
                                   "--", "x"]))

    def test_power_cut_is_the_bridge_s(self):
        a = parse_args(["--bridge", "volatile-cache", "--fault",
                        "power-cut@late+2", "--", "x"])
        self.assertEqual([(f.kind, f.dev, f.mark) for f in a.faults],
                         [("power-cut", "bridge", "late")])
        self.assertIn("power-cut is a fault of --bridge's enclosure only",
                      usage_error(["--fault", "power-cut@1+2:uas", "--",
                                   "x"]))

    def test_list(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), \
                self.assertRaises(SystemExit) as cm:
            parse_args(["--list-bridges"])
        self.assertEqual(cm.exception.code, 0)
        self.assertEqual(out.getvalue(), list_text())
        for b in BRIDGES:
            self.assertIn(f"\n{b.name}\n", "\n" + out.getvalue())
            # every defect says where real bridges show it
            self.assertTrue(b.sources, b.name)


class BridgeQdevTest(unittest.TestCase):
    def test_bridge_devices(self):
        spec = BridgeSpec("ata-pt,vidpid=1234:5678")
        usb, disk = device_qdevs("bridge", "usbtrail-bridge", 1, spec)
        self.assertEqual((usb["driver"], usb["bot"], usb["vendorid"],
                          usb["productid"]), ("usb-uas", "on", 0x1234,
                                              0x5678))
        self.assertEqual(usb["x-hang-opcodes"], "85,a1")
        self.assertEqual((disk["driver"], disk["bus"]),
                         ("scsi-hd", "bridge.0"))
        # QEMU's option parser: a comma in a value is doubled
        self.assertIn(",x-hang-opcodes=85,,a1", qdev_arg(usb))

    def test_defaults_are_in_no_table(self):
        # the personalities set no identity of their own
        for b in BRIDGES:
            for k in ("vendorid", "productid", "bot"):
                self.assertNotIn(k, b.props, b.name)


if __name__ == "__main__":
    unittest.main()
