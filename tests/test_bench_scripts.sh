#!/usr/bin/env bash
# The benchmark scripts at toy scale, against today's binary.  Nothing else runs
# them, and RESULTS.md quotes their output: tsume_ref_fuzz.py had broken silently
# when the test counters moved to tests/tally.py.  Each must exit 0 and print the
# lines RESULTS.md's tables are made of; the figures themselves are not judged.
. "$(dirname "$0")/harness.sh"
export BIN TSUMEGEN=$BIN/tsumegen
case "$BIN" in  # scripts, not code paths: make test runs them (75 s under the sanitizers, a build of HEAD included)
    *san*) echo "skip the benchmark scripts under the sanitizer build"; echo "bench-scripts: 0 passed, 0 failed"; exit 0 ;;
esac
# expect NAME RC OUTPUT PATTERN...: ok when RC is 0 and every extended regex matches a line
expect() {
    local name=$1 rc=$2 out=$3; shift 3
    if [ "$rc" -ne 0 ]; then bad "$name: exit $rc"; echo "$out" | tail -8; return; fi
    for p in "$@"; do
        if ! echo "$out" | grep -Eq -- "$p"; then bad "$name: no line matches /$p/"; echo "$out" | tail -8; return; fi
    done
    ok "$name"
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the independent reference against solve: lengths, then 余詰 of the mates found
out=$(python3 benchmarks/tsume_ref_fuzz.py random 1 12 5 5000 2>&1); rc=$?
expect "tsume_ref_fuzz.py random" $rc "$out" \
    '^lengths \(decided, mates, futile drops, undecided\): .*totals [1-9][0-9]* passed, 0 failed' \
    '^余詰 .*totals [1-9][0-9]* passed, 0 failed'

# the Zuko table, batch and one problem at a time (node limits: the same rows every run)
out=$(HASH=16 OPTS="--nodes 20000" bash benchmarks/zukou.sh 7 8 0 1 2>&1); rc=$?
expect "zukou.sh batch" $rc "$out" '^\| zukou-007 \| 13 \| ' '^\| zukou-008 \| 41 \| ' '^2 problems, limit 0 s: '
out=$(ALONE=1 HASH=16 OPTS="--nodes 20000" bash benchmarks/zukou.sh 7 7 0 1 2>&1); rc=$?
expect "zukou.sh ALONE=1" $rc "$out" '^\| zukou-007 \| 13 \| ' '^1 problems, limit 0 s: '

# a record walked back from its end: Zuko 7's record stops being the longest defence
# at ply 5 (data/edo/verifier_expect.tsv: deviate:4:11)
out=$(python3 benchmarks/record_walk.py zukou-007 5000 2>&1); rc=$?
expect "record_walk.py" $rc "$out" '^zukou-007: recorded 13 plies' '^12 \| 1 \| mate \| 1 \| 1 \| ' \
    '^stop: from ply 4 the defender lasts at least 11 plies, the record only 9: the record.s defence at ply 5 \(9e9d\)'
out=$(python3 benchmarks/record_walk.py zukou-999 2>&1); rc=$?
if [ $rc -ne 0 ] && echo "$out" | grep -q "zukou-999 not found"; then ok "record_walk.py: unknown id refused"
else bad "record_walk.py: unknown id (exit $rc): $out"; fi

# the one-square edit screen of a record's diagram, 60 edits of Zuko 7 with its
# deviation (the king's capture at ply 6) at toy node budgets
out=$(EDITS_MAX=60 python3 benchmarks/edit_screen.py zukou-007 2000 2000 "S*8b 7a8b N*7d 8b8c S*9d 8c9d" 7 2>&1); rc=$?
expect "edit_screen.py" $rc "$out" '^zukou-007: recorded 13 plies; [0-9]+ one-square edits, [1-9][0-9]* keep the record a mate$' \
    '^1\. mate within 11: [0-9]+ \(shorter\), refused as positions: [0-9]+, left: [0-9]+$' \
    '^2\. after S\*8b 7a8b N\*7d 8b8c S\*9d 8c9d: mate within 7 [0-9]+, the deviation illegal [0-9]+, left: [0-9]+$' \
    '^3\. mate within 13: '
out=$(python3 benchmarks/edit_screen.py zukou-999 2>&1); rc=$?
if [ $rc -ne 0 ] && echo "$out" | grep -q "zukou-999 not found"; then ok "edit_screen.py: unknown id refused"
else bad "edit_screen.py: unknown id (exit $rc): $out"; fi

# what a GUI gets after stop (one short wait: a line, or a timeout on a slow build)
out=$(python3 benchmarks/usi_stop.py "$TSUMEGEN" 1 2>&1); rc=$?
expect "usi_stop.py" $rc "$out" '^stop after +1 s: answer [0-9.]+ s later, (line of [0-9]+ plies|timeout)$'

# Table 2's script and its summary, one generation of 6 (the OpenMP screen)
out=$(POP=6 GENS=1 SEEDS=1 NODES=2000 BIGPOP=6 DEVICE=omp bash benchmarks/ga_table2.sh "$tmp/t2" 2>&1); rc=$?
expect "ga_table2.sh" $rc "$out" '^population 6 x 1 generations, node limit 2000, seeds 1' \
    '^\| mean \| ga-archive \| ' '^\| p5-random-s1 \| ' '^population 6 x 1, 1-move initial, GA with archive'
out=$(python3 benchmarks/ga_table2_archive.py "$tmp/t2" 2>&1); rc=$?
expect "ga_table2_archive.py" $rc "$out" '^### ga-archive' '^\| p1-ga-archive-s1 \| ' '^\| p5-random-s1 \| '

# the GPU re-check's smoke size on pocl (the script itself always exits 0)
if "$TSUMEGEN" devices 2>/dev/null | grep -q " cpu "; then
    out=$(DEVICE=cpu GENERATE=100000 VERIFY=2000 BENCH_SIZE="--boards 2000 --gen-boards 65536" \
          bash benchmarks/gpu_recheck.sh "$tmp/gpu" none 2>&1); rc=$?
    expect "gpu_recheck.sh (pocl)" $rc "$out" '^gen\+validity\+mate1\+pts .* mismatches 0$' \
        '^screen: generated 100000 boards \(seed 1, from 0\) .*: 39237 legal, 1782 with mate-in-1, 1071 kept$' \
        '^   generate: rc 0, 1071 boards printed' '^verify: 2000 boards, 0 mismatches$'
else
    echo "skip gpu_recheck.sh: no OpenCL CPU device (pocl)"
fi

# the peer comparison needs OpenShogiLib; without it the script names the packages
if [ -f /usr/include/osl/checkmate/dfpn.h ]; then
    out=$(bash benchmarks/peer_solve.sh 3 2>&1); rc=$?
    expect "peer_solve.sh" $rc "$out" '^tsume_3ply_1000_20261001.txt +peer +threads=1 +n= +3 .* mate +3 +nomate 0 +unknown 0 +exact/peer [0-9.]+ +full/peer [0-9.]+$' \
        '^tsume_13ply_1000_20261001.txt +peer '
else
    out=$(bash benchmarks/peer_solve.sh 3 2>&1); rc=$?
    if [ $rc -eq 2 ] && echo "$out" | grep -q "apt-get install libosl-dev"; then ok "peer_solve.sh: names libosl-dev when OpenShogiLib is missing"
    else bad "peer_solve.sh without OpenShogiLib (exit $rc): $out"; fi
fi

# bench solve --peer with a stand-in peer: its sums and ratios, and a peer that fails
# or answers short is an error naming it (exit 2), not a row of wrong figures
printf '%s\n' '#!/usr/bin/env bash' 'while IFS= read -r l; do echo "{\"result\":\"mate\",\"nodes\":7,\"ms\":0.5}"; done' > "$tmp/peer.sh"
out=$("$TSUMEGEN" bench solve --count 3 --threads 1 --peer "bash $tmp/peer.sh" 2>&1); rc=$?
expect "bench solve --peer" $rc "$out" \
    '^tsume_3ply_1000_20261001.txt +peer +threads=1 +n= +3 .* 0.50 ms/problem +nodes +21 +mate +3 +nomate 0 +unknown 0 +exact/peer [0-9.]+ +full/peer [0-9.]+$' \
    '^tsume_13ply_1000_20261001.txt +peer +threads=1 +n= +3 '
printf '%s\n' 'read -r l; echo "{\"result\":\"mate\",\"nodes\":7,\"ms\":0.5}"' > "$tmp/short.sh"
for bad in "bash $tmp/short.sh|printed 1 answers for 3 problems" "false|failed (exit status 1" \
           "$tmp/no-such-peer|failed (exit status 127" "echo {}|lacks"; do
    cmd=${bad%%|*}; msg=${bad#*|}
    out=$("$TSUMEGEN" bench solve --count 3 --threads 1 --peer "$cmd" 2>&1); rc=$?
    if [ $rc -eq 2 ] && echo "$out" | grep -qF "tsumegen bench: the peer '$cmd'" && echo "$out" | grep -qF "$msg" &&
       ! echo "$out" | grep -q ' peer  threads'; then ok "bench solve --peer '$cmd': exit 2, names it"
    else bad "bench solve --peer '$cmd' (exit $rc): $out"; fi
done
# bench solve --variations: its row per set, the variations counted (the 3-ply set's
# first three problems have some)
out=$("$TSUMEGEN" bench solve --count 3 --threads 1 --variations 2>&1); rc=$?
expect "bench solve --variations" $rc "$out" \
    '^tsume_3ply_1000_20261001.txt +\+var +threads=1 +n= +3 .* perfect +3 +variations [1-9][0-9]*$' \
    '^tsume_13ply_1000_20261001.txt +\+var +threads=1 +n= +3 '
out=$("$TSUMEGEN" bench perft --variations 2>&1); rc=$?
if [ $rc -eq 2 ] && echo "$out" | grep -q "variations is for bench solve"; then ok "bench perft --variations refused"
else bad "bench perft --variations (exit $rc): $out"; fi
out=$("$TSUMEGEN" bench perft --peer x 2>&1); rc=$?
if [ $rc -eq 2 ] && echo "$out" | grep -q "peer is for bench solve"; then ok "bench perft --peer refused"
else bad "bench perft --peer (exit $rc): $out"; fi

# two builds side by side: a revision built fresh in a worktree against this tree,
# their node counts and ratios; bad revisions and queries are refused (exit 2)
if git rev-parse --git-dir >/dev/null 2>&1; then
    out=$(QUERIES="within:7:5 walk:2 within:1-2:5" HASH=16 bash benchmarks/ab_nodes.sh HEAD . 2>&1); rc=$?
    expect "ab_nodes.sh" $rc "$out" '^ab_nodes: A = [0-9a-f]+ \(HEAD\), B = working tree ' \
        '^\| within:7:5 \| [0-9]+ \| [0-9]+ \| [0-9.]+ \| unknown 0 at least 7' '^\| walk:2 \| [1-9][0-9]* \| [1-9][0-9]* \| [0-9.]+ \| mate 21' \
        '^\| within:1-2:5 \| [0-9]+ \| [0-9]+ \| [0-9.]+ \| 2 problems' '^3 queries: geometric mean of B/A [0-9.]+; '
    for b in "walk:2|no-such-rev .|no such revision: no-such-rev" "walk2|HEAD .|unknown query 'walk2'" \
             "within:2|HEAD .|within needs a bound"; do
        queries=${b%%|*}; b=${b#*|}; args=${b%%|*}; msg=${b#*|}
        out=$(QUERIES="$queries" bash benchmarks/ab_nodes.sh $args 2>&1); rc=$?
        if [ $rc -eq 2 ] && echo "$out" | grep -qF "$msg"; then ok "ab_nodes.sh $args: exit 2, $msg"
        else bad "ab_nodes.sh $args (exit $rc): $out"; fi
    done
else
    echo "skip ab_nodes.sh: not a git checkout"
fi

echo "bench-scripts: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
