#!/bin/sh
# The layers of libball (docs/architecture.md, table in libball/LAYERS),
# checked on what is included and on what is linked:
#   1. includes: no #include "..." in libball/ reaches a higher layer, and
#      every file of libball/ is in a layer;
#   2. calls: no object file of the library ($BALL_BUILD/obj, built by
#      make) uses a symbol (a function or a table: the undefined symbols
#      that nm lists) that the object file of a higher layer defines;
#   3. circles: no files that call each other in a circle, in a layer or
#      across layers.
# Prints each offence as file:line (includes) or file: symbol (calls);
# exits 1 if any. Then checks itself, on scratch copies: an upward
# include injected into position.c (layer rules, including
# record_sink.h, layer records), a call injected into a copy of position.c
# compiled again (a symbol of record_sink.c) and one into geometry.c (a
# symbol of position.c, which calls geometry.c: a circle) must each be
# reported, naming the file and what it uses.
# Usage: sh tests/meta/layers_test.sh [DIR [OBJ]] (DIR: a libball/ to check,
# OBJ: its object files; no self-check; default: the tree's libball/ and
# $BALL_BUILD/obj or build/obj).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
obj_default=${BALL_BUILD:-$root/build}/obj
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The table's patterns as awk regular expressions (. escaped, * and [ch]
# kept) and layer_of(): shared by the two awk programs below.
LAYER_AWK='
function read_table(table,   l, w, n, m, i, r, ps) {
    while ((getline l < table) > 0) {
        if (l ~ /^[ \t]*(#|$)/) continue
        split(l, w, " "); n = w[1]; name[n] = w[2]; sub(/:$/, "", name[n])
        sub(/^[^:]*:/, "", l); m = split(l, ps, " ")
        for (i = 1; i <= m; i++) {
            r = ps[i]; gsub(/\./, "\\.", r); gsub(/\*/, ".*", r)
            pat[++npat] = "^" r "$"; num[npat] = n
        }
    }
}
function layer_of(f,   i) {
    for (i = 1; i <= npat; i++)
        if (f ~ pat[i]) return num[i]
    return ""
}
function where(n) { return "layer " n " (" name[n] ")" }
'

# check_includes DIR: the include offences of DIR (a libball/ with its
# LAYERS) on stdout. An include is looked for as the compiler does:
# beside the file, then in libball/ (-Ilibball); "ball.h" is include/'s.
check_includes() {
    dir=$1
    [ -f "$dir/LAYERS" ] || { echo "$dir/LAYERS: no layer table"; return; }
    (cd "$dir" && find . -name '*.[ch]' | sed 's|^\./||' | sort >"$tmp/files" &&
        while read -r f; do
            grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
                sed "s|^\([0-9]*\):[^\"]*\"\([^\"]*\)\".*|$f \1 \2|"
        done <"$tmp/files" >"$tmp/includes")
    awk -v table="$dir/LAYERS" -v files="$tmp/files" "$LAYER_AWK"'
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
        read_table(table)
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
            print file ":" line ": #include \"" inc "\" goes up a layer: " file " is in " where(mine) \
                  ", " t " in " where(theirs)
    }' "$tmp/includes"
}

# symbols DIR OBJ: "file kind symbol" for each global symbol of the object
# file OBJ/X.o of each DIR/X.c (kind U: used, not defined there).
symbols() {
    dir=$1 objdir=$2
    (cd "$dir" && find . -name '*.c' | sed 's|^\./||' | sort) >"$tmp/sources"
    set --
    while read -r f; do
        if [ -f "$objdir/${f%.c}.o" ]; then
            set -- "$@" "$objdir/${f%.c}.o"
        else
            echo "$f - -"
        fi
    done <"$tmp/sources"
    # one nm for all: "OBJ: SYMBOL TYPE ..." (-A), OBJ back to its source
    [ $# -gt 0 ] && nm -P -g -A "$@" | awk -v objdir="$objdir/" '{
        f = $1; sub(/:$/, "", f); f = substr(f, length(objdir) + 1); sub(/\.o$/, ".c", f)
        print f, ($3 == "U" ? "U" : "D"), $2
    }'
}

# check_calls DIR OBJ: the call offences of DIR's object files in OBJ on
# stdout: a symbol used from a higher layer, and the files of a circle.
check_calls() {
    symbols "$1" "$2" >"$tmp/symbols"
    awk -v table="$1/LAYERS" -v objdir="$2" "$LAYER_AWK"'
    BEGIN { read_table(table) }
    $2 == "-" { print $1 ": no object file in " objdir " (build the library first: make)"; next }
    $2 == "D" { if (!($3 in def)) def[$3] = $1; next }
    { used[++n] = $1; sym[n] = $3 }
    END {
        for (i = 1; i <= n; i++) {
            f = used[i]; s = sym[i]
            if (!(s in def) || def[s] == f) continue
            t = def[s]
            edge[f SUBSEP t] = 1
            names[f SUBSEP t] = names[f SUBSEP t] (names[f SUBSEP t] == "" ? "" : ", ") s
            mine = layer_of(f); theirs = layer_of(t)
            if (mine != "" && theirs != "" && theirs + 0 > mine + 0)
                print f ": uses " s " of " t ", which goes up a layer: " f " is in " where(mine) \
                      ", " t " in " where(theirs)
        }
        # circles: take away the files that use no other file, or that no
        # other file uses, until none is left to take; what stays calls
        # round in a circle
        for (k in edge) { split(k, e, SUBSEP); node[e[1]] = 1; node[e[2]] = 1 }
        do {
            changed = 0
            for (v in node) { out[v] = 0; in_[v] = 0 }
            for (k in edge) {
                split(k, e, SUBSEP)
                if ((e[1] in node) && (e[2] in node)) { out[e[1]]++; in_[e[2]]++ }
            }
            for (v in node) if (out[v] == 0 || in_[v] == 0) { delete node[v]; changed = 1 }
        } while (changed)
        for (k in edge) {
            split(k, e, SUBSEP)
            if ((e[1] in node) && (e[2] in node))
                print e[1] ": uses " names[k] " of " e[2] ", in a circle of files that call each other"
        }
    }' "$tmp/symbols" | sort
}

if [ $# -gt 0 ]; then
    out=$(check_includes "$1"; [ $# -gt 1 ] && check_calls "$1" "$2")
    [ -z "$out" ] && exit 0
    echo "$out"
    exit 1
fi

status=0
out=$(check_includes "$root/libball")
if [ -n "$out" ]; then
    echo "$out"
    echo "layers_test: includes that break the layers of libball/LAYERS (docs/architecture.md)"
    status=1
fi
out=$(check_calls "$root/libball" "$obj_default")
if [ -n "$out" ]; then
    echo "$out"
    echo "layers_test: calls that break the layers of libball/LAYERS or go round in a circle (docs/architecture.md)"
    status=1
fi

# the self-checks, on scratch copies
cp -R "$root/libball" "$tmp/libball"
echo '#include "record_sink.h"' >>"$tmp/libball/position.c"
at=$(wc -l <"$tmp/libball/position.c" | tr -d ' ')
if ! check_includes "$tmp/libball" | grep -q "^position.c:$at: #include \"record_sink.h\" goes up a layer"; then
    echo "layers_test: the injected upward include position.c:$at -> record_sink.h was not reported"
    status=1
fi

# inject FILE SYMBOL_OF: a copy of libball/FILE.c that uses the first
# global function of libball/SYMBOL_OF.c's object file, compiled into the
# scratch object files in place of FILE.o; prints the symbol.
cp -R "$obj_default" "$tmp/obj"
inject() {
    s=$(nm -P -g "$obj_default/$2.o" | awk '$2 == "T" { print $1; exit }')
    [ -n "$s" ] || return 1
    mkdir -p "$tmp/inject"
    cp "$root/libball/$1.c" "$tmp/inject/$1.c"
    # an assembler name, so that no prototype of a header stands in the way
    printf '%s\n' "extern char layers_test_target __asm__(\"$s\");" \
        'void *layers_test_probe(void);' \
        'void *layers_test_probe(void) { return &layers_test_target; }' >>"$tmp/inject/$1.c"
    ${CC:-cc} -std=c11 -I"$root/include" -I"$root/libball" -DBALL_BUILDING_LIBRARY \
        -c "$tmp/inject/$1.c" -o "$tmp/obj/$1.o" 2>"$tmp/cc.err" || { cat "$tmp/cc.err"; return 1; }
    echo "$s"
}
# restore FILE: the tree's object file back in the scratch copy
restore() { cp "$obj_default/$1.o" "$tmp/obj/$1.o"; }

if s=$(inject position record_sink); then
    if ! check_calls "$tmp/libball" "$tmp/obj" | grep -q "^position.c: uses $s of record_sink.c, which goes up a layer"; then
        echo "layers_test: the injected upward call position.c -> $s (record_sink.c) was not reported"
        status=1
    fi
    restore position
else
    echo "layers_test: could not compile the injected call into position.c"
    status=1
fi
if s=$(inject geometry position); then
    if ! check_calls "$tmp/libball" "$tmp/obj" | grep -q "^geometry.c: uses $s of position.c, in a circle"; then
        echo "layers_test: the injected circle geometry.c -> $s (position.c) -> geometry.c was not reported"
        status=1
    fi
else
    echo "layers_test: could not compile the injected call into geometry.c"
    status=1
fi
[ $status -eq 0 ] && echo "layers_test: $(grep -c '^[0-9]' "$root/libball/LAYERS") layers, every include and every call of libball/ goes down or stays, no circle"
exit $status
