#!/bin/sh
# Configure and build everything (tools, musl for every ISA, runtime, tests)
# into BUILD_DIR (default: build).  Incremental: musl is rebuilt only when
# its patches change.
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build"
