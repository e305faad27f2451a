#!/usr/bin/env bash
# `compose reverse` (seeds/004) end to end on the first games of a seed: every
# logged candidate is checked on cshogi (not in check, mated in one by at least
# one move, class final-alt exactly when cshogi finds two or more distinct mating
# moves, perfect when it finds one and the attacker's hand is empty after it);
# every problem written has cshogi's single mating move as its main line and
# re-verifies perfect with `solve --verify`; the summary agrees with the log; one
# thread gives the files of two; a stopped run resumes to the same files.  Options
# of compose random and a reverse log given to `points learn` are refused.
. "$(dirname "$0")/harness.sh"
T="$BIN/tsumegen"
d=$(mktemp -d)
# (under the sanitizers each problem costs about 0.1 s: fewer games, no second thread count)
case "$BIN" in *san*) G=24; FLOOR=5 ;; *) G=80; FLOOR=20 ;; esac
export G FLOOR
args="--seed 11 --games $G --quiet"
"$T" compose reverse $args --threads 2 --out "$d/a" > "$d/a.sum" 2>"$d/a.err" && ok "compose reverse runs" || { bad "compose reverse runs"; cat "$d/a.err"; }
python3 - "$d/a" "$d/a.sum" <<'PY' && ok "summary and log agree; every candidate's class is cshogi's" || bad "summary, log or cshogi"
import json, os, sys
import cshogi
d = sys.argv[1]
s = json.loads(open(sys.argv[2]).read())
assert s == json.load(open(d + "/summary.json")), "printed summary differs from summary.json"
rows = [l.rstrip("\n").split("\t") for l in open(d + "/verdicts.tsv") if not l.startswith("#")]
classes = ["nomate", "unknown", "short", "leftover", "cooked", "undecided", "final-alt", "perfect"]
G, FLOOR = int(os.environ["G"]), int(os.environ["FLOOR"])
assert s["method"] == "reverse" and s["games"] == G and s["next_index"] == G
assert s["verified"] == s["candidates"] == len(rows) == sum(s[c] for c in classes), (s, len(rows))
for c in classes:
    assert s[c] == sum(1 for r in rows if r[2] == c), c
assert s["game_candidates"] == sum(1 for r in rows if r[1] == "1")
assert s["game_perfect"] == sum(1 for r in rows if r[1] == "1" and r[2] == "perfect")
games = [int(r[0]) for r in rows]
assert games == sorted(games) and games[-1] < G and len(set(games)) <= s["mates"] <= G

def mates_in_one(board):
    """Distinct (from, to) of the moves that mate at once; promotion twins count once."""
    found = {}
    for m in list(board.legal_moves):
        board.push(m)
        mated = board.is_check() and not any(True for _ in board.legal_moves)
        hand_left = sum(board.pieces_in_hand[cshogi.BLACK])
        board.pop()
        if mated:
            found.setdefault(cshogi.move_to_usi(m).rstrip("+"), []).append(hand_left)
    return found

count = {"perfect": 0, "final-alt": 0}
for r in rows:
    b = cshogi.Board(r[6])
    assert b.turn == cshogi.BLACK and not b.is_check(), r
    mates = mates_in_one(b)
    assert len(mates) >= 1, ("no mate in one", r)
    assert r[3] == "1", r
    if r[2] == "perfect":
        assert len(mates) == 1 and all(h == 0 for hs in mates.values() for h in hs), ("cshogi: not a unique clean mate", r, mates)
    elif r[2] == "final-alt":
        assert len(mates) >= 2, ("cshogi: a single mate", r, mates)
    else:
        raise AssertionError("class %s for a one-move candidate: %s" % (r[2], r))
    count[r[2]] += 1
assert count["perfect"] >= FLOOR and count["final-alt"] >= FLOOR, count
PY
n=$(wc -l < "$d/a/problems.jsonl" 2>/dev/null || echo 0)
[ "$n" -gt 0 ] && [ "$(ls "$d"/a/*.kif | wc -l)" = "$n" ] && ok "problems written ($n), one KIF each" || bad "problems or KIF files missing"
python3 - "$d/a/problems.jsonl" "$T" <<'PY' && ok "every problem: cshogi's one mating move, re-verified perfect" || bad "problems"
import json, os, subprocess, sys
import cshogi
G = int(os.environ["G"])
rows = [json.loads(l) for l in open(sys.argv[1])]
out = subprocess.run([sys.argv[2], "solve", "--verify"], input=open(sys.argv[1]).read(), capture_output=True, text=True).stdout.splitlines()
bad = len(out) != len(rows)
for r, line in zip(rows, out):
    v = json.loads(line)
    b = cshogi.Board(r["sfen"])
    mates = []
    for m in list(b.legal_moves):
        b.push(m)
        if b.is_check() and not any(True for _ in b.legal_moves):
            mates.append(cshogi.move_to_usi(m))
        b.pop()
    if not (v["result"] == "mate" and v["perfect"] and v["verified"] is True and v["length"] == r["length"] == 1
            and v["pv"] == r["pv"] and r["origin"] == "reverse" and r["verified"] is True and 0 <= r["index"] < G
            and {m.rstrip("+") for m in mates} == {r["pv"][0].rstrip("+")}):
        print("MISMATCH", r, line, mates); bad = True
keys = [r["sfen"] for r in rows]
bad = bad or len(set(keys)) != len(keys)
sys.exit(1 if bad else 0)
PY
# one thread: the same files (timings aside)
case "$BIN" in *san*) echo "skip the one-thread run (sanitizer build)" ;; *)
"$T" compose reverse $args --threads 1 --out "$d/b" > /dev/null 2>&1
cmp -s <(cut -f1-5,7 "$d/a/verdicts.tsv") <(cut -f1-5,7 "$d/b/verdicts.tsv") && cmp -s "$d/a/problems.jsonl" "$d/b/problems.jsonl" &&
    ok "one thread writes the files of two" || bad "thread count changes the files" ;; esac
# --no-kif: the same problems.jsonl, no KIF file
case "$BIN" in *san*) echo "skip --no-kif (sanitizer build)" ;; *)
"$T" compose reverse $args --threads 2 --no-kif --out "$d/k" > /dev/null 2>&1
cmp -s "$d/a/problems.jsonl" "$d/k/problems.jsonl" && [ "$(ls "$d/k" | grep -c '\.kif$')" = 0 ] &&
    ok "--no-kif: the same problems, no KIF file" || bad "--no-kif" ;; esac
# a KIF file that cannot be written (a directory in its place): said once, the run goes on
mkdir -p "$d/w/001.kif"
"$T" compose reverse --seed 3 --games 3 --quiet --out "$d/w" > /dev/null 2>"$d/w.err"; rc=$?
nw=$(wc -l < "$d/w/problems.jsonl" 2>/dev/null || echo 0)
[ $rc = 0 ] && [ "$nw" -ge 2 ] && [ "$(grep -c "cannot write $d/w/001.kif" "$d/w.err")" = 1 ] && [ -f "$d/w/002.kif" ] &&
    ok "an unwritable KIF file is said once; the run goes on ($nw problems)" || { bad "unwritable KIF (rc $rc, $nw problems)"; cat "$d/w.err"; }
# stopped after its first batch of games (--time), then resumed: the same files
"$T" compose reverse $args --threads 2 --time 0.001 --out "$d/c" > /dev/null 2>&1
next=$(sed -n 's/^next //p' "$d/c/checkpoint.txt" 2>/dev/null)
[ -n "$next" ] && [ "$next" -lt "$G" ] && ok "--time stops early with a checkpoint (next $next)" || bad "no early stop ($next)"
"$T" compose reverse $args --threads 2 --out "$d/c" --resume > "$d/c.sum" 2>"$d/c.err" || { bad "resume"; cat "$d/c.err"; }
cmp -s <(cut -f1-5,7 "$d/a/verdicts.tsv") <(cut -f1-5,7 "$d/c/verdicts.tsv") && cmp -s "$d/a/problems.jsonl" "$d/c/problems.jsonl" &&
    [ "$(sed 's/"seconds.*//' "$d/a.sum")" = "$(sed 's/"seconds.*//' "$d/c.sum")" ] &&
    ok "the resumed run equals the straight one" || bad "resumed run differs"
# Ctrl-C in the middle: exit 130, the checkpoint at the last whole batch, and the
# run resumed to 64 games further gives the files of a straight run of as many
# (--games is not among the options a resume must repeat); release build only
case "$BIN" in *san*) echo "skip Ctrl-C (sanitizer build)" ;; *)
"$T" compose reverse --seed 13 --games 1000000 --quiet --out "$d/i" > /dev/null 2>"$d/i.err" &
pid=$!
sleep 0.5
kill -INT $pid
wait $pid
rc=$?
next=$(sed -n 's/^next //p' "$d/i/checkpoint.txt" 2>/dev/null)
[ $rc = 130 ] && [ -n "$next" ] && grep -q -- "--resume" "$d/i.err" &&
    ok "Ctrl-C: exit 130 at game $next, told to resume" || bad "Ctrl-C (exit $rc, next $next)"
"$T" compose reverse --seed 13 --games $((next + 64)) --quiet --out "$d/i" --resume > /dev/null 2>&1
"$T" compose reverse --seed 13 --games $((next + 64)) --quiet --out "$d/s" > /dev/null 2>&1
cmp -s <(cut -f1-5,7 "$d/s/verdicts.tsv") <(cut -f1-5,7 "$d/i/verdicts.tsv") && cmp -s "$d/s/problems.jsonl" "$d/i/problems.jsonl" &&
    ok "after Ctrl-C the resumed run equals the straight one" || bad "Ctrl-C and resume differ" ;; esac
"$T" compose reverse --seed 12 --games $G --quiet --out "$d/c" --resume > /dev/null 2>"$d/e1"
[ $? = 2 ] && grep -q "other options" "$d/e1" && ok "resume with other options refused" || bad "resume with other options"
"$T" compose random --seed 11 --boards 10 --quiet --out "$d/c" --resume > /dev/null 2>"$d/e1b"
[ $? = 2 ] && grep -q "damaged\|checkpoint" "$d/e1b" && ok "compose random refuses to resume a reverse run" || bad "random resumed a reverse run"
for o in "--band 1:2" "--points builtin:hand" "--boards 5" "--device omp" "--min-length 3"; do
    "$T" compose reverse $o --games 5 --out "$d/x" > /dev/null 2>"$d/e2"
    [ $? = 2 ] && grep -q "compose random, not of compose reverse" "$d/e2" && ok "compose reverse refuses ${o%% *}" || bad "compose reverse ${o%% *}"
done
"$T" points learn "$d/a/verdicts.tsv" > /dev/null 2>"$d/e3"
[ $? = 2 ] && grep -q "compose reverse log" "$d/e3" && ok "points learn refuses a reverse log" || bad "points learn on a reverse log"
rm -rf "$d"
echo "compose-reverse: $pass passed, $fail failed"
[ "$fail" = 0 ]
