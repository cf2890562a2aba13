#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Install every build, test and benchmark dependency of usbtrail from
# Debian's packages.  Idempotent: packages already present are not touched,
# and apt is only called when something is missing.
#
#   tools/deps.sh            everything (build, unit tests, test bed kernels)
#   tools/deps.sh --build    only what `make` needs
#
# The test bed kernels are pinned in tools/kernels.conf: image and headers
# are installed by ABI name so they always match.  Kernel images are not
# installed into /boot (that would touch the host's boot loader): they are
# unpacked into $USBTRAIL_KCACHE (default /var/cache/usbtrail/kernels).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
kcache=${USBTRAIL_KCACHE:-/var/cache/usbtrail/kernels}
what=${1:-all}

build_pkgs="build-essential pkg-config libusb-1.0-0-dev libsystemd-dev
	libevdev-dev libtracefs-dev libtraceevent-dev liburing-dev
	libjson-c-dev libyajl-dev zlib1g-dev libssl-dev liblzma-dev libzstd-dev
	libbz2-dev"
test_pkgs="libcmocka-dev python3 qemu-system-x86 qemu-utils busybox-static
	cpio xz-utils kmod sparse file procps dkms linux-source-6.1 fio
	clang libclang-rt-14-dev jq tshark trace-cmd tcpdump chromium
	systemd systemd-journal-remote sg3-utils gzip bzip2 zstd"

die() { echo "deps.sh: $*" >&2; exit 1; }

if [ "$(id -u)" != 0 ]; then
	die "must run as root (it installs Debian packages)"
fi

missing() {
	for p in "$@"; do
		dpkg-query -W -f='${db:Status-Status}\n' "$p" 2>/dev/null |
			grep -qx installed || echo "$p"
	done
}

apt_updated=
apt_install() {
	[ -n "$*" ] || return 0
	if [ -z "$apt_updated" ]; then
		apt-get update -qq || die "apt-get update failed"
		apt_updated=1
	fi
	echo "deps.sh: installing $*" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends "$@" >/dev/null ||
		die "apt-get install $* failed"
}

ensure_backports() {
	grep -rqs 'bookworm-backports' /etc/apt/sources.list \
		/etc/apt/sources.list.d/ && return 0
	echo "deps.sh: adding the bookworm-backports suite" >&2
	cat >/etc/apt/sources.list.d/usbtrail-backports.sources <<EOT
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOT
	apt_updated=
}

# Unpack linux-image-ABI (and its module tree) into $kcache/ABI, so the test
# bed has vmlinuz and the .ko files without a second kernel on the host.
kernel_image() {
	abi=$1
	[ -f "$kcache/$abi/.complete" ] && return 0
	tmp=$(mktemp -d)
	chmod 755 "$tmp"	# apt's _apt user downloads into it
	(cd "$tmp" && apt-get download -qq -o APT::Sandbox::User=root "linux-image-$abi" >/dev/null) ||
		{ rm -rf "$tmp"; die "cannot download linux-image-$abi"; }
	rm -rf "$kcache/$abi"
	mkdir -p "$kcache/$abi"
	dpkg-deb -x "$tmp"/linux-image-*.deb "$kcache/$abi"
	rm -rf "$tmp"
	# The package ships no modules.dep: the postinst makes it.
	for v in "$kcache/$abi"/lib/modules/*; do
		depmod -b "$kcache/$abi" "$(basename "$v")" ||
			die "depmod failed for $abi"
	done
	touch "$kcache/$abi/.complete"
}

# shellcheck disable=SC2086
apt_install $(missing $build_pkgs)
[ "$what" = "--build" ] && exit 0
# shellcheck disable=SC2086
apt_install $(missing $test_pkgs)

# checkpatch.pl and its data files, from Debian's kernel source tarball
# (the headers packages do not ship it)
cp_dir=/var/cache/usbtrail/checkpatch
if [ ! -f "$cp_dir/scripts/checkpatch.pl" ]; then
	mkdir -p "$cp_dir"
	tar -C "$cp_dir" --strip-components=1 -xJf \
		/usr/src/linux-source-6.1.tar.xz --wildcards \
		'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch' ||
		die "cannot extract checkpatch.pl from linux-source-6.1"
fi

grep -v '^#' "$here/kernels.conf" | while read -r name abi suite; do
	[ -n "$name" ] || continue
	[ "$name" = default ] && continue
	[ "$suite" = bookworm-backports ] && ensure_backports
	apt_install $(missing "linux-headers-$abi")
	kernel_image "$abi"
done
