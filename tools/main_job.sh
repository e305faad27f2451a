#!/usr/bin/env bash
# The main job with sensible defaults: compose perfect problems with the GA from
# the built-in 1-move problem, then show what was found.  Results land in
# out/compose-<timestamp>/ (problems.jsonl, NNN.kif, summary.json, and the longest
# problem solved again with its 変化 in longest/0001.kif; every problem solved again
# with its 変化 and 紛れ in answers.jsonl and answers/NNNN.kif, NNNN its id);
# Ctrl-C keeps them, and
#   bin/tsumegen compose ga --out DIR --resume
# continues an interrupted run with its own options (from DIR/checkpoint.txt).
#   bash tools/main_job.sh answers DIR
# makes (or finishes) DIR's answers alone, e.g. after such a resume.
set -euo pipefail
cd "$(dirname "$0")/.."
T=${TSUMEGEN_BIN:-bin}/tsumegen  # (the tests point it at the sanitizer build)

# The answers: each problem's 変化 (the other defences' mates) for people and the
# 紛れ (a refuting reply to each wrong check) for puzzle apps, solved again from
# scratch (about a second for 100 problems of 13 plies), 余詰 of any length tested
# as the composer did (--yozume-confirm).  answers/NNNN.kif answers
# line NNNN of problems.jsonl, which is problem NNNN (its "id").  solve --out
# resumes: answers already in answers.jsonl are not searched again.
answers() {
    local dir=$1 arc=0
    "$T" solve --variations --refutations --yozume-confirm --kif "$dir/answers" \
        --out "$dir/answers.jsonl" <"$dir/problems.jsonl" >/dev/null || arc=$?
    if [ "$arc" = 0 ]; then
        echo "answers with 変化 and 紛れ: $dir/answers.jsonl, $dir/answers/NNNN.kif" >&2
    else
        echo "the answers were not finished (solve exit $arc); to finish them:" >&2
        echo "  bash tools/main_job.sh answers $dir" >&2
    fi
    return "$arc"
}
if [ "${1:-}" = answers ]; then
    [ -n "${2:-}" ] && [ -f "$2/problems.jsonl" ] || { echo "usage: bash tools/main_job.sh answers DIR (DIR/problems.jsonl from compose)" >&2; exit 2; }
    answers "$2"
    exit
fi
out=${TSUMEGEN_OUT:-out/compose-$(date -u +%Y%m%d-%H%M%S)}
mkdir -p out
pop=${POP:-100}; gens=${GENS:-20}; seed=${SEED:-1}
echo "composing: GA with archive, population $pop, $gens generations, seed $seed -> $out" >&2
rc=0
"$T" compose ga --pop "$pop" --gens "$gens" --seed "$seed" --out "$out" || rc=$?
[ "$rc" = 0 ] || [ "$rc" = 130 ] || exit "$rc"  # (130: Ctrl-C; what was found is shown below)
n=$(wc -l < "$out/problems.jsonl")
if [ "$n" -gt 0 ] && [ "$rc" = 130 ]; then  # (stopped: no new search; say how to make them)
    echo "answers not made (stopped); to make them: bash tools/main_job.sh answers $out" >&2
elif [ "$n" -gt 0 ]; then
    answers "$out" || rc=$?  # (said on stderr; the problems are kept either way)
fi
echo "$n perfect problems in $out/problems.jsonl (KIF files beside it); the longest:" >&2
longest=$(python3 - "$out/problems.jsonl" <<'PY' 2>/dev/null || true
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
if rows:
    best = max(rows, key=lambda r: r["length"])
    print(best["id"], best["length"], best["sfen"], " ".join(best["pv"]))
PY
)
if [ -n "$longest" ]; then
    set -- $longest
    echo "  #$1: $2 plies  $3 $4 $5 $6" >&2
    kif=$(printf "%s/%03d.kif" "$out" "$1")
    # shown with its 変化 (each other defence's own mate), checked again by solve
    if "$T" solve --variations --yozume-confirm --kif "$out/longest" "$3 $4 $5 $6" >"$out/longest.json" 2>/dev/null &&
        [ -f "$out/longest/0001.kif" ]; then
        kif=$out/longest/0001.kif
    fi
    [ -f "$kif" ] && cat "$kif"
fi
exit "$rc"
