# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests of the test bed's package (tools/testbed/testbed/), no QEMU.

  python3 -m unittest discover -s tools/testbed/tests -t tools/testbed
  python3 tools/testbed/tests/tap.py       (the same, as TAP: tests/run)
"""
