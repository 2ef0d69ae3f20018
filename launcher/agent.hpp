// `hlaunch --agent`: the per-host half of a multi-host job. hlaunch starts one agent on each
// host (through HALYARD_RSH/ssh, srun, or directly for this host) and sends it an AgentSpec on
// stdin; the agent starts that host's ranks, binds them, forwards their output lines and exit
// statuses as frames on stdout (agent_protocol.hpp), and passes on the signals hlaunch sends.
//
// The agent never outlives hlaunch: when its stdin closes (hlaunch, ssh or srun died) it kills
// its ranks at once, and it exits once its ranks are reaped.
#pragma once

namespace halyard::launcher {

// Runs the agent on stdin/stdout until its ranks ended; returns its exit status (0, or 125
// when hlaunch went away or the spec could not be read).
int run_agent();

}  // namespace halyard::launcher
