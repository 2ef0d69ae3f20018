#include "shim/window_table.hpp"

#include <cstdint>
#include <vector>

#include "shim/handle_table.hpp"

namespace halyard::mpi_shim {

namespace {

// Never destroyed: a window the program did not free must not be torn down by a static
// destructor after the runtime is gone.
HandleTable<std::unique_ptr<Window>>& table() {
  static auto* windows = new HandleTable<std::unique_ptr<Window>>(HALYARD_MPI_KIND_WIN);
  return *windows;
}

// The live windows by handle index, beside the table: every one-sided call looks its window up,
// and an index into a vector costs a few instructions where the table's deque costs ~30. Never
// destroyed either.
std::vector<Window*>& by_index() {
  static auto* windows = new std::vector<Window*>();
  return *windows;
}

std::size_t index_bits(MPI_Win win) {
  return static_cast<std::uint32_t>(win) & 0x00ffffffu;
}

}  // namespace

Window* find_window(MPI_Win win) {
  if ((static_cast<std::uint32_t>(win) & 0xff000000u) !=
      static_cast<std::uint32_t>(HALYARD_MPI_KIND_WIN)) {
    return nullptr;
  }
  const std::size_t index = index_bits(win);
  const std::vector<Window*>& live = by_index();
  return index < live.size() ? live[index] : nullptr;
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
  Window* live = window.get();
  const MPI_Win win = table().add(std::move(window));
  const std::size_t index = index_bits(win);
  if (index >= by_index().size()) by_index().resize(index + 1, nullptr);
  by_index()[index] = live;
  return win;
}

void remove_window(MPI_Win win) {
  if (table().remove(win)) by_index()[index_bits(win)] = nullptr;
}

}  // namespace halyard::mpi_shim
