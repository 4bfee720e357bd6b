// Compiled into every shared library the tlc Python package builds, next to
// the generated .cu: the words for a cudaError_t, from the same CUDA runtime
// the launchers use, so a launch error raises with its name and meaning.
#include <cuda_runtime.h>

extern "C" const char *tlc_py_error_name(int code) {
  return cudaGetErrorName((cudaError_t)code);
}

extern "C" const char *tlc_py_error_string(int code) {
  return cudaGetErrorString((cudaError_t)code);
}
