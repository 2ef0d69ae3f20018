#include "transports/ofi/ofi_capabilities.hpp"

#include <rdma/fabric.h>

#include <algorithm>
#include <cstdint>

#include "transports/ofi/libfabric_library.hpp"

namespace halyard::ofi {

namespace {

// Provider name -> largest counter count, for RDM tagged endpoints that also have `extra_caps`.
// A provider only reports a capability it was asked for, hence one query per feature.
std::vector<std::pair<std::string, std::size_t>> providers_with(std::uint64_t extra_caps) {
  std::vector<std::pair<std::string, std::size_t>> out;
  const LibfabricLibrary& fabric = libfabric();
  fi_info* hints = fabric.dupinfo(nullptr);  // fi_allocinfo()
  if (hints == nullptr) return out;
  hints->ep_attr->type = FI_EP_RDM;
  hints->caps = FI_TAGGED | FI_MSG | extra_caps;
  hints->mode = FI_CONTEXT | FI_CONTEXT2;
  fi_info* list = nullptr;
  if (fabric.getinfo(kLibfabricApiVersion, nullptr, nullptr, 0, hints, &list) == 0) {
    for (fi_info* i = list; i != nullptr; i = i->next) {
      if (i->fabric_attr == nullptr || i->fabric_attr->prov_name == nullptr) continue;
      std::string name = i->fabric_attr->prov_name;
      std::size_t counters = i->domain_attr != nullptr ? i->domain_attr->cntr_cnt : 0;
      auto it =
          std::find_if(out.begin(), out.end(), [&](const auto& e) { return e.first == name; });
      if (it == out.end()) {
        out.emplace_back(name, counters);
      } else {
        it->second = std::max(it->second, counters);
      }
    }
    fabric.freeinfo(list);
  }
  fabric.freeinfo(hints);
  return out;
}

bool listed(const std::vector<std::pair<std::string, std::size_t>>& providers,
            const std::string& name) {
  return std::any_of(providers.begin(), providers.end(),
                     [&](const auto& e) { return e.first == name; });
}

}  // namespace

std::string libfabric_version() {
  std::uint32_t v = libfabric().version();
  return std::to_string(FI_MAJOR(v)) + "." + std::to_string(FI_MINOR(v));
}

std::vector<ProviderCapabilities> provider_capabilities() {
  std::vector<ProviderCapabilities> out;
  const auto rma = providers_with(FI_RMA | FI_READ | FI_REMOTE_READ);
  const auto atomics = providers_with(FI_ATOMIC);
  const auto triggered = providers_with(FI_TRIGGER);
  const auto hmem = providers_with(FI_HMEM);
  for (const auto& [name, counters] : providers_with(0)) {
    ProviderCapabilities c;
    c.name = name;
    c.rma = listed(rma, name);
    c.atomics = listed(atomics, name);
    c.triggered = listed(triggered, name);
    c.hmem = listed(hmem, name);
    for (const auto& [t, n] : triggered) {
      if (t == name) c.counters = n;
    }
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace halyard::ofi
