#!/usr/bin/env bash
# The fuzz target (tests/fuzz/fuzz_input.c) over its checked-in corpus: every input
# that a fuzzing run kept for new coverage, and every input that once broke an
# invariant (tests/fuzz/corpus/crash-*, kept as regressions).  Under make check the
# replay runs with AddressSanitizer and UBSan.  Last line: "N passed, N failed".
. "$(dirname "$0")/harness.sh"
files=(tests/fuzz/corpus/*)
if [ "${#files[@]}" -lt 50 ]; then
    bad "the corpus has ${#files[@]} inputs; expected the checked-in ones (50 or more)"
elif out=$("$BIN/fuzz_replay" "${files[@]}" 2>&1); then
    ok "fuzz_replay over ${#files[@]} inputs: $(echo "$out" | tail -1)"
else
    bad "fuzz_replay: $(echo "$out" | tail -5)"
fi
echo "fuzz_replay: $pass passed, $fail failed"
