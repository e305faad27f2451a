#!/usr/bin/env python3
"""Summary of the archive-GA runs of Table 2 at full scale that exist so far.

    python3 benchmarks/ga_table2_archive.py [OUTDIR]   (default out/t2full)

Reads OUTDIR/pN-ga-archive-sS/summary.json (finished runs only: every generation,
not interrupted) and problems.jsonl, and prints a markdown table: per run the wall
time, verifier calls, perfect problems, longest (and its generation), max and mean
fitness; then the mean longest over the runs found, against seeds/000 Table 2's
archive-GA mean of 17.67 (issue 5's target is that mean over all 9 runs).
"""
import glob
import json
import os
import sys

out = sys.argv[1] if len(sys.argv) > 1 else "out/t2full"
rows = []
for d in sorted(glob.glob(os.path.join(out, "p[135]-ga-archive-s[0-9]*"))):
    try:
        s = json.load(open(os.path.join(d, "summary.json")))
    except (OSError, ValueError):
        continue
    if s.get("interrupted") or s["generations"] != s["gens"]:
        continue
    probs = [json.loads(l) for l in open(os.path.join(d, "problems.jsonl")) if l.strip()]
    best = max(probs, key=lambda q: q["length"]) if probs else None
    rows.append((os.path.basename(d), s, best))
print("| run | wall s | verifier calls | perfect problems | longest (generation) | max fitness | mean fitness |")
print("|---|---|---|---|---|---|---|")
for name, s, best in rows:
    gen = best["generation"] if best else "-"
    print(f"| {name} | {s['seconds']:.0f} | {s['verified']:,} | {s['problems']} | {s['longest']} ({gen}) | "
          f"{s['best_fitness']:g} | {s['mean_fitness']:.2f} |")
if rows:
    mean = sum(s["longest"] for _, s, _ in rows) / len(rows)
    print(f"\n{len(rows)} of 9 runs: mean longest perfect problem {mean:.2f} (paper, archive GA: 17.67)")
    for name, s, best in rows:
        if best:
            print(f"- {name}: {best['length']} plies, #{best['id']}: `{best['sfen']}`")
