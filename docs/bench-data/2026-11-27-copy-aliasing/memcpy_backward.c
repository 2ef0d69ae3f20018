#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <immintrin.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec / 1e3; }
/* Copies backward in 128-byte steps (four 32-byte vectors), the head by memcpy. */
static void backward(char *d, const char *s, size_t n) {
  size_t tail = n % 128;
  for (size_t i = n - tail; i > 0; i -= 128) {
    __m256i x0 = _mm256_loadu_si256((const __m256i *)(s + i - 128));
    __m256i x1 = _mm256_loadu_si256((const __m256i *)(s + i - 96));
    __m256i x2 = _mm256_loadu_si256((const __m256i *)(s + i - 64));
    __m256i x3 = _mm256_loadu_si256((const __m256i *)(s + i - 32));
    _mm256_storeu_si256((__m256i *)(d + i - 128), x0);
    _mm256_storeu_si256((__m256i *)(d + i - 96), x1);
    _mm256_storeu_si256((__m256i *)(d + i - 64), x2);
    _mm256_storeu_si256((__m256i *)(d + i - 32), x3);
  }
  memcpy(d + n - tail, s + n - tail, tail);
}
static void backward_sse2(char *d, const char *s, size_t n) {
  size_t tail = n % 64;
  for (size_t i = n - tail; i > 0; i -= 64) {
    __m128i x0 = _mm_loadu_si128((const __m128i *)(s + i - 64));
    __m128i x1 = _mm_loadu_si128((const __m128i *)(s + i - 48));
    __m128i x2 = _mm_loadu_si128((const __m128i *)(s + i - 32));
    __m128i x3 = _mm_loadu_si128((const __m128i *)(s + i - 16));
    _mm_storeu_si128((__m128i *)(d + i - 64), x0);
    _mm_storeu_si128((__m128i *)(d + i - 48), x1);
    _mm_storeu_si128((__m128i *)(d + i - 32), x2);
    _mm_storeu_si128((__m128i *)(d + i - 16), x3);
  }
  memcpy(d + n - tail, s + n - tail, tail);
}
int main(void) {
  size_t sizes[] = {2048, 4096, 16384, 65536, 262144, 524288, 1 << 20, 4 << 20};
  char *a, *b; posix_memalign((void **)&a, 1 << 16, (8 << 20) + 8192); posix_memalign((void **)&b, 1 << 16, (8 << 20) + 8192);
  memset(a, 1, (8 << 20) + 8192); memset(b, 2, (8 << 20) + 8192);
  printf("bytes   d=0 memcpy  d=16 memcpy  d=16 backward  d=16 sse2 bwd d=0 backward\n");
  for (int k = 0; k < 8; ++k) { size_t n = sizes[k]; int reps = n > (1 << 20) ? 20 : 200; double t[5];
    int dd[5] = {0, 16, 16, 16, 0};
    for (int v = 0; v < 5; ++v) { double best = 1e30; char *d = b + 4096 + dd[v]; const char *s = a + 4096;
      for (int r = 0; r < reps; ++r) { double t0 = now(); if (v <= 1) memcpy(d, s, n); else if (v == 3) backward_sse2(d, s, n); else backward(d, s, n);
        double x = now() - t0; if (x < best) best = x; }
      t[v] = best; if (memcmp(d, s, n)) { printf("wrong\n"); return 1; } }
    printf("%8zu %8.2f %10.2f %12.2f %12.2f %12.2f\n", n, t[0], t[1], t[2], t[3], t[4]); }
  return 0;
}
