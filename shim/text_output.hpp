// Copying text into the application's fixed-size buffers (names, version strings, info values).
#pragma once

#include <algorithm>
#include <cstring>
#include <string_view>

namespace halyard::mpi_shim {

// Writes at most capacity - 1 characters of `text` and a terminating NUL into `out`; returns
// how many characters it wrote.
inline int copy_text(std::string_view text, char* out, std::size_t capacity) {
  std::size_t n = std::min(text.size(), capacity - 1);
  std::memcpy(out, text.data(), n);
  out[n] = '\0';
  return static_cast<int>(n);
}

}  // namespace halyard::mpi_shim
