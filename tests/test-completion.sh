#!/bin/sh
# The bash completion (contrib/completion/dllpcheck.bash) against the
# program it completes: every long option of --help is offered, every
# value it offers is one the program accepts, the rule ids are those of
# --list-rules, and files complete where a file goes.
. "${srcdir:-.}/tests/test-subr.sh"
set -e
script="$srcdir/contrib/completion/dllpcheck.bash"
if ! command -v bash >/dev/null 2>&1; then
	echo "SKIP: bash is not installed: nothing to complete in"
	exit 77
fi

# complete WORDS...: what the completion offers for the last word, one a
# line, in $tmpdir/offer (bash splits "--opt=val" at '=' itself: the
# callers pass "--opt" "=" "val" as bash would)
complete_words() {
	bash -c '. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"
		_dllpcheck; ((${#COMPREPLY[@]} == 0)) || printf "%s\n" "${COMPREPLY[@]}"' complete "$script" "$DLLPCHECK" "$@" \
		>"$tmpdir/offer"
}

# every long option of --help, as the completion offers them ("--x=" for
# one that takes a value)
"$DLLPCHECK" --help >"$tmpdir/help"
sed -n 's/^ *\(-[a-zA-Z?], \)\{0,1\}--\([a-z][a-z0-9-]*\).*/\2/p' "$tmpdir/help" | sort -u >"$tmpdir/opts"
[ "$(wc -l <"$tmpdir/opts")" -gt 30 ] && pass || fail "too few options found in --help"
complete_words --
sed 's/^--//; s/=$//' "$tmpdir/offer" | sort -u >"$tmpdir/offered"
if diff "$tmpdir/opts" "$tmpdir/offered" >"$tmpdir/diff"; then pass; else
	fail "the options offered for -- differ from --help's:"; cat "$tmpdir/diff"
fi
complete_words --for
[ "$(cat "$tmpdir/offer")" = "--format=" ] && pass || fail "--for completes to '$(cat "$tmpdir/offer")'"
# a flag without a value (--with-charts, for the parts of an HTML merge)
complete_words --with
[ "$(cat "$tmpdir/offer")" = "--with-charts" ] && pass || fail "--with completes to '$(cat "$tmpdir/offer")'"

# each value offered is accepted: a run with it does not fail as a usage
# error (status 2); the sample is clean, so 0 (or 1 for --fail-on info)
sample="$srcdir/samples/clean-init.trace"
accepts() { # accepts OPTION VALUE EXTRA...
	opt=$1 val=$2
	shift 2
	run_dllpcheck "$opt=$val" "$@" "$sample"
	if [ "$status" -ne 2 ]; then pass; else
		fail "the completion offers $opt=$val, which dllpcheck refuses: $(head -1 "$tmpdir/err")"
	fi
}
for opt in --format --fail-on --input-format --delimiter --time-unit --scrambled \
	--lanes-dir --dlt --mps --mrrs --role --jobs; do
	complete_words "$opt" =
	[ -s "$tmpdir/offer" ] && pass || fail "nothing offered for $opt="
	while read -r val; do
		case $opt in
		--format) accepts "$opt" "$val" -o "$tmpdir/report" ;;
		--delimiter | --time-unit) accepts "$opt" "$val" --input-format=text ;;
		--role) # the other port's role too: down=...,up=endpoint or down=switch,up=...
			case $val in down=*) accepts "$opt" "$val,up=endpoint" ;;
			*) accepts "$opt" "down=switch,$val" ;; esac ;;
		--input-format) # an input of that format
			case $val in pcap) in="$srcdir/samples/overrun.pcap" ;;
			csv) in="$srcdir/samples/overrun-export.csv" ;;
			vcd) in="$srcdir/samples/sim-x4.vcd" ;; *) in=$sample ;; esac
			run_dllpcheck "$opt=$val" "$in"
			[ "$status" -ne 2 ] && pass || fail "$opt=$val refused: $(head -1 "$tmpdir/err")" ;;
		*) accepts "$opt" "$val" ;;
		esac
	done <"$tmpdir/offer"
done
# the formats --help names are all offered
complete_words --format =
for f in text json jsonl junit html; do
	grep -qx "$f" "$tmpdir/offer" && pass || fail "--format=$f not offered"
done
# a prefix narrows them
complete_words --format = js
[ "$(tr '\n' ' ' <"$tmpdir/offer")" = "json jsonl " ] && pass ||
	fail "--format=js offers $(tr '\n' ' ' <"$tmpdir/offer")"
# --initial-credits: each type's prefix, accepted once a number follows
complete_words --initial-credits = up:0:
[ "$(wc -l <"$tmpdir/offer")" -eq 6 ] && pass || fail "--initial-credits=up:0: offers $(wc -l <"$tmpdir/offer") types, expected 6"
while read -r val; do accepts --initial-credits "${val}8"; done <"$tmpdir/offer"

# the rule ids of --disable and --enable are --list-rules' ids, and 'all'
"$DLLPCHECK" --list-rules | awk '{ print $1 }' | grep '\.' | sort >"$tmpdir/rules"
[ "$(wc -l <"$tmpdir/rules")" -gt 40 ] && pass || fail "too few rules listed"
for opt in --disable --enable; do
	complete_words "$opt" =
	grep -v '^all$' "$tmpdir/offer" | sort >"$tmpdir/offered"
	if diff "$tmpdir/rules" "$tmpdir/offered" >"$tmpdir/diff"; then pass; else
		fail "$opt offers other rules than --list-rules lists:"; head "$tmpdir/diff"
	fi
	grep -qx all "$tmpdir/offer" && pass || fail "$opt does not offer all"
done
complete_words --disable = fc.update.
while read -r r; do
	case $r in fc.update.*) pass ;; *) fail "--disable=fc.update. offers $r" ;; esac
done <"$tmpdir/offer"
# "--disable fc.update.period": argp takes the next word as the value
complete_words --disable fc.update.per
[ "$(cat "$tmpdir/offer")" = fc.update.period ] && pass ||
	fail "'--disable fc.update.per' offers '$(cat "$tmpdir/offer")'"

# files: the inputs, and the options that name one
mkdir "$tmpdir/caps"
: >"$tmpdir/caps/a.pcap"
: >"$tmpdir/caps/b.trace.gz"
complete_words "$tmpdir/caps/"
[ "$(wc -l <"$tmpdir/offer")" -eq 2 ] && pass || fail "inputs: $(cat "$tmpdir/offer")"
for opt in -o --output --write-pcap --vcd --gtkw --map-file; do
	case $opt in -o) complete_words -o "$tmpdir/caps/a" ;; *) complete_words "$opt" = "$tmpdir/caps/a" ;; esac
	[ "$(cat "$tmpdir/offer")" = "$tmpdir/caps/a.pcap" ] && pass || fail "$opt does not complete a file"
done
# --merge: its inputs are the JSON Lines parts (and directories)
mkdir "$tmpdir/caps/parts"
: >"$tmpdir/caps/p1.jsonl"
complete_words --merge "$tmpdir/caps/"
sort "$tmpdir/offer" >"$tmpdir/offer.sorted"
printf '%s\n' "$tmpdir/caps/p1.jsonl" "$tmpdir/caps/parts" | sort >"$tmpdir/want"
cmp -s "$tmpdir/want" "$tmpdir/offer.sorted" && pass || fail "--merge offers $(cat "$tmpdir/offer")"
# a value that is free text: nothing offered (not the files)
complete_words --cpl-timeout = ""
[ ! -s "$tmpdir/offer" ] && pass || fail "--cpl-timeout= offers $(head -1 "$tmpdir/offer")"

# the script is what make install puts where bash-completion looks
grep -q 'complete -F _dllpcheck dllpcheck' "$script" && pass || fail "no complete line"
finish
