// The search space: presets, normalisation of equivalent configurations, the heuristics, the
// fs choices per size, and the HAN settings a configuration becomes.
#include <gtest/gtest.h>

#include <set>

#include "runtime/support/error.hpp"
#include "tuner/options.hpp"
#include "tuner/search.hpp"
#include "tuner/search_space.hpp"

namespace halyard::tuner {
namespace {

using adapt::TreeShape;
using han::InterModule;
using han::IntraModule;
using select::Collective;

TEST(SearchSpace, PresetsGrowAndCrossInterWithIntra) {
  const auto small = all_candidates(space_preset("small"));
  const auto medium = all_candidates(space_preset("medium"));
  const auto full = all_candidates(space_preset("full"));
  // (base + trees x ibs x N/M) x 4 intra modules.
  EXPECT_EQ(small.size(), (1u + 2u) * 4u);
  EXPECT_EQ(medium.size(), (1u + 4u * 2u) * 4u);
  EXPECT_EQ(full.size(), (1u + 4u * 2u * 2u) * 4u);
  EXPECT_THROW(space_preset("huge"), Error);
}

TEST(SearchSpace, NormalisationMergesConfigurationsThatRunAlike) {
  Candidate base{InterModule::kBase, TreeShape::kChain, 1024, 4, 8, IntraModule::kSm};
  Candidate n = normalized(base, 1 << 20);
  EXPECT_EQ(n.tree, TreeShape::kBinomial);
  EXPECT_EQ(n.sends_in_flight, 2);
  // ibs above the segment: one ADAPT segment, so N/M do not matter either.
  Candidate adapt{InterModule::kAdapt, TreeShape::kChain, 64 * 1024, 4, 8, IntraModule::kCma};
  EXPECT_EQ(normalized(adapt, 16 * 1024),
            normalized(Candidate{InterModule::kAdapt, TreeShape::kChain, 16 * 1024, 2, 4,
                                 IntraModule::kCma},
                       16 * 1024));
  EXPECT_EQ(normalized(adapt, 1 << 20).sends_in_flight, 4);
}

TEST(SearchSpace, Heuristics) {
  const Candidate chain{InterModule::kAdapt, TreeShape::kChain, 16 * 1024, 2, 4, IntraModule::kCma};
  const Candidate binomial{InterModule::kAdapt, TreeShape::kBinomial, 16 * 1024, 2, 4,
                           IntraModule::kCma};
  // Chain only with at least 8 ADAPT segments in the ib task.
  EXPECT_FALSE(heuristic_keeps(Collective::kBcast, chain, 64 * 1024, 4, 8));
  EXPECT_TRUE(heuristic_keeps(Collective::kBcast, chain, 128 * 1024, 4, 8));
  // Two leaders: one tree is enough.
  EXPECT_FALSE(heuristic_keeps(Collective::kBcast, chain, 128 * 1024, 4, 2));
  EXPECT_TRUE(heuristic_keeps(Collective::kBcast, binomial, 128 * 1024, 4, 2));
  // A pipeline that never fills (1 < u < D) is skipped; u = 1 is kept.
  EXPECT_FALSE(heuristic_keeps(Collective::kAllreduce, binomial, 128 * 1024, 3, 2));
  EXPECT_TRUE(heuristic_keeps(Collective::kAllreduce, binomial, 128 * 1024, 1, 2));
  // Intra module by segment size: p2p only up to 8K, no sm from 512K.
  Candidate sm = binomial;
  sm.intra = IntraModule::kSm;
  Candidate p2p = binomial;
  p2p.intra = IntraModule::kBase;
  EXPECT_TRUE(heuristic_keeps(Collective::kBcast, sm, 128 * 1024, 4, 2));
  EXPECT_FALSE(heuristic_keeps(Collective::kBcast, sm, 1 << 20, 4, 2));
  EXPECT_TRUE(heuristic_keeps(Collective::kBcast, p2p, 1 << 20, 4, 2));
  EXPECT_TRUE(heuristic_keeps(Collective::kBcast, binomial, 1 << 20, 4, 2));
  EXPECT_FALSE(heuristic_keeps(Collective::kBcast, sm, 4096, 4, 2));
  EXPECT_TRUE(heuristic_keeps(Collective::kBcast, p2p, 4096, 4, 2));
  // The shm engine: small and medium segments only.
  Candidate shm = binomial;
  shm.intra = IntraModule::kShm;
  EXPECT_TRUE(heuristic_keeps(Collective::kBcast, shm, 4096, 4, 2));
  EXPECT_TRUE(heuristic_keeps(Collective::kBcast, shm, 64 * 1024, 4, 2));
  EXPECT_FALSE(heuristic_keeps(Collective::kBcast, shm, 1 << 20, 4, 2));
}

TEST(SearchSpace, SegmentChoicesAndTuning) {
  SearchSpace space = space_preset("small");
  space.segments = {16 * 1024, 64 * 1024, 256 * 1024};
  EXPECT_EQ(segment_choices(space, 64 * 1024), (std::vector<std::size_t>{0, 16 * 1024}));
  EXPECT_EQ(segment_choices(space, 1 << 20).size(), 4u);
  const Candidate c{InterModule::kAdapt, TreeShape::kBinary, 16 * 1024, 2, 4, IntraModule::kSm};
  han::Tuning bcast = to_tuning(Collective::kBcast, c, 64 * 1024);
  EXPECT_EQ(bcast.segment_bytes, 64u * 1024);
  EXPECT_EQ(bcast.inter_bcast_tree, TreeShape::kBinary);
  EXPECT_FALSE(bcast.inter_reduce_tree.has_value());
  han::Tuning allreduce = to_tuning(Collective::kAllreduce, c, 0);
  EXPECT_FALSE(allreduce.segment_bytes.has_value());  // whole message
  EXPECT_EQ(allreduce.inter_reduce_tree, TreeShape::kBinary);
  EXPECT_EQ(allreduce.inter_reduce_segment, 16u * 1024);
  EXPECT_EQ(label(Collective::kBcast, c, 0).rfind("fs=whole ", 0), 0u);
}

TEST(SearchOptions, GeometricSizes) {
  EXPECT_EQ(geometric_sizes(16384, 1 << 20, 4),
            (std::vector<std::size_t>{16384, 65536, 262144, 1 << 20}));
  EXPECT_THROW(geometric_sizes(16384, 1024, 4), Error);
  EXPECT_THROW(geometric_sizes(16384, 1 << 20, 1), Error);
}

}  // namespace
}  // namespace halyard::tuner
