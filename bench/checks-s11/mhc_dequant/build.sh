#!/bin/bash
# build.sh: on the GPU machine, from /work/main. Builds tlc's CUDA (written by gen.sh) for
# the mhc_pre and dequant_gemm_fine_grained examples into /tmp/NAME.so, then checks them
# against torch with check.py.
D=bench/checks-s11/mhc_dequant
for NAME in mhc_gemm_sqrsum mhc_big_fuse dequant_fine; do
  nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -shared -Xcompiler -fPIC \
    $D/$NAME.cu python/tlc/glue.cu -o /tmp/$NAME.so -lcuda || echo "BUILD FAIL $NAME"
done
python3 $D/check.py /tmp
