#!/bin/sh
# run-tests: slow
# The format-2 training pipeline at toy size (docs/training.md, "Format 2";
# issue 45): python3 -m libball.selfplay --values labels the turn starts
# of a few games with the turn search's values, then
# examples/python/train_nnue.py featurizes, trains, exports and checks.
# Checked here, independently of the pipeline's own checks:
#   - the values shards have one row per kept turn start (format 2): the
#     side to act's BPN, a value in [-1, 1] and the budget of the search;
#     the positions are turn starts (action phase, PA 2) and differ;
#   - the network file has the length the format gives for H = 64 and
#     H2 = 8 (docs/network-format.md) and the library loads it;
#   - the library's value equals the pipeline's integer forward pass on the
#     check positions (max_diff_integer 0), and the turn search plays a
#     legal decision with it (residual: its value of a leaf is the
#     built-in evaluation plus the network's);
#   - the same command twice gives the same file, byte for byte;
#   - the cache's "hand" column is the hand-written evaluation
#     (TurnSearch(eval="hand")), not the search's default network;
#   - --mirror's column map equals the library's features of the mirrored
#     position (BPN reversed row by row), for feature set 2's relative
#     features too (derived from the mirrored position's own features);
#   - --features 2 trains a set-2 network (docs/network-format.md, "Feature
#     set 2"): the file's length and header, and the library's value equal
#     to the integer forward pass (max_diff_integer 0);
#   - a values folder needs search players; bad arguments are refused.
. tests/lib/shell-test.sh
. tests/lib/instrumented.sh
skip_if_instrumented sanitizer "Debian's python3 cannot load a sanitized libball"

PY=${PYTHON:-/usr/bin/python3}
abs() { case $1 in /*) echo "$1" ;; *) echo "$(pwd)/$1" ;; esac; }
LIBBALL_PATH=$(abs "${LIBBALL_PATH:-build/libball.so.1}")
export LIBBALL_PATH
PYTHONPATH=$(pwd)/bindings/python
export PYTHONPATH
"$PY" -c 'import numpy, torch' 2>"$tmp/err" ||
    { echo "FAIL: $PY has no numpy or torch: $(tail -n 1 "$tmp/err")"; exit 1; }

sp="--games 4 --chunk 2 --workers 0 --values --random-opening 4 --random-turns 200 --atk search:nodes=400,hash=1 --def search:nodes=400,hash=1 --no-progress"
"$PY" -m libball.selfplay --out "$tmp/data" $sp >"$tmp/sp.json" 2>"$tmp/sp.err" ||
    { cat "$tmp/sp.err"; echo "FAIL: selfplay --values"; exit 1; }
"$PY" - "$tmp/data" <<'PYEOF' || exit 1
import glob, sys
import numpy as np
import libball
rows = 0
for f in sorted(glob.glob(sys.argv[1] + "/*.npz")):
    d = np.load(f)
    assert int(d["format"]) == 2, f
    assert d["bpn"].shape == d["value"].shape == d["budget"].shape
    assert np.all(np.abs(d["value"]) <= 1.0) and np.all(d["budget"] == 400)
    assert len(set(d["hash"].tolist())) == len(d["hash"]), "a position kept twice in a chunk"
    for k in range(len(d["bpn"])):
        fields = d["bpn"][k].decode().split()
        # a turn start: the action phase with the turn's 2 PA, no hand-off (N1)
        assert fields[2:5] == ["a", "2", "-"], fields
        assert int(d["side"][k]) == (0 if fields[1] == "ATK" else 1)
        g = libball.Game(d["bpn"][k].decode(), rules_text="turns=100")
        assert g.hash == int(d["hash"][k])
        g.close()
    rows += len(d["bpn"])
assert rows >= 20, rows
print("values shards: %d rows" % rows)
PYEOF
[ $? -eq 0 ] || { echo "FAIL: the values shards"; exit 1; }

# --mirror's map (column_mirror) against the library: the features of a
# position mirrored across column G by its BPN text (N1: each row's
# squares reversed) are the map of its features, from both sides, and the
# hand-written evaluation gives both the same value (the symmetry it relies
# on: train_nnue.py's "hand" column, which a mirrored row keeps; eval="hand",
# since the search's default is the network the library carries).
"$PY" - "$tmp/data" <<'PYEOF' || { echo "FAIL: the column mirror"; exit 1; }
import glob, re, sys
import numpy as np
import libball
from libball import net
sys.path.insert(0, "examples/python")
import train_nnue
m = train_nnue.column_mirror()
assert (m[m] == np.arange(len(m))).all(), "the map is not its own inverse"
m2 = train_nnue.column_mirror(2)
assert (m2[m2] == np.arange(len(m2))).all(), "the set-2 map is not its own inverse"
squares = train_nnue.square_table()
def set2(g, persp):
    """set 2's features of g seen from persp, without the padding"""
    f = np.full((1, 2, net.MAX_ACTIVE), net.FEATURES, dtype=np.uint16)
    l = net.features(g, persp)
    f[0, :, :len(l)] = l  # both rows: relative() reads both sides
    return [x for x in train_nnue.relative(f, squares)[0, 0].tolist() if x != len(m2) - 1]
rel_seen = 0
TOKEN = re.compile(r"\d|@|\[[^\]]*\]\+?|[XOSxos][*_!]*")
def mirror_bpn(bpn):
    fields = bpn.split(" ")
    rows = []
    for group in fields[0].split("/"):
        squares = []
        for t in TOKEN.findall(group):
            squares += ["."] * int(t) if t.isdigit() else [t]
        text = re.sub(r"\.+", lambda k: str(len(k.group())), "".join(reversed(squares)))
        rows.append(text)
    return " ".join(["/".join(rows)] + fields[1:])
checked = moved = 0
with libball.TurnSearch(nodes=1, hash_mb=1, eval="hand") as ts:
    for f in sorted(glob.glob(sys.argv[1] + "/*.npz")):
        d = np.load(f)
        for b in d["bpn"]:
            bpn = b.decode()
            with libball.Game(bpn) as g, libball.Game(mirror_bpn(bpn)) as h:
                for persp in (0, 1):
                    mine = sorted(m[net.features(g, persp)].tolist())
                    assert mine == sorted(net.features(h, persp)), bpn
                    mine2 = sorted(m2[set2(g, persp)].tolist())
                    assert mine2 == sorted(set2(h, persp)), (bpn, persp)
                    rel_seen += sum(1 for x in mine2 if x >= net.FEATURES)
                assert abs(ts.evaluate(g) - ts.evaluate(h)) < 1e-12, bpn
                moved += mirror_bpn(bpn) != bpn
            checked += 1
assert checked >= 20 and moved >= checked // 2, (checked, moved)
assert rel_seen >= checked, (rel_seen, checked)
print("column mirror: %d positions (%d not symmetric)" % (checked, moved))
PYEOF

tr="--val-every 2 --epochs 2 --h 64 --h2 8 --check 100 --compare 100 --threads 1 --buffer 2"
for run in a b; do
    "$PY" examples/python/train_nnue.py --data "$tmp/data" --out "$tmp/$run" $tr >"$tmp/$run.out" 2>&1 ||
        { cat "$tmp/$run.out"; echo "FAIL: train_nnue.py ($run)"; exit 1; }
done
cmp "$tmp/a/value.net" "$tmp/b/value.net" || { echo "FAIL: the same command gave two files"; exit 1; }
want=$((40 + 2 * 4783 * 64 + 2 * 64 + 2 * 64 * 8 + 6 * 8 + 8))
have=$(wc -c <"$tmp/a/value.net")
[ "$have" -eq "$want" ] || { echo "FAIL: value.net has $have bytes, the format gives $want"; exit 1; }
# the checkout's commit, when the test runs from one (CI's clone does)
want_commit=$(git rev-parse HEAD 2>/dev/null || echo none)
"$PY" - "$tmp/a" "$want_commit" <<'PYEOF' || { echo "FAIL: the trained network"; exit 1; }
import json, sys
import libball
run = json.load(open(sys.argv[1] + "/run.json"))
if sys.argv[2] != "none":
    assert (run["commit"] or "").split("-")[0] == sys.argv[2], (run["commit"], sys.argv[2])
assert run["check"]["positions"] > 0 and run["check"]["max_diff_integer"] == 0.0, run["check"]
assert run["versus_hand"]["positions"] > 0
with libball.Net.from_file(sys.argv[1] + "/value.net") as net, \
        libball.TurnSearch(nodes=500, hash_mb=1, eval=net) as ts, libball.Game() as g:
    a = ts.choose(g)
    assert a in g.legal_actions()
# the cache's "hand" column (what the network learns a correction to) is
# the hand-written evaluation, not the search's default (the network the
# library carries), which gives other values on some of these rows
import glob
import numpy as np
rows = differ = 0
with libball.TurnSearch(nodes=1, hash_mb=1, eval="hand") as hand, \
        libball.TurnSearch(nodes=1, hash_mb=1) as default:
    for f in sorted(glob.glob(sys.argv[1] + "/cache/*.npz"))[:2]:
        z = np.load(f)
        for b, h in list(zip(z["bpn"], z["hand"]))[:40]:
            with libball.Game(b.decode(), rules_text=str(z["rules"])) as g:
                assert abs(float(h) - hand.evaluate(g)) < 1e-6, (b, float(h), hand.evaluate(g))
                differ += abs(float(h) - default.evaluate(g)) > 1e-6
            rows += 1
assert rows > 0 and differ > 0, (rows, differ)
print("check", run["check"], "versus hand", run["versus_hand"],
      "hand column: %d rows, %d differ from the network" % (rows, differ))
PYEOF
# feature set 2: a toy network, its file, C against the integer forward pass
"$PY" examples/python/train_nnue.py --data "$tmp/data" --out "$tmp/f2" --cache "$tmp/a/cache" $tr \
    --features 2 >"$tmp/f2.out" 2>&1 || { cat "$tmp/f2.out"; echo "FAIL: train_nnue.py --features 2"; exit 1; }
want=$((40 + 2 * 7429 * 64 + 2 * 64 + 2 * 64 * 8 + 6 * 8 + 8))
have=$(wc -c <"$tmp/f2/value.net")
[ "$have" -eq "$want" ] || { echo "FAIL: the set-2 value.net has $have bytes, the format gives $want"; exit 1; }
"$PY" - "$tmp/f2" <<'PYEOF' || { echo "FAIL: the trained set-2 network"; exit 1; }
import json, struct, sys
import libball
run = json.load(open(sys.argv[1] + "/run.json"))
head = open(sys.argv[1] + "/value.net", "rb").read(24)
assert struct.unpack("<2I", head[16:24]) == (2, 7429), head
assert run["params"]["features"] == 2
assert run["check"]["positions"] > 0 and run["check"]["max_diff_integer"] == 0.0, run["check"]
with libball.Net.from_file(sys.argv[1] + "/value.net") as net, \
        libball.TurnSearch(nodes=500, hash_mb=1, eval=net) as ts, libball.Game() as g:
    assert ts.choose(g) in g.legal_actions()
print("set 2: check", run["check"], "versus hand", run["versus_hand"])
PYEOF
"$PY" -m libball.selfplay --out "$tmp/bad" --games 2 --values --atk greedy --def random --workers 0 \
    >"$tmp/bad.out" 2>&1 && { echo "FAIL: --values with greedy was accepted"; exit 1; }
grep -q "must be a search player" "$tmp/bad.out" || { cat "$tmp/bad.out"; echo "FAIL: the refusal's message"; exit 1; }
echo "PASS: values shards, training, export, C = integer forward (feature sets 1 and 2), a search with the net"
