# A stand-in for nvcc in smith-split.test: "compiles" a gzip-free harness
# FILE.cu into a shell script that prints a PASS check line per kernel of its
# TLH-META lines, but FAIL for the kernel named in $FAKE_FAIL, and refuses a
# file whose name contains $FAKE_NVCC_FAIL.
# usage: sh fake_nvcc.sh FLAGS... FILE.cu -o EXE
while [ $# -gt 2 ]; do
  case $1 in *.cu) cu=$1 ;; esac
  shift
done
exe=$2
case $cu in *"${FAKE_NVCC_FAIL:-none}"*) echo "$cu: error: refused" >&2; exit 1 ;; esac
{
  echo '#!/bin/sh'
  sed -n 's/^\/\/ TLH-META {"kernel": "\([^"]*\)".*/\1/p' "$cu" | while read -r k; do
    if [ "$k" = "${FAKE_FAIL:-}" ]; then
      echo "echo 'check $k: FAIL rel_err=1.0'; echo '  first mismatch at [3]'"
    else
      echo "echo 'check $k: PASS rel_err=0'"
    fi
  done
  echo "grep -q FAIL \"\$0\" && exit 1; exit 0"
} >"$exe"
chmod +x "$exe"
