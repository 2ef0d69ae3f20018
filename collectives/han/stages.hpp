// The stages of HAN's pipelines, per segment: the one description that HAN's task graphs
// (bcast.cpp, allreduce.cpp, reduce.cpp) and htune's task benchmarks (tuner/pipeline_stages.cpp)
// share, so the tuner measures the pipeline HAN runs under the same configuration.
//   bcast:                                ib (bcast among leaders), sb (bcast inside the node)
//   reduce:                               sr (reduce inside the node), ir (reduce among leaders)
//   allreduce, leaders in one step:       sr, ira (one flat allreduce among leaders), sb
//   allreduce, leaders reduce then bcast: sr, ir, ib, sb
#pragma once

#include <span>
#include <string_view>

#include "collectives/core/vocabulary.hpp"
#include "collectives/han/han_config.hpp"

namespace halyard::han {

enum class Stage { kSr, kIr, kIrAllreduce, kIb, kSb };

// "sr", "ir", "ira", "ib", "sb".
std::string_view stage_name(Stage stage);

// Whether allreduce's leaders combine in one flat allreduce (base has one: recursive doubling
// or Rabenseifner) rather than a reduce then a bcast (adapt has only trees: two inter tasks per
// segment). The flat allreduce is the default; adapt's two steps run only when chosen
// (HALYARD_HAN_INTER or a decision table's imod).
bool leaders_allreduce_in_one_step(const Config& config);

// The stages of `collective`'s pipeline under `config`, in the order of one segment's data.
// Empty for collectives without a segmented pipeline (allgather, barrier).
std::span<const Stage> stages_of(core::Collective collective, const Config& config);

}  // namespace halyard::han
