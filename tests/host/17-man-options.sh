#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The man page says what --help says, and nothing --help does not: for
# usbtrail (.SH OPTIONS) and for each command (.SS NAME), every option of
# its --help, short and long, with its argument, is a .TP head of its
# section of man/usbtrail.1.in, and every option head there is one of its
# --help; the options a synopsis names are its command's; every long
# option the page mentions is one of usbtrail's; each command's section
# has an exit status part with every status its --help names.
. "$(dirname "$0")/lib.sh"

man=$top/man/usbtrail.1.in
[ -f "$man" ] || fail "no $man"

# lines to one line of words
words() {
	tr '\n' ' ' | sed 's/ $//'
}

# roff to plain text: fonts off, \- to -
roff_plain='function plain(s) {
	gsub(/\\f[BIRP]/, "", s); gsub(/\\f\(../, "", s)
	gsub(/\\-/, "-", s); gsub(/\\&/, "", s)
	return s
}'

# "-o, --output DIR" -> "-o DIR" and "--output DIR", one a line
emit_head='function emit(head,   n, w, i, arg) {
	gsub(/,/, " ", head)
	n = split(head, w, " ")
	arg = ""
	for (i = 1; i <= n; i++)
		if (substr(w[i], 1, 1) != "-")
			arg = arg (arg == "" ? "" : " ") w[i]
	for (i = 1; i <= n; i++)
		if (substr(w[i], 1, 1) == "-")
			print w[i] (arg == "" ? "" : " " arg)
}'

# help_opts FILE: the option heads of the Options: block of a --help
help_opts() {
	awk "$emit_head"'
	/^Options:$/ { on = 1; next }
	on && /^$/ { on = 0 }
	on {
		indent = match($0, /[^ ]/) - 1
		if (indent < 1 || indent > 8 || substr($0, indent + 1, 1) != "-")
			next
		line = substr($0, indent + 1)
		i = index(line, "  ")
		emit(i ? substr(line, 1, i - 1) : line)
	}' "$1" | sort -u
}

# help_exits FILE: the numbers after "Exit status:", to the paragraph's end
help_exits() {
	awk '
	!on && (i = index($0, "Exit status:")) { on = 1; $0 = substr($0, i + 12) }
	on && /^$/ { exit }
	on {
		n = split($0, w, /[^0-9A-Za-z]+/)
		for (i = 1; i <= n; i++)
			if (w[i] ~ /^[0-9]+$/)
				print w[i]
	}' "$1" | sort -u
}

# section NAME: the lines of ".SS NAME", or of ".SH OPTIONS" for ""
section() {
	if [ -n "$1" ]; then want=".SS $1"; else want=".SH OPTIONS"; fi
	awk -v want="$want" '
	/^\.S[HS] / { on = ($0 == want); next }
	on && !/^\.\\"/' "$man"
}

# man_opts: the option heads (.TP heads that begin with -) of a section
man_opts() {
	awk "$roff_plain $emit_head"'
	tp { tp = 0; h = plain($0); if (substr(h, 1, 1) == "-") emit(h) }
	/^\.TP/ { tp = 1 }' | sort -u
}

# man_exits: the numbers of the .TP heads after ".B Exit status"
man_exits() {
	awk "$roff_plain"'
	/^\.B "?Exit status"?$/ { on = 1; next }
	on && tp {
		tp = 0
		n = split(plain($0), w, /[^0-9]+/)
		for (i = 1; i <= n; i++)
			if (w[i] != "")
				print w[i]
	}
	on && /^\.TP/ { tp = 1 }' | sort -u
}

# synopsis_opts: "COMMAND OPTION" for each option a synopsis line names:
# those of .SH SYNOPSIS (after ".B usbtrail COMMAND"), and of each .SS
# before its first .PP; COMMAND is - for usbtrail's own
synopsis_opts() {
	awk "$roff_plain"'
	/^\.\\"/ { next }
	/^\.SH / { syn = ($0 == ".SH SYNOPSIS"); ss = 0; next }
	/^\.SS / { ss = 1; cmd = $2; next }
	ss && /^\.PP/ { ss = 0 }
	syn && /^\.B usbtrail( |$)/ { cmd = ($3 == "" ? "-" : $3) }
	syn || ss {
		line = plain($0)
		sub(/^\.[A-Z]+ /, "", line)
		n = split(line, w, /[][ |"]+/)
		for (i = 1; i <= n; i++)
			if (w[i] ~ /^--?[A-Za-z]/)
				print cmd, w[i]
	}' "$man" | sort -u
}

# long_mentions: every --option written anywhere in the page
long_mentions() {
	awk '
	/^\.\\"/ { next }
	{
		s = $0
		while (match(s, /\\-\\-[a-z][a-z0-9]*(\\-[a-z0-9]+)*/)) {
			o = substr(s, RSTART, RLENGTH)
			gsub(/\\-/, "-", o)
			print o
			s = substr(s, RSTART + RLENGTH)
		}
	}' "$man" | sort -u
}

"$bin" --help >"$work/help.-" || fail "usbtrail --help failed"
cmds=$(awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }' \
	"$work/help.-" | words)
[ -n "$cmds" ] || fail "usbtrail --help lists no commands"
# "help" is no entry of Commands: but a command; it takes no option
: >"$work/help.help"
for c in $cmds; do
	"$bin" "$c" --help >"$work/help.$c" || fail "usbtrail $c --help failed"
done

grep -q '^\.SH EXIT STATUS$' "$man" || fail "the man page has no EXIT STATUS"
sed -n 's/^\.SS //p' "$man" >"$work/sections"
while read -r s; do
	case " $cmds help " in
	*" $s "*) ;;
	*) fail ".SS $s: usbtrail has no command '$s'" ;;
	esac
done <"$work/sections"

bad=0
: >"$work/names.all"
for c in - $cmds help; do
	if [ "$c" = - ]; then what="usbtrail"; sec=; else what="$c"; sec=$c; fi
	help_opts "$work/help.$c" >"$work/hopts.$c"
	section "$sec" >"$work/sec.$c"
	[ -s "$work/sec.$c" ] || fail "the man page has no section for $what"
	man_opts <"$work/sec.$c" >"$work/mopts.$c"
	cut -d' ' -f1 "$work/hopts.$c" >>"$work/names.all"
	[ "$c" = help ] || [ -s "$work/hopts.$c" ] ||
		fail "$what --help: no options found in it"

	missing=$(comm -23 "$work/hopts.$c" "$work/mopts.$c")
	extra=$(comm -13 "$work/hopts.$c" "$work/mopts.$c")
	if [ -n "$missing" ]; then
		echo "not in the man page's $what section:" \
			"$(echo "$missing" | words)"
		bad=1
	fi
	if [ -n "$extra" ]; then
		echo "in the man page's $what section, not in its --help:" \
			"$(echo "$extra" | words)"
		bad=1
	fi
	[ -n "$missing$extra" ] ||
		echo "ok: $what: $(wc -l <"$work/hopts.$c") options as in --help"

	[ "$c" = - ] && continue
	man_exits <"$work/sec.$c" >"$work/mexit.$c"
	if [ ! -s "$work/mexit.$c" ]; then
		echo "the man page's $what section has no exit status part"
		bad=1
		continue
	fi
	help_exits "$work/help.$c" >"$work/hexit.$c"
	missing=$(comm -23 "$work/hexit.$c" "$work/mexit.$c")
	if [ -n "$missing" ]; then
		echo "$what --help names exit status" "$(echo "$missing" | words)" \
			"that its man section does not"
		bad=1
	else
		echo "ok: $what: exit status $(words <"$work/mexit.$c")"
	fi
done
sort -u "$work/names.all" -o "$work/names.all"

synopsis_opts >"$work/synopsis"
while read -r c o; do
	cut -d' ' -f1 "$work/hopts.$c" 2>/dev/null | grep -qx -- "$o" && continue
	echo "a synopsis of the man page names $o for" \
		"$([ "$c" = - ] && echo usbtrail || echo "$c"), whose --help lacks it"
	bad=1
done <"$work/synopsis"
echo "ok: synopses checked ($(wc -l <"$work/synopsis") options)"

long_mentions >"$work/mentions"
extra=$(comm -23 "$work/mentions" "$work/names.all")
if [ -n "$extra" ]; then
	echo "the man page mentions options no --help has:" \
		"$(echo "$extra" | words)"
	bad=1
else
	echo "ok: every --option the page mentions is usbtrail's"
fi

[ "$bad" = 0 ] || fail "man/usbtrail.1.in and --help disagree (see above)"
