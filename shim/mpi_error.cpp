#include "shim/mpi_error.hpp"

#include <mpi.h>

namespace halyard::mpi_shim {

int error_class_of(ErrorCode code) {
  switch (code) {
    case ErrorCode::kSuccess:
      return MPI_SUCCESS;
    case ErrorCode::kInvalidArgument:
      return MPI_ERR_ARG;
    case ErrorCode::kTruncated:
      return MPI_ERR_TRUNCATE;
    case ErrorCode::kPeerFailed:
      return MPI_ERR_PROC_FAILED;
    case ErrorCode::kUnsupported:
      return MPI_ERR_UNSUPPORTED_OPERATION;
    case ErrorCode::kInternal:
      return MPI_ERR_INTERN;
    case ErrorCode::kTransport:
    case ErrorCode::kTimeout:
    case ErrorCode::kBootstrap:
    case ErrorCode::kCancelled:
      return MPI_ERR_OTHER;
  }
  return MPI_ERR_UNKNOWN;
}

const char* error_class_text(int error_class) {
  switch (error_class) {
    case MPI_SUCCESS:
      return "MPI_SUCCESS: no error";
    case MPI_ERR_BUFFER:
      return "MPI_ERR_BUFFER: invalid buffer pointer";
    case MPI_ERR_COUNT:
      return "MPI_ERR_COUNT: invalid count argument";
    case MPI_ERR_TYPE:
      return "MPI_ERR_TYPE: invalid datatype";
    case MPI_ERR_TAG:
      return "MPI_ERR_TAG: invalid tag";
    case MPI_ERR_COMM:
      return "MPI_ERR_COMM: invalid communicator";
    case MPI_ERR_RANK:
      return "MPI_ERR_RANK: invalid rank";
    case MPI_ERR_REQUEST:
      return "MPI_ERR_REQUEST: invalid request";
    case MPI_ERR_ROOT:
      return "MPI_ERR_ROOT: invalid root";
    case MPI_ERR_OP:
      return "MPI_ERR_OP: invalid reduction operation";
    case MPI_ERR_ARG:
      return "MPI_ERR_ARG: invalid argument of some other kind";
    case MPI_ERR_TRUNCATE:
      return "MPI_ERR_TRUNCATE: message truncated";
    case MPI_ERR_OTHER:
      return "MPI_ERR_OTHER: known error not in this list";
    case MPI_ERR_INTERN:
      return "MPI_ERR_INTERN: internal error";
    case MPI_ERR_IN_STATUS:
      return "MPI_ERR_IN_STATUS: error code is in status";
    case MPI_ERR_PENDING:
      return "MPI_ERR_PENDING: pending request";
    case MPI_ERR_UNSUPPORTED_OPERATION:
      return "MPI_ERR_UNSUPPORTED_OPERATION: operation not supported";
    case MPI_ERR_PROC_FAILED:
      return "MPI_ERR_PROC_FAILED: a process of the job failed";
    case MPI_ERR_UNKNOWN:
      return "MPI_ERR_UNKNOWN: unknown error";
    default:
      return nullptr;
  }
}

}  // namespace halyard::mpi_shim
