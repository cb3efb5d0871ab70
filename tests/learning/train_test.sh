#!/bin/sh
# run-tests: slow
# The training pipeline of docs/training.md at toy size (issue 28):
# examples/python/train_net.py plays a few self-play games, trains a value
# network with torch for two generations (the second's games played by the
# search with the first's network), exports it, loads it in C and plays a
# short match with it. Checked here, independently of the pipeline's own
# checks:
#   - the network file has the length the format gives for 3171 inputs and
#     H1 = 16 (docs/network-format.md) and the library loads it;
#   - the library's value equals the trained torch model's (its saved
#     parameters, loaded into a model built here) within 1e-5 on 200
#     positions of random games;
#   - training moved the parameters, and the network fits its training
#     data better than the constant 0;
#   - the turn search plays a legal decision with it, and `ball engine
#     --net` loads it; the match played its games with no forfeit;
#   - the second generation's games were played with the first's network
#     (their records differ from a run without it);
#   - the same command twice gives the same file, byte for byte;
#   - bad arguments are refused with a message, no traceback.
# Needs Debian's python3 with numpy and torch (make check installs them).
. tests/lib/shell-test.sh
. tests/lib/instrumented.sh
skip_if_instrumented sanitizer "Debian's python3 cannot load a sanitized libball"

PY=${PYTHON:-/usr/bin/python3}
# absolute: the pipeline and the engines it starts run in other directories
abs() { case $1 in /*) echo "$1" ;; *) echo "$(pwd)/$1" ;; esac; }
LIBBALL_PATH=$(abs "${LIBBALL_PATH:-build/libball.so.1}")
BALL=$(abs "${BALL:-build/bin/ball}")
export LIBBALL_PATH
PYTHONPATH=$(pwd)/bindings/python
export PYTHONPATH
[ -f "$LIBBALL_PATH" ] || { echo "FAIL: $LIBBALL_PATH not built"; exit 1; }
[ -x "$BALL" ] || { echo "FAIL: $BALL not built"; exit 1; }
"$PY" -c 'import numpy, torch' 2>"$tmp/err" ||
    { echo "FAIL: $PY has no numpy or torch (make check installs python3-torch): $(tail -n 1 "$tmp/err")"; exit 1; }

toy="--games 6 --nodes 300 --h1 16 --epochs 3 --check 200 --workers 0 --ball $BALL"
# shellcheck disable=SC2086
timeout 300 "$PY" examples/python/train_net.py --out "$tmp/run" $toy --generations 2 \
    --match-games 2 --match-nodes 300 >"$tmp/log" 2>&1 ||
    { cat "$tmp/log"; echo "FAIL: the pipeline exited non-zero"; exit 1; }
for f in run.json value.net gen0/value.net gen0/model.pt gen1/value.net gen1/model.pt \
         gen1/match.json gen0/data/manifest.json gen1/data/manifest.json; do
    [ -f "$tmp/run/$f" ] || fail "no $f in the run's folder"
done
cmp -s "$tmp/run/value.net" "$tmp/run/gen1/value.net" || fail "value.net is not the last generation's"

# 40 header bytes + 4 * (3171*16 + 16 + 16 + 1) + 4 checksum bytes
[ "$(wc -c <"$tmp/run/value.net" | tr -d ' ')" -eq 203120 ] ||
    fail "value.net: $(wc -c <"$tmp/run/value.net") bytes, the format gives 203120 for H1 = 16"

cat >"$tmp/check.py" <<'EOF'
import json, sys
import numpy as np
import torch
import libball
from libball import learn

run = sys.argv[1]
problems = []
# The model as the format describes it (a dense torch model), built here
# from the saved parameters: the pipeline trains the first layer as an
# EmbeddingBag whose rows are the inputs' weights (l1.weight [3171][16]).
state = torch.load(run + "/gen1/model.pt")
if sorted(state) != ["b1", "l1.weight", "out.bias", "out.weight"]:
    problems.append("model.pt holds %s" % sorted(state))
model = torch.nn.Sequential(torch.nn.Linear(3171, 16), torch.nn.Hardtanh(0.0, 1.0),
                            torch.nn.Linear(16, 1), torch.nn.Tanh())
model.load_state_dict({"0.weight": state["l1.weight"].T, "0.bias": state["b1"],
                       "2.weight": state["out.weight"], "2.bias": state["out.bias"]})
model.eval()
rng = np.random.default_rng(7)
worst = 0.0
with libball.Net.from_file(run + "/value.net") as net:
    game, seen = libball.Game(), 0
    while seen < 200:
        if game.is_over:
            game = libball.Game()
        game.random_apply(int(rng.integers(1, 2 ** 31)))
        if game.is_over:
            continue
        x = torch.tensor(np.asarray(learn.observation(game), dtype=np.float32)).unsqueeze(0)
        with torch.no_grad():
            worst = max(worst, abs(float(model(x)[0, 0]) - net.evaluate(game)))
        seen += 1
    if not worst < 1e-5:
        problems.append("the library and torch differ by %g on 200 positions" % worst)
    choice = libball.TurnSearch(nodes=300, eval=net).choose(libball.Game())
    if str(choice) not in [str(a) for a in libball.Game().legal_actions()]:
        problems.append("the search with the network chose %s, not legal at the start" % choice)

# Training moved the first layer away from its start (bias 0.5 everywhere).
b1 = model[0].bias.detach().numpy()
if np.allclose(b1, 0.5):
    problems.append("the first layer's biases are still 0.5: no training step was taken")
info = json.load(open(run + "/run.json"))
gen1 = info["generations"][1]
last = gen1["train"]["epochs"][-1]["train_mse"]
shards = [np.load(f) for f in __import__("glob").glob(run + "/gen*/data/*.npz")]
zero = float(np.mean(np.concatenate([s["ret"] for s in shards]).astype(np.float64) ** 2))
if not last < zero:
    problems.append("training mse %.4f is not below the constant 0's %.4f" % (last, zero))
if gen1["data_net"] != run + "/gen0/value.net":
    problems.append("generation 1's games were not played with generation 0's net: %r"
                    % gen1["data_net"])
report = json.load(open(run + "/gen1/match.json"))
if report["games"] != 2 or any(e["forfeits"] for e in report["engines"]):
    problems.append("the match: %d games, forfeits %s"
                    % (report["games"], [e["forfeits"] for e in report["engines"]]))
for p in problems:
    print("FAIL: " + p)
print("torch and the library: largest difference %.3g" % worst)
EOF
"$PY" "$tmp/check.py" "$tmp/run" >"$tmp/check.log" 2>&1 || { cat "$tmp/check.log"; fail "the check script failed"; }
grep '^FAIL' "$tmp/check.log" && failures=$((failures + 1))
tail -n 1 "$tmp/check.log"

# `ball engine --net` loads the file and plays.
{ printf 'bep\nisready\nposition startpos\ngo nodes 300\n'; sleep 3; printf 'quit\n'; } |
    timeout 60 "$BALL" engine --net "$tmp/run/value.net" >"$tmp/engine.out" 2>&1 ||
    fail "ball engine --net exited $?: $(tail -n 2 "$tmp/engine.out")"
grep -q '^bestdecision ' "$tmp/engine.out" || fail "ball engine --net: no bestdecision: $(tail -n 3 "$tmp/engine.out")"

# The shipped network (share/net/value.net, installed into share/libball)
# loads and plays too.
{ printf 'bep\nisready\nposition startpos\ngo nodes 300\n'; sleep 3; printf 'quit\n'; } |
    timeout 60 "$BALL" engine --net share/net/value.net >"$tmp/shipped.out" 2>&1 ||
    fail "ball engine --net share/net/value.net exited $?: $(tail -n 2 "$tmp/shipped.out")"
grep -q '^bestdecision ' "$tmp/shipped.out" || fail "the shipped net: no bestdecision: $(tail -n 3 "$tmp/shipped.out")"
grep -q 'error' "$tmp/shipped.out" && fail "the shipped net: $(grep error "$tmp/shipped.out" | head -n 1)"

# The second generation's games with generation 0's network differ from
# games of the hand-written search with the same seeds (eval=hand: the
# search's default is the network the library carries).
"$PY" -m libball.selfplay --out "$tmp/hand" --games 6 --seed 1000001 --chunk 6 --workers 0 \
    --atk search:nodes=300,eval=hand --def search:nodes=300,eval=hand >/dev/null 2>"$tmp/err" ||
    fail "selfplay without the net: $(tail -n 1 "$tmp/err")"
cat "$tmp/hand"/*.records >"$tmp/hand.rec" 2>/dev/null
cat "$tmp/run/gen1/data"/*.records >"$tmp/net.rec" 2>/dev/null
[ -s "$tmp/net.rec" ] || fail "generation 1 kept no records"
cmp -s "$tmp/hand.rec" "$tmp/net.rec" && fail "generation 1's games equal the hand-written search's"

# Reproducible: the same command gives the same file.
# shellcheck disable=SC2086
timeout 300 "$PY" examples/python/train_net.py --out "$tmp/again" $toy --generations 2 \
    >"$tmp/log2" 2>&1 || { cat "$tmp/log2"; fail "the second run exited non-zero"; }
cmp -s "$tmp/run/value.net" "$tmp/again/value.net" || fail "two runs of the same command differ"

# Refusals: a message, no traceback, exit status not 0.
for bad in "--h1 0" "--h1 600" "--games 0" "--h2 -1"; do
    # shellcheck disable=SC2086
    if "$PY" examples/python/train_net.py --out "$tmp/bad" $bad >"$tmp/bad.out" 2>&1; then
        fail "train_net.py $bad was accepted"
    elif grep -q Traceback "$tmp/bad.out" || ! grep -q 'train_net: ' "$tmp/bad.out"; then
        fail "train_net.py $bad: $(tail -n 1 "$tmp/bad.out")"
    fi
done
"$PY" -m libball.selfplay --out "$tmp/bad2" --games 1 --workers 0 --atk search:nodes=10,net=/nonexistent \
    >"$tmp/bad.out" 2>&1 && fail "selfplay accepted net=/nonexistent"
grep -q 'net=/nonexistent is not a file' "$tmp/bad.out" || fail "selfplay net=/nonexistent: $(tail -n 1 "$tmp/bad.out")"
head -c 100 "$tmp/run/value.net" >"$tmp/short.net"
"$PY" -m libball.selfplay --out "$tmp/bad3" --games 1 --workers 0 --atk "search:nodes=10,net=$tmp/short.net" \
    >"$tmp/bad.out" 2>&1 && fail "selfplay accepted a truncated net"
grep -q 'net: .*truncated' "$tmp/bad.out" || fail "selfplay with a truncated net: $(tail -n 1 "$tmp/bad.out")"

[ "$failures" -eq 0 ] && echo "train: the toy pipeline (2 generations, export, C = torch, search, match, reproducible)"
finish
