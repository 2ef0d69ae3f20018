#include "tuner/search_space.hpp"

#include <algorithm>

#include "runtime/support/error.hpp"

namespace halyard::tuner {

namespace {

using adapt::TreeShape;
using han::InterModule;
using han::IntraModule;

constexpr std::pair<int, int> kDefaultInFlight{2, 4};
constexpr std::size_t kDefaultInterSegment = 64 * 1024;

// Heuristic thresholds (docs/tuning.md, "Heuristics").
constexpr std::size_t kChainMinInterSegments = 8;     // chain pipelines only with many segments
constexpr std::size_t kInFlightMinInterSegments = 4;  // N/M matter only with segments to queue
// Up to the shm eager limit only p2p and the shm engine (no notices) can win; the engine's
// cells (about 64 KiB) bound where it may.
constexpr std::size_t kP2pOnlyBytes = han::kSmallIntraBytes;
constexpr std::size_t kShmMaxBytes = 64 * 1024;
constexpr std::size_t kNoSmBytes =
    512 * 1024;  // sm's fragments and notices lose above (SOLO's 512 KB)

std::size_t inter_segments_in(const Candidate& c, std::size_t segment_bytes) {
  return (segment_bytes + c.inter_segment - 1) / std::max<std::size_t>(c.inter_segment, 1);
}

}  // namespace

SearchSpace space_preset(std::string_view name) {
  SearchSpace space;
  space.intras = {IntraModule::kSm, IntraModule::kCma, IntraModule::kBase, IntraModule::kShm};
  space.in_flight = {kDefaultInFlight};
  space.inter_segments = {kDefaultInterSegment};
  if (name == "small") {
    space.trees = {TreeShape::kBinomial, TreeShape::kChain};
  } else if (name == "medium" || name == "full") {
    space.trees = {TreeShape::kChain, TreeShape::kBinary, TreeShape::kBinomial,
                   TreeShape::kKnomial};
    space.inter_segments = {16 * 1024, kDefaultInterSegment};
    if (name == "full") space.in_flight = {kDefaultInFlight, {4, 8}};
  } else {
    throw Error(ErrorCode::kInvalidArgument,
                "search space '" + std::string(name) + "': expected small, medium or full");
  }
  return space;
}

std::vector<Candidate> all_candidates(const SearchSpace& space) {
  std::vector<Candidate> inters;
  if (space.base_inter) inters.push_back(Candidate{InterModule::kBase});
  for (TreeShape tree : space.trees) {
    for (std::size_t ibs : space.inter_segments) {
      for (auto [n, m] : space.in_flight) {
        inters.push_back(Candidate{InterModule::kAdapt, tree, ibs, n, m});
      }
    }
  }
  std::vector<Candidate> all;
  for (const Candidate& inter : inters) {
    for (IntraModule intra : space.intras) {
      Candidate c = inter;
      c.intra = intra;
      all.push_back(c);
    }
  }
  return all;
}

int pipeline_depth(select::Collective collective, han::InterModule inter) {
  if (collective == select::Collective::kBcast) return 2;  // ib, sb
  return inter == InterModule::kAdapt ? 4 : 3;             // sr, ir, ib, sb / sr, ir, sb
}

Candidate normalized(Candidate c, std::size_t segment_bytes) {
  if (c.inter == InterModule::kBase) {
    return Candidate{InterModule::kBase,     TreeShape::kBinomial,    kDefaultInterSegment,
                     kDefaultInFlight.first, kDefaultInFlight.second, c.intra};
  }
  c.inter_segment = std::min(c.inter_segment, std::max<std::size_t>(segment_bytes, 1));
  if (inter_segments_in(c, segment_bytes) <= 1) {
    c.inter_segment = kDefaultInterSegment;  // any ibs >= the segment runs alike
    c.sends_in_flight = kDefaultInFlight.first;
    c.recvs_in_flight = kDefaultInFlight.second;
  }
  return c;
}

bool heuristic_keeps(select::Collective collective, const Candidate& c, std::size_t segment_bytes,
                     std::size_t segments, int leaders) {
  const auto depth = static_cast<std::size_t>(pipeline_depth(collective, c.inter));
  if (segments > 1 && segments < depth) return false;  // a pipeline that never fills
  const bool flat_intra = c.intra == IntraModule::kBase || c.intra == IntraModule::kShm;
  if (segment_bytes <= kP2pOnlyBytes && !flat_intra) return false;
  if (segment_bytes > kShmMaxBytes && c.intra == IntraModule::kShm) return false;
  if (segment_bytes >= kNoSmBytes && c.intra == IntraModule::kSm) return false;
  if (c.inter == InterModule::kAdapt) {
    const std::size_t pieces = inter_segments_in(c, segment_bytes);
    // Two leaders: every tree is the same single edge.
    if (leaders <= 2 && c.tree != TreeShape::kBinomial) return false;
    if (c.tree == TreeShape::kChain && pieces < kChainMinInterSegments) return false;
    if (pieces < kInFlightMinInterSegments &&
        std::pair{c.sends_in_flight, c.recvs_in_flight} != kDefaultInFlight) {
      return false;
    }
  }
  return true;
}

han::Tuning to_tuning(select::Collective collective, const Candidate& c, std::size_t fs) {
  han::Tuning t;
  if (fs > 0) t.segment_bytes = fs;
  t.inter = c.inter;
  t.intra = c.intra;
  if (c.inter == InterModule::kAdapt) {
    t.inter_bcast_tree = c.tree;
    t.inter_bcast_segment = c.inter_segment;
    if (collective != select::Collective::kBcast) {
      t.inter_reduce_tree = c.tree;
      t.inter_reduce_segment = c.inter_segment;
    }
    t.sends_in_flight = c.sends_in_flight;
    t.recvs_in_flight = c.recvs_in_flight;
  }
  return t;
}

std::string label(select::Collective collective, const Candidate& c, std::size_t fs) {
  std::string text = han::describe(to_tuning(collective, c, fs));
  return fs == 0 ? "fs=whole " + text : text;
}

}  // namespace halyard::tuner
