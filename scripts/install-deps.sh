#!/bin/sh
# Install what building and testing popcorn needs on Debian 12, including a
# deb-src entry so libc-patches/build-musl.sh can fetch musl's source package.
set -eu

if [ "$(id -u)" -ne 0 ]; then
	exec sudo "$0" "$@"
fi

packages="clang-19 lld-19 liblld-19-dev llvm-19 llvm-19-dev llvm-19-tools libgcc-12-dev libelf-dev
	qemu-user libgcc-12-dev-arm64-cross libgtest-dev cmake ninja-build
	make patch dpkg-dev python3 ca-certificates musl-dev valgrind gdb tcl binutils
	openssh-client openssh-server autoconf automake
	unicode-data python3-six"

# Source entries mirroring the binary ones, so 'apt-get source' works.
has_deb_src() {
	grep -qs '^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list ||
		grep -qs '^Types:.*deb-src' /etc/apt/sources.list.d/*.sources
}
if ! has_deb_src; then
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		grep -q '^Types:.*\bdeb\b' "$f" || continue
		sed 's/^Types:.*/Types: deb-src/' "$f" >"/etc/apt/sources.list.d/popcorn-src-$(basename "$f")"
	done
	if [ -f /etc/apt/sources.list ] && grep -q '^deb ' /etc/apt/sources.list; then
		sed -n 's/^deb /deb-src /p' /etc/apt/sources.list >/etc/apt/sources.list.d/popcorn-src.list
	fi
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends $packages >/dev/null

# The benchmarks' stock aarch64 baseline (bench/size.sh, bench/real.sh):
# Debian's aarch64 musl, through multiarch.  Optional: without it
# bench/size.sh uses the project's own aarch64 musl and says so, and
# bench/real.sh and its test (harness.real-bench) do not run.
# Never fatal: a mirror without arm64 must not stop the build.
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	dpkg --add-architecture arm64
	if ! apt-get update -qq; then
		dpkg --remove-architecture arm64 || true
		apt-get update -qq || true
	fi
fi
apt-get install -y -qq --no-install-recommends musl-dev:arm64 >/dev/null 2>&1 ||
	echo "install-deps: musl-dev:arm64 not installed (bench/size.sh falls back)" >&2
echo "install-deps: done"
