#!/usr/bin/env bash
# test_cli_errors.sh - malformed SFEN, malformed or illegal USI moves and bad
# command-line usage, through "$BIN/tsumegen" (perft, moves, mate1, kif and the
# stdin batch mode).  Every case must exit with status 2, print a message on
# stderr that names the problem, and trigger no sanitizer report.
# Last line: "cli-errors: N passed, N failed".
. "$(dirname "$0")/harness.sh"
TG="$BIN/tsumegen"
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -x "$TG" ]; then
    echo "FAIL: $TG not built"
    echo "cli-errors: 0 passed, 1 failed"
    exit 1
fi

# check NAME EXPECTED_STDERR_SUBSTRING STDIN_FILE ARGS...
check() {
    local name=$1 want=$2 input=$3
    shift 3
    "$TG" "$@" <"$input" >"$tmp/out" 2>"$tmp/err"
    local rc=$? why=""
    if [ "$rc" -ne 2 ]; then why="exit status $rc, expected 2"
    elif ! grep -qF -- "$want" "$tmp/err"; then why="stderr lacks '$want'"
    elif grep -qE 'runtime error|AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer' "$tmp/err"; then why="sanitizer report"
    fi
    if [ -z "$why" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: $name: $why"
        sed 's/^/    stderr: /' "$tmp/err" | head -5
    fi
}
# err NAME SUBSTRING ARGS...         (stdin empty)
err() { local n=$1 w=$2; shift 2; check "$n" "$w" /dev/null "$@"; }
# batch NAME SUBSTRING INPUT ARGS... (one or more SFEN lines on stdin; stdout must carry "error:")
batch() {
    local n=$1 w=$2
    printf '%s\n' "$3" >"$tmp/in"
    shift 3
    check "$n" "$w" "$tmp/in" "$@"
    if ! grep -q '^error: ' "$tmp/out"; then
        fail=$((fail + 1)); echo "FAIL: $n: no 'error:' line on stdout"
    fi
}

E9='9/9/9/9/9/9/9/9/9'
K='4k4/9/9/9/9/9/9/9/9'           # white king on 5a only
OK="$K b G 1"                      # a valid tsume position
P='4k4/9/4P4/9/9/9/9/9/4K4 b GP 1' # both kings, a black pawn on 5c

# --- SFEN: fields
err empty-arg            'empty input'                     moves ''
err blank-arg            'empty input'                     perft 1 '   '
err one-field            'bad SFEN: 1 field'               mate1 "$K"
err two-fields           'bad SFEN: 2 fields'              moves "$K b"
err five-fields          'more than 4 fields'              moves "$OK extra"
# --- SFEN: board shape
err eight-ranks          '8 ranks (expected 9)'            moves '4k4/9/9/9/9/9/9/9 b G'
err ten-ranks            'more than 9 ranks'               moves "$K/9 b G"
err rank-8-squares       'rank 1 has 8 squares'            moves '4k3/9/9/9/9/9/9/9/9 b G'
err rank-10-squares      'rank 1 has more than 9 squares'  moves '4k5/9/9/9/9/9/9/9/9 b G'
err last-rank-8-squares  'rank 9 has 8 squares'            moves '4k4/9/9/9/9/9/9/9/8 b G'
err rank-10-pieces       'rank 3 has more than 9 squares'  perft 1 '4k4/9/PPPPPPPPPP/9/9/9/9/9/9 b G'
err two-digits           'two digits in a row'             moves '4k4/9/9/9/9/9/9/9/54 b G'
err unknown-letter       "unknown piece letter 'X'"        moves '4k4/9/9/9/9/9/9/9/8X b G'
err zero-digit-board     "unknown piece letter '0'"        moves '4k4/9/9/9/9/9/9/9/09 b G'
err promoted-gold        "'+G' is not a piece"             moves '4k4/9/9/9/9/9/9/9/8+G b G'
err promoted-king        "'+k' is not a piece"             moves '3+k5/9/9/9/9/9/9/9/9 b G'
err plus-at-end          "'+' at the end of the board"     moves '4k4/9/9/9/9/9/9/9/8+ b G'
# --- SFEN: side and move number
err bad-side             "side to move must be 'b' or 'w', got 'x'"  moves "$K x G"
err long-side            "side to move must be 'b' or 'w', got 'bw'" moves "$K bw G"
err move-number-zero     'move number must be 1 or more'   moves "$K b G 0"
err move-number-letters  "move number 'x1' is not a number" moves "$K b G x1"
err move-number-huge     'is too large'                    moves "$K b G 12345678901"
# --- SFEN: hands
err hand-letter          "bad SFEN hand: unknown piece letter 'X'" moves "$K b X"
err hand-king            'a king cannot be in hand'        moves "$K b K"
err hand-zero-count      'leading zero or zero count'      moves "$K b 0G"
err hand-leading-zero    'leading zero or zero count'      moves "$K b 02G"
err hand-count-one       'count 1 (write a single piece'   moves "$K b 1G"
err hand-count-no-letter 'count 2 without a piece letter'  moves "$K b G2"
err hand-duplicate       "'G' appears twice"               moves "$K b GSG"
err hand-too-many-pawns  'too many pawns: 19 in hand'      moves "$K b 19P"
err hand-huge-count      'bad SFEN hand: count too large'  moves "$K b 123456789012345678901P"
err hand-count-1000      'too many pawns: 100 in hand'     moves "$K b 100P"
err hand-too-many-rooks  'too many rooks: 3 in hand'       moves "$K b 3R"
err set-too-many-pawns   'too many pawns: 19 on board and in hands' moves --strict-hands '4k4/9/9/9/9/9/PPPPPPPPP/9/9 b 10P'
err set-too-many-rooks   'too many rooks: 3 on board and in hands'  moves '4k4/9/9/9/9/9/9/9/RR7 b R'
err set-too-many-golds   'too many golds: 5 on board and in hands'  moves '4k4/9/9/9/9/9/9/9/GGG6 b 2G'
# --- SFEN: kings and rules
err two-black-kings      'more than one black king'        moves '4k4/9/9/9/9/9/9/9/K7K b G'
err two-white-kings      'more than one white king'        moves '4k3k/9/9/9/9/9/9/9/9 b G'
err no-defender-king     'the defender (white, not to move) has no king' moves '9/9/9/9/9/9/9/9/4K4 b G'
err no-defender-king-w   'the defender (black, not to move) has no king' mate1 "$K w G"
err nifu-black           'two black pawns on file 5 (nifu)' moves '4k4/9/9/9/4P4/9/4P4/9/9 b G'
err nifu-white           'two white pawns on file 9 (nifu)' moves '4k4/p8/9/p8/9/9/9/9/9 b G'
err dead-black-pawn      'black pawn on 9a can never move'  moves 'P3k4/9/9/9/9/9/9/9/9 b G'
err dead-black-lance     'black lance on 1a can never move' moves '4k3L/9/9/9/9/9/9/9/9 b G'
err dead-black-knight    'black knight on 9b can never move' moves '4k4/N8/9/9/9/9/9/9/9 b G'
err dead-white-pawn      'white pawn on 9i can never move'  moves '4k4/9/9/9/9/9/9/9/p8 b G'
err dead-white-lance     'white lance on 9i can never move' moves '4k4/9/9/9/9/9/9/9/l8 b G'
err dead-white-knight    'white knight on 9h can never move' moves '4k4/9/9/9/9/9/9/n8/9 b G'
err not-to-move-in-check 'the side not to move (white) is in check' moves '4k4/4G4/9/9/9/9/9/9/9 b G'
err not-to-move-in-check-w 'the side not to move (black) is in check' moves '4k4/9/9/9/9/9/9/4r4/4K4 w G'

# --- USI moves (kif replays them)
err move-bad-to-square   "'5j' is not a square"            kif "$P" moves 5c5j
err move-bad-from-square "'0a' is not a square"            kif "$P" moves 0a5b
err move-too-short       'expected 4 or 5 characters'      kif "$P" moves 5c5
err move-too-long        'expected 4 or 5 characters'      kif "$P" moves 5c5b++
err move-bad-suffix      "only '+' may follow the destination" kif "$P" moves 5c5bx
err drop-lowercase       'a drop is like P*5e'             kif "$P" moves 'g*5b'
err drop-king            'a drop is like P*5e'             kif "$P" moves 'K*5b'
err drop-promoted        'a drop is like P*5e'             kif "$P" moves 'G*5b+'
err drop-bad-square      "'5z' is not a square"            kif "$P" moves 'G*5z'
err drop-not-in-hand     "no rook in black's hand"         kif "$P" moves 'R*5b'
err drop-occupied        "illegal move 'G*5c': 5c is occupied" kif "$P" moves 'G*5c'
err drop-nifu            'already has a pawn on file 5 (nifu)' kif "$P" moves 'P*5d'
err drop-dead            'could never move from 1a (dead drop)' kif "$P" moves 5i5h 5a4a 'P*1a'
err move-from-empty      "no piece on 1a"                  kif "$P" moves 1a1b
err move-opponent-piece  "the piece on 5a is not black's"  kif "$P" moves 5a5b
err move-cannot-reach    'the piece on 5c cannot reach 5a' kif "$P" moves 5c5a
err move-onto-own-piece  '5i holds a black piece'          kif '4k4/9/9/9/9/9/9/4G4/4K4 b G' moves 5h5i
err move-leaves-check    'leaves the black king in check'  kif '4k4/9/9/9/4r4/9/9/4G4/4K4 b G' moves 5h4h
err drop-ignores-check   'leaves the black king in check'  kif '4k4/9/9/9/9/4r4/9/9/4K4 b G' moves 'G*1a'
err pawn-drop-mate       'pawn-drop mate (uchifuzume)'     kif '8k/6G2/9/7N1/9/9/9/9/9 b P' moves 'P*1b'
err must-promote         'it must promote'                 kif '4k4/9/9/9/9/9/9/9/L3K4 b G' moves 9i9a
err king-cannot-promote  'this piece cannot promote'       kif "$P" moves 5i5h 5a4a 5h5g+
err promote-outside-zone 'promotion needs a start or end in the promotion zone' kif '4k4/9/9/9/9/9/9/L8/4K4 b G' moves 9h9g+
err move-number-in-error 'move 3 (5b5a):'                  kif "$P" moves 5c5b+ 5a5b 5b5a
err kif-no-moves-word    "illegal move 'P*5b'"             kif "$P" 'P*5b'

# --- command line
err no-command           'usage: tsumegen COMMAND'
err unknown-command      "unknown command 'frobnicate'"    frobnicate
err perft-no-depth       'missing DEPTH'                   perft
err perft-depth-0        "DEPTH must be 1..12, got '0'"    perft 0
err perft-depth-13       "DEPTH must be 1..12, got '13'"   perft 13
err perft-depth-abc      "DEPTH must be 1..12, got 'abc'"  perft abc
err perft-depth-neg      "DEPTH must be 1..12, got '-1'"   perft -1
err perft-depth-trailing "DEPTH must be 1..12, got '2x'"   perft 2x
err perft-bad-sfen       'bad SFEN: 1 field'               perft 1 nonsense
err perft-unknown-option "unknown option '--bogus'"        perft 1 --bogus
err moves-unknown-option "unknown option '--divide'"       moves --divide "$OK"
err mate1-checks-option  "unknown option '--checks'"       mate1 --checks "$OK"
err checks-and-evasions  '--checks and --evasions exclude each other' moves --checks --evasions "$OK"
err evasions-not-in-check '--evasions: the side to move is not in check' moves --evasions "$OK"
err kif-missing-sfen     'missing SFEN'                    kif
err kif-comment-no-value '--comment needs a value'         kif --comment
err solve-variation-nodes-0 "--variation-nodes must be a whole number in 1..1000000000000000000, got '0'" solve --variation-nodes 0 "$OK"
err solve-variation-depth-0 "--variation-depth must be a whole number in 1..1000, got '0'" solve --variation-depth 0 "$OK"
err solve-max-length-0  "--max-length must be a whole number in 1..999, got '0'" solve --max-length 0 "$OK"
err solve-max-length-x  "--max-length must be a whole number in 1..999, got 'x'" solve --max-length x "$OK"
# numbers in options (host/cli.c): a fraction, an overflow, an empty value and a
# trailing letter are refused, never truncated or wrapped
err solve-nodes-fraction "--nodes must be a whole number in 0..1000000000000000000, got '2.5'" solve --nodes 2.5 "$OK"
err solve-nodes-empty    "--nodes must be a whole number"  solve --nodes '' "$OK"
err solve-nodes-overflow "got '99999999999999999999'"      solve --nodes 99999999999999999999 "$OK"
err solve-table-every-x  "--table-every must be a whole number in 0..1000000000, got 'x'" solve --table "$tmp/t" --table-every x "$OK"
err solve-table-no-file "--table needs a value"         solve --table
err solve-time-negative  "--time must be a whole number in 0..1000000000000, got '-5'" solve --time -5 "$OK"
err solve-threads-zero   "--threads must be a whole number in 1..1024, got '0'" solve --threads 0 "$OK"
err solve-hash-trailing  "--hash must be a whole number in 1..1048576, got '64M'" solve --hash 64M "$OK"
err solve-hash-max-below "--hash-max 32 is less than --hash 64" solve --hash 64 --hash-max 32 "$OK"
err solve-hash-max-memory "is more than this machine's" solve --hash-max 1048576 "$OK"
err solve-yozume-depth   "--yozume-depth must be a whole number in 0..900, got '901'" solve --yozume-depth 901 "$OK"
err solve-nodes-none     '--nodes needs a value'           solve --nodes
err compose-pop-fraction "--pop must be a whole number in 2..100000, got '2.5'" compose ga --pop 2.5
err compose-seed-inexact "--seed must be a whole number"   compose ga --seed 1.5e20
err compose-mutation-nan "--mutation must be a number in 0..1, got 'nan'" compose ga --mutation nan
err compose-rate-high    "--archive-rate must be a number in 0..1, got '1.5'" compose ga --archive-rate 1.5
# --resume without a checkpoint: said before the screening device opens (it once
# built the OpenCL program first, seconds on pocl, then named the missing file)
mkdir -p "$tmp/empty-run"
"$TG" compose ga --resume --out "$tmp/empty-run" </dev/null >/dev/null 2>"$tmp/resume-err"; rc=$?
if [ "$rc" = 2 ] && grep -q "resume: cannot open $tmp/empty-run/checkpoint.txt" "$tmp/resume-err" \
    && ! grep -qi "device" "$tmp/resume-err"; then pass=$((pass + 1))
else fail=$((fail + 1)); echo "FAIL: compose-resume-no-checkpoint: exit $rc, $(head -c 300 "$tmp/resume-err")"; fi
err compose-extend-resume-none "resume: cannot open"    compose extend --resume --out "$tmp/empty-run"
# bench solve away from the repository root finds no set: an error, not an empty success
tg_abs="$(cd "$(dirname "$TG")" && pwd)/tsumegen"
(cd "$tmp" && "$tg_abs" bench solve --count 1 >/dev/null 2>"$tmp/bench-err"); rc=$?
if [ "$rc" = 2 ] && grep -q "no problem set found" "$tmp/bench-err"; then pass=$((pass + 1))
else fail=$((fail + 1)); echo "FAIL: bench-solve-no-sets: exit $rc, $(head -c 200 "$tmp/bench-err")"; fi
err bench-repeat-zero    "--repeat must be a whole number in 1..100, got '0'" bench --repeat 0
err bench-nodes-negative "--nodes must be a whole number in 1..1000000000000000, got '-1'" bench confirm --nodes -1
err bench-count-trailing "--count must be a whole number in 1..100000000, got '5x'" bench solve --count 5x
err bench-threads-none   '--threads needs a value'         bench solve --threads
# a bad points file on each screen path, under the sanitizers without a leak
err screen-points-missing "cannot open points file '$tmp/none.txt'" screen --points "$tmp/none.txt"
err screen-verify-points "cannot open points file '$tmp/none.txt'" screen --verify 100 --points "$tmp/none.txt"
err screen-generate-points "cannot open points file '$tmp/none.txt'" screen --generate 100 --points "$tmp/none.txt"
err bench-screen-points  "cannot open points file '$tmp/none.txt'" bench screen --points "$tmp/none.txt"
err screen-batch-zero    "--batch must be a whole number in 1..4194304, got '0'" screen --batch 0
err screen-seed-letters  "--seed must be a whole number in 0..2147483647, got 'abc'" screen --generate 5 --seed abc
err screen-points-none   '--min-points needs a value'      screen --min-points
err screen-points-text   "--min-points must be a number in -1e+06..1e+06, got 'lots'" screen --min-points lots
err solve-max-length-none '--max-length needs a value'     solve --max-length
# a table larger than the machine: refused before any search (it once answered
# "unknown" with exit 0 when the allocation failed)
err solve-hash-too-big   "more than this machine's"        solve --hash 1048576 "$OK"
err solve-hash-none      '--hash needs a value'            solve --hash
err solve-out-none       '--out needs a value'             solve --out
err solve-out-unwritable 'cannot write'                    solve --out "$tmp/no/such/dir/answers.jsonl" "$OK"
# --kif DIR that cannot be made or written: refused before any search (the answers
# once came out with exit 0 and a message per missing file)
err solve-kif-no-parent  "--kif $tmp/no/such: cannot write KIF files there (No such file or directory)" solve --kif "$tmp/no/such" "$OK"
: >"$tmp/plain-file"
err solve-kif-a-file     "cannot write KIF files there (not a directory)" solve --kif "$tmp/plain-file" "$OK"
printf '{"sfen":"4k4/9/9/9/9/9/9/9/9 b P 1","result":"nomate"}\n' >"$tmp/other.jsonl"
err solve-out-other      'does not answer input 1'         solve --out "$tmp/other.jsonl" "$OK"
err args-too-long        'arguments too long'              moves "$(printf 'x%.0s' $(seq 1 5000))"
err usi-argument          "takes no arguments"              usi --hash 64

# --- stdin batch mode (a bad line: "error: ..." on stdout, the message on stderr, status 2)
batch batch-bad-sfen     'bad SFEN: 2 fields'              "$OK
$K b
$OK" moves
batch batch-mate1-nifu   'two black pawns on file 5 (nifu)' '4k4/9/9/9/4P4/9/4P4/9/9 b G' mate1
batch batch-checks       "unknown piece letter 'Q'"        '4k4/9/9/9/9/9/9/9/8Q b G' moves --checks
batch batch-evasions     '--evasions: the side to move is not in check' "$OK" moves --evasions
batch batch-overlong     'input line too long'             "$(printf '9%.0s' $(seq 1 5000))" moves
batch batch-overlong-mate1 'input line too long'           "$OK
$(printf 'k%.0s' $(seq 1 9000))" mate1
# solve (a JSON line with result "error" for it) once parsed its placeholder as the
# SFEN and said "bad SFEN: 2 fields"
printf '%s\n%s\n' "$OK" "$(printf '9%.0s' $(seq 1 17000))" >"$tmp/in"
check batch-overlong-solve 'input 2: input line too long (more than 16382' "$tmp/in" solve --nodes 1000
if ! grep -q '"result":"error","error":"input line too long' "$tmp/out" || [ "$(wc -l < "$tmp/out")" != 2 ]; then
    fail=$((fail + 1)); echo "FAIL: batch-overlong-solve: stdout lacks the error line or the other answer"
fi

# --- `CMD SUB --help`: SUB's own section of the usage, and a pointer to the rest
help_section() {
    local name=$1 first=$2 absent=$3
    shift 3
    "$TG" "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ "$rc" -eq 0 ] && head -1 "$tmp/out" | grep -qF -- "$first" && ! grep -qF -- "$absent" "$tmp/out"; then pass=$((pass + 1))
    else fail=$((fail + 1)); echo "FAIL: $name: status $rc, first line '$(head -1 "$tmp/out")', or '$absent' present"; fi
}
help_section help-compose-extend "usage: tsumegen compose extend" "usage: tsumegen compose ga" compose extend --help
help_section help-compose-random "usage: tsumegen compose random" "compose reverse [" compose random -h
help_section help-compose-reverse "usage: tsumegen compose reverse" "--boards N" help compose reverse
help_section help-bench-perft "usage: tsumegen bench [perft]" "bench screen" bench perft --help
help_section help-bench-solve "usage: tsumegen bench solve" "bench confirm" bench solve --help
help_section help-compose-all "usage: tsumegen compose ga" "every compose command and" compose --help
if ! grep -q "usage: tsumegen compose reverse" "$tmp/out"; then fail=$((fail + 1)); echo "FAIL: help-compose-all: compose --help lacks reverse"; fi
help_section help-solve-input "usage: tsumegen solve" "every solve command and" solve 4k4/9/4P4/9/9/9/9/9/9 --help

# --- output that cannot be written (a full disk): status 2 and a message, never a
# silent success
full() {
    local name=$1
    shift
    "$TG" "$@" </dev/null >/dev/full 2>"$tmp/err"
    local rc=$?
    if [ "$rc" -eq 2 ] && grep -q "cannot write the output" "$tmp/err"; then pass=$((pass + 1))
    else fail=$((fail + 1)); echo "FAIL: $name: exit status $rc to a full disk"; head -3 "$tmp/err"; fi
}
if [ -w /dev/full ]; then
    full full-solve solve --threads 1 "$OK"
    full full-perft perft 3
    full full-screen screen --generate 2000 --device omp
    full full-help --help
fi

echo "cli-errors: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
