#include "launcher/cpu_binding.hpp"

#include <hwloc.h>
#include <hwloc/glibc-sched.h>

#include <algorithm>
#include <numeric>

#include "runtime/bootstrap/cpu_affinity.hpp"
#include "runtime/support/error.hpp"
#include "runtime/support/log.hpp"

namespace halyard::launcher {

struct HostTopology::Impl {
  hwloc_topology_t topo = nullptr;
  // The CPUs hlaunch itself may run on (its affinity, e.g. from taskset, within the cgroup's
  // cpuset): ranks are bound inside it, never outside.
  hwloc_bitmap_t usable = nullptr;

  // The objects of `type` with a CPU in `usable`, in logical order.
  std::vector<hwloc_obj_t> usable_objects(hwloc_obj_type_t type) const {
    std::vector<hwloc_obj_t> objects;
    hwloc_obj_t obj = nullptr;
    while ((obj = hwloc_get_next_obj_by_type(topo, type, obj)) != nullptr) {
      if (obj->cpuset != nullptr && hwloc_bitmap_intersects(obj->cpuset, usable)) {
        objects.push_back(obj);
      }
    }
    return objects;
  }
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
  impl_->usable = usable_cpuset(impl_->topo);
}

HostTopology::~HostTopology() {
  hwloc_bitmap_free(impl_->usable);
  hwloc_topology_destroy(impl_->topo);
}

int HostTopology::cores() const {
  auto n = impl_->usable_objects(HWLOC_OBJ_CORE).size();
  if (n == 0) n = impl_->usable_objects(HWLOC_OBJ_PU).size();
  return std::max(static_cast<int>(n), 1);
}

std::string HostTopology::usable_cpus() const {
  const std::string list = cpu_list(impl_->usable);
  if (list.empty()) return "unknown";
  return std::to_string(hwloc_bitmap_weight(impl_->usable)) + " (" + list + ")";
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
  const std::vector<hwloc_obj_t> objects = impl_->usable_objects(type);
  if (objects.empty()) {
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
  hwloc_bitmap_t cpus = hwloc_bitmap_alloc();
  for (std::size_t slot = 0; slot < order.size(); ++slot) {
    hwloc_bitmap_and(cpus, objects[slot % objects.size()]->cpuset, impl_->usable);
    cpu_set_t set;
    CPU_ZERO(&set);
    hwloc_cpuset_to_glibc_sched_affinity(impl_->topo, cpus, &set, sizeof set);
    sets[order[slot]] = set;
  }
  hwloc_bitmap_free(cpus);
  return sets;
}

}  // namespace halyard::launcher
