#include <mpi.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const char* which = argc > 1 ? argv[1] : "gatherv";
  int n; MPI_Comm_size(MPI_COMM_WORLD, &n);
  float* s = malloc(1 << 20); float* r = malloc(1 << 20);
  memset(s, 0, 1 << 20); memset(r, 0, 1 << 20);
  int counts[64], displs[64];
  for (int i = 0; i < n; ++i) { counts[i] = 1; displs[i] = i; }
  for (int i = 0; i < 20000; ++i) {
    if (!strcmp(which, "gatherv")) MPI_Gatherv(s, 1, MPI_FLOAT, r, counts, displs, MPI_FLOAT, 0, MPI_COMM_WORLD);
    else if (!strcmp(which, "scatterv")) MPI_Scatterv(s, counts, displs, MPI_FLOAT, r, 1, MPI_FLOAT, 0, MPI_COMM_WORLD);
    else if (!strcmp(which, "allgatherv")) MPI_Allgatherv(s, 1, MPI_FLOAT, r, counts, displs, MPI_FLOAT, MPI_COMM_WORLD);
    else if (!strcmp(which, "alltoallv")) MPI_Alltoallv(s, counts, displs, MPI_FLOAT, r, counts, displs, MPI_FLOAT, MPI_COMM_WORLD);
    else if (!strcmp(which, "gather")) MPI_Gather(s, 1, MPI_FLOAT, r, 1, MPI_FLOAT, 0, MPI_COMM_WORLD);
    else if (!strcmp(which, "alltoall")) MPI_Alltoall(s, 1, MPI_FLOAT, r, 1, MPI_FLOAT, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
