// What a window reports for a call it refuses: the fault (which the MPI shim maps to MPI's error
// classes) and a message that names the problem.
#pragma once

#include <string>

#include "runtime/support/error.hpp"

namespace halyard {

enum class WindowFault {
  kSync,     // no epoch open for the call (or one already open), a lock held twice, ...
  kRange,    // beyond the target's window
  kSize,     // origin and target data of different sizes
  kFlavor,   // the call needs a window of another flavor
  kAttach,   // detach of memory never attached
  kShared,   // a shared window on ranks of several nodes
  kRank,     // a rank outside the window's group
  kFreed,    // the window was freed
  kNoMemory  // the system refused the window's memory
};

class WindowError : public Error {
 public:
  WindowError(WindowFault fault, const std::string& message)
      : Error(ErrorCode::kInvalidArgument, message), fault_(fault) {}
  WindowFault fault() const noexcept { return fault_; }

 private:
  WindowFault fault_;
};

[[noreturn]] inline void window_fault(WindowFault fault, const std::string& message) {
  throw WindowError(fault, message);
}

}  // namespace halyard
