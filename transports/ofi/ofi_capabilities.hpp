// What the installed libfabric offers, for `hlaunch --info`: each provider that gives RDM
// endpoints with tagged messages, and which of the features Halyard uses or could use it has
// (RMA reads for the rendezvous, triggered operations with counters for offloaded collective
// schedules, atomics, device memory). Read at run time through fi_getinfo, so the answer is the
// library and hardware of this host, not of the build machine.
#pragma once

#include <string>
#include <vector>

namespace halyard::ofi {

struct ProviderCapabilities {
  std::string name;  // e.g. "tcp;ofi_rxm"
  bool rma = false;
  bool atomics = false;
  bool triggered = false;    // FI_TRIGGER: operations deferred until a counter reaches a threshold
  bool hmem = false;         // FI_HMEM: device memory
  std::size_t counters = 0;  // largest domain_attr->cntr_cnt offered with FI_TRIGGER
};

// Both load libfabric (libfabric_library.hpp) and throw its Error when it cannot be loaded.
// libfabric's run-time version, e.g. "1.17".
std::string libfabric_version();

// One entry per provider name, in fi_getinfo's order (its preference). Empty when libfabric
// offers no RDM tagged endpoint at all.
std::vector<ProviderCapabilities> provider_capabilities();

}  // namespace halyard::ofi
