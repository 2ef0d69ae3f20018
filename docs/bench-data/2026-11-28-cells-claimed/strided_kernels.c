#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e6+t.tv_nsec/1e3;}
#define N (131072)  /* doubles packed: 1 MiB */
static void pack_sse(const double*s,double*p,size_t n){for(size_t i=0;i+2<=n;i+=2){__builtin_prefetch(s+2*i+256,0);_mm_storeu_pd(p+i,_mm_loadh_pd(_mm_loadl_pd(_mm_setzero_pd(),s+2*i),s+2*i+2));}}
static void unpack_sse(double*s,const double*p,size_t n){for(size_t i=0;i+2<=n;i+=2){__builtin_prefetch(s+2*i+256,1);__m128d v=_mm_loadu_pd(p+i);_mm_storel_pd(s+2*i,v);_mm_storeh_pd(s+2*i+2,v);}}
__attribute__((target("avx512f"))) static void pack_perm(const double*s,double*p,size_t n){
  const __m512i idx=_mm512_setr_epi64(0,2,4,6,8,10,12,14);
  for(size_t i=0;i+8<=n;i+=8){__m512d a=_mm512_loadu_pd(s+2*i),b=_mm512_loadu_pd(s+2*i+8);_mm512_storeu_pd(p+i,_mm512_permutex2var_pd(a,idx,b));}}
__attribute__((target("avx512f"))) static void pack_gather(const double*s,double*p,size_t n){
  const __m512i idx=_mm512_setr_epi64(0,16,32,48,64,80,96,112);
  for(size_t i=0;i+8<=n;i+=8){_mm512_storeu_pd(p+i,_mm512_i64gather_pd(idx,s+2*i,1));}}
__attribute__((target("avx512f"))) static void unpack_mask(double*s,const double*p,size_t n){
  for(size_t i=0;i+4<=n;i+=4){__m512d v=_mm512_maskz_expandloadu_pd(0x55,p+i);_mm512_mask_storeu_pd(s+2*i,0x55,v);}}
__attribute__((target("avx512f"))) static void unpack_mask2(double*s,const double*p,size_t n){
  const __m512i lo=_mm512_setr_epi64(0,0,1,1,2,2,3,3), hi=_mm512_setr_epi64(4,4,5,5,6,6,7,7);
  for(size_t i=0;i+8<=n;i+=8){__m512d v=_mm512_loadu_pd(p+i);_mm512_mask_storeu_pd(s+2*i,0x55,_mm512_permutexvar_pd(lo,v));_mm512_mask_storeu_pd(s+2*i+8,0x55,_mm512_permutexvar_pd(hi,v));}}
__attribute__((target("avx512f"))) static void unpack_scatter(double*s,const double*p,size_t n){
  const __m512i idx=_mm512_setr_epi64(0,16,32,48,64,80,96,112);
  for(size_t i=0;i+8<=n;i+=8){_mm512_i64scatter_pd(s+2*i,idx,_mm512_loadu_pd(p+i),1);}}
int main(int argc,char**argv){
  int regions=argc>1?atoi(argv[1]):1; /* strided regions cycled: 1 = hot */
  double*st[8];for(int r=0;r<regions;r++){st[r]=aligned_alloc(4096,2*N*8);for(size_t i=0;i<2*N;i++)st[r][i]=i;}
  double*pk=aligned_alloc(4096,N*8);for(size_t i=0;i<N;i++)pk[i]=-(double)i;
  const char*names[]={"pack_sse","pack_perm","pack_gather","unpack_sse","unpack_mask","unpack_mask2","unpack_scatter"};
  for(int k=0;k<7;k++){double best=1e9;for(int it=0;it<40;it++){double*s=st[it%regions];double t=now();
    switch(k){case 0:pack_sse(s,pk,N);break;case 1:pack_perm(s,pk,N);break;case 2:pack_gather(s,pk,N);break;case 3:unpack_sse(s,pk,N);break;case 4:unpack_mask(s,pk,N);break;case 5:unpack_mask2(s,pk,N);break;case 6:unpack_scatter(s,pk,N);break;}
    t=now()-t;if(t<best)best=t;}
    /* check */ int bad=0; if(k<3){for(size_t i=0;i<N;i++)if(pk[i]!=2.0*i){bad=1;break;}} else {for(size_t i=0;i<N;i++)if(st[0][2*i]!=-(double)i||st[0][2*i+1]!=2*i+1){bad=1;break;}}
    printf("%-15s %7.1f us/MiB %s\n",names[k],best,bad?"BAD":"ok");
    if(k==2) for(size_t i=0;i<N;i++)pk[i]=-(double)i;}
}
