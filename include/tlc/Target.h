// Target descriptions (lib/Target/Target.c): the facts about a GPU that passes
// and the pipeline advisor need, read with libyaml from targets/<name>.yaml,
// each number with its source in the file.
#ifndef TLC_TARGET_H
#define TLC_TARGET_H

#include <stdbool.h>
#include <stdint.h>

#include "tlc/Support.h"

typedef struct TlTarget {
  const char *name;                 // "sm_90"
  int sm;                           // 90
  const char *nvcc_arch;            // nvcc's flag for it: "-arch=sm_90", "-gencode=arch=compute_90a,code=sm_90a"
  int64_t max_shared_bytes;         // per block, opt-in maximum (232448 on sm_90)
  int64_t default_shared_bytes;     // without opt-in (49152)
  int64_t max_threads_per_block;    // 1024
  int64_t max_vector_bits;          // widest single load/store (128)
  bool has_cp_async;                // sm_80+
  bool has_wgmma, has_tma;          // sm_90
  int sm_count;                     // 132 on H200
  double clock_ghz;                 // boost clock used for cycle estimates
  double dram_bandwidth_gbs;        // GB/s, whole chip
  int64_t dram_latency_cycles;      // global load latency
  double tensor_flops_per_cycle_sm; // dense fp16/bf16 mma.sync flops per SM per cycle
  // Added with lib/Target/Target.c:
  double wgmma_flops_per_cycle_sm; // dense fp16/bf16 wgmma flops per SM per cycle (0: no wgmma)
  int64_t shared_per_sm_bytes;     // shared memory of one SM, shared by its resident blocks
  double l2_bandwidth_gbs;         // GB/s from L2 into the SMs, whole chip (0: not measured)
  int64_t l2_latency_cycles;       // latency of a load that hits L2 (0: not measured)
  const char *description;         // "NVIDIA H200 SXM 141GB (GH100)"
  const char *path;                // the file the description was read from
} TlTarget;

// Loads targets/<name>.yaml. Search order: $TLC_TARGETS_DIR, the directory
// <dir of the running tlc>/../share/tlc/targets, the source tree's targets/.
// False with a one-line reason in err (unknown target lists the known ones).
bool tl_target_load(TlArena *a, const char *name, TlTarget *out, char *err, size_t errlen);

#endif
