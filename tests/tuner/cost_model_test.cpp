// The cost model's arithmetic (equations 5.4 and 5.5) on synthetic task costs.
#include <gtest/gtest.h>

#include <stdexcept>

#include "tuner/cost_model.hpp"
#include "tuner/median.hpp"

namespace halyard::tuner {
namespace {

// Bcast (D = 2) on 2 ranks: ib(0), sbib(1), sbib(s), sb.
PipelineCosts bcast_costs() {
  PipelineCosts c;
  c.depth = 2;
  c.alone = {{10, 12}, {5, 6}};  // ib(0), sb(0) alone
  c.fill = {{10, 12}};           // ib(0)
  c.first_full = {20, 21};       // sbib(1), after ib(0)
  c.stable_full = {15, 18};      // sbib(s)
  c.drain = {{5, 6}};            // sb(u-1)
  return c;
}

TEST(CostModel, BcastIsEquation54TakenAsTheMaximumOverRanks) {
  const PipelineCosts c = bcast_costs();
  // u = 5: rank 0: 10 + 20 + 3 * 15 + 5 = 80; rank 1: 12 + 21 + 3 * 18 + 6 = 93.
  EXPECT_DOUBLE_EQ(predict_us(c, 5), 93.0);
  // u = 2: no stabilised step: rank 1: 12 + 21 + 6 = 39.
  EXPECT_DOUBLE_EQ(predict_us(c, 2), 39.0);
  // u = 1: the stages alone, one after the other: rank 1: 12 + 6.
  EXPECT_DOUBLE_EQ(predict_us(c, 1), 18.0);
}

TEST(CostModel, MaximumIsTakenOverTotalsNotPerTask) {
  PipelineCosts c = bcast_costs();
  c.fill = {{30, 1}};       // rank 0's ib is slow
  c.stable_full = {1, 10};  // rank 1's steady state is slow
  // u = 3: rank 0: 30 + 20 + 1 + 5 = 56; rank 1: 1 + 21 + 10 + 6 = 38.
  EXPECT_DOUBLE_EQ(predict_us(c, 3), 56.0);
  // u = 10: rank 0: 30 + 20 + 8 + 5 = 63; rank 1: 1 + 21 + 80 + 6 = 108.
  EXPECT_DOUBLE_EQ(predict_us(c, 10), 108.0);
}

TEST(CostModel, AllreduceIsEquation55) {
  PipelineCosts c;
  c.depth = 4;
  c.fill = {{1}, {2}, {3}};   // sr(0), irsr(1), ibirsr(2)
  c.first_full = {10};        // sbibirsr(3)
  c.stable_full = {7};        // sbibirsr(s)
  c.drain = {{4}, {5}, {6}};  // sbibir(u-1), sbib(u-1), sb(u-1)
  // u = 8: 1 + 2 + 3 + 10 + (8 - 4) * 7 + 4 + 5 + 6 = 59.
  EXPECT_DOUBLE_EQ(predict_us(c, 8), 59.0);
  EXPECT_DOUBLE_EQ(predict_us(c, 4), 31.0);
  // Fewer segments than stages: the measured short run, summed.
  c.partial = {{{1}, {2}, {3}, {4}, {5}}, {{1}, {1}, {1}, {1}, {1}, {1}}};
  EXPECT_DOUBLE_EQ(predict_us(c, 2), 15.0);
  EXPECT_DOUBLE_EQ(predict_us(c, 3), 6.0);
}

TEST(CostModel, MissingCostsAreErrorsNotZeros) {
  PipelineCosts c = bcast_costs();
  c.alone.pop_back();
  EXPECT_THROW(predict_us(c, 1), std::invalid_argument);
  PipelineCosts d = bcast_costs();
  d.drain = {{5}};  // one rank's figure only
  EXPECT_THROW(predict_us(d, 4), std::invalid_argument);
  PipelineCosts e;
  e.depth = 4;
  EXPECT_THROW(predict_us(e, 2), std::invalid_argument);
  EXPECT_THROW(predict_us(bcast_costs(), 0), std::invalid_argument);
}

TEST(CostModel, SegmentCount) {
  EXPECT_EQ(segment_count(4096, 1024), 4u);
  EXPECT_EQ(segment_count(4097, 1024), 5u);
  EXPECT_EQ(segment_count(100, 1024), 1u);
  EXPECT_EQ(segment_count(0, 1024), 1u);
}

TEST(CostModel, RepetitionsAreSummarisedByTheirMedian) {
  EXPECT_DOUBLE_EQ(median({5, 1, 400, 3, 4}), 4.0);  // one descheduled repetition ignored
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(median({}), 0.0);
}

}  // namespace
}  // namespace halyard::tuner
