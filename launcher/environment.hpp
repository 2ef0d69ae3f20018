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

// Adds glibc.rtld.optional_static_tls=16384 to GLIBC_TUNABLES unless it names that tunable
// already: a rank that loads libhalyard with dlopen (the Python module) needs static TLS for its
// initial-exec thread-locals (0.9 KB), and libraries loaded before it (torch's) may have taken
// most of the 1.6 KB glibc keeps spare by default.
void leave_room_for_dlopen_tls(Environment& env);

// "NAME=VALUE" strings, for execve.
std::vector<std::string> to_assignments(const Environment& env);

}  // namespace halyard::launcher
