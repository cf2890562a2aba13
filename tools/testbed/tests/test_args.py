# SPDX-License-Identifier: GPL-2.0-only
"""testbed.args: tools/testbed/run's command line; testbed.qemu's
-device property sets."""

import contextlib
import io
import unittest

from testbed.args import kernel_abi, parse_args
from testbed.qemu import accel_arg, device_qdevs, icount_arg, qdev_arg


class ParseArgsTest(unittest.TestCase):
    def test_defaults(self):
        a = parse_args(["--", "sh", "-c", "true"])
        self.assertEqual(a.command, ["sh", "-c", "true"])
        self.assertEqual(a.devices, ["uas", "bot"])
        self.assertEqual((a.kernel, a.timeout, a.faults), ("default", 300, []))

    def test_faults_on_the_devices(self):
        a = parse_args(["--devices", "bot,uas", "--fault", "stall@1+2",
                        "--fault", "io-error@8:uas", "--", "x"])
        self.assertEqual([(f.kind, f.dev) for f in a.faults],
                         [("stall", "bot"), ("io-error", "uas")])

    def assertUsage(self, argv, words):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), \
                self.assertRaises(SystemExit) as cm:
            parse_args(argv)
        self.assertEqual(cm.exception.code, 2)
        self.assertIn(words, err.getvalue())

    def test_usage_errors(self):
        self.assertUsage([], "no COMMAND given")
        self.assertUsage(["--"], "no COMMAND given")
        self.assertUsage(["--devices", ",", "--", "x"], "--devices is empty")
        self.assertUsage(["--devices", "usb3", "--", "x"],
                         "unknown device 'usb3'")
        self.assertUsage(["--devices", "uas,uas", "--", "x"], "named twice")
        self.assertUsage(["--fault", "stall@1", "--", "x"], "T+D")
        self.assertUsage(["--quirk", "46f4:3:u", "--", "x"], "bad --quirk")
        self.assertUsage(["--timeout", "0", "--", "x"], "must be positive")
        self.assertUsage(["--cpus", "0", "--", "x"], "--cpus must be 1 to")
        self.assertUsage(["--cpus", "17", "--", "x"], "--cpus must be 1 to")
        self.assertUsage(["--cpus", "two", "--", "x"], "invalid int value")

    def test_cpus(self):
        self.assertEqual(parse_args(["--", "x"]).cpus, 1)
        self.assertEqual(parse_args(["--cpus", "4", "--", "x"]).cpus, 4)
        # one CPU as before; several as threads of multi-threaded TCG
        self.assertEqual(accel_arg("tcg", 1), "tcg")
        self.assertEqual(accel_arg("tcg", 4), "tcg,thread=multi")
        self.assertEqual(accel_arg("kvm", 4), "kvm")

    def test_icount(self):
        self.assertIsNone(parse_args(["--", "x"]).icount)
        self.assertEqual(parse_args(["--icount", "0", "--", "x"]).icount, 0)
        self.assertEqual(icount_arg(1), "shift=1,sleep=on,align=off")
        self.assertUsage(["--icount", "11", "--", "x"],
                         "--icount SHIFT must be 0 to 10")
        self.assertUsage(["--icount", "-1", "--", "x"],
                         "--icount SHIFT must be 0 to 10")
        self.assertUsage(["--icount", "auto", "--", "x"], "invalid int value")
        # KVM counts no instructions; QEMU has no multi-threaded TCG
        # with icount
        self.assertUsage(["--icount", "0", "--kvm", "--", "x"], "drop --kvm")
        self.assertUsage(["--icount", "0", "--cpus", "2", "--", "x"],
                         "drop --cpus")

    def test_write_iops(self):
        self.assertIsNone(parse_args(["--", "x"]).write_iops)
        self.assertEqual(parse_args(["--write-iops", "250", "--",
                                     "x"]).write_iops, 250)
        self.assertUsage(["--write-iops", "0", "--", "x"],
                         "--write-iops must be positive")

    def test_arch(self):
        self.assertEqual(parse_args(["--", "x"]).arch, "x86-64")
        self.assertEqual(parse_args(["--arch", "aarch64", "--", "x"]).arch,
                         "arm64")
        self.assertUsage(["--arch", "riscv64", "--", "x"],
                         "unknown --arch 'riscv64'")
        # Debian's arm64 kernel has no UHCI driver
        self.assertUsage(["--arch", "arm64", "--devices", "uas,uhci", "--",
                          "x"], "device 'uhci' needs a UHCI host")
        parse_args(["--devices", "uas,uhci", "--", "x"])
        self.assertUsage(["--arch", "arm64", "--journald", "--", "x"],
                         "--journald")

    def test_kernels_arm64_conf(self):
        self.assertRegex(kernel_abi("default", "arm64"),
                         r"^6\.1\.\S+-arm64$")
        self.assertRegex(kernel_abi("7.3", "arm64"), r"^7\.3\.\S+-arm64$")
        self.assertEqual(kernel_abi("6.1.0-99-arm64", "arm64"),
                         "6.1.0-99-arm64")
        with contextlib.redirect_stderr(io.StringIO()), \
                self.assertRaises(SystemExit):
            kernel_abi("6.1.0-99-amd64", "arm64")

    def test_kernels_conf(self):
        abi = kernel_abi("default")
        self.assertRegex(abi, r"^\d+\.\d+\.\S+-amd64$")
        self.assertEqual(kernel_abi("6.1.0-99-amd64"), "6.1.0-99-amd64")
        with contextlib.redirect_stderr(io.StringIO()), \
                self.assertRaises(SystemExit):
            kernel_abi("4.19")


class QdevTest(unittest.TestCase):
    def test_uas_is_two_devices(self):
        q = device_qdevs("uas", "usbtrail-uas", 1)
        self.assertEqual([p["driver"] for p in q], ["usb-uas", "scsi-hd"])
        self.assertEqual(q[0]["bus"], "xhci-hc.0")
        self.assertEqual(q[1]["bus"], "uas.0")
        self.assertEqual(q[1]["drive"], "uas-top")

    def test_bot_on_its_port(self):
        (q,) = device_qdevs("ehci", "usbtrail-ehci", 2)
        self.assertEqual(qdev_arg(q),
                         "driver=usb-storage,werror=report,rerror=report,"
                         "drive=ehci-top,id=ehci,bus=ehci-hc.0,port=2,"
                         "serial=usbtrail-ehci")


if __name__ == "__main__":
    unittest.main()
