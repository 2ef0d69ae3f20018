// MPI calls about the process and the library: init/finalize, abort, clocks, names, versions,
// error strings and added error codes, thread level, memory, datatype sizes and receive counts.
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>

#include "shim/argument_checks.hpp"
#include "shim/attributes.hpp"
#include "shim/call_guard.hpp"
#include "shim/info_objects.hpp"
#include "shim/shim_state.hpp"
#include "shim/text_output.hpp"
#include "shim/thread_support.hpp"
#include "shim/user_error_codes.hpp"

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
  *length = halyard::mpi_shim::copy_text(text, out, capacity);
}

// Alloc_mem's alignment: a cache line, so that buffers never share one with other data.
constexpr std::size_t kAllocAlignment = 64;

}  // namespace

extern "C" {

int MPI_Init(int* /*argc*/, char*** /*argv*/) {
  record_thread_level(MPI_THREAD_SINGLE);
  return initialize("MPI_Init");
}

int MPI_Init_thread(int* /*argc*/, char*** /*argv*/, int required, int* provided) {
  if (required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE) {
    fatal_error("MPI_Init_thread", MPI_ERR_ARG, "invalid thread level " + std::to_string(required));
  }
  // Every level is provided; MPI_THREAD_MULTIPLE shares the runtime between threads
  // (call_guard.hpp), the lower levels leave it single-threaded.
  record_thread_level(required);
  int result = initialize("MPI_Init_thread");
  if (result == MPI_SUCCESS && required == MPI_THREAD_MULTIPLE) {
    shim_state().share_between_threads();
  }
  if (provided != nullptr) *provided = required;
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
  // MPI deletes MPI_COMM_SELF's attributes first, so that their delete callbacks can serve as
  // the program's own finalization hooks (while MPI still works).
  int result = guarded("MPI_Finalize", MPI_COMM_WORLD, [] {
    delete_all_attributes(MPI_COMM_SELF, shim_state().comm(MPI_COMM_SELF).attributes);
  });
  if (result != MPI_SUCCESS) return result;
  // Without the call lock: the runtime's finalize removes it (call_guard.hpp).
  return reporting_failures("MPI_Finalize", MPI_COMM_WORLD, [] { shim_state().finalize(); });
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
  if (text == nullptr && added_code_class(errorcode) >= 0)
    text = added_code_text(errorcode).c_str();
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
  int added_class = added_code_class(errorcode);
  if (error_class_text(errorcode) == nullptr && added_class < 0) {
    return report_error("MPI_Error_class", MPI_COMM_WORLD, MPI_ERR_ARG,
                        "invalid error code " + std::to_string(errorcode));
  }
  // The shim's own error codes are its classes.
  *errorclass = added_class >= 0 ? added_class : errorcode;
  return MPI_SUCCESS;
}

int MPI_Add_error_class(int* errorclass) {
  return guarded("MPI_Add_error_class", MPI_COMM_WORLD, [&] {
    check_out(errorclass, "errorclass");
    *errorclass = add_error_class();
  });
}

int MPI_Add_error_code(int errorclass, int* errorcode) {
  return guarded("MPI_Add_error_code", MPI_COMM_WORLD, [&] {
    check_out(errorcode, "errorcode");
    *errorcode = add_error_code(errorclass);
  });
}

int MPI_Add_error_string(int errorcode, const char* string) {
  return guarded("MPI_Add_error_string", MPI_COMM_WORLD, [&] {
    check_out(string, "string");
    set_error_string(errorcode, string);
  });
}

int MPI_Query_thread(int* provided) {
  return guarded("MPI_Query_thread", MPI_COMM_WORLD, [&] {
    check_out(provided, "provided");
    *provided = provided_thread_level();
  });
}

int MPI_Is_thread_main(int* flag) {
  return guarded("MPI_Is_thread_main", MPI_COMM_WORLD, [&] {
    check_out(flag, "flag");
    *flag = is_main_thread();
  });
}

int MPI_Get_library_version(char* version, int* resultlen) {
  // Allowed before MPI_Init and after MPI_Finalize, like MPI_Get_version.
  std::string text = "Halyard MPI shim " HALYARD_VERSION_STRING " (a subset of MPI " +
                     std::to_string(MPI_VERSION) + "." + std::to_string(MPI_SUBVERSION) + ")";
  copy_text(text, version, resultlen, MPI_MAX_LIBRARY_VERSION_STRING);
  return MPI_SUCCESS;
}

int MPI_Alloc_mem(MPI_Aint size, MPI_Info info, void* baseptr) {
  return guarded("MPI_Alloc_mem", MPI_COMM_WORLD, [&] {
    if (size < 0) fail(MPI_ERR_ARG, "invalid size " + std::to_string(size));
    hints_from(info);  // checks the handle; Halyard takes no hint for memory
    check_out(baseptr, "baseptr");
    void* memory = nullptr;
    std::size_t bytes = std::max<std::size_t>(static_cast<std::size_t>(size), 1);
    if (posix_memalign(&memory, kAllocAlignment, bytes) != 0) {
      fail(MPI_ERR_NO_MEM, "cannot allocate " + std::to_string(size) + " bytes");
    }
    *static_cast<void**>(baseptr) = memory;
  });
}

int MPI_Free_mem(void* base) {
  return guarded("MPI_Free_mem", MPI_COMM_WORLD, [&] { std::free(base); });
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
