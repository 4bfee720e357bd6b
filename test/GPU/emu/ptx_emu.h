// The inline PTX that tlc emits, interpreted on the CPU: emucc.py rewrites
// every `asm volatile("...", outputs : inputs)` into emu_asm("...", {operands})
// and this file runs the text. It covers what tlc's preludes use and nothing
// more: Hopper's wgmma (shared-memory descriptors with 32/64/128-byte
// swizzles, register A), TMA tensor loads and stores, mbarriers, named
// barriers; Ampere's cp.async, ldmatrix and mma.sync. Unknown text stops the
// program (exit 4) instead of guessing.
//
// Asynchronous work is done at the edges of what the PTX memory model
// allows, so that a kernel relying on an order it did not ask for reads the
// wrong data and fails its check. A wgmma runs when its warpgroup waits for
// its commit group (reading shared memory then, writing the accumulators
// then); a TMA store when its thread waits for its bulk group. Loads into
// shared memory (TMA, cp.async) land as late as allowed by default (when a
// thread polls the mbarrier, or waits for its cp.async group: catches reads
// before the wait) and at once with EMU_ASYNC=early (catches a stage
// refilled while a wgmma still reads it: the release came before the wait).
#pragma once
#include "cudaTypedefs.h"
#include <ctype.h>
#include <deque>
#include <string>
#include <unordered_map>

struct EmuOperand {
  void *ptr; // outputs ("=r", "+f"): where the value lives
  uint64_t bits; // inputs: the value's bits
  int size;
};
template <typename T> EmuOperand emu_out(T &x) { return EmuOperand{(void *)&x, 0, (int)sizeof(T)}; }
template <typename T> EmuOperand emu_in(const T &x) {
  EmuOperand o{nullptr, 0, (int)sizeof(T)};
  memcpy(&o.bits, &x, sizeof(T) < 8 ? sizeof(T) : 8);
  return o;
}

[[noreturn]] inline void emu_ptx_fail(const char *what, const std::string &text) {
  fprintf(stderr, "emu: %s: %s\n", what, text.c_str());
  exit(4);
}

// ---- parsed PTX: instructions of `op args` with an optional @pred guard
struct EmuArg {
  enum Kind { REG, NAME, IMM, VEC, ADDR } kind;
  int reg = 0; // %N
  std::string name; // a local predicate, or `_`
  long long imm = 0;
  std::vector<EmuArg> elems; // VEC elements; ADDR: base [, VEC of coordinates]
};
struct EmuIns {
  std::string guard; // predicate name, "" when unguarded
  bool guard_neg = false;
  std::string op;
  std::vector<EmuArg> args;
};

inline EmuArg emu_parse_arg(const std::string &s, size_t &i, const std::string &text);
inline void emu_skip_space(const std::string &s, size_t &i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t'))
    i++;
}
inline std::vector<EmuArg> emu_parse_list(const std::string &s, size_t &i, char close, const std::string &text) {
  std::vector<EmuArg> out;
  for (;;) {
    emu_skip_space(s, i);
    if (i < s.size() && s[i] == close) {
      i++;
      return out;
    }
    out.push_back(emu_parse_arg(s, i, text));
    emu_skip_space(s, i);
    if (i < s.size() && s[i] == ',')
      i++;
    else if (i >= s.size() || s[i] != close)
      emu_ptx_fail("cannot parse the operand list of", text);
  }
}
inline EmuArg emu_parse_arg(const std::string &s, size_t &i, const std::string &text) {
  emu_skip_space(s, i);
  EmuArg a;
  if (i >= s.size())
    emu_ptx_fail("missing operand in", text);
  if (s[i] == '{') {
    i++;
    a.kind = EmuArg::VEC;
    a.elems = emu_parse_list(s, i, '}', text);
  } else if (s[i] == '[') {
    i++;
    a.kind = EmuArg::ADDR;
    a.elems = emu_parse_list(s, i, ']', text);
  } else if (s[i] == '%') {
    a.kind = EmuArg::REG;
    a.reg = (int)strtol(s.c_str() + i + 1, nullptr, 10);
    i++;
    while (i < s.size() && isdigit((unsigned char)s[i]))
      i++;
  } else if (isdigit((unsigned char)s[i]) || s[i] == '-') {
    a.kind = EmuArg::IMM;
    char *end;
    a.imm = strtoll(s.c_str() + i, &end, 0);
    i = (size_t)(end - s.c_str());
  } else {
    a.kind = EmuArg::NAME;
    while (i < s.size() && (isalnum((unsigned char)s[i]) || s[i] == '_'))
      a.name += s[i++];
    if (a.name.empty())
      emu_ptx_fail("cannot parse an operand of", text);
  }
  return a;
}
inline std::vector<EmuIns> emu_parse_ptx(const char *src) {
  std::string text(src), stmt;
  std::vector<EmuIns> prog;
  for (size_t p = 0; p <= text.size(); p++) {
    char c = p < text.size() ? text[p] : ';';
    if (c != ';' && c != '\n') {
      stmt += c;
      continue;
    }
    // a scope's braces stand on lines of their own; `.reg` declares its predicates
    size_t i = 0;
    emu_skip_space(stmt, i);
    if (i < stmt.size() && stmt[i] != '.' && stmt[i] != '{' && stmt[i] != '}') {
      EmuIns ins;
      if (stmt[i] == '@') {
        i++;
        if (stmt[i] == '!')
          ins.guard_neg = true, i++;
        while (i < stmt.size() && (isalnum((unsigned char)stmt[i]) || stmt[i] == '_'))
          ins.guard += stmt[i++];
        emu_skip_space(stmt, i);
      }
      while (i < stmt.size() && stmt[i] != ' ' && stmt[i] != '\t')
        ins.op += stmt[i++];
      emu_skip_space(stmt, i);
      while (i < stmt.size()) {
        ins.args.push_back(emu_parse_arg(stmt, i, text));
        emu_skip_space(stmt, i);
        if (i < stmt.size() && stmt[i] == ',')
          i++;
        emu_skip_space(stmt, i);
      }
      prog.push_back(ins);
    }
    stmt.clear();
  }
  return prog;
}

// ---- shared memory: addresses are byte offsets from tl_smem (the dynamic
// shared memory, 1024-aligned as the kernels declare it, so swizzles that
// read address bits see the GPU's); static __shared__ variables (mbarriers)
// sit elsewhere in the program's data, at offsets that still fit 32 bits.
inline size_t __cvta_generic_to_shared(const void *p) {
  return (size_t)((const unsigned char *)p - tl_smem);
}
inline unsigned char *emu_shared(uint32_t addr) { return tl_smem + (int32_t)addr; }
// Swizzle<B, 4, 3>: 16-byte chunk bits [4, 4+B) XOR address bits [7, 7+B).
inline uint32_t emu_swizzle(uint32_t addr, int bits) {
  return bits ? addr ^ (((addr >> 7) & ((1u << bits) - 1)) << 4) : addr;
}

// ---- per-thread and per-warpgroup asynchronous state
struct EmuCopy { // a cp.async, or one element run of a TMA copy
  unsigned char *dst;
  const unsigned char *src;
  int bytes, src_bytes;
  int group;
};
struct EmuTmaOp {
  CUtensorMap map;
  uint32_t smem;
  int coords[5];
  bool store;
  int group; // stores: the thread's bulk group
};
struct EmuMbarrier {
  int count, pending;
  long long tx;
  unsigned phase;
  std::vector<EmuTmaOp> loads; // issued, not landed yet
};
struct EmuWgmmaRecord {
  float *d[128];
  uint32_t a[4];
  uint64_t desc_a, desc_b;
  bool scale_d;
};
struct EmuWgmma {
  int n, k, type; // type: 0 f16, 1 bf16, 2 e4m3, 3 e5m2
  bool a_in_regs, trans_a, trans_b;
  int group, contributed;
  EmuWgmmaRecord rec[128];
};
struct EmuThreadState {
  long wgmma_issued;
  int wgmma_committed;
  std::vector<EmuCopy> cp_async;
  int cp_async_committed;
  std::vector<EmuTmaOp> tma_stores;
  int bulk_committed;
};
struct EmuWarpgroup {
  std::deque<EmuWgmma> ops; // issued, not run yet, in issue order
  long first; // issue index of ops.front()
};
inline EmuThreadState emu_tstate[1024];
// EMU_TRACE=1: one line per landed TMA load, wgmma run and mbarrier phase.
inline bool emu_trace() {
  static const bool on = getenv("EMU_TRACE") != nullptr;
  return on;
}
inline bool emu_loads_early() {
  static const bool early = getenv("EMU_ASYNC") && strcmp(getenv("EMU_ASYNC"), "early") == 0;
  return early;
}
inline EmuWarpgroup emu_wgroups[8];
inline std::unordered_map<uint32_t, EmuMbarrier> emu_mbarriers;

inline void emu_block_begin() {
  for (int t = 0; t < emu_nthreads; t++)
    emu_tstate[t] = EmuThreadState();
  for (auto &w : emu_wgroups)
    w = EmuWarpgroup();
  emu_mbarriers.clear();
}

// ---- TMA: a box of a tensor map to or from shared memory; elements outside
// the tensor read as zero and are not written.
inline void emu_tma_run(const EmuTmaOp &op) {
  const CUtensorMap &m = op.map;
  const int es = (int)m.elem_bytes, swz = m.swizzle == 3 ? 3 : m.swizzle == 2 ? 2 : m.swizzle == 1 ? 1 : 0;
  uint32_t idx[5] = {0, 0, 0, 0, 0};
  long total = 1;
  for (unsigned d = 0; d < m.rank; d++)
    total *= m.box[d];
  for (long e = 0; e < total; e++) {
    long rest = e;
    bool inside = true;
    uint64_t off = 0;
    for (unsigned d = 0; d < m.rank; d++) {
      idx[d] = (uint32_t)(rest % m.box[d]);
      rest /= m.box[d];
      long long g = (long long)op.coords[d] + idx[d];
      inside &= g >= 0 && (uint64_t)g < m.dims[d];
      off += (uint64_t)g * m.strides[d];
    }
    unsigned char *s = emu_shared(emu_swizzle(op.smem + (uint32_t)(e * es), swz));
    unsigned char *g = (unsigned char *)(uintptr_t)(m.base + off);
    if (op.store) {
      if (inside)
        memcpy(g, s, (size_t)es);
    } else if (inside) {
      memcpy(s, g, (size_t)es);
    } else {
      memset(s, 0, (size_t)es);
    }
  }
}
inline long emu_tma_bytes(const CUtensorMap &m) {
  long total = m.elem_bytes;
  for (unsigned d = 0; d < m.rank; d++)
    total *= m.box[d];
  return total;
}

// ---- mbarriers: a phase completes when `count` arrivals and every expected
// transaction byte are in.
inline EmuMbarrier &emu_mbarrier(uint32_t addr, const std::string &text) {
  auto it = emu_mbarriers.find(addr);
  if (it == emu_mbarriers.end())
    emu_ptx_fail("mbarrier used before mbarrier.init", text);
  return it->second;
}
inline void emu_mbarrier_check(EmuMbarrier &b) {
  if (b.pending <= 0 && b.tx == 0) {
    if (emu_trace())
      fprintf(stderr, "emu-trace: thread %d: mbarrier %p completes phase %u\n", emu_current, (void *)&b, b.phase);
    b.phase++;
    b.pending = b.count;
    emu_progress++;
  }
}
inline void emu_mbarrier_land(EmuMbarrier &b) {
  std::vector<EmuTmaOp> loads;
  loads.swap(b.loads);
  for (const EmuTmaOp &op : loads) {
    if (emu_trace())
      fprintf(stderr, "emu-trace: thread %d: TMA load lands at shared %u\n", emu_current, op.smem);
    emu_tma_run(op);
    b.tx -= emu_tma_bytes(op.map);
  }
  if (!loads.empty())
    emu_mbarrier_check(b);
}

// ---- cp.async and bulk groups of one thread
inline void emu_cp_async_land(EmuThreadState &ts, int keep) {
  std::vector<EmuCopy> left;
  for (const EmuCopy &c : ts.cp_async) {
    if (c.group < ts.cp_async_committed - keep) {
      memcpy(c.dst, c.src, (size_t)c.src_bytes);
      memset(c.dst + c.src_bytes, 0, (size_t)(c.bytes - c.src_bytes));
    } else {
      left.push_back(c);
    }
  }
  ts.cp_async.swap(left);
}
inline void emu_tma_store_land(EmuThreadState &ts, int keep) {
  std::vector<EmuTmaOp> left;
  for (const EmuTmaOp &op : ts.tma_stores) {
    if (op.group < ts.bulk_committed - keep)
      emu_tma_run(op);
    else
      left.push_back(op);
  }
  ts.tma_stores.swap(left);
}
inline void emu_thread_end(int t) {
  EmuThreadState &ts = emu_tstate[t];
  ts.cp_async_committed++;
  emu_cp_async_land(ts, 0);
  ts.bulk_committed++;
  emu_tma_store_land(ts, 0);
}

// ---- element reads for the tensor-core operations
inline float emu_elem(const unsigned char *p, int type) {
  switch (type) {
  case 0:
    return emu_half_to_float((uint16_t)(p[0] | p[1] << 8));
  case 1:
    return emu_bf16_to_float((uint16_t)(p[0] | p[1] << 8));
  case 2:
    return emu_fp8_to_float(p[0], 3, 7, false);
  case 3:
    return emu_fp8_to_float(p[0], 2, 15, true);
  default:
    return (float)(int8_t)p[0];
  }
}
inline int emu_type_bytes(int type) { return type < 2 ? 2 : 1; }
inline int emu_type_of(const std::string &s, const std::string &text) {
  if (s == "f16")
    return 0;
  if (s == "bf16")
    return 1;
  if (s == "e4m3")
    return 2;
  if (s == "e5m2")
    return 3;
  if (s == "s8")
    return 4;
  emu_ptx_fail("operand type not emulated", text);
}
// Element (mn, k) of a wgmma operand in shared memory, from its matrix
// descriptor (PTX ISA, "Matrix Descriptor Format" and the canonical layouts):
// K-major: 8-row groups SBO apart, rows W bytes apart inside a group;
// MN-major: W-byte runs of MN LBO apart, 8-deep K groups SBO apart, K rows W
// bytes apart. The swizzle then applies to the address.
inline float emu_desc_elem(uint64_t desc, int mn, int k, bool mn_major, int type, const std::string &text) {
  const uint32_t start = (uint32_t)(desc & 0x3FFF) << 4, lbo = (uint32_t)((desc >> 16) & 0x3FFF) << 4,
                 sbo = (uint32_t)((desc >> 32) & 0x3FFF) << 4;
  const int mode = (int)(desc >> 62), eb = emu_type_bytes(type);
  const int width = mode == 1 ? 128 : mode == 2 ? 64 : mode == 3 ? 32 : 0;
  if (!width)
    emu_ptx_fail("wgmma descriptor without swizzle not emulated", text);
  uint32_t addr;
  if (!mn_major)
    addr = start + (uint32_t)(mn / 8) * sbo + (uint32_t)(mn % 8) * width + (uint32_t)(k * eb);
  else
    addr = start + (uint32_t)(mn * eb / width) * lbo + (uint32_t)(k / 8) * sbo + (uint32_t)(k % 8) * width +
           (uint32_t)(mn * eb % width);
  return emu_elem(emu_shared(emu_swizzle(addr, mode == 1 ? 3 : mode == 2 ? 2 : 1)), type);
}
// Fragments of mma.sync (and wgmma's register A) hold a row's K elements in
// 32-bit registers: 2 (16-bit) or 4 (8-bit) per register, the four lanes of
// a quad holding consecutive registers' worth, the second half of K in the
// next register pair. emu_frag_quad: the quad lane of element k; emu_frag_upper:
// whether k is in the second half; emu_reg_elem: element k of its register.
inline int emu_frag_quad(int k, int type) {
  const int per = 4 / emu_type_bytes(type);
  return (k % (4 * per)) / per;
}
inline int emu_frag_upper(int k, int type) { return k >= 16 / emu_type_bytes(type); }
inline float emu_reg_elem(uint32_t r, int k, int type) {
  const int eb = emu_type_bytes(type);
  unsigned char b[4];
  memcpy(b, &r, 4); // little-endian: element 0 in the low bytes
  return emu_elem(b + (k % (4 / eb)) * eb, type);
}
// Element (row, k) of a register fragment in the m16 x k16 (16-bit) or
// m16 x k32 (8-bit) A layout of mma.sync, one warp per 16 rows for wgmma.
inline float emu_frag_a(const uint32_t *const *regs, int row, int k, int type) {
  const int g = row % 16, w = row / 16;
  const int lane = (g % 8) * 4 + emu_frag_quad(k, type), i = (g >= 8) + 2 * emu_frag_upper(k, type);
  return emu_reg_elem(regs[w * 32 + lane][i], k, type);
}

// Runs one wgmma over its 128 records: D (64 x n) = A (64 x k) B (k x n) (+ D).
inline void emu_wgmma_run(EmuWgmma &op, const std::string &text) {
  if (emu_trace())
    fprintf(stderr, "emu-trace: thread %d: wgmma m64n%dk%d runs (B at shared %u)\n", emu_current, op.n, op.k,
            (unsigned)(op.rec[0].desc_b & 0x3FFF) << 4);
  const uint32_t *aregs[128];
  for (int t = 0; t < 128; t++)
    aregs[t] = op.rec[t].a;
  std::vector<float> A((size_t)64 * op.k), B((size_t)op.k * op.n);
  for (int m = 0; m < 64; m++)
    for (int k = 0; k < op.k; k++)
      A[(size_t)m * op.k + k] = op.a_in_regs ? emu_frag_a(aregs, m, k, op.type)
                                             : emu_desc_elem(op.rec[0].desc_a, m, k, op.trans_a, op.type, text);
  for (int k = 0; k < op.k; k++)
    for (int n = 0; n < op.n; n++)
      B[(size_t)k * op.n + n] = emu_desc_elem(op.rec[0].desc_b, n, k, op.trans_b, op.type, text);
  for (int t = 0; t < 128; t++) {
    const int w = t / 32, l = t % 32;
    for (int r = 0; r < op.n / 2; r++) {
      const int row = 16 * w + l / 4 + 8 * ((r >> 1) & 1), col = 8 * (r >> 2) + 2 * (l % 4) + (r & 1);
      float sum = 0;
      for (int k = 0; k < op.k; k++)
        sum += A[(size_t)row * op.k + k] * B[(size_t)k * op.n + col];
      float *d = op.rec[t].d[r];
      *d = (op.rec[t].scale_d ? *d : 0.0f) + sum;
    }
  }
}
// wgmma.wait_group N: every wgmma of this thread's groups but the newest N
// runs, once all 128 threads have issued it.
inline void emu_wgmma_wait(int keep, const std::string &text) {
  EmuThreadState &ts = emu_tstate[emu_current];
  EmuWarpgroup &wg = emu_wgroups[emu_current / 128];
  // The tensor cores take their time: every other thread runs until it has
  // to wait (a producer that was handed a stage too early refills it now).
  if (!wg.ops.empty() && wg.ops.front().group < ts.wgmma_committed - keep)
    emu_wait_for_quiet("wgmma latency");
  for (;;) {
    bool blocked = false;
    while (!wg.ops.empty() && wg.ops.front().group < ts.wgmma_committed - keep) {
      if (wg.ops.front().contributed < 128) {
        blocked = true;
        break;
      }
      emu_wgmma_run(wg.ops.front(), text);
      wg.ops.pop_front();
      wg.first++;
      emu_progress++;
    }
    if (!blocked)
      return;
    emu_yield("a wgmma group that not every thread of the warpgroup has issued");
  }
}

// ---- the interpreter
struct EmuExec {
  const std::string &text;
  const EmuOperand *ops;
  int nops;
  std::unordered_map<std::string, bool> preds;

  const EmuOperand &operand(const EmuArg &a) const {
    if (a.reg < 0 || a.reg >= nops)
      emu_ptx_fail("operand number out of range in", text);
    return ops[a.reg];
  }
  uint64_t val(const EmuArg &a) {
    if (a.kind == EmuArg::IMM)
      return (uint64_t)a.imm;
    if (a.kind == EmuArg::NAME) {
      auto p = preds.find(a.name);
      if (p == preds.end())
        emu_ptx_fail("unknown predicate in", text);
      return p->second;
    }
    if (a.kind != EmuArg::REG)
      emu_ptx_fail("operand is not a value in", text);
    const EmuOperand &o = operand(a);
    uint64_t v = 0;
    if (o.ptr)
      memcpy(&v, o.ptr, (size_t)(o.size < 8 ? o.size : 8));
    else
      v = o.bits;
    return v;
  }
  void set(const EmuArg &a, uint64_t v) {
    if (a.kind != EmuArg::REG || !operand(a).ptr)
      emu_ptx_fail("result operand is not an output in", text);
    const EmuOperand &o = operand(a);
    memcpy(o.ptr, &v, (size_t)(o.size < 8 ? o.size : 8));
  }
  void *out_ptr(const EmuArg &a) {
    if (a.kind != EmuArg::REG || !operand(a).ptr)
      emu_ptx_fail("result operand is not an output in", text);
    return operand(a).ptr;
  }
  uint32_t addr(const EmuArg &a) { // [x]
    if (a.kind != EmuArg::ADDR || a.elems.empty())
      emu_ptx_fail("expected an address operand in", text);
    return (uint32_t)val(a.elems[0]);
  }
  const std::vector<EmuArg> &vec(const EmuArg &a) {
    if (a.kind != EmuArg::VEC)
      emu_ptx_fail("expected a vector operand in", text);
    return a.elems;
  }
};

inline bool emu_starts(const std::string &s, const char *p) { return s.compare(0, strlen(p), p) == 0; }
inline std::vector<std::string> emu_split_dots(const std::string &s) {
  std::vector<std::string> parts;
  size_t b = 0;
  for (size_t i = 0; i <= s.size(); i++)
    if (i == s.size() || s[i] == '.') {
      parts.push_back(s.substr(b, i - b));
      b = i + 1;
    }
  return parts;
}

inline void emu_wgmma_issue(EmuExec &x, const EmuIns &ins) {
  // wgmma.mma_async.sync.aligned.m64nNkK.f32.T.T
  std::vector<std::string> p = emu_split_dots(ins.op);
  int m = 0, n = 0, k = 0;
  if (p.size() != 8 || sscanf(p[4].c_str(), "m%dn%dk%d", &m, &n, &k) != 3 || m != 64 || p[5] != "f32" ||
      p[6] != p[7] || n > 256)
    emu_ptx_fail("wgmma form not emulated", x.text);
  const int type = emu_type_of(p[6], x.text);
  const bool a_regs = ins.args[1].kind == EmuArg::VEC;
  const size_t want = 6 + (type < 2 ? (a_regs ? 1 : 2) : 0);
  if (ins.args.size() != want || x.val(ins.args[4]) != 1 || x.val(ins.args[5]) != 1)
    emu_ptx_fail("wgmma operands not emulated", x.text);
  EmuThreadState &ts = emu_tstate[emu_current];
  EmuWarpgroup &wg = emu_wgroups[emu_current / 128];
  const size_t at = (size_t)(ts.wgmma_issued - wg.first);
  if (at == wg.ops.size()) {
    wg.ops.emplace_back();
    EmuWgmma &op = wg.ops.back();
    op.n = n;
    op.k = k;
    op.type = type;
    op.a_in_regs = a_regs;
    op.trans_a = !a_regs && type < 2 && x.val(ins.args[6]) != 0;
    op.trans_b = type < 2 && x.val(ins.args[want - 1]) != 0;
    op.group = ts.wgmma_committed;
    op.contributed = 0;
  }
  EmuWgmma &op = wg.ops[at];
  if (op.n != n || op.k != k || op.type != type || op.group != ts.wgmma_committed)
    emu_ptx_fail("the threads of a warpgroup issue different wgmma", x.text);
  EmuWgmmaRecord &r = op.rec[emu_current % 128];
  const std::vector<EmuArg> &d = x.vec(ins.args[0]);
  if ((int)d.size() != n / 2)
    emu_ptx_fail("wgmma accumulator count", x.text);
  for (int i = 0; i < n / 2; i++)
    r.d[i] = (float *)x.out_ptr(d[i]);
  if (a_regs) {
    const std::vector<EmuArg> &a = x.vec(ins.args[1]);
    for (int i = 0; i < 4; i++)
      r.a[i] = (uint32_t)x.val(a[i]);
  } else {
    r.desc_a = x.val(ins.args[1]);
  }
  r.desc_b = x.val(ins.args[2]);
  r.scale_d = x.val(ins.args[3]) != 0;
  op.contributed++;
  ts.wgmma_issued++;
  emu_progress++;
}

struct EmuLaneRecord {
  uint32_t in[12];
  void *out[4];
};
inline void emu_ldmatrix(EmuExec &x, const EmuIns &ins) {
  // ldmatrix.sync.aligned.m8n8.xN[.trans].shared.b16 {r...}, [addr]
  std::vector<std::string> p = emu_split_dots(ins.op);
  const int count = p[4] == "x4" ? 4 : p[4] == "x2" ? 2 : p[4] == "x1" ? 1 : 0;
  const bool trans = p[5] == "trans";
  const std::vector<EmuArg> &dst = x.vec(ins.args[0]);
  if (!count || (int)dst.size() != count || p[3] != "m8n8")
    emu_ptx_fail("ldmatrix form not emulated", x.text);
  EmuLaneRecord me;
  me.in[0] = x.addr(ins.args[1]);
  for (int j = 0; j < count; j++)
    me.out[j] = x.out_ptr(dst[j]);
  emu_warp_collective(&me, "ldmatrix", [count, trans](void **recs, int lanes) {
    auto at = [&](int mat, int row, int col) {
      const int lane = mat * 8 + row;
      const unsigned char *q = emu_shared(((EmuLaneRecord *)recs[lane < lanes ? lane : 0])->in[0]) + col * 2;
      return (uint32_t)(q[0] | q[1] << 8);
    };
    for (int l = 0; l < lanes; l++)
      for (int j = 0; j < count; j++) {
        uint32_t lo, hi;
        if (!trans) {
          lo = at(j, l / 4, 2 * (l % 4));
          hi = at(j, l / 4, 2 * (l % 4) + 1);
        } else {
          lo = at(j, 2 * (l % 4), l / 4);
          hi = at(j, 2 * (l % 4) + 1, l / 4);
        }
        const uint32_t v = lo | hi << 16;
        memcpy(((EmuLaneRecord *)recs[l])->out[j], &v, 4);
      }
  });
}
inline void emu_mma_sync(EmuExec &x, const EmuIns &ins) {
  // mma.sync.aligned.m16n8kK.row.col.D.A.B.C {d}, {a}, {b}, {c}
  std::vector<std::string> p = emu_split_dots(ins.op);
  int k = 0;
  if (p.size() != 10 || sscanf(p[3].c_str(), "m16n8k%d", &k) != 1 || p[4] != "row" || p[5] != "col" ||
      p[7] != p[8] || p[6] != p[9])
    emu_ptx_fail("mma.sync form not emulated", x.text);
  const int type = emu_type_of(p[7], x.text);
  const bool integer = p[6] == "s32";
  if (k != (emu_type_bytes(type) == 2 ? 16 : 32) || (!integer && p[6] != "f32"))
    emu_ptx_fail("mma.sync shape not emulated", x.text);
  const std::vector<EmuArg> &d = x.vec(ins.args[0]), &a = x.vec(ins.args[1]), &b = x.vec(ins.args[2]),
                            &c = x.vec(ins.args[3]);
  if (d.size() != 4 || a.size() != 4 || b.size() != 2 || c.size() != 4)
    emu_ptx_fail("mma.sync operands not emulated", x.text);
  EmuLaneRecord me;
  for (int i = 0; i < 4; i++) {
    me.in[i] = (uint32_t)x.val(a[i]);
    me.in[6 + i] = (uint32_t)x.val(c[i]);
    me.out[i] = x.out_ptr(d[i]);
  }
  me.in[4] = (uint32_t)x.val(b[0]);
  me.in[5] = (uint32_t)x.val(b[1]);
  emu_warp_collective(&me, "mma.sync", [k, type, integer](void **recs, int lanes) {
    if (lanes != 32) {
      fprintf(stderr, "emu: mma.sync in a warp of %d threads\n", lanes);
      exit(4);
    }
    const uint32_t *aregs[32];
    for (int l = 0; l < 32; l++)
      aregs[l] = ((EmuLaneRecord *)recs[l])->in;
    auto bval = [&](int kk, int n) { // B: column n in lane quad n, K as in A
      const uint32_t r = ((EmuLaneRecord *)recs[n * 4 + emu_frag_quad(kk, type)])->in[4 + emu_frag_upper(kk, type)];
      return emu_reg_elem(r, kk, type);
    };
    for (int l = 0; l < 32; l++) {
      EmuLaneRecord *me = (EmuLaneRecord *)recs[l];
      for (int r = 0; r < 4; r++) {
        const int row = l / 4 + 8 * (r >= 2), col = 2 * (l % 4) + (r & 1);
        if (integer) {
          int32_t acc = (int32_t)me->in[6 + r];
          for (int kk = 0; kk < k; kk++)
            acc += (int32_t)emu_frag_a(aregs, row, kk, type) * (int32_t)bval(kk, col);
          memcpy(me->out[r], &acc, 4);
        } else {
          float acc;
          memcpy(&acc, &me->in[6 + r], 4);
          for (int kk = 0; kk < k; kk++)
            acc += emu_frag_a(aregs, row, kk, type) * bval(kk, col);
          memcpy(me->out[r], &acc, 4);
        }
      }
    }
  });
}

inline void emu_run_ins(EmuExec &x, const EmuIns &ins) {
  const std::string &op = ins.op;
  const std::vector<EmuArg> &a = ins.args;
  EmuThreadState &ts = emu_tstate[emu_current];
  if (emu_starts(op, "fence.") || emu_starts(op, "wgmma.fence") || emu_starts(op, "setmaxnreg."))
    return; // ordering the emulator already has, register budgets it does not
  if (op == "setp.ne.b32" || op == "setp.eq.b32") {
    if (a.size() != 3 || a[0].kind != EmuArg::NAME)
      emu_ptx_fail("setp form not emulated", x.text);
    const bool ne = (uint32_t)x.val(a[1]) != (uint32_t)x.val(a[2]);
    x.preds[a[0].name] = op == "setp.ne.b32" ? ne : !ne;
  } else if (op == "selp.u32" || op == "selp.b32") {
    x.set(a[0], x.val(a[3]) ? x.val(a[1]) : x.val(a[2]));
  } else if (op == "wgmma.commit_group.sync.aligned") {
    ts.wgmma_committed++;
  } else if (op == "wgmma.wait_group.sync.aligned") {
    emu_wgmma_wait((int)x.val(a[0]), x.text);
  } else if (emu_starts(op, "wgmma.mma_async.sync.aligned.")) {
    emu_wgmma_issue(x, ins);
  } else if (op == "mbarrier.init.shared::cta.b64") {
    EmuMbarrier &b = emu_mbarriers[x.addr(a[0])];
    b = EmuMbarrier();
    b.count = b.pending = (int)x.val(a[1]);
  } else if (op == "mbarrier.try_wait.parity.shared::cta.b64") {
    EmuMbarrier &b = emu_mbarrier(x.addr(a[1]), x.text);
    emu_mbarrier_land(b);
    const bool done = (b.phase & 1) != (x.val(a[2]) & 1);
    x.preds[a[0].name] = done;
    if (!done)
      emu_yield("an mbarrier phase (mbarrier.try_wait)");
  } else if (op == "mbarrier.arrive.shared::cta.b64" || op == "mbarrier.arrive.expect_tx.shared::cta.b64") {
    EmuMbarrier &b = emu_mbarrier(x.addr(a[1]), x.text);
    if (a.size() == 3)
      b.tx += (long long)x.val(a[2]);
    b.pending--;
    emu_progress++;
    emu_mbarrier_check(b);
  } else if (op == "mbarrier.expect_tx.relaxed.cta.shared::cta.b64") {
    emu_mbarrier(x.addr(a[0]), x.text).tx += (long long)x.val(a[1]);
  } else if (emu_starts(op, "cp.async.bulk.tensor.")) {
    const bool store = op.find(".global.shared::cta.bulk_group") != std::string::npos;
    if (!store && op.find(".shared::cluster.global.mbarrier::complete_tx::bytes") == std::string::npos)
      emu_ptx_fail("TMA form not emulated", x.text);
    const EmuArg &tensor = a[store ? 0 : 1];
    if (tensor.kind != EmuArg::ADDR || tensor.elems.size() != 2 || tensor.elems[1].kind != EmuArg::VEC)
      emu_ptx_fail("TMA operands not emulated", x.text);
    EmuTmaOp t;
    memcpy(&t.map, (const void *)(uintptr_t)x.val(tensor.elems[0]), sizeof t.map);
    const std::vector<EmuArg> &c = tensor.elems[1].elems;
    if (c.size() != t.map.rank)
      emu_ptx_fail("TMA coordinates do not match the tensor map's rank", x.text);
    for (size_t i = 0; i < c.size(); i++)
      t.coords[i] = (int)(int32_t)x.val(c[i]);
    t.store = store;
    t.smem = x.addr(a[store ? 1 : 0]);
    t.group = ts.bulk_committed;
    if (store)
      ts.tma_stores.push_back(t);
    else
      emu_mbarrier(x.addr(a[2]), x.text).loads.push_back(t);
    if (!store && emu_loads_early())
      emu_mbarrier_land(emu_mbarrier(x.addr(a[2]), x.text));
  } else if (op == "cp.async.bulk.commit_group") {
    ts.bulk_committed++;
  } else if (op == "cp.async.bulk.wait_group" || op == "cp.async.bulk.wait_group.read") {
    emu_tma_store_land(ts, (int)x.val(a[0]));
  } else if (op == "cp.async.ca.shared.global" || op == "cp.async.cg.shared.global") {
    EmuCopy c;
    c.dst = emu_shared(x.addr(a[0]));
    c.src = (const unsigned char *)(uintptr_t)x.val(a[1].elems[0]);
    c.bytes = (int)x.val(a[2]);
    c.src_bytes = a.size() > 3 ? (int)x.val(a[3]) : c.bytes;
    if (c.src_bytes > c.bytes || c.src_bytes < 0)
      emu_ptx_fail("cp.async source size larger than its copy", x.text);
    c.group = ts.cp_async_committed;
    ts.cp_async.push_back(c);
    if (emu_loads_early())
      emu_cp_async_land(ts, -1); // every copy, the open group's too
  } else if (op == "cp.async.commit_group") {
    ts.cp_async_committed++;
  } else if (op == "cp.async.wait_group") {
    emu_cp_async_land(ts, (int)x.val(a[0]));
  } else if (op == "cp.async.wait_all") {
    ts.cp_async_committed++;
    emu_cp_async_land(ts, 0);
  } else if (op == "bar.sync" || op == "barrier.sync" || op == "bar.arrive") {
    const int id = (int)x.val(a[0]), count = a.size() > 1 ? (int)x.val(a[1]) : emu_nthreads;
    if (id < 0 || id > 15)
      emu_ptx_fail("barrier number out of range", x.text);
    if (op == "bar.arrive")
      emu_bar_arrive(id, count);
    else
      emu_bar_sync(id, count);
  } else if (emu_starts(op, "ldmatrix.sync.aligned.")) {
    emu_ldmatrix(x, ins);
  } else if (emu_starts(op, "mma.sync.aligned.")) {
    emu_mma_sync(x, ins);
  } else {
    emu_ptx_fail("PTX instruction not emulated", op);
  }
}

inline void emu_asm(const char *text, std::initializer_list<EmuOperand> operands) {
  static std::unordered_map<const char *, std::pair<std::string, std::vector<EmuIns>>> cache;
  auto it = cache.find(text);
  if (it == cache.end())
    it = cache.emplace(text, std::make_pair(std::string(text), emu_parse_ptx(text))).first;
  EmuExec x{it->second.first, operands.begin(), (int)operands.size(), {}};
  for (const EmuIns &ins : it->second.second) {
    if (!ins.guard.empty()) {
      auto p = x.preds.find(ins.guard);
      if (p == x.preds.end())
        emu_ptx_fail("unknown predicate in", x.text);
      if (p->second == ins.guard_neg)
        continue;
    }
    emu_run_ins(x, ins);
  }
}
