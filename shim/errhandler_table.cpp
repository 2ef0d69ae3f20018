#include "shim/errhandler_table.hpp"

#include <string>

#include "shim/handle_table.hpp"
#include "shim/mpi_error.hpp"

namespace halyard::mpi_shim {

namespace {

struct ErrhandlerEntry {
  MPI_Comm_errhandler_function* function = nullptr;  // null for the predefined handlers
  bool freed = false;
};

HandleTable<ErrhandlerEntry>& errhandlers() {
  static HandleTable<ErrhandlerEntry> table = [] {
    HandleTable<ErrhandlerEntry> made(HALYARD_MPI_KIND_ERRHANDLER);
    made.add_predefined({});  // MPI_ERRORS_ARE_FATAL
    made.add_predefined({});  // MPI_ERRORS_RETURN
    return made;
  }();
  return table;
}

ErrhandlerEntry& live_errhandler(MPI_Errhandler handler) {
  ErrhandlerEntry* entry = errhandlers().find(handler);
  if (entry == nullptr || entry->freed) {
    fail(MPI_ERR_ARG, handler == MPI_ERRHANDLER_NULL
                          ? std::string("error handler is MPI_ERRHANDLER_NULL")
                          : "invalid error handler " + std::to_string(handler));
  }
  return *entry;
}

}  // namespace

MPI_Comm_errhandler_function* user_errhandler_function(MPI_Errhandler handler) {
  ErrhandlerEntry* entry = errhandlers().find(handler);
  return entry != nullptr ? entry->function : nullptr;
}

void check_errhandler(MPI_Errhandler handler) {
  live_errhandler(handler);
}

MPI_Errhandler add_user_errhandler(MPI_Comm_errhandler_function* function) {
  if (function == nullptr) fail(MPI_ERR_ARG, "the handler function is NULL");
  return errhandlers().add({function, false});
}

void free_errhandler(MPI_Errhandler handler) {
  ErrhandlerEntry& entry = live_errhandler(handler);
  if (!errhandlers().is_predefined(handler)) entry.freed = true;
}

}  // namespace halyard::mpi_shim
