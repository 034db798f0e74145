# lowered-places.awk AARCH64_LL X86_64_LL: prints "NAME<TAB>AARCH64<TAB>X86_64"
# for each function declared in both files whose arguments or result the
# x86-64 back end would place differently.  Each signature is shown as the
# units it places: "RESULT (ARG; ARG...)", an argument's units separated by
# spaces.  A name starting with __popcorn_callback_ is a callback: libc
# calls it, so libc's side provides the arguments and reads the result.
#
# How the back end places IR values: an aggregate is split into its
# elements, each placed alone; i1..i64 and ptr take a general register or an
# 8-byte stack slot; a floating-point or vector value an SSE register; a
# byval pointer its pointee, on the stack.  A zeroext or signext attribute
# (z, s below) says the reader may rely on the bits above the value.

function trim(s) { sub(/^ +/, "", s); sub(/ +$/, "", s); return s }

# Splits s at its top-level commas into parts[1..n]; returns n.
function split_top(s, parts,   n, i, c, depth, cur) {
	n = 0; depth = 0; cur = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c ~ /[({[<]/) depth++
		else if (c ~ /[)}\]>]/) depth--
		if (c == "," && depth == 0) { parts[++n] = cur; cur = ""; continue }
		cur = cur c
	}
	if (cur ~ /[^ ]/) parts[++n] = cur
	return n
}

# The type at the start of s; what follows it (the attributes) in AFTER.
function leading_type(s,   i, c, depth) {
	s = trim(s); depth = 0
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c ~ /[({[<]/) depth++
		else if (c ~ /[)}\]>]/) depth--
		else if (c == " " && depth == 0) break
	}
	AFTER = " " substr(s, i + 1) " "; return substr(s, 1, i - 1)
}

function extension(attributes) {
	return attributes ~ / zeroext / ? "z" : attributes ~ / signext / ? "s" : ""
}

# The units of IR type t; ext marks the integer ones.
function units(t, ext,   n, k, parts, r, element) {
	t = trim(t)
	if (t ~ /^\{/) {
		n = split_top(substr(t, 2, length(t) - 2), parts); r = ""
		for (k = 1; k <= n; k++) r = r " " units(parts[k], ext)
		return trim(r)
	}
	if (t ~ /^\[/) {
		element = t; sub(/^\[[0-9]+ x /, "", element); sub(/\]$/, "", element)
		n = substr(t, 2) + 0; r = ""
		for (k = 1; k <= n; k++) r = r " " units(element, ext)
		return trim(r)
	}
	if (t == "ptr") t = "i64"
	return t ~ /^i(1|8|16|32|64)$/ ? t ext : t
}

function argument_units(s,   t, byval) {
	t = leading_type(s)
	if (match(AFTER, / byval\([^)]*\)/)) return substr(AFTER, RSTART + 1, RLENGTH - 1)
	return units(t, extension(AFTER))
}

# The result type is the last top-level word of what precedes the name.
function result_units(head,   n, words, t) {
	n = split(head, words, " "); t = words[n]
	if (t ~ /[}\]>]$/) { t = head; sub(/^[a-z_ ]*(\([^)]*\) )*/, "", t); sub(/^(noalias|noundef|zeroext|signext|nonnull|inreg) /, "", t) }
	return t == "void" ? "void" : units(t, extension(" " head " "))
}

# Sets NAME, RESULT and ARGS from a "declare" line.
function parse(line,   at, head, depth, i, c, n, parts, k) {
	sub(/^declare /, "", line)
	at = index(line, " @"); head = substr(line, 1, at - 1); line = substr(line, at + 2)
	at = index(line, "("); NAME = substr(line, 1, at - 1); line = substr(line, at)
	depth = 0
	for (i = 1; i <= length(line); i++) {
		c = substr(line, i, 1)
		if (c == "(") depth++
		else if (c == ")" && --depth == 0) break
	}
	RESULT = result_units(head)
	n = split_top(substr(line, 2, i - 2), parts); ARGS = ""
	for (k = 1; k <= n; k++)
		ARGS = ARGS (k > 1 ? "; " : "") (trim(parts[k]) == "..." ? "..." : argument_units(parts[k]))
}

# Does the reader find in unit r what the writer put in unit w?  An integer
# may be read narrower than written, unless the reader relies on extension.
function fits(w, r,   ww, rw, we, re) {
	if (w !~ /^i[0-9]+[zs]?$/ || r !~ /^i[0-9]+[zs]?$/) return w == r
	ww = substr(w, 2) + 0; rw = substr(r, 2) + 0
	we = w; sub(/^i[0-9]+/, "", we); re = r; sub(/^i[0-9]+/, "", re)
	return re == "" ? ww >= rw : we == re && ww == rw
}

function all_fit(written, read,   nw, nr, w, r, k) {
	gsub(/;/, "", written); gsub(/;/, "", read)
	nw = split(written, w, " "); nr = split(read, r, " ")
	if (nw != nr) return 0
	for (k = 1; k <= nw; k++) if (!fits(w[k], r[k])) return 0
	return 1
}

FNR == 1 { file++ }
!/^declare / { next }
{ parse($0) }
file == 1 { aarch64_result[NAME] = RESULT; aarch64_args[NAME] = ARGS; next }
!(NAME in aarch64_result) { print "lowered-places.awk: " NAME " is declared for x86-64 only" >"/dev/stderr"; exit 1 }
{
	if (NAME ~ /^__popcorn_callback_/)
		same = all_fit(ARGS, aarch64_args[NAME]) && all_fit(aarch64_result[NAME], RESULT)
	else
		same = all_fit(aarch64_args[NAME], ARGS) && all_fit(RESULT, aarch64_result[NAME])
	if (!same)
		printf "%s\t%s (%s)\t%s (%s)\n", NAME, aarch64_result[NAME], aarch64_args[NAME], RESULT, ARGS
}
