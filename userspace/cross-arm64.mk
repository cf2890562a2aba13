# SPDX-License-Identifier: GPL-2.0-only
#
# The arm64 build of the command and the test tools, for the arm64 test
# bed (tools/testbed/run --arch arm64):
#
#   make -C userspace CROSS=arm64          build-arm64/usbtrail
#   make -C userspace CROSS=arm64 tools    build-arm64/tools/*
#
# gcc-aarch64-linux-gnu against the sysroot of arm64 -dev packages that
# tools/deps.sh unpacks from Debian's archive (ARM64_SYSROOT); linked
# dynamically, as Debian has no static libsystemd: the test bed packs the
# shared libraries the binaries name, from the same sysroot.  The
# Makefile includes this file twice: once before anything is built
# (CROSS_VARS, the compiler and pkg-config) and at its end (the rules).

ifeq ($(CROSS_VARS),1)
ARM64_SYSROOT ?= /var/cache/usbtrail/arm64/sysroot
ifeq ($(wildcard $(ARM64_SYSROOT)/.complete),)
$(error no arm64 sysroot in $(ARM64_SYSROOT) (run tools/deps.sh))
endif
CC := aarch64-linux-gnu-gcc --sysroot=$(ARM64_SYSROOT)
AR := aarch64-linux-gnu-ar
PKG_CONFIG := PKG_CONFIG_SYSROOT_DIR=$(ARM64_SYSROOT) \
	PKG_CONFIG_LIBDIR=$(ARM64_SYSROOT)/usr/lib/aarch64-linux-gnu/pkgconfig:$(ARM64_SYSROOT)/usr/share/pkgconfig \
	pkg-config
BUILD := build-arm64
BIN := build-arm64/usbtrail
else

ARM64_TOOLS := $(TOOL_SRCS:../tests/tools/%.c=build-arm64/tools/%)
tools: $(ARM64_TOOLS)

build-arm64/%.o: %.c | build-arm64
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

build-arm64/lib/%.o: lib/%.c | build-arm64/lib
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

build-arm64/lib/datatab_gen.o: $(DATATAB_GEN) | build-arm64/lib
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

$(KSHARED:%=build-arm64/lib/%.o): build-arm64/lib/%.o: ../module/%.c | build-arm64/lib
	$(CC) $(KSHIM_CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

build-arm64/tools/%: ../tests/tools/%.c build-arm64/libusbtrail-app.a \
		build-arm64/libusbtrail.a | build-arm64/tools
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ \
		$(PKG_LIBS) $(EXTRA_LIBS) $(LDLIBS)

build-arm64 build-arm64/lib build-arm64/tools:
	mkdir -p $@

-include $(wildcard build-arm64/*.d build-arm64/lib/*.d)
endif
