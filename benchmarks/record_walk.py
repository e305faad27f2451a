#!/usr/bin/env python3
"""Where does a recorded solution stop being the exact main line?

For a problem with a recorded solution (data/edo/*.tsv: id, moves, sfen, usi), solves
the attacker positions of the record from its end backwards (the short ones are
cheap) with `tsumegen solve --apply-moves`, and compares the exact length from each
with the plies the record has left.  The first position from the end where the
proven lower bound exceeds the record's remainder shows the defender move just
before it (the record's previous ply) is not the longest defence under
TSUME_RULES.md; where the exact length is shorter, the attacker has a quicker mate.

    python3 benchmarks/record_walk.py ID [TIME_MS] [TSV]
e.g. python3 benchmarks/record_walk.py zukou-012 20000
Prints one line per attacker position: ply, remaining in the record, result,
length (exact or the found upper bound), proven lower bound, seconds; and stops at
the first mismatch.
"""
import json
import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def main():
    pid = sys.argv[1]
    time_ms = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
    tsvs = [sys.argv[3]] if len(sys.argv) > 3 else [os.path.join(ROOT, "data/edo", f) for f in ("zukou.tsv", "musou.tsv")]
    row = None
    for t in tsvs:
        for line in open(t, encoding="utf-8"):
            f = line.rstrip("\n").split("\t")
            if f[0] == pid:
                row = f
    if row is None:
        sys.exit(f"record_walk: {pid} not found in {', '.join(tsvs)}")
    moves = row[3].split()
    exe = os.environ.get("TSUMEGEN", os.path.join(ROOT, "bin/tsumegen"))
    print(f"{pid}: recorded {len(moves)} plies, {time_ms / 1000:.0f} s a position")
    print("ply | left in record | result | length | proven at least | s")
    for k in range(len(moves) - 1, -1, -2):
        line = row[2] + (" moves " + " ".join(moves[:k]) if k else "")
        out = subprocess.run([exe, "solve", "--no-flaws", "--apply-moves", "--threads", "1", "--time", str(time_ms)],
                             input=line + "\n", capture_output=True, text=True)
        o = json.loads(out.stdout)
        left = len(moves) - k
        exact = o["result"] == "mate" and o.get("length_exact", True)
        lb = o.get("length_lb", o.get("length"))
        print(f"{k} | {left} | {o['result']} | {o.get('length')}{'' if exact else ' (ub)'} | {lb} | {o['ms'] / 1000:.1f}")
        if o["result"] != "mate":
            print("stop: no mate proved here")
            return
        if lb is not None and lb > left:
            print(f"stop: from ply {k} the defender lasts at least {lb} plies, the record only {left}: "
                  f"the record's defence at ply {k + 1} ({moves[k + 1] if k + 1 < len(moves) else '-'}) is not the longest"
                  if k + 2 < len(moves) else f"stop: at least {lb} > {left}")
            return
        if exact and o["length"] < left:
            print(f"stop: a mate in {o['length']} from ply {k}, shorter than the record's {left}")
            return
        if not exact:
            print("stop: length not proved within the limit")
            return
    print("the record is an exact main line from every attacker position")


if __name__ == "__main__":
    main()
