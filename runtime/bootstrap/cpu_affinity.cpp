#include "runtime/bootstrap/cpu_affinity.hpp"

#include <cstdlib>

namespace halyard {

hwloc_bitmap_t usable_cpuset(hwloc_topology_t topo) {
  hwloc_bitmap_t usable = hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(topo));
  hwloc_bitmap_t bound = hwloc_bitmap_alloc();
  if (hwloc_get_cpubind(topo, bound, HWLOC_CPUBIND_PROCESS) == 0 &&
      hwloc_bitmap_intersects(bound, usable)) {
    hwloc_bitmap_and(usable, usable, bound);
  }
  hwloc_bitmap_free(bound);
  return usable;
}

std::string cpu_list(hwloc_const_bitmap_t set) {
  char* text = nullptr;
  if (hwloc_bitmap_list_asprintf(&text, set) < 0 || text == nullptr) return "";
  std::string list(text);
  std::free(text);
  return list;
}

}  // namespace halyard
