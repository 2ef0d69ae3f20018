// ADAPT's parameters have one home (collectives/adapt/params.hpp): the flat selection and HAN's
// inter-node tasks both build them there, so both honour HALYARD_ADAPT_KNOMIAL_RADIX and
// HALYARD_ADAPT_VARIANT (HAN used to ignore them).
#include <gtest/gtest.h>

#include <cstdlib>

#include "collectives/adapt/params.hpp"
#include "runtime/support/error.hpp"

namespace halyard::adapt {
namespace {

// The variables are read once per process: set them before main() runs any test.
const bool kEnvironmentSet = [] {
  setenv("HALYARD_ADAPT_KNOMIAL_RADIX", "7", 1);
  setenv("HALYARD_ADAPT_VARIANT", "waitall", 1);
  setenv("HALYARD_ADAPT_SENDS_IN_FLIGHT", "3", 1);
  return true;
}();

TEST(AdaptParams, HanInterTasksHonourRadixAndVariant) {
  ASSERT_TRUE(kEnvironmentSet);
  // What HAN's ib task asks for: its tree and segment, N and M left to the process (0).
  Params p = params_for(CallSettings{TreeShape::kKnomial, 16 * 1024, 0, 0});
  EXPECT_EQ(p.tree, TreeShape::kKnomial);
  EXPECT_EQ(p.segment_bytes, 16u * 1024);
  EXPECT_EQ(p.knomial_radix, 7);
  EXPECT_EQ(p.variant, Variant::kWaitall);
  EXPECT_EQ(p.sends_in_flight, 3);
  EXPECT_EQ(p.recvs_in_flight, 4);  // only N was raised: M follows (M > N)
}

TEST(AdaptParams, HanSettingsWinOverTheProcessValues) {
  Params p = params_for(CallSettings{TreeShape::kBinary, 0, 5, 9});
  EXPECT_EQ(p.segment_bytes, Params{}.segment_bytes);  // 0: ADAPT's default
  EXPECT_EQ(p.sends_in_flight, 5);
  EXPECT_EQ(p.recvs_in_flight, 9);
  EXPECT_EQ(p.knomial_radix, 7);
}

TEST(AdaptParams, MFollowsACallersN) {
  // A decision table raised N inside HAN above what the process's M allows: M follows.
  Params p = params_for(CallSettings{TreeShape::kBinary, 0, 8, 0});
  EXPECT_EQ(p.sends_in_flight, 8);
  EXPECT_EQ(p.recvs_in_flight, 9);
}

TEST(AdaptParams, FlatSelectionGetsTheSameSettings) {
  core::SelectedAlgorithm selected{core::Algorithm::kAdapt, TreeShape::kChain, 12345};
  Params p = params_for(core::Collective::kReduce, selected);
  EXPECT_EQ(p.tree, TreeShape::kChain);
  EXPECT_EQ(p.segment_bytes, 12345u);
  EXPECT_EQ(p.knomial_radix, 7);
  EXPECT_EQ(p.variant, Variant::kWaitall);
}

TEST(AdaptParams, CheckParamsRejectsWhatAdaptCannotRun) {
  Params bad;
  bad.sends_in_flight = 0;
  EXPECT_THROW(check_params(bad), Error);
  bad = Params{};
  bad.knomial_radix = 1;
  EXPECT_THROW(check_params(bad), Error);
  EXPECT_NO_THROW(check_params(Params{}));
}

}  // namespace
}  // namespace halyard::adapt
