// The libfabric transport: RDM endpoints with tagged messages (docs/transport-ofi.md).
//
// Only the factory is public; it is registered in the TransportRegistry
// (runtime/transport_registry.hpp), from which the runtime's router builds the transport and
// talks to it through the Transport interface (runtime/transport.hpp).
#pragma once

#include <memory>

#include "runtime/transport.hpp"
#include "runtime/transport_registry.hpp"

namespace halyard {

// Opens a fabric, domain, address vector, completion queue and RDM endpoint for this rank.
// The provider comes from HALYARD_OFI_PROVIDER (default: the first suitable one fi_getinfo
// returns). Throws Error naming the provider when libfabric offers none that fits, and
// Error(kInvalidArgument) naming the variable for a malformed HALYARD_OFI_* setting. Under
// HALYARD_OFI_WAIT_FD=auto, the runtime's choices in `settings` decide whether the completion
// queue gets a wait fd: the loop's wait policy, a progress thread, and the ranks on this host
// against the CPUs they may run on.
std::unique_ptr<Transport> make_ofi_transport(const TransportSettings& settings);

// Registers make_ofi_transport as the registry's ofi transport.
void register_ofi_transport(TransportRegistry& registry);

}  // namespace halyard
