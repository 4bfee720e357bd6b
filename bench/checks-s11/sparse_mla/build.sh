#!/bin/bash
# build.sh: on the GPU machine, from /work/main (or anywhere): builds the tlc sparse MLA
# forward kernels (made by gen.sh) into /tmp/NAME.so and runs check.py against torch,
# one process per kernel (a fault or hang in one does not hide the other's result).
cd "$(dirname "$0")/../../.."
D=bench/checks-s11/sparse_mla
rc=0
for n in sparse_mla_pipelined sparse_mla_seesaw; do
  nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -shared -Xcompiler -fPIC $D/$n.cu python/tlc/glue.cu -o /tmp/$n.so -lcuda \
    && timeout 300 python3 $D/check.py /tmp $n || { echo "FAIL $n (build, fault or timeout: rc=$?)"; rc=1; }
done
exit $rc
