#!/bin/sh
# The layers of libball (docs/architecture.md, table in libball/LAYERS): no
# #include "..." in libball/ reaches a higher layer, and every file of
# libball/ is in a layer. Prints each offence as file:line; exits 1 if any.
# Then checks itself: a copy of libball/ with an upward include injected
# (position.c, layer rules, including record_sink.h, layer records) must
# fail, naming that file and line.
# Usage: sh tests/layers_test.sh [DIR] (DIR: a libball/ to check, and no
# self-check; default: the tree's libball/).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# check DIR: the offences of DIR (a libball/ with its LAYERS) on stdout.
# The files' layers and includes are matched in one awk program; an
# include is looked for as the compiler does: beside the file, then in
# libball/ (-Ilibball); "ball.h" is include/'s.
check() {
    dir=$1
    [ -f "$dir/LAYERS" ] || { echo "$dir/LAYERS: no layer table"; return; }
    (cd "$dir" && find . -name '*.[ch]' | sed 's|^\./||' | sort >"$tmp/files" &&
        while read -r f; do
            grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
                sed "s|^\([0-9]*\):[^\"]*\"\([^\"]*\)\".*|$f \1 \2|"
        done <"$tmp/files" >"$tmp/includes")
    # the table's patterns as awk regular expressions: . escaped, * and [ch] kept
    awk -v table="$dir/LAYERS" -v files="$tmp/files" '
    function layer_of(f,   i) {
        for (i = 1; i <= npat; i++)
            if (f ~ pat[i]) return num[i]
        return ""
    }
    function norm(p,   n, parts, out, i, k) {
        n = split(p, parts, "/"); k = 0
        for (i = 1; i <= n; i++) {
            if (parts[i] == "." || parts[i] == "") continue
            if (parts[i] == ".." && k > 0) { k--; continue }
            out[++k] = parts[i]
        }
        p = ""
        for (i = 1; i <= k; i++) p = p (i > 1 ? "/" : "") out[i]
        return p
    }
    BEGIN {
        while ((getline l < table) > 0) {
            if (l ~ /^[ \t]*(#|$)/) continue
            split(l, w, " "); n = w[1]; name[n] = w[2]; sub(/:$/, "", name[n])
            sub(/^[^:]*:/, "", l); m = split(l, ps, " ")
            for (i = 1; i <= m; i++) {
                r = ps[i]; gsub(/\./, "\\.", r); gsub(/\*/, ".*", r)
                pat[++npat] = "^" r "$"; num[npat] = n
            }
        }
        while ((getline f < files) > 0) {
            have[f] = 1
            if (layer_of(f) == "") print f ":1: in no layer of LAYERS"
        }
    }
    {
        file = $1; line = $2; inc = $3
        here = file; if (!sub(/\/[^\/]*$/, "", here)) here = ""
        t = norm((here != "" ? here "/" : "") inc)
        if (!(t in have)) t = norm(inc)
        if (!(t in have)) {
            if (inc == "ball.h") t = "ball.h"
            else { print file ":" line ": #include \"" inc "\": no such file in libball/"; next }
        }
        mine = layer_of(file); theirs = layer_of(t)
        if (mine == "") next
        if (theirs == "") print file ":" line ": #include \"" inc "\": " t " is in no layer of LAYERS"
        else if (theirs + 0 > mine + 0)
            print file ":" line ": #include \"" inc "\" goes up a layer: " file " is in layer " mine \
                  " (" name[mine] "), " t " in layer " theirs " (" name[theirs] ")"
    }' "$tmp/includes"
}

if [ $# -gt 0 ]; then
    out=$(check "$1")
    [ -z "$out" ] && exit 0
    echo "$out"
    exit 1
fi

status=0
out=$(check "$root/libball")
if [ -n "$out" ]; then
    echo "$out"
    echo "layers_test: includes that break the layers of libball/LAYERS (docs/architecture.md)"
    status=1
fi

# the self-check: an injected upward include must be found
cp -R "$root/libball" "$tmp/libball"
echo '#include "record_sink.h"' >>"$tmp/libball/position.c"
at=$(wc -l <"$tmp/libball/position.c" | tr -d ' ')
if ! check "$tmp/libball" | grep -q "^position.c:$at: #include \"record_sink.h\" goes up a layer"; then
    echo "layers_test: the injected upward include position.c:$at -> record_sink.h was not reported"
    status=1
fi
[ $status -eq 0 ] && echo "layers_test: $(grep -c '^[0-9]' "$root/libball/LAYERS") layers, every include of libball/ goes down or stays"
exit $status
