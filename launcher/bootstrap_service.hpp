// `hlaunch --serve-bootstrap -n N`: only the bootstrap server, for ranks that another launcher
// starts (`srun ./program` inside a Slurm allocation). Prints the variables the ranks need as
// `export` lines, then serves until a rank aborts, --timeout passes, or hlaunch gets SIGINT,
// SIGTERM or SIGHUP. The ranks take their rank and node from Slurm
// (runtime/bootstrap/launch_info.hpp).
#pragma once

#include "launcher/launch_options.hpp"

namespace halyard::launcher {

// Returns hlaunch's exit status: 0 when stopped by a signal, the abort code, or 124.
int serve_bootstrap(const LaunchOptions& options);

}  // namespace halyard::launcher
