# bash completion for dllpcheck(1)                           -*- shell-script -*-
#
# Installed by `make install` as $(datadir)/bash-completion/completions/dllpcheck
# (bash-completion loads it on first use); or, by hand: `. dllpcheck.bash`.
#
# The options are read from `dllpcheck --help` and the rule ids from
# `dllpcheck --list-rules` of the dllpcheck being completed (once per shell),
# so a newer binary's options and rules complete without a newer script.
# The values of the options that take one of a few words are listed here.

_dllpcheck_words() # _dllpcheck_words PROGRAM WHAT: cached --help options or rule ids
{
	local prog=$1 what=$2 key
	key=_dllpcheck_cache_${what}
	if [[ -z ${!key-} ]]; then
		case $what in
		options)
			printf -v "$key" '%s' "$(LC_ALL=C "$prog" --help 2>/dev/null |
				sed -n 's/^ *\(-[a-zA-Z?], \)\{0,1\}\(--[a-z][a-z0-9-]*=\{0,1\}\).*/\2/p' |
				sort -u)"
			;;
		rules)
			printf -v "$key" '%s' "$(LC_ALL=C "$prog" --list-rules 2>/dev/null |
				awk '$1 ~ /^[a-z]+\.[a-z0-9.-]+$/ { print $1 }')"
			;;
		esac
	fi
	printf '%s\n' "${!key}"
}

# The values of option opt (with or without its leading dashes) as words to
# complete cur from; returns 1 for an option whose value is a file name
# or free text.
_dllpcheck_values()
{
	local prog=$1 opt=$2
	case $opt in
	--format) echo "text json jsonl junit html" ;;
	--fail-on) echo "error warning info" ;;
	--input-format) echo "auto pcap text csv vcd" ;;
	--disable | --enable) echo "all $(_dllpcheck_words "$prog" rules)" ;;
	# port D is a downstream port (of a root port or a switch), U an upstream one
	--role) echo "down=root-port down=root-port-p2p down=switch up=switch up=endpoint" ;;
	--initial-credits) echo "down:0:PH= down:0:PD= down:0:NPH= down:0:NPD= down:0:CplH= down:0:CplD= up:0:PH= up:0:PD= up:0:NPH= up:0:NPD= up:0:CplH= up:0:CplD=" ;;
	--delimiter) echo "auto tab comma semicolon pipe space" ;;
	--time-unit) echo "ps ns us ms s" ;;
	--scrambled) echo "yes no auto" ;;
	--lanes-dir) echo "tx=down tx=up" ;;
	--dlt) echo "147 148 149 150 151 152 153 154 155 156 157 158 159 160 161 162" ;;
	--mps | --mrrs) echo "128 256 512 1024 2048 4096" ;;
	-j | --jobs) echo "1 2 4 8 $(getconf _NPROCESSORS_ONLN 2>/dev/null)" ;;
	*) return 1 ;;
	esac
}

# The options whose value is a file to write or read.
_dllpcheck_file_option()
{
	case $1 in
	-o | --output | --write-pcap | --vcd | --gtkw | --map-file | --annotate) return 0 ;;
	esac
	return 1
}

_dllpcheck()
{
	local prog=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]} prev="" opt="" values
	local in_value=false
	((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	COMPREPLY=()
	# bash splits "--format=js" into "--format" "=" "js" (COMP_WORDBREAKS)
	if [[ $cur == = ]]; then
		opt=$prev cur="" in_value=true
	elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then
		opt=${COMP_WORDS[COMP_CWORD - 2]} in_value=true
	elif [[ $cur == --*=* ]]; then # a COMP_WORDBREAKS without '='
		opt=${cur%%=*} cur=${cur#*=} in_value=true
	elif [[ $prev == -o || $prev == -j ]]; then
		opt=$prev in_value=true
	elif [[ $prev == --* ]] && [[ $'\n'$(_dllpcheck_words "$prog" options)$'\n' == *$'\n'"$prev="$'\n'* ]]; then
		opt=$prev in_value=true # "--format json": argp takes the next word
	fi
	if $in_value; then
		if values=$(_dllpcheck_values "$prog" "$opt"); then
			COMPREPLY=($(compgen -W "$values" -- "$cur"))
			# a value to go on from (down:0:PH=): no space after it
			[[ ${COMPREPLY[0]-} == *[=:] ]] && compopt -o nospace 2>/dev/null
		elif _dllpcheck_file_option "$opt"; then
			COMPREPLY=($(compgen -f -- "$cur"))
			compopt -o filenames 2>/dev/null
		fi
		return 0 # other values are free text: nothing to offer
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_dllpcheck_words "$prog" options)" -- "$cur"))
		[[ ${COMPREPLY[0]-} == *= ]] && compopt -o nospace 2>/dev/null
		return 0
	fi
	# --merge: the inputs are JSON Lines parts (directories to descend)
	if [[ " ${COMP_WORDS[*]} " == *" --merge "* ]]; then
		COMPREPLY=($(compgen -d -- "$cur") $(compgen -f -X '!*.jsonl' -- "$cur"))
		compopt -o filenames 2>/dev/null
		return 0
	fi
	# the inputs: captures of any name (compressed or not)
	COMPREPLY=($(compgen -f -- "$cur"))
	compopt -o filenames 2>/dev/null
	return 0
}
complete -F _dllpcheck dllpcheck
