// An independent check of T.reshape's meaning (the harness's reference comes
// from the same sema lowering, so it cannot catch a wrong index view): the
// CUDA that tlc writes for fragment_reshape.py is appended to by this driver,
// which runs both kernels on fixed pseudo-random inputs and compares them
// with a plain C++ computation of TileLang's row-major reshape.
// test/GPU/emulated-fragment-reshape.test builds it for the CPU emulator.
#include <cmath>
#include <cstdio>
#include <vector>

static float rnd(unsigned &s) {
  s = s * 1664525u + 1013904223u;
  return ((s >> 8) & 0xffff) / 32768.0f - 1.0f;
}

template <class T> static T *dev(const std::vector<T> &h) {
  T *d;
  cudaMalloc((void **)&d, h.size() * sizeof(T));
  cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}

template <class T> static std::vector<T> host(T *d, size_t n) {
  std::vector<T> h(n);
  cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
  return h;
}

int main() {
  unsigned s = 7;
  bool bad = false;
  { // O[r, q] = sum_h max((A[r] . B[q * 24 + h]) * S[r], 0) * W[q, h]
    std::vector<float> A(128 * 32), B(72 * 32), W(72), S(128), O(128 * 3, 0);
    for (auto *v : {&A, &B, &W, &S})
      for (auto &x : *v)
        x = rnd(s);
    float *dO = dev(O);
    if (reshape_gemm_segments(dev(A), dev(B), dev(W), dev(S), dO, 0) != cudaSuccess) return 2;
    std::vector<float> got = host(dO, O.size());
    double worst = 0;
    for (int r = 0; r < 128; r++)
      for (int q = 0; q < 3; q++) {
        double ref = 0;
        for (int h = 0; h < 24; h++) {
          double d = 0;
          for (int k = 0; k < 32; k++)
            d += A[r * 32 + k] * B[(q * 24 + h) * 32 + k];
          ref += fmax(d * S[r], 0) * W[q * 24 + h];
        }
        worst = fmax(worst, fabs(ref - got[r * 3 + q]));
      }
    printf("reshape_gemm_segments: max_abs_err %.3g\n", worst);
    bad = bad || worst > 1e-3;
  }
  { // M[i, q] = max_h X[i, q * 20 + h]; R[i] = 1 + sum_j X[i, j] + X[i, 20 + j]; F = 2 X (flat)
    std::vector<float> X(2400), M(120, 0), R(40, 0), F(2400, 0);
    for (auto &x : X)
      x = rnd(s);
    float *dM = dev(M), *dR = dev(R), *dF = dev(F);
    if (reshape_rows(dev(X), dM, dR, dF, 0) != cudaSuccess) return 2;
    std::vector<float> m = host(dM, 120), r = host(dR, 40), f = host(dF, 2400);
    double worst = 0;
    for (int i = 0; i < 40; i++) {
      for (int q = 0; q < 3; q++) {
        float mx = -INFINITY;
        for (int h = 0; h < 20; h++)
          mx = fmaxf(mx, X[i * 60 + q * 20 + h]);
        worst = fmax(worst, fabs(mx - m[i * 3 + q]));
      }
      double acc = 1;
      for (int j = 0; j < 20; j++)
        acc += X[i * 60 + j] + X[i * 60 + 20 + j];
      worst = fmax(worst, fabs(acc - r[i]));
    }
    for (int k = 0; k < 2400; k++)
      worst = fmax(worst, fabs(2.0 * X[k] - f[k]));
    printf("reshape_rows: max_abs_err %.3g\n", worst);
    bad = bad || worst > 1e-3;
  }
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad;
}
