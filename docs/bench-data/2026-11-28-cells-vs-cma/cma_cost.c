#define _GNU_SOURCE
#include <sys/uio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <signal.h>
#include <sys/wait.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e6+t.tv_nsec/1e3;}
int main(){
  size_t sizes[]={4096,16384,65536,262144};
  static char src[1<<20] __attribute__((aligned(4096)));
  memset(src,1,sizeof src);
  pid_t child=fork();
  if(child==0){pause();return 0;}
  char*dst=aligned_alloc(4096,1<<20); memset(dst,0,1<<20);
  for(int k=0;k<4;k++){size_t n=sizes[k];int reps=20000;
    struct iovec l={dst,n},r={src,n};
    for(int i=0;i<100;i++) process_vm_readv(child,&l,1,&r,1,0);
    double t0=now(); for(int i=0;i<reps;i++) if(process_vm_readv(child,&l,1,&r,1,0)!=(ssize_t)n){perror("cma");return 1;}
    double t1=now(); for(int i=0;i<reps;i++) memcpy(dst,src,n);
    double t2=now();
    printf("%7zu B: cma %.2f us, memcpy %.2f us\n",n,(t1-t0)/reps,(t2-t1)/reps);}
  kill(child,SIGKILL); wait(0); return 0;}
