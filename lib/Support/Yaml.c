// YAML writing through libyaml's emitter into a TlBuf: the event calls that
// --emit=plan (lib/CodeGen/PlanYaml.c) and the explain tools share, so that
// every YAML document tlc writes is quoted and laid out by the same code.
#include <inttypes.h>
#include <string.h>

#include "tlc/Yaml.h"

static int write_to_buf(void *data, unsigned char *bytes, size_t size) {
  tl_buf_write((TlBuf *)data, (const char *)bytes, size);
  return 1; // a TlBuf cannot fail: out of memory is fatal
}

// After a failure the emitter is in an undefined state: nothing more goes in.
static void emit(TlYaml *y, yaml_event_t *ev) {
  if (!y->failed && !yaml_emitter_emit(&y->emitter, ev)) y->failed = true;
}

void tl_yaml_begin(TlYaml *y, TlBuf *out, int width, bool unicode) {
  *y = (TlYaml){.out = out};
  if (!yaml_emitter_initialize(&y->emitter)) tl_fatal_oom();
  yaml_emitter_set_output(&y->emitter, write_to_buf, out);
  yaml_emitter_set_width(&y->emitter, width);
  if (unicode) yaml_emitter_set_unicode(&y->emitter, 1);
  yaml_event_t ev;
  yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
  emit(y, &ev);
  yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
  emit(y, &ev);
}

bool tl_yaml_end(TlYaml *y, char *err, size_t errlen) {
  yaml_event_t ev;
  yaml_document_end_event_initialize(&ev, 1);
  emit(y, &ev);
  yaml_stream_end_event_initialize(&ev);
  emit(y, &ev);
  if (!y->failed && !yaml_emitter_flush(&y->emitter)) y->failed = true;
  if (y->failed)
    tl_set_err(err, errlen, "YAML emitter failed: %s",
               y->emitter.problem ? y->emitter.problem : "unknown problem");
  yaml_emitter_delete(&y->emitter);
  return !y->failed;
}

static void scalar(TlYaml *y, const char *text, yaml_scalar_style_t style) {
  yaml_event_t ev;
  yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)text, (int)strlen(text), 1, 1,
                               style);
  emit(y, &ev);
}

void tl_yaml_scalar(TlYaml *y, const char *text) {
  scalar(y, text, YAML_PLAIN_SCALAR_STYLE);
}

void tl_yaml_string(TlYaml *y, const char *text) {
  scalar(y, text, YAML_DOUBLE_QUOTED_SCALAR_STYLE);
}

void tl_yaml_int(TlYaml *y, int64_t v) {
  char text[24];
  snprintf(text, sizeof text, "%" PRId64, v);
  tl_yaml_scalar(y, text);
}

void tl_yaml_key_str(TlYaml *y, const char *key, const char *value) {
  tl_yaml_scalar(y, key);
  tl_yaml_scalar(y, value);
}

void tl_yaml_key_int(TlYaml *y, const char *key, int64_t v) {
  tl_yaml_scalar(y, key);
  tl_yaml_int(y, v);
}

void tl_yaml_ints(TlYaml *y, const int64_t *v, int n) {
  tl_yaml_seq(y, true);
  for (int i = 0; i < n; i++)
    tl_yaml_int(y, v[i]);
  tl_yaml_seq_end(y);
}

void tl_yaml_map(TlYaml *y, bool flow) {
  yaml_event_t ev;
  yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
                                      flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE);
  emit(y, &ev);
}

void tl_yaml_map_end(TlYaml *y) {
  yaml_event_t ev;
  yaml_mapping_end_event_initialize(&ev);
  emit(y, &ev);
}

void tl_yaml_seq(TlYaml *y, bool flow) {
  yaml_event_t ev;
  yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
                                       flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE);
  emit(y, &ev);
}

void tl_yaml_seq_end(TlYaml *y) {
  yaml_event_t ev;
  yaml_sequence_end_event_initialize(&ev);
  emit(y, &ev);
}
