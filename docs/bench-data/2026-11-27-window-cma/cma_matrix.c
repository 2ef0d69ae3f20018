#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <stdint.h>
#define BYTES (1 << 20)
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec / 1e3; }
int main(void) {
  int fds[2]; pipe(fds);
  char *remote; posix_memalign((void **)&remote, 4096, BYTES + 4096); memset(remote, 1, BYTES + 4096);
  pid_t child = fork();
  if (child == 0) { pause(); return 0; }
  char *local; posix_memalign((void **)&local, 4096, BYTES + 4096); memset(local, 2, BYTES + 4096);
  int offs[] = {0, 8, 16, 32, 48};
  for (int dir = 0; dir < 2; ++dir) {
    printf("%s: rows local offset, columns remote offset, us per 1 MiB (best of 20)\n", dir ? "writev" : "readv");
    printf("      "); for (int j = 0; j < 5; ++j) printf("%8d", offs[j]); printf("\n");
    for (int i = 0; i < 5; ++i) {
      printf("%5d ", offs[i]);
      for (int j = 0; j < 5; ++j) {
        double best = 1e30;
        for (int r = 0; r < 20; ++r) {
          struct iovec l = {local + offs[i], BYTES}, rv = {remote + offs[j], BYTES};
          double t0 = now();
          ssize_t n = dir ? process_vm_writev(child, &l, 1, &rv, 1, 0) : process_vm_readv(child, &l, 1, &rv, 1, 0);
          double t = now() - t0;
          if (n != BYTES) { perror("cma"); return 1; }
          if (t < best) best = t;
        }
        printf("%8.1f", best);
      }
      printf("\n");
    }
  }
  kill(child, 9); wait(NULL);
  return 0;
}
