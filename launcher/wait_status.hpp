// What a rank's wait status means to the user and to hlaunch's own exit code.
#pragma once

#include <string>

namespace halyard::launcher {

// Normal exit with status 0.
bool wait_status_ok(int status);

// "exited with status 3" or "was killed by signal 9 (Killed)".
std::string describe_wait_status(int status);

// The exit code hlaunch reports for a rank that ended so: its status, or 128 + the signal
// number as shells do.
int exit_code_of(int status);

}  // namespace halyard::launcher
