// placeholder until the harness lands (see include/tlc/Harness.h)
#include "tlc/Harness.h"

bool tl_emit_harness(TlArena *a, const TlModule *ref, const TlModule *compiled,
                     const TlHarnessOptions *o, TlBuf *out, TlDiag *d) {
  (void)a, (void)ref, (void)compiled, (void)o, (void)out;
  tl_error_noloc(d, "--harness is not implemented yet");
  return false;
}
