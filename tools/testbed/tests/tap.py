#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Run the test bed's unit tests (tools/testbed/tests/test_*.py) as TAP,
one point a test; exit status 0 when all passed."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)


class TapResult(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.n = 0

    def _point(self, test, ok, note=""):
        self.n += 1
        name = f"{test.__class__.__module__.split('.')[-1]}." \
            f"{test.__class__.__name__}.{test._testMethodName}"
        print(f"{'ok' if ok else 'not ok'} {self.n} - {name}{note}")

    def addSuccess(self, test):
        super().addSuccess(test)
        self._point(test, True)

    def _fail(self, test, err, kind):
        self._point(test, False)
        text = self._exc_info_to_string(err, test)
        for line in text.splitlines():
            print(f"# {line}")

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._fail(test, err, "failure")

    def addError(self, test, err):
        super().addError(test, err)
        self._fail(test, err, "error")

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._point(test, True, f" # SKIP {reason}")


def main():
    suite = unittest.defaultTestLoader.discover(HERE, top_level_dir=TOP)
    result = TapResult()
    suite.run(result)
    if result.errors and not result.n:
        print("not ok 1 - the tests load")
        result.n = 1
    print(f"1..{result.n}")
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
