#!/usr/bin/env python3
"""test_solve_refutations.py - `tsumegen solve --refutations` (紛れ) against the
independent reference (tests/tsume_ref.py on cshogi: TSUME_RULES.md's futile rule
written from the rule text) and cshogi's own df-pn.

1. ShogiBoardQ 3-, 5-, 7- and 11-ply problems: at each attacker ply of the main line
   the answer's entries are exactly the legal checks other than the line's move, its
   余詰 and the mates in one.  Each reply is legal after its check, and the reference
   finds no mate after it within the plies the 余詰 test looks (n plies left + 6 from
   the check); where the answer says no mate at all, cshogi's df-pn (every evasion a
   defence) finds none within 31 plies either.  An entry that "mates" mates under the
   reference (or cshogi's df-pn), and its kind fits: "promotion" the line's move with
   the other promotion, "last_move" at the last ply, "yozume" listed or noted and the problem not perfect.
2. The same checks catch a wrong reply: the answers with each reply replaced by
   another legal evasion fail (the check can fail).
3. The KIF holds each refutation as a branch from the main line (the check, then the
   reply), read back as a reader of 変化 rebuilds the tree.
4. Limits: --refutation-nodes 1 leaves some open ("undecided", counted, said in the
   KIF); without the option the answer has no such field; --out records it.
5. A 余詰 that only the refutations see (past the bounded test) turns the verdict:
   listed and cooked, or not perfect where tied main lines were not examined again.
6. A lone problem on two threads lists its refutations on both (--trace says so):
   the same checks, kinds and verdict as on one thread, and the replies pass item 1's
   checks (a reply may be another refuting defence: each thread's table differs).
Last line: "solve-refutations: N passed, N failed".
"""
import json
import multiprocessing
import os
import re
import subprocess
import sys
import tempfile

import cshogi

import tsume_ref
from cshogi_lines import cshogi_finds_no_mate
from tally import check, summary
from test_solve import EXE, SAN, data_lines, record_sfen, solve
from test_solve_variations import board_after, first_differences, kif_tree, one_and_two_threads

YOZUME_EXTRA = 6  # solve's default --yozume-depth
NODE_LIMIT = 1_000_000  # the reference's budget per problem


def problems(ply, count):
    lines = data_lines("data/third_party/shogiboardq/tsume_%dply_1000_20261001.txt" % ply)[:count]
    return [l.split(" moves ")[0] for l in lines]


def wanted_checks(sfen, r):
    """{(ply, usi)} the listing must hold: at each attacker ply of the main line, the
    legal checks other than the line's move, the answer's 余詰 and the mates in one.
    A 余詰 that the refutations found past the bounded test is listed in both."""
    pv = r["pv"]
    late = {(e["ply"], e["move"]) for e in r.get("refutations", []) if e.get("mates") == "yozume"}
    yozume = {(y["ply"], y["move"]) for y in r.get("yozume", [])} - late
    want = set()
    for k in range(0, len(pv), 2):
        b = board_after(sfen, pv[:k])
        for m in list(b.legal_moves):
            usi = cshogi.move_to_usi(m)
            if usi == pv[k] or (k + 1, usi) in yozume:
                continue
            b.push(m)
            if b.is_check() and not b.is_game_over():
                want.add((k + 1, usi))
            b.pop()
    return want


UNLISTED = re.compile(r"yozume_unlisted: ply (\d+) (.+?)(?: and (\d+) more)? mates? without passing the main line")


def unlisted_notes(r):
    """The yozume_unlisted notes of an answer: {ply: (moves named, how many more)}
    (one note a ply off the list; a note a move where tied main lines decide)."""
    said = {}
    for n in r.get("notes", []):
        m = UNLISTED.match(n)
        if m:
            named, more = said.get(int(m.group(1)), ([], 0))
            said[int(m.group(1))] = (named + m.group(2).split(), more + int(m.group(3) or 0))
    return said


def late_yozume_said(r, ply, move):
    """A "yozume" entry's answer says so: listed among the 余詰 with a
    yozume_past_bound note, or (tied lines, --no-flaws, the list's cap) in the
    yozume_unlisted note of its ply (named, or counted past what the note holds), or,
    past the notes' cap, counted in the last note ("notes_cut: N more notes ...");
    either way the problem is not perfect."""
    listed = any(y["ply"] == ply and y["move"] == move for y in r.get("yozume", []))
    cut = r["notes"][-1].startswith("notes_cut: ") if r["notes"] else False
    if listed:
        said = any(n.startswith("yozume_past_bound: ply %d %s " % (ply, move)) for n in r["notes"])
    else:
        named, more = unlisted_notes(r).get(ply, ([], 0))
        said = move in named or more > 0
    return not r["perfect"] and (cut or said)


def cshogi_mates_every_evasion(board, nodes=300_000):
    """cshogi's df-pn (every evasion a defence, no length bound short of 63 plies) mates
    after each legal evasion: True, False (a search ended without a mate before its
    limit), or None (a search stopped at its limit)."""
    for m in list(board.legal_moves):
        board.push(m)
        dfpn = cshogi.DfPn(depth=63, nodes=nodes)
        found = dfpn.search(board)
        limited = dfpn.searched_node >= nodes
        board.pop()
        if not found:
            return None if limited else False
    return True


def view(item):
    """(decided entries, undecided entries, failures) for one answer (name, sfen, r).
    Runs in a worker process: the reference is slow."""
    name, sfen, r = item[:3]
    budget = item[3] if len(item) > 3 else NODE_LIMIT
    fails = []
    if r.get("result") != "mate" or len(r.get("pv", [])) != r.get("length") or "refutations" not in r:
        return 0, 0, ["%s %s answered %s" % (name, sfen, json.dumps(r)[:300])]
    entries = r["refutations"]
    got = [(e["ply"], e["move"]) for e in entries]
    want = wanted_checks(sfen, r)
    if sorted(got) != sorted(want) or len(set(got)) != len(got):
        fails.append("%s %s: refutations at %s, the legal checks left %s" % (name, sfen, sorted(got), sorted(want)))
    ref = tsume_ref.TsumeRef(node_limit=budget)
    decided = undecided = 0
    for e in entries:
        ply, left = e["ply"], r["length"] - e["ply"] + 1
        b = board_after(sfen, r["pv"][:ply - 1])
        b.push_usi(e["move"])
        try:
            if e.get("mates"):
                # (a mate may be longer than the 余詰 test's bound: a mate at the last ply
                # that takes more than one move; cshogi's df-pn then decides)
                mated = ref.and_within(b, left - 1 + YOZUME_EXTRA) or cshogi_mates_every_evasion(b)
                if mated is None:
                    undecided += 1
                    continue
                kind = e["mates"]
                twin = "*" not in e["move"] and e["move"].rstrip("+") == r["pv"][ply - 1].rstrip("+")
                if e["reply"] is not None or not mated:
                    fails.append("%s %s: %s said to mate" % (name, sfen, json.dumps(e)))
                elif kind not in ("promotion", "last_move", "detour", "yozume", "mate") or \
                        (kind == "promotion") != twin or (kind == "last_move") != (not twin and ply == r["length"]) or \
                        (kind == "yozume" and not late_yozume_said(r, ply, e["move"])):
                    fails.append("%s %s: %s: not that kind of mate" % (name, sfen, json.dumps(e)))
                decided += 1
                continue
            if e.get("undecided"):
                undecided += 1
                continue
            m = b.move_from_usi(e["reply"]) if e["reply"] else 0
            if not m or not b.is_legal(m):
                fails.append("%s %s: %s: the reply is not legal" % (name, sfen, json.dumps(e)))
                continue
            b.push(m)
            bound = left + YOZUME_EXTRA
            if e.get("no_mate") is not True and e.get("no_mate_within") != bound:
                fails.append("%s %s: %s: neither no_mate nor no_mate_within %d" % (name, sfen, json.dumps(e), bound))
            if ref.or_within(b, bound - 2):
                fails.append("%s %s: %s: the reference mates within %d after the reply" % (name, sfen, json.dumps(e),
                                                                                          bound - 2))
            elif e.get("no_mate") and not cshogi_finds_no_mate(b, 31, 300_000):
                dfpn = cshogi.DfPn(depth=31, nodes=300_000)
                if dfpn.search(b):
                    fails.append("%s %s: %s: cshogi's df-pn mates after the reply" % (name, sfen, json.dumps(e)))
            decided += 1
        except tsume_ref.Undecided:
            undecided += 1
    return decided, undecided, fails


def check_views(items):
    """view on every item (worker processes): (decided, undecided, failure lines)."""
    with multiprocessing.Pool(os.cpu_count() or 1) as pool:
        views = pool.map(view, items, chunksize=2)
    dec = sum(v[0] for v in views)
    und = sum(v[1] for v in views)
    fails = [f for v in views for f in v[2]]
    return dec, und, fails


def against_reference():
    """Items 1 and 3, and item 2 on the same answers."""
    total = mutated_caught = 0
    for ply, count in ((3, 10 if SAN else 20), (5, 10 if SAN else 20), (7, 4 if SAN else 8), (11, 2 if SAN else 3)):
        sfens = problems(ply, count)
        with tempfile.TemporaryDirectory() as d:
            res = solve(sfens, "--refutations", "--kif", d)
            items = [("sbq%d-%d" % (ply, i), s, r) for i, (s, r) in enumerate(zip(sfens, res))]
            dec, und, fails = check_views(items)
            for f in fails:
                check(False, "refutations: " + f)
            check(not fails, "")
            n = sum(len(r.get("refutations", [])) for r in res)
            total += n
            check(und * 10 <= dec, "refutations %d-ply: the reference left %d undecided, %d decided" % (ply, und, dec))
            check(all(r.get("refutations_undecided") == 0 for r in res),
                  "refutations %d-ply: some left undecided at the default limit" % ply)
            for i, (s, r) in enumerate(zip(sfens, res)):
                tree = kif_tree(os.path.join(d, "%04d.kif" % (i + 1)), s)
                want = sorted([r["pv"]] + [r["pv"][:e["ply"] - 1] + [e["move"]] + ([e["reply"]] if e["reply"] else [])
                                           for e in r["refutations"]])
                check(sorted(tree) == want, "refutations KIF %04d.kif (%s): its tree %s, the answer's %s" %
                      (i + 1, s, sorted(tree)[:4], want[:4]))
            # item 2: each reply swapped for another legal evasion (the short problems:
            # the reference's time)
            if ply > 5:
                print("shogiboardq %d-ply: %d problems, %d refutations, %d decided by the reference, %d undecided" %
                      (ply, count, n, dec, und))
                continue
            bad = []
            for name, s, r in items[:8]:  # (8 problems a set: the reference takes most of this file's time)
                r2 = json.loads(json.dumps(r))
                for e in r2["refutations"]:
                    if not e.get("reply"):
                        continue
                    b = board_after(s, r["pv"][:e["ply"] - 1])
                    b.push_usi(e["move"])
                    others = [cshogi.move_to_usi(m) for m in b.legal_moves if cshogi.move_to_usi(m) != e["reply"]]
                    if others:
                        e["reply"] = others[0]
                bad.append((name, s, r2))
            _, _, mfails = check_views(bad)
            mutated_caught += len(mfails)
        print("shogiboardq %d-ply: %d problems, %d refutations, %d decided by the reference, %d undecided" %
              (ply, count, n, dec, und))
    check(total >= 200, "refutations: only %d on the problems" % total)
    print("replies swapped for another evasion: %d failures found" % mutated_caught)
    check(mutated_caught >= 20, "refutations: a wrong reply was caught only %d times" % mutated_caught)


def random_refutations(cases, max_plies=9, budget=200_000):
    """tsume_ref_fuzz's check: the mates of cases ((name, sfen)) solved with
    --refutations, those of at most max_plies plies viewed as in item 1 with the
    reference's budget for each (random boards are open: a problem's entries at the
    suite's budget took minutes).  Returns (answers viewed, entries, decided,
    undecided)."""
    inp = "".join(c[1] + "\n" for c in cases)
    p = subprocess.run([EXE, "solve", "--threads", "2", "--time", "20000", "--refutations"], input=inp,
                       capture_output=True, text=True)
    res = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
    check(len(res) == len(cases), "solve printed %d lines for %d inputs: %s" % (len(res), len(cases), p.stderr[:300]))
    items = [(name, sfen, r, budget) for (name, sfen), r in zip(cases, res)
             if r.get("result") == "mate" and "length_exact" not in r and len(r.get("pv", [])) <= max_plies]
    dec, und, fails = check_views(items)
    for f in fails:
        check(False, "refutations: " + f)
    check(not fails, "")
    return len(items), sum(len(it[2].get("refutations", [])) for it in items), dec, und


def limits():
    """Item 4."""
    sfens = problems(11, 4)
    with tempfile.TemporaryDirectory() as d:
        res = solve(sfens, "--refutation-nodes", "1", "--kif", d)
        und = sum(r.get("refutations_undecided", 0) for r in res)
        counted = sum(1 for r in res for e in r.get("refutations", []) if e.get("undecided"))
        check(und > 0 and und == counted, "--refutation-nodes 1: %d undecided, %d entries say so" % (und, counted))
        check(all(e["reply"] is None for r in res for e in r["refutations"] if e.get("undecided")),
              "--refutation-nodes 1: an undecided entry has a reply")
        kifs = [open(os.path.join(d, "%04d.kif" % (i + 1)), encoding="utf-8").read() for i in range(len(res))]
        check(any("制限で未検討" in k for k in kifs), "--refutation-nodes 1: no KIF says some were left open")
        plain = solve(sfens[:1])
        check("refutations" not in plain[0], "without --refutations the answer has refutations")
        out = os.path.join(d, "answers.jsonl")
        subprocess.run([EXE, "solve", "--refutations", "--out", out, sfens[0]], capture_output=True)
        opts = open(out + ".options").read() if os.path.exists(out + ".options") else ""
        check("--refutations" in opts, "--out's options record %r lacks --refutations" % opts)


def late_yozume():
    """Item 5: a 余詰 past the bounded test that the refutations find turns the verdict.
    yo162a (data/regressions: mate 3) has 3c4b at ply 1, a mate of 13 plies, past the
    default bound (3 + 6): the bounded test alone says perfect; with --refutations the
    余詰 is listed and the problem cooked, as --yozume-confirm finds it.  The second
    position's 4h3i at ply 3 is one too; its last move has tied alternatives, but
    those lines leave it after ply 3 and 4h3i cooks them as well: cooked.  sug7
    (data/regressions, 7 plies) with --yozume-depth 0: L*1i at ply 1 mates in 9, past
    the bound, but R*4i at ply 5 mates as soon as the line (an attacker's tie), so a
    tied main line leaves after ply 1 before the last move, and the tied lines are not
    all known: L*1i is noted, not listed (sug7 is cooked by R*4i all the same); listed
    with --tied-lines all.  (yo116c was this case until the 迂回 search cut repeated
    positions: its analysis now completes and lists its 余詰 itself, test_solve.py.)"""
    yo162a = "5pk2/7P1/4+R1+P1+b/8b/6R2/9/9/9/9 b 4g4s4n4l15p 1"
    tied = "9/9/2+R6/9/4+p2n1/7G1/6pS1/5S3/7k1 b Lr2b3g2s3n3l16p 1"
    sug7 = "3Bp2n1/5+R2+B/p2p1GSp1/8p/Pn5l1/1n2SNP2/2pPPS1Pk/1P1SK1G2/L1G1G4 b RL3Pl3p 1"
    bare, refs, confirm = (solve([yo162a], *o)[0] for o in ((), ("--refutations",), ("--yozume-confirm",)))
    check(bare.get("perfect") is True and bare.get("yozume_bound") == YOZUME_EXTRA,
          "yo162a without --refutations: %s" % json.dumps(bare)[:300])
    want = [{"ply": 1, "move": "3c4b", "length": 13}]
    check(refs.get("perfect") is False and refs.get("flaws") == ["yozume"] and refs.get("yozume") == want and
          late_yozume_said(refs, 1, "3c4b"), "yo162a --refutations: %s" % json.dumps(refs)[:400])
    check(confirm.get("yozume") == want, "yo162a --yozume-confirm: %s" % json.dumps(confirm)[:300])
    b = tsume_ref.TsumeRef(node_limit=NODE_LIMIT)
    board = board_after(yo162a, [])
    board.push_usi("3c4b")
    check(b.and_within(board, 12) is True, "yo162a: the reference does not mate 3c4b within 13 plies")
    r = solve([tied], "--refutations")[0]
    check(r.get("flaws") == ["yozume"] and any(n.startswith("final_move_alternatives") for n in r.get("notes", []))
          and late_yozume_said(r, 3, "4h3i"), "tied last move, --refutations: %s" % json.dumps(r)[:400])
    anyr, allr = (solve([sug7], "--refutations", "--yozume-depth", "0", *o)[0] for o in ((), ("--tied-lines", "all")))
    r4i = {"ply": 5, "move": "R*4i", "length": 3}
    check(anyr.get("perfect") is False and anyr.get("yozume") == [r4i] and late_yozume_said(anyr, 1, "L*1i") and
          any(n.startswith("yozume_unlisted: ply 1 L*1i") and "tied main lines left open" in n
              and "cooked by the listed" in n for n in anyr.get("notes", [])),
          "sug7 --refutations --yozume-depth 0: %s" %
          json.dumps({k: anyr.get(k) for k in ("perfect", "yozume", "notes")})[:400])
    check(allr.get("yozume") == [r4i, {"ply": 1, "move": "L*1i", "length": 9}] and late_yozume_said(allr, 1, "L*1i"),
          "sug7 --refutations --yozume-depth 0 --tied-lines all: %s" %
          json.dumps({k: allr.get(k) for k in ("yozume", "notes")})[:400])
    # Random seed 88's 196th board (tsume_ref_fuzz) has its 余詰 list full (32) and 14
    # more 余詰 at ply 3 that only the refutations find: a yozume_unlisted note each
    # filled the answer's 16 notes; now they share one note (the moves it holds, then
    # how many more), and the refutations entries name each.
    full = "5R3/2Lk5/7G1/7K1/1l1G1SL2/9/5g3/9/1L7 b 2BG2Srs4n18p 1"
    for extra in ((), ("--no-flaws",)):
        r = solve([full], "--refutations", "--threads", "1", *extra)[0]
        late = [e for e in r.get("refutations", []) if e.get("mates") == "yozume"]
        notes = r.get("notes", [])
        said = unlisted_notes(r)
        named = [(ply, m) for ply in said for m in said[ply][0]]
        why = "--no-flaws" if extra else "past the list's cap"
        check(len(r.get("yozume", [])) == (0 if extra else 32) and len(late) >= 10 and
              sorted(named) == sorted(set(named)) and
              set(named) <= {(e["ply"], e["move"]) for e in late} and
              sum(len(m) + more for m, more in said.values()) == len(late) and
              len([n for n in notes if n.startswith("yozume_unlisted:")]) == len({e["ply"] for e in late}) and
              all(n.endswith("(not in the 余詰 list: %s)" % why) for n in notes if n.startswith("yozume_unlisted:")) and
              not any(n.startswith("notes_cut:") for n in notes) and
              all(late_yozume_said(r, e["ply"], e["move"]) for e in late),
              "late 余詰 grouped by ply %s: %d late 余詰, notes %s" % (extra, len(late), notes))


def entry_kind(e):
    """An entry without its reply: (ply, check, what it says)."""
    return (e["ply"], e["move"], e.get("mates"), e.get("no_mate"), e.get("no_mate_within"), e.get("undecided"))


def pair():
    """Item 6: two ShogiBoardQ problems (7 and 11 plies) and Zuko 81 (17 plies, 47
    checks), each alone on one thread and on two."""
    cases = [("sbq7-0", problems(7, 1)[0]), ("sbq11-1", problems(11, 2)[1]), ("zukou-081", record_sfen("zukou-081"))]
    items = []
    for name, sfen in cases:
        main_line = ("result", "length", "pv", "perfect", "flaws", "yozume")
        one, two = one_and_two_threads(name, ["--refutations", sfen], main_line, "refutation checks",
                                       lambda r: len(r.get("refutations", [])),
                                       lambda m, n: int(m.group(1)) == int(m.group(2)) == n >= 2)
        kinds = [[entry_kind(e) for e in x.get("refutations", [])] for x in (one, two)]
        check(kinds[0] == kinds[1] and one.get("refutations_undecided") == two.get("refutations_undecided") == 0 and
              all(one.get(k) == two.get(k) for k in main_line),
              "%s: refutations on two threads, not those of one (one, two): %s; undecided %s, %s; main line fields %s" %
              (name, json.dumps(first_differences(*kinds)), one.get("refutations_undecided"), two.get("refutations_undecided"),
               [k for k in main_line if one.get(k) != two.get(k)]))
        if name != "zukou-081":  # (the reference's time)
            items.append((name, sfen, two))
    dec, und, fails = check_views(items)
    for f in fails:
        check(False, "refutations on two threads: " + f)
    check(not fails and dec > 0 and und * 10 <= dec,
          "refutations on two threads: %d decided by the reference, %d undecided" % (dec, und))


def main():
    against_reference()
    limits()
    late_yozume()
    pair()
    return summary("solve-refutations")


if __name__ == "__main__":
    sys.exit(main())
