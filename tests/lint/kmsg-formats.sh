#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# data/kmsg-formats.tsv against the kernel's own sources, as TAP
# (tools/check-kmsg-formats says how): for every row not marked "old",
# each literal piece of its format must be in the string literals of its
# `where` file(s) in every kernel tree its versions name (5.10, 6.1, 6.12,
# 7.3: tools/kernel-sources.conf, unpacked by tools/deps.sh under
# /var/cache/usbtrail/src).  A missing piece fails; a row whose pieces are
# found in a version it does not list is a "#" line to read; a kernel tree
# that is not there is skipped.  Takes a few seconds.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
exec python3 "$top/tools/check-kmsg-formats" "$@"
