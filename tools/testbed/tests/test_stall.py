# SPDX-License-Identifier: GPL-2.0-only
"""testbed.runner.boot_stall: a stall the guest's kernel reported while
booting, before COMMAND started."""

import unittest

from testbed.runner import boot_stall

# A boot with a stall, in the form 6.1 prints it (kernel/rcu/tree_stall.h);
# 10-module-records@cpus2's boot of 3 December 2026 had CPU 0 stalled in
# poke_int3_handler while the stock USB modules loaded.
BOOT = b"""\
[    0.000000] Linux version 6.1.0-57-amd64 (debian-kernel@lists.debian.org)
[    1.020311] smp: Brought up 1 node, 2 CPUs
[    4.811201] usbcore: registered new interface driver usb-storage
[   27.912410] rcu: INFO: rcu_sched self-detected stall on CPU
[   27.912410] rcu: \t0-....: (5249 ticks this GP) idle=b8c/1/0x4000000000000000
[   27.912410] RIP: 0010:poke_int3_handler+0x5a/0x140
"""
START = b"[   40.100000] testbed: command start\n"


class BootStallTest(unittest.TestCase):
    def test_stall_before_command(self):
        self.assertEqual(boot_stall(BOOT),
                         "[   27.912410] rcu: INFO: rcu_sched self-detected "
                         "stall on CPU")
        self.assertIsNotNone(boot_stall(BOOT + START))

    def test_other_reports(self):
        for line in (b"rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:",
                     b"rcu: INFO: rcu_sched detected expedited stalls on "
                     b"CPUs/tasks: { 1-... } 21 jiffies s: 201 root: 0x2/.",
                     b"watchdog: BUG: soft lockup - CPU#0 stuck for 22s! "
                     b"[insmod:87]"):
            self.assertIsNotNone(boot_stall(b"[ 3.0] x\n[ 30.1] " + line),
                                 line)

    def test_after_command_is_not_a_boot_stall(self):
        # COMMAND's own stalls are the test's to see, never retried
        after = BOOT.split(b"[   27.9", 1)[0] + START + BOOT.split(
            b"usb-storage\n", 1)[1]
        self.assertIsNone(boot_stall(after))

    def test_clean_boot(self):
        self.assertIsNone(boot_stall(BOOT.split(b"[   27.9", 1)[0] + START))
        self.assertIsNone(boot_stall(b""))
        # the words alone, as a message might quote them
        self.assertIsNone(boot_stall(b"[ 1.0] rcu: Hierarchical RCU "
                                     b"implementation.\n"))


if __name__ == "__main__":
    unittest.main()
