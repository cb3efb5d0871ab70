#!/bin/sh
# The SVG diagrams of docs/rules.md (docs/diagrams/*.svg, committed) cannot
# go stale: `make docs-diagrams` (mk/games.mk) draws them again with the
# tool under test into a scratch directory, and each must be byte-identical
# to the committed file, with no file missing or left over. Also checks
# that docs/rules.md shows every diagram and links no missing one, and that
# each parses as XML. Run from the repository root (make check does); after
# a change of the drawing code, `make docs-diagrams` and commit the diff.

BALL=${BALL:-build/bin/ball}
B=${BALL_BUILD:-${B:-build}}
. tests/lib/shell-test.sh

[ -x "$BALL" ] || { echo "FAIL: $BALL not built (make tool)"; exit 1; }

# -o: never rebuild the tool here; BALL_SVG: draw with the tool under test.
make -s --no-print-directory B="$B" -o "$B/bin/ball" BALL_SVG="$BALL svg" \
    DIAGRAMS_DIR="$tmp/diagrams" docs-diagrams >"$tmp/make.log" 2>&1 ||
    { cat "$tmp/make.log"; fail "make docs-diagrams"; }
n=0
for f in "$tmp"/diagrams/*.svg; do
    [ -f "$f" ] || continue
    n=$((n + 1))
    name=$(basename "$f")
    if [ ! -f "docs/diagrams/$name" ]; then
        fail "docs/diagrams/$name is not committed (make docs-diagrams, then add it)"
    elif ! cmp -s "$f" "docs/diagrams/$name"; then
        fail "docs/diagrams/$name is stale: make docs-diagrams draws it differently"
    fi
    grep -q "(diagrams/$name)" docs/rules.md || fail "docs/rules.md does not show diagrams/$name"
done
[ "$n" -gt 0 ] || fail "make docs-diagrams drew nothing"
# The movement patterns show the moving piece alone: no loose ball lying
# on A1, which the pictures drew before (issue 49): the piece holds it.
for f in docs/diagrams/movement-*.svg; do
    grep -q 'class="loose-ball"' "$f" && fail "$f draws a loose ball (the piece should hold it)"
done
for f in docs/diagrams/*.svg; do
    [ -f "$tmp/diagrams/$(basename "$f")" ] ||
        fail "$f is not drawn by make docs-diagrams (left over?)"
done
for name in $(sed -n 's/.*(diagrams\/\([^)]*\.svg\)).*/\1/p' docs/rules.md); do
    [ -f "docs/diagrams/$name" ] || fail "docs/rules.md links diagrams/$name, which does not exist"
done
if command -v python3 >/dev/null 2>&1; then
    python3 -c '
import sys, xml.etree.ElementTree as ET
for path in sys.argv[1:]:
    root = ET.parse(path).getroot()
    if root.tag != "{http://www.w3.org/2000/svg}svg":
        sys.exit("%s: not an SVG document" % path)
' docs/diagrams/*.svg || fail "a diagram is not well-formed SVG"
else
    skip "the diagrams' XML check: no python3"
fi

if [ "$failures" -ne 0 ]; then
    echo "diagrams_test: $failures failure(s)"
    exit 1
fi
echo "diagrams_test: $n diagrams of docs/rules.md up to date"
finish
