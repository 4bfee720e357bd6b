// What the files of `tlc explain-partition` share (lib/Explain/): the
// output bounds, the plan's point helpers (ExplainPartition.c), the table,
// yaml and svg renderers (PartitionTable.c, PartitionYaml.c, PartitionSvg.c)
// and the fragment nest's (ExplainFragment.c).
#ifndef TLC_EXPLAIN_PARTITION_INTERNAL_H
#define TLC_EXPLAIN_PARTITION_INTERNAL_H

#include "tlc/Explain.h"
#include "tlc/FragLayout.h"
#include "tlc/Yaml.h"

#include <inttypes.h>

enum {
  TABLE_MAX_ROWS = 4096, // the seed prints every point; we do up to this many
  TABLE_HEAD = 32,       // rows kept before and after the "... omitted" line
  TABLE_TAIL = 8,
  OWNED_SHOWN = 8, // points listed per thread in "by thread", as in the seed
  TUPLE_MAX = 256, // str() of an 8-deep int64 tuple fits easily
  SVG_MAX = 64,    // cells drawn per side
  SVG_CELL_W = 52,
  SVG_CELL_H = 30,
  SVG_MARGIN = 16,
  SVG_LEGEND_MAX = 16, // swatches in the legend
};
#define YAML_MAX_POINTS INT64_C(1000000)
enum { NSHAPES = 5 }; // the seed's --compare shapes (PartitionTable.c)

/* ExplainPartition.c: the plan's points */
// Python's str(tuple) of v[0..n) into s (TUPLE_MAX bytes): "(0, 1)", "(5,)".
const char *tl_xp_tuple_str(char *s, const int64_t *v, int n);
void tl_xp_point_at(const TlPartitionPlan *p, int64_t flat, int64_t *idx, int64_t *thread,
                    int64_t *slot);
void tl_xp_owned_point(const TlPartitionPlan *p, int64_t thread, int64_t k, int64_t *idx);

/* PartitionTable.c */
// The rows of a table over `total` points, the middle elided past
// TABLE_MAX_ROWS; row(b, space, flat) prints one (plans and fragment nests).
void tl_xp_table_rows(TlBuf *b, int64_t total, void (*row)(TlBuf *, const void *, int64_t),
                      const void *space);
void tl_xp_table_render(TlBuf *b, const TlPartitionPlan *p, const char *title);
// The plan of --compare's shape i (of NSHAPES).
void tl_xp_shape_plan(TlPartitionPlan *p, int i, int64_t threads, int64_t vector);
void tl_xp_compare_table(TlBuf *b, int64_t threads, int64_t vector);

/* PartitionYaml.c */
// A yaml document on out (its mapping starting with `title:` unless title is
// NULL), and its end (the emitter cannot fail on a buffer).
void tl_xp_y_begin(TlYaml *y, TlBuf *out, const char *title);
void tl_xp_y_finish(TlYaml *y);
void tl_xp_yaml_render(TlBuf *out, const TlPartitionPlan *p, const char *title);
void tl_xp_compare_yaml(TlBuf *out, int64_t threads, int64_t vector);

/* PartitionSvg.c */
void tl_xp_svg_render(TlBuf *out, const TlPartitionPlan *p, const char *title);
void tl_xp_compare_svg(TlBuf *out, int64_t threads, int64_t vector);
void tl_xp_frag_svg(TlBuf *out, const TlFragNest *n, const char *title, const char *follows,
                    const char *fragment);

#endif
