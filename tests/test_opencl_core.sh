#!/usr/bin/env bash
# Proves core/ is OpenCL C 1.2: compiles every core source with clang's OpenCL
# front end (to SPIR, so code generation runs too), and checks that the rules
# that clang would accept anyway (no ctz, no 128-bit integers) hold in the text.
. "$(dirname "$0")/harness.sh"
CLANG=${CLANG:-clang}
if ! command -v "$CLANG" >/dev/null; then
    echo "FAIL clang not found: install the Debian package 'clang' (the OpenCL C front end)"; echo "0 passed, 1 failed"; exit 1
fi
[ -f build/gen/tables.inc ] || make -s build/gen/tables.inc
out=$(mktemp -d)
if "$CLANG" -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -target spir64 -emit-llvm -c -O1 \
      -Werror -Wall -Ibuild/gen -Icore -o "$out/core.bc" tests/cl_core.cl 2>"$out/log"; then
    ok "core compiles as OpenCL C 1.2 (spir64)"
else
    cat "$out/log"; bad "core compiles as OpenCL C 1.2 (spir64)"
fi
if "$CLANG" -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -target spir -emit-llvm -c -O1 \
      -Werror -Wall -Ibuild/gen -Icore -o "$out/core32.bc" tests/cl_core.cl 2>"$out/log"; then
    ok "core compiles as OpenCL C 1.2 (32-bit spir)"
else
    cat "$out/log"; bad "core compiles as OpenCL C 1.2 (32-bit spir)"
fi
# the host path of platform.h may use builtins; everything else must not
if grep -nE '__builtin_ctz|__int128|ctz\(' core/*.c core/*.h | grep -v 'core/platform.h' ; then
    bad "core avoids ctz and 128-bit integers"
else
    ok "core avoids ctz and 128-bit integers"
fi
rm -rf "$out"
echo "opencl-core: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
