// YAML writing through libyaml into a TlBuf (lib/Support/Yaml.c), shared by
// --emit=plan and the explain tools. Separate from Support.h so that only
// the files that write YAML see <yaml.h>.
#ifndef TLC_YAML_H
#define TLC_YAML_H

#include <yaml.h>

#include "tlc/Support.h"

typedef struct TlYaml {
  yaml_emitter_t emitter;
  TlBuf *out;  // where the text goes (callers may drain it as it grows)
  bool failed; // the emitter refused an event: a bug in the caller's sequence
} TlYaml;

// Opens a stream and an implicit document writing into out. width: the
// line length libyaml folds at (-1: never); unicode: non-ASCII text is
// written as is rather than escaped. Out of memory is fatal.
void tl_yaml_begin(TlYaml *y, TlBuf *out, int width, bool unicode);
// Closes the document and the stream and releases the emitter. False when
// any event failed, with libyaml's reason in err.
bool tl_yaml_end(TlYaml *y, char *err, size_t errlen);

void tl_yaml_scalar(TlYaml *y, const char *text); // plain when it can be
void tl_yaml_string(TlYaml *y, const char *text); // double-quoted: "yes" stays a string
void tl_yaml_int(TlYaml *y, int64_t v);
void tl_yaml_key_str(TlYaml *y, const char *key, const char *value);
void tl_yaml_key_int(TlYaml *y, const char *key, int64_t v);
void tl_yaml_ints(TlYaml *y, const int64_t *v, int n); // a flow sequence [a, b]
void tl_yaml_map(TlYaml *y, bool flow);
void tl_yaml_map_end(TlYaml *y);
void tl_yaml_seq(TlYaml *y, bool flow);
void tl_yaml_seq_end(TlYaml *y);

#endif
