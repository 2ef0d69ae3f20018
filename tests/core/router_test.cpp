// Routing rules: self, same node (shm when enabled), other nodes (ofi); the transports come
// from a TransportRegistry with the runtime's settings.
#include <gtest/gtest.h>

#include <vector>

#include "runtime/router.hpp"
#include "runtime/self_transport.hpp"

namespace halyard {
namespace {

TopologyTable table(std::vector<int> nodes) {
  std::vector<TopologyRow> rows;
  for (int n : nodes) rows.push_back(TopologyRow{"h", n, 0, 0, 0, ""});
  return TopologyTable(std::move(rows));
}

TEST(Router, PlanWithShm) {
  auto plan = plan_routes(1, table({0, 0, 1, 1}), true);
  EXPECT_EQ(plan, (std::vector<TransportKind>{TransportKind::kShm, TransportKind::kSelf,
                                              TransportKind::kOfi, TransportKind::kOfi}));
}

TEST(Router, PlanWithoutShmUsesOfiOnTheNodeToo) {
  auto plan = plan_routes(2, table({0, 0, 1, 1}), false);
  EXPECT_EQ(plan, (std::vector<TransportKind>{TransportKind::kOfi, TransportKind::kOfi,
                                              TransportKind::kSelf, TransportKind::kOfi}));
}

TEST(Router, RoutesAndRangeChecks) {
  Router router(0, 2);
  Transport& self = router.add(std::make_unique<SelfTransport>(0));
  router.set_route(0, self);
  EXPECT_EQ(&router.route(0), &self);
  EXPECT_THROW(router.route(1), Error);  // no transport set
  try {
    router.route(2);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_STREQ(e.what(), "Router::route: world_peer 2 out of range");
  }
  EXPECT_THROW(Router(2, 2), Error);
}

TEST(Router, SingleRankJobNeedsOnlyTheSelfTransport) {
  ::setenv("HALYARD_SHM", "0", 1);
  TransportSettings settings;
  auto router = Router::for_job(settings, table({0}));
  ASSERT_EQ(router->transports().size(), 1u);
  EXPECT_EQ(router->route(0).name(), "self");
  ::unsetenv("HALYARD_SHM");
}

// Factories of a test registry: each makes a stand-in (a self transport) and records what it
// was given.
struct Made {
  TransportKind kind;
  TransportSettings settings;
};
std::vector<Made> made;

template <TransportKind kKind>
std::unique_ptr<Transport> make_stand_in(const TransportSettings& settings) {
  made.push_back({kKind, settings});
  return std::make_unique<SelfTransport>(settings.info.rank);
}

TransportSettings rank_of_three(int rank) {
  TransportSettings settings;
  settings.info.rank = rank;
  settings.info.size = 3;
  settings.host_ranks = 3;
  settings.host_cpus = 2;
  settings.wait_policy = WaitPolicy::kSpin;
  settings.progress_thread = true;
  return settings;
}

TEST(Router, BuildsRegisteredTransportsWithTheRuntimeSettings) {
  made.clear();
  TransportRegistry registry;
  registry.add(TransportKind::kShm, make_stand_in<TransportKind::kShm>);
  registry.add(TransportKind::kOfi, make_stand_in<TransportKind::kOfi>);
  auto router = Router::for_job(rank_of_three(0), table({0, 0, 1}), registry);

  ASSERT_EQ(made.size(), 2u);
  EXPECT_EQ(made[0].kind, TransportKind::kShm);
  EXPECT_EQ(made[1].kind, TransportKind::kOfi);
  for (const Made& m : made) {
    EXPECT_EQ(m.settings.info.rank, 0);
    EXPECT_EQ(m.settings.host_ranks, 3);
    EXPECT_EQ(m.settings.host_cpus, 2);
    EXPECT_EQ(m.settings.wait_policy, WaitPolicy::kSpin);
    EXPECT_TRUE(m.settings.progress_thread);
  }
  ASSERT_EQ(router->transports().size(), 3u);  // self, shm, ofi
  EXPECT_EQ(&router->route(0), router->transports()[0].get());
  EXPECT_EQ(&router->route(1), router->transports()[1].get());
  EXPECT_EQ(&router->route(2), router->transports()[2].get());
}

TEST(Router, SameNodePeersUseOfiWhenNoShmIsRegistered) {
  made.clear();
  TransportRegistry registry;
  registry.add(TransportKind::kOfi, make_stand_in<TransportKind::kOfi>);
  auto router = Router::for_job(rank_of_three(1), table({0, 0, 1}), registry);
  ASSERT_EQ(made.size(), 1u);
  ASSERT_EQ(router->transports().size(), 2u);  // self, ofi
  EXPECT_EQ(&router->route(0), router->transports()[1].get());
  EXPECT_EQ(&router->route(2), router->transports()[1].get());
}

TEST(Router, NamesATransportThisBuildLacks) {
  TransportRegistry empty;
  try {
    Router::for_job(rank_of_three(0), table({0, 1, 1}), empty);
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
    EXPECT_STREQ(e.what(), "this build of Halyard has no ofi transport");
  }
}

TEST(TransportRegistry, BuiltinHasTheTransportsOfThisBuild) {
  const TransportRegistry& builtin = TransportRegistry::builtin();
  EXPECT_TRUE(builtin.has(TransportKind::kShm));
  EXPECT_TRUE(builtin.has(TransportKind::kOfi));
  EXPECT_FALSE(builtin.has(TransportKind::kSelf));  // the runtime's own
}

TEST(Router, ShmCanBeSwitchedOff) {
  ::setenv("HALYARD_SHM", "0", 1);
  EXPECT_FALSE(shm_enabled());
  ::unsetenv("HALYARD_SHM");
}

}  // namespace
}  // namespace halyard
