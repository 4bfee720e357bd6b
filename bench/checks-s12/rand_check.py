#!/usr/bin/env python3
"""rand_check.py SODIR: checks tlc's T.rng_* (curand's Philox4_32_10) bit for bit against Triton's
Philox, as TileLang's examples/rand/rand_uint.py checks itself:

  rand_M{1024,512,128}.so: the file's tilelang_rand_1d.compile(M=, seed=) for its three
    (M, seed) pairs (1 thread per block, T.rng_init(seed, 0, 128 * bx)): element i is output
    i % 4 of philox(seed, counter (i // 4, 0, 0, 0)), which is Triton's tl.randint4x(seed, i // 4);
  rng_threads.so (bench/checks-s12/rng_threads.py): 128 threads per block, subsequence
    t + 128 * bx, thread t drawing for points t, t + 128, t + 256, t + 384 of its row: draw n is
    output n % 4 of philox(seed, (n // 4, 0, subsequence, 0)) (tl.philox with c2 = subsequence).
"""
import ctypes, os, sys
import torch
import triton
import triton.language as tl


@triton.jit
def randint4x_ref(X, M, seed, N_PER: tl.constexpr):
    pid = tl.program_id(0)
    off = pid * N_PER + tl.arange(0, N_PER)
    r0, r1, r2, r3 = tl.randint4x(seed, off)
    base = off * 4
    tl.store(X + base, r0, mask=base < M)
    tl.store(X + base + 1, r1, mask=base + 1 < M)
    tl.store(X + base + 2, r2, mask=base + 2 < M)
    tl.store(X + base + 3, r3, mask=base + 3 < M)


@triton.jit
def threads_ref(X, seed, ROWS: tl.constexpr, COLS: tl.constexpr, THREADS: tl.constexpr):
    # one program per (row, thread): its four draws are one philox block
    pid = tl.program_id(0)
    row = pid // THREADS
    t = pid % THREADS
    sub = (t + row * THREADS).to(tl.uint32)
    z = tl.zeros([1], dtype=tl.uint32)
    r0, r1, r2, r3 = tl.philox(seed, z, z, z + sub, z)
    base = X + row * COLS + t
    tl.store(base + tl.arange(0, 1), r0)
    tl.store(base + THREADS + tl.arange(0, 1), r1)
    tl.store(base + 2 * THREADS + tl.arange(0, 1), r2)
    tl.store(base + 3 * THREADS + tl.arange(0, 1), r3)


def launch(sodir, name, out):
    f = getattr(ctypes.CDLL(os.path.join(sodir, name + ".so")), name)
    f.restype = ctypes.c_int
    err = f(ctypes.c_void_p(out.data_ptr()), ctypes.c_void_p(torch.cuda.current_stream().cuda_stream))
    torch.cuda.synchronize()
    return err


def main():
    sodir = sys.argv[1]
    ok_all = True
    for M, seed in ((1024, 42), (512, 123), (128, 0)):
        got = torch.zeros(M, dtype=torch.int32, device="cuda")
        err = launch(sodir, "rand_M%d" % M, got)
        ref = torch.zeros(M, dtype=torch.int32, device="cuda")
        randint4x_ref[(triton.cdiv(M, 128),)](ref, M, seed, N_PER=32)
        diff = int((got != ref).sum().item())
        ok = err == 0 and diff == 0
        ok_all &= ok
        print(f"{'PASS' if ok else 'FAIL'} rand_uint M={M} seed={seed}: err={err} {diff} of {M} differ "
              f"from Triton's randint4x; first {got[:2].tolist()} vs {ref[:2].tolist()}", flush=True)
    got = torch.zeros(8, 512, dtype=torch.int32, device="cuda")
    err = launch(sodir, "rng_threads", got)
    ref = torch.zeros(8, 512, dtype=torch.int32, device="cuda")
    threads_ref[(8 * 128,)](ref, 1234, ROWS=8, COLS=512, THREADS=128)
    diff = int((got != ref).sum().item())
    ok = err == 0 and diff == 0
    ok_all &= ok
    print(f"{'PASS' if ok else 'FAIL'} rng_threads 8x512, 128 threads: err={err} {diff} of 4096 differ from "
          f"Triton's philox with subsequence t + 128 * bx", flush=True)
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())
