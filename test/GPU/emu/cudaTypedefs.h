// The driver-API names tlc's TMA prelude uses (CUtensorMap and
// cuTensorMapEncodeTiled, reached through cudaGetDriverEntryPointByVersion),
// for the CPU emulator. The tensor map keeps what a TMA copy needs; the copy
// itself is emulated in ptx_emu.h.
#pragma once
#include <stdint.h>
#include <string.h>

typedef uint64_t cuuint64_t;
typedef uint32_t cuuint32_t;
typedef int CUresult;
enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1 };
typedef enum {
  CU_TENSOR_MAP_DATA_TYPE_UINT8 = 0,
  CU_TENSOR_MAP_DATA_TYPE_UINT16,
  CU_TENSOR_MAP_DATA_TYPE_UINT32,
  CU_TENSOR_MAP_DATA_TYPE_INT32,
  CU_TENSOR_MAP_DATA_TYPE_UINT64,
  CU_TENSOR_MAP_DATA_TYPE_INT64,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT64,
  CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
} CUtensorMapDataType;
typedef enum { CU_TENSOR_MAP_INTERLEAVE_NONE = 0 } CUtensorMapInterleave;
typedef enum {
  CU_TENSOR_MAP_SWIZZLE_NONE = 0,
  CU_TENSOR_MAP_SWIZZLE_32B,
  CU_TENSOR_MAP_SWIZZLE_64B,
  CU_TENSOR_MAP_SWIZZLE_128B,
} CUtensorMapSwizzle;
typedef enum { CU_TENSOR_MAP_L2_PROMOTION_NONE = 0, CU_TENSOR_MAP_L2_PROMOTION_L2_64B,
               CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B } CUtensorMapL2promotion;
typedef enum { CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE = 0 } CUtensorMapFloatOOBfill;

// 128 bytes, as the driver's: base, rank, element size and swizzle, and per
// dimension the extent, the byte stride (dimension 0's is the element size)
// and the box extent.
struct CUtensorMap {
  uint64_t base;
  uint32_t rank, elem_bytes, swizzle, pad;
  uint64_t dims[5];
  uint64_t strides[5];
  uint32_t box[5];
  uint32_t pad2[3];
};

typedef CUresult (*PFN_cuTensorMapEncodeTiled_v12000)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *,
                                                       const cuuint64_t *, const cuuint64_t *, const cuuint32_t *,
                                                       const cuuint32_t *, CUtensorMapInterleave,
                                                       CUtensorMapSwizzle, CUtensorMapL2promotion,
                                                       CUtensorMapFloatOOBfill);

inline CUresult emu_tensor_map_encode_tiled(CUtensorMap *map, CUtensorMapDataType type, cuuint32_t rank, void *base,
                                            const cuuint64_t *dims, const cuuint64_t *strides,
                                            const cuuint32_t *box, const cuuint32_t *elem_strides,
                                            CUtensorMapInterleave, CUtensorMapSwizzle swizzle,
                                            CUtensorMapL2promotion, CUtensorMapFloatOOBfill) {
  static const uint32_t bytes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2};
  if (rank < 1 || rank > 5 || (unsigned)type > 9)
    return CUDA_ERROR_INVALID_VALUE;
  memset(map, 0, sizeof *map);
  map->base = (uint64_t)(uintptr_t)base;
  map->rank = rank;
  map->elem_bytes = bytes[type];
  map->swizzle = (uint32_t)swizzle;
  for (unsigned d = 0; d < rank; d++) {
    if (elem_strides[d] != 1)
      return CUDA_ERROR_INVALID_VALUE; // tlc always passes 1
    map->dims[d] = dims[d];
    map->strides[d] = d == 0 ? map->elem_bytes : strides[d - 1];
    map->box[d] = box[d];
  }
  return CUDA_SUCCESS;
}

typedef enum { cudaDriverEntryPointSuccess = 0, cudaDriverEntryPointSymbolNotFound = 1 } cudaDriverEntryPointQueryResult;
enum { cudaEnableDefault = 0 };
inline int cudaGetDriverEntryPointByVersion(const char *name, void **fn, unsigned, unsigned long long,
                                            cudaDriverEntryPointQueryResult *found) {
  if (strcmp(name, "cuTensorMapEncodeTiled") != 0) {
    *found = cudaDriverEntryPointSymbolNotFound;
    return 1;
  }
  *fn = (void *)&emu_tensor_map_encode_tiled;
  *found = cudaDriverEntryPointSuccess;
  return 0;
}
