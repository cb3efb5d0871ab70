#!/bin/sh
# SPDX-License-Identifier: MIT
# make bench-crossings: random playouts through each runtime, one decision
# a call against one call a decision (ball_random_apply) and one call a game
# (ball_random_playout) (issue 29, "Fewer crossings"; issue 46; 
# docs/performance.md). Prints decisions per CPU second (median of ROUNDS,
# the ways interleaved in each process), the ratio to the C loop that does
# the same work (the last column names it) and, with valgrind, instructions
# per decision:
#   C       bench/bench.c's playouts (callgrind inside playout() only) and
#           its apply+undo walk (perft 5, every leaf applied and undone)
#   Python  bench/crossings.py (callgrind: the whole process run with 2N
#           and N games, the difference over the difference in decisions)
#   LuaJIT  bench/crossings.lua with the C module (the one Lua binding)
#           built here for the Lua 5.1 ABI, the same way
#   PUC Lua bench/crossings.lua with the C module built here for lua5.4
#   node    bench/crossings.mjs: the JavaScript binding over the
#           WebAssembly build (make wasm; no instruction count: valgrind
#           does not follow the JIT usefully)
# (The LuaJIT FFI module of 1.0 measured about half the C module's
# instructions under LuaJIT; it went with issue 29, "One Lua
# implementation": docs/performance.md keeps its figures.)
# Usage: sh bench/crossings.sh BUILD_DIR [GAMES [ROUNDS]]
set -e
B=${1:?usage: crossings.sh BUILD_DIR [GAMES [ROUNDS]]}
GAMES=${2:-200}
ROUNDS=${3:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
case $B in /*) ;; *) B=$root/$B ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
have() { command -v "$1" >/dev/null 2>&1; }

# "WAY decisions seconds" lines -> "WAY median-decisions-per-second"
median() {
    awk '{r[$1] = r[$1] " " ($2 / $3)} END {for (w in r) print w, r[w]}' |
    while read -r w rates; do
        # shellcheck disable=SC2086 # one rate a word
        m=$(printf '%s\n' $rates | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')
        echo "$w $m"
    done
}
rate() { awk -v w="$2" '$1 == w {printf "%.2f M", $2 / 1e6}' "$1"; }
# instructions per decision of WAY: runs "$@ GAMES 1 WAY" and "$@ 2*GAMES 1 WAY"
per_decision() {
    way=$1 n=$2
    shift 2
    for k in 1 2; do
        BENCH_NO_WARMUP=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" $((k * n)) 1 "$way" \
            >"$tmp/cg$k.out" 2>"$tmp/cg$k.err"
    done
    awk -v a="$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$tmp/cg1.err")" \
        -v b="$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$tmp/cg2.err")" \
        -v da="$(awk '{print $2}' "$tmp/cg1.out")" -v db="$(awk '{print $2}' "$tmp/cg2.out")" \
        'BEGIN {printf "%.0f", (b - a) / (db - da)}'
}

echo "random playouts, turn limit 200, decisions per CPU second (median of $ROUNDS, ways interleaved) and instructions per decision (callgrind); load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-48s %12s %12s %8s  %s\n' "loop" "decisions/s" "instr/dec" "vs C" "(C loop compared)"
# rate of a C row, M decisions per CPU second, by its key
c_rate() { awk -v k="$1" '$1 == k {print $2}' "$tmp/c_rates"; }
: >"$tmp/c_rates"
# "RATE M" against the C row KEY: the ratio
ratio() {
    r=$(echo "$1" | awk '{print $1}')
    c=$(c_rate "$2")
    [ -n "$r" ] && [ -n "$c" ] && [ "$r" != "-" ] && awk -v r="$r" -v c="$c" 'BEGIN {printf "%.3fx", r / c}' || printf '%s' "-"
}
row() { # label rate instr key
    printf '%-48s %12s %12s %8s  %s\n' "$1" "$2" "$3" "$(ratio "$2" "$4")" "${4:-}"
}

# C: bench/bench.c (make bench) for the rate, its callgrind workloads for the count
"$B/bench/bench" apply playouts >"$tmp/c.txt"
# the walk: apply+undo's median run, its decisions over its CPU time
r=$(awk '/^apply\+undo/ {for (i = 1; i <= NF; i++) {if ($i == "M" && !m) m = $(i - 1); if ($i == "wall") w = $(i + 1); if ($i == "cpu") c = $(i + 1)} printf "%.2f", m * w / c}' "$tmp/c.txt")
echo "walk $r" >>"$tmp/c_rates"
c="-"
if have valgrind; then
    c=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect=perft_full \
            "$B/bench/bench" --workload apply 2>"$tmp/cg.err" | awk '{print $2}')
    c=$(awk -v i="$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$tmp/cg.err")" -v d="$c" 'BEGIN {printf "%.0f", i / d}')
fi
row "C legal list + ball_apply_unchecked + ball_undo" "$r M" "$c"
for row in "draw:draw + ball_apply_unchecked:playout:C ball_random_action + ball_apply_unchecked" \
           "checked:draw + checked ball_apply:playout-checked:C ball_random_action + ball_apply" \
           "apply:ball_random_apply:playout-apply:C ball_random_apply" \
           "call:ball_random_playout:playout-call:C ball_random_playout"; do
    key=$(echo "$row" | cut -d: -f1)
    title=$(echo "$row" | cut -d: -f2) workload=$(echo "$row" | cut -d: -f3) label=$(echo "$row" | cut -d: -f4)
    r=$(awk -v t="$title" 'index($0, t) {getline; for (i = 1; i <= NF; i++) if ($i == "(median;") {print $(i + 2) " M"; exit}}' "$tmp/c.txt" | sed 's/ M$//')
    echo "$key $r" >>"$tmp/c_rates"
    c="-"
    if have valgrind; then
        c=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect=playout \
                "$B/bench/bench" --workload "$workload" 2>"$tmp/cg.err" | awk '{print $2}')
        c=$(awk -v i="$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$tmp/cg.err")" -v d="$c" 'BEGIN {printf "%.0f", i / d}')
    fi
    row "$label" "$r M" "$c"
done

run_binding() { # label-prefix command...
    prefix=$1
    shift
    # shellcheck disable=SC2086 # WAYS: words
    "$@" "$GAMES" "$ROUNDS" $WAYS | median >"$tmp/rates"
    for way in $WAYS; do
        # what the way is, and the C loop that does its work
        case $way in
        loop) what="random_action() + apply()" key=$LOOP_C ;;
        walk) what="legal list + apply() + undo() (a walk)" key=walk ;;
        apply) what="random_apply()" key=apply ;;
        playout) what="random_playout()" key=call ;;
        raw) what="the loop's two _speed calls, no Game" key=draw ;;
        guarded) what="the same, each inside the game's guard" key=draw ;;
        rlock) what="the same, each inside a threading.RLock" key=draw ;;
        create) what="Game(turn_limit=200) + close() (per game)" key="" ;;
        bpn) what="bpn + set_bpn() (per round trip)" key="" ;;
        esac
        c="-"
        [ -n "${NO_CALLGRIND:-}" ] || ! have valgrind ||
            c=$(per_decision "$way" $((GAMES / 10 > 0 ? GAMES / 10 : 1)) "$@")
        row "$prefix $what" "$(rate "$tmp/rates" "$way")" "$c" "$key"
    done
}

if have python3; then
    # the interpreter itself, not a wrapper script (pyenv's shim) that
    # callgrind would count instead
    py=$(python3 -c 'import sys; print(sys.executable)')
    # the extension module libball._speed beside the library (make python-ext)
    # Game.apply() of a drawn decision skips the re-check, as the C loop
    # with the unchecked apply does
    PYTHONPATH="$root/bindings/python${PYTHONPATH:+:$PYTHONPATH}" LIBBALL_PATH="$B/libball.so.1" \
        WAYS="loop walk apply playout raw guarded rlock create bpn" LOOP_C=draw \
        run_binding "Python" "$py" "$root/bench/crossings.py"
fi
# the C module, with its generated constants list (scripts/api-generate.py)
cp "$root/bindings/lua/c/"*.c "$root/bindings/lua/c/"ballc*.h "$root/bindings/lua/c/ball_constants.h" "$tmp/"
# LuaJIT loads the C module built for the Lua 5.1 ABI (lua5.1's headers or
# LuaJIT's own)
lj_inc=""
for d in /usr/include/lua5.1 /usr/include/luajit-2.1; do
    [ -f "$d/lua.h" ] && { lj_inc=$d; break; }
done
if have luajit && [ -n "$lj_inc" ]; then
    mkdir -p "$tmp/5.1"
    ${CC:-cc} -std=c99 -O2 -shared -fPIC -I"$root/include" -I"$lj_inc" "$tmp/"*.c \
        -o "$tmp/5.1/ball.so" -L"$B" -l:libball.so.1
    LD_LIBRARY_PATH="$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" LUA_CPATH="$tmp/5.1/?.so" \
        WAYS="loop apply playout" LOOP_C=checked run_binding "LuaJIT (C module)" luajit "$root/bench/crossings.lua"
fi
if have lua5.4 && [ -f /usr/include/lua5.4/lua.h ]; then
    mkdir -p "$tmp/5.4"
    ${CC:-cc} -std=c99 -O2 -shared -fPIC -I"$root/include" -I/usr/include/lua5.4 "$tmp/"*.c \
        -o "$tmp/5.4/ball.so" -L"$B" -l:libball.so.1
    LD_LIBRARY_PATH="$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" LUA_CPATH="$tmp/5.4/?.so" \
        WAYS="loop apply playout" LOOP_C=checked run_binding "PUC Lua 5.4 (C module)" lua5.4 "$root/bench/crossings.lua"
fi
# JavaScript: the binding over the WebAssembly build (make wasm)
if have node && [ -f "$root/bindings/js/wasm/ball.mjs" ]; then
    WAYS="loop apply playout" LOOP_C=checked NO_CALLGRIND=1 \
        run_binding "JavaScript (node, wasm)" node "$root/bench/crossings.mjs"
else
    echo "JavaScript: not measured (node, or the WebAssembly build: make wasm)"
fi
