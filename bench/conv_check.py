#!/usr/bin/env python3
"""bench/conv_check.py SO FN N C H W F K S D P [--bench]: checks a tlc convolution
(TileLang's T.Tensor views + T.im2col, NHWC image, (K, K, C, F) filter, NHWF out)
against torch's conv2d on fresh random data, independently of tlc's own reference.

Build the library here (no GPU needed):
  tlc FILE --call '...' -o bench/gen-conv/NAME.cu
  nvcc -O3 -arch=sm_90a -shared -Xcompiler -fPIC bench/gen-conv/NAME.cu python/tlc/glue.cu -o bench/gen-conv/NAME.so
then on the GPU: python3 bench/conv_check.py bench/gen-conv/NAME.so FN N C H W F K S D P.
Prints one line: PASS/FAIL, the relative error, and with --bench the median time of tlc's
kernel and of torch's (cuDNN) conv2d in the same run (CUDA events, 20 runs after 5 warm-ups).
"""
import ctypes
import sys

import torch
import torch.nn.functional as F


def median_ms(fn):
    for _ in range(5):
        fn()
    times = []
    for _ in range(20):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        torch.cuda.synchronize()
        times.append(a.elapsed_time(b))
    return sorted(times)[len(times) // 2]


def main():
    so, fn = sys.argv[1], sys.argv[2]
    n, c, h, w, f, k, s, d, p = (int(x) for x in sys.argv[3:12])
    bench = "--bench" in sys.argv
    oh = (h + 2 * p - d * (k - 1) - 1) // s + 1
    ow = (w + 2 * p - d * (k - 1) - 1) // s + 1
    torch.manual_seed(1234)
    data = torch.randn(n, h, w, c, device="cuda", dtype=torch.float16)
    kernel = torch.randn(k, k, c, f, device="cuda", dtype=torch.float16) / (k * k * c) ** 0.5
    out = torch.full((n, oh, ow, f), float("nan"), device="cuda", dtype=torch.float16)
    lib = ctypes.CDLL(so)
    launch = getattr(lib, fn)
    launch.restype = ctypes.c_int
    stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
    args = (ctypes.c_void_p(data.data_ptr()), ctypes.c_void_p(kernel.data_ptr()),
            ctypes.c_void_p(out.data_ptr()), stream)
    err = launch(*args)
    torch.cuda.synchronize()
    if err != 0:
        print(f"FAIL {fn}: launcher returned {err}")
        return 1
    ref = F.conv2d(data.permute(0, 3, 1, 2).float(), kernel.permute(3, 2, 0, 1).float(),
                   stride=s, padding=p, dilation=d).permute(0, 2, 3, 1)
    diff = (out.float() - ref).norm() / ref.norm()
    nan = torch.isnan(out).sum().item()
    ok = diff.item() < 1e-2 and nan == 0
    line = f"{'PASS' if ok else 'FAIL'} {fn} N={n} C={c} H={h} W={w} F={f} K={k} S={s} D={d} P={p}: rel_err={diff.item():.2e} nan={nan}"
    if bench:
        t_tlc = median_ms(lambda: launch(*args))
        x, wt = data.permute(0, 3, 1, 2), kernel.permute(3, 2, 0, 1).contiguous()
        x_cl = x.contiguous(memory_format=torch.channels_last)
        t_torch = median_ms(lambda: F.conv2d(x_cl, wt, stride=s, padding=p, dilation=d))
        line += f" tlc_ms={t_tlc:.3f} torch_ms={t_torch:.3f} ratio={t_torch / t_tlc:.2f}x"
    print(line)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
