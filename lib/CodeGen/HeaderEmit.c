// placeholder until the header emitter lands (see include/tlc/CodeGen.h)
#include "tlc/CodeGen.h"

void tl_emit_header(const TlModule *m, const char *header_name, TlBuf *out) {
  (void)m;
  tl_buf_printf(out, "/* %s: header generation is not implemented yet */\n", header_name);
}
