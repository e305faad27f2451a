#!/usr/bin/env bash
# Reproduces seeds/000 Table 2 with tsumegen: three initial problems (1, 3 and 5
# moves, our own), methods Random / GA / GA with archive, population 200 x 50
# generations, 3 seeds each; then one population 500 x 50 run from problem 1.
# Prints a markdown table (average final fitness, maximum fitness, longest perfect
# problem, wall time: summary.json's "seconds") to paste into benchmarks/RESULTS.md.
#   POP=200 GENS=50 SEEDS="1 2 3" NODES=200000 bash benchmarks/ga_table2.sh [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-out/table2}
POP=${POP:-200}; GENS=${GENS:-50}; SEEDS=${SEEDS:-"1 2 3"}; NODES=${NODES:-200000}
BIGPOP=${BIGPOP:-500}
mkdir -p "$out"
declare -A INIT=(
  [1]="$(sed -n 's/^p1 //p' benchmarks/ga_initial.txt)"
  [3]="$(sed -n 's/^p3 //p' benchmarks/ga_initial.txt)"
  [5]="$(sed -n 's/^p5 //p' benchmarks/ga_initial.txt)"
)
# compose writes DIR/summary.json itself (also after Ctrl-C, with "interrupted":
# true); a run counts as done when that file says it ran every generation
done_run() {
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d['generations'] == int(sys.argv[2]) and not d['interrupted'] else 1)" \
        "$1/summary.json" "$GENS" 2>/dev/null
}
run() {  # run DIR METHOD INIT POP SEED
    local dir=$1
    if ! done_run "$dir"; then
        rm -rf "$dir"
        bin/tsumegen compose ga --quiet --method "$2" --init "$3" --pop "$4" --gens "$GENS" --seed "$5" \
            --nodes "$NODES" --out "$dir" > /dev/null
    fi
}
for p in 1 3 5; do
    for m in random ga ga-archive; do
        for s in $SEEDS; do run "$out/p$p-$m-s$s" "$m" "${INIT[$p]}" "$POP" "$s"; done
    done
done
run "$out/p1-ga-archive-pop$BIGPOP" ga-archive "${INIT[1]}" "$BIGPOP" 1
python3 - "$out" "$SEEDS" "$BIGPOP" <<'PY'
import json, sys, os
out, seeds, bigpop = sys.argv[1], sys.argv[2].split(), sys.argv[3]
print("| initial | method | mean fitness | max fitness | longest perfect | wall s (mean) |")
print("|---|---|---|---|---|---|")
for p in (1, 3, 5):
    for m in ("random", "ga", "ga-archive"):
        rows = [json.load(open(f"{out}/p{p}-{m}-s{s}/summary.json")) for s in seeds]
        n = len(rows)
        print(f"| {p}-move | {m} | {sum(r['mean_fitness'] for r in rows)/n:.2f} | {sum(r['best_fitness'] for r in rows)/n:.2f} | "
              f"{sum(r['longest'] for r in rows)/n:.2f} | {sum(r['seconds'] for r in rows)/n:.0f} |")
b = json.load(open(f"{out}/p1-ga-archive-pop{bigpop}/summary.json"))
print(f"\npopulation {bigpop} x 50, 1-move initial, GA with archive: longest perfect problem {b['longest']} plies, "
      f"{b['problems']} problems, {b['seconds']:.0f} s")
PY
