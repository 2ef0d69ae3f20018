#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#define BYTES (256 << 10)
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec / 1e3; }
int main(void) {
  char *a, *b; posix_memalign((void **)&a, 1 << 16, BYTES + (1 << 16)); posix_memalign((void **)&b, 1 << 16, BYTES + (1 << 16));
  memset(a, 1, BYTES + (1 << 16)); memset(b, 2, BYTES + (1 << 16));
  int d[] = {8, 16, 24, 31, 32, 40, 56, 64 + 8, 128 + 8, 1024 + 8, 2048 + 8, 4096 + 8, 8192 + 8, -8, -40, 4096 - 8, 4096 - 40};
  for (unsigned i = 0; i < sizeof d / sizeof *d; ++i) {
    int src = 16384, dst = 16384 + d[i];
    double best = 1e30;
    for (int r = 0; r < 50; ++r) { double t0 = now(); memcpy(b + dst, a + src, BYTES); double t = now() - t0; if (t < best) best = t; }
    printf("dst - src = %5d: %7.1f us\n", d[i], best);
  }
  return 0;
}
