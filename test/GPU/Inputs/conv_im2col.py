# A convolution as TileLang writes it (examples/convolution): the filter
# and the output seen as matrices through T.Tensor views of the parameters,
# the image's patches gathered by T.im2col. Stride 2 and pad 1 put taps
# outside the image; 72 taps do not divide block_K = 32, and 50 output
# pixels do not divide block_M = 16.
import tilelang.language as T


@T.prim_func
def conv_im2col(data: T.Tensor((2, 9, 9, 8), "float16"), kernel: T.Tensor((3, 3, 8, 32), "float16"),
                out: T.Tensor((2, 5, 5, 32), "float16")):
    with T.Kernel(T.ceildiv(32, 32), T.ceildiv(2 * 5 * 5, 16), threads=128) as (bx, by):
        data_shared = T.alloc_shared((16, 32), "float16")
        kernel_shared = T.alloc_shared((32, 32), "float16")
        out_local = T.alloc_fragment((16, 32), "float32")
        kernel_flat = T.Tensor((3 * 3 * 8, 32), "float16", kernel.data)
        out_flat = T.Tensor((2 * 5 * 5, 32), "float16", out.data)
        T.clear(out_local)
        for k_iter in T.Pipelined(T.ceildiv(3 * 3 * 8, 32), num_stages=2):
            T.im2col(data, data_shared, by, k_iter, 3, 2, 1, 1)
            T.copy(kernel_flat[k_iter * 32, bx * 32], kernel_shared)
            T.gemm(data_shared, kernel_shared, out_local)
        T.copy(out_local, out_flat[by * 16, bx * 32])
