// Driver for persistent_visits.tl (appended to tlc's CUDA of it): runs each
// kernel and checks every tile's visitor against TileLang's PersistentFor
// (src/ir.cc), written out again here: tile number t = w * wave + block over
// the grouped domain [ceildiv(last, g), d0, ..., d(n-2), g], g = max(1,
// min(group, last)), and each tile of the domain visited exactly once.
#include <cstdio>
#include <vector>

typedef cudaError_t (*Launcher)(int *, int *, cudaStream_t);

static int check(const char *name, Launcher launch, std::vector<int> d, int wave, int group) {
  int n = (int)d.size(), total = 1;
  for (int x : d) total *= x;
  int *owner, *count;
  cudaMalloc((void **)&owner, total * sizeof(int));
  cudaMalloc((void **)&count, total * sizeof(int));
  cudaMemset(owner, 0xff, total * sizeof(int)); // -1: never visited
  cudaMemset(count, 0, total * sizeof(int));
  if (launch(owner, count, 0) != cudaSuccess) {
    printf("%s: launch failed\n", name);
    return 1;
  }
  std::vector<int> got_owner(total), got_count(total), want(total, -1);
  cudaMemcpy(got_owner.data(), owner, total * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(got_count.data(), count, total * sizeof(int), cudaMemcpyDeviceToHost);
  int last = d[n - 1], g = group < last ? group : last;
  if (g < 1) g = 1;
  std::vector<int> grouped;
  grouped.push_back((last + g - 1) / g);
  for (int i = 0; i + 1 < n; i++) grouped.push_back(d[i]);
  grouped.push_back(g);
  int padded = 1;
  for (int x : grouped) padded *= x;
  int waves = (padded + wave - 1) / wave;
  for (int b = 0; b < wave; b++)
    for (int w = 0; w < waves; w++) {
      int t = w * wave + b;
      if (t >= padded) break;
      std::vector<int> digit(n + 1);
      for (int i = n; i >= 1; i--) {
        digit[i] = t % grouped[i];
        t /= grouped[i];
      }
      digit[0] = t;
      std::vector<int> coord(n);
      for (int i = 0; i + 1 < n; i++) coord[i] = digit[i + 1];
      coord[n - 1] = digit[0] * g + digit[n];
      if (coord[n - 1] >= last) continue;
      int flat = 0;
      for (int i = 0; i < n; i++) flat = flat * d[i] + coord[i];
      want[flat] = b;
    }
  int bad = 0;
  for (int i = 0; i < total; i++)
    if (got_count[i] != 1 || got_owner[i] != want[i] || want[i] < 0) {
      if (bad < 5)
        printf("%s: tile %d visited %d times, by block %d; TileLang's block %d\n", name, i,
               got_count[i], got_owner[i], want[i]);
      bad++;
    }
  printf("%s: %d tiles, %d waves, %s\n", name, total, waves, bad ? "FAIL" : "ok");
  cudaFree(owner);
  cudaFree(count);
  return bad != 0;
}

int main() {
  int failed = check("visit2", visit2, {5, 7}, 4, 3);
  failed |= check("visit1", visit1, {10}, 3, 8);
  failed |= check("visit3", visit3, {2, 3, 5}, 7, 16);
  return failed;
}
