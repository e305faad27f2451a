#!/usr/bin/env bash
# Reproduces seeds/000 Table 2 with tsumegen: three initial problems (1, 3 and 5
# moves, our own: benchmarks/ga_initial.txt), methods Random / GA / GA with archive,
# population POP x GENS generations, one run per seed in SEEDS; then one population
# BIGPOP x GENS run (GA with archive, seed 1) from problem 1.  Prints markdown
# tables to paste into benchmarks/RESULTS.md: per initial problem and method the
# averages over the seeds (final mean fitness, final max fitness, longest perfect
# problem, wall time = summary.json's "seconds"), then every run on its own (wall
# time, verifier calls, how many hit the node limit), then the longest problems.
#   POP=200 GENS=50 SEEDS="1 2 3" NODES=200000 BIGPOP=500 bash benchmarks/ga_table2.sh [OUTDIR]
# (the paper's scale; 10-35 s per generation of 200 on 2 cores with the verifier of
# the fourth session, 2026-11-23, so the full set takes 6-8 hours there; RESULTS.md
# has a reduced run).  TSUMEGEN=path picks the binary (default bin/tsumegen),
# DEVICE the screening device (default auto, as `compose --device`).  The
# Table 2 runs are the paper's methods (REPAIR=0: no cook removal; REPAIR=8 runs
# them with it; EXTEND=0: no backward extension, EXTEND=3 is compose's default);
# the BIGPOP run is tsumegen's composer as it ships (BIGREPAIR=8, BIGEXTEND=3,
# cook removal on).
# Finished runs (summary.json with every generation, same pop/gens/nodes) are kept,
# so a rerun continues where an interrupted one stopped.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-out/table2}
POP=${POP:-200}; GENS=${GENS:-50}; SEEDS=${SEEDS:-"1 2 3"}; NODES=${NODES:-200000}
BIGPOP=${BIGPOP:-500}; TSUMEGEN=${TSUMEGEN:-bin/tsumegen}; DEVICE=${DEVICE:-auto}
REPAIR=${REPAIR:-0}; BIGREPAIR=${BIGREPAIR:-8}; EXTEND=${EXTEND:-0}; BIGEXTEND=${BIGEXTEND:-3}
mkdir -p "$out"
declare -A INIT
for p in 1 3 5; do
    INIT[$p]=$(sed -n "s/^p$p //p" benchmarks/ga_initial.txt)
    [ -n "${INIT[$p]}" ] || { echo "ga_table2.sh: no 'p$p SFEN' line in benchmarks/ga_initial.txt" >&2; exit 2; }
done
# compose writes DIR/summary.json itself (also after Ctrl-C, with "interrupted":
# true); a run counts as done when that file says it ran every generation with
# the same population and node limit
done_run() {  # done_run DIR POP REPAIR EXTEND
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d['generations'] == d['gens'] == int(sys.argv[2]) and d['pop'] == int(sys.argv[3]) and d['nodes'] == int(sys.argv[4]) and d.get('repair', 0) in (int(sys.argv[5]), 0 if d['method'] == 'random' else -1) and d.get('extend', 3) == int(sys.argv[6]) and not d['interrupted'] else 1)" \
        "$1/summary.json" "$GENS" "$2" "$NODES" "$3" "$4" 2>/dev/null
}
run() {  # run DIR METHOD INIT POP SEED REPAIR EXTEND
    local dir=$1
    if ! done_run "$dir" "$4" "$6" "$7"; then
        rm -rf "$dir"
        echo "$(date -u +%H:%M:%S) $dir" >&2
        "$TSUMEGEN" compose ga --quiet --method "$2" --init "$3" --pop "$4" --gens "$GENS" --seed "$5" \
            --nodes "$NODES" --repair "$6" --extend "$7" --device "$DEVICE" --out "$dir" > /dev/null
    fi
}
for p in 1 3 5; do
    for m in random ga ga-archive; do
        for s in $SEEDS; do run "$out/p$p-$m-s$s" "$m" "${INIT[$p]}" "$POP" "$s" "$REPAIR" "$EXTEND"; done
    done
done
run "$out/p1-ga-archive-pop$BIGPOP" ga-archive "${INIT[1]}" "$BIGPOP" 1 "$BIGREPAIR" "$BIGEXTEND"
python3 - "$out" "$SEEDS" "$BIGPOP" "$POP" "$GENS" "$NODES" <<'PY'
import json, sys
out, seeds, bigpop, pop, gens, nodes = sys.argv[1], sys.argv[2].split(), sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6]
def load(d):
    s = json.load(open(f"{out}/{d}/summary.json"))
    g = [json.loads(l) for l in open(f"{out}/{d}/generations.jsonl") if l.strip()]
    s["unknown"] = sum(x.get("unknown", 0) for x in g) if g and "unknown" in g[0] else None
    s["probs"] = [json.loads(l) for l in open(f"{out}/{d}/problems.jsonl") if l.strip()]
    return s
print(f"population {pop} x {gens} generations, node limit {nodes}, seeds {' '.join(seeds)}: "
      f"means over the {len(seeds)} seeds\n")
print("| initial | method | mean fitness | max fitness | longest perfect | wall s (mean) |")
print("|---|---|---|---|---|---|")
runs = []
for p in (1, 3, 5):
    for m in ("random", "ga", "ga-archive"):
        rows = [load(f"p{p}-{m}-s{s}") for s in seeds]
        runs += [(f"p{p}-{m}-s{s}", r) for s, r in zip(seeds, rows)]
        n = len(rows)
        print(f"| {p}-move | {m} | {sum(r['mean_fitness'] for r in rows)/n:.2f} | {sum(r['best_fitness'] for r in rows)/n:.2f} | "
              f"{sum(r['longest'] for r in rows)/n:.2f} | {sum(r['seconds'] for r in rows)/n:.0f} |")
for m in ("random", "ga", "ga-archive"):
    rows = [r for name, r in runs if f"-{m}-s" in name]
    n = len(rows)
    print(f"| mean | {m} | {sum(r['mean_fitness'] for r in rows)/n:.2f} | {sum(r['best_fitness'] for r in rows)/n:.2f} | "
          f"{sum(r['longest'] for r in rows)/n:.2f} | {sum(r['seconds'] for r in rows)/n:.0f} |")
big = f"p1-ga-archive-pop{bigpop}"
b = load(big)
runs.append((big, b))
print(f"\npopulation {bigpop} x {gens}, 1-move initial, GA with archive, cook removal {b.get('repair', 0)}, seed 1: "
      f"longest perfect problem {b['longest']} plies, {b['problems']} problems, {b['seconds']:.0f} s")
print("\n| run | wall s | verifier calls | node limit hit | perfect problems | longest | max fitness | mean fitness |")
print("|---|---|---|---|---|---|---|---|")
for name, r in runs:
    unk = "n/a" if r["unknown"] is None else f"{r['unknown']} ({100 * r['unknown'] / max(r['verified'], 1):.1f} %)"
    print(f"| {name} | {r['seconds']:.0f} | {r['verified']:.0f} | {unk} | {r['problems']} | {r['longest']} | "
          f"{r['best_fitness']:g} | {r['mean_fitness']:.2f} |")
print(f"\ntotal wall time {sum(r['seconds'] for _, r in runs):.0f} s\n\nlongest perfect problem of each run:\n")
for name, r in runs:
    if r["probs"]:
        q = max(r["probs"], key=lambda q: q["length"])
        print(f"- {name}: {q['length']} plies, #{q['id']} (generation {q['generation']}): `{q['sfen']}`")
PY
