#!/bin/sh
# Stale text (issue 23): documentation that states what the code does must
# agree with it. Run from the repository root after `make` (make check
# does); the library is $B/libball.a (B as in the Makefile, build by
# default).
#   1. The MCTS defaults that examples/common/players.h (the help of the
#      examples' player names) and docs/players.md give are those of
#      ball_mcts_config_init(), read from the library by a small program.
#   2. Every file name NAME.md that the Markdown files and the examples'
#      headers cite is a file of the repository (docs/performance.md once
#      cited a RULES.md that is not in it).
# Prints each failure and a closing line; exits non-zero if any.

. tests/lib/shell-test.sh
B=${B:-build}
CC=${CC:-cc}

# ---- 1. the MCTS defaults
cat >"$tmp/defaults.c" <<'EOF'
#include <stdio.h>
#include "ball.h"
int main(void)
{
    ball_mcts_config c;
    ball_mcts_config_init(&c, sizeof c);
    printf("%d %d %d %g\n", c.playouts, c.time_ms, c.playout_turns, c.exploration);
    return 0;
}
EOF
if "$CC" -std=c11 -Iinclude "$tmp/defaults.c" "$B/libball.a" -lm -pthread -o "$tmp/defaults" 2>"$tmp/cc.err"; then
    set -- $("$tmp/defaults")
    playouts=$1 ms=$2 turns=$3 c=$4
    # the text of a file on one line, comment stars and line breaks as spaces
    flat() { sed 's/^ *\* *//; s/^ *\/\*\* *//' "$1" | tr '\n' ' ' | tr -s ' '; }
    # default_after FILE KEY: the number after the first "default" that
    # follows the setting `KEY` in FILE
    default_after() {
        flat "$1" | sed -n "s/.*\`$2\`[^\`]*default \([0-9.]*[0-9]\).*/\1/p" | head -n 1
    }
    for f in examples/common/players.h docs/players.md; do
        got=$(default_after "$f" 'playouts=N'); [ "$got" = "$playouts" ] ||
            fail "$f: playouts default '$got', ball_mcts_config_init() has $playouts"
        got=$(default_after "$f" 'turns=K'); [ "$got" = "$turns" ] ||
            fail "$f: turns default '$got', ball_mcts_config_init() has $turns"
        got=$(default_after "$f" 'c=X'); [ "$got" = "$c" ] ||
            fail "$f: exploration default '$got', ball_mcts_config_init() has $c"
    done
    got=$(default_after examples/common/players.h 'ms=T'); [ "$got" = "$ms" ] ||
        fail "examples/common/players.h: ms default '$got', ball_mcts_config_init() has $ms"
else
    cat "$tmp/cc.err"
    fail "could not build the defaults reader against $B/libball.a (make B=$B lib)"
fi

# ---- 2. cited Markdown files exist
git ls-files 2>/dev/null | sed 's|.*/||' | sort -u >"$tmp/names"
[ -s "$tmp/names" ] || find . \( -name .git -o -name build \) -prune -o -type f -print |
    sed 's|.*/||' | sort -u >"$tmp/names"
for f in $(git ls-files '*.md' 2>/dev/null || find . -name '*.md' -not -path './build/*') \
         examples/common/*.h; do
    for name in $(grep -o '[A-Za-z0-9_.-]*\.md\b' "$f" | sort -u); do
        grep -qx "$name" "$tmp/names" || fail "$f cites $name, which is not in the repository"
    done
done

echo "doc references: $failures failed"
[ "$failures" -eq 0 ]
