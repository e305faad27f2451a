#!/usr/bin/env bash
# Two builds of the solver side by side on deterministic one-thread queries: the
# node counts (which do not depend on the machine's load) and their ratio B/A,
# with a loud line wherever the two answers differ.  This is how the sessions judge
# a search change (RESULTS.md); doing it by hand once compared a stale binary.
#   bash benchmarks/ab_nodes.sh A B
# A, B: a git revision, built fresh in a temporary worktree, or "." for this working
# tree as it is now (built here with make; uncommitted changes included).
#   QUERIES="...": space-separated queries on rows of data/edo/zukou.tsv (default below)
#     walk:N        the exact length of Zuko N by the walk alone (--length-search walk)
#     up:N          the exact length of Zuko N bottom up (--length-search up)
#     within:N:L    "mate within L?" bottom up (--max-length L); N may be a range A-B,
#                   whose problems' nodes are summed
#   HASH=MB (default 1024), TIME_MS per solve (default 600000: a query that hits it
#   says so in its answer column)
# Each query runs A and B at once (two cores): nodes are exact, times are noisy.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -ne 2 ]; then
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
HASH=${HASH:-1024}; TIME=${TIME_MS:-600000}
QUERIES=${QUERIES:-"walk:4 walk:6 walk:24 within:21:15 within:21:17 within:1-29:15"}
tmp=$(mktemp -d)
worktrees=()
cleanup() {
    for w in "${worktrees[@]+"${worktrees[@]}"}"; do git worktree remove --force "$w" >/dev/null 2>&1 || true; done
    rm -rf "$tmp"
}
trap cleanup EXIT

# build REV NAME: a fresh binary of REV at $tmp/NAME; make's failure stops the run
# (its output goes to a log, never through a pipe that may close early)
build() {
    local rev=$1 name=$2 dir
    if [ "$rev" = . ]; then
        dir=.
        desc="working tree ($(git rev-parse --short HEAD 2>/dev/null || echo 'no git')$(git diff --quiet HEAD -- . 2>/dev/null || echo ', modified'))"
    else
        local sha
        sha=$(git rev-parse --verify --quiet "$rev^{commit}") || { echo "ab_nodes: no such revision: $rev" >&2; exit 2; }
        dir=$tmp/wt-$name
        git worktree add --detach "$dir" "$sha" >/dev/null 2>&1 || { echo "ab_nodes: cannot check out $rev" >&2; exit 2; }
        worktrees+=("$dir")
        desc="$(git rev-parse --short "$sha") ($rev)"
    fi
    # (the release binary whatever the caller's make passes down: make check runs the
    # tests with BIN, BUILD and OPT of its own, in the environment and in MAKEFLAGS;
    # an inherited OPT once built the working tree's build/rel with the sanitizers)
    if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u OPT -u CC -u CFLAGS -u CPPFLAGS -u LDLIBS make -C "$dir" -j"$(nproc)" BIN=bin BUILD=build/rel bin/tsumegen \
            > "$tmp/make-$name.log" 2>&1; then
        echo "ab_nodes: building $rev failed:" >&2
        tail -20 "$tmp/make-$name.log" >&2
        exit 2
    fi
    cp "$dir/bin/tsumegen" "$tmp/$name"
    echo "$name: $desc" >&2
    eval "DESC_$name=\$desc"
}
# parse_query Q: kind, first, last and len of query Q, or exit 2 naming it
parse_query() {
    local q=$1 rows
    IFS=: read -r kind rows len <<< "$q"
    len=${len:-}
    case $kind in
        walk|up) [ -z "$len" ] || { echo "ab_nodes: '$q': $kind takes no bound" >&2; exit 2; } ;;
        within) [[ $len =~ ^[0-9]+$ ]] || { echo "ab_nodes: '$q': within needs a bound, within:N:L" >&2; exit 2; } ;;
        *) echo "ab_nodes: unknown query '$q' (walk:N, up:N, within:N:L)" >&2; exit 2 ;;
    esac
    if [[ $rows =~ ^([0-9]+)-([0-9]+)$ ]]; then first=${BASH_REMATCH[1]}; last=${BASH_REMATCH[2]}
    elif [[ $rows =~ ^[0-9]+$ ]]; then first=$rows; last=$rows
    else echo "ab_nodes: '$q': rows must be N or A-B" >&2; exit 2; fi
}
for q in $QUERIES; do parse_query "$q"; done  # (all checked before the builds)
build "$1" A
build "$2" B

sfen_of() { awk -F'\t' -v a="$1" '!/^#/ { n++; if (n == a) print $3 }' data/edo/zukou.tsv; }
# run BIN OUT KIND ROW SFEN [L]: one solve's JSON line appended to OUT
run() {
    local bin=$1 out=$2 kind=$3 row=$4 sfen=$5 len=${6:-} opts
    case $kind in
        walk) opts="--length-search walk" ;;
        up) opts="--length-search up" ;;
        within) opts="--max-length $len" ;;
    esac
    TSUMEGEN_SPLIT=0 "$bin" solve --no-flaws --threads 1 --hash "$HASH" --time "$TIME" $opts "$sfen" >> "$out" ||
        { echo "ab_nodes: $(basename "$bin")'s solve failed on Zuko $row ($kind)" >&2; exit 2; }
}

echo "ab_nodes: A = $DESC_A, B = $DESC_B; one thread, hash $HASH MB, $(date -u +%Y-%m-%d), $(nproc) cores"
echo "| query | A nodes | B nodes | B/A | answers |"
echo "|---|---|---|---|---|"
: > "$tmp/ratios"
for q in $QUERIES; do
    parse_query "$q"
    : > "$tmp/a.jsonl"; : > "$tmp/b.jsonl"
    for ((n = first; n <= last; n++)); do
        sfen=$(sfen_of "$n")
        [ -n "$sfen" ] || { echo "ab_nodes: no Zuko row $n" >&2; exit 2; }
        run "$tmp/A" "$tmp/a.jsonl" "$kind" "$n" "$sfen" "$len" & pa=$!
        run "$tmp/B" "$tmp/b.jsonl" "$kind" "$n" "$sfen" "$len" & pb=$!
        wait "$pa" || exit 2
        wait "$pb" || exit 2
    done
    python3 - "$q" "$tmp/a.jsonl" "$tmp/b.jsonl" "$tmp/ratios" $((last - first + 1)) <<'PY'
import json, sys
q, fa, fb, fr, count = sys.argv[1:]
a = [json.loads(l) for l in open(fa)]
b = [json.loads(l) for l in open(fb)]
if len(a) != int(count) or len(b) != int(count):
    sys.exit("ab_nodes: %s: %d and %d answers for %s problems" % (q, len(a), len(b), count))
def answer(d):
    return "%s %s%s" % (d["result"], d.get("length", 0), " at least %d" % d["length_lb"] if "length_lb" in d else "")
na, nb = sum(d["nodes"] for d in a), sum(d["nodes"] for d in b)
same = [answer(x) == answer(y) for x, y in zip(a, b)]
text = answer(a[0]) if len(a) == 1 else "%d problems" % len(a)
if not all(same):
    bad = [i for i, s in enumerate(same) if not s]
    text = "DIFFERENT ANSWERS: " + "; ".join("A %s, B %s" % (answer(a[i]), answer(b[i])) for i in bad)
elif len(a) > 1:
    text += ", the same answers"
ratio = nb / na if na else float("nan")
print("| %s | %d | %d | %.3f | %s |" % (q, na, nb, ratio, text))
with open(fr, "a") as f:
    f.write("%r %d\n" % (ratio, all(same)))
PY
done
python3 - "$tmp/ratios" <<'PY'
import math, sys
rows = [l.split() for l in open(sys.argv[1])]
r = [float(x) for x, _ in rows if x != "nan"]
diff = sum(1 for _, s in rows if s == "0")
g = math.exp(sum(math.log(x) for x in r) / len(r)) if r else float("nan")
print("%d queries: geometric mean of B/A %.3f; %s" % (len(rows), g, "%d with different answers" % diff if diff else "the same answers"))
PY
