// ---------------------------------------------------------------------------
// Per kernel: data, reference, compiled kernel, check, timing; then main().
// ---------------------------------------------------------------------------
#ifdef TLH_CUBLAS
// C = op(A) op(B) in row-major is C^T = op(B)^T op(A)^T in cuBLAS's
// column-major view: B first, m and n swapped, leading dimensions of the
// row-major shapes.
static cublasStatus_t tlh_cublas_gemm(cublasHandle_t h, const TlhKernel *k, void *const *p) {
  const TlhTensor *A = &k->tensors[k->a], *B = &k->tensors[k->b], *C = &k->tensors[k->c];
  cudaDataType in = A->type == TLH_F16 ? CUDA_R_16F : CUDA_R_16BF;
  cudaDataType out = C->type == TLH_F32 ? CUDA_R_32F : C->type == TLH_F16 ? CUDA_R_16F : CUDA_R_16BF;
  const float alpha = 1.0f, beta = 0.0f;
  int m = (int)k->m, n = (int)k->n, kk = (int)k->k;
  return cublasGemmEx(h, k->trans_b ? CUBLAS_OP_T : CUBLAS_OP_N, k->trans_a ? CUBLAS_OP_T : CUBLAS_OP_N, n, m, kk,
                      &alpha, p[k->b], in, (int)B->shape[1], p[k->a], in, (int)A->shape[1], &beta, p[k->c], out,
                      n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}
#endif

// A copy of every tensor of k, on the device.
static std::vector<void *> tlh_clone(const TlhKernel *k, const std::vector<void *> &from) {
  std::vector<void *> to(from.size());
  for (size_t i = 0; i < from.size(); i++) {
    size_t bytes = (size_t)tlh_bytes(&k->tensors[i]);
    TLH_CHECK(cudaMalloc(&to[i], bytes));
    TLH_CHECK(cudaMemcpy(to[i], from[i], bytes, cudaMemcpyDeviceToDevice));
  }
  return to;
}

static void tlh_free(std::vector<void *> &set) {
  for (void *p : set)
    TLH_CHECK(cudaFree(p));
  set.clear();
}

// Runs the compiled kernel; false (after saying why) when it fails to run.
static bool tlh_run_compiled(const TlhKernel *k, std::vector<void *> &set, cudaStream_t stream) {
  cudaError_t err = k->run(set.data(), stream);
  if (err == cudaSuccess)
    err = cudaStreamSynchronize(stream);
  if (err == cudaSuccess)
    return true;
  printf("check %s: FAIL rel_err=inf max_abs=inf nan=0\n  the kernel failed: %s (%s)\n", k->name,
         cudaGetErrorName(err), cudaGetErrorString(err));
  fflush(stdout);
  if (cudaDeviceSynchronize() != cudaSuccess) { // a sticky error: the context is gone
    fprintf(stderr, "the CUDA context is unusable after this error; stopping\n");
    exit(1);
  }
  return false;
}

// Returns true when every check passed.
static bool tlh_run_kernel(const TlhKernel *k, int index, const TlhOptions *o, const cudaDeviceProp *prop) {
  const int nt = k->ntensors;
  const cudaStream_t stream = 0;
  printf("kernel %s:", k->name);
  long long maxe = 1, total = 0;
  for (int i = 0; i < nt; i++) {
    const TlhTensor *t = &k->tensors[i];
    printf(" %s %s[", t->name, tlh_type_name[t->type]);
    for (int d = 0; d < t->ndims; d++)
      printf("%s%lld", d ? "," : "", t->shape[d]);
    printf("]%s", t->read && t->written ? " inout" : t->written ? " out" : " in");
    maxe = std::max(maxe, t->elems);
    total += tlh_bytes(t);
  }
  printf("\n");
  fflush(stdout);

  // Identical copies of every tensor: for the kernel, for the reference and
  // for a second run of the kernel. Read tensors get seeded random data,
  // written-only ones 0xFF bytes (NaN for floats) so that an element nobody
  // writes cannot pass.
  std::vector<void *> mine((size_t)nt);
  std::vector<std::vector<double>> host((size_t)nt);
  double *tmp;
  TLH_CHECK(cudaMalloc((void **)&tmp, sizeof(double) * (size_t)maxe));
  for (int i = 0; i < nt; i++) {
    const TlhTensor *t = &k->tensors[i];
    size_t bytes = (size_t)tlh_bytes(t);
    TLH_CHECK(cudaMalloc(&mine[(size_t)i], bytes));
    if (t->read) {
      std::vector<double> h((size_t)t->elems);
      if (t->data && strncmp(t->data, "tokens:", 7) == 0)
        tlh_fill_tokens(h, host[(size_t)tlh_tensor_index(k, t->data + 7)]);
      else if (t->data)
        tlh_fill(h, t->data, o->seed + 7919ull * (unsigned long long)(index * 64 + i));
      else
        tlh_random(h, t->type, o->seed + 7919ull * (unsigned long long)(index * 64 + i));
      TLH_CHECK(cudaMemcpy(tmp, h.data(), sizeof(double) * h.size(), cudaMemcpyHostToDevice));
      tlh_convert(t->type, false, mine[(size_t)i], tmp, t->elems);
      if (t->data) host[(size_t)i] = h; // a later tokens: fill reads it
    } else {
      TLH_CHECK(cudaMemset(mine[(size_t)i], 0xFF, bytes));
    }
  }
  std::vector<void *> ref = tlh_clone(k, mine), again = tlh_clone(k, mine);

  // The reference runs first and its results go to the host, so a compiled
  // kernel that writes out of bounds cannot corrupt them.
  int oob = 0;
  TLH_CHECK(cudaMemcpyToSymbol(tlr_oob_line, &oob, sizeof oob));
  TLH_CHECK(k->ref(ref.data(), stream));
  TLH_CHECK(cudaStreamSynchronize(stream));
  TLH_CHECK(cudaMemcpyFromSymbol(&oob, tlr_oob_line, sizeof oob));
  if (oob) { // said now too: the compiled kernel may fault on the same inputs
    printf("  note: the reference indexed outside a buffer at line %d of the .tl file\n", oob);
    fflush(stdout);
  }
  std::vector<std::vector<double>> want((size_t)nt);
  for (int i = 0; i < nt; i++)
    if (k->tensors[i].written)
      want[(size_t)i] = tlh_download(&k->tensors[i], ref[(size_t)i], tmp);
  tlh_free(ref);

  // Two runs of the compiled kernel on the same inputs, both compared with
  // the reference: a race or a read of memory nothing wrote tends to show as
  // results that move between runs.
  if (!tlh_run_compiled(k, mine, stream))
    return false;
  if (!tlh_run_compiled(k, again, stream))
    return false;
  bool ok = oob == 0;
  double worst_rel = 0, worst_abs = 0;
  long long nonfinite = 0;
  std::vector<TlhStats> stats((size_t)nt);
  std::vector<std::vector<double>> got((size_t)nt);
  for (int i = 0; i < nt; i++) {
    const TlhTensor *t = &k->tensors[i];
    if (!t->written)
      continue;
    got[(size_t)i] = tlh_download(t, mine[(size_t)i], tmp);
    std::vector<double> second = tlh_download(t, again[(size_t)i], tmp);
    TlhStats s1 = tlh_compare(got[(size_t)i], want[(size_t)i]), s2 = tlh_compare(second, want[(size_t)i]);
    bool pass1 = tlh_pass(s1, t), pass2 = tlh_pass(s2, t);
    stats[(size_t)i] = pass1 ? s2 : s1; // report the run that failed, if one did
    if (pass1 && !pass2)
      got[(size_t)i].swap(second);
    ok = ok && pass1 && pass2;
    long long moved = 0;
    double most = 0;
    for (size_t e = 0; e < second.size(); e++) {
      double a = got[(size_t)i][e], b = second[e];
      if (a != b && !(isnan(a) && isnan(b))) {
        moved++;
        most = std::max(most, fabs(a - b));
      }
    }
    if (moved)
      printf("  note: two runs on the same inputs differ in %lld elements of %s (largest difference %.3e): "
             "a race, or a read of memory nothing wrote?\n", moved, t->name, most);
    worst_rel = std::max(worst_rel, stats[(size_t)i].rel_err);
    worst_abs = std::max(worst_abs, stats[(size_t)i].max_abs);
    nonfinite += stats[(size_t)i].nonfinite;
  }
  tlh_free(again);
  printf("check %s: %s rel_err=%.3e max_abs=%.3e nan=%d\n", k->name, ok ? "PASS" : "FAIL", worst_rel, worst_abs,
         (int)std::min(nonfinite, 2147483647LL));
  if (oob)
    printf("  the reference indexed outside a buffer at line %d of the .tl file (the program is wrong "
           "there, or the harness is)\n", oob);
  if (!ok)
    for (int i = 0; i < nt; i++)
      if (k->tensors[i].written)
        tlh_explain("tensor", &k->tensors[i], stats[(size_t)i], got[(size_t)i], want[(size_t)i]);
  fflush(stdout);

  // Copies of all tensors to rotate over while timing, when they all fit in
  // twice the L2: each copy is then cold again when its turn comes.
  std::vector<std::vector<void *>> sets(1, mine);
  if (o->perf) {
    double l2 = prop->l2CacheSize > 0 ? (double)prop->l2CacheSize : 50e6;
    int copies = 1;
    if ((double)total < 2 * l2)
      copies = (int)std::min(256.0, 1.0 + ceil(2 * l2 / (double)std::max(total, 1LL)));
    for (int c = 1; c < copies; c++) {
      std::vector<void *> s((size_t)nt);
      for (int i = 0; i < nt; i++) {
        size_t bytes = (size_t)tlh_bytes(&k->tensors[i]);
        TLH_CHECK(cudaMalloc(&s[(size_t)i], bytes));
        TLH_CHECK(cudaMemcpy(s[(size_t)i], mine[(size_t)i], bytes, cudaMemcpyDeviceToDevice));
      }
      sets.push_back(s);
    }
  }

  double tlc_ms = 0;
  if (o->perf) {
    float lo, hi;
    tlc_ms = tlh_time([&](void *const *p) { TLH_CHECK(k->run(p, stream)); }, sets, o->iters, stream, &lo, &hi);
    double s = tlc_ms * 1e-3;
    printf("perf %s: median_ms=%.4f tflops=%.2f tbps=%.3f\n", k->name, tlc_ms, k->flops > 0 ? k->flops / s / 1e12 : 0.0,
           (double)k->traffic / s / 1e12);
    printf("  (%d timed runs after 10 warm-ups, %zu rotating copies of %.1f MB; min_ms=%.4f max_ms=%.4f)\n",
           o->iters, sets.size(), (double)total / 1e6, lo, hi);
    fflush(stdout);
  }

#ifdef TLH_CUBLAS
  if (k->cublas) {
    cublasHandle_t h;
    TLH_CUBLAS_CHECK(cublasCreate(&h));
    TLH_CUBLAS_CHECK(cublasSetStream(h, stream));
    // Its own poisoned output, checked against the same reference.
    const TlhTensor *C = &k->tensors[k->c];
    std::vector<void *> p = mine;
    TLH_CHECK(cudaMalloc(&p[(size_t)k->c], (size_t)tlh_bytes(C)));
    TLH_CHECK(cudaMemset(p[(size_t)k->c], 0xFF, (size_t)tlh_bytes(C)));
    TLH_CUBLAS_CHECK(tlh_cublas_gemm(h, k, p.data()));
    TLH_CHECK(cudaStreamSynchronize(stream));
    std::vector<double> x = tlh_download(C, p[(size_t)k->c], tmp);
    TlhStats s = tlh_compare(x, want[(size_t)k->c]);
    bool cok = tlh_pass(s, C);
    printf("check %s[cublas]: %s rel_err=%.3e max_abs=%.3e nan=%d\n", k->name, cok ? "PASS" : "FAIL", s.rel_err,
           s.max_abs, (int)std::min(s.nonfinite, 2147483647LL));
    if (!cok)
      tlh_explain("cuBLAS", C, s, x, want[(size_t)k->c]);
    ok = ok && cok;
    TLH_CHECK(cudaFree(p[(size_t)k->c]));
    if (o->perf) {
      float lo, hi;
      double ms = tlh_time([&](void *const *q) { TLH_CUBLAS_CHECK(tlh_cublas_gemm(h, k, q)); }, sets, o->iters,
                           stream, &lo, &hi);
      printf("cublas %s: median_ms=%.4f tflops=%.2f ratio=%.3f\n", k->name, ms,
             2.0 * (double)k->m * (double)k->n * (double)k->k / (ms * 1e-3) / 1e12, ms / tlc_ms);
    }
    TLH_CUBLAS_CHECK(cublasDestroy(h));
    fflush(stdout);
  }
#endif

  for (size_t c = 1; c < sets.size(); c++)
    for (void *q : sets[c])
      TLH_CHECK(cudaFree(q));
  tlh_free(mine);
  TLH_CHECK(cudaFree(tmp));
  return ok;
}

static int tlh_usage(const char *argv0, int status) {
  fprintf(status ? stderr : stdout,
          "usage: %s [--iters N] [--no-perf] [--kernel NAME] [--seed N]\n"
          "  checks every kernel against its reference, then times it (median of N runs)\n"
          "  exit status: 0 all checks pass, 1 a check failed, 2 usage or CUDA error\n",
          argv0);
  return status;
}

int main(int argc, char **argv) {
  TlhOptions o = {TLH_ITERS, 1, NULL, TLH_SEED};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = NULL;
    if ((strcmp(a, "--iters") == 0 || strcmp(a, "--kernel") == 0 || strcmp(a, "--seed") == 0) && i + 1 < argc)
      v = argv[++i];
    else if (strncmp(a, "--iters=", 8) == 0 || strncmp(a, "--seed=", 7) == 0 || strncmp(a, "--kernel=", 9) == 0)
      v = strchr(a, '=') + 1;
    if (strcmp(a, "--no-perf") == 0) {
      o.perf = 0;
    } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      return tlh_usage(argv[0], 0);
    } else if (v && strncmp(a, "--iters", 7) == 0) {
      o.iters = atoi(v);
      if (o.iters < 1)
        return tlh_usage(argv[0], 2);
    } else if (v && strncmp(a, "--seed", 6) == 0) {
      o.seed = strtoull(v, NULL, 10);
    } else if (v && strncmp(a, "--kernel", 8) == 0) {
      o.only = v;
    } else {
      fprintf(stderr, "unknown argument '%s'\n", a);
      return tlh_usage(argv[0], 2);
    }
  }
  int dev;
  cudaDeviceProp prop;
  TLH_CHECK(cudaGetDevice(&dev));
  TLH_CHECK(cudaGetDeviceProperties(&prop, dev));
  int runtime = 0, driver = 0;
  TLH_CHECK(cudaRuntimeGetVersion(&runtime));
  TLH_CHECK(cudaDriverGetVersion(&driver));
  printf("device: %s (sm_%d%d, %d SMs, %.0f MB L2), CUDA runtime %d, driver %d, seed %llu%s\n", prop.name,
         prop.major, prop.minor, prop.multiProcessorCount, prop.l2CacheSize / 1048576.0, runtime, driver, o.seed,
         TLH_REF_ONLY ? "\nnote: reference-only harness: the \"compiled\" kernels are the references" : "");
  int failed = 0, ran = 0;
  for (int i = 0; i < tlh_nkernels; i++) {
    if (o.only && strcmp(o.only, tlh_kernels[i].name) != 0)
      continue;
    ran++;
    if (!tlh_run_kernel(&tlh_kernels[i], i, &o, &prop))
      failed++;
  }
  if (ran == 0) {
    fprintf(stderr, "no kernel named '%s'; this harness has:", o.only ? o.only : "");
    for (int i = 0; i < tlh_nkernels; i++)
      fprintf(stderr, " %s", tlh_kernels[i].name);
    fprintf(stderr, "\n");
    return 2;
  }
  if (failed)
    printf("%d of %d kernel%s FAILED\n", failed, ran, ran == 1 ? "" : "s");
  return failed ? 1 : 0;
}
