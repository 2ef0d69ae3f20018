// Finds the program hlaunch is asked to run, before any rank starts, so a typo is a usage
// error (exit 2) instead of N failing ranks.
#pragma once

#include <string>

namespace halyard::launcher {

// The path to execute: `program` itself when it contains '/', else the first match on PATH.
// Throws UsageError when it does not exist or is not an executable file.
std::string resolve_program(const std::string& program);

}  // namespace halyard::launcher
