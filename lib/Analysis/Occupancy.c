// Occupancy: how many blocks per SM a kernel asks ptxas to fit, through the
// second argument of __launch_bounds__.
//
// Row-wise kernels (LayerNorm, RMSNorm, softmax) keep whole rows in
// registers and go through a cross-warp reduction with a block barrier, so
// one block alone leaves the memory system idle while it reduces; a second
// block on the SM loads meanwhile. Left to itself, ptxas may spend the
// registers that a second block needs on hoisting loads:
// examples/layer_norm.tl (64 fp32 registers of row per thread, 256 threads)
// took 146 registers, one block per SM, and ran at 0.67 of copy bandwidth;
// RMSNorm, the same shape at 110 registers and two blocks, at 0.99. Asking
// for two blocks caps the registers at 65536 / (2 * threads) (128 for 256
// threads), which ptxas meets without spilling as long as the fragments
// leave room for addresses and temporaries.
#include <stdio.h>

#include "tlc/Occupancy.h"

enum {
  REGISTER_FILE = 65536,  // 32-bit registers per SM (sm_80, sm_90)
  SHARED_PER_SM = 232448, // bytes of shared memory one SM gives its blocks
  HEADROOM = 48,          // registers beside the fragments: addresses, loads in flight
  MIN_HEAVY = 32,         // below this, ptxas stays far under any cap by itself
};

// 32-bit registers per thread that fragment b holds.
static int64_t fragment_registers(const TlBuffer *b) {
  if (b->scope != SCOPE_FRAGMENT || !b->layout) return 0;
  int bits = tl_dtype_bits(b->dtype);
  return (b->layout->locals * bits + 31) / 32;
}

static bool body_has_gemm(const TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_GEMM || body_has_gemm(&s->body) || body_has_gemm(&s->else_body)) return true;
  }
  return false;
}

// Does the kernel's top-level statement s read or write b?
static bool stmt_uses(const TlStmt *s, const TlBuffer *b) {
  return tl_stmt_touches(s, b, true) || tl_stmt_touches(s, b, false);
}

// Is fragment b held by the threads of top-level statement `scope` (a T.ws
// scope; NULL: a kernel without scopes)? A fragment only another scope uses
// is not: each scope's threads hold their own fragments.
static bool held_in(const TlKernel *k, const TlBuffer *b, const TlStmt *scope) {
  if (!scope) return true;
  bool used = false;
  for (int i = 0; i < k->body.len; i++) {
    const TlStmt *s = TL_VEC_AT(k->body, TlStmt, i);
    if (!stmt_uses(s, b)) continue;
    if (s == scope || !(s->kind == ST_IF && s->group_threads)) return true;
    used = true;
  }
  return !used;
}

static int64_t scope_registers(const TlKernel *k, const TlStmt *scope) {
  int64_t total = 0;
  for (int i = 0; i < k->buffers.len; i++) {
    const TlBuffer *b = TL_VEC_AT(k->buffers, TlBuffer, i);
    if (fragment_registers(b) && held_in(k, b, scope)) total += fragment_registers(b);
  }
  return total;
}

// The T.ws scope whose threads hold the most fragment registers (NULL: the
// kernel has no scopes, every thread holds every fragment).
static const TlStmt *heaviest_scope(const TlKernel *k) {
  const TlStmt *best = NULL;
  for (int i = 0; i < k->body.len; i++) {
    const TlStmt *s = TL_VEC_AT(k->body, TlStmt, i);
    if (s->kind == ST_IF && s->group_threads &&
        (!best || scope_registers(k, s) > scope_registers(k, best)))
      best = s;
  }
  return best;
}

int64_t tl_kernel_fragment_registers(const TlKernel *k) {
  return scope_registers(k, heaviest_scope(k));
}

// The sum counts every fragment as live at once, which overestimates
// kernels whose fragments are not: ptxas -v on TileLang's attention files
// (bench/RESULTS.md part 9): at 128 threads with 128 x 128 fp32 score and
// output tiles, head dim 128, the fragments sum to 340-342 registers and
// ptxas spills 2.0-2.8 KB per thread; the split-KV combine kernel of
// example_mha_inference sums to 260 and takes 253 registers without
// spilling (some of its fragments are dead in between). So the warning
// fires only when the sum is well past what a thread has.

// Warns at the largest fragment the scope's threads hold that `total`
// registers of fragments do not fit, naming each fragment's share; `why`
// says what the budget is and where it comes from.
static void warn_registers(const TlKernel *k, TlDiag *d, const TlStmt *scope, int64_t total,
                           int64_t threads, const char *why) {
  const TlBuffer *largest = NULL;
  for (int i = 0; i < k->buffers.len; i++) {
    const TlBuffer *b = TL_VEC_AT(k->buffers, TlBuffer, i);
    if (fragment_registers(b) && held_in(k, b, scope) &&
        (!largest || fragment_registers(b) > fragment_registers(largest)))
      largest = b;
  }
  char parts[256];
  size_t used = 0;
  parts[0] = 0;
  for (int i = 0; i < k->buffers.len && used + 48 < sizeof parts; i++) {
    const TlBuffer *b = TL_VEC_AT(k->buffers, TlBuffer, i);
    int64_t r = held_in(k, b, scope) ? fragment_registers(b) : 0;
    if (r >= 8)
      used += (size_t)snprintf(parts + used, sizeof parts - used, "%s%s %lld", used ? ", " : "",
                               b->name, (long long)r);
  }
  tl_warning(d, largest->loc,
             "the fragments of kernel '%s' hold %lld registers per thread (%s) over %lld "
             "threads; %s, so ptxas will spill to local memory",
             k->name, (long long)total, parts, (long long)threads, why);
  tl_note(d, largest->loc, "more threads spread the same tiles thinner (threads=%lld halves "
                           "each share); smaller tiles (block_M, block_N) shrink them",
          (long long)threads * 2);
}

void tl_check_fragment_registers(const TlKernel *k, TlDiag *d) {
  const TlStmt *scope = heaviest_scope(k);
  int64_t total = scope_registers(k, scope);
  if (total <= TL_THREAD_REGISTERS + TL_FRAGMENT_OVERESTIMATE) return;
  char why[64];
  snprintf(why, sizeof why, "a thread has %d", TL_THREAD_REGISTERS);
  warn_registers(k, d, scope, total, k->threads[0] * k->threads[1] * k->threads[2], why);
}

// A warp-specialized attention kernel keeps every fragment live across its
// loop (scores, their 16-bit copy, the output, the row statistics), so
// unlike the check above its sum is what ptxas must fit, and the budget is
// setmaxnreg's share, not 255. Calibrated on ptxas -v of flash_attention.py
// (bench/RESULTS.md part 20): sum + HEADROOM_WS past the budget spilled
// (112-552 bytes) in every config tried, and every config under it did not
// but one (192 x 64 tiles at head dim 128 over 384 threads).
enum { HEADROOM_WS = 28 };

void tl_check_consumer_registers(const TlKernel *k, TlDiag *d) {
  if (!k->ring_stages || !k->consumer_regs) return;
  const TlStmt *scope = heaviest_scope(k);
  int64_t total = scope_registers(k, scope);
  if (total > TL_THREAD_REGISTERS + TL_FRAGMENT_OVERESTIMATE) return; // warned already
  if (total + HEADROOM_WS <= k->consumer_regs) return;
  char why[200];
  snprintf(why, sizeof why,
           "its compute threads get %d each (setmaxnreg, %d block%s per SM beside a producer "
           "warpgroup) and its loop needs about %d more",
           k->consumer_regs, k->blocks_per_sm, k->blocks_per_sm > 1 ? "s" : "", HEADROOM_WS);
  warn_registers(k, d, scope, total, k->threads[0], why);
}

int tl_kernel_min_blocks(const TlKernel *k) {
  if (k->ring_stages) // warp-specialize chose, with its setmaxnreg split
    return k->blocks_per_sm > 1 ? k->blocks_per_sm : 1;
  // A gemm's accumulator and operand registers are the tile config's choice
  // (and its register budget is checked elsewhere): leave it to ptxas.
  if (body_has_gemm(&k->body)) return 1;
  int64_t largest = 0;
  for (int i = 0; i < k->buffers.len; i++) {
    int64_t r = fragment_registers(TL_VEC_AT(k->buffers, TlBuffer, i));
    if (r > largest) largest = r;
  }
  int64_t threads = k->threads[0] * k->threads[1] * k->threads[2];
  if (largest < MIN_HEAVY || threads <= 0) return 1;
  int64_t cap = REGISTER_FILE / (2 * threads);
  cap -= cap % 8;
  if (cap > 255 || largest + HEADROOM > cap || 2 * k->shared_bytes > SHARED_PER_SM) return 1;
  return 2;
}
