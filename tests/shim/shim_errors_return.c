/* MPI_ERRORS_RETURN: every invalid call returns the exact MPI error class, MPI_Error_string
 * explains it, and the job goes on. Also: handlers are per communicator, and a call after
 * MPI_Finalize is reported through MPI_COMM_WORLD's handler.
 */
#include <mpi.h>
#include <string.h>

#include "shim_check.h"

static void check_string(int error_class, const char* expected) {
  char text[MPI_MAX_ERROR_STRING];
  int length = -1;
  CHECK_MPI(MPI_Error_string(error_class, text, &length));
  if (strcmp(text, expected) != 0 || length != (int)strlen(expected)) {
    fprintf(stderr, "MPI_Error_string(%d) = '%s' (%d), expected '%s'\n", error_class, text, length,
            expected);
    ++check_failures;
  }
  int cls = -1;
  CHECK_MPI(MPI_Error_class(error_class, &cls));
  CHECK(cls == error_class);
}

static void check_error_strings(void) {
  check_string(MPI_SUCCESS, "MPI_SUCCESS: no error");
  check_string(MPI_ERR_BUFFER, "MPI_ERR_BUFFER: invalid buffer pointer");
  check_string(MPI_ERR_COUNT, "MPI_ERR_COUNT: invalid count argument");
  check_string(MPI_ERR_TYPE, "MPI_ERR_TYPE: invalid datatype");
  check_string(MPI_ERR_TAG, "MPI_ERR_TAG: invalid tag");
  check_string(MPI_ERR_COMM, "MPI_ERR_COMM: invalid communicator");
  check_string(MPI_ERR_RANK, "MPI_ERR_RANK: invalid rank");
  check_string(MPI_ERR_REQUEST, "MPI_ERR_REQUEST: invalid request");
  check_string(MPI_ERR_ROOT, "MPI_ERR_ROOT: invalid root");
  check_string(MPI_ERR_OP, "MPI_ERR_OP: invalid reduction operation");
  check_string(MPI_ERR_ARG, "MPI_ERR_ARG: invalid argument of some other kind");
  check_string(MPI_ERR_TRUNCATE, "MPI_ERR_TRUNCATE: message truncated");
  check_string(MPI_ERR_OTHER, "MPI_ERR_OTHER: known error not in this list");
  check_string(MPI_ERR_INTERN, "MPI_ERR_INTERN: internal error");
  check_string(MPI_ERR_IN_STATUS, "MPI_ERR_IN_STATUS: error code is in status");
  check_string(MPI_ERR_PENDING, "MPI_ERR_PENDING: pending request");
  check_string(MPI_ERR_UNSUPPORTED_OPERATION,
               "MPI_ERR_UNSUPPORTED_OPERATION: operation not supported");
  check_string(MPI_ERR_PROC_FAILED, "MPI_ERR_PROC_FAILED: a process of the job failed");
  check_string(MPI_ERR_UNKNOWN, "MPI_ERR_UNKNOWN: unknown error");
  check_string(MPI_ERR_GROUP, "MPI_ERR_GROUP: invalid group");
  check_string(MPI_ERR_IO, "MPI_ERR_IO: other I/O error");
  /* Every class up to MPI_ERR_LASTCODE has a text that starts with its name. */
  for (int error_class = 0; error_class <= MPI_ERR_LASTCODE; ++error_class) {
    char text[MPI_MAX_ERROR_STRING];
    int length = -1;
    CHECK_MPI(MPI_Error_string(error_class, text, &length));
    CHECK(strncmp(text, "MPI_", 4) == 0 && length == (int)strlen(text));
  }
}

static void check_argument_errors(int rank, int size) {
  int data[4] = {1, 2, 3, 4}, out[4] = {0, 0, 0, 0};
  double real = 1.0, real_out = 0.0;
  MPI_Request request = MPI_REQUEST_NULL;

  CHECK_CLASS(MPI_Bcast(data, 4, MPI_INT, size, MPI_COMM_WORLD), MPI_ERR_ROOT);
  CHECK_CLASS(MPI_Bcast(data, 4, MPI_INT, -1, MPI_COMM_WORLD), MPI_ERR_ROOT);
  CHECK_CLASS(MPI_Bcast(data, -1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
  CHECK_CLASS(MPI_Bcast(data, 4, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
  CHECK_CLASS(MPI_Bcast(data, 4, MPI_SUM, 0, MPI_COMM_WORLD), MPI_ERR_TYPE); /* wrong kind */
  CHECK_CLASS(MPI_Bcast(data, 4, 12345, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
  CHECK_CLASS(MPI_Bcast(NULL, 4, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
  CHECK_CLASS(MPI_Bcast(MPI_IN_PLACE, 4, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
  CHECK_CLASS(MPI_Bcast(data, 4, MPI_INT, 0, MPI_COMM_NULL), MPI_ERR_COMM);
  CHECK_CLASS(MPI_Bcast(data, 4, MPI_INT, 0, MPI_INT), MPI_ERR_COMM);
  CHECK_CLASS(MPI_Ibcast(data, 4, MPI_INT, size + 3, MPI_COMM_WORLD, &request), MPI_ERR_ROOT);
  CHECK(request == MPI_REQUEST_NULL);

  CHECK_CLASS(MPI_Allreduce(&real, &real_out, 1, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD), MPI_ERR_OP);
  CHECK_CLASS(MPI_Allreduce(data, out, 4, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP);
  CHECK_CLASS(MPI_Allreduce(data, out, 4, MPI_INT, 999, MPI_COMM_WORLD), MPI_ERR_OP);
  CHECK_CLASS(MPI_Allreduce(data, out, 1, MPI_C_BOOL, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_OP);
  CHECK_CLASS(MPI_Allreduce(data, NULL, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER);
  CHECK_CLASS(MPI_Iallreduce(data, out, -2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &request),
              MPI_ERR_COUNT);
  CHECK_CLASS(MPI_Reduce(data, out, 4, MPI_FLOAT, MPI_BXOR, 0, MPI_COMM_WORLD), MPI_ERR_OP);
  CHECK_CLASS(MPI_Reduce(data, out, 4, MPI_INT, MPI_SUM, size, MPI_COMM_WORLD), MPI_ERR_ROOT);
  CHECK_CLASS(MPI_Ireduce(data, out, 4, MPI_INT, MPI_MAX, 0, MPI_COMM_NULL, &request),
              MPI_ERR_COMM);
  /* MPI_IN_PLACE is for the root only. */
  if (rank != 0) {
    CHECK_CLASS(MPI_Reduce(MPI_IN_PLACE, out, 4, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD),
                MPI_ERR_BUFFER);
  }
  CHECK_CLASS(MPI_Allgather(data, 2, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_ARG);
  CHECK_CLASS(MPI_Alltoall(data, 1, MPI_INT, out, 1, MPI_DATATYPE_NULL, MPI_COMM_WORLD),
              MPI_ERR_TYPE);
  CHECK_CLASS(MPI_Gather(data, 1, MPI_INT, out, 1, MPI_INT, -4, MPI_COMM_WORLD), MPI_ERR_ROOT);
  CHECK_CLASS(MPI_Scatter(data, 1, MPI_INT, out, -1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
  CHECK_CLASS(MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM);
  CHECK_CLASS(MPI_Ibarrier(MPI_COMM_WORLD + 1000, &request), MPI_ERR_COMM);

  CHECK_CLASS(MPI_Send(data, 4, MPI_INT, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
  CHECK_CLASS(MPI_Send(data, 4, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
  CHECK_CLASS(MPI_Send(data, 4, MPI_INT, 0, -5, MPI_COMM_WORLD), MPI_ERR_TAG);
  CHECK_CLASS(MPI_Send(data, 4, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD), MPI_ERR_TAG);
  CHECK_CLASS(MPI_Isend(NULL, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, &request), MPI_ERR_BUFFER);
  CHECK_CLASS(MPI_Irecv(out, 4, MPI_INT, -7, 0, MPI_COMM_WORLD, &request), MPI_ERR_RANK);
  CHECK_CLASS(MPI_Recv(out, 4, MPI_INT, 0, -2, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_ERR_TAG);
  CHECK_CLASS(MPI_Sendrecv(data, 1, MPI_INT, 0, 0, out, 1, MPI_INT, size + 1, 0, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE),
              MPI_ERR_RANK);
  CHECK(request == MPI_REQUEST_NULL);

  request = MPI_COMM_WORLD; /* not a request */
  CHECK_CLASS(MPI_Wait(&request, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
  int flag = 0;
  request = MPI_REQUEST_NULL + 77; /* never issued */
  CHECK_CLASS(MPI_Test(&request, &flag, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
  CHECK_CLASS(MPI_Waitall(-1, NULL, MPI_STATUSES_IGNORE), MPI_ERR_COUNT);

  int value = -1;
  CHECK_CLASS(MPI_Type_size(MPI_OP_NULL, &value), MPI_ERR_TYPE);
  MPI_Status status;
  CHECK_CLASS(MPI_Get_count(&status, MPI_DATATYPE_NULL, &value), MPI_ERR_TYPE);
  CHECK_CLASS(MPI_Comm_rank(MPI_COMM_NULL, &value), MPI_ERR_COMM);
  MPI_Comm never = MPI_COMM_NULL;
  CHECK_CLASS(MPI_Comm_split(MPI_COMM_WORLD, -3, 0, &never), MPI_ERR_ARG);
  CHECK(never == MPI_COMM_NULL);
  char text[MPI_MAX_ERROR_STRING];
  int length = -1;
  CHECK_CLASS(MPI_Error_string(MPI_ERR_LASTCODE + 1, text, &length), MPI_ERR_ARG);
  CHECK(strcmp(text, "unknown error code 59") == 0 && length == 21);
  MPI_Comm world = MPI_COMM_WORLD;
  CHECK_CLASS(MPI_Comm_free(&world), MPI_ERR_COMM);
  CHECK(world == MPI_COMM_WORLD);
  MPI_Comm self = MPI_COMM_SELF;
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN)); /* its own handler */
  CHECK_CLASS(MPI_Comm_free(&self), MPI_ERR_COMM);
  CHECK_CLASS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL), MPI_ERR_ARG);
  CHECK_CLASS(MPI_Init(NULL, NULL), MPI_ERR_OTHER); /* already initialized */
}

/* A receive too small for the message: MPI_ERR_TRUNCATE, and the status still says who sent. */
static void check_truncation(int rank, int size) {
  if (size < 2 || rank > 1) return;
  int data[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out[4] = {0, 0, 0, 0};
  if (rank == 0) {
    CHECK_MPI(MPI_Send(data, 8, MPI_INT, 1, 9, MPI_COMM_WORLD));
  } else {
    MPI_Status status;
    CHECK_CLASS(MPI_Recv(out, 4, MPI_INT, 0, 9, MPI_COMM_WORLD, &status), MPI_ERR_TRUNCATE);
    CHECK(status.MPI_SOURCE == 0 && status.MPI_TAG == 9 && status.MPI_ERROR == MPI_ERR_TRUNCATE);
  }
  /* The same through MPI_Waitall: MPI_ERR_IN_STATUS, each status holding its own class. */
  if (rank == 0) {
    CHECK_MPI(MPI_Send(data, 8, MPI_INT, 1, 10, MPI_COMM_WORLD));
  } else {
    MPI_Request requests[2];
    MPI_Status statuses[2];
    int fits = -1;
    CHECK_MPI(MPI_Irecv(out, 4, MPI_INT, 0, 10, MPI_COMM_WORLD, &requests[0]));
    CHECK_MPI(MPI_Isend(&rank, 1, MPI_INT, 1, 11, MPI_COMM_WORLD, &requests[1]));
    CHECK_MPI(MPI_Recv(&fits, 1, MPI_INT, 1, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_CLASS(MPI_Waitall(2, requests, statuses), MPI_ERR_IN_STATUS);
    CHECK(statuses[0].MPI_ERROR == MPI_ERR_TRUNCATE && statuses[1].MPI_ERROR == MPI_SUCCESS);
    CHECK(requests[0] == MPI_REQUEST_NULL && requests[1] == MPI_REQUEST_NULL);
  }
}

/* Handlers belong to communicators: a duplicate set to MPI_ERRORS_RETURN returns its errors
 * while MPI_COMM_WORLD is back to MPI_ERRORS_ARE_FATAL. */
static void check_per_communicator(int size) {
  MPI_Comm copy = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &copy));
  CHECK_MPI(MPI_Comm_set_errhandler(copy, MPI_ERRORS_RETURN));
  int data = 0;
  CHECK_CLASS(MPI_Bcast(&data, 1, MPI_INT, size, copy), MPI_ERR_ROOT);
  CHECK_MPI(MPI_Comm_free(&copy));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
}

int main(int argc, char** argv) {
  check_error_strings(); /* allowed before MPI_Init */
  CHECK_MPI(MPI_Init(&argc, &argv));
  int rank = -1, size = -1;
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  MPI_Errhandler handler = MPI_ERRHANDLER_NULL;
  CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &handler));
  CHECK(handler == MPI_ERRORS_RETURN);

  check_argument_errors(rank, size);
  check_truncation(rank, size);
  check_per_communicator(size);

  /* After all those errors the job still works. */
  int sum = 0, one = 1;
  CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  CHECK(sum == size);
  CHECK_MPI(MPI_Finalize());

  /* After MPI_Finalize, MPI_COMM_WORLD's handler (still MPI_ERRORS_RETURN) reports. */
  CHECK_CLASS(MPI_Barrier(MPI_COMM_WORLD), MPI_ERR_OTHER);
  CHECK_CLASS(MPI_Comm_rank(MPI_COMM_WORLD, &rank), MPI_ERR_OTHER);
  CHECK_CLASS(MPI_Init(&argc, &argv), MPI_ERR_OTHER);
  CHECK_CLASS(MPI_Finalize(), MPI_ERR_OTHER);
  return finish_checks("shim_errors_return");
}
