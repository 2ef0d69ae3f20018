#include "launcher/cpu_binding.hpp"

#include <hwloc.h>
#include <hwloc/glibc-sched.h>

#include <algorithm>
#include <numeric>

#include "runtime/error.hpp"
#include "runtime/log.hpp"

namespace halyard::launcher {

struct HostTopology::Impl {
  hwloc_topology_t topo = nullptr;
};

std::string bind_to_name(BindTo bind) {
  switch (bind) {
    case BindTo::kNone:
      return "none";
    case BindTo::kCore:
      return "core";
    case BindTo::kNuma:
      return "numa";
    case BindTo::kPackage:
      return "package";
  }
  return "none";
}

BindTo bind_to_from_name(const std::string& name) {
  for (BindTo b : {BindTo::kNone, BindTo::kCore, BindTo::kNuma, BindTo::kPackage}) {
    if (bind_to_name(b) == name) return b;
  }
  throw Error(ErrorCode::kInvalidArgument,
              "bind-to '" + name + "' is not one of core, numa, package, none");
}

HostTopology::HostTopology() : impl_(std::make_unique<Impl>()) {
  if (hwloc_topology_init(&impl_->topo) != 0) {
    throw Error(ErrorCode::kInternal, "hwloc could not initialise a topology");
  }
  if (hwloc_topology_load(impl_->topo) != 0) {
    hwloc_topology_destroy(impl_->topo);
    throw Error(ErrorCode::kInternal, "hwloc could not read the host topology");
  }
}

HostTopology::~HostTopology() {
  hwloc_topology_destroy(impl_->topo);
}

int HostTopology::cores() const {
  int n = hwloc_get_nbobjs_by_type(impl_->topo, HWLOC_OBJ_CORE);
  if (n <= 0) n = hwloc_get_nbobjs_by_type(impl_->topo, HWLOC_OBJ_PU);
  return std::max(n, 1);
}

BindTo HostTopology::default_binding(int num_ranks) const {
  return num_ranks <= cores() ? BindTo::kCore : BindTo::kNone;
}

std::vector<std::optional<cpu_set_t>> HostTopology::binding_sets(
    BindTo bind, const std::vector<RankPlacement>& placement) const {
  std::vector<std::optional<cpu_set_t>> sets(placement.size());
  if (bind == BindTo::kNone) return sets;
  hwloc_obj_type_t type = bind == BindTo::kCore   ? HWLOC_OBJ_CORE
                          : bind == BindTo::kNuma ? HWLOC_OBJ_NUMANODE
                                                  : HWLOC_OBJ_PACKAGE;
  int count = hwloc_get_nbobjs_by_type(impl_->topo, type);
  if (count <= 0) {
    log::warn("hlaunch: this host has no {} objects; ranks stay unbound", bind_to_name(bind));
    return sets;
  }
  std::vector<std::size_t> order(placement.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return placement[a].node_id < placement[b].node_id ||
           (placement[a].node_id == placement[b].node_id &&
            placement[a].local_rank < placement[b].local_rank);
  });
  for (std::size_t slot = 0; slot < order.size(); ++slot) {
    hwloc_obj_t obj = hwloc_get_obj_by_type(impl_->topo, type,
                                            static_cast<unsigned>(static_cast<int>(slot) % count));
    if (obj == nullptr || obj->cpuset == nullptr) continue;
    cpu_set_t set;
    CPU_ZERO(&set);
    hwloc_cpuset_to_glibc_sched_affinity(impl_->topo, obj->cpuset, &set, sizeof set);
    sets[order[slot]] = set;
  }
  return sets;
}

}  // namespace halyard::launcher
