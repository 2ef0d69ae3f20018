// MPI calls about the process and the library: init/finalize, abort, clocks, names, versions,
// error strings, datatype sizes and receive counts.
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>

#include "shim/argument_checks.hpp"
#include "shim/call_guard.hpp"
#include "shim/shim_state.hpp"

using namespace halyard::mpi_shim;

namespace {

// MPI_Wtime's origin: the first clock reading, so that times stay small and precise.
const std::chrono::steady_clock::time_point kClockOrigin = std::chrono::steady_clock::now();

int initialize(const char* call) {
  ShimState& state = shim_state();
  if (state.phase() == Phase::kInitialized) {
    return report_error(call, MPI_COMM_WORLD, MPI_ERR_OTHER, "MPI is already initialized");
  }
  if (state.phase() == Phase::kFinalized) {
    return report_error(call, MPI_COMM_WORLD, MPI_ERR_OTHER,
                        "MPI cannot be initialized again after MPI_Finalize");
  }
  try {
    state.initialize();
  } catch (const std::exception& e) {
    // Without a Runtime there is no handler but the fatal one and no job to abort through.
    fatal_error(call, MPI_ERR_OTHER, e.what());
  }
  return MPI_SUCCESS;
}

void copy_text(const std::string& text, char* out, int* length, std::size_t capacity) {
  std::size_t n = std::min(text.size(), capacity - 1);
  std::memcpy(out, text.data(), n);
  out[n] = '\0';
  *length = static_cast<int>(n);
}

}  // namespace

extern "C" {

int MPI_Init(int* /*argc*/, char*** /*argv*/) {
  return initialize("MPI_Init");
}

int MPI_Init_thread(int* /*argc*/, char*** /*argv*/, int required, int* provided) {
  if (required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE) {
    fatal_error("MPI_Init_thread", MPI_ERR_ARG, "invalid thread level " + std::to_string(required));
  }
  int result = initialize("MPI_Init_thread");
  // Halyard's event loop belongs to one thread: the main one, which makes every MPI call.
  if (provided != nullptr) *provided = std::min(required, MPI_THREAD_FUNNELED);
  return result;
}

int MPI_Initialized(int* flag) {
  *flag = shim_state().phase() != Phase::kBeforeInit;
  return MPI_SUCCESS;
}

int MPI_Finalized(int* flag) {
  *flag = shim_state().phase() == Phase::kFinalized;
  return MPI_SUCCESS;
}

int MPI_Finalize(void) {
  return guarded("MPI_Finalize", MPI_COMM_WORLD, [] { shim_state().finalize(); });
}

int MPI_Abort(MPI_Comm comm, int errorcode) {
  return guarded("MPI_Abort", comm, [&] {
    // MPI allows aborting only part of a job; Halyard always ends all of it.
    shim_state().comm(comm);
    shim_state().runtime().abort(errorcode,
                                 "MPI_Abort called with error code " + std::to_string(errorcode));
  });
}

double MPI_Wtime(void) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - kClockOrigin).count();
}

double MPI_Wtick(void) {
  return std::chrono::duration<double>(std::chrono::steady_clock::duration(1)).count();
}

int MPI_Get_processor_name(char* name, int* resultlen) {
  return guarded("MPI_Get_processor_name", MPI_COMM_WORLD, [&] {
    halyard::Runtime& runtime = shim_state().runtime();
    std::string text = runtime.topology()[runtime.rank()].hostname;
    // Under hlaunch --vnodes every emulated node gets its own name, so that programs grouping
    // ranks by processor name see the same nodes Halyard does.
    if (runtime.launch_info().num_nodes > 1) {
      text += "/vnode" + std::to_string(runtime.launch_info().node_id);
    }
    copy_text(text, name, resultlen, MPI_MAX_PROCESSOR_NAME);
  });
}

int MPI_Get_version(int* version, int* subversion) {
  *version = MPI_VERSION;
  *subversion = MPI_SUBVERSION;
  return MPI_SUCCESS;
}

int MPI_Error_string(int errorcode, char* string, int* resultlen) {
  const char* text = error_class_text(errorcode);
  if (text == nullptr) {
    copy_text("unknown error code " + std::to_string(errorcode), string, resultlen,
              MPI_MAX_ERROR_STRING);
    return report_error("MPI_Error_string", MPI_COMM_WORLD, MPI_ERR_ARG,
                        "invalid error code " + std::to_string(errorcode));
  }
  copy_text(text, string, resultlen, MPI_MAX_ERROR_STRING);
  return MPI_SUCCESS;
}

int MPI_Error_class(int errorcode, int* errorclass) {
  if (error_class_text(errorcode) == nullptr) {
    return report_error("MPI_Error_class", MPI_COMM_WORLD, MPI_ERR_ARG,
                        "invalid error code " + std::to_string(errorcode));
  }
  *errorclass = errorcode;  // the shim's error codes are its classes
  return MPI_SUCCESS;
}

int MPI_Type_size(MPI_Datatype datatype, int* size) {
  return guarded("MPI_Type_size", MPI_COMM_WORLD,
                 [&] { *size = static_cast<int>(checked_any_datatype(datatype).size); });
}

int MPI_Get_count(const MPI_Status* status, MPI_Datatype datatype, int* count) {
  return guarded("MPI_Get_count", MPI_COMM_WORLD, [&] {
    const TypeObject& type = checked_any_datatype(datatype);
    if (status == MPI_STATUS_IGNORE) fail(MPI_ERR_ARG, "status is MPI_STATUS_IGNORE");
    auto bytes = static_cast<std::size_t>(status->halyard_received_bytes);
    if (type.size == 0) {
      *count = 0;
      return;
    }
    *count = bytes % type.size == 0 ? static_cast<int>(bytes / type.size) : MPI_UNDEFINED;
  });
}

}  // extern "C"
