#!/bin/sh
# The network the library carries (libball/nnue/default_net.c, the default
# evaluation of the turn search: BALL_EVAL_NETWORK in include/ball.h) is
# the shipped file share/net/nnue.net, byte for byte: scripts/net-embed.py
# --check regenerates the source from the file and compares. Then checks
# itself: a copy of the tree whose default_net.c differs by one byte must
# be reported.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v python3 >/dev/null 2>&1 || { echo "embedded_net_test: python3 is needed"; exit 1; }

python3 "$root/scripts/net-embed.py" --check || exit 1

mkdir -p "$tmp/scripts" "$tmp/share/net" "$tmp/libball/nnue"
cp "$root/scripts/net-embed.py" "$tmp/scripts/"
cp "$root/share/net/nnue.net" "$tmp/share/net/"
# the 8th line holds the file's first bytes, the magic "BALLNET": 66 -> 67
sed '8s/^66,/67,/' "$root/libball/nnue/default_net.c" >"$tmp/libball/nnue/default_net.c"
if cmp -s "$tmp/libball/nnue/default_net.c" "$root/libball/nnue/default_net.c"; then
    echo "embedded_net_test: the self-check could not change the copy"; exit 1
fi
if python3 "$tmp/scripts/net-embed.py" --check 2>"$tmp/err"; then
    echo "embedded_net_test: a changed default_net.c was not reported"; exit 1
fi
grep -q "is not share/net/nnue.net" "$tmp/err" || { cat "$tmp/err"; exit 1; }
echo "embedded_net_test: passed (and a changed byte was reported)"
