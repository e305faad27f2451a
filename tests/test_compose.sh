#!/usr/bin/env bash
# A short GA composition end to end: every problem written must be perfect when
# re-verified from scratch by `solve --verify`, with the written main line; the
# run is reproducible from --seed, and --resume continues from the checkpoint.
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
pass=0; fail=0
ok() { echo "ok   $1"; pass=$((pass+1)); }
bad() { echo "FAIL $1"; fail=$((fail+1)); }
d=$(mktemp -d)
args="--pop 30 --gens 4 --seed 7 --nodes 30000 --threads 2 --quiet"
"$BIN/tsumegen" compose ga $args --out "$d/a" > "$d/a.sum" 2>"$d/a.err" && ok "compose runs" || { bad "compose runs"; cat "$d/a.err"; }
n=$(wc -l < "$d/a/problems.jsonl" 2>/dev/null || echo 0)
[ "$n" -gt 0 ] && ok "problems written ($n)" || bad "no problem written"
[ "$(ls "$d"/a/*.kif 2>/dev/null | wc -l)" = "$n" ] && ok "one KIF per problem" || bad "KIF count differs from problems"
python3 - "$d/a/problems.jsonl" "$BIN/tsumegen" <<'PY' && ok "every problem re-verifies perfect with its main line" || bad "re-verification"
import json, subprocess, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
inp = "".join(r["sfen"] + "\n" for r in rows)
out = subprocess.run([sys.argv[2], "solve", "--verify"], input=inp, capture_output=True, text=True).stdout.splitlines()
bad = 0
for r, line in zip(rows, out):
    v = json.loads(line)
    if not (v["result"] == "mate" and v["perfect"] and v["verified"] is True and v["length"] == r["length"] and v["pv"] == r["pv"]):
        print("MISMATCH", r["sfen"], line); bad += 1
sys.exit(1 if bad or len(out) != len(rows) else 0)
PY
"$BIN/tsumegen" compose ga $args --out "$d/b" > "$d/b.sum" 2>/dev/null
cmp -s "$d/a/problems.jsonl" "$d/b/problems.jsonl" && ok "reproducible from --seed" || bad "same seed gave other problems"
# resume: run 2 generations, then continue to 4: same problems as the straight run
"$BIN/tsumegen" compose ga ${args/--gens 4/--gens 2} --out "$d/c" >/dev/null 2>&1
"$BIN/tsumegen" compose ga $args --out "$d/c" --resume >/dev/null 2>&1
cmp -s "$d/a/problems.jsonl" "$d/c/problems.jsonl" && ok "--resume continues the same run" || bad "--resume differs from a straight run"
"$BIN/tsumegen" compose ga $args --out "$d/a" >/dev/null 2>"$d/e"; rc=$?
[ $rc = 2 ] && grep -q "already holds problems" "$d/e" && ok "refuses to overwrite results" || bad "overwrote results (rc $rc)"
"$BIN/tsumegen" compose ga --pop x >/dev/null 2>"$d/e"; rc=$?
[ $rc = 2 ] && grep -q -- "--pop must be" "$d/e" && ok "bad option exits 2" || bad "bad option (rc $rc)"
rm -rf "$d"
echo "compose: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
