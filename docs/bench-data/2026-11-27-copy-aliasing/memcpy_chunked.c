#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec / 1e3; }
static void chunked(char *d, const char *s, size_t n, size_t c) { for (size_t i = 0; i < n; i += c) memcpy(d + i, s + i, n - i < c ? n - i : c); }
int main(void) {
  size_t sizes[] = {2048, 4096, 16384, 65536, 262144, 1 << 20, 4 << 20};
  char *a, *b; posix_memalign((void **)&a, 1 << 16, (8 << 20) + 8192); posix_memalign((void **)&b, 1 << 16, (8 << 20) + 8192);
  memset(a, 1, (8 << 20) + 8192); memset(b, 2, (8 << 20) + 8192);
  printf("bytes   d=0 memcpy  d=16 memcpy  d=16 chunks(2K)  d=16 chunks(3K)  d=0 chunks(2K)\n");
  for (int k = 0; k < 7; ++k) { size_t n = sizes[k]; int reps = n > (1 << 20) ? 20 : 200; double t[5];
    for (int v = 0; v < 5; ++v) { double best = 1e30; char *d = b + 4096 + (v == 0 || v == 4 ? 0 : 16); const char *s = a + 4096;
      for (int r = 0; r < reps; ++r) { double t0 = now();
        if (v <= 1) memcpy(d, s, n); else chunked(d, s, n, v == 3 ? 3072 : 2048);
        double x = now() - t0; if (x < best) best = x; }
      t[v] = best; }
    printf("%8zu %8.2f %10.2f %12.2f %14.2f %14.2f\n", n, t[0], t[1], t[2], t[3], t[4]); }
  return 0;
}
