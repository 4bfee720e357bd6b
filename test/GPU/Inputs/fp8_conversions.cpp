// Every float -> fp8 conversion the CPU emulator does, hashed: the emulator
// (cuda_emu.h) and the toolkit's cuda_fp8.h (host code, -DREAL) must print
// the same hash (test/GPU/emu-fp8-conversions.test). Random bit patterns and
// values spread over the fp8 ranges, both formats, there and back.
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <math.h>
#ifdef REAL
#include <cuda_fp8.h>
#else
#include "cuda_emu.h"
#endif
int main(){
  uint64_t s=1; unsigned long long h=1469598103934665603ull;
  for (long i=0;i<4000000;i++){
    s=s*6364136223846793005ull+1442695040888963407ull; uint32_t bits=(uint32_t)(s>>32);
    float f; memcpy(&f,&bits,4);
    if (i%2) f = ldexpf((float)((int)(s>>40)%100000)/1000.0f, (int)((s>>20)%30)-20);
    __nv_fp8_e4m3 a(f); __nv_fp8_e5m2 b(f);
    uint8_t x,y; memcpy(&x,&a,1); memcpy(&y,&b,1);
    if (isnan(f)) { x = 0; y = 0; }
    h=(h^x)*1099511628211ull; h=(h^y)*1099511628211ull;
    float back = (float)a + (float)b; uint32_t bb; memcpy(&bb,&back,4); if(!isnan(back)) h=(h^bb)*1099511628211ull;
  }
  printf("%llx\n",h);
}
