#!/bin/sh
# list-functions.sh NM LIBC_A OUT: the global functions libc.a defines, one
# a line, sorted (read by popcorn-plugin: see compiler/plugin/LibcFunctions.h).
set -eu
"$1" --defined-only --extern-only "$2" | awk '$2 == "T" || $2 == "W" { print $3 }' | sort -u >"$3.tmp"
mv "$3.tmp" "$3"
