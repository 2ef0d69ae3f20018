/* copy_pieces: 4 MiB (or argv[1] MiB) copied by memcpy, by one rep movsb, and in pieces of argv[2] KiB
 * by each, into the same destination 20 times ("hot") and into argv[3] different ones ("cold");
 * best of 5, 2 rounds.  gcc -O2 copy_pieces.c -o copy_pieces && ./copy_pieces 4 256 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static void movsb(void* d, const void* s, size_t n) { asm volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory"); }
static size_t chunk;
static void copy(int m, char* d, const char* s, size_t n) {
  if (m == 0) { memcpy(d, s, n); return; }
  if (m == 1) { movsb(d, s, n); return; }
  for (size_t at = 0; at < n; at += chunk) { size_t b = n - at < chunk ? n - at : chunk; if (m == 2) memcpy(d + at, s + at, b); else movsb(d + at, s + at, b); }
}
int main(int argc, char** argv) {
  size_t n = (argc > 1 ? atol(argv[1]) : 4) << 20; chunk = (argc > 2 ? atol(argv[2]) : 128) << 10; int blocks = argc > 3 ? atoi(argv[3]) : 16;
  char* src = aligned_alloc(4096, n); char* dst = aligned_alloc(4096, n * blocks);
  memset(src, 1, n); memset(dst, 2, n * blocks);
  const char* names[] = {"memcpy", "movsb", "memcpy-chunk", "movsb-chunk"};
  for (int round = 0; round < 2; ++round)
  for (int m = 0; m < 4; ++m) {
    double hot = 1e9, cold = 1e9;
    for (int r = 0; r < 5; ++r) {
      double t0 = now();
      for (int i = 0; i < 20; ++i) copy(m, dst, src, n);
      double t = (now() - t0) / 20; if (t < hot) hot = t;
      t0 = now();
      for (int i = 0; i < blocks; ++i) copy(m, dst + (size_t)i * n, src, n);
      t = (now() - t0) / blocks; if (t < cold) cold = t;
    }
    printf("%-13s hot %.1f us  cold %.1f us\n", names[m], hot * 1e6, cold * 1e6);
  }
  return 0;
}
