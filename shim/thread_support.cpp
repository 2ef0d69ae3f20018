#include "shim/thread_support.hpp"

#include <mpi.h>

#include <thread>

namespace halyard::mpi_shim {

namespace {

struct ThreadSupport {
  int provided = MPI_THREAD_SINGLE;
  std::thread::id main_thread;
};

ThreadSupport& thread_support() {
  static ThreadSupport support;
  return support;
}

}  // namespace

void record_thread_level(int provided) {
  thread_support() = {provided, std::this_thread::get_id()};
}

int provided_thread_level() {
  return thread_support().provided;
}

bool is_main_thread() {
  return std::this_thread::get_id() == thread_support().main_thread;
}

const char* thread_level_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE:
      return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED:
      return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED:
      return "MPI_THREAD_SERIALIZED";
    default:
      return "MPI_THREAD_MULTIPLE";
  }
}

}  // namespace halyard::mpi_shim
