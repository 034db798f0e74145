#!/bin/sh
# The whole test suite on a fresh Debian 12 machine: install the packages,
# build, and run every test with ctest.
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh build
cd build
ctest --output-on-failure -j2
