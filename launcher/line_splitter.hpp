// Cuts a rank's output stream into whole lines, so hlaunch can forward each line in one write
// and lines of different ranks never interleave mid-line.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace halyard::launcher {

class LineSplitter {
 public:
  // A line still unterminated after `max_line` bytes is forwarded in pieces of that size, so
  // one rank printing without newlines cannot grow hlaunch's memory without bound.
  explicit LineSplitter(std::size_t max_line = 64 * 1024) : max_line_(max_line) {}

  // Appends bytes; returns the lines they complete, each ending in '\n'.
  std::vector<std::string> feed(std::string_view data);

  // At end of stream: the unterminated last line with a '\n' added, or nullopt when none.
  std::optional<std::string> finish();

 private:
  std::size_t max_line_;
  std::string partial_;
};

}  // namespace halyard::launcher
