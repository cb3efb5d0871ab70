#!/bin/sh
# The version nodes of libball/exports.map in the ABI gate (mk/reliability.mk,
# docs/abi.md "The ABI gate"):
#
#   sh scripts/abi-nodes.sh suppressions
#       prints a libabigail suppression file that leaves out the functions
#       of the node LIBBALL_EXPERIMENTAL: abidw writes none of them into the
#       baseline, abidiff compares none of them.
#   sh scripts/abi-nodes.sh added LIB BASELINE
#       lists each function LIB exports that BASELINE lacks, with its node,
#       and fails unless every one is experimental or in the node of the
#       header's version, LIBBALL_<major>.<minor> (include/ball.h), and that
#       node is not in BASELINE yet: a function is added only by the minor
#       release under way, never to a node that a release already shipped.
set -e
map=libball/exports.map

case $1 in
suppressions)
    names=$(awk '/^LIBBALL_EXPERIMENTAL *\{/ { on = 1; next } /^\}/ { on = 0 }
                 on && /^[ \t]*[A-Za-z_][A-Za-z0-9_]*;/ { n = $1; sub(/;$/, "", n); print n }' "$map")
    echo "# The experimental tier (LIBBALL_EXPERIMENTAL in $map): never in the ABI gate."
    for n in $names; do
        printf '[suppress_function]\n  symbol_name = %s\n  drop = yes\n' "$n"
    done
    ;;
added)
    lib=$2
    baseline=$3
    major=$(sed -n 's/^#define BALL_VERSION_MAJOR \([0-9]*\)$/\1/p' include/ball.h)
    minor=$(sed -n 's/^#define BALL_VERSION_MINOR \([0-9]*\)$/\1/p' include/ball.h)
    current=LIBBALL_$major.$minor
    released=$(sed -n "s/.*<elf-symbol name='[^']*' version='\([^']*\)'.*/\1/p" "$baseline" | sort -u)
    known=$(sed -n "s/.*<elf-symbol name='\([^']*\)'.*/\1/p" "$baseline")
    bad=0
    added=0
    syms=$(mktemp)
    trap 'rm -f "$syms"' EXIT
    # "NODE NAME" of every function the library defines
    objdump -T "$lib" | awk '$0 ~ /^[0-9a-f]+ / && $0 !~ /\*UND\*/ && $0 !~ /\*ABS\*/ {
        print $(NF - 1), $NF }' >"$syms"
    while read -r node name; do
        case " $(echo $known) " in *" $name "*) continue ;; esac
        if [ "$node" = LIBBALL_EXPERIMENTAL ]; then
            echo "abi-check: $name: experimental (LIBBALL_EXPERIMENTAL), not gated"
            continue
        fi
        added=$((added + 1))
        if [ "$node" != "$current" ]; then
            echo "abi-check: FAILED: $name is added in the node $node, not in $current (the version of include/ball.h)"
            bad=1
        elif echo "$released" | grep -qx "$node"; then
            echo "abi-check: FAILED: $name is added to $node, which $baseline shows released:"
            echo "abi-check: a new function needs a new minor version and node (docs/abi.md, \"Cutting a release\")"
            bad=1
        else
            echo "abi-check: $name: added in $node"
        fi
    done <"$syms"
    [ "$bad" -eq 0 ] || exit 1
    [ "$added" -eq 0 ] || echo "abi-check: $added function(s) added in $current, the release under way"
    ;;
*)
    echo "usage: sh scripts/abi-nodes.sh suppressions | added LIB BASELINE" >&2
    exit 2
    ;;
esac
