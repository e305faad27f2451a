#!/usr/bin/env bash
# test_solve_table.sh - solve --table FILE: a lone problem's table written after a
# search stopped by its node limit and read back by the next run, which must give the
# fresh run's answer with fewer nodes; a table refused (exit 2, message naming it)
# when it belongs to another problem, is cut short or edited, is not a table, or
# comes with two inputs.  Last line: "solve-table: N passed, N failed".
. "$(dirname "$0")/harness.sh"
TG="$BIN/tsumegen"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Zuko 12 (27 plies, 余詰 in its side lines): about 0.6 M nodes in all, one thread
z12=$(grep '^zukou-012' data/edo/zukou.tsv | cut -f3)
z5=$(grep '^zukou-005' data/edo/zukou.tsv | cut -f3)
run() { "$TG" solve --threads 1 --hash 64 "$@"; }
# the answer without its cost and the notes that depend on the limit
answer() { sed -E 's/"nodes":[0-9]+,"ms":[0-9.]+//' "$1"; }
nodes() { grep -o '"nodes":[0-9]*' "$1" | cut -d: -f2; }

run "$z12" >"$tmp/fresh" 2>"$tmp/fresh.err"
run --nodes 150000 --table "$tmp/t" "$z12" >"$tmp/cut" 2>"$tmp/cut.err"
if [ -s "$tmp/t" ] && grep -q '"result":"unknown"\|"length_exact":false\|flaw_analysis_incomplete' "$tmp/cut" &&
   grep -q 'entries written to' "$tmp/cut.err"; then ok "a search stopped by --nodes writes its table"
else bad "a search stopped by --nodes writes its table: $(head -c 300 "$tmp/cut") $(cat "$tmp/cut.err")"; fi

run --table "$tmp/t" "$z12" >"$tmp/resumed" 2>"$tmp/resumed.err"
if grep -q 'entries read from' "$tmp/resumed.err" && [ "$(answer "$tmp/resumed")" = "$(answer "$tmp/fresh")" ]; then
    ok "the resumed run gives the fresh run's answer"
else bad "the resumed run gives the fresh run's answer: $(head -c 400 "$tmp/resumed") vs $(head -c 400 "$tmp/fresh")"; fi
f=$(nodes "$tmp/fresh"); r=$(nodes "$tmp/resumed")
if [ -n "$f" ] && [ -n "$r" ] && [ "$r" -lt "$f" ]; then ok "the resumed run searches less ($r nodes against $f)"
else bad "the resumed run searches less ($r nodes against $f)"; fi

# a smaller table than the writer's takes what it has room for; the answer is the same
cp "$tmp/t" "$tmp/small"
"$TG" solve --threads 1 --hash 1 --table "$tmp/small" "$z12" >"$tmp/small.out" 2>"$tmp/small.err"
if grep -q 'some dropped' "$tmp/small.err" && [ "$(answer "$tmp/small.out")" = "$(answer "$tmp/fresh")" ]; then
    ok "a smaller --hash drops entries and gives the same answer"
else bad "a smaller --hash drops entries and gives the same answer: $(cat "$tmp/small.err")"; fi
# a growing table (a lone problem's default) first grows to the file's size: none dropped
cp "$tmp/t" "$tmp/grow"
"$TG" solve --threads 1 --hash 1 --hash-max 64 --table "$tmp/grow" "$z12" >"$tmp/grow.out" 2>"$tmp/grow.err"
if grep -q 'entries read from' "$tmp/grow.err" && ! grep -q 'some dropped' "$tmp/grow.err" &&
   [ "$(answer "$tmp/grow.out")" = "$(answer "$tmp/fresh")" ]; then
    ok "a growing table takes every entry of the file and gives the same answer"
else bad "a growing table takes every entry of the file and gives the same answer: $(cat "$tmp/grow.err")"; fi

# refusals: exit 2, the file named, no answer line
refused() {
    local name=$1 want=$2
    shift 2
    "$TG" solve --threads 1 --hash 64 "$@" >"$tmp/r.out" 2>"$tmp/r.err"
    local rc=$?
    if [ "$rc" -eq 2 ] && grep -qF -- "$want" "$tmp/r.err" && ! grep -q '"result":"mate"' "$tmp/r.out" &&
       ! grep -qE 'runtime error|AddressSanitizer|LeakSanitizer' "$tmp/r.err"; then ok "$name"
    else bad "$name: exit $rc, $(cat "$tmp/r.err")"; fi
}
refused "another problem's table" "$tmp/t: the table of another problem" --table "$tmp/t" "$z5"
size=$(stat -c %s "$tmp/t")
head -c $((size - 100)) "$tmp/t" >"$tmp/cut.t"
refused "a table cut short" "$tmp/cut.t: damaged" --table "$tmp/cut.t" "$z12"
cp "$tmp/t" "$tmp/edit.t"
printf '\x55' | dd of="$tmp/edit.t" bs=1 seek=$((size / 2)) conv=notrunc status=none
refused "an edited table" "$tmp/edit.t: damaged (its checksum" --table "$tmp/edit.t" "$z12"
cp "$tmp/t" "$tmp/long.t"
echo x >>"$tmp/long.t"
refused "a table with bytes after its sum" "$tmp/long.t: damaged" --table "$tmp/long.t" "$z12"
echo "not a table" >"$tmp/text.t"
refused "a text file" "$tmp/text.t: not a tsumegen table" --table "$tmp/text.t" "$z12"
refused "a directory" "$tmp: Is a directory" --table "$tmp" "$z12"
refused "two inputs" "give exactly one input (got 2)" --table "$tmp/t2" "$z12" "$z5" </dev/null
printf '%s\n%s\n' "$z12" "$z5" >"$tmp/two.in"
"$TG" solve --threads 1 --table "$tmp/t2" <"$tmp/two.in" >"$tmp/r.out" 2>"$tmp/r.err"
if [ $? -eq 2 ] && grep -q 'exactly one input' "$tmp/r.err" && [ ! -e "$tmp/t2" ]; then ok "two inputs on stdin"
else bad "two inputs on stdin: $(cat "$tmp/r.err")"; fi

# a table that cannot be written: the answer still comes, then exit 2 naming the file
run --table "$tmp/no/such/dir/t" "$z5" >"$tmp/w.out" 2>"$tmp/w.err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q '"result":"mate"' "$tmp/w.out" && grep -q "cannot write $tmp/no/such/dir/t" "$tmp/w.err"; then
    ok "an unwritable table: the answer, then exit 2"
else bad "an unwritable table: exit $rc, $(cat "$tmp/w.err")"; fi
# the earlier good table is untouched by the refusals and no .tmp stays behind
if [ ! -e "$tmp/t.tmp" ] && [ ! -e "$tmp/cut.t.tmp" ]; then ok "no FILE.tmp left behind"
else bad "no FILE.tmp left behind"; fi

# a checkpoint (--table-every) survives a kill -9: Zuko 11 (49 plies, about 8 s
# here), killed after its first checkpoint, resumed to its record length
case "$BIN" in
*san*) ;;  # (some minutes under the sanitizers: the release build covers it)
*)
    z11=$(grep '^zukou-011' data/edo/zukou.tsv | cut -f3)
    run --table "$tmp/k" --table-every 1 "$z11" >"$tmp/k.out" 2>"$tmp/k.err" &
    pid=$!
    for _ in $(seq 300); do grep -q checkpoint "$tmp/k.err" && break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    if grep -q checkpoint "$tmp/k.err" && [ ! -s "$tmp/k.out" ]; then
        run --table "$tmp/k" "$z11" >"$tmp/k2.out" 2>"$tmp/k2.err"
        if grep -q 'entries read from' "$tmp/k2.err" && grep -q '"length":49,' "$tmp/k2.out" && grep -q '"perfect":true' "$tmp/k2.out"; then
            ok "a checkpoint survives kill -9 and resumes to the record"
        else bad "a checkpoint survives kill -9 and resumes to the record: $(cat "$tmp/k2.err") $(head -c 300 "$tmp/k2.out")"; fi
    else bad "a checkpoint before the kill: $(cat "$tmp/k.err")"; fi
    # Ctrl-C: the answer says interrupted, the table is written, exit 130
    # (from python: a background job of a script would inherit SIGINT ignored)
    python3 - "$TG" "$tmp" "$z11" <<'PY'
import signal, subprocess, sys, time
tg, tmp, sfen = sys.argv[1:]
with open(tmp + "/c.out", "w") as out, open(tmp + "/c.err", "w") as err:
    p = subprocess.Popen([tg, "solve", "--threads", "1", "--hash", "64", "--table", tmp + "/c", "--table-every", "0", sfen],
                         stdout=out, stderr=err)
    time.sleep(1)
    p.send_signal(signal.SIGINT)
    open(tmp + "/c.rc", "w").write(str(p.wait()))
PY
    rc=$(cat "$tmp/c.rc")
    if [ "$rc" -eq 130 ] && grep -q '"interrupted: ' "$tmp/c.out" && grep -q 'entries written to' "$tmp/c.err" && [ -s "$tmp/c" ]; then
        ok "Ctrl-C writes the table"
    else bad "Ctrl-C writes the table: exit $rc, $(cat "$tmp/c.err")"; fi
    ;;
esac

echo "solve-table: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
