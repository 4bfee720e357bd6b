#!/usr/bin/env bash
# Installs what tlc needs (Debian 12 packages), builds it, and compiles the
# example kernel. Safe to run again: it installs only what is missing and
# rebuilds incrementally.
#   TLC_BUILD_DIR   build directory (default: build)
#   TLC_CMAKE_ARGS  extra CMake arguments (e.g. -DTLC_WERROR=ON)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${TLC_BUILD_DIR:-build}

missing=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
command -v cc >/dev/null 2>&1 || missing+=(gcc)
command -v make >/dev/null 2>&1 || missing+=(make)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
have_pkg libyaml-dev || missing+=(libyaml-dev)
[ -x /usr/lib/llvm-14/bin/FileCheck ] || missing+=(llvm-14-tools)
have_pkg libclang-14-dev || missing+=(libclang-14-dev)
# clang and its runtimes build the fuzzing target (scripts/test.sh, TLC_TEST_FUZZ_SECONDS).
command -v clang >/dev/null 2>&1 || missing+=(clang-14)
have_pkg libclang-rt-14-dev || missing+=(libclang-rt-14-dev)
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# shellcheck disable=SC2086
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo ${TLC_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j"$(nproc)" >/dev/null
"$build/bin/tlc" examples/elementwise_add.tl -o "$build/elementwise_add.cu"
echo "setup: built $build/bin/tlc and wrote $build/elementwise_add.cu"
