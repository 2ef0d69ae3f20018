#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int n = argc > 2 ? atoi(argv[2]) : 200000;
  const char* w = argc > 1 ? argv[1] : "iallreduce";
  int r; MPI_Comm_rank(MPI_COMM_WORLD, &r);
  int x = 1, y = 0;
  for (int k = 0; k < 2; k++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    for (int i = 0; i < n; i++) {
      MPI_Request rq[2];
      if (!strcmp(w, "iallreduce")) { MPI_Iallreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, rq); MPI_Wait(rq, MPI_STATUS_IGNORE); }
      else if (!strcmp(w, "ibarrier")) { MPI_Ibarrier(MPI_COMM_WORLD, rq); MPI_Wait(rq, MPI_STATUS_IGNORE); }
      else if (!strcmp(w, "pingpong")) {
        if (r == 0) { MPI_Isend(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, rq); MPI_Irecv(&y, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, rq + 1); }
        else { MPI_Irecv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, rq + 1); MPI_Isend(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, rq); }
        MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
      }
    }
    t = MPI_Wtime() - t;
    if (k == 1 && r == 0) printf("%s %.1f ns\n", w, t / n * 1e9);
  }
  MPI_Finalize();
}
