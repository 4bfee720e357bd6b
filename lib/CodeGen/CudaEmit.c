// CUDA emitter: thread IR -> one self-contained .cu file. It makes no
// decisions (layouts, vector widths, offsets, barriers were chosen by the
// passes); it prints them:
//   * a prelude with the toolkit headers and only the helpers used,
//   * per kernel an extern "C" __global__ function with __launch_bounds__,
//     the block indices and shared tiles named as in the source, and the
//     partitioned loops with threadIdx.x, the vector width and the guards,
//   * per kernel a host launcher that raises the dynamic shared-memory limit
//     when needed, launches the grid and returns the launch error.
// This file writes the prelude and the launchers of kernel groups and holds
// the entry point, tl_emit_cuda; expressions are in CudaExpr.c, statements
// in CudaStmt.c, a kernel and its launcher in CudaKernel.c.
#include "CudaEmitInternal.h"

#include <math.h>
#include <string.h>

static void mbarrier_prelude(TlBuf *out) {
  tl_buf_puts(out,
              "// mbarriers (PTX ISA, mbarrier): a phase completes when `count` threads have\n"
              "// arrived and every expected transaction byte has landed; waiters poll the\n"
              "// phase's parity.\n"
              "__device__ __forceinline__ unsigned tl_smem_addr(const void *p) {\n"
              "  return (unsigned)__cvta_generic_to_shared(p);\n}\n"
              "__device__ __forceinline__ void tl_mbar_init(uint64_t *bar, unsigned count) {\n"
              "  asm volatile(\"mbarrier.init.shared::cta.b64 [%0], %1;\\n\" :: "
              "\"r\"(tl_smem_addr(bar)), \"r\"(count));\n}\n"
              "// The initialized barriers become visible to the TMA unit (the async proxy).\n"
              "__device__ __forceinline__ void tl_mbar_fence_init() {\n"
              "  asm volatile(\"fence.mbarrier_init.release.cluster;\\n\" ::: \"memory\");\n"
              "  asm volatile(\"fence.proxy.async.shared::cta;\\n\" ::: \"memory\");\n}\n"
              "__device__ __forceinline__ void tl_mbar_wait(uint64_t *bar, unsigned parity) {\n"
              "  unsigned done;\n"
              "  do {\n"
              "    asm volatile(\"{\\n.reg .pred p;\\nmbarrier.try_wait.parity.shared::cta.b64 p, "
              "[%1], %2;\\n\"\n"
              "                 \"selp.u32 %0, 1, 0, p;\\n}\\n\" : \"=r\"(done) : "
              "\"r\"(tl_smem_addr(bar)), \"r\"(parity) : \"memory\");\n"
              "  } while (!done);\n}\n"
              "__device__ __forceinline__ void tl_mbar_arrive(uint64_t *bar) {\n"
              "  asm volatile(\"mbarrier.arrive.shared::cta.b64 _, [%0];\\n\" :: "
              "\"r\"(tl_smem_addr(bar)) : \"memory\");\n}\n"
              "// The producer's arrival, announcing the bytes its TMA loads will bring.\n"
              "__device__ __forceinline__ void tl_mbar_expect_tx(uint64_t *bar, unsigned bytes) {\n"
              "  asm volatile(\"mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\\n\" :: "
              "\"r\"(tl_smem_addr(bar)), \"r\"(bytes) : \"memory\");\n}\n\n");
}

// cp.async.bulk.tensor of one box into shared memory, completing on an
// mbarrier; coordinates innermost first. The multicast form writes the box,
// and completes its bytes on the barrier, at the same offsets in both blocks
// of the cluster (mask 3).
static void tma_load_prelude(TlBuf *out, int rank, bool multicast) {
  if (multicast)
    tl_buf_printf(out, "// TMA multicast: the %d-D box is written to both blocks of the cluster.\n",
                  rank);
  else
    tl_buf_printf(out,
                  "// TMA (PTX ISA, cp.async.bulk.tensor): a %d-D box of the tensor map at the\n"
                  "// given coordinates (innermost first; out-of-bounds elements read as zero).\n",
                  rank);
  tl_buf_printf(out,
                "__device__ __forceinline__ void tl_tma_load_%s%dd(void *smem, const CUtensorMap "
                "*map, uint64_t *bar",
                multicast ? "mc_" : "", rank);
  for (int d = 0; d < rank; d++)
    tl_buf_printf(out, ", int c%d", d);
  tl_buf_printf(
      out,
      ") {\n  asm "
      "volatile(\"cp.async.bulk.tensor.%dd.shared::cluster.global.mbarrier::complete_tx::bytes%s",
      rank, multicast ? ".multicast::cluster [%0], [%1, {" : " [%0], [%1, {");
  for (int d = 0; d < rank; d++)
    tl_buf_printf(out, "%s%%%d", d ? ", " : "", d + (multicast ? 4 : 3));
  tl_buf_printf(out,
                "}], [%%2]%s;\\n\"\n               :: \"r\"(tl_smem_addr(smem)), \"l\"(map), "
                "\"r\"(tl_smem_addr(bar))%s",
                multicast ? ", %3" : "", multicast ? ", \"h\"((unsigned short)3)" : "");
  for (int d = 0; d < rank; d++)
    tl_buf_printf(out, ", \"r\"(c%d)", d);
  tl_buf_puts(out, " : \"memory\");\n}\n\n");
}

// TMA stores (PTX ISA, cp.async.bulk.tensor .global.shared::cta, bulk groups).
static void tma_store_prelude(TlBuf *out, unsigned ranks) {
  tl_buf_puts(
      out, "// TMA stores: a box of shared memory (in the map's swizzled layout) to the tensor at\n"
           "// the given coordinates (innermost first); out-of-bounds elements are not written.\n");
  for (int r = 1; r <= 5; r++) {
    if (!(ranks & (1u << r))) continue;
    tl_buf_printf(
        out,
        "__device__ __forceinline__ void tl_tma_store_%dd(const CUtensorMap *map, const void *smem",
        r);
    for (int d = 0; d < r; d++)
      tl_buf_printf(out, ", int c%d", d);
    tl_buf_printf(
        out, ") {\n  asm volatile(\"cp.async.bulk.tensor.%dd.global.shared::cta.bulk_group [%%0, {",
        r);
    for (int d = 0; d < r; d++)
      tl_buf_printf(out, "%s%%%d", d ? ", " : "", d + 2);
    tl_buf_puts(out, "}], [%1];\\n\"\n               :: \"l\"(map), \"r\"(tl_smem_addr(smem))");
    for (int d = 0; d < r; d++)
      tl_buf_printf(out, ", \"r\"(c%d)", d);
    tl_buf_puts(out, " : \"memory\");\n}\n");
  }
  tl_buf_puts(out,
              "__device__ __forceinline__ void tl_tma_store_commit() {\n"
              "  asm volatile(\"cp.async.bulk.commit_group;\\n\" ::: \"memory\");\n}\n"
              "// This thread's stores have read their shared memory (it may be written again).\n"
              "__device__ __forceinline__ void tl_tma_store_wait_read() {\n"
              "  asm volatile(\"cp.async.bulk.wait_group.read 0;\\n\" ::: \"memory\");\n}\n"
              "// This thread's stores are complete.\n"
              "__device__ __forceinline__ void tl_tma_store_wait_all() {\n"
              "  asm volatile(\"cp.async.bulk.wait_group 0;\\n\" ::: \"memory\");\n}\n\n");
}

// Clusters (PTX ISA: barrier.cluster, mapa, %cluster_ctarank).
static void cluster_prelude(TlBuf *out) {
  tl_buf_puts(
      out,
      "// Thread-block clusters: every thread of both blocks meets here.\n"
      "__device__ __forceinline__ void tl_cluster_sync() {\n"
      "  asm volatile(\"barrier.cluster.arrive.release;\\nbarrier.cluster.wait.acquire;\\n\" ::: "
      "\"memory\");\n}\n"
      "__device__ __forceinline__ unsigned tl_cluster_rank() {\n"
      "  unsigned r;\n  asm volatile(\"mov.u32 %0, %%cluster_ctarank;\\n\" : \"=r\"(r));\n  return "
      "r;\n}\n"
      "// A warp's release of a ring slot, on the barrier at the same offset in both\n"
      "// blocks of the cluster (the lanes' reads are ordered before it by __syncwarp;\n"
      "// the reads are complete, so no cluster-scope release fence is needed).\n"
      "__device__ __forceinline__ void tl_mbar_arrive_cluster(uint64_t *bar, unsigned rank) {\n"
      "  __syncwarp();\n"
      "  if ((threadIdx.x & 31) == 0) {\n"
      "    asm volatile(\"mbarrier.arrive.shared::cta.b64 _, [%0];\\n\" :: "
      "\"r\"(tl_smem_addr(bar)) : \"memory\");\n"
      "    asm volatile(\"{\\n.reg .b32 remote;\\nmapa.shared::cluster.u32 remote, %0, %1;\\n\"\n"
      "                 \"mbarrier.arrive.shared::cluster.b64 _, [remote];\\n}\\n\"\n"
      "                 :: \"r\"(tl_smem_addr(bar)), \"r\"(rank ^ 1u) : \"memory\");\n"
      "  }\n}\n\n");
}

static void tensor_map_prelude(TlBuf *out) {
  tl_buf_puts(
      out, "// Host: encodes a tiled tensor map through the driver entry point the runtime\n"
           "// hands out (nothing new to link). Zero fill out of bounds, 256-byte L2 promotion.\n"
           "static cudaError_t tl_tma_map(CUtensorMap *map, const void *base, CUtensorMapDataType "
           "type, unsigned rank,\n"
           "                              const cuuint64_t *dims, const cuuint64_t *strides, const "
           "cuuint32_t *box,\n"
           "                              CUtensorMapSwizzle swizzle) {\n"
           "  static PFN_cuTensorMapEncodeTiled_v12000 encode = NULL;\n"
           "  if (!encode) {\n"
           "    void *fn = NULL;\n"
           "    cudaDriverEntryPointQueryResult found;\n"
           "    if (cudaGetDriverEntryPointByVersion(\"cuTensorMapEncodeTiled\", &fn, 12000, "
           "cudaEnableDefault, &found) !=\n"
           "            cudaSuccess || found != cudaDriverEntryPointSuccess || !fn)\n"
           "      return cudaErrorNotSupported;\n"
           "    encode = (PFN_cuTensorMapEncodeTiled_v12000)fn;\n"
           "  }\n"
           "  const cuuint32_t unit[5] = {1, 1, 1, 1, 1};\n"
           "  CUresult r = encode(map, type, rank, (void *)base, dims, strides, box, unit, "
           "CU_TENSOR_MAP_INTERLEAVE_NONE,\n"
           "                      swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, "
           "CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);\n"
           "  return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;\n"
           "}\n\n");
}

// The launcher of a prim_func with several T.Kernel blocks (TileLang's
// split + combine kernels): it runs the blocks' own launchers in order on
// the stream and returns the first error. A parameter is const only when no
// block writes it.
static void group_launcher(Emit *e, const TlModule *m, int first) {
  const TlKernel *k0 = TL_VEC_AT(m->kernels, TlKernel, first);
  TlBuf *o = &e->body;
  const TlKernel *parts[64];
  int n = 0;
  for (int i = first; i < m->kernels.len && n < 64; i++) {
    const TlKernel *k = TL_VEC_AT(m->kernels, TlKernel, i);
    if (k->launcher && strcmp(k->launcher, k0->launcher) == 0 && k->params.len == k0->params.len)
      parts[n++] = k;
  }
  tl_buf_printf(o, "// %s runs the %d T.Kernel blocks of its prim_func in order on the stream.\n",
                k0->launcher, n);
  tl_buf_printf(o, "extern \"C\" cudaError_t %s(", k0->launcher);
  int nparams = 0; // the user's tensors; T.alloc_global buffers are the launcher's own
  for (int p = 0; p < k0->params.len; p++) {
    const TlBuffer *b = TL_VEC_AT(k0->params, TlBuffer, p);
    if (b->scratch) continue;
    bool written = false;
    for (int j = 0; j < n; j++)
      written = written || TL_VEC_AT(parts[j]->params, TlBuffer, p)->written;
    tl_buf_printf(o, "%s%s%s* %s", nparams++ ? ", " : "", written ? "" : "const ",
                  tl_dtype_cuda(b->dtype), tl_cuda_buf_name(e, b));
  }
  // The runtime sizes of every block, once each by name (in the order they
  // first appear), after the tensors as in a single kernel's launcher; each
  // block's launcher gets its own.
  const TlVar *sizes[64];
  int ns = 0;
  for (int j = 0; j < n; j++)
    for (int i = 0; i < parts[j]->sizes.len; i++) {
      const TlVar *v = TL_VEC_AT(parts[j]->sizes, TlVar, i);
      bool seen = false;
      for (int q = 0; q < ns; q++)
        seen = seen || strcmp(sizes[q]->name, v->name) == 0;
      if (!seen && ns < 64) sizes[ns++] = v;
    }
  for (int q = 0; q < ns; q++)
    tl_buf_printf(o, "%s%s %s", nparams || q ? ", " : "", tl_dtype_cuda(sizes[q]->dtype),
                  sizes[q]->cname);
  bool scratch = false;
  for (int p = 0; p < k0->params.len; p++)
    scratch = scratch || TL_VEC_AT(k0->params, TlBuffer, p)->scratch;
  tl_buf_printf(o, "%scudaStream_t stream) {\n  cudaError_t err%s;\n", nparams || ns ? ", " : "",
                scratch ? " = cudaSuccess" : "");
  // T.alloc_global buffers: stream-ordered allocations that live until the
  // last block has run (cudaFreeAsync after it on the same stream).
  for (int p = 0; p < k0->params.len; p++) {
    const TlBuffer *b = TL_VEC_AT(k0->params, TlBuffer, p);
    if (b->scratch)
      tl_buf_printf(o, "  %s* %s = nullptr;\n", tl_dtype_cuda(b->dtype), tl_cuda_buf_name(e, b));
  }
  for (int p = 0; p < k0->params.len; p++) {
    const TlBuffer *b = TL_VEC_AT(k0->params, TlBuffer, p);
    if (b->scratch)
      tl_buf_printf(o,
                    "  if (err == cudaSuccess) err = cudaMallocAsync((void**)&%s, %lldull, stream); "
                    "// T.alloc_global at line %d\n",
                    tl_cuda_buf_name(e, b), (long long)tl_buffer_bytes(b), b->loc.line);
  }
  for (int j = 0; j < n; j++) {
    tl_buf_printf(o, scratch ? "  if (err == cudaSuccess) err = %s(" : "  if ((err = %s(",
                  parts[j]->name);
    for (int p = 0; p < parts[j]->params.len; p++)
      tl_buf_printf(o, "%s%s", p ? ", " : "",
                    tl_cuda_buf_name(e, TL_VEC_AT(parts[j]->params, TlBuffer, p)));
    for (int i = 0; i < parts[j]->sizes.len; i++) {
      const TlVar *v = TL_VEC_AT(parts[j]->sizes, TlVar, i);
      for (int q = 0; q < ns; q++)
        if (strcmp(sizes[q]->name, v->name) == 0)
          tl_buf_printf(o, "%s%s", parts[j]->params.len || i ? ", " : "", sizes[q]->cname);
    }
    const char *comma = parts[j]->params.len || parts[j]->sizes.len ? ", " : "";
    if (scratch)
      tl_buf_printf(o, "%sstream);\n", comma);
    else
      tl_buf_printf(o, "%sstream)) != cudaSuccess)\n    return err;\n", comma);
  }
  if (!scratch) {
    tl_buf_puts(o, "  return cudaSuccess;\n}\n\n");
    return;
  }
  for (int p = 0; p < k0->params.len; p++) {
    const TlBuffer *b = TL_VEC_AT(k0->params, TlBuffer, p);
    if (b->scratch)
      tl_buf_printf(o,
                    "  if (%s) { cudaError_t e = cudaFreeAsync(%s, stream); if (err == "
                    "cudaSuccess) err = e; }\n",
                    tl_cuda_buf_name(e, b), tl_cuda_buf_name(e, b));
  }
  tl_buf_puts(o, "  return err;\n}\n\n");
}

// Whether kernel i is the first block of its launcher group.
// cuda_fp8.h is included only where a tensor or tile holds fp8.
static bool kernel_uses_fp8(const TlKernel *k) {
  const TlVec *lists[] = {&k->params, &k->buffers};
  for (int l = 0; l < 2; l++)
    for (int i = 0; i < lists[l]->len; i++) {
      if (tl_dtype_is_fp8(TL_VEC_AT(*lists[l], TlBuffer, i)->dtype)) return true;
    }
  return false;
}

static bool starts_group(const TlModule *m, int i) {
  const TlKernel *k = TL_VEC_AT(m->kernels, TlKernel, i);
  if (!k->launcher) return false;
  for (int j = 0; j < i; j++) {
    const TlKernel *o = TL_VEC_AT(m->kernels, TlKernel, j);
    if (o->launcher && strcmp(o->launcher, k->launcher) == 0) return false;
  }
  return true;
}

void tl_emit_cuda(TlArena *a, const TlModule *m, TlBuf *out) {
  Emit e = {0};
  e.out = out;
  e.m = m;
  tl_buf_init(&e.body, a);
  tl_buf_puts(&e.body, "");
  tl_buf_init(&e.helpers, a);
  tl_buf_puts(&e.helpers, "");
  for (int i = 0; i < m->kernels.len; i++)
    tl_cuda_kernel(&e, TL_VEC_AT(m->kernels, TlKernel, i));
  for (int i = 0; i < m->kernels.len; i++)
    if (starts_group(m, i)) group_launcher(&e, m, i);

  tl_buf_printf(out, "// Generated by tlc %s from %s for %s. Do not edit: edit the .tl file.\n",
                TLC_VERSION, m->src->name, m->target_name);
  if (m->nvcc_arch)
    tl_buf_printf(out, "// Compile with: nvcc %s -c this_file.cu\n", m->nvcc_arch);
  else
    tl_buf_printf(out, "// Compile with: nvcc -arch=%s -c this_file.cu\n", m->target_name);
  // tlc-verify parses this file with libclang against its own small prelude
  // (it defines TLC_VERIFY_PRELUDE); nvcc sees the real toolkit headers.
  bool tma = false, fp8 = false, grid_sync = false, rng = false;
  for (int i = 0; i < m->kernels.len; i++) {
    const TlKernel *k = TL_VEC_AT(m->kernels, TlKernel, i);
    tma = tma || k->tma_maps.len;
    fp8 = fp8 || kernel_uses_fp8(k);
    grid_sync = grid_sync || tl_body_syncs_grid(&k->body);
    rng = rng || tl_body_uses_rng(&k->body);
  }
  tl_buf_puts(out, "#ifndef TLC_VERIFY_PRELUDE\n#include <cuda_runtime.h>\n#include <cuda_fp16.h>\n"
                   "#include <cuda_bf16.h>\n#include <stdint.h>\n");
  if (fp8) tl_buf_puts(out, "#include <cuda_fp8.h>\n");
  if (grid_sync) tl_buf_puts(out, "#include <cooperative_groups.h>\n");
  if (tma) // CUtensorMap and the cuTensorMapEncodeTiled prototype (driver API types only)
    tl_buf_puts(out, "#include <cudaTypedefs.h>\n");
  if (rng) // T.rng_*: curand's Philox generator, by names tlc-verify's prelude declares
    tl_buf_puts(out, "#include <curand_kernel.h>\n"
                     "typedef curandStatePhilox4_32_10_t tl_rng_t;\n"
                     "__device__ __forceinline__ void tl_rng_init(tl_rng_t *s, unsigned long long seed, "
                     "unsigned long long seq, unsigned long long off) { curand_init(seed, seq, off, s); }\n"
                     "__device__ __forceinline__ unsigned tl_rng_rand(tl_rng_t *s) { return curand(s); }\n"
                     "__device__ __forceinline__ float tl_rng_uniform(tl_rng_t *s) { return curand_uniform(s); }\n"
                     "__device__ __forceinline__ double tl_rng_uniform_double(tl_rng_t *s) { "
                     "return curand_uniform_double(s); }\n"
                     "__device__ __forceinline__ float tl_rng_normal(tl_rng_t *s) { return curand_normal(s); }\n"
                     "__device__ __forceinline__ double tl_rng_normal_double(tl_rng_t *s) { "
                     "return curand_normal_double(s); }\n");
  if (grid_sync) // a grid barrier by name, so tlc-verify's prelude can declare it
    tl_buf_puts(out, "__device__ __forceinline__ void tl_grid_sync() { "
                     "cooperative_groups::this_grid().sync(); }\n");
  tl_buf_puts(out, "#endif\n\n");
  tl_buf_puts(out, "typedef __half half_t;\ntypedef __nv_bfloat16 bfloat16_t;\n");
  if (fp8) // TileLang's names; conversions saturate to the largest finite value
    tl_buf_puts(out, "typedef __nv_fp8_e4m3 fp8_e4_t;\ntypedef __nv_fp8_e5m2 fp8_e5_t;\n");
  tl_buf_putc(out, '\n');
  if (e.need_floordiv)
    tl_buf_puts(
        out, "// Python's floor division on integers (C's / truncates toward zero).\n"
             "template <typename T> __device__ __forceinline__ T tl_floordiv(T a, T b) {\n"
             "  T q = a / b;\n  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;\n}\n\n");
  if (e.need_floormod)
    tl_buf_puts(out,
                "// Python's modulo on integers: the result has the sign of b.\n"
                "template <typename T> __device__ __forceinline__ T tl_floormod(T a, T b) {\n"
                "  T r = a % b;\n  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;\n}\n\n");
  if (e.need_fmod)
    tl_buf_puts(out, "// Python's % on floats: a - floor(a / b) * b.\n"
                     "__device__ __forceinline__ float tl_pymod(float a, float b) {\n"
                     "  return a - floorf(a / b) * b;\n}\n"
                     "__device__ __forceinline__ double tl_pymod(double a, double b) {\n"
                     "  return a - floor(a / b) * b;\n}\n\n");
  if (e.need_bitcast)
    tl_buf_puts(out, "// T.reinterpret: the same bits read as another type of the same size.\n"
                     "template <typename To, typename From>\n"
                     "__device__ __forceinline__ To tl_bitcast(From x) {\n"
                     "  static_assert(sizeof(To) == sizeof(From), \"tl_bitcast: sizes differ\");\n"
                     "  To y;\n  __builtin_memcpy(&y, &x, sizeof y);\n  return y;\n}\n\n");
  if (e.need_swz)
    tl_buf_puts(out,
                "// The XOR swizzle of shared tiles read by ldmatrix: 16-byte chunk c of row r\n"
                "// moves to chunk c ^ key(r), so the 8 rows of an 8x8 matrix hit 8 bank groups.\n"
                "// Unsigned: offsets are never negative, and / and % become shifts and masks.\n"
                "template <unsigned C, unsigned V, unsigned S>\n"
                "__device__ __forceinline__ unsigned tl_swz(unsigned row, unsigned col) {\n"
                "  const unsigned chunk = col / V;\n"
                "  return row * C + ((chunk / S) * S + ((chunk % S) ^ ((row / (8 / S)) % S))) * V "
                "+ col % V;\n"
                "}\n\n");
  if (e.need_swz_wg)
    tl_buf_puts(out,
                "// wgmma's canonical layout of a tile wider than one swizzle panel: panels of\n"
                "// S*V columns stored one after the other, each swizzled like tl_swz. A row\n"
                "// past R is in a later pipeline stage of R x C elements.\n"
                "template <unsigned R, unsigned C, unsigned V, unsigned S>\n"
                "__device__ __forceinline__ unsigned tl_swz_wg(unsigned row, unsigned col) {\n"
                "  const unsigned chunk = col % (S * V) / V, r = row % R;\n"
                "  return row / R * (R * C) + col / (S * V) * (R * S * V) + r * (S * V) + (chunk ^ "
                "((r / (8 / S)) % S)) * V +\n"
                "         col % V;\n"
                "}\n\n");
  if (e.need_mma) tl_emit_gemm_ptx(out);
  if (e.need_mma_8bit) tl_emit_mma_8bit_ptx(out, e.need_mma_8bit);
  if (e.need_wgmma) tl_emit_wgmma_ptx(out);
  if (e.need_wgmma_pack) tl_emit_wgmma_pack_ptx(out);
  if (e.need_cp_async)
    tl_buf_puts(
        out,
        "// cp.async: copy N bytes global -> shared without staging in registers; the\n"
        "// data lands after cp.async.wait_group (PTX ISA, cp.async). .cg (L2 only) for 16 B.\n"
        "template <int N> __device__ __forceinline__ void tl_cp_async(void *smem, const void "
        "*gmem) {\n"
        "  unsigned s = (unsigned)__cvta_generic_to_shared(smem);\n"
        "  if (N == 16)\n"
        "    asm volatile(\"cp.async.cg.shared.global [%0], [%1], 16;\\n\" :: \"r\"(s), "
        "\"l\"(gmem));\n"
        "  else\n"
        "    asm volatile(\"cp.async.ca.shared.global [%0], [%1], %2;\\n\" :: \"r\"(s), "
        "\"l\"(gmem), \"n\"(N));\n"
        "}\n"
        "// The same with zero fill: when !full no byte is read and the destination is zeroed.\n"
        "template <int N> __device__ __forceinline__ void tl_cp_async_zfill(void *smem, const void "
        "*gmem, bool full) {\n"
        "  unsigned s = (unsigned)__cvta_generic_to_shared(smem);\n"
        "  int src = full ? N : 0;\n"
        "  if (N == 16)\n"
        "    asm volatile(\"cp.async.cg.shared.global [%0], [%1], 16, %2;\\n\" :: \"r\"(s), "
        "\"l\"(gmem), \"r\"(src));\n"
        "  else\n"
        "    asm volatile(\"cp.async.ca.shared.global [%0], [%1], %2, %3;\\n\" :: \"r\"(s), "
        "\"l\"(gmem), \"n\"(N), \"r\"(src));\n"
        "}\n\n");
  if (e.need_mbar) mbarrier_prelude(out);
  if (e.need_expect_only)
    tl_buf_puts(out, "// The bytes TMA loads will bring, without an arrival (T.tma_copy).\n"
                     "__device__ __forceinline__ void tl_mbar_expect_tx_only(uint64_t *bar, unsigned bytes) {\n"
                     "  asm volatile(\"mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;\\n\" :: "
                     "\"r\"(tl_smem_addr(bar)), \"r\"(bytes) : \"memory\");\n}\n\n");
  for (int r = 1; r <= 5; r++)
    if (e.need_tma_ranks & (1u << r)) tma_load_prelude(out, r, false);
  for (int r = 1; r <= 5; r++)
    if (e.need_tma_mc_ranks & (1u << r)) tma_load_prelude(out, r, true);
  if (e.need_cluster) cluster_prelude(out);
  if (e.need_tma_store_ranks) tma_store_prelude(out, e.need_tma_store_ranks);
  if (e.need_tma_host) tensor_map_prelude(out);
  tl_buf_write(out, e.helpers.data, e.helpers.len);
  tl_buf_write(out, e.body.data, e.body.len);
}
