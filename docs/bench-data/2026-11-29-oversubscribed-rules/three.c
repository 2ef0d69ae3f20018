#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int n = argc > 2 ? atoi(argv[2]) : 20000;
  const char* what = argc > 1 ? argv[1] : "scatter";
  int x[16] = {1, 2}, y[16] = {0};
  int counts[2] = {1, 1}, displs[2] = {0, 1};
  double t = 0, all = MPI_Wtime();
  for (int i = 0; i < n; i++) {
    double s = MPI_Wtime();
    if (!strcmp(what, "scatter")) MPI_Scatter(x, 1, MPI_INT, y, 1, MPI_INT, 0, MPI_COMM_WORLD);
    else if (!strcmp(what, "bcast")) MPI_Bcast(x, 1, MPI_INT, 0, MPI_COMM_WORLD);
    else if (!strcmp(what, "scatterv")) MPI_Scatterv(x, counts, displs, MPI_INT, y, 1, MPI_INT, 0, MPI_COMM_WORLD);
    else if (!strcmp(what, "gatherv")) MPI_Gatherv(x, 1, MPI_INT, y, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
    else if (!strcmp(what, "gather")) MPI_Gather(x, 1, MPI_INT, y, 1, MPI_INT, 0, MPI_COMM_WORLD);
    t += MPI_Wtime() - s;
    MPI_Barrier(MPI_COMM_WORLD);
  }
  int r; MPI_Comm_rank(MPI_COMM_WORLD, &r);
  all = MPI_Wtime() - all;
  printf("rank %d %s %.1f ns, iteration %.1f ns\n", r, what, t / n * 1e9, all / n * 1e9);
  MPI_Finalize();
}
