#!/usr/bin/env bash
# tsumegen screen end to end: the OpenCL kernel (pocl in CI) against the CPU
# reference bit for bit on 1,000,000 random tsume-like boards (100,000 under the
# sanitizers), JSON output on hand-made boards, mate1 against `tsumegen mate1`
# (the command the cshogi oracle checks), mate3 on published 3- and 5-ply
# problems, OpenCL vs OpenMP output, the binary cache and error handling.
. "$(dirname "$0")/harness.sh"
T="$BIN/tsumegen"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TSUMEGEN_CACHE_DIR="$tmp/cache"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}  # pocl's allocations outlive main
case "$BIN" in *san*) N=100000; M3=10 ;; *) N=1000000; M3=1 ;; esac

# 1. devices; is there an OpenCL device at all?
"$T" devices >"$tmp/dev" 2>&1 && ok "devices lists" || bad "devices exits 0"
have_cl=0
grep -qE '^[0-9]+ ' "$tmp/dev" && have_cl=1
echo "   OpenCL devices: $(grep -cE '^[0-9]+ ' "$tmp/dev")"

# 2. kernel == reference, bit for bit
if "$T" screen --verify "$N" --mate3-every "$M3" --verbose >"$tmp/v" 2>"$tmp/ve"; then
    ok "verify: $N boards, kernel == CPU reference ($(grep -o 'device [^:]*' "$tmp/v" | head -1))"
else
    cat "$tmp/v" "$tmp/ve" | head -20; bad "verify: kernel == CPU reference"
fi
grep -E '^(verify|device|mate3)' "$tmp/v" | sed 's/^/   /'
if [ "$have_cl" = 1 ]; then
    grep -q 'OpenMP' "$tmp/v" && bad "verify ran on OpenCL (it fell back to OpenMP: $(cat "$tmp/ve"))" || ok "verify ran on the OpenCL device"
fi

# 3. JSON lines on hand-made boards, in order, malformed lines included
cat >"$tmp/in" <<'EOF'
4k4/9/4P4/9/9/9/9/9/9 b G 1
this is not a board
7k1/9/7P1/9/9/9/9/9/7L1 b - 1
4k4/4P4/9/9/9/9/9/9/9 b G 1
4k4/9/4p4/9/9/9/4p4/9/9 b G 1
+B8/9/2r6/9/k8/2+B6/9/9/9 b r4g4s4n4l18p 1
EOF
cat >"$tmp/want" <<'EOF'
{"legal":true,"reason":"ok","checks":7,"mate1":["G*5b"]
{"legal":false,"reason":"sfen","checks":0,"mate1":[],"mate3":false,"points":0.000,"futile_mate1":[]}
{"legal":true,"reason":"ok","checks":2,"mate1":["2c2b+"],"mate3":true
{"legal":false,"reason":"defender_in_check","checks":0,"mate1":[],"mate3":false,"points":0.000,"futile_mate1":[]}
{"legal":false,"reason":"nifu","checks":0,"mate1":[],"mate3":false,"points":0.000,"futile_mate1":[]}
{"legal":true,"reason":"ok","checks":
EOF
"$T" screen <"$tmp/in" >"$tmp/out" 2>"$tmp/err"
if [ "$(wc -l <"$tmp/out")" -eq 6 ] && paste -d'\t' "$tmp/want" "$tmp/out" | awk -F'\t' 'index($2, $1) != 1 { bad = 1 } END { exit bad }'; then
    ok "screen JSON lines"
else
    diff "$tmp/want" "$tmp/out" | head; bad "screen JSON lines"
fi
sed -n 6p "$tmp/out" | grep -q '"mate1":\[\],"mate3":true' && ok "3-ply problem: mate3 without mate1" || bad "3-ply problem: mate3 without mate1"
"$T" screen --no-mate3 <"$tmp/in" | head -1 | grep -q '"mate3":null' && ok "--no-mate3 prints null" || bad "--no-mate3 prints null"

# 4. mate1 equals `tsumegen mate1` (the oracle-checked command) on 5,000 published problems,
#    mate3 holds for 3-ply problems and never for 5-ply ones (soundness direction)
D=data/third_party/shogiboardq
if ls $D/tsume_*ply_*.txt >/dev/null 2>&1; then
    grep -hv '^#' $D/tsume_*ply_*.txt | sed 's/ moves .*//' | grep . >"$tmp/pos"
    "$T" mate1 <"$tmp/pos" >"$tmp/m1" 2>/dev/null
    "$T" screen <"$tmp/pos" | sed -E 's/.*"mate1":\[([^]]*)\].*/\1/; s/"//g; s/,/ /g' >"$tmp/s1"
    # both list the moves in core's gen_checks order
    if [ -s "$tmp/pos" ] && [ "$(wc -l <"$tmp/m1")" -eq "$(wc -l <"$tmp/pos")" ] && cmp -s "$tmp/m1" "$tmp/s1"; then
        ok "screen mate1 == tsumegen mate1 on $(wc -l <"$tmp/pos") problems"
    else
        bad "screen mate1 == tsumegen mate1"
    fi
    three=$(grep -hv '^#' $D/tsume_3ply_*.txt | sed 's/ moves .*//' | grep . | "$T" screen | grep -c '"mate3":true')
    total3=$(grep -hv '^#' $D/tsume_3ply_*.txt | grep -c .)
    five=$(grep -hv '^#' $D/tsume_5ply_*.txt | sed 's/ moves .*//' | grep . | "$T" screen | grep -c '"mate3":true')
    echo "   3-ply problems with mate3: $three / $total3; 5-ply problems with mate3: $five"
    [ "$three" -ge $((total3 * 95 / 100)) ] && ok "mate3 finds >= 95% of 3-ply problems" || bad "mate3 finds >= 95% of 3-ply problems ($three / $total3)"
    [ "$five" -eq 0 ] && ok "mate3 never claims a 5-ply problem" || bad "mate3 claims $five 5-ply problems"
    # a futile-only mate-in-1 would be a 1-ply tsume mate: none of 5,000 problems (3..13 ply) has one
    fut=$(grep -c '"futile_mate1":\["' <("$T" screen --no-mate3 <"$tmp/pos"))
    [ "$fut" -eq 0 ] && ok "futile_mate1 empty on all 3..13-ply problems" || bad "futile_mate1 claims $fut of the 3..13-ply problems"
else
    bad "data/third_party/shogiboardq problems missing"
fi
# ... nor the Edo problems (9..611 ply)
if [ -f data/edo/zukou.tsv ]; then
    cut -f3 data/edo/zukou.tsv data/edo/musou.tsv | grep -v '^sfen' | grep / >"$tmp/edo"
    fut=$(grep -c '"futile_mate1":\["' <("$T" screen --no-mate3 <"$tmp/edo"))
    m1=$(grep -c '"mate1":\["' <("$T" screen --no-mate3 <"$tmp/edo"))
    [ "$fut" -eq 0 ] && [ "$m1" -eq 0 ] && ok "no mate1 or futile_mate1 on $(wc -l <"$tmp/edo") Edo problems" || bad "Edo problems: $m1 mate1, $fut futile_mate1"
fi

# 5. OpenCL and OpenMP print the same lines; the program binary is cached
"$T" screen --device omp <"$tmp/pos" >"$tmp/omp" 2>/dev/null
"$T" screen <"$tmp/pos" >"$tmp/cl" 2>/dev/null
cmp -s "$tmp/omp" "$tmp/cl" && ok "OpenCL output == OpenMP output" || bad "OpenCL output == OpenMP output"
if [ "$have_cl" = 1 ]; then
    ls "$TSUMEGEN_CACHE_DIR"/screen-*.bin >/dev/null 2>&1 && ok "program binary cached" || bad "program binary cached"
    echo "startpos" | "$T" screen --verbose 2>&1 >/dev/null | grep -q 'loaded from cache' && ok "cached binary loaded" || bad "cached binary loaded"
    echo "startpos" | TSUMEGEN_DEVICE=omp "$T" screen --verbose 2>&1 >/dev/null | grep -q . && bad "TSUMEGEN_DEVICE=omp is silent" || ok "TSUMEGEN_DEVICE=omp is silent"
fi

# 6. the kernels are OpenCL C 1.2 for 64- and 32-bit devices (clang's front end, as tests/test_opencl_core.sh)
if command -v "${CLANG:-clang}" >/dev/null; then
    for k in screen screen_gen; do
    for t in spir64 spir; do
        if "${CLANG:-clang}" -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -target $t -emit-llvm -c -O1 -Werror -Wall \
              -Ibuild/gen -Icore -DTG_DEVICE_GPU=1 -DTG_DEVICE_CPU=0 -o "$tmp/k.bc" kernels/$k.cl 2>"$tmp/clang.log"; then
            ok "kernels/$k.cl compiles as OpenCL C 1.2 ($t)"
        else
            head -20 "$tmp/clang.log"; bad "kernels/$k.cl compiles as OpenCL C 1.2 ($t)"
        fi
    done
    done
    # the GPU default: tables as program-scope global variables (OpenCL C 2.0)
    if "${CLANG:-clang}" -x cl -cl-std=CL2.0 -Xclang -finclude-default-header -target spir64 -emit-llvm -c -O1 -Werror -Wall \
          -Ibuild/gen -Icore -DTG_TABLES_GLOBAL -DTG_DEVICE_GPU=1 -DTG_DEVICE_CPU=0 -o "$tmp/k.bc" kernels/screen_gen.cl 2>"$tmp/clang.log"; then
        ok "kernels/screen_gen.cl compiles as OpenCL C 2.0 with TG_TABLES_GLOBAL"
    else
        head -20 "$tmp/clang.log"; bad "kernels/screen_gen.cl compiles as OpenCL C 2.0 with TG_TABLES_GLOBAL"
    fi
fi

# 7. generated streams (core/gen.c, kernels/screen_gen.cl): device == CPU on every
#    board's digest, counters and kept list, in one pass and in two (the GPU
#    default); --generate's output equals the OpenMP path's, and its SFENs screen
#    to the same answers through the ordinary input path
case "$BIN" in *san*) G=100000; GB=200000 ;; *) G=200000; GB=1000000 ;; esac
for split in 0 1; do
    if TSUMEGEN_GEN_SPLIT=$split "$T" bench screen --gen-only --boards "$G" --gen-boards "$GB" >"$tmp/gb" 2>"$tmp/gbe"; then
        n0=$(grep -c 'mismatches 0$' "$tmp/gb")
        [ "$n0" -eq 2 ] && ok "generated streams (passes: $((split+1))): device == CPU on $G boards, both modes" \
            || { cat "$tmp/gb"; bad "generated streams (passes: $((split+1))): device == CPU"; }
    else
        cat "$tmp/gb" "$tmp/gbe" | head; bad "bench screen --gen-only (passes: $((split+1)))"
    fi
done
if [ "$have_cl" = 1 ]; then
    grep -q 'OpenCL (none)' "$tmp/gb" && bad "generated streams ran on OpenCL" || ok "generated streams ran on OpenCL"
    # two passes with pass 2 in one kernel (TSUMEGEN_GEN_STAGED=0), and staged with
    # a 300-move queue, so that boards overflow it and screen_gen_rest screens them
    for v in "TSUMEGEN_GEN_STAGED=0" "TSUMEGEN_GEN_QCAP=300"; do
        if env TSUMEGEN_GEN_SPLIT=1 $v "$T" bench screen --gen-only --no-mate3 --boards 20000 --gen-boards 100000 >"$tmp/gb" 2>"$tmp/gbe" &&
           grep -q 'mismatches 0$' "$tmp/gb"; then
            ok "generated streams, two passes, $v: device == CPU"
        else
            cat "$tmp/gb" "$tmp/gbe" | head; bad "generated streams, two passes, $v: device == CPU"
        fi
    done
fi
"$T" screen --generate 300000 --unique-mate1 --seed 9 >"$tmp/gen1" 2>"$tmp/gen1e" &&
"$T" screen --generate 300000 --unique-mate1 --seed 9 --device omp >"$tmp/gen2" 2>/dev/null
kept=$(grep -o '[0-9]* kept' "$tmp/gen1e" | grep -o '^[0-9]*')
if [ -s "$tmp/gen1" ] && cmp -s "$tmp/gen1" "$tmp/gen2" && [ "$(wc -l <"$tmp/gen1")" = "$kept" ]; then
    ok "screen --generate: device == OpenMP ($kept boards with one mate-in-1 of 300000)"
else
    head -3 "$tmp/gen1e"; bad "screen --generate: device == OpenMP"
fi
grep -vq '"mate1":\["[^",]*"\]' "$tmp/gen1" && bad "--unique-mate1 lines list one mate" || ok "--unique-mate1 lines list one mate"
sed -E 's/.*"sfen":"([^"]*)".*/\1/' "$tmp/gen1" | "$T" screen >"$tmp/gen3"
if cmp -s <(sed -E 's/^\{"index":[0-9]+,"sfen":"[^"]*",/{/' "$tmp/gen1") "$tmp/gen3"; then
    ok "generated SFENs screen to the same answers"
else
    bad "generated SFENs screen to the same answers"
fi
{ "$T" screen --generate 100000 --unique-mate1 --seed 9 && "$T" screen --generate 200000 --start 100000 --unique-mate1 --seed 9; } \
    >"$tmp/gen4" 2>/dev/null
cmp -s "$tmp/gen1" "$tmp/gen4" && ok "--start resumes a stream exactly" || bad "--start resumes a stream exactly"
# a Ctrl-C while the output waits for its reader loses no line (SA_RESTART: under
# glibc's System V signal() the write failed with EINTR and the buffered lines were gone)
mkfifo "$tmp/fifo"
"$T" screen --generate 300000 --unique-mate1 --seed 9 --device omp >"$tmp/fifo" 2>/dev/null & pid=$!
exec 3<"$tmp/fifo"
for _ in $(seq 1 200); do  # until it waits in write (Linux names that in wchan), at most 10 s
    grep -q pipe_write "/proc/$pid/wchan" 2>/dev/null && break
    sleep 0.05
done
kill -INT $pid 2>/dev/null; sleep 0.2
cat <&3 >"$tmp/gen5"; exec 3<&-
wait $pid
cmp -s "$tmp/gen2" "$tmp/gen5" && ok "Ctrl-C while the output is full loses no line ($(wc -l <"$tmp/gen5") of $(wc -l <"$tmp/gen2"))" \
    || bad "Ctrl-C while the output is full lost lines ($(wc -l <"$tmp/gen5") of $(wc -l <"$tmp/gen2"))"
"$T" screen --generate 0 >/dev/null 2>&1; [ $? -eq 2 ] && ok "--generate 0: exit 2" || bad "--generate 0: exit 2"
"$T" screen --generate 10 --min-points lots >/dev/null 2>"$tmp/e"; rc=$?
[ $rc -eq 2 ] && grep -q 'min-points' "$tmp/e" && ok "--min-points lots: exit 2" || bad "--min-points lots: exit 2 (got $rc)"

# 8. errors
echo startpos | "$T" screen --device no-such-device >/dev/null 2>"$tmp/e"; rc=$?
if [ "$have_cl" = 1 ]; then
    [ $rc -eq 2 ] && grep -q 'no OpenCL device matches' "$tmp/e" && ok "unknown --device: exit 2" || bad "unknown --device: exit 2 (got $rc)"
fi
printf 'bias x\n' >"$tmp/bad.txt"
echo startpos | "$T" screen --points "$tmp/bad.txt" >/dev/null 2>"$tmp/e"; rc=$?
[ $rc -eq 2 ] && grep -q 'bad.txt:1:' "$tmp/e" && ok "bad points file: exit 2 naming the line" || bad "bad points file: exit 2 (got $rc)"
"$T" screen --bogus </dev/null >/dev/null 2>&1; [ $? -eq 2 ] && ok "unknown option: exit 2" || bad "unknown option: exit 2"
printf 'bias 100\n' >"$tmp/flat.txt"
echo "4k4/9/4P4/9/9/9/9/9/9 b G 1" | "$T" screen --points "$tmp/flat.txt" | grep -q '"points":100.000,' && ok "--points FILE" || bad "--points FILE"

echo "screen: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
