#include "shim/window_table.hpp"

#include "shim/handle_table.hpp"

namespace halyard::mpi_shim {

namespace {

// Never destroyed: a window the program did not free must not be torn down by a static
// destructor after the runtime is gone.
HandleTable<std::unique_ptr<Window>>& table() {
  static auto* windows = new HandleTable<std::unique_ptr<Window>>(HALYARD_MPI_KIND_WIN);
  return *windows;
}

}  // namespace

Window* find_window(MPI_Win win) {
  std::unique_ptr<Window>* entry = table().find(win);
  return entry != nullptr ? entry->get() : nullptr;
}

void no_window(MPI_Win win) {
  fail(MPI_ERR_WIN,
       win == MPI_WIN_NULL ? "the window is MPI_WIN_NULL" : "the handle names no window");
}

Window& checked_window(MPI_Win win) {
  Window* window = find_window(win);
  if (window == nullptr) no_window(win);
  return *window;
}

MPI_Win add_window(std::unique_ptr<Window> window) {
  return table().add(std::move(window));
}

void remove_window(MPI_Win win) {
  table().remove(win);
}

}  // namespace halyard::mpi_shim
