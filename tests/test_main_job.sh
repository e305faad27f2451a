#!/usr/bin/env bash
# The main job's answers step (tools/main_job.sh answers DIR): every composed problem
# solved again with its 変化 and 紛れ (余詰 of any length tested), one answer line and one KIF per problem, in
# problems.jsonl's order (file NNNN is problem id NNNN); a stopped step finishes
# where it stopped; a missing directory is refused.  The GA run before it is left
# out (minutes); the problems come from a `compose random` slice known to hold some.
. "$(dirname "$0")/harness.sh"
T="$BIN/tsumegen"
d=$(mktemp -d)
"$T" compose random --seed 7 --start 0 --boards 20000 --nodes 5000 --device omp --quiet --threads 2 \
    --out "$d/a" > /dev/null 2>"$d/a.err" || { bad "compose random for the answers' input"; cat "$d/a.err"; }
n=$(grep -c . "$d/a/problems.jsonl" 2>/dev/null || echo 0)
[ "$n" -ge 2 ] && ok "$n problems to answer" || bad "too few problems to answer ($n)"
JOB="env TSUMEGEN_BIN=$BIN bash tools/main_job.sh"  # (the binaries under test: bin or bin/san)
$JOB answers "$d/a" 2>"$d/ans.err" && grep -q "answers with 変化 and 紛れ" "$d/ans.err" &&
    ok "answers step runs" || { bad "answers step"; cat "$d/ans.err"; }
check() {  # check DIR: every answer agrees with its problem, and its KIF is there
python3 - "$1" <<'PY'
import json, os, sys
d = sys.argv[1]
probs = [json.loads(l) for l in open(d + "/problems.jsonl") if l.strip()]
ans = [json.loads(l) for l in open(d + "/answers.jsonl") if l.strip()]
bad = len(ans) != len(probs)
if bad: print("MISMATCH", len(ans), "answers for", len(probs), "problems")
refs = 0
for i, (p, a) in enumerate(zip(probs, ans), 1):
    kif = "%s/answers/%04d.kif" % (d, i)
    ok = (p["id"] == i and a["sfen"] == p["sfen"] and a["result"] == "mate" and a["perfect"]
          and a["length"] == p["length"] and a["pv"] == p["pv"] and "variations" in a and "refutations" in a
          and "yozume_bound" not in a and os.path.exists(kif))  # (余詰 of any length, as compose tested)
    if ok:
        text = open(kif, encoding="utf-8").read()
        # the header names the 紛れ, and each refutation is a branch of the KIF
        ok = ("*%d手詰 完全作" % p["length"]) in text and (not a["refutations"] or "*紛れ:" in text)
        ok = ok and text.count("変化：") >= len(a["refutations"])
    refs += len(a.get("refutations", []))
    if not ok:
        print("MISMATCH problem", i, p, json.dumps(a)[:300]); bad = True
if refs == 0:
    print("MISMATCH no refutation listed at all"); bad = True
sys.exit(1 if bad else 0)
PY
}
check "$d/a" && ok "each answer: mate, perfect, the problem's line, 変化 and 紛れ listed, its KIF" || bad "answers"
# stopped after the first answer: the step keeps it and solves the rest
last=$(printf "%s/a/answers/%04d.kif" "$d" "$n")
head -1 "$d/a/answers.jsonl" > "$d/one" && mv "$d/one" "$d/a/answers.jsonl" && rm -f "$last"
$JOB answers "$d/a" 2>"$d/res.err" && grep -q "1 of $n answers kept" "$d/res.err" && [ -f "$last" ] && check "$d/a" &&
    ok "a stopped answers step finishes the rest" || { bad "answers resume"; cat "$d/res.err"; }
$JOB answers "$d/none" 2>"$d/none.err"; rc=$?
[ "$rc" = 2 ] && grep -q "usage: bash tools/main_job.sh answers DIR" "$d/none.err" &&
    ok "a directory without problems.jsonl is refused (exit 2)" || { bad "missing directory: exit $rc"; cat "$d/none.err"; }
rm -rf "$d"
echo "main_job: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
