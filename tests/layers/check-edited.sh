#!/bin/sh
# Runs scripts/check-layers.sh on a copy of the runtime with one line
# appended to one of its files (created if need be): the layering check
# must catch an edit that breaks the layers (expect-failure.sh).
#
#   check-edited.sh SOURCE_DIR WORK_DIR FILE LINE
set -eu
if [ $# -ne 4 ]; then
	echo "usage: $0 SOURCE_DIR WORK_DIR FILE LINE" >&2
	exit 2
fi
source=$1 work=$2 file=$3 line=$4
rm -rf "$work"
mkdir -p "$work"
cp -R "$source/runtime" "$work/runtime"
printf '%s\n' "$line" >>"$work/runtime/$file"
exec sh "$source/scripts/check-layers.sh" "$work/runtime"
