#include "shim/window_table.hpp"

#include "shim/handle_table.hpp"

namespace halyard::mpi_shim {

namespace {

// Never destroyed: a window the program did not free must not be torn down by a static
// destructor after the runtime is gone.
HandleTable<std::unique_ptr<WindowObject>>& table() {
  static auto* windows = new HandleTable<std::unique_ptr<WindowObject>>(HALYARD_MPI_KIND_WIN);
  return *windows;
}

}  // namespace

WindowObject* find_window(MPI_Win win) {
  std::unique_ptr<WindowObject>* entry = table().find(win);
  return entry != nullptr ? entry->get() : nullptr;
}

void no_window(MPI_Win win) {
  fail(MPI_ERR_WIN,
       win == MPI_WIN_NULL ? "the window is MPI_WIN_NULL" : "the handle names no window");
}

WindowObject& checked_window(MPI_Win win) {
  WindowObject* window = find_window(win);
  if (window == nullptr) no_window(win);
  return *window;
}

MPI_Win add_window(std::unique_ptr<WindowObject> window) {
  return table().add(std::move(window));
}

void remove_window(MPI_Win win) {
  table().remove(win);
}

}  // namespace halyard::mpi_shim
