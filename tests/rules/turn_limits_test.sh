#!/bin/sh
# The turn limits of the programs (docs/rules-choices.md, "Turn limits of
# the programs and bindings"; R11.2): automated games default to 100 turns
# (examples/common/auto_games.h AUTO_TURN_LIMIT; selfplay, the Dask
# self-play, Python learn.Env / learn.Batch and Lua ball_learn.batch, whose
# own tests are in bindings/), an option changes it, and interactive play
# (play, ball show) keeps the library's default, no limit. Run from the
# repository root after `make`. Prints each failure; exits non-zero if any.

B=${B:-build}
SELFPLAY=${SELFPLAY:-$B/examples/selfplay}
PLAY=${PLAY:-$B/examples/play}
BALL=${BALL:-$B/bin/ball}
LIBBALL_PATH=${LIBBALL_PATH:-$B/libball.so.1}

. tests/lib/shell-test.sh

expect_eq() {
    [ "$2" = "$3" ] || fail "$1: got '$2', expected '$3'"
}

# ---- selfplay: 100 turns unless --turn-limit; the records say so
"$SELFPLAY" --atk random --def random --games 3 --record "$tmp/sp.rec" >"$tmp/sp.out" 2>&1 ||
    fail "selfplay exited $?: $(tail -n 3 "$tmp/sp.out")"
grep -q '^selfplay: 3 games, .*turn limit 100,' "$tmp/sp.out" || fail "selfplay: no 'turn limit 100': $(head -n 1 "$tmp/sp.out")"
expect_eq "selfplay: records with turns=100" "$(grep -c '^\[Rules "turns=100"\]$' "$tmp/sp.rec")" 3
# no turn after 100 (R11.2: turn 100 is the last that may be played), and
# random games this long are drawn (R11.2) unless one scored (R11.1)
last=$(grep -o '^[0-9]*\. ' "$tmp/sp.rec" | tr -d '. ' | sort -n | tail -n 1)
[ "${last:-0}" -ge 1 ] && [ "${last:-0}" -le 100 ] || fail "selfplay: a game reached turn $last"
expect_eq "selfplay: results" "$(grep -c '^\[Result "\(1/2-1/2\|1-0\|0-1\)"\]$' "$tmp/sp.rec")" 3
"$SELFPLAY" --atk random --def random --games 1 --turn-limit 7 --record "$tmp/sp7.rec" >/dev/null 2>&1 ||
    fail "selfplay --turn-limit 7 exited $?"
grep -q '^\[Rules "turns=7"\]$' "$tmp/sp7.rec" || fail "selfplay --turn-limit 7: record without turns=7"

# ---- interactive play keeps the library's default (docs/spec.md R11.2: no limit)
"$PLAY" </dev/null >"$tmp/play.out" 2>&1 || fail "play exited $?"
grep -q '^Turn 1 | DEF to act' "$tmp/play.out" || fail "play: no status line: $(head -c 300 "$tmp/play.out")"
grep -q '^Turn 1 of ' "$tmp/play.out" && fail "play: a turn limit by default: $(grep '^Turn' "$tmp/play.out")"
"$PLAY" --turn-limit 30 </dev/null 2>&1 | grep -q '^Turn 1 of 30 |' || fail "play --turn-limit 30: no 'Turn 1 of 30'"
"$BALL" show | grep -q 'turn 1; result' || fail "ball show: a turn limit by default"

# ---- libball.selfplay's ruleset (the Dask self-play; no cluster needed):
# 100 unless --turn-limit or the turns= of --rules gives one
if command -v python3 >/dev/null 2>&1; then
    root=$(pwd)
    case $LIBBALL_PATH in /*) lib=$LIBBALL_PATH ;; *) lib=$root/$LIBBALL_PATH ;; esac
    out=$(PYTHONPATH="$root/bindings/python" LIBBALL_PATH="$lib" PYTHONDONTWRITEBYTECODE=1 \
        python3 -c 'from libball import selfplay as s
for r, t in (("", None), ("turns=16", None), ("zone=2", None), ("", 0), ("turns=16", 5)):
    p = s.check_params(1, s.Params(rules=r, shards=False), t)
    print(repr(p.rules), end=" ")' 2>&1)
    expect_eq "libball.selfplay rules" "$out" "'turns=100' 'turns=16' 'zone=2 turns=100' '' 'turns=5' "
else
    skip "python3 not found: libball.selfplay's ruleset"
fi

if [ "$failures" -ne 0 ]; then
    echo "turn_limits_test: $failures failure(s)"
    exit 1
fi
echo "turn_limits_test: all passed"
finish
