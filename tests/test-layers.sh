#!/bin/sh
# The layers are folders (shared/docs/layout.md): every #include in src/
# points down the stack or within its own folder, never up, and never into
# another folder's private header.  Fails naming each include that does.
#
#   base < core < wire < read, decode < model < report < cli
#
# read/, read/csv/, read/lanes/ and read/net/ are one layer; read and decode sit side by side
# and may not include each other.  The model's files form no call cycle
# (tests/call-cycles.py).
. "${srcdir:-.}/tests/test-subr.sh"
set -e

rank() {
	case $1 in
	base) echo 0 ;; core) echo 1 ;; wire) echo 2 ;;
	read | read/csv | read/lanes | read/net) echo 3 ;; decode) echo 3 ;;
	model) echo 4 ;; report) echo 5 ;; cli) echo 6 ;;
	*) echo 99 ;;
	esac
}
# the layer of a folder ("read/csv" is read)
layer() {
	case $1 in read/*) echo read ;; *) echo "$1" ;; esac
}
# private headers: only their own folder includes them
private="model/fc_internal.h model/tl_internal.h read/csv/csv_internal.h read/lanes/vcd_internal.h read/lanes/lane_map_internal.h read/text_parse_internal.h report/vcd_write_internal.h"

files=$(cd "$srcdir/src" && find . -name '*.[ch]' -o -name '*.def' | sed 's|^\./||' | sort)
[ -n "$files" ] && pass || fail "no sources under $srcdir/src"
for f in $files; do
	dir=$(dirname "$f")
	case $dir in .) fail "src/$f is outside the layers' folders"; continue ;; esac
	own=$(rank "$dir")
	[ "$own" -lt 99 ] || { fail "src/$f: folder $dir is not a layer of layout.md"; continue; }
	for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$srcdir/src/$f"); do
		case $inc in
		autoconfig.h) pass; continue ;;
		*/*) ;;
		*) fail "src/$f includes \"$inc\" without its folder"; continue ;;
		esac
		idir=$(dirname "$inc")
		if [ ! -f "$srcdir/src/$inc" ]; then
			fail "src/$f includes \"$inc\", which is not in src/"
			continue
		fi
		theirs=$(rank "$idir")
		if [ "$(layer "$idir")" = "$(layer "$dir")" ]; then
			pass
		elif [ "$theirs" -ge "$own" ]; then
			fail "src/$f ($dir) includes $inc: $idir is not below $dir"
			continue
		else
			pass
		fi
		for p in $private; do
			if [ "$inc" = "$p" ] && [ "$(dirname "$p")" != "$dir" ]; then
				fail "src/$f includes $p, private to $(dirname "$p")/"
			fi
		done
	done
done

# Reports read the model through its read-only view (model/fc_view.h),
# never its own structures.
if grep -n -E 'struct (fc_link|fc_vc|fc_port_vc|fc_credit|fc_intervals|dl_port|tl_stats|tl_link)[^_]|->links\[' \
	"$srcdir"/src/report/*.[ch] >"$tmpdir/model-fields"; then
	fail "reports read the model's structures: $(head -3 "$tmpdir/model-fields")"
else
	pass
fi

if python3 "$srcdir/tests/call-cycles.py" "$srcdir/src/model" >"$tmpdir/calls"; then pass; else
	fail "src/model: $(cat "$tmpdir/calls" | head -1)"
fi
finish
