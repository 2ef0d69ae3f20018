#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static void nt_copy(void* d, const void* s, size_t n) {
  char* dst = d; const char* src = s;
  for (size_t i = 0; i < n; i += 64) {
    __m256i a = _mm256_loadu_si256((const __m256i*)(src + i));
    __m256i b = _mm256_loadu_si256((const __m256i*)(src + i + 32));
    _mm256_stream_si256((__m256i*)(dst + i), a);
    _mm256_stream_si256((__m256i*)(dst + i + 32), b);
  }
  _mm_sfence();
}
static void movsb(void* d, const void* s, size_t n) { asm volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory"); }
int main(void) {
  size_t n = 4 << 20; int blocks = 64;
  char* src = aligned_alloc(4096, n); char* dst = aligned_alloc(4096, n * blocks);
  memset(src, 1, n); memset(dst, 2, n * blocks);
  const char* names[] = {"memcpy", "movsb", "nt"};
  for (int round = 0; round < 3; ++round)
  for (int m = 0; m < 3; ++m) {
    double hot = 1e9, cold = 1e9;
    for (int r = 0; r < 5; ++r) {
      double t0 = now();
      for (int i = 0; i < 20; ++i) { if (m == 0) memcpy(dst, src, n); else if (m == 1) movsb(dst, src, n); else nt_copy(dst, src, n); }
      double t = (now() - t0) / 20; if (t < hot) hot = t;
      t0 = now();
      for (int i = 0; i < blocks; ++i) { char* d = dst + (size_t)i * n; if (m == 0) memcpy(d, src, n); else if (m == 1) movsb(d, src, n); else nt_copy(d, src, n); }
      t = (now() - t0) / blocks; if (t < cold) cold = t;
    }
    printf("%-7s hot %.1f us  cold %.1f us (%.1f GB/s)\n", names[m], hot * 1e6, cold * 1e6, n / cold / 1e9);
  }
  return 0;
}
