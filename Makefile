# SPDX-License-Identifier: GPL-2.0-only
#
# usbtrail top-level Makefile.
#
#   make                  build the usbtrail command (userspace/) and its
#                         man page
#   make module [KDIR=]   build usbtrail.ko (default: the running kernel's
#                         headers, /lib/modules/$(uname -r)/build)
#   make module-testbed   build usbtrail.ko for the test bed's kernel
#   make check            install what is missing, build, run every test
#   make check-fast       every test but the test bed's (no QEMU), the
#                         fuzzers briefly
#   make clang            the userspace built with clang -Werror
#   make demo             the test bed reproduces a failure, usbtrail shows it
#   make deps             install build/test dependencies (Debian 12, root)
#   make man              build/man/usbtrail.1, from man/usbtrail.1.in
#   make wireshark        build/wireshark/usbtrail.lua, the dissector of
#                         the trace records in capture.pcapng
#   make install          the command, its man page and the documents
#                         into $(DESTDIR)$(PREFIX); make uninstall removes them

KABI_DEFAULT := $(shell awk '$$1 == "default" { print $$2 }' tools/kernels.conf)
# Kbuild's convention: the running kernel, as an external module is built
KREL := $(shell uname -r)
KDIR ?= /lib/modules/$(KREL)/build
TESTBED_ABI ?= $(KABI_DEFAULT)

PREFIX ?= /usr/local
DESTDIR ?=
MANDIR ?= $(PREFIX)/share/man
# what the man page points at: README.md, and docs/ below it as in the tree
# (README.md's links, and the command's "see docs/module.md", still hold)
DOCDIR ?= $(PREFIX)/share/doc/usbtrail
DOCS := README.md $(wildcard docs/*.md) $(wildcard docs/*.png)
BINDIR ?= $(PREFIX)/bin
SYSCONFDIR ?= /etc
# systemd reads units from /usr/local/lib/systemd/system as from /usr/lib
UNITDIR ?= $(PREFIX)/lib/systemd/system
# Wireshark's Lua plugins: where Debian's Wireshark looks when PREFIX is
# /usr (wireshark -G folders: "Global Lua Plugins"); elsewhere give it
# with -X lua_script:FILE, or copy it to ~/.local/lib/wireshark/plugins
MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)
LUADIR ?= $(PREFIX)/lib/$(MULTIARCH)/wireshark/plugins
# the one version, for the man page (userspace/Makefile reads it too)
VERSION := $(strip $(shell cat VERSION 2>/dev/null))

.PHONY: all usbtrail usbtrail-san clang module module-testbed module-clean \
	testbed-build \
	deps check check-debug check-fast demo bench-module bench-record bench-analyze \
	bench-iocost bench-fs \
	man unit wireshark install uninstall clean

all: usbtrail man unit wireshark

usbtrail:
	$(MAKE) -C userspace

# the command with ASan and UBSan, which the cli, corpus and host suites
# run under make check and check-fast
SAN_BIN := userspace/build-san/usbtrail
usbtrail-san:
	$(MAKE) -C userspace SANITIZE=1

clang:
	$(MAKE) -C userspace clang

# Kbuild (the file beside this one) descends into module/.
module:
	@test -d "$(KDIR)" || { \
		echo "make module: no kernel headers in $(KDIR)" >&2; \
		echo "  for the running kernel: apt install linux-headers-$(KREL)" \
			"(Debian, Ubuntu; elsewhere the distribution's kernel headers)" >&2; \
		echo "  for another: make module KDIR=/path/to/its/build;" \
			"for the test bed's: make module-testbed" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

module-testbed:
	$(MAKE) module KDIR=/usr/src/linux-headers-$(KABI_DEFAULT)

module-clean:
	@test ! -d "$(KDIR)" || $(MAKE) -C $(KDIR) M=$(CURDIR) clean

# What tools/testbed/run packs into the guest: the command, and the module
# built in a per-kernel copy of the tree so two kernels never share objects,
# by tools/kbuild (the host's compiler for bookworm's kernels, a build root
# of their release for the others), with the xHCI tracepoints' prototypes
# of the kernel's source tree (tools/tp-protos) when it is unpacked.  A
# compiler warning fails it.
KMOD_DIR := build/kmod/$(TESTBED_ABI)
KSRC_DIR = /var/cache/usbtrail/src/linux-$(shell echo $(TESTBED_ABI) | sed 's/^\([0-9]*\.[0-9]*\).*/\1/')
testbed-build: usbtrail
	$(MAKE) -s -C userspace tools
	@# an arm64 guest: the command and the tools cross-built too
	$(if $(filter arm64,$(TESTBED_ARCH)),$(MAKE) -s -C userspace CROSS=arm64 all tools)
	@mkdir -p $(KMOD_DIR)/src
	@cp -pr Kbuild VERSION module $(KMOD_DIR)/src/
	@# made anew each time, replaced only when it differs (no rebuild)
	@h=$(KMOD_DIR)/src/module/ut_tp_kernel.h; \
	if [ -d $(KSRC_DIR) ]; then tools/tp-protos $(KSRC_DIR) >$$h.new && \
		{ cmp -s $$h.new $$h && rm $$h.new || mv $$h.new $$h; }; \
	else rm -f $$h; fi
	@+tools/kbuild $(TESTBED_ABI) $(KMOD_DIR)/src -s modules \
		>$(KMOD_DIR)/build.log 2>&1 || { cat $(KMOD_DIR)/build.log; exit 1; }
	@if grep -E '(warning|error):' $(KMOD_DIR)/build.log; then \
		echo "usbtrail.ko for $(TESTBED_ABI) built with warnings" >&2; exit 1; fi
	@# renamed into place: a guest of another test may be packing the old one
	@cp -p $(KMOD_DIR)/src/module/usbtrail.ko $(KMOD_DIR)/usbtrail.ko.new && \
		mv $(KMOD_DIR)/usbtrail.ko.new $(KMOD_DIR)/usbtrail.ko

deps:
	tools/deps.sh

# Builds, and the builds the tests make, use every core; one build
# directory at a time (they share the generated build/gen/).
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

check: deps
	$(MAKE) -j$(JOBS) usbtrail wireshark
	$(MAKE) -j$(JOBS) usbtrail-san
	$(MAKE) -s -j$(JOBS) -C userspace tools
	MAKEFLAGS=-j$(JOBS) USBTRAIL=$(SAN_BIN) tests/run

# The module's robustness tests (13, 14, 15) on the debug kernel (KASAN,
# lockdep, atomic-sleep, kmemleak, UBSAN; docs/testbed.md): its first build
# takes about 35 CPU-minutes, so it is not part of make check.
check-debug:
	tools/deps.sh --debug-kernel
	$(MAKE) -j$(JOBS) usbtrail
	$(MAKE) -j$(JOBS) usbtrail-san
	$(MAKE) -s -j$(JOBS) -C userspace tools
	MAKEFLAGS=-j$(JOBS) USBTRAIL=$(SAN_BIN) TB_DEBUG=1 tests/run @debug

# Every test but the test bed's: unit tests, the command line and host
# suites under ASan+UBSan, a clang build, the lints, the fuzzers for a few
# seconds each.
check-fast:
	$(MAKE) -j$(JOBS) usbtrail wireshark
	$(MAKE) -j$(JOBS) usbtrail-san
	$(MAKE) -s -j$(JOBS) -C userspace tools
	MAKEFLAGS=-j$(JOBS) USBTRAIL=$(SAN_BIN) tests/run --no-testbed

demo: deps
	tools/demo

# usbtrail.ko's overhead in the test bed (docs/performance.md)
bench-module: deps
	bench/module-overhead

# recording's cost against bare writes and trace-cmd (docs/performance.md)
bench-record: deps
	bench/record-overhead

# the guest's CPU time per write, instruction-counted (docs/performance.md)
bench-iocost: deps
	bench/io-cost

bench-analyze: deps usbtrail
	bench/analyze-speed.sh

# stress DIR against pv, cp -r, ls -lR and find -exec cat on this disk
# (BENCH_DIRS: others, a mounted stick's; docs/performance.md)
bench-fs: deps usbtrail
	bench/stress-vs-pv.sh $(BENCH_DIRS)

# The man page with VERSION's version and the DOCDIR of this make; made
# each time, as DOCDIR follows PREFIX.
MAN_PAGE := build/man/usbtrail.1
man:
	@test -n "$(VERSION)" || { echo "make man: VERSION is missing or empty" >&2; exit 1; }
	@mkdir -p $(dir $(MAN_PAGE))
	sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@DOCDIR@|$(DOCDIR)|g' \
		man/usbtrail.1.in >$(MAN_PAGE).tmp
	@mv $(MAN_PAGE).tmp $(MAN_PAGE)

# The Wireshark dissector, its value names from usbtrail's own tables
# (tools/wireshark/gen-lua.awk).
LUA := build/wireshark/usbtrail.lua
LUA_SRCS := tools/wireshark/gen-lua.awk module/uapi/linux/usbtrail.h \
	data/xhci-cc.tsv data/scsi-sense-keys.tsv data/scsi-asc.tsv \
	tools/wireshark/usbtrail.lua.in
wireshark: $(LUA)
$(LUA): $(LUA_SRCS)
	@mkdir -p $(dir $@)
	awk -f $(LUA_SRCS) >$@.tmp
	@mv $@.tmp $@

# The unit of usbtrail watch with this make's paths (tools/systemd/).
UNIT := build/systemd/usbtrail-watch.service
unit:
	@mkdir -p $(dir $(UNIT))
	sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@DOCDIR@|$(DOCDIR)|g' \
		-e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' \
		tools/systemd/usbtrail-watch.service.in >$(UNIT).tmp
	@mv $(UNIT).tmp $(UNIT)

# The module installs through DKMS (dkms.conf, docs/module.md).  The
# watch settings are the user's once there: never overwritten.
install: usbtrail man unit wireshark
	install -D -m 0755 userspace/usbtrail $(DESTDIR)$(BINDIR)/usbtrail
	install -D -m 0644 $(LUA) $(DESTDIR)$(LUADIR)/usbtrail.lua
	install -D -m 0644 $(MAN_PAGE) $(DESTDIR)$(MANDIR)/man1/usbtrail.1
	install -D -m 0644 $(UNIT) $(DESTDIR)$(UNITDIR)/usbtrail-watch.service
	[ -e $(DESTDIR)$(SYSCONFDIR)/usbtrail/watch.conf ] || \
		install -D -m 0644 tools/systemd/watch.conf \
			$(DESTDIR)$(SYSCONFDIR)/usbtrail/watch.conf
	install -d $(DESTDIR)$(DOCDIR)/docs
	install -m 0644 README.md $(DESTDIR)$(DOCDIR)/
	install -m 0644 $(filter docs/%,$(DOCS)) $(DESTDIR)$(DOCDIR)/docs/

# What install put there, and its directories of ours when left empty.
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/usbtrail \
		$(DESTDIR)$(MANDIR)/man1/usbtrail.1 \
		$(DESTDIR)$(UNITDIR)/usbtrail-watch.service \
		$(DESTDIR)$(LUADIR)/usbtrail.lua \
		$(addprefix $(DESTDIR)$(DOCDIR)/,$(DOCS))
	# the watch settings only as installed; once changed, they are the user's
	if cmp -s tools/systemd/watch.conf $(DESTDIR)$(SYSCONFDIR)/usbtrail/watch.conf; then \
		rm -f $(DESTDIR)$(SYSCONFDIR)/usbtrail/watch.conf; \
		rmdir --ignore-fail-on-non-empty $(DESTDIR)$(SYSCONFDIR)/usbtrail; fi
	for d in $(DESTDIR)$(DOCDIR)/docs $(DESTDIR)$(DOCDIR); do \
		[ ! -d "$$d" ] || rmdir --ignore-fail-on-non-empty "$$d"; done

clean: module-clean
	$(MAKE) -C userspace clean
	rm -rf build
