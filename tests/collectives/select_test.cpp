// Unit tests of the selection layer: names, built-in rules, and the decision-table hook.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "collectives/adapt/params.hpp"
#include "collectives/select/catalog.hpp"
#include "collectives/select/selection.hpp"
#include "runtime/support/error.hpp"

namespace halyard::select {
namespace {

TEST(SelectNames, EveryValidNameParsesBackToItself) {
  for (std::size_t i = 0; i < core::kCollectiveCount; ++i) {
    const auto c = static_cast<Collective>(i);
    for (const std::string& name : valid_algorithm_names(c)) {
      EXPECT_EQ(algorithm_name(parse_algorithm(c, name, "test")), name);
    }
  }
}

// The names users see come from the catalog and are exactly the documented ones
// (docs/collectives.md), in documentation order.
TEST(SelectCatalog, NamesAreTheDocumentedOnes) {
  const std::vector<std::string> rooted_trees = {
      "base:linear",    "base:binomial", "adapt:chain", "adapt:binary",
      "adapt:binomial", "adapt:knomial", "adapt:topo",  "intranode:sm",
      "intranode:cma",  "shm",           "han"};
  EXPECT_EQ(valid_algorithm_names(Collective::kBcast), rooted_trees);
  EXPECT_EQ(valid_algorithm_names(Collective::kReduce), rooted_trees);
  EXPECT_EQ(valid_algorithm_names(Collective::kAllreduce),
            (std::vector<std::string>{"base:ring", "base:recursive_doubling", "base:rabenseifner",
                                      "intranode:sm", "intranode:cma", "shm", "han"}));
  EXPECT_EQ(valid_algorithm_names(Collective::kAllgather),
            (std::vector<std::string>{"base:ring", "base:bruck", "intranode:sm", "intranode:cma",
                                      "shm", "han"}));
  EXPECT_EQ(valid_algorithm_names(Collective::kBarrier),
            (std::vector<std::string>{"base:dissemination", "shm", "han"}));
  EXPECT_EQ(valid_algorithm_names(Collective::kGather),
            (std::vector<std::string>{"base:linear", "intranode:sm", "intranode:cma", "shm"}));
  EXPECT_EQ(valid_algorithm_names(Collective::kScatter),
            (std::vector<std::string>{"base:linear", "shm"}));
  EXPECT_EQ(valid_algorithm_names(Collective::kAlltoall),
            (std::vector<std::string>{"base:pairwise", "base:bruck", "shm"}));
  const std::vector<std::string> linear = {"base:linear", "shm"};
  const std::vector<std::string> ring = {"base:ring", "shm"};
  const std::vector<std::string> recursive_doubling = {"base:recursive_doubling"};
  EXPECT_EQ(valid_algorithm_names(Collective::kGatherv), linear);
  EXPECT_EQ(valid_algorithm_names(Collective::kScatterv), linear);
  EXPECT_EQ(valid_algorithm_names(Collective::kAllgatherv), ring);
  EXPECT_EQ(valid_algorithm_names(Collective::kAlltoallv),
            (std::vector<std::string>{"base:pairwise", "shm"}));
  const std::vector<std::string> ring_pairwise = {"base:ring", "base:pairwise", "shm"};
  EXPECT_EQ(valid_algorithm_names(Collective::kReduceScatterBlock), ring_pairwise);
  EXPECT_EQ(valid_algorithm_names(Collective::kReduceScatter), ring_pairwise);
  EXPECT_EQ(valid_algorithm_names(Collective::kScan), recursive_doubling);
  EXPECT_EQ(valid_algorithm_names(Collective::kExscan), recursive_doubling);
}

// Every collective has a built-in rule whose choice is in the catalog, at every size.
TEST(SelectRules, EveryCollectiveHasAnAlgorithm) {
  for (std::size_t i = 0; i < core::kCollectiveCount; ++i) {
    const auto c = static_cast<Collective>(i);
    for (int ranks : {1, 3, 8}) {
      for (std::size_t bytes : {std::size_t{0}, std::size_t{1} << 20}) {
        EXPECT_NE(entry_for(c, builtin_rule(c, ranks, bytes).algorithm), nullptr)
            << collective_name(c) << " on " << ranks << " ranks, " << bytes << " bytes";
      }
    }
  }
}

// Every entry can be posted and found: one name per (collective, name), a post() each, and the
// constant-time index answers for every algorithm an entry has.
TEST(SelectCatalog, EntriesAreUniqueAndReachable) {
  std::set<std::pair<int, std::string>> seen;
  for (const core::AlgorithmEntry& entry : catalog()) {
    EXPECT_TRUE(seen.insert({static_cast<int>(entry.collective), std::string(entry.name)}).second)
        << entry.name;
    EXPECT_NE(entry.post, nullptr) << entry.name;
    const core::AlgorithmEntry* found = entry_for(entry.collective, entry.algorithm);
    ASSERT_NE(found, nullptr) << entry.name;
    EXPECT_EQ(found->algorithm, entry.algorithm);
    // Host algorithms may be named (the intranode ones for one node only), but for self, which
    // one-member communicators take anyway; device ones follow the buffers.
    EXPECT_EQ(entry.supports.nameable,
              entry.supports.memory == MemoryKind::kHost && entry.name != "self")
        << entry.name;
    if (entry.name.starts_with("intranode:") || entry.name == "shm") {
      EXPECT_EQ(entry.supports.comm, core::CommShapes::kOneNode) << entry.name;
    }
  }
  EXPECT_EQ(entry_for(Collective::kGather, Algorithm::kHan), nullptr);
}

TEST(SelectNames, ParsesBaseAndAdaptNamesCaseInsensitively) {
  SelectedAlgorithm ring = parse_algorithm(Collective::kAllreduce, "BASE:Ring", "test");
  EXPECT_EQ(ring.algorithm, Algorithm::kRing);
  SelectedAlgorithm knomial = parse_algorithm(Collective::kBcast, "adapt:knomial", "test");
  EXPECT_EQ(knomial.algorithm, Algorithm::kAdapt);
  EXPECT_EQ(knomial.tree, adapt::TreeShape::kKnomial);
  EXPECT_EQ(parse_algorithm(Collective::kReduce, "han", "test").algorithm, Algorithm::kHan);
}

TEST(SelectNames, UnknownNameListsTheValidOnes) {
  try {
    parse_algorithm(Collective::kAllreduce, "base:bruck", "HALYARD_ALLREDUCE_ALG");
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ErrorCode::kInvalidArgument);
    std::string message = error.what();
    EXPECT_NE(message.find("HALYARD_ALLREDUCE_ALG=base:bruck"), std::string::npos) << message;
    for (const char* valid : {"base:ring", "base:recursive_doubling", "base:rabenseifner", "han"}) {
      EXPECT_NE(message.find(valid), std::string::npos) << message;
    }
  }
  // Algorithms of other collectives are not valid here.
  EXPECT_THROW(parse_algorithm(Collective::kAllreduce, "adapt:binary", "x"), Error);
  EXPECT_THROW(parse_algorithm(Collective::kGather, "han", "x"), Error);
  EXPECT_THROW(parse_algorithm(Collective::kBcast, "adapt:", "x"), Error);
}

// A decision table's choice that cannot run on the communicator (an intranode algorithm on
// several nodes) is advice for another shape: the built-in rules decide instead.
TEST(SelectTable, ChoiceForOneNodeOnlyDefersToTheRulesOnSeveralNodes) {
  const SelectedAlgorithm sm = parse_algorithm(Collective::kAllreduce, "intranode:sm", "test");
  set_decision_table([sm](Collective, const CommShape&, std::size_t) {
    return std::optional<SelectedAlgorithm>(sm);
  });
  EXPECT_EQ(choose(Collective::kAllreduce, CommShape{4, 1, 4}, 64).algorithm,
            Algorithm::kIntranodeSm);
  const CommShape two_nodes{4, 2, 2};
  EXPECT_EQ(choose(Collective::kAllreduce, two_nodes, 64),
            builtin_rule(Collective::kAllreduce, two_nodes, 64));
  set_decision_table({});
}

// A communicator of one member runs the self entries whatever a decision table says: every
// other algorithm would reach the same copy at several times the cost (collectives/self).
TEST(SelectSelf, OneMemberTakesTheSelfEntryOfEveryCollective) {
  const SelectedAlgorithm ring = parse_algorithm(Collective::kAllreduce, "base:ring", "test");
  set_decision_table([ring](Collective, const CommShape&, std::size_t) {
    return std::optional<SelectedAlgorithm>(ring);
  });
  for (std::size_t i = 0; i < core::kCollectiveCount; ++i) {
    const auto c = static_cast<Collective>(i);
    for (std::size_t bytes : {std::size_t{0}, std::size_t{4}, std::size_t{16} << 20}) {
      EXPECT_EQ(choose(c, CommShape{1, 1, 1}, bytes).algorithm, Algorithm::kSelf) << int(c);
    }
    const core::AlgorithmEntry* self = entry_for(c, Algorithm::kSelf);
    ASSERT_NE(self, nullptr) << int(c);
    EXPECT_EQ(self->name, "self");
    EXPECT_TRUE(self->supports.fits(CommShape{1, 1, 1}));
    EXPECT_FALSE(self->supports.fits(CommShape{2, 1, 2}));
    EXPECT_FALSE(self->supports.nameable);  // never a name users write
    EXPECT_NE(choose(c, CommShape{2, 1, 2}, 4).algorithm, Algorithm::kSelf) << int(c);
  }
  set_decision_table({});
}

TEST(SelectRules, SmallAndLargeMessages) {
  EXPECT_EQ(builtin_rule(Collective::kBcast, 8, 1024).algorithm, Algorithm::kBinomial);
  SelectedAlgorithm large = builtin_rule(Collective::kBcast, 8, 4u << 20);
  EXPECT_EQ(large.algorithm, Algorithm::kAdapt);
  EXPECT_EQ(large.tree, adapt::TreeShape::kBinary);
  EXPECT_EQ(builtin_rule(Collective::kAllreduce, 8, 1024).algorithm, Algorithm::kRecursiveDoubling);
  EXPECT_EQ(builtin_rule(Collective::kAllreduce, 8, 4u << 20).algorithm, Algorithm::kRabenseifner);
  EXPECT_EQ(builtin_rule(Collective::kAllreduce, 6, 4u << 20).algorithm, Algorithm::kRing);
  EXPECT_EQ(builtin_rule(Collective::kAllgather, 8, 16).algorithm, Algorithm::kBruck);
  EXPECT_EQ(builtin_rule(Collective::kAllgather, 8, 1u << 20).algorithm, Algorithm::kRing);
  EXPECT_EQ(builtin_rule(Collective::kBarrier, 8, 0).algorithm, Algorithm::kDissemination);
}

TEST(SelectRules, HanOnHierarchicalCommunicatorsOnly) {
  const CommShape two_nodes{8, 2, 4};
  for (Collective c : {Collective::kBcast, Collective::kReduce, Collective::kAllreduce}) {
    EXPECT_EQ(builtin_rule(c, two_nodes, 4u << 20).algorithm, Algorithm::kHan) << int(c);
    // The same size on one node, or with one rank per node, stays flat.
    EXPECT_NE(builtin_rule(c, CommShape::single_node(8), 4u << 20).algorithm, Algorithm::kHan);
    EXPECT_NE(builtin_rule(c, CommShape{8, 8, 1}, 4u << 20).algorithm, Algorithm::kHan);
  }
  // Allgather: HAN between 4 KiB and 64 KiB per rank, the ring above.
  EXPECT_EQ(builtin_rule(Collective::kAllgather, two_nodes, 16u << 10).algorithm, Algorithm::kHan);
  EXPECT_EQ(builtin_rule(Collective::kAllgather, two_nodes, 1u << 20).algorithm, Algorithm::kRing);
  EXPECT_NE(builtin_rule(Collective::kAllgather, CommShape::single_node(8), 16u << 10).algorithm,
            Algorithm::kHan);
  EXPECT_EQ(builtin_rule(Collective::kBarrier, two_nodes, 0).algorithm, Algorithm::kHan);
  EXPECT_EQ(builtin_rule(Collective::kBarrier, CommShape{4, 4, 1}, 0).algorithm,
            Algorithm::kDissemination);
  // Small messages stay flat even across nodes.
  EXPECT_EQ(builtin_rule(Collective::kAllreduce, two_nodes, 64).algorithm,
            Algorithm::kRecursiveDoubling);
  EXPECT_EQ(builtin_rule(Collective::kBcast, two_nodes, 64).algorithm, Algorithm::kBinomial);
  // Uneven nodes: one node with two ranks is enough for a hierarchy.
  EXPECT_TRUE((CommShape{3, 2, 2}.hierarchical()));
  EXPECT_FALSE((CommShape{2, 2, 1}.hierarchical()));
  // A table still wins over the HAN rule.
  set_decision_table(
      [](Collective, const CommShape&, std::size_t) -> std::optional<SelectedAlgorithm> {
        return SelectedAlgorithm{Algorithm::kRing};
      });
  EXPECT_EQ(choose(Collective::kAllreduce, two_nodes, 4u << 20).algorithm, Algorithm::kRing);
  set_decision_table({});
}

TEST(SelectRules, DecisionTableOverridesRulesAndMayDefer) {
  set_decision_table(
      [](Collective c, const CommShape&, std::size_t bytes) -> std::optional<SelectedAlgorithm> {
        if (c == Collective::kAllreduce && bytes > 100) return SelectedAlgorithm{Algorithm::kRing};
        return std::nullopt;
      });
  EXPECT_EQ(choose(Collective::kAllreduce, 8, 1000).algorithm, Algorithm::kRing);
  // Deferred to the rules: 8 ranks on one node, small, run the shm engine.
  EXPECT_EQ(choose(Collective::kAllreduce, 8, 10).algorithm, Algorithm::kShm);
  set_decision_table({});
  EXPECT_EQ(choose(Collective::kAllreduce, 8, 1000).algorithm, Algorithm::kShm);
}

// The shm engine: the default on one node with more than one rank, up to its size limits;
// never across nodes. These are the rules of ranks that share CPUs (measured on 2 cores); 2
// ranks have the same with or without.
TEST(SelectRules, ShmEngineOnOneNode) {
  const CommShape two_ranks = CommShape::single_node(2);
  const CommShape four_ranks = CommShape::single_node(4, /*cpus_shared=*/true);
  const CommShape eight_ranks = CommShape::single_node(8, /*cpus_shared=*/true);
  for (std::size_t bytes : {8u, 1u << 20, 16u << 20}) {
    for (Collective c : {Collective::kBcast, Collective::kReduce, Collective::kAllreduce}) {
      EXPECT_EQ(builtin_rule(c, two_ranks, bytes),
                builtin_rule(c, CommShape::single_node(2, true), bytes));
    }
  }
  for (Collective c : {Collective::kBcast, Collective::kReduce, Collective::kAllreduce}) {
    EXPECT_EQ(builtin_rule(c, two_ranks, 8).algorithm, Algorithm::kShm);
    EXPECT_NE(builtin_rule(c, CommShape{4, 2, 2}, 8).algorithm, Algorithm::kShm);
    EXPECT_NE(builtin_rule(c, CommShape::single_node(1), 8).algorithm, Algorithm::kShm);
  }
  // Bcast and allreduce on 2 ranks: the engine at every size. Above the engine's sizes on more
  // ranks: CMA pulls (bcast).
  EXPECT_EQ(builtin_rule(Collective::kBcast, two_ranks, 32u << 10).algorithm, Algorithm::kShm);
  EXPECT_EQ(builtin_rule(Collective::kBcast, two_ranks, 256u << 10).algorithm, Algorithm::kShm);
  EXPECT_EQ(builtin_rule(Collective::kBcast, two_ranks, 1u << 20).algorithm, Algorithm::kShm);
  EXPECT_EQ(builtin_rule(Collective::kBcast, two_ranks, 16u << 20).algorithm, Algorithm::kShm);
  EXPECT_EQ(builtin_rule(Collective::kBcast, four_ranks, 32u << 10).algorithm, Algorithm::kShm);
  // 3 and 4 ranks: the engine at every size; more ranks: up to 64 KiB.
  EXPECT_EQ(builtin_rule(Collective::kBcast, four_ranks, 256u << 10).algorithm, Algorithm::kShm);
  EXPECT_EQ(builtin_rule(Collective::kBcast, four_ranks, 16u << 20).algorithm, Algorithm::kShm);
  EXPECT_EQ(builtin_rule(Collective::kBcast, eight_ranks, 64u << 10).algorithm, Algorithm::kShm);
  EXPECT_EQ(builtin_rule(Collective::kBcast, eight_ranks, 128u << 10).algorithm,
            Algorithm::kIntranodeCma);
  EXPECT_EQ(builtin_rule(Collective::kReduce, four_ranks, 4u << 20).algorithm, Algorithm::kShm);
  EXPECT_EQ(builtin_rule(Collective::kAllreduce, two_ranks, 256u << 10).algorithm, Algorithm::kShm);
  EXPECT_EQ(builtin_rule(Collective::kAllreduce, two_ranks, 16u << 20).algorithm, Algorithm::kShm);
  // Allreduce where ranks share CPUs: the engine at every size (its sliced form beat the CMA
  // slice reductions on 3-8 oversubscribed ranks).
  EXPECT_EQ(builtin_rule(Collective::kAllreduce, four_ranks, 256u << 10).algorithm,
            Algorithm::kShm);
  EXPECT_EQ(builtin_rule(Collective::kAllreduce, four_ranks, 4u << 20).algorithm, Algorithm::kShm);
  EXPECT_EQ(builtin_rule(Collective::kAllreduce, eight_ranks, 16u << 20).algorithm,
            Algorithm::kShm);
  EXPECT_EQ(builtin_rule(Collective::kBarrier, CommShape::single_node(8), 0).algorithm,
            Algorithm::kShm);
  EXPECT_EQ(builtin_rule(Collective::kAllgather, two_ranks, 8).algorithm, Algorithm::kShm);
  EXPECT_EQ(builtin_rule(Collective::kAllgather, two_ranks, 1u << 20).algorithm, Algorithm::kShm);
  EXPECT_EQ(builtin_rule(Collective::kAllgather, eight_ranks, 16u << 20).algorithm,
            Algorithm::kShm);
}

// More than 2 ranks of one node with a CPU each (measured with 4, 8 and 16 ranks on 16 cores):
// bcast keeps the engine at every size; reduce on more than 4 ranks goes engine, binomial, CMA;
// allreduce goes engine, then CMA from 4 MiB on up to 8 ranks, and on more ranks engine, flat
// rule, CMA. Other collectives, and the same sizes where CPUs are shared, keep the rules above.
TEST(SelectRules, OwnCpusRulesForLargeMessages) {
  const CommShape own = CommShape::single_node(16);
  const CommShape shared = CommShape::single_node(16, /*cpus_shared=*/true);
  for (std::size_t bytes : {8u, 128u << 10, 1u << 20, 16u << 20}) {
    for (int ranks : {3, 4, 8, 16}) {
      EXPECT_EQ(builtin_rule(Collective::kBcast, CommShape::single_node(ranks), bytes).algorithm,
                Algorithm::kShm)
          << ranks << " ranks, " << bytes;
    }
    EXPECT_EQ(builtin_rule(Collective::kReduce, CommShape::single_node(4), bytes).algorithm,
              Algorithm::kShm)
        << bytes;
  }
  EXPECT_EQ(builtin_rule(Collective::kBcast, shared, 1u << 20).algorithm, Algorithm::kIntranodeCma);
  EXPECT_EQ(builtin_rule(Collective::kReduce, own, 64u << 10).algorithm, Algorithm::kShm);
  EXPECT_EQ(builtin_rule(Collective::kReduce, own, (64u << 10) + 4).algorithm,
            Algorithm::kBinomial);
  EXPECT_EQ(builtin_rule(Collective::kReduce, own, 512u << 10).algorithm, Algorithm::kBinomial);
  EXPECT_EQ(builtin_rule(Collective::kReduce, own, (512u << 10) + 4).algorithm,
            Algorithm::kIntranodeCma);
  EXPECT_EQ(builtin_rule(Collective::kReduce, CommShape::single_node(5), 1u << 20).algorithm,
            Algorithm::kIntranodeCma);
  EXPECT_EQ(builtin_rule(Collective::kReduce, shared, 1u << 20).algorithm, Algorithm::kShm);
  // Allreduce on more than 8 ranks: the engine to 64 KiB, the flat rule (Rabenseifner on a
  // power of two, else the ring) to 1 MiB, CMA slices above.
  EXPECT_EQ(builtin_rule(Collective::kAllreduce, own, 64u << 10).algorithm, Algorithm::kShm);
  EXPECT_EQ(builtin_rule(Collective::kAllreduce, own, (64u << 10) + 4).algorithm,
            Algorithm::kRabenseifner);
  EXPECT_EQ(builtin_rule(Collective::kAllreduce, CommShape::single_node(12), 1u << 20).algorithm,
            Algorithm::kRing);
  EXPECT_EQ(builtin_rule(Collective::kAllreduce, own, (1u << 20) + 4).algorithm,
            Algorithm::kIntranodeCma);
  const CommShape eight = CommShape::single_node(8);
  EXPECT_EQ(builtin_rule(Collective::kAllreduce, eight, 4u << 20).algorithm, Algorithm::kShm);
  EXPECT_EQ(builtin_rule(Collective::kAllreduce, eight, (4u << 20) + 4).algorithm,
            Algorithm::kIntranodeCma);
  EXPECT_EQ(builtin_rule(Collective::kAllreduce, shared, 256u << 10).algorithm, Algorithm::kShm);
  EXPECT_EQ(builtin_rule(Collective::kAllgather, own, 1u << 20),
            builtin_rule(Collective::kAllgather, shared, 1u << 20));
  // Across nodes the one-node rules do not apply, CPUs shared or not.
  EXPECT_NE(builtin_rule(Collective::kBcast, CommShape{16, 2, 8}, 1u << 20).algorithm,
            Algorithm::kShm);
}

// Issue 24, the gather family on one node: reduce_scatter(_block) takes the shm engine at every
// size, and gather; scatter at every size on 2 ranks, on more while the whole vector (sized by
// one block) is at most 64 KiB, the flat rule's linear scatter above; the v-variants never by
// default (their sizes differ between ranks), nor across nodes.
TEST(SelectRules, ShmGatherFamilyOnOneNode) {
  const CommShape two_ranks = CommShape::single_node(2);
  const CommShape four_ranks = CommShape::single_node(4);
  for (std::size_t bytes : {8u, 64u << 10, 16u << 20}) {
    for (const CommShape& shape : {two_ranks, four_ranks, CommShape::single_node(8)}) {
      for (Collective c :
           {Collective::kGather, Collective::kReduceScatterBlock, Collective::kReduceScatter}) {
        EXPECT_EQ(builtin_rule(c, shape, bytes).algorithm, Algorithm::kShm)
            << shape.size << " ranks, " << bytes;
      }
    }
    EXPECT_EQ(builtin_rule(Collective::kScatter, two_ranks, bytes).algorithm, Algorithm::kShm);
  }
  EXPECT_EQ(builtin_rule(Collective::kScatter, four_ranks, 16u << 10).algorithm, Algorithm::kShm);
  EXPECT_EQ(builtin_rule(Collective::kScatter, four_ranks, (16u << 10) + 4).algorithm,
            Algorithm::kLinear);
  for (Collective c : {Collective::kGather, Collective::kScatter, Collective::kReduceScatterBlock,
                       Collective::kReduceScatter}) {
    EXPECT_NE(builtin_rule(c, CommShape{4, 2, 2}, 8).algorithm, Algorithm::kShm);
  }
}

TEST(SelectRules, ShmAlltoallOnOneNodeAtEverySize) {
  for (int ranks : {2, 4, 8}) {
    const CommShape shape = CommShape::single_node(ranks);
    for (std::size_t bytes : {std::size_t{8}, std::size_t{1} << 20, std::size_t{16} << 20}) {
      EXPECT_EQ(builtin_rule(Collective::kAlltoall, shape, bytes).algorithm, Algorithm::kShm);
    }
  }
  EXPECT_NE(builtin_rule(Collective::kAlltoall, CommShape{4, 2, 2}, 8).algorithm, Algorithm::kShm);
}

// The v-variants' rules depend on the shape alone: their bytes (this rank's block) differ
// between members, which must all choose alike.
TEST(SelectRules, ShmVectorVariantsByShapeAlone) {
  for (std::size_t bytes : {0u, 8u, 64u << 10, 16u << 20}) {
    for (int ranks : {2, 3, 4, 8}) {
      const CommShape shape = CommShape::single_node(ranks);
      EXPECT_EQ(builtin_rule(Collective::kAllgatherv, shape, bytes).algorithm, Algorithm::kShm);
      EXPECT_EQ(builtin_rule(Collective::kGatherv, shape, bytes).algorithm, Algorithm::kShm);
      EXPECT_EQ(builtin_rule(Collective::kAlltoallv, shape, bytes).algorithm, Algorithm::kShm);
      EXPECT_EQ(builtin_rule(Collective::kScatterv, shape, bytes).algorithm,
                ranks == 2 ? Algorithm::kShm : Algorithm::kLinear)
          << ranks << " ranks, " << bytes;
    }
    for (Collective c : {Collective::kGatherv, Collective::kScatterv, Collective::kAllgatherv,
                         Collective::kAlltoallv}) {
      EXPECT_NE(builtin_rule(c, CommShape{4, 2, 2}, bytes).algorithm, Algorithm::kShm);
    }
  }
}

TEST(AdaptParams, TreeAndSegmentFromTheSelection) {
  SelectedAlgorithm selected{Algorithm::kAdapt, adapt::TreeShape::kChain, 12345};
  adapt::Params params = adapt::params_for(Collective::kBcast, selected);
  EXPECT_EQ(params.tree, adapt::TreeShape::kChain);
  EXPECT_EQ(params.segment_bytes, 12345u);
  EXPECT_GT(params.recvs_in_flight, params.sends_in_flight);
}

}  // namespace
}  // namespace halyard::select
