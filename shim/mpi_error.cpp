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
    case MPI_ERR_GROUP:
      return "MPI_ERR_GROUP: invalid group";
    case MPI_ERR_TOPOLOGY:
      return "MPI_ERR_TOPOLOGY: invalid topology";
    case MPI_ERR_DIMS:
      return "MPI_ERR_DIMS: invalid dimension argument";
    case MPI_ERR_KEYVAL:
      return "MPI_ERR_KEYVAL: invalid keyval";
    case MPI_ERR_NO_MEM:
      return "MPI_ERR_NO_MEM: out of memory";
    case MPI_ERR_BASE:
      return "MPI_ERR_BASE: invalid base address";
    case MPI_ERR_INFO_KEY:
      return "MPI_ERR_INFO_KEY: invalid info key";
    case MPI_ERR_INFO_VALUE:
      return "MPI_ERR_INFO_VALUE: invalid info value";
    case MPI_ERR_INFO_NOKEY:
      return "MPI_ERR_INFO_NOKEY: info key not defined";
    case MPI_ERR_INFO:
      return "MPI_ERR_INFO: invalid info object";
    case MPI_ERR_SPAWN:
      return "MPI_ERR_SPAWN: error spawning processes";
    case MPI_ERR_PORT:
      return "MPI_ERR_PORT: invalid port name";
    case MPI_ERR_SERVICE:
      return "MPI_ERR_SERVICE: invalid service name";
    case MPI_ERR_NAME:
      return "MPI_ERR_NAME: invalid name";
    case MPI_ERR_WIN:
      return "MPI_ERR_WIN: invalid window";
    case MPI_ERR_SIZE:
      return "MPI_ERR_SIZE: invalid size";
    case MPI_ERR_DISP:
      return "MPI_ERR_DISP: invalid displacement";
    case MPI_ERR_LOCKTYPE:
      return "MPI_ERR_LOCKTYPE: invalid lock type";
    case MPI_ERR_ASSERT:
      return "MPI_ERR_ASSERT: invalid assertion";
    case MPI_ERR_RMA_CONFLICT:
      return "MPI_ERR_RMA_CONFLICT: conflicting accesses to a window";
    case MPI_ERR_RMA_SYNC:
      return "MPI_ERR_RMA_SYNC: wrong synchronization of RMA calls";
    case MPI_ERR_RMA_RANGE:
      return "MPI_ERR_RMA_RANGE: target memory outside the window";
    case MPI_ERR_RMA_ATTACH:
      return "MPI_ERR_RMA_ATTACH: memory cannot be attached";
    case MPI_ERR_RMA_SHARED:
      return "MPI_ERR_RMA_SHARED: memory cannot be shared";
    case MPI_ERR_RMA_FLAVOR:
      return "MPI_ERR_RMA_FLAVOR: wrong flavor of window";
    case MPI_ERR_FILE:
      return "MPI_ERR_FILE: invalid file handle";
    case MPI_ERR_NOT_SAME:
      return "MPI_ERR_NOT_SAME: collective argument not identical on all processes";
    case MPI_ERR_AMODE:
      return "MPI_ERR_AMODE: invalid access mode";
    case MPI_ERR_UNSUPPORTED_DATAREP:
      return "MPI_ERR_UNSUPPORTED_DATAREP: unsupported data representation";
    case MPI_ERR_NO_SUCH_FILE:
      return "MPI_ERR_NO_SUCH_FILE: file does not exist";
    case MPI_ERR_FILE_EXISTS:
      return "MPI_ERR_FILE_EXISTS: file exists";
    case MPI_ERR_BAD_FILE:
      return "MPI_ERR_BAD_FILE: invalid file name";
    case MPI_ERR_ACCESS:
      return "MPI_ERR_ACCESS: permission denied";
    case MPI_ERR_NO_SPACE:
      return "MPI_ERR_NO_SPACE: not enough space";
    case MPI_ERR_QUOTA:
      return "MPI_ERR_QUOTA: quota exceeded";
    case MPI_ERR_READ_ONLY:
      return "MPI_ERR_READ_ONLY: read-only file or file system";
    case MPI_ERR_FILE_IN_USE:
      return "MPI_ERR_FILE_IN_USE: file operation could not be completed, the file is in use";
    case MPI_ERR_DUP_DATAREP:
      return "MPI_ERR_DUP_DATAREP: data representation already defined";
    case MPI_ERR_CONVERSION:
      return "MPI_ERR_CONVERSION: error in a data conversion function";
    case MPI_ERR_IO:
      return "MPI_ERR_IO: other I/O error";
    default:
      return nullptr;
  }
}

}  // namespace halyard::mpi_shim
