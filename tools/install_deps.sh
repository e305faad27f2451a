#!/usr/bin/env bash
# Installs what tsumegen needs on Debian/Ubuntu when it can (root or sudo),
# otherwise names the exact packages and stops.
#   tools/install_deps.sh          build + run dependencies
#   tools/install_deps.sh --test   also the test oracles (cshogi, python-shogi)
set -u
want_test=0
[ "${1:-}" = "--test" ] && want_test=1

# Debian packages: compiler, make, OpenMP (libgomp comes with gcc), clang for the
# OpenCL C front end test, OpenCL ICD loader + headers + pocl (CPU OpenCL) for the screen.
APT_PKGS="gcc make libc6-dev clang python3 python3-pip ocl-icd-opencl-dev opencl-headers pocl-opencl-icd"
# the tests also build with clang, whose OpenMP runtime is a package of its own
[ "$want_test" = 1 ] && APT_PKGS="$APT_PKGS libomp-dev"
missing=""
for p in $APT_PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
# python3/pip may come from elsewhere (pyenv): accept working commands instead of packages
command -v python3 >/dev/null && missing=$(echo "$missing" | sed 's/ python3-pip//; s/ python3\b//')
if [ -n "${missing// /}" ]; then
    if [ "$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO=sudo; else SUDO=none; fi
    if [ "$SUDO" = none ] || ! command -v apt-get >/dev/null; then
        echo "tsumegen: missing packages:$missing" >&2
        echo "install them with: sudo apt-get install -y$missing" >&2
        exit 1
    fi
    echo "installing:$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq >/dev/null && $SUDO apt-get install -y -qq $missing >/dev/null || {
        echo "tsumegen: apt-get install failed for:$missing" >&2; exit 1; }
fi
if [ "$want_test" = 1 ]; then
    for mod in cshogi shogi; do
        python3 -c "import $mod" 2>/dev/null && continue
        pkg=$mod; [ "$mod" = shogi ] && pkg=python-shogi
        echo "installing python package $pkg" >&2
        python3 -m pip install -q "$pkg" 2>/dev/null || python3 -m pip install -q --break-system-packages "$pkg" || {
            echo "tsumegen: cannot install the test oracle '$pkg' (pip install $pkg)" >&2; exit 1; }
    done
fi
exit 0
