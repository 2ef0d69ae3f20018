#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdatomic.h>
#include <time.h>
static _Alignas(64) _Atomic long a; static _Alignas(64) _Atomic long b;
#define N 1000000
static void pin(int c){cpu_set_t s;CPU_ZERO(&s);CPU_SET(c,&s);pthread_setaffinity_np(pthread_self(),sizeof s,&s);}
static void* other(void*x){pin(1);for(long i=1;i<=N;i++){while(atomic_load_explicit(&a,memory_order_acquire)!=i);atomic_store_explicit(&b,i,memory_order_release);}return 0;}
int main(){pthread_t t;pthread_create(&t,0,other,0);pin(0);struct timespec s,e;clock_gettime(CLOCK_MONOTONIC,&s);
for(long i=1;i<=N;i++){atomic_store_explicit(&a,i,memory_order_release);while(atomic_load_explicit(&b,memory_order_acquire)!=i);}
clock_gettime(CLOCK_MONOTONIC,&e);pthread_join(t,0);printf("round trip %.1f ns\n",((e.tv_sec-s.tv_sec)*1e9+(e.tv_nsec-s.tv_nsec))/N);}
