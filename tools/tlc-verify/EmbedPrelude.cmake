# Writes the prelude header into a C source as a byte array (cmake -P, so it
# needs no xxd): -DIN=tlc_verify_prelude.h -DOUT=PreludeData.c
file(READ ${IN} _hex HEX)
string(LENGTH "${_hex}" _n)
math(EXPR _len "${_n} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," _bytes "${_hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n  " _bytes "${_bytes}")
file(WRITE ${OUT} "// Generated from ${IN} by EmbedPrelude.cmake. Do not edit.\n#include <stddef.h>\n"
  "const unsigned char tv_prelude_bytes[] = {\n  ${_bytes}0};\nconst size_t tv_prelude_len = ${_len};\n")
