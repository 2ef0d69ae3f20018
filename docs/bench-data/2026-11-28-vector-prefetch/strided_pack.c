/* Packs 1 MiB of doubles from blocks of B (8 or 64) doubles 2B apart into a contiguous buffer, with a software
 * prefetch AHEAD packed bytes (2 AHEAD strided bytes) ahead (0: none), cycling over REGIONS regions of 2 MiB
 * (64 by default: out of memory; 1-4 stay in the last-level cache), the strided side OFFSET bytes past a page
 * (0 by default; 16 is where malloc puts a large buffer); best of 3, one core.
 *   gcc -O2 strided_pack.c -o strided_pack && taskset -c 1 ./strided_pack [REGIONS [OFFSET]] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
int main(int argc, char** argv) {
  const size_t n = 131072, regions = 64;
  const size_t R = argc > 1 ? (size_t)atol(argv[1]) : regions, offset = argc > 2 ? (size_t)atol(argv[2]) : 0;
  double* span = aligned_alloc(4096, n * 2 * 8 * regions + 4096);
  double* out = aligned_alloc(4096, n * 8);
  memset(span, 1, n * 2 * 8 * regions + 4096); memset(out, 0, n * 8);
  long lens[] = {8, 64};
  long aheads[] = {0, 1024, 2048, 4096, 8192, 16384};
  for (int round = 0; round < 2; ++round)
  for (int l = 0; l < 2; ++l) for (int a = 0; a < 6; ++a) {
    double best = 1e9; long B = lens[l]; long ahead_bytes = aheads[a];
    for (int rep = 0; rep < 3; ++rep) {
      double t0 = now();
      for (size_t r = 0; r < regions; ++r) {
        const double* s = (const double*)((const char*)(span + (r % R) * n * 2) + offset);
        for (size_t b = 0; b < n / B; ++b) {
          const char* src = (const char*)(s + b * 2 * B);
          if (ahead_bytes) for (long k = 0; k < B * 8; k += 64) __builtin_prefetch(src + 2 * ahead_bytes + k, 0);
          memcpy(out + b * B, src, B * 8);
        }
      }
      double t = (now() - t0) / regions; if (t < best) best = t;
    }
    printf("B=%ld ahead %ld packed bytes: %.1f us per MiB\n", B, ahead_bytes, best * 1e6);
  }
  return 0;
}
