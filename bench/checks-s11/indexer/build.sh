#!/bin/bash
# build.sh: on the GPU machine, from /work/main (the repository root): builds each tlc
# kernel here (NAME.cu, made by gen.sh) into /tmp/NAME.so and runs check.py on them.
cd "$(dirname "$0")/../../.."
NVCC=${NVCC:-nvcc}; command -v "$NVCC" >/dev/null || NVCC=/usr/local/cuda/bin/nvcc
D=bench/checks-s11/indexer
for cu in $D/*.cu; do
  n=$(basename "$cu" .cu)
  "$NVCC" -O3 -gencode=arch=compute_90a,code=sm_90a -shared -Xcompiler -fPIC "$cu" python/tlc/glue.cu \
    -o /tmp/$n.so -lcuda &
done
wait
python3 $D/check.py /tmp
