# SPDX-License-Identifier: GPL-2.0-only
"""The emulated USB test bed: tools/testbed/run is its command line.

config     where things are, the devices and controllers, exit statuses
faults     --fault SPEC parsed, and the knobs of each fault
args       the command line (parse_args) and tools/kernels.conf
cpio       a newc cpio writer (the initramfs) and ldd's shared libraries
modules    the guest's kernel modules in load order, from modules.dep
initramfs  what goes into the guest
qmp        the QMP connection to QEMU
qemu       -device property sets of the enclosures, -accel for N CPUs
runner     one run: QEMU's command line, boot, faults on time, the result

tools/testbed/tests/ holds their unit tests, which need no QEMU.
"""
