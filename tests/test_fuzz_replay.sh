#!/usr/bin/env bash
# The fuzz target (tests/fuzz/fuzz_input.c) over its checked-in corpus: every input
# that a fuzzing run kept for new coverage, and every input that once broke an
# invariant (tests/fuzz/corpus/crash-*, kept as regressions).  Under make check the
# replay runs with AddressSanitizer and UBSan.  Last line: "N passed, N failed".
. "$(dirname "$0")/harness.sh"
files=(tests/fuzz/corpus/*)
if [ "${#files[@]}" -lt 50 ]; then
    bad "the corpus has ${#files[@]} inputs; expected the checked-in ones (50 or more)"
else
    # two halves side by side (the cores; 137 s in one process under the sanitizers)
    half=$(( (${#files[@]} + 1) / 2 ))
    d=$(mktemp -d)
    "$BIN/fuzz_replay" "${files[@]:0:half}" >"$d/0" 2>&1 & pids=($!)
    "$BIN/fuzz_replay" "${files[@]:half}" >"$d/1" 2>&1 & pids+=($!)
    for k in 0 1; do
        if wait "${pids[k]}"; then ok "fuzz_replay over half $k of ${#files[@]} inputs: $(tail -1 "$d/$k")"
        else bad "fuzz_replay, half $k: $(tail -5 "$d/$k")"; fi
    done
    rm -rf "$d"
fi
echo "fuzz_replay: $pass passed, $fail failed"
