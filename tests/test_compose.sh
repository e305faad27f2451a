#!/usr/bin/env bash
# A short GA composition end to end: every problem written must be perfect when
# re-verified from scratch by `solve --verify`, with the written main line; the
# run is reproducible from --seed, and --resume continues from the checkpoint.
# The runs screen on the OpenMP path (LeakSanitizer stays on under make check);
# one run on the default device (OpenCL when there is one) must give the same.
. "$(dirname "$0")/harness.sh"
d=$(mktemp -d)
# Under the sanitizers (make check) three runs whose checks are of content, which make
# test runs, are left out: the one-thread and default-device comparisons and the
# seed-5 lines (together about 110 s there with the earlier -O1 sanitizer build);
# the code they reach runs in the other runs, test_screen and test_solve.
case "$BIN" in *san*) san=1 ;; *) san=0 ;; esac
# small extension and cook-removal budgets: the defaults (3 x 48 candidates and 8 x 8 x 3
# repairs a generation) are several times the 30 children of these short runs and made
# this test the slowest under the sanitizers; 3 x 4 x 2 still repairs (4 perfect here)
args="--pop 30 --gens 4 --seed 2 --nodes 30000 --extend 1 --extend-tries 6 --repair 3 --repair-tries 4 --repair-depth 2 --threads 2 --quiet --device omp"
"$BIN/tsumegen" compose ga $args --out "$d/a" > "$d/a.sum" 2>"$d/a.err" && ok "compose runs" || { bad "compose runs"; cat "$d/a.err"; }
n=$(wc -l < "$d/a/problems.jsonl" 2>/dev/null || echo 0)
[ "$n" -gt 0 ] && ok "problems written ($n)" || bad "no problem written"
[ "$(ls "$d"/a/*.kif 2>/dev/null | wc -l)" = "$n" ] && ok "one KIF per problem" || bad "KIF count differs from problems"
python3 - "$d/a/problems.jsonl" "$BIN/tsumegen" <<'PY' && ok "every problem re-verifies perfect with its main line" || bad "re-verification"
import json, subprocess, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
inp = open(sys.argv[1]).read()  # solve reads the JSON lines' "sfen" fields
out = subprocess.run([sys.argv[2], "solve", "--verify"], input=inp, capture_output=True, text=True).stdout.splitlines()
bad = 0
for r, line in zip(rows, out):
    v = json.loads(line)
    if not (v["result"] == "mate" and v["perfect"] and v["verified"] is True and v["length"] == r["length"] and v["pv"] == r["pv"]
            and r.get("verified") is True):  # (and the composer's own check passed before it wrote the line)
        print("MISMATCH", r["sfen"], line); bad += 1

sys.exit(1 if bad or len(out) != len(rows) else 0)
PY
# the same seed on one thread: verification, second looks and the reduction of the
# perfect boards run on the threads, the results must not depend on how many
if [ $san = 0 ]; then
"$BIN/tsumegen" compose ga ${args/--threads 2/--threads 1} --out "$d/b" > "$d/b.sum" 2>/dev/null
cmp -s "$d/a/problems.jsonl" "$d/b/problems.jsonl" && cmp -s "$d/a/undecided.jsonl" "$d/b/undecided.jsonl" &&
    ok "reproducible from --seed, on one thread as on two" || bad "same seed gave other problems on one thread"
else echo "skip the one-thread run (sanitizer build)"; fi
python3 - "$d/a/summary.json" "$d/a.sum" <<'PY' && ok "summary.json parses and matches the printed summary" || bad "summary.json"
import json, sys
s = json.load(open(sys.argv[1]))
printed = json.loads(open(sys.argv[2]).read())
want = {"generations": 4, "seed": 2, "pop": 30, "gens": 4, "method": "ga-archive", "device": "OpenMP",
        "screened": 30 * 4 * 4, "interrupted": False, "retry": 8, "retry_nodes": 300000,
        "repair": 3, "repair_tries": 4, "repair_depth": 2, "extend": 1, "extend_tries": 6}
bad = {k: s.get(k) for k, v in want.items() if s.get(k) != v}
bad.update({k: s.get(k) for k in ("verified", "screen_s", "verify_s", "problems", "longest", "proof_s") if k not in s})
if s.get("proof_checked") != s.get("problems") or s.get("proof_failed") != 0 or s.get("proof_undecided") != 0:
    bad["proof"] = (s.get("proof_checked"), s.get("proof_failed"), s.get("proof_undecided"))
if s != printed: bad["printed"] = printed
if bad: print("summary.json:", bad)
sys.exit(1 if bad else 0)
PY
python3 - "$d/a/generations.jsonl" <<'PY' && ok "generations.jsonl counts verdicts and second looks" || bad "generations.jsonl"
import json, sys
g = [json.loads(l) for l in open(sys.argv[1])]
good = len(g) == 4 and all(
    r["mate"] + r["nomate"] + r["unknown"] == r["verified"] and 0 <= r["retried"] <= 8
    and 0 <= r["undecided"] <= r["mate"] - r["perfect"]
    and 0 <= r["repair_perfect"] + r["repair_undecided"] <= r["repaired"] <= 3 * 4 * 2
    and 0 <= r["extend_perfect"] + r["extend_undecided"] <= r["extended"] <= 6 * 4 and 0 <= r["cached"] <= r["verified"] + r["repaired"] + r["extended"]
    for r in g)
sys.exit(0 if good else 1)
PY
python3 -c 'import json,sys; g=[json.loads(l) for l in open(sys.argv[1])]; sys.exit(0 if sum(r["repaired"] for r in g) > 0 else 1)' \
    "$d/a/generations.jsonl" && ok "cook removal proposes boards" || bad "cook removal proposed nothing"
python3 - "$d/a/problems.jsonl" "$d/a/generations.jsonl" <<'PY' && ok "backward extension tries boards; every problem names its origin" || bad "backward extension / origin"
import json, sys
p = [json.loads(l) for l in open(sys.argv[1])]
g = [json.loads(l) for l in open(sys.argv[2])]
good = sum(r["extended"] for r in g) > 0 and all(r["origin"] in ("ga", "repair", "extend") for r in p)
sys.exit(0 if good else 1)
PY
python3 - "$d/a/undecided.jsonl" "$d/a/generations.jsonl" <<'PY' && ok "undecided.jsonl: each undecided mate once, with its bounds" || bad "undecided.jsonl"
import json, sys
u = [json.loads(l) for l in open(sys.argv[1])]
g = [json.loads(l) for l in open(sys.argv[2])]
good = len(u) <= sum(r["undecided"] + r["repair_undecided"] + r["extend_undecided"] for r in g) and len({r["sfen"] for r in u}) == len(u) and all(
    1 <= r["length_lb"] <= r["length_ub"] and r["length_lb"] % 2 == 1 and r["nodes"] >= 30000 for r in u)
if not good: print("undecided.jsonl:", u[:3])
sys.exit(0 if good else 1)
PY
# An undecided mate whose length is exact (a 余詰 test was left open) carries its main
# line ("pv"); one whose length is not carries the mate found ("mate_line", as solve's).
# Replayed on cshogi: legal, every attacker move a check; a main line ends where the
# defender has no move but drops (interpositions the futile rule discounts) or none,
# a mate line (a plain-rule mate) in checkmate.  (Seed 7 leaves one main line and two mate lines.)
if [ $san = 0 ]; then
"$BIN/tsumegen" compose ga ${args/--seed 2/--seed 7} --out "$d/pv" > /dev/null 2>&1
python3 - "$d/pv/undecided.jsonl" <<'PY' && ok "undecided.jsonl: main lines and mate lines, replayed on cshogi" || bad "undecided.jsonl lines"
import json, sys, cshogi
sys.path.insert(0, "tests")
from cshogi_lines import play_checks
rows = [json.loads(l) for l in open(sys.argv[1])]
pvs = [r for r in rows if "pv" in r]
mls = [r for r in rows if "mate_line" in r]
good = len(pvs) >= 1 and len(mls) >= 1 and all(r["length_exact"] for r in pvs) and not any(r["length_exact"] for r in mls)
for r in pvs:
    b = play_checks(r["sfen"], r["pv"])[0] if len(r["pv"]) == r["length_lb"] == r["length_ub"] else None
    ok = b is not None and all(cshogi.move_is_drop(x) for x in b.legal_moves)
    if not ok: print("bad main line:", r)
    good = good and ok
for r in mls:
    b = play_checks(r["sfen"], r["mate_line"])[0] if len(r["mate_line"]) % 2 == 1 and len(r["mate_line"]) <= r["length_ub"] else None
    ok = b is not None and b.is_check() and len(list(b.legal_moves)) == 0
    if not ok: print("bad mate line:", r)
    good = good and ok
sys.exit(0 if good else 1)
PY
else echo "skip the undecided.jsonl lines (sanitizer build)"; fi
# the default device (pocl/GPU if present, else the OpenMP path) screens bit for bit
# like OpenMP, so the same problems come out
if [ $san = 0 ]; then
(unset TSUMEGEN_DEVICE; ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} TSUMEGEN_CACHE_DIR="$d/cache" \
    "$BIN/tsumegen" compose ga ${args/--device omp/} --out "$d/dev" >/dev/null 2>"$d/dev.err")
dev=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["device"])' "$d/dev/summary.json" 2>/dev/null)
cmp -s "$d/a/problems.jsonl" "$d/dev/problems.jsonl" && ok "default device ($dev) gives the same problems as --device omp" \
    || { bad "default device ($dev) gave other problems than --device omp"; cat "$d/dev.err"; }
else echo "skip the default-device run (sanitizer build)"; fi
# resume: run 2 generations, then continue to 4: same problems as the straight run
"$BIN/tsumegen" compose ga ${args/--gens 4/--gens 2} --out "$d/c" >/dev/null 2>&1
cp -r "$d/c" "$d/c3" && cp -r "$d/c" "$d/c4" && cp -r "$d/c" "$d/c9"
"$BIN/tsumegen" compose ga $args --out "$d/c" --resume >/dev/null 2>&1
cmp -s "$d/a/problems.jsonl" "$d/c/problems.jsonl" && cmp -s "$d/a/undecided.jsonl" "$d/c/undecided.jsonl" \
    && ok "--resume continues the same run" || bad "--resume differs from a straight run"
# the options left out of a resume are the run's own (from the checkpoint)
"$BIN/tsumegen" compose ga --out "$d/c3" --resume --gens 4 --threads 2 --quiet --device omp >/dev/null 2>"$d/e"
cmp -s "$d/a/problems.jsonl" "$d/c3/problems.jsonl" && cmp -s "$d/a/undecided.jsonl" "$d/c3/undecided.jsonl" \
    && ok "--resume with only --gens continues the same run" || { bad "--resume with only --gens differs"; cat "$d/e"; }
"$BIN/tsumegen" compose ga --out "$d/c4" --resume --threads 2 --quiet --device omp >/dev/null 2>"$d/e"; rc=$?
python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); sys.exit(0 if d["generations"] == 2 and d["gens"] == 2 and d["pop"] == 30 and d["nodes"] == 30000 else 1)' \
    "$d/c4/summary.json" && [ $rc = 0 ] && ok "--resume alone takes the run's --gens, --pop and --nodes" || { bad "--resume alone (rc $rc)"; cat "$d/e"; }
python3 -c 'import json,sys; d, a = (json.load(open(f)) for f in sys.argv[1:]); sys.exit(0 if d["generations"] == 4 and d["screened"] == 480 and d["proof_checked"] == a["proof_checked"] else 1)' \
    "$d/c/summary.json" "$d/a/summary.json" && ok "summary.json after --resume counts the whole run" || bad "summary.json after --resume"
# Ctrl-C: exit 130, every result kept, the resume command named; the resume (its
# options from the checkpoint) ends as the straight run did
"$BIN/tsumegen" compose ga $args --out "$d/i" >/dev/null 2>"$d/e" & pid=$!
sleep 0.3; kill -INT $pid; wait $pid; rc=$?
python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))["interrupted"] else 1)' "$d/i/summary.json" \
    && [ $rc = 130 ] && grep -qF "continue with: tsumegen compose ga --out $d/i --resume" "$d/e" \
    && ok "Ctrl-C: exit 130, summary says interrupted, names the resume command" || { bad "Ctrl-C (rc $rc)"; cat "$d/e"; }
"$BIN/tsumegen" compose ga --out "$d/i" --resume --threads 2 --quiet --device omp >/dev/null 2>"$d/e"
cmp -s "$d/a/problems.jsonl" "$d/i/problems.jsonl" && cmp -s "$d/a/undecided.jsonl" "$d/i/undecided.jsonl" \
    && ok "resumed after Ctrl-C: the straight run's problems" || { bad "resumed after Ctrl-C differs"; cat "$d/e"; }
# --time: exit 0 after the generation in which the time ran out (one at least), the
# resume named; resumed with --time again (one more) and then without, the straight run
"$BIN/tsumegen" compose ga $args --time 0.001 --out "$d/t" >/dev/null 2>"$d/e"; rc=$?
[ $rc = 0 ] && grep -qx "generation 1" "$d/t/checkpoint.txt" && grep -qF "continue with: tsumegen compose ga --out $d/t --resume" "$d/e" \
    && ok "--time: exit 0 after one generation, names the resume" || { bad "--time (rc $rc)"; cat "$d/e"; }
"$BIN/tsumegen" compose ga --out "$d/t" --resume --time 0.001 --threads 2 --quiet --device omp >/dev/null 2>&1
grep -qx "generation 2" "$d/t/checkpoint.txt" && ok "--resume --time: one generation more" || bad "--resume --time: $(grep generation "$d/t/checkpoint.txt")"
"$BIN/tsumegen" compose ga --out "$d/t" --resume --threads 2 --quiet --device omp >/dev/null 2>&1
cmp -s "$d/a/problems.jsonl" "$d/t/problems.jsonl" && cmp -s "$d/a/undecided.jsonl" "$d/t/undecided.jsonl" \
    && ok "--time, then resumed: the straight run's problems" || bad "--time, then resumed, differs from the straight run"
# a damaged value in the checkpoint meets the command line's checks (a checkpoint of
# version 1, which has no checksum line to catch the edit)
cp -r "$d/c" "$d/c5" && sed -i 's/ --tournament [0-9]* / --tournament 0 /; /^sum /d; s/^tsumegen-ga-checkpoint 2$/tsumegen-ga-checkpoint 1/' "$d/c5/checkpoint.txt"
"$BIN/tsumegen" compose ga --out "$d/c5" --resume --quiet --device omp >/dev/null 2>"$d/e"; rc=$?
[ $rc = 2 ] && grep -q -- "--tournament must be" "$d/e" && grep -q "c5/checkpoint.txt, which is damaged" "$d/e" \
    && ok "--resume: a damaged option value in the checkpoint exits 2 naming it" || { bad "damaged checkpoint value (rc $rc)"; cat "$d/e"; }
# the checksum (on copies of the run after 2 of its 4 generations): an edited checkpoint, one cut short (its last line, the sum, gone)
# and a damaged record in verdicts.bin are each refused with exit 2, naming the file
cp -r "$d/c9" "$d/c6" && sed -i 's/^generation 2$/generation 1/' "$d/c6/checkpoint.txt"
"$BIN/tsumegen" compose ga --out "$d/c6" --resume --quiet --device omp >/dev/null 2>"$d/e"; rc=$?
[ $rc = 2 ] && grep -q "c6/checkpoint.txt is damaged (its checksum does not match its text)" "$d/e" \
    && ok "--resume: an edited checkpoint is refused by its checksum" || { bad "edited checkpoint (rc $rc)"; cat "$d/e"; }
cp -r "$d/c9" "$d/c7" && sed -i '$d' "$d/c7/checkpoint.txt"
"$BIN/tsumegen" compose ga --out "$d/c7" --resume --quiet --device omp >/dev/null 2>"$d/e"; rc=$?
[ $rc = 2 ] && grep -q "c7/checkpoint.txt is damaged (its last line, the checksum, is missing)" "$d/e" \
    && ok "--resume: a checkpoint cut short is refused" || { bad "cut checkpoint (rc $rc)"; cat "$d/e"; }
cp -r "$d/c9" "$d/c8" && python3 -c 'import sys; p = sys.argv[1]; b = bytearray(open(p, "rb").read()); b[60] ^= 1; open(p, "wb").write(b)' "$d/c8/verdicts.bin"
"$BIN/tsumegen" compose ga --out "$d/c8" --resume --quiet --device omp >/dev/null 2>"$d/e"; rc=$?
[ $rc = 2 ] && grep -q "c8/verdicts.bin: not a verdict cache, or damaged" "$d/e" \
    && ok "--resume: a damaged verdict record is refused" || { bad "damaged verdicts.bin (rc $rc)"; cat "$d/e"; }
rm "$d/c8/verdicts.bin"
"$BIN/tsumegen" compose ga --out "$d/c8" --resume --gens 4 --threads 2 --quiet --device omp >/dev/null 2>"$d/e"; rc=$?
[ $rc = 0 ] && grep -qx "generation 4" "$d/c8/checkpoint.txt" && { cmp -s "$d/a/problems.jsonl" "$d/c8/problems.jsonl" || echo "(without the cache: other problems than the straight run)"; } && ok "--resume with verdicts.bin moved away runs to the end" \
    || { bad "--resume without verdicts.bin (rc $rc)"; cat "$d/e"; }
# a resume under options that change the results would mix two runs in one folder
cp -r "$d/c" "$d/c2"
"$BIN/tsumegen" compose ga ${args/--nodes 30000/--nodes 40000} --out "$d/c2" --resume >/dev/null 2>"$d/e"; rc=$?
[ $rc = 2 ] && grep -q -- "started with --nodes 30000; this command gives --nodes 40000" "$d/e" \
    && cmp -s "$d/c/problems.jsonl" "$d/c2/problems.jsonl" && ok "--resume under another --nodes: exit 2 naming it, nothing written" \
    || { bad "--resume under another --nodes (rc $rc)"; cat "$d/e"; }
"$BIN/tsumegen" compose ga ${args/--pop 30/--pop 31} --out "$d/c2" --resume >/dev/null 2>"$d/e"; rc=$?
[ $rc = 2 ] && grep -q -- "started with --pop 30; this command gives --pop 31" "$d/e" \
    && ok "--resume under another --pop: exit 2 naming it" || { bad "--resume under another --pop (rc $rc)"; cat "$d/e"; }
"$BIN/tsumegen" compose extend --from "$d/a/problems.jsonl" --out "$d/c2" --resume --quiet >/dev/null 2>"$d/e"; rc=$?
[ $rc = 2 ] && grep -q -- "started with compose ga; this command gives compose extend" "$d/e" \
    && ok "compose extend --resume on a GA run: exit 2 naming both" || { bad "extend --resume on a GA run (rc $rc)"; cat "$d/e"; }
"$BIN/tsumegen" compose ga $args --out "$d/a" >/dev/null 2>"$d/e"; rc=$?
[ $rc = 2 ] && grep -q "already holds problems" "$d/e" && ok "refuses to overwrite results" || bad "overwrote results (rc $rc)"
"$BIN/tsumegen" compose ga --pop x >/dev/null 2>"$d/e"; rc=$?
[ $rc = 2 ] && grep -q -- "--pop must be" "$d/e" && ok "bad option exits 2" || bad "bad option (rc $rc)"
printf 'bias 110\npiece att Q 0 1 2\n' > "$d/bad_points.txt"
for pf in "$d/bad_points.txt" "$d/no_such_points.txt"; do
    "$BIN/tsumegen" compose ga $args --points "$pf" --out "$d/p" >/dev/null 2>"$d/e"; rc=$?
    [ $rc = 2 ] && grep -qF "$pf" "$d/e" && [ ! -e "$d/p/problems.jsonl" ] && ok "bad --points $(basename "$pf"): exit 2 naming the file" \
        || { bad "bad --points $(basename "$pf") (rc $rc)"; cat "$d/e"; }
done
rm -rf "$d"
echo "compose: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
