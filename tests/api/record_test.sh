#!/bin/sh
# Tests of the tool's whole-game commands (run from the repository root by
# `make check`): `ball record` and `ball replay` (docs/records.md), `ball
# svg` parsed as XML, the board of `ball show`, `divide --threads`, and
# no progress output when standard error is not a terminal.

BALL=${BALL:-build/bin/ball}
B=${BALL_BUILD:-build}
. tests/lib/shell-test.sh

# The N2 worked example of docs/spec.md, as `ball trace` reads it.
printf 'E11-F10\nF10-E9\nend\nG7-E9/F10\nG5-H6\nH6=I7\nend\nend\nE9-F8\n' >"$tmp/spec.trace"
FINAL='7/6/3s3/6/3x3/6/1o1sxo1/2S3/7/2x3/1OX1X*O1/3X2/7/6/3S3/6/7 ATK a 2 - 0/0 4'

"$BALL" record --event 'Spec example' --atk Ann --def 'Bo "B" Jones' <"$tmp/spec.trace" >"$tmp/spec.rec" 2>"$tmp/err" \
    || fail "record: exit $? $(cat "$tmp/err")"
cat >"$tmp/expected" <<'END'
[Event "Spec example"]
[ATK "Ann"]
[DEF "Bo \"B\" Jones"]
[Rules ""]
[Result "*"]

1. DEF: E11-F10 F10-E9 end
2. ATK: G7-E9/F10 G5-H6 H6=I7 end
3. DEF: end E9-F8
*
END
cmp -s "$tmp/spec.rec" "$tmp/expected" || fail "record: got $(cat "$tmp/spec.rec")"

out=$("$BALL" replay "$tmp/spec.rec") || fail "replay: exit $?"
[ "$out" = "$FINAL	*" ] || fail "replay: got '$out'"
out=$("$BALL" replay --ply 1 "$tmp/spec.rec") || fail "replay --ply: exit $?"
[ "$out" = '7/6/3s3/6/3x3/6/1o1sxo1/2x3/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 1 - 0/0 1' ] || fail "replay --ply 1: got '$out'"
out=$("$BALL" replay - <"$tmp/spec.rec") || fail "replay -: exit $?"
[ "$out" = "$FINAL	*" ] || fail "replay -: got '$out'"

# several games in one file, with a ruleset and a start position; a game
# that ends on the turn limit reads back as a draw
"$BALL" --rules 'zone=2 turns=1' record <"$tmp/spec.trace" >"$tmp/two.rec" 2>"$tmp/err" \
    && fail "record past a turn limit: accepted"
printf 'E11-F10\nend\n' | "$BALL" --rules 'zone=2 turns=1' record >"$tmp/draw.rec" || fail "record draw: exit $?"
grep -qx '\[Rules "zone=2 turns=1"\]' "$tmp/draw.rec" || fail "record: no Rules tag: $(cat "$tmp/draw.rec")"
grep -qx '\[Result "1/2-1/2"\]' "$tmp/draw.rec" || fail "record: draw not recorded: $(cat "$tmp/draw.rec")"
{ cat "$tmp/spec.rec"; echo; cat "$tmp/draw.rec"; } >"$tmp/both.rec"
n=$("$BALL" replay "$tmp/both.rec" | wc -l)
[ "$n" -eq 2 ] || fail "replay of two games: $n lines"
"$BALL" replay "$tmp/both.rec" | tail -n 1 | grep -q '	1/2-1/2$' || fail "replay: the draw is not a draw"
printf 'C7-D8\n' | "$BALL" record "$FINAL" | grep -qxF "[Start \"$FINAL\"]" || fail "record: no Start tag"

# bad records: exit 2, nothing on stdout, the line and column on stderr
expect_bad() {
    what=$1 text=$2
    shift 2
    printf '%s' "$text" >"$tmp/bad.rec"
    "$BALL" replay "$@" "$tmp/bad.rec" >"$tmp/out" 2>"$tmp/err"
    st=$?
    [ "$st" -eq 2 ] || fail "$what: exit status $st"
    [ -s "$tmp/out" ] && fail "$what: output $(cat "$tmp/out")"
    grep -q "line [0-9]*, column [0-9]*" "$tmp/err" || fail "$what: no line and column: $(cat "$tmp/err")"
}
expect_bad "illegal decision" '[Result "*"]

1. DEF: E11-F10 E11-E9
*
'
grep -q 'line 3, column 17: decision 2 (turn 1, DEF)' "$tmp/err" || fail "illegal decision: $(cat "$tmp/err")"
expect_bad "truncated" '[Result "*"]

1. DEF: E11-F10'
expect_bad "bad tag" '[Evnt "x"]
[Result "*"]

*
'
expect_bad "wrong result" '[Result "1-0"]

1-0
'
# a good first game does not hide a bad second one
{ cat "$tmp/spec.rec"; printf '\n[Result "*"]\n\n1. DEF: A1-B2\n*\n'; } >"$tmp/second.rec"
"$BALL" replay "$tmp/second.rec" >"$tmp/out" 2>"$tmp/err" && fail "second bad game: accepted"
[ -s "$tmp/out" ] && fail "second bad game: output"
grep -q 'game 2.*line 14, column 9' "$tmp/err" || fail "second bad game: $(cat "$tmp/err")"
"$BALL" replay --ply 99 "$tmp/spec.rec" >/dev/null 2>&1 && fail "replay --ply past the end: accepted"
"$BALL" replay "$tmp/nonexistent" >/dev/null 2>&1 && fail "replay of a missing file: accepted"
printf 'E11-E9\n' | "$BALL" record >/dev/null 2>&1 && fail "record of an illegal action: accepted"

# svg: well-formed XML with the pieces of the position
MARKS='[Xo_]6/3O2/7/6/X6/2[ss]+2O/x6/6/7/1S_4/2x*!4/2X3/5o1/6/6x/6/1S5 DEF a 0 - 0/0 1127'
"$BALL" svg --highlight E7,F8 "$MARKS" >"$tmp/marks.svg" || fail "svg: exit $?"
"$BALL" svg --highlight F10 --action E11-F10 >"$tmp/start.svg" || fail "svg --action: exit $?"
if command -v python3 >/dev/null 2>&1; then
    python3 - "$tmp/marks.svg" "$tmp/start.svg" <<'END' || fail "svg: XML check failed"
import sys
import xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"

def pieces(path):
    root = ET.parse(path).getroot()
    assert root.tag == NS + "svg", root.tag
    got = {}
    for g in root.iter(NS + "g"):
        cls = g.get("class", "").split()
        if cls and cls[0] == "piece":
            got.setdefault(g.get("data-square"), []).append(" ".join(cls[1:]))
    return root, got

root, got = pieces(sys.argv[1])
want = {
    "A17": ["def o down lower", "atk x upper"], "H16": ["atk o"], "A13": ["atk x"],
    "F12": ["def s lower", "def s upper"], "L12": ["atk o"], "A11": ["def x"], "D8": ["atk s down"],
    "E7": ["def x ball restricted"], "F6": ["atk x"], "K5": ["def o"], "M3": ["def x"], "C1": ["atk s"],
}
assert got == want, got
assert root.find(NS + "title").text.startswith("[Xo_]6/3O2"), root.find(NS + "title").text
hl = [e.get("data-square") for e in root.iter(NS + "rect") if e.get("class") == "highlight"]
assert hl == ["E7", "F8"], hl
assert len([e for e in root.iter(NS + "circle") if e.get("class") == "fresh"]) == 1
root, got = pieces(sys.argv[2])
assert len(got) == 14 and got["G5"] == ["atk x ball"], got
arrows = [e for e in root.iter(NS + "line") if e.get("class") == "arrow"]
assert len(arrows) == 1, arrows
END
else
    skip "svg XML check: no python3"
fi
"$BALL" svg --highlight Z9 >/dev/null 2>&1 && fail "svg --highlight Z9: accepted"
"$BALL" svg --action G5-F6 >/dev/null 2>&1 && fail "svg --action of ATK at DEF's turn: accepted"

# One rendering for a person to look at: headless chromium, when present.
if command -v chromium >/dev/null 2>&1 && [ -d "$B" ]; then
    cp "$tmp/marks.svg" "$B/record-test.svg"
    (cd "$B" && timeout 60 chromium --headless --no-sandbox --disable-gpu \
        --screenshot="$(pwd)/record-test.png" --window-size=800,1000 record-test.svg >/dev/null 2>&1) \
        || echo "note: chromium could not render $B/record-test.svg"
fi

# show prints the library's board
"$BALL" show | head -n 3 | tr '\n' '|' |
    grep -q '^   end zone: ATK scores in row 17|   A     B .*|17 \.  *\. .*\.|$' || fail "show: board"

# examples/play saves a game record and loads it back (command and --load)
PLAY=${PLAY:-$(dirname "$BALL")/../examples/play}
if [ -x "$PLAY" ]; then
    printf 'E11-F10\nend\nrecord %s\nquit\n' "$tmp/play.rec" | "$PLAY" --atk random --seed 3 >"$tmp/play.out" 2>&1 \
        || fail "play record: exit $?"
    grep -qx '\[DEF "human"\]' "$tmp/play.rec" || fail "play record: $(cat "$tmp/play.rec")"
    "$BALL" replay "$tmp/play.rec" >"$tmp/play.final" || fail "play record: replay failed"
    printf 'bpn\nquit\n' | "$PLAY" --atk human --load "$tmp/play.rec" >"$tmp/play2.out" 2>&1 || fail "play --load: exit $?"
    grep -qF "$(cut -f1 "$tmp/play.final")" "$tmp/play2.out" || fail "play --load: not the recorded position"
    grep -q 'loaded the game record' "$tmp/play2.out" || fail "play --load: $(head -5 "$tmp/play2.out")"
fi

# divide --threads gives the same counts; no progress when stderr is a file
"$BALL" divide 3 >"$tmp/d1" 2>"$tmp/d1.err" || fail "divide: exit $?"
"$BALL" divide --threads 3 3 >"$tmp/d3" 2>"$tmp/d3.err" || fail "divide --threads: exit $?"
cmp -s "$tmp/d1" "$tmp/d3" || fail "divide --threads: counts differ"
[ -s "$tmp/d1.err" ] || [ -s "$tmp/d3.err" ] && fail "divide: output on stderr"
tail -n 1 "$tmp/d3" | grep -qx 'total 16283' || fail "divide --threads: $(tail -n 1 "$tmp/d3")"

echo "record_test: $failures failure(s)"
finish
