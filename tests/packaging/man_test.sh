#!/bin/sh
# The manual page man/ball.1: groff formats it without a warning, and it
# documents every command and option that `ball --help` lists; the same
# for man/ball-play.1 and man/ball-selfplay.1 and their programs' usage.

BALL=${BALL:-build/bin/ball}
. tests/lib/shell-test.sh

if ! command -v groff >/dev/null 2>&1; then
    echo "SKIP: no groff (Debian: groff-base; make check installs it as root)"
    exit 77
fi
LC_ALL=C.UTF-8 groff -man -Tutf8 -ww man/ball.1 >"$tmp/page" 2>"$tmp/warnings" || fail "groff: exit $?"
[ -s "$tmp/warnings" ] && fail "groff warnings: $(head -c 600 "$tmp/warnings")"
# the page as plain text, without the overstrikes of bold and italics
sed 's/.\x08//g' "$tmp/page" >"$tmp/plain"
"$BALL" --help >"$tmp/help" || fail "ball --help: exit $?"
for word in $(sed -n 's/^  \([a-z][a-z]*\) .*/\1/p' "$tmp/help") \
            $(grep -o -- '--[a-z][a-z-]*' "$tmp/help" | sort -u); do
    grep -q -- "$word" "$tmp/plain" || fail "man page lacks '$word'"
done
# the pages of the examples installed with the tool (ball-play,
# ball-selfplay): each formats without a warning and names every option
# of the program's usage
for prog in play selfplay; do
    page=man/ball-$prog.1
    LC_ALL=C.UTF-8 groff -man -Tutf8 -ww "$page" 2>"$tmp/warnings" | sed 's/.\x08//g' >"$tmp/plain" ||
        fail "groff $page"
    [ -s "$tmp/warnings" ] && fail "$page: groff warnings: $(head -c 600 "$tmp/warnings")"
    exe=$(dirname "$BALL")/ball-$prog
    [ -x "$exe" ] || { fail "$exe not built (make tool)"; continue; }
    "$exe" --help >"$tmp/usage" 2>&1
    for word in $(grep -o -- '--[a-z][a-z-]*' "$tmp/usage" | sort -u); do
        grep -q -- "$word" "$tmp/plain" || fail "$page lacks '$word'"
    done
done
echo "man_test: $failures failure(s)"
[ "$failures" -eq 0 ]
