#!/usr/bin/env bash
# `tsumegen compose extend` end to end: from a perfect 13-ply problem, two rounds
# of backward extension write longer problems, each perfect when re-verified from
# scratch by `solve --verify` with its main line; --resume continues the same
# run; bad input exits 2 with a message naming it.  Eight candidates a round
# (--extend-tries): all of the 13's 391 made the test 10x slower under the sanitizers.
. "$(dirname "$0")/harness.sh"
d=$(mktemp -d)
# the 13-ply problem twice (a JSON line and an SFEN line with moves: one pool entry),
# and the 1-ply 頭金 (perfect too)
cat > "$d/in.txt" <<'IN'
# problems to extend
{"sfen":"4k4/5+s3/4P4/3+P1+B3/9/9/9/9/9 b G2rb3g3s4n4l16p 1","length":13}
4k4/5+s3/4P4/3+P1+B3/9/9/9/9/9 b G2rb3g3s4n4l16p 1 moves
4k4/9/4P4/9/9/9/9/9/9 b G 1
IN
args="--from $d/in.txt --rounds 2 --extend-tries 8 --threads 2 --quiet"
"$BIN/tsumegen" compose extend $args --out "$d/a" > "$d/a.sum" 2>"$d/a.err" && ok "compose extend runs" || { bad "compose extend runs"; cat "$d/a.err"; }
python3 - "$d/a/problems.jsonl" "$d/a/summary.json" "$d/a/generations.jsonl" <<'PY' && ok "two rounds: 13 -> 15 -> 17 plies, all from extension" || bad "extension rounds"
import json, sys
p = [json.loads(l) for l in open(sys.argv[1])]
s = json.load(open(sys.argv[2]))
g = [json.loads(l) for l in open(sys.argv[3])]
good = (p and max(r["length"] for r in p) >= 17 and all(r["origin"] == "extend" for r in p)
        and s["method"] == "extend" and s["generations"] == 2 and s["longest"] == max(r["length"] for r in p)
        and len(g) == 2 and g[0]["extended"] > 0 and g[0]["pool"] >= 2)
if not good: print(s, g)
sys.exit(0 if good else 1)
PY
python3 - "$d/a/problems.jsonl" "$BIN/tsumegen" <<'PY' && ok "every extended problem re-verifies perfect with its main line" || bad "re-verification"
import json, subprocess, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
out = subprocess.run([sys.argv[2], "solve", "--verify", "--yozume-confirm"], input=open(sys.argv[1]).read(),
                     capture_output=True, text=True).stdout.splitlines()
bad = 0
for r, line in zip(rows, out):
    v = json.loads(line)
    if not (v["result"] == "mate" and v["perfect"] and v["verified"] is True and v["length"] == r["length"] and v["pv"] == r["pv"]):
        print("MISMATCH", r["sfen"], line); bad += 1
sys.exit(1 if bad or len(out) != len(rows) else 0)
PY
# the first round with --no-kif, the second resumed without it
"$BIN/tsumegen" compose extend ${args/--rounds 2/--rounds 1} --no-kif --out "$d/c" >/dev/null 2>&1
n1=$(wc -l < "$d/c/problems.jsonl"); k1=$(ls "$d/c" | grep -c '\.kif$')
[ "$n1" -gt 0 ] && [ "$k1" = 0 ] && ok "--no-kif: $n1 problems, no KIF file" || bad "--no-kif ($n1 problems, $k1 KIF files)"
cp -r "$d/c" "$d/c2"
cp -r "$d/c" "$d/c3"
"$BIN/tsumegen" compose extend $args --out "$d/c" --resume >/dev/null 2>&1
cmp -s "$d/a/problems.jsonl" "$d/c/problems.jsonl" && ok "--resume continues the same run" || bad "--resume differs from a straight run"
n2=$(wc -l < "$d/c/problems.jsonl"); k2=$(ls "$d/c" | grep -c '\.kif$')
[ "$n2" -gt "$n1" ] && [ "$k2" = $((n2 - n1)) ] && ok "the resume without --no-kif writes the KIF files of its own problems" || bad "KIF after resume ($n1, $n2, $k2)"
# --time: the first round only (exit 0), then resumed: the straight run
"$BIN/tsumegen" compose extend $args --time 0.001 --out "$d/t" >/dev/null 2>"$d/e"; rc=$?
[ $rc = 0 ] && grep -qx "generation 1" "$d/t/checkpoint.txt" && grep -qF "after round 1 of 2; continue with: tsumegen compose extend --out $d/t --resume" "$d/e" \
    && ok "--time: exit 0 after one round, names the resume" || { bad "--time (rc $rc)"; cat "$d/e"; }
"$BIN/tsumegen" compose extend --out "$d/t" --resume --threads 2 --quiet >/dev/null 2>&1
cmp -s "$d/a/problems.jsonl" "$d/t/problems.jsonl" && ok "--time, then resumed: the straight run's problems" || bad "--time, then resumed, differs"
# the pool is in the checkpoint: a resume needs no --from
"$BIN/tsumegen" compose extend --rounds 2 --threads 2 --quiet --out "$d/c2" --resume >/dev/null 2>"$d/e"
cmp -s "$d/a/problems.jsonl" "$d/c2/problems.jsonl" && ok "--resume without --from continues the same run" \
    || { bad "--resume without --from"; cat "$d/e"; }
# a checkpoint of version 1 (no checksum line), written before the pool kept each
# entry's parent ("pool LEN EXT SFEN")
sed -i -E 's/^pool_entry ([0-9]+) ([0-9]+) -?[0-9]+ /pool \1 \2 /; /^sum /d; s/^tsumegen-ga-checkpoint 2$/tsumegen-ga-checkpoint 1/' "$d/c3/checkpoint.txt"
old=$(grep -c '^pool ' "$d/c3/checkpoint.txt")
"$BIN/tsumegen" compose extend --rounds 2 --threads 2 --quiet --out "$d/c3" --resume >/dev/null 2>"$d/e" \
    && [ "$old" -gt 0 ] && [ "$(wc -l < "$d/c3/problems.jsonl")" -gt "$n1" ] \
    && ok "a checkpoint with the old pool lines ($old) resumes" || { bad "old pool lines ($old)"; cat "$d/e"; }
# Ctrl-C anywhere (during the pool's verification, a round's searches, its
# reductions): exit 130 naming the resume, and the resume ends as the straight run
# did.  One Ctrl-C lets the searches under way finish; a second cuts them short
# (their work is thrown away and done again).  The times land in different steps
# from run to run; the property holds wherever they land (a run that ended first
# exits 0 and has nothing left to do).
for when in 0.05:1 0.15:1 0.25:1 0.35:1 0.1:2 0.25:2; do
    t=${when%:*}; k=${when#*:}; o="$d/int_${t}_$k"
    "$BIN/tsumegen" compose extend $args --out "$o" >/dev/null 2>"$d/e" & pid=$!
    sleep "$t"; kill -INT $pid 2>/dev/null; [ "$k" = 2 ] && { sleep 0.05; kill -INT $pid 2>/dev/null; }
    wait $pid; rc=$?
    if [ $rc = 130 ] && grep -q "interrupted while verifying the problems of" "$d/e"; then
        # (stopped before the first round: nothing written, nothing to resume; the run starts again)
        rm -rf "$o"; "$BIN/tsumegen" compose extend $args --out "$o" >/dev/null 2>"$d/e"
    elif [ $rc = 130 ]; then
        grep -qF "continue with: tsumegen compose extend --out $o --resume" "$d/e" && [ -s "$o/checkpoint.txt" ] \
            || { bad "Ctrl-C x$k at $t s: no resume command or no checkpoint"; cat "$d/e"; }
        "$BIN/tsumegen" compose extend --out "$o" --resume --threads 2 --quiet >/dev/null 2>"$d/e" || { bad "resume after Ctrl-C x$k at $t s"; cat "$d/e"; }
    elif [ $rc != 0 ]; then bad "Ctrl-C x$k at $t s: exit $rc"; cat "$d/e"; fi
    cmp -s "$d/a/problems.jsonl" "$o/problems.jsonl" && cmp -s "$d/a/undecided.jsonl" "$o/undecided.jsonl" \
        && ok "Ctrl-C x$k at $t s (exit $rc), resumed: the straight run's problems" || bad "Ctrl-C x$k at $t s (exit $rc): resumed run differs"
done
expect_fail() {  # expect_fail NAME PATTERN ARGS...: exit 2 and PATTERN on stderr
    local name=$1 pat=$2; shift 2
    "$BIN/tsumegen" compose extend "$@" >/dev/null 2>"$d/e"; local rc=$?
    [ $rc = 2 ] && grep -qF -- "$pat" "$d/e" && ok "$name: exit 2" || { bad "$name (rc $rc)"; cat "$d/e"; }
}
expect_fail "no --from" "needs --from" --out "$d/x1"
expect_fail "missing file" "$d/none.txt" --from "$d/none.txt" --out "$d/x2"
printf '4k4/9/4P4/9/9/9/9/9/9 b G 1\nnot an sfen\n' > "$d/bad.txt"
expect_fail "bad SFEN line" "$d/bad.txt:2" --from "$d/bad.txt" --out "$d/x3"
printf '{"length":3}\n' > "$d/nosfen.txt"
expect_fail "JSON line without sfen" "$d/nosfen.txt:1" --from "$d/nosfen.txt" --out "$d/x4"
printf '4k4/9/4P4/9/9/9/9/9/9 b 2G 1\n' > "$d/flawed.txt"   # mate with a gold left over
expect_fail "no perfect problem" "no perfect problem" --from "$d/flawed.txt" --out "$d/x5"
expect_fail "a GA option" "--pop is an option of compose ga" --from "$d/in.txt" --pop 10 --out "$d/x6"
rm -rf "$d"
echo "extend: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
