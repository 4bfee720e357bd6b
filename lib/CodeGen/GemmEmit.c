// Device helpers for T.gemm, one per gemm statement, printed into the
// output's prelude (only the ones used, no template library):
//   tensor cores: ldmatrix (.trans for MN-major operands) from the swizzled
//     shared tiles, then mma.sync.m16n8k16 into the GEMM_C registers;
//   CUDA cores (fp32, fp64, int8, fp16 accumulators, odd shapes): each
//     thread accumulates its own registers of the same GEMM_C layout.
#include "CudaEmitInternal.h"
#include "tlc/FragLayout.h"

// The expression of a thread's index among the gemm's threads (set by
// tl_emit_gemm_helper for the helper it writes).
static const char *thread_index = "threadIdx.x";

void tl_emit_gemm_ptx(TlBuf *out) {
  tl_buf_puts(out,
              "// ldmatrix: each lane supplies one 16-byte row address of one of four 8x8\n"
              "// b16 matrices and receives its pair of elements of each (PTX ISA, ldmatrix).\n"
              "__device__ __forceinline__ void tl_ldmatrix_x4(unsigned *r, const void *smem) {\n"
              "  unsigned addr = (unsigned)__cvta_generic_to_shared(smem);\n"
              "  asm volatile(\"ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\\n\"\n"
              "               : \"=r\"(r[0]), \"=r\"(r[1]), \"=r\"(r[2]), \"=r\"(r[3]) : \"r\"(addr));\n"
              "}\n"
              "__device__ __forceinline__ void tl_ldmatrix_x4_trans(unsigned *r, const void *smem) {\n"
              "  unsigned addr = (unsigned)__cvta_generic_to_shared(smem);\n"
              "  asm volatile(\"ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\\n\"\n"
              "               : \"=r\"(r[0]), \"=r\"(r[1]), \"=r\"(r[2]), \"=r\"(r[3]) : \"r\"(addr));\n"
              "}\n");
  static const char *const types[2][2] = {{"f16", "half"}, {"bf16", "bf16"}};
  for (int t = 0; t < 2; t++)
    tl_buf_printf(out,
                  "// D = A * B + D for one 16x8x16 tile; A: 4 regs, B: 2 regs, D: 4 fp32.\n"
                  "__device__ __forceinline__ void tl_mma_%s(float *d, const unsigned *a, const unsigned *b) {\n"
                  "  asm volatile(\"mma.sync.aligned.m16n8k16.row.col.f32.%s.%s.f32 \"\n"
                  "               \"{%%0,%%1,%%2,%%3}, {%%4,%%5,%%6,%%7}, {%%8,%%9}, {%%0,%%1,%%2,%%3};\\n\"\n"
                  "               : \"+f\"(d[0]), \"+f\"(d[1]), \"+f\"(d[2]), \"+f\"(d[3])\n"
                  "               : \"r\"(a[0]), \"r\"(a[1]), \"r\"(a[2]), \"r\"(a[3]), \"r\"(b[0]), \"r\"(b[1]));\n"
                  "}\n",
                  types[t][1], types[t][0], types[t][0]);
  tl_buf_puts(out, "\n");
}

// The k32 atoms of 8-bit operands (TensorCoreIntrinEmitter on int8 or
// float8): A 4 registers of four bytes, B 2, D 4 int32 or fp32 (PTX ISA,
// mma.m16n8k32; the float8 forms need sm_89).
void tl_emit_mma_8bit_ptx(TlBuf *out, unsigned wanted) {
  static const char *const forms[3][3] = {
      {"s8", "int", "s32.s8.s8.s32"}, {"e4m3", "float", "f32.e4m3.e4m3.f32"}, {"e5m2", "float", "f32.e5m2.e5m2.f32"}};
  for (int f = 0; f < 3; f++)
    if (wanted & (1u << f))
      tl_buf_printf(out,
                  "__device__ __forceinline__ void tl_mma_%s(%s *d, const unsigned *a, const unsigned *b) {\n"
                  "  asm volatile(\"mma.sync.aligned.m16n8k32.row.col.%s \"\n"
                  "               \"{%%0,%%1,%%2,%%3}, {%%4,%%5,%%6,%%7}, {%%8,%%9}, {%%0,%%1,%%2,%%3};\\n\"\n"
                  "               : \"+%s\"(d[0]), \"+%s\"(d[1]), \"+%s\"(d[2]), \"+%s\"(d[3])\n"
                  "               : \"r\"(a[0]), \"r\"(a[1]), \"r\"(a[2]), \"r\"(a[3]), \"r\"(b[0]), \"r\"(b[1]));\n"
                  "}\n",
                  forms[f][0], forms[f][1], forms[f][2], f ? "f" : "r", f ? "f" : "r", f ? "f" : "r",
                  f ? "f" : "r");
  tl_buf_puts(out, "\n");
}

// The warpgroup-level pieces of T.gemm on wgmma (sm_90a). A descriptor
// names a shared tile in wgmma's canonical layout: its start address, the
// byte stride between panels (LBO, MN-major only), between 8-row swizzle
// atoms (SBO) and the swizzle mode (PTX ISA, "Matrix Descriptor Format").
void tl_emit_wgmma_ptx(TlBuf *out) {
  tl_buf_puts(out,
              "// wgmma shared-memory matrix descriptor: start >> 4 (bits 0-13), leading-dimension\n"
              "// byte offset >> 4 (16-29), stride-dimension byte offset >> 4 (32-45), swizzle mode\n"
              "// (62-63: 1 = 128B, 2 = 64B, 3 = 32B) (PTX ISA, Matrix Descriptor Format).\n"
              "__device__ __forceinline__ uint64_t tl_wgmma_desc(const void *smem, unsigned lbo, unsigned sbo, unsigned mode) {\n"
              "  const uint64_t addr = (uint64_t)__cvta_generic_to_shared(smem);\n"
              "  return ((addr & 0x3FFFF) >> 4) | ((uint64_t)(lbo >> 4) << 16) | ((uint64_t)(sbo >> 4) << 32) |\n"
              "         ((uint64_t)mode << 62);\n"
              "}\n"
              "// Registers written by ordinary code must be visible to the next wgmma, and\n"
              "// the accumulators must not be touched while one is in flight.\n"
              "__device__ __forceinline__ void tl_wgmma_fence() {\n"
              "  asm volatile(\"wgmma.fence.sync.aligned;\\n\" ::: \"memory\");\n"
              "}\n"
              "__device__ __forceinline__ void tl_wgmma_commit() {\n"
              "  asm volatile(\"wgmma.commit_group.sync.aligned;\\n\" ::: \"memory\");\n"
              "}\n"
              "template <int N> __device__ __forceinline__ void tl_wgmma_wait() {\n"
              "  asm volatile(\"wgmma.wait_group.sync.aligned %0;\\n\" :: \"n\"(N) : \"memory\");\n"
              "}\n"
              "// Keeps the compiler from moving an accumulator register across the wait.\n"
              "__device__ __forceinline__ void tl_wgmma_pin(float &r) {\n"
              "  asm volatile(\"\" : \"+f\"(r) :: \"memory\");\n"
              "}\n\n");
}

// Register-A operands packed where they are made (ST_WGMMA_PACK) and held
// until the wait of the wgmma that reads them.
void tl_emit_wgmma_pack_ptx(TlBuf *out) {
  tl_buf_puts(out,
              "// A register-A operand's packed registers, live until the wait of its wgmma.\n"
              "__device__ __forceinline__ void tl_wgmma_pin_regs(unsigned *r, int n) {\n"
              "  #pragma unroll\n"
              "  for (int i = 0; i < n; ++i) asm volatile(\"\" : \"+r\"(r[i]) :: \"memory\");\n"
              "}\n"
              "__device__ __forceinline__ unsigned tl_bits16(half_t x) { return __half_as_ushort(x); }\n"
              "__device__ __forceinline__ unsigned tl_bits16(bfloat16_t x) { return __bfloat16_as_ushort(x); }\n"
              "// A 16-bit fragment in wgmma's accumulator layout (K8 n8 chunks per 64-row slab)\n"
              "// as the A operands of wgmma.m64nNk16: per k16 step ks and slab mi, rows g and\n"
              "// g+8, columns 2t and 2t+8, two values per register.\n"
              "template <int KS, int MI, int K8, typename T>\n"
              "__device__ __forceinline__ void tl_wgmma_pack(const T *A, unsigned (*a)[MI][4]) {\n"
              "  #pragma unroll\n"
              "  for (int ks = 0; ks < KS; ++ks)\n"
              "    #pragma unroll\n"
              "    for (int mi = 0; mi < MI; ++mi) {\n"
              "      const int r0 = (mi * K8 + ks * 2) * 4, r1 = r0 + 4;\n"
              "      a[ks][mi][0] = tl_bits16(A[r0]) | (tl_bits16(A[r0 + 1]) << 16);\n"
              "      a[ks][mi][1] = tl_bits16(A[r0 + 2]) | (tl_bits16(A[r0 + 3]) << 16);\n"
              "      a[ks][mi][2] = tl_bits16(A[r1]) | (tl_bits16(A[r1 + 1]) << 16);\n"
              "      a[ks][mi][3] = tl_bits16(A[r1 + 2]) | (tl_bits16(A[r1 + 3]) << 16);\n"
              "    }\n"
              "}\n\n");
}

// One operand's descriptor facts. The tile is stored [rows][cols] (cols
// contiguous) in panels of P = min(cols, 128 bytes) columns (lib/Transforms/
// Swizzle.c). K-major: cols run along K (A, or B^T); MN-major otherwise.
typedef struct WgOperand {
  bool k_major;
  int64_t rows, cols, P, RB; // RB: bytes per panel row
  int mode;                  // descriptor swizzle mode
  int64_t lbo, sbo;
} WgOperand;

static WgOperand wg_operand(const TlBuffer *b, bool k_major) {
  WgOperand o = {0};
  int64_t eb = tl_dtype_bits(b->dtype) / 8, panel = 128 / eb; // a 128-byte row
  o.k_major = k_major;
  o.cols = b->shape[b->ndims - 1];
  o.rows = tl_buffer_elems(b) / o.cols;
  o.P = o.cols < panel ? o.cols : panel;
  o.RB = o.P * eb;
  o.mode = o.RB == 128 ? 1 : o.RB == 64 ? 2 : 3;
  o.sbo = 8 * o.RB;                        // 8-row swizzle atoms
  o.lbo = k_major ? 16 : o.rows * o.RB; // MN-major: the next panel along M/N
  return o;
}

// T.gemm on wgmma: each warpgroup issues, per k16 step, one
// wgmma.m64nNWk16 per 64-row slab it owns and per N chunk (NW <= 256), all
// in one commit group, then waits for them. The accumulator registers of
// slab mi, chunk nc are C[(mi * N/8 + nc * NW/8) * 4 ...], the order of the
// wgmma_c layout (lib/Analysis/FragLayout.c).
static TlArena *swz_arena; // the arena of the helper being emitted (names made on the fly)

bool tl_wgmma_packed_dims(const TlBuffer *a, int64_t *ks, int64_t *mi) {
  const TlFragLayout *L = a->layout;
  if (a->scope != SCOPE_FRAGMENT || a->ndims != 2 || !L || !L->wgmma || tl_dtype_bits(a->dtype) != 16)
    return false;
  *ks = a->shape[1] / 16;
  *mi = L->rows / (64 * (L->wm / 4));
  return true;
}

bool tl_gemm_held_a(const TlStmt *g) {
  int64_t ks, mi;
  return g->kind == ST_GEMM && g->use_wgmma && g->a_packed && !g->trans_a && tl_wgmma_packed_dims(g->a, &ks, &mi);
}

static void wgmma_helper(TlBuf *out, const TlStmt *g) {
  const TlFragLayout *L = g->c->layout;
  int64_t M = L->rows, N = L->cols, K = g->trans_a ? g->a->shape[0] : g->a->shape[1];
  // fp8 (e4m3/e5m2) steps k32, 16-bit types k16: 32 bytes of K per wgmma.
  int64_t eb = tl_dtype_bits(g->a->dtype) / 8, KW = 32 / eb;
  int64_t W = L->wm / 4, MI = M / (64 * W), NC = (N + 255) / 256, NW = N / NC, KS = K / KW;
  bool rs = g->a->scope == SCOPE_FRAGMENT; // register A (another wgmma's accumulator)
  WgOperand A = rs ? (WgOperand){.k_major = true} : wg_operand(g->a, !g->trans_a), B = wg_operand(g->b, g->trans_b);
  const char *T = tl_dtype_cuda(g->a->dtype);
  const char *ty = g->a->dtype == TY_FLOAT16       ? "f16"
                   : g->a->dtype == TY_BFLOAT16    ? "bf16"
                   : g->a->dtype == TY_FLOAT8_E4M3 ? "e4m3"
                                                   : "e5m2";
  int id = g->gemm_id;
  static const char *const modes[] = {"none", "128B", "64B", "32B"};
  tl_buf_printf(out,
                "// T.gemm at line %d: C[%lldx%lld] += A[%lldx%lld]%s @ B[%lldx%lld]%s on wgmma: %lld warpgroup%s,\n"
                "// each %lld slab%s of 64 rows; per k%lld step %lld wgmma.m64n%lldk%lld per slab (A %s, %s swizzle;\n"
                "// B %s, %s swizzle), one commit group per call.\n",
                g->loc.line, (long long)M, (long long)N, (long long)g->a->shape[0], (long long)g->a->shape[1],
                g->trans_a ? "^T" : "", (long long)g->b->shape[0], (long long)g->b->shape[1], g->trans_b ? "^T" : "",
                (long long)W, W > 1 ? "s" : "", (long long)MI, MI > 1 ? "s" : "", (long long)KW, (long long)NC,
                (long long)NW, (long long)KW,
                rs ? "in registers" : A.k_major ? "K-major" : "MN-major", rs ? "no" : modes[A.mode],
                B.k_major ? "K-major" : "MN-major", modes[B.mode]);
  // The instruction, with its NW/2 accumulator registers; A is a shared
  // descriptor, or (register A) four registers of two 16-bit values.
  int64_t D = NW / 2; // first operand after the accumulators
  // A predicated gemm (its issue under a condition, g->cond) passes the
  // condition as one more operand, after the scale-d one.
  bool pred = g->cond != NULL;
  int64_t scale_d = D + (rs ? 5 : 2);
  tl_buf_printf(out, "__device__ __forceinline__ void tl_gemm_%d_mma(float *d, %s, uint64_t db%s) {\n", id,
                rs ? "const unsigned *a" : "uint64_t da", pred ? ", int on" : "");
  if (pred)
    tl_buf_printf(out, "  asm volatile(\"{\\n.reg .pred p, q;\\nsetp.ne.b32 p, %%%lld, 0;\\nsetp.ne.b32 q, %%%lld, 0;\\n\"\n",
                  (long long)scale_d, (long long)(scale_d + 1));
  else
    tl_buf_printf(out, "  asm volatile(\"{\\n.reg .pred p;\\nsetp.ne.b32 p, %%%lld, 0;\\n\"\n", (long long)scale_d);
  tl_buf_printf(out, "               \"%swgmma.mma_async.sync.aligned.m64n%lldk%lld.f32.%s.%s {\"\n", pred ? "@q " : "",
                (long long)NW, (long long)KW, ty, ty);
  for (int64_t r = 0; r < D; r++)
    tl_buf_printf(out, "%s\"%%%lld%s\"", r == 0 ? "               " : r % 8 == 0 ? "\n               " : " ",
                  (long long)r, r + 1 < D ? "," : "}, ");
  tl_buf_puts(out, "\n");
  if (rs)
    tl_buf_printf(out, "               \"{%%%lld, %%%lld, %%%lld, %%%lld}, %%%lld, p, 1, 1, %d;\\n}\\n\"\n               : ",
                  (long long)D, (long long)(D + 1), (long long)(D + 2), (long long)(D + 3), (long long)(D + 4),
                  B.k_major ? 0 : 1);
  else if (eb == 1) // 8-bit operands are always K-major: no transpose immediates
    tl_buf_printf(out, "               \"%%%lld, %%%lld, p, 1, 1;\\n}\\n\"\n               : ", (long long)D,
                  (long long)(D + 1));
  else
    tl_buf_printf(out, "               \"%%%lld, %%%lld, p, 1, 1, %d, %d;\\n}\\n\"\n               : ", (long long)D,
                  (long long)(D + 1), A.k_major ? 0 : 1, B.k_major ? 0 : 1);
  for (int64_t r = 0; r < D; r++)
    tl_buf_printf(out, "%s\"+f\"(d[%lld])%s", r && r % 8 == 0 ? "\n                 " : "", (long long)r,
                  r + 1 < D ? ", " : "");
  if (rs)
    tl_buf_printf(out, "\n               : \"r\"(a[0]), \"r\"(a[1]), \"r\"(a[2]), \"r\"(a[3]), \"l\"(db), \"r\"(1)%s);\n}\n",
                  pred ? ", \"r\"(on)" : "");
  else
    tl_buf_printf(out, "\n               : \"l\"(da), \"l\"(db), \"r\"(1)%s);\n}\n", pred ? ", \"r\"(on)" : "");
  if (g->wgmma_in_flight)
    tl_buf_puts(out, "// In a pipelined loop the call returns with its own group still in flight (all\n"
                     "// earlier ones done); a wgmma wait after the loop drains it.\n");
  bool held = tl_gemm_held_a(g); // A's packed registers are the caller's (tl_pk_<A>)
  tl_buf_printf(out,
                "__device__ __forceinline__ void tl_gemm_%d(const %s* __restrict__ A, const %s* __restrict__ B, "
                "float* __restrict__ C%s%s) {\n",
                id, T, T, held ? tl_arena_printf(swz_arena, ", unsigned (*a)[%lld][4]", (long long)MI) : "",
                pred ? ", bool on" : "");
  tl_buf_printf(out, "  const unsigned wg = %s / 128;\n", thread_index);
  if (rs)
    tl_buf_printf(out, "  const uint64_t db = tl_wgmma_desc(B, %lld, %lld, %d);\n", (long long)B.lbo, (long long)B.sbo, B.mode);
  else
    tl_buf_printf(out, "  const uint64_t da = tl_wgmma_desc(A, %lld, %lld, %d), db = tl_wgmma_desc(B, %lld, %lld, %d);\n",
                  (long long)A.lbo, (long long)A.sbo, A.mode, (long long)B.lbo, (long long)B.sbo, B.mode);
  if (!g->wgmma_in_flight) // (with a group in flight from the last call, C must not be touched)
    tl_buf_printf(out, "  #pragma unroll\n  for (int l = 0; l < %lld; ++l)\n    tl_wgmma_pin(C[l]);\n", (long long)L->locals);
  if (rs && !held) { // (held: packed where A was made, by tl_wgmma_pack)
    // A's wgmma_c registers of slab mi, n8 chunks kk/8 and kk/8+1 are the
    // m64k16 A fragment of this warp (rows g and g+8, columns 2t and 2t+8),
    // packed two 16-bit values per register -- all before the fence, so
    // that no register is written between the wgmma (ptxas would fence
    // again, C7519).
    const char *pk = g->a->dtype == TY_FLOAT16 ? "__half_as_ushort" : "__bfloat16_as_ushort";
    tl_buf_printf(out, "  unsigned a[%lld][%lld][4];\n", (long long)KS, (long long)MI);
    tl_buf_printf(out, "  #pragma unroll\n  for (int ks = 0; ks < %lld; ++ks)\n", (long long)KS);
    tl_buf_printf(out, "    #pragma unroll\n    for (int mi = 0; mi < %lld; ++mi) {\n", (long long)MI);
    tl_buf_printf(out, "      const unsigned r0 = (mi * %lld + ks * 2) * 4, r1 = r0 + 4;\n", (long long)(K / 8));
    for (int q = 0; q < 4; q++)
      tl_buf_printf(out, "      a[ks][mi][%d] = (unsigned)%s(A[r%d + %d]) | ((unsigned)%s(A[r%d + %d]) << 16);\n", q, pk,
                    q / 2, (q % 2) * 2, pk, q / 2, (q % 2) * 2 + 1);
    tl_buf_puts(out, "    }\n");
  }
  tl_buf_puts(out, "  tl_wgmma_fence();\n");
  // Offsets are in 16-byte units: the descriptor's address field.
  tl_buf_printf(out, "  #pragma unroll\n  for (int ks = 0; ks < %lld; ++ks)\n", (long long)KS);
  tl_buf_printf(out, "    #pragma unroll\n    for (int mi = 0; mi < %lld; ++mi)\n", (long long)MI);
  tl_buf_printf(out, "      #pragma unroll\n      for (int nc = 0; nc < %lld; ++nc) {\n", (long long)NC);
  tl_buf_printf(out, "        const unsigned m0 = mi * %lld + wg * 64, n0 = nc * %lld, kk = ks * %lld;\n",
                (long long)(64 * W), (long long)NW, (long long)KW);
  if (rs)
    tl_buf_puts(out, "        (void)m0; // A is in registers\n");
  else if (A.k_major)
    tl_buf_printf(out, "        const unsigned oa = (kk / %lld) * %lld + m0 * %lld + (kk %% %lld) * %lld;\n", (long long)A.P,
                  (long long)(A.rows * A.RB), (long long)A.RB, (long long)A.P, (long long)eb);
  else
    tl_buf_printf(out, "        const unsigned oa = (m0 / %lld) * %lld + kk * %lld;\n", (long long)A.P,
                  (long long)(A.rows * A.RB), (long long)A.RB);
  if (B.k_major)
    tl_buf_printf(out, "        const unsigned ob = (kk / %lld) * %lld + n0 * %lld + (kk %% %lld) * %lld;\n", (long long)B.P,
                  (long long)(B.rows * B.RB), (long long)B.RB, (long long)B.P, (long long)eb);
  else
    tl_buf_printf(out, "        const unsigned ob = (n0 / %lld) * %lld + kk * %lld;\n", (long long)B.P,
                  (long long)(B.rows * B.RB), (long long)B.RB);
  tl_buf_printf(out, "        tl_gemm_%d_mma(&C[(mi * %lld + nc * %lld) * 4], %s, db + ob / 16%s);\n      }\n",
                id, (long long)(N / 8), (long long)(NW / 8), rs ? "a[ks][mi]" : "da + oa / 16", pred ? ", on" : "");
  // The accumulators are pinned once their wgmma are done: while one is in
  // flight nothing may touch them (ptxas would insert a wait, C7517).
  if (g->wgmma_in_flight) {
    tl_buf_puts(out, "  tl_wgmma_commit();\n  tl_wgmma_wait<1>();\n}\n\n");
    return;
  }
  tl_buf_printf(out, "  tl_wgmma_commit();\n  tl_wgmma_wait<0>();\n  #pragma unroll\n  for (int l = 0; l < %lld; ++l)\n    tl_wgmma_pin(C[l]);\n}\n\n",
                (long long)L->locals);
}

static int swz(const TlBuffer *b) {
  return b->swizzle ? b->swizzle : 1;
}

// The index function of a shared operand's layout, as the kernel's own
// accesses use it (CudaExpr.c FN_SWIZZLE): tl_swz over rows of cols
// elements, or wgmma's canonical panels when another T.gemm of the kernel
// runs on wgmma with this tile (attention backward: K_shared is the wgmma A
// of S = K Q^T and the mma.sync B of dQ = dS^T K).
static const char *swz_index(const TlBuffer *b, int64_t cols) {
  if (tl_cuda_swizzle_is_wg(b))
    return tl_arena_printf(swz_arena, "tl_swz_wg<%lld, %lld, 8, %d>", (long long)(tl_buffer_elems(b) / cols),
                           (long long)cols, b->swizzle);
  return tl_arena_printf(swz_arena, "tl_swz<%lld, 8, %d>", (long long)cols, swz(b));
}

// T.gemm with A in registers: the A operand of a k16 step is two n8 atoms
// of A's accumulator layout, packed two 16-bit values per register.
static void mma_rs_helper(TlBuf *out, const TlStmt *g) {
  const TlFragLayout *L = g->c->layout;
  int64_t M = L->rows, N = L->cols, K = g->a->shape[1];
  int64_t WM = M / L->wm, WN = N / L->wn, MI = WM / 16, NI = WN / 8, NIA = K / 8;
  const char *T = tl_dtype_cuda(g->a->dtype);
  bool half = g->a->dtype == TY_FLOAT16;
  int64_t cb = g->b->shape[1];
  tl_buf_printf(out,
                "// T.gemm at line %d: C[%lldx%lld] += A[%lldx%lld] (registers) @ B%s on tensor cores:\n"
                "// A's accumulator-layout registers are the mma A operand; %lld warps as %lldx%lld.\n",
                g->loc.line, (long long)M, (long long)N, (long long)M, (long long)K, g->trans_b ? "^T" : "",
                (long long)(L->wm * L->wn), (long long)L->wm, (long long)L->wn);
  tl_buf_printf(out,
                "__device__ __forceinline__ void tl_gemm_%d(const %s* __restrict__ A, const %s* __restrict__ B, "
                "float* __restrict__ C) {\n",
                g->gemm_id, T, T);
  tl_buf_printf(out, "  const unsigned lane = %s %% 32, warp = %s / 32;\n"
                     "  const unsigned wj = warp %% %lld;\n"
                     "  const unsigned j = lane / 8, r = lane %% 8;\n",
                thread_index, thread_index, (long long)L->wn);
  tl_buf_printf(out, "  #pragma unroll\n  for (unsigned kk = 0; kk < %lld; kk += 16) {\n", (long long)K);
  tl_buf_printf(out, "    unsigned a[%lld][4], b[%lld][2];\n", (long long)MI, (long long)NI);
  tl_buf_printf(out, "    #pragma unroll\n    for (unsigned mi = 0; mi < %lld; ++mi) {\n", (long long)MI);
  tl_buf_printf(out, "      const unsigned n0 = (mi * %lld + kk / 8) * 4, n1 = n0 + 4; // atoms kk/8 and kk/8+1\n",
                (long long)NIA);
  const char *pk = half ? "__half_as_ushort" : "__bfloat16_as_ushort";
  tl_buf_printf(out,
                "      a[mi][0] = (unsigned)%s(A[n0]) | ((unsigned)%s(A[n0 + 1]) << 16);\n"
                "      a[mi][1] = (unsigned)%s(A[n0 + 2]) | ((unsigned)%s(A[n0 + 3]) << 16);\n"
                "      a[mi][2] = (unsigned)%s(A[n1]) | ((unsigned)%s(A[n1 + 1]) << 16);\n"
                "      a[mi][3] = (unsigned)%s(A[n1 + 2]) | ((unsigned)%s(A[n1 + 3]) << 16);\n    }\n",
                pk, pk, pk, pk, pk, pk, pk, pk);
  tl_buf_printf(out, "    #pragma unroll\n    for (unsigned nj = 0; nj < %lld; ++nj) {\n", (long long)(NI / 2));
  tl_buf_printf(out, "      const unsigned n0 = wj * %lld + nj * 16;\n      unsigned t[4];\n", (long long)WN);
  if (!g->trans_b)
    tl_buf_printf(out, "      tl_ldmatrix_x4_trans(t, &B[%s(kk + (j %% 2) * 8 + r, n0 + (j / 2) * 8)]);\n",
                  swz_index(g->b, cb));
  else
    tl_buf_printf(out, "      tl_ldmatrix_x4(t, &B[%s(n0 + (j / 2) * 8 + r, kk + (j %% 2) * 8)]);\n",
                  swz_index(g->b, cb));
  tl_buf_puts(out, "      b[2 * nj][0] = t[0], b[2 * nj][1] = t[1], b[2 * nj + 1][0] = t[2], b[2 * nj + 1][1] = t[3];\n"
                   "    }\n");
  tl_buf_printf(out, "    #pragma unroll\n    for (unsigned mi = 0; mi < %lld; ++mi)\n"
                     "      #pragma unroll\n      for (unsigned ni = 0; ni < %lld; ++ni)\n"
                     "        tl_mma_%s(&C[(mi * %lld + ni) * 4], a[mi], b[ni]);\n  }\n}\n\n",
                (long long)MI, (long long)NI, half ? "half" : "bf16", (long long)NI);
}

// T.gemm with shared A and B. The ldmatrix fragments are double-buffered
// across the k16 steps: the loads of step s+1 are issued before the mma of
// step s, so the shared-memory latency overlaps the tensor-core work (the
// loops are fully unrolled: every fragment index is a constant, the buffers
// are registers). Within a step the mma walk the N atoms in serpentine order
// (reversed on odd M atoms) so neighbouring mma share an operand.
static void mma_helper(TlBuf *out, const TlStmt *g) {
  const TlFragLayout *L = g->c->layout;
  int64_t M = L->rows, N = L->cols, K = g->trans_a ? g->a->shape[0] : g->a->shape[1];
  int64_t WM = M / L->wm, WN = N / L->wn, MI = WM / 16, NI = WN / 8, KS = K / 16;
  const char *T = tl_dtype_cuda(g->a->dtype);
  const char *mma = g->a->dtype == TY_FLOAT16 ? "half" : "bf16";
  int64_t ca = g->a->shape[1], cb = g->b->shape[1];
  int id = g->gemm_id;
  tl_buf_printf(out,
                "// T.gemm at line %d: C[%lldx%lld] += A[%lldx%lld]%s @ B[%lldx%lld]%s on tensor cores:\n"
                "// %lld warps as %lldx%lld, warp tile %lldx%lld = %lldx%lld mma.m16n8k16 atoms per k-step of 16.\n",
                g->loc.line, (long long)M, (long long)N, (long long)g->a->shape[0], (long long)g->a->shape[1],
                g->trans_a ? "^T" : "", (long long)g->b->shape[0], (long long)g->b->shape[1],
                g->trans_b ? "^T" : "", (long long)(L->wm * L->wn), (long long)L->wm, (long long)L->wn,
                (long long)WM, (long long)WN, (long long)MI, (long long)NI);
  // The fragments of one k16 step (kk: its first column of A / row of B).
  tl_buf_printf(out,
                "__device__ __forceinline__ void tl_gemm_%d_frags(const %s* __restrict__ A, const %s* __restrict__ B,\n"
                "    unsigned (*a)[4], unsigned (*b)[2], unsigned kk) {\n",
                id, T, T);
  tl_buf_printf(out, "  const unsigned lane = %s %% 32, warp = %s / 32;\n"
                     "  const unsigned wi = warp / %lld, wj = warp %% %lld;\n"
                     "  const unsigned j = lane / 8, r = lane %% 8; // this lane's 8x8 matrix and row in it\n",
                thread_index, thread_index, (long long)L->wn, (long long)L->wn);
  tl_buf_printf(out, "  #pragma unroll\n  for (int mi = 0; mi < %lld; ++mi) {\n", (long long)MI);
  tl_buf_printf(out, "    const unsigned m0 = wi * %lld + mi * 16;\n", (long long)WM);
  if (!g->trans_a)
    tl_buf_printf(out, "    tl_ldmatrix_x4(a[mi], &A[%s(m0 + (j %% 2) * 8 + r, kk + (j / 2) * 8)]);\n",
                  swz_index(g->a, ca));
  else
    tl_buf_printf(out, "    tl_ldmatrix_x4_trans(a[mi], &A[%s(kk + (j / 2) * 8 + r, m0 + (j %% 2) * 8)]);\n",
                  swz_index(g->a, ca));
  tl_buf_puts(out, "  }\n");
  tl_buf_printf(out, "  #pragma unroll\n  for (int nj = 0; nj < %lld; ++nj) {\n", (long long)(NI / 2));
  tl_buf_printf(out, "    const unsigned n0 = wj * %lld + nj * 16;\n    unsigned t[4];\n", (long long)WN);
  if (!g->trans_b)
    tl_buf_printf(out, "    tl_ldmatrix_x4_trans(t, &B[%s(kk + (j %% 2) * 8 + r, n0 + (j / 2) * 8)]);\n",
                  swz_index(g->b, cb));
  else
    tl_buf_printf(out, "    tl_ldmatrix_x4(t, &B[%s(n0 + (j / 2) * 8 + r, kk + (j %% 2) * 8)]);\n",
                  swz_index(g->b, cb));
  tl_buf_puts(out, "    b[2 * nj][0] = t[0], b[2 * nj][1] = t[1], b[2 * nj + 1][0] = t[2], b[2 * nj + 1][1] = t[3];\n"
                   "  }\n}\n");
  tl_buf_printf(out,
                "__device__ __forceinline__ void tl_gemm_%d(const %s* __restrict__ A, const %s* __restrict__ B, "
                "float* __restrict__ C) {\n",
                id, T, T);
  tl_buf_printf(out, "  unsigned a[2][%lld][4], b[2][%lld][2]; // two k16 steps of fragments\n",
                (long long)MI, (long long)NI);
  tl_buf_printf(out, "  tl_gemm_%d_frags(A, B, a[0], b[0], 0);\n", id);
  tl_buf_printf(out, "  #pragma unroll\n  for (int ks = 0; ks < %lld; ++ks) {\n", (long long)KS);
  if (KS > 1)
    tl_buf_printf(out, "    if (ks + 1 < %lld) // the next step's fragments load while this step's mma run\n"
                       "      tl_gemm_%d_frags(A, B, a[(ks + 1) %% 2], b[(ks + 1) %% 2], (ks + 1) * 16);\n",
                  (long long)KS, id);
  tl_buf_printf(out, "    #pragma unroll\n    for (int mi = 0; mi < %lld; ++mi)\n"
                     "      #pragma unroll\n      for (int n = 0; n < %lld; ++n) {\n"
                     "        const int ni = mi %% 2 ? %lld - n : n; // serpentine: reuse b[ni] across mi\n"
                     "        tl_mma_%s(&C[(mi * %lld + ni) * 4], a[ks %% 2][mi], b[ks %% 2][ni]);\n"
                     "      }\n  }\n}\n\n",
                (long long)MI, (long long)NI, (long long)(NI - 1), mma, (long long)NI);
}

// Element (row, col) of a shared operand of `cols` columns, through its
// layout as the kernel's own accesses use it (CudaExpr.c FN_SWIZZLE): a
// tile another gemm of the kernel reads by ldmatrix or wgmma is swizzled.
static const char *operand_at(TlArena *a, const TlBuffer *b, int64_t cols, const char *row,
                              const char *col) {
  if (!b->swizzle) return tl_arena_printf(a, "%s * %lld + %s", row, (long long)cols, col);
  int64_t V = 128 / tl_dtype_bits(b->dtype);
  if (tl_cuda_swizzle_is_wg(b))
    return tl_arena_printf(a, "tl_swz_wg<%lld, %lld, %lld, %d>(%s, %s)",
                           (long long)(tl_buffer_elems(b) / cols), (long long)cols, (long long)V,
                           b->swizzle, row, col);
  return tl_arena_printf(a, "tl_swz<%lld, %lld, %d>(%s, %s)", (long long)cols, (long long)V,
                         b->swizzle, row, col);
}

static void cuda_core_helper(TlBuf *out, TlArena *a, const TlStmt *g,
                             void (*print_expr)(TlBuf *, const TlExpr *)) {
  const TlFragLayout *L = g->c->layout;
  int64_t M = L->rows, N = L->cols, K = g->trans_a ? g->a->shape[0] : g->a->shape[1];
  const char *TA = tl_dtype_cuda(g->a->dtype), *TC = tl_dtype_cuda(g->c->dtype);
  bool half_in = tl_dtype_is_narrow_float(g->a->dtype); // 16-bit and fp8: through float
  const char *acc = half_in ? "float" : TC;
  tl_buf_printf(out,
                "// T.gemm at line %d: C[%lldx%lld] (%s) += A @ B on CUDA cores; each thread owns the\n"
                "// registers of the 16x8-atom accumulator layout (%lld warps as %lldx%lld).\n",
                g->loc.line, (long long)M, (long long)N, tl_dtype_name(g->c->dtype), (long long)(L->wm * L->wn),
                (long long)L->wm, (long long)L->wn);
  tl_buf_printf(out,
                "__device__ __forceinline__ void tl_gemm_%d(const %s* __restrict__ A, const %s* __restrict__ B, "
                "%s* __restrict__ C) {\n",
                g->gemm_id, TA, TA, TC);
  TlLoc loc = g->loc;
  TlVar tid = {.name = "tid", .cname = thread_index, .kind = VAR_THREAD_IDX, .dtype = TY_INT32};
  TlVar reg = {.name = "l", .cname = "l", .kind = VAR_LOOP, .dtype = TY_INT32, .extent = L->locals};
  TlExpr *coords[2], *guard;
  tl_layout_coords(a, L, tl_expr_var(a, loc, &tid), tl_expr_var(a, loc, &reg), coords, &guard, loc);
  tl_buf_printf(out, "  #pragma unroll\n  for (int l = 0; l < %lld; ++l) {\n", (long long)L->locals);
  tl_buf_puts(out, "    const int i = ");
  print_expr(out, coords[0]);
  tl_buf_puts(out, ";\n    const int j = ");
  print_expr(out, coords[1]);
  tl_buf_printf(out, ";\n    %s acc = (%s)C[l];\n", acc, acc);
  int64_t ca = g->a->shape[1], cb = g->b->shape[1];
  tl_buf_printf(out, "    for (int k = 0; k < %lld; ++k)\n      acc += (%s)(%s)A[%s] * (%s)(%s)B[%s];\n",
                (long long)K, acc, half_in ? "float" : acc,
                g->trans_a ? operand_at(a, g->a, ca, "k", "i") : operand_at(a, g->a, ca, "i", "k"),
                acc, half_in ? "float" : acc,
                g->trans_b ? operand_at(a, g->b, cb, "j", "k") : operand_at(a, g->b, cb, "k", "j"));
  tl_buf_printf(out, "    C[l] = (%s)acc;\n  }\n}\n\n", TC);
}

void tl_emit_gemm_helper(TlBuf *out, TlArena *a, const TlStmt *g, int64_t group_threads,
                         void (*print_expr)(TlBuf *, const TlExpr *)) {
  // In a T.ws scope the gemm's threads are the scope's: their index within
  // it (scopes start at multiples of their size).
  thread_index = group_threads ? tl_arena_printf(a, "(threadIdx.x %% %lld)", (long long)group_threads)
                               : "threadIdx.x";
  swz_arena = a;
  if (g->use_wgmma)
    wgmma_helper(out, g);
  else if (g->use_mma && g->a->scope == SCOPE_FRAGMENT)
    mma_rs_helper(out, g);
  else if (g->use_mma)
    mma_helper(out, g);
  else
    cuda_core_helper(out, a, g, print_expr);
}
