#include "tests/han/han_shape_checks.hpp"

#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <utility>

#include "collectives/collectives.hpp"
#include "collectives/han/hierarchy.hpp"
#include "tests/collectives/test_data.hpp"

namespace halyard::testing {

namespace {

int env_int(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? 0 : std::atoi(v);
}

// What the topology table says the leader count must be.
int expected_leaders(const Communicator& world) {
  const char* leaders = std::getenv("HALYARD_HAN_LEADERS");
  const bool numa = leaders != nullptr && std::string(leaders) == "numa";
  const int k = env_int("HALYARD_HAN_TEST_NUMA_DOMAINS");
  std::map<int, int> node_sizes;
  std::set<std::pair<int, int>> domains;
  for (int r = 0; r < world.size(); ++r) {
    const TopologyRow& row = world.topology_of(r);
    ++node_sizes[row.node_id];
    domains.insert({row.node_id, row.numa});
  }
  if (!numa) return static_cast<int>(node_sizes.size());
  if (k == 0) return static_cast<int>(domains.size());
  int total = 0;
  for (const auto& [node, size] : node_sizes) total += size < k ? size : k;
  return total;
}

}  // namespace

void check_leader_count(const Communicator& world) {
  han::Hierarchy& h = han::hierarchy_of(world);
  const int me = world.rank();
  if (!world.same_node(me, h.group_leader(me))) {
    fail("HAN leader of rank " + std::to_string(me) + " is rank " +
         std::to_string(h.group_leader(me)) + ", on another node");
  }
  int mine = h.is_leader() ? 1 : 0;
  int leaders = 0;
  allreduce(world, &mine, &leaders, 1, Datatype::kInt32, Op::kSum);
  const int expected = expected_leaders(world);
  if (leaders != expected) {
    fail("HAN chose " + std::to_string(leaders) + " leaders; the topology says " +
         std::to_string(expected));
  }
}

void check_barrier_waits_for_everyone(const Communicator& world) {
  namespace fs = std::filesystem;
  std::array<char, 256> dir{};
  if (world.rank() == 0) {
    std::string pattern = (fs::temp_directory_path() / "han_barrier_XXXXXX").string();
    std::strncpy(dir.data(), pattern.c_str(), dir.size() - 1);
    if (mkdtemp(dir.data()) == nullptr) fail("han barrier check: mkdtemp failed");
  }
  bcast(world, dir.data(), dir.size(), Datatype::kUint8, 0);
  const fs::path base(dir.data());
  const int me = world.rank();
  auto file = [&](int round, int rank) {
    return base / (std::to_string(round) + "_" + std::to_string(rank));
  };
  constexpr int kRounds = 6;
  for (int round = 0; round < kRounds; ++round) {
    if ((me + round) % 3 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(15));
    std::ofstream(file(round, me)).put('x');
    barrier(world);
    for (int r = 0; r < world.size(); ++r) {
      if (!fs::exists(file(round, r))) {
        fail("barrier round " + std::to_string(round) + ": left before rank " + std::to_string(r) +
             " entered");
      }
    }
  }
  barrier(world);  // everyone has checked every round: files may go
  for (int round = 0; round < kRounds; ++round) fs::remove(file(round, me));
  barrier(world);
  if (me == 0) fs::remove(base);
}

}  // namespace halyard::testing
