#include "runtime/bootstrap/topology.hpp"

#include <hwloc.h>
#include <unistd.h>

#include <climits>
#include <memory>
#include <sstream>
#include <string>

#include "runtime/bootstrap/bootstrap_client.hpp"
#include "runtime/bootstrap/cpu_affinity.hpp"
#include "runtime/support/error.hpp"

namespace halyard {
namespace {

struct TopologyDeleter {
  void operator()(hwloc_topology* t) const { hwloc_topology_destroy(t); }
};
struct BitmapDeleter {
  void operator()(hwloc_bitmap_s* b) const { hwloc_bitmap_free(b); }
};
using TopologyPtr = std::unique_ptr<hwloc_topology, TopologyDeleter>;
using BitmapPtr = std::unique_ptr<hwloc_bitmap_s, BitmapDeleter>;

TopologyPtr load_topology() {
  hwloc_topology_t raw = nullptr;
  if (hwloc_topology_init(&raw) != 0) {
    throw Error(ErrorCode::kInternal, "hwloc_topology_init failed");
  }
  TopologyPtr topo(raw);
  if (hwloc_topology_load(raw) != 0)
    throw Error(ErrorCode::kInternal, "hwloc_topology_load failed");
  return topo;
}

std::string hostname() {
  char name[HOST_NAME_MAX + 1] = {};
  if (gethostname(name, sizeof name) != 0) return "unknown";
  return name;
}

// Logical index of the object of `type` that covers all of `set`, or -1 when the set spans
// several such objects.
int covering_index(hwloc_topology_t topo, hwloc_const_cpuset_t set, hwloc_obj_type_t type) {
  hwloc_obj_t obj = hwloc_get_obj_covering_cpuset(topo, set);
  while (obj != nullptr && obj->type != type) obj = obj->parent;
  return obj == nullptr ? -1 : static_cast<int>(obj->logical_index);
}

// NUMA nodes hang off the tree as memory children in hwloc 2, so they are found by cpuset.
int numa_index(hwloc_topology_t topo, hwloc_const_cpuset_t set) {
  int found = -1;
  hwloc_obj_t node = nullptr;
  while ((node = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, node)) != nullptr) {
    if (node->cpuset != nullptr && hwloc_bitmap_isincluded(set, node->cpuset)) {
      found = static_cast<int>(node->logical_index);
      break;
    }
  }
  return found;
}

// The list travels as one word: "-" stands for an unknown (empty) list.
std::string encode_row(const TopologyRow& row) {
  std::ostringstream out;
  out << row.node_id << ' ' << row.package << ' ' << row.numa << ' ' << row.core << ' '
      << (row.cpus.empty() ? "-" : row.cpus) << ' ' << row.hostname;
  return out.str();
}

TopologyRow decode_row(const std::string& text, int rank) {
  std::istringstream in(text);
  TopologyRow row;
  in >> row.node_id >> row.package >> row.numa >> row.core >> row.cpus >> row.hostname;
  if (row.cpus == "-") row.cpus.clear();
  if (in.fail()) {
    throw Error(ErrorCode::kBootstrap,
                "topology row of rank " + std::to_string(rank) + " is malformed: '" + text + "'");
  }
  return row;
}

}  // namespace

TopologyRow TopologyTable::probe_self(int node_id) {
  TopologyPtr topo = load_topology();
  TopologyRow row;
  row.hostname = hostname();
  row.node_id = node_id;

  hwloc_const_cpuset_t allowed = hwloc_topology_get_allowed_cpuset(topo.get());
  BitmapPtr usable(usable_cpuset(topo.get()));
  bool is_bound = !hwloc_bitmap_isequal(usable.get(), allowed);

  // Where the binding does not pin a single package or NUMA domain (an unbound rank), report
  // the one the process runs on now: still the best hint for placing its memory.
  BitmapPtr where(hwloc_bitmap_alloc());
  if (!is_bound) {
    if (hwloc_get_last_cpu_location(topo.get(), where.get(), HWLOC_CPUBIND_PROCESS) != 0 ||
        hwloc_bitmap_iszero(where.get())) {
      hwloc_bitmap_copy(where.get(), allowed);
    }
  } else {
    hwloc_bitmap_copy(where.get(), usable.get());
  }
  row.package = covering_index(topo.get(), where.get(), HWLOC_OBJ_PACKAGE);
  if (row.package < 0) row.package = 0;
  row.numa = numa_index(topo.get(), where.get());
  if (row.numa < 0) row.numa = 0;
  row.core = is_bound ? covering_index(topo.get(), usable.get(), HWLOC_OBJ_CORE) : -1;
  // Processing units by OS index, as sched_setaffinity and /proc name them.
  row.cpus = cpu_list(usable.get());
  return row;
}

TopologyTable TopologyTable::exchange(BootstrapClient& client) {
  const LaunchInfo& info = client.info();
  client.put("topo/" + std::to_string(info.rank), encode_row(probe_self(info.node_id)));
  client.fence();
  std::vector<TopologyRow> rows;
  rows.reserve(static_cast<std::size_t>(info.size));
  for (int r = 0; r < info.size; ++r) {
    rows.push_back(decode_row(client.get("topo/" + std::to_string(r)), r));
  }
  return TopologyTable(std::move(rows));
}

long TopologyTable::cpus_on_host(int rank) const {
  BitmapPtr all(hwloc_bitmap_alloc());
  BitmapPtr one(hwloc_bitmap_alloc());
  for (const TopologyRow& row : rows_) {
    if (row.hostname != (*this)[rank].hostname) continue;
    if (row.cpus.empty() || hwloc_bitmap_list_sscanf(one.get(), row.cpus.c_str()) != 0) {
      return ::sysconf(_SC_NPROCESSORS_ONLN);
    }
    hwloc_bitmap_or(all.get(), all.get(), one.get());
  }
  const int weight = hwloc_bitmap_weight(all.get());
  return weight > 0 ? weight : ::sysconf(_SC_NPROCESSORS_ONLN);
}

int TopologyTable::ranks_on_host(int rank) const {
  int n = 0;
  for (const TopologyRow& row : rows_) {
    if (row.hostname == (*this)[rank].hostname) ++n;
  }
  return n;
}

}  // namespace halyard
