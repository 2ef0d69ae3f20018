// A mistake on hlaunch's command line: reported in one line with a usage hint, exit code 2.
#pragma once

#include <stdexcept>
#include <string>

namespace halyard::launcher {

class UsageError : public std::runtime_error {
 public:
  explicit UsageError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace halyard::launcher
