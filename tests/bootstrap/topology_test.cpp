// TopologyTable::cpus_on_host: the CPUs a host's ranks may run on together, which decides
// whether they may busy-poll (and share copies, and skip the ofi wait fd).
#include <gtest/gtest.h>
#include <unistd.h>

#include "runtime/bootstrap/topology.hpp"

namespace halyard {
namespace {

TopologyRow row(const std::string& host, const std::string& cpus) {
  TopologyRow r;
  r.hostname = host;
  r.cpus = cpus;
  return r;
}

TEST(Topology, CpusOnHostAreTheUnionOfItsRanksCpus) {
  const TopologyTable table({row("a", "0-1"), row("a", "1"), row("b", "0-15"), row("a", "3,5")});
  EXPECT_EQ(table.cpus_on_host(0), 4);  // 0, 1, 3, 5
  EXPECT_EQ(table.cpus_on_host(3), 4);
  EXPECT_EQ(table.cpus_on_host(2), 16);
  EXPECT_EQ(table.ranks_on_host(0), 3);
}

TEST(Topology, RanksSharingOneCpuCountOnce) {
  const TopologyTable table({row("a", "0"), row("a", "0")});
  EXPECT_EQ(table.cpus_on_host(0), 1);
  EXPECT_LT(table.cpus_on_host(0), table.ranks_on_host(0));
}

TEST(Topology, UnknownCpusFallBackToTheOnlineCount) {
  const long online = ::sysconf(_SC_NPROCESSORS_ONLN);
  EXPECT_EQ(TopologyTable({row("a", "0"), row("a", "")}).cpus_on_host(0), online);
  EXPECT_EQ(TopologyTable({row("a", "not a list")}).cpus_on_host(0), online);
}

}  // namespace
}  // namespace halyard
