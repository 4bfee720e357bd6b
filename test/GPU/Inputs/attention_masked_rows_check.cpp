// An independent check of attention_masked_rows.py (the harness's reference
// comes from the same program, and the harness counts NaN on both sides as
// equal): appended to the CUDA tlc writes for it, this driver runs the kernel
// on pseudo-random Q, K, V with KVRange = {[0, 0), [130, 430)} and compares it with a plain
// double-precision attention: no element may be NaN or Inf, every fully
// masked row must be exactly 0, every other row within 2e-2 of the reference.
// Built for the CPU emulator (emulated-masked-rows.test) and for the GPU
// (run-masked-rows.test).
#include <cmath>
#include <cstdio>
#include <vector>

static float rnd(unsigned &s) {
  s = s * 1664525u + 1013904223u;
  return ((s >> 8) & 0xffff) / 32768.0f - 1.0f;
}

int main() {
  const int B = 2, H = 2, SQ = 1000, SK = 600, D = 64; // as in attention_masked_rows.py
  const int kvrange[2][2] = {{0, 0}, {130, 430}};
  unsigned s = 11;
  std::vector<half_t> q((size_t)B * H * SQ * D), k((size_t)B * H * SK * D), v((size_t)B * H * SK * D);
  for (auto &x : q) x = __float2half(rnd(s));
  for (auto &x : k) x = __float2half(rnd(s));
  for (auto &x : v) x = __float2half(rnd(s));
  half_t *dq, *dk, *dv, *dout;
  int *dlen;
  cudaMalloc((void **)&dq, q.size() * sizeof(half_t));
  cudaMalloc((void **)&dk, k.size() * sizeof(half_t));
  cudaMalloc((void **)&dv, v.size() * sizeof(half_t));
  cudaMalloc((void **)&dout, q.size() * sizeof(half_t));
  cudaMalloc((void **)&dlen, sizeof kvrange);
  cudaMemcpy(dq, q.data(), q.size() * sizeof(half_t), cudaMemcpyHostToDevice);
  cudaMemcpy(dk, k.data(), k.size() * sizeof(half_t), cudaMemcpyHostToDevice);
  cudaMemcpy(dv, v.data(), v.size() * sizeof(half_t), cudaMemcpyHostToDevice);
  cudaMemcpy(dlen, kvrange, sizeof kvrange, cudaMemcpyHostToDevice);
  cudaMemset(dout, 0xFF, q.size() * sizeof(half_t)); // NaN: a row nobody writes shows
  if (masked_rows_attention(dq, dk, dv, dlen, dout, 0) != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) {
    printf("launch failed\n");
    return 1;
  }
  std::vector<half_t> out(q.size());
  cudaMemcpy(out.data(), dout, out.size() * sizeof(half_t), cudaMemcpyDeviceToHost);
  long nonfinite = 0, masked_rows = 0, masked_nonzero = 0;
  double worst = 0;
  for (int b = 0; b < B; b++)
    for (int h = 0; h < H; h++)
      for (int i = 0; i < SQ; i++) {
        const half_t *qi = &q[(((size_t)b * H + h) * SQ + i) * D];
        const half_t *got = &out[(((size_t)b * H + h) * SQ + i) * D];
        std::vector<double> w;
        std::vector<int> keys;
        for (int j = 0; j < SK; j++) // the kernel's mask: padding, then bottom-right causal
          if (j >= kvrange[b][0] && j < kvrange[b][1] && j <= i + (SK - SQ)) {
            double dot = 0;
            for (int d = 0; d < D; d++)
              dot += (double)__half2float(qi[d]) * (double)__half2float(k[(((size_t)b * H + h) * SK + j) * D + d]);
            w.push_back(dot / std::sqrt((double)D));
            keys.push_back(j);
          }
        for (int d = 0; d < D; d++)
          if (!std::isfinite((double)__half2float(got[d]))) nonfinite++;
        if (keys.empty()) {
          masked_rows++;
          for (int d = 0; d < D; d++)
            if (__half2float(got[d]) != 0.0f) masked_nonzero++;
          continue;
        }
        double mx = w[0], sum = 0;
        for (double x : w) mx = std::max(mx, x);
        for (double &x : w) sum += (x = std::exp(x - mx));
        for (int d = 0; d < D; d++) {
          double want = 0;
          for (size_t t = 0; t < keys.size(); t++)
            want += w[t] / sum * (double)__half2float(v[(((size_t)b * H + h) * SK + keys[t]) * D + d]);
          double got_d = (double)__half2float(got[d]);
          if (std::isfinite(got_d)) worst = std::max(worst, std::fabs(got_d - want));
        }
      }
  printf("masked_rows_attention: %ld fully masked rows, %ld nonzero elements in them, %ld non-finite "
         "elements, max_abs_err %.3e on the others\n", masked_rows, masked_nonzero, nonfinite, worst);
  bool ok = masked_rows == (long)H * SQ + (long)H * (SQ - SK + 130) && masked_nonzero == 0 && nonfinite == 0 &&
            worst < 2e-2;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
