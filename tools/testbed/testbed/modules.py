# SPDX-License-Identifier: GPL-2.0-only
"""The guest's kernel modules and their dependencies, in load order."""

import os
import re


def module_order(moddir, wanted):
    """Module files of `wanted` and their dependencies, in load order."""
    deps, path_of = {}, {}
    with open(os.path.join(moddir, "modules.dep")) as f:
        for line in f:
            mod, _, rest = line.partition(":")
            name = re.sub(r"\.ko(\.xz|\.zst|\.gz)?$", "",
                          os.path.basename(mod)).replace("-", "_")
            path_of[name] = mod
            deps[mod] = rest.split()
    order, done = [], set()

    def visit(mod):
        if mod in done:
            return
        done.add(mod)
        for d in deps.get(mod, []):
            visit(d)
        order.append(mod)

    for w in wanted:
        mod = path_of.get(w.replace("-", "_"))
        if mod:         # not there: built into this kernel
            visit(mod)
    return order
