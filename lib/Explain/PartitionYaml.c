// explain-partition's yaml, through lib/Support/Yaml.c: every point of the
// plan (up to YAML_MAX_POINTS), and --compare's shapes.
#include "ExplainPartitionInternal.h"

#include <stdlib.h>
#include <string.h>

/* ---- yaml, through lib/Support/Yaml.c ---- */

// A stream and an implicit document holding one block mapping, which
// starts with `title:` when there is one; one point per line, however long.
void tl_xp_y_begin(TlYaml *y, TlBuf *out, const char *title) {
  tl_yaml_begin(y, out, -1, true);
  tl_yaml_map(y, false);
  if (title) {
    tl_yaml_scalar(y, "title");
    tl_yaml_string(y, title);
  }
}

void tl_xp_y_finish(TlYaml *y) {
  tl_yaml_map_end(y);
  char err[256];
  // Only a malformed event sequence can fail (the buffer cannot): our bug.
  if (!tl_yaml_end(y, err, sizeof err)) TL_UNREACHABLE("explain-partition yaml", err);
}

// The plan's fields; threads and vector only when they vary (not in
// --compare, where they are given once at the top).
static void yaml_summary(TlYaml *em, const TlPartitionPlan *p, bool threads_vector) {
  tl_yaml_scalar(em, "extents");
  tl_yaml_ints(em, p->extents, p->ndims);
  if (threads_vector) {
    tl_yaml_key_int(em, "threads", p->threads);
    tl_yaml_key_int(em, "vector", p->vector);
  }
  tl_yaml_key_int(em, "total", p->total);
  tl_yaml_key_int(em, "accesses", p->accesses);
  tl_yaml_key_int(em, "steps", p->steps);
  tl_yaml_key_int(em, "slots", p->slots);
  tl_yaml_key_int(em, "threads_used", p->threads_used);
  tl_yaml_scalar(em, "guard");
  tl_yaml_scalar(em, p->guard ? "true" : "false");
}

void tl_xp_yaml_render(TlBuf *out, const TlPartitionPlan *p, const char *title) {
  TlYaml em;
  tl_xp_y_begin(&em, out, title);
  yaml_summary(&em, p, true);
  // The command line refuses bigger spaces; a library caller still gets a
  // well-formed summary rather than gigabytes of points.
  if (p->total > YAML_MAX_POINTS) {
    tl_yaml_key_int(&em, "points_omitted", p->total);
    tl_xp_y_finish(&em);
    return;
  }
  tl_yaml_scalar(&em, "points");
  tl_yaml_seq(&em, false);
  for (int64_t flat = 0; flat < p->total; flat++) {
    int64_t idx[TL_MAX_NEST], thread, slot;
    tl_xp_point_at(p, flat, idx, &thread, &slot);
    tl_yaml_map(&em, true);
    tl_yaml_scalar(&em, "index");
    tl_yaml_ints(&em, idx, p->ndims);
    tl_yaml_key_int(&em, "flat", flat);
    tl_yaml_key_int(&em, "thread", thread);
    tl_yaml_key_int(&em, "slot", slot);
    tl_yaml_map_end(&em);
  }
  tl_yaml_seq_end(&em);
  tl_xp_y_finish(&em);
}

void tl_xp_compare_yaml(TlBuf *out, int64_t threads, int64_t vector) {
  TlYaml em;
  tl_xp_y_begin(&em, out, NULL);
  tl_yaml_key_int(&em, "threads", threads);
  tl_yaml_key_int(&em, "vector", vector);
  tl_yaml_scalar(&em, "shapes");
  tl_yaml_seq(&em, false);
  for (int i = 0; i < NSHAPES; i++) {
    TlPartitionPlan p;
    tl_xp_shape_plan(&p, i, threads, vector);
    tl_yaml_map(&em, false);
    yaml_summary(&em, &p, false);
    tl_yaml_key_int(&em, "per_thread", p.total / threads);
    // Ownership: how many points threads 0 and 1 own, and their first four.
    tl_yaml_scalar(&em, "owners");
    tl_yaml_seq(&em, false);
    for (int64_t t = 0; t < 2; t++) {
      int64_t n = tl_partition_thread_count(&p, t), idx[TL_MAX_NEST];
      tl_yaml_map(&em, true);
      tl_yaml_key_int(&em, "thread", t);
      tl_yaml_key_int(&em, "points", n);
      tl_yaml_scalar(&em, "first");
      tl_yaml_seq(&em, true);
      for (int64_t k = 0; k < n && k < 4; k++) {
        tl_xp_owned_point(&p, t, k, idx);
        tl_yaml_ints(&em, idx, p.ndims);
      }
      tl_yaml_seq_end(&em);
      tl_yaml_map_end(&em);
    }
    tl_yaml_seq_end(&em);
    tl_yaml_map_end(&em);
  }
  tl_yaml_seq_end(&em);
  tl_xp_y_finish(&em);
}
