#!/bin/sh
# The LÖVE game (examples/love, issue 46), run from the repository root by
# `make check`: installs what it needs as root (scripts/deps.sh love: love,
# xvfb, xdotool) or, when it cannot, skips naming them; starts Xvfb on a
# free display and the game in it (--human DEF against a small turn
# search), then plays by synthetic input, with xdotool clicks at the square
# centres the game writes (--layout): a click on an ATK piece, which the
# game must refuse and say so, DEF's move E11-F10 by two clicks, the "End
# phase" button; waits for the search (on its thread) to play ATK's turn;
# plays a move of turn 3 that the Lua module lists for the position the
# game reports. The game's state file (--state: BPN, history, ...) is
# checked against the library: the history replayed from the start by the
# Lua module under LuaJIT must give the BPN the game shows. F12 saves a
# screenshot, build/screenshots/love-2.png (look at it; love-1.png is one
# taken while the search ran). Last, SIGTERM during a search must end the
# game within 10 s, the search stopped by it rather than by its budget.
# Bad options, a bad BPN, card mode and a missing module must each be a
# message in the window, not a crash. Everything is bounded by timeouts; Xvfb and the game are stopped
# on every exit.
#
# Skipped in the sanitizer build: LÖVE is not run with the sanitizer's
# runtime preloaded, so it cannot load an instrumented ball.so.
# run-tests: serial slow
. tests/lib/instrumented.sh
skip_if_instrumented sanitizer "LÖVE cannot load an instrumented ball.so"

. tests/lib/shell-test.sh
root=$(pwd)
B=${B:-build}
case $B in /*) build=$B ;; *) build=$root/$B ;; esac
module=$build/lua/5.1/ball.so
shots=$build/screenshots

[ -f "$module" ] || { echo "FAIL: $module not built (make lua; Lua 5.1's headers: sh scripts/deps.sh love)"; exit 1; }
command -v luajit >/dev/null 2>&1 || { echo "FAIL: luajit not found (make check installs it)"; exit 1; }

# 0. the click flow against the library's legal list, in LuaJIT alone
LUA_CPATH="$module" LUA_PATH='examples/love/?.lua' timeout 120 luajit examples/love/test_selection.lua ||
    fail "examples/love/test_selection.lua"

if ! out=$(sh scripts/deps.sh love 2>&1); then
    echo "$out"
    skip "the game's packages are missing: ${out#missing Debian packages:}"
    finish
fi

xvfb_pid=""
love_pid=""
cleanup() {
    [ -n "$love_pid" ] && kill "$love_pid" 2>/dev/null
    [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null
    [ -n "$love_pid" ] && wait "$love_pid" 2>/dev/null
    [ -n "$xvfb_pid" ] && wait "$xvfb_pid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT

# wait_for SECONDS COMMAND...: until COMMAND succeeds, at most SECONDS.
wait_for() {
    limit=$(($(date +%s) + $1))
    shift
    until "$@"; do
        [ "$(date +%s)" -lt "$limit" ] || return 1
        sleep 0.2
    done
}
state_has() { grep -Fqx "$1" "$tmp/state" 2>/dev/null; }
field() { sed -n "s/^$1 //p" "$tmp/state"; }

# The X server, on a display it picks (-displayfd), for 300 s at most.
timeout 300 Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$tmp/display" 2>"$tmp/xvfb.log" &
xvfb_pid=$!
wait_for 15 test -s "$tmp/display" || { cat "$tmp/xvfb.log"; echo "FAIL: Xvfb did not start"; exit 1; }
DISPLAY=:$(cat "$tmp/display")
export DISPLAY

mkdir -p "$shots"
rm -f "$shots/love-1.png" "$shots/love-2.png"
# each search runs 3 s, so that the window's frames during it can be
# watched: a window waiting for the search would draw no frame in those 3 s
# but one that lasts them. (On a loaded machine, with Mesa drawing in
# software under Xvfb, a frame can take a second even with no search.)
timeout 240 love examples/love --cpath "$module" --human DEF --nodes 0 --time-ms 3000 --delay-ms 50 \
    --state "$tmp/state" --layout "$tmp/layout" --screenshots "$shots" >"$tmp/love.log" 2>&1 &
love_pid=$!
if ! wait_for 30 test -s "$tmp/layout" || ! wait_for 10 state_has "to_act human"; then
    cat "$tmp/love.log"
    echo "FAIL: the game did not start (no layout or state file)"
    exit 1
fi
wid=""
find_window() { wid=$(xdotool search --name '^BALL$' 2>/dev/null | head -n 1); [ -n "$wid" ]; }
wait_for 15 find_window || { echo "FAIL: no window named BALL"; exit 1; }

# click square|button NAME: a left click at its centre, through X.
click() {
    xy=$(awk -v k="$1" -v n="$2" '$1 == k && $2 == n { print $3, $4 }' "$tmp/layout")
    [ -n "$xy" ] || { fail "no $1 $2 in the layout"; return; }
    # shellcheck disable=SC2086 # x and y
    xdotool mousemove --window "$wid" $xy click 1
    sleep 0.3
}
bpn0=$(field bpn)

# 1. refused: ATK's carrier while DEF acts; the game says why, unchanged
click square G5
wait_for 5 state_has "error G5 cannot act now" || fail "a click on G5 (ATK's) was not refused: $(field error)"
[ "$(field bpn)" = "$bpn0" ] || fail "a refused click changed the position"

# 2. DEF: E11-F10 by two clicks, then the End phase button
click square E11
click square F10
wait_for 5 state_has "history E11-F10" || fail "E11 then F10 did not play E11-F10 (history: $(field history))"
click button end
history_from() { case "$(field history) " in "$1 "*) return 0 ;; esac; return 1; }
wait_for 5 history_from "E11-F10 end" || fail "End phase did not play end (history: $(field history))"

# 3. ATK's turn, searched on the game's thread and played by the game;
# meanwhile the window draws (F12's screenshot is taken in a frame),
# at least 3 frames a search, none as long as 2.25 s
wait_for 10 state_has "thinking yes" || fail "the search did not start (state: $(tr '\n' ' ' <"$tmp/state"))"
xdotool mousemove --window "$wid" 5 5 key F12
# shellcheck disable=SC2016 # for sh -c
wait_for 10 sh -c 'grep -Fqx "screenshot $1" "$2" && grep -Fqx "thinking yes" "$2"' - "$shots/love-1.png" "$tmp/state" ||
    fail "no screenshot while the search ran (state: $(tr '\n' ' ' <"$tmp/state"))"
if ! wait_for 90 state_has "turn 3" || ! wait_for 30 state_has "to_act human"; then
    fail "the search did not play ATK's turn 2 (state: $(tr '\n' ' ' <"$tmp/state"))"
fi
frame=$(field max_frame_ms)
searches=$(field searches)
frames=$(field search_frames)
echo "love: $searches search(es) of 3 s, $frames frames drawn meanwhile, the longest $frame ms"
[ "${frame:-99999}" -lt 2250 ] || fail "a frame of $frame ms while the search ran: the window waited for it"
[ "${frames:-0}" -ge $((3 * ${searches:-1})) ] || fail "$frames frames in $searches searches of 3 s"
# without --eval, the searcher evaluates with the library's network
state_has "search_eval network" || fail "the search's evaluation: $(field search_eval), not network"

# 4. a move of turn 3 that the library lists: a piece and its first destination
lua_ball() { LUA_CPATH="$module" luajit -e "local ball = require('ball') $1"; }
pick=$(lua_ball "local g = ball.new{ bpn = '$(field bpn)' }
    for _, sq in ipairs(g:select({})) do
        local dests, whole = g:select({ sq, '-' })
        if dests[1] and not whole then
            local _, a = g:select({ sq, '-', dests[1] })
            if a then print(sq, dests[1], tostring(a)) return end
        end
    end")
# shellcheck disable=SC2086 # the three words luajit printed
set -- $pick
if [ $# -eq 3 ]; then
    before=$(field history)
    click square "$1"
    click square "$2"
    wait_for 5 state_has "history $before $3" || fail "clicks on $1 and $2 did not play $3 (history: $(field history))"
else
    fail "no move for DEF in $(field bpn)"
fi

# 5. the game's position is the library's: the history replayed from the start
history=$(field history)
replayed=$(lua_ball "local g = ball.new()
    for text in ('$history'):gmatch('%S+') do g:apply(text) end
    print(g:bpn())") || fail "the game's history does not replay: $history"
[ "$replayed" = "$(field bpn)" ] ||
    fail "the game shows $(field bpn), its history $history gives $replayed"
n=$(echo "$history" | wc -w)
[ "$n" -ge 5 ] || fail "only $n decisions played: $history"
echo "love: played $n decisions: $history"

# 6. F12: a screenshot of the game after the decisions
xdotool mousemove --window "$wid" 5 5 key F12
if wait_for 10 state_has "screenshot $shots/love-2.png"; then
    for png in "$shots/love-1.png" "$shots/love-2.png"; do
        [ "$(head -c 8 "$png" | od -An -c | tr -d ' ')" = '211PNG\r\n032\n' ] || fail "$png is not a PNG"
    done
    echo "love: screenshots $shots/love-1.png (thinking), $shots/love-2.png"
else
    fail "F12 wrote no screenshot (state: $(field screenshot))"
fi

# 7. SIGTERM while the search runs: the game stops the run, joins its
# thread and quits
click button end
wait_for 10 state_has "thinking yes" || fail "no search after End phase (state: $(tr '\n' ' ' <"$tmp/state"))"
kill "$love_pid"
wait_for 10 sh -c "! kill -0 $love_pid 2>/dev/null" || fail "the game did not quit within 10 s of SIGTERM"
wait "$love_pid" 2>/dev/null
love_pid=""
state_has "quit search_stopped" || fail "quitting did not stop the search: $(field quit)"
# --eval hand reaches the searcher: its searches say so
rm -f "$tmp/hand"
timeout 60 love examples/love --cpath "$module" --human none --nodes 500 --delay-ms 0 --eval hand \
    --state "$tmp/hand" >"$tmp/hand.log" 2>&1 &
love_pid=$!
wait_for 30 grep -Fqsx "search_eval hand" "$tmp/hand" ||
    fail "--eval hand: the search's evaluation is $(sed -n 's/^search_eval //p' "$tmp/hand" 2>/dev/null)"
kill "$love_pid" 2>/dev/null
wait "$love_pid" 2>/dev/null
love_pid=""
# 8. bad input: the window says what is wrong (the state file holds its
# first line), and the game is still running, not crashed
refused() {
    rm -f "$tmp/bad"
    timeout 60 love examples/love --state "$tmp/bad" "$@" >"$tmp/bad.log" 2>&1 &
    love_pid=$!
    wait_for 30 test -s "$tmp/bad" || echo "(no state)"
    kill -0 "$love_pid" 2>/dev/null || echo "(not running)"
    kill "$love_pid" 2>/dev/null
    wait "$love_pid" 2>/dev/null
    love_pid=""
    sed -n 's/^error //p' "$tmp/bad"
}
msg=$(refused --human XYZ)
case $msg in "--human is"*XYZ*) ;; *) fail "--human XYZ: $msg" ;; esac
msg=$(refused --eval Hand)
case $msg in "--eval is network"*"hand"*"'Hand'") ;; *) fail "--eval Hand: $msg" ;; esac
msg=$(refused --cpath "$tmp/none/?.so")
case $msg in "cannot load the ball module"*"module 'ball' not found"*) ;; *) fail "no module: $msg" ;; esac
msg=$(refused --cpath "$module" --bpn "7/6 nonsense")
case $msg in "cannot start the game: BPN: 2 fields, expected 7") ;; *) fail "a bad BPN: $msg" ;; esac
msg=$(refused --cpath "$module" --rules "earn.move=1")
case $msg in "card mode (R10) is not offered"*) ;; *) fail "card mode: $msg" ;; esac
echo "love: bad options, a bad BPN, card mode and no module refused with a message"

if grep -qi 'error' "$tmp/love.log"; then
    cat "$tmp/love.log"
    fail "the game printed an error"
fi
finish
