/* tlc-smith's element-wise families: T.Parallel nests over global tensors
 * of random rank, shape and dtype (guarded where the extents do not divide
 * the tiles), and tiles copied through shared memory or a fragment with
 * T.copy across the tensor edges. */
#include "Smith.h"

#include <string.h>

static const int tile_sizes[] = {1, 2, 8, 16, 32, 64, 128};
static const int thread_counts[] = {32, 64, 96, 128, 160, 256};
static const char *const block_names[] = {"bx", "by", "bz"};
static const char *const loop_names[] = {"i0", "i1", "i2"};

/* A random extent of at least one tile (T.copy refuses a tile wider than
 * its tensor), usually one that the tile does not divide. */
static int random_extent(Smith *s, int tile, int max_tiles) {
  int tiles = smith_range(&s->rng, 1, max_tiles);
  if (tiles == 1 || !smith_chance(&s->rng, 70)) return tiles * tile;
  return tiles * tile - smith_range(&s->rng, 0, tile - 1);
}

/* The block index that walks dimension d of an r-dimensional tensor: the
 * last dimension goes to bx, as the examples do. */
static const char *block_of(int rank, int d) {
  return block_names[rank - 1 - d];
}

typedef struct {
  int rank;
  int extent[3];
  int tile[3];
  int threads;
  /* Nonempty: dimension 0 is this runtime size (T.symbolic), bound to
   * extent[0] by the harness's --size (the "# smith-size:" line). */
  char size_name[24];
} Shape;

/* The extent of dimension d as the program writes it: a number, or the
 * name of the runtime size. */
static void print_extent(char *buf, size_t size, const Shape *shape, int d) {
  size_t used = strlen(buf);
  if (d == 0 && shape->size_name[0])
    snprintf(buf + used, size - used, "%s", shape->size_name);
  else
    snprintf(buf + used, size - used, "%d", shape->extent[d]);
}

static void random_shape(Smith *s, Shape *shape, int max_rank) {
  shape->rank = smith_range(&s->rng, 1, max_rank);
  int budget = 4096; /* points per block */
  for (int d = shape->rank - 1; d >= 0; d--) {
    int tile;
    do
      tile = smith_pick(&s->rng, tile_sizes, 7);
    while (tile > budget);
    budget /= tile;
    shape->tile[d] = tile;
    shape->extent[d] = random_extent(s, tile, shape->rank == 1 ? 40 : 6);
  }
  shape->threads = smith_pick(&s->rng, thread_counts, 6);
  shape->size_name[0] = 0;
}

/* Makes dimension 0 a runtime size, declared before the kernel together with
 * the value the harness binds it to. */
static void maybe_runtime_size(Smith *s, Shape *shape) {
  if (!smith_chance(&s->rng, 20)) return;
  snprintf(shape->size_name, sizeof shape->size_name, "m%llu", (unsigned long long)s->seed);
  smith_line(s, "# smith-size: %s=%d", shape->size_name, shape->extent[0]);
  smith_line(s, "%s = T.symbolic(\"%s\")", shape->size_name, shape->size_name);
  smith_line(s, "%s", "");
  smith_feature(s, "runtime-size");
}

static void print_shape(char *buf, size_t size, const Shape *shape) {
  buf[0] = 0;
  for (int d = 0; d < shape->rank; d++) {
    size_t used = strlen(buf);
    snprintf(buf + used, size - used, "%s", d ? ", " : "");
    print_extent(buf, size, shape, d);
  }
  if (shape->rank == 1) strncat(buf, ",", size - strlen(buf) - 1);
}

static void open_kernel(Smith *s, const Shape *shape) {
  char grid[128] = "", names[32] = "";
  for (int d = shape->rank - 1; d >= 0; d--) {
    size_t used = strlen(grid);
    if (d == 0 && shape->size_name[0])
      snprintf(grid + used, sizeof grid - used, "%sT.ceildiv(%s, %d)", used ? ", " : "",
               shape->size_name, shape->tile[d]);
    else
      snprintf(grid + used, sizeof grid - used, "%s%d", used ? ", " : "",
               (shape->extent[d] + shape->tile[d] - 1) / shape->tile[d]);
  }
  for (int d = 0; d < shape->rank; d++) {
    size_t used = strlen(names);
    snprintf(names + used, sizeof names - used, "%s%s", d ? ", " : "", block_names[d]);
  }
  smith_line(s, "with T.Kernel(%s, threads=%d) as %s%s%s:", grid, shape->threads,
             shape->rank > 1 ? "(" : "", names, shape->rank > 1 ? ")" : "");
}

/* "A[by * 16 + i0, bx * 64 + i1]", the element of the nest's point. */
static void global_point(char *buf, size_t size, const char *tensor, const Shape *shape) {
  snprintf(buf, size, "%s[", tensor);
  for (int d = 0; d < shape->rank; d++) {
    size_t used = strlen(buf);
    snprintf(buf + used, size - used, "%s%s * %d + %s", d ? ", " : "", block_of(shape->rank, d),
             shape->tile[d], loop_names[d]);
  }
  strncat(buf, "]", size - strlen(buf) - 1);
}

/* "A[by * 16, bx * 64]", the corner of the block's tile. */
static void global_corner(char *buf, size_t size, const char *tensor, const Shape *shape) {
  snprintf(buf, size, "%s[", tensor);
  for (int d = 0; d < shape->rank; d++) {
    size_t used = strlen(buf);
    snprintf(buf + used, size - used, "%s%s * %d", d ? ", " : "", block_of(shape->rank, d),
             shape->tile[d]);
  }
  strncat(buf, "]", size - strlen(buf) - 1);
}

/* A loop_layout= that rotates the default mapping: point f (row-major) goes
 * to thread (f + r) % N % T, local (f + r) % N / T, a bijection that is not
 * the default formula, so tlc inverts it into a table. */
static void rotated_layout(Smith *s, const Shape *shape, const char *vars, char *buf, size_t size) {
  int points = 1;
  for (int d = 0; d < shape->rank; d++)
    points *= shape->tile[d];
  char flat[96] = "";
  for (int d = 0; d < shape->rank; d++) {
    int stride = 1;
    for (int e = d + 1; e < shape->rank; e++)
      stride *= shape->tile[e];
    size_t used = strlen(flat);
    snprintf(flat + used, sizeof flat - used, "%s%s * %d", d ? " + " : "", loop_names[d], stride);
  }
  int rotation = smith_range(&s->rng, 1, points);
  char extents[64] = "";
  for (int d = 0; d < shape->rank; d++) {
    size_t used = strlen(extents);
    snprintf(extents + used, sizeof extents - used, "%s%d", d ? ", " : "", shape->tile[d]);
  }
  snprintf(buf, size,
           ", loop_layout=T.Fragment((%s%s), forward_fn=lambda %s: ((%s + %d) %% %d %% %d, "
           "(%s + %d) %% %d // %d))",
           extents, shape->rank == 1 ? "," : "", vars, flat, rotation, points, shape->threads, flat,
           rotation, points, shape->threads);
  smith_feature(s, "loop-layout");
}

static void parallel_header(Smith *s, const Shape *shape, int with_layout) {
  char extents[64] = "", layout[512] = "";
  for (int d = 0; d < shape->rank; d++) {
    size_t used = strlen(extents);
    snprintf(extents + used, sizeof extents - used, "%s%d", d ? ", " : "", shape->tile[d]);
  }
  const char *vars = shape->rank == 1 ? "i0" : shape->rank == 2 ? "i0, i1" : "i0, i1, i2";
  if (with_layout) rotated_layout(s, shape, vars, layout, sizeof layout);
  smith_line(s, "for %s in T.Parallel(%s%s):", vars, extents, layout);
  smith_feature(s, shape->rank == 1   ? "parallel-1d"
                   : shape->rank == 2 ? "parallel-2d"
                                      : "parallel-3d");
}

/* The guard of a point whose tile may cross the tensor's edge; returns
 * whether one was written (and the caller must indent). */
static int edge_guard(Smith *s, const Shape *shape) {
  char cond[256] = "";
  for (int d = 0; d < shape->rank; d++) {
    /* A runtime size is guarded whatever its value. */
    int runtime = d == 0 && shape->size_name[0];
    if (shape->extent[d] % shape->tile[d] == 0 && !runtime) continue;
    size_t used = strlen(cond);
    snprintf(cond + used, sizeof cond - used, "%s%s * %d + %s < ", used ? " and " : "",
             block_of(shape->rank, d), shape->tile[d], loop_names[d]);
    print_extent(cond, sizeof cond, shape, d);
  }
  if (!cond[0]) return 0;
  smith_line(s, "if %s:", cond);
  smith_feature(s, "edge-guard");
  return 1;
}

static void cast_to_f32(char *buf, size_t size) {
  static const char head[] = "T.cast(", tail[] = ", \"float32\")";
  size_t len = strlen(buf);
  if (len + sizeof head + sizeof tail > size)
    return; /* cannot happen for the indices written here */
  memmove(buf + sizeof head - 1, buf, len + 1);
  memcpy(buf, head, sizeof head - 1);
  strcat(buf, tail);
}

static SmithDtype random_float_dtype(Smith *s) {
  static const int floats[] = {DT_F16, DT_BF16, DT_F32, DT_F32, DT_F64};
  return (SmithDtype)smith_pick(&s->rng, floats, 5);
}

void smith_elementwise(Smith *s, const char *name) {
  Shape shape;
  random_shape(s, &shape, 3);
  maybe_runtime_size(s, &shape);
  int is_float = smith_chance(&s->rng, 75);
  SmithDtype in_a = is_float ? random_float_dtype(s) : DT_I32;
  SmithDtype in_b = is_float ? random_float_dtype(s) : DT_I32;
  SmithDtype out = is_float ? random_float_dtype(s) : (smith_chance(&s->rng, 30) ? DT_I8 : DT_I32);
  char dims[64];
  print_shape(dims, sizeof dims, &shape);
  smith_line(s, "@T.prim_func");
  smith_line(s, "def %s(A: T.Tensor((%s), \"%s\"), B: T.Tensor((%s), \"%s\"),", name, dims,
             smith_dtype_name(in_a), dims, smith_dtype_name(in_b));
  smith_line(s, "        C: T.Tensor((%s), \"%s\")):", dims, smith_dtype_name(out));
  s->indent++;
  open_kernel(s, &shape);
  s->indent++;
  parallel_header(s, &shape, smith_chance(&s->rng, 25));
  s->indent++;
  int guarded = edge_guard(s, &shape);
  s->indent += guarded;
  char a[192], b[192], c[128], expr[SMITH_EXPR_MAX] = "";
  global_point(a, sizeof a, "A", &shape);
  global_point(b, sizeof b, "B", &shape);
  if (in_a != in_b) /* T.max / T.min want one dtype: compute in float32 */
    cast_to_f32(a, sizeof a), cast_to_f32(b, sizeof b);
  global_point(c, sizeof c, "C", &shape);
  const char *leaves[] = {a, b, "v"};
  int uses_scalar = smith_chance(&s->rng, 30);
  if (uses_scalar) {
    smith_expr(s, is_float, leaves, 2, 2, expr, sizeof expr);
    smith_line(s, "v = %s", expr);
    smith_feature(s, "scalar-local");
    expr[0] = 0;
  }
  smith_expr(s, is_float, leaves, uses_scalar ? 3 : 2, 3, expr, sizeof expr);
  smith_line(s, "%s = %s", c, expr);
  s->indent -= 3 + guarded;
  smith_feature(s, smith_dtype_name(out));
}

/* A 2-D tile of a global tensor staged in shared memory or in a fragment:
 * T.copy in (zero-filled past the edge), an element-wise update of the tile,
 * T.copy out (stores past the edge skipped). */
void smith_tile_copy(Smith *s, const char *name) {
  Shape shape;
  do
    random_shape(s, &shape, 2);
  while (shape.rank != 2 && smith_chance(&s->rng, 70));
  maybe_runtime_size(s, &shape);
  int is_float = smith_chance(&s->rng, 80);
  SmithDtype in = is_float ? random_float_dtype(s) : DT_I32;
  SmithDtype tile = is_float ? random_float_dtype(s) : DT_I32;
  SmithDtype out = is_float ? random_float_dtype(s) : DT_I32;
  /* 2-D tiles with a unit dimension go into fragments too (their unit
   * dimension is dropped; test/Smith/fragment-unit-dim.tl). */
  int unit_dim = shape.rank == 2 && (shape.tile[0] == 1 || shape.tile[1] == 1);
  int fits = smith_fragment_fits(shape.tile[0] * (shape.rank == 2 ? shape.tile[1] : 1), tile,
                                 shape.threads);
  const char *kind = smith_chance(&s->rng, 50) || !fits ? "shared" : "fragment";
  if (unit_dim && kind[0] == 'f') smith_feature(s, "fragment-unit-dim");
  char dims[64];
  print_shape(dims, sizeof dims, &shape);
  smith_line(s, "@T.prim_func");
  smith_line(s, "def %s(A: T.Tensor((%s), \"%s\"), C: T.Tensor((%s), \"%s\")):", name, dims,
             smith_dtype_name(in), dims, smith_dtype_name(out));
  s->indent++;
  open_kernel(s, &shape);
  s->indent++;
  char tile_dims[64];
  Shape tile_shape = shape;
  tile_shape.size_name[0] = 0;
  for (int d = 0; d < shape.rank; d++)
    tile_shape.extent[d] = shape.tile[d];
  print_shape(tile_dims, sizeof tile_dims, &tile_shape);
  smith_line(s, "S = T.alloc_%s((%s), \"%s\")", kind, tile_dims, smith_dtype_name(tile));
  smith_feature(s, strcmp(kind, "shared") == 0 ? "shared" : "fragment");
  char corner_a[128], corner_c[128];
  global_corner(corner_a, sizeof corner_a, "A", &shape);
  global_corner(corner_c, sizeof corner_c, "C", &shape);
  smith_line(s, "T.copy(%s, S)", corner_a);
  smith_feature(s, "copy-in");
  int has_second = smith_chance(&s->rng, 40);
  if (has_second) {
    smith_line(s, "F = T.alloc_%s((%s), \"%s\")", kind, tile_dims, smith_dtype_name(tile));
    if (smith_chance(&s->rng, 50)) {
      smith_line(s, "T.fill(F, %s)", is_float ? "0.375" : "3");
      smith_feature(s, "fill");
    } else {
      smith_line(s, "T.clear(F)");
      smith_feature(s, "clear");
    }
  }
  /* No loop_layout= here: a nest over a fragment follows its layout. */
  parallel_header(s, &shape, 0);
  s->indent++;
  char elem_s[32], elem_f[32], expr[SMITH_EXPR_MAX] = "";
  snprintf(elem_s, sizeof elem_s, shape.rank == 1 ? "S[i0]" : "S[i0, i1]");
  snprintf(elem_f, sizeof elem_f, shape.rank == 1 ? "F[i0]" : "F[i0, i1]");
  const char *leaves[] = {elem_s, elem_f};
  smith_expr(s, is_float, leaves, has_second ? 2 : 1, 3, expr, sizeof expr);
  smith_line(s, "%s = %s", elem_s, expr);
  s->indent--;
  int slice_out = smith_chance(&s->rng, 40);
  if (slice_out && shape.rank == 2) {
    smith_line(s, "T.copy(S, C[by * %d:by * %d + %d, bx * %d:bx * %d + %d])", shape.tile[0],
               shape.tile[0], shape.tile[0], shape.tile[1], shape.tile[1], shape.tile[1]);
    smith_feature(s, "copy-slice");
  } else {
    smith_line(s, "T.copy(S, %s)", corner_c);
  }
  smith_feature(s, "copy-out");
  s->indent -= 2;
}
