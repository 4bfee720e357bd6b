# torch.cuda's device queries in the Python around kernels are answered
# from --target, as a GPU of that kind would answer them (TileLang's
# convolution and attention-sink examples pick configs with them):
# is_available(), current_device(), get_device_capability(),
# get_device_properties(i).major / .minor / .multi_processor_count.
# RUN: %tlc %s --call 'f()' --emit=ir | FileCheck %s --check-prefix=H200
# RUN: %tlc %s --call 'f()' --emit=ir --target=sm_80 | FileCheck %s --check-prefix=A100
# RUN: not %tlc %s --call 'unknown_property()' 2>&1 | FileCheck %s --check-prefix=PROP --match-full-lines
import torch
import tilelang.language as T


def check_hopper():
    if not torch.cuda.is_available():
        return None
    props = torch.cuda.get_device_properties(torch.cuda.current_device())
    return (props.major, props.minor) == (9, 0)


def block_for_device():
    major, minor = torch.cuda.get_device_capability()
    return 128 if major * 10 + minor >= 90 else 64


# H200: kernel f(A: global float32[512] written {{.*}}) grid(4, 1, 1) threads(128, 1, 1)
# H200: = 133.0
# A100: kernel f(A: global float32[512] written {{.*}}) grid(8, 1, 1) threads(64, 1, 1)
# A100: = 110.0
def f():
    block = block_for_device()
    hopper = check_hopper()
    props = torch.cuda.get_device_properties(0)
    sms = props.multi_processor_count

    @T.prim_func
    def main(A: T.Tensor((512,), "float32")):
        with T.Kernel(512 // block, threads=block) as bx:
            for i in T.Parallel(block):
                A[bx * block + i] = (1.0 if hopper else 2.0) + sms
    return main


def unknown_property():
    props = torch.cuda.get_device_properties(0)
    return props.total_memory
# PROP: {{.*}}torch-cuda-queries.py:[[#@LINE-1]]:12: error: tlc knows a device's major, minor and multi_processor_count, not 'total_memory'
