#!/usr/bin/env bash
# `compose random` (seeds/002) end to end on a slice of the generated stream known
# to hold perfect problems: every problem written re-verifies perfect with its main
# line, the verdict log agrees with the summary, a stopped run resumes to the same
# files (on one thread as on two), and `points learn` fits a file that the screen
# and the composer read back.  Bad options and damaged logs are refused.
. "$(dirname "$0")/harness.sh"
T="$BIN/tsumegen"
d=$(mktemp -d)
# the hand-set points and seeds/002's band on this slice (the learned default is tried below)
args="--seed 7 --start 3000 --boards 1000 --nodes 5000 --points builtin:hand --band 100:115 --device omp --quiet"
"$T" compose random $args --threads 2 --out "$d/a" > "$d/a.sum" 2>"$d/a.err" && ok "compose random runs" || { bad "compose random runs"; cat "$d/a.err"; }
python3 - "$d/a" "$d/a.sum" <<'PY' && ok "summary, summary.json and verdicts.tsv agree" || bad "summary and verdicts"
import json, sys
d = sys.argv[1]
s = json.loads(open(sys.argv[2]).read())
assert s == json.load(open(d + "/summary.json")), "printed summary differs from summary.json"
rows = [l.rstrip("\n").split("\t") for l in open(d + "/verdicts.tsv") if not l.startswith("#")]
classes = ["nomate", "unknown", "short", "leftover", "cooked", "undecided", "final-alt", "perfect"]
assert s["verified"] == len(rows) == sum(s[c] for c in classes), (s, len(rows))
for c in classes:
    assert s[c] == sum(1 for r in rows if r[2] == c), c
assert s["good"] == s["cooked"] + s["undecided"] + s["final-alt"] + s["perfect"]
assert s["final-alt"] == 0, "final-alt is a one-move class"
idx = [int(r[0]) for r in rows]
assert idx == sorted(idx) and 3000 <= idx[0] and idx[-1] < 4000, "indices out of order or range"
assert all(100 <= float(r[1]) <= 115 for r in rows), "a verdict outside the band"
assert s["boards"] == 1000 and s["next_index"] == 4000 and not s["interrupted"]
assert s["perfect"] >= 1, "this slice has a perfect problem (index 3617)"
PY
n=$(wc -l < "$d/a/problems.jsonl" 2>/dev/null || echo 0)
[ "$n" -gt 0 ] && [ "$(ls "$d"/a/*.kif | wc -l)" = "$n" ] && ok "problems written ($n), one KIF each" || bad "problems or KIF files missing"
python3 - "$d/a/problems.jsonl" "$T" <<'PY' && ok "every problem re-verifies perfect with its main line, at least 5 plies" || bad "re-verification"
import json, subprocess, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
out = subprocess.run([sys.argv[2], "solve", "--verify"], input=open(sys.argv[1]).read(), capture_output=True, text=True).stdout.splitlines()
bad = len(out) != len(rows)
for r, line in zip(rows, out):
    v = json.loads(line)
    if not (v["result"] == "mate" and v["perfect"] and v["verified"] is True and v["length"] == r["length"] >= 5
            and v["pv"] == r["pv"] and r["verified"] is True and r["origin"] == "random" and 3000 <= r["index"] < 4000):
        print("MISMATCH", r, line); bad = True
sys.exit(1 if bad else 0)
PY
# the default device (pocl or a GPU when present, else the OpenMP path) generates and
# screens the same stream bit for bit, learned weights too: the same verdicts
case "$BIN" in *san*) echo "skip the default-device runs (sanitizer build)" ;; *)
for p in builtin:hand builtin:learned; do
    (unset TSUMEGEN_DEVICE; TSUMEGEN_CACHE_DIR="$d/cache" "$T" compose random ${args/--device omp/} --points $p --out "$d/dev$p" \
        > /dev/null 2>"$d/dev.err")
    "$T" compose random $args --points $p --out "$d/omp$p" > /dev/null 2>&1
    dev=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["device"])' "$d/dev$p/summary.json" 2>/dev/null)
    cmp -s <(cut -f1-5 "$d/omp$p/verdicts.tsv") <(cut -f1-5 "$d/dev$p/verdicts.tsv") &&
        ok "default device ($dev) gives the OpenMP path's verdicts with $p" || { bad "default device with $p"; cat "$d/dev.err"; }
done ;; esac
# stopped after its first chunk (--time), then resumed on one thread: the same files
"$T" compose random $args --threads 2 --time 0.001 --out "$d/b" > /dev/null 2>&1
next=$(sed -n 's/^next //p' "$d/b/checkpoint.txt" 2>/dev/null)
[ -n "$next" ] && [ "$next" -lt 3617 ] && ok "--time stops early with a checkpoint (next $next)" || bad "no early stop ($next)"
cp "$d/b/checkpoint.txt" "$d/early_checkpoint.txt"
"$T" compose random $args --threads 1 --out "$d/b" --resume > "$d/b.sum" 2>"$d/b.err" || { bad "resume"; cat "$d/b.err"; }
cmp -s <(cut -f1-5 "$d/a/verdicts.tsv") <(cut -f1-5 "$d/b/verdicts.tsv") && cmp -s "$d/a/problems.jsonl" "$d/b/problems.jsonl" &&
    ok "the resumed run equals the straight one" || bad "resumed run differs"
# a run killed after writing past its checkpoint (the finished files with the early
# checkpoint, the problem at 3617 included): those lines are dropped on resume and
# written again once, with the same ids and counts
cp -r "$d/b" "$d/c"
cp "$d/early_checkpoint.txt" "$d/c/checkpoint.txt"
"$T" compose random $args --threads 2 --out "$d/c" --resume > "$d/c.sum" 2>&1
cmp -s <(cut -f1-5 "$d/a/verdicts.tsv") <(cut -f1-5 "$d/c/verdicts.tsv") && cmp -s "$d/a/problems.jsonl" "$d/c/problems.jsonl" &&
    [ "$(sed 's/"seconds.*//' "$d/a.sum")" = "$(sed 's/"seconds.*//' "$d/c.sum")" ] &&
    ok "lines past the checkpoint are verified again once" || bad "lines past the checkpoint doubled or lost"
"$T" compose random ${args/--nodes 5000/--nodes 6000} --out "$d/b" --resume > /dev/null 2>"$d/e1"
[ $? = 2 ] && grep -q "other options" "$d/e1" && ok "resume with other options refused" || bad "resume with other options"
# the checkpoint's checksum: an edited count is refused; a checkpoint from before the
# checksum (old head line, no sum line) still resumes
cp -r "$d/b" "$d/s" && sed -i 's/^kept \([0-9]*\)$/kept 1\1/' "$d/s/checkpoint.txt"
"$T" compose random $args --out "$d/s" --resume > /dev/null 2>"$d/e3"
[ $? = 2 ] && grep -q "s/checkpoint.txt is damaged (its checksum does not match its text)" "$d/e3" \
    && ok "resume of an edited checkpoint refused" || { bad "edited checkpoint"; cat "$d/e3"; }
cp "$d/early_checkpoint.txt" "$d/s/checkpoint.txt" && sed -i '/^sum /d; 1s/ checkpoint 2$/ checkpoint/' "$d/s/checkpoint.txt"
"$T" compose random $args --threads 2 --out "$d/s" --resume > /dev/null 2>"$d/e3"
[ $? = 0 ] && cmp -s "$d/a/problems.jsonl" "$d/s/problems.jsonl" && ok "a checkpoint without a checksum (older version) resumes" \
    || { bad "old checkpoint"; cat "$d/e3"; }
for b in "5:1" "x:" "100"; do
    "$T" compose random --band "$b" --boards 10 --out "$d/x" > /dev/null 2>"$d/e2"
    [ $? = 2 ] && grep -q -- "--band" "$d/e2" && ok "--band '$b' refused" || bad "--band '$b'"
done
# the learned filter: a file the screen and the composer read
"$T" points learn --epochs 5 --out "$d/learned.txt" "$d/a/verdicts.tsv" 2>"$d/l.err" && ok "points learn runs" || { bad "points learn"; cat "$d/l.err"; }
grep -q "^# suggested: --band" "$d/learned.txt" && grep -q "ROC area" "$d/learned.txt" && ok "learned file reports its held-out table" || bad "learned file header"
"$T" screen --points "$d/learned.txt" --generate 2000 --device omp > /dev/null 2>&1 && ok "screen reads the learned file" || bad "screen --points learned"
sug=$(sed -n 's/^# suggested: --band \([-0-9.]*\):$/\1/p' "$d/learned.txt")
"$T" compose random --seed 8 --boards 500 --nodes 2000 --device omp --quiet --points "$d/learned.txt" --out "$d/l" > "$d/l.sum" 2>&1 &&
    grep -q -- "--band $sug.000: " "$d/l.sum" && ok "compose random runs with the learned file and its suggested band ($sug)" ||
    { bad "compose random --points learned"; cat "$d/l.sum"; }
# the default: the shipped learned file and the band it suggests
sug=$(sed -n 's/^# suggested: --band \([-0-9.]*\):$/\1/p' data/points_learned.txt)
"$T" compose random --seed 8 --boards 300 --nodes 2000 --device omp --quiet --out "$d/m" > "$d/m.sum" 2>&1 &&
    grep -q -- "--band $sug.000: .*--points builtin:learned" "$d/m.sum" && ok "the default filter is builtin:learned with its band ($sug)" ||
    { bad "default filter"; cat "$d/m.sum"; }
printf '# tsumegen compose random verdicts: seed 1\n5\t100.0\tperfectish\t5\t10\t1.0\n' > "$d/badv.tsv"
"$T" points learn "$d/badv.tsv" > /dev/null 2>"$d/e3"
[ $? = 2 ] && grep -q "badv.tsv:2: unknown class" "$d/e3" && ok "a damaged verdict log is refused with its line" || bad "damaged verdict log"
# each field read whole: a time of nan, a count below zero, a field cut off or one too
# many (once read as samples with garbage in them)
for c in "5\t100.0\tperfect\t5\t10\tnan:ms field" "5\t100.0\tperfect\t-5\t10\t1.0:length field" \
         "5\t100.0\tperfect\t5\t10:six fields" "5\t100.0\tperfect\t5\t10\t1.0\tx:six fields" \
         "5\t100.0\tperfect\t\t5\t10:length field" "5x\t100.0\tperfect\t5\t10\t1.0:index field"; do
    printf "# tsumegen compose random verdicts: seed 1\n${c%%:*}\n" > "$d/badv.tsv"
    "$T" points learn "$d/badv.tsv" > /dev/null 2>"$d/e3"
    [ $? = 2 ] && grep -q "badv.tsv:2: .*${c##*:}" "$d/e3" && ok "verdict line refused: ${c##*:}" || { bad "verdict line ${c%%:*}"; cat "$d/e3"; }
done
rm -rf "$d"
echo "compose-random: $pass passed, $fail failed"
[ "$fail" = 0 ]
