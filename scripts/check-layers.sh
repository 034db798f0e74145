#!/bin/sh
# Checks that the runtime's includes run down its layers: every source file
# is in a folder that runtime/LAYERS lists, and includes headers of its own
# folder or of folders listed before it, each by its folder
# ("link/Channel.h", or <popcorn.h> for a public header), never by a
# relative path.  One line per include that breaks this; exit 1 if any.
#
#   scripts/check-layers.sh [RUNTIME_DIR]   (default: the runtime beside it)
set -u
runtime=${1:-$(dirname "$0")/../runtime}
layers=$runtime/LAYERS
if [ ! -r "$layers" ]; then
	echo "check-layers.sh: cannot read $layers" >&2
	exit 2
fi
cd "$runtime" || exit 2
# Every C, C++ and assembly file below the runtime, and its headers by
# name: a bare "Channel.h" that names one of them hides its folder.
find . -type f \( -name '*.h' -o -name '*.c' -o -name '*.cpp' -o -name '*.S' \) |
	sed 's|^\./||' | sort | awk -v layers=LAYERS '
BEGIN {
	while ((getline line < layers) > 0) {
		sub(/#.*/, "", line)
		if (split(line, word, " ") == 0)
			continue
		rank[word[1]] = ++count
	}
}
{
	files[NR] = $0
	n = split($0, part, "/")
	header[part[n]] = $0
}
END {
	for (i = 1; i in files; i++)
		check(files[i])
	exit bad
}
function complain(text) {
	print text
	bad = 1
}
function check(path,    folder, line, lineno, target, top, angled) {
	folder = path
	if (!sub(/\/.*/, "", folder)) {
		complain(path ": not in a folder of LAYERS")
		return
	}
	if (!(folder in rank)) {
		complain(path ": folder " folder "/ is not in LAYERS")
		return
	}
	lineno = 0
	while ((getline line < path) > 0) {
		lineno++
		if (line !~ /^[ \t]*#[ \t]*include[ \t]*["<]/)
			continue
		angled = line ~ /^[ \t]*#[ \t]*include[ \t]*</
		target = line
		sub(/^[^"<]*["<]/, "", target)
		sub(/[">].*/, "", target)
		if (target ~ /(^|\/)\.\.?\//) {
			complain(path ":" lineno ": includes " target " by a relative path; name its folder")
			continue
		}
		top = target
		if (!sub(/\/.*/, "", top)) {
			if (!(target in header))
				continue
			# <popcorn.h>: a public header, of the folder it is in.
			if (!angled) {
				complain(path ":" lineno ": includes " target " without its folder (" header[target] ")")
				continue
			}
			top = header[target]
			sub(/\/.*/, "", top)
		}
		if (top in rank && rank[top] > rank[folder])
			complain(path ":" lineno ": includes " target ", but " top "/ is a layer above " folder "/ (LAYERS)")
	}
	close(path)
}'
