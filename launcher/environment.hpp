// Building a rank's environment: this process's, then assignments layered on top.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace halyard::launcher {

using Environment = std::map<std::string, std::string>;

// This process's environment.
Environment current_environment();

// Applies "NAME=VALUE" assignments in order; entries without '=' are skipped (a bare -x VAR
// names a variable the rank inherits anyway).
void apply_assignments(Environment& env, const std::vector<std::string>& assignments);

// "NAME=VALUE" strings, for execve.
std::vector<std::string> to_assignments(const Environment& env);

}  // namespace halyard::launcher
