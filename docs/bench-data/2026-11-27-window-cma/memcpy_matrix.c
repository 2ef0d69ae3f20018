#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#define BYTES (256 << 10)
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec / 1e3; }
int main(void) {
  char *a, *b; posix_memalign((void **)&a, 4096, BYTES + 4096); posix_memalign((void **)&b, 4096, BYTES + 4096);
  memset(a, 1, BYTES + 4096); memset(b, 2, BYTES + 4096);
  int offs[] = {0, 8, 16, 32, 48};
  printf("memcpy 256 KiB: rows dst offset, columns src offset, us (best of 50)\n      ");
  for (int j = 0; j < 5; ++j) printf("%8d", offs[j]); printf("\n");
  for (int i = 0; i < 5; ++i) { printf("%5d ", offs[i]);
    for (int j = 0; j < 5; ++j) { double best = 1e30;
      for (int r = 0; r < 50; ++r) { double t0 = now(); memcpy(b + offs[i], a + offs[j], BYTES); double t = now() - t0; if (t < best) best = t; }
      printf("%8.1f", best); }
    printf("\n"); }
  return 0;
}
