// Routing rules: self, same node (shm when enabled), other nodes (ofi).
#include <gtest/gtest.h>

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
  LaunchInfo info;
  auto router = Router::for_job(info, table({0}));
  ASSERT_EQ(router->transports().size(), 1u);
  EXPECT_EQ(router->route(0).name(), "self");
  ::unsetenv("HALYARD_SHM");
}

TEST(Router, ShmCanBeSwitchedOff) {
  ::setenv("HALYARD_SHM", "0", 1);
  EXPECT_FALSE(shm_enabled());
  ::unsetenv("HALYARD_SHM");
}

}  // namespace
}  // namespace halyard
