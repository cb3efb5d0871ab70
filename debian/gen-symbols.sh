#!/bin/sh
# SPDX-License-Identifier: MIT
# Writes debian/libball1.symbols (to stdout) from libball/exports.map, the
# list of every exported function by version node (docs/abi.md):
#
#   sh debian/gen-symbols.sh >debian/libball1.symbols    (make deb-symbols)
#
# Each symbol's minimal version is the release that added its node:
# LIBBALL_1.N gives 1.N.0. The experimental tier (LIBBALL_EXPERIMENTAL)
# gets the version of include/ball.h: it may change in any minor release
# (docs/abi.md, "The experimental tier"), so a package built against it
# depends on at least the release it was built with. The node names
# themselves are exported too (as absolute symbols), with their node.
# debian/rules builds with dpkg-gensymbols -c4: any difference between
# this file and the built library fails the package build.
set -e
cd "$(dirname "$0")/.."
hdr() { sed -n "s/^#define $1 \\([0-9]*\\)\$/\\1/p" include/ball.h; }
version=$(hdr BALL_VERSION_MAJOR).$(hdr BALL_VERSION_MINOR).$(hdr BALL_VERSION_PATCH)
major=$(hdr BALL_VERSION_MAJOR)
echo "libball.so.$major libball$major #MINVER#"
echo "* Build-Depends-Package: libball-dev"
awk -v current="$version" '
    /\/\*/ { comment = 1 }
    comment { if (/\*\//) comment = 0; next }
    /^[A-Z][A-Z0-9_.]* *\{/ {
        node = $1
        if (node == "LIBBALL_EXPERIMENTAL") v = current
        else { v = node; sub(/^LIBBALL_/, "", v); v = v ".0" }
        printf " %s@%s %s\n", node, node, v
        next
    }
    /^}/ { node = ""; next }
    node != "" && /^[ \t]*ball_[a-z0-9_]*;/ {
        name = $1; sub(/;$/, "", name)
        printf " %s@%s %s\n", name, node, v
    }' libball/exports.map | LC_ALL=C sort
