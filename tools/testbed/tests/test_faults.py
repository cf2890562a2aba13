# SPDX-License-Identifier: GPL-2.0-only
"""--fault SPEC: testbed.faults.Fault."""

import unittest

from testbed.faults import Fault

DEVICES = ["uas", "bot"]


class FaultTest(unittest.TestCase):
    def test_sector_kinds(self):
        f = Fault("medium-not-present@10240", DEVICES)
        self.assertEqual((f.kind, f.dev, f.sector),
                         ("medium-not-present", "uas", 10240))
        f = Fault("io-error@4096:bot", DEVICES)
        self.assertEqual((f.kind, f.dev, f.sector), ("io-error", "bot", 4096))
        self.assertFalse(hasattr(f, "t"))

    def test_timed_kinds(self):
        for kind in ("stall", "dip", "unplug"):
            f = Fault(f"{kind}@2.5+8:bot", DEVICES)
            self.assertEqual((f.kind, f.dev, f.t, f.d), (kind, "bot", 2.5, 8))
            # the blockdev code tells the kinds apart by this
            self.assertFalse(hasattr(f, "sector"))
        f = Fault("stall@0+1", DEVICES)
        self.assertEqual((f.t, f.d, f.dev), (0, 1, "uas"))

    def test_marks(self):
        f = Fault("unplug@hotplug+3:bot", DEVICES)
        self.assertEqual((f.kind, f.dev, f.mark, f.t, f.d),
                         ("unplug", "bot", "hotplug", 0, 3))
        self.assertEqual(Fault("stall@after-boot2+1.5", DEVICES).mark,
                         "after-boot2")
        self.assertIsNone(Fault("stall@1+1", DEVICES).mark)
        self.assertIsNone(Fault("io-error@8", DEVICES).mark)
        for spec in ("stall@hotplug", "stall@Hot+1", "stall@2x+1",
                     "io-error@x", "medium-not-present@mark+1"):
            with self.assertRaises(ValueError):
                Fault(spec, DEVICES)
        self.assertBad("unplug@hotplug+", "expected T+D in seconds")

    def test_spec_is_kept(self):
        self.assertEqual(Fault("dip@4+4", DEVICES).spec, "dip@4+4")

    def test_device_defaults_to_the_first(self):
        self.assertEqual(Fault("stall@1+1", ["bot", "uas"]).dev, "bot")

    def assertBad(self, spec, words, devices=DEVICES):
        with self.assertRaises(ValueError) as cm:
            Fault(spec, devices)
        self.assertIn(words, str(cm.exception))

    def test_bad_specs(self):
        for spec in ("", "stall", "stall@", "reset@1+1", "stall@1+1:",
                     "stall@1+1:UAS", "stall@-1+1", "io-error@x",
                     "stall@1+1:uas:bot", " stall@1+1"):
            self.assertBad(spec, "bad fault spec")

    def test_unknown_device(self):
        self.assertBad("stall@1+1:ehci", "no device 'ehci' in --devices "
                       "uas,bot")

    def test_sector_must_be_a_number(self):
        for spec in ("io-error@1.5", "medium-not-present@1+2",
                     "io-error@+1"):
            self.assertBad(spec, "SECTOR must be a number")

    def test_times(self):
        for spec in ("stall@3", "dip@1.2.3+4", "unplug@+", "stall@1+2+3"):
            self.assertBad(spec, "expected T+D in seconds")
        for spec in ("stall@3+0", "dip@1+0.0"):
            self.assertBad(spec, "T >= 0 and D > 0")


if __name__ == "__main__":
    unittest.main()
