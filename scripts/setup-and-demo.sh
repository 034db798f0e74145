#!/bin/sh
# A fresh Debian 12 machine to a running demo: install the packages, build
# the toolchain, build the demo program once with popcorn-clang and run it.
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh build
examples/run-demo.sh build
