#!/bin/sh
# Drives examples/play with scripted input and checks what it prints. Run
# from the repository root after `make` (make check does). Every expected
# choice list and position is derived by hand from docs/spec.md. Prints each
# failure; exits non-zero if any.

PLAY=${PLAY:-build/examples/play}
START='7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1'
# R5.4: DEF's X on E11 steps diagonally to F10; 1 PA left.
AFTER_E11F10='7/6/3s3/6/3x3/6/1o1sxo1/2x3/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 1 - 0/0 1'
# R6.1: ATK X on G9, DEF x on I11 with H10 open between them.
DODGE='7/6/7/6/7/6/4x2/6/3X3/6/7/6/7/6/7/6/@6 ATK a 2 - 0/0 1'
AFTER_DODGE='7/6/7/6/7/4X1/4x_2/6/7/6/7/6/7/6/7/6/@6 ATK a 1 - 0/0 1'
# R9.3: stack [X* o] on G9; ATK O on F10 and S on H10 leave F8 and H8.
KEEP='7/6/7/6/7/6/7/2OS2/3[X*o]3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2'
AFTER_KEEP_LOWER='7/6/7/6/7/6/7/2OS2/7/2Xo*2/7/6/7/6/7/6/7 DEF a 2 - 0/0 3'
# R11.1: ATK X* on G15, two diagonal steps from row 17.
NEAR_TD='7/6/3X*3/6/7/6/7/6/7/6/7/6/7/6/7/6/x6 ATK a 2 - 0/0 2'

. tests/lib/shell-test.sh

# session NAME ARGS... < input: runs play, output in $tmp/NAME.out
session() {
    name=$1
    shift
    "$PLAY" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    st=$?
    [ "$st" -eq 0 ] || fail "$name: exit status $st: $(head -c 300 "$tmp/$name.err")"
}

# has NAME TEXT: the session printed a line containing TEXT (fixed string)
has() {
    grep -qF -- "$2" "$tmp/$1.out" || fail "$1: no line with '$2'"
}

# expect_eq WHAT GOT EXPECTED
expect_eq() {
    [ "$2" = "$3" ] || fail "$1: got '$2', expected '$3'"
}

# line_after NAME PROMPT-AND-COMMAND: the line printed right after the echo
line_after() {
    awk -v key="$2" 'found { print; exit } $0 == key { found = 1 }' "$tmp/$1.out"
}

if [ ! -x "$PLAY" ]; then
    echo "FAIL: $PLAY not built"
    exit 1
fi

# ---- human DEF against the greedy ATK: select, cancel, end, undo, save, load
printf '%s\n' "$START" >"$tmp/start.bpn"
printf 'E11\n-\nF10\nG11\n-\nc\nbpn\nG13\n\033\nbpn\nend\nbpn\nundo\nbpn\nsave %s\nload %s\nbpn\nquit\n' \
    "$tmp/saved.bpn" "$tmp/start.bpn" | session human

has human 'BALL: ATK = greedy, DEF = human.'
has human 'Turn 1 | DEF to act (human) | action phase | PA left: 2'
# R2.2/R5.1: every DEF piece of the formation has a move.
has human 'choose a piece: C11 E11 G11 I11 K11 G13 G15'
# R5.1-R5.4: X on E11: D10 F10 D12 F12, then C9 G9 C13 two squares away;
# G13 holds its own x (a 2-square move cannot end on an ally).
has human '[E11 -] choose a destination: C9 G9 D10 F10 D12 F12 C13'
has human 'DEF plays E11-F10'
has human 'Turn 1 | DEF to act (human) | action phase | PA left: 1'
# R12: cancelling (c, or ESC) drops the selection and leaves the game alone.
[ "$(line_after human 'DEF> c')" = 'selection cancelled' ] || fail "human: 'c' did not cancel"
[ "$(line_after human 'DEF> ESC')" = 'selection cancelled' ] || fail "human: ESC did not cancel"
[ "$(grep -c "^DEF> bpn" "$tmp/human.out")" -ge 2 ] || fail "human: bpn commands not echoed"
[ "$(awk '/^DEF> bpn$/ { getline; print; exit }' "$tmp/human.out")" = "$AFTER_E11F10" ] ||
    fail "human: position changed by a cancelled selection"
[ "$(awk '/^DEF> bpn$/ { n++; if (n == 2) { getline; print; exit } }' "$tmp/human.out")" = "$AFTER_E11F10" ] ||
    fail "human: position changed by ESC"
has human 'DEF plays end'
has human 'ATK (greedy) plays:'
has human 'Turn 3 | DEF to act (human)'
# undo takes back the greedy player's turn and DEF's `end`.
has human 'took back'
[ "$(awk '/^DEF> bpn$/ { n++; if (n == 4) { getline; print; exit } }' "$tmp/human.out")" = "$AFTER_E11F10" ] ||
    fail "human: undo did not come back to DEF's decision"
has human "saved to $tmp/saved.bpn"
[ "$(cat "$tmp/saved.bpn" 2>/dev/null)" = "$AFTER_E11F10" ] || fail "human: saved file holds '$(cat "$tmp/saved.bpn" 2>/dev/null)'"
has human "loaded $tmp/start.bpn"
[ "$(awk '/^DEF> bpn$/ { n++; if (n == 5) { getline; print; exit } }' "$tmp/human.out")" = "$START" ] ||
    fail "human: load did not set the position"
has human 'bye'

# ---- R6.1 dodge step by step (two humans), with a square given at the verb step
printf 'G9\nI11\nJ12\nbpn\nquit\n' | session dodge --atk human --def human --bpn "$DODGE"
has dodge 'Turn 1 | ATK to act (human) | action phase | PA left: 2'
has dodge '[G9 - I11] choose the exit square (R6.1): H10 J10 H12 J12'
has dodge 'ATK plays G9-I11/J12'
[ "$(line_after dodge 'ATK> bpn')" = "$AFTER_DODGE" ] || fail "dodge: position after G9-I11/J12"

# ---- R9.3 release with the keeper chosen step by step
printf 'end\nG9\n-\nF8\nH8\nH8\nbpn\nquit\n' | session release --atk human --def human --bpn "$KEEP"
has release 'ATK plays end'
has release 'release tasks: G9 release'
has release '[G9 -] choose the upper piece'"'"'s square (R9.3): F8 H8'
has release '[G9 - F8] choose the lower piece'"'"'s square (R9.3): H8'
has release '[G9 - F8 H8] choose who keeps the ball (R9.3): F8 H8'
has release 'ATK plays G9-F8/H8=H8'
[ "$(line_after release 'DEF> bpn')" = "$AFTER_KEEP_LOWER" ] || fail "release: position after the release"

# ---- after the piece: only the kinds of action it has, with their squares
# (R12 step 2). ATK X* on A1, O on B2, DEF x on M17.
# O on B2 (no ball): only moves (R8.5: only a carrier hands off or passes);
# R5.1 O: A1 (protection, R7.1) C1 A3 C3 diagonally, D2 B4 orthogonally.
# X* on A1: R5.1 B2 (protection) and C3 (over the active ally on B2, R5.3);
# R8.2 hand-off to B2, its network; R8.3 short pass to a vacant square next
# to B2: C1 A3 C3; R8.4 long pass: vacant squares at distance >= 2 (R1.3)
# from A1 and B2: C1 is at distance 1 from B2, E1 G1 I1 K1 M1 D2 are not.
CARRIER='6x/6/7/6/7/6/7/6/7/6/7/6/7/6/7/O5/X*6 ATK a 2 - 0/0 2'
printf 'B2\n=\n^\nc\nA1\n=\nc\nquit\n' | session kinds --atk human --def human --bpn "$CARRIER"
# verbs_after NAME PROMPT-AND-COMMAND: the lines that list the kinds of
# action after the echo (up to the next prompt), wrapped lines joined
verbs_after() {
    awk -v key="$2" 'found && /^[A-Z]+> / { exit } found && /^      / { sub(/^ +/, " "); last = last $0; next }
        found && /^  / { if (last != "") print last; last = $0; next }
        found { next } $0 == key { found = 1 } END { if (last != "") print last }' "$tmp/$1.out"
}
expect_eq "kinds: O on B2 without the ball" "$(verbs_after kinds 'ATK> B2')" '  -  move to: A1 C1 D2 A3 C3 B4'
[ "$(line_after kinds 'ATK> =')" = 'not an action of this piece: =' ] || fail "kinds: = accepted for a piece without the ball"
[ "$(line_after kinds 'ATK> ^')" = 'not an action of this piece: ^' ] || fail "kinds: ^ accepted for a piece without the ball"
verbs_after kinds 'ATK> A1' >"$tmp/kinds.a1"
expect_eq "kinds: X* on A1, its kinds" "$(cut -c1-5 "$tmp/kinds.a1" | tr -d ' ' | tr '\n' ' ')" '- = ^ ^^ '
grep -qxF '  -  move to: B2 C3' "$tmp/kinds.a1" || fail "kinds: X* on A1 moves: $(head -1 "$tmp/kinds.a1")"
grep -qxF '  =  hand-off to (R8.2): B2' "$tmp/kinds.a1" || fail "kinds: X* on A1 hand-off: $(cat "$tmp/kinds.a1")"
grep -qxF '  ^  short pass, ball square (R8.3): C1 A3 C3' "$tmp/kinds.a1" || fail "kinds: X* on A1 short pass: $(cat "$tmp/kinds.a1")"
grep -q '^  ^^ long pass, ball square (R8.4): E1 G1 I1 K1 M1 D2 ' "$tmp/kinds.a1" ||
    fail "kinds: X* on A1 long pass: $(grep '\^\^' "$tmp/kinds.a1")"
has kinds '[A1 =] choose the receiver (R8.2): B2'
# the lists wrap within 80 columns
wide=$(awk 'length($0) > 80' "$tmp/kinds.out")
[ -z "$wide" ] || fail "kinds: lines wider than 80 columns: $wide"

# ---- card mode (R10.4): the card that targets the piece, listed whole. The
# position of docs/cards.md where S*! on H8 has no action left but Rally,
# card2@H8 (restricted, R4.4; R10.4 "again").
BALL=${BALL:-$(dirname "$PLAY")/../bin/ball}
DECK='earn.move=1 earn.pickup=2 earn.block=1 earn.short=1 earn.unblock=1 atk=Sprint:2:pa+1,Rally:1:again,Blitz:4:pa+2 def=Sprint:2:pa+1,Rally:1:again'
RALLY='7/6/3s3/6/7/3x2/1o1sxo1/6/7/2[Xx]S*!2/1O2XO1/6/3X3/6/3S3/6/7 ATK a 1 - 4/2 4 23/2'
if "$BALL" --rules "$DECK" record "$RALLY" </dev/null >"$tmp/card.rec" 2>"$tmp/card.err"; then
    printf 'H8\nquit\n' | session card --atk human --def human --load "$tmp/card.rec"
    expect_eq "card: S*! on H8" "$(verbs_after card 'ATK> H8')" '  card (type the whole action): card2@H8'
else
    fail "ball record of the card position: $(cat "$tmp/card.err")"
fi

# ---- errors, notation, touchdown (R11.1)
printf 'Z99\nG13\nG15\nM1\nc\nG15-F16\nF16-E17\nG5\nquit\n' |
    session touchdown --atk human --def greedy --bpn "$NEAR_TD"
[ "$(line_after touchdown 'ATK> Z99')" = "unknown command 'Z99' (type help)" ] ||
    fail "touchdown: Z99 not refused"
# a mistyped action is a notation error, not an unknown command
printf 'E11-F1O\ne11-f10\nquit\n' | session typo --atk human --def human
[ "$(line_after typo 'DEF> E11-F1O')" = "notation error: action 'E11-F1O': expected a square at character 5 (type legal for the legal actions)" ] ||
    fail "typo: E11-F1O: $(line_after typo 'DEF> E11-F1O')"
line_after typo 'DEF> e11-f10' | grep -q "^notation error: action 'e11-f10': " ||
    fail "typo: e11-f10: $(line_after typo 'DEF> e11-f10')"
[ "$(line_after touchdown 'ATK> G13')" = 'not a choice here: G13' ] ||
    fail "touchdown: an empty square was accepted as a piece"
[ "$(line_after touchdown 'ATK> M1')" = 'not a choice here: M1' ] ||
    fail "touchdown: M1 accepted as a verb or move"
has touchdown 'ATK plays G15-F16'
has touchdown 'ATK plays F16-E17'
has touchdown 'Touchdown! ATK wins at turn 2.'
has touchdown 'the game is over'
grep -q 'DEF (greedy) plays' "$tmp/touchdown.out" && fail "touchdown: DEF played after the game ended"

# ---- two built-in players, no input: the game is played to its end
session bots --atk greedy --def random --turn-limit 60 </dev/null
grep -qE '^(Touchdown! (ATK|DEF) wins at turn [0-9]+\.|Draw: turn limit 60 reached\.)$' "$tmp/bots.out" ||
    fail "bots: no result line"

# ---- bad options
"$PLAY" --atk wizard </dev/null >/dev/null 2>&1
[ $? -eq 2 ] || fail "unknown player not refused with status 2"
"$PLAY" --bpn 'nonsense' </dev/null >/dev/null 2>"$tmp/bad.err"
[ $? -eq 2 ] || fail "bad BPN not refused with status 2"
grep -q 'bad BPN' "$tmp/bad.err" || fail "bad BPN: no message"

if [ "$failures" -ne 0 ]; then
    echo "play_test: $failures failure(s)"
    exit 1
fi
echo "play_test: all passed"
