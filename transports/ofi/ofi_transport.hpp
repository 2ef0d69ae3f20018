// The libfabric transport: RDM endpoints with tagged messages (docs/transport-ofi.md).
//
// Only the factory is public; the runtime's router calls it and talks to the result through the
// Transport interface (runtime/transport.hpp).
#pragma once

#include <memory>

#include "runtime/launch_info.hpp"
#include "runtime/transport.hpp"

namespace halyard {

// Opens a fabric, domain, address vector, completion queue and RDM endpoint for this rank.
// The provider comes from HALYARD_OFI_PROVIDER (default: the first suitable one fi_getinfo
// returns). Throws Error naming the provider when libfabric offers none that fits, and
// Error(kInvalidArgument) naming the variable for a malformed HALYARD_OFI_* setting.
// `ranks_on_host` (ranks of the job on this machine) against `host_cpus` (the CPUs they may run
// on; 0: the machine's online CPUs) decides, under HALYARD_OFI_WAIT_FD=auto, whether the
// completion queue gets a wait fd.
std::unique_ptr<Transport> make_ofi_transport(const LaunchInfo& info, int ranks_on_host = 1,
                                              long host_cpus = 0);

}  // namespace halyard
